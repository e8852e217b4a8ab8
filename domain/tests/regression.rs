//! Random-playout regression counts: for fixed seeds, the number of plies
//! and the result of a random game are pinned. Any change to the rules, the
//! move generator's order, the random setup generator or the crate's PRNG
//! shows up here. If a change is intended, the failure message prints the
//! new table to paste in.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use domain::playout::{random_game, random_playout};
use domain::rng::SplitMix64;
use domain::{Action, Color, EndReason, GameResult, Move, Rules, Square, Variant};

const CAP: u32 = 100_000;

fn rules_named(name: &str) -> Rules {
    let mut r = Rules::default();
    match name {
        "default" => {}
        "limit5" => r.two_square_limit = 5,
        "no_strike" => r.scout_strike_after_move = false,
        "aggressor" => r.aggressor_advantage = true,
        "silent" => r.silent_defense = true,
        "capped" => {
            r.max_plies = Some(300);
            r.max_plies_without_battle = Some(60);
        }
        "tournament" => r = Rules::tournament(),
        _ => unreachable!("unknown ruleset {name}"),
    }
    r
}

fn result_name(result: Option<GameResult>) -> String {
    match result {
        None => "unfinished".to_string(),
        Some(r) => format!(
            "{} {}",
            r.winner.map_or("draw", |c| c.name()),
            match r.reason {
                EndReason::FlagCaptured => "flag_captured",
                EndReason::NoMoves => "no_moves",
                EndReason::BothImmobile => "both_immobile",
                EndReason::MoveLimit => "move_limit",
                other => unreachable!("a playout cannot end by {other:?}"),
            }
        ),
    }
}

fn describe(variant: Variant, rules: &str, seed: u64) -> String {
    let mut game = random_game(variant, rules_named(rules), seed).unwrap();
    let summary = random_playout(&mut game, seed, CAP);
    let result = result_name(summary.result);
    format!("{variant} {rules} {seed} {} {result}", summary.plies)
}

/// `variant rules seed plies result`
const PINNED: &str = "\
classic default 1 11 red flag_captured
classic default 2 824 blue flag_captured
classic default 3 217 red flag_captured
classic limit5 1 11 red flag_captured
classic limit5 2 824 blue flag_captured
classic limit5 3 217 red flag_captured
classic no_strike 1 62 blue flag_captured
classic no_strike 2 1162 blue flag_captured
classic no_strike 3 211 red flag_captured
classic aggressor 1 11 red flag_captured
classic aggressor 2 2213 red no_moves
classic aggressor 3 1305 red flag_captured
classic silent 1 11 red flag_captured
classic silent 2 824 blue flag_captured
classic silent 3 217 red flag_captured
classic capped 1 11 red flag_captured
classic capped 2 300 draw move_limit
classic capped 3 217 red flag_captured
classic tournament 1 11 red flag_captured
classic tournament 2 824 blue flag_captured
classic tournament 3 217 red flag_captured
barrage default 1 353 red no_moves
barrage default 2 130 blue flag_captured
barrage default 3 729 red no_moves
barrage limit5 1 330 blue flag_captured
barrage limit5 2 216 blue flag_captured
barrage limit5 3 246 blue flag_captured
barrage no_strike 1 692 blue no_moves
barrage no_strike 2 1068 blue flag_captured
barrage no_strike 3 1151 red no_moves
barrage aggressor 1 196 blue flag_captured
barrage aggressor 2 130 blue flag_captured
barrage aggressor 3 55 red flag_captured
barrage silent 1 353 red no_moves
barrage silent 2 130 blue flag_captured
barrage silent 3 729 red no_moves
barrage capped 1 60 draw move_limit
barrage capped 2 119 draw move_limit
barrage capped 3 188 draw move_limit
barrage tournament 1 353 red no_moves
barrage tournament 2 130 blue flag_captured
barrage tournament 3 729 red no_moves
duel default 1 422 blue flag_captured
duel default 2 567 red flag_captured
duel default 3 697 red flag_captured
duel limit5 1 463 draw both_immobile
duel limit5 2 331 red flag_captured
duel limit5 3 136 blue flag_captured
duel no_strike 1 502 blue no_moves
duel no_strike 2 619 red flag_captured
duel no_strike 3 756 blue no_moves
duel aggressor 1 509 red flag_captured
duel aggressor 2 621 red flag_captured
duel aggressor 3 583 red no_moves
duel silent 1 422 blue flag_captured
duel silent 2 567 red flag_captured
duel silent 3 697 red flag_captured
duel capped 1 87 draw move_limit
duel capped 2 110 draw move_limit
duel capped 3 124 draw move_limit
duel tournament 1 422 blue flag_captured
duel tournament 2 567 red flag_captured
duel tournament 3 697 red flag_captured
";

