from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_game_request import CreateGameRequest
from ...models.game_view import GameView
from ...models.problem import Problem
from ...models.validation_problem import ValidationProblem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateGameRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/games",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> GameView | Problem | ValidationProblem | None:
    if response.status_code == 201:
        response_201 = GameView.from_dict(response.json())

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
) -> Response[GameView | Problem | ValidationProblem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateGameRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[GameView | Problem | ValidationProblem]:
    """Create a game

     Create a game: an open seat anyone may take, or a challenge to a named user.

    Args:
        idempotency_key (str | Unset):
        body (CreateGameRequest): A new game: an open seat (`opponent` null) or a challenge to a
            user. Example: {'color': 'random', 'days_per_move': 3, 'opponent': None, 'rated': True,
            'rules': {'two_square_limit': 3}, 'variant': 'classic'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameView | Problem | ValidationProblem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateGameRequest,
    idempotency_key: str | Unset = UNSET,
) -> GameView | Problem | ValidationProblem | None:
    """Create a game

     Create a game: an open seat anyone may take, or a challenge to a named user.

    Args:
        idempotency_key (str | Unset):
        body (CreateGameRequest): A new game: an open seat (`opponent` null) or a challenge to a
            user. Example: {'color': 'random', 'days_per_move': 3, 'opponent': None, 'rated': True,
            'rules': {'two_square_limit': 3}, 'variant': 'classic'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameView | Problem | ValidationProblem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateGameRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[GameView | Problem | ValidationProblem]:
    """Create a game

     Create a game: an open seat anyone may take, or a challenge to a named user.

    Args:
        idempotency_key (str | Unset):
        body (CreateGameRequest): A new game: an open seat (`opponent` null) or a challenge to a
            user. Example: {'color': 'random', 'days_per_move': 3, 'opponent': None, 'rated': True,
            'rules': {'two_square_limit': 3}, 'variant': 'classic'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameView | Problem | ValidationProblem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateGameRequest,
    idempotency_key: str | Unset = UNSET,
) -> GameView | Problem | ValidationProblem | None:
    """Create a game

     Create a game: an open seat anyone may take, or a challenge to a named user.

    Args:
        idempotency_key (str | Unset):
        body (CreateGameRequest): A new game: an open seat (`opponent` null) or a challenge to a
            user. Example: {'color': 'random', 'days_per_move': 3, 'opponent': None, 'rated': True,
            'rules': {'two_square_limit': 3}, 'variant': 'classic'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameView | Problem | ValidationProblem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
