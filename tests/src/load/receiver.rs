//! The notifications of a run with `notify` (issue 31): a webhook and a Web
//! Push subscription on every account, all pointing at a minimal HTTP/1.1
//! receiver this tool starts on loopback, which counts what the server's
//! outbox delivers. A run then shows whether the outbox was delivering
//! while the moves were timed, and what the deliveries cost the moves.
//!
//! The receiver reads a request's head and its `Content-Length` body and
//! answers `201 Created` with an empty body, keeping the connection for
//! the next request as the push services of browsers do (the server's
//! sender reuses it). It is bounded: at most [`MAX_CONNECTIONS`]
//! connections at once, [`MAX_HEAD_BYTES`] of head, [`MAX_BODY_BYTES`] of
//! body, [`REQUEST_TIMEOUT`] per request and [`IDLE_TIMEOUT`] between
//! requests. Anything else is counted as refused and the connection
//! dropped. It stops when the [`Receiver`] is dropped.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

use super::client::{Client, Errors};
use super::play::Pair;

/// Connections served at once; more wait to be accepted.
const MAX_CONNECTIONS: usize = 256;
/// The longest request head read.
const MAX_HEAD_BYTES: usize = 16 * 1024;
/// The largest body read (a Web Push body is at most 4,096 bytes).
const MAX_BODY_BYTES: usize = 64 * 1024;
/// How long one request may take, from its first byte to its answer.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a connection may wait for its next request (longer than the
/// sender keeps an idle connection, so the sender is the one to close).
const IDLE_TIMEOUT: Duration = Duration::from_secs(120);
/// Channels registered at once.
const REGISTERING_AT_ONCE: usize = 8;

/// The generator of P-256, uncompressed (`04 || Gx || Gy`): a valid point
/// to stand for a browser's `p256dh` key. Nobody decrypts the pushes.
const P256_GENERATOR: [u8; 65] = [
    0x04, // uncompressed
    0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4, 0x40, 0xf2,
    0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96,
    0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a, 0x7c, 0x0f, 0x9e, 0x16,
    0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce, 0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5,
];

/// What the receiver got, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deliveries {
    /// Requests to `/hook` (webhooks).
    pub webhook: u64,
    /// Requests to `/push/<n>` (Web Push).
    pub push: u64,
    /// Requests refused: another path, too large, malformed or too slow.
    pub refused: u64,
}

impl Deliveries {
    /// What came between `earlier` and `self`.
    pub fn since(&self, earlier: &Deliveries) -> Deliveries {
        Deliveries {
            webhook: self.webhook.saturating_sub(earlier.webhook),
            push: self.push.saturating_sub(earlier.push),
            refused: self.refused.saturating_sub(earlier.refused),
        }
    }

    pub fn total(&self) -> u64 {
        self.webhook + self.push
    }
}

/// The notifications part of a report (`notify` on).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Notify {
    /// Webhooks and push subscriptions registered (one of each per account).
    pub webhooks: u64,
    pub subscriptions: u64,
    /// Received while the move phase ran.
    pub during_moves: Deliveries,
    /// Received from the registration to the end of the run.
    pub in_all: Deliveries,
}

#[derive(Default)]
struct Counts {
    webhook: AtomicU64,
    push: AtomicU64,
    refused: AtomicU64,
}

/// The receiver: its address and counts; dropping it stops it (and every
/// connection it serves).
pub(super) struct Receiver {
    address: SocketAddr,
    counts: Arc<Counts>,
    task: JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    /// Listens on a free loopback port.
    pub(super) async fn start() -> Result<Self, String> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| format!("the notification receiver: {e}"))?;
        let address = listener
            .local_addr()
            .map_err(|e| format!("the notification receiver: {e}"))?;
        let counts = Arc::new(Counts::default());
        let serving = Arc::clone(&counts);
        let task = tokio::spawn(async move {
            let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
            // Dropped (and every connection with it) when the task is
            // aborted.
            let mut connections = tokio::task::JoinSet::new();
            loop {
                let Ok(permit) = Arc::clone(&permits).acquire_owned().await else {
                    return;
                };
                let socket = match listener.accept().await {
                    Ok((socket, _)) => socket,
                    Err(_) => {
                        // Out of descriptors, say: rest, then go on.
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    }
                };
                let counts = Arc::clone(&serving);
                connections.spawn(async move {
                    serve(socket, &counts).await;
                    drop(permit);
                });
                // Reap the finished ones, so the set stays small.
                while connections.try_join_next().is_some() {}
            }
        });
        Ok(Self {
            address,
            counts,
            task,
        })
    }

    pub(super) fn port(&self) -> u16 {
        self.address.port()
    }

    /// What it got so far.
    pub(super) fn deliveries(&self) -> Deliveries {
        Deliveries {
            webhook: self.counts.webhook.load(Ordering::Relaxed),
            push: self.counts.push.load(Ordering::Relaxed),
            refused: self.counts.refused.load(Ordering::Relaxed),
        }
    }
}

