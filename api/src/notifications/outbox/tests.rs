//! The outbox's retry schedule, and how a pass's outcomes are recorded.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn retries_come_within_seconds_then_minutes_then_hours_for_about_a_day() {
    let now = DateTime::<Utc>::UNIX_EPOCH;
    let waits: Vec<i64> = (1..=8)
        .map_while(|n| next_attempt(now, n, None))
        .map(|at| (at - now).num_seconds())
        .collect();
    assert_eq!(waits, RETRY_AFTER_SECONDS.to_vec());
    let total: i64 = waits.iter().sum();
    assert!((86_400..=2 * 86_400).contains(&total), "{total}");
    assert_eq!(next_attempt(now, 8, None), None);
    assert_eq!(next_attempt(now, 0, None), None);
}

#[test]
fn a_longer_retry_after_is_honoured_up_to_a_day() {
    let now = DateTime::<Utc>::UNIX_EPOCH;
    let at = |asked| next_attempt(now, 1, Some(asked)).map(|at| (at - now).num_seconds());
    assert_eq!(at(120), Some(120));
    assert_eq!(at(1), Some(5));
    assert_eq!(at(10_000_000), Some(86_400));
}

/// A webhook's answers in one pass apply in the order of the claim: a
/// failure for good before a 2xx leaves it active with no failures; the
/// same after a 2xx disables it.
#[test]
fn a_webhooks_answers_in_one_pass_apply_in_the_order_of_the_claim() {
    use diesel::connection::SimpleConnection;
    let scratch = crate::db::scratch::ScratchSqlite::migrated("record");
    let mut conn = scratch.conn();
    // Webhooks without their accounts: only the webhooks matter here.
    conn.batch_execute(
        "PRAGMA foreign_keys = OFF; \
         INSERT INTO webhooks (id, user_id, url, secret, state, consecutive_failures, created_at) \
         VALUES ('h1', 'u', 'https://a.example/h', 's', 'active', 6, '2026-01-01 00:00:00'), \
                ('h2', 'u', 'https://a.example/h', 's', 'active', 6, '2026-01-01 00:00:00');",
    )
    .unwrap();
    let now = DateTime::<Utc>::UNIX_EPOCH;
    let sent = |status: u16| Sent {
        status: Some(status),
        retry_after: None,
        error: (status >= 300).then(|| format!("answered HTTP {status}")),
    };
    let hook = |id: &str, status| Target::Webhook(id.to_owned(), sent(status));
    // The eighth attempt fails for good; the fresh one is answered.
    let outcomes = vec![
        ("d1".to_owned(), 8, hook("h1", 500)),
        ("d2".to_owned(), 1, hook("h1", 204)),
        ("d3".to_owned(), 1, hook("h2", 204)),
        ("d4".to_owned(), 8, hook("h2", 500)),
    ];
    record(&mut conn, &outcomes, now).unwrap();
    let (_, found) = channel_store::find_targets(&mut conn, &[], &["h1", "h2"]).unwrap();
    let mut hooks: Vec<(String, String, i32)> = (found.into_iter())
        .map(|hook| (hook.id, hook.state, hook.consecutive_failures))
        .collect();
    hooks.sort();
    assert_eq!(
        hooks,
        [("h1", "active", 0), ("h2", "disabled", 1)].map(|(id, state, n)| (
            id.to_owned(),
            state.to_owned(),
            n
        ))
    );
}
