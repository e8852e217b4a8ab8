#!/usr/bin/env bash
# The leaderboard and profile queries on a big database (issue 14;
# BENCHMARKS.md, "Ratings, leaderboard and profiles"). Run from anywhere:
#
#   bash bench/ratings.sh
#
# 1. builds the release server; creates a fresh PostgreSQL database and
#    starts the server on it (which applies the migrations);
# 2. plays one real game to its end through the API: the template every
#    seeded game copies its rules, setups and state from (so every seeded
#    row reads back as a real finished game);
# 3. seeds PLAYERS players (100,000) and GAMES finished games (1,000,000)
#    with generate_series: every game between two players, 80 % classic,
#    10 % barrage, 10 % duel, ends spread over a year; one per cent of
#    them involve `player1` (a heavy player, about 10,000 games); the two
#    rating_history points of every game, numbered per player; one rating
#    per player and variant played (ratings and history are random
#    figures of the right shape: this measures reads, not Glicko);
#    then VACUUM ANALYZE;
# 4. EXPLAIN (ANALYZE, BUFFERS) of the queries the server sends for the
#    leaderboard (first page and a deep page), a profile, a rating history
#    and a page of finished games, for an ordinary player and for player1;
# 5. times each endpoint over HTTP: REQUESTS requests one after another
#    (curl), p50 / p95 / max in milliseconds.
#
# Settings (environment): PLAYERS (100000), GAMES (1000000), REQUESTS
# (200), API (a server binary to use instead of building the release one), PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres), OUT (a
# directory to keep the plans, timings and server log in; default: none
# kept), KEEP_DB=1 (do not drop the database at the end; its name is
# printed), REUSE_DB=<name> (measure a database kept that way again: no
# seeding; PLAYERS must be what it was seeded with). Everything else it creates is removed on exit, also on failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PLAYERS="${PLAYERS:-100000}"
GAMES="${GAMES:-1000000}"
REQUESTS="${REQUESTS:-200}"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
TARGET="${CARGO_TARGET_DIR:-target}"

step() { printf '\n==> %s\n' "$*" >&2; }

DB="${REUSE_DB:-stratego_ratings_$(date +%s)_$$}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/stratego-ratings.XXXXXX")"
SERVER_PID=""
CREATED=""

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    if [ -n "$CREATED" ]; then
        if [ "${KEEP_DB:-0}" = 1 ]; then
            echo "kept database $DB" >&2
        else
            dropdb --if-exists --force "$DB" >/dev/null 2>&1 ||
                echo "warning: could not drop database $DB" >&2
        fi
    fi
    if [ -n "${OUT:-}" ]; then
        mkdir -p "$OUT"
        cp -a "$WORK"/. "$OUT"/ 2>/dev/null || true
        echo "kept plans, timings and logs in $OUT" >&2
    fi
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -z "${API:-}" ]; then
    step "build: release server"
    cargo build --release --locked -p api
    API="$TARGET/release/api"
fi
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(nproc) cores; load average:$(cut -d' ' -f1-3 /proc/loadavg)" |
    tee "$WORK/machine.txt" >&2

step "database $DB and the server on it"
pg_isready -q
if [ -z "${REUSE_DB:-}" ]; then
    createdb "$DB"
    CREATED=1
fi
URL="postgres://$PGUSER@$PGHOST:$PGPORT/$DB"
PORT=$((20000 + RANDOM % 20000))
# Without the PG... variables exported above for psql: the server reads
# DATABASE_URL alone (docs/storage.md, "Reads without a blocking thread").
env -u PGHOST -u PGPORT -u PGUSER DATABASE_URL="$URL" BIND_ADDRESS="127.0.0.1:$PORT" \
    JWT_SECRET="bench-secret-bench-secret-bench-secret-0123" \
    REGISTER_RATE_LIMIT=1000 "$API" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 300); do
    curl -sf -o /dev/null "http://127.0.0.1:$PORT/readyz" && break
    kill -0 "$SERVER_PID" 2>/dev/null || { tail -n 5 "$WORK/server.log" >&2; exit 1; }
    sleep 0.1
done
BASE="http://127.0.0.1:$PORT/api/v1"
J='content-type: application/json'

