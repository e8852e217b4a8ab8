//! Property tests over many random games: no panics; the legal move list and
//! `apply` agree exactly; refused actions change nothing; views never show
//! an opponent's unrevealed rank; the state round-trips through serde; a
//! replayed action log reproduces the state.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use domain::rng::SplitMix64;
use domain::{
    Action, Color, Game, Move, MoveRecord, Piece, PieceId, Rescue, Rules, Setup, Square, Variant,
    View, Viewer,
};
use proptest::prelude::*;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        2u8..=10,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::option::weighted(0.2, 20u32..400),
        prop::option::weighted(0.2, 5u32..100),
        any::<bool>(),
    )
        .prop_map(
            |(limit, strike, aggressor, silent, rescue, mp, mpwb, more_squares)| Rules {
                two_square_limit: limit,
                scout_strike_after_move: strike,
                aggressor_advantage: aggressor,
                silent_defense: silent,
                rescue,
                max_plies: mp,
                max_plies_without_battle: mpwb,
                more_squares_rule: more_squares,
            },
        )
}

fn variant_strategy() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::Classic),
        Just(Variant::Barrage),
        Just(Variant::Duel)
    ]
}

/// What each color has learned about the other's pieces, tracked from the
/// move records alone (independently of the game's own flags).
#[derive(Default)]
struct Knowledge {
    revealed: HashSet<PieceId>,
}

impl Knowledge {
    fn learn(&mut self, record: &MoveRecord, game: &Game) {
        if record.piece_revealed {
            self.revealed.insert(record.piece_id);
        }
        if let Some(b) = record.battle {
            assert!(
                record.piece_revealed,
                "an attacker is always revealed to the defender"
            );
            if b.defender_revealed {
                self.revealed.insert(b.defender_id);
            }
        }
        if let Some(r) = record.rescue {
            let id = game.full_truth().piece_on(r.square).unwrap().id;
            self.revealed.insert(id);
        }
    }
}

/// The view must not show a rank its viewer may not know.
fn check_view(game: &Game, view: &View, viewer: Viewer, knowledge: &Knowledge) {
    let finished = game.is_finished();
    let truth: Vec<_> = game.full_truth().pieces().collect();
    assert_eq!(view.board.len(), truth.len());
    for pv in &view.board {
        let t = game.full_truth().piece_on(pv.square).unwrap();
        assert_eq!((t.id, t.color, t.moved), (pv.id, pv.color, pv.moved));
        let own = viewer == Viewer::Player(pv.color);
        match pv.piece {
            Some(p) => {
                assert_eq!(p, t.piece, "a view shows a wrong rank");
                assert!(
                    own || finished || knowledge.revealed.contains(&pv.id),
                    "{viewer:?} sees the unrevealed {} on {}",
                    p,
                    pv.square
                );
                assert_eq!(pv.strength, p.strength());
            }
            None => {
                assert!(!own && !finished, "{viewer:?} misses a rank it knows");
                assert!(pv.strength.is_none());
            }
        }
    }
    for color in Color::ALL {
        let shown = view.captured.get(color);
        let truth: Vec<Piece> = game.full_truth().captured(color).collect();
        assert_eq!(shown.len(), truth.len());
        // The known ranks come first, in capture order (a subsequence of
        // the truth), then one `None` per rank the viewer may not know.
        let known: Vec<Piece> = shown.iter().map_while(|s| *s).collect();
        assert!(
            shown[known.len()..].iter().all(Option::is_none),
            "{viewer:?}: hidden captured pieces come last"
        );
        let mut rest = truth.iter();
        assert!(
            known.iter().all(|k| rest.any(|t| t == k)),
            "{viewer:?}: known captured ranks are the truth, in capture order"
        );
        if known.len() < truth.len() {
            assert!(viewer != Viewer::Player(color) && !finished);
        }
    }
    if let (Some(mv), Some(rec)) = (view.last_move, game.full_truth().last_move()) {
        let own = viewer == Viewer::Player(rec.color);
        if mv.piece.is_some() {
            assert!(own || finished || rec.piece_revealed);
        }
        if let (Some(b), Some(rb)) = (mv.battle, rec.battle) {
            assert_eq!(b.outcome, rb.outcome);
            if b.defender.is_some() {
                assert!(
                    viewer == Viewer::Player(rec.color.opponent())
                        || finished
                        || rb.defender_revealed
                );
            }
        }
    }
    // Views are write-only (no Deserialize: nothing outside the crate can
    // make one); the JSON holds exactly what the view holds.
    let json = serde_json::to_value(view).unwrap();
    assert_eq!(json["ply"], view.ply);
    assert_eq!(json["board"].as_array().unwrap().len(), view.board.len());
    assert!(json.get("seal").is_none());
}

