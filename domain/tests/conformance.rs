//! Runs the conformance suite: the data files in `tests/conformance/*.txt`.
//!
//! Each file is a list of cases in a small line format (see
//! `tests/conformance/README.md`). Every failing case is reported with its
//! file, line and name; the test fails if any case does.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::Path;

use domain::{
    piece_char, Action, ActionError, Applied, Color, EndReason, Game, IllegalMove, Move, Outcome,
    Piece, Placement, Rescue, Rules, Square, Variant, Viewer,
};

struct Case {
    file: String,
    line: usize,
    name: String,
    lines: Vec<(usize, String, String)>,
}

fn parse_file(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut cases: Vec<Case> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("{file}:{}: expected `key: value`", n + 1));
        let (key, value) = (key.trim().to_string(), value.trim().to_string());
        if key == "case" {
            cases.push(Case {
                file: file.clone(),
                line: n + 1,
                name: value,
                lines: Vec::new(),
            });
        } else {
            let case = cases
                .last_mut()
                .unwrap_or_else(|| panic!("{file}:{}: line before the first case", n + 1));
            case.lines.push((n + 1, key, value));
        }
    }
    cases
}

type Check = Result<(), String>;

fn sq(s: &str) -> Result<Square, String> {
    s.parse().map_err(|e| format!("{e}"))
}

fn piece(s: &str) -> Result<Piece, String> {
    s.parse().map_err(|e| format!("{e}"))
}

fn color(s: &str) -> Result<Color, String> {
    s.parse().map_err(|e| format!("{e}"))
}

fn parse_move(s: &str) -> Result<Move, String> {
    let (a, b) = s.split_once('-').ok_or_else(|| format!("bad move `{s}`"))?;
    Ok(Move {
        from: sq(a)?,
        to: sq(b)?,
    })
}

fn parse_rules(value: &str, rules: &mut Rules) -> Check {
    for item in value.split_whitespace() {
        if item == "tournament" {
            *rules = Rules::tournament();
            continue;
        }
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("bad rule `{item}`"))?;
        let flag = || v.parse::<bool>().map_err(|e| format!("{k}: {e}"));
        let cap = || -> Result<Option<u32>, String> {
            if v == "none" {
                Ok(None)
            } else {
                v.parse().map(Some).map_err(|e| format!("{k}: {e}"))
            }
        };
        match k {
            "two_square_limit" => rules.two_square_limit = v.parse().map_err(|e| format!("{e}"))?,
            "scout_strike_after_move" => rules.scout_strike_after_move = flag()?,
            "aggressor_advantage" => rules.aggressor_advantage = flag()?,
            "silent_defense" => rules.silent_defense = flag()?,
            "rescue" => rules.rescue = flag()?,
            "max_plies" => rules.max_plies = cap()?,
            "max_plies_without_battle" => rules.max_plies_without_battle = cap()?,
            "more_squares_rule" => rules.more_squares_rule = flag()?,
            _ => return Err(format!("unknown rule `{k}`")),
        }
    }
    Ok(())
}

/// `red move e4-e5 [rescue captain e2]`, `blue resign`, ...
fn parse_action(value: &str) -> Result<(Color, Action), String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let by = color(words.first().ok_or("empty action")?)?;
    let action = match words.get(1).copied() {
        Some("move") => {
            let m = parse_move(words.get(2).ok_or("move needs from-to")?)?;
            let rescue = match words.get(3).copied() {
                Some("rescue") => Some(Rescue {
                    piece: piece(words.get(4).ok_or("rescue needs a piece")?)?,
                    square: sq(words.get(5).ok_or("rescue needs a square")?)?,
                }),
                None => None,
                Some(other) => return Err(format!("unexpected `{other}`")),
            };
            Action::Move {
                from: m.from,
                to: m.to,
                rescue,
            }
        }
        Some("resign") => Action::Resign,
        Some("offer_draw") => Action::OfferDraw,
        Some("accept_draw") => Action::AcceptDraw,
        Some("decline_draw") => Action::DeclineDraw,
        Some("timeout") => Action::Timeout,
        other => return Err(format!("unknown action {other:?}")),
    };
    Ok((by, action))
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::AttackerWins => "attacker_wins",
        Outcome::DefenderWins => "defender_wins",
        Outcome::BothLose => "both_lose",
    }
}

