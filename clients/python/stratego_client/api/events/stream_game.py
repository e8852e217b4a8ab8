from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.stream_game_response_200 import StreamGameResponse200
from ...models.too_many_streams_problem import TooManyStreamsProblem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    last_event_id: int | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = str(last_event_id)

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/games/{id}/stream".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | StreamGameResponse200 | TooManyStreamsProblem | None:
    if response.status_code == 200:
        response_200 = StreamGameResponse200.from_dict(response.text)

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = TooManyStreamsProblem.from_dict(response.json())

        return response_429

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
) -> Response[Problem | StreamGameResponse200 | TooManyStreamsProblem]:
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
    last_event_id: int | Unset = UNSET,
) -> Response[Problem | StreamGameResponse200 | TooManyStreamsProblem]:
    r"""Stream a game

     One game as the caller may see it, as Server-Sent Events.

    Not for Swagger UI's \"Try it out\", which waits for the end of the answer
    and a stream has none: watch it with `curl -N -H \"Authorization: Bearer
    <token>\" http://127.0.0.1:8080/api/v1/games/<id>/stream`.

    Sends the caller's current view of the game at once (`event: game`,
    `id: <version>`, `data: <exactly what GET /games/{id} answers>`), then
    the caller's new view after every change of the game, from whichever
    server process made it. Views are computed for the caller, so they
    never hold a rank the caller may not know. A client reconnecting with
    `Last-Event-ID: <version>` gets the view only if the game has changed
    since. Keep-alive comments, the per-user cap (429 `too_many_streams`) and
    the clean end at shutdown are as for `/events/stream`.

    Args:
        id (UUID):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamGameResponse200 | TooManyStreamsProblem]
    """

    kwargs = _get_kwargs(
        id=id,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    last_event_id: int | Unset = UNSET,
) -> Problem | StreamGameResponse200 | TooManyStreamsProblem | None:
    r"""Stream a game

     One game as the caller may see it, as Server-Sent Events.

    Not for Swagger UI's \"Try it out\", which waits for the end of the answer
    and a stream has none: watch it with `curl -N -H \"Authorization: Bearer
    <token>\" http://127.0.0.1:8080/api/v1/games/<id>/stream`.

    Sends the caller's current view of the game at once (`event: game`,
    `id: <version>`, `data: <exactly what GET /games/{id} answers>`), then
    the caller's new view after every change of the game, from whichever
    server process made it. Views are computed for the caller, so they
    never hold a rank the caller may not know. A client reconnecting with
    `Last-Event-ID: <version>` gets the view only if the game has changed
    since. Keep-alive comments, the per-user cap (429 `too_many_streams`) and
    the clean end at shutdown are as for `/events/stream`.

    Args:
        id (UUID):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamGameResponse200 | TooManyStreamsProblem
    """

    return sync_detailed(
        id=id,
        client=client,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    last_event_id: int | Unset = UNSET,
) -> Response[Problem | StreamGameResponse200 | TooManyStreamsProblem]:
    r"""Stream a game

     One game as the caller may see it, as Server-Sent Events.

    Not for Swagger UI's \"Try it out\", which waits for the end of the answer
    and a stream has none: watch it with `curl -N -H \"Authorization: Bearer
    <token>\" http://127.0.0.1:8080/api/v1/games/<id>/stream`.

    Sends the caller's current view of the game at once (`event: game`,
    `id: <version>`, `data: <exactly what GET /games/{id} answers>`), then
    the caller's new view after every change of the game, from whichever
    server process made it. Views are computed for the caller, so they
    never hold a rank the caller may not know. A client reconnecting with
    `Last-Event-ID: <version>` gets the view only if the game has changed
    since. Keep-alive comments, the per-user cap (429 `too_many_streams`) and
    the clean end at shutdown are as for `/events/stream`.

    Args:
        id (UUID):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamGameResponse200 | TooManyStreamsProblem]
    """

    kwargs = _get_kwargs(
        id=id,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    last_event_id: int | Unset = UNSET,
) -> Problem | StreamGameResponse200 | TooManyStreamsProblem | None:
    r"""Stream a game

     One game as the caller may see it, as Server-Sent Events.

    Not for Swagger UI's \"Try it out\", which waits for the end of the answer
    and a stream has none: watch it with `curl -N -H \"Authorization: Bearer
    <token>\" http://127.0.0.1:8080/api/v1/games/<id>/stream`.

    Sends the caller's current view of the game at once (`event: game`,
    `id: <version>`, `data: <exactly what GET /games/{id} answers>`), then
    the caller's new view after every change of the game, from whichever
    server process made it. Views are computed for the caller, so they
    never hold a rank the caller may not know. A client reconnecting with
    `Last-Event-ID: <version>` gets the view only if the game has changed
    since. Keep-alive comments, the per-user cap (429 `too_many_streams`) and
    the clean end at shutdown are as for `/events/stream`.

    Args:
        id (UUID):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamGameResponse200 | TooManyStreamsProblem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            last_event_id=last_event_id,
        )
    ).parsed
