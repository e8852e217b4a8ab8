//! `create`: a new game, as an open seat anyone may take or as a challenge
//! to a named user (docs/lifecycle.md).

use domain::{Color, TimeControl};
use uuid::Uuid;

use super::answers::{game_view, GameView};
use super::error::GameError;
use super::fetch::names_for;
use super::notices::EventPayload;
use super::notices::Notice;
use super::record::GameRecord;
use super::requests::{ColorChoice, CreateGameRequest, DAYS_PER_MOVE, DEFAULT_DAYS_PER_MOVE};
use super::written::{self, Answered, Change, Idempotency};
use super::{pipeline, Caller, Context};
use crate::storage::games as store;
use crate::storage::users;
use crate::username::Username;

pub async fn create(
    ctx: &Context,
    caller: &Caller,
    request: CreateGameRequest,
    idempotency: Option<Idempotency>,
) -> Result<Answered<GameView>, GameError> {
    // Refused from the request alone, the refusal is stored under its key
    // as every refusal is.
    let (time_control, opponent) = match checked(&request) {
        Ok(checked) => checked,
        Err(refusal) => {
            return pipeline::refused_before(ctx, caller.id, idempotency.as_ref(), refusal).await
        }
    };
    let color = match request.color {
        ColorChoice::Red => Color::Red,
        ColorChoice::Blue => Color::Blue,
        ColorChoice::Random if rand::random::<bool>() => Color::Red,
        ColorChoice::Random => Color::Blue,
    };
    let game_id = Uuid::new_v4();
    let creator = caller.id;
    let creator_name = caller.name.clone();
    written::commit(ctx, creator, idempotency, move |conn, now| {
        let challenged = match &opponent {
            None => None,
            Some(name) => {
                let row = users::find_by_username(conn, name.as_str())?
                    .ok_or_else(|| no_such_user(name.as_str()))?;
                let id = Uuid::parse_str(&row.id).map_err(GameError::internal)?;
                if id == creator {
                    return Err(GameError::invalid("you cannot challenge yourself").into());
                }
                Some(id)
            }
        };
        let record = GameRecord::waiting(
            game_id,
            request.variant,
            request.rules,
            request.rated.unwrap_or(true),
            creator,
            color,
            challenged,
            time_control,
            now,
        );
        store::insert(conn, &record.to_row()?)?;
        let names = names_for(conn, &[&record])?;
        let notices = challenged
            .map(|to| {
                Notice::new(
                    to,
                    EventPayload::ChallengeReceived {
                        game_id,
                        from: creator_name.clone(),
                    },
                )
            })
            .into_iter()
            .collect();
        Ok(Change {
            value: game_view(&record, &names, Some(creator), now),
            game_id,
            version: record.version,
            notices,
        })
    })
    .await
}

/// The request's time control and opponent, or why they cannot be.
fn checked(request: &CreateGameRequest) -> Result<(TimeControl, Option<Username>), GameError> {
    let time_control = time_control_of(request)?;
    request
        .rules
        .validate()
        .map_err(|e| GameError::invalid(e.to_string()))?;
    // A string that cannot be a username is not looked up: no user has it.
    let opponent = match &request.opponent {
        None => None,
        Some(name) => Some(Username::parse(name).ok_or_else(|| no_such_user(name))?),
    };
    Ok((time_control, opponent))
}

/// The time control the request asks for: `time_control`, or its
/// shorthand `days_per_move` (not both), or `per_move` of the default days.
fn time_control_of(request: &CreateGameRequest) -> Result<TimeControl, GameError> {
    asked_time_control(request.time_control, request.days_per_move)?.map_or_else(
        || {
            let days = u32::try_from(DEFAULT_DAYS_PER_MOVE).unwrap_or(1);
            Ok(TimeControl::PerMove { days })
        },
        Ok,
    )
}

/// `time_control` or its shorthand `days_per_move` (not both), checked;
/// `None` if neither is given.
pub fn asked_time_control(
    time_control: Option<TimeControl>,
    days_per_move: Option<i32>,
) -> Result<Option<TimeControl>, GameError> {
    if time_control.is_none() && days_per_move.is_none() {
        return Ok(None);
    }
    let control = match (time_control, days_per_move) {
        (Some(_), Some(_)) => {
            return Err(GameError::invalid(
                "give time_control or its shorthand days_per_move, not both",
            ))
        }
        (Some(control), None) => control,
        (None, days) => {
            let days = days.unwrap_or(DEFAULT_DAYS_PER_MOVE);
            if !DAYS_PER_MOVE.contains(&days) {
                return Err(GameError::invalid(format!(
                    "days_per_move must be between {} and {}, not {days}",
                    DAYS_PER_MOVE.start(),
                    DAYS_PER_MOVE.end()
                )));
            }
            TimeControl::PerMove {
                days: u32::try_from(days).unwrap_or(1),
            }
        }
    };
    control
        .validate()
        .map_err(|e| GameError::invalid(format!("time_control: {e}")))?;
    Ok(Some(control))
}

fn no_such_user(name: &str) -> GameError {
    GameError::invalid(format!("no user is named {name}"))
}
