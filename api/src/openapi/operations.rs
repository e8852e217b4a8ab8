//! What each operation gets besides what its route says: a short summary,
//! the headers of its answers, the 400 example that fits it, the schema of
//! a stream's frames, and header parameters as the server reads them.

use super::{schema_ref, BadRequestExamples, HeaderSchemas};
use crate::error::PROBLEM_JSON;

/// Operations whose success answer carries the `ETag` of the caller's view.
const TAGGED: [&str; 9] = [
    "create_game",
    "get_game",
    "join_game",
    "decline_game",
    "abort_game",
    "place_setup",
    "play_move",
    "resign_game",
    "draw_game",
];

fn header(description: &str) -> serde_json::Value {
    serde_json::json!({"schema": {"type": "string"}, "description": description})
}

/// What every answer has: `X-Request-Id` on every response, a 500 on
/// every operation; and the `ETag` of every answer that sends one.
pub(super) fn response_headers(doc: &mut serde_json::Value) {
    let request_id = header(
        "The request's id (the client's own, if it sent a valid one): quote it \
         when reporting a problem; the server's logs carry it",
    );
    let add = |response: &mut serde_json::Value, name: &str, value: &serde_json::Value| {
        if response.get("$ref").is_none() {
            response["headers"][name] = value.clone();
        }
    };
    if let Some(responses) = doc
        .pointer_mut("/components/responses")
        .and_then(serde_json::Value::as_object_mut)
    {
        for response in responses.values_mut() {
            add(response, "X-Request-Id", &request_id);
        }
    }
    for operation in operations_mut(doc) {
        optional_body(operation);
        let id = operation["operationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let Some(responses) = operation
            .get_mut("responses")
            .and_then(serde_json::Value::as_object_mut)
        else {
            continue;
        };
        responses
            .entry("500")
            .or_insert_with(|| serde_json::json!({"$ref": "#/components/responses/InternalError"}));
        for (status, response) in responses.iter_mut() {
            add(response, "X-Request-Id", &request_id);
            let success = status.starts_with('2') || status == "304";
            if success && TAGGED.contains(&id.as_str()) && response["headers"].get("ETag").is_none()
            {
                add(
                    response,
                    "ETag",
                    &header("Tag of the caller's view of the game (send it as If-None-Match or If-Match)"),
                );
            }
        }
    }
}

/// A short plain summary per operation; the text the code gives (its doc
/// comment's first paragraph) opens the description instead.
const SUMMARIES: [(&str, &str); 31] = [
    ("register_user", "Create an account"),
    ("login_user", "Log in"),
    ("refresh_token", "Refresh the tokens"),
    ("logout_user", "Log out"),
    ("get_me", "Get your account"),
    ("create_game", "Create a game"),
    ("list_games", "List games"),
    ("get_game", "Get a game"),
    ("list_moves", "List the moves played"),
    ("join_game", "Join a game"),
    ("decline_game", "Decline a challenge"),
    ("abort_game", "Abort a game"),
    ("place_setup", "Place your setup"),
    ("play_move", "Play a move"),
    ("resign_game", "Resign"),
    ("draw_game", "Offer, accept or decline a draw"),
    ("list_variants", "List the variants"),
    ("list_bots", "List the bots"),
    ("list_events", "List your events"),
    ("stream_events", "Stream your events"),
    ("stream_game", "Stream a game"),
    ("get_board_svg", "Draw the board (SVG)"),
    ("get_board_png", "Draw the board (PNG)"),
    ("export_game", "Export the game record"),
    ("get_leaderboard", "Get a leaderboard"),
    ("get_user", "Get a player's profile"),
    ("list_user_ratings", "List a player's ratings over time"),
    ("list_user_games", "List a player's finished games"),
    ("get_health", "Liveness probe"),
    ("get_readiness", "Readiness probe"),
    ("get_problem", "Explain a problem type"),
];

/// Header parameters as the server reads them: a header is sent or not,
/// so its schema has no `null`; and the values it takes, where the routes
/// say more than the type.
pub(super) fn header_parameters(doc: &mut serde_json::Value, header_schema: HeaderSchemas) {
    for operation in operations_mut(doc) {
        let parameters = operation
            .get_mut("parameters")
            .and_then(serde_json::Value::as_array_mut);
        for parameter in parameters.into_iter().flatten() {
            if parameter["in"] != "header" {
                continue;
            }
            let name = parameter["name"].as_str().unwrap_or_default().to_owned();
            let schema = &mut parameter["schema"];
            if let Some(types) = schema["type"].as_array() {
                let types: Vec<serde_json::Value> =
                    types.iter().filter(|t| *t != "null").cloned().collect();
                schema["type"] = match types.as_slice() {
                    [one] => one.clone(),
                    _ => serde_json::Value::Array(types),
                };
            }
            if let Some(serde_json::Value::Object(members)) = header_schema(&name) {
                for (key, value) in members {
                    schema[key] = value;
                }
            }
        }
    }
}

/// Every operation of the document.
pub(super) fn operations_mut(
    doc: &mut serde_json::Value,
) -> impl Iterator<Item = &mut serde_json::Value> {
    doc.get_mut("paths")
        .and_then(serde_json::Value::as_object_mut)
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(serde_json::Value::as_object_mut)
        .flat_map(|item| item.values_mut())
}

/// A body the request may leave out (`Option<T>`, utoipa writes a `oneOf`
/// of `T` and `null`): not required, and when sent, a `T` (a `null` body
/// is refused as any body that is not an object).
fn optional_body(operation: &mut serde_json::Value) {
    let Some(body) = operation.get_mut("requestBody") else {
        return;
    };
    if body["required"] == serde_json::Value::Bool(true) {
        return;
    }
    let schema = &mut body["content"]["application/json"]["schema"];
    let members = schema["oneOf"].as_array().cloned().unwrap_or_default();
    if let [named, null] = members.as_slice() {
        if null["type"] == "null" && named.get("$ref").is_some() {
            *schema = named.clone();
        }
    }
}

/// Summaries, and the 400 examples that fit each operation.
pub(super) fn operations(doc: &mut serde_json::Value, bad_request_example: BadRequestExamples) {
    let bad_request = doc
        .pointer("/components/responses/BadRequest")
        .cloned()
        .unwrap_or_default();
    let event_types: Vec<serde_json::Value> = doc
        .pointer("/components/schemas/Event/discriminator/mapping")
        .and_then(serde_json::Value::as_object)
        .map(|mapping| mapping.keys().map(|k| k.as_str().into()).collect())
        .unwrap_or_default();
    for operation in operations_mut(doc) {
        let id = operation["operationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if let Some((_, summary)) = SUMMARIES.iter().find(|(op, _)| *op == id) {
            let old = operation["summary"].as_str().unwrap_or_default().to_owned();
            let description = match operation["description"].as_str() {
                Some(rest) => format!("{old}\n\n{rest}"),
                None => old,
            };
            operation["summary"] = serde_json::Value::String((*summary).into());
            operation["description"] = serde_json::Value::String(description);
        }
        let frames = match id.as_str() {
            "stream_events" => Some((
                "Event",
                event_types.clone(),
                "the event's id",
                "Server-Sent Events: `retry: 3000`, then one frame per event: `id: <event id>`, \
                 `event: <its type>`, `data: <the event as one line of JSON, schema Event>`; \
                 `: keep-alive` comments while idle",
            )),
            "stream_game" => Some((
                "GameView",
                vec![serde_json::json!("game")],
                "the game's version",
                "Server-Sent Events: `retry: 3000`, then one frame per version: `id: <version>`, \
                 `event: game`, `data: <the caller's view as one line of JSON, schema \
                 GameView>`; `: keep-alive` comments while idle",
            )),
            _ => None,
        };
        if let Some((schema, events, id_description, description)) = frames {
            let content = &mut operation["responses"]["200"]["content"]["text/event-stream"];
            if content.is_object() {
                content["description"] = serde_json::Value::String(description.into());
                content["schema"] = sse_frame(schema, events, id_description);
            }
        }
        if let (Some(error), true) = (
            bad_request_example(&id),
            operation["responses"]["400"].is_object(),
        ) {
            let mut response = bad_request.clone();
            response["description"] = serde_json::Value::String(
                "A parameter or header cannot be read (`validation_failed`)".into(),
            );
            response["content"][PROBLEM_JSON]["example"] = error.body();
            operation["responses"]["400"] = response;
        }
    }
}

/// One frame of a stream, as a Server-Sent Events reader parses it: its
/// `id`, its `event` name and its `data`, one line of JSON of `schema`.
/// OpenAPI 3.1 has no keyword for the items of a stream (3.2 adds
/// `itemSchema`); tools read a `text/event-stream` schema as describing one
/// event (docs/api.md, "Server-Sent Events").
fn sse_frame(
    schema: &str,
    events: Vec<serde_json::Value>,
    id_description: &str,
) -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "description": "One event of the stream (the `retry:` line and `: keep-alive` \
            comments carry no data and are not events)",
        "required": ["id", "event", "data"],
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9]+$", "description": id_description},
            "event": {"type": "string", "enum": events},
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": {"$ref": schema_ref(schema)},
            },
        },
    })
}
