from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.bot_list import BotList
from ...models.problem import Problem
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/bots",
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BotList | Problem | None:
    if response.status_code == 200:
        response_200 = BotList.from_dict(response.json())

        return response_200

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BotList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[BotList | Problem]:
    r"""List the bots

     The bots: challenge one with `\"opponent\": \"<username>\"` in `POST /games`.

    Needs no token. A bot accepts a challenge at once, in every variant and
    ruleset, places its setup, answers each move within a few seconds and
    answers draw offers. The answer only changes with a new server version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BotList | Problem]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> BotList | Problem | None:
    r"""List the bots

     The bots: challenge one with `\"opponent\": \"<username>\"` in `POST /games`.

    Needs no token. A bot accepts a challenge at once, in every variant and
    ruleset, places its setup, answers each move within a few seconds and
    answers draw offers. The answer only changes with a new server version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BotList | Problem
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[BotList | Problem]:
    r"""List the bots

     The bots: challenge one with `\"opponent\": \"<username>\"` in `POST /games`.

    Needs no token. A bot accepts a challenge at once, in every variant and
    ruleset, places its setup, answers each move within a few seconds and
    answers draw offers. The answer only changes with a new server version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BotList | Problem]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> BotList | Problem | None:
    r"""List the bots

     The bots: challenge one with `\"opponent\": \"<username>\"` in `POST /games`.

    Needs no token. A bot accepts a challenge at once, in every variant and
    ruleset, places its setup, answers each move within a few seconds and
    answers draw offers. The answer only changes with a new server version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BotList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