post() { # $1 token, $2 path, $3 body
    curl -sf "$BASE$2" -H "authorization: Bearer $1" -H "$J" -d "$3"
}
register() {
    curl -sf "$BASE/auth/register" -H "$J" \
        -d "{\"username\":\"$1\",\"password\":\"correct horse battery\"}" |
        sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p'
}

if [ -n "${REUSE_DB:-}" ]; then
    ANN="$(register "bench-$$")"
else
# (The template game and the seed: skipped with REUSE_DB.)
step "a template game, played through the API"
ANN="$(register bench-ann)"
BOB="$(register bench-bob)"
GAME="$(post "$ANN" /games '{"variant":"classic","color":"red","opponent":"bench-bob"}' |
    sed -n 's/^{"id":"\([^"]*\)".*/\1/p')"
post "$BOB" "/games/$GAME/join" '{}' >/dev/null
post "$ANN" "/games/$GAME/setup" '{"random":true,"seed":1}' >/dev/null
post "$BOB" "/games/$GAME/setup" '{"random":true,"seed":2}' >/dev/null
post "$BOB" "/games/$GAME/resign" '{}' >/dev/null
echo "template game $GAME" >&2

step "seed: $PLAYERS players, $GAMES finished games, ratings and history"
start=$(date +%s)
psql -q -v ON_ERROR_STOP=1 -d "$DB" -v players="$PLAYERS" -v games="$GAMES" -v template="$GAME" \
    >"$WORK/seed.txt" 2>&1 <<'SQL'
