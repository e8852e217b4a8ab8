//! The step shared by resignation and draws: a domain action that is not a
//! move, by a player of a game in play. Decided by
//! `decide::Command::InPlay`.

use domain::Action;
use uuid::Uuid;

use super::decide::{Answer, Command};
use super::error::GameError;
use super::step::act;
use super::written::{Answered, Idempotency};
use super::{Caller, Context};

pub(super) async fn apply(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    action: Action,
    idempotency: Option<Idempotency>,
) -> Result<Answered<Answer>, GameError> {
    let command = Command::InPlay(action);
    act(ctx, caller.id, game_id, idempotency, None, command).await
}
