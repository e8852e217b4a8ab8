-- Ratings (docs/ratings.md). Whether a game counts is fixed when it is
-- created; old games were all rated.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT TRUE;

-- Each player's current Glicko-2 rating per variant, as of their last
-- rated game, with the counts of those games. Written in the transaction
-- that ends a rated game, under a lock on the row.
CREATE TABLE ratings (
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    variant      TEXT NOT NULL,
    rating       REAL NOT NULL,
    deviation    REAL NOT NULL,
    volatility   REAL NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    losses       INTEGER NOT NULL,
    draws        INTEGER NOT NULL,
    last_game_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, variant)
);

-- The leaderboard: a variant's ratings, best first.
CREATE INDEX ratings_leaderboard ON ratings (variant, rating DESC, user_id);

-- The rating after every rated game, per player. `number` counts the
-- player's rated games in the variant (1, 2, 3, ...): the primary key
-- (user_id, game_id) rates a game once, the unique (user_id, variant,
-- number) keeps each player's games in one order without gaps.
CREATE TABLE rating_history (
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    variant    TEXT NOT NULL,
    number     INTEGER NOT NULL,
    rated_at   TIMESTAMP NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    PRIMARY KEY (user_id, game_id)
);

CREATE UNIQUE INDEX rating_history_order ON rating_history (user_id, variant, number);

-- A player's finished games, the latest ended first (profiles): each side
-- read backwards in order. Not partial: a partial index would need the
-- status written into the statement, and the server binds it.
CREATE INDEX games_red_ended ON games (red_user_id, updated_at, id);
CREATE INDEX games_blue_ended ON games (blue_user_id, updated_at, id);
