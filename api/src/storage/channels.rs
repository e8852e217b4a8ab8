//! The channels a player registered to be reached outside the app (Web
//! Push subscriptions, webhooks), their notification preferences, and the
//! cursor of their events already turned into deliveries
//! (docs/notifications.md).

use std::collections::HashSet;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::DbConnection;
use crate::schema::{notification_cursors, notification_preferences, push_subscriptions, webhooks};

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = push_subscriptions)]
pub struct PushSubscriptionRow {
    pub id: String,
    pub user_id: String,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub expiration_time: Option<NaiveDateTime>,
    /// JSON array of event names, or `None` for all.
    pub events: Option<String>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = webhooks)]
pub struct WebhookRow {
    pub id: String,
    pub user_id: String,
    pub url: String,
    pub secret: String,
    pub events: Option<String>,
    pub state: String,
    pub disabled_reason: Option<String>,
    pub consecutive_failures: i32,
    pub created_at: NaiveDateTime,
}

/// The values of `webhooks.state`.
pub mod webhook_state {
    pub const ACTIVE: &str = "active";
    pub const DISABLED: &str = "disabled";
}

/// How many push subscriptions `user_id` has.
pub fn count_push(conn: &mut DbConnection, user_id: &str) -> QueryResult<i64> {
    push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user_id))
        .count()
        .get_result(conn)
}

/// Inserts a subscription, or replaces the keys, expiry and events of the
/// user's subscription to the same endpoint (a browser that subscribes
/// again gets new keys for the same endpoint). Returns the stored row.
pub fn upsert_push(
    conn: &mut DbConnection,
    row: &PushSubscriptionRow,
) -> QueryResult<PushSubscriptionRow> {
    let mine = push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(&row.user_id))
        .filter(push_subscriptions::endpoint.eq(&row.endpoint));
    let replaced = diesel::update(mine)
        .set((
            push_subscriptions::p256dh.eq(&row.p256dh),
            push_subscriptions::auth.eq(&row.auth),
            push_subscriptions::expiration_time.eq(row.expiration_time),
            push_subscriptions::events.eq(&row.events),
        ))
        .execute(conn)?;
    if replaced == 0 {
        diesel::insert_into(push_subscriptions::table)
            .values(row)
            .execute(conn)?;
        return Ok(row.clone());
    }
    mine.select(PushSubscriptionRow::as_select())
        .get_result(conn)
}

/// Whether `user_id` already has a subscription to `endpoint`.
pub fn has_push_endpoint(
    conn: &mut DbConnection,
    user_id: &str,
    endpoint: &str,
) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        push_subscriptions::table
            .filter(push_subscriptions::user_id.eq(user_id))
            .filter(push_subscriptions::endpoint.eq(endpoint)),
    ))
    .get_result(conn)
}

/// The subscriptions of `user_id`, oldest first.
pub fn list_push(conn: &mut DbConnection, user_id: &str) -> QueryResult<Vec<PushSubscriptionRow>> {
    push_subscriptions::table
        .filter(push_subscriptions::user_id.eq(user_id))
        .order((
            push_subscriptions::created_at.asc(),
            push_subscriptions::id.asc(),
        ))
        .select(PushSubscriptionRow::as_select())
        .load(conn)
}

/// Deletes subscription `id` if `user_id` owns it (`None`: anyone's).
/// Its pending deliveries go with it.
pub fn delete_push(conn: &mut DbConnection, user_id: Option<&str>, id: &str) -> QueryResult<bool> {
    let mut query = diesel::delete(push_subscriptions::table)
        .filter(push_subscriptions::id.eq(id))
        .into_boxed();
    if let Some(user_id) = user_id {
        query = query.filter(push_subscriptions::user_id.eq(user_id));
    }
    Ok(query.execute(conn)? > 0)
}

/// Of push subscriptions `push` and webhooks `hooks`, those that still
/// exist (and, for the webhooks, are active).
pub fn still_live(
    conn: &mut DbConnection,
    push: &[&str],
    hooks: &[&str],
) -> QueryResult<(HashSet<String>, HashSet<String>)> {
    let push_live = match push.is_empty() {
        true => Vec::new(),
        false => push_subscriptions::table
            .filter(push_subscriptions::id.eq_any(push))
            .select(push_subscriptions::id)
            .load(conn)?,
    };
    let hooks_live = match hooks.is_empty() {
        true => Vec::new(),
        false => webhooks::table
            .filter(webhooks::id.eq_any(hooks))
            .filter(webhooks::state.eq(webhook_state::ACTIVE))
            .select(webhooks::id)
            .load(conn)?,
    };
    Ok((
        push_live.into_iter().collect(),
        hooks_live.into_iter().collect(),
    ))
}

