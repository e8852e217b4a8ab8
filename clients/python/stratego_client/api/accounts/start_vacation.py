from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.start_vacation import StartVacation
from ...models.vacation_view import VacationView
from ...models.validation_problem import ValidationProblem
from ...types import Response


def _get_kwargs(
    *,
    body: StartVacation,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/me/vacation",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | VacationView | ValidationProblem | None:
    if response.status_code == 201:
        response_201 = VacationView.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[Problem | VacationView | ValidationProblem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: StartVacation,
) -> Response[Problem | VacationView | ValidationProblem]:
    """Go on vacation

     Your clock stops in every game of yours in progress, and in every game
    that starts meanwhile, for `days` days (or until your vacation days run
    out); your opponents are told (`vacation_started`). A move in any game,
    or `DELETE`, ends it sooner. Each vacation costs at least one day;
    each day or part of one is charged.

    Args:
        body (StartVacation): Start a vacation. Example: {'days': 7, 'message': 'hiking, back on
            the 14th'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | VacationView | ValidationProblem]
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
    body: StartVacation,
) -> Problem | VacationView | ValidationProblem | None:
    """Go on vacation

     Your clock stops in every game of yours in progress, and in every game
    that starts meanwhile, for `days` days (or until your vacation days run
    out); your opponents are told (`vacation_started`). A move in any game,
    or `DELETE`, ends it sooner. Each vacation costs at least one day;
    each day or part of one is charged.

    Args:
        body (StartVacation): Start a vacation. Example: {'days': 7, 'message': 'hiking, back on
            the 14th'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | VacationView | ValidationProblem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: StartVacation,
) -> Response[Problem | VacationView | ValidationProblem]:
    """Go on vacation

     Your clock stops in every game of yours in progress, and in every game
    that starts meanwhile, for `days` days (or until your vacation days run
    out); your opponents are told (`vacation_started`). A move in any game,
    or `DELETE`, ends it sooner. Each vacation costs at least one day;
    each day or part of one is charged.

    Args:
        body (StartVacation): Start a vacation. Example: {'days': 7, 'message': 'hiking, back on
            the 14th'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | VacationView | ValidationProblem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: StartVacation,
) -> Problem | VacationView | ValidationProblem | None:
    """Go on vacation

     Your clock stops in every game of yours in progress, and in every game
    that starts meanwhile, for `days` days (or until your vacation days run
    out); your opponents are told (`vacation_started`). A move in any game,
    or `DELETE`, ends it sooner. Each vacation costs at least one day;
    each day or part of one is charged.

    Args:
        body (StartVacation): Start a vacation. Example: {'days': 7, 'message': 'hiking, back on
            the 14th'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | VacationView | ValidationProblem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
