ALTER TABLE games DROP COLUMN finished_at;
ALTER TABLE games ADD COLUMN finished_at TIMESTAMP
    GENERATED ALWAYS AS (CASE WHEN status = 'finished' THEN updated_at END) STORED;
CREATE INDEX games_red_finished ON games (red_user_id, finished_at, id)
    WHERE finished_at IS NOT NULL;
CREATE INDEX games_blue_finished ON games (blue_user_id, finished_at, id)
    WHERE finished_at IS NOT NULL;
