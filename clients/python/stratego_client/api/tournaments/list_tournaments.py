from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.tournament_list import TournamentList
from ...models.tournament_status import TournamentStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: TournamentStatus | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["limit"] = limit

    json_before: str | Unset = UNSET
    if not isinstance(before, Unset):
        json_before = str(before)
    params["before"] = json_before

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/tournaments",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TournamentList | None:
    if response.status_code == 200:
        response_200 = TournamentList.from_dict(response.json())

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
) -> Response[Problem | TournamentList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: TournamentStatus | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,
) -> Response[Problem | TournamentList]:
    """Tournaments

     Newest first, 50 at most a page; the next page starts `before` the
    last one's id.

    Args:
        status (TournamentStatus | Unset): Where a tournament is in its life.
        limit (int | Unset):
        before (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TournamentList]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        before=before,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: TournamentStatus | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,
) -> Problem | TournamentList | None:
    """Tournaments

     Newest first, 50 at most a page; the next page starts `before` the
    last one's id.

    Args:
        status (TournamentStatus | Unset): Where a tournament is in its life.
        limit (int | Unset):
        before (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TournamentList
    """

    return sync_detailed(
        client=client,
        status=status,
        limit=limit,
        before=before,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: TournamentStatus | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,
) -> Response[Problem | TournamentList]:
    """Tournaments

     Newest first, 50 at most a page; the next page starts `before` the
    last one's id.

    Args:
        status (TournamentStatus | Unset): Where a tournament is in its life.
        limit (int | Unset):
        before (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TournamentList]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        before=before,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: TournamentStatus | Unset = UNSET,
    limit: int | Unset = UNSET,
    before: UUID | Unset = UNSET,
) -> Problem | TournamentList | None:
    """Tournaments

     Newest first, 50 at most a page; the next page starts `before` the
    last one's id.

    Args:
        status (TournamentStatus | Unset): Where a tournament is in its life.
        limit (int | Unset):
        before (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TournamentList
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            limit=limit,
            before=before,
        )
    ).parsed
