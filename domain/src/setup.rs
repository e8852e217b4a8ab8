//! Setups: an unvalidated [`Placement`] anyone can build, and a validated
//! [`Setup`] that only validation (or the random generator) produces.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rng::SplitMix64;
use crate::{ByColor, Color, Piece, PieceId, PieceView, Square, Variant, Viewer};

/// A proposed setup as it arrives from outside: square names and piece names,
/// not yet checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    entries: Vec<(String, String)>,
}

impl Placement {
    /// Builds a placement from `(square, piece)` name pairs.
    pub fn from_pairs<I, S, P>(pairs: I) -> Placement
    where
        I: IntoIterator<Item = (S, P)>,
        S: Into<String>,
        P: Into<String>,
    {
        Placement {
            entries: pairs
                .into_iter()
                .map(|(s, p)| (s.into(), p.into()))
                .collect(),
        }
    }

    /// The raw entries.
    pub fn entries(&self) -> &[(String, String)] {
        &self.entries
    }

    /// Checks this placement as `color`'s army in `variant`. On failure every
    /// problem is reported, in a stable order (entry problems in entry order,
    /// then wrong counts in piece order).
    pub fn validate(&self, variant: Variant, color: Color) -> Result<Setup, Vec<SetupProblem>> {
        let entries = self.entries.iter().map(|(square_name, piece_name)| {
            let square = square_name
                .parse::<Square>()
                .map_err(|_| SetupProblem::BadSquare {
                    square: truncate(square_name),
                });
            let piece = piece_name
                .parse::<Piece>()
                .map_err(|_| SetupProblem::UnknownPiece {
                    square: truncate(square_name),
                    piece: truncate(piece_name),
                });
            (square, piece)
        });
        check(variant, color, entries)
    }
}

/// The checks of [`Placement::validate`], on entries already read: each
/// entry's square and piece, or the problem with each.
fn check(
    variant: Variant,
    color: Color,
    entries: impl Iterator<Item = (Result<Square, SetupProblem>, Result<Piece, SetupProblem>)>,
) -> Result<Setup, Vec<SetupProblem>> {
    let mut problems = Vec::new();
    let mut occupied = [false; 100];
    let mut counts = [0usize; 12];
    let mut pieces = Vec::with_capacity(entries.size_hint().0);
    for (square, piece) in entries {
        let square = square.map_err(|p| problems.push(p)).ok();
        let piece = match piece {
            Ok(p) => {
                counts[p.index()] += 1;
                Some(p)
            }
            Err(problem) => {
                problems.push(problem);
                None
            }
        };
        let Some(square) = square else { continue };
        if occupied[square.index()] {
            problems.push(SetupProblem::DuplicateSquare { square });
            continue;
        }
        occupied[square.index()] = true;
        if square.is_lake() {
            problems.push(SetupProblem::Lake { square });
        } else if !variant.in_zone(color, square) {
            problems.push(SetupProblem::OutsideZone { square });
        } else if let Some(piece) = piece {
            pieces.push((square, piece));
        }
    }
    for piece in Piece::ALL {
        let expected = variant.count(piece) as usize;
        let found = counts[piece.index()];
        if found != expected {
            problems.push(SetupProblem::WrongCount {
                piece,
                expected,
                found,
            });
        }
    }
    if problems.is_empty() {
        pieces.sort_unstable_by_key(|&(s, _)| s);
        Ok(Setup {
            variant,
            color,
            pieces,
        })
    } else {
        Err(problems)
    }
}

