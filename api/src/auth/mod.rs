//! Accounts: password hashing, tokens, usernames, and the authenticated-user extractor.

pub mod extractor;
pub mod password;
pub mod tokens;
pub mod username;

pub use extractor::AuthUser;
pub use username::Username;
