//! Stratego by correspondence: the HTTP service.
//!
//! The binary (`main.rs`) parses the configuration and calls
//! [`startup::Application`]; the end-to-end tests do the same in-process.

pub mod accounts;
pub mod auth;
pub mod clock;
pub mod config;
pub mod db;
pub mod error;
pub mod events;
pub mod games;
pub mod metrics;
pub mod notifications;
pub mod openapi;
pub mod outbound;
pub mod play;
pub mod players;
pub mod rate_limit;
pub mod replication;
pub mod routes;
pub mod schema;
pub mod startup;
pub mod state;
pub mod stop;
pub mod storage;
pub mod telemetry;
pub mod tournaments;
pub mod username;

pub use actix_web::dev::ServerHandle;
pub use error::{ApiError, ProblemKind};
pub use startup::{openapi_document, Application};
