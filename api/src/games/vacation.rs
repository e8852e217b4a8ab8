//! Vacations (docs/lifecycle.md, "Vacation"): a player's clocks stop in
//! every game of theirs in progress, games that start meanwhile included,
//! until the vacation ends (by its days, by the budget, by `DELETE`, or by
//! a move in any game).
//!
//! The player's `vacations` row is the truth; each game in progress holds
//! the pause in its clocks (`paused_until`, the vacation's end), written
//! with the row in one transaction when a vacation starts or ends early.
//! A vacation that ends by itself needs no game written: each clock runs
//! again at the instant its pause ends. The sweep ([`sweep`]) ends the
//! vacations that are over (charging them, telling the opponents) and
//! pauses any game of a player on vacation that is not (a game joined
//! while the vacation began), so every process converges on the row.

use chrono::{DateTime, Datelike, Duration, Utc};
use domain::vacation::{days_charged, Budget};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::error::GameError;
use super::fetch::load_with_names;
use super::notices::{self, EventPayload, Notice};
use super::pipeline::AsRead;
use super::record::GameRecord;
use super::{bots, Context};
use crate::db::{self, DbConnection};
use crate::storage::games as store;
use crate::storage::vacations::{self as rows, VacationRow};
use crate::storage::{from_db_time, to_db_time};

/// Longest vacation message, in characters.
pub const MESSAGE_MAX_CHARS: usize = 280;
/// Most days one vacation may ask for.
pub const DAYS_MAX: u32 = 366;

/// A player's vacation and budget, as they see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"on_vacation": true, "since": "2026-12-04T10:00:00Z",
    "until": "2026-12-11T10:00:00Z", "ends_at": "2026-12-11T10:00:00Z",
    "message": "hiking, back on the 11th", "remaining_days": 29, "allowance_days": 30,
    "carry_over_days": 10, "auto": false}))]
pub struct VacationView {
    pub on_vacation: bool,
    /// Since when (while on vacation)
    #[schema(required = true)]
    pub since: Option<DateTime<Utc>>,
    /// The end asked for with `days` (while on vacation, if asked)
    #[schema(required = true)]
    pub until: Option<DateTime<Utc>>,
    /// When the vacation ends by itself: `until`, or sooner when the
    /// budget runs out (while on vacation)
    #[schema(required = true)]
    pub ends_at: Option<DateTime<Utc>>,
    /// The note shown with it (while on vacation)
    #[schema(required = true)]
    pub message: Option<String>,
    /// Whole days left this year, the vacation in progress charged as far
    /// as it went (each day or part of one)
    pub remaining_days: i64,
    /// Days each calendar year brings
    pub allowance_days: u32,
    /// Most unused days carried into the next year
    pub carry_over_days: u32,
    /// Whether a clock running out starts a vacation instead of a loss
    pub auto: bool,
}

/// Start a vacation.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"days": 7, "message": "hiking, back on the 14th"}))]
pub struct StartVacation {
    /// How many days (1-366); without it, until the budget runs out or the
    /// vacation is ended
    #[serde(default)]
    #[schema(minimum = 1, maximum = 366)]
    pub days: Option<u32>,
    /// A note kept with it, shown only to you (at most 280 characters)
    #[serde(default)]
    pub message: Option<String>,
}

/// Turn automatic vacation on or off.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"auto": true}))]
pub struct AutoVacation {
    pub auto: bool,
}

/// What a player's row says, in the year of `now`.
#[derive(Debug, Clone)]
struct Standing {
    row: VacationRow,
    budget: Budget,
}

fn year_of(at: DateTime<Utc>) -> i32 {
    at.year()
}

impl Standing {
    fn of(ctx: &Context, user: Uuid, row: Option<VacationRow>, now: DateTime<Utc>) -> Standing {
        let year = year_of(now);
        let row = row.unwrap_or_else(|| {
            let fresh = ctx.vacation.fresh(year);
            VacationRow {
                user_id: user.to_string(),
                budget_year: fresh.year,
                budget_days: fresh.days,
                since: None,
                ends_at: None,
                until: None,
                message: None,
                auto: false,
                // No row yet: the first write makes version 1.
                version: 0,
                updated_at: to_db_time(now),
            }
        });
        let stored = Budget {
            year: row.budget_year,
            days: row.budget_days,
        };
        // A vacation is charged to the year it began in.
        let year = row.since.map_or(year, |since| year_of(from_db_time(since)));
        Standing {
            budget: ctx.vacation.in_year(stored, year),
            row,
        }
    }

