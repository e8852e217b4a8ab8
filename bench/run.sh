#!/usr/bin/env bash
# Throughput of the server beside what PostgreSQL alone does (issue 9;
# BENCHMARKS.md, "Throughput beside pgbench"). Run from anywhere:
#
#   bash bench/run.sh
#
# 1. builds the server as shipped (the `dist` profile of Cargo.toml, as the
#    Dockerfile builds it) and the load tool (`tests/src/bin/load.rs`, a
#    `release` build);
# 2. pgbench on a database of its own: `-i -s 10`, then TPC-B-like and
#    select-only, each `-c CLIENTS -j 2 -T PGBENCH_SECONDS`;
# 3. that server on a fresh PostgreSQL database, the load tool at the
#    same concurrency (long games, moves, views), server stopped; then
#    pgbench again as in 2, so that its figures bracket the server's;
# 4. the same on the embedded SQLite default (a temporary file);
# 5. ONE table: moves/s, views/s, p99s, errors, RSS, pgbench (both
#    rounds, and their mean, which the ratios divide by).
#
# Settings (environment): CLIENTS (32), PGBENCH_SECONDS (20), MOVE_SECONDS
# (20), VIEW_SECONDS (20), LONG_GAMES (4), LONG_PLIES (1100), SEED (1),
# PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres), BENCH_LOG_LEVEL
# (info, the server's default), BACKENDS ("postgres sqlite"), OUT (a
# directory to keep the reports, logs and tables in; default: none kept),
# PERF=1 (record `perf` on the server of PERF_BACKEND, postgres (the
# default) or sqlite, during its move phase, or its view phase with
# PERF_PHASE=views, at PERF_FREQ samples a second, default 199; the reports
# perf-self.txt and perf-children.txt are kept in OUT; on PostgreSQL they
# are written before pgbench's second round, which then starts that much
# later). Any other server setting (WORKERS, DATABASE_POOL_SIZE, ...)
# passes through from the environment.
#
# Only the rate limits differ from the server's defaults (REGISTER_RATE_LIMIT
# and LOGIN_RATE_LIMIT: the tool registers 2 x CLIENTS accounts in seconds).
# Everything it creates is removed on exit, also on failure or Ctrl-C: the
# server is stopped, both databases dropped, the temporary directory
# deleted. Exits non-zero when a step failed or any request failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

CLIENTS="${CLIENTS:-32}"
PGBENCH_SECONDS="${PGBENCH_SECONDS:-20}"
MOVE_SECONDS="${MOVE_SECONDS:-20}"
VIEW_SECONDS="${VIEW_SECONDS:-20}"
LONG_GAMES="${LONG_GAMES:-4}"
LONG_PLIES="${LONG_PLIES:-1100}"
SEED="${SEED:-1}"
BENCH_LOG_LEVEL="${BENCH_LOG_LEVEL:-info}"
BACKENDS="${BACKENDS:-postgres sqlite}"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
TARGET="${CARGO_TARGET_DIR:-target}"

step() { printf '\n==> %s\n' "$*" >&2; }

tag="$(date +%s)_$$_${RANDOM}"
DB="stratego_bench_${tag}"
PGB_DB="pgbench_${tag}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/stratego-bench.XXXXXX")"
SERVER_PID=""
PERF_PID=""
LOAD_PID=""
CREATED_DBS=()

