CREATE INDEX games_deadline ON games (deadline);
DROP TRIGGER games_keep_deadline_on_update;
DROP TRIGGER games_keep_deadline_on_insert;
DROP TABLE game_deadlines;
DROP INDEX games_blue_finished;
DROP INDEX games_red_finished;
CREATE INDEX games_red_ended ON games (red_user_id, updated_at, id);
CREATE INDEX games_blue_ended ON games (blue_user_id, updated_at, id);
ALTER TABLE games DROP COLUMN finished_at;