/// A placement serializes as a JSON object `{"a1": "flag", ...}`. Reading
/// keeps every entry in order, duplicates included, so that `validate` can
/// report them; values must be strings.
impl Serialize for Placement {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (square, piece) in &self.entries {
            map.serialize_entry(square, piece)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Placement {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Placement, D::Error> {
        struct PlacementVisitor;
        impl<'de> serde::de::Visitor<'de> for PlacementVisitor {
            type Value = Placement;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object mapping squares to piece names")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Placement, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(100));
                while let Some(entry) = map.next_entry::<String, String>()? {
                    if entries.len() >= 200 {
                        return Err(serde::de::Error::custom("too many entries"));
                    }
                    entries.push(entry);
                }
                Ok(Placement { entries })
            }
        }
        deserializer.deserialize_map(PlacementVisitor)
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(32).collect()
}

/// One thing wrong with a placement; validation lists every one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum SetupProblem {
    #[error("`{piece}` on {square} is not a piece name")]
    UnknownPiece { square: String, piece: String },
    #[error("`{square}` is not a square")]
    BadSquare { square: String },
    #[error("{square} is outside your setup zone")]
    OutsideZone { square: Square },
    #[error("{square} is a lake")]
    Lake { square: Square },
    #[error("{square} is given more than once")]
    DuplicateSquare { square: Square },
    #[error("the army has {expected} {piece} piece(s), the setup has {found}")]
    WrongCount {
        piece: Piece,
        expected: usize,
        found: usize,
    },
}

/// A validated setup: the whole army of one color, inside its zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SetupRepr", into = "SetupRepr")]
pub struct Setup {
    variant: Variant,
    color: Color,
    /// Sorted by square.
    pieces: Vec<(Square, Piece)>,
}

impl Setup {
    /// The setup as its owner sees it before play starts: every piece
    /// with its rank, unrevealed and unmoved, numbered as the game will
    /// number it (by starting square). Only ever for the owner's eyes:
    /// others go through [`Setups::view`].
    pub(crate) fn owner_view(&self) -> Vec<PieceView> {
        self.pieces
            .iter()
            .map(|&(square, piece)| PieceView {
                id: PieceId::starting_at(square),
                square,
                color: self.color,
                piece: Some(piece),
                strength: piece.strength(),
                revealed: false,
                moved: false,
                seal: crate::view::Seal::new(),
            })
            .collect()
    }

    /// The variant this setup is for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The color this setup is for.
    pub fn color(&self) -> Color {
        self.color
    }

    /// The pieces, sorted by square.
    pub fn pieces(&self) -> &[(Square, Piece)] {
        &self.pieces
    }

    /// The same arrangement for the other color, as its player sees it from
    /// their own side: every piece on the square opposite through the
    /// board's centre. Still valid: zones and lakes map onto each other.
    pub fn turned(&self) -> Setup {
        let mut pieces: Vec<(Square, Piece)> =
            self.pieces.iter().map(|(s, p)| (s.turned(), *p)).collect();
        pieces.sort_by_key(|(s, _)| *s);
        Setup {
            variant: self.variant,
            color: self.color.opponent(),
            pieces,
        }
    }

    /// This setup as one for `color` (turned if it is for the other one).
    pub fn for_color(&self, color: Color) -> Setup {
        if self.color == color {
            self.clone()
        } else {
            self.turned()
        }
    }

    /// `pieces` as `color`'s army in `variant`, with the checks of
    /// [`Placement::validate`].
    pub(crate) fn checked(
        variant: Variant,
        color: Color,
        pieces: &[(Square, Piece)],
    ) -> Result<Setup, SetupProblems> {
        check(variant, color, pieces.iter().map(|&(s, p)| (Ok(s), Ok(p)))).map_err(SetupProblems)
    }

    /// Back to an unvalidated placement (square and piece names).
    pub fn to_placement(&self) -> Placement {
        Placement::from_pairs(
            self.pieces
                .iter()
                .map(|(s, p)| (s.to_string(), p.name().to_string())),
        )
    }

