//! `play`: make a move. The answer is the move as the mover sees it and
//! the mover's new view.

use domain::{Action, Rescue, Square, Viewer};
use uuid::Uuid;

use super::answers::MoveAnswer;
use super::error::GameError;
use super::record::Phase;
use super::step::{act, after_play, player_color, Decision, Precondition};
use super::written::{Answered, Idempotency};
use super::{Caller, Context};

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
) -> Result<Answered<MoveAnswer>, GameError> {
    let me = caller.id;
    let decide = move |record: &mut super::GameRecord, now| {
        let color = player_color(record, me, "move")?;
        let game = match &mut record.phase {
            Phase::Playing(game) => game,
            Phase::Waiting | Phase::Setup => {
                return Err(GameError::wrong_phase("play has not started yet"))
            }
            Phase::Finished(_) | Phase::Aborted => {
                return Err(GameError::wrong_phase("the game is over"))
            }
        };
        let action = Action::Move {
            from: input.from,
            to: input.to,
            rescue: input.rescue,
        };
        let applied = game.apply(color, action).map_err(GameError::Refused)?;
        let moved = applied
            .record
            .ok_or_else(|| GameError::internal("a move without a record"))?;
        let notices = after_play(record, now, Some(&moved));
        Ok(Decision {
            log: Some((color, action, Some(moved))),
            notices,
        })
    };
    let answer = move |record: &super::GameRecord, game, moved: Option<&domain::MoveRecord>| {
        let (Some(moved), Some(color), Some(state)) = (moved, record.color_of(me), record.game())
        else {
            return Err(GameError::internal("a move answer without its move"));
        };
        Ok(MoveAnswer {
            move_: state.move_view(moved, Viewer::Player(color)),
            game,
        })
    };
    act(ctx, me, game_id, idempotency, precondition, decide, answer).await
}
