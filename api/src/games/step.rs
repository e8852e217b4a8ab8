//! The step every command on an existing game shares: load the game, check
//! the caller's precondition and the clock, let the command decide (with
//! `domain`), write the next version and the action log with a version
//! check, and build the caller's answer. On PostgreSQL all of it runs in
//! the write transaction; on SQLite the first attempt loads and decides
//! before it (docs/storage.md, "Group commit on SQLite").

use std::sync::Arc;

use chrono::{DateTime, Utc};
use domain::{Action, Color, MoveRecord, Viewer};
use uuid::Uuid;

use super::answers::{self, game_view, GameView, Names};
use super::error::GameError;
use super::fetch::load_with_names;
use super::kept::Kept;
use super::notices::{self, EventPayload, Notice};
use super::record::{GameRecord, Phase};
use super::written::{self, Answered, Change, Failed, Idempotency};
use super::{clock, rated, Context};
use crate::db::{DbConnection, Idle, StoreError};
use crate::events::NewEvent;
use crate::storage::games::{self as store, ActionRow, GameRow, NamesRead};
use crate::storage::idempotency::IdempotencyRow;
use crate::storage::to_db_time;
use crate::username::DELETED_USERNAME;

/// A condition on the game's version named by the request.
#[derive(Debug, Clone)]
pub enum Precondition {
    /// `expected_version` in the body.
    Version(i64),
    /// `If-Match` with a view's ETag.
    Tag(String),
}

impl Precondition {
    fn check(&self, record: &GameRecord, user: Uuid) -> Result<(), GameError> {
        match self {
            Precondition::Version(expected) if *expected != record.version => {
                Err(GameError::StaleVersion {
                    current: record.version,
                    expected: *expected,
                })
            }
            Precondition::Tag(header)
                if !answers::tag_matches(
                    header,
                    &answers::etag(record.id, record.version, Some(user)),
                ) =>
            {
                Err(GameError::StaleTag)
            }
            _ => Ok(()),
        }
    }
}

/// What a command decided about a loaded game (already changed in memory).
pub struct Decision {
    /// The domain action to append to the log (with its full record).
    pub log: Option<(Color, Action, Option<MoveRecord>)>,
    pub notices: Vec<Notice>,
}

impl Decision {
    pub fn plain(notices: Vec<Notice>) -> Decision {
        Decision { log: None, notices }
    }
}

/// The color `user` plays, or a refusal naming what only players may do.
pub fn player_color(record: &GameRecord, user: Uuid, doing: &str) -> Result<Color, GameError> {
    record
        .color_of(user)
        .ok_or_else(|| GameError::forbidden(format!("only the players of this game may {doing}")))
}

/// Writes `record` (already changed in memory, still at its old version,
/// read with `names`) as the next version, with the logged action and, if
/// it ends a rated game, the players' new ratings; or reports a lost race.
pub fn save(
    conn: &mut DbConnection,
    record: &mut GameRecord,
    names: &Names,
    now: DateTime<Utc>,
    log: Option<(Color, Action, Option<MoveRecord>)>,
) -> Result<(), Failed> {
    let names = names_read(record, names);
    let encoded = Encoded::next_version(record, names, now, log)?;
    encoded.write(conn, record, now)
}

/// The usernames `record`'s seats had when it was read with `names`, as
/// its versioned write requires them still (`store::NamesRead`).
fn names_read(record: &GameRecord, names: &Names) -> NamesRead {
    [
        Some(record.creator),
        record.red,
        record.blue,
        record.challenged,
    ]
    .map(|user| user.and_then(|user| names.get(&user).cloned()))
}

/// A changed game as it will be stored: its row at the next version and
/// the action to log, encoded before the write.
struct Encoded {
    before: i64,
    names: NamesRead,
    row: GameRow,
    action: Option<ActionRow>,
}

impl Encoded {
    /// Moves `record` (already changed in memory, still at its old
    /// version) to the next version and encodes it.
    fn next_version(
        record: &mut GameRecord,
        names: NamesRead,
        now: DateTime<Utc>,
        log: Option<(Color, Action, Option<MoveRecord>)>,
    ) -> Result<Encoded, GameError> {
        let before = record.version;
        record.version = before + 1;
        record.updated_at = now;
        let action = match log {
            Some((color, action, moved)) => Some(ActionRow {
                game_id: record.id.to_string(),
                seq: record.version,
                color: color.name().to_owned(),
                action: serde_json::to_string(&action).map_err(GameError::internal)?,
                record: moved
                    .map(|m| serde_json::to_string(&m))
                    .transpose()
                    .map_err(GameError::internal)?,
                created_at: to_db_time(now),
            }),
            None => None,
        };
        Ok(Encoded {
            before,
            names,
            row: record.to_row()?,
            action,
        })
    }

