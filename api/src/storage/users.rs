use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use crate::db::DbConnection;
use crate::schema::users;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: String,
    pub username: String,
    pub username_key: String,
    pub password_hash: String,
    pub created_at: NaiveDateTime,
    /// When the account was deleted (its name and password are erased).
    pub deleted_at: Option<NaiveDateTime>,
}

/// The key that makes usernames unique regardless of case.
pub fn username_key(username: &str) -> String {
    username.to_ascii_lowercase()
}

/// Inserts a user; `Ok(false)` when the name (in any case) is taken.
pub fn insert(conn: &mut DbConnection, user: &UserRow) -> QueryResult<bool> {
    match diesel::insert_into(users::table).values(user).execute(conn) {
        Ok(_) => Ok(true),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(false),
        Err(other) => Err(other),
    }
}

/// The live account with this name (a deleted account has none).
pub fn find_by_username(conn: &mut DbConnection, username: &str) -> QueryResult<Option<UserRow>> {
    users::table
        .filter(users::username_key.eq(username_key(username)))
        .filter(users::deleted_at.is_null())
        .select(UserRow::as_select())
        .get_result(conn)
        .optional()
}

pub fn find_by_id(conn: &mut DbConnection, id: &str) -> QueryResult<Option<UserRow>> {
    users::table
        .find(id)
        .select(UserRow::as_select())
        .get_result(conn)
        .optional()
}

/// Replaces the password hash of a live account; `false` if there is none.
pub fn set_password_hash(conn: &mut DbConnection, id: &str, hash: &str) -> QueryResult<bool> {
    let updated = diesel::update(
        users::table
            .filter(users::id.eq(id))
            .filter(users::deleted_at.is_null()),
    )
    .set(users::password_hash.eq(hash))
    .execute(conn)?;
    Ok(updated == 1)
}

/// Marks a live account deleted, replacing its name, name key and password
/// hash with the given tombstone values; `false` if it was not live.
pub fn mark_deleted(
    conn: &mut DbConnection,
    id: &str,
    tombstone: &UserTombstone<'_>,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let updated = diesel::update(
        users::table
            .filter(users::id.eq(id))
            .filter(users::deleted_at.is_null()),
    )
    .set((
        users::username.eq(tombstone.username),
        users::username_key.eq(&tombstone.username_key),
        users::password_hash.eq(tombstone.password_hash),
        users::deleted_at.eq(now),
    ))
    .execute(conn)?;
    Ok(updated == 1)
}

/// What a deleted account's row keeps in place of its name and password.
pub struct UserTombstone<'a> {
    pub username: &'a str,
    /// Unique per account, and never the key of a name one can register.
    pub username_key: String,
    /// Matches no password.
    pub password_hash: &'a str,
}

/// How [`live`] holds the account's row until the end of the transaction
/// (PostgreSQL; SQLite runs one write at a time and takes no row lock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowLock {
    /// A plain read.
    None,
    /// `FOR SHARE`: a write made on behalf of the account (a saved setup)
    /// either commits before a deletion of the account takes the row, and
    /// is then removed by it, or waits for the deletion and sees it.
    Share,
    /// `FOR NO KEY UPDATE`, taken by every change to the account's sessions
    /// before any refresh token is read or written: a refresh (rotation or
    /// reuse), a login, a logout, logging out everywhere (a password change
    /// and a deletion update the row itself). So a rotation either commits
    /// before a revocation, whose statements then see its new token, or
    /// waits for it and then sees its own token revoked (docs/accounts.md,
    /// "Ending sessions and rotation"). A foreign key's check does not wait
    /// for it.
    Sessions,
}

/// Account `id` if it exists and is not deleted, its row held as `lock`
/// says.
pub fn live(conn: &mut DbConnection, id: &str, lock: RowLock) -> QueryResult<Option<UserRow>> {
    // Built in each arm: the selection's backend is fixed by its use.
    macro_rules! query {
        () => {
            users::table
                .filter(users::id.eq(id))
                .filter(users::deleted_at.is_null())
                .select(UserRow::as_select())
        };
    }
    match (conn, lock) {
        (DbConnection::Postgresql(pg), RowLock::Share) => {
            query!().for_share().get_result(pg).optional()
        }
        (DbConnection::Postgresql(pg), RowLock::Sessions) => {
            query!().for_no_key_update().get_result(pg).optional()
        }
        (conn, _) => query!().get_result(conn).optional(),
    }
}
