//! A change decided from the game as this server last read it
//! (docs/storage.md, "A change decided from the game just read"): after a
//! view, the move that follows sends only its write; and when the game
//! changed meanwhile through another server, what is kept is never
//! trusted: no refusal comes from it, and no write made from it lands.

use domain::{Action, Color, Move, Rules, Variant, Viewer};
use serde_json::{json, Value};

use crate::harness::{assert_problem, spawn_app_with, Backend, TestApp, TestUser};
use crate::support::*;

/// The player to move makes `m` on `app`, with or without naming the
/// version; the answer must be the move made on the game as it is.
async fn play_here(app: &TestApp, game: &mut Match, m: Move, name_version: bool) -> u64 {
    let color = game.local.turn();
    let before = app.statements_sent();
    let response = app
        .post_json(
            &game.path("/moves"),
            Some(&game.user(color).access_token),
            &move_body(m, None, name_version.then_some(game.version)),
        )
        .await;
    let sent = app.statements_sent() - before;
    let status = response.status().as_u16();
    let answer: Value = response.json().await.unwrap();
    assert_eq!(status, 200, "{m} by {color}: {answer}");
    game.moved(color, m);
    assert_eq!(answer["game"]["version"], game.version);
    assert_view_matches(&answer["game"], &game.local, Viewer::Player(color));
    sent
}

/// A move that does not end the game (so that it is one statement).
fn quiet_move(game: &Match) -> Move {
    let moves = game.local.legal_moves();
    moves
        .iter()
        .copied()
        .find(|m| game.local.full_truth().piece_on(m.to).is_none())
        .unwrap_or(moves[0])
}

