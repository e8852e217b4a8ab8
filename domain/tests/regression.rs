//! Random-playout regression counts: for fixed seeds, the number of plies
//! and the result of a random game are pinned. Any change to the rules, the
//! move generator's order, the random setup generator or the crate's PRNG
//! shows up here. If a change is intended, the failure message prints the
//! new table to paste in.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use domain::playout::{random_game, random_playout};
use domain::{EndReason, Rules, Variant};

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
        _ => unreachable!("unknown ruleset {name}"),
    }
    r
}

fn describe(variant: Variant, rules: &str, seed: u64) -> String {
    let mut game = random_game(variant, rules_named(rules), seed).unwrap();
    let summary = random_playout(&mut game, seed, CAP);
    let result = match summary.result {
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
    };
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
