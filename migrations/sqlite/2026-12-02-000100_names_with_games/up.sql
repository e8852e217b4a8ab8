-- The same columns and the same rules as on PostgreSQL: each game keeps
-- the usernames it shows (docs/storage.md, "Usernames kept with the
-- game"), kept equal to the users' names by the triggers below. SQLite has
-- one writer at a time, so no lock is needed to see a rename in progress.
ALTER TABLE games ADD COLUMN creator_name TEXT;
ALTER TABLE games ADD COLUMN red_name TEXT;
ALTER TABLE games ADD COLUMN blue_name TEXT;
ALTER TABLE games ADD COLUMN challenged_name TEXT;

UPDATE games SET
    creator_name    = (SELECT username FROM users WHERE users.id = games.creator_id),
    red_name        = (SELECT username FROM users WHERE users.id = games.red_user_id),
    blue_name       = (SELECT username FROM users WHERE users.id = games.blue_user_id),
    challenged_name = (SELECT username FROM users WHERE users.id = games.challenged_user_id);

CREATE TRIGGER games_take_names_on_insert AFTER INSERT ON games
BEGIN
    UPDATE games SET
        creator_name    = (SELECT username FROM users WHERE id = NEW.creator_id),
        red_name        = (SELECT username FROM users WHERE id = NEW.red_user_id),
        blue_name       = (SELECT username FROM users WHERE id = NEW.blue_user_id),
        challenged_name = (SELECT username FROM users WHERE id = NEW.challenged_user_id)
        WHERE id = NEW.id;
END;

CREATE TRIGGER games_retake_names
    AFTER UPDATE OF creator_id, red_user_id, blue_user_id, challenged_user_id ON games
    WHEN OLD.creator_id IS NOT NEW.creator_id
        OR OLD.red_user_id IS NOT NEW.red_user_id
        OR OLD.blue_user_id IS NOT NEW.blue_user_id
        OR OLD.challenged_user_id IS NOT NEW.challenged_user_id
BEGIN
    UPDATE games SET
        creator_name    = (SELECT username FROM users WHERE id = NEW.creator_id),
        red_name        = (SELECT username FROM users WHERE id = NEW.red_user_id),
        blue_name       = (SELECT username FROM users WHERE id = NEW.blue_user_id),
        challenged_name = (SELECT username FROM users WHERE id = NEW.challenged_user_id)
        WHERE id = NEW.id;
END;

CREATE TRIGGER users_rename_in_games AFTER UPDATE OF username ON users
    WHEN OLD.username IS NOT NEW.username
BEGIN
    UPDATE games SET creator_name = NEW.username WHERE creator_id = NEW.id;
    UPDATE games SET red_name = NEW.username WHERE red_user_id = NEW.id;
    UPDATE games SET blue_name = NEW.username WHERE blue_user_id = NEW.id;
    UPDATE games SET challenged_name = NEW.username WHERE challenged_user_id = NEW.id;
END;