/// Sends `body` to `path` as `user`, under `key`; the status and the answer.
async fn post_keyed(
    app: &TestApp,
    path: &str,
    user: &TestUser,
    key: &str,
    body: &Value,
) -> (u16, Value) {
    let response = app
        .client
        .post(app.url(path))
        .bearer_auth(&user.access_token)
        .header("Idempotency-Key", key)
        .json(body)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

backend_tests! {
    /// The recent games count what they served (the deadline sweep logs
    /// the hit rates): a move after a view finds its game's row; a move
    /// right after a move does not (the write made what was read stale);
    /// a view asked again at the same version is served from the recent
    /// games' views.
    async fn the_caches_count_their_hits_and_misses(app) {
        let (red, blue) = two_users(&app, "keptcount").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 23).await;
        let kept = || app.games.recent.counts().changes;
        let views = || app.games.recent.counts().views;
        let mover = game.user(game.local.turn()).clone();
        let (views_before, kept_before) = (views(), kept());
        game_view(&app, &game.id, &mover).await;
        game_view(&app, &game.id, &mover).await;
        let after = views();
        assert_eq!(after.0 - views_before.0, 1, "the second view was not served from the cache");
        assert!(after.1 > views_before.1, "the first view was not a miss");
        let m = quiet_move(&game);
        play_here(&app, &mut game, m, true).await;
        assert_eq!(kept(), (kept_before.0 + 1, kept_before.1), "the move after a view");
        let m = quiet_move(&game);
        play_here(&app, &mut game, m, true).await;
        assert_eq!(kept(), (kept_before.0 + 1, kept_before.1 + 1), "the move after a move");
    }

    /// The clock ending a game forgets what this process read of it, as
    /// any change does: a game over keeps no row.
    async fn the_clock_forgets_the_game_it_ends(app) {
        let ann = app.register_user("ann").await;
        let bob = app.register_user("bob").await;
        let id = start_game(&app, &ann, &bob, 1).await;
        app.clock.advance(chrono::Duration::days(2));
        // Kept as read now, after the deadline passed (a read before it
        // would have aged out with the clock).
        let game = uuid::Uuid::parse_str(&id).unwrap();
        let key = id.clone();
        let row = api::db::run(&app.pool, move |conn| {
            Ok(api::storage::games::find(conn, &key)?)
        })
        .await
        .unwrap()
        .unwrap();
        app.games.recent.keep_game(game, row, Default::default(), None);
        assert!(app.games.recent.game(game).is_some());
        assert_eq!(sweep(&app).await, 1);
        assert!(
            app.games.recent.game(game).is_none(),
            "the game the clock ended is still kept"
        );
    }

    /// A keyed move decided from the kept game is made once: sent again
    /// under its key after the game was read anew (so that the next
    /// version is kept), it gets the first answer and moves nothing; a
    /// stranger's move in between is refused and moves nothing either.
    async fn a_keyed_move_from_a_kept_game_is_made_once(app) {
        let (red, blue) = two_users(&app, "keptkey").await;
        let stranger = app.register_user("keptkey_x").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 17).await;
        for round in 0..3 {
            let color = game.local.turn();
            let mover = game.user(color).clone();
            assert_eq!(game_view(&app, &game.id, &mover).await["version"], game.version);
            let m = quiet_move(&game);
            let body = move_body(m, None, Some(game.version));
            let key = format!("kept-{round}");
            let (status, first) = post_keyed(&app, &game.path("/moves"), &mover, &key, &body).await;
            assert_eq!(status, 200, "round {round}: {first}");
            game.moved(color, m);
            assert_eq!(first["game"]["version"], game.version);

            // Kept again, at the version the move made.
            let view = game_view(&app, &game.id, &mover).await;
            assert_view_matches(&view, &game.local, Viewer::Player(color));
            let theirs = quiet_move(&game);
            let r = app
                .post_json(&game.path("/moves"), Some(&stranger.access_token), &move_body(theirs, None, None))
                .await;
            assert_problem(r, 403, "forbidden").await;
            assert_eq!(game_view(&app, &game.id, &mover).await["version"], game.version);

            let (status, again) = post_keyed(&app, &game.path("/moves"), &mover, &key, &body).await;
            assert_eq!(status, 200, "round {round}: {again}");
            assert_eq!(again, first, "round {round}: the retry was not given the first answer");
            for user in [game.red.clone(), game.blue.clone()] {
                assert_eq!(game_view(&app, &game.id, &user).await["version"], game.version, "round {round}");
            }
            // The opponent, who read the game above, moves from it.
            let m = quiet_move(&game);
            play_here(&app, &mut game, m, round % 2 == 0).await;
            if game.local.is_finished() {
                break;
            }
        }
    }

    /// Changes that are not moves are decided from the kept game too: an
    /// offer after a view, a refusal of the offerer's own acceptance (from
    /// a fresh read, with nothing moved), and the acceptance that ends the
    /// game, each after a view.
    async fn draws_are_decided_from_the_kept_game(app) {
        let (red, blue) = two_users(&app, "keptdraw").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 23).await;
        let (offerer, other) = match game.local.turn() {
            Color::Red => (game.red.clone(), game.blue.clone()),
            Color::Blue => (game.blue.clone(), game.red.clone()),
        };
        let offering = game.local.turn();
        assert_eq!(game_view(&app, &game.id, &offerer).await["version"], game.version);
        let before = app.statements_sent();
        let offered = post_ok(&app, &game.path("/draw"), &offerer, &json!({"action": "offer"}), 200).await;
        if app.backend == Backend::Postgres {
            // Its write alone: the game was not read again.
            assert_eq!(app.statements_sent() - before, 1, "the offer read the game");
        }
        game.local.apply(offering, Action::OfferDraw).unwrap();
        game.version += 1;
        assert_eq!(offered["version"], game.version);
        assert_eq!(offered["draw_offer"], offering.to_string());

        // The offerer reads (kept, with the offer standing) and cannot
        // accept their own offer.
        assert_eq!(game_view(&app, &game.id, &offerer).await["draw_offer"], offering.to_string());
        let r = app.post_json(&game.path("/draw"), Some(&offerer.access_token), &json!({"action": "accept"})).await;
        assert_problem(r, 409, "wrong_phase").await;
        assert_eq!(game_view(&app, &game.id, &other).await["version"], game.version);

        let drawn = post_ok(&app, &game.path("/draw"), &other, &json!({"action": "accept"}), 200).await;
        assert_eq!(drawn["status"], "finished");
        assert_eq!(drawn["result"], json!({"winner": null, "reason": "draw_agreed"}));
        assert_eq!(drawn["version"], game.version + 1);
        for user in [&offerer, &other] {
            let view = game_view(&app, &game.id, user).await;
            assert_eq!(view["status"], "finished");
            assert_eq!(view["version"], game.version + 1);
        }
    }
}

