#!/usr/bin/env bash
# Contract fuzzing: a pinned schemathesis against the document the server
# serves (/api-docs/openapi.json), on a server started here (embedded
# SQLite). Every operation, FUZZ_EXAMPLES cases each (default 100), in all
# its phases: the document's examples, its boundaries (coverage), random
# cases (fuzzing) and sequences that follow the document's links from a new
# game to its moves (stateful). Checks: no 5xx, every status documented,
# every Content-Type documented, every body (each frame of a stream too)
# fits its schema. Any failure, or a panic in the server log, fails.
# Skips, saying so, when python3 or schemathesis cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. .ci/lib/server.sh
. .ci/lib/venv.sh

SCHEMATHESIS_VERSION=4.32.5
examples="${FUZZ_EXAMPLES:-100}"
work="$(mktemp -d)"
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

if ! command -v python3 >/dev/null 2>&1; then
    echo "skipped: python3 is not installed"; exit 0
fi
if ! python_tool "$work/venv" "schemathesis==${SCHEMATHESIS_VERSION}"; then
    echo "skipped: cannot install schemathesis ${SCHEMATHESIS_VERSION}"; exit 0
fi

secret="ci-fuzz-secret-0123456789abcdef0123456789"
# The rate limits have tests of their own (tests/tests/e2e/auth.rs); here
# they would answer most registrations and logins with 429 and keep the
# fuzzer from what lies behind them. Tokens outlive the run.
export LOGIN_RATE_LIMIT=100000 REGISTER_RATE_LIMIT=100000 ACCESS_TOKEN_TTL_SECONDS=3600
if ! start_server >"$work/server.log" 2>&1; then
    cat "$work/server.log" >&2; exit 1
fi

# Three accounts (see hooks.py): Ann and Bo play, Cy is the one whose
# sessions may be ended. The password is none of the document's examples.
password="fuzz-$(python3 -c 'import secrets; print(secrets.token_hex(12))')"
account() {
    curl -fsS "$base/api/v1/auth/$1" -H 'content-type: application/json' \
        -d "{\"username\": \"$2\", \"password\": \"$password\"}" \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])'
}
for name in fuzz_ann fuzz_bo fuzz_cy; do
    account register "$name" >/dev/null
done
FUZZ_ANN="$(account login fuzz_ann)"
FUZZ_BO="$(account login fuzz_bo)"
export FUZZ_BASE="$base" FUZZ_ANN FUZZ_BO FUZZ_CY_USERNAME=fuzz_cy FUZZ_CY_PASSWORD="$password"
export FUZZ_HOOKS="$PWD/.ci/fuzz/hooks.py"

# The request timeout is above the longest `wait` (60 s), should one get
# through; hooks.py sends accepted waits as 1 s, and the streams have
# their own short timeout in schemathesis.toml. One worker: with two,
# hypothesis parses lambda sources on two threads at once and CPython 3.11's
# ast module can fail ("AST constructor recursion depth mismatch"), an error
# of the tool, not of the server.
status=0
(cd "$work" && "$work/venv/bin/schemathesis" --config-file "$OLDPWD/.ci/fuzz/schemathesis.toml" \
    run "$base/api-docs/openapi.json" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$examples" --request-timeout 65 --workers 1 --no-color \
    ${FUZZ_SEED:+--seed "$FUZZ_SEED"} \
    --report junit --report-junit-path "$work/junit.xml") || status=$?
if grep -q "panicked" "$work/server.log"; then
    echo "error: the server panicked during the fuzzing:" >&2
    grep -A3 "panicked" "$work/server.log" >&2
    status=1
fi
exit "$status"
