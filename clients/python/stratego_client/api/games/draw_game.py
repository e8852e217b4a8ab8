from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.draw_request import DrawRequest
from ...models.game_view import GameView
from ...models.move_refusal import MoveRefusal
from ...models.problem import Problem
from ...models.validation_problem import ValidationProblem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    body: DrawRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/games/{id}/draw".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> GameView | MoveRefusal | Problem | ValidationProblem | None:
    if response.status_code == 200:
        response_200 = GameView.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = MoveRefusal.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ValidationProblem.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[GameView | MoveRefusal | Problem | ValidationProblem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: DrawRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[GameView | MoveRefusal | Problem | ValidationProblem]:
    """Offer, accept or decline a draw

     Offer a draw, or accept or decline the opponent's offer (docs/rules.md: an
    offer stands until answered or until the offerer moves).

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (DrawRequest): Offer a draw, or answer the opponent's offer. Example: {'action':
            'offer'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameView | MoveRefusal | Problem | ValidationProblem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: DrawRequest,
    idempotency_key: str | Unset = UNSET,
) -> GameView | MoveRefusal | Problem | ValidationProblem | None:
    """Offer, accept or decline a draw

     Offer a draw, or accept or decline the opponent's offer (docs/rules.md: an
    offer stands until answered or until the offerer moves).

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (DrawRequest): Offer a draw, or answer the opponent's offer. Example: {'action':
            'offer'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameView | MoveRefusal | Problem | ValidationProblem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: DrawRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[GameView | MoveRefusal | Problem | ValidationProblem]:
    """Offer, accept or decline a draw

     Offer a draw, or accept or decline the opponent's offer (docs/rules.md: an
    offer stands until answered or until the offerer moves).

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (DrawRequest): Offer a draw, or answer the opponent's offer. Example: {'action':
            'offer'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameView | MoveRefusal | Problem | ValidationProblem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: DrawRequest,
    idempotency_key: str | Unset = UNSET,
) -> GameView | MoveRefusal | Problem | ValidationProblem | None:
    """Offer, accept or decline a draw

     Offer a draw, or accept or decline the opponent's offer (docs/rules.md: an
    offer stands until answered or until the offerer moves).

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (DrawRequest): Offer a draw, or answer the opponent's offer. Example: {'action':
            'offer'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameView | MoveRefusal | Problem | ValidationProblem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
