//! What the commands on an existing game share: the request's
//! precondition, and [`act`], which hands a [`Command`] to the write
//! pipeline (`games::pipeline`). What each command decides is in
//! `games::decide`.

use uuid::Uuid;

use super::answers;
use super::decide::{Answer, Command};
use super::error::GameError;
use super::pipeline::{self, Actor, Request};
use super::record::GameRecord;
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

/// Runs `command` on game `game_id` for `user` through the write
/// pipeline. A deleted account is refused (401).
pub async fn act(
    ctx: &Context,
    user: Uuid,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
    precondition: Option<Precondition>,
    command: Command,
) -> Result<Answered<Answer>, GameError> {
    let request = Request {
        game_id,
        actor: Actor::User(user),
        precondition,
        idempotency,
        command,
    };
    pipeline::run(ctx, request).await
}

/// [`act`] for the deletion of `user`'s account, which takes it out of
/// game `game_id` (named `name`) after the account was marked deleted.
pub async fn act_leaving(
    ctx: &Context,
    user: Uuid,
    game_id: Uuid,
    name: String,
) -> Result<Answered<Answer>, GameError> {
    let request = Request {
        game_id,
        actor: Actor::Leaving(user),
        precondition: None,
        idempotency: None,
        command: Command::Leave { name },
    };
    pipeline::run(ctx, request).await
}
