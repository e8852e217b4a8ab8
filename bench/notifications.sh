#!/usr/bin/env bash
# Moves with and without notification channels (issue 31; BENCHMARKS.md,
# "Notifications: moves with a webhook and a push subscription on every
# player"). Run from anywhere:
#
#   bash bench/notifications.sh
#
# The promise under test: a delivery is never sent inside the request, so
# a webhook and a Web Push subscription on every player must leave the move
# throughput and latency within 10% of what they are without any.
#
# 1. builds the server as shipped (the `dist` profile, as the Dockerfile
#    does) and the load tool (`tests/src/bin/load.rs`);
# 2. for each backend in BACKENDS, ROUNDS rounds of two runs, without then
#    with channels (A B A B ...), so that a slower minute of the machine
#    falls on both kinds alike. Each run is a fresh database and a fresh
#    dist server, and the load tool's move phase only (`--long-games 0
#    --view-seconds 0`), CLIENTS clients for MOVE_SECONDS. "With" is the
#    tool's `--notify`: a webhook and a push subscription on every account,
#    to a receiver the tool runs on loopback, which counts the deliveries;
# 3. ONE table: per backend the median moves/s and move p99 without and
#    with, their ratio, the deliveries received during the move phase;
#    then every run.
#
# Every server, with channels or not, runs with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true
# (the receiver is plain http on loopback) and a VAPID key: on PostgreSQL
# VAPID_PRIVATE_KEY, a random scalar made here; on SQLite none is given
# and the server makes one beside its database. So the runs differ only in
# the channels.
#
# Settings (environment): CLIENTS (32), MOVE_SECONDS (20), ROUNDS (3), SEED
# (1), BACKENDS ("postgres sqlite"), PGHOST (127.0.0.1), PGPORT (5432),
# PGUSER (postgres), BENCH_LOG_LEVEL (info), OUT (a directory to keep the
# reports, logs and table in; default: none kept). Other server settings
# (WORKERS, DATABASE_POOL_SIZE, OUTBOX_POLL_MILLIS, ...) pass through from
# the environment.
#
# Everything it creates is removed on exit, also on failure or Ctrl-C: the
# server and the load tool stopped, the databases dropped, the temporary
# directory deleted. Exits non-zero when a step failed, any request
# failed, or a run with channels received no delivery during its moves.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

CLIENTS="${CLIENTS:-32}"
MOVE_SECONDS="${MOVE_SECONDS:-20}"
ROUNDS="${ROUNDS:-3}"
SEED="${SEED:-1}"
BENCH_LOG_LEVEL="${BENCH_LOG_LEVEL:-info}"
BACKENDS="${BACKENDS:-postgres sqlite}"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
TARGET="${CARGO_TARGET_DIR:-target}"

step() { printf '\n==> %s\n' "$*" >&2; }

tag="$(date +%s)_$$_${RANDOM}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/stratego-notify-bench.XXXXXX")"
SERVER_PID=""
LOAD_PID=""
CREATED_DBS=()

stop_server() {
    if [ -n "$LOAD_PID" ] && kill -0 "$LOAD_PID" 2>/dev/null; then
        kill -TERM "$LOAD_PID" 2>/dev/null || true
        wait "$LOAD_PID" 2>/dev/null || true
    fi
    LOAD_PID=""
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
        # Neither the databases nor the generated VAPID keys are kept.
        find "$OUT" \( -name '*.db' -o -name '*.db-wal' -o -name '*.db-shm' \
            -o -name '.stratego-vapid-key' \) -delete 2>/dev/null || true
        echo "kept reports and logs in $OUT" >&2
    fi
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

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

# PostgreSQL has no key of its own: a P-256 private scalar d, 1 < d < n,
# base64url without padding. Not kept anywhere.
VAPID_PG="$(python3 -c '
import base64, secrets
n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
d = 2 + secrets.randbelow(n - 2)
print(base64.urlsafe_b64encode(d.to_bytes(32, "big")).rstrip(b"=").decode())')"

start_server() { # $1: DATABASE_URL, $2: name of the run, $3: VAPID key or ""
    local port attempt
    local vapid=(-u VAPID_PRIVATE_KEY)
    if [ -n "$3" ]; then
        vapid=(VAPID_PRIVATE_KEY="$3")
    fi
    for attempt in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 20000))
        # Without the PG... variables (the server takes everything from
        # DATABASE_URL, as in bench/run.sh).
        env -u PGHOST -u PGPORT -u PGUSER "${vapid[@]}" \
            DATABASE_URL="$1" BIND_ADDRESS="127.0.0.1:$port" \
            JWT_SECRET="bench-secret-bench-secret-bench-secret-0123" \
            REGISTER_RATE_LIMIT=100000 LOGIN_RATE_LIMIT=100000 \
            OUTBOUND_ALLOW_PRIVATE_NETWORKS=true \
            VAPID_SUBJECT="mailto:bench@stratego.invalid" \
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

