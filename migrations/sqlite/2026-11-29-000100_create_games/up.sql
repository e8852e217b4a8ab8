-- Games: the current state of each game (one row, rewritten by versioned
-- UPDATEs: `WHERE id = ? AND version = ?`) plus an append-only log of the
-- actions that changed a game in play, and the stored answers of
-- idempotent POSTs.
CREATE TABLE games (
    id                 TEXT PRIMARY KEY NOT NULL,
    variant            TEXT NOT NULL,
    -- the complete rules in force (JSON of domain::Rules)
    rules              TEXT NOT NULL,
    -- waiting | setup | playing | finished | aborted
    status             TEXT NOT NULL,
    -- 1 on creation, +1 with every change
    version            BIGINT NOT NULL,
    creator_id         TEXT NOT NULL REFERENCES users (id),
    red_user_id        TEXT REFERENCES users (id),
    blue_user_id       TEXT REFERENCES users (id),
    -- the user a challenge is addressed to (null: an open seat)
    challenged_user_id TEXT REFERENCES users (id),
    days_per_move      INTEGER NOT NULL,
    -- SECRET: each player's validated setup (JSON of domain::Setup)
    red_setup          TEXT,
    blue_setup         TEXT,
    -- the serialized domain::Game, from `playing` on (full truth: SECRET)
    state              TEXT,
    -- red | blue while playing (who moves next)
    turn               TEXT,
    ply                INTEGER NOT NULL,
    -- end of the setup phase, or of the current move
    deadline           TIMESTAMP,
    -- the version at which a deadline reminder was sent
    reminded_version   BIGINT,
    result_winner      TEXT,
    result_reason      TEXT,
    created_at         TIMESTAMP NOT NULL,
    updated_at         TIMESTAMP NOT NULL
);

CREATE INDEX games_status_created ON games (status, created_at);
CREATE INDEX games_created ON games (created_at);
CREATE INDEX games_red_user ON games (red_user_id);
CREATE INDEX games_blue_user ON games (blue_user_id);
CREATE INDEX games_creator ON games (creator_id);
CREATE INDEX games_challenged_user ON games (challenged_user_id);
CREATE INDEX games_deadline ON games (deadline);

-- One row per domain action applied to a game in play (moves, resignation,
-- draw offers and answers, timeouts). `seq` is the game version the action
-- produced. Replaying the rows in order from the two setups gives exactly
-- the stored state.
CREATE TABLE game_actions (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        BIGINT NOT NULL,
    color      TEXT NOT NULL,
    -- JSON of domain::Action
    action     TEXT NOT NULL,
    -- JSON of domain::MoveRecord for moves (full truth: SECRET), else null
    record     TEXT,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The first answer to each state-changing POST sent with an
-- Idempotency-Key, per user.
CREATE TABLE idempotency_keys (
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    idempotency_key TEXT NOT NULL,
    -- method, path and SHA-256 of the request body
    fingerprint     TEXT NOT NULL,
    response_status INTEGER NOT NULL,
    response_body   TEXT NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, idempotency_key)
);

CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
