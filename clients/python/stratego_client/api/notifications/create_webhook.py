from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.created_webhook import CreatedWebhook
from ...models.problem import Problem
from ...models.validation_problem import ValidationProblem
from ...models.webhook_input import WebhookInput
from ...types import Response


def _get_kwargs(
    *,
    body: WebhookInput,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/me/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreatedWebhook | Problem | ValidationProblem | None:
    if response.status_code == 201:
        response_201 = CreatedWebhook.from_dict(response.json())

        return response_201

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
) -> Response[CreatedWebhook | Problem | ValidationProblem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookInput,
) -> Response[CreatedWebhook | Problem | ValidationProblem]:
    """Create a webhook

     Deliveries are signed as Standard Webhooks describes, with the `secret`
    shown only in this answer. The URL must be `https` and resolve to
    public addresses. At most 5 per user.

    Args:
        body (WebhookInput): A webhook to create. Example: {'events': ['your_move', 'game_over'],
            'url': 'https://bots.example.org/stratego/hook'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedWebhook | Problem | ValidationProblem]
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
    body: WebhookInput,
) -> CreatedWebhook | Problem | ValidationProblem | None:
    """Create a webhook

     Deliveries are signed as Standard Webhooks describes, with the `secret`
    shown only in this answer. The URL must be `https` and resolve to
    public addresses. At most 5 per user.

    Args:
        body (WebhookInput): A webhook to create. Example: {'events': ['your_move', 'game_over'],
            'url': 'https://bots.example.org/stratego/hook'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedWebhook | Problem | ValidationProblem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookInput,
) -> Response[CreatedWebhook | Problem | ValidationProblem]:
    """Create a webhook

     Deliveries are signed as Standard Webhooks describes, with the `secret`
    shown only in this answer. The URL must be `https` and resolve to
    public addresses. At most 5 per user.

    Args:
        body (WebhookInput): A webhook to create. Example: {'events': ['your_move', 'game_over'],
            'url': 'https://bots.example.org/stratego/hook'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedWebhook | Problem | ValidationProblem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WebhookInput,
) -> CreatedWebhook | Problem | ValidationProblem | None:
    """Create a webhook

     Deliveries are signed as Standard Webhooks describes, with the `secret`
    shown only in this answer. The URL must be `https` and resolve to
    public addresses. At most 5 per user.

    Args:
        body (WebhookInput): A webhook to create. Example: {'events': ['your_move', 'game_over'],
            'url': 'https://bots.example.org/stratego/hook'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedWebhook | Problem | ValidationProblem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
