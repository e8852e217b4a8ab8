//! `join`: take the open seat, or accept a challenge addressed to you. The
//! setup phase and its clock start.

use domain::MoveRecord;
use uuid::Uuid;

use super::answers::GameView;
use super::error::GameError;
use super::notices;
use super::record::Phase;
use super::step::{act, Decision};
use super::written::{Answered, Idempotency};
use super::{Caller, Context};

pub async fn join(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
) -> Result<Answered<GameView>, GameError> {
    let me = caller.id;
    let my_name = caller.name.clone();
    let decide = move |record: &mut super::GameRecord, now| {
        if record.creator == me || record.color_of(me).is_some() {
            return Err(GameError::forbidden("you cannot join your own game"));
        }
        if !matches!(record.phase, Phase::Waiting) {
            return Err(GameError::wrong_phase(format!(
                "this game cannot be joined: it is {}",
                record.status().as_str()
            )));
        }
        if record.challenged.is_some_and(|c| c != me) {
            return Err(GameError::forbidden(
                "this game is a challenge addressed to another user",
            ));
        }
        if record.red.is_none() {
            record.red = Some(me);
        } else if record.blue.is_none() {
            record.blue = Some(me);
        } else {
            return Err(GameError::wrong_phase("this game already has two players"));
        }
        record.phase = Phase::Setup;
        record.deadline = Some(record.deadline_from(now));
        Ok(Decision::plain(vec![notices::opponent_joined(
            record, &my_name,
        )]))
    };
    // The game's names were read before the caller sat down: the answer
    // takes the caller's own from the request, as every later view reads
    // it from the game.
    let name = caller.name.clone();
    let answer = move |_: &super::GameRecord, mut view: GameView, _: Option<&MoveRecord>| {
        let seats = [view.players.red.as_mut(), view.players.blue.as_mut()];
        for seat in seats.into_iter().flatten().filter(|seat| seat.id == me) {
            seat.username.clone_from(&name);
        }
        Ok(view)
    };
    act(ctx, me, game_id, idempotency, None, decide, answer).await
}