stop_server() {
    if [ -n "$LOAD_PID" ] && kill -0 "$LOAD_PID" 2>/dev/null; then
        kill -TERM "$LOAD_PID" 2>/dev/null || true
        wait "$LOAD_PID" 2>/dev/null || true
    fi
    LOAD_PID=""
    if [ -n "$PERF_PID" ] && kill -0 "$PERF_PID" 2>/dev/null; then
        kill -INT "$PERF_PID" 2>/dev/null || true
        wait "$PERF_PID" 2>/dev/null || true
    fi
    PERF_PID=""
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 1 100); do
            kill -0 "$SERVER_PID" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=""
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    stop_server
    for db in "${CREATED_DBS[@]}"; do
        dropdb --if-exists --force "$db" >/dev/null 2>&1 ||
            echo "warning: could not drop database $db" >&2
    done
    if [ -n "${OUT:-}" ]; then
        mkdir -p "$OUT"
        cp -a "$WORK"/. "$OUT"/ 2>/dev/null || true
        rm -f "$OUT"/*.db "$OUT"/*.db-wal "$OUT"/*.db-shm
        echo "kept reports and logs in $OUT" >&2
    fi
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

new_db() {
    createdb "$1"
    CREATED_DBS+=("$1")
}

# --- Build ------------------------------------------------------------------
step "build: the server as shipped (profile dist) and the load tool"
cargo build --profile dist --locked -p api
cargo build --release --locked -p e2e --bin load
API="$TARGET/dist/api"
LOAD="$TARGET/release/load"

machine() {
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(nproc) cores; load average:$(cut -d' ' -f1-3 /proc/loadavg)"
}
machine | tee "$WORK/machine.txt" >&2

# --- pgbench -----------------------------------------------------------------
# Twice: before the servers, and again right after the server's run on
# PostgreSQL, each time on a new database of its own. The machine's speed
# drifts from one minute to the next (BENCHMARKS.md, "Twenty-fifth
# measurement"); the ratios divide by the mean of the two, which brackets
# the server's run, and the table shows both.
tps() { sed -n 's/^tps = \([0-9.]*\) (without initial connection time)$/\1/p' "$1"; }
# Each TPC-B-like run of pgbench and the server's run on PostgreSQL start
# from a checkpoint, so that none inherits the writing of the one before
# it (pgbench's data load, the server's moves).
checkpoint() {
    psql -Xq -d postgres -c CHECKPOINT >/dev/null 2>&1 ||
        echo "warning: CHECKPOINT refused (not a superuser?); runs may inherit each other's writes" >&2
}
pgbench_round() { # $1: before or after
    step "pgbench ($1): -i -s 10, then TPC-B-like and select-only, -c $CLIENTS -j 2 -T $PGBENCH_SECONDS"
    pg_isready -q
    new_db "$PGB_DB"
    pgbench -i -s 10 -q "$PGB_DB" >"$WORK/pgbench-$1-init.txt" 2>&1
    checkpoint
    pgbench -c "$CLIENTS" -j 2 -T "$PGBENCH_SECONDS" -l --log-prefix="$WORK/tpcb-$1-log" "$PGB_DB" \
        >"$WORK/pgbench-$1-tpcb.txt" 2>&1
    pgbench -S -c "$CLIENTS" -j 2 -T "$PGBENCH_SECONDS" "$PGB_DB" >"$WORK/pgbench-$1-select.txt" 2>&1
    local tpcb select_only
    tpcb="$(tps "$WORK/pgbench-$1-tpcb.txt")"
    select_only="$(tps "$WORK/pgbench-$1-select.txt")"
    echo "pgbench ($1) TPC-B-like: ${tpcb:?no tps in pgbench output} tps; select-only: ${select_only:?no tps} tps" >&2
    echo "$tpcb $select_only" >"$WORK/pgbench-$1.txt"
    dropdb --force "$PGB_DB"
}
pgbench_round before

# --- The server under load ----------------------------------------------------
start_server() { # $1: DATABASE_URL, $2: name of the run
    local port attempt
    for attempt in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 20000))
        # Without the PG... variables exported above for psql and pgbench:
        # the server takes everything from DATABASE_URL (with one of them
        # set, its reads of games would use the pool: docs/storage.md).
        env -u PGHOST -u PGPORT -u PGUSER \
        DATABASE_URL="$1" BIND_ADDRESS="127.0.0.1:$port" \
            JWT_SECRET="bench-secret-bench-secret-bench-secret-0123" \
            REGISTER_RATE_LIMIT=100000 LOGIN_RATE_LIMIT=100000 \
            LOG_LEVEL="$BENCH_LOG_LEVEL" \
            "$API" >"$WORK/$2-server.log" 2>&1 &
        SERVER_PID=$!
        for _ in $(seq 1 300); do
            if curl -sf -o /dev/null "http://127.0.0.1:$port/readyz"; then
                SERVER_ADDRESS="127.0.0.1:$port"
                return 0
            fi
            kill -0 "$SERVER_PID" 2>/dev/null || break
            sleep 0.1
        done
        stop_server
        echo "server did not start on port $port (attempt $attempt):" >&2
        tail -n 5 "$WORK/$2-server.log" >&2
    done
    return 1
}

LOAD_FAILED=0
REPORTS=()
run_load() { # $1: DATABASE_URL, $2: name of the run, $3: column name
    step "$3: the dist server, load tool with $CLIENTS clients"
    machine >&2
    start_server "$1" "$2"
    echo "server pid $SERVER_PID at $SERVER_ADDRESS" >&2
    local status=0
    "$LOAD" --address "$SERVER_ADDRESS" --pid "$SERVER_PID" --clients "$CLIENTS" \
        --move-seconds "$MOVE_SECONDS" --view-seconds "$VIEW_SECONDS" \
        --long-games "$LONG_GAMES" --long-plies "$LONG_PLIES" --seed "$SEED" --json \
        >"$WORK/$2.json" 2>"$WORK/$2-load.txt" &
    LOAD_PID=$!
    if [ "${PERF:-0}" = 1 ] && [ "$2" = "${PERF_BACKEND:-postgres}" ]; then
        # One phase only (not the password hashing of the set-up).
        local phase=moves seconds=$MOVE_SECONDS
        if [ "${PERF_PHASE:-moves}" = views ]; then
            phase=views seconds=$VIEW_SECONDS
        fi
        while kill -0 "$LOAD_PID" 2>/dev/null && ! grep -q "^load: $phase:" "$WORK/$2-load.txt"; do
            sleep 0.2
        done
        # DWARF call graphs: the dist build has no frame pointers.
        perf record -F "${PERF_FREQ:-199}" --call-graph dwarf -p "$SERVER_PID" -o "$WORK/perf.data" \
            -- sleep "$seconds" >"$WORK/perf-record.txt" 2>&1 &
        PERF_PID=$!
        wait "$PERF_PID" || true
        PERF_PID=""
    fi
    wait "$LOAD_PID" || status=$?
    LOAD_PID=""
    cat "$WORK/$2-load.txt" >&2
    stop_server
    if [ "$2" = postgres ]; then
        # How many of the updates of `games` were HOT (docs/storage.md,
        # "Indexes and HOT moves"); the server's backends flushed their
        # statistics as they ended.
        psql -XAt -F ' ' -d "$DB" -c "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables \
            WHERE relname = 'games'" >"$WORK/postgres-hot.txt" 2>&1 || true
        read -r updates hot <"$WORK/postgres-hot.txt" || true
        echo "games: ${updates:-?} row updates, ${hot:-?} of them HOT" | tee "$WORK/postgres-hot.txt" >&2
    fi
    if [ -s "$WORK/perf.data" ] && [ "$2" = "${PERF_BACKEND:-postgres}" ]; then
        perf report -i "$WORK/perf.data" --no-children --sort dso,symbol --stdio -g none \
            >"$WORK/perf-self.txt" 2>/dev/null || true
        perf report -i "$WORK/perf.data" --children --sort symbol --stdio -g none \
            --percent-limit 0.5 \
            >"$WORK/perf-children.txt" 2>/dev/null || true
        rm -f "$WORK/perf.data"
        echo "perf: reports in perf-self.txt and perf-children.txt (kept with OUT)" >&2
    fi
    if [ "$status" -ne 0 ]; then
        echo "load tool exited with $status on $3 (failed requests above)" >&2
        LOAD_FAILED=1
    fi
    if [ -s "$WORK/$2.json" ]; then
        REPORTS+=(--report "$3=$WORK/$2.json")
    fi
}

for backend in $BACKENDS; do
    case "$backend" in
    postgres)
        new_db "$DB"
        checkpoint
        run_load "postgres://$PGUSER@$PGHOST:$PGPORT/$DB" postgres PostgreSQL
        dropdb --force "$DB" ||
            echo "warning: could not drop database $DB (dropped again on exit)" >&2
        pgbench_round after
        ;;
    sqlite)
        run_load "sqlite://$WORK/bench.db" sqlite SQLite
        ;;
    *)
        echo "unknown backend $backend (postgres or sqlite)" >&2
        exit 2
        ;;
    esac
done

# --- The table --------------------------------------------------------------------
step "results"
# pgbench's figures: the mean of both rounds (before alone without a run
# on PostgreSQL); its p99 over the transactions of both, by nearest rank
# (the per-transaction log's third field is the latency in microseconds).
ROUNDS=(before)
[ -s "$WORK/pgbench-after.txt" ] && ROUNDS+=(after)
read -r TPCB SELECT_ONLY < <(for round in "${ROUNDS[@]}"; do cat "$WORK/pgbench-$round.txt"; done |
    awk '{t += $1; s += $2; n++} END {printf "%.1f %.1f\n", t / n, s / n}')
TPCB_P99="$(for round in "${ROUNDS[@]}"; do cat "$WORK"/tpcb-"$round"-log.*; done | awk '{print $3}' | sort -n |
    awk '{v[NR] = $1} END {i = int(NR * 0.99); if (i < NR * 0.99) i++; if (i < 1) exit 1; printf "%.2f", v[i] / 1000}')"
{
    cat "$WORK/machine.txt"
    echo "clients $CLIENTS; pgbench -s 10 -j 2 -T $PGBENCH_SECONDS; moves $MOVE_SECONDS s, views $VIEW_SECONDS s; $LONG_GAMES long games of $LONG_PLIES plies; LOG_LEVEL=$BENCH_LOG_LEVEL"
    for round in "${ROUNDS[@]}"; do
        read -r tpcb select_only <"$WORK/pgbench-$round.txt"
        echo "pgbench $round the server: TPC-B-like $tpcb tps, select-only $select_only tps"
    done
    "$LOAD" compare "${REPORTS[@]}" --tpcb "$TPCB" --select-only "$SELECT_ONLY" --tpcb-p99-ms "${TPCB_P99:?no pgbench log}"
} | tee "$WORK/table.txt"
exit "$LOAD_FAILED"
