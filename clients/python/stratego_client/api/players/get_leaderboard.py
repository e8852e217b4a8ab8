from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.leaderboard import Leaderboard
from ...models.problem import Problem
from ...models.variant import Variant
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    variant: Variant | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_variant: str | Unset = UNSET
    if not isinstance(variant, Unset):
        json_variant = variant.value

    params["variant"] = json_variant

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/leaderboard",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Leaderboard | Problem | None:
    if response.status_code == 200:
        response_200 = Leaderboard.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Leaderboard | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    variant: Variant | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[Leaderboard | Problem]:
    """Get a leaderboard

     A variant's leaderboard: players whose rating is settled (deviation
    below 110) and who finished a rated game in the variant in the last 90
    days, best rating first; pages via `cursor`.

    Args:
        variant (Variant | Unset): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Leaderboard | Problem]
    """

    kwargs = _get_kwargs(
        variant=variant,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    variant: Variant | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Leaderboard | Problem | None:
    """Get a leaderboard

     A variant's leaderboard: players whose rating is settled (deviation
    below 110) and who finished a rated game in the variant in the last 90
    days, best rating first; pages via `cursor`.

    Args:
        variant (Variant | Unset): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Leaderboard | Problem
    """

    return sync_detailed(
        client=client,
        variant=variant,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    variant: Variant | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[Leaderboard | Problem]:
    """Get a leaderboard

     A variant's leaderboard: players whose rating is settled (deviation
    below 110) and who finished a rated game in the variant in the last 90
    days, best rating first; pages via `cursor`.

    Args:
        variant (Variant | Unset): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Leaderboard | Problem]
    """

    kwargs = _get_kwargs(
        variant=variant,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    variant: Variant | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Leaderboard | Problem | None:
    """Get a leaderboard

     A variant's leaderboard: players whose rating is settled (deviation
    below 110) and who finished a rated game in the variant in the last 90
    days, best rating first; pages via `cursor`.

    Args:
        variant (Variant | Unset): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Leaderboard | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            variant=variant,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