#[test]
fn random_playouts_are_pinned() {
    let mut actual = String::new();
    for variant in Variant::ALL {
        for rules in [
            "default",
            "limit5",
            "no_strike",
            "aggressor",
            "silent",
            "capped",
            "tournament",
        ] {
            for seed in [1u64, 2, 3] {
                actual.push_str(&describe(variant, rules, seed));
                actual.push('\n');
            }
        }
    }
    assert_eq!(
        PINNED, actual,
        "random playouts changed; if intended, the new table is:\n{actual}"
    );
}

/// A playout by a chasing policy (evade a threat, else threaten, most of
/// the time steering into positions seen before), under which the
/// more-squares rule forbids moves, unlike uniformly random play (where the
/// `tournament` rows above equal the `default` ones).
fn chasing_playout(variant: Variant, rules: Rules, seed: u64) -> (u32, Option<GameResult>) {
    let mut game = random_game(variant, rules, seed).unwrap();
    let mut rng = SplitMix64::new(seed);
    let mut seen: HashSet<(String, Color)> = HashSet::new();
    let next_to =
        |a: Square, b: Square| a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank()) == 1;
    while game.result().is_none() && game.ply() < 3000 {
        let board: Vec<char> = game.to_board_string().chars().collect();
        seen.insert((board.iter().collect(), game.turn()));
        let moves = game.legal_moves();
        let by = game.turn();
        let quiet = |m: &Move| game.full_truth().piece_on(m.to).is_none();
        let again = |m: &Move| {
            let mut after = board.clone();
            after[m.to.index()] = after[m.from.index()];
            after[m.from.index()] = 'A';
            seen.contains(&(after.into_iter().collect(), by.opponent()))
        };
        let evasions: Vec<Move> = match game.full_truth().last_move() {
            Some(l) if l.battle.is_none() => moves
                .iter()
                .copied()
                .filter(|m| quiet(m) && next_to(m.from, l.to))
                .collect(),
            _ => Vec::new(),
        };
        let threats: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| {
                quiet(m)
                    && game
                        .full_truth()
                        .pieces()
                        .any(|p| p.color != by && p.square != m.from && next_to(p.square, m.to))
            })
            .collect();
        let mut choice = None;
        for list in [&evasions, &threats] {
            let repeat: Vec<Move> = list.iter().copied().filter(again).collect();
            if !repeat.is_empty() && rng.below(10) < 8 {
                choice = Some(repeat[rng.below(repeat.len())]);
            } else if !list.is_empty() && rng.below(10) < 8 {
                choice = Some(list[rng.below(list.len())]);
            }
            if choice.is_some() {
                break;
            }
        }
        let m = choice.unwrap_or_else(|| moves[rng.below(moves.len())]);
        game.apply(by, Action::play(m.from, m.to)).unwrap();
    }
    (game.ply(), game.result())
}

/// `variant rules seed plies result`, chasing policy.
const PINNED_CHASING: &str = "\
classic default 1 108 blue flag_captured
classic default 2 2564 blue no_moves
classic default 3 1199 red flag_captured
classic tournament 1 108 blue flag_captured
classic tournament 2 2213 red flag_captured
classic tournament 3 1006 blue flag_captured
barrage default 1 144 blue flag_captured
barrage default 2 461 red flag_captured
barrage default 3 746 blue flag_captured
barrage tournament 1 144 blue flag_captured
barrage tournament 2 461 red flag_captured
barrage tournament 3 868 draw both_immobile
duel default 1 203 red flag_captured
duel default 2 645 red no_moves
duel default 3 922 blue flag_captured
duel tournament 1 203 red flag_captured
duel tournament 2 640 blue flag_captured
duel tournament 3 814 blue flag_captured
";

#[test]
fn chasing_playouts_are_pinned() {
    let mut actual = String::new();
    for variant in Variant::ALL {
        for name in ["default", "tournament"] {
            for seed in [1u64, 2, 3] {
                let (plies, result) = chasing_playout(variant, rules_named(name), seed);
                let result = result_name(result);
                actual.push_str(&format!("{variant} {name} {seed} {plies} {result}\n"));
            }
        }
    }
    assert_eq!(
        PINNED_CHASING, actual,
        "chasing playouts changed; if intended, the new table is:\n{actual}"
    );
}
