//! The step shared by resignation and draws: a domain action that is not a
//! move, by a player of a game in play.

use chrono::{DateTime, Utc};
use domain::Action;
use uuid::Uuid;

use super::answers::GameView;
use super::error::GameError;
use super::notices::EventPayload;
use super::notices::Notice;
use super::record::Phase;
use super::step::{act, after_play, player_color, view_answer, Decision};
use super::written::{Answered, Idempotency};
use super::{Caller, Context, GameRecord};

pub(super) async fn apply(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    action: Action,
    idempotency: Option<Idempotency>,
) -> Result<Answered<GameView>, GameError> {
    let me = caller.id;
    let decide = move |record: &mut GameRecord, now| decide(record, me, action, now);
    act(ctx, me, game_id, idempotency, None, decide, view_answer).await
}

/// Player `me` takes `action` (not a move) in `record` (in memory).
pub(super) fn decide(
    record: &mut GameRecord,
    me: Uuid,
    action: Action,
    now: DateTime<Utc>,
) -> Result<Decision, GameError> {
    let color = player_color(record, me, "do that")?;
    let game = match &mut record.phase {
        Phase::Playing(game) => game,
        Phase::Waiting | Phase::Setup => {
            return Err(GameError::wrong_phase(
                "play has not started yet (abort the game instead)",
            ))
        }
        Phase::Finished(_) | Phase::Aborted => {
            return Err(GameError::wrong_phase("the game is over"))
        }
    };
    game.apply(color, action).map_err(GameError::Refused)?;
    let mut notices = after_play(record, now, None);
    if action == Action::OfferDraw {
        if let Some(other) = record.player(color.opponent()) {
            notices.push(Notice::new(
                other,
                EventPayload::DrawOffered {
                    game_id: record.id,
                    by: color,
                },
            ));
        }
    }
    Ok(Decision {
        log: Some((color, action, None)),
        notices,
    })
}
