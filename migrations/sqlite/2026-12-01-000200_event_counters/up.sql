-- The same table as on PostgreSQL, so that both trees describe one schema.
-- SQLite itself numbers events by MAX(seq) + 1: its writers already hold
-- the database's write lock, so the counter would only cost a statement.
CREATE TABLE event_counters (
    user_id  TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    last_seq BIGINT NOT NULL
);
