//! `GET /games/{id}/export`: the record as the caller may know it, as JSON
//! and as Gravon XML (docs/pictures-and-records.md). Once the game is over
//! it is the full record; while it runs it holds the caller's own setup
//! only, and the moves as the caller's history shows them.

use domain::rng::SplitMix64;
use domain::{Color, Game, MoveRecord, Rules, Setup, Variant, Viewer};
use serde_json::{json, Value};

use crate::harness::{assert_problem, TestApp, TestUser};
use crate::support::*;

/// Seed 31: a classic game with random setups ending with a flag capture
/// at ply 94 (as in games_leak.rs).
const SEED: u64 = 31;

/// One player's half of a starting position as a board string: that
/// player's pieces, `A` elsewhere, `_` on the lakes.
fn half(start: &Game, color: Color) -> String {
    let own = match color {
        Color::Red => 'B'..='M',
        Color::Blue => 'N'..='Y',
    };
    start
        .to_board_string()
        .chars()
        .map(|c| if own.contains(&c) || c == '_' { c } else { 'A' })
        .collect()
}

/// The starting position of the seed-31 game.
fn start() -> Game {
    Game::new(
        Variant::Classic,
        Rules::default(),
        Setup::random(Variant::Classic, Color::Red, SEED),
        Setup::random(Variant::Classic, Color::Blue, SEED),
    )
    .unwrap()
}

/// GETs the record in `format` as `user`: asserts 200, the content type and
/// the attachment's file name; returns the body.
async fn get_record(app: &TestApp, game: &Match, user: &TestUser, format: &str) -> String {
    let response = app
        .get(
            &game.path(&format!("/export?format={format}")),
            Some(&user.access_token),
        )
        .await;
    assert_eq!(response.status().as_u16(), 200, "export {format}");
    let (content_type, extension) = match format {
        "json" => ("application/json", "json"),
        _ => ("application/xml", "xml"),
    };
    assert_eq!(response.headers()["content-type"], content_type);
    assert_eq!(
        response.headers()["content-disposition"],
        format!("attachment; filename=\"stratego-{}.{extension}\"", game.id).as_str()
    );
    response.text().await.unwrap()
}

/// Plays `plies` moves of the seed-31 game (all of it: 94); returns the
/// full records of the moves played.
async fn play_seed(
    app: &TestApp,
    game: &mut Match,
    rng: &mut SplitMix64,
    plies: usize,
) -> Vec<MoveRecord> {
    let mut records = Vec::new();
    for _ in 0..plies {
        let legal = game.local.legal_moves();
        let m = legal[rng.below(legal.len())];
        play(app, game, m, None).await;
        records.push(*game.local.full_truth().last_move().unwrap());
        if game.local.is_finished() {
            break;
        }
    }
    records
}

/// What a Gravon XML record says: type, field, moves, players, result.
struct Gravon {
    kind: String,
    field: Option<String>,
    moves: Vec<(String, String)>,
    players: Vec<String>,
    result: Option<(String, String)>,
}

fn read_gravon(xml: &str) -> Gravon {
    let doc = roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("not XML: {e}\n{xml}"));
    assert_eq!(doc.root_element().tag_name().name(), "stratego");
    let game = doc.descendants().find(|n| n.has_tag_name("game")).unwrap();
    let child = |name: &str| game.children().find(|n| n.has_tag_name(name));
    Gravon {
        kind: game.attribute("type").unwrap().to_owned(),
        field: child("field").map(|f| f.attribute("content").unwrap().to_owned()),
        moves: game
            .children()
            .filter(|n| n.has_tag_name("move"))
            .enumerate()
            .map(|(i, m)| {
                assert_eq!(m.attribute("id"), Some((i + 1).to_string().as_str()));
                (
                    m.attribute("source").unwrap().to_owned(),
                    m.attribute("target").unwrap().to_owned(),
                )
            })
            .collect(),
        players: game
            .children()
            .filter(|n| n.has_tag_name("player"))
            .map(|p| p.text().unwrap_or_default().to_owned())
            .collect(),
        result: child("result").map(|r| {
            (
                r.attribute("type").unwrap().to_owned(),
                r.attribute("winner").unwrap().to_owned(),
            )
        }),
    }
}

/// `e4` as the archive spells it: `E4`; the file `j` is `K`.
fn archive_square(square: &str) -> String {
    let upper = square.to_uppercase();
    upper.replacen('J', "K", 1)
}

