//! The game operations: load the game, let `domain` decide, write the new
//! state with a versioned UPDATE (plus the action row) in one transaction,
//! and answer with the caller's view.

use actix_web::http::StatusCode;
use base64::Engine;
use chrono::{DateTime, Utc};
use domain::{Action, ActionError, Color, Game, MoveRecord, Placement, Rescue, Setup, Viewer};
use uuid::Uuid;

use super::events::Notice;
use super::model::{GameRecord, Status};
use super::requests::{
    ColorChoice, CreateGameRequest, DrawAction, ListQuery, DAYS_PER_MOVE, DEFAULT_DAYS_PER_MOVE,
};
use super::view::{self, game_view, GameSummary, GameView, MoveAnswer, MoveHistory, Names};
use super::write::{self, Answer, Change, Idempotency, WriteError};
use crate::auth::AuthUser;
use crate::db::{self, DbConnection, DbPool};
use crate::error::{ApiError, ProblemKind};
use crate::events::{EventPayload, Notifier};
use crate::state::AppState;
use crate::storage::games::{self as store, ActionRow, ListFilter, ListOrder};
use crate::storage::to_db_time;
use crate::storage::users;

/// Default and largest page size of `GET /games`.
pub const DEFAULT_PAGE: i64 = 20;
pub const MAX_PAGE: i64 = 100;

// ---------------------------------------------------------------- reading

fn load(conn: &mut DbConnection, id: Uuid) -> Result<GameRecord, ApiError> {
    let row =
        store::find(conn, &id.to_string())?.ok_or_else(|| ApiError::not_found("no such game"))?;
    GameRecord::from_row(&row)
}

fn names_for(conn: &mut DbConnection, records: &[&GameRecord]) -> Result<Names, ApiError> {
    let mut ids: Vec<String> = records
        .iter()
        .flat_map(|r| {
            [Some(r.creator), r.red, r.blue, r.challenged]
                .into_iter()
                .flatten()
        })
        .map(|u| u.to_string())
        .collect();
    ids.sort();
    ids.dedup();
    let mut names = Names::new();
    for (id, name) in store::usernames(conn, &ids)? {
        if let Ok(id) = Uuid::parse_str(&id) {
            names.insert(id, name);
        }
    }
    Ok(names)
}

