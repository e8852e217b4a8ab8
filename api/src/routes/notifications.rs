//! Reaching the caller outside the app (docs/notifications.md): Web Push
//! subscriptions, webhooks and what each event is sent to.

use actix_web::{delete, get, post, put, web, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;
use uuid::Uuid;

use crate::error::ApiError;
use crate::games::requests::JsonObject;
use crate::notifications::channels::{
    self, CreatedWebhook, NewPushSubscription, PushSubscription, Webhook,
};
use crate::notifications::email::{self, EmailSettings, EmailState};
use crate::notifications::preferences::{NotifyEvent, Preferences, PreferencesInput};
use crate::routes::AuthUser;
use crate::state::AppState;

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(vapid_public_key)
        .service(subscribe)
        .service(list_subscriptions)
        .service(unsubscribe)
        .service(create_webhook)
        .service(list_webhooks)
        .service(delete_webhook)
        .service(webhook_deliveries)
        .service(test_webhook)
        .service(get_preferences)
        .service(set_preferences)
        .service(get_email)
        .service(set_email)
        .service(verify_email)
        .service(delete_email)
        .service(unsubscribe_page)
        .service(unsubscribe_email);
}

/// The key browsers subscribe with.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"public_key": "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U"}))]
pub struct VapidPublicKey {
    /// The server's VAPID public key: base64url (no padding) of the
    /// 65-byte uncompressed P-256 point, for the Push API's
    /// `applicationServerKey`
    pub public_key: String,
}

/// The keys of a `PushSubscription`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PushKeys {
    /// The browser's P-256 public key, base64url
    pub p256dh: String,
    /// The 16-byte authentication secret, base64url
    pub auth: String,
}

/// A browser's `PushSubscription.toJSON()`, and optionally the events to
/// send to it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"endpoint": "https://push.example.net/send/abc123",
    "expirationTime": null, "keys": {
        "p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
        "auth": "BTBZMqHH6r4Tts7J_aSIgg"}}))]
pub struct PushSubscriptionInput {
    /// The push service's URL for this browser (`https`)
    pub endpoint: String,
    /// When the subscription ends, in milliseconds since the epoch, as the
    /// Push API gives it
    #[serde(rename = "expirationTime", default)]
    pub expiration_time: Option<i64>,
    pub keys: PushKeys,
    /// The events to send to it (default: every event your preferences
    /// send to push)
    #[serde(default)]
    pub events: Option<Vec<NotifyEvent>>,
}

/// Your push subscriptions.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"subscriptions": [{"id": "4c0a8f3e-2b1d-4e5f-8a9b-0c1d2e3f4a5b",
    "endpoint": "https://push.example.net/send/abc123", "expiration_time": null,
    "events": null, "created_at": "2026-12-03T10:00:00Z"}]}))]
pub struct PushSubscriptionList {
    pub subscriptions: Vec<PushSubscription>,
}

/// A webhook to create.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"url": "https://bots.example.org/stratego/hook",
    "events": ["your_move", "game_over"]}))]
pub struct WebhookInput {
    /// Where deliveries are POSTed (`https`, resolving to public addresses)
    pub url: String,
    /// The events to send to it (default: every event your preferences
    /// send to webhooks)
    #[serde(default)]
    pub events: Option<Vec<NotifyEvent>>,
}

/// Your webhooks.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"webhooks": [{"id": "7d1e2f3a-4b5c-4d6e-8f9a-0b1c2d3e4f5a",
    "url": "https://bots.example.org/stratego/hook", "events": ["your_move", "game_over"],
    "state": "active", "disabled_reason": null, "created_at": "2026-12-03T10:00:00Z"}]}))]
pub struct WebhookList {
    pub webhooks: Vec<Webhook>,
}

/// The server's VAPID public key
///
/// For the Push API's `pushManager.subscribe({applicationServerKey})`.
#[utoipa::path(
    tag = "notifications",
    operation_id = "vapid_public_key",
    responses(
        (status = 200, description = "The key", body = VapidPublicKey),
        (status = 404, response = crate::openapi::NotFound),
    )
)]
#[get("/push/vapid-public-key")]
pub async fn vapid_public_key(
    state: web::Data<AppState>,
) -> Result<web::Json<VapidPublicKey>, ApiError> {
    let key = state.outbox.vapid_public_key().ok_or_else(|| {
        ApiError::not_found("Web Push is not configured on this server (VAPID_PRIVATE_KEY)")
    })?;
    Ok(web::Json(VapidPublicKey {
        public_key: key.to_owned(),
    }))
}

