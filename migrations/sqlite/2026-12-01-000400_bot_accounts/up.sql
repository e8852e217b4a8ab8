-- The bot opponents (docs/bots.md), with fixed ids that the server knows
-- them by. Their password hash is not a PHC string, so no password ever
-- matches it: nobody can log in as a bot, and nobody can register their
-- names.
INSERT INTO users (id, username, username_key, password_hash, created_at) VALUES
    ('b0700000-0000-4000-8000-000000000001', 'bot-random', 'bot-random',
     '!bot: no password matches', CURRENT_TIMESTAMP),
    ('b0700000-0000-4000-8000-000000000002', 'bot-tactician', 'bot-tactician',
     '!bot: no password matches', CURRENT_TIMESTAMP);
