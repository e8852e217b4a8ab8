DROP INDEX games_blue_ended;
DROP INDEX games_red_ended;
DROP TABLE rating_history;
DROP TABLE ratings;
ALTER TABLE games DROP COLUMN rated;
