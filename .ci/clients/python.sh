#!/usr/bin/env bash
# Checks the Python client package in clients/python (its README.md says
# what it is):
# - the README's example is examples/play_a_move.py verbatim;
# - regenerating the package from openapi.yaml with the pinned
#   openapi-python-client gives exactly the committed files, and the
#   generator warns about nothing;
# - pip installs clients/python into a fresh virtual environment, and with
#   that installed package, against a server started here (embedded
#   SQLite), .ci/clients/play.py plays a game and the README's example runs.
# Skips, saying so, when python3 or the generator cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. .ci/lib/server.sh
. .ci/lib/venv.sh

pkg=clients/python
example="$pkg/examples/play_a_move.py"
work="$(mktemp -d)"
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

# The first ```python block of the README is the example.
awk '/^```python$/ { inside = 1; next } /^```$/ && inside { exit } inside' \
    "$pkg/README.md" > "$work/readme-example.py"
if ! cmp -s "$work/readme-example.py" "$example"; then
    echo "error: the Python example of $pkg/README.md differs from $example;" \
        "copy the file into the README's python block" >&2
    diff -u "$example" "$work/readme-example.py" >&2 || true
    exit 1
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "skipped: python3 is not installed"; exit 0
fi
if ! python_tool "$work/generator" -r "$pkg/generator-requirements.txt"; then
    echo "skipped: cannot install the generator pinned in $pkg/generator-requirements.txt"; exit 0
fi

# generate.sh fails by itself on any warning of the generator. Every file
# and folder it writes must be as committed, with nothing more inside
# (what Python caches on import aside).
GENERATOR_VENV="$work/generator" bash "$pkg/generate.sh" "$work/fresh"
stale=0
for entry in $(ls -A "$work/fresh"); do
    diff -r -x __pycache__ "$work/fresh/$entry" "$pkg/$entry" >> "$work/stale.diff" || stale=1
done
if [ "$stale" -ne 0 ]; then
    head -n 60 "$work/stale.diff" >&2
    echo "error: $pkg is not what the pinned generator makes of openapi.yaml;" \
        "refresh it with \`bash $pkg/generate.sh\` and commit the result" >&2
    exit 1
fi

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "./$pkg"

secret="ci-python-client-secret-0123456789abcdef"
start_server
"$work/venv/bin/python" .ci/clients/play.py "$base"
"$work/venv/bin/python" "$example" "$base"
