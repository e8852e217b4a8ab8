from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delete_account import DeleteAccount
from ...models.problem import Problem
from ...models.rate_limited_problem import RateLimitedProblem
from ...models.validation_problem import ValidationProblem
from ...types import Response


def _get_kwargs(
    *,
    body: DeleteAccount,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/me",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | RateLimitedProblem | ValidationProblem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ValidationProblem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = RateLimitedProblem.from_dict(response.json())

        return response_429

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
) -> Response[Any | Problem | RateLimitedProblem | ValidationProblem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: DeleteAccount,
) -> Response[Any | Problem | RateLimitedProblem | ValidationProblem]:
    """Delete the account

     Needs the password. The name and password are erased and every session
    ends. Games not yet over end as if the player had left them: a game in
    play is resigned, a game before play aborted, a challenge declined.
    Finished games keep their record; the player appears in them as
    `[deleted]` with `deleted: true`. The username becomes free.

    Args:
        body (DeleteAccount): The password, to confirm deleting the account. Example: {'password':
            'correct horse battery'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | RateLimitedProblem | ValidationProblem]
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
    client: AuthenticatedClient,
    body: DeleteAccount,
) -> Any | Problem | RateLimitedProblem | ValidationProblem | None:
    """Delete the account

     Needs the password. The name and password are erased and every session
    ends. Games not yet over end as if the player had left them: a game in
    play is resigned, a game before play aborted, a challenge declined.
    Finished games keep their record; the player appears in them as
    `[deleted]` with `deleted: true`. The username becomes free.

    Args:
        body (DeleteAccount): The password, to confirm deleting the account. Example: {'password':
            'correct horse battery'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | RateLimitedProblem | ValidationProblem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: DeleteAccount,
) -> Response[Any | Problem | RateLimitedProblem | ValidationProblem]:
    """Delete the account

     Needs the password. The name and password are erased and every session
    ends. Games not yet over end as if the player had left them: a game in
    play is resigned, a game before play aborted, a challenge declined.
    Finished games keep their record; the player appears in them as
    `[deleted]` with `deleted: true`. The username becomes free.

    Args:
        body (DeleteAccount): The password, to confirm deleting the account. Example: {'password':
            'correct horse battery'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | RateLimitedProblem | ValidationProblem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: DeleteAccount,
) -> Any | Problem | RateLimitedProblem | ValidationProblem | None:
    """Delete the account

     Needs the password. The name and password are erased and every session
    ends. Games not yet over end as if the player had left them: a game in
    play is resigned, a game before play aborted, a challenge declined.
    Finished games keep their record; the player appears in them as
    `[deleted]` with `deleted: true`. The username becomes free.

    Args:
        body (DeleteAccount): The password, to confirm deleting the account. Example: {'password':
            'correct horse battery'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | RateLimitedProblem | ValidationProblem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
