//! The load's HTTP client: plain HTTP/1.1 on one keep-alive connection per
//! client, and the count (and first few) of the failed requests.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// How many failed requests are kept with their request and answer.
const ERROR_SAMPLES: usize = 5;

/// One simulated client: its own keep-alive connection, and the shared
/// error count.
///
/// The client speaks plain HTTP/1.1 itself (one request at a time on one
/// connection, `Content-Length` or chunked answers), so that what it costs
/// per request is close to what pgbench's client costs per transaction: a
/// general HTTP client library (reqwest) cost more CPU per view than the
/// server did (BENCHMARKS.md).
pub(super) struct Client {
    address: SocketAddr,
    connection: tokio::sync::Mutex<Option<BufReader<TcpStream>>>,
    errors: Arc<Errors>,
    phase: &'static str,
    seen: AtomicU64,
}

/// How long one request may take before it counts as failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest answer the client reads.
const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;

impl Client {
    pub(super) fn new(
        base: &str,
        errors: &Arc<Errors>,
        phase: &'static str,
    ) -> Result<Self, String> {
        let address = base
            .strip_prefix("http://")
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("not an http://address:port base: {base}"))?;
        Ok(Self {
            address,
            connection: tokio::sync::Mutex::new(None),
            errors: Arc::clone(errors),
            phase,
            seen: AtomicU64::new(0),
        })
    }

    /// Counts a failed request (and keeps it if it is among the first).
    pub(super) fn failed(&self, request: &str, body: &str, status: &str, answer: &str) {
        self.seen.fetch_add(1, Ordering::Relaxed);
        self.errors
            .record(self.phase, request, body, status, answer);
    }

    pub(super) fn errors_seen(&self) -> u64 {
        self.seen.load(Ordering::Relaxed)
    }

    /// Sends one request; the JSON answer and the time from sending to its
    /// last byte, or `None` (the error recorded) unless it is 2xx JSON.
    pub(super) async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Option<(Value, Duration)> {
        let (bytes, took) = self.send(method, path, token, body).await?;
        let value = self.parse(&format!("{method} {path}"), &bytes)?;
        Some((value, took))
    }

    /// Reads a 2xx answer as `T` (the error recorded if it is not that
    /// JSON).
    pub(super) fn parse<'a, T: Deserialize<'a>>(
        &self,
        request: &str,
        bytes: &'a [u8],
    ) -> Option<T> {
        match serde_json::from_slice(bytes) {
            Ok(value) => Some(value),
            Err(e) => {
                self.failed(
                    request,
                    "",
                    &format!("2xx, not the JSON expected: {e}"),
                    &String::from_utf8_lossy(bytes),
                );
                None
            }
        }
    }

    /// Sends one request; the answer's body and the time from sending to
    /// its last byte, or `None` (the error recorded) unless it is 2xx.
    pub(super) async fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Option<(Vec<u8>, Duration)> {
        let text = body.map(Value::to_string).unwrap_or_default();
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\n",
            self.address
        );
        if let Some(token) = token {
            request.push_str("Authorization: Bearer ");
            request.push_str(token);
            request.push_str("\r\n");
        }
        if body.is_some() || method != "GET" {
            request.push_str("Content-Type: application/json\r\nContent-Length: ");
            request.push_str(&text.len().to_string());
            request.push_str("\r\n");
        }
        request.push_str("\r\n");
        request.push_str(&text);
        let what = format!("{method} {path}");
        let mut connection = self.connection.lock().await;
        let sent = Instant::now();
        let outcome = tokio::time::timeout(
            REQUEST_TIMEOUT,
            exchange(
                &mut connection,
                self.address,
                request.as_bytes(),
                method == "GET",
            ),
        )
        .await
        .unwrap_or_else(|_| Err(format!("no answer within {REQUEST_TIMEOUT:?}")));
        let took = sent.elapsed();
        if outcome.is_err() {
            // Whatever is left on the connection is not to be trusted.
            *connection = None;
        }
        match outcome {
            Err(e) => {
                self.failed(&what, &text, &e, "");
                None
            }
            Ok((status, bytes)) if !(200..300).contains(&status) => {
                self.failed(
                    &what,
                    &text,
                    &status.to_string(),
                    &String::from_utf8_lossy(&bytes),
                );
                None
            }
            Ok((_, bytes)) => Some((bytes, took)),
        }
    }
}

