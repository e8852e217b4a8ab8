//! The event feed as the tests read it: long polls of `GET /events`, the
//! Server-Sent Events streams frame by frame, and the time limits within
//! which a wake-up must bring an answer. Re-exported by `support.rs`.

use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::task::JoinHandle;

use crate::harness::TestUser;
use crate::support::Server;

// --- The event feed ---------------------------------------------------------

/// `GET /events?after=..&wait=..` as `user`.
pub async fn poll(app: &impl Server, user: &TestUser, after: i64, wait: u64) -> Value {
    let response = app
        .get_as(&format!("/api/v1/events?after={after}&wait={wait}"), user)
        .await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

/// Everything in `user`'s feed, oldest first (up to a page of 100).
pub async fn feed(app: &impl Server, user: &TestUser) -> Vec<Value> {
    poll(app, user, 0, 0).await["events"]
        .as_array()
        .unwrap()
        .clone()
}

/// The newest event id in `user`'s feed (0 when empty).
pub async fn last_id(app: &impl Server, user: &TestUser) -> i64 {
    poll(app, user, 0, 0).await["last_id"].as_i64().unwrap()
}

/// Events as the tests hold them: a page (`{"events": [...]}`) or a list.
pub trait Events {
    fn events(&self) -> &[Value];
}

impl Events for Value {
    fn events(&self) -> &[Value] {
        self.get("events")
            .unwrap_or(self)
            .as_array()
            .expect("a page of events or a list of them")
    }
}

impl Events for [Value] {
    fn events(&self) -> &[Value] {
        self
    }
}

impl Events for Vec<Value> {
    fn events(&self) -> &[Value] {
        self
    }
}

/// The `type` of each event, in order.
pub fn types(events: &(impl Events + ?Sized)) -> Vec<&str> {
    events
        .events()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect()
}

/// One Server-Sent Event.
#[derive(Debug, Clone)]
pub struct Frame {
    pub id: Option<String>,
    pub event: Option<String>,
    pub data: String,
}

/// Reads an SSE answer frame by frame (comments are skipped).
pub struct SseReader {
    response: reqwest::Response,
    buffer: String,
    pub comments: usize,
    /// Every `retry:` hint received, in order.
    pub retries: Vec<u64>,
}

impl SseReader {
    pub fn new(response: reqwest::Response) -> Self {
        assert_eq!(response.status(), 200);
        let content_type = response.headers()["content-type"].to_str().unwrap();
        assert!(
            content_type.starts_with("text/event-stream"),
            "{content_type}"
        );
        Self {
            response,
            buffer: String::new(),
            comments: 0,
            retries: Vec::new(),
        }
    }

    /// The next frame carrying data, or `None` when the stream ended.
    /// Panics after `limit` without one (a hung stream fails the test
    /// instead of hanging it).
    pub async fn next_frame(&mut self, limit: Duration) -> Option<Frame> {
        tokio::time::timeout(limit, self.read_frame())
            .await
            .expect("a frame within the limit")
    }

    /// The next frame after a change the stream must be woken for (a
    /// move, an event): it has to come within [`WAKE_LIMIT`], well before
    /// the server's safety re-check would send it anyway.
    pub async fn woken_frame(&mut self) -> Option<Frame> {
        let started = Instant::now();
        let frame = tokio::time::timeout(WAKE_LIMIT, self.read_frame()).await;
        assert!(
            frame.is_ok(),
            "no frame {:?} after the change: the stream was not woken",
            started.elapsed()
        );
        frame.unwrap()
    }

    /// Reads until at least one more comment (`: keep-alive`) arrived;
    /// false if the stream ended first.
    pub async fn next_comment(&mut self, limit: Duration) -> bool {
        let wanted = self.comments + 1;
        tokio::time::timeout(limit, async {
            while self.comments < wanted {
                if let Some(end) = self.buffer.find("\n\n") {
                    let block: String = self.buffer.drain(..end + 2).collect();
                    self.comments += block.lines().filter(|l| l.starts_with(':')).count();
                    continue;
                }
                match self.response.chunk().await {
                    Ok(Some(bytes)) => self.buffer.push_str(std::str::from_utf8(&bytes).unwrap()),
                    Ok(None) | Err(_) => return false,
                }
            }
            true
        })
        .await
        .expect("a comment within the limit")
    }

    async fn read_frame(&mut self) -> Option<Frame> {
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut frame = Frame {
                    id: None,
                    event: None,
                    data: String::new(),
                };
                let mut has_data = false;
                for line in block.lines() {
                    if line.starts_with(':') {
                        self.comments += 1;
                    } else if let Some(v) = line.strip_prefix("retry: ") {
                        self.retries.push(v.parse().unwrap());
                    } else if let Some(v) = line.strip_prefix("id: ") {
                        frame.id = Some(v.to_owned());
                    } else if let Some(v) = line.strip_prefix("event: ") {
                        frame.event = Some(v.to_owned());
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        frame.data.push_str(v);
                        has_data = true;
                    }
                }
                if has_data {
                    return Some(frame);
                }
            }
            match self.response.chunk().await {
                Ok(Some(bytes)) => self.buffer.push_str(std::str::from_utf8(&bytes).unwrap()),
                Ok(None) | Err(_) => return None,
            }
        }
    }
}

