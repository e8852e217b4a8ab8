//! Resolving a target's name under the address policy: what a name
//! resolves to is judged just before connecting, and the connection goes
//! to those very addresses (docs/notifications.md, "Where deliveries may
//! go").

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

use super::address::{check_resolved, check_url, AddressRefusal, Policy};

/// The longest a name may take to resolve.
pub const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

async fn lookup(name: &str, port: u16) -> Result<Vec<SocketAddr>, AddressRefusal> {
    match tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host((name, port))).await {
        Ok(Ok(addrs)) => Ok(addrs.collect()),
        _ => Err(AddressRefusal::Unresolvable),
    }
}

/// The addresses `url` may be sent to now under `policy`: every address
/// its host resolves to, each allowed (an IP literal is not looked up).
pub async fn checked(url: &Url, policy: Policy) -> Result<Vec<SocketAddr>, AddressRefusal> {
    let url = check_url(url.as_str(), policy)?;
    let port = url.port_or_known_default().unwrap_or(443);
    let addrs = match url.host() {
        Some(Host::Ipv4(ip)) => vec![SocketAddr::new(ip.into(), port)],
        Some(Host::Ipv6(ip)) => vec![SocketAddr::new(ip.into(), port)],
        Some(Host::Domain(name)) => lookup(name, port).await?,
        None => return Err(AddressRefusal::NoHost),
    };
    check_resolved(&addrs, policy)?;
    Ok(addrs)
}

/// The resolver of the delivery client: every connection it opens goes to
/// addresses judged under the policy at that moment (DNS rebinding).
#[derive(Debug, Clone, Copy)]
pub struct PolicyResolver(pub Policy);

impl Resolve for PolicyResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.0;
        Box::pin(async move {
            let addrs = lookup(name.as_str(), 0).await?;
            check_resolved(&addrs, policy)?;
            let addrs: Addrs = Box::new(addrs.into_iter());
            Ok(addrs)
        })
    }
}

impl PolicyResolver {
    pub fn shared(policy: Policy) -> Arc<Self> {
        Arc::new(Self(policy))
    }
}
