//! `GET /variants`: what a client needs to draw a setup screen and a
//! create-game form, straight from the domain: each variant's army, its
//! setup zones, its default rules and the range of every setting.

use actix_web::{get, HttpResponse};
use domain::time_control::bounds;
use domain::{Color, Piece, Rules, Square, Variant, PLY_CAP_RANGE, TWO_SQUARE_LIMIT_RANGE};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::games::docs::{PieceDoc, RulesViewDoc, SquareDoc, VariantDoc};
use crate::games::requests::{DAYS_PER_MOVE, DEFAULT_DAYS_PER_MOVE};

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list_variants);
}

/// Every variant the server plays.
#[derive(Debug, Serialize, ToSchema)]
pub struct VariantList {
    pub variants: Vec<VariantInfo>,
}

/// One variant: its army, setup zones, default rules and settings.
#[derive(Debug, Serialize, ToSchema)]
pub struct VariantInfo {
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    /// Pieces per player
    pub army_size: usize,
    /// Each kind of piece in the army, in piece order
    pub army: Vec<ArmyPiece>,
    pub setup_zones: SetupZones,
    /// The rules of a game created without `rules`
    #[schema(value_type = RulesViewDoc)]
    pub default_rules: Rules,
    pub settings: Settings,
}

/// One kind of piece in an army.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArmyPiece {
    #[schema(value_type = PieceDoc)]
    pub piece: Piece,
    /// How many each player has
    pub count: u8,
    /// Modern numbering (marshal 10 .. spy 1); `null` for bomb and flag
    #[schema(required = true)]
    pub strength: Option<u8>,
    /// The number printed in the 1961 edition (`1` marshal .. `9` scout,
    /// `S` spy, `B` bomb, `F` flag)
    pub old_number: &'static str,
    /// Bombs and flags never move
    pub movable: bool,
}

/// The squares each color places its army on, in index order.
#[derive(Debug, Serialize, ToSchema)]
pub struct SetupZones {
    #[schema(value_type = Vec<SquareDoc>)]
    pub red: Vec<Square>,
    #[schema(value_type = Vec<SquareDoc>)]
    pub blue: Vec<Square>,
}

/// The range of a whole-number setting.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntegerRange {
    pub minimum: u32,
    pub maximum: u32,
    /// `null` is accepted too (no cap)
    pub nullable: bool,
}

/// The range of every setting of `POST /games` (the boolean rules take
/// `true` or `false`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Settings {
    pub two_square_limit: IntegerRange,
    pub max_plies: IntegerRange,
    pub max_plies_without_battle: IntegerRange,
    pub days_per_move: IntegerRange,
    pub default_days_per_move: u32,
    /// The bounds of each `time_control` (docs/lifecycle.md, "Clocks");
    /// the default is `per_move` of `default_days_per_move`.
    pub time_controls: TimeControlRanges,
}

/// The range of every field of each time control; also `fischer`'s
/// `max_days` is at least its other two, and `moves_in_days`' `days` at
/// least its `moves`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TimeControlRanges {
    pub per_move: PerMoveRanges,
    pub fischer: FischerRanges,
    pub moves_in_days: MovesInDaysRanges,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PerMoveRanges {
    pub days: IntegerRange,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FischerRanges {
    pub initial_days: IntegerRange,
    pub increment_days: IntegerRange,
    pub max_days: IntegerRange,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MovesInDaysRanges {
    pub moves: IntegerRange,
    pub days: IntegerRange,
}

fn range(range: std::ops::RangeInclusive<u32>, nullable: bool) -> IntegerRange {
    IntegerRange {
        minimum: *range.start(),
        maximum: *range.end(),
        nullable,
    }
}

fn settings() -> Settings {
    let days = DAYS_PER_MOVE;
    let squares = TWO_SQUARE_LIMIT_RANGE;
    Settings {
        two_square_limit: range(
            u32::from(*squares.start())..=u32::from(*squares.end()),
            false,
        ),
        max_plies: range(PLY_CAP_RANGE, true),
        max_plies_without_battle: range(PLY_CAP_RANGE, true),
        days_per_move: range(
            u32::try_from(*days.start()).unwrap_or(1)..=u32::try_from(*days.end()).unwrap_or(1),
            false,
        ),
        default_days_per_move: u32::try_from(DEFAULT_DAYS_PER_MOVE).unwrap_or(1),
        time_controls: TimeControlRanges {
            per_move: PerMoveRanges {
                days: range(bounds::PER_MOVE_DAYS, false),
            },
            fischer: FischerRanges {
                initial_days: range(bounds::FISCHER_INITIAL_DAYS, false),
                increment_days: range(bounds::FISCHER_INCREMENT_DAYS, false),
                max_days: range(bounds::FISCHER_MAX_DAYS, false),
            },
            moves_in_days: MovesInDaysRanges {
                moves: range(bounds::MOVES, false),
                days: range(bounds::MOVES_IN_DAYS_DAYS, false),
            },
        },
    }
}

/// Every variant, from the rules engine itself.
pub fn variants() -> VariantList {
    VariantList {
        variants: Variant::ALL
            .into_iter()
            .map(|variant| VariantInfo {
                variant,
                army_size: variant.army_size(),
                army: variant
                    .army()
                    .map(|(piece, count)| ArmyPiece {
                        piece,
                        count,
                        strength: piece.strength(),
                        old_number: piece.old_number(),
                        movable: piece.is_movable(),
                    })
                    .collect(),
                setup_zones: SetupZones {
                    red: variant.zone(Color::Red).collect(),
                    blue: variant.zone(Color::Blue).collect(),
                },
                default_rules: Rules::default(),
                settings: settings(),
            })
            .collect(),
    }
}

/// The written example of the answer: the real one, cut to the duel (the
/// smallest army) to stay short.
fn example() -> VariantList {
    let mut list = variants();
    list.variants.retain(|info| info.variant == Variant::Duel);
    list
}

/// The variants: armies, setup zones, default rules and settings.
///
/// Needs no token. The answer only changes with a new server version.
#[utoipa::path(
    tag = "games",
    operation_id = "list_variants",
    responses(
        (status = 200, description = "Every variant (the example shows only the duel)",
         body = VariantList, example = json!(example())),
    )
)]
#[get("/variants")]
pub async fn list_variants() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .json(variants())
}
