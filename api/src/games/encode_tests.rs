#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::{DateTime, Utc};
use domain::{Action, ByColor, Color, Game, Rules, Setup, TimeControl, Variant};
use uuid::Uuid;

use super::*;
use crate::games::answers::{game_view, GameView};
use crate::games::decide::Answer;
use crate::games::record::{GameRecord, Phase, TournamentSettings};

fn at(seconds: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000 + seconds, 0).unwrap()
}

/// A small deterministic generator (the tests must be repeatable).
struct Steps(u64);

impl Steps {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

fn serde_bytes(view: &GameView) -> Vec<u8> {
    serde_json::to_vec(view).unwrap()
}

fn fast_bytes(view: &GameView) -> Vec<u8> {
    let mut out = b"prefix".to_vec();
    write_fast(view, &mut out).unwrap();
    out.split_off(6)
}

/// How many views were checked, and how many of them had legal moves.
#[derive(Default)]
struct Counts {
    checked: usize,
    with_moves: usize,
}

/// Every view of `record` (each player's and a spectator's) is written as
/// serde_json writes it, alone and as a command's answer.
fn check_every_viewer(
    counts: &mut Counts,
    record: &GameRecord,
    names: &crate::games::answers::Names,
    now: DateTime<Utc>,
) {
    for user in [record.red, record.blue, None] {
        let view = game_view(record, names, user, now);
        counts.with_moves += usize::from(view.legal_moves.as_ref().is_some_and(|m| !m.is_empty()));
        assert_eq!(
            String::from_utf8(fast_bytes(&view)).unwrap(),
            String::from_utf8(serde_bytes(&view)).unwrap()
        );
        let mut through_trait = Vec::new();
        view.write_json(&mut through_trait).unwrap();
        assert_eq!(through_trait, serde_bytes(&view));
        let mut as_answer = Vec::new();
        let answer = Answer::View(Box::new(view));
        answer.write_json(&mut as_answer).unwrap();
        assert_eq!(as_answer, serde_json::to_vec(&answer).unwrap());
        counts.checked += 1;
    }
}

#[test]
fn views_are_written_byte_for_byte_as_serde_json_writes_them() {
    let (ann, bob) = (Uuid::new_v4(), Uuid::new_v4());
    let names = [(ann, "ann".to_owned()), (bob, "b\"o\\b\u{e9}".to_owned())]
        .into_iter()
        .collect();
    let rule_sets = [
        Rules::default(),
        Rules {
            silent_defense: true,
            rescue: true,
            ..Rules::default()
        },
    ];
    let mut steps = Steps(7);
    let mut counts = Counts::default();
    let mut finished = 0;
    let mut hidden = 0;
    let mut silent = 0;
    for variant in Variant::ALL {
        for rules in rule_sets {
            let settings = TournamentSettings {
                variant,
                rules,
                time_control: TimeControl::PerMove { days: 3 },
                rated: true,
            };
            let players = ByColor {
                red: ann,
                blue: bob,
            };
            let mut record = GameRecord::of_tournament(
                Uuid::new_v4(),
                &settings,
                players,
                (Uuid::new_v4(), 2),
                at(0),
            );
            // The setup phase: each player sees their own pieces only.
            check_every_viewer(&mut counts, &record, &names, at(5));
            let red = Setup::random(variant, Color::Red, steps.below(1000) as u64);
            let blue = Setup::random(variant, Color::Blue, steps.below(1000) as u64);
            record.setups.set(red.clone());
            check_every_viewer(&mut counts, &record, &names, at(6));
            record.setups.set(blue.clone());
            let mut game = Game::new(variant, rules, red, blue).unwrap();
            for ply in 0..400 {
                if game.is_finished() {
                    break;
                }
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let chosen = moves[steps.below(moves.len())];
                let turn = game.turn();
                if game
                    .apply(turn, Action::play(chosen.from, chosen.to))
                    .is_err()
                {
                    break;
                }
                record.version += 1;
                if ply % 37 == 0 || game.is_finished() {
                    let view = game.view(domain::Viewer::Player(Color::Red));
                    hidden += view.board.iter().filter(|p| p.piece.is_none()).count();
                    silent += view.captured.blue.iter().filter(|p| p.is_none()).count();
                    record.phase = if game.is_finished() {
                        finished += 1;
                        Phase::Finished(Box::new(game.clone()))
                    } else {
                        Phase::Playing(Box::new(game.clone()))
                    };
                    check_every_viewer(&mut counts, &record, &names, at(60 + i64::from(ply)));
                }
            }
            if !game.is_finished() {
                game.apply(game.turn(), Action::Resign).unwrap();
                record.phase = Phase::Finished(Box::new(game.clone()));
                finished += 1;
                check_every_viewer(&mut counts, &record, &names, at(10_000));
            }
        }
    }
    // The cases the writer must get right were all met.
    assert!(counts.checked > 100, "{}", counts.checked);
    assert!(counts.with_moves > 20, "{}", counts.with_moves);
    assert!(finished >= 4, "{finished}");
    assert!(hidden > 0, "no hidden piece was written");
    assert!(silent > 0, "no silent capture was written");
}

#[test]
fn an_answer_of_nothing_is_written_as_serde_json_writes_it() {
    let mut out = Vec::new();
    Answer::Nothing.write_json(&mut out).unwrap();
    assert_eq!(out, serde_json::to_vec(&Answer::Nothing).unwrap());
    assert_eq!(out, b"null");
}

#[test]
fn a_move_answer_is_written_as_serde_json_writes_it() {
    let ann = Uuid::new_v4();
    let names = [(ann, "ann".to_owned())].into_iter().collect();
    let variant = Variant::ALL[0];
    let rules = Rules::default();
    let red = Setup::random(variant, Color::Red, 1);
    let blue = Setup::random(variant, Color::Blue, 2);
    let mut game = Game::new(variant, rules, red.clone(), blue.clone()).unwrap();
    let chosen = game.legal_moves()[0];
    let applied = game
        .apply(Color::Red, Action::play(chosen.from, chosen.to))
        .unwrap();
    let mut record = GameRecord::waiting(
        Uuid::new_v4(),
        variant,
        rules,
        false,
        ann,
        Color::Red,
        None,
        TimeControl::PerMove { days: 1 },
        at(0),
    );
    record.setups.set(red);
    record.setups.set(blue);
    record.phase = Phase::Playing(Box::new(game.clone()));
    let answer = MoveAnswer {
        move_: game.move_view(
            applied.record.as_ref().unwrap(),
            domain::Viewer::Player(Color::Red),
        ),
        game: game_view(&record, &names, Some(ann), at(1)),
        back_from_vacation: false,
    };
    let mut out = Vec::new();
    answer.write_json(&mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        serde_json::to_string(&answer).unwrap()
    );
}
