from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_page import EventPage
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = 0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/events",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventPage | Problem | None:
    if response.status_code == 200:
        response_200 = EventPage.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EventPage | Problem]:
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
    limit: int | Unset = UNSET,
    wait: int | Unset = 0,
) -> Response[EventPage | Problem]:
    """List your events

     The caller's events after `after`, long-polling when there are none.

    Answers at once when events are pending; otherwise holds the request
    for up to `wait` seconds and answers as soon as one arrives (from any
    server process), or with an empty list when the time is up or the
    server shuts down. Event ids increase by one per event of the caller,
    and an event never appears after a larger id was delivered, so
    `after` = the last id seen never misses one.

    Args:
        after (int | Unset):
        limit (int | Unset):
        wait (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
    """

    kwargs = _get_kwargs(
        after=after,
        limit=limit,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = 0,
) -> EventPage | Problem | None:
    """List your events

     The caller's events after `after`, long-polling when there are none.

    Answers at once when events are pending; otherwise holds the request
    for up to `wait` seconds and answers as soon as one arrives (from any
    server process), or with an empty list when the time is up or the
    server shuts down. Event ids increase by one per event of the caller,
    and an event never appears after a larger id was delivered, so
    `after` = the last id seen never misses one.

    Args:
        after (int | Unset):
        limit (int | Unset):
        wait (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
    """

    return sync_detailed(
        client=client,
        after=after,
        limit=limit,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = 0,
) -> Response[EventPage | Problem]:
    """List your events

     The caller's events after `after`, long-polling when there are none.

    Answers at once when events are pending; otherwise holds the request
    for up to `wait` seconds and answers as soon as one arrives (from any
    server process), or with an empty list when the time is up or the
    server shuts down. Event ids increase by one per event of the caller,
    and an event never appears after a larger id was delivered, so
    `after` = the last id seen never misses one.

    Args:
        after (int | Unset):
        limit (int | Unset):
        wait (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
    """

    kwargs = _get_kwargs(
        after=after,
        limit=limit,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    wait: int | Unset = 0,
) -> EventPage | Problem | None:
    """List your events

     The caller's events after `after`, long-polling when there are none.

    Answers at once when events are pending; otherwise holds the request
    for up to `wait` seconds and answers as soon as one arrives (from any
    server process), or with an empty list when the time is up or the
    server shuts down. Event ids increase by one per event of the caller,
    and an event never appears after a larger id was delivered, so
    `after` = the last id seen never misses one.

    Args:
        after (int | Unset):
        limit (int | Unset):
        wait (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            limit=limit,
            wait=wait,
        )
    ).parsed
