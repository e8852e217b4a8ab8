-- A move inserts its action and an event for each recipient. Their foreign
-- keys checked, on every move, rows that cannot be missing: the action is
-- inserted only when the same statement's versioned update found its game,
-- and an event is inserted only joined to its recipient's row in
-- event_counters, whose key to users stays. Neither games nor accounts are
-- ever deleted (a deleted account keeps its row), so the cascades never ran.
-- Each check was a query of its own, and the event's took a KEY SHARE lock
-- on the recipient's account row: a write to that row and a WAL record on
-- every move (docs/storage.md, "Indexes and HOT moves").
ALTER TABLE game_actions DROP CONSTRAINT game_actions_game_id_fkey;
ALTER TABLE events DROP CONSTRAINT events_user_id_fkey;
