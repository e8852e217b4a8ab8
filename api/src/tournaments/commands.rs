//! The tournament commands and queries (docs/tournaments.md): create,
//! list, view, join, leave, start, delete. Each change is one
//! transaction that writes the tournament's row at the version it read
//! (or inserts or deletes it), with the events it causes; what it
//! started is announced after the commit.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::requests::{CreateTournament, JoinTournament};
use super::rounds::{self, Paired};
use super::view::{summary, Loaded, TournamentList, TournamentStatus, TournamentView};
use super::TournamentError;
use crate::db::{self, DbConnection};
use crate::games::bots;
use crate::games::notices;
use crate::games::{Caller, Context};
use crate::storage::to_db_time;
use crate::storage::tournaments::{self as store, PlayerRow, TournamentRow};
use crate::storage::users;

/// How many times a change that lost a race with another process is
/// tried again.
const ATTEMPTS: usize = 5;

/// Most tournaments in one page of a list.
pub const LIST_LIMIT: i64 = 50;

pub async fn create(
    ctx: &Context,
    caller: &Caller,
    request: CreateTournament,
) -> Result<TournamentView, TournamentError> {
    let now = ctx.clock.now();
    let checked = request.checked(now)?;
    let id = Uuid::new_v4();
    let organiser = caller.id;
    let row = TournamentRow {
        id: id.to_string(),
        name: checked.name,
        organiser_id: organiser.to_string(),
        system: checked.system.name().to_owned(),
        variant: checked.settings.variant.name().to_owned(),
        rules: serde_json::to_string(&checked.settings.rules)
            .map_err(crate::games::GameError::internal)?,
        time_control: serde_json::to_string(&checked.settings.time_control)
            .map_err(crate::games::GameError::internal)?,
        rated: checked.settings.rated,
        rounds: checked.rounds.map(|r| i32::try_from(r).unwrap_or(i32::MAX)),
        double_round: checked.double,
        max_players: Some(i32::try_from(checked.max_players).unwrap_or(i32::MAX)),
        bye_points: i32::try_from(checked.bye_points).unwrap_or(2),
        starts_at: checked.starts_at.map(to_db_time),
        status: store::status::OPEN.to_owned(),
        current_round: 0,
        version: 1,
        created_at: to_db_time(now),
        started_at: None,
        finished_at: None,
    };
    db::run_write(&ctx.pool, move |conn| {
        store::insert(conn, &row)?;
        Loaded::read(conn, id)?.view().map_err(Into::into)
    })
    .await
}

pub async fn get(ctx: &Context, id: Uuid) -> Result<TournamentView, TournamentError> {
    db::run_as(&ctx.pool, move |conn| {
        Loaded::read(conn, id)?.view().map_err(Into::into)
    })
    .await
}

/// A page of tournaments, newest first; `before`: the last one of the
/// previous page.
pub async fn list(
    ctx: &Context,
    status: Option<TournamentStatus>,
    before: Option<Uuid>,
    limit: i64,
) -> Result<TournamentList, TournamentError> {
    db::run_as(&ctx.pool, move |conn| {
        let after = match before {
            None => None,
            Some(id) => {
                let row = store::find(conn, &id.to_string())?.ok_or(TournamentError::NotFound)?;
                Some((row.created_at, row.id))
            }
        };
        let status = status.map(|s| match s {
            TournamentStatus::Open => store::status::OPEN,
            TournamentStatus::Running => store::status::RUNNING,
            TournamentStatus::Finished => store::status::FINISHED,
        });
        let rows = store::list(conn, status, after, limit)?;
        let ids: Vec<String> = rows.iter().map(|(r, _)| r.id.clone()).collect();
        let counts = store::player_counts(conn, &ids)?;
        let mut tournaments = Vec::with_capacity(rows.len());
        for (row, organiser) in rows {
            let players = counts
                .iter()
                .find(|(id, _)| *id == row.id)
                .map_or(0, |(_, n)| u32::try_from(*n).unwrap_or(0));
            tournaments.push(summary(&row, organiser, players)?);
        }
        Ok(TournamentList { tournaments })
    })
    .await
}

/// The user a join or leave is for: the caller, or the bot the organiser
/// names.
fn entrant(
    loaded: &Loaded,
    caller: &Caller,
    request: &JoinTournament,
) -> Result<Uuid, TournamentError> {
    match &request.bot {
        None => Ok(caller.id),
        Some(name) => {
            if loaded.row.organiser_id != caller.id.to_string() {
                return Err(TournamentError::Forbidden(
                    "only the organiser may enter or withdraw a bot".into(),
                ));
            }
            bots::BOTS
                .iter()
                .find(|bot| bot.username.eq_ignore_ascii_case(name))
                .map(|bot| bot.id)
                .ok_or_else(|| {
                    TournamentError::Invalid(format!("no bot is called {name:?} (GET /bots)"))
                })
        }
    }
}

