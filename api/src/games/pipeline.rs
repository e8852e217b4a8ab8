//! The one way a game changes (docs/architecture.md, "The write
//! pipeline"). Every change to an existing game takes it: a move, a setup,
//! joining, declining, aborting, resigning, a draw, the clock ending the
//! game at its deadline, a bot's move, an account's deletion taking it
//! out of its games. Its stages, in order:
//!
//! 1. **source** ([`Source`]): the game as this process last read it, if
//!    it did recently (`games::recent`), else read now, with its version and the
//!    usernames it was read with; before it, a stored answer under the
//!    request's `Idempotency-Key` is looked up (and replayed).
//! 2. **decide** ([`decide`]): the checks every change shares (a deleted
//!    account acts in no game; a game past its deadline is ended by the
//!    clock first; the request's precondition), then the command's pure
//!    decision (`games::decide`, in the end `domain::Game::apply`): a
//!    changed game with its log entry and notices, or a refusal.
//! 3. **encode** ([`Encoded`]): the rows to write: the game at its next
//!    version, the action, the events, the answer under the key.
//! 4. **write** (`storage::changes`, the backend's way, chosen once when
//!    the pool opened): versioned, so a change decided from a game that
//!    changed meanwhile is not written and the whole pipeline runs again
//!    from a fresh read. A refusal with a key writes only the key.
//! 5. **announce** ([`announce`]): after the commit, what this process
//!    read of the game before is forgotten, its waiters are woken, and the other
//!    processes are told.

use std::sync::Arc;

use chrono::{DateTime, Duration, NaiveDateTime, Utc};
use domain::{Action, Color, MoveRecord};
use serde::Serialize;
use uuid::Uuid;

use super::answers::{game_view, Names};
use super::decide::{self as decision, Answer, Command, Decision};
use super::error::GameError;
use super::fetch::load_with_names;
use super::notices::{self, EventPayload};
use super::recent::ReadGame;
use super::record::{GameRecord, Phase};
use super::step::Precondition;
use super::written::{Answered, Change, Failed, Idempotency, Replayed, Written};
use super::{clock, rated, Context};
use crate::db::{self, DbConnection, Next, Reader, StoreError, WriteTo};
use crate::events::NewEvent;
use crate::storage::changes::{self, ChangeRows, Outcome};
use crate::storage::events::NewEventRow;
use crate::storage::games::{ActionRow, Expected, GameRow, NamesRead, SeatsRead};
use crate::storage::idempotency::{self as keys, IdempotencyRow};
use crate::storage::to_db_time;
use crate::storage::users::{self, RowLock};
use crate::username::DELETED_USERNAME;

/// Attempts before a change that keeps losing races gives up.
const MAX_ATTEMPTS: usize = 8;

/// Who makes a change.
#[derive(Debug, Clone, Copy)]
pub enum Actor {
    /// A user (the command refuses those who may not): a deleted account
    /// is refused.
    User(Uuid),
    /// The deletion of this account taking it out of the game: the one
    /// change a deleted account still makes.
    Leaving(Uuid),
    /// The clock, ending the game at its deadline.
    Clock,
}

impl Actor {
    pub(super) fn user(self) -> Option<Uuid> {
        match self {
            Actor::User(user) | Actor::Leaving(user) => Some(user),
            Actor::Clock => None,
        }
    }
}

/// A change asked of game `game_id`: who asks, on what condition, under
/// what key, and which command.
pub struct Request {
    pub game_id: Uuid,
    pub actor: Actor,
    pub precondition: Option<Precondition>,
    pub idempotency: Option<Idempotency>,
    pub command: Command,
}

