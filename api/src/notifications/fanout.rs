//! The fan-out: each player's events after their cursor become deliveries
//! to the channels their preferences and each channel's own event list
//! allow, written with the cursor's advance (docs/notifications.md, "The
//! outbox"): [`plan`] reads and decides, [`write`] writes, only where the
//! cursor is still where the plan found it.
//!
//! What a delivery says is built here from the event as its recipient was
//! told it (already filtered by `domain` for that player) and the game's
//! public header: game id, version, opponent, deadline, the last move's
//! squares, the result. Never a rank: a piece named in the event is left
//! out.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::channels::events_of;
use super::digest;
use super::notice::{LastMove, Notice, NoticeData};
use super::preferences::{Channel, NotifyEvent, Preferences};
use crate::db::DbConnection;
use crate::storage::channels::{
    self as channel_store, webhook_state, ChannelsOf, PushSubscriptionRow, WebhookRow,
};
use crate::storage::email::{self as email_store, EmailRow};
use crate::storage::events::{self as event_store, EventRow};
use crate::storage::outbox::{self as store, delivery_state, DeliveryRow, GameBrief};
use crate::storage::{from_db_time, to_db_time};

/// Players fanned out per transaction.
pub const PLAYERS_PER_PASS: i64 = 50;
/// Events of one player fanned out per transaction (the rest next pass).
pub const EVENTS_PER_PLAYER: i64 = 200;

/// What one pass of the fan-out found to write: per player, the cursor it
/// read, the newest event it fanned out and the deliveries of the events
/// between; and where the next pass goes on.
pub struct Plan {
    players: Vec<PlayerPlan>,
    /// The last player this pass claimed, when it claimed as many as it
    /// may (players after them may be behind too): the next pass goes on
    /// after them. `None`: the next pass starts from the first player.
    pub resume_after: Option<String>,
}

struct PlayerPlan {
    user: String,
    cursor: i64,
    last: i64,
    rows: Vec<DeliveryRow>,
}

/// Reads the pending events of up to [`PLAYERS_PER_PASS`] players after
/// player `after` (in the order of their ids; `None`: from the first) and
/// turns them into deliveries, writing nothing ([`write`] does).
/// `email`: whether e-mail is configured on this server.
///
/// The passes take the players behind in turns, each pass going on where
/// the one before stopped: with more players behind than a pass takes,
/// the first ones in the order of ids never keep the others waiting.
///
/// A pass reads in a handful of statements, whatever the number of its
/// players: the cursors, the events after them, the players' preferences,
/// push subscriptions, webhooks and (with e-mail) addresses, and the
/// headers of the games their notices tell of.
pub fn plan(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    email: bool,
    after: Option<&str>,
) -> Result<Plan, diesel::result::Error> {
    let behind = store::claim_cursors_behind(conn, after.unwrap_or(""), PLAYERS_PER_PASS)?;
    let resume_after = match i64::try_from(behind.len()).unwrap_or(i64::MAX) >= PLAYERS_PER_PASS {
        true => behind.last().map(|(user, _)| user.clone()),
        false => None,
    };
    let behind: Vec<(String, i64)> = behind
        .into_iter()
        .filter(|(user, _)| Uuid::parse_str(user).is_ok())
        .collect();
    let cursors: HashMap<&str, i64> = behind.iter().map(|(u, seq)| (u.as_str(), *seq)).collect();
    let events = event_store::list_after_each(conn, &behind, EVENTS_PER_PLAYER)?;
    // Each player's events, oldest first (they come ordered by player).
    let pending: Vec<&[EventRow]> = events.chunk_by(|a, b| a.user_id == b.user_id).collect();
    let users: Vec<&str> = pending.iter().map(|e| e[0].user_id.as_str()).collect();
    let found = channel_store::channels_of(conn, &users)?;
    let addresses = match email {
        true => email_store::find_verified(conn, &users)?,
        false => Vec::new(),
    };
    let wanted: Vec<Vec<Wanted<'_>>> = pending
        .iter()
        .map(|events| {
            let user = events[0].user_id.as_str();
            wanted(events, &Reach::of(user, &found, &addresses))
        })
        .collect();
    // Each game's header is read once a pass (both of its players, and
    // every event of it, share it).
    let mut games: Vec<&str> = wanted
        .iter()
        .flatten()
        .filter_map(|w| w.event.game_id.as_deref())
        .collect();
    games.sort_unstable();
    games.dedup();
    let briefs: HashMap<String, GameBrief> =
        store::game_briefs(conn, &games)?.into_iter().collect();
    let mut players = Vec::with_capacity(pending.len());
    for (events, wanted) in pending.iter().zip(wanted) {
        let user = events[0].user_id.as_str();
        let (Some(cursor), Some(last)) = (cursors.get(user), events.last()) else {
            continue;
        };
        let last_digest = addresses
            .iter()
            .find(|row| row.user_id == user)
            .and_then(|row| row.last_digest_at)
            .map(from_db_time);
        let rows = wanted
            .into_iter()
            .flat_map(|w| w.deliveries(user, &briefs, last_digest, now))
            .collect();
        players.push(PlayerPlan {
            user: user.to_owned(),
            cursor: *cursor,
            last: last.seq,
            rows,
        });
    }
    Ok(Plan {
        players,
        resume_after,
    })
}