    fn since(&self) -> Option<DateTime<Utc>> {
        self.row.since.map(from_db_time)
    }

    fn ends_at(&self) -> Option<DateTime<Utc>> {
        self.row.ends_at.map(from_db_time)
    }

    /// Whole days left at `now`, the vacation in progress charged so far.
    fn remaining_days(&self, now: DateTime<Utc>) -> i64 {
        match (self.since(), self.ends_at()) {
            (Some(since), Some(ends)) => {
                let until = now.min(ends);
                (self.budget.days - days_charged(since.timestamp(), until.timestamp())).max(0)
            }
            _ => self.budget.days.max(0),
        }
    }

    fn view(&self, ctx: &Context, now: DateTime<Utc>) -> VacationView {
        // In a later year than the vacation's, the new year's days count.
        let remaining = if self.since().is_none() {
            ctx.vacation.in_year(self.budget, year_of(now)).days.max(0)
        } else {
            self.remaining_days(now)
        };
        // Over, though the sweep has not ended it yet: shown as over.
        let on = self.since().is_some() && self.ends_at().is_some_and(|end| end > now);
        VacationView {
            on_vacation: on,
            since: self.since().filter(|_| on),
            until: self.row.until.map(from_db_time).filter(|_| on),
            ends_at: self.ends_at().filter(|_| on),
            message: self.row.message.clone().filter(|_| on),
            remaining_days: remaining,
            allowance_days: ctx.vacation.days_per_year,
            carry_over_days: ctx.vacation.carry_over_max,
            auto: self.row.auto,
        }
    }
}

/// The caller's vacation and budget.
pub async fn view(ctx: &Context, user: Uuid) -> Result<VacationView, GameError> {
    let now = ctx.clock.now();
    let context = ctx.clone();
    db::run_as(&ctx.pool, move |conn| {
        let row = rows::find(conn, &user.to_string())?;
        Ok(Standing::of(&context, user, row, now).view(&context, now))
    })
    .await
}

/// Whether `user` is on vacation, and how many days they have left, for
/// their profile: `(on_vacation, remaining_days)`.
pub fn standing_of(
    ctx: &Context,
    conn: &mut DbConnection,
    user: Uuid,
    now: DateTime<Utc>,
) -> Result<(bool, i64), GameError> {
    let row = rows::find(conn, &user.to_string())?;
    let view = Standing::of(ctx, user, row, now).view(ctx, now);
    Ok((view.on_vacation, view.remaining_days))
}

/// Games changed by one transaction, to announce after its commit.
type Changed = Vec<(Uuid, i64)>;

/// `user` (named `name`) starts a vacation.
pub async fn start(
    ctx: &Context,
    user: Uuid,
    name: &str,
    request: StartVacation,
) -> Result<VacationView, GameError> {
    if bots::bot(user).is_some() {
        return Err(GameError::forbidden("a bot never goes on vacation"));
    }
    if let Some(days) = request.days {
        if !(1..=DAYS_MAX).contains(&days) {
            return Err(GameError::invalid(format!(
                "days must be between 1 and {DAYS_MAX}, not {days}"
            )));
        }
    }
    let message = request.message.map(|m| m.trim().to_owned());
    if let Some(message) = &message {
        if message.chars().count() > MESSAGE_MAX_CHARS || message.chars().any(|c| c.is_control()) {
            return Err(GameError::invalid(format!(
                "message must be at most {MESSAGE_MAX_CHARS} characters, without control characters"
            )));
        }
    }
    let message = message.filter(|m| !m.is_empty());
    // A vacation over but not yet ended by the sweep is ended first.
    end(ctx, user, name, Ending::Over).await?;
    let (view, changed, notices) = retrying(|| {
        let (context, name, message) = (ctx.clone(), name.to_owned(), message.clone());
        let now = ctx.clock.now();
        db::run_write(&ctx.pool, move |conn| {
            let how = Begin {
                at: now,
                days: request.days,
                message,
                saving: None,
            };
            begin(&context, conn, user, &name, how)
        })
    })
    .await?;
    announce(ctx, &changed, &notices);
    Ok(view)
}

