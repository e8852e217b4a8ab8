//! Where the server may send a request on a player's behalf: the policy
//! against server-side request forgery (SSRF).
//!
//! A webhook URL or a push endpoint is chosen by a player, and the server
//! then sends requests to it. Without a policy a player could make the
//! server reach what only the server can reach: its own loopback, the
//! private network behind it, the cloud provider's metadata service at
//! 169.254.169.254. So, unless the operator lifts it for development
//! ([`Policy::AllowPrivate`]), a target must be `https` and every address
//! its name resolves to must be public ([`is_public`]).
//!
//! The check is made twice: [`check_url`] when the URL is registered (an IP
//! literal is judged then; a name only by its form), and
//! [`check_resolved`] at each delivery, against the addresses the name
//! resolves to at that moment, so that a name that resolved to a public
//! address at registration cannot be pointed at a private one later (DNS
//! rebinding). The caller connects to the very addresses it checked.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use url::{Host, Url};

/// How strict the address check is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Production: `https` only, public addresses only.
    PublicOnly,
    /// Local development and tests (`OUTBOUND_ALLOW_PRIVATE_NETWORKS`):
    /// `http` too, and any address, loopback included.
    AllowPrivate,
}

/// Why a target was refused. [`AddressRefusal::reason`] is a stable short
/// code for problem details; the message (`Display`) is for people and
/// never repeats the URL or an address, since the URL may carry a secret
/// token and the addresses would tell a prober about the server's network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AddressRefusal {
    /// Not a URL at all.
    #[error("the URL cannot be parsed")]
    InvalidUrl,
    /// Not `https` where only `https` is allowed.
    #[error("the URL must use https")]
    NotHttps,
    /// Neither `http` nor `https`, where private networks are allowed.
    #[error("the URL must use http or https")]
    UnsupportedScheme,
    /// No host to send to.
    #[error("the URL has no host")]
    NoHost,
    /// A user name or password in the URL.
    #[error("the URL must not hold a user name or password")]
    CredentialsInUrl,
    /// A name that only a local network can resolve (`localhost`, `.local`,
    /// `.internal`, `.home.arpa`, a name of one label).
    #[error("the host is a local name, not a public one")]
    InternalName,
    /// An address that is not public (loopback, private, link-local, ...).
    #[error("the host is not a public address")]
    PrivateAddress,
    /// The name resolved to no address.
    #[error("the host name resolves to no address")]
    Unresolvable,
}

impl AddressRefusal {
    /// A stable short code, for the `reason` of a 422 problem.
    pub fn reason(&self) -> &'static str {
        match self {
            AddressRefusal::InvalidUrl => "invalid_url",
            AddressRefusal::NotHttps => "not_https",
            AddressRefusal::UnsupportedScheme => "unsupported_scheme",
            AddressRefusal::NoHost => "no_host",
            AddressRefusal::CredentialsInUrl => "credentials_in_url",
            AddressRefusal::InternalName => "internal_name",
            AddressRefusal::PrivateAddress => "private_address",
            AddressRefusal::Unresolvable => "unresolvable",
        }
    }
}

/// Checks a URL as it is registered. Under [`Policy::PublicOnly`]: `https`,
/// a host, no credentials, and a host that is neither a non-public IP
/// literal nor a local name. Under [`Policy::AllowPrivate`]: `http` or
/// `https`, a host and no credentials. Credentials are refused under both,
/// as the URL is stored and shown back to its owner.
///
/// A name that passes must still be resolved and judged with
/// [`check_resolved`] before each request.
pub fn check_url(url: &str, policy: Policy) -> Result<Url, AddressRefusal> {
    let url = Url::parse(url.trim()).map_err(|_| AddressRefusal::InvalidUrl)?;
    match (url.scheme(), policy) {
        ("https", _) | ("http", Policy::AllowPrivate) => {}
        (_, Policy::PublicOnly) => return Err(AddressRefusal::NotHttps),
        (_, Policy::AllowPrivate) => return Err(AddressRefusal::UnsupportedScheme),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(AddressRefusal::CredentialsInUrl);
    }
    let host = url.host().ok_or(AddressRefusal::NoHost)?;
    if policy == Policy::PublicOnly {
        match host {
            Host::Ipv4(ip) if !is_public(IpAddr::V4(ip)) => {
                return Err(AddressRefusal::PrivateAddress)
            }
            Host::Ipv6(ip) if !is_public(IpAddr::V6(ip)) => {
                return Err(AddressRefusal::PrivateAddress)
            }
            Host::Domain(name) if is_local_name(name) => return Err(AddressRefusal::InternalName),
            _ => {}
        }
    }
    Ok(url)
}