/// Subscribe a browser to Web Push
///
/// The body is the browser's `PushSubscription.toJSON()`. The endpoint
/// must be `https` and resolve to public addresses; `keys.p256dh` must be
/// a point on P-256 and `keys.auth` 16 bytes. Subscribing the same
/// endpoint again replaces its keys (200). At most 10 per user.
#[utoipa::path(
    tag = "notifications",
    operation_id = "subscribe_push",
    security(("bearer" = [])),
    request_body = PushSubscriptionInput,
    responses(
        (status = 201, description = "Subscribed", body = PushSubscription),
        (status = 200, description = "This endpoint was subscribed already: its keys and \
            events are replaced", body = PushSubscription),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/me/push-subscriptions")]
pub async fn subscribe(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<PushSubscriptionInput>>,
) -> Result<HttpResponse, ApiError> {
    if state.outbox.vapid_public_key().is_none() {
        return Err(ApiError::not_found(
            "Web Push is not configured on this server (VAPID_PRIVATE_KEY)",
        ));
    }
    let input = body.into_inner().into_inner();
    let new = NewPushSubscription {
        endpoint: input.endpoint,
        expiration_time: input.expiration_time,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        events: input.events,
    };
    let (subscription, created) = channels::subscribe(
        &state.pool,
        state.outbox.policy(),
        user.id,
        new,
        state.clock.now(),
    )
    .await?;
    Ok(if created {
        HttpResponse::Created().json(subscription)
    } else {
        HttpResponse::Ok().json(subscription)
    })
}

/// Your push subscriptions
///
/// The browsers and devices subscribed to Web Push, oldest first (without
/// their keys).
#[utoipa::path(
    tag = "notifications",
    operation_id = "list_push_subscriptions",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Your subscriptions, oldest first",
            body = PushSubscriptionList),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/me/push-subscriptions")]
