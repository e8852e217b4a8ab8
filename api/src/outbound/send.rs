//! Sending one delivery: an HTTP POST under the address policy, with a
//! timeout, no redirects followed and the answer read only up to a small
//! cap (docs/notifications.md).

use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, RETRY_AFTER};
use reqwest::redirect;
use url::Url;

use super::address::{check_url, Policy};
use super::resolve::PolicyResolver;

/// The longest one delivery may take, from connecting to the answer.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// The most of an answer's body that is read (then it is dropped).
pub const MAX_ANSWER_BYTES: usize = 4096;

/// What became of one POST.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The answer's status; `None` when none came (refused, unreachable,
    /// timed out).
    pub status: Option<u16>,
    /// The answer's `Retry-After`, in seconds, if it gave one.
    pub retry_after: Option<u64>,
    /// Why it failed, in words (never the URL, which may carry a secret).
    pub error: Option<String>,
}

/// The client deliveries are sent with.
#[derive(Debug, Clone)]
pub struct Sender {
    client: reqwest::Client,
    policy: Policy,
}

impl Sender {
    pub fn new(policy: Policy) -> Result<Self, reqwest::Error> {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .connect_timeout(TIMEOUT)
            .redirect(redirect::Policy::none())
            .dns_resolver(PolicyResolver::shared(policy))
            .user_agent(concat!(
                "stratego-correspondence/",
                env!("CARGO_PKG_VERSION")
            ))
            .build()?;
        Ok(Self { client, policy })
    }

    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// POSTs `body` to `url` with `headers`.
    pub async fn post(&self, url: &str, headers: &[(&'static str, String)], body: Vec<u8>) -> Sent {
        let refused = |error: String| Sent {
            status: None,
            retry_after: None,
            error: Some(error),
        };
        // An IP literal never meets the resolver: judged here.
        let url: Url = match check_url(url, self.policy) {
            Ok(url) => url,
            Err(refusal) => return refused(refusal.to_string()),
        };
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            let Ok(value) = HeaderValue::from_str(value) else {
                return refused(format!("header {name} cannot be sent"));
            };
            map.insert(HeaderName::from_static(name), value);
        }
        let answer = match self.client.post(url).headers(map).body(body).send().await {
            Ok(answer) => answer,
            Err(e) => return refused(describe(&e)),
        };
        let status = answer.status().as_u16();
        let retry_after = answer
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        drain(answer).await;
        let error = (!(200..300).contains(&status)).then(|| format!("answered HTTP {status}"));
        Sent {
            status: Some(status),
            retry_after,
            error,
        }
    }
}

/// Reads at most [`MAX_ANSWER_BYTES`] of the answer, so its connection
/// can be kept, and drops the rest.
async fn drain(mut answer: reqwest::Response) {
    let mut read = 0;
    while read < MAX_ANSWER_BYTES {
        match answer.chunk().await {
            Ok(Some(chunk)) => read += chunk.len(),
            _ => break,
        }
    }
}

/// A failure in words, without the URL.
fn describe(error: &reqwest::Error) -> String {
    let mut cause: Option<&dyn std::error::Error> = std::error::Error::source(error);
    let mut innermost = None;
    while let Some(e) = cause {
        innermost = Some(e.to_string());
        cause = e.source();
    }
    let kind = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "could not connect"
    } else {
        "failed"
    };
    match innermost {
        Some(why) => format!("{kind}: {why}"),
        None => kind.to_owned(),
    }
}
