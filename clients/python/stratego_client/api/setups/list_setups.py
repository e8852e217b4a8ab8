from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.setup_list import SetupList
from ...models.variant import Variant
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    variant: Variant | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_variant: str | Unset = UNSET
    if not isinstance(variant, Unset):
        json_variant = variant.value

    params["variant"] = json_variant

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/me/setups",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SetupList | None:
    if response.status_code == 200:
        response_200 = SetupList.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SetupList]:
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
) -> Response[Problem | SetupList]:
    """Your saved setups

     Ordered by variant and name.

    Args:
        variant (Variant | Unset): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SetupList]
    """

    kwargs = _get_kwargs(
        variant=variant,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    variant: Variant | Unset = UNSET,
) -> Problem | SetupList | None:
    """Your saved setups

     Ordered by variant and name.

    Args:
        variant (Variant | Unset): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SetupList
    """

    return sync_detailed(
        client=client,
        variant=variant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    variant: Variant | Unset = UNSET,
) -> Response[Problem | SetupList]:
    """Your saved setups

     Ordered by variant and name.

    Args:
        variant (Variant | Unset): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SetupList]
    """

    kwargs = _get_kwargs(
        variant=variant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    variant: Variant | Unset = UNSET,
) -> Problem | SetupList | None:
    """Your saved setups

     Ordered by variant and name.

    Args:
        variant (Variant | Unset): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SetupList
    """

    return (
        await asyncio_detailed(
            client=client,
            variant=variant,
        )
    ).parsed
