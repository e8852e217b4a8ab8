//! The conversions of the lower layers' errors (the game service's,
//! the accounts', the players', the setup library's, tokens, the
//! database's) into an [`ApiError`]: every lower error reaches the
//! client through one of these.

use actix_web::http::StatusCode;

use super::{ApiError, ProblemKind};

impl From<diesel::result::Error> for ApiError {
    fn from(error: diesel::result::Error) -> Self {
        // One classification of database errors: the storage layer's.
        crate::db::StoreError::from(error).into()
    }
}

/// Player queries: an unknown (or deleted) user is 404, an unreadable
/// page request 400, the rest as for games.
impl From<crate::players::PlayerError> for ApiError {
    fn from(error: crate::players::PlayerError) -> Self {
        use crate::players::PlayerError as E;
        match error {
            E::NoSuchUser(_) => Self::not_found(error.to_string()),
            E::Unreadable(detail) => Self::bad_request(detail),
            E::Games(games) => games.into(),
        }
    }
}

/// Tournament commands: their own refusals, and the game service's and
/// the database's as for games.
impl From<crate::tournaments::TournamentError> for ApiError {
    fn from(error: crate::tournaments::TournamentError) -> Self {
        use crate::tournaments::TournamentError as E;
        let detail = error.to_string();
        match error {
            E::NotFound => Self::not_found(detail),
            E::Forbidden(_) => Self::forbidden(detail),
            E::WrongPhase(_) => Self::new(ProblemKind::WrongPhase, detail),
            E::Invalid(_) => Self::validation(detail),
            E::Full(max) => {
                Self::new(ProblemKind::TournamentFull, detail).with_extension("max_players", max)
            }
            E::TooFewPlayers(_) => Self::new(ProblemKind::NotEnoughPlayers, detail),
            E::Lost => Self::new(ProblemKind::VersionConflict, detail),
            E::Games(games) => games.into(),
            E::Store(store) => store.into(),
        }
    }
}

/// The one mapping from the game service's refusals to problem documents
/// (docs/errors.md). It matches every domain refusal by name, with no
/// catch-all: a new domain error does not compile until it has its code.
impl From<crate::games::GameError> for ApiError {
    fn from(error: crate::games::GameError) -> Self {
        match error {
            crate::games::GameError::Store(store) => store.into(),
            refusal => Self::game_refusal(&refusal),
        }
    }
}

impl ApiError {
    /// How the game service's `error` reads on the wire, taken by
    /// reference: a refusal is also stored under the request's
    /// `Idempotency-Key`, to be sent again as it was.
    pub fn game_refusal(error: &crate::games::GameError) -> ApiError {
        use crate::games::GameError as E;
        use domain::{ActionError as A, IllegalMove as M};
        let detail = error.to_string();
        match error {
            E::NotFound => Self::not_found(detail),
            E::Forbidden(_) => Self::forbidden(detail),
            E::WrongPhase(_) | E::Overdue => Self::new(ProblemKind::WrongPhase, detail),
            E::Refused(refusal) => {
                let kind = match refusal {
                    A::NotYourTurn | A::TimeoutNotOnTurn => ProblemKind::NotYourTurn,
                    A::GameOver
                    | A::DrawAlreadyOffered
                    | A::DrawOfferPending
                    | A::NoDrawOffer
                    | A::OwnDrawOffer => ProblemKind::WrongPhase,
                    A::Illegal(M::TwoSquareRule { .. }) => ProblemKind::TwoSquareRule,
                    A::Illegal(M::MoreSquaresRule { .. }) => ProblemKind::MoreSquaresRule,
                    // Every other illegal move reads as one problem; its
                    // `reason` says which (the domain's own name).
                    A::Illegal(_) => ProblemKind::IllegalMove,
                };
                let problem = Self::new(kind, detail).with_extension("reason", refusal.kind());
                match refusal {
                    // Where the position it would bring back stood (public:
                    // both players saw it).
                    A::Illegal(M::MoreSquaresRule { since_ply, .. }) => {
                        problem.with_extension("since_ply", since_ply)
                    }
                    _ => problem,
                }
            }
            E::InvalidSetup(problems) => {
                Self::new(ProblemKind::InvalidSetup, detail).with_extension("problems", problems)
            }
            E::Invalid(_) => Self::validation(detail),
            E::OnVacation(_) => Self::new(ProblemKind::AlreadyOnVacation, detail),
            E::VacationBudget { remaining_days, .. } => {
                Self::new(ProblemKind::VacationBudgetExceeded, detail)
                    .with_extension("remaining_days", remaining_days)
            }
            E::Unreadable(_) => Self::bad_request(detail),
            E::StaleVersion { .. } | E::KeptChanging => {
                Self::new(ProblemKind::VersionConflict, detail)
            }
            E::StaleTag => Self::new(ProblemKind::VersionConflict, detail)
                .with_status(StatusCode::PRECONDITION_FAILED),
            E::KeyReused => Self::new(ProblemKind::IdempotencyKeyReused, detail),
            E::AccountGone => Self::invalid_token(detail),
            // Taken by value above; by reference, only its text is left.
            E::Store(_) => Self::internal(detail),
            E::Internal(cause) => Self::internal(cause.clone()),
        }
    }
}

