-- The durable per-user event feed (issue #5).
--
-- An event's public id is `seq`, numbered per user 1, 2, 3, ... The writer
-- computes MAX(seq) + 1 for the recipient inside the transaction that makes
-- the game change; writers for one user are serialised (SQLite: one writer
-- at a time; PostgreSQL: a per-user advisory lock held to commit), and the
-- primary key (user_id, seq) makes any writer that still picked a taken
-- number fail and retry with the next one. A number can therefore only be
-- taken once the one before it is committed: a reader that has seen every
-- event up to `seq` = n never misses one that commits later with a number
-- <= n (a global sequence could commit out of order and would not give that
-- guarantee). See api/src/events/mod.rs.
CREATE TABLE events (
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL,
    -- the event's `type` (challenge_received, your_turn, ...)
    kind       TEXT NOT NULL,
    -- the game it is about, if any (text UUID)
    game_id    TEXT,
    -- the complete event body as JSON text, as its recipient may see it
    payload    TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, seq)
);

CREATE INDEX events_game_id ON events (game_id);
