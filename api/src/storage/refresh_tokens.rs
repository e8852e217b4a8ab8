use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::schema::refresh_tokens;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = refresh_tokens)]
pub struct RefreshTokenRow {
    pub id: String,
    pub user_id: String,
    pub family_id: String,
    pub token_hash: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub used_at: Option<NaiveDateTime>,
    pub revoked_at: Option<NaiveDateTime>,
}

pub fn insert(conn: &mut DbConnection, row: &RefreshTokenRow) -> QueryResult<()> {
    diesel::insert_into(refresh_tokens::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

pub fn find_by_hash(conn: &mut DbConnection, hash: &str) -> QueryResult<Option<RefreshTokenRow>> {
    refresh_tokens::table
        .filter(refresh_tokens::token_hash.eq(hash))
        .select(RefreshTokenRow::as_select())
        .get_result(conn)
        .optional()
}

/// Marks a live token used. `false` means it was no longer live (used or
/// revoked by a concurrent request): the caller treats that as reuse.
pub fn mark_used(conn: &mut DbConnection, id: &str, now: NaiveDateTime) -> QueryResult<bool> {
    let updated = diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::id.eq(id))
            .filter(refresh_tokens::used_at.is_null())
            .filter(refresh_tokens::revoked_at.is_null()),
    )
    .set(refresh_tokens::used_at.eq(now))
    .execute(conn)?;
    Ok(updated == 1)
}

/// Revokes every token of a login (its family) not yet revoked; returns
/// how many were live.
pub fn revoke_family(
    conn: &mut DbConnection,
    family_id: &str,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::family_id.eq(family_id))
            .filter(refresh_tokens::revoked_at.is_null()),
    )
    .set(refresh_tokens::revoked_at.eq(now))
    .execute(conn)
}

/// Revokes every token of `user_id` not yet revoked; returns the families
/// (sessions) that had one, each once. Run it inside a transaction.
pub fn revoke_all_of_user(
    conn: &mut DbConnection,
    user_id: &str,
    now: NaiveDateTime,
) -> QueryResult<Vec<String>> {
    let live = refresh_tokens::table
        .filter(refresh_tokens::user_id.eq(user_id))
        .filter(refresh_tokens::revoked_at.is_null());
    let families: Vec<String> = live
        .select(refresh_tokens::family_id)
        .distinct()
        .order(refresh_tokens::family_id)
        .load(conn)?;
    diesel::update(live)
        .set(refresh_tokens::revoked_at.eq(now))
        .execute(conn)?;
    Ok(families)
}

/// `(family, revoked_at)` of the sessions revoked after `since`.
pub fn revoked_since(
    conn: &mut DbConnection,
    since: NaiveDateTime,
) -> QueryResult<Vec<(String, NaiveDateTime)>> {
    let rows: Vec<(String, Option<NaiveDateTime>)> = refresh_tokens::table
        .filter(refresh_tokens::revoked_at.gt(since))
        .select((refresh_tokens::family_id, refresh_tokens::revoked_at))
        .distinct()
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(family, at)| Some((family, at?)))
        .collect())
}
