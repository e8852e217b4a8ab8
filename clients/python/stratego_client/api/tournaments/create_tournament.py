from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_tournament import CreateTournament
from ...models.problem import Problem
from ...models.tournament_view import TournamentView
from ...models.validation_problem import ValidationProblem
from ...types import Response


def _get_kwargs(
    *,
    body: CreateTournament,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/tournaments",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TournamentView | ValidationProblem | None:
    if response.status_code == 201:
        response_201 = TournamentView.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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
) -> Response[Problem | TournamentView | ValidationProblem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateTournament,
) -> Response[Problem | TournamentView | ValidationProblem]:
    """Create a tournament

     You organise it: you start it (or it starts at `starts_at`), and you
    play in it only if you join it too. A round robin pairs everyone with
    everyone at once; a Swiss tournament pairs `rounds` rounds by score,
    each when the last game of the one before ends.

    Args:
        body (CreateTournament): A new tournament. The caller organises it, and plays only if they
            join it too. Example: {'max_players': 32, 'name': 'Winter Swiss', 'rated': True, 'rounds':
            5, 'system': 'swiss', 'time_control': {'increment_days': 1, 'initial_days': 10,
            'max_days': 20, 'type': 'fischer'}, 'variant': 'classic'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TournamentView | ValidationProblem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateTournament,
) -> Problem | TournamentView | ValidationProblem | None:
    """Create a tournament

     You organise it: you start it (or it starts at `starts_at`), and you
    play in it only if you join it too. A round robin pairs everyone with
    everyone at once; a Swiss tournament pairs `rounds` rounds by score,
    each when the last game of the one before ends.

    Args:
        body (CreateTournament): A new tournament. The caller organises it, and plays only if they
            join it too. Example: {'max_players': 32, 'name': 'Winter Swiss', 'rated': True, 'rounds':
            5, 'system': 'swiss', 'time_control': {'increment_days': 1, 'initial_days': 10,
            'max_days': 20, 'type': 'fischer'}, 'variant': 'classic'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TournamentView | ValidationProblem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateTournament,
) -> Response[Problem | TournamentView | ValidationProblem]:
    """Create a tournament

     You organise it: you start it (or it starts at `starts_at`), and you
    play in it only if you join it too. A round robin pairs everyone with
    everyone at once; a Swiss tournament pairs `rounds` rounds by score,
    each when the last game of the one before ends.

    Args:
        body (CreateTournament): A new tournament. The caller organises it, and plays only if they
            join it too. Example: {'max_players': 32, 'name': 'Winter Swiss', 'rated': True, 'rounds':
            5, 'system': 'swiss', 'time_control': {'increment_days': 1, 'initial_days': 10,
            'max_days': 20, 'type': 'fischer'}, 'variant': 'classic'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TournamentView | ValidationProblem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateTournament,
) -> Problem | TournamentView | ValidationProblem | None:
    """Create a tournament

     You organise it: you start it (or it starts at `starts_at`), and you
    play in it only if you join it too. A round robin pairs everyone with
    everyone at once; a Swiss tournament pairs `rounds` rounds by score,
    each when the last game of the one before ends.

    Args:
        body (CreateTournament): A new tournament. The caller organises it, and plays only if they
            join it too. Example: {'max_players': 32, 'name': 'Winter Swiss', 'rated': True, 'rounds':
            5, 'system': 'swiss', 'time_control': {'increment_days': 1, 'initial_days': 10,
            'max_days': 20, 'type': 'fischer'}, 'variant': 'classic'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TournamentView | ValidationProblem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