fn reason_name(r: EndReason) -> String {
    serde_json::to_value(r)
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

fn viewer(s: &str) -> Result<Viewer, String> {
    if s == "spectator" {
        Ok(Viewer::Spectator)
    } else {
        color(s).map(Viewer::Player)
    }
}

fn opt_piece_name(p: Option<Piece>) -> &'static str {
    p.map_or("hidden", Piece::name)
}

fn run_setup_case(case: &Case) -> Check {
    let mut variant = Variant::Classic;
    let mut setup_color = Color::Red;
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut result = None;
    for (line, key, value) in &case.lines {
        let at = |e: String| format!("line {line}: {e}");
        match key.as_str() {
            "variant" => variant = value.parse().map_err(|e| at(format!("{e}")))?,
            "color" => setup_color = color(value).map_err(at)?,
            "pairs" => {
                for pair in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    let (s, p) = pair
                        .split_once(' ')
                        .ok_or_else(|| at(format!("bad pair `{pair}`")))?;
                    pairs.push((s.trim().to_string(), p.trim().to_string()));
                }
            }
            "army" => {
                // A whole valid army laid out over the zone in square order.
                let mut zone = variant.zone(setup_color);
                for (p, n) in variant.army() {
                    for _ in 0..n {
                        let s = zone.next().ok_or_else(|| at("zone too small".into()))?;
                        pairs.push((s.to_string(), p.name().to_string()));
                    }
                }
            }
            "replace" => {
                // `replace: a1 flag -> z9 flag` edits one pair.
                let (old, new) = value
                    .split_once("->")
                    .ok_or_else(|| at("replace needs ->".into()))?;
                let old: Vec<&str> = old.split_whitespace().collect();
                let new: Vec<&str> = new.split_whitespace().collect();
                let i = pairs
                    .iter()
                    .position(|(s, p)| s == old[0] && p == old[1])
                    .ok_or_else(|| at(format!("no pair {old:?}")))?;
                pairs[i] = (new[0].to_string(), new[1].to_string());
            }
            "remove" => {
                let w: Vec<&str> = value.split_whitespace().collect();
                let i = pairs
                    .iter()
                    .position(|(s, p)| s == w[0] && p == w[1])
                    .ok_or_else(|| at(format!("no pair {w:?}")))?;
                pairs.remove(i);
            }
            "add" => {
                let w: Vec<&str> = value.split_whitespace().collect();
                pairs.push((w[0].to_string(), w[1].to_string()));
            }
            "expect" => {
                let r = result.get_or_insert_with(|| {
                    Placement::from_pairs(pairs.clone()).validate(variant, setup_color)
                });
                match (value.as_str(), r) {
                    ("ok", Ok(_)) => {}
                    ("ok", Err(problems)) => return Err(at(format!("rejected: {problems:?}"))),
                    (_, Ok(_)) => return Err(at(format!("accepted, expected {value}"))),
                    (want, Err(problems)) => {
                        let mut got: Vec<String> = problems
                            .iter()
                            .map(|p| {
                                serde_json::to_value(p).unwrap()["problem"]
                                    .as_str()
                                    .unwrap()
                                    .to_string()
                            })
                            .collect();
                        got.sort();
                        let mut want: Vec<String> =
                            want.split_whitespace().map(str::to_string).collect();
                        want.sort();
                        if got != want {
                            return Err(at(format!("problems {got:?}, expected {want:?}")));
                        }
                    }
                }
            }
            other => return Err(at(format!("unknown key `{other}` in a setup case"))),
        }
    }
    if result.is_none() {
        return Err("setup case without expect".into());
    }
    Ok(())
}

