-- The same schema as on PostgreSQL, where it makes a move's UPDATE of its
-- game HOT (docs/storage.md, "Indexes and HOT moves"); SQLite has no HOT
-- updates, but every index of `games` a move does not change is one it
-- does not rewrite.

-- When a finished game ended: what profiles list by. Null until the game
-- is finished.
ALTER TABLE games ADD COLUMN finished_at TIMESTAMP
    GENERATED ALWAYS AS (CASE WHEN status = 'finished' THEN updated_at END) VIRTUAL;

DROP INDEX games_red_ended;
DROP INDEX games_blue_ended;
CREATE INDEX games_red_finished ON games (red_user_id, finished_at, id)
    WHERE finished_at IS NOT NULL;
CREATE INDEX games_blue_finished ON games (blue_user_id, finished_at, id)
    WHERE finished_at IS NOT NULL;

-- The games with a deadline, by deadline; kept equal to the (id, deadline)
-- of every game whose deadline is set by the triggers.
CREATE TABLE game_deadlines (
    game_id  TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    deadline TIMESTAMP NOT NULL
);
CREATE INDEX game_deadlines_order ON game_deadlines (deadline, game_id);
INSERT INTO game_deadlines (game_id, deadline)
    SELECT id, deadline FROM games WHERE deadline IS NOT NULL;

CREATE TRIGGER games_keep_deadline_on_insert AFTER INSERT ON games
    WHEN NEW.deadline IS NOT NULL
BEGIN
    INSERT INTO game_deadlines (game_id, deadline) VALUES (NEW.id, NEW.deadline);
END;
CREATE TRIGGER games_keep_deadline_on_update AFTER UPDATE OF deadline ON games
    WHEN OLD.deadline IS NOT NEW.deadline
BEGIN
    DELETE FROM game_deadlines WHERE game_id = NEW.id;
    INSERT INTO game_deadlines (game_id, deadline)
        SELECT NEW.id, NEW.deadline WHERE NEW.deadline IS NOT NULL;
END;

DROP INDEX games_deadline;