/// How many webhooks `user_id` has.
pub fn count_webhooks(conn: &mut DbConnection, user_id: &str) -> QueryResult<i64> {
    webhooks::table
        .filter(webhooks::user_id.eq(user_id))
        .count()
        .get_result(conn)
}

pub fn insert_webhook(conn: &mut DbConnection, row: &WebhookRow) -> QueryResult<()> {
    diesel::insert_into(webhooks::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

/// The webhooks of `user_id`, oldest first.
pub fn list_webhooks(conn: &mut DbConnection, user_id: &str) -> QueryResult<Vec<WebhookRow>> {
    webhooks::table
        .filter(webhooks::user_id.eq(user_id))
        .order((webhooks::created_at.asc(), webhooks::id.asc()))
        .select(WebhookRow::as_select())
        .load(conn)
}

/// Webhook `id`, if `user_id` owns it (`None`: anyone's).
pub fn find_webhook(
    conn: &mut DbConnection,
    user_id: Option<&str>,
    id: &str,
) -> QueryResult<Option<WebhookRow>> {
    let mut query = webhooks::table
        .filter(webhooks::id.eq(id))
        .select(WebhookRow::as_select())
        .into_boxed();
    if let Some(user_id) = user_id {
        query = query.filter(webhooks::user_id.eq(user_id));
    }
    query.get_result(conn).optional()
}

/// Deletes webhook `id` if `user_id` owns it, with its deliveries.
pub fn delete_webhook(conn: &mut DbConnection, user_id: &str, id: &str) -> QueryResult<bool> {
    Ok(diesel::delete(
        webhooks::table
            .filter(webhooks::id.eq(id))
            .filter(webhooks::user_id.eq(user_id)),
    )
    .execute(conn)?
        > 0)
}

/// Records the outcome of a delivery to webhook `id`: a success resets its
/// count of failures in a row and makes it active again; a failure adds
/// one, and at `disable_after` the webhook is disabled with `reason`.
/// Returns whether this call disabled it.
pub fn webhook_outcome(
    conn: &mut DbConnection,
    id: &str,
    succeeded: bool,
    disable_after: i32,
    reason: &str,
) -> QueryResult<bool> {
    use webhook_state::{ACTIVE, DISABLED};
    if succeeded {
        // Only a webhook that had failed changes (most answers find it
        // active with no failures, and write nothing).
        webhooks_succeeded(conn, &[id])?;
        return Ok(false);
    }
    diesel::update(webhooks::table.find(id))
        .set(webhooks::consecutive_failures.eq(webhooks::consecutive_failures + 1))
        .execute(conn)?;
    let disabled = diesel::update(
        webhooks::table
            .find(id)
            .filter(webhooks::state.eq(ACTIVE))
            .filter(webhooks::consecutive_failures.ge(disable_after)),
    )
    .set((
        webhooks::state.eq(DISABLED),
        webhooks::disabled_reason.eq(reason),
    ))
    .execute(conn)?;
    Ok(disabled > 0)
}

/// The stored preferences (JSON) of `user_id`, if they set any.
pub fn preferences(conn: &mut DbConnection, user_id: &str) -> QueryResult<Option<String>> {
    notification_preferences::table
        .find(user_id)
        .select(notification_preferences::channels)
        .get_result(conn)
        .optional()
}

/// What the fan-out reads of the players of one pass, one statement each
/// for all of them: their stored preferences, push subscriptions and
/// webhooks (oldest first, as [`list_push`] and [`list_webhooks`] give one
/// player's).
pub struct ChannelsOf {
    pub preferences: Vec<(String, String)>,
    pub push: Vec<PushSubscriptionRow>,
    pub webhooks: Vec<WebhookRow>,
}

pub fn channels_of(conn: &mut DbConnection, users: &[&str]) -> QueryResult<ChannelsOf> {
    if users.is_empty() {
        return Ok(ChannelsOf {
            preferences: Vec::new(),
            push: Vec::new(),
            webhooks: Vec::new(),
        });
    }
    let preferences = notification_preferences::table
        .filter(notification_preferences::user_id.eq_any(users))
        .select((
            notification_preferences::user_id,
            notification_preferences::channels,
        ))
        .load(conn)?;
    let push = push_subscriptions::table
        .filter(push_subscriptions::user_id.eq_any(users))
        .order((
            push_subscriptions::created_at.asc(),
            push_subscriptions::id.asc(),
        ))
        .select(PushSubscriptionRow::as_select())
        .load(conn)?;
    let webhooks = webhooks::table
        .filter(webhooks::user_id.eq_any(users))
        .order((webhooks::created_at.asc(), webhooks::id.asc()))
        .select(WebhookRow::as_select())
        .load(conn)?;
    Ok(ChannelsOf {
        preferences,
        push,
        webhooks,
    })
}

/// The push subscriptions `push` and webhooks `hooks` that exist, whoever
/// owns them (what the deliveries of one claim go to), in one statement
/// each.
pub fn find_targets(
    conn: &mut DbConnection,
    push: &[&str],
    hooks: &[&str],
) -> QueryResult<(Vec<PushSubscriptionRow>, Vec<WebhookRow>)> {
    let push = match push.is_empty() {
        true => Vec::new(),
        false => push_subscriptions::table
            .filter(push_subscriptions::id.eq_any(push))
            .select(PushSubscriptionRow::as_select())
            .load(conn)?,
    };
    let hooks = match hooks.is_empty() {
        true => Vec::new(),
        false => webhooks::table
            .filter(webhooks::id.eq_any(hooks))
            .select(WebhookRow::as_select())
            .load(conn)?,
    };
    Ok((push, hooks))
}

/// Records that deliveries to webhooks `ids` succeeded: [`webhook_outcome`]
/// of a success for each, in one statement.
pub fn webhooks_succeeded(conn: &mut DbConnection, ids: &[&str]) -> QueryResult<()> {
    use webhook_state::ACTIVE;
    if ids.is_empty() {
        return Ok(());
    }
    diesel::update(
        webhooks::table.filter(webhooks::id.eq_any(ids)).filter(
            webhooks::consecutive_failures
                .ne(0)
                .or(webhooks::state.ne(ACTIVE)),
        ),
    )
    .set((
        webhooks::consecutive_failures.eq(0),
        webhooks::state.eq(ACTIVE),
        webhooks::disabled_reason.eq(None::<String>),
    ))
    .execute(conn)
    .map(|_| ())
}

/// Stores the preferences (JSON) of `user_id`.
pub fn set_preferences(
    conn: &mut DbConnection,
    user_id: &str,
    channels: &str,
    now: NaiveDateTime,
) -> QueryResult<()> {
    macro_rules! upsert {
        ($conn:expr) => {
            diesel::insert_into(notification_preferences::table)
                .values((
                    notification_preferences::user_id.eq(user_id),
                    notification_preferences::channels.eq(channels),
                    notification_preferences::updated_at.eq(now),
                ))
                .on_conflict(notification_preferences::user_id)
                .do_update()
                .set((
                    notification_preferences::channels.eq(channels),
                    notification_preferences::updated_at.eq(now),
                ))
                .execute($conn)
                .map(|_| ())
        };
    }
    match conn {
        DbConnection::Postgresql(pg) => upsert!(pg),
        DbConnection::Sqlite(sqlite) => upsert!(sqlite),
    }
}

/// Starts the fan-out of `user_id`'s events after `seq` (their newest
/// event now), unless it runs already: called with a new channel, so that
/// a new subscription is not sent the past.
pub fn start_cursor(conn: &mut DbConnection, user_id: &str, seq: i64) -> QueryResult<()> {
    macro_rules! start {
        ($conn:expr) => {
            diesel::insert_into(notification_cursors::table)
                .values((
                    notification_cursors::user_id.eq(user_id),
                    notification_cursors::seq.eq(seq),
                ))
                .on_conflict(notification_cursors::user_id)
                .do_nothing()
                .execute($conn)
                .map(|_| ())
        };
    }
    match conn {
        DbConnection::Postgresql(pg) => start!(pg),
        DbConnection::Sqlite(sqlite) => start!(sqlite),
    }
}

/// Stops the fan-out of `user_id`'s events when they have no channel left.
pub fn stop_cursor_if_unused(conn: &mut DbConnection, user_id: &str) -> QueryResult<()> {
    let push = count_push(conn, user_id)?;
    let hooks = count_webhooks(conn, user_id)?;
    let email = super::email::has_verified(conn, user_id)?;
    if push == 0 && hooks == 0 && !email {
        diesel::delete(notification_cursors::table.find(user_id)).execute(conn)?;
    }
    Ok(())
}

/// Everything of `user_id` here: an account's deletion.
pub fn delete_all_of_user(conn: &mut DbConnection, user_id: &str) -> QueryResult<()> {
    diesel::delete(crate::schema::deliveries::table)
        .filter(crate::schema::deliveries::user_id.eq(user_id))
        .execute(conn)?;
    diesel::delete(push_subscriptions::table.filter(push_subscriptions::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::delete(webhooks::table.filter(webhooks::user_id.eq(user_id))).execute(conn)?;
    super::email::delete(conn, user_id)?;
    diesel::delete(notification_preferences::table.find(user_id)).execute(conn)?;
    diesel::delete(notification_cursors::table.find(user_id)).execute(conn)?;
    Ok(())
}
