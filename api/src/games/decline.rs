//! `decline`: the challenged user turns a challenge down; the game ends
//! `aborted`.

use uuid::Uuid;

use super::answers::GameView;
use super::error::GameError;
use super::notices::EventPayload;
use super::notices::Notice;
use super::record::Phase;
use super::step::{act, view_answer, Decision};
use super::written::{Answered, Idempotency};
use super::{Caller, Context, GameRecord};

pub async fn decline(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
) -> Result<Answered<GameView>, GameError> {
    let (me, my_name) = (caller.id, caller.name.clone());
    let decide = move |record: &mut GameRecord, _now| decide(record, me, &my_name);
    act(ctx, me, game_id, idempotency, None, decide, view_answer).await
}

/// `me` (named `my_name`) declines the challenge `record` is (in memory).
pub(super) fn decide(
    record: &mut GameRecord,
    me: Uuid,
    my_name: &str,
) -> Result<Decision, GameError> {
    if record.challenged != Some(me) {
        return Err(GameError::forbidden(
            "only the challenged user may decline a challenge",
        ));
    }
    // The challenged user who already accepted is refused for the
    // phase (they may abort during setup), not as a stranger.
    if record.color_of(me).is_some() {
        return Err(GameError::wrong_phase(
            "the challenge was already accepted: abort the game instead",
        ));
    }
    if !matches!(record.phase, Phase::Waiting) {
        return Err(GameError::wrong_phase(format!(
            "the challenge can no longer be declined: the game is {}",
            record.status().as_str()
        )));
    }
    record.phase = Phase::Aborted;
    record.deadline = None;
    Ok(Decision::plain(vec![Notice::new(
        record.creator,
        EventPayload::ChallengeDeclined {
            game_id: record.id,
            by: my_name.to_owned(),
        },
    )]))
}
