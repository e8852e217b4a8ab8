//! Request bodies and query strings of the game endpoints.

use std::fmt;
use std::marker::PhantomData;

use domain::{Color, Placement, Rules, TimeControl, Variant};
use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::docs::{ColorDoc, PieceDoc, RulesDoc, SquareDoc, TimeControlDoc, VariantDoc};
use super::record::Status;

/// A request body that must be a JSON object. serde's derived structs also
/// accept a JSON array of the field values in order (`["e4", "e5"]` would
/// be a move), which the contract does not allow: every body is an object.
/// Handlers take `web::Json<JsonObject<T>>`; anything but an object is a
/// 422 `validation_failed` like any other value of the wrong type.
#[derive(Debug, Clone)]
pub struct JsonObject<T>(pub T);

impl<T> JsonObject<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for JsonObject<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        object(deserializer).map(JsonObject)
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map))
    }
}

/// Deserializes `T` from a JSON object only (for `deserialize_with` on
/// nested structs, and for [`JsonObject`]).
pub fn object<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_map(ObjectVisitor(PhantomData))
}

struct OptionalObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for OptionalObjectVisitor<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object or null")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<T>, D::Error> {
        object(deserializer).map(Some)
    }
}

/// Like [`object`], for an optional field: `null` is `None`.
pub fn optional_object<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_option(OptionalObjectVisitor(PhantomData))
}

/// Smallest and largest `days_per_move`.
pub const DAYS_PER_MOVE: std::ops::RangeInclusive<i32> = 1..=14;
pub const DEFAULT_DAYS_PER_MOVE: i32 = 3;

/// Which color the creator plays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    Red,
    Blue,
    #[default]
    Random,
}

/// A new game: an open seat (`opponent` null) or a challenge to a user.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"variant": "classic", "rules": {"two_square_limit": 3},
    "color": "random", "opponent": null, "days_per_move": 3, "rated": true}))]
pub struct CreateGameRequest {
    /// default `classic`
    #[serde(default)]
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    /// Any subset of the rules; the rest take their defaults (docs/rules.md).
    #[serde(default, deserialize_with = "object")]
    #[schema(value_type = RulesDoc)]
    pub rules: Rules,
    /// default `random`
    #[serde(default)]
    pub color: ColorChoice,
    /// Username of the user challenged (a bot such as `bot-tactician` accepts
    /// at once: `GET /bots`); null for an open seat anyone may take.
    #[serde(default)]
    pub opponent: Option<String>,
    /// Shorthand for `{"type": "per_move", "days": n}` (1-14, default
    /// 3); not together with `time_control`.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 14)]
    pub days_per_move: Option<i32>,
    /// How much time each player has (docs/lifecycle.md, "Clocks");
    /// default `per_move` of 3 days.
    #[serde(default)]
    #[schema(value_type = Option<TimeControlDoc>)]
    pub time_control: Option<TimeControl>,
    /// Whether the game counts for both players' ratings (default `true`;
    /// docs/ratings.md).
    #[serde(default)]
    pub rated: Option<bool>,
}

/// A rematch's time control: the finished game's unless one is given
/// here (the body may be left out).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"time_control": {"type": "fischer", "initial_days": 10,
    "increment_days": 2, "max_days": 20}}))]
pub struct RematchRequest {
    /// How much time each player has (docs/lifecycle.md, "Clocks");
    /// default: the finished game's
    #[serde(default)]
    #[schema(value_type = Option<TimeControlDoc>)]
    pub time_control: Option<TimeControl>,
    /// Shorthand for `{"type": "per_move", "days": n}` (1-14); not
    /// together with `time_control`
    #[serde(default)]
    #[schema(minimum = 1, maximum = 14)]
    pub days_per_move: Option<i32>,
}