enum Kind {
    Webhook,
    Push,
}

/// Serves the requests of one connection, counting each, until the sender
/// closes it, it stays idle too long, or a request is refused (counted,
/// and the connection dropped without an answer).
async fn serve(mut socket: TcpStream, counts: &Counts) {
    let mut buffer = Vec::with_capacity(4096);
    loop {
        // Waiting for the first byte of the next request; empty lines
        // before a request line are ignored (RFC 9112, 2.2).
        loop {
            let blank = (buffer.iter())
                .take_while(|b| matches!(b, b'\r' | b'\n'))
                .count();
            buffer.drain(..blank);
            if !buffer.is_empty() {
                break;
            }
            match tokio::time::timeout(IDLE_TIMEOUT, read_more(&mut socket, &mut buffer)).await {
                Ok(Some(())) => {}
                Ok(None) | Err(_) => return,
            }
        }
        let served = tokio::time::timeout(REQUEST_TIMEOUT, request(&mut socket, &mut buffer))
            .await
            .unwrap_or(None);
        let counter = match served {
            Some(Kind::Webhook) => &counts.webhook,
            Some(Kind::Push) => &counts.push,
            None => &counts.refused,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        if served.is_none() {
            return;
        }
    }
}

/// Reads what the socket has into `buffer`; `None` at its end or error.
async fn read_more(socket: &mut TcpStream, buffer: &mut Vec<u8>) -> Option<()> {
    let mut chunk = [0u8; 4096];
    let n = socket.read(&mut chunk).await.ok()?;
    if n == 0 {
        return None;
    }
    buffer.extend_from_slice(&chunk[..n]);
    Some(())
}

/// Reads one request (its start may be in `buffer` already) and answers
/// it, leaving in `buffer` what came after it; what it was, or `None` if
/// it was refused.
async fn request(socket: &mut TcpStream, buffer: &mut Vec<u8>) -> Option<Kind> {
    let head_end = loop {
        if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if buffer.len() > MAX_HEAD_BYTES {
            return None;
        }
        read_more(socket, buffer).await?;
    };
    let head = std::str::from_utf8(&buffer[..head_end]).ok()?;
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let (method, path) = (request_line.next()?, request_line.next()?);
    let kind = match path {
        "/hook" => Kind::Webhook,
        _ if path
            .strip_prefix("/push/")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            Kind::Push
        }
        _ => return None,
    };
    if method != "POST" {
        return None;
    }
    let mut length = 0usize;
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok()?;
            } else if name.trim().eq_ignore_ascii_case("transfer-encoding") {
                // The server's sender sizes its bodies.
                return None;
            }
        }
    }
    if length > MAX_BODY_BYTES {
        return None;
    }
    while buffer.len() < head_end + length {
        read_more(socket, buffer).await?;
    }
    buffer.drain(..head_end + length);
    socket
        .write_all(b"HTTP/1.1 201 Created\r\ncontent-length: 0\r\n\r\n")
        .await
        .ok()?;
    Some(kind)
}

