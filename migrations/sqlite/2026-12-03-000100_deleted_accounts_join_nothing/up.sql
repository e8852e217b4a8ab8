-- A deleted account is put into no game: a new game, a seat taken or a
-- challenge that names a deleted account is refused by the statement that
-- would write it (docs/accounts.md, "Deleting an account"). SQLite runs
-- one write at a time, so a write after the deletion's commit sees it.
CREATE TRIGGER games_refuse_deleted_on_insert BEFORE INSERT ON games
    WHEN EXISTS (SELECT 1 FROM users WHERE deleted_at IS NOT NULL AND id IN
        (NEW.creator_id, NEW.red_user_id, NEW.blue_user_id, NEW.challenged_user_id))
BEGIN
    SELECT RAISE(ABORT, 'account deleted: a new game names a deleted account');
END;

-- A seat taken (the only write that changes one) needs every account in
-- the game live, the ones already there too: nobody joins the open game of
-- a deleted account. The deletion's own endings change no seat.
CREATE TRIGGER games_refuse_deleted_on_seat BEFORE UPDATE
    OF creator_id, red_user_id, blue_user_id, challenged_user_id ON games
    WHEN (OLD.creator_id IS NOT NEW.creator_id
        OR OLD.red_user_id IS NOT NEW.red_user_id
        OR OLD.blue_user_id IS NOT NEW.blue_user_id
        OR OLD.challenged_user_id IS NOT NEW.challenged_user_id)
    AND EXISTS (SELECT 1 FROM users WHERE deleted_at IS NOT NULL AND id IN
        (NEW.creator_id, NEW.red_user_id, NEW.blue_user_id, NEW.challenged_user_id))
BEGIN
    SELECT RAISE(ABORT, 'account deleted: a seat taken in a game of a deleted account');
END;
