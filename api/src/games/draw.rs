//! `draw`: offer a draw, or accept or decline the opponent's offer (an
//! offer stands until answered or until the offerer moves: docs/rules.md).

use domain::Action;
use uuid::Uuid;

use super::decide::Answer;
use super::error::GameError;
use super::requests::DrawAction;
use super::written::{Answered, Idempotency};
use super::{in_play, Caller, Context};

pub async fn draw(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    choice: DrawAction,
    idempotency: Option<Idempotency>,
) -> Result<Answered<Answer>, GameError> {
    let action = match choice {
        DrawAction::Offer => Action::OfferDraw,
        DrawAction::Accept => Action::AcceptDraw,
        DrawAction::Decline => Action::DeclineDraw,
    };
    in_play::apply(ctx, caller, game_id, action, idempotency).await
}