/// Runs `request` through the pipeline (see the module documentation).
pub async fn run(ctx: &Context, request: Request) -> Result<Answered<Answer>, GameError> {
    let (game_id, actor) = (request.game_id, request.actor);
    let request = Arc::new(request);
    // Taken, not shared: once this change is tried, the row is of no
    // more use (its write would make it stale).
    let mut recent = ctx.recent.take_game(game_id);
    for tried in 0..MAX_ATTEMPTS {
        let now = ctx.clock.now();
        let source = recent.take();
        let (read, write) = (request.clone(), request.clone());
        // After a lost race, SQLite reads inside the writer's turn, where
        // the writes of its group are seen: one stale read costs one
        // attempt, not all of them.
        let reading = if tried == 0 {
            db::Reading::Before
        } else {
            db::Reading::InTurn
        };
        // From a game read recently, the change may need no read: then it
        // is decided and written here, on this HTTP worker, where the
        // backend can write it so.
        let here = match source.clone().filter(|_| ctx.pool.writes_here()) {
            Some(at_hand) => decided_and_written_here(ctx, &request, at_hand, now).await,
            None => None,
        };
        let attempt = match here {
            Some(attempt) => attempt,
            None => {
                db::run_change(
                    &ctx.pool,
                    reading,
                    move |reader| sourced_and_decided(reader, &read, source.clone(), now),
                    move |to, decided| written(to, &write, decided, now),
                )
                .await
            }
        };
        match attempt {
            Ok(Step::Written(change)) => return Ok(Answered::Written(announce(ctx, change))),
            Ok(Step::Replayed(replayed)) => return Ok(Answered::Replayed(replayed)),
            Ok(Step::Refused(GameError::Overdue)) => {
                // The clock's change is itself a run of this pipeline (one
                // that is never overdue): boxed, as async recursion must be.
                Box::pin(clock::expire(ctx, game_id)).await?;
            }
            Ok(Step::Refused(refusal)) => return Err(refusal),
            Err(Failed::Lost) => {}
            Err(Failed::Refused(error)) => {
                return Err(match actor.user() {
                    Some(user) if refers_to_a_missing_user(&error) => {
                        whose_account_is_gone(ctx, user).await
                    }
                    _ => error,
                })
            }
        }
    }
    Err(GameError::KeptChanging)
}

/// How an attempt ended.
enum Step<T> {
    Written(Change<T>),
    Replayed(Replayed),
    /// Refused, and the refusal is the answer (stored under the key if
    /// there is one).
    Refused(GameError),
}

/// Stage 1: the game, as read recently or as read now.
struct Source {
    record: GameRecord,
    names: Names,
    /// Read recently, not now: a refusal decided from it may be stale.
    recent: bool,
}

impl Source {
    fn recent(game: &ReadGame) -> Result<Source, GameError> {
        let record = match &game.decoded {
            Some(decoded) => decoded.clone(),
            None => GameRecord::from_row(&game.row)?,
        };
        Ok(Source {
            record,
            names: game.names.clone(),
            recent: true,
        })
    }

    fn read(conn: &mut DbConnection, game_id: Uuid) -> Result<Source, GameError> {
        let (record, names) = load_with_names(conn, game_id)?;
        Ok(Source {
            record,
            names,
            recent: false,
        })
    }
}

/// What is to be written: a change, or (under a key) a refusal.
enum ToWrite<T> {
    Change(Box<Encoded>, Change<T>),
    Refusal(IdempotencyRow, GameError),
}

/// What an attempt decided to write, and whether an expired answer under
/// the request's key is to be replaced.
struct Decided<T> {
    write: ToWrite<T>,
    replaces_key: Option<NaiveDateTime>,
}

/// The stored answer under the request's key, if any: `Some` ends the
/// attempt with it.
pub(super) enum Stored {
    None,
    /// Past its time to live: replaced by this request's answer.
    Expired,
    Answer(Result<Replayed, GameError>),
}

