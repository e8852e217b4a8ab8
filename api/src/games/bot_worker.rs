//! The bots at work (docs/bots.md): one task per bot in every server
//! process. It wakes when its bot gets an event (a challenge, its turn, a
//! draw offer: the in-process `Notifier`, fed across processes by
//! `LISTEN`), and every `BOT_RESCAN_SECONDS` anyway; then it looks for the
//! games waiting for its bot and answers each through the same commands a
//! person's request goes through (`join`, `place_setup`, `play_move`,
//! `draw`), so a bot's action is versioned, evented and clocked like
//! anyone's.
//!
//! With several processes on one database each answer is given once:
//! before thinking, a process claims the game at the version it read
//! (`storage::bots::claim`); the others skip it. A move is sent with that
//! version as `expected_version`, so even a claim that ran out while its
//! process was still thinking cannot lead to a second move. A claim held
//! by a process that stopped runs out after `CLAIM_SECONDS` (or
//! `BOT_THINK_MILLIS` times ten, if longer) and the next look of any
//! process answers instead.
//!
//! The decision itself is `domain::bot`, given the bot's own view and the
//! history as its player saw it (`Game::view` and `Game::move_view` for
//! its color), never the game.

use std::time::{Duration, Instant};

use chrono::Utc;
use domain::bot::{decision_seed, DrawAnswer, Situation};
use domain::{Color, Move, Viewer};
use uuid::Uuid;

use super::bots::{BotAccount, BOTS};
use super::error::GameError;
use super::fetch::load;
use super::history::moves_of;
use super::play::MoveInput;
use super::record::{GameRecord, Phase};
use super::requests::DrawAction;
use super::setup::SetupSource;
use super::step::Precondition;
use super::{draw, join, play, setup, Caller, Context};
use crate::db;
use crate::events::Wake;
use crate::storage::bots as store;
use crate::storage::to_db_time;

/// The shortest time a claim holds.
pub const CLAIM_SECONDS: u64 = 30;
/// Games looked at per pass and bot.
const BATCH: i64 = 100;
/// Actions in one game per pass (accepting, then the setup, then perhaps
/// the first move): enough for any sequence a bot has to make at once.
const STEPS_PER_GAME: usize = 4;

/// How the bots run.
#[derive(Debug, Clone, Copy)]
pub struct BotSettings {
    /// The most a bot thinks about one move.
    pub think: Duration,
    /// Between two looks when nothing woke the bot.
    pub rescan: Duration,
}

/// Starts one task per bot; they end when the notifier shuts down.
pub fn spawn(ctx: Context, settings: BotSettings) {
    for bot in BOTS {
        tokio::spawn(run(ctx.clone(), bot, settings));
    }
}

async fn run(ctx: Context, bot: BotAccount, settings: BotSettings) {
    // Taken before the first look, so that no wake-up is missed between a
    // look and the wait after it.
    let mut wakes = ctx.notifier.subscribe_user(bot.id);
    loop {
        if ctx.notifier.is_shutting_down() {
            return;
        }
        match serve(&ctx, &bot, settings).await {
            Ok(0) => {}
            Ok(actions) => tracing::debug!(bot = bot.username, actions, "bot answered"),
            Err(error) => tracing::warn!(bot = bot.username, %error, "bot pass failed"),
        }
        if wakes.wait(settings.rescan).await == Wake::ShuttingDown {
            return;
        }
    }
}

/// One look: answers every game waiting for `bot`. Returns how many
/// actions this process made.
pub async fn serve(
    ctx: &Context,
    bot: &BotAccount,
    settings: BotSettings,
) -> Result<usize, GameError> {
    let mut actions = 0;
    loop {
        let id = bot.id.to_string();
        let games = db::run_as(&ctx.pool, move |conn| {
            Ok::<_, GameError>(store::pending(conn, &id, BATCH)?)
        })
        .await?;
        let full = games.len() as i64 == BATCH;
        let before = actions;
        for game in games {
            let Ok(game) = Uuid::parse_str(&game) else {
                continue;
            };
            for _ in 0..STEPS_PER_GAME {
                match answer(ctx, bot, game, settings).await {
                    Ok(true) => actions += 1,
                    Ok(false) => break,
                    Err(error) => {
                        // One game's trouble must not stop the others.
                        tracing::warn!(bot = bot.username, %game, %error, "bot cannot answer");
                        break;
                    }
                }
            }
        }
        // A full batch may have left games out; look again while this
        // pass gets somewhere (otherwise other processes hold them).
        if !full || actions == before || ctx.notifier.is_shutting_down() {
            return Ok(actions);
        }
    }
}

/// What a bot has to do in a game, decided from the record.
enum Task {
    Join,
    Setup(Color),
    Move(Color),
    AnswerDraw(Color),
}

