//! What each change to an existing game decides (docs/architecture.md,
//! "The write pipeline", stage 2): every change is a [`Command`] value,
//! and [`decide`] is the one place that says, for each, how the game
//! changes (in memory) and whom to tell, or why it is refused; [`answer`]
//! says what the caller is answered. Pure: no database, no clock (the time
//! is a value), no HTTP. The command files build a `Command` and hand it to
//! the pipeline; nothing is called back up.

use chrono::{DateTime, Utc};
use domain::{Action, Color, Game, MoveRecord, Setup, Viewer};
use serde::Serialize;
use uuid::Uuid;

use super::answers::{GameView, MoveAnswer};
use super::error::GameError;
use super::notices::{self, EventPayload, Notice};
use super::pipeline::Actor;
use super::play::MoveInput;
use super::record::{ClockAct, GameRecord, Phase};

/// Every change to an existing game. Who asks is the pipeline's
/// [`Actor`]; the names are the caller's, for the notices.
#[derive(Debug, Clone)]
pub enum Command {
    /// Take the open seat, or accept a challenge.
    Join { name: String },
    /// Turn a challenge down.
    Decline { name: String },
    /// End a game before play starts.
    Abort { name: String },
    /// Place (or replace) the caller's setup.
    Setup(ChosenSetup),
    /// Make a move.
    Move(MoveInput),
    /// An action in play that is not a move: resign, or a draw offer or
    /// its answer.
    InPlay(Action),
    /// A deleted account leaves a game not yet over: a challenge to it is
    /// declined, a game before play aborted, a game in play resigned.
    Leave { name: String },
    /// The clock ends a game past its deadline.
    TimeOut,
}

/// A setup as the command carries it (a saved one already read).
#[derive(Debug, Clone)]
pub enum ChosenSetup {
    Placement(domain::Placement),
    Random(u64),
    /// From the caller's library, as written for Red.
    Saved(Setup),
}

/// What a command decided about a loaded game (already changed in memory).
pub struct Decision {
    /// The domain action to append to the log (with its full record).
    pub log: Option<(Color, Action, Option<MoveRecord>)>,
    pub notices: Vec<Notice>,
    /// A move by a player on vacation: their clock runs again here, and
    /// their vacation is to end everywhere (docs/lifecycle.md, "Vacation").
    pub back_from_vacation: bool,
}

impl Decision {
    pub fn plain(notices: Vec<Notice>) -> Decision {
        Decision {
            log: None,
            notices,
            back_from_vacation: false,
        }
    }
}

/// What the caller of a command is answered; each serialises as its
/// content alone, so a stored answer reads as the command's own.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// The caller's new view.
    View(Box<GameView>),
    /// A move: the move as the mover sees it, and the mover's new view.
    Move(Box<MoveAnswer>),
    /// Nothing (the clock; an account's deletion).
    Nothing,
}

/// Stage 2 of the pipeline: `command` by `actor` on `record`, at `now`.
pub fn decide(
    command: &Command,
    actor: Actor,
    record: &mut GameRecord,
    now: DateTime<Utc>,
) -> Result<Decision, GameError> {
    let me = || {
        actor
            .user()
            .ok_or_else(|| GameError::internal("a player's command without its player"))
    };
    let running = record.running();
    let mut decision = match command {
        Command::Join { name } => join(record, me()?, name),
        Command::Decline { name } => decline(record, me()?, name),
        // A tournament's game is not the players' to call off: it is
        // forfeited by leaving the tournament (docs/tournaments.md).
        Command::Abort { .. }
            if record.tournament.is_some() && record.color_of(me()?).is_some() =>
        {
            Err(GameError::wrong_phase(
                "a tournament game cannot be aborted: leave the tournament to forfeit it",
            ))
        }
        Command::Abort { name } => abort(record, me()?, name),
        Command::Setup(setup) => place_setup(record, me()?, setup),
        Command::Move(input) => play(record, me()?, *input),
        Command::InPlay(action) => in_play(record, me()?, *action),
        Command::Leave { name } => leave(record, me()?, name),
        Command::TimeOut => time_out(record),
    }?;
    let mine = || actor.user().and_then(|me| record.color_of(me));
    let acted = match command {
        Command::Move(_) => mine().map_or(ClockAct::Other, ClockAct::Moved),
        Command::Setup(_) => mine().map_or(ClockAct::Other, ClockAct::SetUp),
        _ => ClockAct::Other,
    };
    record.settle_clocks(&running, acted, now);
    if let ClockAct::Moved(color) = acted {
        decision.back_from_vacation = record.resume_clock(color, now);
    }
    Ok(decision)
}