/// Stages 1 to 3 of one attempt, outside any transaction.
fn sourced_and_decided(
    reader: &mut Reader<'_>,
    request: &Request,
    recent: Option<Arc<ReadGame>>,
    now: DateTime<Utc>,
) -> Result<Next<Decided<Answer>, Step<Answer>>, Failed> {
    let user = request.actor.user();
    let stored = match (&request.idempotency, user) {
        (Some(idem), Some(user)) => stored_answer(reader.conn()?, idem, user, now)?,
        _ => Stored::None,
    };
    let replaces_key = match stored {
        Stored::Answer(Ok(replayed)) => return Ok(Next::Done(Step::Replayed(replayed))),
        Stored::Answer(Err(refusal)) => return Ok(Next::Done(Step::Refused(refusal))),
        Stored::Expired => Some(expired_before(now)),
        Stored::None => None,
    };
    let mut recent = recent;
    let refusal = loop {
        let source = match recent.take().as_deref().map(Source::recent) {
            Some(Ok(source)) => source,
            _ => match Source::read(reader.conn()?, request.game_id) {
                Ok(source) => source,
                Err(GameError::Store(error)) => return Err(error.into()),
                // No such game: refused as any request is.
                Err(refusal) => break refusal,
            },
        };
        let from_recent = source.recent;
        match decide(request, source, now) {
            Ok((record, read, decision, names)) => {
                let encoded = Encoded::next_version(record, read, decision.log, now)?;
                let view = game_view(&encoded.record, &names, user, now);
                let change = Change {
                    value: decision::answer(
                        &request.command,
                        request.actor,
                        &encoded.record,
                        view,
                        encoded.moved.as_ref(),
                        decision.back_from_vacation,
                    )?,
                    game_id: request.game_id,
                    version: encoded.record.version,
                    notices: decision.notices,
                };
                let write = ToWrite::Change(Box::new(encoded), change);
                return Ok(Next::Write(Decided {
                    write,
                    replaces_key,
                }));
            }
            Err(GameError::Store(error)) => return Err(error.into()),
            // A refusal decided from a recent read may be stale: decided
            // again from a read now. One from a read now is the answer.
            Err(_) if from_recent => continue,
            Err(refusal) => break refusal,
        }
    };
    match (&request.idempotency, user) {
        (Some(idem), Some(user)) if remembered(&refusal) => {
            let key = refusal_row(idem, user, &refusal, now);
            Ok(Next::Write(Decided {
                write: ToWrite::Refusal(key, refusal),
                replaces_key,
            }))
        }
        _ => Ok(Next::Done(Step::Refused(refusal))),
    }
}

/// Stage 2: the checks every change shares, then the command's decision
/// on the game (changed in memory, still at the version it was read at).
fn decide(
    request: &Request,
    source: Source,
    now: DateTime<Utc>,
) -> Result<(GameRecord, AsRead, Decision, Names), GameError> {
    let Source {
        mut record, names, ..
    } = source;
    // The usernames the game was read with: the write requires them still.
    let read = AsRead::of(&record, &names);
    match request.actor {
        // A deleted account acts in no game but to leave it, whatever was
        // in flight when it was deleted (docs/accounts.md, "Deleting an
        // account").
        Actor::User(user) => {
            if names
                .get(&user)
                .is_some_and(|name| name == DELETED_USERNAME)
            {
                return Err(GameError::AccountGone);
            }
        }
        Actor::Leaving(_) => {}
        // The clock changes only a game past its deadline.
        Actor::Clock if !record.is_overdue(now) => {
            return Err(GameError::wrong_phase("the game is not past its deadline"))
        }
        Actor::Clock => {}
    }
    if let Some(user) = request.actor.user() {
        // A game past its deadline is ended by the clock first, never
        // changed (`run`).
        if record.is_overdue(now) {
            return Err(GameError::Overdue);
        }
        // Preconditions concern the players' writes; anyone else is
        // refused by `decide` with 403 whatever version they name.
        if let Some(condition) = request
            .precondition
            .as_ref()
            .filter(|_| record.color_of(user).is_some())
        {
            condition.check(&record, user)?;
        }
    }
    let decision = decision::decide(&request.command, request.actor, &mut record, now)?;
    Ok((record, read, decision, names))
}

/// What a change's versioned write requires of the stored game besides
/// its version, as the game was read: the usernames its seats had, and
/// its status and seats (which a change that keeps them need not write).
pub(super) struct AsRead {
    names: NamesRead,
    seats: SeatsRead,
}

impl AsRead {
    /// `record` as read with the usernames `names`.
    pub(super) fn of(record: &GameRecord, names: &Names) -> Self {
        let name = |user: Option<Uuid>| user.and_then(|user| names.get(&user).cloned());
        AsRead {
            names: [
                name(Some(record.creator)),
                name(record.red),
                name(record.blue),
                name(record.challenged),
            ],
            seats: SeatsRead {
                status: record.status().as_str(),
                red: record.red,
                blue: record.blue,
            },
        }
    }

