//! TLS to PostgreSQL (docs/storage.md, "TLS to PostgreSQL"): libpq's
//! `sslmode` and `sslrootcert` as libpq reads them, and what the HTTP
//! workers' own connections (`own`) make of them.
//!
//! The pool and the LISTEN connection are libpq's, which does TLS itself
//! (with the OpenSSL built into the binary). The workers' own connections are
//! tokio-postgres', which knows `disable`, `prefer` and `require` only and
//! never checks a certificate: here they get a rustls client that checks
//! what libpq's OpenSSL checks for each mode, with the same root
//! certificates. Where that cannot be promised, they are not used and the pool reads and writes.

use std::fmt;
use std::future::Future;
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{verify_server_cert_signed_by_trust_anchor, verify_server_name};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use sha2::Digest;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_postgres::config::{Host, SslMode as Attempt};
use tokio_postgres::tls::{ChannelBinding, MakeTlsConnect, TlsConnect};
use tokio_postgres::Socket;

/// libpq's `sslmode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SslMode {
    Disable,
    Allow,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    pub fn parse(value: &str) -> Option<Self> {
        Some(match value {
            "disable" => Self::Disable,
            "allow" => Self::Allow,
            "prefer" => Self::Prefer,
            "require" => Self::Require,
            "verify-ca" => Self::VerifyCa,
            "verify-full" => Self::VerifyFull,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Disable => "disable",
            Self::Allow => "allow",
            Self::Prefer => "prefer",
            Self::Require => "require",
            Self::VerifyCa => "verify-ca",
            Self::VerifyFull => "verify-full",
        }
    }

    /// Whether libpq refuses to connect without a root certificate file.
    fn verifies(self) -> bool {
        matches!(self, Self::VerifyCa | Self::VerifyFull)
    }
}

/// The TLS parameters of a libpq URL, as given (the last of a repeated
/// one counts, as in libpq).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TlsParams {
    /// `sslmode` as written (checked by [`TlsParams::mode`]).
    pub sslmode: Option<String>,
    pub sslrootcert: Option<String>,
}

impl TlsParams {
    /// The parameters of `url`'s query (percent-encoding undone).
    pub fn of_url(url: &str) -> Self {
        let mut params = Self::default();
        let Some((_, query)) = url.split_once('?') else {
            return params;
        };
        for pair in query.split('&') {
            if let Some((key, value)) = pair.split_once('=') {
                params.take(key, value);
            }
        }
        params
    }

    /// Keeps `value` (as written in a URL) if `key` is one of these
    /// parameters; says whether it was.
    pub fn take(&mut self, key: &str, value: &str) -> bool {
        match key {
            "sslmode" => self.sslmode = Some(percent_decoded(value)),
            "sslrootcert" => self.sslrootcert = Some(percent_decoded(value)),
            _ => return false,
        }
        true
    }

    /// The mode (libpq's default: `prefer`), or why it is not one.
    pub fn mode(&self) -> Result<SslMode, String> {
        match &self.sslmode {
            None => Ok(SslMode::Prefer),
            Some(value) => {
                SslMode::parse(value).ok_or_else(|| format!("sslmode={value} is not libpq's"))
            }
        }
    }

    /// What these settings ask of the server's certificate, for a message
    /// about a connection that failed (the password-free part of the URL).
    pub fn describe(&self) -> String {
        let mode = self.sslmode.as_deref().unwrap_or("prefer (the default)");
        let roots = match self.sslrootcert.as_deref() {
            Some("system") => "the system's root certificates (sslrootcert=system)".to_owned(),
            Some(file) if !file.is_empty() => format!("the root certificates in {file}"),
            _ => "the root certificates in ~/.postgresql/root.crt, if that file exists".to_owned(),
        };
        match self.mode() {
            Ok(SslMode::Disable) => format!("TLS: sslmode={mode}, no TLS"),
            Ok(SslMode::VerifyFull) => format!(
                "TLS: sslmode={mode}: the server's certificate must chain to one of {roots} \
                 and name the host connected to"
            ),
            Ok(SslMode::VerifyCa) => format!(
                "TLS: sslmode={mode}: the server's certificate must chain to one of {roots} \
                 (its name is not checked)"
            ),
            _ => format!(
                "TLS: sslmode={mode}: the server's certificate is checked against {roots}, \
                 else not at all"
            ),
        }
    }
}

