from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.color import Color
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    orientation: Color | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    json_orientation: str | Unset = UNSET
    if not isinstance(orientation, Unset):
        json_orientation = orientation.value

    params["orientation"] = json_orientation

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/games/{id}/board.svg".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | str | None:
    if response.status_code == 200:
        response_200 = cast(str, response.content)
        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem | str]:
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
    orientation: Color | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Problem | str]:
    """Draw the board (SVG)

     The board as the caller may see it, as SVG: hidden ranks are blank backs
    in their owner's color; own and revealed pieces carry their name and both
    numberings; the last move and battle are marked, the captured pieces
    listed beside the board. The caller's side is at the bottom unless
    `orientation` says otherwise. `ETag` / `If-None-Match` as for the view.

    Args:
        id (UUID):
        orientation (Color | Unset): A side.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | str]
    """

    kwargs = _get_kwargs(
        id=id,
        orientation=orientation,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    orientation: Color | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Problem | str | None:
    """Draw the board (SVG)

     The board as the caller may see it, as SVG: hidden ranks are blank backs
    in their owner's color; own and revealed pieces carry their name and both
    numberings; the last move and battle are marked, the captured pieces
    listed beside the board. The caller's side is at the bottom unless
    `orientation` says otherwise. `ETag` / `If-None-Match` as for the view.

    Args:
        id (UUID):
        orientation (Color | Unset): A side.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | str
    """

    return sync_detailed(
        id=id,
        client=client,
        orientation=orientation,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    orientation: Color | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Problem | str]:
    """Draw the board (SVG)

     The board as the caller may see it, as SVG: hidden ranks are blank backs
    in their owner's color; own and revealed pieces carry their name and both
    numberings; the last move and battle are marked, the captured pieces
    listed beside the board. The caller's side is at the bottom unless
    `orientation` says otherwise. `ETag` / `If-None-Match` as for the view.

    Args:
        id (UUID):
        orientation (Color | Unset): A side.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | str]
    """

    kwargs = _get_kwargs(
        id=id,
        orientation=orientation,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    orientation: Color | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Problem | str | None:
    """Draw the board (SVG)

     The board as the caller may see it, as SVG: hidden ranks are blank backs
    in their owner's color; own and revealed pieces carry their name and both
    numberings; the last move and battle are marked, the captured pieces
    listed beside the board. The caller's side is at the bottom unless
    `orientation` says otherwise. `ETag` / `If-None-Match` as for the view.

    Args:
        id (UUID):
        orientation (Color | Unset): A side.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | str
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            orientation=orientation,
            if_none_match=if_none_match,
        )
    ).parsed