    /// The write's condition: still at `version` and as read.
    pub(super) fn expected(&self, version: i64) -> Expected<'_> {
        Expected {
            version,
            names: &self.names,
            seats: self.seats,
        }
    }
}

/// Stage 3: a changed game as it will be stored: its row at the next
/// version and the action to log.
struct Encoded {
    record: GameRecord,
    before: i64,
    read: AsRead,
    row: GameRow,
    action: Option<ActionRow>,
    moved: Option<MoveRecord>,
}

impl Encoded {
    /// Whether this change ends the game (and is rated with it).
    fn ends_the_game(&self) -> bool {
        matches!(self.record.phase, Phase::Finished(_))
    }

    /// Moves `record` (changed in memory, still at its old version) to the
    /// next version and encodes it.
    fn next_version(
        mut record: GameRecord,
        read: AsRead,
        log: Option<(Color, Action, Option<MoveRecord>)>,
        now: DateTime<Utc>,
    ) -> Result<Encoded, GameError> {
        let before = record.version;
        record.version = before + 1;
        record.updated_at = now;
        let moved = log.as_ref().and_then(|(_, _, moved)| *moved);
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
            row: record.to_row()?,
            record,
            before,
            read,
            action,
            moved,
        })
    }
}

/// Stage 4: writes what was decided, or says the race was lost (which,
/// inside the SQLite writer's transaction, rolls back what this attempt
/// wrote).
fn written<T: Serialize>(
    to: WriteTo<'_>,
    request: &Request,
    decided: Decided<T>,
    now: DateTime<Utc>,
) -> Result<Step<T>, Failed> {
    let replaces_key = decided.replaces_key;
    match decided.write {
        ToWrite::Refusal(key, refusal) => match changes::write_key(to, &key, replaces_key)? {
            Outcome::Written => Ok(Step::Refused(refusal)),
            // Another request with the key answered first: its answer
            // comes out of the next attempt.
            Outcome::Lost => Err(Failed::Lost),
        },
        ToWrite::Change(encoded, change) => {
            let besides = Besides::of(request, &change, now)?;
            let events = besides.event_rows();
            let rows = besides.rows(&encoded, &events, replaces_key, now);
            // A game this change ends is rated with it (docs/ratings.md).
            let record = &encoded.record;
            let rate = encoded
                .ends_the_game()
                .then_some(move |conn: &mut DbConnection| rated::rate_if_ended(conn, record, now));
            match changes::write(to, &rows, rate)? {
                Outcome::Written => Ok(Step::Written(change)),
                Outcome::Lost => Err(Failed::Lost),
            }
        }
    }
}

/// Stages 1 to 4 of an attempt on this HTTP worker, without a blocking
/// thread, for a change decided from the game at hand that reads nothing
/// more (no answer under a key to look up, not refused) and writes one
/// statement (not rated, no expired key to replace), on the worker's own
/// connection (docs/storage.md, "Writes without a blocking thread").
/// `None`: this change is not to be written here and nothing was written;
/// the usual way reads, decides and writes it.
async fn decided_and_written_here(
    ctx: &Context,
    request: &Request,
    at_hand: Arc<ReadGame>,
    now: DateTime<Utc>,
) -> Option<Result<Step<Answer>, Failed>> {
    let mut reader = Reader::none();
    let decided = match sourced_and_decided(&mut reader, request, Some(at_hand), now) {
        Ok(Next::Done(step)) => return Some(Ok(step)),
        Ok(Next::Write(decided)) => decided,
        Err(_) if reader.wanted() => return None,
        Err(failed) => return Some(Err(failed)),
    };
    let ToWrite::Change(encoded, change) = decided.write else {
        return None;
    };
    if encoded.ends_the_game() {
        return None;
    }
    let besides = match Besides::of(request, &change, now) {
        Ok(besides) => besides,
        Err(error) => return Some(Err(error.into())),
    };
    let events = besides.event_rows();
    let rows = besides.rows(&encoded, &events, decided.replaces_key, now);
    Some(match changes::write_here(&ctx.pool, &rows).await? {
        Ok(Outcome::Written) => Ok(Step::Written(change)),
        Ok(Outcome::Lost) => Err(Failed::Lost),
        Err(error) => Err(error.into()),
    })
}

