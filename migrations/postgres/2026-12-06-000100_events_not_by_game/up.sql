-- Nothing reads the events by game (a player's feed is read by player and
-- number, the prune by age), so the index only cost every event a write
-- (docs/storage.md, "Indexes and HOT moves").
DROP INDEX events_game_id;
