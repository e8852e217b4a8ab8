//! Authentication: password hashing, tokens, the sessions ended and the
//! accounts this process knows exist. (The extractor that proves a
//! request's caller lives with the routes: `routes::AuthUser`.)

pub mod known;
pub mod password;
pub mod sessions;
pub mod tokens;