/// Sends `request` on the kept connection (opening one if there is none)
/// and reads the answer: its status and body. A kept connection that the
/// server had closed is replaced once and the request sent again on the
/// new one, but only when the server cannot have acted on it: the request
/// could not be written, or it is a `GET`. A `POST` that got no answer is
/// an error, never sent twice.
async fn exchange(
    connection: &mut Option<BufReader<TcpStream>>,
    address: SocketAddr,
    request: &[u8],
    idempotent: bool,
) -> Result<(u16, Vec<u8>), String> {
    for attempt in 0..2 {
        let reused = connection.is_some();
        let stream = match connection {
            Some(stream) => stream,
            None => {
                let stream = TcpStream::connect(address)
                    .await
                    .map_err(|e| format!("connect to {address}: {e}"))?;
                stream
                    .set_nodelay(true)
                    .map_err(|e| format!("nodelay: {e}"))?;
                connection.insert(BufReader::with_capacity(64 * 1024, stream))
            }
        };
        match read_answer(stream, request).await {
            Ok((status, body, keep)) => {
                if !keep {
                    *connection = None;
                }
                return Ok((status, body));
            }
            Err(Answer::NotSent(_)) if reused && attempt == 0 => *connection = None,
            Err(Answer::NothingYet(_)) if reused && attempt == 0 && idempotent => {
                *connection = None;
            }
            Err(Answer::NotSent(e) | Answer::NothingYet(e) | Answer::Broken(e)) => {
                *connection = None;
                return Err(e);
            }
        }
    }
    Err("the connection closed twice before an answer".to_owned())
}

/// Why no answer was read.
enum Answer {
    /// The request could not be written (a closed keep-alive connection).
    NotSent(String),
    /// The request was written, and not one byte of an answer came back.
    NothingYet(String),
    /// The answer broke off, or was not HTTP.
    Broken(String),
}

/// Writes the request and reads one answer: status, body, and whether the
/// connection may be used again.
async fn read_answer(
    stream: &mut BufReader<TcpStream>,
    request: &[u8],
) -> Result<(u16, Vec<u8>, bool), Answer> {
    let broken = |what: &str| Answer::Broken(what.to_owned());
    if let Err(e) = stream.get_mut().write_all(request).await {
        return Err(Answer::NotSent(format!("sending: {e}")));
    }
    let mut line = String::new();
    match stream.read_line(&mut line).await {
        Ok(0) => return Err(Answer::NothingYet("closed before answering".to_owned())),
        Err(e) if line.is_empty() => {
            return Err(Answer::NothingYet(format!("reading the answer: {e}")))
        }
        Err(e) => return Err(Answer::Broken(format!("reading the status line: {e}"))),
        Ok(_) => {}
    }
    let status: u16 = line
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| Answer::Broken(format!("not an HTTP/1.1 status line: {line:?}")))?;
    let (mut length, mut chunked, mut keep) = (None, false, true);
    loop {
        line.clear();
        let read = stream
            .read_line(&mut line)
            .await
            .map_err(|e| Answer::Broken(format!("reading the headers: {e}")))?;
        if read == 0 {
            return Err(broken("closed in the headers"));
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(Answer::Broken(format!("not a header: {header:?}")));
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| Answer::Broken(format!("Content-Length {value:?}")))?,
            );
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.eq_ignore_ascii_case("chunked");
        } else if name.eq_ignore_ascii_case("connection") {
            keep = !value.eq_ignore_ascii_case("close");
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            stream
                .read_line(&mut line)
                .await
                .map_err(|e| Answer::Broken(format!("reading a chunk: {e}")))?;
            let size = usize::from_str_radix(line.trim_end().split(';').next().unwrap_or(""), 16)
                .map_err(|_| Answer::Broken(format!("chunk size {line:?}")))?;
            if body.len() + size > MAX_ANSWER_BYTES {
                return Err(broken("answer too large"));
            }
            let start = body.len();
            body.resize(start + size + 2, 0);
            stream
                .read_exact(&mut body[start..])
                .await
                .map_err(|e| Answer::Broken(format!("reading a chunk: {e}")))?;
            if body.get(start + size..) != Some(&b"\r\n"[..]) {
                return Err(broken("a chunk not followed by CRLF (or trailers)"));
            }
            body.truncate(start + size);
            if size == 0 {
                break;
            }
        }
    } else if let Some(length) = length {
        if length > MAX_ANSWER_BYTES {
            return Err(broken("answer too large"));
        }
        body.resize(length, 0);
        stream
            .read_exact(&mut body)
            .await
            .map_err(|e| Answer::Broken(format!("reading the body: {e}")))?;
    } else if status != 204 && status != 304 {
        return Err(broken("an answer with neither Content-Length nor chunks"));
    }
    Ok((status, body, keep))
}

