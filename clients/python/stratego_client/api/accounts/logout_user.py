from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.refresh_request import RefreshRequest
from ...models.validation_problem import ValidationProblem
from ...types import Response


def _get_kwargs(
    *,
    body: RefreshRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/auth/logout",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | ValidationProblem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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
) -> Response[Any | Problem | ValidationProblem]:
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
) -> Response[Any | Problem | ValidationProblem]:
    """Log out

     Log out: end the session of a refresh token.

    Its refresh tokens and its access tokens stop working.

    Answers 204 whether or not the token was live, as RFC 7009 does for
    token revocation, so the answer reveals nothing about a token.

    Args:
        body (RefreshRequest): A refresh token, for `/auth/refresh` and `/auth/logout`. Example:
            {'refresh_token': '3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | ValidationProblem]
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
) -> Any | Problem | ValidationProblem | None:
    """Log out

     Log out: end the session of a refresh token.

    Its refresh tokens and its access tokens stop working.

    Answers 204 whether or not the token was live, as RFC 7009 does for
    token revocation, so the answer reveals nothing about a token.

    Args:
        body (RefreshRequest): A refresh token, for `/auth/refresh` and `/auth/logout`. Example:
            {'refresh_token': '3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | ValidationProblem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,
) -> Response[Any | Problem | ValidationProblem]:
    """Log out

     Log out: end the session of a refresh token.

    Its refresh tokens and its access tokens stop working.

    Answers 204 whether or not the token was live, as RFC 7009 does for
    token revocation, so the answer reveals nothing about a token.

    Args:
        body (RefreshRequest): A refresh token, for `/auth/refresh` and `/auth/logout`. Example:
            {'refresh_token': '3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | ValidationProblem]
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
) -> Any | Problem | ValidationProblem | None:
    """Log out

     Log out: end the session of a refresh token.

    Its refresh tokens and its access tokens stop working.

    Answers 204 whether or not the token was live, as RFC 7009 does for
    token revocation, so the answer reveals nothing about a token.

    Args:
        body (RefreshRequest): A refresh token, for `/auth/refresh` and `/auth/logout`. Example:
            {'refresh_token': '3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | ValidationProblem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
