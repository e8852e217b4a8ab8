from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.move_answer import MoveAnswer
from ...models.move_refusal import MoveRefusal
from ...models.move_request import MoveRequest
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    body: MoveRequest,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/games/{id}/moves".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> MoveAnswer | MoveRefusal | Problem | None:
    if response.status_code == 200:
        response_200 = MoveAnswer.from_dict(response.json())

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

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = MoveRefusal.from_dict(response.json())

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
) -> Response[MoveAnswer | MoveRefusal | Problem]:
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
    body: MoveRequest,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[MoveAnswer | MoveRefusal | Problem]:
    """Play a move

     Make a move. `expected_version` (or `If-Match` with the view's ETag)
    refuses it if the game changed since the caller looked. Square names
    that are not squares answer 422 `validation_failed`.

    Args:
        id (UUID):
        if_match (str | Unset):
        idempotency_key (str | Unset):
        body (MoveRequest): One move. Example: {'expected_version': 12, 'from': 'e4', 'to': 'e5'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MoveAnswer | MoveRefusal | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        if_match=if_match,
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
    body: MoveRequest,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> MoveAnswer | MoveRefusal | Problem | None:
    """Play a move

     Make a move. `expected_version` (or `If-Match` with the view's ETag)
    refuses it if the game changed since the caller looked. Square names
    that are not squares answer 422 `validation_failed`.

    Args:
        id (UUID):
        if_match (str | Unset):
        idempotency_key (str | Unset):
        body (MoveRequest): One move. Example: {'expected_version': 12, 'from': 'e4', 'to': 'e5'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MoveAnswer | MoveRefusal | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        if_match=if_match,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: MoveRequest,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[MoveAnswer | MoveRefusal | Problem]:
    """Play a move

     Make a move. `expected_version` (or `If-Match` with the view's ETag)
    refuses it if the game changed since the caller looked. Square names
    that are not squares answer 422 `validation_failed`.

    Args:
        id (UUID):
        if_match (str | Unset):
        idempotency_key (str | Unset):
        body (MoveRequest): One move. Example: {'expected_version': 12, 'from': 'e4', 'to': 'e5'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MoveAnswer | MoveRefusal | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        if_match=if_match,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: MoveRequest,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> MoveAnswer | MoveRefusal | Problem | None:
    """Play a move

     Make a move. `expected_version` (or `If-Match` with the view's ETag)
    refuses it if the game changed since the caller looked. Square names
    that are not squares answer 422 `validation_failed`.

    Args:
        id (UUID):
        if_match (str | Unset):
        idempotency_key (str | Unset):
        body (MoveRequest): One move. Example: {'expected_version': 12, 'from': 'e4', 'to': 'e5'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MoveAnswer | MoveRefusal | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            if_match=if_match,
            idempotency_key=idempotency_key,
        )
    ).parsed