fn run_case(case: &Case) -> Check {
    if case.lines.iter().any(|(_, k, _)| k == "setup") {
        let mut case2 = Case {
            file: case.file.clone(),
            line: case.line,
            name: case.name.clone(),
            lines: case.lines.clone(),
        };
        case2.lines.retain(|(_, k, _)| k != "setup");
        return run_setup_case(&case2);
    }
    let mut variant = Variant::Classic;
    let mut rules = Rules::default();
    let mut turn = Color::Red;
    let mut board: Option<String> = None;
    let mut placed: Vec<(Color, Piece, Square)> = Vec::new();
    let mut game: Option<Game> = None;
    let mut last: Option<Result<Applied, ActionError>> = None;
    let mut did_action = false;

    for (line, key, value) in &case.lines {
        let at = |e: String| format!("line {line}: {e}");
        // Build the game lazily, once the position lines are done.
        let position_key = matches!(
            key.as_str(),
            "variant" | "rules" | "turn" | "board" | "place"
        );
        if !position_key && game.is_none() {
            let s = match &board {
                Some(b) => b.clone(),
                None => {
                    let mut chars: Vec<char> = Square::all()
                        .map(|s| if s.is_lake() { '_' } else { 'A' })
                        .collect();
                    for &(c, p, s) in &placed {
                        chars[s.index()] = piece_char(c, p);
                    }
                    chars.into_iter().collect()
                }
            };
            let g = Game::from_position(&s, variant, rules, turn)
                .map_err(|e| at(format!("position refused: {e}")))?;
            // The board string export must reproduce the import exactly.
            if g.to_board_string() != s {
                return Err(at("board string did not round-trip".into()));
            }
            game = Some(g);
        }
        match key.as_str() {
            "variant" => variant = value.parse().map_err(|e| at(format!("{e}")))?,
            "rules" => parse_rules(value, &mut rules).map_err(at)?,
            "turn" => turn = color(value).map_err(at)?,
            "board" => board = Some(value.clone()),
            "place" => {
                for item in value.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                    let w: Vec<&str> = item.split_whitespace().collect();
                    if w.len() != 3 {
                        return Err(at(format!("bad placement `{item}`")));
                    }
                    placed.push((
                        color(w[0]).map_err(at)?,
                        piece(w[1]).map_err(at)?,
                        sq(w[2]).map_err(at)?,
                    ));
                }
            }
            _ => {}
        }
        if position_key {
            continue;
        }
        let g = game.as_mut().unwrap();
        match key.as_str() {
            "play" => {
                for step in value.split_whitespace() {
                    let m = parse_move(step).map_err(at)?;
                    let by = g.turn();
                    g.apply(by, Action::play(m.from, m.to))
                        .map_err(|e| at(format!("prelude move {step} refused: {e}")))?;
                }
            }
            "do" => {
                let (by, action) = parse_action(value).map_err(at)?;
                let before = g.clone();
                let r = g.apply(by, action);
                if r.is_err() && *g != before {
                    return Err(at("a refused action changed the game".into()));
                }
                // Serialization must round-trip after every action.
                let json = serde_json::to_string(&*g).unwrap();
                let back: Game = serde_json::from_str(&json).unwrap();
                if back != *g {
                    return Err(at("state did not round-trip".into()));
                }
                last = Some(r);
                did_action = true;
            }
            "expect" => {
                let r = last
                    .as_ref()
                    .ok_or_else(|| at("expect before any do".into()))?;
                let words: Vec<&str> = value.split_whitespace().collect();
                match (words.as_slice(), r) {
                    (["ok"], Ok(_)) => {}
                    (["ok"], Err(e)) => return Err(at(format!("refused: {} ({e})", e.kind()))),
                    (["error", kind], Err(e)) => {
                        if e.kind() != *kind {
                            return Err(at(format!("error {} ({e}), expected {kind}", e.kind())));
                        }
                    }
                    (["error", kind], Ok(_)) => {
                        return Err(at(format!("accepted, expected error {kind}")))
                    }
                    _ => return Err(at(format!("bad expect `{value}`"))),
                }
            }
            "code" => {
                let r = last.as_ref().ok_or_else(|| at("code before do".into()))?;
                match r {
                    Err(e) if api_code(e) == value => {}
                    Err(e) => return Err(at(format!("code {}, expected {value}", api_code(e)))),
                    Ok(_) => return Err(at("accepted, expected an error".into())),
                }
            }
            "message" => {
                let r = last
                    .as_ref()
                    .ok_or_else(|| at("message before do".into()))?;
                match r {
                    Err(e) if e.to_string() == *value => {}
                    Err(e) => return Err(at(format!("message `{e}`, expected `{value}`"))),
                    Ok(_) => return Err(at("accepted, expected an error".into())),
                }
            }
            "battle" => {
                let got = match last {
                    Some(Ok(Applied {
                        record: Some(rec), ..
                    })) => rec.battle.map_or("none", |b| outcome_name(b.outcome)),
                    _ => return Err(at("battle: last action was not an accepted move".into())),
                };
                if got != value {
                    return Err(at(format!("battle {got}, expected {value}")));
                }
            }
            "rescued" => {
                let got = match last {
                    Some(Ok(Applied {
                        record: Some(rec), ..
                    })) => rec
                        .rescue
                        .map_or("none".to_string(), |r| format!("{} {}", r.piece, r.square)),
                    _ => return Err(at("rescued: last action was not an accepted move".into())),
                };
                if got != *value {
                    return Err(at(format!("rescue {got}, expected {value}")));
                }
            }
            "result" => {
                let got = match g.result() {
                    None => "none".to_string(),
                    Some(r) => format!(
                        "{} {}",
                        r.winner.map_or("draw", Color::name),
                        reason_name(r.reason)
                    ),
                };
                if got != *value {
                    return Err(at(format!("result `{got}`, expected `{value}`")));
                }
            }
            "turn-now" => {
                if g.turn().name() != value {
                    return Err(at(format!("turn {}, expected {value}", g.turn())));
                }
            }
            "at" => {
                let w: Vec<&str> = value.split_whitespace().collect();
                let s = sq(w[0]).map_err(at)?;
                let p = g
                    .full_truth()
                    .piece_on(s)
                    .ok_or_else(|| at(format!("{s} is empty")))?;
                if p.color.name() != w[1] || p.piece.name() != w[2] {
                    return Err(at(format!("{s} holds {} {}", p.color, p.piece)));
                }
                for flag in &w[3..] {
                    let ok = match *flag {
                        "revealed" => p.revealed,
                        "unrevealed" => !p.revealed,
                        "moved" => p.moved,
                        "unmoved" => !p.moved,
                        _ => return Err(at(format!("unknown flag {flag}"))),
                    };
                    if !ok {
                        return Err(at(format!("{s}: not {flag}")));
                    }
                }
            }
            "empty" => {
                for w in value.split_whitespace() {
                    let s = sq(w).map_err(at)?;
                    if let Some(p) = g.full_truth().piece_on(s) {
                        return Err(at(format!("{s} holds {} {}", p.color, p.piece)));
                    }
                }
            }
            "legal" | "not-legal" => {
                let moves = g.legal_moves();
                for w in value.split_whitespace() {
                    let m = parse_move(w).map_err(at)?;
                    if moves.contains(&m) != (key == "legal") {
                        return Err(at(format!("{w}: {key} failed; legal: {moves:?}")));
                    }
                }
            }
            "legal-count" => {
                let n = g.legal_moves().len();
                if n.to_string() != *value {
                    return Err(at(format!("{n} legal moves, expected {value}")));
                }
            }
            "captured" => {
                // `captured: red scout spy` (full list, capture order, truth)
                let w: Vec<&str> = value.split_whitespace().collect();
                let c = color(w[0]).map_err(at)?;
                let got: Vec<&str> = g.full_truth().captured(c).map(Piece::name).collect();
                if got != w[1..] {
                    return Err(at(format!("captured {c}: {got:?}")));
                }
            }
            "draw-offer" => {
                let got = g.draw_offer().map_or("none", Color::name);
                if got != value {
                    return Err(at(format!("draw offer {got}, expected {value}")));
                }
            }
            "rescues" => {
                let w: Vec<&str> = value.split_whitespace().collect();
                let c = color(w[0]).map_err(at)?;
                if g.rescues_used(c).to_string() != w[1] {
                    return Err(at(format!("rescues {}", g.rescues_used(c))));
                }
            }
            "chase" => {
                // `chase: red none` or `chase: red since=1 positions=3
                // evading=c4,d7`: a player's chase as the game stores it
                // (more-squares rule): the ply of its first remembered
                // position, how many it remembers, and where the pieces
                // marked as evading stand now (sorted; `none` if there are
                // none).
                let w: Vec<&str> = value.split_whitespace().collect();
                let c = color(w.first().ok_or_else(|| at("chase needs a color".into()))?)
                    .map_err(at)?;
                let doc = serde_json::to_value(&*g).unwrap();
                let stored = &doc["chases"][c.name()];
                let got = if stored.is_null() {
                    "none".to_string()
                } else {
                    let mut evading: Vec<String> = stored["evading"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|id| {
                            g.full_truth()
                                .pieces()
                                .find(|p| Some(u64::from(p.id.get())) == id.as_u64())
                                .map_or_else(|| format!("id {id}"), |p| p.square.to_string())
                        })
                        .collect();
                    evading.sort();
                    format!(
                        "since={} positions={} evading={}",
                        stored["since_ply"],
                        stored["positions"].as_array().unwrap().len(),
                        if evading.is_empty() {
                            "none".to_string()
                        } else {
                            evading.join(",")
                        }
                    )
                };
                if got != w[1..].join(" ") {
                    return Err(at(format!("{c}'s chase: {got}")));
                }
            }
            "view" => {
                // `view: <viewer> <square> <piece|hidden>`
                let w: Vec<&str> = value.split_whitespace().collect();
                let v = viewer(w[0]).map_err(at)?;
                let s = sq(w[1]).map_err(at)?;
                let view = g.view(v);
                let pv = view
                    .board
                    .iter()
                    .find(|p| p.square == s)
                    .ok_or_else(|| at(format!("{s} not in the view")))?;
                if opt_piece_name(pv.piece) != w[2] {
                    return Err(at(format!("{} sees {}", w[0], opt_piece_name(pv.piece))));
                }
                if pv.piece.is_none() && pv.strength.is_some() {
                    return Err(at("strength shown for a hidden piece".into()));
                }
            }
            "view-flags" => {
                // `view-flags: <viewer> <square> moved|unmoved revealed|unrevealed`
                let w: Vec<&str> = value.split_whitespace().collect();
                let v = viewer(w[0]).map_err(at)?;
                let s = sq(w[1]).map_err(at)?;
                let view = g.view(v);
                let pv = view
                    .board
                    .iter()
                    .find(|p| p.square == s)
                    .ok_or_else(|| at(format!("{s} not in the view")))?;
                for flag in &w[2..] {
                    let ok = match *flag {
                        "moved" => pv.moved,
                        "unmoved" => !pv.moved,
                        "revealed" => pv.revealed,
                        "unrevealed" => !pv.revealed,
                        _ => return Err(at(format!("unknown flag {flag}"))),
                    };
                    if !ok {
                        return Err(at(format!("{} sees {s} not {flag}", w[0])));
                    }
                }
            }
            "view-id" => {
                // `view-id: <viewer> <square> <starting square | number>`:
                // the id a view gives the piece on a square is its starting
                // square, or (a rescued piece) the fresh number given.
                let w: Vec<&str> = value.split_whitespace().collect();
                let v = viewer(w[0]).map_err(at)?;
                let s = sq(w[1]).map_err(at)?;
                let view = g.view(v);
                let pv = view
                    .board
                    .iter()
                    .find(|p| p.square == s)
                    .ok_or_else(|| at(format!("{s} not in the view")))?;
                let matches = match w[2].parse::<u8>() {
                    Ok(number) => pv.id.get() == number,
                    Err(_) => pv.id.starting_square() == Some(sq(w[2]).map_err(at)?),
                };
                if !matches {
                    return Err(at(format!("{} sees id {} on {s}", w[0], pv.id.get())));
                }
            }
            "view-captured" => {
                // `view-captured: <viewer> <color> <piece|hidden>...`
                let w: Vec<&str> = value.split_whitespace().collect();
                let v = viewer(w[0]).map_err(at)?;
                let c = color(w[1]).map_err(at)?;
                let view = g.view(v);
                let got: Vec<&str> = view
                    .captured
                    .get(c)
                    .iter()
                    .map(|p| opt_piece_name(*p))
                    .collect();
                if got != w[2..] {
                    return Err(at(format!("{} sees captured {c}: {got:?}", w[0])));
                }
            }
            "view-last" => {
                // `view-last: <viewer> piece=<p|hidden> attacker=.. defender=..`
                let w: Vec<&str> = value.split_whitespace().collect();
                let v = viewer(w[0]).map_err(at)?;
                let mv = g
                    .view(v)
                    .last_move
                    .ok_or_else(|| at("no last move".into()))?;
                for item in &w[1..] {
                    let (k, want) = item.split_once('=').ok_or_else(|| at("k=v".into()))?;
                    let got = match k {
                        "piece" => opt_piece_name(mv.piece),
                        "attacker" => opt_piece_name(mv.battle.and_then(|b| b.attacker)),
                        "defender" => opt_piece_name(mv.battle.and_then(|b| b.defender)),
                        _ => return Err(at(format!("unknown view-last key {k}"))),
                    };
                    if got != want {
                        return Err(at(format!("{} sees {k}={got}", w[0])));
                    }
                }
            }
            "view-legal" => {
                // `view-legal: <viewer> some|none`
                let w: Vec<&str> = value.split_whitespace().collect();
                let v = viewer(w[0]).map_err(at)?;
                let got = if g.view(v).legal_moves.is_some() {
                    "some"
                } else {
                    "none"
                };
                if got != w[1] {
                    return Err(at(format!("{} legal moves: {got}", w[0])));
                }
            }
            other => return Err(at(format!("unknown key `{other}`"))),
        }
    }
    if game.is_none() {
        return Err("case has no checks".into());
    }
    let _ = did_action;
    Ok(())
}