/// The game as `viewer` (a user, or `None` for an anonymous spectator) may
/// see it, with its version. An overdue game is ended first.
pub async fn view_for(
    state: &AppState,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<(GameView, i64), ApiError> {
    settle(state, game_id).await?;
    db::run(&state.pool, move |conn| {
        let record = load(conn, game_id)?;
        let names = names_for(conn, &[&record])?;
        Ok((game_view(&record, &names, viewer), record.version))
    })
    .await
}

/// The current version of a game (cheap: for long polls).
pub async fn version_of(state: &AppState, game_id: Uuid) -> Result<i64, ApiError> {
    db::run(&state.pool, move |conn| Ok(load(conn, game_id)?.version)).await
}

/// The moves of a game as `viewer` may see them.
pub async fn history(
    state: &AppState,
    game_id: Uuid,
    viewer: Option<Uuid>,
) -> Result<MoveHistory, ApiError> {
    settle(state, game_id).await?;
    db::run(&state.pool, move |conn| {
        let record = load(conn, game_id)?;
        let who = view::viewer_of(&record, viewer);
        let mut moves = Vec::new();
        for row in store::actions(conn, &game_id.to_string())? {
            if let Some(text) = &row.record {
                let logged: MoveRecord = serde_json::from_str(text).map_err(ApiError::internal)?;
                moves.push(match &record.game {
                    Some(game) => game.move_view(&logged, who),
                    None => return Err(ApiError::internal("a logged move without a game")),
                });
            }
        }
        Ok(MoveHistory {
            game_id,
            version: record.version,
            moves,
        })
    })
    .await
}

/// A page of games.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct GamePage {
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

const CURSOR_NEWEST: &str = "n";
const CURSOR_DEADLINE: &str = "d";

fn encode_cursor(order: ListOrder, time: DateTime<Utc>, id: Uuid) -> String {
    let tag = match order {
        ListOrder::Newest => CURSOR_NEWEST,
        ListOrder::Deadline => CURSOR_DEADLINE,
    };
    let text = format!("{tag}|{}|{id}", time.timestamp_micros());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(text)
}

fn decode_cursor(cursor: &str, order: ListOrder) -> Result<(DateTime<Utc>, Uuid), ApiError> {
    let bad = || ApiError::bad_request("cursor is not a next_cursor of this listing");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor)
        .map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let mut parts = text.splitn(3, '|');
    let (Some(tag), Some(micros), Some(id)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    let expected = match order {
        ListOrder::Newest => CURSOR_NEWEST,
        ListOrder::Deadline => CURSOR_DEADLINE,
    };
    if tag != expected {
        return Err(bad());
    }
    let micros: i64 = micros.parse().map_err(|_| bad())?;
    let time = DateTime::from_timestamp_micros(micros).ok_or_else(bad)?;
    let id = Uuid::parse_str(id).map_err(|_| bad())?;
    Ok((time, id))
}

pub async fn list(state: &AppState, user: Uuid, query: ListQuery) -> Result<GamePage, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::bad_request(format!(
            "limit must be between 1 and {MAX_PAGE}"
        )));
    }
    // End whatever is overdue first (usually nothing: one indexed query),
    // so that no listing shows a game as running after its deadline.
    sweep_overdue(&state.pool, state.clock.now(), Some(&state.notifier)).await?;
    let my_turn = query.my_turn.unwrap_or(false);
    let order = if my_turn {
        ListOrder::Deadline
    } else {
        ListOrder::Newest
    };
    let after = query
        .cursor
        .as_deref()
        .map(|c| decode_cursor(c, order))
        .transpose()?
        .map(|(time, id)| (to_db_time(time), id.to_string()));
    let me = user.to_string();
    let filter = ListFilter {
        status: query.status.map(|s| s.as_str().to_owned()),
        mine: query.mine.unwrap_or(false).then(|| me.clone()),
        my_turn: my_turn.then(|| me.clone()),
        order,
        after,
        limit: limit + 1,
    };
    db::run(&state.pool, move |conn| {
        let rows = store::list(conn, &filter)?;
        let more = rows.len() as i64 > limit;
        let records = rows
            .iter()
            .take(usize::try_from(limit).unwrap_or(usize::MAX))
            .map(GameRecord::from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let refs: Vec<&GameRecord> = records.iter().collect();
        let names = names_for(conn, &refs)?;
        let next_cursor = match (more, records.last()) {
            (true, Some(last)) => {
                let time = match order {
                    ListOrder::Newest => Some(last.created_at),
                    ListOrder::Deadline => last.deadline,
                };
                time.map(|t| encode_cursor(order, t, last.id))
            }
            _ => None,
        };
        Ok(GamePage {
            games: records.iter().map(|r| view::summary(r, &names)).collect(),
            next_cursor,
        })
    })
    .await
}

// ---------------------------------------------------------------- writing

/// A condition on the game's version named by the request.
#[derive(Debug, Clone)]
pub enum Precondition {
    /// `expected_version` in the body: 409 when stale.
    Version(i64),
    /// `If-Match` with a view's ETag: 412 when stale.
    IfMatch(String),
}

impl Precondition {
    fn check(&self, record: &GameRecord, user: Uuid) -> Result<(), ApiError> {
        match self {
            Precondition::Version(expected) if *expected != record.version => Err(ApiError::new(
                ProblemKind::VersionConflict,
                format!(
                    "the game is at version {}, not {expected}; reload it",
                    record.version
                ),
            )),
            Precondition::IfMatch(header)
                if !view::tag_matches(
                    header,
                    &view::etag(record.id, record.version, Some(user)),
                ) =>
            {
                Err(ApiError::new(
                    ProblemKind::VersionConflict,
                    "If-Match does not name the current version of the game; reload it",
                )
                .with_status(StatusCode::PRECONDITION_FAILED))
            }
            _ => Ok(()),
        }
    }
}

/// What an operation on a loaded game decided.
struct Outcome {
    /// The domain action to append to the log (with its full record).
    log: Option<(Color, Action, Option<MoveRecord>)>,
    notices: Vec<Notice>,
    /// For moves: the record, answered as the mover sees it.
    moved: Option<MoveRecord>,
}

impl Outcome {
    fn plain(notices: Vec<Notice>) -> Outcome {
        Outcome {
            log: None,
            notices,
            moved: None,
        }
    }
}

fn wrong_phase(detail: impl Into<String>) -> ApiError {
    ApiError::new(ProblemKind::WrongPhase, detail)
}

