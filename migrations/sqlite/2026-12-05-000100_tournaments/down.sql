DROP INDEX games_by_tournament;
ALTER TABLE games DROP COLUMN tournament_round;
ALTER TABLE games DROP COLUMN tournament_id;
DROP TABLE tournament_byes;
DROP TABLE tournament_players;
DROP TABLE tournaments;