-- Ids that are valid UUIDs and tell what they are: kind, then a number.
CREATE FUNCTION pg_temp.bench_id(kind int, n bigint) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT lpad(to_hex(kind), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0') $$;

INSERT INTO users (id, username, username_key, password_hash, created_at)
SELECT pg_temp.bench_id(1, i), 'player' || i, 'player' || i, '',
       now() - interval '400 days' + (i % 1000) * interval '1 hour'
FROM generate_series(1, :players) AS i;

-- Game i: red and blue drawn from the players (one game in a hundred has
-- player1 as red: rated classic games), the variant from i, one game in
-- twenty unrated, ends 30 seconds apart over a year.
CREATE TEMP TABLE seeded AS
SELECT i,
       CASE WHEN i % 100 = 3 THEN 1 ELSE 1 + (i * 7919) % :players END AS red,
       1 + (i * 104729 + 17) % :players AS blue,
       CASE i % 10 WHEN 0 THEN 'barrage' WHEN 1 THEN 'duel' ELSE 'classic' END AS variant,
       now() - (:games - i) * interval '30 seconds' AS ended
FROM generate_series(1::bigint, :games) AS i;
UPDATE seeded SET blue = 1 + blue % :players WHERE blue = red;

INSERT INTO games (id, variant, rules, status, version, creator_id, red_user_id, blue_user_id,
                   challenged_user_id, days_per_move, red_setup, blue_setup, state, turn, ply,
                   deadline, reminded_version, result_winner, result_reason, created_at,
                   updated_at, finished_at, rated)
SELECT pg_temp.bench_id(2, s.i), s.variant, t.rules, 'finished', t.version,
       pg_temp.bench_id(1, s.red), pg_temp.bench_id(1, s.red), pg_temp.bench_id(1, s.blue),
       pg_temp.bench_id(1, s.blue), t.days_per_move, t.red_setup, t.blue_setup, t.state, NULL,
       t.ply, NULL, NULL, t.result_winner, t.result_reason, s.ended - interval '3 days',
       s.ended, s.ended, s.i % 20 <> 0
FROM seeded s CROSS JOIN (SELECT * FROM games WHERE id = :'template') t;

-- Two history points per rated game, numbered per player and variant.
INSERT INTO rating_history (user_id, game_id, variant, number, rated_at, rating, deviation,
                            volatility)
SELECT pg_temp.bench_id(1, p.player), pg_temp.bench_id(2, p.i), p.variant,
       row_number() OVER (PARTITION BY p.player, p.variant ORDER BY p.ended, p.i),
       p.ended, 1500 + 350 * (random() + random() + random() - 1.5),
       50 + 250 * random(), 0.06
FROM (SELECT i, red AS player, variant, ended FROM seeded WHERE i % 20 <> 0
      UNION ALL
      SELECT i, blue, variant, ended FROM seeded WHERE i % 20 <> 0) AS p;

-- One rating per player and variant played: the counts and the last game
-- from the history; rating and deviation random, about a third settled.
INSERT INTO ratings (user_id, variant, rating, deviation, volatility, games, wins, losses,
                     draws, last_game_at)
SELECT user_id, variant, 1500 + 350 * (random() + random() + random() - 1.5),
       45 + 200 * random(), 0.06, count(*), count(*) / 2, count(*) - count(*) / 2, 0,
       max(rated_at)
FROM rating_history WHERE user_id LIKE '00000001-%' GROUP BY user_id, variant;

DROP TABLE seeded;
VACUUM ANALYZE;
SQL
echo "seeded in $(($(date +%s) - start)) s" | tee "$WORK/seed-time.txt" >&2
psql -At -d "$DB" -c "SELECT 'users ' || count(*) FROM users" \
    -c "SELECT 'games ' || count(*) FROM games WHERE status = 'finished'" \
    -c "SELECT 'ratings ' || count(*) FROM ratings" \
    -c "SELECT 'rating_history ' || count(*) FROM rating_history" \
    -c "SELECT 'settled active classic ' || count(*) FROM ratings WHERE variant = 'classic' AND deviation < 110 AND last_game_at >= now() - interval '90 days'" \
    -c "SELECT 'player1 games ' || count(*) FROM games WHERE red_user_id = '00000001-0000-4000-8000-000000000001' OR blue_user_id = '00000001-0000-4000-8000-000000000001'" \
    -c "SELECT 'database ' || pg_size_pretty(pg_database_size(current_database()))" |
    tee "$WORK/sizes.txt" >&2
fi

step "EXPLAIN of the queries the endpoints send"
P1="00000001-0000-4000-8000-000000000001"     # player1, the heavy player
MID=$((PLAYERS / 2))
P2="$(printf '00000001-0000-4000-8000-%012x' "$MID")"   # an ordinary player
LISTED="FROM ratings JOIN users ON users.id = ratings.user_id WHERE variant = 'classic' AND deviation < 110 AND last_game_at >= now() - interval '90 days' AND users.deleted_at IS NULL"
DEEP_RANK="$(psql -At -d "$DB" -c "SELECT least(5000, count(*) / 2) $LISTED")"
DEEP="$(psql -At -d "$DB" -c "SELECT rating || ',' || user_id $LISTED ORDER BY rating DESC, user_id OFFSET $DEEP_RANK LIMIT 1")"
explain() { # $1 name, $2 SQL
    {
        echo "-- $1"
        psql -At -d "$DB" -c "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) $2"
        echo
    } >>"$WORK/plans.txt"
}
# The server binds every value: after five runs PostgreSQL may keep a
# generic plan, made without the values. Shown here too, forced.
explain_generic() { # $1 name, $2 parameter types, $3 SQL with $1.., $4 arguments
    {
        echo "-- $1 (generic plan, as for bound values)"
        psql -At -d "$DB" -c "SET plan_cache_mode = force_generic_plan" \
            -c "PREPARE q($2) AS $3" -c "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE q($4)"
        echo
    } >>"$WORK/plans.txt"
}
LEADERS="SELECT ratings.*, users.username FROM ratings INNER JOIN users ON ratings.user_id = users.id WHERE ratings.variant = 'classic' AND ratings.deviation < 110 AND ratings.last_game_at >= now() - interval '90 days' AND users.deleted_at IS NULL"
explain "leaderboard, first page of 50" \
    "$LEADERS ORDER BY ratings.rating DESC, ratings.user_id ASC LIMIT 51"
explain "leaderboard, page after rank $DEEP_RANK" \
    "$LEADERS AND ratings.rating <= ${DEEP%%,*} AND (ratings.rating < ${DEEP%%,*} OR ratings.user_id > '${DEEP#*,}') ORDER BY ratings.rating DESC, ratings.user_id ASC LIMIT 51"
explain_generic "leaderboard, first page of 50" "text, float8, timestamp, bigint" \
    "SELECT ratings.*, users.username FROM ratings INNER JOIN users ON ratings.user_id = users.id WHERE ratings.variant = \$1 AND ratings.deviation < \$2 AND ratings.last_game_at >= \$3 AND users.deleted_at IS NULL ORDER BY ratings.rating DESC, ratings.user_id ASC LIMIT \$4" \
    "'classic', 110, (now() - interval '90 days')::timestamp, 51"
for who in "$P2" "$P1"; do
    explain "profile: the user's ratings ($who)" \
        "SELECT * FROM ratings WHERE user_id = '$who' ORDER BY variant"
    explain "profile: current games ($who)" \
        "SELECT id FROM games WHERE status IN ('waiting', 'setup', 'playing') AND (red_user_id = '$who' OR blue_user_id = '$who') ORDER BY created_at DESC, id DESC LIMIT 50"
    explain "rating history, first page of 100 ($who)" \
        "SELECT * FROM rating_history WHERE user_id = '$who' ORDER BY variant, number LIMIT 101"
    for side in red blue; do
        explain "finished games, first page of 20, as $side ($who)" \
            "SELECT updated_at, id FROM games WHERE finished_at IS NOT NULL AND ${side}_user_id = '$who' ORDER BY finished_at DESC, id DESC LIMIT 21"
    done
    explain_generic "finished games, first page of 20, as red ($who)" "text, bigint" \
        "SELECT updated_at, id FROM games WHERE finished_at IS NOT NULL AND red_user_id = \$1 ORDER BY finished_at DESC, id DESC LIMIT \$2" \
        "'$who', 21"
    explain "finished games, a page 180 days back, as red ($who)" \
        "SELECT updated_at, id FROM games WHERE finished_at IS NOT NULL AND red_user_id = '$who' AND finished_at <= now() - interval '180 days' AND (finished_at < now() - interval '180 days' OR id < 'z') ORDER BY finished_at DESC, id DESC LIMIT 21"
done
cat "$WORK/plans.txt"

step "HTTP: $REQUESTS requests per endpoint, one after another"
TOKEN="$ANN"
timed() { # $1 name, $2 path
    local file="$WORK/times-$(echo "$1" | tr -c 'a-z0-9' '_').txt"
    for _ in $(seq 1 "$REQUESTS"); do
        curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "$BASE$2" \
            -H "authorization: Bearer $TOKEN" >>"$file"
    done
    if grep -qv '^200 ' "$file"; then
        echo "$1: a request did not answer 200" >&2
        exit 1
    fi
    sort -n -k2 "$file" | awk -v name="$1" '{ t[NR] = $2 * 1000 } END {
        printf "| %s | %.1f | %.1f | %.1f |\n", name, t[int(NR * 0.5)], t[int(NR * 0.95)], t[NR] }'
}
next_cursor() { # $1 path
    curl -s "$BASE$1" -H "authorization: Bearer $TOKEN" | sed -n 's/.*"next_cursor":"\([^"]*\)".*/\1/p'
}
CURSOR="$(next_cursor "/leaderboard?variant=classic&limit=100")"
# Ten pages of 100 deep into player1's finished games.
GAMES_CURSOR=""
for _ in $(seq 1 10); do
    GAMES_CURSOR="$(next_cursor "/users/player1/games?limit=100${GAMES_CURSOR:+&cursor=$GAMES_CURSOR}")"
done
{
    echo "| request | p50 ms | p95 ms | max ms |"
    echo "|---|---|---|---|"
    timed "GET /leaderboard?variant=classic" "/leaderboard?variant=classic"
    timed "GET /leaderboard, second page of 100" "/leaderboard?variant=classic&limit=100&cursor=$CURSOR"
    timed "GET /users/player$MID" "/users/player$MID"
    timed "GET /users/player1 (1 % of all games)" "/users/player1"
    timed "GET /users/player$MID/ratings" "/users/player$MID/ratings"
    timed "GET /users/player1/ratings" "/users/player1/ratings"
    timed "GET /users/player$MID/games" "/users/player$MID/games"
    if [ -n "$GAMES_CURSOR" ]; then
        timed "GET /users/player1/games, page after 1,000" "/users/player1/games?cursor=$GAMES_CURSOR"
    fi
    timed "GET /users/player1/games" "/users/player1/games"
} | tee "$WORK/http.md"