/// The API answer to a refused domain action (its Display never names a
/// hidden rank).
pub fn action_error(error: ActionError) -> ApiError {
    let kind = match error {
        ActionError::NotYourTurn | ActionError::TimeoutNotOnTurn => ProblemKind::NotYourTurn,
        ActionError::Illegal(domain::IllegalMove::TwoSquareRule { .. }) => {
            ProblemKind::TwoSquareRule
        }
        ActionError::Illegal(_) => ProblemKind::IllegalMove,
        ActionError::GameOver
        | ActionError::DrawAlreadyOffered
        | ActionError::DrawOfferPending
        | ActionError::NoDrawOffer
        | ActionError::OwnDrawOffer => ProblemKind::WrongPhase,
    };
    ApiError::new(kind, error.to_string()).with_extension("reason", error.kind())
}

fn player_color(record: &GameRecord, user: Uuid, doing: &str) -> Result<Color, ApiError> {
    record
        .color_of(user)
        .ok_or_else(|| ApiError::forbidden(format!("only the players of this game may {doing}")))
}

/// Writes `record` (already changed in memory, still at its old version)
/// as the next version, with the logged action, or reports a lost race.
fn save(
    conn: &mut DbConnection,
    record: &mut GameRecord,
    now: DateTime<Utc>,
    log: Option<(Color, Action, Option<MoveRecord>)>,
) -> Result<(), WriteError> {
    let before = record.version;
    record.version = before + 1;
    record.updated_at = now;
    if !store::update_versioned(conn, &record.to_row()?, before)? {
        return Err(WriteError::Conflict);
    }
    if let Some((color, action, moved)) = log {
        let row = ActionRow {
            game_id: record.id.to_string(),
            seq: record.version,
            color: color.name().to_owned(),
            action: serde_json::to_string(&action).map_err(ApiError::internal)?,
            record: moved
                .map(|m| serde_json::to_string(&m))
                .transpose()
                .map_err(ApiError::internal)?,
            created_at: to_db_time(now),
        };
        store::insert_action(conn, &row)?;
    }
    Ok(())
}

/// Notices for a game that just ended.
fn finished_notices(record: &GameRecord) -> Vec<Notice> {
    match record.result() {
        Some(result) => record
            .players()
            .into_iter()
            .map(|u| {
                Notice::new(
                    u,
                    EventPayload::GameFinished {
                        game_id: record.id,
                        result,
                    },
                )
            })
            .collect(),
        None => Vec::new(),
    }
}

/// After the game changed in play: its status, deadline and who to tell.
fn after_play(
    record: &mut GameRecord,
    now: DateTime<Utc>,
    moved: Option<&MoveRecord>,
) -> Vec<Notice> {
    let Some(game) = &record.game else {
        return Vec::new();
    };
    if game.is_finished() {
        record.status = Status::Finished;
        record.deadline = None;
        return finished_notices(record);
    }
    record.status = Status::Playing;
    let Some(moved) = moved else {
        return Vec::new();
    };
    record.deadline = Some(record.deadline_from(now));
    let next = game.turn();
    match record.player(next) {
        Some(user) => vec![Notice::new(
            user,
            EventPayload::YourTurn {
                game_id: record.id,
                ply: game.ply(),
                opponent_move: Some(game.move_view(moved, Viewer::Player(next))),
            },
        )],
        None => Vec::new(),
    }
}

/// Runs `op` on game `game_id` for `user`, as one versioned write.
async fn act<F>(
    state: &AppState,
    user: Uuid,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
    precondition: Option<Precondition>,
    op: F,
) -> Result<Answer, ApiError>
where
    F: Fn(&mut GameRecord, DateTime<Utc>) -> Result<Outcome, ApiError> + Send + Sync + 'static,
{
    settle(state, game_id).await?;
    write::run(state, user, idempotency, move |conn, now| {
        let mut record = load(conn, game_id)?;
        // Preconditions concern the players' writes; anyone else is refused
        // by `op` with 403 whatever version they name.
        if let Some(condition) = precondition
            .as_ref()
            .filter(|_| record.color_of(user).is_some())
        {
            condition.check(&record, user)?;
        }
        if record.is_overdue(now) {
            return Err(wrong_phase("the deadline of this game has passed").into());
        }
        let outcome = op(&mut record, now)?;
        save(conn, &mut record, now, outcome.log)?;
        let names = names_for(conn, &[&record])?;
        let game = game_view(&record, &names, Some(user));
        let answer = match (outcome.moved, record.color_of(user), &record.game) {
            (Some(moved), Some(color), Some(state)) => Answer::ok(MoveAnswer {
                move_: state.move_view(&moved, Viewer::Player(color)),
                game,
            })?,
            _ => Answer::ok(game)?,
        };
        Ok(Change {
            answer,
            game: Some((record.id, record.version)),
            notices: outcome.notices,
        })
    })
    .await
}

