//! Usernames: 3-32 characters of A-Z, a-z, 0-9, `_` and `-`, unique
//! regardless of case. A [`Username`] can only hold a valid one, so code
//! that has one never looks up (or stores) a string no user can have.

use std::fmt;

pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 32;

/// The name a deleted account is shown with (docs/accounts.md). No one can
/// register it: `[` and `]` are not allowed in usernames.
pub const DELETED_USERNAME: &str = "[deleted]";

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Username(String);

impl Username {
    /// `Some` if `name` is a valid username.
    pub fn parse(name: &str) -> Option<Username> {
        Username::is_valid(name).then(|| Username(name.to_owned()))
    }

    pub fn is_valid(name: &str) -> bool {
        (USERNAME_MIN..=USERNAME_MAX).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Username {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_valid_names_parse() {
        assert!(Username::parse("ann").is_some());
        assert!(Username::parse("A_b-9").is_some());
        assert!(Username::parse("an").is_none());
        assert!(Username::parse(&"x".repeat(33)).is_none());
        assert!(Username::parse("ann smith").is_none());
        assert!(Username::parse("ann\0").is_none());
        assert!(Username::parse("änn").is_none());
    }
}
