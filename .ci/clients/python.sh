#!/usr/bin/env bash
# Generates a Python client from openapi.yaml with a pinned
# openapi-python-client, fails on any warning of the generator, then plays
# a game with it against a server started here (embedded SQLite).
# Skips, saying so, when python3 or the generator cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. .ci/lib/server.sh
. .ci/lib/venv.sh

GENERATOR_VERSION=0.29.0
work="$(mktemp -d)"
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

if ! command -v python3 >/dev/null 2>&1; then
    echo "skipped: python3 is not installed"; exit 0
fi
if ! python_tool "$work/venv" "openapi-python-client==${GENERATOR_VERSION}"; then
    echo "skipped: cannot install openapi-python-client ${GENERATOR_VERSION}"; exit 0
fi

# The board pictures are bytes to this generator (it knows no image/* media
# type): read them as it reads any binary answer.
cat > "$work/config.yaml" <<'YAML'
post_hooks: []
content_type_overrides:
  image/svg+xml: application/octet-stream
  image/png: application/octet-stream
YAML
"$work/venv/bin/openapi-python-client" generate --path openapi.yaml --meta none \
    --config "$work/config.yaml" --output-path "$work/client" 2>&1 | tee "$work/generate.log"
if grep -qi "warning" "$work/generate.log"; then
    echo "error: openapi-python-client warns about openapi.yaml" >&2; exit 1
fi

secret="ci-python-client-secret-0123456789abcdef"
start_server
"$work/venv/bin/python" .ci/clients/play.py "$base" "$work"
