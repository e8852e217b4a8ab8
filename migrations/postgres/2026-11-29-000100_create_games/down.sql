DROP TABLE idempotency_keys;
DROP TABLE game_actions;
DROP TABLE games;
