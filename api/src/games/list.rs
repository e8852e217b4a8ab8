//! `list`: a page of games (public facts only), newest first or, for
//! `my_turn`, nearest deadline first; keyset pagination by cursor.

use base64::Engine;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::answers::{summary, GameSummary};
use super::error::GameError;
use super::fetch::{names_for, Names};
use super::record::{GameRecord, Status};
use super::requests::ListQuery;
use super::{clock, Context};
use crate::db::{self, DbConnection};
use crate::storage::games::{self as store, GameRow, ListFilter, ListOrder};
use crate::storage::to_db_time;

/// Default and largest page size of `GET /games`.
pub const DEFAULT_PAGE: i64 = 20;
pub const MAX_PAGE: i64 = 100;

/// A page of games.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct GamePage {
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` to get the next page; null on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

const CURSOR_NEWEST: &str = "n";
const CURSOR_DEADLINE: &str = "d";

fn encode_cursor(order: ListOrder, time: DateTime<Utc>, id: Uuid) -> String {
    let tag = match order {
        ListOrder::Newest => CURSOR_NEWEST,
        ListOrder::Deadline => CURSOR_DEADLINE,
    };
    let text = format!("{tag}|{}|{id}", time.timestamp_micros());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(text)
}

fn decode_cursor(cursor: &str, order: ListOrder) -> Result<(DateTime<Utc>, Uuid), GameError> {
    let bad = || GameError::Unreadable("cursor is not a next_cursor of this listing".into());
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor)
        .map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let mut parts = text.splitn(3, '|');
    let (Some(tag), Some(micros), Some(id)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    let expected = match order {
        ListOrder::Newest => CURSOR_NEWEST,
        ListOrder::Deadline => CURSOR_DEADLINE,
    };
    if tag != expected {
        return Err(bad());
    }
    let micros: i64 = micros.parse().map_err(|_| bad())?;
    let time = DateTime::from_timestamp_micros(micros).ok_or_else(bad)?;
    let id = Uuid::parse_str(id).map_err(|_| bad())?;
    Ok((time, id))
}

pub async fn list(ctx: &Context, user: Uuid, query: ListQuery) -> Result<GamePage, GameError> {
    let limit = query.limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(GameError::Unreadable(format!(
            "limit must be between 1 and {MAX_PAGE}"
        )));
    }
    // End whatever is overdue first (usually nothing: one indexed query),
    // so that no listing shows a game as running after its deadline.
    let now = ctx.clock.now();
    clock::sweep_overdue(ctx, now).await?;
    let my_turn = query.my_turn.unwrap_or(false);
    let order = if my_turn {
        ListOrder::Deadline
    } else {
        ListOrder::Newest
    };
    let after = query
        .cursor
        .as_deref()
        .map(|c| decode_cursor(c, order))
        .transpose()?
        .map(|(time, id)| (to_db_time(time), id.to_string()));
    let me = user.to_string();
    let filter = ListFilter {
        status: query.status.map(Status::as_str),
        mine: query.mine.unwrap_or(false).then(|| me.clone()),
        my_turn: my_turn.then(|| me.clone()),
        order,
        after,
        limit: limit + 1,
    };
    db::run_as(&ctx.pool, move |conn| {
        let rows = store::list(conn, &filter)?;
        let more = rows.len() as i64 > limit;
        let records = records_of(&rows[..rows.len().min(usize::try_from(limit).unwrap_or(0))])?;
        let names = names_of_records(conn, &records)?;
        let next_cursor = match (more, records.last()) {
            (true, Some(last)) => {
                let time = match order {
                    ListOrder::Newest => Some(last.created_at),
                    ListOrder::Deadline => last.deadline,
                };
                time.map(|t| encode_cursor(order, t, last.id))
            }
            _ => None,
        };
        Ok(GamePage {
            games: records.iter().map(|r| summary(r, &names, now)).collect(),
            next_cursor,
        })
    })
    .await
}

fn records_of(rows: &[GameRow]) -> Result<Vec<GameRecord>, GameError> {
    Ok(rows
        .iter()
        .map(GameRecord::from_row)
        .collect::<Result<Vec<_>, _>>()?)
}

fn names_of_records(conn: &mut DbConnection, records: &[GameRecord]) -> Result<Names, GameError> {
    let refs: Vec<&GameRecord> = records.iter().collect();
    names_for(conn, &refs)
}

/// The summaries of `rows`, in their order, for listings outside this
/// module (profiles): public facts only, like `GET /games`.
pub fn summaries(
    conn: &mut DbConnection,
    rows: &[GameRow],
    now: DateTime<Utc>,
) -> Result<Vec<GameSummary>, GameError> {
    let records = records_of(rows)?;
    let names = names_of_records(conn, &records)?;
    Ok(records.iter().map(|r| summary(r, &names, now)).collect())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn cursors_round_trip_and_belong_to_their_ordering() {
        let time = DateTime::from_timestamp_micros(1_795_000_000_123_456).unwrap();
        let id = Uuid::new_v4();
        let cursor = encode_cursor(ListOrder::Newest, time, id);
        assert_eq!(
            decode_cursor(&cursor, ListOrder::Newest).unwrap(),
            (time, id)
        );
        assert!(decode_cursor(&cursor, ListOrder::Deadline).is_err());
        assert!(decode_cursor("not a cursor", ListOrder::Newest).is_err());
        assert!(decode_cursor("", ListOrder::Newest).is_err());
    }
}
