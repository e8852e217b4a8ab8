//! `setup`: place (or replace) your secret setup; play starts when both
//! are in (docs/lifecycle.md). Decided by `decide::Command::Setup`.

use domain::{Color, Placement, Setup};
use uuid::Uuid;

use super::decide::{Answer, ChosenSetup, Command};
use super::error::GameError;
use super::library::{self, LibraryError};
use super::step::act;
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
) -> Result<Answered<Answer>, GameError> {
    let me = caller.id;
    let chosen = match source {
        SetupSource::Placement(placement) => ChosenSetup::Placement(placement),
        SetupSource::Random(seed) => ChosenSetup::Random(seed),
        SetupSource::Saved(name) => match saved(ctx, me, game_id, name).await {
            Ok(setup) => ChosenSetup::Saved(setup),
            // A failure of the database is passed on as it is there.
            Err(refusal) => {
                return pipeline::refused_before(ctx, me, idempotency.as_ref(), refusal).await
            }
        },
    };
    act(ctx, me, game_id, idempotency, None, Command::Setup(chosen)).await
}