/// All clients' failed requests.
pub(super) struct Errors {
    started: Instant,
    pub(super) count: AtomicU64,
    samples: Mutex<Vec<String>>,
}

impl Errors {
    pub(super) fn new() -> Self {
        Self {
            started: Instant::now(),
            count: AtomicU64::new(0),
            samples: Mutex::new(Vec::new()),
        }
    }

    fn record(&self, phase: &str, request: &str, body: &str, status: &str, answer: &str) {
        self.count.fetch_add(1, Ordering::Relaxed);
        let Ok(mut samples) = self.samples.lock() else {
            return;
        };
        if samples.len() < ERROR_SAMPLES {
            let mut answer = answer.to_owned();
            if answer.len() > 600 {
                let mut end = 600;
                while !answer.is_char_boundary(end) {
                    end -= 1;
                }
                answer.truncate(end);
                answer.push_str("...");
            }
            let body = if body.is_empty() {
                String::new()
            } else {
                format!(" {body}")
            };
            samples.push(format!(
                "[{phase}, {:.3} s into the run] {request}{body} -> {status}: {answer}",
                self.started.elapsed().as_secs_f64()
            ));
        }
    }

    pub(super) fn samples(&self) -> Vec<String> {
        self.samples.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use serde_json::json;

    /// The client's HTTP: a sized answer, a chunked one, a kept
    /// connection the server closed (a GET sent again on a new one, a POST
    /// never), and a refusal counted as an error with its status.
    #[tokio::test]
    async fn the_client_reads_sized_and_chunked_answers_and_reconnects() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let answers: [&[&[u8]]; 2] = [
                &[
                    b"HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\n{\"you\":\"r\"}",
                    b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4\r\n{\"yo\r\n8\r\nu\":null}\r\n0\r\n\r\n",
                ],
                &[b"HTTP/1.1 409 Conflict\r\ncontent-length: 2\r\n\r\n{}"],
            ];
            for connection in answers {
                let (mut socket, _) = listener.accept().await.unwrap();
                for answer in connection {
                    let mut request = [0u8; 1024];
                    let n = socket.read(&mut request).await.unwrap();
                    assert!(request[..n].ends_with(b"\r\n\r\n"), "one whole GET");
                    socket.write_all(answer).await.unwrap();
                }
                // Then the server closes this connection.
            }
            // Whether anyone connects again (the POST below must not).
            tokio::time::timeout(Duration::from_millis(300), listener.accept())
                .await
                .is_ok()
        });
        let errors = Arc::new(Errors::new());
        let client = Client::new(&format!("http://{address}"), &errors, "test").unwrap();
        let (first, _) = client.send("GET", "/a", Some("t"), None).await.unwrap();
        assert_eq!(first, br#"{"you":"r"}"#);
        let (second, _) = client.send("GET", "/b", None, None).await.unwrap();
        assert_eq!(second, br#"{"you":null}"#);
        assert_eq!(client.errors_seen(), 0);
        // The kept connection is closed now: the request goes again on a
        // new one, whose answer is a refusal.
        assert!(client.send("GET", "/c", None, None).await.is_none());
        assert_eq!(client.errors_seen(), 1);
        assert!(
            errors.samples()[0].contains("409"),
            "{:?}",
            errors.samples()
        );
        // Closed again: a POST the server may have acted on is an error,
        // and is not sent again.
        let body = json!({"from": "a4", "to": "a5"});
        assert!(client.send("POST", "/d", None, Some(&body)).await.is_none());
        assert_eq!(client.errors_seen(), 2);
        assert!(!server.await.unwrap(), "the POST was sent again");
    }
}
