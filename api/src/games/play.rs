//! `play`: make a move. The answer is the move as the mover sees it and
//! the mover's new view. Decided by `decide::Command::Move`.

use domain::{Rescue, Square};
use uuid::Uuid;

use super::decide::{Answer, Command};
use super::error::GameError;
use super::step::{act, Precondition};
use super::written::{Answered, Idempotency};
use super::{vacation, Caller, Context};

/// A move as parsed from the request.
#[derive(Debug, Clone, Copy)]
pub struct MoveInput {
    pub from: Square,
    pub to: Square,
    pub rescue: Option<Rescue>,
}

pub async fn play_move(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    input: MoveInput,
    precondition: Option<Precondition>,
    idempotency: Option<Idempotency>,
) -> Result<Answered<Answer>, GameError> {
    let command = Command::Move(input);
    let answered = act(ctx, caller.id, game_id, idempotency, precondition, command).await?;
    // A move ends the mover's vacation, in every game (docs/lifecycle.md,
    // "Vacation"); the move let the mover's clock run again in this one.
    if let Answered::Written(written) = &answered {
        if let Answer::Move(moved) = &written.value {
            if moved.back_from_vacation {
                // The move is made: its answer stands whatever happens here
                // (the vacation then ends when the player ends it, or by
                // itself).
                let ending = vacation::Ending::Player;
                if let Err(error) = vacation::end(ctx, caller.id, &caller.name, ending).await {
                    tracing::warn!(%error, "ending a vacation after a move failed");
                }
            }
        }
    }
    Ok(answered)
}
