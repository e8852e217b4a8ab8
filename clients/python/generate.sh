#!/usr/bin/env bash
# Regenerates the stratego-client package in clients/python from openapi.yaml
# with the pinned openapi-python-client (generator-requirements.txt) and
# config.yaml. Run it after changing the API document and commit the result:
#
#   bash clients/python/generate.sh
#
# It replaces what the generator writes (pyproject.toml, .gitignore and the
# stratego_client package); README.md, examples/ and the files that drive
# the generation are ours and stay as they are. The generator's own
# README.md is dropped.
#
# With a directory as argument it writes the package there instead (the CI
# check compares that with clients/python). GENERATOR_VENV may name a
# virtual environment that already holds the pinned tools; otherwise one is
# made in a temporary directory (needs python3 and PyPI).
#
# Fails, writing nothing, on any warning of the generator.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$here}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

venv="${GENERATOR_VENV:-}"
if [ -z "$venv" ]; then
    venv="$tmp/venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r "$here/generator-requirements.txt"
fi

# Generated outside the repository, so that nothing there (a .gitignore, a
# ruff setting) can change what ruff does. The post_hooks find ruff on PATH;
# RUFF_NO_CACHE keeps its cache out of the output.
PATH="$venv/bin:$PATH" RUFF_NO_CACHE=true "$venv/bin/openapi-python-client" generate \
    --path "$root/openapi.yaml" --config "$here/config.yaml" --meta pdm \
    --output-path "$tmp/client" --fail-on-warning 2>&1 | tee "$tmp/generate.log"
if grep -qi "warning" "$tmp/generate.log"; then
    echo "error: openapi-python-client warns about openapi.yaml" >&2
    exit 1
fi
rm "$tmp/client/README.md"

mkdir -p "$out"
for entry in $(ls -A "$tmp/client"); do
    rm -rf "${out:?}/$entry"
    cp -R "$tmp/client/$entry" "$out/"
done