    /// What the write requires of the stored game: the version and the
    /// names it was decided from.
    fn expected(&self) -> store::Expected<'_> {
        store::Expected {
            version: self.before,
            names: &self.names,
        }
    }

    /// The versioned write of `record`, encoded as `self`, and the ratings
    /// if it ends a rated game.
    fn write(
        &self,
        conn: &mut DbConnection,
        record: &GameRecord,
        now: DateTime<Utc>,
    ) -> Result<(), Failed> {
        if !store::save(conn, &self.row, self.expected(), self.action.as_ref())? {
            return Err(Failed::Lost);
        }
        // A game this write ended is rated with it (docs/ratings.md).
        rated::rate_if_ended(conn, record, now)?;
        Ok(())
    }
}

impl written::WriteAlone for Encoded {
    fn write_alone(
        &self,
        conn: &mut DbConnection,
        events: &[NewEvent],
        key: Option<&IdempotencyRow>,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        let events: Vec<_> = events.iter().map(NewEvent::row).collect();
        Ok(store::save_with_events(
            conn,
            &self.row,
            self.expected(),
            self.action.as_ref(),
            &events,
            key,
            to_db_time(now),
        )?)
    }
}

/// After an action in play: the phase (finished?), the next deadline, and
/// who to tell. `moved`: the move just made, if it was one.
pub fn after_play(
    record: &mut GameRecord,
    now: DateTime<Utc>,
    moved: Option<&MoveRecord>,
) -> Vec<Notice> {
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
    record.deadline = Some(record.deadline_from(now));
    notice.into_iter().collect()
}

/// Runs `decide` on game `game_id` for `user` as one versioned write, and
/// answers with `answer` built from the caller's new view (and the move
/// just made, for moves). A deleted account is refused (401).
pub async fn act<T, D, A>(
    ctx: &Context,
    user: Uuid,
    game_id: Uuid,
    idempotency: Option<Idempotency>,
    precondition: Option<Precondition>,
    decide: D,
    answer: A,
) -> Result<Answered<T>, GameError>
where
    T: serde::Serialize + Send + 'static,
    D: Fn(&mut GameRecord, DateTime<Utc>) -> Result<Decision, GameError> + Send + Sync + 'static,
    A: Fn(&GameRecord, GameView, Option<&MoveRecord>) -> Result<T, GameError>
        + Send
        + Sync
        + 'static,
{
    let command = Command {
        user,
        leaving: false,
        game_id,
        precondition,
        decide,
        answer,
    };
    run(ctx, command, idempotency).await
}

/// [`act`] for the deletion of `user`'s account, which takes it out of
/// game `game_id` after the account was marked deleted.
pub async fn act_leaving<D>(
    ctx: &Context,
    user: Uuid,
    game_id: Uuid,
    decide: D,
) -> Result<Answered<()>, GameError>
where
    D: Fn(&mut GameRecord, DateTime<Utc>) -> Result<Decision, GameError> + Send + Sync + 'static,
{
    let command = Command {
        user,
        leaving: true,
        game_id,
        precondition: None,
        decide,
        answer: |_: &GameRecord, _: GameView, _: Option<&MoveRecord>| Ok(()),
    };
    run(ctx, command, None).await
}

/// [`act`]'s work, for any [`Command`].
async fn run<T, D, A>(
    ctx: &Context,
    command: Command<D, A>,
    idempotency: Option<Idempotency>,
) -> Result<Answered<T>, GameError>
where
    T: serde::Serialize + Send + 'static,
    D: Fn(&mut GameRecord, DateTime<Utc>) -> Result<Decision, GameError> + Send + Sync + 'static,
    A: Fn(&GameRecord, GameView, Option<&MoveRecord>) -> Result<T, GameError>
        + Send
        + Sync
        + 'static,
{
    let (user, game_id) = (command.user, command.game_id);
    let command = Arc::new(command);
    // The game as this process last read it, if it did (`kept`): a change
    // is first decided from it, and its write matches only if the game is
    // still at that version; anything but a change made that way (a
    // refusal, a lost race) is decided again from a fresh read. Taken, not
    // shared: once this change is tried, the entry is of no more use.
    let kept = ctx.kept.take(game_id);
    let attempt = |kept: Option<Arc<Kept>>| {
        let early = command.clone();
        let command = command.clone();
        // Where the write waits its turn on a connection of its own
        // (SQLite), the game is read (unless kept) and decided before it,
        // and only the versioned write waits: a plan the game outgrew
        // meanwhile loses its race and the attempt runs again. A plan that
        // would be refused is not made: the refusal is decided inside the
        // write, as everywhere else, so it is never stale.
        let plan = move |idle: &mut Idle<'_>, now| match &kept {
            Some(kept) => early.decided_kept(kept, now).ok(),
            None => early.decided(&mut *idle()?, now).ok(),
        };
        written::commit_planned(
            ctx,
            user,
            idempotency.clone(),
            Some(plan),
            move |conn, now, planned| {
                let (record, encoded, change) = match planned {
                    Some(planned) => planned,
                    None => command.decided(conn, now)?,
                };
                encoded.write(conn, &record, now)?;
                Ok(change)
            },
        )
    };
    // Unless it ends the game (which rates it, docs/ratings.md), the whole
    // write of a change is the game's versioned update, its action, its
    // events and the answer under its key: one statement where that is a
    // transaction of its own.
    let alone = |kept: Option<Arc<Kept>>| {
        let command = command.clone();
        written::commit_alone(ctx, user, idempotency.clone(), move |conn, now| {
            let decided = match &kept {
                // Anything but a change is decided again from a read.
                Some(kept) => match command.decided_kept(kept, now) {
                    Ok(decided) => decided,
                    Err(_) => return Ok(None),
                },
                None => command.decided(conn, now)?,
            };
            let (record, encoded, change) = decided;
            let ends = matches!(record.phase, Phase::Finished(_));
            Ok((!ends).then_some((encoded, change)))
        })
    };
    let mut first = None;
    if kept.is_some() {
        first = alone(kept.clone()).await;
    }
    if first.is_none() {
        first = alone(None).await;
    }
    // (On PostgreSQL the kept game was tried above.)
    let first = match first {
        Some(first) => first,
        None => attempt(kept.filter(|_| !ctx.pool.is_postgres())).await,
    };
    match first {
        Err(GameError::Overdue) => {
            clock::expire(ctx, ctx.clock.now(), game_id).await?;
            attempt(None).await
        }
        other => other,
    }
}