pub async fn create(
    state: &AppState,
    user: &AuthUser,
    request: CreateGameRequest,
    idempotency: Option<Idempotency>,
) -> Result<Answer, ApiError> {
    let days = request.days_per_move.unwrap_or(DEFAULT_DAYS_PER_MOVE);
    if !DAYS_PER_MOVE.contains(&days) {
        return Err(ApiError::validation(format!(
            "days_per_move must be between {} and {}, not {days}",
            DAYS_PER_MOVE.start(),
            DAYS_PER_MOVE.end()
        )));
    }
    request
        .rules
        .validate()
        .map_err(|e| ApiError::validation(e.to_string()))?;
    let color = match request.color {
        ColorChoice::Red => Color::Red,
        ColorChoice::Blue => Color::Blue,
        ColorChoice::Random => {
            if rand::random::<bool>() {
                Color::Red
            } else {
                Color::Blue
            }
        }
    };
    let game_id = Uuid::new_v4();
    let creator = user.id;
    let creator_name = user.username.clone();
    write::run(state, creator, idempotency, move |conn, now| {
        let challenged = match &request.opponent {
            None => None,
            Some(name) => {
                let unknown = || ApiError::validation(format!("no user is named {name}"));
                // A string that cannot be a username is not looked up (no
                // user has it; PostgreSQL refuses a NUL character).
                if !crate::routes::auth::is_valid_username(name) {
                    return Err(unknown().into());
                }
                let row = users::find_by_username(conn, name)?.ok_or_else(unknown)?;
                let id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
                if id == creator {
                    return Err(ApiError::validation("you cannot challenge yourself").into());
                }
                Some(id)
            }
        };
        let record = GameRecord {
            id: game_id,
            variant: request.variant,
            rules: request.rules,
            status: Status::Waiting,
            version: 1,
            creator,
            red: (color == Color::Red).then_some(creator),
            blue: (color == Color::Blue).then_some(creator),
            challenged,
            days_per_move: days,
            red_setup: None,
            blue_setup: None,
            game: None,
            deadline: None,
            reminded_version: None,
            created_at: now,
            updated_at: now,
        };
        store::insert(conn, &record.to_row()?)?;
        let names = names_for(conn, &[&record])?;
        let notices = challenged
            .map(|to| {
                Notice::new(
                    to,
                    EventPayload::ChallengeReceived {
                        game_id,
                        from: creator_name.clone(),
                    },
                )
            })
            .into_iter()
            .collect();
        Ok(Change {
            answer: Answer::with_status(
                StatusCode::CREATED,
                game_view(&record, &names, Some(creator)),
            )?,
            game: Some((game_id, 1)),
            notices,
        })
    })
    .await
}

pub async fn join(
    state: &AppState,
    user: &AuthUser,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
) -> Result<Answer, ApiError> {
    let me = user.id;
    let my_name = user.username.clone();
    act(state, me, game_id, idempotency, None, move |record, now| {
        if record.creator == me || record.color_of(me).is_some() {
            return Err(ApiError::forbidden("you cannot join your own game"));
        }
        if record.status != Status::Waiting {
            return Err(wrong_phase(format!(
                "this game cannot be joined: it is {}",
                record.status.as_str()
            )));
        }
        if record.challenged.is_some_and(|c| c != me) {
            return Err(ApiError::forbidden(
                "this game is a challenge addressed to another user",
            ));
        }
        if record.red.is_none() {
            record.red = Some(me);
        } else if record.blue.is_none() {
            record.blue = Some(me);
        } else {
            return Err(wrong_phase("this game already has two players"));
        }
        record.status = Status::Setup;
        record.deadline = Some(record.deadline_from(now));
        Ok(Outcome::plain(vec![super::events::opponent_joined(
            record, &my_name,
        )]))
    })
    .await
}