/// Every generated move is accepted, every other (from, to) is refused, and
/// a refused move leaves the game exactly as it was.
fn check_moves_agree(game: &Game) {
    let legal = game.legal_moves();
    let set: HashSet<Move> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "duplicate legal moves");
    assert_eq!(legal.is_empty(), game.is_finished());
    let by = game.turn();
    for from in Square::all() {
        let occupied = game.full_truth().piece_on(from).is_some();
        for to in Square::all() {
            // Empty origins are all refused the same way; test a sample.
            if !occupied && (from.index() + to.index()) % 17 != 0 {
                continue;
            }
            let m = Move { from, to };
            let mut g = game.clone();
            let r = g.apply(by, Action::play(from, to));
            if set.contains(&m) {
                assert!(r.is_ok(), "generated move {m} refused: {r:?}");
            } else {
                assert!(r.is_err(), "move {m} accepted but not generated");
                assert_eq!(&g, game, "refused move {m} changed the game");
            }
        }
    }
    // Out of turn, nothing is accepted.
    if let Some(m) = legal.first() {
        let mut g = game.clone();
        assert!(g.apply(by.opponent(), Action::play(m.from, m.to)).is_err());
        assert_eq!(&g, game);
    }
}

/// Shuffling the ranks of the opponent's unrevealed pieces (on the board
/// and captured) must not change anything a player or spectator sees: the
/// strongest form of "a view never contains a hidden rank".
fn check_indistinguishable(game: &Game, rng: &mut SplitMix64) {
    if game.is_finished() {
        return;
    }
    for viewer in Color::ALL {
        let opponent = viewer.opponent().name();
        let mut state = serde_json::to_value(game).unwrap();
        let pieces = state["pieces"].as_array_mut().unwrap();
        let hidden: Vec<usize> = (0..pieces.len())
            .filter(|&i| pieces[i]["color"] == opponent && pieces[i]["revealed"] == false)
            .collect();
        if hidden.len() < 2 {
            continue;
        }
        let mut ranks: Vec<serde_json::Value> =
            hidden.iter().map(|&i| pieces[i]["piece"].clone()).collect();
        rng.shuffle(&mut ranks);
        for (&i, rank) in hidden.iter().zip(ranks) {
            pieces[i]["piece"] = rank;
        }
        let other: Game = serde_json::from_value(state).unwrap();
        for v in [Viewer::Player(viewer), Viewer::Spectator] {
            assert_eq!(
                game.view(v),
                other.view(v),
                "{v:?}'s view depends on hidden ranks"
            );
        }
    }
}

fn check_round_trip(game: &Game) {
    let json = serde_json::to_string(game).unwrap();
    let back: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, game);
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
}

/// Picks a random action: mostly legal moves, sometimes a rescue attempt,
/// a random (probably illegal) move or a draw action; rarely a resignation.
fn random_action(game: &Game, rng: &mut SplitMix64) -> (Color, Action) {
    let turn = game.turn();
    let legal = game.legal_moves();
    let roll = rng.below(1000);
    if roll < 2 {
        return (turn.opponent(), Action::Resign);
    }
    if roll < 30 {
        let by = Color::ALL[rng.below(2)];
        let action = [Action::OfferDraw, Action::AcceptDraw, Action::DeclineDraw][rng.below(3)];
        return (by, action);
    }
    if roll < 80 || legal.is_empty() {
        let from = Square::from_index(rng.below(100) as u8).unwrap();
        let to = Square::from_index(rng.below(100) as u8).unwrap();
        return (Color::ALL[rng.below(2)], Action::play(from, to));
    }
    let mut m = legal[rng.below(legal.len())];
    if game.rules().more_squares_rule && roll < 700 {
        // Chase: mostly moves next to an opponent's piece, so that chases
        // (and the rule's refusals) are common.
        let threats: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| threatens(game, turn, m.to))
            .collect();
        if !threats.is_empty() {
            m = threats[rng.below(threats.len())];
        }
    }
    let rescue = (roll < 400).then(|| Rescue {
        piece: Piece::ALL[rng.below(12)],
        square: Square::from_index(rng.below(100) as u8).unwrap(),
    });
    (
        turn,
        Action::Move {
            from: m.from,
            to: m.to,
            rescue,
        },
    )
}

/// Whether a piece of `by` moving to the empty square `to` would stand next
/// to an opponent's piece (a threat, for the more-squares rule).
fn threatens(game: &Game, by: Color, to: Square) -> bool {
    if game.full_truth().piece_on(to).is_some() {
        return false;
    }
    let (f, r) = (to.file() as i8, to.rank() as i8);
    [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|(df, dr)| {
        let (nf, nr) = (f + df, r + dr);
        (0..=9).contains(&nf)
            && (1..=10).contains(&nr)
            && Square::from_file_rank(nf as u8, nr as u8)
                .and_then(|s| game.full_truth().piece_on(s))
                .is_some_and(|p| p.color != by)
    })
}

