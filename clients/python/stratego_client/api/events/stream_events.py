from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.stream_events_response_200 import StreamEventsResponse200
from ...models.too_many_streams_problem import TooManyStreamsProblem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    after: int | Unset = UNSET,
    last_event_id: int | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = str(last_event_id)

    params: dict[str, Any] = {}

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/events/stream",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | StreamEventsResponse200 | TooManyStreamsProblem | None:
    if response.status_code == 200:
        response_200 = StreamEventsResponse200.from_dict(response.text)

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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
) -> Response[Problem | StreamEventsResponse200 | TooManyStreamsProblem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    last_event_id: int | Unset = UNSET,
) -> Response[Problem | StreamEventsResponse200 | TooManyStreamsProblem]:
    r"""Stream your events

     The caller's events as Server-Sent Events.

    Not for Swagger UI's \"Try it out\", which waits for the end of the answer
    and a stream has none: watch it with `curl -N -H \"Authorization: Bearer
    <token>\" http://127.0.0.1:8080/api/v1/events/stream`.

    Each event is sent as `id: <event id>`, `event: <type>` and `data:
    <the event as JSON, as in GET /events>`. A reconnecting client sends
    `Last-Event-ID` (browsers do so by themselves) and the stream resumes
    right after it, with no gap and no duplicate. Idle streams get a
    `: keep-alive` comment every 15 seconds (SSE_KEEPALIVE_SECONDS). At most
    MAX_STREAMS_PER_USER (default 5) streams per user are open at once on
    one server process; one more answers 429 `too_many_streams`. Streams end
    cleanly when the server shuts down (clients reconnect with
    `Last-Event-ID`).

    Args:
        after (int | Unset):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamEventsResponse200 | TooManyStreamsProblem]
    """

    kwargs = _get_kwargs(
        after=after,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    last_event_id: int | Unset = UNSET,
) -> Problem | StreamEventsResponse200 | TooManyStreamsProblem | None:
    r"""Stream your events

     The caller's events as Server-Sent Events.

    Not for Swagger UI's \"Try it out\", which waits for the end of the answer
    and a stream has none: watch it with `curl -N -H \"Authorization: Bearer
    <token>\" http://127.0.0.1:8080/api/v1/events/stream`.

    Each event is sent as `id: <event id>`, `event: <type>` and `data:
    <the event as JSON, as in GET /events>`. A reconnecting client sends
    `Last-Event-ID` (browsers do so by themselves) and the stream resumes
    right after it, with no gap and no duplicate. Idle streams get a
    `: keep-alive` comment every 15 seconds (SSE_KEEPALIVE_SECONDS). At most
    MAX_STREAMS_PER_USER (default 5) streams per user are open at once on
    one server process; one more answers 429 `too_many_streams`. Streams end
    cleanly when the server shuts down (clients reconnect with
    `Last-Event-ID`).

    Args:
        after (int | Unset):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamEventsResponse200 | TooManyStreamsProblem
    """

    return sync_detailed(
        client=client,
        after=after,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    last_event_id: int | Unset = UNSET,
) -> Response[Problem | StreamEventsResponse200 | TooManyStreamsProblem]:
    r"""Stream your events

     The caller's events as Server-Sent Events.

    Not for Swagger UI's \"Try it out\", which waits for the end of the answer
    and a stream has none: watch it with `curl -N -H \"Authorization: Bearer
    <token>\" http://127.0.0.1:8080/api/v1/events/stream`.

    Each event is sent as `id: <event id>`, `event: <type>` and `data:
    <the event as JSON, as in GET /events>`. A reconnecting client sends
    `Last-Event-ID` (browsers do so by themselves) and the stream resumes
    right after it, with no gap and no duplicate. Idle streams get a
    `: keep-alive` comment every 15 seconds (SSE_KEEPALIVE_SECONDS). At most
    MAX_STREAMS_PER_USER (default 5) streams per user are open at once on
    one server process; one more answers 429 `too_many_streams`. Streams end
    cleanly when the server shuts down (clients reconnect with
    `Last-Event-ID`).

    Args:
        after (int | Unset):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamEventsResponse200 | TooManyStreamsProblem]
    """

    kwargs = _get_kwargs(
        after=after,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    last_event_id: int | Unset = UNSET,
) -> Problem | StreamEventsResponse200 | TooManyStreamsProblem | None:
    r"""Stream your events

     The caller's events as Server-Sent Events.

    Not for Swagger UI's \"Try it out\", which waits for the end of the answer
    and a stream has none: watch it with `curl -N -H \"Authorization: Bearer
    <token>\" http://127.0.0.1:8080/api/v1/events/stream`.

    Each event is sent as `id: <event id>`, `event: <type>` and `data:
    <the event as JSON, as in GET /events>`. A reconnecting client sends
    `Last-Event-ID` (browsers do so by themselves) and the stream resumes
    right after it, with no gap and no duplicate. Idle streams get a
    `: keep-alive` comment every 15 seconds (SSE_KEEPALIVE_SECONDS). At most
    MAX_STREAMS_PER_USER (default 5) streams per user are open at once on
    one server process; one more answers 429 `too_many_streams`. Streams end
    cleanly when the server shuts down (clients reconnect with
    `Last-Event-ID`).

    Args:
        after (int | Unset):
        last_event_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamEventsResponse200 | TooManyStreamsProblem
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            last_event_id=last_event_id,
        )
    ).parsed