/// What a change writes besides the game and its action: its events, and
/// the answer under the request's key.
struct Besides {
    events: Vec<NewEvent>,
    key: Option<IdempotencyRow>,
}

impl Besides {
    fn of<T: Serialize>(
        request: &Request,
        change: &Change<T>,
        now: DateTime<Utc>,
    ) -> Result<Besides, GameError> {
        let key = match (&request.idempotency, request.actor.user()) {
            (Some(idem), Some(user)) => Some(answer_row(idem, user, change, now)?),
            _ => None,
        };
        Ok(Besides {
            events: notices::as_events(&change.notices)?,
            key,
        })
    }

    fn event_rows(&self) -> Vec<NewEventRow<'_>> {
        self.events.iter().map(NewEvent::row).collect()
    }

    /// Everything the change writes.
    fn rows<'a>(
        &'a self,
        encoded: &'a Encoded,
        events: &'a [NewEventRow<'a>],
        replaces_key: Option<NaiveDateTime>,
        now: DateTime<Utc>,
    ) -> ChangeRows<'a> {
        ChangeRows {
            row: &encoded.row,
            expected: encoded.read.expected(encoded.before),
            action: encoded.action.as_ref(),
            events,
            key: self.key.as_ref(),
            replaces_key,
            created_at: to_db_time(now),
        }
    }
}

/// Stage 5, after the commit: what this process read of the game before
/// could only lose its race now, so it is forgotten; this process's waiters
/// are woken and the other processes told of the change and of the
/// events of its recipients.
pub(super) fn announce<T>(ctx: &Context, change: Change<T>) -> Written<T> {
    ctx.recent.forget_before(change.game_id, change.version);
    ctx.notifier.game_changed(change.game_id, change.version);
    for user in notices::recipients(&change.notices) {
        ctx.notifier.user_event(user);
    }
    let ended = change.notices.iter().any(|notice| {
        matches!(
            notice.payload,
            EventPayload::GameFinished { .. } | EventPayload::GameAborted { .. }
        )
    });
    if ended {
        ctx.games_ended.notify_one();
    }
    Written {
        value: change.value,
        game_id: change.game_id,
        version: change.version,
    }
}

/// How long an idempotency key is remembered.
pub const IDEMPOTENCY_TTL_HOURS: i64 = 24;

/// The newest time an answer stored under a key can have and be expired
/// at `now`.
pub(super) fn expired_before(now: DateTime<Utc>) -> NaiveDateTime {
    to_db_time(now - Duration::hours(IDEMPOTENCY_TTL_HOURS))
}

/// The answer stored under the request's key, if there is one.
pub(super) fn stored_answer(
    conn: &mut DbConnection,
    idem: &Idempotency,
    user: Uuid,
    now: DateTime<Utc>,
) -> Result<Stored, StoreError> {
    let Some(stored) = keys::find(conn, &user.to_string(), &idem.key)? else {
        return Ok(Stored::None);
    };
    if stored.created_at <= expired_before(now) {
        return Ok(Stored::Expired);
    }
    if stored.fingerprint != idem.fingerprint {
        return Ok(Stored::Answer(Err(GameError::KeyReused)));
    }
    Ok(Stored::Answer(Ok(super::written::replayed(stored))))
}

/// `change`'s answer as it is stored under the request's key.
pub(super) fn answer_row<T: Serialize>(
    idem: &Idempotency,
    user: Uuid,
    change: &Change<T>,
    now: DateTime<Utc>,
) -> Result<IdempotencyRow, GameError> {
    Ok(IdempotencyRow {
        user_id: user.to_string(),
        idempotency_key: idem.key.clone(),
        fingerprint: idem.fingerprint.clone(),
        response_status: i32::from(idem.status),
        response_body: serde_json::to_string(&change.value).map_err(GameError::internal)?,
        game_id: Some(change.game_id.to_string()),
        game_version: Some(change.version),
        created_at: to_db_time(now),
    })
}