pub async fn open_stream(
    app: &impl Server,
    path: &str,
    user: &TestUser,
    last_id: Option<i64>,
) -> reqwest::Response {
    let mut request = app
        .client()
        .get(app.at(path))
        .bearer_auth(&user.access_token);
    if let Some(id) = last_id {
        request = request.header("Last-Event-ID", id.to_string());
    }
    request.send().await.unwrap()
}

/// How long a test waits for a frame that needs no wake-up (a pending
/// event, the first view of a game, the end of a stream).
pub const FRAME_LIMIT: Duration = Duration::from_secs(30);

// --- Wake-ups -----------------------------------------------------------------

/// A request or stream waiting for a change is woken by the change itself;
/// should a wake-up be lost, the server still reads the database again
/// every [`SAFETY_RECHECK`](api::routes::events::SAFETY_RECHECK) (20 s),
/// and a game's `wait_for_version` only ends with its wait. An answer that
/// a wake-up must bring has to come within half of that re-check interval,
/// so that a lost wake-up fails the test instead of passing late.
pub const WAKE_LIMIT: Duration =
    Duration::from_secs(api::routes::events::SAFETY_RECHECK.as_secs() / 2);

/// The `wait` of the long polls that test a wake-up: the longest the server
/// allows, well past the safety re-check, so that a lost wake-up is
/// answered late, if at all.
pub const LONG_WAIT: u64 = api::routes::extract::MAX_WAIT_SECONDS;

/// A long poll (`GET /events?wait=..` or `GET /games/{id}?wait_for_version=..`)
/// running in the background while the test makes the change it waits for.
pub struct LongPoll {
    task: JoinHandle<(Value, Instant)>,
    started: Instant,
}

impl LongPoll {
    /// Sends `GET path` as `user` in the background and gives it a moment
    /// to reach the server and start waiting (if it got there only after
    /// the change, it would be answered at once and test no wake-up).
    pub async fn start(app: &impl Server, path: &str, user: &TestUser) -> Self {
        let request = app
            .client()
            .get(app.at(path))
            .bearer_auth(&user.access_token)
            .timeout(Duration::from_secs(LONG_WAIT + 30));
        let path = path.to_owned();
        let started = Instant::now();
        let task = tokio::spawn(async move {
            let response = request.send().await.expect("the long poll is answered");
            assert_eq!(response.status(), 200, "GET {path}");
            let body: Value = response.json().await.unwrap();
            (body, Instant::now())
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        Self { task, started }
    }

    /// The answer, which must have come within [`WAKE_LIMIT`] of the start:
    /// brought by a wake-up, not by the safety re-check or the end of the
    /// wait. Also returns when it came.
    pub async fn woken_at(self) -> (Value, Instant) {
        let (body, answered) = self.task.await.unwrap();
        let took = answered.duration_since(self.started);
        assert!(
            took < WAKE_LIMIT,
            "the long poll was answered only after {took:?}: it was not woken ({body})"
        );
        (body, answered)
    }

    /// Like [`LongPoll::woken_at`], without the time.
    pub async fn woken(self) -> Value {
        self.woken_at().await.0
    }
}
