-- Login and registration attempts, counted in fixed windows shared by
-- every server process (SECURITY.md, "Rate limits"). `key` names the
-- limit and a SHA-256 of what it counts (`login|<hex>`, never an address
-- or a name); a window starts with its first attempt, and the next
-- attempt after it ends starts another.
CREATE TABLE rate_limits (
    key     TEXT PRIMARY KEY,
    started TIMESTAMP NOT NULL,
    count   INTEGER NOT NULL
);
CREATE INDEX rate_limits_by_start ON rate_limits (started);
