from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.game_view import GameView
from ...models.move_refusal import MoveRefusal
from ...models.problem import Problem
from ...models.rematch_request import RematchRequest
from ...models.validation_problem import ValidationProblem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    body: RematchRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/games/{id}/rematch".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> GameView | MoveRefusal | Problem | ValidationProblem | None:
    if response.status_code == 201:
        response_201 = GameView.from_dict(response.json())

        return response_201

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
    body: RematchRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[GameView | MoveRefusal | Problem | ValidationProblem]:
    """Offer a rematch

     After a finished game, either player may offer the other a new game with
    the same variant and rules and the colors swapped: a challenge the
    opponent joins or declines (event `rematch_offered`). One per game. The
    time control is the finished game's unless the body (which may be left
    out) names another.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (RematchRequest | Unset): A rematch's time control: the finished game's unless one is
            given
            here (the body may be left out). Example: {'time_control': {'increment_days': 2,
            'initial_days': 10, 'max_days': 20, 'type': 'fischer'}}.

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
    body: RematchRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> GameView | MoveRefusal | Problem | ValidationProblem | None:
    """Offer a rematch

     After a finished game, either player may offer the other a new game with
    the same variant and rules and the colors swapped: a challenge the
    opponent joins or declines (event `rematch_offered`). One per game. The
    time control is the finished game's unless the body (which may be left
    out) names another.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (RematchRequest | Unset): A rematch's time control: the finished game's unless one is
            given
            here (the body may be left out). Example: {'time_control': {'increment_days': 2,
            'initial_days': 10, 'max_days': 20, 'type': 'fischer'}}.

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
    body: RematchRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[GameView | MoveRefusal | Problem | ValidationProblem]:
    """Offer a rematch

     After a finished game, either player may offer the other a new game with
    the same variant and rules and the colors swapped: a challenge the
    opponent joins or declines (event `rematch_offered`). One per game. The
    time control is the finished game's unless the body (which may be left
    out) names another.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (RematchRequest | Unset): A rematch's time control: the finished game's unless one is
            given
            here (the body may be left out). Example: {'time_control': {'increment_days': 2,
            'initial_days': 10, 'max_days': 20, 'type': 'fischer'}}.

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
    body: RematchRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> GameView | MoveRefusal | Problem | ValidationProblem | None:
    """Offer a rematch

     After a finished game, either player may offer the other a new game with
    the same variant and rules and the colors swapped: a challenge the
    opponent joins or declines (event `rematch_offered`). One per game. The
    time control is the finished game's unless the body (which may be left
    out) names another.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (RematchRequest | Unset): A rematch's time control: the finished game's unless one is
            given
            here (the body may be left out). Example: {'time_control': {'increment_days': 2,
            'initial_days': 10, 'max_days': 20, 'type': 'fischer'}}.

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