    /// A random valid setup, the same for the same arguments on every
    /// platform and every version of this crate's dependencies.
    pub fn random(variant: Variant, color: Color, seed: u64) -> Setup {
        let mut rng = SplitMix64::new(seed ^ ((color.index() as u64) << 63));
        let mut squares: Vec<Square> = variant.zone(color).collect();
        rng.shuffle(&mut squares);
        let mut army: Vec<Piece> = variant
            .army()
            .flat_map(|(p, n)| std::iter::repeat_n(p, n as usize))
            .collect();
        rng.shuffle(&mut army);
        let mut pieces: Vec<(Square, Piece)> = squares.into_iter().zip(army).collect();
        pieces.sort_unstable_by_key(|&(s, _)| s);
        Setup {
            variant,
            color,
            pieces,
        }
    }
}

/// Serialized form of a [`Setup`]; deserializing validates it again.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupRepr {
    variant: Variant,
    color: Color,
    placement: BTreeMap<Square, Piece>,
}

impl From<Setup> for SetupRepr {
    fn from(s: Setup) -> SetupRepr {
        SetupRepr {
            variant: s.variant,
            color: s.color,
            placement: s.pieces.into_iter().collect(),
        }
    }
}

/// The problems found when a stored setup is read back.
#[derive(Debug)]
pub struct SetupProblems(pub Vec<SetupProblem>);

