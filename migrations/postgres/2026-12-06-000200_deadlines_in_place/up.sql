-- A new deadline updates the game's entry in `game_deadlines`; only a game
-- that had none gets one inserted, as on SQLite, where this migration
-- stops a delete and an insert on every move. Here the insert with
-- ON CONFLICT it replaces already found the key first and updated, so
-- little changes (docs/storage.md, "Indexes and HOT moves").
CREATE OR REPLACE FUNCTION games_keep_deadline() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.deadline IS NULL THEN
        DELETE FROM game_deadlines WHERE game_id = NEW.id;
    ELSE
        UPDATE game_deadlines SET deadline = NEW.deadline WHERE game_id = NEW.id;
        IF NOT FOUND THEN
            INSERT INTO game_deadlines (game_id, deadline) VALUES (NEW.id, NEW.deadline)
                ON CONFLICT (game_id) DO UPDATE SET deadline = EXCLUDED.deadline;
        END IF;
    END IF;
    RETURN NULL;
END
$$;