pub async fn list_subscriptions(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<web::Json<PushSubscriptionList>, ApiError> {
    let subscriptions = channels::list_push(&state.pool, user.id).await?;
    Ok(web::Json(PushSubscriptionList { subscriptions }))
}

/// Unsubscribe a browser
///
/// What was not delivered to it yet is dropped.
#[utoipa::path(
    tag = "notifications",
    operation_id = "unsubscribe_push",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The subscription's id")),
    responses(
        (status = 204, description = "Unsubscribed"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[delete("/me/push-subscriptions/{id}")]
pub async fn unsubscribe(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    channels::unsubscribe(&state.pool, user.id, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Create a webhook
///
/// Deliveries are signed as Standard Webhooks describes, with the `secret`
/// shown only in this answer. The URL must be `https` and resolve to
/// public addresses. At most 5 per user.
#[utoipa::path(
    tag = "notifications",
    operation_id = "create_webhook",
    security(("bearer" = [])),
    request_body = WebhookInput,
    responses(
        (status = 201, description = "Created, with its secret", body = CreatedWebhook),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/me/webhooks")]
pub async fn create_webhook(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<WebhookInput>>,
) -> Result<HttpResponse, ApiError> {
    let input = body.into_inner().into_inner();
    let created = channels::create_webhook(
        &state.pool,
        state.outbox.policy(),
        user.id,
        input.url,
        input.events,
        state.clock.now(),
    )
    .await?;
    Ok(HttpResponse::Created().json(created))
}

/// Your webhooks
///
/// Without their secrets; each with its state (`active`, or `disabled`
/// and why).
#[utoipa::path(
    tag = "notifications",
    operation_id = "list_webhooks",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Your webhooks, oldest first", body = WebhookList),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/me/webhooks")]
pub async fn list_webhooks(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<web::Json<WebhookList>, ApiError> {
    let webhooks = channels::list_webhooks(&state.pool, user.id).await?;
    Ok(web::Json(WebhookList { webhooks }))
}

/// Delete a webhook
///
/// Its deliveries not yet made are dropped.
#[utoipa::path(
    tag = "notifications",
    operation_id = "delete_webhook",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The webhook's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[delete("/me/webhooks/{id}")]
pub async fn delete_webhook(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    channels::delete_webhook(&state.pool, user.id, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// What you are told outside the app
///
/// Per event, whether it is sent by Web Push, to your webhooks and by
/// e-mail. Until you set them: challenges, your move and a game's end on
/// every channel, the rest off.
#[utoipa::path(
    tag = "notifications",
    operation_id = "get_notification_preferences",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Every event's channels", body = Preferences),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/me/notifications")]
pub async fn get_preferences(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<web::Json<Preferences>, ApiError> {
    Ok(web::Json(
        channels::preferences(&state.pool, user.id).await?,
    ))
}

/// Set what you are told outside the app
///
/// Replaces your preferences: the events and channels given are set, the
/// others take their defaults. The answer lists every event.
#[utoipa::path(
    tag = "notifications",
    operation_id = "set_notification_preferences",
    security(("bearer" = [])),
    request_body = PreferencesInput,
    responses(
        (status = 200, description = "Every event's channels, as now set", body = Preferences),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[put("/me/notifications")]
pub async fn set_preferences(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<PreferencesInput>>,
) -> Result<web::Json<Preferences>, ApiError> {
    let input = body.into_inner().into_inner();
    Ok(web::Json(
        channels::set_preferences(&state.pool, user.id, input, state.clock.now()).await?,
    ))
}

/// Deliveries to one of your webhooks.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"deliveries": [{"id": "msg_2b3c4d5e6f7a4b8c9d0e1f2a3b4c5d6e",
    "event": "your_move", "state": "delivered", "attempts": 1, "last_status": 204,
    "last_error": null, "next_attempt_at": null, "created_at": "2026-12-03T10:00:00Z",
    "finished_at": "2026-12-03T10:00:01Z"}]}))]
pub struct DeliveryList {
    pub deliveries: Vec<channels::Delivery>,
}

/// The last deliveries to a webhook
///
/// The newest 50, newest first: each with its event, attempts, last status
/// and next attempt. Finished ones are kept for 7 days.
#[utoipa::path(
    tag = "notifications",
    operation_id = "list_webhook_deliveries",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The webhook's id")),
    responses(
        (status = 200, description = "Its deliveries", body = DeliveryList),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/me/webhooks/{id}/deliveries")]
pub async fn webhook_deliveries(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<web::Json<DeliveryList>, ApiError> {
    let deliveries = channels::deliveries(&state.pool, user.id, id.into_inner()).await?;
    Ok(web::Json(DeliveryList { deliveries }))
}

/// Send a test event to a webhook
///
/// Queues a `ping` (`{"type": "ping", "timestamp", "data": {"webhook_id"}}`),
/// signed and retried like any delivery; follow it in the webhook's
/// deliveries. A disabled webhook is sent it too, and becomes active again
/// when it answers 2xx.
#[utoipa::path(
    tag = "notifications",
    operation_id = "test_webhook",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The webhook's id")),
    responses(
        (status = 202, description = "Queued", body = channels::Delivery),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/me/webhooks/{id}/test")]
pub async fn test_webhook(
    user: AuthUser,
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let delivery = channels::ping(&state.pool, user.id, id.into_inner(), state.clock.now()).await?;
    Ok(HttpResponse::Accepted().json(delivery))
}

/// An address to send mail to.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"address": "ann@example.org"}))]
pub struct EmailInput {
    /// The address (at most 254 characters; its domain has a dot)
    pub address: String,
}

/// The code sent to your address.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"code": "042917"}))]
pub struct EmailCode {
    /// The six digits of the message
    pub code: String,
}

/// A link from a digest.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UnsubscribeQuery {
    /// The token of the link, as the message gave it
    pub token: String,
}

fn email_settings(state: &AppState) -> Result<&EmailSettings, ApiError> {
    state
        .outbox
        .email()
        .ok_or_else(|| ApiError::not_found("E-mail is not configured on this server (SMTP_URL)"))
}

/// Your e-mail address
///
/// The address mail goes to, whether it is verified, and until when the
/// code last sent to it may be used. 404 when this server sends no mail.
#[utoipa::path(
    tag = "notifications",
    operation_id = "get_email",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Your address (null when none)", body = EmailState),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/me/email")]
pub async fn get_email(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<web::Json<EmailState>, ApiError> {
    email_settings(&state)?;
    Ok(web::Json(email::state(&state.pool, user.id).await?))
}

/// Set your e-mail address
///
/// Sends a six-digit code to the address (within seconds, by the outbox);
/// confirm it with `POST /me/email/verify` within an hour. Until then no
/// other mail goes there. A new code may be asked for once a minute.
/// Giving your verified address again changes nothing.
#[utoipa::path(
    tag = "notifications",
    operation_id = "set_email",
    security(("bearer" = [])),
    request_body = EmailInput,
    responses(
        (status = 202, description = "The address, a code on its way to it", body = EmailState),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 429, response = crate::openapi::TooManyRequests),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[put("/me/email")]
pub async fn set_email(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<EmailInput>>,
) -> Result<HttpResponse, ApiError> {
    email_settings(&state)?;
    let input = body.into_inner().into_inner();
    let answer = email::set_address(&state.pool, user.id, input.address, state.clock.now()).await?;
    Ok(HttpResponse::Accepted().json(answer))
}

/// Confirm your e-mail address
///
/// With the code sent to it. Five wrong codes void it; ask for a new one
/// by setting the address again.
#[utoipa::path(
    tag = "notifications",
    operation_id = "verify_email",
    security(("bearer" = [])),
    request_body = EmailCode,
    responses(
        (status = 200, description = "The address, verified", body = EmailState),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 413, response = crate::openapi::PayloadTooLarge),
        (status = 415, response = crate::openapi::UnsupportedMediaType),
        (status = 422, response = crate::openapi::UnprocessableEntity),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/me/email/verify")]
pub async fn verify_email(
    user: AuthUser,
    state: web::Data<AppState>,
    body: web::Json<JsonObject<EmailCode>>,
) -> Result<web::Json<EmailState>, ApiError> {
    email_settings(&state)?;
    let input = body.into_inner().into_inner();
    Ok(web::Json(
        email::verify(&state.pool, user.id, input.code, state.clock.now()).await?,
    ))
}

/// Remove your e-mail address
///
/// No more mail goes to it; mail already queued for it is dropped.
#[utoipa::path(
    tag = "notifications",
    operation_id = "delete_email",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Removed"),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[delete("/me/email")]
pub async fn delete_email(
    user: AuthUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    email_settings(&state)?;
    email::remove(&state.pool, user.id, state.clock.now()).await?;
    Ok(HttpResponse::NoContent().finish())
}

const HTML: &str = "text/html; charset=utf-8";

fn page(title: &str, body: &str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(HTML)
        .insert_header((
            "content-security-policy",
            "default-src 'none'; form-action 'self'",
        ))
        .insert_header(("referrer-policy", "no-referrer"))
        .body(format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width\">\
             <title>{title}</title></head>\n<body>\n<h1>{title}</h1>\n{body}\n</body></html>\n"
        ))
}

/// The page an unsubscribe link opens
///
/// Asks before unsubscribing (opening a link changes nothing: mail
/// scanners open links too); its button sends the `POST`.
#[utoipa::path(
    tag = "notifications",
    operation_id = "unsubscribe_email_page",
    params(UnsubscribeQuery),
    responses(
        (status = 200, description = "A page with the button", content_type = "text/html", body = String),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[get("/email/unsubscribe")]
pub async fn unsubscribe_page(
    state: web::Data<AppState>,
    query: web::Query<UnsubscribeQuery>,
) -> Result<HttpResponse, ApiError> {
    let settings = email_settings(&state)?;
    email::check_unsubscribe(&state.pool, settings, &query.token).await?;
    // No action: the form posts to this very URL, token and all.
    Ok(page(
        "Stop e-mail from Stratego",
        "<p>Press the button to stop all mail about your games. You can turn \
         it on again in the app's notification settings.</p>\n\
         <form method=\"post\"><button type=\"submit\">Unsubscribe</button></form>",
    ))
}

/// Unsubscribe from e-mail
///
/// What the unsubscribe link of every message does, in one click (RFC
/// 8058: mail clients send it for `List-Unsubscribe-Post`, with any body):
/// e-mail is turned off for every event in your preferences. Needs no
/// token but the link's.
#[utoipa::path(
    tag = "notifications",
    operation_id = "unsubscribe_email",
    params(UnsubscribeQuery),
    responses(
        (status = 200, description = "Unsubscribed: a page saying so", content_type = "text/html", body = String),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 404, response = crate::openapi::NotFound),
        (status = 503, response = crate::openapi::ServiceUnavailable),
    )
)]
#[post("/email/unsubscribe")]
pub async fn unsubscribe_email(
    state: web::Data<AppState>,
    query: web::Query<UnsubscribeQuery>,
) -> Result<HttpResponse, ApiError> {
    let settings = email_settings(&state)?;
    email::unsubscribe(&state.pool, settings, &query.token, state.clock.now()).await?;
    Ok(page(
        "Unsubscribed",
        "<p>No more mail will be sent to you about your games. You can turn it \
         on again in the app's notification settings.</p>",
    ))
}
