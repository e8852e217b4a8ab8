from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.refresh_request import RefreshRequest
from ...models.token_pair import TokenPair
from ...models.validation_problem import ValidationProblem
from ...types import Response


def _get_kwargs(
    *,
    body: RefreshRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/auth/refresh",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TokenPair | ValidationProblem | None:
    if response.status_code == 200:
        response_200 = TokenPair.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ValidationProblem.from_dict(response.json())

        return response_422

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
) -> Response[Problem | TokenPair | ValidationProblem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,
) -> Response[Problem | TokenPair | ValidationProblem]:
    """Refresh the tokens

     Exchange a refresh token for a new pair.

    The presented token stops working (rotation). Presenting an already used
    token again ends the whole session (every token descended from the same
    login, access tokens included), so a stolen token is useless once either
    party has used it.

    Args:
        body (RefreshRequest): A refresh token, for `/auth/refresh` and `/auth/logout`. Example:
            {'refresh_token': '3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TokenPair | ValidationProblem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,
) -> Problem | TokenPair | ValidationProblem | None:
    """Refresh the tokens

     Exchange a refresh token for a new pair.

    The presented token stops working (rotation). Presenting an already used
    token again ends the whole session (every token descended from the same
    login, access tokens included), so a stolen token is useless once either
    party has used it.

    Args:
        body (RefreshRequest): A refresh token, for `/auth/refresh` and `/auth/logout`. Example:
            {'refresh_token': '3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TokenPair | ValidationProblem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,
) -> Response[Problem | TokenPair | ValidationProblem]:
    """Refresh the tokens

     Exchange a refresh token for a new pair.

    The presented token stops working (rotation). Presenting an already used
    token again ends the whole session (every token descended from the same
    login, access tokens included), so a stolen token is useless once either
    party has used it.

    Args:
        body (RefreshRequest): A refresh token, for `/auth/refresh` and `/auth/logout`. Example:
            {'refresh_token': '3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TokenPair | ValidationProblem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,
) -> Problem | TokenPair | ValidationProblem | None:
    """Refresh the tokens

     Exchange a refresh token for a new pair.

    The presented token stops working (rotation). Presenting an already used
    token again ends the whole session (every token descended from the same
    login, access tokens included), so a stolen token is useless once either
    party has used it.

    Args:
        body (RefreshRequest): A refresh token, for `/auth/refresh` and `/auth/logout`. Example:
            {'refresh_token': '3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TokenPair | ValidationProblem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
