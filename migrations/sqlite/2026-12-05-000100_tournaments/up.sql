-- Tournaments (docs/tournaments.md): round robins and Swiss events whose
-- games are ordinary games linked to them (`games.tournament_id`).
CREATE TABLE tournaments (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    organiser_id  TEXT NOT NULL REFERENCES users (id),
    -- 'round_robin' or 'swiss'
    system        TEXT NOT NULL,
    variant       TEXT NOT NULL,
    -- JSON, as games.rules and games.time_control
    rules         TEXT NOT NULL,
    time_control  TEXT NOT NULL,
    rated         BOOLEAN NOT NULL,
    -- Swiss: the rounds asked for; a round robin's, once it starts.
    rounds        INTEGER,
    double_round  BOOLEAN NOT NULL,
    max_players   INTEGER,
    -- What a Swiss bye is worth, in half points.
    bye_points    INTEGER NOT NULL,
    starts_at     TIMESTAMP,
    -- 'open', 'running' or 'finished'
    status        TEXT NOT NULL,
    -- The last round paired (0 while open).
    current_round INTEGER NOT NULL,
    -- +1 with every write: a write requires the version it read, so a
    -- round is paired (and a tournament started) exactly once.
    version       BIGINT NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    started_at    TIMESTAMP,
    finished_at   TIMESTAMP
);
CREATE INDEX tournaments_by_status ON tournaments (status, created_at);

-- The players. `seat` numbers them from 0 when the tournament starts (in
-- the order they joined); `rating` is the one they started with.
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users (id),
    joined_at     TIMESTAMP NOT NULL,
    seat          INTEGER,
    rating        INTEGER,
    -- Set when the player left a running tournament (or their account was
    -- deleted): never paired again.
    withdrawn_at  TIMESTAMP,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_players_by_user ON tournament_players (user_id);

-- Byes given, one a round at most.
CREATE TABLE tournament_byes (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    user_id       TEXT NOT NULL REFERENCES users (id),
    PRIMARY KEY (tournament_id, round)
);

-- (No REFERENCES: SQLite cannot drop a column that has one.)
ALTER TABLE games ADD COLUMN tournament_id TEXT;
ALTER TABLE games ADD COLUMN tournament_round INTEGER;
CREATE INDEX games_by_tournament ON games (tournament_id, tournament_round)
    WHERE tournament_id IS NOT NULL;
