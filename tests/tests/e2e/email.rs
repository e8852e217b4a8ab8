//! E-mail (docs/notifications.md, "E-mail"): an address verified by a code,
//! the daily digest, the deadline that cannot wait, one-click unsubscribe.
//! The relay is an SMTP server these tests start on loopback: it speaks
//! enough of RFC 5321 for a real client and records every message.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use crate::harness::{assert_problem, spawn_app_on, TestApp, TestUser};
use crate::support::{get_json, post_ok, relogin, start_game};

/// The domain of the markers' addresses.
const MARKER_DOMAIN: &str = "@marker.example";
static MARKERS: AtomicUsize = AtomicUsize::new(0);

/// One message the relay accepted.
#[derive(Debug, Clone)]
pub struct Message {
    pub mail_from: String,
    pub rcpt_to: Vec<String>,
    /// Header names in lower case, folded lines joined.
    pub headers: HashMap<String, String>,
    /// The text, its transfer encoding undone.
    pub text: String,
}

impl Message {
    pub fn subject(&self) -> &str {
        self.headers
            .get("subject")
            .map(String::as_str)
            .unwrap_or("")
    }
}

/// An SMTP relay on loopback. `refuse_next` makes it answer the next
/// recipients with the replies given (`451 ...` transient, `550 ...`
/// permanent) instead of 250.
#[derive(Clone)]
pub struct Relay {
    pub port: u16,
    got: Arc<Mutex<Vec<Message>>>,
    refusals: Arc<Mutex<Vec<&'static str>>>,
}

