-- A move's UPDATE of its game is HOT (the new row version stays on the
-- same page and no index gets an entry) only if no indexed column changes
-- value. A move changes `deadline` and `updated_at`, so neither may be in
-- an index of `games` (docs/storage.md, "Indexes and HOT moves").

-- Room on each page for the next version of its rows (a game row is about
-- 1.5 kB), so that a HOT update finds space where its row is. Set first:
-- the generated column below rewrites the table, packed to this.
ALTER TABLE games SET (fillfactor = 75);

-- When a finished game ended: what profiles list by. Null until the game
-- is finished, so a move never changes it.
ALTER TABLE games ADD COLUMN finished_at TIMESTAMP
    GENERATED ALWAYS AS (CASE WHEN status = 'finished' THEN updated_at END) STORED;

DROP INDEX games_red_ended;
DROP INDEX games_blue_ended;
CREATE INDEX games_red_finished ON games (red_user_id, finished_at, id)
    WHERE finished_at IS NOT NULL;
CREATE INDEX games_blue_finished ON games (blue_user_id, finished_at, id)
    WHERE finished_at IS NOT NULL;

-- The games with a deadline, by deadline (the clock's sweep, reminders,
-- `GET /games?my_turn=true`): `games.deadline` stays the truth, read with
-- the row; this table orders it. The triggers keep it equal to the
-- (id, deadline) of every game whose deadline is set, whatever writes the
-- game. Its own update is small: two index entries a move instead of one in
-- every index of `games`.
CREATE TABLE game_deadlines (
    game_id  TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    deadline TIMESTAMP NOT NULL
);
CREATE INDEX game_deadlines_order ON game_deadlines (deadline, game_id);
INSERT INTO game_deadlines (game_id, deadline)
    SELECT id, deadline FROM games WHERE deadline IS NOT NULL;

CREATE FUNCTION games_keep_deadline() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER games_keep_deadline_on_insert AFTER INSERT ON games
    FOR EACH ROW WHEN (NEW.deadline IS NOT NULL) EXECUTE FUNCTION games_keep_deadline();
CREATE TRIGGER games_keep_deadline_on_update AFTER UPDATE OF deadline ON games
    FOR EACH ROW WHEN (OLD.deadline IS DISTINCT FROM NEW.deadline)
    EXECUTE FUNCTION games_keep_deadline();

DROP INDEX games_deadline;
