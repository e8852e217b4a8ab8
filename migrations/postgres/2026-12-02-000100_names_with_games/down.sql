DROP TRIGGER users_rename_in_games ON users;
DROP FUNCTION users_rename_in_games();
DROP TRIGGER games_retake_names ON games;
DROP FUNCTION games_retake_names();
DROP TRIGGER games_take_names_on_insert ON games;
DROP FUNCTION games_take_names();
ALTER TABLE games
    DROP COLUMN creator_name,
    DROP COLUMN red_name,
    DROP COLUMN blue_name,
    DROP COLUMN challenged_name;
