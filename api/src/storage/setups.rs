//! The setup library: one row per saved setup.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use crate::db::DbConnection;
use crate::schema::saved_setups;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = saved_setups)]
pub struct SavedSetupRow {
    pub id: String,
    pub user_id: String,
    pub variant: String,
    pub name: String,
    /// JSON object: square -> piece, as written for Red.
    pub placement: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// Whether an error says that the user has a setup of that name already.
fn name_taken(error: &DieselError) -> bool {
    matches!(
        error,
        DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)
    )
}

/// Inserts a setup; `Ok(false)` when its user has one of that name and
/// variant.
pub fn insert(conn: &mut DbConnection, row: &SavedSetupRow) -> QueryResult<bool> {
    match diesel::insert_into(saved_setups::table)
        .values(row)
        .execute(conn)
    {
        Ok(_) => Ok(true),
        Err(e) if name_taken(&e) => Ok(false),
        Err(e) => Err(e),
    }
}

/// How many setups `user_id` has saved.
pub fn count_of_user(conn: &mut DbConnection, user_id: &str) -> QueryResult<i64> {
    saved_setups::table
        .filter(saved_setups::user_id.eq(user_id))
        .count()
        .get_result(conn)
}

/// The setups of `user_id` (of one variant, if given), by variant and name.
pub fn list(
    conn: &mut DbConnection,
    user_id: &str,
    variant: Option<&str>,
) -> QueryResult<Vec<SavedSetupRow>> {
    let mut query = saved_setups::table
        .filter(saved_setups::user_id.eq(user_id))
        .into_boxed();
    if let Some(variant) = variant {
        query = query.filter(saved_setups::variant.eq(variant.to_owned()));
    }
    query
        .order((saved_setups::variant.asc(), saved_setups::name.asc()))
        .select(SavedSetupRow::as_select())
        .load(conn)
}

/// Setup `id`, if `user_id` owns it.
pub fn find(
    conn: &mut DbConnection,
    user_id: &str,
    id: &str,
) -> QueryResult<Option<SavedSetupRow>> {
    saved_setups::table
        .filter(saved_setups::id.eq(id))
        .filter(saved_setups::user_id.eq(user_id))
        .select(SavedSetupRow::as_select())
        .get_result(conn)
        .optional()
}

/// The setup of `user_id` named `name` for `variant`.
pub fn find_by_name(
    conn: &mut DbConnection,
    user_id: &str,
    variant: &str,
    name: &str,
) -> QueryResult<Option<SavedSetupRow>> {
    saved_setups::table
        .filter(saved_setups::user_id.eq(user_id))
        .filter(saved_setups::variant.eq(variant))
        .filter(saved_setups::name.eq(name))
        .select(SavedSetupRow::as_select())
        .get_result(conn)
        .optional()
}

/// Replaces the name, variant and placement of setup `id` of `user_id`.
/// `Ok(None)` if there is no such setup, `Ok(Some(false))` if the new name
/// is taken.
pub fn update(
    conn: &mut DbConnection,
    user_id: &str,
    row: &SavedSetupRow,
) -> QueryResult<Option<bool>> {
    let updated = diesel::update(
        saved_setups::table
            .filter(saved_setups::id.eq(&row.id))
            .filter(saved_setups::user_id.eq(user_id)),
    )
    .set((
        saved_setups::name.eq(&row.name),
        saved_setups::variant.eq(&row.variant),
        saved_setups::placement.eq(&row.placement),
        saved_setups::updated_at.eq(row.updated_at),
    ))
    .execute(conn);
    match updated {
        Ok(0) => Ok(None),
        Ok(_) => Ok(Some(true)),
        Err(e) if name_taken(&e) => Ok(Some(false)),
        Err(e) => Err(e),
    }
}

/// Deletes setup `id` of `user_id`; whether there was one.
pub fn delete(conn: &mut DbConnection, user_id: &str, id: &str) -> QueryResult<bool> {
    let deleted = diesel::delete(
        saved_setups::table
            .filter(saved_setups::id.eq(id))
            .filter(saved_setups::user_id.eq(user_id)),
    )
    .execute(conn)?;
    Ok(deleted == 1)
}

/// Deletes every setup of `user_id` (the account is being deleted).
pub fn delete_all_of_user(conn: &mut DbConnection, user_id: &str) -> QueryResult<usize> {
    diesel::delete(saved_setups::table.filter(saved_setups::user_id.eq(user_id))).execute(conn)
}
