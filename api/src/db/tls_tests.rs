#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::str::FromStr;

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
};

use super::*;

/// A CA (its certificate and the means to sign with it).
struct Ca {
    pem: String,
    der: Vec<u8>,
    issuer: Issuer<'static, KeyPair>,
}

fn ca(name: &str) -> Ca {
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    let cert = params.self_signed(&key).unwrap();
    Ca {
        pem: cert.pem(),
        der: cert.der().to_vec(),
        issuer: Issuer::new(params, key),
    }
}

/// A server certificate for `names`, signed by `ca`, in DER.
fn server_cert(ca: &Ca, names: &[&str], key: &KeyPair) -> Vec<u8> {
    let mut params =
        CertificateParams::new(names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>()).unwrap();
    params.distinguished_name.push(DnType::CommonName, "server");
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    params.signed_by(key, &ca.issuer).unwrap().der().to_vec()
}

/// A file in a directory of its own, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("stratego-tls-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        Self(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn params(url: &str) -> (TlsParams, tokio_postgres::Config) {
    let tls = TlsParams::of_url(url);
    // The rest of the URL, as `own` hands it to tokio-postgres.
    let rest = match url.split_once('?') {
        None => url.to_owned(),
        Some((base, query)) => {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|p| !p.starts_with("sslmode=") && !p.starts_with("sslrootcert="))
                .collect();
            if kept.is_empty() {
                base.to_owned()
            } else {
                format!("{base}?{}", kept.join("&"))
            }
        }
    };
    (tls, tokio_postgres::Config::from_str(&rest).unwrap())
}

/// The plan for `url` with a home directory that has no root file.
fn plan_for(url: &str) -> Result<ReadTls, String> {
    let (tls, config) = params(url);
    plan(&tls, &config, Some(Path::new("/nonexistent-home")))
}

#[test]
fn every_libpq_sslmode_is_read_and_no_other() {
    for name in [
        "disable",
        "allow",
        "prefer",
        "require",
        "verify-ca",
        "verify-full",
    ] {
        assert_eq!(SslMode::parse(name).map(SslMode::name), Some(name));
    }
    for other in ["", "Require", "verify_full", "on"] {
        assert_eq!(SslMode::parse(other), None, "{other}");
    }
    assert_eq!(TlsParams::default().mode(), Ok(SslMode::Prefer));
    assert!(TlsParams::of_url("postgres://h/d?sslmode=strict")
        .mode()
        .is_err());
}

#[test]
fn the_url_gives_sslmode_and_sslrootcert_as_libpq_reads_them() {
    let read = TlsParams::of_url(
        "postgres://u:p@h:5432/d?sslmode=require&connect_timeout=3\
         &sslrootcert=%2Fetc%2Fmy%20ca.pem&sslmode=verify-full",
    );
    assert_eq!(read.sslmode.as_deref(), Some("verify-full"), "the last one");
    assert_eq!(read.sslrootcert.as_deref(), Some("/etc/my ca.pem"));
    assert_eq!(read.mode(), Ok(SslMode::VerifyFull));
    assert_eq!(TlsParams::of_url("postgres://h/d"), TlsParams::default());
    // A bad escape stays as written.
    assert_eq!(percent_decoded("a%2x%41%"), "a%2xA%");
}

#[test]
fn each_mode_tries_what_libpq_tries() {
    let attempts = |url: &str| plan_for(url).unwrap().attempts().to_vec();
    assert_eq!(
        attempts("postgres://h/d?sslmode=disable"),
        [Attempt::Disable]
    );
    assert_eq!(
        attempts("postgres://h/d?sslmode=allow"),
        [Attempt::Disable, Attempt::Require]
    );
    assert_eq!(
        attempts("postgres://h/d"),
        [Attempt::Prefer, Attempt::Disable]
    );
    assert_eq!(
        attempts("postgres://h/d?sslmode=require"),
        [Attempt::Require]
    );
    // No TLS on a Unix socket, whatever the mode (as libpq).
    assert_eq!(
        attempts("postgres://%2Fvar%2Frun%2Fpostgresql/d?sslmode=verify-full"),
        [Attempt::Disable]
    );
    assert!(plan_for("postgres://h/d?sslmode=require")
        .unwrap()
        .checks()
        .contains("not checked"));
}

