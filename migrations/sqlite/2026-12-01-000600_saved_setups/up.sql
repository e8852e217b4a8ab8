-- The setup library (docs/setups.md): named setups per user and variant,
-- stored as written for Red (JSON: square -> piece).
CREATE TABLE saved_setups (
    id          TEXT PRIMARY KEY NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    variant     TEXT NOT NULL,
    name        TEXT NOT NULL,
    placement   TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL,
    UNIQUE (user_id, variant, name)
);
