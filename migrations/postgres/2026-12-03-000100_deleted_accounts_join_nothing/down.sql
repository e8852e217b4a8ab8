CREATE OR REPLACE FUNCTION games_take_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.creator_name := (SELECT username FROM users WHERE id = NEW.creator_id FOR SHARE);
    NEW.red_name := (SELECT username FROM users WHERE id = NEW.red_user_id FOR SHARE);
    NEW.blue_name := (SELECT username FROM users WHERE id = NEW.blue_user_id FOR SHARE);
    NEW.challenged_name :=
        (SELECT username FROM users WHERE id = NEW.challenged_user_id FOR SHARE);
    RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION games_retake_names() RETURNS trigger LANGUAGE plpgsql AS $$
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

DROP FUNCTION games_live_username(TEXT, TEXT);
