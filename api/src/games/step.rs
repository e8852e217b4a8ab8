//! What the commands on an existing game share: the request's
//! precondition, what a command decides ([`Decision`]), the checks and
//! notices of play, and [`act`], which hands a command to the write
//! pipeline (`games::pipeline`).

use chrono::{DateTime, Utc};
use domain::{Action, Color, MoveRecord, Viewer};
use uuid::Uuid;

use super::answers::{self, GameView};
use super::error::GameError;
use super::notices::{self, EventPayload, Notice};
use super::pipeline::{self, Actor, Request};
use super::record::{GameRecord, Phase};
use super::written::{Answered, Idempotency};
use super::Context;

/// A condition on the game's version named by the request.
#[derive(Debug, Clone)]
pub enum Precondition {
    /// `expected_version` in the body.
    Version(i64),
    /// `If-Match` with a view's ETag.
    Tag(String),
}

impl Precondition {
    pub(super) fn check(&self, record: &GameRecord, user: Uuid) -> Result<(), GameError> {
        match self {
            Precondition::Version(expected) if *expected != record.version => {
                Err(GameError::StaleVersion {
                    current: record.version,
                    expected: *expected,
                })
            }
            Precondition::Tag(header)
                if !answers::tag_matches(
                    header,
                    &answers::etag(record.id, record.version, Some(user)),
                ) =>
            {
                Err(GameError::StaleTag)
            }
            _ => Ok(()),
        }
    }
}

/// What a command decided about a loaded game (already changed in memory).
pub struct Decision {
    /// The domain action to append to the log (with its full record).
    pub log: Option<(Color, Action, Option<MoveRecord>)>,
    pub notices: Vec<Notice>,
}

impl Decision {
    pub fn plain(notices: Vec<Notice>) -> Decision {
        Decision { log: None, notices }
    }
}

/// The color `user` plays, or a refusal naming what only players may do.
pub fn player_color(record: &GameRecord, user: Uuid, doing: &str) -> Result<Color, GameError> {
    record
        .color_of(user)
        .ok_or_else(|| GameError::forbidden(format!("only the players of this game may {doing}")))
}

/// After an action in play: the phase (finished?), the next deadline, and
/// who to tell. `moved`: the move just made, if it was one.
pub fn after_play(
    record: &mut GameRecord,
    now: DateTime<Utc>,
    moved: Option<&MoveRecord>,
) -> Vec<Notice> {
    record.close_if_over();
    let Phase::Playing(game) = &record.phase else {
        return notices::game_finished(record);
    };
    let Some(moved) = moved else {
        return Vec::new();
    };
    let next = game.turn();
    let notice = record.player(next).map(|user| {
        Notice::new(
            user,
            EventPayload::YourTurn {
                game_id: record.id,
                ply: game.ply(),
                opponent_move: Some(game.move_view(moved, Viewer::Player(next))),
            },
        )
    });
    record.deadline = Some(record.deadline_from(now));
    notice.into_iter().collect()
}

/// Runs `decide` on game `game_id` for `user` through the write pipeline,
/// and answers with `answer` built from the caller's new view (and the
/// move just made, for moves). A deleted account is refused (401).
pub async fn act<T, D, A>(
    ctx: &Context,
    user: Uuid,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
    precondition: Option<Precondition>,
    decide: D,
    answer: A,
) -> Result<Answered<T>, GameError>
where
    T: serde::Serialize + Send + 'static,
    D: Fn(&mut GameRecord, DateTime<Utc>) -> Result<Decision, GameError> + Send + Sync + 'static,
    A: Fn(&GameRecord, GameView, Option<&MoveRecord>) -> Result<T, GameError>
        + Send
        + Sync
        + 'static,
{
    let request = Request {
        game_id,
        actor: Actor::User(user),
        precondition,
        idempotency,
        decide,
        answer,
    };
    pipeline::run(ctx, request).await
}

/// [`act`] for the deletion of `user`'s account, which takes it out of
/// game `game_id` after the account was marked deleted.
pub async fn act_leaving<D>(
    ctx: &Context,
    user: Uuid,
    game_id: Uuid,
    decide: D,
) -> Result<Answered<()>, GameError>
where
    D: Fn(&mut GameRecord, DateTime<Utc>) -> Result<Decision, GameError> + Send + Sync + 'static,
{
    let request = Request {
        game_id,
        actor: Actor::Leaving(user),
        precondition: None,
        idempotency: None,
        decide,
        answer: |_: &GameRecord, _: GameView, _: Option<&MoveRecord>| Ok(()),
    };
    pipeline::run(ctx, request).await
}

/// The plain answer of most commands: the caller's new view.
pub fn view_answer(
    _record: &GameRecord,
    view: GameView,
    _moved: Option<&MoveRecord>,
) -> Result<GameView, GameError> {
    Ok(view)
}
