//! Every answer of a whole game, checked against the schemas of the
//! committed `openapi.yaml`: what a generated client expects is what the
//! server sends. The checks: `$ref`, `oneOf` (with its `discriminator`, or
//! a nullable wrapper), `type` (arrays of types for nullable values),
//! `required`, no undocumented property, `enum`, `pattern`,
//! `minimum`/`maximum`, `items` and maps (`additionalProperties`). And, per
//! named schema, that no optional property was in fact always sent (a
//! property absent only sometimes must say so: "absent" in its
//! description).

use std::collections::{BTreeMap, BTreeSet};

use domain::rng::SplitMix64;
use domain::Rules;
use serde_json::{json, Value};

use crate::harness::{TestApp, TestUser};
use crate::support::*;

const OPENAPI_YAML: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi.yaml");

/// The committed document, as JSON.
pub fn committed_document() -> Value {
    let text = std::fs::read_to_string(OPENAPI_YAML).unwrap();
    yaml_serde::from_str(&text).unwrap()
}

#[derive(Default)]
struct Seen {
    instances: usize,
    present: BTreeMap<String, usize>,
}

/// Checks JSON values against the document's schemas, and keeps count of
/// the properties seen in each named schema.
pub struct Contract {
    doc: Value,
    seen: BTreeMap<String, Seen>,
    checked: usize,
}

impl Contract {
    pub fn new() -> Self {
        Self {
            doc: committed_document(),
            seen: BTreeMap::new(),
            checked: 0,
        }
    }

    fn resolve(&self, reference: &str) -> (String, Value) {
        let pointer = reference.trim_start_matches('#');
        let schema = self
            .doc
            .pointer(pointer)
            .unwrap_or_else(|| panic!("dangling {reference}"))
            .clone();
        let name = reference.rsplit('/').next().unwrap_or_default().to_owned();
        (name, schema)
    }