# What the outbox had done by the time the server stopped: deliveries by
# state, and events not yet fanned out (after their player's cursor).
OUTBOX_SQL="SELECT 'deliveries ' || state || ': ' || count(*) FROM deliveries GROUP BY state
UNION ALL SELECT 'events not fanned out: ' || count(*) FROM events e
  JOIN notification_cursors c ON c.user_id = e.user_id WHERE e.seq > c.seq"

LOAD_FAILED=0
NO_DELIVERY=0
run_once() { # $1: backend, $2: round, $3: without|with
    local name="$1-$2-$3" url vapid="" status=0 notify=()
    step "$name: the dist server, load tool with $CLIENTS clients, moves for $MOVE_SECONDS s"
    machine >&2
    case "$1" in
    postgres)
        local db="stratego_notify_${tag}_$2_$3"
        createdb "$db"
        CREATED_DBS+=("$db")
        url="postgres://$PGUSER@$PGHOST:$PGPORT/$db"
        vapid="$VAPID_PG"
        ;;
    sqlite)
        mkdir -p "$WORK/$name"
        url="sqlite://$WORK/$name/bench.db"
        ;;
    esac
    if [ "$3" = with ]; then
        notify=(--notify)
    fi
    start_server "$url" "$name" "$vapid"
    echo "server pid $SERVER_PID at $SERVER_ADDRESS" >&2
    "$LOAD" --address "$SERVER_ADDRESS" --pid "$SERVER_PID" --clients "$CLIENTS" \
        --move-seconds "$MOVE_SECONDS" --view-seconds 0 --long-games 0 --seed "$SEED" \
        "${notify[@]}" --json >"$WORK/$name.json" 2>"$WORK/$name-load.txt" &
    LOAD_PID=$!
    wait "$LOAD_PID" || status=$?
    LOAD_PID=""
    cat "$WORK/$name-load.txt" >&2
    stop_server
    case "$1" in
    postgres)
        psql -XAt -d "${url##*/}" -c "$OUTBOX_SQL" >"$WORK/$name-outbox.txt" 2>&1 || true
        dropdb --if-exists --force "${url##*/}" >/dev/null 2>&1 || true
        ;;
    sqlite)
        python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (line,) in db.execute(sys.argv[2]): print(line)' \
            "$WORK/$name/bench.db" "$OUTBOX_SQL" >"$WORK/$name-outbox.txt" 2>&1 || true
        if grep -qi "vapid" "$WORK/$name-server.log"; then
            grep -i "vapid" "$WORK/$name-server.log" | head -n 1 >&2
        fi
        rm -f "$WORK/$name"/bench.db*
        ;;
    esac
    sed 's/^/outbox at the end: /' "$WORK/$name-outbox.txt" >&2
    if [ "$status" -ne 0 ]; then
        echo "load tool exited with $status on $name (failed requests above)" >&2
        LOAD_FAILED=1
    fi
    if [ "$3" = with ] && [ "$(jq '(.notify.during_moves.webhook // 0) + (.notify.during_moves.push // 0)' \
        "$WORK/$name.json" 2>/dev/null || echo 0)" -eq 0 ]; then
        echo "$name: no delivery received during the move phase" >&2
        NO_DELIVERY=1
    fi
}