fn play_and_check(variant: Variant, rules: Rules, seed: u64, plies: usize) {
    let start = Game::new(
        variant,
        rules,
        Setup::random(variant, Color::Red, seed),
        Setup::random(variant, Color::Blue, seed.wrapping_add(1)),
    )
    .unwrap();
    let mut game = start.clone();
    let mut rng = SplitMix64::new(seed);
    let mut knowledge = [Knowledge::default(), Knowledge::default()];
    let mut spectator = Knowledge::default();
    let mut log: Vec<(Color, Action)> = Vec::new();
    let deep_checks = [plies / 3, 2 * plies / 3];
    for step in 0..plies {
        if deep_checks.contains(&step) {
            check_moves_agree(&game);
            check_indistinguishable(&game, &mut rng);
        }
        if game.is_finished() {
            break;
        }
        let (by, action) = random_action(&game, &mut rng);
        let before = game.clone();
        match game.apply(by, action) {
            Ok(applied) => {
                log.push((by, action));
                if let Some(record) = applied.record {
                    assert_eq!(game.full_truth().last_move(), Some(&record));
                    assert_eq!(record.ply, game.ply());
                    // What is revealed to the defender's side is public, and
                    // the mover's side learns the same.
                    for k in knowledge.iter_mut().chain([&mut spectator]) {
                        k.learn(&record, &game);
                    }
                }
            }
            Err(e) => {
                assert_eq!(game, before, "refused {action:?} changed the game");
                assert!(!e.to_string().is_empty());
                assert!(!e.kind().is_empty());
            }
        }
        for (i, color) in Color::ALL.into_iter().enumerate() {
            let viewer = Viewer::Player(color);
            check_view(&game, &game.view(viewer), viewer, &knowledge[i]);
        }
        check_view(
            &game,
            &game.view(Viewer::Spectator),
            Viewer::Spectator,
            &spectator,
        );
        if step % 16 == 0 {
            check_round_trip(&game);
        }
    }
    check_round_trip(&game);
    check_moves_agree(&game);
    check_indistinguishable(&game, &mut rng);
    // Replaying the accepted actions reproduces the state exactly.
    let mut replay = start;
    for (by, action) in log {
        replay.apply(by, action).unwrap();
    }
    assert_eq!(replay, game);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(
        variant in variant_strategy(),
        rules in rules_strategy(),
        seed in any::<u64>(),
        plies in 1usize..400,
    ) {
        play_and_check(variant, rules, seed, plies);
    }

    #[test]
    fn random_setups_validate_and_round_trip(
        variant in variant_strategy(),
        seed in any::<u64>(),
    ) {
        for color in Color::ALL {
            let setup = Setup::random(variant, color, seed);
            prop_assert_eq!(setup.pieces().len(), variant.army_size());
            let again = setup.to_placement().validate(variant, color).unwrap();
            prop_assert_eq!(&again, &setup);
            let json = serde_json::to_string(&setup).unwrap();
            prop_assert_eq!(serde_json::from_str::<Setup>(&json).unwrap(), setup);
        }
    }

    #[test]
    fn garbage_never_panics(
        board in "[A-Z_]{100}",
        state in "\\PC{0,200}",
    ) {
        let _ = Game::from_board_string(&board, Variant::Classic, Rules::default());
        let _ = serde_json::from_str::<Game>(&state);
        let _ = serde_json::from_str::<Action>(&state);
    }
}

#[test]
fn long_games_stay_consistent() {
    // A few full-length games with the default rules, checked at the end.
    for seed in 0..3 {
        play_and_check(Variant::Classic, Rules::default(), seed, 1500);
    }
    // And with the more-squares rule on, chasing most of the time.
    for (variant, seed) in [
        (Variant::Classic, 3),
        (Variant::Barrage, 4),
        (Variant::Duel, 5),
    ] {
        play_and_check(variant, Rules::tournament(), seed, 1500);
    }
}

#[test]
fn tampered_state_is_refused() {
    let game = Game::new(
        Variant::Classic,
        Rules::default(),
        Setup::random(Variant::Classic, Color::Red, 4),
        Setup::random(Variant::Classic, Color::Blue, 4),
    )
    .unwrap();
    let json = serde_json::to_string(&game).unwrap();
    assert!(json.starts_with("{\"format\":2,"));
    for (from, to) in [
        ("\"format\":2", "\"format\":3"),
        ("\"format\":2", "\"format\":0"),
        ("\"square\":\"a1\"", "\"square\":\"b1\""),
        ("\"square\":\"a1\"", "\"square\":\"c5\""),
        ("\"two_square_limit\":3", "\"two_square_limit\":1"),
        ("\"piece\":\"flag\"", "\"piece\":\"marshal\""),
    ] {
        let bad = json.replacen(from, to, 1);
        assert_ne!(bad, json, "{from} not found");
        assert!(
            serde_json::from_str::<Game>(&bad).is_err(),
            "accepted tampered state ({from} -> {to})"
        );
    }
}
