//! TLS to PostgreSQL (docs/storage.md, "TLS to PostgreSQL"), against a
//! cluster of the test's own (`cluster.rs`) with `ssl = on`, a CA and a
//! server certificate made here for the name `localhost` only, and a
//! `pg_hba.conf` that refuses every connection without TLS. The server
//! connects as a role with a SCRAM password, so the authentication is
//! bound to the TLS channel on both client stacks (`channel_binding`).
//!
//! What must work works, and every connection of the server (the pool,
//! the LISTEN connection, the HTTP workers' own reads) is encrypted; what
//! must be refused (a certificate from another CA, or for another name
//! with `verify-full`) stops the server at start, saying why.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use diesel::{Connection, PgConnection, RunQueryDsl};
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
};

use crate::cluster::Cluster;
use crate::harness::TestDatabase;
use crate::process::ServerProcess;
use crate::support::{game_view, start_game, Server};

/// The role the server connects as, and its password.
const ROLE: &str = "tls_app";
const PASSWORD: &str = "a-password-for-the-tls-tests";

/// Only TLS connections, and the server's role with SCRAM.
const HBA: &str = "\
hostssl    all  postgres  127.0.0.1/32  trust
hostssl    all  tls_app   127.0.0.1/32  scram-sha-256
hostnossl  all  all       0.0.0.0/0     reject
";

/// A certificate authority made for the test.
struct Authority {
    pem: String,
    issuer: Issuer<'static, KeyPair>,
}

impl Authority {
    fn new(name: &str) -> Self {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        let pem = params.self_signed(&key).unwrap().pem();
        Self {
            pem,
            issuer: Issuer::new(params, key),
        }
    }

    /// A server certificate for `name` alone, and its key (PEM).
    fn server_certificate(&self, name: &str) -> (String, String) {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(vec![name.to_owned()]).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        (cert.pem(), key.serialize_pem())
    }
}

/// The cluster, a database on it owned by [`ROLE`], and two CA files: the
/// one that signed the server's certificate and another.
struct TlsCluster {
    // Dropped in this order: the database, then the cluster.
    database: TestDatabase,
    cluster: Cluster,
    ca: PathBuf,
    other_ca: PathBuf,
}

impl TlsCluster {
    fn start(test: &str) -> Option<Self> {
        let cluster = Cluster::init(test)?;
        let ca = Authority::new("Stratego test CA");
        let (cert, key) = ca.server_certificate("localhost");
        cluster.write_private("server.crt", &cert);
        cluster.write_private("server.key", &key);
        cluster.write_private("pg_hba.conf", HBA);
        cluster.configure(
            "ssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\n\
             password_encryption = 'scram-sha-256'\n",
        );
        cluster.pg_start();
        let ca_file = cluster.data_path().join("ca.pem");
        std::fs::write(&ca_file, &ca.pem).unwrap();
        let other_ca = cluster.data_path().join("other-ca.pem");
        std::fs::write(&other_ca, Authority::new("Another CA").pem).unwrap();

        // The superuser, too, gets in with TLS only.
        let admin_url = format!("{}?sslmode=require", cluster.admin_url());
        let mut admin = PgConnection::establish(&admin_url).unwrap();
        diesel::sql_query(format!("CREATE ROLE {ROLE} LOGIN PASSWORD '{PASSWORD}'"))
            .execute(&mut admin)
            .unwrap();
        let database = TestDatabase::postgres_on(admin_url);
        let (_, name) = database.postgres_parts().unwrap();
        diesel::sql_query(format!("ALTER DATABASE \"{name}\" OWNER TO {ROLE}"))
            .execute(&mut admin)
            .unwrap();
        Some(Self {
            database,
            cluster,
            ca: ca_file,
            other_ca,
        })
    }

    /// The server's `DATABASE_URL`: `host`, and `params` (TLS settings).
    fn url(&self, host: &str, params: &str) -> String {
        let (_, name) = self.database.postgres_parts().unwrap();
        format!(
            "postgres://{ROLE}:{PASSWORD}@{host}:{}/{name}?{params}",
            self.cluster.port()
        )
    }

    /// The server's connections to the database: application name, and
    /// whether it is encrypted (`pg_stat_ssl`).
    fn connections(&self) -> Vec<(String, bool)> {
        #[derive(diesel::QueryableByName)]
        struct Row {
            #[diesel(sql_type = diesel::sql_types::Text)]
            application_name: String,
            #[diesel(sql_type = diesel::sql_types::Bool)]
            ssl: bool,
        }
        let (admin_url, name) = self.database.postgres_parts().unwrap();
        let mut admin = PgConnection::establish(admin_url).unwrap();
        diesel::sql_query(
            "SELECT a.application_name, s.ssl FROM pg_stat_activity a \
             JOIN pg_stat_ssl s ON s.pid = a.pid WHERE a.datname = $1 AND a.usename = $2",
        )
        .bind::<diesel::sql_types::Text, _>(name)
        .bind::<diesel::sql_types::Text, _>(ROLE)
        .load::<Row>(&mut admin)
        .unwrap()
        .into_iter()
        .map(|row| (row.application_name, row.ssl))
        .collect()
    }