/// A setup: either the whole army by square, or a random one placed by the
/// server (`seed` makes it reproducible).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"random": true, "seed": 7}))]
pub struct SetupRequest {
    /// Square name to piece name, e.g. `{"a1": "flag", "b1": "bomb", ...}`:
    /// every piece of the variant's army, inside your own setup zone.
    #[serde(default)]
    #[schema(value_type = Option<std::collections::HashMap<SquareDoc, PieceDoc>>)]
    pub placement: Option<Placement>,
    /// `true`: let the server place a valid random setup.
    #[serde(default)]
    pub random: Option<bool>,
    /// Seed of the random setup (only with `random`).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The name of one of your saved setups for the game's variant
    /// (`/me/setups`)
    #[serde(default)]
    pub saved: Option<String>,
}

/// A rescue made with a move (rules option `rescue`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RescueRequest {
    /// The captured piece brought back, e.g. `captain`
    #[schema(value_type = PieceDoc)]
    pub piece: String,
    /// An empty square of your own half
    #[schema(value_type = SquareDoc)]
    pub square: String,
}

/// One move.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"from": "e4", "to": "e5", "expected_version": 12}))]
pub struct MoveRequest {
    #[schema(value_type = SquareDoc)]
    pub from: String,
    #[schema(value_type = SquareDoc)]
    pub to: String,
    /// Fail with 409 `version_conflict` unless the game is at this version.
    #[serde(default)]
    pub expected_version: Option<i64>,
    #[serde(default, deserialize_with = "optional_object")]
    pub rescue: Option<RescueRequest>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

/// Offer a draw, or answer the opponent's offer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"action": "offer"}))]
pub struct DrawRequest {
    pub action: DrawAction,
}

/// Filters and paging of `GET /games`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only games with this status
    pub status: Option<Status>,
    /// `true`: only games you play, created, or are challenged to
    pub mine: Option<bool>,
    /// `true`: only games waiting for you (your move, or your setup),
    /// nearest deadline first
    pub my_turn: Option<bool>,
    /// 1-100, default 20
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page
    pub cursor: Option<String>,
}

/// `GET /games/{id}` options.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ViewQuery {
    /// Long poll: answer only once the game's version is greater than this
    /// (or when `wait` seconds have passed; then the current view).
    pub wait_for_version: Option<i64>,
    /// Documented (and checked) by `routes::extract::WaitParam`.
    #[param(ignore)]
    pub wait: Option<u64>,
}

/// `GET /games/{id}/board.svg` options.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PictureQuery {
    /// The side drawn at the bottom; default: yours (Red for a spectator)
    #[param(value_type = Option<ColorDoc>)]
    pub orientation: Option<Color>,
}

/// `GET /games/{id}/export` options.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `json` (default): our record; `gravon`: the Gravon archive's XML
    #[param(inline)]
    pub format: Option<super::export::ExportFormat>,
}

/// `GET /games/{id}/board.png` options.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PngQuery {
    /// The side drawn at the bottom; default: yours (Red for a spectator)
    #[param(value_type = Option<ColorDoc>)]
    pub orientation: Option<Color>,
    /// Pixels per picture unit, 0.25 to 4 (default 1: 900 by 712 pixels)
    #[param(minimum = 0.25, maximum = 4)]
    pub scale: Option<f32>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn bodies_are_objects_only() {
        let parsed: JsonObject<MoveRequest> =
            serde_json::from_str(r#"{"from": "a4", "to": "a5", "rescue": null}"#).unwrap();
        assert_eq!(parsed.0.from, "a4");
        assert!(parsed.0.rescue.is_none());
        for text in [r#"["a4", "a5"]"#, "null", "5", r#""a4""#] {
            let error = serde_json::from_str::<JsonObject<MoveRequest>>(text).unwrap_err();
            assert_eq!(
                error.classify(),
                serde_json::error::Category::Data,
                "{text}"
            );
        }
        let nested = r#"{"from": "a4", "to": "a5", "rescue": ["captain", "a1"]}"#;
        assert!(serde_json::from_str::<JsonObject<MoveRequest>>(nested).is_err());
        let rules = r#"{"rules": [5]}"#;
        assert!(serde_json::from_str::<JsonObject<CreateGameRequest>>(rules).is_err());
        let rules = r#"{"rules": {"two_square_limit": 5}}"#;
        let created: JsonObject<CreateGameRequest> = serde_json::from_str(rules).unwrap();
        assert_eq!(created.0.rules.two_square_limit, 5);
    }
}