    /// The operation `operation_id` of the document.
    fn operation(&self, operation_id: &str) -> &Value {
        self.doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|item| item.as_object().unwrap().values())
            .find(|operation| operation["operationId"] == operation_id)
            .unwrap_or_else(|| panic!("no operation {operation_id}"))
    }

    /// The answer `status` of operation `operation_id`, its `$ref` resolved.
    fn response(&self, operation_id: &str, status: u16) -> Value {
        let response = &self.operation(operation_id)["responses"][status.to_string()];
        match response["$ref"].as_str() {
            Some(reference) => self.resolve(reference).1,
            None => response.clone(),
        }
    }

    /// The schema of the JSON answer `status` of operation `operation_id`.
    pub fn response_schema(&self, operation_id: &str, status: u16) -> Value {
        let content = &self.response(operation_id, status)["content"];
        let mut schema = content["application/json"]["schema"].clone();
        if schema.is_null() {
            schema = content["application/problem+json"]["schema"].clone();
        }
        assert!(
            schema.is_object(),
            "{operation_id} {status} has no JSON schema"
        );
        schema
    }

    /// Fails unless every header the document lists for the answer
    /// `status` of `operation_id` is in `headers`.
    pub fn check_headers(
        &self,
        operation_id: &str,
        status: u16,
        headers: &reqwest::header::HeaderMap,
    ) {
        let response = self.response(operation_id, status);
        for name in response["headers"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|h| h.0)
        {
            assert!(
                headers.contains_key(name.as_str()),
                "{operation_id} {status} lacks the documented {name}"
            );
        }
    }

    /// Whether a header value fits the schema of header parameter `name` of
    /// `operation_id` (read as a JSON number where it is one).
    pub fn header_fits(&mut self, operation_id: &str, name: &str, value: &str) -> bool {
        let schema = self.operation(operation_id)["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["in"] == "header" && p["name"] == name)
            .unwrap_or_else(|| panic!("{operation_id} has no header {name}"))["schema"]
            .clone();
        let value = match value.parse::<i64>() {
            Ok(number) => json!(number),
            Err(_) => json!(value),
        };
        let mut errors = Vec::new();
        self.validate(&value, &schema, None, name, false, &mut errors);
        errors.is_empty()
    }

    /// Checks one frame of the stream `operation_id` answers: the frame as
    /// a Server-Sent Events reader parses it (`id`, `event`, `data`)
    /// against the `text/event-stream` schema, then the JSON in `data`
    /// against the schema its `contentSchema` names.
    pub fn check_frame(&mut self, operation_id: &str, frame: &Frame) {
        let schema =
            self.response(operation_id, 200)["content"]["text/event-stream"]["schema"].clone();
        let mut parsed = json!({"data": frame.data});
        for (field, value) in [("id", &frame.id), ("event", &frame.event)] {
            if let Some(value) = value {
                parsed[field] = json!(value);
            }
        }
        let mut errors = Vec::new();
        self.validate(&parsed, &schema, None, "$", true, &mut errors);
        let data = &schema["properties"]["data"];
        assert_eq!(
            data["contentMediaType"], "application/json",
            "{operation_id}"
        );
        let content = data["contentSchema"].clone();
        assert!(content.is_object(), "{operation_id}: no contentSchema");
        match serde_json::from_str::<Value>(&frame.data) {
            Ok(value) => self.validate(&value, &content, None, "$.data", true, &mut errors),
            Err(error) => errors.push(format!("$.data is not JSON: {error}")),
        }
        assert!(
            errors.is_empty(),
            "a frame of {operation_id} does not fit the document:\n{}\n{frame:?}",
            errors.join("\n")
        );
        self.checked += 1;
    }

    /// Checks `body`, the answer `status` of `operation_id`.
    pub fn check(&mut self, operation_id: &str, status: u16, body: &Value) {
        let schema = self.response_schema(operation_id, status);
        let mut errors = Vec::new();
        self.validate(body, &schema, None, "$", true, &mut errors);
        assert!(
            errors.is_empty(),
            "{operation_id} {status} does not fit the document:\n{}\n{body}",
            errors.join("\n")
        );
        self.checked += 1;
    }

    fn validate(
        &mut self,
        value: &Value,
        schema: &Value,
        name: Option<&str>,
        at: &str,
        record: bool,
        errors: &mut Vec<String>,
    ) {
        if let Some(reference) = schema["$ref"].as_str() {
            let (name, resolved) = self.resolve(reference);
            self.validate(value, &resolved, Some(&name), at, record, errors);
            return;
        }
        if let Some(items) = schema["oneOf"].as_array() {
            if let Some(property) = schema["discriminator"]["propertyName"].as_str() {
                let tag = value[property].as_str().unwrap_or_default();
                match schema["discriminator"]["mapping"][tag].as_str() {
                    Some(reference) => {
                        let (name, resolved) = self.resolve(reference);
                        self.validate(value, &resolved, Some(&name), at, record, errors);
                    }
                    None => errors.push(format!("{at}: no variant for {property} = {tag:?}")),
                }
            } else {
                let matching: Vec<&Value> = items
                    .iter()
                    .filter(|item| {
                        let mut trial = Vec::new();
                        self.validate(value, item, None, at, false, &mut trial);
                        trial.is_empty()
                    })
                    .collect();
                match matching.as_slice() {
                    [one] => {
                        let one = (*one).clone();
                        self.validate(value, &one, None, at, record, errors);
                    }
                    _ => errors.push(format!(
                        "{at}: {} of the oneOf match {value}",
                        matching.len()
                    )),
                }
            }
            return;
        }
        if let Some(types) = types_of(schema) {
            if !types.iter().any(|t| has_type(value, t)) {
                errors.push(format!("{at}: {value} is not of type {types:?}"));
                return;
            }
        }
        if let Some(allowed) = schema["enum"].as_array() {
            if !allowed.contains(value) {
                errors.push(format!("{at}: {value} is not one of {allowed:?}"));
            }
        }
        if let (Some(pattern), Some(text)) = (schema["pattern"].as_str(), value.as_str()) {
            if !regex::Regex::new(pattern).unwrap().is_match(text) {
                errors.push(format!("{at}: {text:?} does not match {pattern}"));
            }
        }
        if let Some(text) = value.as_str() {
            let length = text.chars().count() as u64;
            if schema["minLength"].as_u64().is_some_and(|min| length < min) {
                errors.push(format!("{at}: {text:?} is shorter than the minLength"));
            }
            if schema["maxLength"].as_u64().is_some_and(|max| length > max) {
                errors.push(format!("{at}: {text:?} is longer than the maxLength"));
            }
        }
        if let Some(number) = value.as_f64() {
            if schema["minimum"].as_f64().is_some_and(|min| number < min) {
                errors.push(format!("{at}: {number} is below the minimum"));
            }
            if schema["maximum"].as_f64().is_some_and(|max| number > max) {
                errors.push(format!("{at}: {number} is above the maximum"));
            }
        }
        if let Some(items) = value.as_array() {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    self.validate(
                        item,
                        item_schema,
                        None,
                        &format!("{at}[{i}]"),
                        record,
                        errors,
                    );
                }
            }
        }
        if let Some(object) = value.as_object() {
            let properties = schema["properties"].as_object();
            for required in schema["required"].as_array().into_iter().flatten() {
                let required = required.as_str().unwrap();
                if !object.contains_key(required) {
                    errors.push(format!("{at}: required {required} is missing"));
                }
            }
            for (key, inner) in object {
                let inner_at = format!("{at}.{key}");
                match (
                    properties.and_then(|p| p.get(key)),
                    schema.get("additionalProperties"),
                ) {
                    (Some(property), _) => {
                        let property = property.clone();
                        self.validate(inner, &property, None, &inner_at, record, errors);
                    }
                    (None, Some(additional)) if additional.is_object() => {
                        let additional = additional.clone();
                        self.validate(inner, &additional, None, &inner_at, record, errors);
                    }
                    (None, Some(Value::Bool(true))) => {}
                    (None, _) if properties.is_some() => {
                        errors.push(format!("{at}: {key} is not in the schema"));
                    }
                    (None, _) => {}
                }
            }
            if let (true, Some(name), Some(_)) = (record, name, properties) {
                let seen = self.seen.entry(name.to_owned()).or_default();
                seen.instances += 1;
                for key in object.keys() {
                    *seen.present.entry(key.clone()).or_default() += 1;
                }
            }
        }
    }

    /// Fails if an optional property of a named schema was in every
    /// instance seen, unless its description says when it is absent.
    pub fn assert_no_optional_always_present(&self) {
        let mut wrong = Vec::new();
        for (name, seen) in &self.seen {
            let schema = &self.doc["components"]["schemas"][name];
            let required: BTreeSet<&str> = schema["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            for (property, &count) in &seen.present {
                let description = schema["properties"][property]["description"]
                    .as_str()
                    .unwrap_or_default();
                if count == seen.instances
                    && !required.contains(property.as_str())
                    && !description.contains("absent")
                {
                    wrong.push(format!(
                        "{name}.{property}: optional, but in all {count} instances"
                    ));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// The named schemas seen at least once.
    pub fn schemas_seen(&self) -> BTreeSet<&str> {
        self.seen.keys().map(String::as_str).collect()
    }
}

fn types_of(schema: &Value) -> Option<Vec<&str>> {
    match &schema["type"] {
        Value::String(one) => Some(vec![one.as_str()]),
        Value::Array(many) => Some(many.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

fn has_type(value: &Value, schema_type: &str) -> bool {
    match schema_type {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    }
}

pub async fn get_checked(
    app: &TestApp,
    contract: &mut Contract,
    operation: &str,
    path: &str,
    user: &TestUser,
) -> Value {
    let response = app.get_as(path, user).await;
    assert_eq!(response.status(), 200, "GET {path}");
    contract.check_headers(operation, 200, response.headers());
    let body = response.json().await.unwrap();
    contract.check(operation, 200, &body);
    body
}

async fn post_checked(
    app: &TestApp,
    contract: &mut Contract,
    operation: &str,
    path: &str,
    user: &TestUser,
    body: &Value,
    status: u16,
) -> Value {
    let response = app.post_as(path, user, body).await;
    assert_eq!(response.status(), status, "POST {path} {body}");
    contract.check_headers(operation, status, response.headers());
    let answer = response.json().await.unwrap();
    contract.check(operation, status, &answer);
    answer
}

/// Every page of `user`'s events, each checked.
async fn all_events(app: &TestApp, contract: &mut Contract, user: &TestUser) -> Vec<Value> {
    let mut after = 0;
    let mut events = Vec::new();
    loop {
        let path = format!("/api/v1/events?after={after}&limit=50");
        let page = get_checked(app, contract, "list_events", &path, user).await;
        let batch = page["events"].as_array().unwrap().clone();
        if batch.is_empty() {
            return events;
        }
        after = page["last_id"].as_i64().unwrap();
        events.extend(batch);
    }
}

/// POSTs `body` expecting the problem `code` with `status`; checks it.
#[allow(clippy::too_many_arguments)]
async fn refused_checked(
    app: &TestApp,
    contract: &mut Contract,
    operation: &str,
    path: &str,
    user: Option<&TestUser>,
    body: &Value,
    status: u16,
    code: &str,
) -> Value {
    let token = user.map(|u| u.access_token.as_str());
    let response = app.post_json(path, token, body).await;
    contract.check_headers(operation, status, response.headers());
    let answer = crate::harness::assert_problem(response, status, code).await;
    contract.check(operation, status, &answer);
    answer
}

async fn lists(app: &TestApp, contract: &mut Contract, user: &TestUser) {
    for query in [
        "",
        "?mine=true",
        "?my_turn=true",
        "?status=finished",
        "?limit=1",
    ] {
        let path = format!("/api/v1/games{query}");
        get_checked(app, contract, "list_games", &path, user).await;
    }
}

backend_tests! {
    /// A challenge declined, one withdrawn, and a whole game with rescues,
    /// a draw offer and its decline, played to its end: every view, move
    /// answer, history, list and event page fits the document.
    async fn every_answer_of_a_game_fits_the_document(app) {
        let mut contract = Contract::new();
        let (red, blue) = two_users(&app, "contract").await;
        let watcher = app.register_user("contract_watch").await;

        // A challenge declined, and one withdrawn.
        let challenge = json!({"variant": "duel", "color": "red", "opponent": blue.username});
        let declined = post_checked(&app, &mut contract, "create_game", "/api/v1/games", &red,
            &challenge, 201).await;
        let path = format!("/api/v1/games/{}/decline", declined["id"].as_str().unwrap());
        post_checked(&app, &mut contract, "decline_game", &path, &blue, &json!({}), 200).await;
        let withdrawn = post_checked(&app, &mut contract, "create_game", "/api/v1/games", &red,
            &challenge, 201).await;
        let path = format!("/api/v1/games/{}/abort", withdrawn["id"].as_str().unwrap());
        post_checked(&app, &mut contract, "abort_game", &path, &red, &json!({}), 200).await;

        // The game.
        let rules = Rules { rescue: true, max_plies: Some(300), ..Rules::default() };
        let body = json!({"variant": "duel", "rules": rules, "color": "red",
                          "days_per_move": 2});
        let created = post_checked(&app, &mut contract, "create_game", "/api/v1/games", &red,
            &body, 201).await;
        let id = created["id"].as_str().unwrap().to_owned();
        let game = |tail: &str| format!("/api/v1/games/{id}{tail}");
        lists(&app, &mut contract, &blue).await;
        post_checked(&app, &mut contract, "join_game", &game("/join"), &blue, &json!({}), 200)
            .await;
        let refusal = refused_checked(&app, &mut contract, "place_setup", &game("/setup"),
            Some(&red), &json!({"placement": {"a5": "flag", "b1": "dragon"}}), 422,
            "invalid_setup").await;
        assert!(refusal["problems"].as_array().unwrap().len() >= 3, "{refusal}");
        let refusal = refused_checked(&app, &mut contract, "register_user",
            "/api/v1/auth/register", None, &json!({"username": "x", "password": "short"}), 422,
            "validation_failed").await;
        assert_eq!(refusal["errors"].as_array().unwrap().len(), 2, "{refusal}");
        for (user, seed) in [(&red, 3), (&blue, 4)] {
            for viewer in [&red, &blue, &watcher] {
                get_checked(&app, &mut contract, "get_game", &game(""), viewer).await;
            }
            let setup = json!({"random": true, "seed": seed});
            post_checked(&app, &mut contract, "place_setup", &game("/setup"), user, &setup, 200)
                .await;
        }
        let mut rng = SplitMix64::new(9);
        let mut ply = 0;
        let mut offered = false;
        loop {
            let mut on_turn = None;
            for viewer in [&red, &blue, &watcher] {
                let view = get_checked(&app, &mut contract, "get_game", &game(""), viewer).await;
                if view.get("legal_moves").is_some() {
                    on_turn = Some((viewer, view));
                }
            }
            let Some((mover, view)) = on_turn else { break };
            if ply % 40 == 7 {
                lists(&app, &mut contract, mover).await;
                for viewer in [&red, &blue, &watcher] {
                    get_checked(&app, &mut contract, "list_moves", &game("/moves"), viewer)
                        .await;
                }
            }
            if ply == 0 {
                let refusal = refused_checked(&app, &mut contract, "play_move",
                    &game("/moves"), Some(mover), &json!({"from": "e5", "to": "e6"}), 422,
                    "illegal_move").await;
                assert_eq!(refusal["reason"], "no_piece");
            }
            if ply == 12 && !offered {
                offered = true;
                // An offer, seen by both, then declined.
                post_checked(&app, &mut contract, "draw_game", &game("/draw"), mover,
                    &json!({"action": "offer"}), 200).await;
                let other = if mover.id == red.id { &blue } else { &red };
                get_checked(&app, &mut contract, "get_game", &game(""), other).await;
                post_checked(&app, &mut contract, "draw_game", &game("/draw"), other,
                    &json!({"action": "decline"}), 200).await;
                continue;
            }
            let moves = view["legal_moves"].as_array().unwrap();
            let chosen = &moves[rng.below(moves.len())];
            let body = json!({"from": chosen["from"], "to": chosen["to"],
                              "expected_version": view["version"]});
            post_checked(&app, &mut contract, "play_move", &game("/moves"), mover, &body, 200)
                .await;
            ply += 1;
        }
        let finished = get_checked(&app, &mut contract, "get_game", &game(""), &watcher).await;
        assert_eq!(finished["status"], "finished", "{finished}");

        // A second game, resigned.
        let second = json!({"variant": "barrage", "color": "blue", "opponent": red.username});
        let created = post_checked(&app, &mut contract, "create_game", "/api/v1/games", &blue,
            &second, 201).await;
        let other = format!("/api/v1/games/{}", created["id"].as_str().unwrap());
        post_checked(&app, &mut contract, "join_game", &format!("{other}/join"), &red,
            &json!({}), 200).await;
        for (user, seed) in [(&red, 5), (&blue, 6)] {
            post_checked(&app, &mut contract, "place_setup", &format!("{other}/setup"), user,
                &json!({"random": true, "seed": seed}), 200).await;
        }
        post_checked(&app, &mut contract, "resign_game", &format!("{other}/resign"), &blue,
            &json!({}), 200).await;

        for viewer in [&red, &blue, &watcher] {
            get_checked(&app, &mut contract, "list_moves", &game("/moves"), viewer).await;
            get_checked(&app, &mut contract, "get_game", &other, viewer).await;
            lists(&app, &mut contract, viewer).await;
        }
        let mut types = BTreeSet::new();
        for user in [&red, &blue] {
            for event in all_events(&app, &mut contract, user).await {
                types.insert(event["type"].as_str().unwrap().to_owned());
            }
        }
        for expected in ["challenge_received", "challenge_declined", "opponent_joined",
                         "game_aborted", "game_started", "your_turn", "draw_offered",
                         "game_finished"] {
            assert!(types.contains(expected), "no {expected} event in {types:?}");
        }
        contract.assert_no_optional_always_present();
        let seen = contract.schemas_seen();
        for expected in ["GameView", "MoveAnswer", "MoveHistory", "GamePage", "EventPage",
                         "GameSummary", "MoveView", "BoardPiece", "RulesView", "Battle",
                         "GameResult", "YourTurnEvent", "GameAbortedEvent"] {
            assert!(seen.contains(expected), "{expected} never checked: {seen:?}");
        }
        assert!(contract.checked > 100, "{}", contract.checked);
    }
}

backend_tests! {
    /// Every frame of both streams, as a Server-Sent Events reader parses
    /// it, fits the document: a player's feed from the first event, and the
    /// game as each player and a spectator see it.
    async fn every_frame_of_the_streams_fits_the_document(app) {
        let mut contract = Contract::new();
        let (red, blue) = two_users(&app, "frames").await;
        let watcher = app.register_user("frames_watch").await;
        let id = start_game(&app, &red, &blue, 3).await;
        play_move(&app, &id, &red, 1).await;

        let pending = feed(&app, &blue).await.len();
        assert!(pending >= 3, "{pending}");
        let mut events =
            SseReader::new(open_stream(&app, "/api/v1/events/stream", &blue, Some(0)).await);
        for _ in 0..pending {
            let frame = events.next_frame(FRAME_LIMIT).await.expect("an event");
            contract.check_frame("stream_events", &frame);
        }
        let path = format!("/api/v1/games/{id}/stream");
        for viewer in [&red, &blue, &watcher] {
            let mut game = SseReader::new(open_stream(&app, &path, viewer, None).await);
            let frame = game.next_frame(FRAME_LIMIT).await.expect("the view");
            contract.check_frame("stream_game", &frame);
        }
        assert_eq!(contract.checked, pending + 3);
    }
}

backend_tests! {
    /// A header value fits the schema the document gives it exactly when
    /// the server takes it: `Idempotency-Key` on a new game, `Last-Event-ID`
    /// on the event stream. (A generated client, or a fuzzer, sends what
    /// the schema allows.)
    async fn header_values_fit_their_schema_exactly_when_the_server_takes_them(app) {
        let mut contract = Contract::new();
        let user = app.register_user("headers").await;
        let long = "k".repeat(api::games::written::IDEMPOTENCY_KEY_MAX);
        let keys = [
            "k".to_owned(), "a b".to_owned(), "~!{}".to_owned(), "null".to_owned(),
            long.clone(), format!("{long}k"), "tab\tkey".to_owned(), "caf\u{e9}".to_owned(),
        ];
        for key in keys {
            let documented = contract.header_fits("create_game", "Idempotency-Key", &key);
            let value = reqwest::header::HeaderValue::from_bytes(key.as_bytes()).unwrap();
            let status = app.client().post(app.at("/api/v1/games"))
                .bearer_auth(&user.access_token).header("Idempotency-Key", value)
                .json(&json!({})).send().await.unwrap().status();
            assert!(status == 201 || status == 400, "{key:?}: {status}");
            assert_eq!(documented, status == 201, "Idempotency-Key {key:?}: {status}");
        }
        for id in ["0", "7", "-1", "null", "x", "9223372036854775808"] {
            let documented = contract.header_fits("stream_events", "Last-Event-ID", id);
            let status = app.client().get(app.at("/api/v1/events/stream"))
                .bearer_auth(&user.access_token).header("Last-Event-ID", id)
                .send().await.unwrap().status();
            assert!(status == 200 || status == 400, "{id:?}: {status}");
            assert_eq!(documented, status == 200, "Last-Event-ID {id:?}: {status}");
        }
    }
}

backend_tests! {
    /// `null` for a member of a new game's body (or of its rules) fits the
    /// document exactly when the server takes it: where `null` means
    /// something (no opponent, no cap on plies, the default days) it is
    /// allowed, elsewhere the member is left out or given a value.
    async fn null_members_of_a_new_game_fit_the_document_exactly_when_taken(app) {
        let mut contract = Contract::new();
        let user = app.register_user("nulls").await;
        let request = contract.doc["components"]["schemas"]["CreateGameRequest"].clone();
        let rules = contract.doc["components"]["schemas"]["Rules"].clone();
        let mut bodies = Vec::new();
        for member in request["properties"].as_object().unwrap().keys() {
            bodies.push(json!({member: null}));
        }
        for member in rules["properties"].as_object().unwrap().keys() {
            bodies.push(json!({"rules": {member: null}}));
        }
        for body in bodies {
            let mut errors = Vec::new();
            contract.validate(&body, &request, None, "$", false, &mut errors);
            let status = app.post_as("/api/v1/games", &user, &body).await.status();
            assert!(status == 201 || status.is_client_error(), "{body}: {status}");
            assert_eq!(errors.is_empty(), status == 201, "{body}: {status} {errors:?}");
        }
    }
}

/// Every written example (schemas, responses, parameters) fits its schema:
/// Swagger UI shows them, and clients copy them.
#[test]
fn every_example_fits_its_schema() {
    let mut contract = Contract::new();
    let doc = contract.doc.clone();
    let mut checked = 0;
    for (name, schema) in doc["components"]["schemas"].as_object().unwrap() {
        if let Some(example) = schema.get("example") {
            let mut errors = Vec::new();
            contract.validate(example, schema, Some(name), name, false, &mut errors);
            assert!(
                errors.is_empty(),
                "example of {name}: {}",
                errors.join("\n")
            );
            checked += 1;
        }
    }
    let mut responses: Vec<(String, Value)> = doc["components"]["responses"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, r)| (name.clone(), r.clone()))
        .collect();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            for (status, response) in operation["responses"].as_object().unwrap() {
                responses.push((format!("{method} {path} {status}"), response.clone()));
            }
        }
    }
    for (name, response) in responses {
        for (media, content) in response["content"].as_object().into_iter().flatten() {
            if let (Some(example), true) = (content.get("example"), media.contains("json")) {
                let mut errors = Vec::new();
                contract.validate(example, &content["schema"], None, &name, false, &mut errors);
                assert!(
                    errors.is_empty(),
                    "example of {name}: {}",
                    errors.join("\n")
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 30, "{checked}");
}
