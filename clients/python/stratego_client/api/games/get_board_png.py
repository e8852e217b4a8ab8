from http import HTTPStatus
from io import BytesIO
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.color import Color
from ...models.problem import Problem
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    orientation: Color | Unset = UNSET,
    scale: float | Unset = UNSET,
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

    params["scale"] = scale

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/games/{id}/board.png".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | File | Problem | None:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

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
) -> Response[Any | File | Problem]:
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
    scale: float | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | File | Problem]:
    """Draw the board (PNG)

     The same picture as a PNG, rasterized on the server, for clients that
    cannot show SVG (chat and mail previews). `scale` sets the pixels per
    picture unit (0.25 to 4; at 1 the PNG is 900 by 712 pixels).

    Args:
        id (UUID):
        orientation (Color | Unset): A side.
        scale (float | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | File | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        orientation=orientation,
        scale=scale,
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
    scale: float | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | File | Problem | None:
    """Draw the board (PNG)

     The same picture as a PNG, rasterized on the server, for clients that
    cannot show SVG (chat and mail previews). `scale` sets the pixels per
    picture unit (0.25 to 4; at 1 the PNG is 900 by 712 pixels).

    Args:
        id (UUID):
        orientation (Color | Unset): A side.
        scale (float | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | File | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        orientation=orientation,
        scale=scale,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    orientation: Color | Unset = UNSET,
    scale: float | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | File | Problem]:
    """Draw the board (PNG)

     The same picture as a PNG, rasterized on the server, for clients that
    cannot show SVG (chat and mail previews). `scale` sets the pixels per
    picture unit (0.25 to 4; at 1 the PNG is 900 by 712 pixels).

    Args:
        id (UUID):
        orientation (Color | Unset): A side.
        scale (float | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | File | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        orientation=orientation,
        scale=scale,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    orientation: Color | Unset = UNSET,
    scale: float | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | File | Problem | None:
    """Draw the board (PNG)

     The same picture as a PNG, rasterized on the server, for clients that
    cannot show SVG (chat and mail previews). `scale` sets the pixels per
    picture unit (0.25 to 4; at 1 the PNG is 900 by 712 pixels).

    Args:
        id (UUID):
        orientation (Color | Unset): A side.
        scale (float | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | File | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            orientation=orientation,
            scale=scale,
            if_none_match=if_none_match,
        )
    ).parsed