/// Writes what [`plan`] found, player by player: the deliveries with the
/// cursor's advance, only where the cursor is still where the plan read it
/// (another pass may have moved it meanwhile: its deliveries are written
/// then, not these), and only to the channels that still exist (a push
/// subscription or webhook deleted, or a webhook disabled, since the plan
/// read them gets nothing). Returns how many deliveries it wrote.
pub fn write(conn: &mut DbConnection, plan: Plan) -> Result<usize, diesel::result::Error> {
    let rows = || plan.players.iter().flat_map(|p| &p.rows);
    let mut push: Vec<&str> = rows()
        .filter_map(|r| r.push_subscription_id.as_deref())
        .collect();
    let mut hooks: Vec<&str> = rows().filter_map(|r| r.webhook_id.as_deref()).collect();
    for ids in [&mut push, &mut hooks] {
        ids.sort_unstable();
        ids.dedup();
    }
    let (push_live, hooks_live) = channel_store::still_live(conn, &push, &hooks)?;
    let live = |row: &DeliveryRow| {
        row.push_subscription_id
            .as_ref()
            .is_none_or(|id| push_live.contains(id))
            && row
                .webhook_id
                .as_ref()
                .is_none_or(|id| hooks_live.contains(id))
    };
    let moves: Vec<(&str, i64, i64)> = plan
        .players
        .iter()
        .map(|p| (p.user.as_str(), p.cursor, p.last))
        .collect();
    let moved = store::advance_cursors_from(conn, &moves)?;
    let rows: Vec<DeliveryRow> = plan
        .players
        .into_iter()
        .filter(|player| moved.contains(&player.user))
        .flat_map(|player| player.rows)
        .filter(live)
        .collect();
    store::insert_deliveries(conn, &rows)?;
    Ok(rows.len())
}

/// Whether event `at` of `events` (one player's, oldest first) is made
/// stale by a later one of the same game: "your move" followed by another
/// "your move" (the player moved meanwhile) or by the game's end. Such an
/// event is not sent: a player's channels get the newest word on a game.
fn superseded(events: &[EventRow], at: usize) -> bool {
    let Some(event) = events.get(at) else {
        return false;
    };
    let your_move =
        |e: &EventRow| NotifyEvent::of_feed_kind(&e.kind) == Some(NotifyEvent::YourMove);
    event.game_id.is_some()
        && your_move(event)
        && events.iter().skip(at + 1).any(|later| {
            later.game_id == event.game_id
                && (your_move(later)
                    || NotifyEvent::of_feed_kind(&later.kind) == Some(NotifyEvent::GameOver))
        })
}

/// One player's channels, as a pass read them.
struct Reach<'a> {
    preferences: Preferences,
    push: Vec<&'a PushSubscriptionRow>,
    /// The active ones.
    hooks: Vec<&'a WebhookRow>,
    /// Mail goes to a verified address only.
    mail: bool,
}

