DROP TRIGGER games_keep_deadline_on_update;
CREATE TRIGGER games_keep_deadline_on_update AFTER UPDATE OF deadline ON games
    WHEN OLD.deadline IS NOT NEW.deadline
BEGIN
    DELETE FROM game_deadlines WHERE game_id = NEW.id;
    INSERT INTO game_deadlines (game_id, deadline)
        SELECT NEW.id, NEW.deadline WHERE NEW.deadline IS NOT NULL;
END;
