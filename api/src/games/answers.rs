//! What a caller receives about a game: typed answers, turned into JSON by
//! the routes. Everything about the board comes from the domain's
//! per-viewer views (`View`, `MoveView`, `Setups::view`: types only the
//! domain can build, that cannot hold a rank the viewer may not know).
//! Nothing here reads the full state.

use chrono::{DateTime, Utc};
use domain::{
    ByColor, Captured, Color, GameResult, Move, MoveView, PieceView, Rules, TimeControl, Variant,
    Viewer,
};
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use super::clocks::{ClocksView, LiveClocks};
use super::docs::{
    CapturedDoc, ColorDoc, GameResultDoc, MoveDoc, MoveViewDoc, PieceViewDoc, RulesViewDoc,
    TimeControlDoc, VariantDoc,
};
use super::record::GameRecord;
use super::record::Status;

pub use super::fetch::Names;

/// A user taking part in a game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerRef {
    pub id: Uuid,
    /// `[deleted]` once the account was deleted
    pub username: String,
    /// Whether the account was deleted (docs/accounts.md)
    pub deleted: bool,
}

/// Who sits on each side (`null`: the seat is still open).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Players {
    #[schema(required = true)]
    pub red: Option<PlayerRef>,
    #[schema(required = true)]
    pub blue: Option<PlayerRef>,
}

/// Whether each player's setup is in (public; the setups themselves are not).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct SetupDone {
    pub red: bool,
    pub blue: bool,
}

/// Rescues made so far by each player.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct RescuesUsed {
    pub red: u8,
    pub blue: u8,
}

/// The facts of a game that are the same for everyone who may see it:
/// what the view, the summary in a list and the record all open with,
/// built once by [`GameHeader::of`]. Nothing in it is hidden from anyone.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameHeader {
    pub id: Uuid,
    #[schema(value_type = VariantDoc)]
    pub variant: Variant,
    /// The complete rules in force.
    #[schema(value_type = RulesViewDoc)]
    pub rules: Rules,
    pub status: Status,
    /// +1 with every change to the game.
    pub version: i64,
    /// Plies played so far.
    pub ply: u32,
    /// Whose move it is (`null` before play starts; when finished: who would
    /// have moved next).
    #[schema(value_type = Option<ColorDoc>, required = true)]
    pub turn: Option<Color>,
    pub players: Players,
    pub creator: PlayerRef,
    /// The user a challenge is addressed to (`null`: an open seat).
    #[schema(required = true)]
    pub opponent: Option<PlayerRef>,
    /// The time a move is given, in whole days: the days of `per_move`;
    /// for the other time controls, what they give a move on average
    /// (`time_control` says exactly).
    pub days_per_move: i32,
    #[schema(value_type = TimeControlDoc)]
    pub time_control: TimeControl,
    /// Whether the game counts for ratings (docs/ratings.md).
    pub rated: bool,
    /// The tournament the game is part of, and its round; `null` for any
    /// other game (docs/tournaments.md).
    #[schema(required = true)]
    pub tournament: Option<TournamentLink>,
    /// How the game ended; `null` until it is finished.
    #[schema(value_type = Option<GameResultDoc>, required = true)]
    pub result: Option<GameResult>,
    pub setup_done: SetupDone,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The game as one caller may see it (a player, or a spectator). It never
/// holds a rank the caller may not know: an opponent's unrevealed piece has
/// `piece: null`; before play starts `board` shows only the caller's own
/// setup (spectators see no pieces then); once the game is finished every
/// piece is revealed to everyone.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameView {
    #[serde(flatten)]
    pub header: GameHeader,
    /// The caller's color; `null` for a spectator.
    #[schema(value_type = Option<ColorDoc>, required = true)]
    pub you: Option<Color>,
    /// Occupied squares only, `a1` .. `j10`.
    #[schema(value_type = Vec<PieceViewDoc>)]
    pub board: Vec<PieceView>,
    /// Pieces of each color removed from the board: the ranks the caller
    /// knows, in capture order, then `null` for each rank the caller may
    /// not know (only under `silent_defense`).
    #[schema(value_type = CapturedDoc)]
    pub captured: Captured,
    /// The last ply as the caller may see it; `null` before the first.
    #[schema(value_type = Option<MoveViewDoc>, required = true)]
    pub last_move: Option<MoveView>,
    /// Present, and complete, only when it is the caller's turn in play;
    /// absent otherwise (never `null`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Vec<MoveDoc>)]
    pub legal_moves: Option<Vec<Move>>,
    /// The color with a pending draw offer; `null` when there is none.
    #[schema(value_type = Option<ColorDoc>, required = true)]
    pub draw_offer: Option<Color>,
    pub rescues_used: RescuesUsed,
    /// Plies since the last battle (for `max_plies_without_battle`).
    pub plies_without_battle: u32,
    /// When the player to move (in the setup phase: the first player
    /// still to place a setup) runs out of time and loses (a missing setup
    /// aborts the game); `null` while waiting for an opponent, while that
    /// player is on vacation, and once the game is over. As of this
    /// answer; the same version of the game may be answered later with
    /// another (docs/lifecycle.md, "Clocks").
    #[schema(required = true)]
    pub deadline: Option<DateTime<Utc>>,
    /// Both players' clocks as of this answer; `null` before the setup
    /// phase. Written last, after `deadline`.
    #[schema(required = true)]
    pub clocks: Option<ClocksView>,
}

