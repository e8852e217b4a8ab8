-- Vacations (docs/lifecycle.md, "Vacation"): one row per player who ever
-- had one or set `auto`. `budget_days` is what is left of `budget_year`'s
-- days (a later year's are counted when it is read). While on vacation,
-- `since` is set and `ends_at` is when it ends by itself (the days asked
-- for, or the budget); each of the player's games in progress then holds
-- the pause in its clocks.
CREATE TABLE vacations (
    user_id     TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    budget_year INTEGER NOT NULL,
    budget_days BIGINT NOT NULL,
    since       TIMESTAMP,
    ends_at     TIMESTAMP,
    until       TIMESTAMP,
    message     TEXT,
    auto        BOOLEAN NOT NULL DEFAULT FALSE,
    -- +1 with every write: a write requires the version it read.
    version     BIGINT NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);

-- The sweep ends the vacations that are over.
CREATE INDEX vacations_ending ON vacations (ends_at) WHERE ends_at IS NOT NULL;