pub async fn decline(
    state: &AppState,
    user: &AuthUser,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
) -> Result<Answer, ApiError> {
    let me = user.id;
    let my_name = user.username.clone();
    act(
        state,
        me,
        game_id,
        idempotency,
        None,
        move |record, _now| {
            if record.challenged != Some(me) {
                return Err(ApiError::forbidden(
                    "only the challenged user may decline a challenge",
                ));
            }
            // The challenged user who already accepted is refused for the
            // phase (they may abort during setup), not as a stranger.
            if record.color_of(me).is_some() {
                return Err(wrong_phase(
                    "the challenge was already accepted: abort the game instead",
                ));
            }
            if record.status != Status::Waiting {
                return Err(wrong_phase(format!(
                    "the challenge can no longer be declined: the game is {}",
                    record.status.as_str()
                )));
            }
            record.status = Status::Aborted;
            record.deadline = None;
            Ok(Outcome::plain(vec![Notice::new(
                record.creator,
                EventPayload::ChallengeDeclined {
                    game_id: record.id,
                    by: my_name.clone(),
                },
            )]))
        },
    )
    .await
}

pub async fn abort(
    state: &AppState,
    user: &AuthUser,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
) -> Result<Answer, ApiError> {
    let me = user.id;
    let my_name = user.username.clone();
    act(
        state,
        me,
        game_id,
        idempotency,
        None,
        move |record, _now| {
            player_color(record, me, "abort it")?;
            if !record.status.before_play() {
                return Err(wrong_phase(match record.status {
                    Status::Playing => "play has started: resign instead",
                    _ => "the game is already over",
                }));
            }
            record.status = Status::Aborted;
            record.deadline = None;
            Ok(Outcome::plain(super::events::game_aborted(
                record,
                Some((me, &my_name)),
            )))
        },
    )
    .await
}

/// Where a setup comes from.
#[derive(Debug, Clone)]
pub enum SetupSource {
    Placement(Placement),
    Random(u64),
}

pub async fn place_setup(
    state: &AppState,
    user: &AuthUser,
    game_id: Uuid,
    source: SetupSource,
    idempotency: Option<Idempotency>,
) -> Result<Answer, ApiError> {
    let me = user.id;
    act(state, me, game_id, idempotency, None, move |record, now| {
        let color = player_color(record, me, "place a setup")?;
        if !record.status.before_play() {
            return Err(wrong_phase(match record.status {
                Status::Playing => "play has started: setups can no longer change",
                _ => "the game is over",
            }));
        }
        let setup = match &source {
            SetupSource::Random(seed) => Setup::random(record.variant, color, *seed),
            SetupSource::Placement(placement) => placement
                .validate(record.variant, color)
                .map_err(|problems| setup_error(&problems))?,
        };
        record.set_setup(color, setup);
        let (Some(red), Some(blue), Status::Setup) =
            (&record.red_setup, &record.blue_setup, record.status)
        else {
            return Ok(Outcome::plain(Vec::new()));
        };
        // Both setups are in: play starts.
        let game = Game::new(record.variant, record.rules, red.clone(), blue.clone())
            .map_err(|e| ApiError::internal(format!("starting game {}: {e}", record.id)))?;
        record.game = Some(game);
        record.status = Status::Playing;
        record.deadline = Some(record.deadline_from(now));
        let mut notices: Vec<Notice> = record
            .players()
            .into_iter()
            .map(|u| Notice::new(u, EventPayload::GameStarted { game_id: record.id }))
            .collect();
        let finished = after_play(record, now, None);
        if finished.is_empty() {
            if let Some(red_user) = record.red {
                notices.push(Notice::new(
                    red_user,
                    EventPayload::YourTurn {
                        game_id: record.id,
                        ply: 0,
                        opponent_move: None,
                    },
                ));
            }
        }
        notices.extend(finished);
        Ok(Outcome::plain(notices))
    })
    .await
}

fn setup_error(problems: &[domain::SetupProblem]) -> ApiError {
    let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let detail = match listed.as_slice() {
        [one] => format!("the setup is invalid: {one}"),
        many => format!("the setup has {} problems: {}", many.len(), many.join("; ")),
    };
    ApiError::new(ProblemKind::InvalidSetup, detail).with_extension("problems", problems)
}

