//! Why an account command did not happen. The HTTP layer maps it to
//! problem documents in one place (`crate::error`, docs/errors.md).

use crate::auth::password::HashError;
use crate::db::StoreError;

/// One field of a request and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FieldProblem {
    pub field: &'static str,
    pub message: &'static str,
}

/// Why a refresh token was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefreshRefusal {
    Unknown,
    Expired,
    Revoked,
    /// Presented a second time: its whole session was ended.
    Reused,
}

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// Well-formed input with bad values: every problem at once.
    #[error("{}", describe(.0))]
    Invalid(Vec<FieldProblem>),
    #[error("this username is already taken")]
    UsernameTaken,
    /// Login with an unknown username or a wrong password (one answer for
    /// both).
    #[error("invalid username or password")]
    BadCredentials,
    /// The password given to confirm a change of one's own account is wrong.
    #[error("the password is wrong")]
    WrongPassword,
    #[error("{}", match .0 {
        RefreshRefusal::Unknown => "invalid refresh token",
        RefreshRefusal::Expired => "the refresh token has expired",
        RefreshRefusal::Revoked => "the refresh token has been revoked",
        RefreshRefusal::Reused =>
            "this refresh token was already used; the session has been revoked, log in again",
    })]
    Refresh(RefreshRefusal),
    /// Too many attempts; retry after this many seconds.
    #[error("too many attempts")]
    RateLimited(u64),
    /// The caller's account no longer exists (its token outlived it).
    #[error("this account no longer exists")]
    AccountGone,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Internal(String),
}

impl AccountError {
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        Self::Internal(detail.to_string())
    }
}

impl From<diesel::result::Error> for AccountError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Store(error.into())
    }
}

impl From<HashError> for AccountError {
    fn from(error: HashError) -> Self {
        Self::internal(error)
    }
}

impl crate::db::LostConnection for AccountError {
    fn lost_connection(&self) -> bool {
        matches!(self, Self::Store(store) if store.lost_connection())
    }
}

impl crate::db::Conflicted for AccountError {
    fn conflicted(&self) -> bool {
        matches!(self, Self::Store(store) if crate::db::Conflicted::conflicted(store))
    }
}

fn describe(problems: &[FieldProblem]) -> String {
    problems
        .iter()
        .map(|p| format!("{} {}", p.field, p.message))
        .collect::<Vec<_>>()
        .join("; ")
}
