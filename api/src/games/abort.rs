//! `abort`: either player ends a game before play starts (the creator
//! withdraws a challenge this way).

use uuid::Uuid;

use super::answers::GameView;
use super::error::GameError;
use super::notices;
use super::record::Phase;
use super::step::{act, player_color, view_answer, Decision};
use super::written::{Answered, Idempotency};
use super::{Caller, Context, GameRecord};

pub async fn abort(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
) -> Result<Answered<GameView>, GameError> {
    let (me, my_name) = (caller.id, caller.name.clone());
    let decide = move |record: &mut GameRecord, _now| decide(record, me, &my_name);
    act(ctx, me, game_id, idempotency, None, decide, view_answer).await
}

/// `me` (named `my_name`) aborts `record` (in memory) before play starts.
pub(super) fn decide(
    record: &mut GameRecord,
    me: Uuid,
    my_name: &str,
) -> Result<Decision, GameError> {
    player_color(record, me, "abort it")?;
    match record.phase {
        Phase::Waiting | Phase::Setup => {}
        Phase::Playing(_) => {
            return Err(GameError::wrong_phase("play has started: resign instead"))
        }
        Phase::Finished(_) | Phase::Aborted => {
            return Err(GameError::wrong_phase("the game is already over"))
        }
    }
    record.phase = Phase::Aborted;
    record.deadline = None;
    Ok(Decision::plain(notices::game_aborted(
        record,
        Some((me, my_name)),
    )))
}
