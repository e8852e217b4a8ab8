//! The OpenAPI `webhooks`: what the server POSTs to a player's webhook,
//! one entry per event (docs/notifications.md).

use serde_json::{json, Value};

use super::schema_ref;
use crate::notifications::preferences::NotifyEvent;

/// Adds `webhooks` to the document: each event's delivery, with the
/// Standard Webhooks headers and the `Notice` body.
pub(super) fn add(doc: &mut Value) {
    let header = |name: &str, description: &str| {
        json!({"name": name, "in": "header", "required": true,
               "description": description, "schema": {"type": "string"}})
    };
    let parameters = json!([
        header(
            "webhook-id",
            "`msg_` and the delivery's id: the same on every retry; \
            drop a delivery whose id you have seen"
        ),
        header(
            "webhook-timestamp",
            "Seconds since the epoch when this attempt was made; \
            refuse one far from your clock"
        ),
        header(
            "webhook-signature",
            "`v1,` and the base64 HMAC-SHA256 of \
            `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded \
            secret after `whsec_`"
        ),
    ]);
    let events = NotifyEvent::ALL
        .iter()
        .map(|event| (event.name(), describe(*event)))
        .chain([("ping", "A test, sent by `POST /me/webhooks/{id}/test`")]);
    let mut webhooks = serde_json::Map::new();
    for (name, summary) in events {
        webhooks.insert(
            name.to_owned(),
            json!({"post": {
                "tags": ["notifications"],
                "operationId": format!("webhook_{name}"),
                "summary": summary,
                "description": format!("Sent to each of your webhooks that wants `{name}` \
                    (docs/notifications.md). Answer 2xx within 10 seconds; anything \
                    else is retried for about a day."),
                "parameters": parameters,
                "requestBody": {"required": true, "content": {"application/json": {
                    "schema": {"$ref": schema_ref("Notice")}}}},
                "responses": {"2XX": {"description": "Received"}},
            }}),
        );
    }
    if let Some(doc) = doc.as_object_mut() {
        doc.insert("webhooks".to_owned(), Value::Object(webhooks));
    }
}

fn describe(event: NotifyEvent) -> &'static str {
    match event {
        NotifyEvent::ChallengeReceived => "Someone challenged you",
        NotifyEvent::GameStarted => "Both setups are in: your game has begun",
        NotifyEvent::YourMove => "It is your move",
        NotifyEvent::DeadlineSoon => "Little time is left for your move or setup",
        NotifyEvent::DrawOffered => "Your opponent offers a draw",
        NotifyEvent::RematchOffered => "Your opponent of a finished game offers a rematch",
        NotifyEvent::GameOver => "Your game is over",
        NotifyEvent::VacationStarted => "Your opponent went on vacation: their clock is stopped",
        NotifyEvent::VacationEnded => "Your opponent is back from vacation",
        NotifyEvent::TournamentStarted => {
            "A tournament you play in started: your games are in setup"
        }
        NotifyEvent::RoundStarted => "The next round of your Swiss tournament is paired",
        NotifyEvent::TournamentFinished => "A tournament you played in is over: your place",
    }
}
