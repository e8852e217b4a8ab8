//! Unit tests of the workers' own connections: how a URL is read, and
//! that nothing is opened outside an HTTP worker.

#![allow(clippy::unwrap_used, clippy::expect_used)]
use super::*;

fn reads(url: &str) -> Result<OwnConnections, String> {
    OwnConnections::new(
        url,
        APPLICATION_NAME,
        2,
        Duration::from_secs(3),
        Default::default(),
    )
}

#[test]
fn tls_settings_are_honoured_or_left_to_the_pool() {
    for url in [
        "postgres://app@127.0.0.1:5432/db",
        "postgres://app@localhost/db",
        "postgres://app@[::1]:5432/db",
        "postgres://app@db.example:5432/db?sslmode=disable",
        "postgres://app@db.example/db?sslmode=prefer",
        "postgres://app@db.example/db?sslmode=require",
        "postgres://app@127.0.0.1/db?sslmode=require&sslrootcert=/nonexistent",
        "postgres://app@localhost,db.example/db?sslmode=allow",
        "postgres://app@%2Fvar%2Frun%2Fpostgresql/db?sslmode=verify-full",
    ] {
        assert!(reads(url).is_ok(), "{url}");
    }
    for url in [
        // No root file: libpq refuses too.
        "postgres://app@127.0.0.1/db?sslmode=verify-full&sslrootcert=/nonexistent",
        "postgres://app@127.0.0.1/db?sslmode=verify-ca&sslrootcert=/nonexistent",
        // Roots that only libpq's OpenSSL knows where to find.
        "postgres://app@127.0.0.1/db?sslmode=verify-full&sslrootcert=system",
        "postgres://app@127.0.0.1/db?sslmode=on",
        // A TLS parameter this client does not know.
        "postgres://app@127.0.0.1/db?sslmode=require&sslcert=/client.pem",
    ] {
        assert!(reads(url).is_err(), "{url}");
    }
    // What the connections try, in libpq's order.
    let attempts = |url: &str| reads(url).unwrap().tls.attempts().to_vec();
    use tokio_postgres::config::SslMode;
    assert_eq!(
        attempts("postgres://app@db.example/db?sslmode=require&connect_timeout=2"),
        [SslMode::Require]
    );
    assert_eq!(
        attempts("postgres://app@db.example/db"),
        [SslMode::Prefer, SslMode::Disable]
    );
}

#[test]
fn the_pools_bounds_are_set_unless_the_url_sets_them() {
    let set = reads("postgres://app@127.0.0.1/db").unwrap().config;
    assert_eq!(set.get_tcp_user_timeout(), Some(&Duration::from_secs(3)));
    assert!(set.get_keepalives());
    assert_eq!(set.get_keepalives_idle(), Duration::from_secs(3));
    assert_eq!(set.get_application_name(), Some(APPLICATION_NAME));
    assert_eq!(
        set.get_connect_timeout(),
        Some(&Duration::from_millis(1500))
    );
    let kept = reads("postgres://app@127.0.0.1/db?connect_timeout=9")
        .unwrap()
        .config;
    assert_eq!(kept.get_connect_timeout(), Some(&Duration::from_secs(9)));
    // libpq's spelling and units, as the pool reads them.
    let libpq =
        reads("postgres://app@127.0.0.1/db?tcp_user_timeout=2500&keepalives_count=7&keepalives=1")
            .unwrap()
            .config;
    assert_eq!(
        libpq.get_tcp_user_timeout(),
        Some(&Duration::from_millis(2500))
    );
    assert_eq!(libpq.get_keepalives_retries(), Some(7));
    // As libpq: a value without a number, or out of its range, is
    // refused (and the reads use the pool).
    assert!(reads("postgres://app@127.0.0.1/db?tcp_user_timeout").is_err());
    assert!(reads("postgres://app@127.0.0.1/db?keepalives_count=4294967296").is_err());
    // A parameter's name inside a value is not the parameter.
    let named = reads("postgres://app@127.0.0.1/db?application_name=keepalives_count=1")
        .unwrap()
        .config;
    assert_eq!(named.get_keepalives_retries(), Some(3));
}

#[test]
fn a_libpq_variable_in_the_environment_is_found() {
    let found = |names: &[&str]| libpq_variable(names.iter().map(|n| (*n).to_owned()));
    assert_eq!(found(&["HOME", "PATH", "PGDATA", "PG", "PGx"]), None);
    for name in [
        "PGPASSWORD",
        "PGSSLMODE",
        "PGREQUIREPEER",
        "PGCHANNELBINDING",
        "PGREQUIREAUTH",
    ] {
        assert_eq!(found(&["HOME", name]).as_deref(), Some(name));
    }
}

#[test]
fn outside_an_http_worker_nothing_is_read() {
    use futures_util::FutureExt as _;
    let reads = reads("postgres://app@127.0.0.1:1/db").unwrap();
    // No runtime at all: the read says at once that the pool must
    // answer, and opens nothing.
    let read = reads
        .read_by_key("a".to_owned(), |conn, _keys| {
            Box::pin(async move {
                conn.batch_execute("SELECT 1").await?;
                Ok(vec![("a".to_owned(), 1)])
            })
        })
        .now_or_never();
    assert!(matches!(read, Some(None)));
    assert_eq!(with_slot(reads.id, |slot| slot.open), Some(0));
}

/// The main thread runs a single-threaded runtime too (the bots, the
/// clock): unmarked, its reads and writes use the pool and open nothing
/// here, so that the connections stay within their configured number.
/// Marked as an HTTP worker, the same thread would open one (here it
/// tries, and fails: nothing listens on port 1).
#[test]
fn only_a_marked_http_worker_opens_connections() {
    let own = reads("postgres://app@127.0.0.1:1/db").unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let read = || {
        own.read_by_key("a".to_owned(), |conn, _keys| {
            Box::pin(async move {
                conn.batch_execute("SELECT 1").await?;
                Ok(vec![("a".to_owned(), 1)])
            })
        })
    };
    let write = || {
        own.write_once::<_, i32>(diesel::dsl::select(diesel::dsl::sql::<
            diesel::sql_types::Integer,
        >("1")))
    };
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                assert!(runtime.block_on(read()).is_none());
                assert!(runtime.block_on(write()).is_none());
                assert!(!runtime.block_on(async { own.usable_here() }));

                // Had the unmarked thread tried to open a connection, it
                // would be backing off now.
                mark_http_worker();
                assert!(runtime.block_on(async { own.usable_here() }));
                // Opening fails: nothing is written, the pool is to write,
                // and the thread backs off from opening for a while.
                assert!(runtime.block_on(write()).is_none());
                assert!(!runtime.block_on(async { own.usable_here() }));
            })
            .join()
            .unwrap();
    });
}
