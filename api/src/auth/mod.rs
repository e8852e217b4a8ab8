//! Accounts: password hashing, tokens and ended sessions. (The extractor that proves a
//! request's caller lives with the routes: `routes::AuthUser`.)

pub mod known;
pub mod password;
pub mod sessions;
pub mod tokens;
