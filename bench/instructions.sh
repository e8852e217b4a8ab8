#!/usr/bin/env bash
# Instructions the release server executes per view and per move, counted
# by callgrind (BENCHMARKS.md, "Instructions per request"). Unlike
# wall-clock figures these barely move when other processes share the
# cores, so they compare two builds on a busy machine.
#
#   bash bench/instructions.sh                 # SQLite and PostgreSQL
#   BACKENDS=sqlite REQUESTS=500 bash bench/instructions.sh
#   OUT=/tmp/ic bash bench/instructions.sh     # keep the callgrind dumps
#   API_BIN=/tmp/api-old bash bench/instructions.sh   # another build, not rebuilt
#
# Needs valgrind (callgrind_control), python3, and for PostgreSQL a server
# at PGHOST:PGPORT where PGUSER may create databases. Everything it creates
# (server, database, temporary directory) is removed on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BACKENDS="${BACKENDS:-sqlite postgres}"
REQUESTS="${REQUESTS:-300}"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
TARGET="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
ADDRESS="127.0.0.1:${PORT:-18571}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/stratego-ic.XXXXXX")"
DB="stratego_ic_$(date +%s)_$$"
SERVER_PID=""
DB_CREATED=""

cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    if [ -n "$DB_CREATED" ]; then
        psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
    fi
    if [ -n "${OUT:-}" ]; then
        mkdir -p "$OUT" && cp -r "$WORK"/. "$OUT"/
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

if [ -z "${API_BIN:-}" ]; then
    cargo build -q --release -p api
    API_BIN="$TARGET/release/api"
fi

for backend in $BACKENDS; do
    dir="$WORK/$backend"
    mkdir -p "$dir"
    if [ "$backend" = postgres ]; then
        psql -q -d postgres -c "CREATE DATABASE $DB" >/dev/null
        DB_CREATED=1
        url="postgres://$PGUSER@$PGHOST:$PGPORT/$DB"
    else
        url="sqlite://$dir/bench.db"
    fi
    # Without the PG... variables exported above for psql: the server reads
    # DATABASE_URL alone (docs/storage.md, "Reads without a blocking thread").
    (cd "$dir" && exec env -u PGHOST -u PGPORT -u PGUSER DATABASE_URL="$url" BIND_ADDRESS="$ADDRESS" \
        JWT_SECRET=instructions-secret-instructions-secret-01 \
        REGISTER_RATE_LIMIT=100000 LOGIN_RATE_LIMIT=100000 \
        valgrind -q --tool=callgrind --dump-instr=no --collect-atstart=yes \
        "$API_BIN" serve >"$dir/server.log" 2>&1) &
    SERVER_PID=$!
    for _ in $(seq 1 600); do
        curl -fsS "http://$ADDRESS/healthz" >/dev/null 2>&1 && break
        sleep 0.2
    done
    echo "== $backend" >&2
    python3 bench/instructions.py --address "$ADDRESS" --pid "$SERVER_PID" \
        --out-dir "$dir" --requests "$REQUESTS" | tee "$dir/report.json"
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
    if [ "$backend" = postgres ]; then
        psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
        DB_CREATED=""
    fi
done
