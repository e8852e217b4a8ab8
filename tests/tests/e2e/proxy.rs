//! A TCP proxy between a server under test and its PostgreSQL, that can
//! make the database misbehave as a network or an operator would, without
//! touching the shared PostgreSQL server:
//!
//! - [`Proxy::freeze`]: bytes are still accepted (the kernel acknowledges
//!   them) but nothing is passed on, in either direction: what a stopped
//!   (SIGSTOP) server or a black-holed link looks like to the client;
//! - [`Proxy::refuse`]: every open connection is closed and new ones are
//!   refused, as when PostgreSQL is stopped;
//! - [`Proxy::restore`]: back to passing everything through.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub struct Proxy {
    address: SocketAddr,
    upstream: SocketAddr,
    frozen: watch::Sender<bool>,
    /// Bumped to close every open connection.
    generation: watch::Sender<u64>,
    acceptor: Mutex<Option<JoinHandle<()>>>,
    shared: Arc<Shared>,
}

struct Shared {
    frozen: watch::Receiver<bool>,
    generation: watch::Receiver<u64>,
}

impl Proxy {
    /// A proxy to the server of the `postgres://` URL `url`.
    pub async fn to_server_of(url: &str) -> Self {
        let rest = url.split_once("://").unwrap().1;
        let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
        let host = authority
            .rsplit_once('@')
            .map_or(authority, |(_, host)| host);
        let host = if host.contains(':') {
            host.to_owned()
        } else {
            format!("{host}:5432")
        };
        let upstream = tokio::net::lookup_host(host).await.unwrap().next().unwrap();
        Self::start(upstream).await
    }

    /// Listens on a free loopback port and passes connections to `upstream`.
    pub async fn start(upstream: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (frozen, frozen_rx) = watch::channel(false);
        let (generation, generation_rx) = watch::channel(0);
        let shared = Arc::new(Shared {
            frozen: frozen_rx,
            generation: generation_rx,
        });
        let proxy = Self {
            address,
            upstream,
            frozen,
            generation,
            acceptor: Mutex::new(None),
            shared,
        };
        proxy.accept_on(listener);
        proxy
    }

    /// `postgres://` URL `url` with its host and port replaced by the proxy's.
    pub fn url_through(&self, url: &str) -> String {
        let (scheme, rest) = url.split_once("://").unwrap();
        let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
        let credentials = authority
            .rsplit_once('@')
            .map(|(user, _)| format!("{user}@"))
            .unwrap_or_default();
        format!("{scheme}://{credentials}{}{tail}", self.address)
    }

    pub fn freeze(&self) {
        self.frozen.send_replace(true);
    }

    /// Closes every connection and refuses new ones until [`Self::restore`].
    pub async fn refuse(&self) {
        let acceptor = self.acceptor.lock().unwrap().take();
        if let Some(acceptor) = acceptor {
            acceptor.abort();
            // Once it has ended, its listener is closed: connects get RST.
            let _ = acceptor.await;
        }
        self.generation.send_modify(|g| *g += 1);
    }

    pub async fn restore(&self) {
        self.frozen.send_replace(false);
        let idle = self.acceptor.lock().unwrap().is_none();
        if idle {
            let listener = TcpListener::bind(self.address).await.unwrap();
            self.accept_on(listener);
        }
    }

    fn accept_on(&self, listener: TcpListener) {
        let upstream = self.upstream;
        let shared = self.shared.clone();
        let acceptor = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let shared = shared.clone();
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(upstream).await else {
                        return;
                    };
                    shared.pass(client, server).await;
                });
            }
        });
        *self.acceptor.lock().unwrap() = Some(acceptor);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        if let Some(acceptor) = self.acceptor.lock().unwrap().take() {
            acceptor.abort();
        }
        self.generation.send_modify(|g| *g += 1);
    }
}

impl Shared {
    /// Copies both ways until either side closes or the connections of this
    /// generation are closed.
    async fn pass(&self, client: TcpStream, server: TcpStream) {
        let mut closing = self.generation.clone();
        closing.mark_unchanged();
        let (client_read, client_write) = client.into_split();
        let (server_read, server_write) = server.into_split();
        tokio::select! {
            () = copy(client_read, server_write, self.frozen.clone()) => {}
            () = copy(server_read, client_write, self.frozen.clone()) => {}
            _ = closing.changed() => {}
        }
    }
}

/// Reads whatever arrives and passes it on, holding it while frozen.
async fn copy(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mut frozen: watch::Receiver<bool>,
) {
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        let read = match from.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(read) => read,
        };
        if frozen.wait_for(|frozen| !frozen).await.is_err() {
            return;
        }
        if to.write_all(&buffer[..read]).await.is_err() {
            return;
        }
    }
}
