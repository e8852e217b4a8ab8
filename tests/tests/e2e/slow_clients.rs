//! Slow and idle clients cannot hold a connection open: a request body that
//! trickles in is cut off with 408 `request_timeout` once
//! `REQUEST_BODY_TIMEOUT_SECONDS` have passed, and an idle keep-alive
//! connection is closed after `KEEP_ALIVE_SECONDS`. Raw TCP, to send
//! exactly what such a client sends. The limits on time are only
//! "closed at all before a generous deadline"; without the bounds the
//! connections stay open past it.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::harness::{spawn_app_with, Backend, TestApp};
use crate::support::Server;

/// Far longer than the bounds configured below.
const DEADLINE: Duration = Duration::from_secs(20);

async fn connect(app: &TestApp) -> TcpStream {
    let address = app.address.strip_prefix("http://").unwrap();
    TcpStream::connect(address).await.unwrap()
}

/// Everything the server sends until it closes the connection; `None` if
/// it is still open at the deadline.
async fn read_until_closed(stream: &mut tokio::net::tcp::OwnedReadHalf) -> Option<String> {
    let mut received = Vec::new();
    let read = tokio::time::timeout(DEADLINE, async {
        let mut buffer = [0u8; 4096];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => received.extend_from_slice(&buffer[..n]),
            }
        }
    })
    .await;
    read.ok()
        .map(|()| String::from_utf8_lossy(&received).into_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trickled_body_is_cut_off_with_408() {
    let app = spawn_app_with(Backend::Sqlite, |c| {
        c.request_body_timeout = Duration::from_secs(2);
    })
    .await;
    let (mut reader, mut writer) = connect(&app).await.into_split();
    writer
        .write_all(
            b"POST /api/v1/auth/login HTTP/1.1\r\nHost: test\r\n\
              Content-Type: application/json\r\nContent-Length: 100\r\n\r\n",
        )
        .await
        .unwrap();
    // One byte every 2 s, for longer than the deadline unless cut off.
    let trickle = tokio::spawn(async move {
        for _ in 0..100 {
            if writer.write_all(b" ").await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    });
    let answer = read_until_closed(&mut reader)
        .await
        .expect("the connection of a trickling body is still open at the deadline");
    trickle.abort();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let lower = answer.to_lowercase();
    assert!(
        lower.contains("content-type: application/problem+json"),
        "{answer}"
    );
    assert!(answer.contains(r#""code":"request_timeout""#), "{answer}");
    // The server is fine for everyone else.
    assert_eq!(app.get("/healthz", None).await.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_keep_alive_connection_is_closed() {
    let app = spawn_app_with(Backend::Sqlite, |c| {
        c.keep_alive = Duration::from_secs(1);
    })
    .await;
    let (mut reader, mut writer) = connect(&app).await.into_split();
    writer
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        .await
        .unwrap();
    // The answer comes, then nothing more is sent: the server closes the
    // connection once it has been idle for the keep-alive time.
    let answer = read_until_closed(&mut reader)
        .await
        .expect("an idle connection is still open at the deadline");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(answer.matches("HTTP/1.1").count(), 1, "{answer}");
}

/// Sends `request` on a new connection; returns the status line of the
/// answer.
async fn raw_exchange(address: &str, request: &[u8]) -> String {
    let stream = TcpStream::connect(address).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    // The server may answer and close before reading everything.
    let _ = writer.write_all(request).await;
    let answer = read_until_closed(&mut reader)
        .await
        .expect("the server answers a broken request and closes the connection");
    answer.lines().next().unwrap_or_default().to_owned()
}

/// Requests the framework cannot read (malformed request line, no `Host`
/// on HTTP/1.1, too many headers, a head over 128 KiB) are refused and the
/// connection closed; none of them writes an ERROR line (anyone can send
/// them), each writes one INFO line saying what happened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_errors_are_answered_and_logged_below_error() {
    let database = crate::harness::TestDatabase::sqlite();
    let server = crate::process::ServerProcess::start_with(&database, &[("LOG_LEVEL", "info")]);
    let address = server.address.strip_prefix("http://").unwrap().to_owned();
    let many_headers: Vec<u8> = (0..120)
        .flat_map(|i| format!("X-Header-{i}: v\r\n").into_bytes())
        .collect();
    let huge_header = vec![b'a'; 140 * 1024];
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "malformed request line",
            b"GARBAGE\r\n\r\n".to_vec(),
            "HTTP/1.1 400",
        ),
        (
            "no Host",
            b"GET /healthz HTTP/1.1\r\n\r\n".to_vec(),
            "HTTP/1.1 400",
        ),
        (
            "too many headers",
            [
                b"GET /healthz HTTP/1.1\r\nHost: t\r\n".as_slice(),
                &many_headers,
                b"\r\n",
            ]
            .concat(),
            "HTTP/1.1 431",
        ),
        (
            "head too large",
            [
                b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Big: ".as_slice(),
                &huge_header,
                b"\r\n\r\n",
            ]
            .concat(),
            "HTTP/1.1 431",
        ),
    ];
    for (what, request, status) in &cases {
        let got = raw_exchange(&address, request).await;
        assert!(got.starts_with(status), "{what}: {got}");
    }
    // The server still serves everyone else.
    let health = server
        .client()
        .get(server.at("/healthz"))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);

    let until = tokio::time::Instant::now() + DEADLINE;
    let noted = |log: &[String]| log.iter().filter(|l| l.contains("api::http")).count();
    while noted(&server.log()) < cases.len() && tokio::time::Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let log = server.log();
    let errors: Vec<&String> = log.iter().filter(|l| l.contains("ERROR")).collect();
    assert!(
        errors.is_empty(),
        "client mistakes logged as errors: {errors:#?}"
    );
    let noted: Vec<&String> = log.iter().filter(|l| l.contains("api::http")).collect();
    assert_eq!(noted.len(), cases.len(), "{log:#?}");
    assert!(noted.iter().all(|l| l.contains(" INFO ")), "{noted:#?}");
}
