-- A deleted account is put into no game: a new game, a seat taken or a
-- challenge that names an account deleted (or never created) is refused by
-- the very statement that would write it (docs/accounts.md, "Deleting an
-- account"). `FOR SHARE` waits for a deletion in progress: a write that
-- comes after it sees the account deleted and fails; one that committed
-- before it is among the games the deletion then ends.
CREATE FUNCTION games_live_username(account TEXT, seat TEXT) RETURNS TEXT
LANGUAGE plpgsql AS $$
DECLARE
    name TEXT;
    gone TIMESTAMP;
BEGIN
    IF account IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT username, deleted_at INTO name, gone FROM users WHERE id = account FOR SHARE;
    IF NOT FOUND OR gone IS NOT NULL THEN
        -- 23503, as the foreign key would say of a missing account.
        RAISE EXCEPTION 'account deleted: %', seat USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN name;
END
$$;

CREATE OR REPLACE FUNCTION games_take_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.creator_name := games_live_username(NEW.creator_id, 'creator');
    NEW.red_name := games_live_username(NEW.red_user_id, 'red');
    NEW.blue_name := games_live_username(NEW.blue_user_id, 'blue');
    NEW.challenged_name := games_live_username(NEW.challenged_user_id, 'challenged');
    RETURN NEW;
END
$$;

-- After a change of seats (a seat taken: the only write that changes one)
-- every account in the game must be live: the one who sat down, and the
-- ones already there, so that nobody joins the open game of an account
-- deleted at that moment. The deletion's own endings change no seat.
CREATE OR REPLACE FUNCTION games_retake_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM games_live_username(NEW.creator_id, 'creator');
    PERFORM games_live_username(NEW.red_user_id, 'red');
    PERFORM games_live_username(NEW.blue_user_id, 'blue');
    PERFORM games_live_username(NEW.challenged_user_id, 'challenged');
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
