//! Reaching players outside the app (docs/notifications.md): the channels
//! they register (Web Push subscriptions, webhooks), what each event is
//! sent to, and the outbox that delivers it. Nothing here knows HTTP
//! requests; the deliveries themselves are `outbound`'s.
//!
//! The outbox is fed from the events table: a change writes its events in
//! its own statement (the write pipeline), so an event exists exactly when
//! its change committed. The fan-out (`fanout`) turns each player's events
//! after their cursor into deliveries, in one transaction with the cursor's
//! advance, so every committed event is turned into deliveries exactly
//! once and a rolled-back change into none.

pub mod channels;
pub mod digest;
pub mod email;
pub mod fanout;
pub mod notice;
pub mod outbox;
pub mod preferences;
pub mod push;

use serde::Serialize;

use crate::db::StoreError;

/// One problem with a field of a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldProblem {
    /// The field, as a JSON path (`keys.p256dh`)
    pub field: &'static str,
    /// A stable short reason (`not_https`, `private_address`, ...)
    pub reason: &'static str,
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum NotifyError {
    /// The request's fields are not acceptable: every problem found.
    #[error("{}", .0.iter().map(|p| format!("{}: {}", p.field, p.message)).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<FieldProblem>),
    #[error("{0}")]
    Full(String),
    #[error("{0}")]
    NotFound(&'static str),
    /// Asked again too soon: may be asked again after this many seconds.
    #[error("asked too often: try again in {0} s")]
    TooSoon(u64),
    /// The caller's account no longer exists (its token outlived it).
    #[error("this account no longer exists")]
    AccountGone,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Internal(String),
}

impl From<diesel::result::Error> for NotifyError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Store(error.into())
    }
}

impl crate::db::LostConnection for NotifyError {
    fn lost_connection(&self) -> bool {
        matches!(self, Self::Store(store) if store.lost_connection())
    }
}
