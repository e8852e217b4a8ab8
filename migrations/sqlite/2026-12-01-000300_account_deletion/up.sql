-- Deleted accounts (docs/accounts.md): the row stays, so the games an
-- account played keep their players, but its name and password are erased
-- and `deleted_at` says when.
ALTER TABLE users ADD COLUMN deleted_at TIMESTAMP;

-- Revoked sessions of the last access-token lifetime are read at start.
CREATE INDEX refresh_tokens_revoked_at ON refresh_tokens (revoked_at);
