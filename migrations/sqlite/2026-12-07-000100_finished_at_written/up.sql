-- On PostgreSQL this migration makes `finished_at` a plain column that every
-- update of a game writes (docs/storage.md, "Indexes and HOT moves"). SQLite
-- keeps it generated: there the column is virtual, computed where it is read
-- or indexed, with no expression to read back from a catalog.
SELECT 1;