/// What the caller of `command` is answered, from the changed game, the
/// caller's new view of it and the move just made (for moves).
pub fn answer(
    command: &Command,
    actor: Actor,
    record: &GameRecord,
    mut view: GameView,
    moved: Option<&MoveRecord>,
    back_from_vacation: bool,
) -> Result<Answer, GameError> {
    match (command, actor) {
        (Command::Move(_), Actor::User(me)) => {
            let (Some(moved), Some(color), Some(state)) =
                (moved, record.color_of(me), record.game())
            else {
                return Err(GameError::internal("a move answer without its move"));
            };
            Ok(Answer::Move(Box::new(MoveAnswer {
                move_: state.move_view(moved, Viewer::Player(color)),
                game: view,
                back_from_vacation,
            })))
        }
        // The game's names were read before the caller sat down: the
        // answer takes the caller's own from the request, as every later
        // view reads it from the game.
        (Command::Join { name }, Actor::User(me)) => {
            let seats = [
                view.header.players.red.as_mut(),
                view.header.players.blue.as_mut(),
            ];
            for seat in seats.into_iter().flatten().filter(|seat| seat.id == me) {
                seat.username.clone_from(name);
            }
            Ok(Answer::View(Box::new(view)))
        }
        (Command::Leave { .. } | Command::TimeOut, _) => Ok(Answer::Nothing),
        _ => Ok(Answer::View(Box::new(view))),
    }
}

/// The color `user` plays, or a refusal naming what only players may do.
pub fn player_color(record: &GameRecord, user: Uuid, doing: &str) -> Result<Color, GameError> {
    record
        .color_of(user)
        .ok_or_else(|| GameError::forbidden(format!("only the players of this game may {doing}")))
}

/// After an action in play: the phase (finished?), and who to tell.
/// `moved`: the move just made, if it was one.
fn after_play(record: &mut GameRecord, moved: Option<&MoveRecord>) -> Vec<Notice> {
    record.close_if_over();
    let Phase::Playing(game) = &record.phase else {
        return notices::game_finished(record);
    };
    let Some(moved) = moved else {
        return Vec::new();
    };
    let next = game.turn();
    let notice = record.player(next).map(|user| {
        Notice::new(
            user,
            EventPayload::YourTurn {
                game_id: record.id,
                ply: game.ply(),
                opponent_move: Some(game.move_view(moved, Viewer::Player(next))),
            },
        )
    });
    notice.into_iter().collect()
}

/// `me` (named `my_name`) takes a seat: the setup phase and its clock start.
fn join(record: &mut GameRecord, me: Uuid, my_name: &str) -> Result<Decision, GameError> {
    if record.creator == me || record.color_of(me).is_some() {
        return Err(GameError::forbidden("you cannot join your own game"));
    }
    if !matches!(record.phase, Phase::Waiting) {
        return Err(GameError::wrong_phase(format!(
            "this game cannot be joined: it is {}",
            record.status().as_str()
        )));
    }
    if record.challenged.is_some_and(|c| c != me) {
        return Err(GameError::forbidden(
            "this game is a challenge addressed to another user",
        ));
    }
    if record.red.is_none() {
        record.red = Some(me);
    } else if record.blue.is_none() {
        record.blue = Some(me);
    } else {
        return Err(GameError::wrong_phase("this game already has two players"));
    }
    record.phase = Phase::Setup;
    Ok(Decision::plain(vec![notices::opponent_joined(
        record, my_name,
    )]))
}

/// `me` (named `my_name`) declines the challenge `record` is.
fn decline(record: &mut GameRecord, me: Uuid, my_name: &str) -> Result<Decision, GameError> {
    if record.challenged != Some(me) {
        return Err(GameError::forbidden(
            "only the challenged user may decline a challenge",
        ));
    }
    // The challenged user who already accepted is refused for the phase
    // (they may abort during setup), not as a stranger.
    if record.color_of(me).is_some() {
        return Err(GameError::wrong_phase(
            "the challenge was already accepted: abort the game instead",
        ));
    }
    if !matches!(record.phase, Phase::Waiting) {
        return Err(GameError::wrong_phase(format!(
            "the challenge can no longer be declined: the game is {}",
            record.status().as_str()
        )));
    }
    record.phase = Phase::Aborted;
    Ok(Decision::plain(vec![Notice::new(
        record.creator,
        EventPayload::ChallengeDeclined {
            game_id: record.id,
            by: my_name.to_owned(),
        },
    )]))
}

/// `me` (named `my_name`) aborts `record` before play starts.
fn abort(record: &mut GameRecord, me: Uuid, my_name: &str) -> Result<Decision, GameError> {
    player_color(record, me, "abort it")?;
    match record.phase {
        Phase::Waiting | Phase::Setup => {}
        Phase::Playing(_) => {
            return Err(GameError::wrong_phase("play has started: resign instead"))
        }
        Phase::Finished(_) | Phase::Aborted => {
            return Err(GameError::wrong_phase("the game is already over"))
        }
    }
    record.phase = Phase::Aborted;
    Ok(Decision::plain(notices::game_aborted(
        record,
        Some((me, my_name)),
    )))
}