postgres_tests! {
    /// A view, then a move: the move is decided from the game the view
    /// read and sends one statement, its write; the next move, with no
    /// view before it, reads the game again.
    async fn a_move_after_a_view_sends_only_its_write(app) {
        let (red, blue) = two_users(&app, "keptcost").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 5).await;
        for ply in 0..6 {
            let mover = game.user(game.local.turn()).clone();
            let view = game_view(&app, &game.id, &mover).await;
            assert_eq!(view["version"], game.version);
            let m = quiet_move(&game);
            let sent = play_here(&app, &mut game, m, ply % 2 == 0).await;
            assert_eq!(sent, 1, "ply {ply}: a move after a view");
            if game.local.is_finished() {
                return;
            }
        }
        let m = quiet_move(&game);
        assert_eq!(play_here(&app, &mut game, m, true).await, 2, "a move with no view before it");
    }

    /// Blue's view is kept here with Red to move; Red moves through another
    /// server. Blue's move here, without a version and then with one, is
    /// refused by nothing kept: it is decided on the game as it is.
    async fn nothing_kept_refuses_a_move_the_game_allows(app) {
        let (red, blue) = two_users(&app, "keptrefuse").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 9).await;
        let replica = Replica::start(&app).await;
        for (round, name_version) in [false, true, false, true].into_iter().enumerate() {
            // Both players read here: the game is kept at this version,
            // with Red (or Blue) to move.
            for user in [game.red.clone(), game.blue.clone()] {
                assert_eq!(game_view(&app, &game.id, &user).await["version"], game.version);
            }
            let m = quiet_move(&game);
            replica.play(&mut game, m).await;
            // Kept: not this player's turn, and an older version.
            let m = quiet_move(&game);
            play_here(&app, &mut game, m, name_version).await;
            assert_eq!(
                game_view(&app, &game.id, &game.red.clone()).await["version"],
                game.version,
                "round {round}"
            );
            if game.local.is_finished() {
                break;
            }
        }
        replica.stop().await;
    }

    /// The game is kept here, then two moves are made through another
    /// server, so that the same player is to move again: a move decided
    /// from what is kept would be that player's move on the old position.
    /// Its write matches nothing; the move is made on the game as it is.
    async fn a_write_decided_from_a_stale_game_never_lands(app) {
        let (red, blue) = two_users(&app, "keptstale").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 13).await;
        let replica = Replica::start(&app).await;
        let mut tried = 0;
        for round in 0..4 {
            let mover = game.user(game.local.turn()).clone();
            assert_eq!(game_view(&app, &game.id, &mover).await["version"], game.version);
            let kept = game.local.clone();
            for _ in 0..2 {
                let m = quiet_move(&game);
                replica.play(&mut game, m).await;
            }
            if game.local.is_finished() {
                break;
            }
            // A move legal on the kept position too, so that it is decided
            // and written from it; without a version, only the stored
            // version stops that write.
            let old = kept.legal_moves();
            let both = game.local.legal_moves().iter().copied().find(|m| {
                old.contains(m) && game.local.full_truth().piece_on(m.to).is_none()
            });
            let m = both.unwrap_or_else(|| quiet_move(&game));
            let sent = play_here(&app, &mut game, m, false).await;
            if both.is_some() {
                // The write from the kept game (matching nothing), the
                // read, the write.
                assert_eq!(sent, 3, "round {round}: the kept move was not tried");
                tried += 1;
            }
            // Both servers agree with the local copy, move for move.
            for (user, color) in [(game.red.clone(), Color::Red), (game.blue.clone(), Color::Blue)] {
                let viewer = Viewer::Player(color);
                let here = game_view(&app, &game.id, &user).await;
                assert_view_matches(&here, &game.local, viewer);
            }
            if game.local.is_finished() {
                break;
            }
        }
        assert!(tried > 0, "no move was legal on both positions");
        replica.stop().await;
    }
}

/// On SQLite a move after a view is decided from the kept game before its
/// turn on the writer even when none of the pool's connections is idle
/// (the plan reads nothing): its turn on the writer only writes, as when
/// connections are idle.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_a_kept_move_needs_no_idle_connection() {
    let app = spawn_app_with(Backend::Sqlite, |_| {}).await;
    let (red, blue) = two_users(&app, "keptidle").await;
    let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), 21).await;
    let mut in_turn = Vec::new();
    for hold_all in [false, true] {
        let mover = game.user(game.local.turn()).clone();
        assert_eq!(
            game_view(&app, &game.id, &mover).await["version"],
            game.version
        );
        // Every connection the pool has or opens meanwhile (it opens new
        // ones in the background up to its size).
        let mut held = Vec::new();
        let mut quiet_rounds = 0;
        while hold_all && quiet_rounds < 3 {
            let before = held.len();
            held.extend(std::iter::from_fn(|| app.pool.try_get()));
            quiet_rounds = if held.len() == before {
                quiet_rounds + 1
            } else {
                0
            };
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(held.is_empty(), !hold_all);
        let before = app.statements_sent_by_writer();
        let m = quiet_move(&game);
        play_here(&app, &mut game, m, true).await;
        in_turn.push(app.statements_sent_by_writer() - before);
        drop(held);
    }
    println!("statements in the writer's turn: {in_turn:?}");
    assert_eq!(
        in_turn[1], in_turn[0],
        "with no idle connection the move read in its turn"
    );
}
