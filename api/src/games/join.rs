//! `join`: take the open seat, or accept a challenge addressed to you. The
//! setup phase and its clock start. Decided by `decide::Command::Join`.

use uuid::Uuid;

use super::decide::{Answer, Command};
use super::error::GameError;
use super::step::act;
use super::written::{Answered, Idempotency};
use super::{vacation, Caller, Context};

pub async fn join(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
) -> Result<Answered<Answer>, GameError> {
    let command = Command::Join {
        name: caller.name.clone(),
    };
    let answered = act(ctx, caller.id, game_id, idempotency, None, command).await?;
    // Its clocks have started: a player on vacation has theirs stopped.
    if matches!(answered, Answered::Written(_)) {
        vacation::cover_game(ctx, game_id).await?;
    }
    Ok(answered)
}
