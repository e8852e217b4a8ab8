# Sourced by the browser checks: Debian's chromium driven by a pinned
# playwright-core (which downloads no browser of its own).
#
# Usage: playwright_tools DIR NAME; installs playwright-core into DIR (a
# package named NAME) and copies nothing else. Prints "skipped: ..." and
# fails when chromium, node/npm or the package cannot be had, so that the
# caller can `|| exit 0`. Sets CHROMIUM.
PLAYWRIGHT_VERSION=1.65.1
CHROMIUM=/usr/bin/chromium
playwright_tools() {
    local dir="$1" name="$2"
    if [ ! -x "$CHROMIUM" ]; then
        echo "skipped: $CHROMIUM is not installed (apt-get install chromium)"; return 1
    fi
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        echo "skipped: node and npm are not installed"; return 1
    fi
    printf '{"name": "%s", "private": true, "type": "module"}\n' "$name" > "$dir/package.json"
    if ! (cd "$dir" && npm install --no-audit --no-fund -s \
            "playwright-core@${PLAYWRIGHT_VERSION}" >/dev/null 2>&1); then
        echo "skipped: cannot install playwright-core ${PLAYWRIGHT_VERSION}"; return 1
    fi
}
