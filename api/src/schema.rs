//! Table definitions, written by hand (no diesel CLI needed). Keep them in
//! step with both trees under `migrations/`; the e2e tests run every query
//! on both backends.
//!
//! Only types common to PostgreSQL and SQLite: `Text` (UUIDs as text,
//! JSON as text), `Timestamp` (UTC, `chrono::NaiveDateTime`), `Integer`,
//! `BigInt`, `Bool`, `Double`.

diesel::table! {
    users (id) {
        id -> Text,
        username -> Text,
        username_key -> Text,
        password_hash -> Text,
        created_at -> Timestamp,
        deleted_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    refresh_tokens (id) {
        id -> Text,
        user_id -> Text,
        family_id -> Text,
        token_hash -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    games (id) {
        id -> Text,
        variant -> Text,
        rules -> Text,
        status -> Text,
        version -> BigInt,
        creator_id -> Text,
        red_user_id -> Nullable<Text>,
        blue_user_id -> Nullable<Text>,
        challenged_user_id -> Nullable<Text>,
        days_per_move -> Integer,
        red_setup -> Nullable<Text>,
        blue_setup -> Nullable<Text>,
        state -> Nullable<Text>,
        turn -> Nullable<Text>,
        ply -> Integer,
        draw_offer -> Nullable<Text>,
        deadline -> Nullable<Timestamp>,
        reminded_version -> Nullable<BigInt>,
        result_winner -> Nullable<Text>,
        result_reason -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        rated -> Bool,
        /// `updated_at` once the game is finished, else null: generated on
        /// SQLite, written with every update of the game on PostgreSQL.
        finished_at -> Nullable<Timestamp>,
        /// The usernames of creator_id, red_user_id, blue_user_id and
        /// challenged_user_id, kept equal to theirs by triggers (never
        /// written by the server).
        creator_name -> Nullable<Text>,
        red_name -> Nullable<Text>,
        blue_name -> Nullable<Text>,
        challenged_name -> Nullable<Text>,
        /// The game's time control, JSON (null: `per_move` of
        /// `days_per_move` days, a game from before time controls).
        time_control -> Nullable<Text>,
        /// Both players' clocks, JSON (null before the setup phase).
        clocks -> Nullable<Text>,
        /// The tournament the game is part of (docs/tournaments.md), and
        /// its round; null for any other game. Fixed at creation.
        tournament_id -> Nullable<Text>,
        tournament_round -> Nullable<Integer>,
    }
}

diesel::table! {
    /// Kept equal to games' (id, deadline) by triggers, for ordering.
    game_deadlines (game_id) {
        game_id -> Text,
        deadline -> Timestamp,
    }
}

diesel::joinable!(game_deadlines -> games (game_id));

diesel::table! {
    game_actions (game_id, seq) {
        game_id -> Text,
        seq -> BigInt,
        color -> Text,
        action -> Text,
        record -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    idempotency_keys (user_id, idempotency_key) {
        user_id -> Text,
        idempotency_key -> Text,
        fingerprint -> Text,
        response_status -> Integer,
        response_body -> Text,
        game_id -> Nullable<Text>,
        game_version -> Nullable<BigInt>,
        created_at -> Timestamp,
    }
}

diesel::joinable!(refresh_tokens -> users (user_id));
diesel::joinable!(game_actions -> games (game_id));

diesel::table! {
    /// The per-user event feed (docs/api.md); `seq` is the public event id.
    events (user_id, seq) {
        user_id -> Text,
        seq -> BigInt,
        kind -> Text,
        game_id -> Nullable<Text>,
        payload -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// The setup library (docs/setups.md).
    saved_setups (id) {
        id -> Text,
        user_id -> Text,
        variant -> Text,
        name -> Text,
        placement -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// At most one rematch per finished game (docs/lifecycle.md).
    rematches (game_id) {
        game_id -> Text,
        rematch_id -> Text,
        offered_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Which version of a game a bot is being answered for, and until when
    /// (docs/bots.md).
    bot_claims (game_id) {
        game_id -> Text,
        version -> BigInt,
        claimed_until -> Timestamp,
    }
}

diesel::joinable!(events -> users (user_id));
diesel::joinable!(saved_setups -> users (user_id));
diesel::joinable!(bot_claims -> games (game_id));

diesel::table! {
    /// Each player's Glicko-2 rating per variant (docs/ratings.md).
    ratings (user_id, variant) {
        user_id -> Text,
        variant -> Text,
        rating -> Double,
        deviation -> Double,
        volatility -> Double,
        games -> Integer,
        wins -> Integer,
        losses -> Integer,
        draws -> Integer,
        last_game_at -> Timestamp,
    }
}

diesel::table! {
    /// The rating after each rated game, per player.
    rating_history (user_id, game_id) {
        user_id -> Text,
        game_id -> Text,
        variant -> Text,
        number -> Integer,
        rated_at -> Timestamp,
        rating -> Double,
        deviation -> Double,
        volatility -> Double,
    }
}

diesel::joinable!(ratings -> users (user_id));
diesel::joinable!(rating_history -> users (user_id));
diesel::joinable!(rating_history -> games (game_id));
diesel::table! {
    /// A browser's Web Push subscription (docs/notifications.md).
    push_subscriptions (id) {
        id -> Text,
        user_id -> Text,
        endpoint -> Text,
        p256dh -> Text,
        auth -> Text,
        expiration_time -> Nullable<Timestamp>,
        events -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// A signed webhook to a player's own backend (docs/notifications.md).
    webhooks (id) {
        id -> Text,
        user_id -> Text,
        url -> Text,
        secret -> Text,
        events -> Nullable<Text>,
        state -> Text,
        disabled_reason -> Nullable<Text>,
        consecutive_failures -> Integer,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Per event, the channels a player wants (JSON).
    notification_preferences (user_id) {
        user_id -> Text,
        channels -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// How far each player's events have been turned into deliveries.
    notification_cursors (user_id) {
        user_id -> Text,
        seq -> BigInt,
    }
}

diesel::table! {
    /// The outbox: one row per event and target.
    deliveries (id) {
        id -> Text,
        user_id -> Text,
        push_subscription_id -> Nullable<Text>,
        webhook_id -> Nullable<Text>,
        event -> Text,
        game_id -> Nullable<Text>,
        payload -> Text,
        state -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        last_status -> Nullable<Integer>,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
        finished_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    email_addresses (user_id) {
        user_id -> Text,
        address -> Text,
        address_key -> Text,
        verified_at -> Nullable<Timestamp>,
        code_hash -> Nullable<Text>,
        code_sent_at -> Nullable<Timestamp>,
        code_attempts -> Integer,
        codes_sent -> Integer,
        codes_since -> Nullable<Timestamp>,
        last_digest_at -> Nullable<Timestamp>,
        digest_lease_until -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    vacations (user_id) {
        user_id -> Text,
        budget_year -> Integer,
        budget_days -> BigInt,
        since -> Nullable<Timestamp>,
        ends_at -> Nullable<Timestamp>,
        until -> Nullable<Timestamp>,
        message -> Nullable<Text>,
        auto -> Bool,
        version -> BigInt,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// Tournaments (docs/tournaments.md).
    tournaments (id) {
        id -> Text,
        name -> Text,
        organiser_id -> Text,
        system -> Text,
        variant -> Text,
        rules -> Text,
        time_control -> Text,
        rated -> Bool,
        rounds -> Nullable<Integer>,
        double_round -> Bool,
        max_players -> Nullable<Integer>,
        bye_points -> Integer,
        starts_at -> Nullable<Timestamp>,
        status -> Text,
        current_round -> Integer,
        version -> BigInt,
        created_at -> Timestamp,
        started_at -> Nullable<Timestamp>,
        finished_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    tournament_players (tournament_id, user_id) {
        tournament_id -> Text,
        user_id -> Text,
        joined_at -> Timestamp,
        seat -> Nullable<Integer>,
        rating -> Nullable<Integer>,
        withdrawn_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    tournament_byes (tournament_id, round) {
        tournament_id -> Text,
        round -> Integer,
        user_id -> Text,
    }
}

diesel::table! {
    /// Attempts counted for the rate limits (SECURITY.md, "Rate limits").
    rate_limits (key) {
        key -> Text,
        started -> Timestamp,
        count -> Integer,
    }
}

diesel::joinable!(tournament_players -> tournaments (tournament_id));
diesel::joinable!(tournaments -> users (organiser_id));
diesel::joinable!(tournament_players -> users (user_id));
diesel::joinable!(push_subscriptions -> users (user_id));
diesel::joinable!(webhooks -> users (user_id));
diesel::joinable!(deliveries -> webhooks (webhook_id));
diesel::joinable!(deliveries -> push_subscriptions (push_subscription_id));
diesel::allow_tables_to_appear_in_same_query!(
    users,
    refresh_tokens,
    games,
    game_deadlines,
    game_actions,
    idempotency_keys,
    events,
    saved_setups,
    rematches,
    bot_claims,
    ratings,
    rating_history,
    push_subscriptions,
    webhooks,
    email_addresses,
    notification_preferences,
    notification_cursors,
    deliveries,
    vacations,
    tournaments,
    tournament_players,
    tournament_byes,
    rate_limits
);