/// How a vacation begins.
struct Begin {
    at: DateTime<Utc>,
    days: Option<u32>,
    message: Option<String>,
    /// The game whose clock ran out, for an automatic vacation: it is
    /// paused at its deadline; any other game overdue is left to be lost.
    saving: Option<Uuid>,
}

/// Starts `user`'s vacation at `how.at` in `conn`'s transaction: the row,
/// every game in progress paused, each opponent told.
fn begin(
    ctx: &Context,
    conn: &mut DbConnection,
    user: Uuid,
    name: &str,
    how: Begin,
) -> Result<(VacationView, Changed, Vec<Notice>), GameError> {
    let found = rows::find(conn, &user.to_string())?;
    let mut standing = Standing::of(ctx, user, found, how.at);
    if standing.since().is_some() {
        return Err(GameError::OnVacation("you are on vacation already".into()));
    }
    // A new vacation is charged to this year.
    standing.budget = ctx.vacation.in_year(standing.budget, year_of(how.at));
    let left = standing.budget.days;
    let asked = how.days.map(i64::from);
    if left < 1 || asked.is_some_and(|days| days > left) {
        let detail = match asked {
            Some(days) if left >= 1 => {
                format!("{days} days asked for, but only {left} remain this year")
            }
            _ => "no vacation days remain this year".to_owned(),
        };
        return Err(GameError::VacationBudget {
            detail,
            remaining_days: left.max(0),
        });
    }
    let until = asked.map(|days| how.at + Duration::days(days));
    let ends_at = how.at + Duration::days(asked.unwrap_or(left).min(left));
    standing.row = VacationRow {
        budget_year: standing.budget.year,
        budget_days: standing.budget.days,
        since: Some(to_db_time(how.at)),
        ends_at: Some(to_db_time(ends_at)),
        until: until.map(to_db_time),
        message: how.message,
        updated_at: to_db_time(how.at),
        ..standing.row
    };
    write_row(conn, &mut standing.row)?;
    let (changed, notices) = each_game(conn, user, how.at, |record, color| {
        // A clock already run out is not saved by a vacation begun after
        // (an automatic one begins at that very second).
        if how.saving != Some(record.id) && record.is_overdue(how.at) {
            return None;
        }
        record
            .pause_clock(color, ends_at, how.at)
            .then(|| EventPayload::VacationStarted {
                game_id: record.id,
                by: name.to_owned(),
                until: ends_at,
            })
    })?;
    Ok((standing.view(ctx, how.at), changed, notices))
}

/// Why a vacation ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The player ended it (`DELETE`), or made a move.
    Player,
    /// Its days, or the budget, ran out.
    Over,
}

/// Ends `user`'s vacation (if they are on one): charged, every game's
/// clock running again, each opponent told.
pub async fn end(
    ctx: &Context,
    user: Uuid,
    name: &str,
    why: Ending,
) -> Result<VacationView, GameError> {
    let (view, changed, notices) = retrying(|| {
        let (context, name) = (ctx.clone(), name.to_owned());
        let now = ctx.clock.now();
        db::run_write(&ctx.pool, move |conn| {
            finish(&context, conn, user, &name, why, now)
        })
    })
    .await?;
    announce(ctx, &changed, &notices);
    Ok(view)
}