/// `me` places `chosen`; play starts when both setups are in.
fn place_setup(
    record: &mut GameRecord,
    me: Uuid,
    chosen: &ChosenSetup,
) -> Result<Decision, GameError> {
    let color = player_color(record, me, "place a setup")?;
    match record.phase {
        Phase::Waiting | Phase::Setup => {}
        Phase::Playing(_) => {
            return Err(GameError::wrong_phase(
                "play has started: setups can no longer change",
            ))
        }
        Phase::Finished(_) | Phase::Aborted => {
            return Err(GameError::wrong_phase("the game is over"))
        }
    }
    let setup = match chosen {
        ChosenSetup::Random(seed) => Setup::random(record.variant, color, *seed),
        ChosenSetup::Placement(placement) => placement
            .validate(record.variant, color)
            .map_err(GameError::InvalidSetup)?,
        ChosenSetup::Saved(setup) => setup.for_color(color),
    };
    record.setups.set(setup);
    let (Some((red, blue)), Phase::Setup) = (record.setups.both(), &record.phase) else {
        return Ok(Decision::plain(Vec::new()));
    };
    // Both setups are in: play starts.
    let game = Game::new(record.variant, record.rules, red.clone(), blue.clone())
        .map_err(|e| GameError::internal(format!("starting game {}: {e}", record.id)))?;
    record.phase = Phase::Playing(Box::new(game));
    let mut notices: Vec<Notice> = record
        .players()
        .into_iter()
        .map(|u| Notice::new(u, EventPayload::GameStarted { game_id: record.id }))
        .collect();
    let finished = after_play(record, None);
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
    Ok(Decision::plain(notices))
}

/// `me` makes the move `input`.
fn play(record: &mut GameRecord, me: Uuid, input: MoveInput) -> Result<Decision, GameError> {
    let color = player_color(record, me, "move")?;
    let game = match &mut record.phase {
        Phase::Playing(game) => game,
        Phase::Waiting | Phase::Setup => {
            return Err(GameError::wrong_phase("play has not started yet"))
        }
        Phase::Finished(_) | Phase::Aborted => {
            return Err(GameError::wrong_phase("the game is over"))
        }
    };
    let action = Action::Move {
        from: input.from,
        to: input.to,
        rescue: input.rescue,
    };
    let applied = game.apply(color, action).map_err(GameError::Refused)?;
    let moved = applied
        .record
        .ok_or_else(|| GameError::internal("a move without a record"))?;
    let notices = after_play(record, Some(&moved));
    Ok(Decision {
        log: Some((color, action, Some(moved))),
        notices,
        back_from_vacation: false,
    })
}

/// Player `me` takes `action` (not a move) in a game in play.
fn in_play(record: &mut GameRecord, me: Uuid, action: Action) -> Result<Decision, GameError> {
    let color = player_color(record, me, "do that")?;
    let game = match &mut record.phase {
        Phase::Playing(game) => game,
        Phase::Waiting | Phase::Setup => {
            return Err(GameError::wrong_phase(
                "play has not started yet (abort the game instead)",
            ))
        }
        Phase::Finished(_) | Phase::Aborted => {
            return Err(GameError::wrong_phase("the game is over"))
        }
    };
    game.apply(color, action).map_err(GameError::Refused)?;
    let mut notices = after_play(record, None);
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
    Ok(Decision {
        log: Some((color, action, None)),
        notices,
        back_from_vacation: false,
    })
}

/// The deleted account `me` (named `name`) leaves a game not yet over.
fn leave(record: &mut GameRecord, me: Uuid, name: &str) -> Result<Decision, GameError> {
    match record.phase {
        Phase::Finished(_) | Phase::Aborted => Err(GameError::wrong_phase("already over")),
        Phase::Waiting if record.color_of(me).is_none() => decline(record, me, name),
        Phase::Waiting | Phase::Setup => abort(record, me, name),
        Phase::Playing(_) => in_play(record, me, Action::Resign),
    }
}

/// What the clock decides about a game past its deadline: a timeout loss
/// for the player to move, or, when a setup never came, `aborted` (the
/// game did not start, so nobody loses).
fn time_out(record: &mut GameRecord) -> Result<Decision, GameError> {
    let game_id = record.id;
    match &mut record.phase {
        Phase::Playing(game) => {
            let late = game.turn();
            game.apply(late, Action::Timeout)
                .map_err(|e| GameError::internal(format!("timeout of game {game_id}: {e}")))?;
            let notices = after_play(record, None);
            Ok(Decision {
                log: Some((late, Action::Timeout, None)),
                notices,
                back_from_vacation: false,
            })
        }
        _ => {
            record.phase = Phase::Aborted;
            Ok(Decision::plain(notices::game_aborted(record, None)))
        }
    }
}
