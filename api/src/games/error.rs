//! Why a game command or query did not happen. One enum for the whole game
//! service; the HTTP layer maps it to problem documents in one place
//! (`crate::error`, docs/errors.md). Every message may be shown to the
//! caller: none names a rank the caller may not know.

use domain::{ActionError, SetupProblem};

use crate::db::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("no such game")]
    NotFound,
    /// The caller may not do this to this game (not a player, not the
    /// challenged user, their own game).
    #[error("{0}")]
    Forbidden(String),
    /// Not possible in the game's phase (or after its deadline).
    #[error("{0}")]
    WrongPhase(String),
    /// The rules refused the action; the game is unchanged.
    #[error(transparent)]
    Refused(ActionError),
    /// The placement is not a valid setup: every problem, at once.
    #[error("{}", describe_setup(.0))]
    InvalidSetup(Vec<SetupProblem>),
    /// A well-formed request with a value out of range or unknown.
    #[error("{0}")]
    Invalid(String),
    /// A request that cannot be read as asked (a foreign cursor, a bad
    /// page size).
    #[error("{0}")]
    Unreadable(String),
    /// `expected_version` named another version than the game's.
    #[error("the game is at version {current}, not {expected}; reload it")]
    StaleVersion { current: i64, expected: i64 },
    /// `If-Match` did not carry the game's current tag.
    #[error("If-Match does not name the current version of the game; reload it")]
    StaleTag,
    #[error("this Idempotency-Key was already used for a different request")]
    KeyReused,
    /// Other writers kept winning the race for the game.
    #[error("the game kept changing while this request was handled; try again")]
    KeptChanging,
    /// A vacation cannot start: the player is on one.
    #[error("{0}")]
    OnVacation(String),
    /// More vacation days asked for than remain (docs/lifecycle.md,
    /// "Vacation").
    #[error("{detail}")]
    VacationBudget { detail: String, remaining_days: i64 },
    /// The caller's account no longer exists (its token outlived it).
    #[error("this account no longer exists")]
    AccountGone,
    /// The game's deadline had passed when a command loaded it: the clock
    /// ends it first (`games::clock`), then the command runs again.
    #[error("the deadline of this game has passed")]
    Overdue,
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A broken invariant (a bug, or a stored game that no longer reads).
    #[error("{0}")]
    Internal(String),
}

impl GameError {
    pub fn forbidden(detail: impl Into<String>) -> GameError {
        GameError::Forbidden(detail.into())
    }

    pub fn wrong_phase(detail: impl Into<String>) -> GameError {
        GameError::WrongPhase(detail.into())
    }

    pub fn invalid(detail: impl Into<String>) -> GameError {
        GameError::Invalid(detail.into())
    }

    pub fn internal(detail: impl std::fmt::Display) -> GameError {
        GameError::Internal(detail.to_string())
    }
}

impl crate::db::LostConnection for GameError {
    fn lost_connection(&self) -> bool {
        matches!(self, GameError::Store(store) if store.lost_connection())
    }
}

impl From<diesel::result::Error> for GameError {
    fn from(error: diesel::result::Error) -> Self {
        GameError::Store(error.into())
    }
}

pub(super) fn describe_setup(problems: &[SetupProblem]) -> String {
    let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
    match listed.as_slice() {
        [one] => format!("the setup is invalid: {one}"),
        many => format!("the setup has {} problems: {}", many.len(), many.join("; ")),
    }
}
