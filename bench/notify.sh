#!/usr/bin/env bash
# What a NOTIFY inside a writing transaction costs PostgreSQL's commits
# (docs/architecture.md, "Telling the other processes"; BENCHMARKS.md).
# Three pgbench scripts on a database of their own, each run RUNS times
# for RUN_SECONDS at CLIENTS clients, interleaved:
#
#   plain   update one random account, insert a history row, commit
#   inside  the same with `SELECT pg_notify(..)` before the commit
#   after   the same, then `SELECT pg_notify(..)` as a transaction of its own
#
# Settings (environment): CLIENTS (32), RUN_SECONDS (10), RUNS (2), PGHOST
# (127.0.0.1), PGPORT (5432), PGUSER (postgres). The database is dropped on
# exit, also on failure.
set -euo pipefail
CLIENTS="${CLIENTS:-32}"
SECONDS_EACH="${RUN_SECONDS:-10}"
RUNS="${RUNS:-2}"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"

DB="notify_bench_$(date +%s)_$$"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/notify-bench.XXXXXX")"
cleanup() {
    psql -qX -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

write='\set aid random(1, 100000 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, :aid, :delta, CURRENT_TIMESTAMP);'
printf '%s\nEND;\n' "$write" >"$WORK/plain.sql"
printf '%s\nSELECT pg_notify('"'bench'"', '"'x'"');\nEND;\n' "$write" >"$WORK/inside.sql"
printf '%s\nEND;\nSELECT pg_notify('"'bench'"', '"'x'"');\n' "$write" >"$WORK/after.sql"

psql -qX -d postgres -c "CREATE DATABASE $DB"
pgbench -i -s 10 -q "$DB" >"$WORK/init.txt" 2>&1
printf 'pgbench -c %s -j 2 -T %s, tps (without initial connection time)\n' "$CLIENTS" "$SECONDS_EACH"
for run in $(seq "$RUNS"); do
    for script in plain inside after; do
        tps="$(pgbench -n -c "$CLIENTS" -j 2 -T "$SECONDS_EACH" -f "$WORK/$script.sql" "$DB" 2>&1 \
            | sed -n 's/^tps = \([0-9.]*\).*/\1/p')"
        printf 'run %s  %-6s %8.0f\n' "$run" "$script" "$tps"
    done
done