impl<'a> Reach<'a> {
    fn of(user: &str, found: &'a ChannelsOf, addresses: &[EmailRow]) -> Self {
        let stored = found
            .preferences
            .iter()
            .find(|(owner, _)| owner == user)
            .map(|(_, json)| json.as_str());
        Self {
            preferences: Preferences::from_stored(stored),
            push: found.push.iter().filter(|s| s.user_id == user).collect(),
            hooks: found
                .webhooks
                .iter()
                .filter(|h| h.user_id == user && h.state == webhook_state::ACTIVE)
                .collect(),
            mail: addresses.iter().any(|row| row.user_id == user),
        }
    }
}

/// One event of a player's that goes somewhere, and where.
struct Wanted<'a> {
    event: &'a EventRow,
    told: NotifyEvent,
    push: Vec<&'a str>,
    hooks: Vec<&'a str>,
    mailed: bool,
}

/// Which of one player's `events` go where: each notifiable event that is
/// not stale, to the channels the player's preferences and each channel's
/// own event list allow.
fn wanted<'a>(events: &'a [EventRow], reach: &Reach<'a>) -> Vec<Wanted<'a>> {
    let wants = |event: NotifyEvent, channel: Channel, own: Option<&str>| {
        reach.preferences.allows(event, channel)
            && events_of(own).is_none_or(|listed| listed.contains(&event))
    };
    let mut wanted = Vec::new();
    for (at, event) in events.iter().enumerate() {
        let Some(told) = NotifyEvent::of_feed_kind(&event.kind) else {
            continue;
        };
        if superseded(events, at) {
            continue;
        }
        let push: Vec<&str> = (reach.push.iter())
            .filter(|s| wants(told, Channel::Push, s.events.as_deref()))
            .map(|s| s.id.as_str())
            .collect();
        let hooks: Vec<&str> = (reach.hooks.iter())
            .filter(|h| wants(told, Channel::Webhook, h.events.as_deref()))
            .map(|h| h.id.as_str())
            .collect();
        let mailed = reach.mail && reach.preferences.allows(told, Channel::Email);
        if !push.is_empty() || !hooks.is_empty() || mailed {
            wanted.push(Wanted {
                event,
                told,
                push,
                hooks,
                mailed,
            });
        }
    }
    wanted
}

impl Wanted<'_> {
    /// Its deliveries to `user`, with the notice built from the game's
    /// header (when the game is in `briefs`). A mail waits for the
    /// player's digest (`last_digest`: when the last one went).
    fn deliveries(
        self,
        user: &str,
        briefs: &HashMap<String, GameBrief>,
        last_digest: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Vec<DeliveryRow> {
        let brief = self
            .event
            .game_id
            .as_ref()
            .and_then(|game| briefs.get(game));
        let notice = body(self.told, self.event, user, brief);
        let body = notice.to_json();
        let row = |target| {
            let game = self.event.game_id.clone();
            pending(user, target, self.told.name(), game, body.clone(), now)
        };
        let mut rows: Vec<DeliveryRow> = (self.push.iter().map(|id| row(Target::Push(id))))
            .chain(self.hooks.iter().map(|id| row(Target::Webhook(id))))
            .collect();
        if self.mailed {
            let mut mail = row(Target::Email);
            mail.next_attempt_at = to_db_time(digest::due(&notice, last_digest, now));
            rows.push(mail);
        }
        rows
    }
}