fn task(record: &GameRecord, bot: Uuid) -> Option<Task> {
    match &record.phase {
        Phase::Waiting => (record.challenged == Some(bot)).then_some(Task::Join),
        Phase::Setup => {
            let color = record.color_of(bot)?;
            record
                .setups
                .get(color)
                .is_none()
                .then_some(Task::Setup(color))
        }
        Phase::Playing(game) => {
            let color = record.color_of(bot)?;
            if game.draw_offer() == Some(color.opponent()) {
                Some(Task::AnswerDraw(color))
            } else {
                (game.turn() == color).then_some(Task::Move(color))
            }
        }
        Phase::Finished(_) | Phase::Aborted => None,
    }
}

/// Makes the bot's next action in `game`, if it has one and this process
/// wins the claim. `Ok(false)`: nothing to do here (now).
async fn answer(
    ctx: &Context,
    bot: &BotAccount,
    game: Uuid,
    settings: BotSettings,
) -> Result<bool, GameError> {
    let bot_id = bot.id;
    let found = db::run_as(&ctx.pool, move |conn| {
        let record = load(conn, game)?;
        let Some(task) = task(&record, bot_id) else {
            return Ok(None);
        };
        // The history only for a move, and only as the bot's player saw it.
        let history = match task {
            Task::Move(_) | Task::AnswerDraw(_) => moves_of(conn, &record, Some(bot_id))?,
            Task::Join | Task::Setup(_) => Vec::new(),
        };
        Ok::<_, GameError>(Some((record, task, history)))
    })
    .await?;
    let Some((record, task, history)) = found else {
        return Ok(false);
    };
    let version = record.version;
    let hold = settings
        .think
        .saturating_mul(10)
        .max(Duration::from_secs(CLAIM_SECONDS));
    // Claims are about processes, not about the game's clock: real time.
    let now = Utc::now();
    let until = now + chrono::Duration::from_std(hold).unwrap_or(chrono::Duration::MAX);
    let key = game.to_string();
    let claimed = db::run_write(&ctx.pool, move |conn| {
        Ok::<_, GameError>(store::claim(
            conn,
            &key,
            version,
            to_db_time(now),
            to_db_time(until),
        )?)
    })
    .await?;
    if !claimed {
        return Ok(false);
    }
    let done = act(ctx, bot, &record, task, &history, settings).await;
    if done.is_err() {
        let key = game.to_string();
        let released = db::run_write(&ctx.pool, move |conn| {
            Ok::<_, GameError>(store::release(conn, &key, version)?)
        })
        .await;
        if let Err(error) = released {
            tracing::warn!(%game, %error, "cannot release a bot claim");
        }
    }
    done.map(|()| true)
}

async fn act(
    ctx: &Context,
    bot: &BotAccount,
    record: &GameRecord,
    task: Task,
    history: &[domain::MoveView],
    settings: BotSettings,
) -> Result<(), GameError> {
    let caller = Caller {
        id: bot.id,
        name: bot.username.to_owned(),
    };
    let game = record.id;
    let seed = decision_seed(game.as_bytes(), record.game().map_or(0, |g| g.ply()));
    match task {
        Task::Join => {
            join::join(ctx, &caller, game, None).await?;
        }
        Task::Setup(color) => {
            let placement = bot.kind.setup(record.variant, color, seed).to_placement();
            setup::place_setup(ctx, &caller, game, SetupSource::Placement(placement), None).await?;
        }
        Task::AnswerDraw(color) => {
            let Some(state) = record.game() else {
                return Ok(());
            };
            let view = state.view(Viewer::Player(color));
            let situation = Situation {
                variant: record.variant,
                rules: &record.rules,
                color,
                view: &view,
                history,
            };
            let choice = match bot.kind.answer_draw(&situation) {
                DrawAnswer::Accept => DrawAction::Accept,
                DrawAnswer::Decline => DrawAction::Decline,
            };
            draw::draw(ctx, &caller, game, choice, None).await?;
        }
        Task::Move(color) => {
            let Some(chosen) = think(bot, record, color, history, seed, settings.think).await?
            else {
                return Ok(());
            };
            let input = MoveInput {
                from: chosen.from,
                to: chosen.to,
                rescue: None,
            };
            let precondition = Some(Precondition::Version(record.version));
            play::play_move(ctx, &caller, game, input, precondition, None).await?;
            crate::metrics::METRICS.bot_moves.inc();
        }
    }
    Ok(())
}

/// The bot's move, decided on a blocking thread within `limit`.
async fn think(
    bot: &BotAccount,
    record: &GameRecord,
    color: Color,
    history: &[domain::MoveView],
    seed: u64,
    limit: Duration,
) -> Result<Option<Move>, GameError> {
    let Some(state) = record.game() else {
        return Ok(None);
    };
    // Only what the bot's player may see crosses into the thread.
    let view = state.view(Viewer::Player(color));
    let (variant, rules, kind) = (record.variant, record.rules, bot.kind);
    let history = history.to_vec();
    tokio::task::spawn_blocking(move || {
        let situation = Situation {
            variant,
            rules: &rules,
            color,
            view: &view,
            history: &history,
        };
        let deadline = Instant::now() + limit;
        kind.choose_move(&situation, seed, &mut || Instant::now() >= deadline)
    })
    .await
    .map_err(|e| GameError::internal(format!("a bot's thinking failed: {e}")))
}