/// Whether a refusal is remembered under the request's key, so that a
/// retry with the key gets it again even if the game has changed since
/// (a move refused as `not_your_turn` stays refused): every refusal of
/// the request itself, not a failure of the service nor a reused key.
pub(super) fn remembered(refusal: &GameError) -> bool {
    !matches!(
        refusal,
        GameError::KeyReused
            | GameError::KeptChanging
            | GameError::Overdue
            | GameError::Store(_)
            | GameError::Internal(_)
    )
}

/// A refusal as it is stored under the request's key.
pub(super) fn refusal_row(
    idem: &Idempotency,
    user: Uuid,
    refusal: &GameError,
    now: DateTime<Utc>,
) -> IdempotencyRow {
    let (status, body) = (idem.refusal)(refusal);
    IdempotencyRow {
        user_id: user.to_string(),
        idempotency_key: idem.key.clone(),
        fingerprint: idem.fingerprint.clone(),
        response_status: i32::from(status),
        response_body: body,
        game_id: None,
        game_version: None,
        created_at: to_db_time(now),
    }
}

/// What [`refused_before`] found under the key, or did.
enum Before {
    Replayed(Replayed),
    Refused(GameError),
    Stored,
    Taken,
}

/// A refusal a command decided before its change could run (from what it
/// read of something else than the game, or of the request alone),
/// answered as the pipeline answers its own: under the request's key a
/// stored answer wins over it (a retry of a request that was answered
/// before gets that answer), and otherwise the refusal is stored, so
/// that a retry gets it again.
pub async fn refused_before<T>(
    ctx: &Context,
    user: Uuid,
    idempotency: Option<&Idempotency>,
    refusal: GameError,
) -> Result<Answered<T>, GameError> {
    let Some(idem) = idempotency.filter(|_| remembered(&refusal)) else {
        return Err(refusal);
    };
    for _ in 0..MAX_ATTEMPTS {
        let now = ctx.clock.now();
        let row = refusal_row(idem, user, &refusal, now);
        let idem = idem.clone();
        let outcome = db::run_write(&ctx.pool, move |conn| {
            let replaces = match stored_answer(conn, &idem, user, now)? {
                Stored::Answer(Ok(replayed)) => return Ok(Before::Replayed(replayed)),
                Stored::Answer(Err(reused)) => return Ok(Before::Refused(reused)),
                Stored::Expired => Some(expired_before(now)),
                Stored::None => None,
            };
            if let Some(expired) = replaces {
                keys::delete_expired(conn, &row.user_id, &row.idempotency_key, expired)?;
            }
            Ok::<_, StoreError>(if keys::insert(conn, &row)? {
                Before::Stored
            } else {
                // Taken meanwhile: the next attempt finds that answer.
                Before::Taken
            })
        })
        .await?;
        match outcome {
            Before::Replayed(replayed) => return Ok(Answered::Replayed(replayed)),
            Before::Refused(reused) => return Err(reused),
            Before::Stored => return Err(refusal),
            Before::Taken => {}
        }
    }
    Err(GameError::KeptChanging)
}

/// A write that names a user who does not exist: every user a change
/// writes is the caller or one it just looked up, so it is the caller's
/// account that is gone, deleted after their token was issued.
pub(super) fn refers_to_a_missing_user(error: &GameError) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    match error {
        GameError::Store(StoreError::Query(Error::DatabaseError(kind, info))) => {
            matches!(kind, DatabaseErrorKind::ForeignKeyViolation)
                // The games' triggers refuse to put a deleted account in a
                // game (docs/accounts.md, "Deleting an account").
                || info.message().starts_with("account deleted")
        }
        _ => false,
    }
}

/// The refusal for a change that named an account that does not exist or
/// was deleted: the caller's own (its token outlived it: 401), or another
/// account in the game (deleted meanwhile: the change is not possible).
pub(super) async fn whose_account_is_gone(ctx: &Context, caller: Uuid) -> GameError {
    let id = caller.to_string();
    match db::run(&ctx.pool, move |conn| {
        Ok(users::live(conn, &id, RowLock::None)?.is_some())
    })
    .await
    {
        Ok(true) => GameError::wrong_phase("an account named in this game was deleted"),
        Ok(false) => GameError::AccountGone,
        Err(error) => GameError::Store(error),
    }
}