/// What [`act`] was asked to do.
struct Command<D, A> {
    user: Uuid,
    /// The deletion of `user`'s account taking it out of the game: the one
    /// change a deleted account still makes ([`act_leaving`]).
    leaving: bool,
    game_id: Uuid,
    precondition: Option<Precondition>,
    decide: D,
    answer: A,
}

impl<T, D, A> Command<D, A>
where
    D: Fn(&mut GameRecord, DateTime<Utc>) -> Result<Decision, GameError>,
    A: Fn(&GameRecord, GameView, Option<&MoveRecord>) -> Result<T, GameError>,
{
    /// Loads the game, checks the clock and the precondition, lets
    /// `decide` change it and encodes the next version, and builds the
    /// caller's answer: everything of a change but its write.
    fn decided(
        &self,
        conn: &mut DbConnection,
        now: DateTime<Utc>,
    ) -> Result<(GameRecord, Encoded, Change<T>), GameError> {
        let (record, names) = load_with_names(conn, self.game_id)?;
        self.decided_on(record, &names, now)
    }

    /// [`Self::decided`] on the game as `kept`.
    fn decided_kept(
        &self,
        kept: &Kept,
        now: DateTime<Utc>,
    ) -> Result<(GameRecord, Encoded, Change<T>), GameError> {
        self.decided_on(GameRecord::from_row(&kept.row)?, &kept.names, now)
    }

    /// [`Self::decided`] on `record` as already read, with `names`.
    fn decided_on(
        &self,
        mut record: GameRecord,
        names: &Names,
        now: DateTime<Utc>,
    ) -> Result<(GameRecord, Encoded, Change<T>), GameError> {
        let user = self.user;
        // A deleted account acts in no game but to leave it, whatever was
        // in flight when it was deleted (docs/accounts.md, "Deleting an
        // account"); the names are those of this very read, and the write
        // requires them unchanged.
        let deleted = names
            .get(&user)
            .is_some_and(|name| name == DELETED_USERNAME);
        if deleted && !self.leaving {
            return Err(GameError::AccountGone);
        }
        let read = names_read(&record, names);
        // The deadline is decided from the row just loaded: a game past it
        // is ended by the clock first (`act`), never changed.
        if record.is_overdue(now) {
            return Err(GameError::Overdue);
        }
        // Preconditions concern the players' writes; anyone else is
        // refused by `decide` with 403 whatever version they name.
        if let Some(condition) = self
            .precondition
            .as_ref()
            .filter(|_| record.color_of(user).is_some())
        {
            condition.check(&record, user)?;
        }
        let decision = (self.decide)(&mut record, now)?;
        let moved = decision.log.as_ref().and_then(|(_, _, moved)| *moved);
        let encoded = Encoded::next_version(&mut record, read, now, decision.log)?;
        let view = game_view(&record, names, Some(user));
        let change = Change {
            value: (self.answer)(&record, view, moved.as_ref())?,
            game_id: record.id,
            version: record.version,
            notices: decision.notices,
        };
        Ok((record, encoded, change))
    }
}

/// The plain answer of most commands: the caller's new view.
pub fn view_answer(
    _record: &GameRecord,
    view: GameView,
    _moved: Option<&MoveRecord>,
) -> Result<GameView, GameError> {
    Ok(view)
}
