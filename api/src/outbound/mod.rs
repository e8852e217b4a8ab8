//! What the server needs to reach players outside the app: signing,
//! encryption and the address policy, pure functions and types (no
//! network, no database, no clock: the time comes in as an argument),
//! each tested on its own against the published examples of its
//! standard; and the HTTP client that sends a delivery under the policy
//! ([`send`], connecting only to the addresses [`resolve`] just judged). docs/notifications.md describes
//! the channels built on them.
//!
//! - [`web_push`]: Web Push without a vendor SDK. [`web_push::VapidKey`]
//!   signs the `Authorization: vapid` header a push service asks for
//!   (RFC 8292); [`web_push::encrypt`] encrypts a message for the browser
//!   that subscribed (RFC 8291, `aes128gcm`); [`web_push::SubscriptionKeys`]
//!   checks the keys a browser sends when it subscribes.
//! - [`webhook_signature`]: the secrets and the `webhook-signature` header
//!   of the Standard Webhooks specification, which a mobile app's backend
//!   or a bot verifies before it trusts a delivery.
//! - [`address`]: where the server may send at all: `https` and public
//!   addresses only, unless the operator allows private networks for
//!   development, checked when a URL is registered and again against what
//!   its name resolves to at each delivery.
//!
//! A few items are test support, named so in their documentation: the
//! verifying and decrypting halves ([`web_push::verify_vapid`],
//! [`web_push::decrypt`], [`web_push::generate_browser_keys`],
//! [`webhook_signature::verify`]). The end-to-end tests' local push
//! service and webhook receiver use them to hold the server to the
//! standards, and they are public because those tests are another crate.

pub mod address;
pub mod mail;
pub mod resolve;
pub mod send;
pub mod web_push;
pub mod webhook_signature;
