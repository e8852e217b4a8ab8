#!/usr/bin/env bash
# The TypeScript client package (clients/typescript): checks that its
# generated types and built files are what openapi.yaml and its sources
# give today, then installs it from a tarball as a user would, runs the
# README's example and compiles (tsc --strict) and runs a whole game
# played with it (.ci/clients/play.ts) against a server started here
# (embedded SQLite). Skips, saying so, when node/npm or the packages
# cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. .ci/lib/server.sh

work="$(mktemp -d)"
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "skipped: node and npm are not installed"; exit 0
fi
package=clients/typescript
if ! (cd "$package" && npm ci --no-audit --no-fund -s >/dev/null 2>&1); then
    echo "skipped: cannot install the package's pinned tools from the npm registry"; exit 0
fi

# Current: regenerating and rebuilding changes nothing that is committed.
(cd "$package" && npm run -s generate >/dev/null && npm run -s build && npm test --silent)
changed="$(git diff --name-only -- "$package/src" "$package/dist"
    git ls-files --others --exclude-standard -- "$package/src" "$package/dist")"
if [ -n "$changed" ]; then
    echo "$changed" >&2
    echo "error: $package is not current with openapi.yaml or its sources;" \
        "run 'npm ci && npm run generate && npm run build' there and commit" >&2
    exit 1
fi

# The package's version is the API document's.
api_version="$(awk '/^info:/{i=1} i&&/^  version:/{print $2; exit}' openapi.yaml)"
package_version="$(node -p 'require("./'"$package"'/package.json").version')"
if [ "$api_version" != "$package_version" ]; then
    echo "error: $package/package.json has version $package_version, openapi.yaml $api_version" >&2
    exit 1
fi

# The README shows exactly the example CI runs.
readme_example="$(awk '/^## Play a move/{p=1} p&&/^```ts$/{c=1;next} c&&/^```$/{exit} c' "$package/README.md")"
if [ "$readme_example" != "$(cat "$package/examples/play-a-move.ts")" ]; then
    echo "error: the example in $package/README.md differs from examples/play-a-move.ts" >&2
    exit 1
fi

secret="ci-typescript-client-secret-0123456789abcdef"
start_server
(cd "$package" && npm run -s example -- "$base")

# A user's project: the package from its tarball, strict TypeScript.
tarball="$(cd "$package" && npm pack -s --pack-destination "$work")"
printf '{"name": "stratego-ts-user", "private": true, "type": "module"}\n' > "$work/package.json"
(cd "$work" && npm install --no-audit --no-fund -s "./$tarball" typescript@5.9.3 >/dev/null)
cp .ci/clients/play.ts "$work/"
(cd "$work" && npx tsc --strict --noEmitOnError --module nodenext --moduleResolution nodenext \
    --target es2022 --lib es2022,dom --outDir out play.ts)
node "$work/out/play.js" "$base"