fn finish(
    ctx: &Context,
    conn: &mut DbConnection,
    user: Uuid,
    name: &str,
    why: Ending,
    now: DateTime<Utc>,
) -> Result<(VacationView, Changed, Vec<Notice>), GameError> {
    let found = rows::find(conn, &user.to_string())?;
    let mut standing = Standing::of(ctx, user, found, now);
    let (Some(since), Some(ends_at)) = (standing.since(), standing.ends_at()) else {
        return Ok((standing.view(ctx, now), Vec::new(), Vec::new()));
    };
    if why == Ending::Over && ends_at > now {
        return Ok((standing.view(ctx, now), Vec::new(), Vec::new()));
    }
    let ended = now.min(ends_at);
    let charged = days_charged(since.timestamp(), ended.timestamp());
    standing.row = VacationRow {
        budget_year: standing.budget.year,
        budget_days: (standing.budget.days - charged).max(0),
        since: None,
        ends_at: None,
        until: None,
        message: None,
        updated_at: to_db_time(now),
        ..standing.row
    };
    write_row(conn, &mut standing.row)?;
    standing.budget = Budget {
        year: standing.row.budget_year,
        days: standing.row.budget_days,
    };
    let (changed, notices) = each_game(conn, user, now, |record, color| {
        // A vacation over by itself left nothing to undo: each clock runs
        // again at the pause's end.
        record.resume_clock(color, ended);
        Some(EventPayload::VacationEnded {
            game_id: record.id,
            by: name.to_owned(),
        })
    })?;
    Ok((standing.view(ctx, now), changed, notices))
}

/// Applies `change` to every game `user` plays in progress, as seen in
/// this transaction: each changed game is written (a versioned write,
/// read again after a lost race), and the opponent told what `change`
/// says. A game `change` leaves alone (`None`, nothing changed) is not
/// written.
fn each_game(
    conn: &mut DbConnection,
    user: Uuid,
    now: DateTime<Utc>,
    mut change: impl FnMut(&mut GameRecord, domain::Color) -> Option<EventPayload>,
) -> Result<(Changed, Vec<Notice>), GameError> {
    let mut changed = Vec::new();
    let mut notices = Vec::new();
    for id in rows::games_in_progress(conn, &user.to_string())? {
        let Ok(game_id) = Uuid::parse_str(&id) else {
            continue;
        };
        let mut done = false;
        for _ in 0..8 {
            let (mut record, names) = load_with_names(conn, game_id)?;
            let Some(color) = record.color_of(user) else {
                done = true;
                break;
            };
            let before = record.clone();
            let told = change(&mut record, color);
            if record.clocks == before.clocks {
                // Nothing to write; the opponents hear of an end anyway.
                if let (Some(payload), Some(other)) = (told, record.player(color.opponent())) {
                    notices.push(Notice::new(other, payload));
                }
                done = true;
                break;
            }
            let read = AsRead::of(&before, &names);
            record.version += 1;
            record.updated_at = now;
            let row = record.to_row()?;
            let expected = read.expected(before.version);
            if store::save(conn, &row, expected, None)? {
                changed.push((game_id, record.version));
                if let (Some(payload), Some(other)) = (told, record.player(color.opponent())) {
                    notices.push(Notice::new(other, payload));
                }
                done = true;
                break;
            }
        }
        if !done {
            // Tried again as a whole (`retrying`): no game is left out.
            return Err(GameError::KeptChanging);
        }
    }
    notices::record(conn, now, &notices)?;
    Ok((changed, notices))
}

/// Writes `row` at its next version; a write that came first makes this
/// transaction fail with [`GameError::KeptChanging`] (tried again by
/// [`retrying`]).
fn write_row(conn: &mut DbConnection, row: &mut VacationRow) -> Result<(), GameError> {
    row.version += 1;
    if rows::save(conn, row)? {
        Ok(())
    } else {
        Err(GameError::KeptChanging)
    }
}

/// `attempt` until it does not lose a race for a player's row (at most 8
/// times).
async fn retrying<T, F, Fut>(mut attempt: F) -> Result<T, GameError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, GameError>>,
{
    for _ in 0..7 {
        match attempt().await {
            Err(GameError::KeptChanging) => continue,
            other => return other,
        }
    }
    attempt().await
}

/// After a commit: caches forget the changed games, waiters wake, other
/// processes hear of it.
fn announce(ctx: &Context, changed: &Changed, told: &[Notice]) {
    for (game_id, version) in changed {
        ctx.recent.forget_before(*game_id, *version);
        ctx.notifier.game_changed(*game_id, *version);
    }
    for user in notices::recipients(told) {
        ctx.notifier.user_event(user);
    }
}

