//! `decline`: the challenged user turns a challenge down; the game ends
//! `aborted`. Decided by `decide::Command::Decline`.

use uuid::Uuid;

use super::decide::{Answer, Command};
use super::error::GameError;
use super::step::act;
use super::written::{Answered, Idempotency};
use super::{Caller, Context};

pub async fn decline(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
) -> Result<Answered<Answer>, GameError> {
    let command = Command::Decline {
        name: caller.name.clone(),
    };
    act(ctx, caller.id, game_id, idempotency, None, command).await
}
