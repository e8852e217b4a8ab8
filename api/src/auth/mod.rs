//! Accounts: password hashing and tokens. (The extractor that proves a
//! request's caller lives with the routes: `routes::AuthUser`.)

pub mod password;
pub mod tokens;
