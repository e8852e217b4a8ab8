//! Starting a tournament, pairing its rounds into games, and its end
//! (docs/tournaments.md). Each is one transaction that first writes the
//! tournament's row at the version it read: of two processes that see
//! the same round end at once, the second waits for the first's commit,
//! finds the version moved and writes nothing, so a round is paired
//! exactly once.

use chrono::{DateTime, Utc};
use domain::tournament::{self, Entrant, Round};
use domain::{ByColor, Color};
use uuid::Uuid;

use super::requests::{TournamentSystem, MIN_PLAYERS};
use super::view::{gone, Loaded};
use super::TournamentError;
use crate::db::DbConnection;
use crate::games::notices::{EventPayload, Notice, RoundGame};
use crate::games::record::{GameRecord, TournamentSettings};
use crate::storage::games as game_store;
use crate::storage::to_db_time;
use crate::storage::tournaments::{self as store, NamedPlayer};

/// The rating a player without one in the variant is seeded with.
pub const UNRATED: i32 = 1500;

/// What a transaction of this module wrote, to announce after its commit.
#[derive(Debug, Default)]
pub struct Paired {
    /// The games it created, each with its players.
    pub games: Vec<(Uuid, ByColor<Uuid>)>,
    pub notices: Vec<Notice>,
}

/// Starts the open tournament `loaded` at `now`: seats its players, and
/// pairs a round robin's every round or a Swiss tournament's first.
pub fn start(
    conn: &mut DbConnection,
    loaded: &mut Loaded,
    now: DateTime<Utc>,
) -> Result<Paired, TournamentError> {
    // A deleted account does not start (it can join no game).
    for player in loaded.players.iter().filter(|p| p.deleted_at.is_some()) {
        store::remove_player(conn, &loaded.row.id, &player.row.user_id)?;
    }
    loaded.players.retain(|p| p.deleted_at.is_none());
    let count = loaded.players.len();
    if count < MIN_PLAYERS {
        return Err(TournamentError::TooFewPlayers(format!(
            "a tournament starts with at least {MIN_PLAYERS} players; it has {count}"
        )));
    }
    let system = loaded.system()?;
    if let (TournamentSystem::Swiss, Some(rounds)) = (system, loaded.row.rounds) {
        if usize::try_from(rounds).unwrap_or(usize::MAX) >= count {
            return Err(TournamentError::TooFewPlayers(format!(
                "{rounds} Swiss rounds need at least {} players; it has {count}",
                rounds + 1
            )));
        }
    }
    // Seats in the order they joined; ratings as they stand now.
    let users: Vec<String> = loaded
        .players
        .iter()
        .map(|p| p.row.user_id.clone())
        .collect();
    let ratings = store::ratings_in(conn, &loaded.row.variant, &users)?;
    for (seat, player) in loaded.players.iter_mut().enumerate() {
        let rating = ratings
            .iter()
            .find(|(user, _)| *user == player.row.user_id)
            .map_or(UNRATED, |(_, r)| r.round() as i32);
        player.row.seat = Some(i32::try_from(seat).unwrap_or(i32::MAX));
        player.row.rating = Some(rating);
    }
    loaded.row.status = store::status::RUNNING.to_owned();
    loaded.row.started_at = Some(to_db_time(now));
    let rounds: Vec<Round> = match system {
        TournamentSystem::RoundRobin => tournament::round_robin(count, loaded.row.double_round),
        TournamentSystem::Swiss => {
            let entrants = entrants(loaded);
            let first = tournament::pair_swiss(&entrants, &loaded.history(), 1).map_err(|e| {
                TournamentError::TooFewPlayers(format!("the first round cannot be paired: {e}"))
            })?;
            vec![first]
        }
    };
    let mut row = loaded.row.clone();
    row.current_round = i32::try_from(rounds.len()).unwrap_or(i32::MAX);
    if system == TournamentSystem::RoundRobin {
        row.rounds = Some(row.current_round);
    }
    row.version += 1;
    if !store::save(conn, &row)? {
        return Err(TournamentError::Lost);
    }
    for player in &loaded.players {
        let (seat, rating) = (
            player.row.seat.unwrap_or(0),
            player.row.rating.unwrap_or(UNRATED),
        );
        store::seat_player(conn, &row.id, &player.row.user_id, seat, rating)?;
    }
    loaded.row = row;
    let mut paired = Paired::default();
    let mut mine: Vec<(Vec<RoundGame>, bool)> = vec![(Vec::new(), false); count];
    for (number, round) in (1..).zip(&rounds) {
        let created = create_round(conn, loaded, number, round, now)?;
        for Created {
            game,
            seats: (red, blue),
            players,
        } in created
        {
            paired.games.push((game, players));
            mine[red]
                .0
                .push(round_game(loaded, game, number, Color::Red, blue));
            mine[blue]
                .0
                .push(round_game(loaded, game, number, Color::Blue, red));
        }
        if number == 1 {
            if let Some(bye) = round.bye {
                mine[bye].1 = true;
            }
        }
    }
    let (id, name) = (loaded.id()?, loaded.row.name.clone());
    for (player, (games, bye)) in loaded.seated().into_iter().zip(mine) {
        paired.notices.push(Notice::new(
            user_id(player)?,
            EventPayload::TournamentStarted {
                tournament_id: id,
                name: name.clone(),
                games,
                bye,
            },
        ));
    }
    Ok(paired)
}