for backend in $BACKENDS; do
    case "$backend" in
    postgres) pg_isready -q ;;
    sqlite) ;;
    *)
        echo "unknown backend $backend (postgres or sqlite)" >&2
        exit 2
        ;;
    esac
    for round in $(seq 1 "$ROUNDS"); do
        run_once "$backend" "$round" without
        run_once "$backend" "$round" with
    done
done
machine | tee -a "$WORK/machine.txt" >&2

# --- The table --------------------------------------------------------------------
step "results"
{
    sed -n '1s/^/start /p; 2s/^/end   /p' "$WORK/machine.txt"
    echo "clients $CLIENTS; moves only, $MOVE_SECONDS s a run; $ROUNDS rounds of without, with; seed $SEED; LOG_LEVEL=$BENCH_LOG_LEVEL"
    python3 - "$WORK" "$BACKENDS" "$ROUNDS" <<'EOF'
import json, statistics, sys
work, backends, rounds = sys.argv[1], sys.argv[2].split(), int(sys.argv[3])
names = {"postgres": "PostgreSQL", "sqlite": "SQLite"}

def load(backend, round_, kind):
    try:
        with open(f"{work}/{backend}-{round_}-{kind}.json") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None

def during(report):
    d = (report.get("notify") or {}).get("during_moves") or {}
    return d.get("webhook", 0), d.get("push", 0)

def p50(report):
    return report["rows"][0]["p50_ms"] if report.get("rows") else 0.0

print()
print(f"{'':<12} {'moves/s without':>15} {'with':>8} {'ratio':>6}   "
      f"{'move p99 ms without':>19} {'with':>7} {'ratio':>6}   {'deliveries (hook + push)':>24}  10%")
for backend in backends:
    runs = {k: [r for r in (load(backend, n, k) for n in range(1, rounds + 1)) if r]
            for k in ("without", "with")}
    if not runs["without"] or not runs["with"]:
        print(f"{names.get(backend, backend):<12} (runs missing)")
        continue
    med = lambda kind, key: statistics.median(r[key] for r in runs[kind])
    mw, mn = med("with", "moves_per_second"), med("without", "moves_per_second")
    pw, pn = med("with", "move_p99_ms"), med("without", "move_p99_ms")
    hooks = [during(r) for r in runs["with"]]
    delivered = statistics.median(h + p for h, p in hooks)
    per_move = statistics.median(
        (h + p) / max(1, r["rows"][0]["count"]) for (h, p), r in zip(hooks, runs["with"]))
    ok = mw >= 0.9 * mn and pw <= 1.1 * pn
    print(f"{names.get(backend, backend):<12} {mn:>15.0f} {mw:>8.0f} {mw / mn:>6.2f}   "
          f"{pn:>19.2f} {pw:>7.2f} {pw / pn:>6.2f}   "
          f"{delivered:>11.0f} ({per_move:.2f}/move)  {'held' if ok else 'MISSED'}")
print()
print(f"{'run':<22} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} "
      f"{'hook':>6} {'push':>6} {'server ms/move':>14} {'busy cores':>10}")
for backend in backends:
    for n in range(1, rounds + 1):
        for kind in ("without", "with"):
            r = load(backend, n, kind)
            name = f"{names.get(backend, backend)} {n} {kind}"
            if not r:
                print(f"{name:<22} (no report)")
                continue
            h, p = during(r) if kind == "with" else ("-", "-")
            print(f"{name:<22} {r['moves_per_second']:>8.0f} {p50(r):>7.2f} "
                  f"{r['move_p99_ms']:>7.2f} {r['errors']:>6} {h:>6} {p:>6} "
                  f"{r['server']['cpu_ms_per_move']:>14.3f} "
                  f"{r['machine']['busy_cores_moves']:>10.2f}")
EOF
} | tee "$WORK/table.txt"
if [ "$NO_DELIVERY" -ne 0 ]; then
    echo "a run with channels received no delivery during its moves" >&2
    exit 1
fi
exit "$LOAD_FAILED"
