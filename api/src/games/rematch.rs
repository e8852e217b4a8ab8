//! `rematch`: after a finished game, one player offers the other a new game
//! with the same variant and rules (and time control, unless the offer
//! names another) and the colors swapped. The new
//! game is a challenge: the opponent joins it (accepts) or declines it
//! (docs/lifecycle.md). A game has at most one rematch.

use uuid::Uuid;

use super::answers::{game_view, GameView};
use super::create::asked_time_control;
use super::decide::player_color;
use super::error::GameError;
use super::fetch::{load, names_for};
use super::notices::{EventPayload, Notice};
use super::record::{GameRecord, Phase};
use super::requests::RematchRequest;
use super::written::{self, Answered, Change, Idempotency};
use super::{pipeline, Caller, Context};
use crate::storage::games as store;
use crate::storage::to_db_time;
use crate::storage::users;

pub async fn rematch(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    request: RematchRequest,
    idempotency: Option<Idempotency>,
) -> Result<Answered<GameView>, GameError> {
    // Refused from the request alone, stored under its key as every
    // refusal is.
    let asked = match asked_time_control(request.time_control, request.days_per_move) {
        Ok(asked) => asked,
        Err(refusal) => {
            return pipeline::refused_before(ctx, caller.id, idempotency.as_ref(), refusal).await
        }
    };
    let me = caller.id;
    let my_name = caller.name.clone();
    let new_id = Uuid::new_v4();
    written::commit(ctx, me, idempotency, move |conn, now| {
        let old = load(conn, game_id)?;
        let color = player_color(&old, me, "offer a rematch")?;
        if !matches!(old.phase, Phase::Finished(_)) {
            return Err(GameError::wrong_phase(
                "a rematch follows a finished game, and this one is not",
            )
            .into());
        }
        if store::rematch_of(conn, &old.id.to_string())?.is_some() {
            return Err(already_offered().into());
        }
        let opponent = old.player(color.opponent()).ok_or_else(|| {
            GameError::internal(format!("finished game {game_id} lacks a player"))
        })?;
        let gone = users::find_by_id(conn, &opponent.to_string())?
            .is_none_or(|row| row.deleted_at.is_some());
        if gone {
            return Err(GameError::wrong_phase("the opponent's account was deleted").into());
        }
        // Colors swapped: the one who offers takes the other side.
        let record = GameRecord::waiting(
            new_id,
            old.variant,
            old.rules,
            old.rated,
            me,
            color.opponent(),
            Some(opponent),
            asked.unwrap_or(old.time_control),
            now,
        );
        store::insert(conn, &record.to_row()?)?;
        let (old_id, new) = (old.id.to_string(), new_id.to_string());
        if !store::insert_rematch(conn, &old_id, &new, &me.to_string(), to_db_time(now))? {
            return Err(already_offered().into());
        }
        let names = names_for(conn, &[&record])?;
        Ok(Change {
            value: game_view(&record, &names, Some(me), now),
            game_id: new_id,
            version: record.version,
            notices: vec![Notice::new(
                opponent,
                EventPayload::RematchOffered {
                    game_id: new_id,
                    rematch_of: game_id,
                    from: my_name.clone(),
                },
            )],
        })
    })
    .await
}

fn already_offered() -> GameError {
    GameError::wrong_phase("a rematch of this game was already offered")
}