/// A move as parsed from the request.
#[derive(Debug, Clone, Copy)]
pub struct MoveInput {
    pub from: domain::Square,
    pub to: domain::Square,
    pub rescue: Option<Rescue>,
}

pub async fn play_move(
    state: &AppState,
    user: &AuthUser,
    game_id: Uuid,
    input: MoveInput,
    precondition: Option<Precondition>,
    idempotency: Option<Idempotency>,
) -> Result<Answer, ApiError> {
    let me = user.id;
    act(
        state,
        me,
        game_id,
        idempotency,
        precondition,
        move |record, now| {
            let color = player_color(record, me, "move")?;
            let game = match (&mut record.game, record.status) {
                (Some(game), Status::Playing) => game,
                (_, Status::Waiting | Status::Setup) => {
                    return Err(wrong_phase("play has not started yet"))
                }
                _ => return Err(wrong_phase("the game is over")),
            };
            let action = Action::Move {
                from: input.from,
                to: input.to,
                rescue: input.rescue,
            };
            let applied = game.apply(color, action).map_err(action_error)?;
            let moved = applied
                .record
                .ok_or_else(|| ApiError::internal("a move without a record"))?;
            let notices = after_play(record, now, Some(&moved));
            Ok(Outcome {
                log: Some((color, action, Some(moved))),
                notices,
                moved: Some(moved),
            })
        },
    )
    .await
}

/// Resignation and draw offers/answers: domain actions that are not moves.
pub async fn non_move_action(
    state: &AppState,
    user: &AuthUser,
    game_id: Uuid,
    action: Action,
    idempotency: Option<Idempotency>,
) -> Result<Answer, ApiError> {
    let me = user.id;
    act(state, me, game_id, idempotency, None, move |record, now| {
        let color = player_color(record, me, "do that")?;
        let game = match (&mut record.game, record.status) {
            (Some(game), Status::Playing) => game,
            (_, Status::Waiting | Status::Setup) => {
                return Err(wrong_phase(
                    "play has not started yet (abort the game instead)",
                ))
            }
            _ => return Err(wrong_phase("the game is over")),
        };
        game.apply(color, action).map_err(action_error)?;
        let mut notices = after_play(record, now, None);
        if action == Action::OfferDraw {
            if let Some(other) = record.player(color.opponent()) {
                notices.push(Notice::new(
                    other,
                    EventPayload::DrawOffered {
                        game_id: record.id,
                        by: color,
                    },
                ));
            }
        }
        Ok(Outcome {
            log: Some((color, action, None)),
            notices,
            moved: None,
        })
    })
    .await
}

pub fn draw_action(action: DrawAction) -> Action {
    match action {
        DrawAction::Offer => Action::OfferDraw,
        DrawAction::Accept => Action::AcceptDraw,
        DrawAction::Decline => Action::DeclineDraw,
    }
}

// ---------------------------------------------------------------- the clock

/// Ends `game_id` if its deadline has passed (so that no answer depends on
/// when the sweep last ran).
pub async fn settle(state: &AppState, game_id: Uuid) -> Result<(), ApiError> {
    let now = state.clock.now();
    // Only the status and deadline columns: this runs before every read
    // and write of a game, which then loads the game itself.
    let overdue = db::run(&state.pool, move |conn| {
        Ok(store::is_overdue(
            conn,
            &game_id.to_string(),
            to_db_time(now),
        )?)
    })
    .await?;
    if overdue {
        expire(&state.pool, now, game_id, Some(&state.notifier)).await?;
    }
    Ok(())
}

/// Ends every game whose deadline is before `now`: a timeout loss for the
/// player to move, or `aborted` when a setup never came. Safe to run in
/// several processes at once: each game is ended by exactly one versioned
/// write. Returns how many games THIS call ended.
pub async fn sweep_overdue(
    pool: &DbPool,
    now: DateTime<Utc>,
    notifier: Option<&Notifier>,
) -> Result<usize, ApiError> {
    const BATCH: i64 = 100;
    let mut ended = 0;
    loop {
        let ids = db::run(pool, move |conn| {
            Ok(store::overdue(conn, to_db_time(now), BATCH)?)
        })
        .await?;
        let mut progress = false;
        for id in &ids {
            let Ok(id) = Uuid::parse_str(id) else {
                continue;
            };
            if expire(pool, now, id, notifier).await? {
                ended += 1;
                progress = true;
            }
        }
        // Fewer than a batch: done. No progress: other processes are
        // ending these games; leave them to it.
        if (ids.len() as i64) < BATCH || !progress {
            return Ok(ended);
        }
    }
}

