# Sourced by the client and browser checks: starts the API server on a free
# loopback port with a fresh embedded SQLite database in "$work".
#
# The binary is the one `cargo test --workspace` builds (the api package has
# integration tests, so cargo builds its binary with the test feature set).
# Building it with `cargo build -p api` instead would compile a second copy of
# many dependencies with other features: a gigabyte more in target/, which
# is what filled the disk of a CI run.
#
# API_BIN names an already built server to run instead (for trying one
# check alone without building).
#
# Sets: server (pid), base (http://127.0.0.1:PORT). Needs: work, secret.
start_server() {
    local bin
    bin="$(api_binary)"
    local port=$(( 20000 + RANDOM % 20000 ))
    JWT_SECRET="$secret" BIND_ADDRESS="127.0.0.1:${port}" \
        DATABASE_URL="sqlite://$work/ci.db" LOG_LEVEL=warn \
        "$bin" serve &
    server=$!
    base="http://127.0.0.1:${port}"
    for _ in $(seq 1 50); do
        curl -fs "$base/readyz" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    echo "error: the server did not become ready at $base" >&2
    return 1
}

# Prints the server binary's path: API_BIN, or the one the tests build.
api_binary() {
    if [ -n "${API_BIN:-}" ]; then
        realpath "$API_BIN"
        return
    fi
    cargo test --workspace --locked --no-run -q >&2
    realpath "${CARGO_TARGET_DIR:-target}/debug/api"
}
