-- A new deadline moves the game's entry in `game_deadlines` in place: its
-- row and its key stay where they are and only the ordering index changes,
-- where a delete and an insert rewrote all three (docs/storage.md,
-- "Indexes and HOT moves").
DROP TRIGGER games_keep_deadline_on_update;
CREATE TRIGGER games_keep_deadline_on_update AFTER UPDATE OF deadline ON games
    WHEN OLD.deadline IS NOT NEW.deadline
BEGIN
    UPDATE game_deadlines SET deadline = NEW.deadline
        WHERE game_id = NEW.id AND NEW.deadline IS NOT NULL;
    DELETE FROM game_deadlines WHERE game_id = NEW.id AND NEW.deadline IS NULL;
    INSERT INTO game_deadlines (game_id, deadline)
        SELECT NEW.id, NEW.deadline WHERE NEW.deadline IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM game_deadlines WHERE game_id = NEW.id);
END;
