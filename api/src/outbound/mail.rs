//! Sending e-mail over SMTP (docs/notifications.md, "E-mail"), through the
//! relay the operator configured (`SMTP_URL`). The relay is the
//! operator's, not a player's, so the address policy does not apply to it.

use std::time::Duration;

use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::Mailbox;
use lettre::transport::smtp::Error as SmtpError;
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// The longest each step of an SMTP exchange (connecting, a command and
/// its reply) may take.
pub const TIMEOUT: Duration = Duration::from_secs(20);
/// The longest address accepted (RFC 5321's path limit).
pub const MAX_ADDRESS_LEN: usize = 254;

/// One message to send: plain text.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    /// The one-click unsubscribe URL (RFC 8058), when the mail is one a
    /// player may stop.
    pub unsubscribe: Option<String>,
}

/// Why a message did not go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailError {
    /// The relay refused it for good (a 5xx answer): do not try again.
    pub permanent: bool,
    /// The SMTP reply code, if the relay answered.
    pub code: Option<u16>,
    pub message: String,
}

/// The SMTP relay and the sender of every message.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The transport holds the relay's credentials: never printed.
        f.debug_struct("Mailer")
            .field("from", &self.from.to_string())
            .finish()
    }
}

impl Mailer {
    /// `url`: `smtps://user:password@host:465`, `smtp://host:587?tls=required`
    /// (STARTTLS) or `smtp://host:25` (no TLS: a relay on the same host).
    /// `from`: `Name <address>` or an address.
    pub fn new(url: &str, from: &str) -> Result<Self, String> {
        let from: Mailbox = from
            .parse()
            .map_err(|e| format!("SMTP_FROM is not a mailbox: {e}"))?;
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            // Never the URL itself: it may hold a password.
            .map_err(|e| format!("SMTP_URL is not usable: {e}"))?
            .timeout(Some(TIMEOUT))
            .build();
        Ok(Self { transport, from })
    }

    pub async fn send(&self, mail: &Mail) -> Result<(), MailError> {
        let refused = |message: String| MailError {
            permanent: true,
            code: None,
            message,
        };
        let to: Mailbox = mail
            .to
            .parse()
            .map_err(|e| refused(format!("not an address: {e}")))?;
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject.clone())
            .header(ContentType::TEXT_PLAIN);
        if let Some(url) = &mail.unsubscribe {
            builder = builder
                .header(ListUnsubscribe(format!("<{url}>")))
                .header(ListUnsubscribePost);
        }
        let message = builder
            .body(mail.text.clone())
            .map_err(|e| refused(format!("message not built: {e}")))?;
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| smtp_error(&e))
    }
}

fn smtp_error(error: &SmtpError) -> MailError {
    let code = error
        .status()
        .and_then(|code| u16::try_from(code.to_string().parse::<u32>().ok()?).ok());
    MailError {
        permanent: error.is_permanent(),
        code,
        message: error.to_string(),
    }
}

/// Whether `address` is one the server sends to: a valid address whose
/// domain has a dot (no local names such as `root@localhost`), at most
/// [`MAX_ADDRESS_LEN`] bytes. Returns it trimmed.
pub fn check_address(address: &str) -> Result<String, &'static str> {
    let address = address.trim();
    if address.len() > MAX_ADDRESS_LEN {
        return Err("is longer than 254 characters");
    }
    let parsed: Address = address.parse().map_err(|_| "is not an e-mail address")?;
    let domain = parsed.domain();
    if !domain.contains('.') || domain.starts_with('.') || domain.ends_with('.') {
        return Err("must have a domain with a dot (example.org)");
    }
    Ok(address.to_owned())
}

/// `List-Unsubscribe` (RFC 2369): where to stop this kind of mail.
#[derive(Debug, Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self(s.to_owned()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058): a POST
/// to the `List-Unsubscribe` URL unsubscribes at once.
#[derive(Debug, Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Self)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_need_a_real_domain_and_a_bounded_length() {
        assert_eq!(
            check_address(" ann@example.org ").as_deref(),
            Ok("ann@example.org")
        );
        assert!(check_address("root@localhost").is_err());
        assert!(check_address("not an address").is_err());
        assert!(check_address("a@b.").is_err());
        let long = format!("{}@example.org", "a".repeat(250));
        assert!(check_address(&long).is_err());
    }

    #[test]
    fn a_bad_from_or_url_is_refused_without_showing_the_url() {
        let error = Mailer::new("smtp://user:hunter2@relay.example.org", "no mailbox")
            .err()
            .unwrap_or_default();
        assert!(error.contains("SMTP_FROM"), "{error}");
        let error = Mailer::new("ftp://user:hunter2@relay.example.org", "a@example.org")
            .err()
            .unwrap_or_default();
        assert!(error.contains("SMTP_URL"), "{error}");
        assert!(!error.contains("hunter2"), "{error}");
    }
}