impl Relay {
    pub async fn start() -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let relay = Relay {
            port: listener.local_addr().unwrap().port(),
            got: Arc::default(),
            refusals: Arc::default(),
        };
        let serving = relay.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serving.clone().serve(socket));
            }
        });
        relay
    }

    pub fn refuse_next(&self, replies: &[&'static str]) {
        self.refusals.lock().unwrap().extend_from_slice(replies);
    }

    /// Every message but the markers of [`Relay::still`].
    pub fn messages(&self) -> Vec<Message> {
        let mut got = self.got.lock().unwrap().clone();
        got.retain(|m| !m.rcpt_to.iter().any(|to| to.ends_with(MARKER_DOMAIN)));
        got
    }

    /// Waits (real time, at most 10 s) until `n` messages came.
    pub async fn wait_for(&self, n: usize) -> Vec<Message> {
        for _ in 0..200 {
            let got = self.messages();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("expected {n} messages, got {:#?}", self.messages());
    }

    /// Waits until the refusals queued were all given.
    pub async fn wait_refused(&self) {
        for _ in 0..200 {
            if self.refusals.lock().unwrap().is_empty() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the relay was never asked to take the message it was to refuse");
    }

    /// Asserts that the outbox, alive and done with what was due, sent no
    /// more than `n` messages: a marker account's code, queued now, must
    /// come (the outbox claims what is due oldest first), then a few more
    /// of its passes must find nothing else to send.
    pub async fn still(&self, app: &TestApp, n: usize) {
        let k = MARKERS.fetch_add(1, Ordering::Relaxed);
        let marker = app.register_user(&format!("marker_{k}")).await;
        let address = format!("m{k}{MARKER_DOMAIN}");
        let response = put_json(
            app,
            "/api/v1/me/email",
            &marker,
            &json!({"address": address}),
        )
        .await;
        assert_eq!(response.status(), 202);
        let came = || {
            self.got
                .lock()
                .unwrap()
                .iter()
                .any(|m| m.rcpt_to.contains(&address))
        };
        for _ in 0..200 {
            if came() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(came(), "the outbox sent nothing: is it running?");
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert_eq!(self.messages().len(), n, "{:#?}", self.messages());
    }

    async fn serve(self, socket: tokio::net::TcpStream) {
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read);
        let reply = |text: &str| format!("{text}\r\n");
        if write
            .write_all(reply("220 relay.test ESMTP").as_bytes())
            .await
            .is_err()
        {
            return;
        }
        let (mut from, mut to) = (String::new(), Vec::new());
        loop {
            let mut line = String::new();
            match lines.read_line(&mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let command = line.trim_end().to_owned();
            let verb = command
                .split([' ', ':'])
                .next()
                .unwrap_or("")
                .to_ascii_uppercase();
            let answer = match verb.as_str() {
                "EHLO" => "250-relay.test\r\n250-8BITMIME\r\n250 SIZE 1000000".to_owned(),
                "HELO" => "250 relay.test".to_owned(),
                "MAIL" => {
                    from = between_brackets(&command);
                    to.clear();
                    "250 2.1.0 Ok".to_owned()
                }
                "RCPT" => {
                    let refusal = {
                        let mut refusals = self.refusals.lock().unwrap();
                        (!refusals.is_empty()).then(|| refusals.remove(0))
                    };
                    match refusal {
                        Some(refusal) => refusal.to_owned(),
                        None => {
                            to.push(between_brackets(&command));
                            "250 2.1.5 Ok".to_owned()
                        }
                    }
                }
                "DATA" => {
                    if write
                        .write_all(reply("354 End data with <CR><LF>.<CR><LF>").as_bytes())
                        .await
                        .is_err()
                    {
                        return;
                    }
                    let mut data = Vec::new();
                    loop {
                        let mut line = String::new();
                        match lines.read_line(&mut line).await {
                            Ok(0) | Err(_) => return,
                            Ok(_) => {}
                        }
                        let line = line.trim_end_matches(['\r', '\n']);
                        if line == "." {
                            break;
                        }
                        // Dot-stuffing undone (RFC 5321 4.5.2).
                        let line = if line.starts_with("..") {
                            &line[1..]
                        } else {
                            line
                        };
                        data.push(line.to_owned());
                    }
                    self.got.lock().unwrap().push(parse(&from, &to, &data));
                    "250 2.0.0 Ok: queued".to_owned()
                }
                "QUIT" => {
                    let _ = write.write_all(reply("221 2.0.0 Bye").as_bytes()).await;
                    return;
                }
                "RSET" | "NOOP" => "250 2.0.0 Ok".to_owned(),
                _ => "502 5.5.2 Command not recognized".to_owned(),
            };
            if write.write_all(reply(&answer).as_bytes()).await.is_err() {
                return;
            }
        }
    }
}

fn between_brackets(command: &str) -> String {
    let start = command.find('<').map_or(0, |at| at + 1);
    let end = command.rfind('>').unwrap_or(command.len());
    command.get(start..end).unwrap_or_default().to_owned()
}

/// The message's headers and its text, decoded from 7bit,
/// quoted-printable or base64.
fn parse(from: &str, to: &[String], data: &[String]) -> Message {
    let blank = data.iter().position(|l| l.is_empty()).unwrap_or(data.len());
    let mut headers: HashMap<String, String> = HashMap::new();
    let mut last = String::new();
    for line in &data[..blank] {
        if line.starts_with([' ', '\t']) {
            headers
                .entry(last.clone())
                .or_default()
                .push_str(line.trim_start());
            continue;
        }
        if let Some((name, value)) = line.split_once(':') {
            last = name.trim().to_ascii_lowercase();
            headers.insert(last.clone(), value.trim().to_owned());
        }
    }
    let body = data.get(blank + 1..).unwrap_or_default();
    let encoding = headers
        .get("content-transfer-encoding")
        .map(|e| e.to_ascii_lowercase())
        .unwrap_or_default();
    let text = match encoding.as_str() {
        "base64" => {
            let joined: String = body.concat();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(joined)
                .unwrap();
            String::from_utf8(bytes).unwrap()
        }
        "quoted-printable" => {
            let mut bytes = Vec::new();
            for line in body {
                let (line, soft) = match line.strip_suffix('=') {
                    Some(line) => (line, true),
                    None => (line.as_str(), false),
                };
                let raw = line.as_bytes();
                let mut at = 0;
                while at < raw.len() {
                    if raw[at] == b'=' && at + 2 < raw.len() {
                        let hex = std::str::from_utf8(&raw[at + 1..at + 3]).unwrap();
                        bytes.push(u8::from_str_radix(hex, 16).unwrap());
                        at += 3;
                    } else {
                        bytes.push(raw[at]);
                        at += 1;
                    }
                }
                if !soft {
                    bytes.extend_from_slice(b"\n");
                }
            }
            String::from_utf8(bytes).unwrap()
        }
        _ => body.iter().map(|l| format!("{l}\n")).collect(),
    };
    Message {
        mail_from: from.to_owned(),
        rcpt_to: to.to_vec(),
        headers,
        text,
    }
}

/// E-mail through `relay`; the outbox looks every 50 ms.
fn mail_through(relay: &Relay) -> impl FnOnce(&mut api::config::Config) + '_ {
    move |config| {
        config.outbox_poll = Duration::from_millis(50);
        config.smtp = Some(api::config::SmtpSettings {
            url: api::config::Secret::new(format!("smtp://127.0.0.1:{}", relay.port)),
            from: "Stratego <games@example.org>".to_owned(),
            public_url: "https://stratego.example.org".to_owned(),
        });
    }
}

async fn put_json(app: &TestApp, path: &str, user: &TestUser, body: &Value) -> reqwest::Response {
    app.client
        .put(app.url(path))
        .bearer_auth(&user.access_token)
        .json(body)
        .send()
        .await
        .unwrap()
}

/// The six digits of a code message.
fn code_in(message: &Message) -> String {
    let code: String = message
        .subject()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    assert_eq!(code.len(), 6, "{message:#?}");
    assert!(message.text.contains(&code), "{message:#?}");
    code
}

/// Gives `user` the verified address `address`; returns the messages the
/// relay has then.
async fn verified_address(app: &TestApp, relay: &Relay, user: &TestUser, address: &str) -> usize {
    let before = relay.messages().len();
    let response = put_json(app, "/api/v1/me/email", user, &json!({"address": address})).await;
    assert_eq!(response.status(), 202);
    let got = relay.wait_for(before + 1).await;
    let code = code_in(&got[before]);
    let state = post_ok(
        app,
        "/api/v1/me/email/verify",
        user,
        &json!({"code": code}),
        200,
    )
    .await;
    assert_eq!(state["verified"], true, "{state}");
    before + 1
}

/// The path and query of a message's `List-Unsubscribe` link.
fn unsubscribe_path(message: &Message) -> String {
    let header = &message.headers["list-unsubscribe"];
    let url = header.trim_start_matches('<').trim_end_matches('>');
    let path = url
        .strip_prefix("https://stratego.example.org")
        .unwrap_or_else(|| panic!("{url}"));
    assert!(
        message.text.contains(url),
        "the text has the link too: {message:#?}"
    );
    path.to_owned()
}

/// Nothing about a piece is ever mailed. (The unsubscribe link is left
/// out: its signed token is random base64url, which spells "spy" or "rank"
/// once in a few hundred messages.)
fn assert_no_piece(message: &Message) {
    let mut text = format!("{} {}", message.subject(), message.text);
    if let Some(header) = message.headers.get("list-unsubscribe") {
        let url = header.trim_start_matches('<').trim_end_matches('>');
        text = text.replace(url, "");
    }
    let text = text.to_ascii_lowercase();
    for word in [
        "rank",
        "piece",
        "marshal",
        "general",
        "colonel",
        "major",
        "captain",
        "lieutenant",
        "sergeant",
        "miner",
        "scout",
        "spy",
        "bomb",
    ] {
        assert!(!text.contains(word), "{word} in {text}");
    }
}

backend_tests! {
    async fn without_a_relay_e_mail_is_off(app) {
        let ann = app.register_user("ann_nomail").await;
        let response = app.get("/api/v1/me/email", Some(&ann.access_token)).await;
        let problem = assert_problem(response, 404, "not_found").await;
        assert!(problem["detail"].as_str().unwrap().contains("SMTP_URL"), "{problem}");
        let response = put_json(&app, "/api/v1/me/email", &ann, &json!({"address": "ann@example.org"})).await;
        assert_problem(response, 404, "not_found").await;
        let response = app.get("/api/v1/email/unsubscribe?token=abc", None).await;
        assert_problem(response, 404, "not_found").await;
    }

    async fn an_address_is_verified_by_the_code_mailed_to_it(database: TestDatabase) {
        let relay = Relay::start().await;
        let app = spawn_app_on(database, mail_through(&relay)).await;
        let ann = app.register_user("ann_mail").await;
        let none = get_json(&app, "/api/v1/me/email", &ann).await;
        assert_eq!(none, json!({"address": null, "verified": false, "code_expires_at": null}));

        for bad in ["not an address", "root@localhost", "a@b."] {
            let response = put_json(&app, "/api/v1/me/email", &ann, &json!({"address": bad})).await;
            let problem = assert_problem(response, 422, "validation_failed").await;
            assert_eq!(problem["errors"][0]["field"], "address", "{problem}");
        }
        let response = put_json(&app, "/api/v1/me/email", &ann, &json!({"address": "ann@example.org"})).await;
        assert_eq!(response.status(), 202);
        let state: Value = response.json().await.unwrap();
        assert_eq!(state["address"], "ann@example.org");
        assert_eq!(state["verified"], false);
        let expires = chrono::DateTime::parse_from_rfc3339(state["code_expires_at"].as_str().unwrap()).unwrap();
        assert_eq!(expires.timestamp(), (app.now() + chrono::Duration::hours(1)).timestamp());

        let got = relay.wait_for(1).await;
        assert_eq!(got[0].rcpt_to, ["ann@example.org"]);
        assert_eq!(got[0].mail_from, "games@example.org");
        assert!(got[0].headers["from"].contains("games@example.org"), "{:#?}", got[0]);
        // A code is not a list: nothing to unsubscribe from.
        assert!(!got[0].headers.contains_key("list-unsubscribe"), "{:#?}", got[0]);
        let code = code_in(&got[0]);

        // A new code only after a minute.
        let response = put_json(&app, "/api/v1/me/email", &ann, &json!({"address": "ann@example.org"})).await;
        assert_eq!(response.headers()["retry-after"], "60");
        assert_problem(response, 429, "rate_limited").await;

        let wrong = if code == "000000" { "000001" } else { "000000" };
        let response = app
            .post_json("/api/v1/me/email/verify", Some(&ann.access_token), &json!({"code": wrong}))
            .await;
        let problem = assert_problem(response, 422, "validation_failed").await;
        assert_eq!(problem["errors"][0]["field"], "code", "{problem}");
        assert_eq!(problem["errors"][0]["reason"], "wrong_code", "{problem}");
        assert_eq!(get_json(&app, "/api/v1/me/email", &ann).await, state);

        let verified = post_ok(&app, "/api/v1/me/email/verify", &ann, &json!({"code": code}), 200).await;
        assert_eq!(verified, json!({"address": "ann@example.org", "verified": true, "code_expires_at": null}));
        assert_eq!(get_json(&app, "/api/v1/me/email", &ann).await, verified);
        relay.still(&app, 1).await;

        // Five tries void a code, also when sent all at once: of ten wrong
        // codes at the same moment, five are judged and five refused; the
        // right one then fails too.
        let bob = app.register_user("bob_mail").await;
        let response = put_json(&app, "/api/v1/me/email", &bob, &json!({"address": "bob@example.org"})).await;
        assert_eq!(response.status(), 202);
        let got = relay.wait_for(2).await;
        let code = code_in(&got[1]);
        let wrong = if code == "999999" { "999998" } else { "999999" };
        let mut tries = tokio::task::JoinSet::new();
        for _ in 0..10 {
            let request = app
                .client
                .post(app.url("/api/v1/me/email/verify"))
                .bearer_auth(&bob.access_token)
                .json(&json!({"code": wrong}));
            tries.spawn(request.send());
        }
        let mut reasons = Vec::new();
        while let Some(response) = tries.join_next().await {
            let problem = assert_problem(response.unwrap().unwrap(), 422, "validation_failed").await;
            reasons.push(problem["errors"][0]["reason"].as_str().unwrap().to_owned());
        }
        reasons.sort();
        assert_eq!(reasons, [["expired"; 5], ["wrong_code"; 5]].concat(), "{reasons:?}");
        let response = app
            .post_json("/api/v1/me/email/verify", Some(&bob.access_token), &json!({"code": code}))
            .await;
        let problem = assert_problem(response, 422, "validation_failed").await;
        assert_eq!(problem["errors"][0]["reason"], "expired", "{problem}");
        let state = get_json(&app, "/api/v1/me/email", &bob).await;
        assert_eq!(state["code_expires_at"], Value::Null, "{state}");
        // A code is void after an hour too; a new one can be asked for.
        app.clock.advance(chrono::Duration::minutes(61));
        let mut bob = bob;
        relogin(&app, &mut bob).await;
        let response = put_json(&app, "/api/v1/me/email", &bob, &json!({"address": "bob@example.org"})).await;
        assert_eq!(response.status(), 202);
        let got = relay.wait_for(3).await;
        assert_ne!(code_in(&got[2]), "", "a new code came");

        // Removing the address: 204, then 404.
        let delete = |user: &TestUser| {
            app.client.delete(app.url("/api/v1/me/email")).bearer_auth(&user.access_token).send()
        };
        assert_eq!(delete(&bob).await.unwrap().status(), 204);
        assert_problem(delete(&bob).await.unwrap(), 404, "not_found").await;
        relay.still(&app, 3).await;
    }

    async fn codes_are_limited_per_player_and_per_address(database: TestDatabase) {
        let relay = Relay::start().await;
        let app = spawn_app_on(database, mail_through(&relay)).await;
        // Five codes a day to one player.
        let mut carol = app.register_user("carol_codes").await;
        for n in 1..=5 {
            let address = format!("carol{n}@example.org");
            let response = put_json(&app, "/api/v1/me/email", &carol, &json!({"address": address})).await;
            assert_eq!(response.status(), 202, "code {n}");
            // (A code not yet sent when the next is asked for is dropped.)
            relay.wait_for(n).await;
            app.clock.advance(chrono::Duration::seconds(61));
        }
        let response = put_json(&app, "/api/v1/me/email", &carol, &json!({"address": "carol@example.org"})).await;
        let wait: i64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert_eq!(wait, 86_400 - 5 * 61, "until the day of the first code is over");
        assert_problem(response, 429, "rate_limited").await;
        app.clock.advance(chrono::Duration::seconds(wait));
        relogin(&app, &mut carol).await;
        let response = put_json(&app, "/api/v1/me/email", &carol, &json!({"address": "carol@example.org"})).await;
        assert_eq!(response.status(), 202);

        // Two other accounts may wait for codes at one address; a third
        // is someone flooding it.
        for (name, status) in [("dave_shared", 202), ("erin_shared", 202), ("fred_shared", 429)] {
            let user = app.register_user(name).await;
            let response = put_json(&app, "/api/v1/me/email", &user, &json!({"address": "Shared@Example.org"})).await;
            assert_eq!(response.status(), status, "{name}");
        }
        relay.still(&app, 8).await;
        let shared = relay.messages().iter().filter(|m| m.rcpt_to == ["Shared@Example.org"]).count();
        assert_eq!(shared, 2);
    }

    async fn a_new_address_takes_nothing_queued_for_the_old_one(database: TestDatabase) {
        let relay = Relay::start().await;
        let app = spawn_app_on(database, mail_through(&relay)).await;
        let red = app.register_user("red_moving").await;
        let blue = app.register_user("blue_moving").await;
        let seen = verified_address(&app, &relay, &red, "red@example.org").await;
        start_game(&app, &red, &blue, 3).await;
        relay.wait_for(seen + 1).await;
        // Queued for tomorrow's digest, to the old address: waited for, so
        // that the notice is fanned out before the address changes (one
        // fanned out after the change is the new address's to send).
        start_game(&app, &red, &blue, 3).await;
        relay.still(&app, seen + 1).await;
        app.clock.advance(chrono::Duration::minutes(1));
        let seen = verified_address(&app, &relay, &red, "red@example.net").await;
        app.clock.advance(chrono::Duration::days(1));
        relay.still(&app, seen).await;
        assert!(relay.messages().iter().all(|m| m.subject().contains("code") || m.rcpt_to == ["red@example.org"]));
    }

    async fn a_digest_goes_once_a_day_and_one_click_unsubscribes(database: TestDatabase) {
        let relay = Relay::start().await;
        let app = spawn_app_on(database, mail_through(&relay)).await;
        let red = app.register_user("red_digest").await;
        let blue = app.register_user("blue_digest").await;
        let mut seen = verified_address(&app, &relay, &red, "red@example.org").await;

        // Red is to move: the first digest goes at once.
        let first = start_game(&app, &red, &blue, 3).await;
        let got = relay.wait_for(seen + 1).await;
        let digest = &got[seen];
        seen += 1;
        assert_eq!(digest.subject(), "Your move in 1 game", "{digest:#?}");
        assert!(digest.text.contains("Hello red_digest"), "{digest:#?}");
        assert!(digest.text.contains("against blue_digest: your move before"), "{digest:#?}");
        assert!(digest.text.contains(&first), "{digest:#?}");
        assert_eq!(digest.headers["list-unsubscribe-post"], "List-Unsubscribe=One-Click");
        assert_no_piece(digest);
        // Blue gave no address: nothing for blue.
        assert_eq!(digest.rcpt_to, ["red@example.org"]);

        // More within the day waits for the next day's digest.
        let second = start_game(&app, &red, &blue, 3).await;
        post_ok(&app, &format!("/api/v1/games/{first}/resign"), &blue, &json!({}), 200).await;
        relay.still(&app, seen).await;
        app.clock.advance(chrono::Duration::hours(23));
        relay.still(&app, seen).await;
        app.clock.advance(chrono::Duration::hours(1));
        let got = relay.wait_for(seen + 1).await;
        let digest = &got[seen];
        seen += 1;
        assert_eq!(digest.subject(), "Your move in 1 game", "{digest:#?}");
        assert!(digest.text.contains(&second), "{digest:#?}");
        assert!(
            digest.text.contains(&format!("your game against blue_digest is over: you won (resignation) (game {first})")),
            "{digest:#?}"
        );
        assert_no_piece(digest);
        relay.still(&app, seen).await;

        let (mut red, mut blue) = (red, blue);
        relogin(&app, &mut red).await;
        relogin(&app, &mut blue).await;
        // Queued for tomorrow's digest: unsubscribing drops it too.
        start_game(&app, &red, &blue, 3).await;
        // Opening the link asks; it changes nothing.
        let path = unsubscribe_path(digest);
        let page = app.get(&path, None).await;
        assert_eq!(page.status(), 200);
        assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
        let html = page.text().await.unwrap();
        assert!(html.contains("<form method=\"post\">"), "{html}");
        let before = get_json(&app, "/api/v1/me/notifications", &red).await;
        assert_eq!(before["events"]["your_move"]["email"], true, "{before}");

        // A link that is not ours changes nothing either.
        let mut tampered = path.clone().into_bytes();
        let last = tampered.len() - 1;
        tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(tampered).unwrap();
        let response = app.client.post(app.url(&tampered)).send().await.unwrap();
        assert_problem(response, 404, "not_found").await;
        assert_eq!(get_json(&app, "/api/v1/me/notifications", &red).await, before);

        // One click, as a mail client sends it (RFC 8058).
        let response = app
            .client
            .post(app.url(&path))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let after = get_json(&app, "/api/v1/me/notifications", &red).await;
        for (event, channels) in after["events"].as_object().unwrap() {
            assert_eq!(channels["email"], false, "{event}: {after}");
            assert_eq!(channels["push"], before["events"][event]["push"], "{event}");
        }
        // And no more mail: not what was queued, not what comes.
        start_game(&app, &red, &blue, 1).await;
        app.clock.advance(chrono::Duration::days(2));
        relay.still(&app, seen).await;
    }

    async fn a_deadline_within_a_day_is_mailed_at_once(database: TestDatabase) {
        let relay = Relay::start().await;
        let app = spawn_app_on(database, mail_through(&relay)).await;
        let red = app.register_user("red_urgent").await;
        let blue = app.register_user("blue_urgent").await;
        let mut seen = verified_address(&app, &relay, &red, "red@example.org").await;
        start_game(&app, &red, &blue, 3).await;
        relay.wait_for(seen + 1).await;
        seen += 1;
        // A day a move: the digest cannot wait for tomorrow.
        let hurried = start_game(&app, &red, &blue, 1).await;
        let got = relay.wait_for(seen + 1).await;
        assert_eq!(got[seen].subject(), "Your move in 2 games", "{:#?}", got[seen]);
        assert!(got[seen].text.contains(&hurried), "{:#?}", got[seen]);
        relay.still(&app, seen + 1).await;
    }

    async fn a_relay_that_refuses_for_now_is_tried_again(database: TestDatabase) {
        let relay = Relay::start().await;
        let app = spawn_app_on(database, mail_through(&relay)).await;
        let ann = app.register_user("ann_retry_mail").await;
        relay.refuse_next(&["451 4.3.0 Try again later"]);
        let response = put_json(&app, "/api/v1/me/email", &ann, &json!({"address": "ann@example.org"})).await;
        assert_eq!(response.status(), 202);
        relay.wait_refused().await;
        relay.still(&app, 0).await;
        // The first retry is 5 s later on the server's clock.
        app.clock.advance(chrono::Duration::seconds(6));
        let got = relay.wait_for(1).await;
        code_in(&got[0]);

        // A permanent refusal is not tried again.
        let bob = app.register_user("bob_refused").await;
        relay.refuse_next(&["550 5.1.1 No such mailbox"]);
        let response = put_json(&app, "/api/v1/me/email", &bob, &json!({"address": "bob@example.org"})).await;
        assert_eq!(response.status(), 202);
        relay.wait_refused().await;
        // Past the first retry, and the code still usable: not sent again.
        app.clock.advance(chrono::Duration::seconds(6));
        relay.still(&app, 1).await;
    }
}
