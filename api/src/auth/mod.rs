//! Accounts: password hashing, tokens, and the authenticated-user extractor.

pub mod extractor;
pub mod password;
pub mod tokens;

pub use extractor::AuthUser;
