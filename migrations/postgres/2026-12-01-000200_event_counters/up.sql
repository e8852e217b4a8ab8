-- The last event id given to each user: the next events of a user are
-- numbered from it in the statement that stores them (its upsert locks the
-- row until the writer commits, so ids commit in order, without an
-- advisory lock and a MAX(seq) look-up per event).
CREATE TABLE event_counters (
    user_id  TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    last_seq BIGINT NOT NULL
);

INSERT INTO event_counters (user_id, last_seq)
SELECT user_id, MAX(seq) FROM events GROUP BY user_id;