/// Checks what a target's name resolved to, just before connecting. Every
/// address must be public under [`Policy::PublicOnly`] (one that is not is
/// enough to refuse: a connection might be made to any of them); no
/// address at all is refused under both policies.
pub fn check_resolved(addrs: &[SocketAddr], policy: Policy) -> Result<(), AddressRefusal> {
    if addrs.is_empty() {
        return Err(AddressRefusal::Unresolvable);
    }
    if policy == Policy::PublicOnly && addrs.iter().any(|a| !is_public(a.ip())) {
        return Err(AddressRefusal::PrivateAddress);
    }
    Ok(())
}

/// Names that resolve only inside a local network, by their form: no DNS
/// is asked. `localhost` and `.localhost` (RFC 6761), `.local` (multicast
/// DNS), `.internal` (reserved for private use), `.home.arpa` (RFC 8375),
/// and a single label, which a resolver completes with its local search
/// domains (`https://metadata/`).
fn is_local_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if !name.contains('.') {
        return true;
    }
    ["localhost", "local", "internal", "home.arpa"]
        .iter()
        .any(|suffix| name == *suffix || name.ends_with(&format!(".{suffix}")))
}

/// Whether `ip` is an address of the public Internet that a request may be
/// sent to. Refused: every special-purpose range that is not globally
/// reachable (the IANA special-purpose registries), and the transition
/// formats that would smuggle one in: an IPv4 address embedded in IPv6
/// (mapped, compatible, NAT64, 6to4) is judged as that IPv4 address, and
/// Teredo, whose embedded address is obfuscated, is refused.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => is_public_v4(ip),
        IpAddr::V6(ip) => is_public_v6(ip),
    }
}

/// Whether `ip` lies in `network`/`prefix`.
fn in_v4(ip: Ipv4Addr, network: [u8; 4], prefix: u32) -> bool {
    let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
    u32::from(ip) & mask == u32::from(Ipv4Addr::from(network)) & mask
}

/// The IPv4 ranges that are not public, with their prefix lengths.
const NOT_PUBLIC_V4: [([u8; 4], u32); 16] = [
    ([0, 0, 0, 0], 8),       // "this network", and the unspecified address
    ([10, 0, 0, 0], 8),      // private (RFC 1918)
    ([100, 64, 0, 0], 10),   // shared address space, carrier-grade NAT (RFC 6598)
    ([127, 0, 0, 0], 8),     // loopback
    ([169, 254, 0, 0], 16),  // link-local, and the cloud metadata service
    ([172, 16, 0, 0], 12),   // private (RFC 1918)
    ([192, 0, 0, 0], 24),    // IETF protocol assignments (RFC 6890)
    ([192, 0, 2, 0], 24),    // documentation, TEST-NET-1 (RFC 5737)
    ([192, 31, 196, 0], 24), // AS112-v4 (RFC 7535)
    ([192, 52, 193, 0], 24), // AMT (RFC 7450)
    ([192, 88, 99, 0], 24),  // the 6to4 relay anycast, retired (RFC 7526)
    ([192, 168, 0, 0], 16),  // private (RFC 1918)
    ([198, 18, 0, 0], 15),   // benchmarking (RFC 2544)
    ([198, 51, 100, 0], 24), // documentation, TEST-NET-2 (RFC 5737)
    ([203, 0, 113, 0], 24),  // documentation, TEST-NET-3 (RFC 5737)
    ([224, 0, 0, 0], 3),     // multicast 224/4 and reserved 240/4, with the broadcast address
];

