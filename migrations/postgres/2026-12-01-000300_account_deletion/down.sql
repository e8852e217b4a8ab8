DROP INDEX refresh_tokens_revoked_at;
ALTER TABLE users DROP COLUMN deleted_at;
