//! The usernames each game keeps beside its users' ids, kept equal to the
//! users' own by the database (docs/storage.md, "Usernames kept with the
//! game"): what a view shows after games were stored before the columns
//! existed, and after a deletion that races a seat being taken.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::harness::TestApp;
use crate::support::{create_game, game_view, join_game, pg_number, post_ok, start_game};

/// The version of the migration that added the names
/// (`2026-12-02-000100_names_with_games`).
const NAMES_MIGRATION: &str = "20261202000100";

/// Reverts the migrations down to and including the one that added the
/// names, then applies them all again, as on a database whose games were
/// stored before it.
async fn remigrate_names(app: &TestApp) {
    use api::db::{self, DbConnection, POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS};
    use diesel_migrations::MigrationHarness;

    let pool = app.pool.clone();
    tokio::task::spawn_blocking(move || {
        let mut conn = pool.get().unwrap();
        let mut reverted = 0;
        loop {
            let version = match &mut *conn {
                DbConnection::Postgresql(pg) => pg.revert_last_migration(POSTGRES_MIGRATIONS),
                DbConnection::Sqlite(sqlite) => sqlite.revert_last_migration(SQLITE_MIGRATIONS),
            }
            .unwrap()
            .to_string();
            reverted += 1;
            if version == NAMES_MIGRATION {
                break;
            }
            assert!(
                version.as_str() > NAMES_MIGRATION,
                "{NAMES_MIGRATION} was never applied"
            );
        }
        assert_eq!(db::migrate(&mut conn).unwrap(), reverted);
    })
    .await
    .unwrap();
}

fn username(player: &Value) -> &str {
    player["username"]
        .as_str()
        .unwrap_or_else(|| panic!("no username in {player}"))
}

backend_tests! {
    /// Games stored before the names were kept show them all once the
    /// migration has run: creator, both players, the challenged user.
    async fn games_stored_before_the_names_show_them(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let cyd = app.register_user("cyd").await;
        let playing = start_game(&app, &ann, &bob, 3).await;
        let open = create_game(&app, &cyd, &json!({"variant": "classic", "color": "blue"})).await;
        let challenge = create_game(&app, &bob, &json!({"opponent": "cyd"})).await;

        remigrate_names(&app).await;

        let view = game_view(&app, &playing, &cyd).await;
        assert_eq!(username(&view["players"]["red"]), "ann");
        assert_eq!(username(&view["players"]["blue"]), "bob");
        assert_eq!(username(&view["creator"]), "ann");
        assert_eq!(username(&view["opponent"]), "bob");
        let view = game_view(&app, &open, &ann).await;
        assert_eq!(username(&view["players"]["blue"]), "cyd");
        assert!(view["players"]["red"].is_null(), "{view}");
        assert!(view["opponent"].is_null(), "{view}");
        let view = game_view(&app, &challenge, &ann).await;
        assert_eq!(username(&view["creator"]), "bob");
        assert_eq!(username(&view["opponent"]), "cyd");

        // Seats taken afterwards show their names too.
        join_game(&app, &open, &ann).await;
        let path = format!("/api/v1/games/{challenge}/join");
        post_ok(&app, &path, &cyd, &json!({}), 200).await;
        let view = game_view(&app, &open, &bob).await;
        assert_eq!(username(&view["players"]["red"]), "ann");
        assert_eq!(username(&view["players"]["blue"]), "cyd");
        let view = game_view(&app, &challenge, &ann).await;
        let players = [username(&view["players"]["red"]), username(&view["players"]["blue"])];
        assert!(players.contains(&"bob") && players.contains(&"cyd"), "{view}");
    }
}

/// Runs `sql` (binding its two parameters) in a transaction on a
/// connection of its own, on a thread of its own: sends on `written` once
/// the statement ran, then commits when `commit` says.
fn hold_open(
    app: &TestApp,
    sql: &'static str,
    binds: [String; 2],
    written: mpsc::Sender<()>,
    commit: mpsc::Receiver<()>,
) -> std::thread::JoinHandle<()> {
    use diesel::{Connection, RunQueryDsl};
    let pool = app.pool.clone();
    std::thread::spawn(move || {
        let mut conn = pool.get().unwrap();
        let api::db::DbConnection::Postgresql(pg) = &mut *conn else {
            unreachable!("a PostgreSQL test")
        };
        pg.transaction::<_, diesel::result::Error, _>(|pg| {
            let [first, second] = binds;
            diesel::sql_query(sql)
                .bind::<diesel::sql_types::Text, _>(first)
                .bind::<diesel::sql_types::Text, _>(second)
                .execute(pg)?;
            // The second write does not wait to be told.
            let _ = written.send(());
            commit.recv().unwrap();
            Ok(())
        })
        .unwrap();
    })
}