    /// Serves on `url`: two players start a game and read it (the views are
    /// read on the HTTP workers' own connections) and one moves; then
    /// every connection of the server is encrypted, among them the pool's,
    /// the LISTEN connection and a worker's read and write connections.
    async fn serves_over_tls_only(&self, url: &str) {
        let server = ServerProcess::start_on(url, &[]);
        let red = server.register("tls_red").await;
        let blue = server.register("tls_blue").await;
        let game = start_game(&server, &red, &blue, 3).await;
        for user in [&blue, &red] {
            let view = game_view(&server, &game, user).await;
            assert_eq!(view["status"], "playing", "{view}");
        }
        // Red, to move, moves after its view: written on a worker's own
        // write connection.
        let view = game_view(&server, &game, &red).await;
        let m = view["legal_moves"][0].clone();
        let body = serde_json::json!({"from": m["from"], "to": m["to"], "expected_version": view["version"]});
        let moved = server
            .post_as(&format!("/api/v1/games/{game}/moves"), &red, &body)
            .await;
        assert_eq!(moved.status().as_u16(), 200);
        let kinds = [
            "",
            api::events::listener::APPLICATION_NAME,
            api::db::READ_CONNECTIONS_NAME,
            api::db::WRITE_CONNECTIONS_NAME,
        ];
        // The LISTEN connection opens on a thread of its own: wait for it
        // (and the others), a while at most.
        let until = Instant::now() + Duration::from_secs(20);
        let connections = loop {
            let connections = self.connections();
            let all_there = kinds
                .iter()
                .all(|kind| connections.iter().any(|(name, _)| name == kind));
            if all_there || Instant::now() >= until {
                break connections;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        for kind in kinds {
            assert!(
                connections.iter().any(|(name, _)| name == kind),
                "no connection named {kind:?}: {connections:?}"
            );
        }
        let plain: Vec<_> = connections.iter().filter(|(_, ssl)| !ssl).collect();
        assert!(plain.is_empty(), "not encrypted: {plain:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sslmode_require_encrypts_every_connection_and_binds_the_password_to_it() {
    let Some(tls) = TlsCluster::start("the TLS test (sslmode=require)") else {
        return;
    };
    // The cluster lets no connection in without TLS.
    let (status, said) = ServerProcess::refused(
        &tls.url("127.0.0.1", "sslmode=disable"),
        &[("DATABASE_TIMEOUT_SECONDS", "2")],
    );
    assert!(!status.success());
    assert!(said.contains("no encryption"), "{said}");
    // Not verified (no root certificate file), but encrypted, and the
    // SCRAM exchange bound to the TLS channel on every connection.
    tls.serves_over_tls_only(&tls.url("127.0.0.1", "sslmode=require&channel_binding=require"))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_full_with_the_right_ca_and_host_serves() {
    let Some(tls) = TlsCluster::start("the TLS test (verify-full)") else {
        return;
    };
    let params = format!("sslmode=verify-full&sslrootcert={}", tls.ca.display());
    tls.serves_over_tls_only(&tls.url("localhost", &params))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_ca_checks_the_ca_but_not_the_host_name() {
    let Some(tls) = TlsCluster::start("the TLS test (verify-ca)") else {
        return;
    };
    // The certificate names `localhost`, not 127.0.0.1: as libpq,
    // verify-ca does not mind.
    let params = format!("sslmode=verify-ca&sslrootcert={}", tls.ca.display());
    tls.serves_over_tls_only(&tls.url("127.0.0.1", &params))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_from_another_ca_stops_the_server_at_start() {
    let Some(tls) = TlsCluster::start("the TLS test (wrong CA)") else {
        return;
    };
    let other = tls.other_ca.display().to_string();
    let (status, said) = ServerProcess::refused(
        &tls.url(
            "localhost",
            &format!("sslmode=verify-full&sslrootcert={other}"),
        ),
        &[("DATABASE_TIMEOUT_SECONDS", "2")],
    );
    assert!(!status.success(), "{status}");
    assert!(said.contains("certificate verify failed"), "{said}");
    // Which rule refused it, and against which roots.
    assert!(said.contains("sslmode=verify-full"), "{said}");
    assert!(
        said.contains(&format!("root certificates in {other}")),
        "{said}"
    );
    assert_eq!(said.trim().lines().count(), 1, "one line: {said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_for_another_host_name_stops_the_server_at_start() {
    let Some(tls) = TlsCluster::start("the TLS test (wrong host name)") else {
        return;
    };
    let params = format!("sslmode=verify-full&sslrootcert={}", tls.ca.display());
    let (status, said) = ServerProcess::refused(
        &tls.url("127.0.0.1", &params),
        &[("DATABASE_TIMEOUT_SECONDS", "2")],
    );
    assert!(!status.success(), "{status}");
    assert!(
        said.contains(r#"server certificate for "localhost""#)
            && said.contains(r#"does not match host name "127.0.0.1""#),
        "{said}"
    );
    assert!(said.contains("name the host"), "{said}");
}
