DROP INDEX games_blue_finished;
DROP INDEX games_red_finished;
DROP TABLE rating_history;
DROP TABLE ratings;
ALTER TABLE games DROP COLUMN rated;