/// Runs `sql` (binding its two parameters) in a transaction of its own
/// that commits as soon as the statement ends, on a thread and connection
/// of its own.
fn run_alone(app: &TestApp, sql: &'static str, binds: [String; 2]) -> std::thread::JoinHandle<()> {
    let (written, _) = mpsc::channel();
    let (commit_now, commit) = mpsc::channel();
    commit_now.send(()).unwrap();
    hold_open(app, sql, binds, written, commit)
}

/// `first` runs and stays uncommitted while `second` starts; `first`
/// commits once `second` waits for a lock (or after 5 s), then both end.
/// Whether `second` waited.
async fn race(
    app: &TestApp,
    first: (&'static str, [String; 2]),
    second: (&'static str, [String; 2]),
) -> bool {
    let (written, first_ran) = mpsc::channel();
    let (commit_first, commit) = mpsc::channel();
    let first = hold_open(app, first.0, first.1, written, commit);
    first_ran.recv().unwrap();
    let second_sql = second.0;
    let second = run_alone(app, second_sql, second.1);
    let waited = wait_for_a_waiter(app, second_sql).await;
    commit_first.send(()).unwrap();
    first.join().unwrap();
    second.join().unwrap();
    waited
}

/// Waits (at most 5 s) until a statement whose text is `sql` waits for a
/// lock; `false` if none did.
async fn wait_for_a_waiter(app: &TestApp, sql: &'static str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        let waiting = pg_number(
            app,
            "SELECT count(*) AS n FROM pg_stat_activity \
             WHERE datname = current_database() AND wait_event_type = 'Lock' AND query = $1",
            sql,
        );
        if waiting.await > 0 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

/// An account's deletion, as `storage::users::mark_deleted` renames it.
const RENAME: &str = "UPDATE users SET username = '[deleted]' WHERE id = $1 AND $2 <> ''";
/// A seat taken: the open Blue seat of a game.
const SEAT: &str = "UPDATE games SET blue_user_id = $1 WHERE id = $2";

postgres_tests! {
    /// A deletion in progress when a game seats its user: the seat waits
    /// for it and shows the deleted name, not the old one.
    async fn a_seat_taken_during_a_deletion_shows_the_deleted_name(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let open = create_game(&app, &ann, &json!({"variant": "classic", "color": "red"})).await;

        let deletion = (RENAME, [bob.id.clone(), "x".into()]);
        let waited = race(&app, deletion, (SEAT, [bob.id.clone(), open.clone()])).await;

        assert!(waited, "the seat did not wait for the deletion");
        let view = game_view(&app, &open, &ann).await;
        assert_eq!(username(&view["players"]["blue"]), "[deleted]", "{view}");
        assert_eq!(view["players"]["blue"]["deleted"], true, "{view}");
    }

    /// A deletion that starts while a game is seating its user waits for
    /// that write, then renames in that game too.
    async fn a_deletion_during_a_seat_renames_in_that_game(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let open = create_game(&app, &ann, &json!({"variant": "classic", "color": "red"})).await;

        let seat = (SEAT, [bob.id.clone(), open.clone()]);
        let waited = race(&app, seat, (RENAME, [bob.id.clone(), "x".into()])).await;

        assert!(waited, "the deletion did not wait for the seat");
        let view = game_view(&app, &open, &ann).await;
        assert_eq!(username(&view["players"]["blue"]), "[deleted]", "{view}");
    }
}

/// Seats Blue and holds the game row for two seconds before the statement
/// ends (and its trigger reads the names).
const SLOW_SEAT: &str =
    "WITH upd AS (UPDATE games SET blue_user_id = $1 WHERE id = $2 RETURNING id) \
                         SELECT pg_sleep(2) FROM upd";

postgres_tests! {
    /// An account deleted while a seat is being taken in one of its games:
    /// the write holds the game and will then read the users, and the
    /// deletion renames in every game of the user; both end, neither as
    /// the loser of a deadlock, and the game shows the deleted name.
    async fn a_deletion_and_a_seat_in_the_same_game_both_end(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let open = create_game(&app, &ann, &json!({"variant": "classic", "color": "red"})).await;

        let seat = run_alone(&app, SLOW_SEAT, [bob.id.clone(), open.clone()]);
        tokio::time::sleep(Duration::from_millis(300)).await;
        let deleted = crate::sessions::delete_account(&app, &ann, crate::harness::PASSWORD).await;
        assert_eq!(deleted.status(), reqwest::StatusCode::NO_CONTENT);
        seat.join().expect("the seat's write failed");

        let view = game_view(&app, &open, &bob).await;
        assert_eq!(username(&view["players"]["red"]), "[deleted]", "{view}");
        assert_eq!(username(&view["creator"]), "[deleted]", "{view}");
        assert_eq!(username(&view["players"]["blue"]), "bob", "{view}");
    }
}
