from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.move_refusal import MoveRefusal
from ...models.problem import Problem
from ...models.tournament_view import TournamentView
from ...types import Response


def _get_kwargs(
    id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/tournaments/{id}/start".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> MoveRefusal | Problem | TournamentView | None:
    if response.status_code == 200:
        response_200 = TournamentView.from_dict(response.json())

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
) -> Response[MoveRefusal | Problem | TournamentView]:
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
) -> Response[MoveRefusal | Problem | TournamentView]:
    """Start a tournament

     The organiser only, with at least 3 players (a Swiss tournament: more
    players than rounds). A round robin's games all start now; a Swiss
    tournament's first round is paired by rating. Every player is told
    (`tournament_started`, with their games).

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MoveRefusal | Problem | TournamentView]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
) -> MoveRefusal | Problem | TournamentView | None:
    """Start a tournament

     The organiser only, with at least 3 players (a Swiss tournament: more
    players than rounds). A round robin's games all start now; a Swiss
    tournament's first round is paired by rating. Every player is told
    (`tournament_started`, with their games).

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MoveRefusal | Problem | TournamentView
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[MoveRefusal | Problem | TournamentView]:
    """Start a tournament

     The organiser only, with at least 3 players (a Swiss tournament: more
    players than rounds). A round robin's games all start now; a Swiss
    tournament's first round is paired by rating. Every player is told
    (`tournament_started`, with their games).

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MoveRefusal | Problem | TournamentView]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
) -> MoveRefusal | Problem | TournamentView | None:
    """Start a tournament

     The organiser only, with at least 3 players (a Swiss tournament: more
    players than rounds). A round robin's games all start now; a Swiss
    tournament's first round is paired by rating. Every player is told
    (`tournament_started`, with their games).

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MoveRefusal | Problem | TournamentView
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