/// The tournament a game is part of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"id": "6f1c2a9e-3b7d-4e0a-9c55-2d8f0b4a7e13", "round": 2}))]
pub struct TournamentLink {
    /// `GET /api/v1/tournaments/{id}`
    pub id: Uuid,
    /// The round the game belongs to (from 1)
    pub round: u32,
}

impl TournamentLink {
    pub fn of(record: &GameRecord) -> Option<TournamentLink> {
        record
            .tournament
            .map(|(id, round)| TournamentLink { id, round })
    }
}

/// A game in a list: public facts only, no board.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameSummary {
    #[serde(flatten)]
    pub header: GameHeader,
    /// As in the game's view: when the player to move runs out of time
    /// (`null` while on vacation), as of this answer.
    #[schema(required = true)]
    pub deadline: Option<DateTime<Utc>>,
}

/// The answer to a move: the move as the mover sees it, and the mover's new
/// view of the game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MoveAnswer {
    #[serde(rename = "move")]
    #[schema(value_type = MoveViewDoc)]
    pub move_: MoveView,
    pub game: GameView,
    /// The mover was on vacation: it is to end (not sent).
    #[serde(skip)]
    pub back_from_vacation: bool,
}

/// The move history as the caller may see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MoveHistory {
    pub game_id: Uuid,
    pub version: i64,
    #[schema(value_type = Vec<MoveViewDoc>)]
    pub moves: Vec<MoveView>,
}

fn player_ref(names: &Names, id: Uuid) -> PlayerRef {
    let username = names.get(&id).cloned().unwrap_or_default();
    PlayerRef {
        id,
        deleted: username == crate::username::DELETED_USERNAME,
        username,
    }
}

pub(super) fn players(record: &GameRecord, names: &Names) -> Players {
    Players {
        red: record.red.map(|u| player_ref(names, u)),
        blue: record.blue.map(|u| player_ref(names, u)),
    }
}

fn setup_done(record: &GameRecord) -> SetupDone {
    let done = record.setups.done();
    SetupDone {
        red: done.red,
        blue: done.blue,
    }
}

/// The caller's view of the game at `now`.
pub fn game_view(
    record: &GameRecord,
    names: &Names,
    user: Option<Uuid>,
    now: DateTime<Utc>,
) -> GameView {
    let you = user.and_then(|u| record.color_of(u));
    let clocks = LiveClocks::of_record(record).at(now);
    let mut view = GameView {
        header: GameHeader::of(record, names),
        you,
        board: Vec::new(),
        captured: ByColor::default(),
        last_move: None,
        legal_moves: None,
        draw_offer: None,
        rescues_used: RescuesUsed { red: 0, blue: 0 },
        plies_without_battle: 0,
        deadline: clocks.deadline,
        clocks: clocks.clocks,
    };
    match record.game() {
        Some(game) => {
            let seen = game.view(Viewer::from_color(you));
            view.board = seen.board;
            view.captured = seen.captured;
            view.last_move = seen.last_move;
            view.legal_moves = seen.legal_moves;
            view.draw_offer = seen.draw_offer;
            view.rescues_used = RescuesUsed {
                red: seen.rescues_used.red,
                blue: seen.rescues_used.blue,
            };
            view.plies_without_battle = seen.plies_without_battle;
        }
        None => view.board = record.setups.view(Viewer::from_color(you)),
    }
    view
}

