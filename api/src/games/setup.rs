//! `setup`: place (or replace) your secret setup; play starts when both
//! are in (docs/lifecycle.md).

use domain::{Color, Game, Placement, Setup};
use uuid::Uuid;

use super::answers::GameView;
use super::error::GameError;
use super::library::{self, LibraryError};
use super::notices::EventPayload;
use super::notices::Notice;
use super::record::Phase;
use super::step::{act, after_play, player_color, view_answer, Decision};
use super::written::{Answered, Idempotency};
use super::{fetch, pipeline, Caller, Context};
use crate::db;

/// Where a setup comes from.
#[derive(Debug, Clone)]
pub enum SetupSource {
    Placement(Placement),
    Random(u64),
    /// A setup of the caller's library, by name (docs/setups.md).
    Saved(String),
}

/// A source with a saved setup already read (as written for Red).
enum Chosen {
    Placement(Placement),
    Random(u64),
    Saved(Setup),
}

/// Reads the saved setup `name` for the game's variant: the variant never
/// changes, so reading it before the game's transaction is safe.
async fn saved(ctx: &Context, me: Uuid, game_id: Uuid, name: String) -> Result<Setup, GameError> {
    let variant = db::run_as::<_, GameError, _>(&ctx.pool, move |conn| {
        Ok(fetch::load(conn, game_id)?.variant)
    })
    .await?;
    library::setup_named(&ctx.pool, me, variant, name.clone(), Color::Red)
        .await
        .map_err(|e| match e {
            LibraryError::Store(store) => GameError::Store(store),
            other => GameError::internal(other),
        })?
        .ok_or_else(|| {
            GameError::invalid(format!(
                "you have no saved {} setup named {name:?}",
                variant.name()
            ))
        })
}

pub async fn place_setup(
    ctx: &Context,
    caller: &Caller,
    game_id: Uuid,
    source: SetupSource,
    idempotency: Option<Idempotency>,
) -> Result<Answered<GameView>, GameError> {
    let me = caller.id;
    let source = match source {
        SetupSource::Placement(placement) => Chosen::Placement(placement),
        SetupSource::Random(seed) => Chosen::Random(seed),
        SetupSource::Saved(name) => match saved(ctx, me, game_id, name).await {
            Ok(setup) => Chosen::Saved(setup),
            // A failure of the database is passed on as it is there.
            Err(refusal) => {
                return pipeline::refused_before(ctx, me, idempotency.as_ref(), refusal).await
            }
        },
    };
    let decide = move |record: &mut super::GameRecord, now| {
        let color = player_color(record, me, "place a setup")?;
        match record.phase {
            Phase::Waiting | Phase::Setup => {}
            Phase::Playing(_) => {
                return Err(GameError::wrong_phase(
                    "play has started: setups can no longer change",
                ))
            }
            Phase::Finished(_) | Phase::Aborted => {
                return Err(GameError::wrong_phase("the game is over"))
            }
        }
        let setup = match &source {
            Chosen::Random(seed) => Setup::random(record.variant, color, *seed),
            Chosen::Placement(placement) => placement
                .validate(record.variant, color)
                .map_err(GameError::InvalidSetup)?,
            Chosen::Saved(setup) => setup.for_color(color),
        };
        record.setups.set(setup);
        let (Some((red, blue)), Phase::Setup) = (record.setups.both(), &record.phase) else {
            return Ok(Decision::plain(Vec::new()));
        };
        // Both setups are in: play starts.
        let game = Game::new(record.variant, record.rules, red.clone(), blue.clone())
            .map_err(|e| GameError::internal(format!("starting game {}: {e}", record.id)))?;
        record.phase = Phase::Playing(Box::new(game));
        record.deadline = Some(record.deadline_from(now));
        let mut notices: Vec<Notice> = record
            .players()
            .into_iter()
            .map(|u| Notice::new(u, EventPayload::GameStarted { game_id: record.id }))
            .collect();
        let finished = after_play(record, now, None);
        if finished.is_empty() {
            if let Some(red_user) = record.red {
                notices.push(Notice::new(
                    red_user,
                    EventPayload::YourTurn {
                        game_id: record.id,
                        ply: 0,
                        opponent_move: None,
                    },
                ));
            }
        }
        notices.extend(finished);
        Ok(Decision::plain(notices))
    };
    act(ctx, me, game_id, idempotency, None, decide, view_answer).await
}