pub async fn join(
    ctx: &Context,
    caller: &Caller,
    id: Uuid,
    request: JoinTournament,
) -> Result<TournamentView, TournamentError> {
    let caller = caller.clone();
    changed(ctx, id, move |conn, loaded, now| {
        let user = entrant(loaded, &caller, &request)?;
        if loaded.row.status != store::status::OPEN {
            return Err(TournamentError::WrongPhase(
                "the tournament has started: it takes no more players".into(),
            ));
        }
        let max = u32::try_from(loaded.row.max_players.unwrap_or(0)).unwrap_or(0);
        if loaded
            .players
            .iter()
            .any(|p| p.row.user_id == user.to_string())
        {
            return Err(TournamentError::WrongPhase(
                "already in this tournament".into(),
            ));
        }
        // A deleted account on the list takes no place (it never starts).
        let taken = loaded
            .players
            .iter()
            .filter(|p| p.deleted_at.is_none())
            .count();
        if taken >= max as usize {
            return Err(TournamentError::Full(max));
        }
        bump(conn, loaded)?;
        // Seated in the order they join (renumbered from 0 at the start).
        let seat = loaded
            .players
            .iter()
            .filter_map(|p| p.row.seat)
            .max()
            .map_or(0, |s| s + 1);
        let row = PlayerRow {
            tournament_id: loaded.row.id.clone(),
            user_id: user.to_string(),
            joined_at: to_db_time(now),
            seat: Some(seat),
            rating: None,
            withdrawn_at: None,
        };
        if !store::add_player(conn, &row)? {
            return Err(TournamentError::WrongPhase(
                "already in this tournament".into(),
            ));
        }
        Ok(Paired::default())
    })
    .await
}

pub async fn leave(
    ctx: &Context,
    caller: &Caller,
    id: Uuid,
    request: JoinTournament,
) -> Result<TournamentView, TournamentError> {
    let who = {
        let caller = caller.clone();
        let request = request.clone();
        db::run_as(&ctx.pool, move |conn| {
            let loaded = Loaded::read(conn, id)?;
            entrant(&loaded, &caller, &request)
        })
        .await?
    };
    withdraw(ctx, id, who).await?;
    get(ctx, id).await
}

/// Takes `user` out of tournament `id`: off the list while it is open;
/// withdrawn while it runs, their games not yet over forfeited through the
/// game commands (resigned, or aborted before play).
pub async fn withdraw(ctx: &Context, id: Uuid, user: Uuid) -> Result<(), TournamentError> {
    let running = won(ctx, id, move |conn, loaded, now| {
        let me = user.to_string();
        if !loaded.players.iter().any(|p| p.row.user_id == me) {
            return Err(TournamentError::WrongPhase("not in this tournament".into()));
        }
        match loaded.row.status.as_str() {
            store::status::OPEN => {
                bump(conn, loaded)?;
                store::remove_player(conn, &loaded.row.id, &me)?;
                Ok((false, Paired::default()))
            }
            // Leaving again only finishes the forfeits of the first time,
            // should any have been left undone.
            store::status::RUNNING => {
                if store::withdraw(conn, &loaded.row.id, &me, to_db_time(now))? {
                    bump(conn, loaded)?;
                }
                Ok((true, Paired::default()))
            }
            _ => Err(TournamentError::WrongPhase("the tournament is over".into())),
        }
    })
    .await?;
    if running {
        forfeit_games(ctx, id, user).await?;
    }
    Ok(())
}

/// Ends the games not yet over of withdrawn `user` in tournament `id`.
async fn forfeit_games(ctx: &Context, id: Uuid, user: Uuid) -> Result<(), TournamentError> {
    let (games, name) = db::run_as(&ctx.pool, move |conn| {
        let games = store::unfinished_games_of(conn, &id.to_string(), &user.to_string())?;
        let name = users::find_by_id(conn, &user.to_string())?
            .map(|u| u.username)
            .unwrap_or_default();
        Ok::<_, TournamentError>((games, name))
    })
    .await?;
    let caller = Caller { id: user, name };
    forfeit(
        ctx,
        &caller,
        games.iter().filter_map(|g| Uuid::parse_str(g).ok()),
    )
    .await
}

/// Ends each of `games` as `caller`'s forfeit, every one tried even when
/// one fails (the first failure is answered; the worker tries again).
pub async fn forfeit(
    ctx: &Context,
    caller: &Caller,
    games: impl Iterator<Item = Uuid>,
) -> Result<(), TournamentError> {
    let mut failed = None;
    for game in games {
        if let Err(error) = crate::games::leave::leave(ctx, caller, game).await {
            tracing::warn!(%error, game = %game, "a forfeit was not written; the worker tries again");
            failed.get_or_insert(error);
        }
    }
    failed.map_or(Ok(()), |error| Err(error.into()))
}

pub async fn start(
    ctx: &Context,
    caller: &Caller,
    id: Uuid,
) -> Result<TournamentView, TournamentError> {
    let organiser = caller.id.to_string();
    changed(ctx, id, move |conn, loaded, now| {
        if loaded.row.organiser_id != organiser {
            return Err(TournamentError::Forbidden(
                "only the organiser may start the tournament".into(),
            ));
        }
        if loaded.row.status != store::status::OPEN {
            return Err(TournamentError::WrongPhase(
                "the tournament has started already".into(),
            ));
        }
        rounds::start(conn, loaded, now)
    })
    .await
}

