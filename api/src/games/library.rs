//! The setup library: named setups a player saves once and uses in any game
//! of the variant, on either side (docs/setups.md). Only their owner ever
//! sees them. Nothing here knows HTTP.
//!
//! A setup is stored as written for Red; used for Blue it is turned about
//! the board's centre (`domain::Setup::turned`), so it looks the same from
//! its player's side.

use chrono::{DateTime, Utc};
use domain::{Color, Placement, Setup, SetupProblem, Variant};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::docs::{PieceDoc, SquareDoc, VariantDoc};
use super::error::describe_setup;
use crate::db::{self, DbPool, StoreError};
use crate::storage::setups::{self as store, SavedSetupRow};
use crate::storage::users::{self, RowLock};
use crate::storage::{from_db_time, to_db_time};

/// Most setups one user may keep (all variants together).
pub const MAX_SETUPS_PER_USER: i64 = 50;
/// Longest name of a saved setup, in characters.
pub const NAME_MAX: usize = 40;

#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// No such setup among the caller's (someone else's is not found either).
    #[error("you have no saved setup with this id")]
    NotFound,
    #[error("you already have a saved {variant} setup named {name:?}")]
    NameTaken { variant: &'static str, name: String },
    #[error("you have {MAX_SETUPS_PER_USER} saved setups, the most allowed; delete one first")]
    Full,
    #[error("{0}")]
    Invalid(String),
    /// The placement is not a valid setup: every problem, at once.
    #[error("{}", describe_setup(.0))]
    InvalidSetup(Vec<SetupProblem>),
    /// The caller's account no longer exists (its token outlived it).
    #[error("this account no longer exists")]
    AccountGone,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Internal(String),
}

impl From<diesel::result::Error> for LibraryError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Store(error.into())
    }
}

impl crate::db::LostConnection for LibraryError {
    fn lost_connection(&self) -> bool {
        matches!(self, Self::Store(store) if store.lost_connection())
    }
}

/// A saved setup as its owner sees it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "0b8e4c1a-3f6d-4e7a-9c2b-5d1e8f7a6b40", "name": "fortress",
    "variant": "duel", "placement": {"a1": "flag", "b1": "bomb", "c1": "bomb", "d1": "spy",
    "e1": "scout", "f1": "scout", "g1": "miner", "h1": "miner", "i1": "general",
    "j1": "marshal"},
    "created_at": "2026-11-30T10:00:00Z", "updated_at": "2026-11-30T10:00:00Z"}))]
