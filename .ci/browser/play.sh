#!/usr/bin/env bash
# Plays a whole game through the reference web client at /play/ in
# Debian's headless Chromium, two players in two browser contexts
# (.ci/browser/play.mjs), against a server this check starts, restarts
# and stops (embedded SQLite). Screenshots go to target/screenshots/
# (SCREENSHOT_DIR to change). Skips, saying so, when chromium, node/npm or
# playwright-core cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. .ci/lib/playwright.sh
. .ci/lib/server.sh

shots="$(realpath -m "${SCREENSHOT_DIR:-target/screenshots}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

playwright_tools "$work" stratego-play-walk || exit 0
cp .ci/browser/play.mjs "$work/"

# The binary `cargo test --workspace` built (.ci/lib/server.sh says why);
# play.mjs starts it itself, to restart it mid-game.
bin="$(api_binary)"
CHROMIUM="$CHROMIUM" node "$work/play.mjs" "$bin" "$work" "$shots"
