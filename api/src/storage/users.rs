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

pub fn find_by_username(conn: &mut DbConnection, username: &str) -> QueryResult<Option<UserRow>> {
    users::table
        .filter(users::username_key.eq(username_key(username)))
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