/// What `url`'s TLS settings asked of the server, if the failure to
/// connect said in `message` is about TLS (for a start-up message that
/// says which certificate was refused, and by which rule).
pub fn tls_context(url: &str, message: &str) -> Option<String> {
    let message = message.to_lowercase();
    ["ssl", "tls", "certificate"]
        .iter()
        .any(|word| message.contains(word))
        .then(|| TlsParams::of_url(url).describe())
}

/// `value` with `%XX` escapes undone (libpq's URL reading); an invalid
/// escape stays as written.
fn percent_decoded(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| value.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How the workers' own connections reach the server: the tokio-postgres
/// `sslmode` of each attempt in turn (libpq's `allow` and `prefer` try the
/// other way when the first fails), and the TLS client they use.
#[derive(Debug, Clone)]
pub(super) struct ReadTls {
    attempts: Vec<Attempt>,
    connector: MakeRustlsConnect,
    /// What is checked, for the log.
    checks: &'static str,
}

impl ReadTls {
    pub(super) fn attempts(&self) -> &[Attempt] {
        &self.attempts
    }

    pub(super) fn connector(&self) -> MakeRustlsConnect {
        self.connector.clone()
    }

    /// What the server's certificate must be, for the log.
    pub(super) fn checks(&self) -> &'static str {
        self.checks
    }
}

/// libpq's root certificate file when `sslrootcert` is not given (below
/// the home directory).
const DEFAULT_ROOT_FILE: &str = ".postgresql/root.crt";

/// What the workers' own connections of a database with these TLS `params` and
/// hosts (`config`) do, or why they cannot do what libpq does (then reads
/// use the pool). `home`: the home directory (libpq's default root file is
/// below it).
pub(super) fn plan(
    params: &TlsParams,
    config: &tokio_postgres::Config,
    home: Option<&Path>,
) -> Result<ReadTls, String> {
    let mode = params.mode()?;
    let hosts = config.get_hosts();
    let sockets = hosts.iter().filter(|h| matches!(h, Host::Unix(_))).count();
    let plain = |checks| {
        Ok(ReadTls {
            attempts: vec![Attempt::Disable],
            connector: MakeRustlsConnect::unverified()?,
            checks,
        })
    };
    if mode == SslMode::Disable {
        return plain("no TLS (sslmode=disable)");
    }
    // libpq never uses TLS on a Unix socket, whatever the mode.
    if sockets > 0 && sockets == hosts.len() {
        return plain("no TLS (a Unix socket)");
    }
    if sockets > 0 {
        return Err(format!(
            "the URL names Unix sockets and TCP hosts with sslmode={}",
            mode.name()
        ));
    }
    if hosts.is_empty() || hosts.len() < config.get_hostaddrs().len() {
        return Err("TLS needs the host's name (host=), not only its address".to_owned());
    }
    let root_file = match params.sslrootcert.as_deref() {
        Some("system") => {
            return Err(
                "sslrootcert=system: the system's roots are OpenSSL's to find, not read here"
                    .to_owned(),
            )
        }
        Some(file) if !file.is_empty() => PathBuf::from(file),
        _ => home
            .ok_or("no home directory (HOME) to look for libpq's root certificate file in")?
            .join(DEFAULT_ROOT_FILE),
    };
    // As libpq: a root file that is there is used in every mode (with
    // `require` it checks the chain as `verify-ca` does); one that is not
    // is an error in the `verify-` modes only.
    let (connector, checks) = if std::fs::metadata(&root_file).is_ok() {
        let full = mode == SslMode::VerifyFull;
        let checks = if full {
            "the certificate chains to a root of the file and names the host"
        } else {
            "the certificate chains to a root of the file (its name is not checked)"
        };
        (MakeRustlsConnect::with_roots(&root_file, full)?, checks)
    } else if mode.verifies() {
        return Err(format!(
            "the root certificate file {} does not exist",
            root_file.display()
        ));
    } else {
        (
            MakeRustlsConnect::unverified()?,
            "encrypted, the certificate not checked (no root certificate file)",
        )
    };
    let attempts = match mode {
        SslMode::Allow => vec![Attempt::Disable, Attempt::Require],
        SslMode::Prefer => vec![Attempt::Prefer, Attempt::Disable],
        _ => vec![Attempt::Require],
    };
    Ok(ReadTls {
        attempts,
        connector,
        checks,
    })
}

