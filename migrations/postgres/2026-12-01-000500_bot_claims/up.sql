-- Which server process is answering for a bot in a game (docs/bots.md):
-- one row per game, naming the version being answered and until when the
-- claim holds. A process claims a version before thinking; a claim on an
-- older version, or one whose time ran out (its process stopped while
-- thinking), may be taken over.
CREATE TABLE bot_claims (
    game_id       TEXT PRIMARY KEY NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version       BIGINT NOT NULL,
    claimed_until TIMESTAMP NOT NULL
);
