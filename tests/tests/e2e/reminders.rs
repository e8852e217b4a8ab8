//! `deadline_soon`: when less than `DEADLINE_REMINDER_PERCENT` of the time
//! for a move is left, the player on turn gets exactly one reminder for
//! that turn; in the setup phase, every seated player without a setup gets
//! exactly one, nobody gets another before play starts, and play then has
//! its own (move) reminders.
//!
//! The ManualClock is moved past the thresholds. The server's reminder task
//! runs every second (`reminder_interval_seconds = 1`) and sends the due
//! reminders, which must wake a waiting long poll. "No reminder" is checked
//! by running the task's step (`api::games::reminders::send_due_reminders`) by hand
//! at the test clock's time and seeing it remind nobody, then reading the
//! feed: nothing is due, so no background pass can have sent anything.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use api::config::Config;

use crate::harness::{TestApp, TestUser};
use crate::support::*;

/// Days per move (and for the setup phase) of every game here; the
/// reminder share is 25%, so it is due one day before the deadline.
const DAYS: u32 = 4;

/// The server's reminder task runs every `interval` seconds, reminding
/// at 25% of the time left; logins are not rate limited (the clock jumps
/// past the access tokens' life, so users log in again).
fn reminders_every(interval: u64) -> impl Fn(&mut Config) {
    move |c| {
        c.reminder_interval_seconds = interval;
        c.deadline_reminder_percent = 25;
        c.login_attempts_per_minute = 1000;
    }
}

/// `red` challenges `blue`, who accepts: the game is in setup and its
/// clock runs. Returns the game id.
async fn accepted_challenge(app: &TestApp, red: &TestUser, blue: &TestUser) -> String {
    let body = json!({"variant": "classic", "color": "red", "opponent": blue.username,
                      "days_per_move": DAYS});
    let id = create_game(app, red, &body).await;
    join_game(app, &id, blue).await;
    id
}

/// Checks that `page` holds exactly one event, a `deadline_soon` for game
/// `id` with this deadline, and that it says nothing else (no member that
/// could describe a setup or a piece).
fn assert_one_reminder(page: &Value, id: &str, deadline: &str) {
    assert_eq!(types(page), ["deadline_soon"]);
    let event = &page["events"][0];
    assert_eq!(event["game_id"], id);
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(event["deadline"].as_str().unwrap()).unwrap(),
        chrono::DateTime::parse_from_rfc3339(deadline).unwrap()
    );
    let members: BTreeSet<&str> = event
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        members,
        BTreeSet::from(["id", "created_at", "type", "game_id", "deadline"])
    );
}