/// Makes rustls clients for tokio-postgres, one for each host name.
#[derive(Debug, Clone)]
pub(super) struct MakeRustlsConnect(Arc<ClientConfig>);

impl MakeRustlsConnect {
    fn new(verifier: Arc<dyn ServerCertVerifier>) -> Result<Self, String> {
        let config = ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS: {e}"))?
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        Ok(Self(Arc::new(config)))
    }

    /// Encrypts, and checks nothing about the certificate.
    fn unverified() -> Result<Self, String> {
        Self::new(Arc::new(Unverified {
            algorithms: provider().signature_verification_algorithms,
        }))
    }

    /// Checks the chain against the roots in `file`, and the name if
    /// `check_name`.
    fn with_roots(file: &Path, check_name: bool) -> Result<Self, String> {
        let verifier = RootFile::read(file, check_name)
            .map_err(|why| format!("the root certificate file {}: {why}", file.display()))?;
        Self::new(Arc::new(verifier))
    }
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

impl MakeTlsConnect<Socket> for MakeRustlsConnect {
    type Stream = RustlsStream;
    type TlsConnect = RustlsConnect;
    type Error = rustls::pki_types::InvalidDnsNameError;

    fn make_tls_connect(&mut self, host: &str) -> Result<RustlsConnect, Self::Error> {
        Ok(RustlsConnect {
            config: self.0.clone(),
            name: ServerName::try_from(host)?.to_owned(),
        })
    }
}

/// A rustls client for one host.
pub(super) struct RustlsConnect {
    config: Arc<ClientConfig>,
    name: ServerName<'static>,
}

impl TlsConnect<Socket> for RustlsConnect {
    type Stream = RustlsStream;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<RustlsStream>> + Send>>;

    fn connect(self, stream: Socket) -> Self::Future {
        let connector = tokio_rustls::TlsConnector::from(self.config);
        Box::pin(async move {
            let stream = connector.connect(self.name, stream).await?;
            Ok(RustlsStream(Box::new(stream)))
        })
    }
}

/// A connection over rustls.
pub(super) struct RustlsStream(Box<tokio_rustls::client::TlsStream<Socket>>);

impl AsyncRead for RustlsStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for RustlsStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut *self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.0).poll_shutdown(cx)
    }
}

impl tokio_postgres::tls::TlsStream for RustlsStream {
    /// `tls-server-end-point` (RFC 5929), so that SCRAM authentication is
    /// bound to this TLS session as libpq's is.
    fn channel_binding(&self) -> ChannelBinding {
        let (_, session) = self.0.get_ref();
        session
            .peer_certificates()
            .and_then(<[_]>::first)
            .and_then(|cert| end_point_hash(cert))
            .map_or_else(ChannelBinding::none, ChannelBinding::tls_server_end_point)
    }
}

/// Checks the handshake's signatures and nothing about the certificate:
/// libpq's `require` (or `prefer`, `allow`) without a root file.
#[derive(Debug)]
struct Unverified {
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Unverified {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// The server's chain up to a self-signed certificate of the root file,
/// and with `verify-full` the host's name: what libpq's OpenSSL checks.
/// The file's other certificates may complete the chain the server sends,
/// as OpenSSL's store does; only a self-signed one is trusted by itself
/// (OpenSSL, as libpq sets it up, does not end a chain anywhere else).
struct RootFile {
    roots: RootCertStore,
    intermediates: Vec<CertificateDer<'static>>,
    check_name: bool,
    algorithms: WebPkiSupportedAlgorithms,
}

impl fmt::Debug for RootFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RootFile")
            .field("roots", &self.roots.len())
            .field("intermediates", &self.intermediates.len())
            .field("check_name", &self.check_name)
            .finish()
    }
}

impl RootFile {
    fn read(file: &Path, check_name: bool) -> Result<Self, String> {
        let pem = std::fs::read(file).map_err(|e| e.to_string())?;
        let mut roots = RootCertStore::empty();
        let mut intermediates = Vec::new();
        for cert in CertificateDer::pem_slice_iter(&pem) {
            let cert = cert.map_err(|e| e.to_string())?;
            match self_issued(&cert) {
                Some(true) => roots.add(cert).map_err(|e| e.to_string())?,
                Some(false) => intermediates.push(cert),
                None => return Err("a certificate that is not DER".to_owned()),
            }
        }
        if roots.is_empty() {
            return Err("no self-signed (root) certificate".to_owned());
        }
        Ok(Self {
            roots,
            intermediates,
            check_name,
            algorithms: provider().signature_verification_algorithms,
        })
    }
}

