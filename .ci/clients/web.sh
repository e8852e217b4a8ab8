#!/usr/bin/env bash
# The reference web client (clients/web): type-checks it (tsc --strict)
# and builds it with its pinned esbuild, then fails if api/play/, the
# files the server compiles in and serves at /play/, differ from what is
# committed. Skips, saying so, when node/npm or the packages cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "skipped: node and npm are not installed"; exit 0
fi
# The web client is built on the package in clients/typescript.
for dir in clients/typescript clients/web; do
    if ! (cd "$dir" && npm ci --no-audit --no-fund -s >/dev/null 2>&1); then
        echo "skipped: cannot install the pinned packages of $dir"; exit 0
    fi
done
(cd clients/web && npm run -s build)
changed="$(git diff --name-only -- api/play; git ls-files --others --exclude-standard -- api/play)"
if [ -n "$changed" ]; then
    echo "$changed" >&2
    echo "error: api/play is not what clients/web builds; run 'npm ci && npm run build'" \
        "in clients/web and commit api/play" >&2
    exit 1
fi
echo "api/play is current: $(ls api/play | tr '\n' ' ')"