/// `user` turns automatic vacation on or off.
pub async fn set_auto(ctx: &Context, user: Uuid, auto: bool) -> Result<VacationView, GameError> {
    if auto && bots::bot(user).is_some() {
        return Err(GameError::forbidden("a bot never goes on vacation"));
    }
    retrying(|| {
        let context = ctx.clone();
        let now = ctx.clock.now();
        db::run_write(&ctx.pool, move |conn| {
            let found = rows::find(conn, &user.to_string())?;
            let mut standing = Standing::of(&context, user, found, now);
            standing.row.auto = auto;
            standing.row.updated_at = to_db_time(now);
            write_row(conn, &mut standing.row)?;
            Ok::<_, GameError>(standing.view(&context, now))
        })
    })
    .await
}

/// Instead of losing game `game_id` on time at `deadline`: if the player
/// whose clock ran out in play has automatic vacation on and days left,
/// their vacation starts at the deadline. `true` if it did (the game goes
/// on). Not for a setup never placed (the game is aborted as ever), nor
/// for a clock that was empty already when it started to run (after a
/// vacation, automatic or not, that ended without a move in that game):
/// that clock loses.
pub async fn instead_of_timeout(ctx: &Context, game_id: Uuid) -> Result<bool, GameError> {
    let started = retrying(|| {
        let context = ctx.clone();
        let now = ctx.clock.now();
        db::run_write(&ctx.pool, move |conn| {
            auto_begin(&context, conn, game_id, now)
        })
    })
    .await;
    match started {
        Ok(Some((_, changed, notices))) => {
            announce(ctx, &changed, &notices);
            Ok(true)
        }
        Ok(None) => Ok(false),
        // Others kept changing the game or the player: not now; the game
        // is looked at again by the next read or sweep.
        Err(GameError::KeptChanging) => Ok(true),
        Err(other) => Err(other),
    }
}

/// [`instead_of_timeout`]'s transaction.
fn auto_begin(
    context: &Context,
    conn: &mut DbConnection,
    game_id: Uuid,
    now: DateTime<Utc>,
) -> Result<Option<(VacationView, Changed, Vec<Notice>)>, GameError> {
    {
        let (record, names) = load_with_names(conn, game_id)?;
        if !matches!(record.phase, super::record::Phase::Playing(_)) {
            return Ok(None);
        }
        let Some(clocks) = record.clocks.as_ref() else {
            return Ok(None);
        };
        let Some((at, late)) = clocks.first_out(&record.running()) else {
            return Ok(None);
        };
        let ran_out = at <= now.timestamp() && *clocks.left.get(late) > 0;
        let Some(user) = record.player(late).filter(|_| ran_out) else {
            return Ok(None);
        };
        let Some(row) = rows::find(conn, &user.to_string())? else {
            return Ok(None);
        };
        if !row.auto || bots::bot(user).is_some() {
            return Ok(None);
        }
        let name = names.get(&user).cloned().unwrap_or_default();
        if let (Some(since), Some(ends_at)) = (row.since, row.ends_at) {
            // On a vacation already (another clock ran out first): it
            // covers this clock too, if it ran out while it lasts.
            let (since, ends_at) = (from_db_time(since), from_db_time(ends_at));
            if !(since.timestamp()..ends_at.timestamp()).contains(&at) {
                return Ok(None);
            }
            let at = DateTime::from_timestamp(at, 0).unwrap_or(now);
            let view = Standing::of(context, user, Some(row), now).view(context, now);
            let (changed, notices) = each_game(conn, user, now, |game, color| {
                (game.id == game_id && game.pause_clock(color, ends_at, at)).then(|| {
                    EventPayload::VacationStarted {
                        game_id,
                        by: name.clone(),
                        until: ends_at,
                    }
                })
            })?;
            return Ok((!changed.is_empty()).then_some((view, changed, notices)));
        }
        let at = DateTime::from_timestamp(at, 0).unwrap_or(now).min(now);
        let standing = Standing::of(context, user, Some(row), at);
        if ctx_days_left(context, &standing, at) < 1 {
            return Ok(None);
        }
        let how = Begin {
            at,
            days: None,
            message: None,
            saving: Some(game_id),
        };
        Ok(Some(begin(context, conn, user, &name, how)?))
    }
}