backend_tests! {
    /// In play: the player on turn gets one reminder per turn.
    async fn the_player_on_turn_is_reminded_once_per_turn(app, config = reminders_every(1)) {
        let mut ann = app.register_user("ann").await;
        let mut bo = app.register_user("bob").await;
        let id = start_game(&app, &ann, &bo, DAYS).await;
        let seen = last_id(&app, &ann).await;
        let view = game_view(&app, &id, &ann).await;
        let deadline = view["deadline"].as_str().unwrap().to_owned();

        // Three days of four gone: more than 25% left, no reminder.
        app.clock
            .advance(chrono::Duration::days(3) - chrono::Duration::minutes(1));
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bo).await;
        assert_nothing_due(&app).await;
        let page = poll(&app, &ann, seen, 0).await;
        assert_eq!(types(&page), Vec::<&str>::new());

        // Less than a day (25%) left: exactly one reminder, to the player on turn.
        app.clock.advance(chrono::Duration::minutes(2));
        relogin(&app, &mut ann).await;
        let page = wait_for_reminder(&app, &ann, seen).await;
        assert_eq!(types(&page), ["deadline_soon"]);
        let event = &page["events"][0];
        assert_eq!(event["game_id"], id.as_str());
        assert_eq!(
            chrono::DateTime::parse_from_rfc3339(event["deadline"].as_str().unwrap()).unwrap(),
            chrono::DateTime::parse_from_rfc3339(&deadline).unwrap()
        );
        let reminded = page["last_id"].as_i64().unwrap();
        let bo_seen = poll(&app, &bo, 0, 0).await;
        assert!(!types(&bo_seen).contains(&"deadline_soon"));
        // The reminder changes nothing in the game.
        assert_eq!(game_view(&app, &id, &ann).await["version"], view["version"]);
        // Not again for the same turn.
        assert_nothing_due(&app).await;
        let page = poll(&app, &ann, reminded, 0).await;
        assert_eq!(types(&page), Vec::<&str>::new());

        // The next turn gets its own reminder: Ann moves, Bo's clock runs.
        play_move(&app, &id, &ann, 2).await;
        let bo_last = last_id(&app, &bo).await;
        app.clock
            .advance(chrono::Duration::days(3) + chrono::Duration::minutes(1));
        relogin(&app, &mut bo).await;
        let page = wait_for_reminder(&app, &bo, bo_last).await;
        assert_eq!(types(&page), ["deadline_soon"]);
    }

    /// A time control that gives a move more than 14 days: reminded at
    /// 25% of its days (here 10 of 40), not only when 3.5 days are left.
    async fn long_move_times_are_reminded_at_their_share(app, config = reminders_every(1)) {
        let mut ann = app.register_user("ann").await;
        let bo = app.register_user("bob").await;
        let body = json!({"variant": "duel", "color": "red", "opponent": bo.username,
                          "time_control": {"type": "moves_in_days", "moves": 1, "days": 40}});
        let id = create_game(&app, &ann, &body).await;
        join_game(&app, &id, &bo).await;
        place_setup(&app, &id, &ann, 1).await;
        place_setup(&app, &id, &bo, 1).await;
        let seen = last_id(&app, &ann).await;
        app.clock.advance(chrono::Duration::days(30) + chrono::Duration::minutes(1));
        relogin(&app, &mut ann).await;
        let page = wait_for_reminder(&app, &ann, seen).await;
        assert_eq!(types(&page), ["deadline_soon"]);
    }

    async fn only_the_player_without_a_setup_is_reminded(app, config = reminders_every(1)) {
        let mut ann = app.register_user("ann").await;
        let mut bo = app.register_user("bob").await;
        let id = accepted_challenge(&app, &ann, &bo).await;
        place_setup(&app, &id, &ann, 5).await;
        let view = game_view(&app, &id, &bo).await;
        assert_eq!(view["setup_done"], json!({"red": true, "blue": false}));
        let setup_deadline = view["deadline"].as_str().unwrap().to_owned();
        let ann_seen = last_id(&app, &ann).await;
        let bo_seen = last_id(&app, &bo).await;

        // Three days of four gone: more than 25% left, nobody is reminded.
        app.clock
            .advance(chrono::Duration::days(3) - chrono::Duration::minutes(1));
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bo).await;
        assert_nothing_due(&app).await;
        assert_eq!(types(&poll(&app, &bo, bo_seen, 0).await), Vec::<&str>::new());
        assert_eq!(types(&poll(&app, &ann, ann_seen, 0).await), Vec::<&str>::new());

        // Less than a day left: Bo, whose setup is missing, gets one reminder.
        app.clock.advance(chrono::Duration::minutes(2));
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bo).await;
        let page = wait_for_reminder(&app, &bo, bo_seen).await;
        assert_one_reminder(&page, &id, &setup_deadline);
        let bo_reminded = page["last_id"].as_i64().unwrap();
        // Ann has placed hers: nothing for her (her reminder would have been
        // recorded in the same transaction as Bo's).
        assert_nothing_due(&app).await;
        assert_eq!(types(&poll(&app, &ann, ann_seen, 0).await), Vec::<&str>::new());
        // The reminder is not a change of the game.
        assert_eq!(game_view(&app, &id, &ann).await["version"], view["version"]);
        // Not a second time in this phase.
        assert_nothing_due(&app).await;
        assert_eq!(types(&poll(&app, &bo, bo_reminded, 0).await), Vec::<&str>::new());

        // Bo places his setup: play starts, with a fresh move clock and no
        // reminder until less than 25% of that is left.
        let started = place_setup(&app, &id, &bo, 6).await;
        assert_eq!(started["status"], "playing");
        let move_deadline = started["deadline"].as_str().unwrap().to_owned();
        assert_ne!(move_deadline, setup_deadline);
        let ann_seen = last_id(&app, &ann).await;
        let bo_seen = last_id(&app, &bo).await;
        app.clock
            .advance(chrono::Duration::days(3) - chrono::Duration::minutes(1));
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bo).await;
        assert_nothing_due(&app).await;
        assert_eq!(types(&poll(&app, &ann, ann_seen, 0).await), Vec::<&str>::new());
        assert_eq!(types(&poll(&app, &bo, bo_seen, 0).await), Vec::<&str>::new());

        // Then the move reminder, to Red (on turn) only.
        app.clock.advance(chrono::Duration::minutes(2));
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bo).await;
        let page = wait_for_reminder(&app, &ann, ann_seen).await;
        assert_one_reminder(&page, &id, &move_deadline);
        assert_nothing_due(&app).await;
        assert_eq!(types(&poll(&app, &bo, bo_seen, 0).await), Vec::<&str>::new());
    }

    async fn both_players_without_a_setup_are_reminded_once(app, config = reminders_every(1)) {
        let mut ann = app.register_user("ann").await;
        let mut bo = app.register_user("bob").await;
        let id = accepted_challenge(&app, &ann, &bo).await;
        let view = game_view(&app, &id, &ann).await;
        let setup_deadline = view["deadline"].as_str().unwrap().to_owned();
        let ann_seen = last_id(&app, &ann).await;
        let bo_seen = last_id(&app, &bo).await;

        // Neither has placed a setup when the reminder falls due: both get one.
        app.clock
            .advance(chrono::Duration::days(3) + chrono::Duration::minutes(1));
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bo).await;
        let ann_page = wait_for_reminder(&app, &ann, ann_seen).await;
        assert_one_reminder(&ann_page, &id, &setup_deadline);
        let bo_page = wait_for_reminder(&app, &bo, bo_seen).await;
        assert_one_reminder(&bo_page, &id, &setup_deadline);
        let ann_seen = ann_page["last_id"].as_i64().unwrap();
        let bo_seen = bo_page["last_id"].as_i64().unwrap();

        // Ann places a setup, then replaces it: two new versions of the game in
        // the same setup phase, and still no second reminder for Bo (nor Ann).
        place_setup(&app, &id, &ann, 7).await;
        assert_nothing_due(&app).await;
        assert_eq!(types(&poll(&app, &bo, bo_seen, 0).await), Vec::<&str>::new());
        let replaced = place_setup(&app, &id, &ann, 8).await;
        assert_eq!(replaced["status"], "setup");
        assert_nothing_due(&app).await;
        assert_eq!(types(&poll(&app, &bo, bo_seen, 0).await), Vec::<&str>::new());
        assert_eq!(types(&poll(&app, &ann, ann_seen, 0).await), Vec::<&str>::new());

        // Play starts: its events, and no reminder among them.
        place_setup(&app, &id, &bo, 9).await;
        assert_eq!(
            types(&poll(&app, &ann, ann_seen, 0).await),
            ["game_started", "your_turn"]
        );
        assert_eq!(types(&poll(&app, &bo, bo_seen, 0).await), ["game_started"]);

        // Red moves at once: Blue's move reminder comes when it is due, once.
        play_move(&app, &id, &ann, 1).await;
        let blue_view = game_view(&app, &id, &bo).await;
        let move_deadline = blue_view["deadline"].as_str().unwrap().to_owned();
        let bo_seen = last_id(&app, &bo).await;
        app.clock
            .advance(chrono::Duration::days(3) + chrono::Duration::minutes(1));
        relogin(&app, &mut bo).await;
        let page = wait_for_reminder(&app, &bo, bo_seen).await;
        assert_one_reminder(&page, &id, &move_deadline);
        let bo_reminded = page["last_id"].as_i64().unwrap();
        assert_nothing_due(&app).await;
        assert_eq!(types(&poll(&app, &bo, bo_reminded, 0).await), Vec::<&str>::new());
    }

    /// Several senders at once (as several server processes would be): each
    /// due reminder is recorded once, whoever wins its claim. The server's own
    /// task is kept out of the way (it runs once an hour here).
    async fn concurrent_senders_send_each_reminder_once(app, config = reminders_every(3600)) {
        let mut ann = app.register_user("ann").await;
        let mut bo = app.register_user("bob").await;
        let id = accepted_challenge(&app, &ann, &bo).await;
        let ann_seen = last_id(&app, &ann).await;
        let bo_seen = last_id(&app, &bo).await;

        // Not due yet: eight senders send nothing.
        app.clock
            .advance(chrono::Duration::days(3) - chrono::Duration::minutes(1));
        assert_eq!(send_concurrently(&app, 8).await, Vec::<String>::new());

        // Due, both setups missing: one reminder each, over all eight senders.
        app.clock.advance(chrono::Duration::minutes(2));
        let mut expected = vec![ann.id.clone(), bo.id.clone()];
        expected.sort();
        assert_eq!(send_concurrently(&app, 8).await, expected);
        relogin(&app, &mut ann).await;
        relogin(&app, &mut bo).await;
        assert_eq!(
            types(&poll(&app, &ann, ann_seen, 0).await),
            ["deadline_soon"]
        );
        assert_eq!(types(&poll(&app, &bo, bo_seen, 0).await), ["deadline_soon"]);

        // A setup placed (a new version): still nothing more to send.
        place_setup(&app, &id, &ann, 3).await;
        assert_eq!(send_concurrently(&app, 8).await, Vec::<String>::new());
        assert_eq!(types(&poll(&app, &bo, bo_seen, 0).await), ["deadline_soon"]);
    }
}

