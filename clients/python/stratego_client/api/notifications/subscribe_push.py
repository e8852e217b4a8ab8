from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.push_subscription import PushSubscription
from ...models.push_subscription_input import PushSubscriptionInput
from ...models.validation_problem import ValidationProblem
from ...types import Response


def _get_kwargs(
    *,
    body: PushSubscriptionInput,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/me/push-subscriptions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | PushSubscription | ValidationProblem | None:
    if response.status_code == 200:
        response_200 = PushSubscription.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = PushSubscription.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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
) -> Response[Problem | PushSubscription | ValidationProblem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PushSubscriptionInput,
) -> Response[Problem | PushSubscription | ValidationProblem]:
    """Subscribe a browser to Web Push

     The body is the browser's `PushSubscription.toJSON()`. The endpoint
    must be `https` and resolve to public addresses; `keys.p256dh` must be
    a point on P-256 and `keys.auth` 16 bytes. Subscribing the same
    endpoint again replaces its keys (200). At most 10 per user.

    Args:
        body (PushSubscriptionInput): A browser's `PushSubscription.toJSON()`, and optionally the
            events to
            send to it. Example: {'endpoint': 'https://push.example.net/send/abc123',
            'expirationTime': None, 'keys': {'auth': 'BTBZMqHH6r4Tts7J_aSIgg', 'p256dh':
            'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-
            JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PushSubscription | ValidationProblem]
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
    body: PushSubscriptionInput,
) -> Problem | PushSubscription | ValidationProblem | None:
    """Subscribe a browser to Web Push

     The body is the browser's `PushSubscription.toJSON()`. The endpoint
    must be `https` and resolve to public addresses; `keys.p256dh` must be
    a point on P-256 and `keys.auth` 16 bytes. Subscribing the same
    endpoint again replaces its keys (200). At most 10 per user.

    Args:
        body (PushSubscriptionInput): A browser's `PushSubscription.toJSON()`, and optionally the
            events to
            send to it. Example: {'endpoint': 'https://push.example.net/send/abc123',
            'expirationTime': None, 'keys': {'auth': 'BTBZMqHH6r4Tts7J_aSIgg', 'p256dh':
            'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-
            JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PushSubscription | ValidationProblem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PushSubscriptionInput,
) -> Response[Problem | PushSubscription | ValidationProblem]:
    """Subscribe a browser to Web Push

     The body is the browser's `PushSubscription.toJSON()`. The endpoint
    must be `https` and resolve to public addresses; `keys.p256dh` must be
    a point on P-256 and `keys.auth` 16 bytes. Subscribing the same
    endpoint again replaces its keys (200). At most 10 per user.

    Args:
        body (PushSubscriptionInput): A browser's `PushSubscription.toJSON()`, and optionally the
            events to
            send to it. Example: {'endpoint': 'https://push.example.net/send/abc123',
            'expirationTime': None, 'keys': {'auth': 'BTBZMqHH6r4Tts7J_aSIgg', 'p256dh':
            'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-
            JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PushSubscription | ValidationProblem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PushSubscriptionInput,
) -> Problem | PushSubscription | ValidationProblem | None:
    """Subscribe a browser to Web Push

     The body is the browser's `PushSubscription.toJSON()`. The endpoint
    must be `https` and resolve to public addresses; `keys.p256dh` must be
    a point on P-256 and `keys.auth` 16 bytes. Subscribing the same
    endpoint again replaces its keys (200). At most 10 per user.

    Args:
        body (PushSubscriptionInput): A browser's `PushSubscription.toJSON()`, and optionally the
            events to
            send to it. Example: {'endpoint': 'https://push.example.net/send/abc123',
            'expirationTime': None, 'keys': {'auth': 'BTBZMqHH6r4Tts7J_aSIgg', 'p256dh':
            'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-
            JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PushSubscription | ValidationProblem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