fn ctx_days_left(ctx: &Context, standing: &Standing, at: DateTime<Utc>) -> i64 {
    ctx.vacation.in_year(standing.budget, year_of(at)).days
}

/// After `game_id` started (its setup phase): any of its players on
/// vacation has their clock stopped in it too.
pub async fn cover_game(ctx: &Context, game_id: Uuid) -> Result<(), GameError> {
    let now = ctx.clock.now();
    let players = db::run_as(&ctx.pool, move |conn| {
        let (record, _) = load_with_names(conn, game_id)?;
        let ids: Vec<String> = record.players().iter().map(Uuid::to_string).collect();
        Ok::<_, GameError>(rows::of_users(conn, &ids)?)
    })
    .await?;
    for row in players.into_iter().filter(|row| row.since.is_some()) {
        if let Ok(user) = Uuid::parse_str(&row.user_id) {
            cover_player(ctx, user, now).await?;
        }
    }
    Ok(())
}

/// Pauses every game of `user` (on vacation) in progress that is not
/// paused until the vacation's end.
async fn cover_player(ctx: &Context, user: Uuid, now: DateTime<Utc>) -> Result<(), GameError> {
    let (changed, notices) = retrying(|| {
        db::run_write(&ctx.pool, move |conn| {
            let Some(mut row) = rows::find(conn, &user.to_string())? else {
                return Ok::<_, GameError>((Vec::new(), Vec::new()));
            };
            let (Some(_), Some(ends_at)) = (row.since, row.ends_at.map(from_db_time)) else {
                return Ok((Vec::new(), Vec::new()));
            };
            if ends_at <= now {
                return Ok((Vec::new(), Vec::new()));
            }
            // Written (a new version) before the games: a vacation ended
            // meanwhile by another transaction makes this one try again, and
            // see it over, instead of pausing games for a player back.
            write_row(conn, &mut row)?;
            let name = crate::storage::users::find_by_id(conn, &user.to_string())?
                .map(|u| u.username)
                .unwrap_or_default();
            each_game(conn, user, now, |record, color| {
                if record.is_overdue(now) {
                    return None;
                }
                record
                    .pause_clock(color, ends_at, now)
                    .then(|| EventPayload::VacationStarted {
                        game_id: record.id,
                        by: name.clone(),
                        until: ends_at,
                    })
            })
        })
    })
    .await?;
    announce(ctx, &changed, &notices);
    Ok(())
}

/// The sweep's part: ends every vacation that is over, and pauses the
/// games of players on vacation that are not. Returns how many vacations
/// this call ended.
pub async fn sweep(ctx: &Context, now: DateTime<Utc>) -> Result<usize, GameError> {
    let (due, on) = db::run_as(&ctx.pool, move |conn| {
        Ok::<_, GameError>((
            rows::ended_by(conn, to_db_time(now), 100)?,
            rows::on_vacation(conn)?,
        ))
    })
    .await?;
    let mut ended = 0;
    for id in due {
        let Ok(user) = Uuid::parse_str(&id) else {
            continue;
        };
        let name = db::run_as(&ctx.pool, {
            let id = id.clone();
            move |conn| {
                Ok::<_, GameError>(
                    crate::storage::users::find_by_id(conn, &id)?
                        .map(|u| u.username)
                        .unwrap_or_default(),
                )
            }
        })
        .await?;
        let view = end(ctx, user, &name, Ending::Over).await?;
        if !view.on_vacation {
            ended += 1;
        }
    }
    for (id, ends_at) in on {
        if from_db_time(ends_at) <= now {
            continue;
        }
        if let Ok(user) = Uuid::parse_str(&id) {
            cover_player(ctx, user, now).await?;
        }
    }
    Ok(ended)
}
