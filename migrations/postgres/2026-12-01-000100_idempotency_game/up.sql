-- The game a stored answer is about and its version then, so that a
-- replayed answer carries the same ETag as the first without the server
-- reading them back out of the stored body.
ALTER TABLE idempotency_keys ADD COLUMN game_id TEXT;
ALTER TABLE idempotency_keys ADD COLUMN game_version BIGINT;
