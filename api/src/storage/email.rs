//! Players' e-mail addresses (docs/notifications.md, "E-mail"): the
//! address, whether it is verified, the pending code (its SHA-256 only)
//! and when the last digest went out.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::schema::email_addresses;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = email_addresses)]
pub struct EmailRow {
    pub user_id: String,
    pub address: String,
    /// The address in lower case: what "the same address" compares.
    pub address_key: String,
    pub verified_at: Option<NaiveDateTime>,
    /// base64url SHA-256 of the code sent to the address, while one is
    /// pending.
    pub code_hash: Option<String>,
    pub code_sent_at: Option<NaiveDateTime>,
    /// Codes tried against the pending code (wrong or right).
    pub code_attempts: i32,
    /// Codes sent since `codes_since` (a day's window).
    pub codes_sent: i32,
    pub codes_since: Option<NaiveDateTime>,
    pub last_digest_at: Option<NaiveDateTime>,
    /// Until when one process holds the right to send this player's digest.
    pub digest_lease_until: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
}

pub fn find(conn: &mut DbConnection, user_id: &str) -> QueryResult<Option<EmailRow>> {
    email_addresses::table
        .find(user_id)
        .select(EmailRow::as_select())
        .get_result(conn)
        .optional()
}

/// The verified addresses of `users` that have one, in one statement.
pub fn find_verified(conn: &mut DbConnection, users: &[&str]) -> QueryResult<Vec<EmailRow>> {
    if users.is_empty() {
        return Ok(Vec::new());
    }
    email_addresses::table
        .filter(email_addresses::user_id.eq_any(users))
        .filter(email_addresses::verified_at.is_not_null())
        .select(EmailRow::as_select())
        .load(conn)
}

/// Replaces the address of `row.user_id` with `row`.
pub fn put(conn: &mut DbConnection, row: &EmailRow) -> QueryResult<()> {
    diesel::delete(email_addresses::table.find(&row.user_id)).execute(conn)?;
    diesel::insert_into(email_addresses::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

/// Counts one try of the pending code of `user_id`, if it may still be
/// tried (unverified, a code pending, fewer than `max` tries): one
/// statement, so that tries sent at once are all counted. Returns whether
/// this try was allowed.
pub fn try_code(conn: &mut DbConnection, user_id: &str, max: i32) -> QueryResult<bool> {
    diesel::update(
        email_addresses::table
            .find(user_id)
            .filter(email_addresses::verified_at.is_null())
            .filter(email_addresses::code_hash.is_not_null())
            .filter(email_addresses::code_attempts.lt(max)),
    )
    .set(email_addresses::code_attempts.eq(email_addresses::code_attempts + 1))
    .execute(conn)
    .map(|n| n > 0)
}

/// Accounts other than `user_id` waiting for a code sent to `address_key`
/// after `since`.
pub fn others_waiting_at(
    conn: &mut DbConnection,
    address_key: &str,
    user_id: &str,
    since: NaiveDateTime,
) -> QueryResult<i64> {
    email_addresses::table
        .filter(email_addresses::address_key.eq(address_key))
        .filter(email_addresses::user_id.ne(user_id))
        .filter(email_addresses::verified_at.is_null())
        .filter(email_addresses::code_sent_at.gt(since))
        .count()
        .get_result(conn)
}

/// The address is verified at `at`; its code is spent.
pub fn verified(conn: &mut DbConnection, user_id: &str, at: NaiveDateTime) -> QueryResult<()> {
    diesel::update(email_addresses::table.find(user_id))
        .set((
            email_addresses::verified_at.eq(Some(at)),
            email_addresses::code_hash.eq(None::<String>),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Takes the right to send the digest of `user_id` until `until`, if the
/// address is verified and no other process holds it (its lease ended by
/// `now`). Returns whether it was taken.
pub fn take_digest_lease(
    conn: &mut DbConnection,
    user_id: &str,
    now: NaiveDateTime,
    until: NaiveDateTime,
) -> QueryResult<bool> {
    diesel::update(
        email_addresses::table
            .find(user_id)
            .filter(email_addresses::verified_at.is_not_null())
            .filter(
                email_addresses::digest_lease_until
                    .is_null()
                    .or(email_addresses::digest_lease_until.le(now)),
            ),
    )
    .set(email_addresses::digest_lease_until.eq(Some(until)))
    .execute(conn)
    .map(|n| n > 0)
}

/// Gives the digest lease of `user_id` back; `sent_at`: a digest went out
/// then, which starts the player's next day.
pub fn digest_done(
    conn: &mut DbConnection,
    user_id: &str,
    sent_at: Option<NaiveDateTime>,
) -> QueryResult<()> {
    let row = email_addresses::table.find(user_id);
    let lease = email_addresses::digest_lease_until.eq(None::<NaiveDateTime>);
    match sent_at {
        Some(at) => diesel::update(row)
            .set((lease, email_addresses::last_digest_at.eq(Some(at))))
            .execute(conn),
        None => diesel::update(row).set(lease).execute(conn),
    }
    .map(|_| ())
}

/// Gives the digest lease of `user_id` back if it is still the one taken
/// until `lease` (a stop interrupted the digest before it went out).
pub fn release_digest_lease(
    conn: &mut DbConnection,
    user_id: &str,
    lease: NaiveDateTime,
) -> QueryResult<()> {
    diesel::update(
        email_addresses::table
            .find(user_id)
            .filter(email_addresses::digest_lease_until.eq(Some(lease))),
    )
    .set(email_addresses::digest_lease_until.eq(None::<NaiveDateTime>))
    .execute(conn)
    .map(|_| ())
}

/// The relay refused the address for good: it must be verified again
/// before more mail goes there.
pub fn unverify(conn: &mut DbConnection, user_id: &str) -> QueryResult<()> {
    diesel::update(email_addresses::table.find(user_id))
        .set(email_addresses::verified_at.eq(None::<NaiveDateTime>))
        .execute(conn)
        .map(|_| ())
}

/// Forgets the address of `user_id`; returns whether there was one.
pub fn delete(conn: &mut DbConnection, user_id: &str) -> QueryResult<bool> {
    diesel::delete(email_addresses::table.find(user_id))
        .execute(conn)
        .map(|n| n > 0)
}

/// Whether `user_id` has a verified address.
pub fn has_verified(conn: &mut DbConnection, user_id: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        email_addresses::table
            .find(user_id)
            .filter(email_addresses::verified_at.is_not_null()),
    ))
    .get_result(conn)
}
