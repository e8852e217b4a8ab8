from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.join_tournament import JoinTournament
from ...models.move_refusal import MoveRefusal
from ...models.problem import Problem
from ...models.tournament_view import TournamentView
from ...models.validation_problem import ValidationProblem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    body: JoinTournament | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/tournaments/{id}/leave".format(
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
) -> MoveRefusal | Problem | TournamentView | ValidationProblem | None:
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
) -> Response[MoveRefusal | Problem | TournamentView | ValidationProblem]:
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
    body: JoinTournament | Unset = UNSET,
) -> Response[MoveRefusal | Problem | TournamentView | ValidationProblem]:
    r"""Leave a tournament

     Before it starts, you are off the list. Once it runs, you withdraw:
    your games not yet over are forfeited (resigned, or aborted as your
    loss before play) and you are not paired again; your results stay in
    the standings, marked `withdrawn`. The organiser may withdraw a bot
    they entered with `{\"bot\": ...}`.

    Args:
        id (UUID):
        body (JoinTournament | Unset): Who joins or leaves: the caller, or (the organiser only) a
            bot. Example: {'bot': 'bot-tactician'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MoveRefusal | Problem | TournamentView | ValidationProblem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: JoinTournament | Unset = UNSET,
) -> MoveRefusal | Problem | TournamentView | ValidationProblem | None:
    r"""Leave a tournament

     Before it starts, you are off the list. Once it runs, you withdraw:
    your games not yet over are forfeited (resigned, or aborted as your
    loss before play) and you are not paired again; your results stay in
    the standings, marked `withdrawn`. The organiser may withdraw a bot
    they entered with `{\"bot\": ...}`.

    Args:
        id (UUID):
        body (JoinTournament | Unset): Who joins or leaves: the caller, or (the organiser only) a
            bot. Example: {'bot': 'bot-tactician'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MoveRefusal | Problem | TournamentView | ValidationProblem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: JoinTournament | Unset = UNSET,
) -> Response[MoveRefusal | Problem | TournamentView | ValidationProblem]:
    r"""Leave a tournament

     Before it starts, you are off the list. Once it runs, you withdraw:
    your games not yet over are forfeited (resigned, or aborted as your
    loss before play) and you are not paired again; your results stay in
    the standings, marked `withdrawn`. The organiser may withdraw a bot
    they entered with `{\"bot\": ...}`.

    Args:
        id (UUID):
        body (JoinTournament | Unset): Who joins or leaves: the caller, or (the organiser only) a
            bot. Example: {'bot': 'bot-tactician'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MoveRefusal | Problem | TournamentView | ValidationProblem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: JoinTournament | Unset = UNSET,
) -> MoveRefusal | Problem | TournamentView | ValidationProblem | None:
    r"""Leave a tournament

     Before it starts, you are off the list. Once it runs, you withdraw:
    your games not yet over are forfeited (resigned, or aborted as your
    loss before play) and you are not paired again; your results stay in
    the standings, marked `withdrawn`. The organiser may withdraw a bot
    they entered with `{\"bot\": ...}`.

    Args:
        id (UUID):
        body (JoinTournament | Unset): Who joins or leaves: the caller, or (the organiser only) a
            bot. Example: {'bot': 'bot-tactician'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MoveRefusal | Problem | TournamentView | ValidationProblem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
