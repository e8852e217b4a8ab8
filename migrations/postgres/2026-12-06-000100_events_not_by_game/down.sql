CREATE INDEX events_game_id ON events (game_id);
