-- On PostgreSQL this migration drops the foreign keys of game_actions and
-- events (docs/storage.md, "Indexes and HOT moves"). SQLite keeps them: its
-- check is a lookup in the parent's key, with no lock and nothing written,
-- and dropping a key there means copying both tables whole at start.
SELECT 1;
