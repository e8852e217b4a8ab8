"""Schemathesis hooks for .ci/fuzz/schemathesis.sh.

Who sends each request. A game needs two players, so one bearer token
cannot walk the stateful links from a new game to its moves: the request
goes out as the player who has something to do in the game it names (Bo
joins Ann's games; the player whose setup is missing sets up; the player
on turn moves), read from Ann's view of that game. The account operations
that end sessions or need the password (log out everywhere, change the
password, delete the account) go out as a third account, Cy, so that they
cannot end the players' sessions; Cy logs in again after each logout
everywhere.

Waits are kept short: a `wait` the server accepts (1-60 seconds) is sent
as 1, so a long poll costs a second, not a minute; values the server
refuses are sent as generated.

Environment: FUZZ_BASE (http://host:port), FUZZ_ANN and FUZZ_BO (access
tokens), FUZZ_CY_USERNAME and FUZZ_CY_PASSWORD.
"""

import json
import os
import threading
import urllib.error
import urllib.parse
import urllib.request

import schemathesis

BASE = os.environ["FUZZ_BASE"]
ANN = os.environ["FUZZ_ANN"]
BO = os.environ["FUZZ_BO"]

# Operations on a game named by the `id` path parameter.
JOINER = {"join_game", "decline_game"}
SETUP = {"place_setup"}
# Account operations that end sessions, or need the account's password.
ACCOUNT = {"end_sessions", "change_password", "delete_me"}

_cy_lock = threading.Lock()
_cy_token = None


def _request(method, path, token=None, body=None):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


def _cy():
    global _cy_token
    with _cy_lock:
        if _cy_token is None:
            status, body = _request("POST", "/api/v1/auth/login", body={
                "username": os.environ["FUZZ_CY_USERNAME"],
                "password": os.environ["FUZZ_CY_PASSWORD"],
            })
            if status != 200:
                raise RuntimeError(f"Cy cannot log in again: {status}")
            _cy_token = body["access_token"]
        return _cy_token


def _operation_id(case):
    return case.operation.definition.raw.get("operationId", "")


def _player(case, operation):
    """The token of the player who has something to do in the game."""
    game = (case.path_parameters or {}).get("id")
    if operation in JOINER:
        return BO
    if not isinstance(game, str) or not game:
        return ANN
    status, view = _request("GET", "/api/v1/games/" + urllib.parse.quote(game, safe=""), ANN)
    if status != 200 or not isinstance(view, dict) or view.get("you") is None:
        return ANN
    you = view["you"]
    if operation in SETUP:
        if view.get("status") == "setup" and view.get("setup_done", {}).get(you):
            return BO
        return ANN
    if view.get("status") == "playing" and view.get("turn") != you:
        return BO
    return ANN


@schemathesis.auth(refresh_interval=None, retry_on=[])
class Players:
    def get(self, case, context):
        operation = _operation_id(case)
        if operation in ACCOUNT:
            return _cy()
        if "/games/{id}" in case.operation.path:
            return _player(case, operation)
        return ANN

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


@schemathesis.hook
def before_call(context, case, kwargs):
    query = case.query
    if not isinstance(query, dict) or "wait" not in query:
        return
    wait = query["wait"]
    # Generated as a number, or as text by the coverage phase.
    if isinstance(wait, str) and wait.isascii() and wait.isdigit():
        if 1 < int(wait) <= 60:
            query["wait"] = "1"
    elif isinstance(wait, int) and not isinstance(wait, bool) and 1 < wait <= 60:
        query["wait"] = 1


@schemathesis.hook
def after_call(context, case, response):
    global _cy_token
    if _operation_id(case) == "end_sessions" and response.status_code == 204:
        with _cy_lock:
            _cy_token = None
