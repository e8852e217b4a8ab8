//! The compact stored forms (docs/storage.md): a game or a setup written
//! compactly reads back equal, says the same as its JSON document, is a
//! fraction of its size, and anything that is not exactly what was written
//! is refused instead of producing an impossible game.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use domain::playout::{random_game, random_playout};
use domain::{Action, Color, Game, Rules, Setup, Variant};

fn rulesets() -> Vec<Rules> {
    vec![
        Rules::default(),
        Rules::tournament(),
        Rules {
            silent_defense: true,
            rescue: true,
            aggressor_advantage: true,
            scout_strike_after_move: false,
            two_square_limit: 5,
            max_plies: Some(1_000),
            max_plies_without_battle: Some(300),
            more_squares_rule: false,
        },
    ]
}

/// Games of every variant and ruleset, at many plies, finished ones too.
fn games() -> Vec<Game> {
    let mut games = Vec::new();
    for variant in Variant::ALL {
        for rules in rulesets() {
            for seed in 0..6 {
                let mut game = random_game(variant, rules, seed).unwrap();
                games.push(game.clone());
                for _ in 0..12 {
                    let ply = u64::from(game.ply());
                    random_playout(&mut game, seed * 31 + ply, 25);
                    games.push(game.clone());
                    if game.is_finished() {
                        break;
                    }
                }
            }
        }
    }
    games
}

#[test]
fn a_game_reads_back_equal_and_as_its_json_does() {
    let mut finished = 0;
    for game in games() {
        let compact = game.to_compact();
        let back = Game::from_compact(&compact).unwrap();
        assert_eq!(back, game);
        let json: Game = serde_json::from_str(&serde_json::to_string(&game).unwrap()).unwrap();
        assert_eq!(json, back);
        assert_eq!(back.legal_moves(), game.legal_moves());
        finished += usize::from(game.is_finished());
    }
    assert!(finished > 0, "no finished game among the samples");
}

#[test]
fn a_game_with_a_chase_a_draw_offer_and_a_rescue_reads_back_equal() {
    // A chase (tournament rules) in progress, with a pending draw offer.
    let mut game = random_game(Variant::Classic, Rules::tournament(), 7).unwrap();
    let mut found = false;
    for seed in 0..400 {
        random_playout(&mut game, seed, 1);
        let back = Game::from_compact(&game.to_compact()).unwrap();
        assert_eq!(back, game);
        if game.is_finished() {
            break;
        }
        if serde_json::to_value(&game).unwrap()["chases"]
            != serde_json::json!({"red": null, "blue": null})
        {
            found = true;
        }
    }
    assert!(found, "no chase in 400 plies");
    let mut game = random_game(Variant::Classic, Rules::default(), 3).unwrap();
    game.apply(Color::Red, Action::OfferDraw).unwrap();
    assert_eq!(Game::from_compact(&game.to_compact()).unwrap(), game);
}

#[test]
fn a_stored_game_is_a_small_fraction_of_its_json() {
    let mut game = random_game(Variant::Classic, Rules::default(), 1).unwrap();
    random_playout(&mut game, 1, 200);
    let compact = game.to_compact();
    let json = serde_json::to_string(&game).unwrap();
    assert!(
        compact.len() * 8 < json.len(),
        "{} vs {}",
        compact.len(),
        json.len()
    );
    assert!(compact.is_ascii());
}

#[test]
fn anything_but_what_was_written_is_refused() {
    let mut game = random_game(Variant::Classic, Rules::default(), 2).unwrap();
    random_playout(&mut game, 2, 60);
    let text = game.to_compact();
    let (tag, hex) = text.split_at(3);
    // Every truncation, and anything appended.
    for cut in 0..text.len() {
        assert!(Game::from_compact(&text[..cut]).is_err(), "cut at {cut}");
    }
    assert!(Game::from_compact(&format!("{text}00")).is_err());
    assert!(Game::from_compact(&format!("{text}0")).is_err());
    assert!(Game::from_compact(&text.to_uppercase()).is_err());
    assert!(Game::from_compact(&format!("x2:{hex}")).is_err());
    assert!(Game::from_compact(&format!("{tag}{}", hex.replacen(&hex[..2], "zz", 1))).is_err());
    // Changing any one byte gives an error or a valid game, never a panic;
    // a change of the board must not go unnoticed where it breaks a rule.
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let write = |bytes: &[u8]| {
        let mut t = tag.to_owned();
        for b in bytes {
            t.push_str(&format!("{b:02x}"));
        }
        t
    };
    assert_eq!(Game::from_compact(&write(&bytes)).unwrap(), game);
    let mut refused = 0;
    for i in 0..bytes.len() {
        for v in [0u8, 1, 0x7f, 0xfe, 0xff, bytes[i] ^ 0x40] {
            let mut changed = bytes.clone();
            changed[i] = v;
            if Game::from_compact(&write(&changed)).is_err() {
                refused += 1;
            }
        }
    }
    assert!(refused > bytes.len(), "only {refused} changes refused");
}

#[test]
fn a_setup_reads_back_equal_and_is_validated_again() {
    for variant in Variant::ALL {
        for color in Color::ALL {
            for seed in 0..5 {
                let setup = Setup::random(variant, color, seed);
                let text = setup.to_compact();
                assert_eq!(Setup::from_compact(&text).unwrap(), setup);
                let json = serde_json::to_string(&setup).unwrap();
                assert!(text.len() * 3 < json.len(), "{text} vs {json}");
            }
        }
    }
    // Blue's pieces written as Red's: outside Red's zone, refused.
    let blue = Setup::random(Variant::Classic, Color::Blue, 1).to_compact();
    let as_red = format!("{}00{}", &blue[..5], &blue[7..]);
    assert!(Setup::from_compact(&as_red).is_err());
    // One piece fewer.
    let red = Setup::random(Variant::Classic, Color::Red, 1).to_compact();
    let count = u8::from_str_radix(&red[7..9], 16).unwrap();
    let shorter = format!("{}{:02x}{}", &red[..7], count - 1, &red[9..red.len() - 4]);
    assert!(Setup::from_compact(&shorter).is_err());
    // The same square twice.
    let first_square = &red[9..11];
    let twice = format!("{}{}{}", &red[..13], first_square, &red[15..]);
    assert!(Setup::from_compact(&twice).is_err());
    assert!(Setup::from_compact("s1:").is_err());
    assert!(Setup::from_compact(&red[..red.len() - 1]).is_err());
}

#[test]
fn a_game_from_compact_setups_plays_as_from_the_originals() {
    let red = Setup::random(Variant::Barrage, Color::Red, 9);
    let blue = Setup::random(Variant::Barrage, Color::Blue, 9);
    let read = |s: &Setup| Setup::from_compact(&s.to_compact()).unwrap();
    let a = Game::new(
        Variant::Barrage,
        Rules::default(),
        red.clone(),
        blue.clone(),
    )
    .unwrap();
    let b = Game::new(Variant::Barrage, Rules::default(), read(&red), read(&blue)).unwrap();
    assert_eq!(a, b);
}