#[test]
fn conformance_suite() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no conformance files in {}",
        dir.display()
    );
    let mut failures = String::new();
    let mut total = 0;
    for path in &files {
        for case in parse_file(path) {
            total += 1;
            if let Err(e) = run_case(&case) {
                let _ = writeln!(failures, "{}:{} `{}`: {e}", case.file, case.line, case.name);
            }
        }
    }
    assert!(failures.is_empty(), "conformance failures:\n{failures}");
    assert!(total >= 80, "only {total} conformance cases");
    println!("{total} conformance cases passed");
}

/// The API's problem `code` for a refused action, as the server maps it
/// (docs/errors.md). The domain names reasons (`kind()`); which code a
/// client sees is the API's decision, restated here so that the case files
/// can keep saying `code two_square_rule`. Exhaustive on purpose: a new
/// domain error must be placed here, and in the API's mapping, by hand.
fn api_code(error: &ActionError) -> &'static str {
    match error {
        ActionError::NotYourTurn | ActionError::TimeoutNotOnTurn => "not_your_turn",
        ActionError::Illegal(IllegalMove::TwoSquareRule { .. }) => "two_square_rule",
        ActionError::Illegal(IllegalMove::MoreSquaresRule { .. }) => "more_squares_rule",
        ActionError::Illegal(_) => "illegal_move",
        ActionError::GameOver
        | ActionError::DrawAlreadyOffered
        | ActionError::DrawOfferPending
        | ActionError::NoDrawOffer
        | ActionError::OwnDrawOffer => "wrong_phase",
    }
}