fn is_public_v4(ip: Ipv4Addr) -> bool {
    !NOT_PUBLIC_V4
        .iter()
        .any(|&(network, prefix)| in_v4(ip, network, prefix))
}

/// Whether `ip` lies in `network`/`prefix`.
fn in_v6(ip: Ipv6Addr, network: Ipv6Addr, prefix: u32) -> bool {
    let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
    u128::from(ip) & mask == u128::from(network) & mask
}

/// The IPv4 address in the low 32 bits of `ip`.
fn low_v4(ip: Ipv6Addr) -> Ipv4Addr {
    let [.., a, b, c, d] = ip.octets();
    Ipv4Addr::new(a, b, c, d)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    const fn v6(segments: [u16; 8]) -> Ipv6Addr {
        let [a, b, c, d, e, f, g, h] = segments;
        Ipv6Addr::new(a, b, c, d, e, f, g, h)
    }
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d, which
    // also holds :: and ::1): a socket connects to the IPv4 address.
    if in_v6(ip, v6([0, 0, 0, 0, 0, 0xffff, 0, 0]), 96) || in_v6(ip, Ipv6Addr::UNSPECIFIED, 96) {
        return is_public_v4(low_v4(ip));
    }
    // NAT64's well-known prefix (RFC 6052): a translator reaches the IPv4
    // address in the low 32 bits.
    if in_v6(ip, v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0]), 96) {
        return is_public_v4(low_v4(ip));
    }
    // 6to4 (RFC 3056): the IPv4 address of the site is bits 16 to 48.
    if in_v6(ip, v6([0x2002, 0, 0, 0, 0, 0, 0, 0]), 16) {
        let [_, _, a, b, c, d, ..] = ip.octets();
        return is_public_v4(Ipv4Addr::new(a, b, c, d));
    }
    // Everything else outside global unicast 2000::/3 is special: unique
    // local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast
    // ff00::/8, discard-only 100::/64, NAT64 local-use 64:ff9b:1::/48, ...
    if !in_v6(ip, v6([0x2000, 0, 0, 0, 0, 0, 0, 0]), 3) {
        return false;
    }
    const NOT_PUBLIC: [(Ipv6Addr, u32); 3] = [
        // IETF protocol assignments (RFC 2928): Teredo 2001::/32, whose
        // IPv4 address is hidden, benchmarking 2001:2::/48, ORCHID, ...
        (v6([0x2001, 0, 0, 0, 0, 0, 0, 0]), 23),
        // documentation (RFC 3849, RFC 9637)
        (v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]), 32),
        (v6([0x3fff, 0, 0, 0, 0, 0, 0, 0]), 20),
    ];
    !NOT_PUBLIC
        .iter()
        .any(|&(network, prefix)| in_v6(ip, network, prefix))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn public_addresses_of_both_families_pass() {
        for text in [
            "1.1.1.1",
            "8.8.8.8",
            "93.184.215.14",
            "9.255.255.255",
            "11.0.0.0",
            "100.63.255.255",
            "100.128.0.0",
            "126.255.255.255",
            "128.0.0.0",
            "169.253.255.255",
            "169.255.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "192.0.1.0",
            "192.88.98.255",
            "192.167.255.255",
            "192.169.0.0",
            "198.17.255.255",
            "198.20.0.0",
            "223.255.255.255",
            "2606:4700:4700::1111",
            "2a00:1450:4001:80b::200e",
            "2001:4860:4860::8888",
            "2400:cb00::1",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert!(is_public(ip(text)), "{text} should be public");
        }
    }

    #[test]
    fn every_special_ipv4_range_is_refused() {
        for text in [
            // 0/8 and the unspecified address
            "0.0.0.0",
            "0.1.2.3",
            "0.255.255.255",
            // private
            "10.0.0.1",
            "10.255.255.255",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.0.1",
            "192.168.255.255",
            // carrier-grade NAT
            "100.64.0.1",
            "100.127.255.255",
            // loopback
            "127.0.0.1",
            "127.255.255.254",
            // link-local, with the cloud metadata address
            "169.254.0.1",
            "169.254.169.254",
            "169.254.255.255",
            // IETF protocol assignments
            "192.0.0.8",
            // documentation
            "192.0.2.1",
            "198.51.100.7",
            "203.0.113.255",
            // AS112, AMT, 6to4 relay
            "192.31.196.1",
            "192.52.193.1",
            "192.88.99.1",
            // benchmarking 198.18/15
            "198.18.0.1",
            "198.19.255.255",
            // multicast
            "224.0.0.1",
            "239.255.255.250",
            // reserved 240/4 and broadcast
            "240.0.0.1",
            "254.255.255.255",
            "255.255.255.255",
        ] {
            assert!(!is_public(ip(text)), "{text} should be refused");
        }
    }

    #[test]
    fn every_special_ipv6_range_is_refused() {
        for text in [
            // unspecified and loopback
            "::",
            "::1",
            // unique local fc00::/7
            "fc00::1",
            "fd12:3456:789a::1",
            // link-local fe80::/10
            "fe80::1",
            "febf:ffff::1",
            // site-local, retired
            "fec0::1",
            // multicast
            "ff02::1",
            "ff0e::1",
            // discard-only
            "100::1",
            // Teredo
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            // benchmarking, ORCHIDv2
            "2001:2::1",
            "2001:20::1",
            // documentation
            "2001:db8::1",
            "2001:db8:ffff::1",
            "3fff::1",
            // NAT64 local use
            "64:ff9b:1::1",
            // outside global unicast
            "4000::1",
            "5f00::1",
            "e000::1",
        ] {
            assert!(!is_public(ip(text)), "{text} should be refused");
        }
    }

    #[test]
    fn an_embedded_ipv4_address_is_judged_as_ipv4() {
        for text in [
            // IPv4-mapped
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:192.168.1.1",
            "::ffff:0.0.0.0",
            // IPv4-compatible
            "::127.0.0.1",
            "::10.0.0.1",
            // NAT64
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::192.168.0.1",
            // 6to4
            "2002:7f00:1::1",
            "2002:a9fe:a9fe::1",
            "2002:c0a8:101::1",
        ] {
            assert!(!is_public(ip(text)), "{text} should be refused");
        }
        assert!(is_public(ip("::ffff:1.1.1.1")));
        assert!(is_public(ip("64:ff9b::1.1.1.1")));
        assert!(is_public(ip("2002:101:101::")));
    }

    #[test]
    fn public_only_urls_are_https_with_a_public_host_and_no_credentials() {
        let ok = check_url("https://push.example.net/p/abc?x=1", Policy::PublicOnly).unwrap();
        assert_eq!(ok.host_str(), Some("push.example.net"));
        assert!(check_url("https://hooks.example.com:8443/in", Policy::PublicOnly).is_ok());
        assert!(check_url("https://1.1.1.1/hook", Policy::PublicOnly).is_ok());
        assert!(check_url("https://[2606:4700::1]/hook", Policy::PublicOnly).is_ok());

        let refused = |url: &str| check_url(url, Policy::PublicOnly).unwrap_err().reason();
        assert_eq!(refused("http://hooks.example.com/"), "not_https");
        assert_eq!(refused("ftp://hooks.example.com/"), "not_https");
        assert_eq!(refused("not a url"), "invalid_url");
        assert_eq!(refused(""), "invalid_url");
        assert_eq!(
            refused("https://user:pw@hooks.example.com/"),
            "credentials_in_url"
        );
        assert_eq!(
            refused("https://user@hooks.example.com/"),
            "credentials_in_url"
        );
        assert_eq!(refused("https://127.0.0.1/"), "private_address");
        assert_eq!(
            refused("https://169.254.169.254/latest/"),
            "private_address"
        );
        assert_eq!(refused("https://10.1.2.3:8443/"), "private_address");
        assert_eq!(refused("https://[::1]/"), "private_address");
        assert_eq!(refused("https://[::ffff:7f00:1]/"), "private_address");
        assert_eq!(refused("https://[fe80::1]/"), "private_address");
        assert_eq!(refused("https://[fd00::1]/"), "private_address");
        // Numeric forms the URL parser reads as IPv4 (0x7f.1 is 127.0.0.1).
        assert_eq!(refused("https://0x7f.1/"), "private_address");
        assert_eq!(refused("https://2130706433/"), "private_address");
        assert_eq!(refused("https://localhost/"), "internal_name");
        assert_eq!(refused("https://LOCALHOST./"), "internal_name");
        assert_eq!(refused("https://api.localhost/"), "internal_name");
        assert_eq!(refused("https://printer.local/"), "internal_name");
        assert_eq!(
            refused("https://metadata.google.internal/"),
            "internal_name"
        );
        assert_eq!(refused("https://nas.home.arpa/"), "internal_name");
        assert_eq!(refused("https://metadata/"), "internal_name");
    }

    #[test]
    fn allow_private_takes_http_and_any_address_but_not_credentials() {
        for url in [
            "http://127.0.0.1:8080/hook",
            "http://localhost:3000/",
            "https://[::1]:9000/push/abc",
            "http://10.0.0.5/",
        ] {
            assert!(check_url(url, Policy::AllowPrivate).is_ok(), "{url}");
        }
        let refused = |url: &str| check_url(url, Policy::AllowPrivate).unwrap_err().reason();
        assert_eq!(refused("ftp://127.0.0.1/"), "unsupported_scheme");
        assert_eq!(refused("file:///etc/passwd"), "unsupported_scheme");
        assert_eq!(refused("http://a:b@127.0.0.1/"), "credentials_in_url");
    }

    #[test]
    fn resolved_addresses_must_all_be_public() {
        let addr = |text: &str| -> SocketAddr { text.parse().unwrap() };
        let public = [addr("93.184.215.14:443"), addr("[2606:2800:21f::1]:443")];
        assert_eq!(check_resolved(&public, Policy::PublicOnly), Ok(()));
        // One private address among public ones is enough to refuse.
        let mixed = [addr("93.184.215.14:443"), addr("10.0.0.1:443")];
        assert_eq!(
            check_resolved(&mixed, Policy::PublicOnly),
            Err(AddressRefusal::PrivateAddress)
        );
        let rebound = [addr("[::ffff:169.254.169.254]:443")];
        assert_eq!(
            check_resolved(&rebound, Policy::PublicOnly),
            Err(AddressRefusal::PrivateAddress)
        );
        assert_eq!(
            check_resolved(&[], Policy::PublicOnly),
            Err(AddressRefusal::Unresolvable)
        );
        assert_eq!(
            check_resolved(&[addr("127.0.0.1:80")], Policy::AllowPrivate),
            Ok(())
        );
        assert_eq!(
            check_resolved(&[], Policy::AllowPrivate),
            Err(AddressRefusal::Unresolvable)
        );
    }

    #[test]
    fn refusals_have_stable_reasons_and_messages_that_echo_nothing() {
        let all = [
            AddressRefusal::InvalidUrl,
            AddressRefusal::NotHttps,
            AddressRefusal::UnsupportedScheme,
            AddressRefusal::NoHost,
            AddressRefusal::CredentialsInUrl,
            AddressRefusal::InternalName,
            AddressRefusal::PrivateAddress,
            AddressRefusal::Unresolvable,
        ];
        let reasons: Vec<&str> = all.iter().map(AddressRefusal::reason).collect();
        assert_eq!(
            reasons,
            [
                "invalid_url",
                "not_https",
                "unsupported_scheme",
                "no_host",
                "credentials_in_url",
                "internal_name",
                "private_address",
                "unresolvable"
            ]
        );
        let refusal = check_url("https://secret-token@10.0.0.1/x", Policy::PublicOnly).unwrap_err();
        assert!(!refusal.to_string().contains("secret-token"));
        let refusal = check_url("https://10.0.0.1/secret-path", Policy::PublicOnly).unwrap_err();
        assert!(!refusal.to_string().contains("10.0.0.1"));
        assert!(!refusal.to_string().contains("secret-path"));
    }
}