pub async fn delete(ctx: &Context, caller: &Caller, id: Uuid) -> Result<(), TournamentError> {
    let organiser = caller.id.to_string();
    db::run_write(&ctx.pool, move |conn| {
        let loaded = Loaded::read(conn, id)?;
        if loaded.row.organiser_id != organiser {
            return Err(TournamentError::Forbidden(
                "only the organiser may delete the tournament".into(),
            ));
        }
        if loaded.row.status != store::status::OPEN {
            return Err(TournamentError::WrongPhase(
                "a tournament that has started cannot be deleted".into(),
            ));
        }
        if !store::delete(conn, &loaded.row.id, loaded.row.version)? {
            return Err(TournamentError::Lost);
        }
        Ok(())
    })
    .await
}

/// Moves the tournament's version on (a change of its players): two
/// changes that read the same version cannot both commit.
fn bump(conn: &mut DbConnection, loaded: &Loaded) -> Result<(), TournamentError> {
    let mut row = loaded.row.clone();
    row.version += 1;
    if store::save(conn, &row)? {
        Ok(())
    } else {
        Err(TournamentError::Lost)
    }
}

/// Runs `work` on tournament `id` as read in a write transaction, with
/// the events it causes, again while it loses races; announces what it
/// paired after the commit and answers what `work` answered.
async fn won<T, F>(ctx: &Context, id: Uuid, work: F) -> Result<T, TournamentError>
where
    T: Send + 'static,
    F: Fn(&mut DbConnection, &mut Loaded, DateTime<Utc>) -> Result<(T, Paired), TournamentError>
        + Send
        + Sync
        + Clone
        + 'static,
{
    for _ in 0..ATTEMPTS {
        let work = work.clone();
        let now = ctx.clock.now();
        let outcome = db::run_write(&ctx.pool, move |conn| {
            let mut loaded = Loaded::read(conn, id)?;
            let (value, paired) = work(conn, &mut loaded, now)?;
            if !paired.notices.is_empty() {
                let events = notices::as_events(&paired.notices)?;
                crate::events::record_all(conn, now, &events)?;
            }
            Ok::<_, TournamentError>((value, paired))
        })
        .await;
        match outcome {
            Ok((value, paired)) => {
                announce(ctx, &paired).await;
                return Ok(value);
            }
            Err(TournamentError::Lost) => continue,
            Err(other) => return Err(other),
        }
    }
    Err(TournamentError::Lost)
}

/// [`won`] for work that pairs (or starts, or ends) and answers nothing.
pub async fn change<F>(ctx: &Context, id: Uuid, work: F) -> Result<(), TournamentError>
where
    F: Fn(&mut DbConnection, &mut Loaded, DateTime<Utc>) -> Result<Paired, TournamentError>
        + Send
        + Sync
        + Clone
        + 'static,
{
    won(ctx, id, move |conn, loaded, now| {
        Ok(((), work(conn, loaded, now)?))
    })
    .await
}

/// [`change`], answered with the tournament's view.
async fn changed<F>(ctx: &Context, id: Uuid, work: F) -> Result<TournamentView, TournamentError>
where
    F: Fn(&mut DbConnection, &mut Loaded, DateTime<Utc>) -> Result<Paired, TournamentError>
        + Send
        + Sync
        + Clone
        + 'static,
{
    change(ctx, id, work).await?;
    get(ctx, id).await
}

/// After a commit: wakes the recipients of its events, and stops the
/// clocks of the new games of players on vacation.
pub async fn announce(ctx: &Context, paired: &Paired) {
    let recipients = notices::recipients(&paired.notices);
    for user in &recipients {
        ctx.notifier.user_event(*user);
    }
    for (game, _) in &paired.games {
        ctx.notifier.game_changed(*game, 1);
    }
    if paired.games.is_empty() {
        return;
    }
    let ids: Vec<String> = recipients.iter().map(Uuid::to_string).collect();
    let away = db::run_as(&ctx.pool, move |conn| {
        Ok::<_, TournamentError>(
            crate::storage::vacations::of_users(conn, &ids)?
                .into_iter()
                .filter(|row| row.since.is_some())
                .filter_map(|row| Uuid::parse_str(&row.user_id).ok())
                .collect::<Vec<Uuid>>(),
        )
    })
    .await;
    // (Should this fail, the vacation sweep pauses the games soon after.)
    let away = match away {
        Ok(away) => away,
        Err(error) => {
            tracing::warn!(%error, "new tournament games not checked for vacations");
            return;
        }
    };
    for (game, players) in &paired.games {
        if away.contains(&players.red) || away.contains(&players.blue) {
            if let Err(error) = crate::games::vacation::cover_game(ctx, *game).await {
                tracing::warn!(%error, game = %game, "a new tournament game was not checked for vacations");
            }
        }
    }
}
