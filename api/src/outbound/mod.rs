//! What the server needs to reach players outside the app, before any
//! request is sent. Pure functions and types: no network, no database, no
//! clock (the time comes in as an argument), so each piece is tested on
//! its own. docs/notifications.md describes the channels built on them.
//!
//! - [`web_push`]: Web Push without a vendor SDK. [`web_push::VapidKey`]
//!   signs the `Authorization: vapid` header a push service asks for
//!   (RFC 8292).
//! - [`webhook_signature`]: the secrets and the `webhook-signature` header
//!   of the Standard Webhooks specification, which a mobile app's backend
//!   or a bot verifies before it trusts a delivery.
//! - [`address`]: where the server may send at all: `https` and public
//!   addresses only, unless the operator allows private networks for
//!   development, checked when a URL is registered and again against what
//!   its name resolves to at each delivery.

pub mod address;
pub mod web_push;
pub mod webhook_signature;
