-- Rematches (docs/lifecycle.md): at most one per finished game.
CREATE TABLE rematches (
    game_id     TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    rematch_id  TEXT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    offered_by  TEXT NOT NULL REFERENCES users (id),
    created_at  TIMESTAMP NOT NULL
);
