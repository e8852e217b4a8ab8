//! `leave`: a deleted account leaves a game not yet over (docs/accounts.md).
//! A challenge to it is declined, a game before play is aborted, a game in
//! play is resigned; the other player is told as for the player's own
//! action.

use domain::Action;
use uuid::Uuid;

use super::error::GameError;
use super::record::Phase;
use super::step::{act_leaving, Decision};
use super::{abort, decline, in_play, Caller, Context, GameRecord};

/// Takes `caller` out of game `game_id`. Answers whether the game changed
/// (`false`: it was already over).
pub async fn leave(ctx: &Context, caller: &Caller, game_id: Uuid) -> Result<bool, GameError> {
    let (me, name) = (caller.id, caller.name.clone());
    let decide = move |record: &mut GameRecord, now| -> Result<Decision, GameError> {
        match record.phase {
            Phase::Finished(_) | Phase::Aborted => Err(GameError::wrong_phase("already over")),
            Phase::Waiting if record.color_of(me).is_none() => decline::decide(record, me, &name),
            Phase::Waiting | Phase::Setup => abort::decide(record, me, &name),
            Phase::Playing(_) => in_play::decide(record, me, Action::Resign, now),
        }
    };
    match act_leaving(ctx, me, game_id, decide).await {
        Ok(_) => Ok(true),
        Err(GameError::WrongPhase(_) | GameError::NotFound) => Ok(false),
        Err(other) => Err(other),
    }
}
