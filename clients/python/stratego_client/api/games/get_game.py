from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.game_view import GameView
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    wait_for_version: int | Unset = UNSET,
    wait: int | Unset = 30,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["wait_for_version"] = wait_for_version

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/games/{id}".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | GameView | Problem | None:
    if response.status_code == 200:
        response_200 = GameView.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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
) -> Response[Any | GameView | Problem]:
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
    wait_for_version: int | Unset = UNSET,
    wait: int | Unset = 30,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | GameView | Problem]:
    """Get a game

     The game as the caller may see it (a player's view, or a spectator's).
    Sends an `ETag`; `If-None-Match` with it answers 304 while nothing
    changed. `wait_for_version=n` holds the answer until the version passes
    `n` (long polling, at most `wait` seconds).

    Args:
        id (UUID):
        wait_for_version (int | Unset):
        wait (int | Unset):  Default: 30.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GameView | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        wait_for_version=wait_for_version,
        wait=wait,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    wait_for_version: int | Unset = UNSET,
    wait: int | Unset = 30,
    if_none_match: str | Unset = UNSET,
) -> Any | GameView | Problem | None:
    """Get a game

     The game as the caller may see it (a player's view, or a spectator's).
    Sends an `ETag`; `If-None-Match` with it answers 304 while nothing
    changed. `wait_for_version=n` holds the answer until the version passes
    `n` (long polling, at most `wait` seconds).

    Args:
        id (UUID):
        wait_for_version (int | Unset):
        wait (int | Unset):  Default: 30.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GameView | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        wait_for_version=wait_for_version,
        wait=wait,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    wait_for_version: int | Unset = UNSET,
    wait: int | Unset = 30,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | GameView | Problem]:
    """Get a game

     The game as the caller may see it (a player's view, or a spectator's).
    Sends an `ETag`; `If-None-Match` with it answers 304 while nothing
    changed. `wait_for_version=n` holds the answer until the version passes
    `n` (long polling, at most `wait` seconds).

    Args:
        id (UUID):
        wait_for_version (int | Unset):
        wait (int | Unset):  Default: 30.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GameView | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        wait_for_version=wait_for_version,
        wait=wait,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    wait_for_version: int | Unset = UNSET,
    wait: int | Unset = 30,
    if_none_match: str | Unset = UNSET,
) -> Any | GameView | Problem | None:
    """Get a game

     The game as the caller may see it (a player's view, or a spectator's).
    Sends an `ETag`; `If-None-Match` with it answers 304 while nothing
    changed. `wait_for_version=n` holds the answer until the version passes
    `n` (long polling, at most `wait` seconds).

    Args:
        id (UUID):
        wait_for_version (int | Unset):
        wait (int | Unset):  Default: 30.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GameView | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            wait_for_version=wait_for_version,
            wait=wait,
            if_none_match=if_none_match,
        )
    ).parsed
