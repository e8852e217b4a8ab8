//! `leave`: a deleted account leaves a game not yet over (docs/accounts.md).
//! A challenge to it is declined, a game before play is aborted, a game in
//! play is resigned; the other player is told as for the player's own
//! action. Decided by `decide::Command::Leave`.

use uuid::Uuid;

use super::error::GameError;
use super::step::act_leaving;
use super::{Caller, Context};

/// Takes `caller` out of game `game_id`. Answers whether the game changed
/// (`false`: it was already over).
pub async fn leave(ctx: &Context, caller: &Caller, game_id: Uuid) -> Result<bool, GameError> {
    match act_leaving(ctx, caller.id, game_id, caller.name.clone()).await {
        Ok(_) => Ok(true),
        Err(GameError::WrongPhase(_) | GameError::NotFound) => Ok(false),
        Err(other) => Err(other),
    }
}
