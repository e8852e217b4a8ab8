from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.saved_setup import SavedSetup
from ...models.setup_refusal import SetupRefusal
from ...models.setup_to_save import SetupToSave
from ...types import Response


def _get_kwargs(
    *,
    body: SetupToSave,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/me/setups",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SavedSetup | SetupRefusal | None:
    if response.status_code == 201:
        response_201 = SavedSetup.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = SetupRefusal.from_dict(response.json())

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
) -> Response[Problem | SavedSetup | SetupRefusal]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SetupToSave,
) -> Response[Problem | SavedSetup | SetupRefusal]:
    r"""Save a setup

     Validated like a game setup (every problem at once, as `invalid_setup`).
    At most 50 setups per user. Only you ever see your setups; use one in a
    game with `POST /games/{id}/setup {\"saved\": \"<name>\"}`.

    Args:
        body (SetupToSave): A setup to save: its name, variant and placement. Example: {'name':
            'fortress', 'placement': {'a1': 'flag', 'b1': 'bomb', 'c1': 'bomb', 'd1': 'spy', 'e1':
            'scout', 'f1': 'scout', 'g1': 'miner', 'h1': 'miner', 'i1': 'general', 'j1': 'marshal'},
            'variant': 'duel'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SavedSetup | SetupRefusal]
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
    body: SetupToSave,
) -> Problem | SavedSetup | SetupRefusal | None:
    r"""Save a setup

     Validated like a game setup (every problem at once, as `invalid_setup`).
    At most 50 setups per user. Only you ever see your setups; use one in a
    game with `POST /games/{id}/setup {\"saved\": \"<name>\"}`.

    Args:
        body (SetupToSave): A setup to save: its name, variant and placement. Example: {'name':
            'fortress', 'placement': {'a1': 'flag', 'b1': 'bomb', 'c1': 'bomb', 'd1': 'spy', 'e1':
            'scout', 'f1': 'scout', 'g1': 'miner', 'h1': 'miner', 'i1': 'general', 'j1': 'marshal'},
            'variant': 'duel'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SavedSetup | SetupRefusal
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SetupToSave,
) -> Response[Problem | SavedSetup | SetupRefusal]:
    r"""Save a setup

     Validated like a game setup (every problem at once, as `invalid_setup`).
    At most 50 setups per user. Only you ever see your setups; use one in a
    game with `POST /games/{id}/setup {\"saved\": \"<name>\"}`.

    Args:
        body (SetupToSave): A setup to save: its name, variant and placement. Example: {'name':
            'fortress', 'placement': {'a1': 'flag', 'b1': 'bomb', 'c1': 'bomb', 'd1': 'spy', 'e1':
            'scout', 'f1': 'scout', 'g1': 'miner', 'h1': 'miner', 'i1': 'general', 'j1': 'marshal'},
            'variant': 'duel'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SavedSetup | SetupRefusal]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: SetupToSave,
) -> Problem | SavedSetup | SetupRefusal | None:
    r"""Save a setup

     Validated like a game setup (every problem at once, as `invalid_setup`).
    At most 50 setups per user. Only you ever see your setups; use one in a
    game with `POST /games/{id}/setup {\"saved\": \"<name>\"}`.

    Args:
        body (SetupToSave): A setup to save: its name, variant and placement. Example: {'name':
            'fortress', 'placement': {'a1': 'flag', 'b1': 'bomb', 'c1': 'bomb', 'd1': 'spy', 'e1':
            'scout', 'f1': 'scout', 'g1': 'miner', 'h1': 'miner', 'i1': 'general', 'j1': 'marshal'},
            'variant': 'duel'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SavedSetup | SetupRefusal
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