backend_tests! {
    /// Once the game is over, everyone's record is the full record: both
    /// setups as they were placed, every move with both ranks of every
    /// battle, the result and the players; the Gravon XML says the same.
    async fn a_finished_game_exports_the_full_record(app) {
        let (red, blue) = two_users(&app, "rec").await;
        let spectator = app.register_user("rec_watch").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), SEED).await;
        let mut rng = SplitMix64::new(SEED);
        let records = play_seed(&app, &mut game, &mut rng, 1000).await;
        assert!(game.local.is_finished());
        assert_eq!(records.len(), 94);
        let start = start();
        let full: Vec<Value> = records
            .iter()
            .map(|r| serde_json::to_value(game.local.move_view(r, Viewer::Spectator)).unwrap())
            .collect();
        for user in [&game.red.clone(), &game.blue.clone(), &spectator] {
            let record: Value = serde_json::from_str(&get_record(&app, &game, user, "json").await).unwrap();
            assert_eq!(record["id"], game.id.as_str());
            assert_eq!(record["status"], "finished");
            assert_eq!(record["setups"]["red"], half(&start, Color::Red));
            assert_eq!(record["setups"]["blue"], half(&start, Color::Blue));
            assert_eq!(record["moves"], json!(full));
            for m in record["moves"].as_array().unwrap() {
                assert!(m["piece"].is_string(), "a rank missing from the full record: {m}");
                if !m["battle"].is_null() {
                    assert!(m["battle"]["defender"].is_string());
                }
            }
            assert_eq!(record["result"], json!(game.local.result()));
            assert_eq!(record["players"]["red"]["username"], game.red.username.as_str());
            assert_eq!(record["players"]["blue"]["username"], game.blue.username.as_str());

            let gravon = read_gravon(&get_record(&app, &game, user, "gravon").await);
            assert_eq!(gravon.kind, "classic");
            assert_eq!(gravon.field.as_deref(), Some(start.to_board_string().as_str()));
            let squares: Vec<(String, String)> = records
                .iter()
                .map(|r| (archive_square(&r.from.to_string()), archive_square(&r.to.to_string())))
                .collect();
            assert_eq!(gravon.moves, squares);
            assert_eq!(gravon.players, [game.red.username.clone(), game.blue.username.clone()]);
            let winner = match game.local.result().unwrap().winner {
                Some(Color::Red) => "1",
                Some(Color::Blue) => "2",
                None => "3",
            };
            // Type 1: the flag was captured.
            assert_eq!(gravon.result, Some(("1".to_owned(), winner.to_owned())));
        }
    }

    /// While the game runs a player's record holds the player's own setup
    /// only and a spectator's none; the moves are the caller's history; the
    /// Gravon XML has no starting position and no result. Each format has
    /// its own ETag, answered with 304.
    async fn a_running_game_exports_what_the_caller_may_know(app) {
        let (red, blue) = two_users(&app, "run").await;
        let spectator = app.register_user("run_watch").await;
        let mut game = random_match(&app, red, blue, Variant::Classic, Rules::default(), SEED).await;
        let mut rng = SplitMix64::new(SEED);
        play_seed(&app, &mut game, &mut rng, 30).await;
        assert!(!game.local.is_finished());
        let start = start();
        for (user, own) in [
            (game.red.clone(), Some(Color::Red)),
            (game.blue.clone(), Some(Color::Blue)),
            (spectator.clone(), None),
        ] {
            let record: Value = serde_json::from_str(&get_record(&app, &game, &user, "json").await).unwrap();
            for color in Color::ALL {
                let expected = if own == Some(color) { json!(half(&start, color)) } else { Value::Null };
                assert_eq!(record["setups"][color.name()], expected, "{color} for {own:?}");
            }
            let history = get_json(&app, &game.path("/moves"), &user).await;
            assert_eq!(record["moves"], history["moves"]);
            assert!(record["result"].is_null());
            // The record opens with the view's header, field for field.
            let view = get_json(&app, &game.path(""), &user).await;
            for field in ["id", "variant", "rules", "status", "version", "ply", "turn", "players",
                "creator", "opponent", "days_per_move", "time_control", "rated", "tournament",
                "setup_done", "created_at", "updated_at"] {
                assert_eq!(record[field], view[field], "{field}");
            }
            assert_eq!(record["ply"], 30);
            let gravon = read_gravon(&get_record(&app, &game, &user, "gravon").await);
            assert_eq!(gravon.field, None, "a starting position while the game runs");
            assert_eq!(gravon.result.map(|r| r.0), None);
            assert_eq!(gravon.moves.len(), 30);
        }

        // The default format is JSON; each format has its own tag.
        let path = game.path("/export");
        let plain = app.get(&path, Some(&game.red.access_token)).await;
        assert_eq!(plain.headers()["content-type"], "application/json");
        let tag = plain.headers()["etag"].to_str().unwrap().to_owned();
        let xml = app.get(&format!("{path}?format=gravon"), Some(&game.red.access_token)).await;
        assert_ne!(xml.headers()["etag"], tag.as_str());
        let again = app.client.get(app.url(&path)).bearer_auth(&game.red.access_token)
            .header("if-none-match", &tag).send().await.unwrap();
        assert_eq!(again.status().as_u16(), 304);
        assert!(again.bytes().await.unwrap().is_empty());
        let refused = app.get(&format!("{path}?format=pgn"), Some(&game.red.access_token)).await;
        assert_problem(refused, 400, "validation_failed").await;
    }

    /// Before play, a player's record holds that player's setup once
    /// placed, and nothing of the opponent's.
    async fn a_setup_is_exported_to_its_owner_only(app) {
        let (red, blue) = two_users(&app, "pre").await;
        let id = seated_game(&app, &red, &blue, Variant::Classic, &Rules::default()).await;
        place_setup(&app, &id, &red, SEED).await;
        let path = format!("/api/v1/games/{id}/export");
        let mine = get_json(&app, &path, &red).await;
        let placed = Game::new(
            Variant::Classic,
            Rules::default(),
            Setup::random(Variant::Classic, Color::Red, SEED),
            Setup::random(Variant::Classic, Color::Blue, 1),
        )
        .unwrap();
        assert_eq!(mine["setups"]["red"], half(&placed, Color::Red));
        let theirs = get_json(&app, &path, &blue).await;
        assert!(theirs["setups"]["red"].is_null() && theirs["setups"]["blue"].is_null());
        assert_eq!(theirs["moves"], json!([]));
    }
}