pub struct SavedSetup {
    pub id: Uuid,
    pub name: String,
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    /// The army by square, as written for Red (turned for Blue when used)
    #[schema(value_type = std::collections::HashMap<SquareDoc, PieceDoc>)]
    pub placement: Placement,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// What to save: a name, and a placement for `variant` written for `color`.
#[derive(Debug, Clone)]
pub struct NewSetup {
    pub name: String,
    pub variant: Variant,
    pub color: Color,
    pub placement: Placement,
}

fn check_name(name: &str) -> Result<String, LibraryError> {
    let name = name.trim();
    let length = name.chars().count();
    if length == 0 || length > NAME_MAX || name.chars().any(char::is_control) {
        return Err(LibraryError::Invalid(format!(
            "name must be 1 to {NAME_MAX} characters, without control characters"
        )));
    }
    Ok(name.to_owned())
}

/// The name (trimmed) and the setup as written for Red.
fn check(new: &NewSetup) -> Result<(String, Setup), LibraryError> {
    let name = check_name(&new.name)?;
    let setup = new
        .placement
        .validate(new.variant, new.color)
        .map_err(LibraryError::InvalidSetup)?
        .for_color(Color::Red);
    Ok((name, setup))
}

fn to_json(setup: &Setup) -> Result<String, LibraryError> {
    serde_json::to_string(&setup.to_placement()).map_err(|e| LibraryError::Internal(e.to_string()))
}

fn answer(row: SavedSetupRow) -> Result<SavedSetup, LibraryError> {
    let corrupt = |what: &str| LibraryError::Internal(format!("saved setup {}: {what}", row.id));
    Ok(SavedSetup {
        id: Uuid::parse_str(&row.id).map_err(|_| corrupt("id"))?,
        variant: row.variant.parse().map_err(|_| corrupt("variant"))?,
        placement: serde_json::from_str(&row.placement).map_err(|_| corrupt("placement"))?,
        name: row.name,
        created_at: from_db_time(row.created_at),
        updated_at: from_db_time(row.updated_at),
    })
}

pub async fn save(
    pool: &DbPool,
    owner: Uuid,
    new: NewSetup,
    now: DateTime<Utc>,
) -> Result<SavedSetup, LibraryError> {
    let (name, setup) = check(&new)?;
    let row = SavedSetupRow {
        id: Uuid::new_v4().to_string(),
        user_id: owner.to_string(),
        variant: new.variant.name().to_owned(),
        name,
        placement: to_json(&setup)?,
        created_at: to_db_time(now),
        updated_at: to_db_time(now),
    };
    let saved = db::run_write::<_, LibraryError, _>(pool, move |conn| {
        // A deletion of the account either commits first (and this is
        // refused) or waits for this and then removes it with the rest.
        if users::live(conn, &row.user_id, RowLock::Share)?.is_none() {
            return Err(LibraryError::AccountGone);
        }
        if store::count_of_user(conn, &row.user_id)? >= MAX_SETUPS_PER_USER {
            return Err(LibraryError::Full);
        }
        if !store::insert(conn, &row)? {
            return Err(LibraryError::NameTaken {
                variant: new.variant.name(),
                name: row.name.clone(),
            });
        }
        Ok(row)
    })
    .await?;
    answer(saved)
}

pub async fn list(
    pool: &DbPool,
    owner: Uuid,
    variant: Option<Variant>,
) -> Result<Vec<SavedSetup>, LibraryError> {
    let rows = db::run_as::<_, LibraryError, _>(pool, move |conn| {
        Ok(store::list(
            conn,
            &owner.to_string(),
            variant.map(Variant::name),
        )?)
    })
    .await?;
    rows.into_iter().map(answer).collect()
}

pub async fn get(pool: &DbPool, owner: Uuid, id: Uuid) -> Result<SavedSetup, LibraryError> {
    let row = db::run_as::<_, LibraryError, _>(pool, move |conn| {
        Ok(store::find(conn, &owner.to_string(), &id.to_string())?)
    })
    .await?
    .ok_or(LibraryError::NotFound)?;
    answer(row)
}

/// Replaces setup `id` with `new` (name, variant and placement).
pub async fn replace(
    pool: &DbPool,
    owner: Uuid,
    id: Uuid,
    new: NewSetup,
    now: DateTime<Utc>,
) -> Result<SavedSetup, LibraryError> {
    let (name, setup) = check(&new)?;
    let placement = to_json(&setup)?;
    let row = db::run_write::<_, LibraryError, _>(pool, move |conn| {
        let user = owner.to_string();
        let mut row = store::find(conn, &user, &id.to_string())?.ok_or(LibraryError::NotFound)?;
        row.name = name;
        row.variant = new.variant.name().to_owned();
        row.placement = placement;
        row.updated_at = to_db_time(now);
        match store::update(conn, &user, &row)? {
            None => Err(LibraryError::NotFound),
            Some(false) => Err(LibraryError::NameTaken {
                variant: new.variant.name(),
                name: row.name.clone(),
            }),
            Some(true) => Ok(row),
        }
    })
    .await?;
    answer(row)
}

pub async fn delete(pool: &DbPool, owner: Uuid, id: Uuid) -> Result<(), LibraryError> {
    let deleted = db::run_write::<_, LibraryError, _>(pool, move |conn| {
        Ok(store::delete(conn, &owner.to_string(), &id.to_string())?)
    })
    .await?;
    if deleted {
        Ok(())
    } else {
        Err(LibraryError::NotFound)
    }
}

/// The setup `owner` saved as `name` for `variant`, for `color`.
pub async fn setup_named(
    pool: &DbPool,
    owner: Uuid,
    variant: Variant,
    name: String,
    color: Color,
) -> Result<Option<Setup>, LibraryError> {
    let row = db::run_as::<_, LibraryError, _>(pool, move |conn| {
        Ok(store::find_by_name(
            conn,
            &owner.to_string(),
            variant.name(),
            name.trim(),
        )?)
    })
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let saved = answer(row)?;
    let setup = saved
        .placement
        .validate(variant, Color::Red)
        .map_err(|_| LibraryError::Internal(format!("saved setup {} no longer reads", saved.id)))?;
    Ok(Some(setup.for_color(color)))
}
