-- Accounts and refresh tokens. UUIDs are stored as text and times as
-- TIMESTAMP (UTC) so one diesel schema serves PostgreSQL and SQLite.
CREATE TABLE users (
    id            TEXT PRIMARY KEY NOT NULL,
    username      TEXT NOT NULL,
    -- lower-cased username: uniqueness is case-insensitive
    username_key  TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL
);

-- Refresh tokens are stored only as a SHA-256 hash. Every token descends
-- from one login (its family); using a token marks it used and issues its
-- successor, and presenting a used token again revokes the whole family.
CREATE TABLE refresh_tokens (
    id          TEXT PRIMARY KEY NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family_id   TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  TIMESTAMP NOT NULL,
    expires_at  TIMESTAMP NOT NULL,
    used_at     TIMESTAMP,
    revoked_at  TIMESTAMP
);

CREATE INDEX refresh_tokens_family_id ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_id ON refresh_tokens (user_id);