/// Waits (a long poll) for `user`'s events after `after`, which the
/// server's reminder task is due to send: they must come, and wake the
/// poll, within [`WAKE_LIMIT`].
async fn wait_for_reminder(app: &TestApp, user: &TestUser, after: i64) -> Value {
    let path = format!("/api/v1/events?after={after}&wait={LONG_WAIT}");
    LongPoll::start(app, &path, user).await.woken().await
}

/// "No reminder now": a reminder pass run by hand at the test clock's time
/// reminds nobody, so nothing is due (or all that was due went out) and
/// the server's own task has nothing to send either.
async fn assert_nothing_due(app: &TestApp) {
    assert_eq!(
        send_concurrently(app, 1).await,
        Vec::<String>::new(),
        "a reminder is due"
    );
}

/// Runs `senders` reminder passes at once on the server's pool, at the
/// test clock's time; returns the ids of everyone reminded, sorted (a
/// user reminded twice would appear twice).
async fn send_concurrently(app: &TestApp, senders: usize) -> Vec<String> {
    let now = app.now();
    let mut tasks = Vec::new();
    for _ in 0..senders {
        let pool = app.pool.clone();
        tasks.push(tokio::spawn(async move {
            api::games::reminders::send_due_reminders(&pool, now, 25)
                .await
                .unwrap()
        }));
    }
    let mut reminded = Vec::new();
    for task in tasks {
        reminded.extend(task.await.unwrap().into_iter().map(|u| u.to_string()));
    }
    reminded.sort();
    reminded
}