impl GameHeader {
    /// The header of `record`, whose usernames are `names`.
    pub fn of(record: &GameRecord, names: &Names) -> GameHeader {
        GameHeader {
            id: record.id,
            variant: record.variant,
            rules: record.rules,
            status: record.status(),
            version: record.version,
            ply: record.game().map_or(0, domain::Game::ply),
            turn: record.turn(),
            players: players(record, names),
            creator: player_ref(names, record.creator),
            opponent: record.challenged.map(|u| player_ref(names, u)),
            days_per_move: days_per_move(record),
            time_control: record.time_control,
            rated: record.rated,
            tournament: TournamentLink::of(record),
            result: record.result(),
            setup_done: setup_done(record),
            created_at: record.created_at,
            updated_at: record.updated_at,
        }
    }
}

fn days_per_move(record: &GameRecord) -> i32 {
    i32::try_from(record.time_control.days_per_move()).unwrap_or(i32::MAX)
}

/// A game in a list, at `now`.
pub fn summary(record: &GameRecord, names: &Names, now: DateTime<Utc>) -> GameSummary {
    GameSummary {
        header: GameHeader::of(record, names),
        deadline: LiveClocks::of_record(record).at(now).deadline,
    }
}

/// The `ETag` of a view: an opaque hash of game id, version and viewer, so
/// it tells nothing else (and nothing about the board).
pub fn etag(game: Uuid, version: i64, viewer: Option<Uuid>) -> String {
    let viewer = viewer.map_or_else(|| "-".to_owned(), |u| u.to_string());
    opaque_tag(&format!("{game}:{version}:{viewer}"))
}

/// The `ETag` of another representation of the same view (a picture, a
/// record): the view's inputs and the representation's name (`svg:red`,
/// `export:gravon`), hashed the same way, so it reveals no more.
pub fn representation_etag(
    game: Uuid,
    version: i64,
    viewer: Option<Uuid>,
    representation: &str,
) -> String {
    let viewer = viewer.map_or_else(|| "-".to_owned(), |u| u.to_string());
    opaque_tag(&format!("{game}:{version}:{viewer}:{representation}"))
}

fn opaque_tag(input: &str) -> String {
    let digest = Sha256::digest(input.as_bytes());
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut tag = String::with_capacity(34);
    tag.push('"');
    for b in digest.iter().take(16) {
        tag.push(char::from(HEX[usize::from(b >> 4)]));
        tag.push(char::from(HEX[usize::from(b & 15)]));
    }
    tag.push('"');
    tag
}

/// Whether an `If-Match` / `If-None-Match` header value names `tag`
/// (a comma-separated list, `*`, weak tags compared weakly).
pub fn tag_matches(header: &str, tag: &str) -> bool {
    header.split(',').map(str::trim).any(|candidate| {
        candidate == "*" || candidate.strip_prefix("W/").unwrap_or(candidate) == tag
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn etags_are_opaque_and_per_viewer() {
        let game = Uuid::new_v4();
        let (ann, bob) = (Uuid::new_v4(), Uuid::new_v4());
        let tag = etag(game, 7, Some(ann));
        assert_eq!(tag.len(), 34);
        assert!(tag.starts_with('"') && tag.ends_with('"'));
        assert!(!tag.contains(&game.to_string()) && !tag.contains(&ann.to_string()));
        assert_eq!(tag, etag(game, 7, Some(ann)));
        assert_ne!(tag, etag(game, 8, Some(ann)));
        assert_ne!(tag, etag(game, 7, Some(bob)));
        assert_ne!(tag, etag(game, 7, None));
        let svg = representation_etag(game, 7, Some(ann), "svg:red");
        assert_eq!(svg.len(), 34);
        assert_ne!(svg, tag);
        assert_ne!(svg, representation_etag(game, 7, Some(ann), "svg:blue"));
        assert_ne!(svg, representation_etag(game, 8, Some(ann), "svg:red"));
    }

    #[test]
    fn tags_match_in_lists_weakly_and_by_star() {
        let tag = "\"abc\"";
        assert!(tag_matches("\"abc\"", tag));
        assert!(tag_matches("W/\"abc\"", tag));
        assert!(tag_matches("\"x\", \"abc\"", tag));
        assert!(tag_matches("*", tag));
        assert!(!tag_matches("\"abd\"", tag));
        assert!(!tag_matches("abc", tag));
    }
}