impl fmt::Display for SetupProblems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl TryFrom<SetupRepr> for Setup {
    type Error = SetupProblems;
    fn try_from(r: SetupRepr) -> Result<Setup, SetupProblems> {
        let pieces: Vec<(Square, Piece)> = r.placement.into_iter().collect();
        Setup::checked(r.variant, r.color, &pieces)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn a_turned_setup_is_valid_for_the_other_color_and_turns_back() {
        for variant in Variant::ALL {
            for seed in 0..20 {
                let red = Setup::random(variant, Color::Red, seed);
                let blue = red.turned();
                assert_eq!(blue.color(), Color::Blue);
                let again = blue.to_placement().validate(variant, Color::Blue);
                assert_eq!(again.as_ref(), Ok(&blue), "{variant:?} {seed}");
                assert_eq!(blue.turned(), red);
                assert_eq!(red.for_color(Color::Red), red);
                // The flag stands where it stood, seen from the own side.
                let flag = |s: &Setup| {
                    s.pieces()
                        .iter()
                        .find(|(_, p)| *p == Piece::Flag)
                        .map(|(q, _)| *q)
                };
                assert_eq!(flag(&blue).map(Square::turned), flag(&red));
            }
        }
    }

    #[test]
    fn random_setups_are_valid_and_deterministic() {
        for variant in Variant::ALL {
            for color in Color::ALL {
                for seed in 0..20 {
                    let s = Setup::random(variant, color, seed);
                    assert_eq!(s, Setup::random(variant, color, seed));
                    let again = s.to_placement().validate(variant, color).unwrap();
                    assert_eq!(again, s);
                }
            }
        }
        assert_ne!(
            Setup::random(Variant::Classic, Color::Red, 1),
            Setup::random(Variant::Classic, Color::Red, 2)
        );
    }

    #[test]
    fn reports_every_problem() {
        let mut pairs: Vec<(String, String)> = Setup::random(Variant::Barrage, Color::Red, 3)
            .to_placement()
            .entries()
            .to_vec();
        pairs[0].1 = "dragon".into();
        pairs[1].0 = "e7".into();
        pairs[2].0 = "z9".into();
        pairs.push(("c5".into(), "scout".into()));
        let dup = pairs[3].0.clone();
        pairs.push((dup, "spy".into()));
        let problems = Placement::from_pairs(pairs)
            .validate(Variant::Barrage, Color::Red)
            .unwrap_err();
        let kinds: Vec<&str> = problems
            .iter()
            .map(|p| match p {
                SetupProblem::UnknownPiece { .. } => "unknown",
                SetupProblem::BadSquare { .. } => "bad",
                SetupProblem::OutsideZone { .. } => "zone",
                SetupProblem::Lake { .. } => "lake",
                SetupProblem::DuplicateSquare { .. } => "dup",
                SetupProblem::WrongCount { .. } => "count",
            })
            .collect();
        for k in ["unknown", "bad", "zone", "lake", "dup", "count"] {
            assert!(kinds.contains(&k), "{k} missing from {kinds:?}");
        }
    }

    #[test]
    fn placement_json_keeps_duplicates() {
        let p: Placement = serde_json::from_str(r#"{"a1":"flag","b1":"bomb","a1":"spy"}"#).unwrap();
        assert_eq!(p.entries().len(), 3);
        let problems = p.validate(Variant::Barrage, Color::Red).unwrap_err();
        assert!(problems.contains(&SetupProblem::DuplicateSquare {
            square: "a1".parse().unwrap()
        }));
        let back: Placement = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(back, p);
        assert!(serde_json::from_str::<Placement>(r#"{"a1":3}"#).is_err());
    }

    #[test]
    fn serde_round_trip_and_revalidation() {
        let s = Setup::random(Variant::Duel, Color::Blue, 9);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains("\"placement\""));
        let back: Setup = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        let tampered = json.replacen("\"blue\"", "\"red\"", 1);
        assert!(serde_json::from_str::<Setup>(&tampered).is_err());
    }
}

/// The setups of a game before play starts, each secret to all but its
/// owner. Which setups are in is public; what they hold is not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setups {
    red: Option<Setup>,
    blue: Option<Setup>,
}

impl Setups {
    /// No setup in yet.
    pub fn new() -> Setups {
        Setups::default()
    }

    /// From the stored setups of each color.
    pub fn from_parts(red: Option<Setup>, blue: Option<Setup>) -> Setups {
        Setups { red, blue }
    }

    /// The setup of `color`, if it is in (full truth: for storage and for
    /// starting the game, never for a viewer).
    pub fn get(&self, color: Color) -> Option<&Setup> {
        match color {
            Color::Red => self.red.as_ref(),
            Color::Blue => self.blue.as_ref(),
        }
    }

    /// Places (or replaces) the setup of its color.
    pub fn set(&mut self, setup: Setup) {
        match setup.color() {
            Color::Red => self.red = Some(setup),
            Color::Blue => self.blue = Some(setup),
        }
    }

    /// Whether each color's setup is in (public).
    pub fn done(&self) -> ByColor<bool> {
        ByColor {
            red: self.red.is_some(),
            blue: self.blue.is_some(),
        }
    }

    /// Both setups, once both are in.
    pub fn both(&self) -> Option<(&Setup, &Setup)> {
        self.red.as_ref().zip(self.blue.as_ref())
    }

    /// What `viewer` may see of the board before play: a player their own
    /// setup, once placed; a spectator (or the opponent) nothing.
    pub fn view(&self, viewer: Viewer) -> Vec<PieceView> {
        match viewer {
            Viewer::Player(color) => self.get(color).map(Setup::owner_view).unwrap_or_default(),
            Viewer::Spectator => Vec::new(),
        }
    }

    /// The setups as `viewer` may know them, for a game record
    /// (docs/pictures-and-records.md): a player's own setup at any time,
    /// every setup once `game_finished`, nothing else. A setup is never
    /// shown in part: which squares an opponent's pieces started on is
    /// public, but their ranks are the setup.
    pub fn known_to(&self, viewer: Viewer, game_finished: bool) -> ByColor<Option<SetupView>> {
        let known = |color: Color| -> Option<SetupView> {
            if !(game_finished || viewer == Viewer::Player(color)) {
                return None;
            }
            self.get(color).map(|setup| SetupView {
                color,
                board: setup.to_board_string(),
                seal: crate::view::Seal::new(),
            })
        };
        ByColor {
            red: known(Color::Red),
            blue: known(Color::Blue),
        }
    }
}

/// One player's setup as a viewer may know it: the 100-character board
/// string (docs/rules.md) holding that player's pieces only, every other
/// square `A` (empty) or `_` (lake). Only [`Setups::known_to`] makes one.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SetupView {
    pub color: Color,
    pub board: String,
    #[serde(skip)]
    pub(crate) seal: crate::view::Seal,
}
