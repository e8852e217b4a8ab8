//! The outbox's e-mail (docs/notifications.md, "E-mail"): codes one by
//! one, and each player's digest, sent by the one process holding that
//! player's digest lease.

use std::collections::HashMap;

use chrono::Duration;
use uuid::Uuid;

use super::{finished, next_attempt, Worker, LEASE};
use crate::db;
use crate::notifications::digest;
use crate::notifications::email::{code_is_current, EmailSettings};
use crate::notifications::notice::Notice;
use crate::notifications::preferences::{Channel, NotifyEvent, Preferences};
use crate::notifications::NotifyError;
use crate::outbound::mail::{Mail, MailError};
use crate::storage::channels as channel_store;
use crate::storage::email as email_store;
use crate::storage::games as games_store;
use crate::storage::outbox::{self as store, delivery_state, Attempted, DeliveryRow, EMAIL_CODE};
use crate::storage::users;
use crate::storage::{from_db_time, to_db_time};

/// How long one process holds the right to send a player's digest: longer
/// than an SMTP exchange may take (each of its steps times out after 20 s).
const DIGEST_LEASE: Duration = Duration::minutes(5);

impl Worker {
    /// Sends the claimed e-mail deliveries of one player: each code on its
    /// own, everything else as one digest.
    pub(super) async fn mail(&self, email: &EmailSettings, rows: Vec<DeliveryRow>) {
        let (codes, digest): (Vec<_>, Vec<_>) =
            rows.into_iter().partition(|d| d.event == EMAIL_CODE);
        for code in codes {
            let outcome = self.mail_code(email, &code).await;
            self.record_mail(&[code], outcome, None).await;
        }
        if let Some(user) = digest.first().map(|d| d.user_id.clone()) {
            match self.mail_digest(email, &user, digest).await {
                Digest::Covered(rows, outcome) => {
                    self.record_mail(&rows, outcome, Some(&user)).await
                }
                Digest::Later => {}
            }
        }
    }

    /// A verification code, to the address it was made for while that code
    /// is still the one waiting there and may still be used.
    async fn mail_code(&self, email: &EmailSettings, delivery: &DeliveryRow) -> Mailed {
        let payload: serde_json::Value =
            serde_json::from_str(&delivery.payload).unwrap_or_default();
        let (Some(address), Some(code)) = (payload["address"].as_str(), payload["code"].as_str())
        else {
            return Mailed::Gone;
        };
        let user = delivery.user_id.clone();
        let found = db::run_as::<_, NotifyError, _>(&self.pool, move |conn| {
            Ok(email_store::find(conn, &user)?)
        })
        .await;
        let current = match found {
            Ok(Some(row)) => row,
            Ok(None) => return Mailed::Gone,
            Err(error) => return Mailed::Failed(transient(error.to_string())),
        };
        if !code_is_current(&current, address, code, self.clock.now()) {
            return Mailed::Gone;
        }
        let mail = Mail {
            to: address.to_owned(),
            subject: format!("Your Stratego code: {code}"),
            text: format!(
                "Your code is {code}.\n\nSend it with POST /api/v1/me/email/verify to \
                 confirm this address; it can be used for an hour.\n\nIf you did not ask \
                 for it, ignore this message: nothing will be sent here.\n"
            ),
            unsubscribe: None,
        };
        match email.mailer.send(&mail).await {
            Ok(()) => Mailed::Sent,
            Err(error) => Mailed::Failed(error),
        }
    }