/// Where one delivery goes.
pub enum Target<'a> {
    Push(&'a str),
    Webhook(&'a str),
    /// The player's verified e-mail address.
    Email,
}

/// A delivery of `payload` to `target`, due at once. Its id is
/// time-ordered, so a webhook's deliveries list newest first.
pub fn pending(
    user: &str,
    target: Target<'_>,
    event: &str,
    game_id: Option<String>,
    payload: String,
    now: DateTime<Utc>,
) -> DeliveryRow {
    let (push, hook) = match target {
        Target::Push(id) => (Some(id.to_owned()), None),
        Target::Webhook(id) => (None, Some(id.to_owned())),
        Target::Email => (None, None),
    };
    DeliveryRow {
        id: Uuid::now_v7().to_string(),
        user_id: user.to_owned(),
        push_subscription_id: push,
        webhook_id: hook,
        event: event.to_owned(),
        game_id,
        payload,
        state: delivery_state::PENDING.to_owned(),
        attempts: 0,
        next_attempt_at: to_db_time(now),
        last_status: None,
        last_error: None,
        created_at: to_db_time(now),
        finished_at: None,
    }
}

/// The notice of `event`, told to `user`: built from the event as its
/// recipient was told it and the game's public header.
pub fn body(told: NotifyEvent, event: &EventRow, user: &str, brief: Option<&GameBrief>) -> Notice {
    let told_of: Value = serde_json::from_str(&event.payload).unwrap_or(Value::Null);
    let uuid = |value: &Value| value.as_str().and_then(|s| Uuid::parse_str(s).ok());
    let text = |value: &Value| value.as_str().map(str::to_owned);
    let mut data = NoticeData {
        game_id: event
            .game_id
            .as_deref()
            .and_then(|id| Uuid::parse_str(id).ok()),
        ..NoticeData::default()
    };
    if let Some(brief) = brief {
        data.version = Some(brief.version);
        data.opponent = opponent(brief, user);
        let my_turn = seat_of(brief, user).is_some_and(|seat| brief.turn.as_deref() == Some(seat));
        if told != NotifyEvent::GameOver && (my_turn || brief.turn.is_none()) {
            data.deadline = brief.deadline.map(from_db_time);
        }
    }
    match told {
        NotifyEvent::YourMove => {
            data.ply = told_of["ply"].as_u64();
            let moved = &told_of["opponent_move"];
            data.last_move = text(&moved["from"])
                .zip(text(&moved["to"]))
                .map(|(from, to)| LastMove { from, to });
        }
        NotifyEvent::GameOver => data.result = Some(told_of["result"].clone()),
        NotifyEvent::DeadlineSoon => {
            data.deadline = told_of["deadline"]
                .as_str()
                .and_then(|at| DateTime::parse_from_rfc3339(at).ok())
                .map(|at| at.with_timezone(&Utc));
        }
        NotifyEvent::DrawOffered => data.by = Some(told_of["by"].clone()),
        NotifyEvent::RematchOffered => {
            data.rematch_of = uuid(&told_of["rematch_of"]);
            data.opponent = text(&told_of["from"]).or(data.opponent);
        }
        NotifyEvent::ChallengeReceived => {
            data.opponent = text(&told_of["from"]).or(data.opponent);
        }
        NotifyEvent::VacationStarted => {
            data.opponent = text(&told_of["by"]).or(data.opponent);
            data.until = told_of["until"]
                .as_str()
                .and_then(|at| DateTime::parse_from_rfc3339(at).ok())
                .map(|at| at.with_timezone(&Utc));
        }
        NotifyEvent::VacationEnded => data.opponent = text(&told_of["by"]).or(data.opponent),
        NotifyEvent::GameStarted => {}
        NotifyEvent::TournamentStarted
        | NotifyEvent::RoundStarted
        | NotifyEvent::TournamentFinished => {
            data.tournament_id = uuid(&told_of["tournament_id"]);
            data.tournament = text(&told_of["name"]);
            data.round = told_of["round"].as_u64();
            data.games = told_of.get("games").cloned();
            data.bye = told_of["bye"].as_bool();
            data.place = told_of["place"].as_u64();
            data.players = told_of["players"].as_u64();
        }
    }
    Notice {
        kind: told.name().to_owned(),
        timestamp: from_db_time(event.created_at),
        data,
    }
}

/// The seat (`red`/`blue`) of `user` in the game, if seated.
fn seat_of<'a>(brief: &GameBrief, user: &str) -> Option<&'a str> {
    if brief.red_user_id.as_deref() == Some(user) {
        Some("red")
    } else if brief.blue_user_id.as_deref() == Some(user) {
        Some("blue")
    } else {
        None
    }
}

/// The other player's username (the creator, for a player not seated yet).
fn opponent(brief: &GameBrief, user: &str) -> Option<String> {
    match seat_of(brief, user) {
        Some("red") => brief.blue_name.clone(),
        Some(_) => brief.red_name.clone(),
        None if brief.creator_id != user => brief.creator_name.clone(),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn event(seq: i64, kind: &str, game: &str) -> EventRow {
        EventRow {
            user_id: "u".to_owned(),
            seq,
            kind: kind.to_owned(),
            game_id: Some(game.to_owned()),
            payload: "{}".to_owned(),
            created_at: chrono::NaiveDateTime::default(),
        }
    }

    #[test]
    fn a_your_move_is_superseded_by_a_newer_one_or_the_end_of_its_game_only() {
        let events = [
            event(1, "your_turn", "a"),
            event(2, "your_turn", "b"),
            event(3, "draw_offered", "a"),
            event(4, "your_turn", "a"),
            event(5, "your_turn", "b"),
            event(6, "game_finished", "b"),
            event(7, "your_turn", "c"),
            event(8, "draw_offered", "c"),
        ];
        let kept: Vec<i64> = (0..events.len())
            .filter(|at| !superseded(&events, *at))
            .map(|at| events[at].seq)
            .collect();
        // Game a: the newer "your move" stands; the draw offer is news.
        // Game b: only its end. Game c: a draw offer does not make "your
        // move" stale.
        assert_eq!(kept, [3, 4, 6, 7, 8]);
    }

    /// A player's deliveries are written only with the cursor's move from
    /// where the plan read it: a cursor moved meanwhile (another pass)
    /// gets nothing written twice; and only to channels that still exist.
    #[test]
    fn a_plan_writes_only_where_the_cursor_is_still_where_it_was_read() {
        use diesel::connection::SimpleConnection;
        use diesel::prelude::*;
        let scratch = crate::db::scratch::ScratchSqlite::migrated("fanout");
        let mut conn = scratch.conn();
        // Cursors without their accounts: only the cursors matter here.
        conn.batch_execute(
            "PRAGMA foreign_keys = OFF; \
             INSERT INTO notification_cursors (user_id, seq) VALUES ('u1', 5), ('u2', 3), ('u3', 0);",
        )
        .unwrap();
        let now = Utc::now();
        let mail = |user: &str| pending(user, Target::Email, "your_move", None, "{}".into(), now);
        let plan = Plan {
            players: vec![
                PlayerPlan {
                    user: "u1".into(),
                    cursor: 5,
                    last: 9,
                    rows: vec![mail("u1")],
                },
                // Read at 2; another pass has moved it to 3 since.
                PlayerPlan {
                    user: "u2".into(),
                    cursor: 2,
                    last: 7,
                    rows: vec![mail("u2")],
                },
                // Its webhook was deleted after the plan read it.
                PlayerPlan {
                    user: "u3".into(),
                    cursor: 0,
                    last: 4,
                    rows: vec![pending(
                        "u3",
                        Target::Webhook("gone"),
                        "your_move",
                        None,
                        "{}".into(),
                        now,
                    )],
                },
            ],
            resume_after: None,
        };
        assert_eq!(write(&mut conn, plan).unwrap(), 1);
        use crate::schema::{deliveries, notification_cursors};
        let cursors: Vec<(String, i64)> = notification_cursors::table
            .select((notification_cursors::user_id, notification_cursors::seq))
            .order(notification_cursors::user_id)
            .load(&mut *conn)
            .unwrap();
        assert_eq!(
            cursors,
            [("u1", 9), ("u2", 3), ("u3", 4)].map(|(u, seq)| (u.to_owned(), seq))
        );
        let written: Vec<String> = deliveries::table
            .select(deliveries::user_id)
            .load(&mut *conn)
            .unwrap();
        assert_eq!(written, ["u1"]);
    }
}
