//! Reading a game and the usernames its answers mention (inside whatever
//! transaction the caller holds).

use std::collections::HashMap;

use uuid::Uuid;

use super::error::GameError;
use super::record::GameRecord;
use crate::db::{DbConnection, DbPool, StoreError};
use crate::storage::games::{self as store, GameRow};

/// Usernames of the users an answer mentions.
pub type Names = HashMap<Uuid, String>;

pub fn load(conn: &mut DbConnection, id: Uuid) -> Result<GameRecord, GameError> {
    let row = store::find(conn, &id.to_string())?.ok_or(GameError::NotFound)?;
    Ok(GameRecord::from_row(&row)?)
}

pub fn names_for(conn: &mut DbConnection, records: &[&GameRecord]) -> Result<Names, GameError> {
    let mut ids: Vec<String> = records
        .iter()
        .flat_map(|r| {
            [Some(r.creator), r.red, r.blue, r.challenged]
                .into_iter()
                .flatten()
        })
        .map(|u| u.to_string())
        .collect();
    ids.sort();
    ids.dedup();
    Ok(names_of(store::usernames(conn, &ids)?))
}

fn names_of(pairs: Vec<(String, String)>) -> Names {
    pairs
        .into_iter()
        .filter_map(|(id, name)| Some((Uuid::parse_str(&id).ok()?, name)))
        .collect()
}

/// Game `id` and the usernames it mentions, in one statement.
pub fn load_with_names(
    conn: &mut DbConnection,
    id: Uuid,
) -> Result<(GameRecord, Names), GameError> {
    let (row, names) = row_with_names(conn, id)?;
    Ok((GameRecord::from_row(&row)?, names))
}

/// [`load_with_names`] with the game as stored, not yet decoded.
pub fn row_with_names(conn: &mut DbConnection, id: Uuid) -> Result<(GameRow, Names), GameError> {
    let (row, users) = store::find_with_names(conn, &id.to_string())?.ok_or(GameError::NotFound)?;
    Ok((row, names_of(users)))
}

/// [`row_with_names`] without a blocking thread: on PostgreSQL on the
/// calling HTTP worker's own connection, taken together with the other
/// reads of games waiting meanwhile (`DbPool::read_by_key`); on SQLite by
/// the worker itself, on a connection of the pool idle at once
/// (`DbPool::read_idle_here`). `None`: not to be had now; read with
/// [`row_with_names`] instead.
pub async fn row_with_names_async(
    pool: &DbPool,
    id: Uuid,
) -> Option<Result<(GameRow, Names), GameError>> {
    let found = pool
        .read_by_key(id.to_string(), |conn, keys| {
            Box::pin(store::find_many_with_names_async(conn, keys))
        })
        .await;
    let found = match found {
        Some(found) => found,
        None => pool.read_idle_here(|conn| {
            store::find_with_names(conn, &id.to_string()).map_err(StoreError::from)
        })?,
    };
    Some(match found {
        Ok(Some((row, users))) => Ok((row, names_of(users))),
        Ok(None) => Err(GameError::NotFound),
        Err(error) => Err(error.into()),
    })
}