    /// The digest of `user`: the claimed deliveries, and every other of
    /// theirs waiting for its day. Only the process that takes the
    /// player's digest lease sends it; the others leave their claims to it.
    async fn mail_digest(
        &self,
        email: &EmailSettings,
        user: &str,
        claimed: Vec<DeliveryRow>,
    ) -> Digest {
        let now = self.clock.now();
        // Each claimed delivery, with what it tells (for when it may go).
        let planned: Vec<(String, Option<Notice>)> = claimed
            .iter()
            .map(|d| (d.id.clone(), serde_json::from_str(&d.payload).ok()))
            .collect();
        let urgent = planned
            .iter()
            .filter_map(|(_, notice)| notice.as_ref())
            .any(|n| digest::urgent(n, now));
        let lease_until = to_db_time(now + LEASE);
        let digest_lease = to_db_time(now + DIGEST_LEASE);
        let taken = {
            let user = user.to_owned();
            db::run_write::<_, NotifyError, _>(&self.pool, move |conn| {
                let Some(row) = email_store::find(conn, &user)?.filter(|r| r.verified_at.is_some())
                else {
                    return Ok(None);
                };
                let at = to_db_time(now);
                if !email_store::take_digest_lease(conn, &user, at, digest_lease)? {
                    // Another process is sending this player's digest and
                    // takes these along, or leaves them for the next.
                    let back = row.digest_lease_until.unwrap_or(lease_until);
                    for (id, _) in &planned {
                        store::postpone(conn, id, back)?;
                    }
                    return Ok(Some(None));
                }
                let last = row.last_digest_at.map(from_db_time);
                if !urgent && last.is_some_and(|last| last + digest::DIGEST_EVERY > now) {
                    // A digest went out since these were planned (by
                    // another process): they wait for their day.
                    for (id, notice) in &planned {
                        let next = match notice {
                            Some(notice) => digest::due(notice, last, now),
                            None => last.map_or(now, |last| last + digest::DIGEST_EVERY),
                        };
                        store::postpone(conn, id, to_db_time(next))?;
                    }
                    email_store::digest_done(conn, &user, None)?;
                    return Ok(Some(None));
                }
                let backlog = store::claim_email_backlog(conn, &user, lease_until)?;
                let preferences = channel_store::preferences(conn, &user)?;
                Ok(Some(Some((row, backlog, preferences))))
            })
            .await
        };
        let (address, backlog, preferences) = match taken {
            Ok(Some(Some(taken))) => taken,
            Ok(Some(None)) => return Digest::Later,
            Ok(None) => return Digest::Covered(claimed, Mailed::Gone),
            Err(error) => {
                return Digest::Covered(claimed, Mailed::Failed(transient(error.to_string())))
            }
        };
        self.hold_digest(user, digest_lease);
        self.hold(backlog.iter().map(|d| d.id.as_str()), lease_until);
        let mut rows = claimed;
        rows.extend(backlog);
        // What the player's preferences send by e-mail now: they may have
        // changed since the deliveries were planned.
        let preferences = Preferences::from_stored(preferences.as_deref());
        let emailed = |event: NotifyEvent| preferences.allows(event, Channel::Email);
        let notices: Vec<Notice> = rows
            .iter()
            .filter_map(|d| serde_json::from_str::<Notice>(&d.payload).ok())
            .filter(|n| NotifyEvent::from_name(&n.kind).is_some_and(emailed))
            .collect();
        let over: Vec<Uuid> = notices
            .iter()
            .filter(|n| n.kind == NotifyEvent::GameOver.name())
            .filter_map(|n| n.data.game_id)
            .collect();
        let context = {
            let user = user.to_owned();
            db::run_as::<_, NotifyError, _>(&self.pool, move |conn| {
                Ok(digest_context(conn, &user, &over)?)
            })
            .await
        };
        let (username, mut waiting, seats) = match context {
            Ok(context) => context,
            Err(error) => {
                return Digest::Covered(rows, Mailed::Failed(transient(error.to_string())))
            }
        };
        if !emailed(NotifyEvent::YourMove) {
            waiting.clear();
        }
        let unsubscribe = email.unsubscribe_url(user, &address.address);
        let Some(composed) = digest::compose(&username, &waiting, &notices, &seats, &unsubscribe)
        else {
            return Digest::Covered(rows, Mailed::Nothing);
        };
        let mail = Mail {
            to: address.address.clone(),
            subject: composed.subject,
            text: composed.text,
            unsubscribe: Some(unsubscribe),
        };
        let outcome = match email.mailer.send(&mail).await {
            Ok(()) => Mailed::Sent,
            Err(error) => Mailed::Failed(error),
        };
        Digest::Covered(rows, outcome)
    }

