from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.game_view import GameView
from ...models.move_refusal import MoveRefusal
from ...models.placement_setup import PlacementSetup
from ...models.problem import Problem
from ...models.random_setup import RandomSetup
from ...models.saved_setup_choice import SavedSetupChoice
from ...models.setup_refusal import SetupRefusal
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    body: PlacementSetup | RandomSetup | SavedSetupChoice,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/games/{id}/setup".format(
            id=quote(str(id), safe=""),
        ),
    }

    if isinstance(body, PlacementSetup):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, RandomSetup):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> GameView | MoveRefusal | Problem | SetupRefusal | None:
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
) -> Response[GameView | MoveRefusal | Problem | SetupRefusal]:
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
    body: PlacementSetup | RandomSetup | SavedSetupChoice,
    idempotency_key: str | Unset = UNSET,
) -> Response[GameView | MoveRefusal | Problem | SetupRefusal]:
    r"""Place your setup

     Place (or replace) your secret setup: the whole army inside your own
    zone, or `{\"random\": true, \"seed\": n}`. Play starts when both are in.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (PlacementSetup | RandomSetup | SavedSetupChoice): A setup: either the whole army by
            square, or a random one placed by the
            server (`seed` makes it reproducible). Example: {'random': True, 'seed': 7}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameView | MoveRefusal | Problem | SetupRefusal]
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
    body: PlacementSetup | RandomSetup | SavedSetupChoice,
    idempotency_key: str | Unset = UNSET,
) -> GameView | MoveRefusal | Problem | SetupRefusal | None:
    r"""Place your setup

     Place (or replace) your secret setup: the whole army inside your own
    zone, or `{\"random\": true, \"seed\": n}`. Play starts when both are in.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (PlacementSetup | RandomSetup | SavedSetupChoice): A setup: either the whole army by
            square, or a random one placed by the
            server (`seed` makes it reproducible). Example: {'random': True, 'seed': 7}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameView | MoveRefusal | Problem | SetupRefusal
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
    body: PlacementSetup | RandomSetup | SavedSetupChoice,
    idempotency_key: str | Unset = UNSET,
) -> Response[GameView | MoveRefusal | Problem | SetupRefusal]:
    r"""Place your setup

     Place (or replace) your secret setup: the whole army inside your own
    zone, or `{\"random\": true, \"seed\": n}`. Play starts when both are in.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (PlacementSetup | RandomSetup | SavedSetupChoice): A setup: either the whole army by
            square, or a random one placed by the
            server (`seed` makes it reproducible). Example: {'random': True, 'seed': 7}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameView | MoveRefusal | Problem | SetupRefusal]
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
    body: PlacementSetup | RandomSetup | SavedSetupChoice,
    idempotency_key: str | Unset = UNSET,
) -> GameView | MoveRefusal | Problem | SetupRefusal | None:
    r"""Place your setup

     Place (or replace) your secret setup: the whole army inside your own
    zone, or `{\"random\": true, \"seed\": n}`. Play starts when both are in.

    Args:
        id (UUID):
        idempotency_key (str | Unset):
        body (PlacementSetup | RandomSetup | SavedSetupChoice): A setup: either the whole army by
            square, or a random one placed by the
            server (`seed` makes it reproducible). Example: {'random': True, 'seed': 7}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameView | MoveRefusal | Problem | SetupRefusal
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
