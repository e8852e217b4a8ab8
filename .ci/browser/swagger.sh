#!/usr/bin/env bash
# Walks Swagger UI at /docs in Debian's headless Chromium (driven by a
# pinned playwright-core, which downloads no browser of its own) against a
# server started here (embedded SQLite): Authorize with a token, then
# "Try it out" on GET /me and GET /variants. Screenshots go to
# target/screenshots/ (SCREENSHOT_DIR to change). Skips, saying so, when
# chromium, node/npm or playwright-core cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. .ci/lib/server.sh

PLAYWRIGHT_VERSION=1.65.1
CHROMIUM=/usr/bin/chromium
shots="$(realpath -m "${SCREENSHOT_DIR:-target/screenshots}")"
work="$(mktemp -d)"
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

if [ ! -x "$CHROMIUM" ]; then
    echo "skipped: $CHROMIUM is not installed (apt-get install chromium)"; exit 0
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "skipped: node and npm are not installed"; exit 0
fi
printf '{"name": "stratego-swagger-walk", "private": true, "type": "module"}\n' > "$work/package.json"
if ! (cd "$work" && npm install --no-audit --no-fund -s \
        "playwright-core@${PLAYWRIGHT_VERSION}" >/dev/null 2>&1); then
    echo "skipped: cannot install playwright-core ${PLAYWRIGHT_VERSION}"; exit 0
fi
cp .ci/browser/swagger.mjs "$work/"

secret="ci-swagger-browser-secret-0123456789abcdef"
start_server

username="swagger-walker"
credentials="{\"username\": \"$username\", \"password\": \"correct horse battery\"}"
curl -fsS -X POST "$base/api/v1/auth/register" -H 'Content-Type: application/json' \
    -d "$credentials" >/dev/null
token="$(curl -fsS -X POST "$base/api/v1/auth/login" -H 'Content-Type: application/json' \
    -d "$credentials" | node -e \
    'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).access_token))')"

CHROMIUM="$CHROMIUM" node "$work/swagger.mjs" "$base" "$token" "$username" "$shots"
