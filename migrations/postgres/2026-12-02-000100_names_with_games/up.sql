-- Each game keeps the usernames it shows (creator, players, challenged
-- user), so that reading a game is one row of one table, with no join
-- (docs/storage.md, "Usernames kept with the game"). A username changes
-- only when its account is deleted; the triggers below keep these columns
-- equal to the users' names, whatever writes a game or a user. A game
-- write never names these columns.
ALTER TABLE games
    ADD COLUMN creator_name    TEXT,
    ADD COLUMN red_name        TEXT,
    ADD COLUMN blue_name       TEXT,
    ADD COLUMN challenged_name TEXT;

UPDATE games SET
    creator_name    = (SELECT username FROM users WHERE users.id = games.creator_id),
    red_name        = (SELECT username FROM users WHERE users.id = games.red_user_id),
    blue_name       = (SELECT username FROM users WHERE users.id = games.blue_user_id),
    challenged_name = (SELECT username FROM users WHERE users.id = games.challenged_user_id);

-- A game's names, read when it is written with new users in it. `FOR
-- SHARE` waits for a deletion of one of those users in progress and then
-- reads its new name; a deletion that starts later waits for this write
-- and then renames in this game too (`users_rename_in_games`).
CREATE FUNCTION games_take_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.creator_name := (SELECT username FROM users WHERE id = NEW.creator_id FOR SHARE);
    NEW.red_name := (SELECT username FROM users WHERE id = NEW.red_user_id FOR SHARE);
    NEW.blue_name := (SELECT username FROM users WHERE id = NEW.blue_user_id FOR SHARE);
    NEW.challenged_name :=
        (SELECT username FROM users WHERE id = NEW.challenged_user_id FOR SHARE);
    RETURN NEW;
END
$$;
CREATE TRIGGER games_take_names_on_insert BEFORE INSERT ON games
    FOR EACH ROW EXECUTE FUNCTION games_take_names();

-- The same after a write that changes who is in the game (a seat taken or
-- left), as a second small update of the row. After, not before: a
-- row trigger before an update locks the row first, one more WAL record on
-- every move; the condition of one after it is only an expression, and a
-- move, which names the seats in its UPDATE but changes none, queues
-- nothing.
CREATE FUNCTION games_retake_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET
        creator_name = (SELECT username FROM users WHERE id = NEW.creator_id FOR SHARE),
        red_name = (SELECT username FROM users WHERE id = NEW.red_user_id FOR SHARE),
        blue_name = (SELECT username FROM users WHERE id = NEW.blue_user_id FOR SHARE),
        challenged_name =
            (SELECT username FROM users WHERE id = NEW.challenged_user_id FOR SHARE)
        WHERE id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER games_retake_names
    AFTER UPDATE OF creator_id, red_user_id, blue_user_id, challenged_user_id ON games
    FOR EACH ROW WHEN (OLD.creator_id IS DISTINCT FROM NEW.creator_id
        OR OLD.red_user_id IS DISTINCT FROM NEW.red_user_id
        OR OLD.blue_user_id IS DISTINCT FROM NEW.blue_user_id
        OR OLD.challenged_user_id IS DISTINCT FROM NEW.challenged_user_id)
    EXECUTE FUNCTION games_retake_names();

-- A renamed user (a deleted account's tombstone) is renamed in every game.
-- A game write locks its row and then, in the trigger above, its users;
-- so the deletion locks the user's games first, in id order
-- (`storage::games::lock_all_of_user`), before it renames: the other
-- order could deadlock with a seat taken at that moment.
CREATE FUNCTION users_rename_in_games() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET creator_name = NEW.username WHERE creator_id = NEW.id;
    UPDATE games SET red_name = NEW.username WHERE red_user_id = NEW.id;
    UPDATE games SET blue_name = NEW.username WHERE blue_user_id = NEW.id;
    UPDATE games SET challenged_name = NEW.username WHERE challenged_user_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER users_rename_in_games AFTER UPDATE OF username ON users
    FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username)
    EXECUTE FUNCTION users_rename_in_games();
