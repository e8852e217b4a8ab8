//! End-to-end tests: the real server, started in-process on port 0 with a
//! fresh database, driven over HTTP. Every test declared with
//! [`backend_tests!`] runs once on SQLite and once on a fresh PostgreSQL
//! database; without `TEST_DATABASE_URL` the PostgreSQL half is reported as
//! ignored (and CI fails), see `harness.rs`. Shared helpers: `support.rs`
//! (with the event feed's, `event_feed.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[macro_use]
mod harness;

mod audit;
mod auth;
mod bots;
mod cluster;
mod contract;
mod database_faults;
mod edges;
mod email;
mod errors;
mod event_feed;
mod events;
mod events_lifecycle;
mod events_processes;
mod faults;
mod games;
mod games_clock;
mod games_concurrency;
mod games_events;
mod games_leak;
mod games_play;
mod hot_moves;
mod load;
mod metrics;
mod more_squares;
mod names;
mod notifications;
mod openapi;
mod operations;
mod pictures;
mod process;
mod proxy;
mod races;
mod ratings;
mod reads;
mod recent_games;
mod records;
mod reminders;
mod replicas;
mod restarts;
mod session_races;
mod sessions;
mod setups;
mod slow_clients;
mod statements;
mod stored_forms;
mod support;
mod time_controls;
mod tls;
mod tournaments;
mod tournaments_processes;
mod vacations;
mod variants;
mod views_kept;
mod web_client;
mod writes;
