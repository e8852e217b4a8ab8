//! `GET /games/{id}/board.svg` and `board.png`: valid XML, drawn from the
//! caller's view (a piece carries a rank exactly when the JSON view shows
//! one), ETag and 304, the orientation, the PNG's size and scale, and a
//! real browser rendering the SVG (docs/pictures-and-records.md).

use std::path::PathBuf;
use std::process::Command;

use domain::{Color, Rules, Viewer};
use serde_json::Value;

use crate::harness::{TestApp, TestUser};
use crate::support::*;

/// GETs a picture (or any text) as `user`; asserts 200 and the content type.
pub async fn get_svg(app: &TestApp, path: &str, user: &TestUser) -> String {
    let response = app.get(path, Some(&user.access_token)).await;
    assert_eq!(response.status().as_u16(), 200, "GET {path}");
    assert_eq!(response.headers()["content-type"], "image/svg+xml");
    response.text().await.unwrap()
}

fn attribute<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> Option<&'a str> {
    node.attribute(name)
}

fn class_is(node: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class") == Some(class)
}

/// The label text of a known piece, as the JSON view gives it: the modern
/// strength, or B / F.
fn big_label(piece: &str, strength: &Value) -> String {
    match strength.as_u64() {
        Some(s) => s.to_string(),
        None => piece[..1].to_uppercase(),
    }
}

/// Parses `svg` (it must be well-formed XML) and checks it against the JSON
/// `view` the same caller received at the same version: the same pieces on
/// the same squares, a rank (attribute and text) exactly where the view
/// has one, the same captured lists, and the last move marked. The picture
/// uses no external resource and no script.
pub fn check_svg_against_view(svg: &str, view: &Value) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert!(attribute(root, "viewBox").is_some());
    for node in doc.descendants().filter(|n| n.is_element()) {
        let name = node.tag_name().name();
        assert!(
            !["image", "script", "foreignObject", "use", "style"].contains(&name),
            "{name}"
        );
        for a in node.attributes() {
            assert!(!a.name().contains("href"), "a link in {name}");
            if a.name() == "font-family" {
                assert_eq!(a.value(), "sans-serif");
            }
        }
    }

    let pieces: Vec<_> = doc.descendants().filter(|n| class_is(n, "piece")).collect();
    let board = view["board"].as_array().unwrap();
    assert_eq!(pieces.len(), board.len());
    for (drawn, shown) in pieces.iter().zip(board) {
        assert_eq!(attribute(*drawn, "data-square"), shown["square"].as_str());
        assert_eq!(attribute(*drawn, "data-color"), shown["color"].as_str());
        let texts: Vec<&str> = drawn
            .descendants()
            .filter_map(|n| n.text())
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .collect();
        match shown["piece"].as_str() {
            Some(piece) => {
                assert_eq!(attribute(*drawn, "data-piece"), Some(piece));
                assert!(texts.contains(&piece), "{texts:?}");
                assert!(texts.contains(&big_label(piece, &shown["strength"]).as_str()));
            }
            None => {
                assert_eq!(
                    attribute(*drawn, "data-piece"),
                    None,
                    "a hidden rank is drawn"
                );
                assert!(texts.is_empty(), "a blank back carries {texts:?}");
            }
        }
    }

    for color in ["red", "blue"] {
        let drawn: Vec<Value> = doc
            .descendants()
            .filter(|n| class_is(n, "captured") && n.attribute("data-color") == Some(color))
            .map(|n| n.attribute("data-piece").map_or(Value::Null, Value::from))
            .collect();
        assert_eq!(
            Value::from(drawn),
            view["captured"][color],
            "captured {color}"
        );
    }

    let marked: Vec<&str> = doc
        .descendants()
        .filter(|n| class_is(n, "last-move"))
        .filter_map(|n| n.attribute("data-square"))
        .collect();
    let ring = doc.descendants().find(|n| class_is(n, "last-battle"));
    match view["last_move"].as_object() {
        Some(last) => {
            assert_eq!(
                marked,
                [last["from"].as_str().unwrap(), last["to"].as_str().unwrap()]
            );
            assert_eq!(ring.is_some(), !last["battle"].is_null());
        }
        None => assert!(marked.is_empty() && ring.is_none()),
    }
}

