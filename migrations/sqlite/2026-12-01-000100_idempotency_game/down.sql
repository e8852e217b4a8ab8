ALTER TABLE idempotency_keys DROP COLUMN game_version;
ALTER TABLE idempotency_keys DROP COLUMN game_id;
