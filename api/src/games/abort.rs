//! `abort`: either player ends a game before play starts (the creator
//! withdraws a challenge this way). Decided by `decide::Command::Abort`.

use uuid::Uuid;

use super::decide::{Answer, Command};
use super::error::GameError;
use super::step::act;
use super::written::{Answered, Idempotency};
use super::{Caller, Context};

pub async fn abort(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
) -> Result<Answered<Answer>, GameError> {
    let command = Command::Abort {
        name: caller.name.clone(),
    };
    act(ctx, caller.id, game_id, idempotency, None, command).await
}