impl ServerCertVerifier for RootFile {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let cert = ParsedCertificate::try_from(end_entity)?;
        let chain: Vec<CertificateDer<'_>> = intermediates
            .iter()
            .chain(&self.intermediates)
            .map(|c| CertificateDer::from(c.as_ref()))
            .collect();
        verify_server_cert_signed_by_trust_anchor(
            &cert,
            &self.roots,
            &chain,
            now,
            self.algorithms.all,
        )?;
        if self.check_name {
            verify_server_name(&cert, server_name)?;
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

// --- The little of X.509 read here -------------------------------------------

/// The DER element at the start of `input`: its tag, its contents and
/// what follows it.
fn der(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (length, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let (digits, rest) = rest.split_at(count);
        let length = digits
            .iter()
            .fold(0usize, |n, &digit| (n << 8) | usize::from(digit));
        (length, rest)
    };
    if rest.len() < length {
        return None;
    }
    let (contents, rest) = rest.split_at(length);
    Some((tag, contents, rest))
}

const SEQUENCE: u8 = 0x30;

/// The contents of the SEQUENCE at the start of `input`, and what follows.
fn sequence(input: &[u8]) -> Option<(&[u8], &[u8])> {
    match der(input)? {
        (SEQUENCE, contents, rest) => Some((contents, rest)),
        _ => None,
    }
}

/// Whether the certificate's issuer is its subject (`None`: not X.509).
fn self_issued(cert: &[u8]) -> Option<bool> {
    let (certificate, _) = sequence(cert)?;
    let (tbs, _) = sequence(certificate)?;
    // [0] version (optional), serial number, signature algorithm, issuer,
    // validity, subject.
    let (tag, _, after_version) = der(tbs)?;
    let fields = if tag == 0xa0 { after_version } else { tbs };
    let (_, _, rest) = der(fields)?;
    let (_, _, rest) = der(rest)?;
    let (_, issuer, rest) = der(rest)?;
    let (_, _, rest) = der(rest)?;
    let (_, subject, _) = der(rest)?;
    Some(issuer == subject)
}

/// The hash of a certificate that RFC 5929's `tls-server-end-point` binds
/// to: by its signature's hash function, SHA-256 in place of MD5 and SHA-1.
/// `None` for a signature without one such (as PostgreSQL then offers no
/// binding either).
fn end_point_hash(cert: &[u8]) -> Option<Vec<u8>> {
    // 1.2.840.113549.1.1 (PKCS #1) and 1.2.840.10045.4 (ECDSA signatures).
    const RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01];
    const ECDSA: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04];
    #[derive(Clone, Copy)]
    enum Hash {
        Sha224,
        Sha256,
        Sha384,
        Sha512,
    }
    let (certificate, _) = sequence(cert)?;
    let (_tbs, rest) = sequence(certificate)?;
    let (algorithm, _) = sequence(rest)?;
    let (tag, oid, _) = der(algorithm)?;
    if tag != 0x06 {
        return None;
    }
    let hash = if let Some(rsa) = oid.strip_prefix(RSA) {
        match rsa {
            // md5, sha1, sha256, sha384, sha512, sha224 with RSA.
            [4 | 5 | 11] => Hash::Sha256,
            [12] => Hash::Sha384,
            [13] => Hash::Sha512,
            [14] => Hash::Sha224,
            _ => return None,
        }
    } else if let Some(ecdsa) = oid.strip_prefix(ECDSA) {
        match ecdsa {
            // ecdsa-with-SHA1, -SHA224, -SHA256, -SHA384, -SHA512.
            [1] | [3, 2] => Hash::Sha256,
            [3, 1] => Hash::Sha224,
            [3, 3] => Hash::Sha384,
            [3, 4] => Hash::Sha512,
            _ => return None,
        }
    } else {
        return None;
    };
    Some(match hash {
        Hash::Sha224 => sha2::Sha224::digest(cert).to_vec(),
        Hash::Sha256 => sha2::Sha256::digest(cert).to_vec(),
        Hash::Sha384 => sha2::Sha384::digest(cert).to_vec(),
        Hash::Sha512 => sha2::Sha512::digest(cert).to_vec(),
    })
}

#[cfg(test)]
#[path = "tls_tests.rs"]
mod tests;
