//! The request body, bounded in time: actix bounds the wait for a request's
//! headers (5 s) but not for its body, so a client trickling a body a byte
//! at a time could hold a connection (and a worker's attention) for ever.
//! [`bound_body_read`] (installed in `startup` for every request that has a
//! body) makes the body stream fail once `REQUEST_BODY_TIMEOUT_SECONDS`
//! have passed since the headers arrived; the JSON extractor's error
//! handler turns that failure into 408 `request_timeout`, and the answer
//! closes the connection (docs/api.md, "Slow and idle clients").

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::dev::{Payload, ServiceRequest};
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::HttpMessage;
use futures_util::Stream;
use tokio::time::{Instant, Sleep};

/// The text of the error a late body fails with.
const LATE_BODY: &str = "the request body did not arrive in time";

/// Bounds the time `req`'s body may take to arrive to `limit` from now.
/// Requests without a body are left as they are.
pub fn bound_body_read(req: &mut ServiceRequest, limit: Duration) {
    let headers = req.headers();
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|length| length.as_bytes() != b"0");
    if !has_body {
        return;
    }
    let inner = req.take_payload();
    let bounded = BoundedBody {
        inner,
        deadline: Instant::now() + limit,
        timer: None,
        expired: false,
    };
    req.set_payload(Payload::Stream {
        payload: Box::pin(bounded),
    });
}

/// Whether a body read failed because the body was too late.
pub fn is_late_body(error: &PayloadError) -> bool {
    matches!(error, PayloadError::Io(io) if io.kind() == io::ErrorKind::TimedOut
        && io.to_string() == LATE_BODY)
}

struct BoundedBody {
    inner: Payload,
    deadline: Instant,
    /// Armed at the first wait, so that a body that is already there costs
    /// no timer.
    timer: Option<Pin<Box<Sleep>>>,
    expired: bool,
}

impl Stream for BoundedBody {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(None);
        }
        if let Poll::Ready(item) = Pin::new(&mut this.inner).poll_next(cx) {
            return Poll::Ready(item);
        }
        let deadline = this.deadline;
        let timer = this
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => {
                this.expired = true;
                Poll::Ready(Some(Err(PayloadError::Io(io::Error::new(
                    io::ErrorKind::TimedOut,
                    LATE_BODY,
                )))))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}
