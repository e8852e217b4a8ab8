-- Reaching players outside the app (docs/notifications.md): the channels a
-- player registered, what each event goes to, and the outbox of
-- deliveries. The outbox's source is the events table itself: a change
-- writes its events in its own statement, and the fan-out turns every
-- event after a player's cursor into deliveries, in one transaction with
-- the cursor's advance.

-- A browser's Web Push subscription (the Push API's PushSubscription).
CREATE TABLE push_subscriptions (
    id              TEXT PRIMARY KEY NOT NULL,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint        TEXT NOT NULL,
    p256dh          TEXT NOT NULL,
    auth            TEXT NOT NULL,
    expiration_time TIMESTAMP,
    -- JSON array of notification events, or NULL for every event the
    -- player's preferences send to push.
    events          TEXT,
    created_at      TIMESTAMP NOT NULL,
    UNIQUE (user_id, endpoint)
);

-- A signed webhook (Standard Webhooks) to a player's own backend.
CREATE TABLE webhooks (
    id                   TEXT PRIMARY KEY NOT NULL,
    user_id              TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url                  TEXT NOT NULL,
    secret               TEXT NOT NULL,
    events               TEXT,
    -- 'active' or 'disabled'; disabled_reason says why.
    state                TEXT NOT NULL,
    disabled_reason      TEXT,
    consecutive_failures INTEGER NOT NULL,
    created_at           TIMESTAMP NOT NULL
);
CREATE INDEX webhooks_user ON webhooks (user_id);

-- A player's e-mail address, verified by a code sent to it. The code is
-- kept as its SHA-256 only; codes are counted per day (codes_sent since
-- codes_since); the digest is sent at most once a day, by the one process
-- holding digest_lease_until.
CREATE TABLE email_addresses (
    user_id             TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address             TEXT NOT NULL,
    address_key         TEXT NOT NULL,
    verified_at         TIMESTAMP,
    code_hash           TEXT,
    code_sent_at        TIMESTAMP,
    code_attempts       INTEGER NOT NULL,
    codes_sent          INTEGER NOT NULL,
    codes_since         TIMESTAMP,
    last_digest_at      TIMESTAMP,
    digest_lease_until  TIMESTAMP,
    created_at          TIMESTAMP NOT NULL
);
CREATE INDEX email_addresses_key ON email_addresses (address_key);

-- Per event, the channels a player wants (JSON object); no row: defaults.
CREATE TABLE notification_preferences (
    user_id    TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    channels   TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- How far each player's events have been turned into deliveries. A row
-- exists while the player has a channel.
CREATE TABLE notification_cursors (
    user_id TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seq     BIGINT NOT NULL
);

-- The outbox: one row per event and target, delivered at least once.
CREATE TABLE deliveries (
    id                   TEXT PRIMARY KEY NOT NULL,
    user_id              TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    push_subscription_id TEXT REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    webhook_id           TEXT REFERENCES webhooks (id) ON DELETE CASCADE,
    event                TEXT NOT NULL,
    game_id              TEXT,
    payload              TEXT NOT NULL,
    -- 'pending', 'delivered' or 'failed'.
    state                TEXT NOT NULL,
    attempts             INTEGER NOT NULL,
    next_attempt_at      TIMESTAMP NOT NULL,
    last_status          INTEGER,
    last_error           TEXT,
    created_at           TIMESTAMP NOT NULL,
    finished_at          TIMESTAMP,
    -- To a push subscription, to a webhook, or (neither) by e-mail to the
    -- player's address.
    CHECK (push_subscription_id IS NULL OR webhook_id IS NULL)
);
CREATE INDEX deliveries_email ON deliveries (user_id, next_attempt_at)
    WHERE state = 'pending' AND push_subscription_id IS NULL AND webhook_id IS NULL;
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX deliveries_webhook ON deliveries (webhook_id, created_at);
CREATE INDEX deliveries_push ON deliveries (push_subscription_id);
CREATE INDEX deliveries_finished ON deliveries (finished_at) WHERE state <> 'pending';
