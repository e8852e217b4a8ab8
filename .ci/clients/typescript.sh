#!/usr/bin/env bash
# Types a client from openapi.yaml with openapi-typescript, compiles a game
# played with openapi-fetch under TypeScript 5 --strict, and runs it
# against a server started here (embedded SQLite). Skips, saying so, when
# node/npm or the packages cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. .ci/lib/server.sh

work="$(mktemp -d)"
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "skipped: node and npm are not installed"; exit 0
fi
printf '{"name": "stratego-ts-client", "private": true, "type": "module"}\n' > "$work/package.json"
if ! (cd "$work" && npm install --no-audit --no-fund -s \
        openapi-typescript@7.13.0 openapi-fetch@0.13.8 typescript@5 >/dev/null 2>&1); then
    echo "skipped: cannot install openapi-typescript, openapi-fetch and typescript"; exit 0
fi

cp .ci/clients/play.ts "$work/"
(cd "$work" && npx openapi-typescript "$OLDPWD/openapi.yaml" -o schema.d.ts \
    && npx tsc --strict --noEmitOnError --module nodenext --moduleResolution nodenext \
        --target es2022 --outDir out play.ts)

secret="ci-typescript-client-secret-0123456789abcdef"
start_server
node "$work/out/play.js" "$base"
