//! Reaching players outside the app (docs/notifications.md): webhooks,
//! push subscriptions and preferences, delivered by the outbox to a
//! receiver these tests start on loopback. No request ever leaves
//! loopback: the refusals are decided before any connection.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::harness::{assert_problem, spawn_app_on, TestApp, TestUser};
use crate::process::ServerProcess;
use crate::support::{get_json, play_move, post_ok, start_game};

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
}

/// Queued as an answer: the request is recorded and never answered.
pub const HOLD: u16 = 0;

/// A webhook receiver on loopback speaking plain HTTP/1.1: it records
/// each request and answers with the next status queued (204 when none).
#[derive(Clone)]
pub struct Receiver {
    pub url: String,
    got: Arc<Mutex<Vec<Received>>>,
    answers: Arc<Mutex<Vec<u16>>>,
}

impl Receiver {
    pub async fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let receiver = Receiver {
            url,
            got: Arc::default(),
            answers: Arc::default(),
        };
        let serving = receiver.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serving.clone().serve(socket));
            }
        });
        receiver
    }

    /// The next answers, in order.
    pub fn answer_with(&self, statuses: &[u16]) {
        self.answers.lock().unwrap().extend_from_slice(statuses);
    }

    pub fn received(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    /// Waits (real time, at most 10 s) until `n` requests came.
    pub async fn wait_for(&self, n: usize) -> Vec<Received> {
        for _ in 0..200 {
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("expected {n} deliveries, got {:?}", self.received());
    }

    async fn serve(self, mut socket: tokio::net::TcpStream) {
        let mut buffer = Vec::new();
        let mut chunk = [0u8; 4096];
        let header_end = loop {
            let Ok(n) = socket.read(&mut chunk).await else {
                return;
            };
            if n == 0 {
                return;
            }
            buffer.extend_from_slice(&chunk[..n]);
            if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
        };
        let head = String::from_utf8_lossy(&buffer[..header_end]).to_string();
        let mut lines = head.split("\r\n");
        let path = lines
            .next()
            .and_then(|line| line.split(' ').nth(1))
            .unwrap_or_default()
            .to_owned();
        let headers: HashMap<String, String> = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let length: usize = headers
            .get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        while buffer.len() < header_end + length {
            match socket.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buffer.extend_from_slice(&chunk[..n]),
            }
        }
        let body = buffer[header_end..header_end + length].to_vec();
        let status = {
            let mut answers = self.answers.lock().unwrap();
            if answers.is_empty() {
                204
            } else {
                answers.remove(0)
            }
        };
        self.got.lock().unwrap().push(Received {
            path,
            headers,
            body,
        });
        if status == HOLD {
            // Never answered: the sender is left waiting (until it dies).
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return;
        }
        let answer =
            format!("HTTP/1.1 {status} Status\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        let _ = socket.write_all(answer.as_bytes()).await;
        let _ = socket.shutdown().await;
    }
}

/// Deliveries may go to loopback; the outbox looks every 50 ms.
pub fn outbound_to_loopback(config: &mut api::config::Config) {
    config.outbound_allow_private_networks = true;
    config.outbox_poll = Duration::from_millis(50);
}

pub async fn create_webhook(app: &TestApp, user: &TestUser, body: Value) -> Value {
    post_ok(app, "/api/v1/me/webhooks", user, &body, 201).await
}

/// Checks a delivery's Standard Webhooks signature with `secret`; returns
/// its JSON body.
fn verified(delivery: &Received, secret: &str) -> Value {
    use api::outbound::webhook_signature::{verify, WebhookHeaders, WebhookSecret};
    let secret = WebhookSecret::parse(secret).unwrap();
    let headers = WebhookHeaders {
        id: &delivery.headers["webhook-id"],
        timestamp: &delivery.headers["webhook-timestamp"],
        signature: &delivery.headers["webhook-signature"],
    };
    let timestamp: i64 = headers.timestamp.parse().unwrap();
    verify(&secret, &headers, &delivery.body, timestamp, 300)
        .unwrap_or_else(|e| panic!("a bad signature on {delivery:?}: {e}"));
    serde_json::from_slice(&delivery.body).unwrap()
}

/// The deliveries listed at `path` once the newest is no longer pending
/// (its outcome is recorded just after the receiver answered), or after
/// 5 s.
async fn settled(app: &TestApp, path: &str, user: &TestUser) -> Value {
    for _ in 0..100 {
        let listed = get_json(app, path, user).await;
        if listed["deliveries"][0]["state"] != "pending" {
            return listed;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    get_json(app, path, user).await
}

backend_tests! {
    async fn webhooks_to_private_or_plain_targets_are_refused_without_connecting(app) {
        let ann = app.register_user("ann_hooks").await;
        for (url, reason) in [
            ("http://example.com/hook", "not_https"),
            ("https://127.0.0.1/hook", "private_address"),
            ("https://10.1.2.3/hook", "private_address"),
            ("https://192.168.0.10:8443/hook", "private_address"),
            ("https://169.254.169.254/latest/meta-data", "private_address"),
            ("https://[::1]/hook", "private_address"),
            ("https://[fd00::1]/hook", "private_address"),
            ("https://[::ffff:127.0.0.1]/hook", "private_address"),
            ("https://localhost/hook", "internal_name"),
            ("https://metadata/computeMetadata", "internal_name"),
            ("https://ann:secret@example.com/hook", "credentials_in_url"),
            ("ftp://example.com/hook", "not_https"),
            ("not a url", "invalid_url"),
        ] {
            let response = app
                .post_json("/api/v1/me/webhooks", Some(&ann.access_token), &json!({"url": url}))
                .await;
            let problem = assert_problem(response, 422, "validation_failed").await;
            assert_eq!(problem["errors"][0]["field"], "url", "{url}: {problem}");
            assert_eq!(problem["errors"][0]["reason"], reason, "{url}: {problem}");
            // The refusal never repeats the URL (it may carry a token).
            assert!(!problem.to_string().contains("secret@"), "{problem}");
        }
        let listed = get_json(&app, "/api/v1/me/webhooks", &ann).await;
        assert_eq!(listed, json!({"webhooks": []}));
    }

    async fn a_webhook_is_sent_signed_your_move_and_game_over_without_a_rank(
        app, config = outbound_to_loopback
    ) {
        let receiver = Receiver::start().await;
        let red = app.register_user("red_hooked").await;
        let blue = app.register_user("blue_plain").await;
        let created = create_webhook(&app, &red, json!({"url": receiver.url})).await;
        let secret = created["secret"].as_str().unwrap().to_owned();
        assert!(secret.starts_with("whsec_"), "{created}");
        assert_eq!(created["state"], "active");
        // The secret is shown once: never in the list.
        let listed = get_json(&app, "/api/v1/me/webhooks", &red).await;
        assert_eq!(listed["webhooks"][0]["id"], created["id"]);
        assert!(!listed.to_string().contains(&secret), "{listed}");

        // Red is to move once both setups are in: "your_move" (on by
        // default; "game_started" is off by default).
        let game = start_game(&app, &red, &blue, 3).await;
        let got = receiver.wait_for(1).await;
        let body = verified(&got[0], &secret);
        assert_eq!(body["type"], "your_move", "{body}");
        assert_eq!(body["data"]["game_id"], game.as_str(), "{body}");
        assert_eq!(body["data"]["opponent"], "blue_plain", "{body}");
        assert!(body["data"]["deadline"].is_string(), "{body}");
        assert_eq!(got[0].path, "/hook");
        assert_eq!(got[0].headers["content-type"], "application/json");

        // Blue resigns: red is told the game is over, with the result.
        let resign = format!("/api/v1/games/{game}/resign");
        post_ok(&app, &resign, &blue, &json!({}), 200).await;
        let got = receiver.wait_for(2).await;
        let types: Vec<Value> = got.iter().map(|r| verified(r, &secret)["type"].clone()).collect();
        assert_eq!(types, ["your_move", "game_over"], "{got:?}");
        let over = verified(&got[1], &secret);
        assert_eq!(over["type"], "game_over", "{over}");
        assert_eq!(over["data"]["result"]["winner"], "red", "{over}");
        assert_ne!(got[0].headers["webhook-id"], got[1].headers["webhook-id"]);
        // Nothing about a piece ever goes out.
        for delivery in &got {
            let text = String::from_utf8_lossy(&delivery.body);
            for word in ["rank", "piece", "marshal", "spy", "flag", "bomb"] {
                assert!(!text.contains(word), "{word} in {text}");
            }
        }
        // Blue has no channel: nothing else was sent.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(receiver.received().len(), 2);

        let path = format!("/api/v1/me/webhooks/{}/deliveries", created["id"].as_str().unwrap());
        let deliveries = settled(&app, &path, &red).await;
        let listed = deliveries["deliveries"].as_array().unwrap();
        assert_eq!(listed.len(), 2, "{deliveries}");
        assert_eq!(listed[0]["event"], "game_over");
        assert_eq!(listed[0]["state"], "delivered");
        assert_eq!(listed[0]["attempts"], 1);
        assert_eq!(listed[0]["last_status"], 204);
        assert_eq!(listed[0]["id"].as_str(), Some(got[1].headers["webhook-id"].as_str()));
    }

    async fn a_failed_delivery_is_retried_on_schedule_under_the_same_id(
        app, config = outbound_to_loopback
    ) {
        let receiver = Receiver::start().await;
        let ann = app.register_user("ann_retry").await;
        let created = create_webhook(&app, &ann, json!({"url": receiver.url})).await;
        let hook = created["id"].as_str().unwrap().to_owned();
        receiver.answer_with(&[500, 503]);
        let ping = format!("/api/v1/me/webhooks/{hook}/test");
        let queued = post_ok(&app, &ping, &ann, &json!({}), 202).await;
        assert_eq!(queued["event"], "ping");
        let got = receiver.wait_for(1).await;
        assert_eq!(verified(&got[0], created["secret"].as_str().unwrap())["type"], "ping");

        // Not again before its retry is due (5 s on the server's clock).
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(receiver.received().len(), 1);
        let path = format!("/api/v1/me/webhooks/{hook}/deliveries");
        let listed = get_json(&app, &path, &ann).await;
        assert_eq!(listed["deliveries"][0]["state"], "pending", "{listed}");
        assert_eq!(listed["deliveries"][0]["last_status"], 500, "{listed}");

        app.clock.advance(chrono::Duration::seconds(6));
        let got = receiver.wait_for(2).await;
        // Then 5 minutes after the second failure.
        app.clock.advance(chrono::Duration::seconds(299));
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(receiver.received().len(), 2);
        app.clock.advance(chrono::Duration::seconds(2));
        let got3 = receiver.wait_for(3).await;
        let ids: Vec<&String> = got3.iter().map(|r| &r.headers["webhook-id"]).collect();
        assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
        assert_eq!(got.len(), 2);

        let listed = settled(&app, &path, &ann).await;
        let delivery = &listed["deliveries"][0];
        assert_eq!(delivery["state"], "delivered", "{listed}");
        assert_eq!(delivery["attempts"], 3, "{listed}");
        assert_eq!(delivery["next_attempt_at"], Value::Null, "{listed}");
    }

    async fn preferences_start_at_their_defaults_and_choose_what_is_sent(
        app, config = outbound_to_loopback
    ) {
        let receiver = Receiver::start().await;
        let red = app.register_user("red_prefs").await;
        let blue = app.register_user("blue_prefs").await;
        let defaults = get_json(&app, "/api/v1/me/notifications", &red).await;
        assert_eq!(defaults["events"]["your_move"]["webhook"], true, "{defaults}");
        assert_eq!(defaults["events"]["game_started"]["webhook"], false, "{defaults}");
        assert_eq!(defaults["events"].as_object().unwrap().len(), 12, "{defaults}");
        assert_eq!(defaults["events"]["round_started"]["email"], true, "{defaults}");
        assert_eq!(defaults["events"]["vacation_started"]["push"], true, "{defaults}");
        assert_eq!(defaults["events"]["vacation_ended"]["push"], false, "{defaults}");

        let body = json!({"events": {"your_move": {"webhook": false},
                                     "game_started": {"webhook": true}}});
        let response = app
            .client
            .put(app.url("/api/v1/me/notifications"))
            .bearer_auth(&red.access_token)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let set: Value = response.json().await.unwrap();
        assert_eq!(set["events"]["your_move"]["webhook"], false, "{set}");
        assert_eq!(set["events"]["your_move"]["push"], true, "{set}");
        assert_eq!(set, get_json(&app, "/api/v1/me/notifications", &red).await);

        // An unknown event or channel is refused, and nothing changes.
        for bad in [json!({"events": {"your_turn": {"push": true}}}),
                    json!({"events": {"your_move": {"sms": true}}})] {
            let response = app
                .client
                .put(app.url("/api/v1/me/notifications"))
                .bearer_auth(&red.access_token)
                .json(&bad)
                .send()
                .await
                .unwrap();
            assert!(response.status().is_client_error(), "{bad}");
        }
        assert_eq!(set, get_json(&app, "/api/v1/me/notifications", &red).await);

        create_webhook(&app, &red, json!({"url": receiver.url})).await;
        start_game(&app, &red, &blue, 3).await;
        let got = receiver.wait_for(1).await;
        let body: Value = serde_json::from_slice(&got[0].body).unwrap();
        assert_eq!(body["type"], "game_started", "{body}");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(receiver.received().len(), 1, "your_move is off for webhooks");
    }

    async fn each_player_of_a_pass_is_told_only_of_their_own_game(
        app, config = outbound_to_loopback
    ) {
        // Four players in two games, each with a webhook of their own: a
        // pass reads them all together, and each gets their own notice.
        let mut players = Vec::new();
        for name in ["ann_apart", "bob_apart", "cat_apart", "dan_apart"] {
            let user = app.register_user(name).await;
            let receiver = Receiver::start().await;
            let created = create_webhook(&app, &user, json!({"url": receiver.url})).await;
            let secret = created["secret"].as_str().unwrap().to_owned();
            players.push((user, receiver, secret));
        }
        let [(ann, ..), (bob, ..), (cat, ..), (dan, ..)] = &players[..] else {
            unreachable!()
        };
        let first = start_game(&app, ann, bob, 3).await;
        let second = start_game(&app, cat, dan, 3).await;
        // Red moves in both: then blue is to move in both.
        let ann_moved = play_move(&app, &first, ann, 0).await;
        let cat_moved = play_move(&app, &second, cat, 1).await;
        // Red is told it is their move; blue was challenged, then told.
        let red = ["your_move"].as_slice();
        let blue = ["challenge_received", "your_move"].as_slice();
        let expected = [
            (&first, "bob_apart", red, None),
            (&first, "ann_apart", blue, Some(ann_moved)),
            (&second, "dan_apart", red, None),
            (&second, "cat_apart", blue, Some(cat_moved)),
        ];
        for ((user, receiver, secret), (game, opponent, told, moved)) in
            players.iter().zip(expected.clone())
        {
            let got = receiver.wait_for(told.len()).await;
            let bodies: Vec<Value> = got.iter().map(|r| verified(r, secret)).collect();
            // Two notices of one pass go at once: they may come in
            // either order.
            let mut types: Vec<&str> = bodies.iter().map(|b| b["type"].as_str().unwrap()).collect();
            types.sort_unstable();
            assert_eq!(types, told, "{}: {bodies:?}", user.username);
            for body in &bodies {
                assert_eq!(body["data"]["game_id"], game.as_str(), "{body}");
                assert_eq!(body["data"]["opponent"], opponent, "{body}");
            }
            let last = bodies.iter().find(|b| b["type"] == "your_move").unwrap();
            match moved {
                Some((from, to)) => {
                    assert_eq!(last["data"]["last_move"], json!({"from": from, "to": to}));
                }
                None => assert_eq!(last["data"].get("last_move"), None, "{last}"),
            }
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        for ((user, receiver, _), (.., told, _)) in players.iter().zip(expected) {
            assert_eq!(receiver.received().len(), told.len(), "{}", user.username);
        }
    }

    async fn fan_out_passes_take_players_in_turns_each_with_their_own_events(app) {
        use api::schema::notification_cursors;
        use api::storage::events::{list_after_each, record_all, NewEventRow};
        use api::storage::outbox::{advance_cursors_from, claim_cursors_behind};
        use diesel::prelude::*;
        let mut users = Vec::new();
        for name in ["ann_turns", "bob_turns", "cat_turns"] {
            users.push(app.register_user(name).await.id);
        }
        let found = api::db::run(&app.pool, move |conn| {
            let uuid = |user: &String| uuid::Uuid::parse_str(user).unwrap();
            let mut new = Vec::new();
            for (user, count) in users.iter().zip([5, 3, 2]) {
                for _ in 0..count {
                    new.push(NewEventRow {
                        user_id: uuid(user),
                        kind: "your_turn",
                        game_id: None,
                        payload: "{}",
                    });
                }
            }
            let numbers = record_all(conn, chrono::Utc::now(), &new)?;
            // Each player's first new event number.
            let first = [numbers[0], numbers[5], numbers[8]];
            // Ann has 4 events after her cursor, Bob 3, Cat none.
            let cursors = [first[0], first[1] - 1, first[2] + 1];
            for (user, seq) in users.iter().zip(cursors) {
                diesel::insert_into(notification_cursors::table)
                    .values((
                        notification_cursors::user_id.eq(user),
                        notification_cursors::seq.eq(seq),
                    ))
                    .execute(conn)?;
            }
            let ids = |claimed: Vec<(String, i64)>| -> Vec<String> {
                claimed.into_iter().map(|(user, _)| user).collect()
            };
            let all = ids(claim_cursors_behind(conn, "", 10)?);
            let one = ids(claim_cursors_behind(conn, "", 1)?);
            let two = ids(claim_cursors_behind(conn, &one[0], 1)?);
            let three = ids(claim_cursors_behind(conn, &two[0], 1)?);
            let after: Vec<(String, i64)> = users.iter().cloned().zip(cursors).collect();
            let read: Vec<(String, i64)> = list_after_each(conn, &after, 2)?
                .into_iter()
                .map(|row| (row.user_id, row.seq))
                .collect();
            // Bob's cursor was moved by another pass since it was read.
            let (a, b, c) = (&users[0], &users[1], &users[2]);
            let moved = advance_cursors_from(
                conn,
                &[
                    (a.as_str(), cursors[0], first[0] + 2),
                    (b.as_str(), cursors[1] - 5, first[1] + 1),
                    (c.as_str(), cursors[2], first[2] + 1),
                ],
            )?;
            let now: Vec<(String, i64)> = notification_cursors::table
                .filter(notification_cursors::user_id.eq_any(&users))
                .select((notification_cursors::user_id, notification_cursors::seq))
                .load(conn)?;
            Ok((users, first, all, one, two, three, read, moved, now))
        })
        .await
        .unwrap();
        let (users, first, all, one, two, three, read, moved, now) = found;
        let (ann, bob, cat) = (&users[0], &users[1], &users[2]);
        // Only Ann and Bob are behind, taken in the order of their ids,
        // each pass going on after the one before.
        let mut behind = all.clone();
        behind.sort();
        assert_eq!(behind, {
            let mut both = vec![ann.clone(), bob.clone()];
            both.sort();
            both
        });
        assert_eq!([one, two].concat(), all);
        assert!(three.is_empty(), "{three:?}");
        // Each player's own events after their own cursor, at most 2 each,
        // player by player and oldest first.
        let mut expected = vec![
            (ann.clone(), first[0] + 1),
            (ann.clone(), first[0] + 2),
            (bob.clone(), first[1]),
            (bob.clone(), first[1] + 1),
        ];
        expected.sort();
        // (Player by player in the database's order of ids.)
        let mut sorted = read.clone();
        sorted.sort();
        assert_eq!(sorted, expected);
        assert_eq!(read[0].0, read[1].0, "{read:?}");
        assert!(read[0].1 < read[1].1 && read[2].1 < read[3].1, "{read:?}");
        // Only the cursors still where they were read moved.
        let mut want: Vec<&String> = vec![ann, cat];
        want.sort();
        let mut moved: Vec<String> = moved.into_iter().collect();
        moved.sort();
        assert_eq!(moved.iter().collect::<Vec<_>>(), want);
        let mut cursors = vec![
            (ann.clone(), first[0] + 2),
            (bob.clone(), first[1] - 1),
            (cat.clone(), first[2] + 1),
        ];
        cursors.sort();
        let mut now = now;
        now.sort();
        assert_eq!(now, cursors);
    }

    async fn a_deleted_account_takes_its_channels_with_it(app, config = outbound_to_loopback) {
        let receiver = Receiver::start().await;
        let ann = app.register_user("ann_leaves").await;
        create_webhook(&app, &ann, json!({"url": receiver.url})).await;
        let response = app
            .client
            .delete(app.url("/api/v1/me"))
            .bearer_auth(&ann.access_token)
            .json(&json!({"password": ann.password}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 204);
        let left: i64 = api::db::run(&app.pool, |conn| {
            use diesel::prelude::*;
            Ok(api::schema::webhooks::table.count().get_result(conn)?)
        })
        .await
        .unwrap();
        assert_eq!(left, 0);
    }
}

/// As [`outbound_to_loopback`], with a VAPID key: Web Push is on.
fn push_to_loopback(config: &mut api::config::Config) {
    outbound_to_loopback(config);
    let key = api::outbound::web_push::VapidKey::generate().to_base64url();
    config.vapid_private_key = Some(api::config::Secret::new(key));
    config.vapid_subject = "mailto:ops@example.org".to_owned();
}

fn from_base64url(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .unwrap()
}

async fn subscriptions(app: &TestApp, user: &TestUser) -> Vec<Value> {
    let listed = get_json(app, "/api/v1/me/push-subscriptions", user).await;
    listed["subscriptions"].as_array().unwrap().clone()
}

backend_tests! {
    async fn without_a_vapid_key_web_push_is_off(app) {
        let ann = app.register_user("ann_nopush").await;
        let key = app.get("/api/v1/push/vapid-public-key", None).await;
        assert_problem(key, 404, "not_found").await;
        let (_, p256dh, auth) = api::outbound::web_push::generate_browser_keys();
        let body = json!({"endpoint": "https://push.example.net/x",
                          "keys": {"p256dh": p256dh, "auth": auth}});
        let response = app
            .post_json("/api/v1/me/push-subscriptions", Some(&ann.access_token), &body)
            .await;
        assert_problem(response, 404, "not_found").await;
    }

    async fn a_subscription_with_bad_keys_or_endpoint_is_refused_with_every_problem(
        app, config = |config: &mut api::config::Config| {
            let key = api::outbound::web_push::VapidKey::generate().to_base64url();
            config.vapid_private_key = Some(api::config::Secret::new(key));
        }
    ) {
        let ann = app.register_user("ann_badpush").await;
        // An uncompressed point that is not on P-256, and 15 bytes of auth.
        let off_curve = format!("BA{}", "A".repeat(85));
        let body = json!({"endpoint": "http://192.168.1.1/push",
                          "keys": {"p256dh": off_curve, "auth": "AAAAAAAAAAAAAAAAAAAA"}});
        let response = app
            .post_json("/api/v1/me/push-subscriptions", Some(&ann.access_token), &body)
            .await;
        let problem = assert_problem(response, 422, "validation_failed").await;
        let fields: Vec<&str> = problem["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["field"].as_str().unwrap())
            .collect();
        assert_eq!(fields, ["endpoint", "keys.p256dh", "keys.auth"], "{problem}");
        assert_eq!(problem["errors"][0]["reason"], "not_https", "{problem}");
        assert!(subscriptions(&app, &ann).await.is_empty());
    }

    async fn a_browser_is_pushed_its_move_encrypted_with_a_vapid_token(
        app, config = push_to_loopback
    ) {
        use api::outbound::web_push::{decrypt, generate_browser_keys, verify_vapid};
        let service = Receiver::start().await;
        service.answer_with(&[201]);
        let red = app.register_user("red_pushed").await;
        let blue = app.register_user("blue_quiet").await;
        let key = app.get("/api/v1/push/vapid-public-key", None).await;
        assert_eq!(key.status(), 200);
        let key: Value = key.json().await.unwrap();
        let key = key["public_key"].as_str().unwrap().to_owned();
        assert_eq!(from_base64url(&key).len(), 65);

        let (browser, p256dh, auth) = generate_browser_keys();
        let body = json!({"endpoint": service.url, "expirationTime": null,
                          "keys": {"p256dh": p256dh, "auth": auth}});
        let created = post_ok(&app, "/api/v1/me/push-subscriptions", &red, &body, 201).await;
        assert_eq!(created["endpoint"], service.url.as_str());
        assert!(!created.to_string().contains(&p256dh), "{created}");
        // Subscribing the same endpoint again renews it.
        let again = post_ok(&app, "/api/v1/me/push-subscriptions", &red, &body, 200).await;
        assert_eq!(again["id"], created["id"]);
        assert_eq!(subscriptions(&app, &red).await.len(), 1);

        let game = start_game(&app, &red, &blue, 3).await;
        let got = service.wait_for(1).await;
        let push = &got[0];
        assert_eq!(push.headers["content-encoding"], "aes128gcm");
        assert_eq!(push.headers["ttl"], "86400");
        assert_eq!(push.headers["urgency"], "high");
        assert_eq!(push.headers["topic"], game.replace('-', ""));
        let claims = verify_vapid(&push.headers["authorization"], &key, app.now().timestamp())
            .unwrap_or_else(|e| panic!("a bad VAPID token: {e}"));
        let origin = service.url.trim_end_matches("/hook");
        assert_eq!(claims.aud, origin);
        assert_eq!(claims.sub, "mailto:ops@example.org");
        let plain = decrypt(&browser, &from_base64url(&auth), &push.body).unwrap();
        let notice: Value = serde_json::from_slice(&plain).unwrap();
        assert_eq!(notice["type"], "your_move", "{notice}");
        assert_eq!(notice["data"]["game_id"], game.as_str(), "{notice}");

        // The push service says the subscription is gone: it is deleted.
        service.answer_with(&[410]);
        post_ok(&app, &format!("/api/v1/games/{game}/resign"), &blue, &json!({}), 200).await;
        service.wait_for(2).await;
        for _ in 0..100 {
            if subscriptions(&app, &red).await.is_empty() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the subscription outlived a 410");
    }
}

/// The settings of a server process that delivers to loopback at once.
const PROCESS_TO_LOOPBACK: [(&str, &str); 2] = [
    ("OUTBOUND_ALLOW_PRIVATE_NETWORKS", "true"),
    ("OUTBOX_POLL_MILLIS", "50"),
];

backend_tests! {
    async fn a_delivery_cut_off_by_a_killed_server_is_sent_again_after_a_restart(
        database: TestDatabase
    ) {
        let receiver = Receiver::start().await;
        let mut first = ServerProcess::start_with(&database, &PROCESS_TO_LOOPBACK);
        let ann = first.register("ann_restart").await;
        let created = post_ok(&first, "/api/v1/me/webhooks", &ann,
                              &json!({"url": receiver.url}), 201).await;
        let hook = created["id"].as_str().unwrap().to_owned();
        receiver.answer_with(&[HOLD]);
        post_ok(&first, &format!("/api/v1/me/webhooks/{hook}/test"), &ann, &json!({}), 202).await;
        // The server is sending it, and dies before any answer.
        let cut = receiver.wait_for(1).await;
        first.kill();

        let app = spawn_app_on(database, outbound_to_loopback).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(receiver.received().len(), 1, "sent again before its lease ran out");
        // Its lease (60 s) runs out: another process sends it, same id.
        app.clock.advance(chrono::Duration::seconds(61));
        let again = receiver.wait_for(2).await;
        assert_eq!(again[1].headers["webhook-id"], cut[0].headers["webhook-id"]);
        let path = format!("/api/v1/me/webhooks/{hook}/deliveries");
        let listed = settled(&app, &path, &ann).await;
        assert_eq!(listed["deliveries"][0]["state"], "delivered", "{listed}");
        assert_eq!(listed["deliveries"][0]["attempts"], 2, "{listed}");
    }
}

backend_tests! {
    async fn more_players_behind_than_a_pass_takes_are_all_told_in_one_turn(
        database: TestDatabase
    ) {
        // A turn starts at most once a minute here: a player left out of
        // this turn would wait a minute for the next.
        let settings = [
            ("OUTBOUND_ALLOW_PRIVATE_NETWORKS", "true"),
            ("OUTBOX_POLL_MILLIS", "60000"),
            ("REGISTER_RATE_LIMIT", "1000"),
        ];
        let players = usize::try_from(api::notifications::fanout::PLAYERS_PER_PASS).unwrap() + 2;
        let receiver = Receiver::start().await;
        let mut first = ServerProcess::start_with(&database, &settings);
        let mut users = Vec::new();
        for n in 0..players {
            let user = first.register(&format!("turn_{n}")).await;
            let url = format!("{}/{n}", receiver.url);
            post_ok(&first, "/api/v1/me/webhooks", &user, &json!({"url": url}), 201).await;
            users.push(user);
        }
        // Each player is challenged by the next one: a notice each, none
        // fanned out yet (this process's turn came at its start).
        for (n, user) in users.iter().enumerate() {
            let challenger = &users[(n + 1) % players];
            let body = json!({"variant": "classic", "color": "red",
                              "opponent": user.username, "days_per_move": 3});
            post_ok(&first, "/api/v1/games", challenger, &body, 201).await;
        }
        assert!(receiver.received().is_empty(), "{:?}", receiver.received());
        first.kill();
        // The next process's first turn finds every player behind: its
        // passes take them all, the last two right after the first 50.
        let _app = spawn_app_on(database, |config| {
            config.outbound_allow_private_networks = true;
            config.outbox_poll = Duration::from_secs(60);
        })
        .await;
        let got = receiver.wait_for(players).await;
        let mut told: Vec<usize> = got
            .iter()
            .map(|r| r.path.rsplit('/').next().unwrap().parse().unwrap())
            .collect();
        told.sort_unstable();
        assert_eq!(told, (0..players).collect::<Vec<_>>());
        for delivery in &got {
            let body: Value = serde_json::from_slice(&delivery.body).unwrap();
            assert_eq!(body["type"], "challenge_received", "{body}");
        }
    }
}

postgres_tests! {
    async fn two_processes_deliver_each_event_once(database: TestDatabase) {
        let receiver = Receiver::start().await;
        let one = ServerProcess::start_with(&database, &PROCESS_TO_LOOPBACK);
        let other = ServerProcess::start_with(&database, &PROCESS_TO_LOOPBACK);
        let red = one.register("red_twice").await;
        let blue = one.register("blue_twice").await;
        let created = post_ok(&one, "/api/v1/me/webhooks", &red,
                              &json!({"url": receiver.url}), 201).await;
        let hook = created["id"].as_str().unwrap().to_owned();
        let pings = 20;
        for n in 0..pings {
            let server: &ServerProcess = if n % 2 == 0 { &one } else { &other };
            post_ok(server, &format!("/api/v1/me/webhooks/{hook}/test"), &red,
                    &json!({}), 202).await;
        }
        // Three games: red is to move in each (one event each, fanned out
        // by whichever process claims red's cursor first).
        for _ in 0..3 {
            start_game(&one, &red, &blue, 3).await;
        }
        let got = receiver.wait_for(pings + 3).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let got_all = receiver.received();
        assert_eq!(got_all.len(), got.len(), "a delivery came twice");
        let mut ids: Vec<&String> = got_all.iter().map(|r| &r.headers["webhook-id"]).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), pings + 3);
        let moves = got_all
            .iter()
            .filter(|r| serde_json::from_slice::<Value>(&r.body).unwrap()["type"] == "your_move")
            .count();
        assert_eq!(moves, 3);
    }
}