    /// Records what came of e-mail deliveries `rows`. `digest`: they were
    /// the digest of that player, whose lease is given back; a digest sent
    /// starts the player's next day, and one the relay refused for good
    /// unverifies the address.
    async fn record_mail(&self, rows: &[DeliveryRow], outcome: Mailed, digest: Option<&str>) {
        let counted = match &outcome {
            Mailed::Sent | Mailed::Nothing => "delivered",
            _ => "failed",
        };
        crate::metrics::METRICS
            .deliveries
            .with_label_values(&["email", counted])
            .inc();
        let now = self.clock.now();
        let rows: Vec<(String, i32)> = rows.iter().map(|d| (d.id.clone(), d.attempts)).collect();
        let digest = digest.map(str::to_owned);
        let recorded = db::run_write::<_, NotifyError, _>(&self.pool, move |conn| {
            let at = to_db_time(now);
            for (id, attempts) in &rows {
                let attempt = match &outcome {
                    Mailed::Sent => finished(delivery_state::DELIVERED, at, None, None),
                    Mailed::Nothing => finished(
                        delivery_state::DELIVERED,
                        at,
                        None,
                        Some("nothing left to tell"),
                    ),
                    Mailed::Gone => finished(
                        delivery_state::FAILED,
                        at,
                        None,
                        Some("its address is gone"),
                    ),
                    Mailed::Failed(error) => {
                        let status = error.code.map(i32::from);
                        let retry = (!error.permanent)
                            .then(|| next_attempt(now, *attempts, None))
                            .flatten();
                        match retry {
                            Some(next) => Attempted {
                                state: delivery_state::PENDING,
                                next_attempt_at: to_db_time(next),
                                status,
                                error: Some(&error.message),
                                finished_at: None,
                            },
                            None => {
                                finished(delivery_state::FAILED, at, status, Some(&error.message))
                            }
                        }
                    }
                };
                store::record_attempt(conn, id, &attempt)?;
            }
            if let Some(user) = &digest {
                let sent = matches!(outcome, Mailed::Sent).then_some(at);
                email_store::digest_done(conn, user, sent)?;
                if matches!(&outcome, Mailed::Failed(error) if error.permanent) {
                    email_store::unverify(conn, user)?;
                }
            }
            Ok(())
        })
        .await;
        if let Err(error) = recorded {
            tracing::warn!(%error, "e-mail outcome not recorded");
        }
    }
}

/// What became of a player's digest deliveries.
enum Digest {
    /// These deliveries were dealt with: record the outcome.
    Covered(Vec<DeliveryRow>, Mailed),
    /// Put back for later (another process sends, or the day is not over).
    Later,
}

enum Mailed {
    Sent,
    /// A digest with nothing left to tell (the games moved on): not sent.
    Nothing,
    /// Its address was removed or changed meanwhile.
    Gone,
    Failed(MailError),
}

fn transient(message: String) -> MailError {
    MailError {
        permanent: false,
        code: None,
        message,
    }
}

/// What a digest needs from the database: the player's name, the games
/// waiting for them (at most [`WAITING_LISTED`]), and their color in the
/// games named by `over`.
#[allow(clippy::type_complexity)]
fn digest_context(
    conn: &mut crate::db::DbConnection,
    user: &str,
    over: &[Uuid],
) -> Result<(String, Vec<digest::Waiting>, HashMap<Uuid, String>), diesel::result::Error> {
    let username = users::find_by_id(conn, user)?
        .map(|u| u.username)
        .unwrap_or_default();
    let filter = games_store::ListFilter {
        status: None,
        mine: None,
        my_turn: Some(user.to_owned()),
        order: games_store::ListOrder::Newest,
        after: None,
        limit: WAITING_LISTED,
    };
    let mut waiting = Vec::new();
    for game in games_store::list(conn, &filter)? {
        let Ok(game_id) = Uuid::parse_str(&game.id) else {
            continue;
        };
        let brief = store::game_brief(conn, &game.id)?;
        let opponent = brief.and_then(|b| {
            if b.red_user_id.as_deref() == Some(user) {
                b.blue_name
            } else {
                b.red_name
            }
        });
        waiting.push(digest::Waiting {
            game_id,
            opponent,
            deadline: game.deadline.map(from_db_time),
            setup: game.status == games_store::status::SETUP,
        });
    }
    waiting.sort_by_key(|w| (w.deadline.is_none(), w.deadline));
    let mut seats = HashMap::new();
    for game in over {
        if let Some(brief) = store::game_brief(conn, &game.to_string())? {
            let seat = match (brief.red_user_id.as_deref(), brief.blue_user_id.as_deref()) {
                (Some(red), _) if red == user => "red",
                (_, Some(blue)) if blue == user => "blue",
                _ => continue,
            };
            seats.insert(*game, seat.to_owned());
        }
    }
    Ok((username, waiting, seats))
}

/// Games listed in one digest.
const WAITING_LISTED: i64 = 100;
