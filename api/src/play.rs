//! The reference web client (docs/web-client.md): the page at `/play/`,
//! its script, its service worker and its style, built from `clients/web`
//! into `api/play/` and compiled into the binary, so a fresh `cargo run`
//! serves it with nothing to install and nothing fetched from elsewhere.
//!
//! Each file is answered with a strict Content-Security-Policy (scripts,
//! styles, images and connections from this server only), an ETag of its
//! bytes and `Cache-Control: no-cache`, so a new build is picked up at once
//! and an unchanged file costs a 304.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};
use std::sync::LazyLock;

use crate::games::answers::tag_matches;

/// Where the page lives; `/play` redirects here so that the service
/// worker's scope `/play/` covers the page.
pub const PLAY_PATH: &str = "/play/";

/// What the page may load: its own files, its own API, pictures it makes
/// from the API's answers (`blob:`), nothing else.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; worker-src 'self'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

struct File {
    path: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

const FILES: [File; 4] = [
    File {
        path: "/play/",
        content_type: "text/html; charset=utf-8",
        bytes: include_bytes!("../play/index.html"),
    },
    File {
        path: "/play/app.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../play/app.js"),
    },
    File {
        path: "/play/sw.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../play/sw.js"),
    },
    File {
        path: "/play/style.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../play/style.css"),
    },
];

/// Each file's strong ETag: the first 16 bytes of its SHA-256, in hex.
static ETAGS: LazyLock<Vec<String>> = LazyLock::new(|| {
    FILES
        .iter()
        .map(|file| {
            let digest = Sha256::digest(file.bytes);
            let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
            format!("\"{hex}\"")
        })
        .collect()
});

/// Registers `/play` and the page's files.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/play",
        web::get().to(|| async {
            HttpResponse::PermanentRedirect()
                .insert_header((header::LOCATION, PLAY_PATH))
                .finish()
        }),
    );
    for (index, file) in FILES.iter().enumerate() {
        let get = move |request: HttpRequest| async move { answer(index, &request) };
        cfg.service(
            web::resource(file.path)
                .route(web::get().to(get))
                .route(web::head().to(get)),
        );
    }
}

fn answer(index: usize, request: &HttpRequest) -> HttpResponse {
    let file = &FILES[index];
    let etag = &ETAGS[index];
    let unchanged = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| tag_matches(value, etag));
    let mut response = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, etag.as_str()))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ));
    if unchanged {
        return response.finish();
    }
    response.content_type(file.content_type).body(file.bytes)
}