#[test]
fn what_cannot_be_done_as_libpq_does_it_is_refused() {
    for (url, why) in [
        ("postgres://h/d?sslmode=verify-ca", "does not exist"),
        (
            "postgres://h/d?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem",
            "/nonexistent/ca.pem does not exist",
        ),
        (
            "postgres://h/d?sslmode=verify-full&sslrootcert=system",
            "sslrootcert=system",
        ),
        ("postgres://h/d?sslmode=strict", "not libpq's"),
        (
            "postgres://%2Ftmp,h/d?sslmode=require",
            "Unix sockets and TCP hosts",
        ),
        ("postgres:///d?hostaddr=127.0.0.1", "host's name"),
    ] {
        let refused = plan_for(url).unwrap_err();
        assert!(refused.contains(why), "{url}: {refused}");
    }
    // Without a home directory the default root file cannot be looked
    // for; with `sslrootcert` it need not be.
    let (tls, config) = params("postgres://h/d?sslmode=require");
    assert!(plan(&tls, &config, None).is_err());
    let (tls, config) = params("postgres://h/d?sslmode=require&sslrootcert=/nonexistent");
    assert!(plan(&tls, &config, None).is_ok());
    // A root file that holds no root.
    let empty = TempFile::new("empty.pem", "no certificate here\n");
    let refused = plan_for(&format!(
        "postgres://h/d?sslmode=verify-ca&sslrootcert={}",
        empty.path()
    ))
    .unwrap_err();
    assert!(refused.contains("no self-signed"), "{refused}");
}

#[test]
fn a_root_file_that_is_there_is_used_in_every_mode_that_encrypts() {
    let ca = ca("roots");
    let file = TempFile::new("root.pem", &ca.pem);
    for mode in ["allow", "prefer", "require", "verify-ca"] {
        let plan = plan_for(&format!(
            "postgres://h/d?sslmode={mode}&sslrootcert={}",
            file.path()
        ))
        .unwrap();
        assert!(
            plan.checks().contains("name is not checked"),
            "{mode}: {}",
            plan.checks()
        );
    }
    let full = plan_for(&format!(
        "postgres://h/d?sslmode=verify-full&sslrootcert={}",
        file.path()
    ))
    .unwrap();
    assert!(full.checks().contains("names the host"));
    // libpq's default file, below the home directory.
    let home = file.0.parent().unwrap();
    std::fs::create_dir_all(home.join(".postgresql")).unwrap();
    std::fs::write(home.join(DEFAULT_ROOT_FILE), &ca.pem).unwrap();
    let (tls, config) = params("postgres://h/d?sslmode=verify-ca");
    let found = plan(&tls, &config, Some(home)).unwrap();
    assert!(found.checks().contains("chains to a root"));
}

/// What the verifier of a root file says of `cert` presented by `host`.
fn verify(verifier: &RootFile, cert: &[u8], host: &str) -> Result<(), rustls::Error> {
    verifier
        .verify_server_cert(
            &CertificateDer::from(cert),
            &[],
            &ServerName::try_from(host).unwrap(),
            &[],
            UnixTime::now(),
        )
        .map(|_| ())
}

#[test]
fn verify_ca_checks_the_chain_and_verify_full_the_name_too() {
    use rustls::CertificateError;
    let ours = ca("ours");
    let theirs = ca("theirs");
    let file = TempFile::new("ours.pem", &ours.pem);
    let key = KeyPair::generate().unwrap();
    let cert = server_cert(&ours, &["localhost", "127.0.0.1"], &key);
    let forged = server_cert(&theirs, &["localhost"], &key);
    let full = RootFile::read(&file.0, true).unwrap();
    let chain = RootFile::read(&file.0, false).unwrap();

    assert_eq!(verify(&full, &cert, "localhost"), Ok(()));
    assert_eq!(verify(&full, &cert, "127.0.0.1"), Ok(()));
    let wrong_name = verify(&full, &cert, "db.example").unwrap_err();
    assert!(
        matches!(
            wrong_name,
            rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. }
            )
        ),
        "{wrong_name:?}"
    );
    assert_eq!(verify(&chain, &cert, "db.example"), Ok(()));
    for verifier in [&full, &chain] {
        assert_eq!(
            verify(verifier, &forged, "localhost"),
            Err(rustls::Error::InvalidCertificate(
                CertificateError::UnknownIssuer
            ))
        );
    }
}