/// Registers, for every account of `pairs`, one webhook to the receiver's
/// `/hook` and one push subscription to its `/push/<n>`. Fails unless every
/// one was created.
pub(super) async fn register_channels(
    base: &str,
    pairs: &[Arc<Pair>],
    port: u16,
    errors: &Arc<Errors>,
) -> Result<(u64, u64), String> {
    let accounts: Vec<(usize, String)> = pairs
        .iter()
        .flat_map(|pair| [pair.red.clone(), pair.blue.clone()])
        .enumerate()
        .collect();
    let base64url = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let p256dh = base64url.encode(P256_GENERATOR);
    let (mut webhooks, mut subscriptions) = (0, 0);
    for chunk in accounts.chunks(REGISTERING_AT_ONCE) {
        let mut tasks = tokio::task::JoinSet::new();
        for (n, token) in chunk.iter().cloned() {
            let client = Client::new(base, errors, "notify setup")?;
            let p256dh = p256dh.clone();
            // Any 16 bytes: this account's number, repeated.
            let auth = base64url.encode([(n % 256) as u8; 16]);
            tasks.spawn(async move {
                let hook = json!({"url": format!("http://127.0.0.1:{port}/hook")});
                let hooked = client
                    .call("POST", "/api/v1/me/webhooks", Some(&token), Some(&hook))
                    .await
                    .is_some();
                let subscription = json!({
                    "endpoint": format!("http://127.0.0.1:{port}/push/{n}"),
                    "keys": {"p256dh": p256dh, "auth": auth},
                });
                let subscribed = client
                    .call(
                        "POST",
                        "/api/v1/me/push-subscriptions",
                        Some(&token),
                        Some(&subscription),
                    )
                    .await
                    .is_some();
                (hooked, subscribed)
            });
        }
        while let Some(result) = tasks.join_next().await {
            let (hooked, subscribed) = result.map_err(|e| format!("registering channels: {e}"))?;
            webhooks += u64::from(hooked);
            subscriptions += u64::from(subscribed);
        }
    }
    let wanted = accounts.len() as u64;
    if webhooks < wanted || subscriptions < wanted {
        let first = errors.samples().into_iter().next().unwrap_or_default();
        return Err(format!(
            "only {webhooks} webhooks and {subscriptions} push subscriptions of {wanted} each \
             registered (the server needs OUTBOUND_ALLOW_PRIVATE_NETWORKS=true and a VAPID \
             key): {first}"
        ));
    }
    Ok((webhooks, subscriptions))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    /// A webhook and a push are counted apart and answered 201, one after
    /// the other on a connection kept open; another path, or a body
    /// larger than it says it is, is refused unanswered.
    #[tokio::test]
    async fn the_receiver_counts_webhooks_and_pushes_apart() {
        let receiver = Receiver::start().await.unwrap();
        let address = receiver.address;
        let send = |request: &'static [u8]| async move {
            let mut socket = TcpStream::connect(address).await.unwrap();
            socket.write_all(request).await.unwrap();
            // The receiver answers, then sees the end and closes.
            socket.shutdown().await.unwrap();
            let mut answer = Vec::new();
            let _ = socket.read_to_end(&mut answer).await;
            String::from_utf8(answer).unwrap()
        };
        let answer = send(b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}").await;
        assert!(answer.starts_with("HTTP/1.1 201 Created\r\n"), "{answer}");
        let answer =
            send(b"POST /push/7 HTTP/1.1\r\nhost: x\r\ncontent-length: 3\r\n\r\nabc").await;
        assert!(answer.starts_with("HTTP/1.1 201 "), "{answer}");
        // Two requests on one connection: both answered.
        let answer = send(
            b"POST /hook HTTP/1.1\r\ncontent-length: 2\r\n\r\n{}\
              POST /push/8 HTTP/1.1\r\ncontent-length: 1\r\n\r\nx",
        )
        .await;
        assert_eq!(
            answer.matches("HTTP/1.1 201 Created\r\n").count(),
            2,
            "{answer}"
        );
        // One answered, then another on the same connection (after an
        // empty line, which is ignored).
        let mut socket = TcpStream::connect(address).await.unwrap();
        for n in 0..2 {
            let request = format!("POST /push/{n} HTTP/1.1\r\ncontent-length: 1\r\n\r\nx\r\n");
            socket.write_all(request.as_bytes()).await.unwrap();
            let mut answer = vec![0u8; 64];
            let read = socket.read(&mut answer).await.unwrap();
            let answer = String::from_utf8_lossy(&answer[..read]).to_string();
            assert!(
                answer.starts_with("HTTP/1.1 201 Created\r\n"),
                "{n}: {answer}"
            );
        }
        drop(socket);
        let answer = send(b"POST /elsewhere HTTP/1.1\r\ncontent-length: 0\r\n\r\n").await;
        assert_eq!(answer, "");
        let answer = send(b"POST /hook HTTP/1.1\r\ncontent-length: 999999\r\n\r\n").await;
        assert_eq!(answer, "");
        // Counted just after the answer is written.
        for _ in 0..100 {
            if receiver.deliveries().refused == 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let got = receiver.deliveries();
        assert_eq!(
            got,
            Deliveries {
                webhook: 2,
                push: 4,
                refused: 2
            }
        );
        assert_eq!(got.since(&Deliveries::default()).total(), 6);
    }
}
