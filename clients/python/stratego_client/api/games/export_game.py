from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.export_game_format import ExportGameFormat
from ...models.game_export import GameExport
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    format_: ExportGameFormat | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/games/{id}/export".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | GameExport | Problem | None:
    if response.status_code == 200:
        response_200 = GameExport.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | GameExport | Problem]:
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
    format_: ExportGameFormat | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | GameExport | Problem]:
    """Export the game record

     The game record as the caller may know it: players, setups (as
    100-character board strings), every move with its battle, and the
    result; everything once the game is over. `format=gravon` answers the
    Gravon archive's XML instead, which other Stratego programs read. Sent
    as an attachment; `ETag` / `If-None-Match` as for the view.

    Args:
        id (UUID):
        format_ (ExportGameFormat | Unset): The formats of `GET /games/{id}/export`.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GameExport | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
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
    format_: ExportGameFormat | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | GameExport | Problem | None:
    """Export the game record

     The game record as the caller may know it: players, setups (as
    100-character board strings), every move with its battle, and the
    result; everything once the game is over. `format=gravon` answers the
    Gravon archive's XML instead, which other Stratego programs read. Sent
    as an attachment; `ETag` / `If-None-Match` as for the view.

    Args:
        id (UUID):
        format_ (ExportGameFormat | Unset): The formats of `GET /games/{id}/export`.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GameExport | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        format_=format_,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ExportGameFormat | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | GameExport | Problem]:
    """Export the game record

     The game record as the caller may know it: players, setups (as
    100-character board strings), every move with its battle, and the
    result; everything once the game is over. `format=gravon` answers the
    Gravon archive's XML instead, which other Stratego programs read. Sent
    as an attachment; `ETag` / `If-None-Match` as for the view.

    Args:
        id (UUID):
        format_ (ExportGameFormat | Unset): The formats of `GET /games/{id}/export`.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GameExport | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ExportGameFormat | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | GameExport | Problem | None:
    """Export the game record

     The game record as the caller may know it: players, setups (as
    100-character board strings), every move with its battle, and the
    result; everything once the game is over. `format=gravon` answers the
    Gravon archive's XML instead, which other Stratego programs read. Sent
    as an attachment; `ETag` / `If-None-Match` as for the view.

    Args:
        id (UUID):
        format_ (ExportGameFormat | Unset): The formats of `GET /games/{id}/export`.
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GameExport | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            format_=format_,
            if_none_match=if_none_match,
        )
    ).parsed
