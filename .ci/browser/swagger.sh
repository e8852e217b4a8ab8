#!/usr/bin/env bash
# Walks Swagger UI at /docs in Debian's headless Chromium (driven by a
# pinned playwright-core, which downloads no browser of its own) against a
# server started here (embedded SQLite): Authorize with a token, then
# "Try it out" on GET /me and GET /variants. Screenshots go to
# target/screenshots/ (SCREENSHOT_DIR to change). Skips, saying so, when
# chromium, node/npm or playwright-core cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. .ci/lib/playwright.sh
. .ci/lib/server.sh

shots="$(realpath -m "${SCREENSHOT_DIR:-target/screenshots}")"
work="$(mktemp -d)"
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

playwright_tools "$work" stratego-swagger-walk || exit 0
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
