//! The `vacations` table (docs/lifecycle.md, "Vacation"), and the games a
//! vacation stops the clocks of.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::games::status;
use crate::db::DbConnection;
use crate::schema::{games, vacations};

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = vacations, treat_none_as_null = true)]
pub struct VacationRow {
    pub user_id: String,
    /// The year `budget_days` are of.
    pub budget_year: i32,
    /// Days left of `budget_year`'s, before the vacation in progress.
    pub budget_days: i64,
    /// Set while on vacation: since when.
    pub since: Option<NaiveDateTime>,
    /// Set while on vacation: when it ends by itself.
    pub ends_at: Option<NaiveDateTime>,
    /// The end the player asked for, if they did.
    pub until: Option<NaiveDateTime>,
    pub message: Option<String>,
    /// Whether a clock running out starts a vacation instead of a loss.
    pub auto: bool,
    /// +1 with every write.
    pub version: i64,
    pub updated_at: NaiveDateTime,
}

pub fn find(conn: &mut DbConnection, user_id: &str) -> QueryResult<Option<VacationRow>> {
    vacations::table
        .find(user_id)
        .select(VacationRow::as_select())
        .get_result(conn)
        .optional()
}

/// The rows of these players (those that have one).
pub fn of_users(conn: &mut DbConnection, user_ids: &[String]) -> QueryResult<Vec<VacationRow>> {
    vacations::table
        .filter(vacations::user_id.eq_any(user_ids))
        .select(VacationRow::as_select())
        .load(conn)
}

/// Writes `row` (whose `version` is the new one) if the stored row is
/// still at the version before it (no row, for version 1). `false`:
/// another write came first, and nothing was written.
pub fn save(conn: &mut DbConnection, row: &VacationRow) -> QueryResult<bool> {
    let written = if row.version == 1 {
        match diesel::insert_into(vacations::table)
            .values(row)
            .execute(conn)
        {
            Err(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            )) => 0,
            other => other?,
        }
    } else {
        diesel::update(
            vacations::table
                .find(&row.user_id)
                .filter(vacations::version.eq(row.version - 1)),
        )
        .set(row)
        .execute(conn)?
    };
    Ok(written == 1)
}

/// The players on vacation whose vacation ends by `now` at the latest, at
/// most `limit`.
pub fn ended_by(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<String>> {
    vacations::table
        .filter(vacations::ends_at.le(now))
        .order((vacations::ends_at.asc(), vacations::user_id.asc()))
        .limit(limit)
        .select(vacations::user_id)
        .load(conn)
}

/// Every player on vacation, with when it ends.
pub fn on_vacation(conn: &mut DbConnection) -> QueryResult<Vec<(String, NaiveDateTime)>> {
    vacations::table
        .filter(vacations::ends_at.is_not_null())
        .select((vacations::user_id, vacations::ends_at.assume_not_null()))
        .load(conn)
}

/// The ids of the games `user_id` plays that are in `setup` or `playing`.
pub fn games_in_progress(conn: &mut DbConnection, user_id: &str) -> QueryResult<Vec<String>> {
    games::table
        .filter(games::status.eq_any(status::CLOCKED))
        .filter(
            games::red_user_id
                .eq(user_id)
                .or(games::blue_user_id.eq(user_id)),
        )
        .order(games::id.asc())
        .select(games::id)
        .load(conn)
}
