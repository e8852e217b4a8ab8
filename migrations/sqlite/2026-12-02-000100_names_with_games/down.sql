DROP TRIGGER users_rename_in_games;
DROP TRIGGER games_retake_names;
DROP TRIGGER games_take_names_on_insert;
ALTER TABLE games DROP COLUMN challenged_name;
ALTER TABLE games DROP COLUMN blue_name;
ALTER TABLE games DROP COLUMN red_name;
ALTER TABLE games DROP COLUMN creator_name;