impl From<crate::accounts::AccountError> for ApiError {
    fn from(error: crate::accounts::AccountError) -> Self {
        use crate::accounts::AccountError as E;
        let detail = error.to_string();
        match error {
            E::Invalid(problems) => Self::validation(detail).with_extension("errors", problems),
            E::UsernameTaken => Self::new(ProblemKind::UsernameTaken, detail),
            E::BadCredentials | E::Refresh(_) => Self::unauthorized(detail),
            E::WrongPassword => Self::forbidden(detail),
            E::RateLimited(seconds) => Self::rate_limited(seconds),
            E::AccountGone => Self::invalid_token(detail),
            E::Store(store) => store.into(),
            E::Internal(cause) => Self::internal(cause),
        }
    }
}

impl From<crate::games::library::LibraryError> for ApiError {
    fn from(error: crate::games::library::LibraryError) -> Self {
        use crate::games::library::LibraryError as E;
        let detail = error.to_string();
        match error {
            E::NotFound => Self::not_found(detail),
            E::NameTaken { .. } => Self::new(ProblemKind::SetupNameTaken, detail),
            E::Full | E::Invalid(_) => Self::validation(detail),
            E::AccountGone => Self::invalid_token(detail),
            E::InvalidSetup(problems) => {
                Self::new(ProblemKind::InvalidSetup, detail).with_extension("problems", problems)
            }
            E::Store(store) => store.into(),
            E::Internal(cause) => Self::internal(cause),
        }
    }
}

/// A bearer token that is not acceptable: 401 with the RFC 6750 challenge.
impl From<crate::auth::tokens::TokenError> for ApiError {
    fn from(error: crate::auth::tokens::TokenError) -> Self {
        ApiError::invalid_token(error.to_string())
    }
}

impl From<crate::auth::password::HashError> for ApiError {
    fn from(error: crate::auth::password::HashError) -> Self {
        ApiError::internal(error)
    }
}

impl crate::db::LostConnection for ApiError {
    fn lost_connection(&self) -> bool {
        matches!(self, ApiError::Unavailable(_))
    }
}

impl From<crate::db::StoreError> for ApiError {
    fn from(error: crate::db::StoreError) -> Self {
        use crate::db::StoreError;
        match error {
            StoreError::Unavailable(cause) => Self::Unavailable(cause),
            // Still in conflict after its retries: nothing was written, and
            // the client may try again (503 with Retry-After).
            StoreError::Conflict(error) => Self::Unavailable(Box::new(error)),
            StoreError::Query(error) => Self::internal(error),
            other => Self::internal(other),
        }
    }
}

impl From<diesel::r2d2::PoolError> for ApiError {
    fn from(error: diesel::r2d2::PoolError) -> Self {
        Self::unavailable(error)
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(error: actix_web::error::BlockingError) -> Self {
        Self::internal(error.to_string())
    }
}

impl From<crate::notifications::NotifyError> for ApiError {
    fn from(error: crate::notifications::NotifyError) -> Self {
        use crate::notifications::NotifyError as E;
        let detail = error.to_string();
        match error {
            E::Invalid(problems) => Self::validation(detail).with_extension("errors", problems),
            E::Full(_) => Self::validation(detail),
            E::NotFound(_) => Self::not_found(detail),
            E::TooSoon(seconds) => Self::rate_limited(seconds),
            E::AccountGone => Self::invalid_token(detail),
            E::Store(store) => store.into(),
            E::Internal(cause) => Self::internal(cause),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lost_connections_map_to_503_and_other_database_errors_to_500() {
        use diesel::result::{DatabaseErrorKind, Error};
        let closed = Error::DatabaseError(
            DatabaseErrorKind::ClosedConnection,
            Box::new("gone".to_owned()),
        );
        assert_eq!(
            ApiError::from(closed).kind(),
            ProblemKind::ServiceUnavailable
        );
        assert_eq!(
            ApiError::from(Error::NotFound).kind(),
            ProblemKind::InternalError
        );
    }
}
