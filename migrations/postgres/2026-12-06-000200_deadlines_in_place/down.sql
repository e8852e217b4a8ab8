CREATE OR REPLACE FUNCTION games_keep_deadline() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.deadline IS NULL THEN
        DELETE FROM game_deadlines WHERE game_id = NEW.id;
    ELSE
        INSERT INTO game_deadlines (game_id, deadline) VALUES (NEW.id, NEW.deadline)
            ON CONFLICT (game_id) DO UPDATE SET deadline = EXCLUDED.deadline;
    END IF;
    RETURN NULL;
END
$$;