/// Ends one overdue game; `false` if it was not (or no longer) overdue.
pub async fn expire(
    pool: &DbPool,
    now: DateTime<Utc>,
    game_id: Uuid,
    notifier: Option<&Notifier>,
) -> Result<bool, ApiError> {
    const ATTEMPTS: usize = 8;
    for _ in 0..ATTEMPTS {
        let outcome = db::run(pool, move |conn| {
            Ok(db::write_transaction(conn, |conn| {
                expire_in_transaction(conn, now, game_id)
            }))
        })
        .await?;
        match outcome {
            Ok(Some((version, notices))) => {
                if let Some(notifier) = notifier {
                    notifier.game_changed(game_id, version);
                    for notice in &notices {
                        notifier.user_event(notice.to);
                    }
                }
                return Ok(true);
            }
            Ok(None) => return Ok(false),
            Err(WriteError::Conflict) => continue,
            Err(WriteError::Api(error)) => return Err(error),
        }
    }
    Ok(false)
}

fn expire_in_transaction(
    conn: &mut DbConnection,
    now: DateTime<Utc>,
    game_id: Uuid,
) -> Result<Option<(i64, Vec<Notice>)>, WriteError> {
    let Some(row) = store::find(conn, &game_id.to_string())? else {
        return Ok(None);
    };
    let mut record = GameRecord::from_row(&row)?;
    if !record.is_overdue(now) {
        return Ok(None);
    }
    let (log, notices) = match record.status {
        Status::Playing => {
            let game = record
                .game
                .as_mut()
                .ok_or_else(|| ApiError::internal("a game in play without a state"))?;
            let late = game.turn();
            game.apply(late, Action::Timeout)
                .map_err(|e| ApiError::internal(format!("timeout of game {game_id}: {e}")))?;
            let notices = after_play(&mut record, now, None);
            (Some((late, Action::Timeout, None)), notices)
        }
        _ => {
            // A setup never came: the game did not start, so nobody loses.
            record.status = Status::Aborted;
            record.deadline = None;
            (None, super::events::game_aborted(&record, None))
        }
    };
    save(conn, &mut record, now, log)?;
    super::events::record(conn, now, &notices)?;
    Ok(Some((record.version, notices)))
}

/// Forgets idempotency keys older than their time to live.
pub async fn purge_idempotency_keys(pool: &DbPool, now: DateTime<Utc>) -> Result<usize, ApiError> {
    let before = to_db_time(now - chrono::Duration::hours(write::IDEMPOTENCY_TTL_HOURS));
    db::run(pool, move |conn| {
        Ok(store::purge_idempotency(conn, before)?)
    })
    .await
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn cursors_round_trip_and_belong_to_their_ordering() {
        let time = DateTime::from_timestamp_micros(1_795_000_000_123_456).unwrap();
        let id = Uuid::new_v4();
        let cursor = encode_cursor(ListOrder::Newest, time, id);
        assert_eq!(
            decode_cursor(&cursor, ListOrder::Newest).unwrap(),
            (time, id)
        );
        assert!(decode_cursor(&cursor, ListOrder::Deadline).is_err());
        assert!(decode_cursor("not a cursor", ListOrder::Newest).is_err());
        assert!(decode_cursor("", ListOrder::Newest).is_err());
    }

    #[test]
    fn domain_refusals_keep_their_codes() {
        let illegal = action_error(ActionError::Illegal(domain::IllegalMove::Diagonal {
            from: "a1".parse().unwrap(),
            to: "b2".parse().unwrap(),
        }));
        assert_eq!(illegal.kind(), ProblemKind::IllegalMove);
        assert_eq!(illegal.body()["reason"], "diagonal");
        assert_eq!(
            action_error(ActionError::NotYourTurn).kind(),
            ProblemKind::NotYourTurn
        );
        assert_eq!(
            action_error(ActionError::NoDrawOffer).kind(),
            ProblemKind::WrongPhase
        );
        let two = action_error(ActionError::Illegal(domain::IllegalMove::TwoSquareRule {
            from: "a5".parse().unwrap(),
            to: "a4".parse().unwrap(),
            limit: 3,
        }));
        assert_eq!(two.kind(), ProblemKind::TwoSquareRule);
    }
}