#[test]
fn only_a_self_signed_certificate_of_the_file_is_a_root() {
    let root = ca("root");
    let intermediate_key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(DnType::CommonName, "intermediate");
    let intermediate = params.signed_by(&intermediate_key, &root.issuer).unwrap();
    let intermediate_ca = Ca {
        pem: intermediate.pem(),
        der: intermediate.der().to_vec(),
        issuer: Issuer::new(params, intermediate_key),
    };
    assert_eq!(self_issued(&root.der), Some(true));
    assert_eq!(self_issued(&intermediate_ca.der), Some(false));
    assert_eq!(self_issued(b"not a certificate"), None);

    let key = KeyPair::generate().unwrap();
    let cert = server_cert(&intermediate_ca, &["localhost"], &key);
    // The intermediate alone is no root (OpenSSL would not end the chain
    // there either).
    let alone = TempFile::new("intermediate.pem", &intermediate_ca.pem);
    assert!(RootFile::read(&alone.0, true).is_err());
    // With the root, the file's intermediate completes the chain the
    // server sent without it.
    let both = TempFile::new("both.pem", &format!("{}{}", intermediate_ca.pem, root.pem));
    let verifier = RootFile::read(&both.0, true).unwrap();
    assert_eq!(verify(&verifier, &cert, "localhost"), Ok(()));
}

#[test]
fn the_channel_binding_hashes_the_certificate_by_its_signature() {
    let ca = ca("binding");
    let p256 = KeyPair::generate().unwrap();
    let cert = server_cert(&ca, &["localhost"], &p256);
    // Signed by the CA's P-256 key: SHA-256.
    assert_eq!(
        end_point_hash(&cert),
        Some(sha2::Sha256::digest(&cert).to_vec())
    );
    let p384_key = KeyPair::generate_for(&rcgen::PKCS_ECDSA_P384_SHA384).unwrap();
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.distinguished_name.push(DnType::CommonName, "p384");
    let p384 = params.self_signed(&p384_key).unwrap().der().to_vec();
    assert_eq!(
        end_point_hash(&p384),
        Some(sha2::Sha384::digest(&p384).to_vec())
    );
    assert_eq!(end_point_hash(b"\x30\x03\x02\x01\x00"), None);
}

#[test]
fn a_failure_message_says_what_was_checked() {
    let said = |url: &str| TlsParams::of_url(url).describe();
    let full = said("postgres://h/d?sslmode=verify-full&sslrootcert=/etc/ca.pem");
    assert!(full.contains("sslmode=verify-full"), "{full}");
    assert!(full.contains("/etc/ca.pem"), "{full}");
    assert!(full.contains("name the host"), "{full}");
    let ca_only = said("postgres://h/d?sslmode=verify-ca&sslrootcert=/etc/ca.pem");
    assert!(ca_only.contains("not checked"), "{ca_only}");
    assert!(said("postgres://h/d").contains("prefer (the default)"));
    assert!(said("postgres://h/d?sslmode=disable").contains("no TLS"));
}

#[test]
fn only_a_failure_about_tls_gets_the_tls_context() {
    let url = "postgres://h/d?sslmode=verify-full&sslrootcert=/etc/ca.pem";
    for message in [
        "connection to server at \"127.0.0.1\", port 5432 failed: SSL error: certificate \
         verify failed: unable to get local issuer certificate",
        "server certificate for \"localhost\" does not match host name \"127.0.0.1\"",
    ] {
        let context = tls_context(url, message).unwrap();
        assert!(context.contains("/etc/ca.pem"), "{context}");
    }
    assert_eq!(
        tls_context(url, "password authentication failed for user \"app\""),
        None
    );
}
