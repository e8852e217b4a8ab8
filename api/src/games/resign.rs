//! `resign`: the opponent wins (`resignation`).

use domain::Action;
use uuid::Uuid;

use super::decide::Answer;
use super::error::GameError;
use super::written::{Answered, Idempotency};
use super::{in_play, Caller, Context};

pub async fn resign(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
) -> Result<Answered<Answer>, GameError> {
    in_play::apply(ctx, caller, game_id, Action::Resign, idempotency).await
}
