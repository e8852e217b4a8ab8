//! Opaque cursors of the player listings: a tag naming the listing, then
//! the keyset position of the last item already seen, base64url-encoded.
//! A cursor of another listing, or anything else, is refused.

use base64::Engine;

use super::PlayerError;

const ENGINE: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The cursor of listing `tag` after the item whose key is `parts`.
pub fn encode(tag: &str, parts: &[String]) -> String {
    let mut text = tag.to_owned();
    for part in parts {
        text.push('|');
        text.push_str(part);
    }
    ENGINE.encode(text)
}

/// The `N` key parts of a cursor of listing `tag`.
pub fn decode<const N: usize>(tag: &str, cursor: &str) -> Result<[String; N], PlayerError> {
    let bad = || PlayerError::Unreadable("cursor is not a next_cursor of this listing".into());
    let bytes = ENGINE.decode(cursor).map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let mut parts = text.split('|');
    if parts.next() != Some(tag) {
        return Err(bad());
    }
    let parts: Vec<String> = parts.map(str::to_owned).collect();
    <[String; N]>::try_from(parts).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn cursors_round_trip_and_belong_to_their_listing() {
        let cursor = encode("l", &["1.5".into(), "abc".into()]);
        assert_eq!(decode::<2>("l", &cursor).unwrap(), ["1.5", "abc"]);
        assert!(decode::<2>("h", &cursor).is_err());
        assert!(decode::<3>("l", &cursor).is_err());
        assert!(decode::<2>("l", "not a cursor").is_err());
        assert!(decode::<2>("l", "").is_err());
    }
}