/// After the last game of a round of the running tournament `loaded`
/// ended: pairs the next Swiss round, or ends the tournament. `None` if
/// there is nothing to do (a game is still being played, or it is not
/// running).
pub fn advance(
    conn: &mut DbConnection,
    loaded: &Loaded,
    now: DateTime<Utc>,
) -> Result<Option<Paired>, TournamentError> {
    if loaded.row.status != store::status::RUNNING
        || loaded
            .games
            .iter()
            .any(|g| game_store::status::NOT_OVER.contains(&g.status.as_str()))
    {
        return Ok(None);
    }
    let current = u32::try_from(loaded.row.current_round).unwrap_or(0);
    let planned = loaded
        .row
        .rounds
        .and_then(|r| u32::try_from(r).ok())
        .unwrap_or(0);
    if loaded.system()? == TournamentSystem::Swiss && current < planned {
        let entrants = entrants(loaded);
        if entrants.iter().filter(|e| e.active).count() >= 2 {
            // A round that cannot be paired without a repeat ends the
            // tournament instead (docs/tournaments.md).
            if let Ok(round) = tournament::pair_swiss(&entrants, &loaded.history(), current + 1) {
                return next_round(conn, loaded, current + 1, &round, now).map(Some);
            }
        }
    }
    finish(conn, loaded, now).map(Some)
}

fn next_round(
    conn: &mut DbConnection,
    loaded: &Loaded,
    number: u32,
    round: &Round,
    now: DateTime<Utc>,
) -> Result<Paired, TournamentError> {
    let mut row = loaded.row.clone();
    row.current_round = i32::try_from(number).unwrap_or(i32::MAX);
    row.version += 1;
    if !store::save(conn, &row)? {
        return Err(TournamentError::Lost);
    }
    let created = create_round(conn, loaded, number, round, now)?;
    let seated = loaded.seated();
    let mut paired = Paired::default();
    let mut mine: Vec<Vec<RoundGame>> = vec![Vec::new(); seated.len()];
    for Created {
        game,
        seats: (red, blue),
        players,
    } in created
    {
        paired.games.push((game, players));
        mine[red].push(round_game(loaded, game, number, Color::Red, blue));
        mine[blue].push(round_game(loaded, game, number, Color::Blue, red));
    }
    let (id, name) = (loaded.id()?, loaded.row.name.clone());
    for (seat, (player, games)) in seated.into_iter().zip(mine).enumerate() {
        if gone(player) {
            continue;
        }
        paired.notices.push(Notice::new(
            user_id(player)?,
            EventPayload::RoundStarted {
                tournament_id: id,
                name: name.clone(),
                round: number,
                games,
                bye: round.bye == Some(seat),
            },
        ));
    }
    Ok(paired)
}

fn finish(
    conn: &mut DbConnection,
    loaded: &Loaded,
    now: DateTime<Utc>,
) -> Result<Paired, TournamentError> {
    let mut row = loaded.row.clone();
    row.status = store::status::FINISHED.to_owned();
    row.finished_at = Some(to_db_time(now));
    row.version += 1;
    if !store::save(conn, &row)? {
        return Err(TournamentError::Lost);
    }
    let seated = loaded.seated();
    let players = u32::try_from(seated.len()).unwrap_or(u32::MAX);
    let (id, name) = (loaded.id()?, loaded.row.name.clone());
    let mut paired = Paired::default();
    for standing in loaded.standings()? {
        let Some(player) = seated.get(standing.player) else {
            continue;
        };
        paired.notices.push(Notice::new(
            user_id(player)?,
            EventPayload::TournamentFinished {
                tournament_id: id,
                name: name.clone(),
                place: standing.rank,
                players,
            },
        ));
    }
    Ok(paired)
}

/// The seated players as the Swiss pairing takes them.
fn entrants(loaded: &Loaded) -> Vec<Entrant> {
    loaded
        .seated()
        .into_iter()
        .map(|p| Entrant {
            rating: p.row.rating.unwrap_or(UNRATED),
            active: !gone(p),
        })
        .collect()
}

/// A game a round created.
struct Created {
    game: Uuid,
    /// Red's seat and Blue's.
    seats: (usize, usize),
    players: ByColor<Uuid>,
}

/// Writes the games (and the bye) of round `number`; returns each game
/// with its red and blue seats.
fn create_round(
    conn: &mut DbConnection,
    loaded: &Loaded,
    number: u32,
    round: &Round,
    now: DateTime<Utc>,
) -> Result<Vec<Created>, TournamentError> {
    let settings: TournamentSettings = loaded.settings()?;
    let seated = loaded.seated();
    let tournament = loaded.id()?;
    let mut created = Vec::with_capacity(round.pairings.len());
    for pairing in &round.pairings {
        let (Some(red), Some(blue)) = (seated.get(pairing.red), seated.get(pairing.blue)) else {
            return Err(crate::games::GameError::internal("a pairing names no seat").into());
        };
        let id = Uuid::new_v4();
        let players = ByColor {
            red: user_id(red)?,
            blue: user_id(blue)?,
        };
        let record = GameRecord::of_tournament(id, &settings, players, (tournament, number), now);
        game_store::insert(conn, &record.to_row()?)?;
        created.push(Created {
            game: id,
            seats: (pairing.red, pairing.blue),
            players,
        });
    }
    if let Some(bye) = round.bye.and_then(|seat| seated.get(seat)) {
        let round = i32::try_from(number).unwrap_or(i32::MAX);
        store::add_bye(conn, &loaded.row.id, round, &bye.row.user_id)?;
    }
    Ok(created)
}

fn round_game(loaded: &Loaded, game: Uuid, round: u32, color: Color, opponent: usize) -> RoundGame {
    RoundGame {
        game_id: game,
        round,
        color,
        opponent: loaded
            .seated()
            .get(opponent)
            .map(|p| p.username.clone())
            .unwrap_or_default(),
    }
}

fn user_id(player: &NamedPlayer) -> Result<Uuid, TournamentError> {
    Uuid::parse_str(&player.row.user_id)
        .map_err(|_| crate::games::GameError::internal("a player's id is not a uuid").into())
}