/// Where the piece on `square` is drawn (its tile's top-left corner).
fn tile_at(svg: &str, square: &str) -> (f64, f64) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let piece = doc
        .descendants()
        .find(|n| class_is(n, "piece") && n.attribute("data-square") == Some(square))
        .unwrap_or_else(|| panic!("no piece on {square}"));
    let rect = piece.children().find(|n| n.has_tag_name("rect")).unwrap();
    let number = |name| rect.attribute(name).unwrap().parse::<f64>().unwrap();
    (number("x"), number("y"))
}

/// A game with a few battles behind it, as both players and a spectator
/// see it.
async fn game_with_battles(app: &TestApp) -> (Match, TestUser) {
    let (red, blue) = two_users(app, "pic").await;
    let spectator = app.register_user("pic_watch").await;
    let mut game = fixed_match(app, red, blue, Rules::default()).await;
    // Scouts charge until a few battles were fought.
    let mut seed = 5;
    while game.local.full_truth().captured(Color::Red).count()
        + game.local.full_truth().captured(Color::Blue).count()
        < 4
    {
        play_random(app, &mut game, seed, 1).await;
        seed += 1;
    }
    assert!(!game.local.is_finished());
    (game, spectator)
}

backend_tests! {
    /// Each viewer's picture holds exactly what that viewer's JSON view
    /// holds, during the game and after it.
    async fn the_picture_shows_what_the_view_shows(app) {
        let (mut game, spectator) = game_with_battles(&app).await;
        for _ in 0..2 {
            for (user, viewer) in [
                (game.red.clone(), Viewer::Player(Color::Red)),
                (game.blue.clone(), Viewer::Player(Color::Blue)),
                (spectator.clone(), Viewer::Spectator),
            ] {
                let view = game_view(&app, &game.id, &user).await;
                assert_view_matches(&view, &game.local, viewer);
                let svg = get_svg(&app, &game.path("/board.svg"), &user).await;
                check_svg_against_view(&svg, &view);
            }
            if game.local.is_finished() {
                // Over: every piece is drawn with its rank.
                let svg = get_svg(&app, &game.path("/board.svg"), &spectator).await;
                assert!(!svg.contains(r#"data-color="blue"><rect"#), "a blank back after the end");
                break;
            }
            let resign = format!("/api/v1/games/{}/resign", game.id);
            post_ok(&app, &resign, &game.blue, &serde_json::json!({}), 200).await;
            game.local.apply(Color::Blue, domain::Action::Resign).unwrap();
        }
    }

    /// The picture has its own ETag, per viewer and orientation, that
    /// If-None-Match answers with 304 until the game changes.
    async fn the_picture_is_tagged_and_answers_304(app) {
        let (mut game, _) = game_with_battles(&app).await;
        let path = game.path("/board.svg");
        let first = app.get(&path, Some(&game.red.access_token)).await;
        assert_eq!(first.headers()["cache-control"], "private, no-cache");
        let tag = first.headers()["etag"].to_str().unwrap().to_owned();
        let json_tag = app.get(&game.path(""), Some(&game.red.access_token)).await
            .headers()["etag"].to_str().unwrap().to_owned();
        assert_ne!(tag, json_tag, "the picture and the JSON view are different representations");
        let again = app.client.get(app.url(&path)).bearer_auth(&game.red.access_token)
            .header("if-none-match", &tag).send().await.unwrap();
        assert_eq!(again.status().as_u16(), 304);
        assert_eq!(again.headers()["etag"], tag.as_str());
        assert!(again.bytes().await.unwrap().is_empty());
        let flipped = app.get(&format!("{path}?orientation=blue"), Some(&game.red.access_token)).await;
        assert_ne!(flipped.headers()["etag"], tag.as_str());
        let blue_tag = app.get(&path, Some(&game.blue.access_token)).await.headers()["etag"].clone();
        assert_ne!(blue_tag, tag.as_str());
        play_random(&app, &mut game, 99, 1).await;
        let changed = app.client.get(app.url(&path)).bearer_auth(&game.red.access_token)
            .header("if-none-match", &tag).send().await.unwrap();
        assert_eq!(changed.status().as_u16(), 200);
        assert_ne!(changed.headers()["etag"], tag.as_str());
    }

    /// Each player's own side is at the bottom; a spectator sees Red's;
    /// `orientation` turns the board; anything else is refused.
    async fn the_callers_side_is_at_the_bottom(app) {
        let (game, spectator) = game_with_battles(&app).await;
        let path = game.path("/board.svg");
        // a1 is Red's back-left corner (Red's flag in the fixed setup).
        let red_sees = tile_at(&get_svg(&app, &path, &game.red).await, "a1");
        let blue_sees = tile_at(&get_svg(&app, &path, &game.blue).await, "a1");
        let watcher_sees = tile_at(&get_svg(&app, &path, &spectator).await, "a1");
        let watcher_flipped =
            tile_at(&get_svg(&app, &format!("{path}?orientation=blue"), &spectator).await, "a1");
        let blue_as_red =
            tile_at(&get_svg(&app, &format!("{path}?orientation=red"), &game.blue).await, "a1");
        assert!(red_sees.1 > blue_sees.1, "a1 is at the bottom for Red, the top for Blue");
        assert!(red_sees.0 < blue_sees.0, "a1 is left for Red, right for Blue");
        assert_eq!(watcher_sees, red_sees);
        assert_eq!(watcher_flipped, blue_sees);
        assert_eq!(blue_as_red, red_sees);
        let refused = app.get(&format!("{path}?orientation=green"), Some(&spectator.access_token)).await;
        crate::harness::assert_problem(refused, 400, "validation_failed").await;
        let missing = app.get("/api/v1/games/00000000-0000-4000-8000-000000000000/board.svg",
            Some(&spectator.access_token)).await;
        crate::harness::assert_problem(missing, 404, "not_found").await;
        let anonymous = app.get(&path, None).await;
        assert_eq!(anonymous.status().as_u16(), 401);
    }
}

/// A PNG's size, from its IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    (be(16), be(20))
}

backend_tests! {
    /// `board.png` is the picture rasterized: a PNG of the picture's size
    /// times `scale`, tagged per viewer, orientation and scale, 304 when
    /// unchanged; a scale out of range is refused.
    async fn the_png_is_the_picture_rasterized(app) {
        let (game, spectator) = game_with_battles(&app).await;
        let path = game.path("/board.png");
        let response = app.get(&path, Some(&game.red.access_token)).await;
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(response.headers()["content-type"], "image/png");
        let tag = response.headers()["etag"].to_str().unwrap().to_owned();
        let png = response.bytes().await.unwrap();
        assert_eq!(png_size(&png), (900, 712));
        assert!(png.len() > 10_000, "a blank PNG ({} bytes)", png.len());
        let small = app.get(&format!("{path}?scale=0.5"), Some(&game.red.access_token)).await;
        assert_ne!(small.headers()["etag"], tag.as_str());
        assert_eq!(png_size(&small.bytes().await.unwrap()), (450, 356));
        let again = app.client.get(app.url(&path)).bearer_auth(&game.red.access_token)
            .header("if-none-match", &tag).send().await.unwrap();
        assert_eq!(again.status().as_u16(), 304);
        assert!(again.bytes().await.unwrap().is_empty());
        // Another viewer's PNG differs (a spectator sees Red's pieces blank).
        let watched = app.get(&path, Some(&spectator.access_token)).await;
        assert_ne!(watched.headers()["etag"], tag.as_str());
        assert_ne!(watched.bytes().await.unwrap(), png);
        for bad in ["scale=9", "scale=0", "scale=big", "orientation=up"] {
            let refused = app.get(&format!("{path}?{bad}"), Some(&game.red.access_token)).await;
            crate::harness::assert_problem(refused, 400, "validation_failed").await;
        }
    }
}

/// Loads a picture in headless Chromium and saves the screenshot under
/// `target/`: the SVG renders in a real browser. Without a browser the test
/// says it was skipped; under CI (`CI` set) a missing browser fails it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_renders_the_picture() {
    let browser = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists());
    let Some(browser) = browser else {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty());
        assert!(!ci, "CI must have chromium to render the board picture");
        eprintln!("skipped: no chromium to render the board picture");
        return;
    };
    let app = crate::harness::spawn_app_with(crate::harness::Backend::Sqlite, |_| {}).await;
    let (game, _) = game_with_battles(&app).await;
    let svg = get_svg(&app, &game.path("/board.svg"), &game.red).await;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("board-picture");
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("board.svg");
    let shot = dir.join("board.png");
    std::fs::write(&source, &svg).unwrap();
    let _ = std::fs::remove_file(&shot);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let size = |name| doc.root_element().attribute(name).unwrap().to_owned();
    let (width, height) = (size("width"), size("height"));
    let run = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", source.display()))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "chromium failed: {}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    // The screenshot has the picture's size.
    let (w, h) = png_size(&png);
    assert_eq!((w.to_string(), h.to_string()), (width, height));
    assert!(
        png.len() > 10_000,
        "a blank screenshot ({} bytes)",
        png.len()
    );
    eprintln!("rendered by chromium: {}", shot.display());
}
