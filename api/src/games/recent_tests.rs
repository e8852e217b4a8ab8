#![allow(clippy::unwrap_used)]

use super::*;
use crate::clock::{ManualClock, SystemClock};
use crate::games::record::Phase;
use chrono::NaiveDateTime;

fn row(id: Uuid, version: i64, state: usize) -> GameRow {
    GameRow {
        id: id.to_string(),
        variant: "classic".into(),
        rules: "{}".into(),
        status: "playing".into(),
        version,
        creator_id: Uuid::nil().to_string(),
        red_user_id: None,
        blue_user_id: None,
        challenged_user_id: None,
        days_per_move: 3,
        red_setup: None,
        blue_setup: None,
        state: Some("x".repeat(state)),
        turn: None,
        ply: 0,
        draw_offer: None,
        deadline: None,
        reminded_version: None,
        time_control: None,
        clocks: None,
        result_winner: None,
        result_reason: None,
        created_at: NaiveDateTime::default(),
        updated_at: NaiveDateTime::default(),
        rated: false,
        tournament_id: None,
        tournament_round: None,
    }
}

fn cache(budget: usize) -> RecentGames {
    RecentGames::new(budget, Arc::new(SystemClock))
}

fn names(pairs: &[(Uuid, &str)]) -> Names {
    pairs.iter().map(|(id, n)| (*id, (*n).to_owned())).collect()
}

fn version_of(recent: &RecentGames, id: Uuid) -> Option<i64> {
    recent.game(id).map(|g| g.row.version)
}

#[test]
fn a_game_is_kept_at_its_newest_version() {
    let recent = cache(64 * 1024);
    let game = Uuid::new_v4();
    recent.keep_game(game, row(game, 3, 10), Names::new(), None);
    recent.keep_game(game, row(game, 4, 10), Names::new(), None);
    recent.keep_game(game, row(game, 3, 10), Names::new(), None);
    assert_eq!(version_of(&recent, game), Some(4));
    // Taken once.
    assert_eq!(recent.take_game(game).map(|g| g.row.version), Some(4));
    assert!(recent.take_game(game).is_none());
    assert_eq!(recent.bytes(), 0);
    assert_eq!(recent.counts().changes, (1, 1));
    recent.keep_game(game, row(game, 4, 10), Names::new(), None);
    // A game that is over keeps no row, and what was kept of it before is
    // forgotten.
    let over = Uuid::new_v4();
    recent.keep_game(over, row(over, 8, 10), Names::new(), None);
    let mut finished = row(over, 9, 10);
    finished.status = "finished".into();
    recent.keep_game(over, finished, Names::new(), None);
    assert!(recent.game(over).is_none());
    assert!(recent.game(Uuid::new_v4()).is_none());
    // Reaching an older or the same version forgets nothing; a newer one
    // forgets the entry.
    recent.forget_before(game, 4);
    assert!(recent.game(game).is_some());
    recent.forget_before(game, 5);
    assert!(recent.game(game).is_none());
    assert_eq!(recent.bytes(), 0);
}

#[test]
fn a_row_serves_a_change_only_for_its_time() {
    let clock = ManualClock::starting_now();
    let recent = RecentGames::new(64 * 1024, clock.clone());
    let game = Uuid::new_v4();
    recent.keep_game(game, row(game, 3, 10), Names::new(), None);
    clock.advance(Duration::seconds(ROW_SERVES_SECONDS - 1));
    assert!(recent.game(game).is_some());
    clock.advance(Duration::seconds(1));
    assert!(recent.game(game).is_none());
    assert!(recent.take_game(game).is_none());
    assert_eq!(recent.bytes(), 0);
}

#[test]
fn a_view_serves_only_its_seat_version_and_names() {
    let recent = cache(64 * 1024);
    let (game, ana) = (Uuid::new_v4(), Uuid::new_v4());
    let shown = names(&[(ana, "ana")]);
    let red = Some(Color::Red);
    recent.keep_view(game, red, 7, &shown, Bytes::from_static(b"red at 7"));
    let hit = recent.view(game, red, 7, &shown);
    assert_eq!(hit.as_deref(), Some(&b"red at 7"[..]));
    // Another seat, another version, another game, a renamed user.
    assert!(recent.view(game, Some(Color::Blue), 7, &shown).is_none());
    assert!(recent.view(game, None, 7, &shown).is_none());
    assert!(recent.view(game, red, 8, &shown).is_none());
    assert!(recent.view(Uuid::new_v4(), red, 7, &shown).is_none());
    let renamed = names(&[(ana, "ana2")]);
    assert!(recent.view(game, red, 7, &renamed).is_none());
    assert_eq!(recent.counts().views, (1, 5));
}

#[test]
fn one_entry_holds_the_row_and_the_views_of_one_version() {
    let recent = cache(64 * 1024);
    let game = Uuid::new_v4();
    let shown = Names::new();
    recent.keep_view(game, None, 4, &shown, Bytes::from_static(b"four"));
    recent.keep_game(game, row(game, 4, 10), shown.clone(), None);
    recent.keep_view(
        game,
        Some(Color::Blue),
        4,
        &shown,
        Bytes::from_static(b"b4"),
    );
    assert!(recent.view(game, None, 4, &shown).is_some());
    assert!(recent.game(game).is_some());
    // A change takes the row and leaves the views (a refusal changes
    // nothing they show).
    assert!(recent.take_game(game).is_some());
    assert!(recent.view(game, Some(Color::Blue), 4, &shown).is_some());
    // An older version changes nothing; a newer one replaces it all.
    recent.keep_view(game, None, 3, &shown, Bytes::from_static(b"three"));
    assert!(recent.view(game, None, 3, &shown).is_none());
    assert!(recent.view(game, None, 4, &shown).is_some());
    recent.keep_game(game, row(game, 5, 10), shown.clone(), None);
    assert!(recent.view(game, None, 4, &shown).is_none());
    assert!(recent.view(game, Some(Color::Blue), 4, &shown).is_none());
    assert_eq!(version_of(&recent, game), Some(5));
    // A change forgets the views of what it replaced, too.
    recent.keep_view(game, None, 5, &shown, Bytes::from_static(b"five"));
    recent.forget_before(game, 6);
    assert!(recent.view(game, None, 5, &shown).is_none());
    assert_eq!(recent.bytes(), 0);
    // The views of a game that is over are kept; its row is not.
    let mut finished = row(game, 6, 10);
    finished.status = "finished".into();
    recent.keep_view(game, None, 6, &shown, Bytes::from_static(b"six"));
    recent.keep_game(game, finished, shown.clone(), None);
    assert!(recent.game(game).is_none());
    assert!(recent.view(game, None, 6, &shown).is_some());
}

#[test]
fn the_budget_bounds_what_is_held() {
    let one = {
        let probe = cache(1 << 20);
        probe.keep_game(Uuid::nil(), row(Uuid::nil(), 1, 1000), Names::new(), None);
        probe.bytes()
    };
    let recent = cache(3 * one);
    for version in 0..20 {
        let game = Uuid::new_v4();
        recent.keep_game(game, row(game, version, 1000), Names::new(), None);
        assert!(recent.bytes() <= 3 * one, "{} bytes held", recent.bytes());
    }
    assert_eq!(recent.bytes(), 3 * one);
    // Too big to keep at all; nothing else is dropped for it, but the
    // older version of its own game is.
    let big = Uuid::new_v4();
    recent.keep_game(big, row(big, 1, 100), Names::new(), None);
    let held = recent.bytes();
    recent.keep_game(big, row(big, 2, 4 * one), Names::new(), None);
    assert!(recent.game(big).is_none());
    assert!(recent.bytes() < held);
    let view = Bytes::from(vec![b'x'; 4 * one]);
    recent.keep_view(big, None, 3, &Names::new(), view);
    assert!(recent.view(big, None, 3, &Names::new()).is_none());
    // No budget: nothing is kept.
    let none = cache(0);
    none.keep_game(big, row(big, 1, 1), Names::new(), None);
    none.keep_view(big, None, 1, &Names::new(), Bytes::from_static(b"x"));
    assert!(none.game(big).is_none());
    assert!(none.view(big, None, 1, &Names::new()).is_none());
    assert_eq!(none.bytes(), 0);
}

#[test]
fn a_decoded_game_is_kept_with_its_row_and_counted() {
    let game = Uuid::new_v4();
    let mut record = GameRecord::waiting(
        game,
        domain::Variant::Classic,
        domain::Rules::default(),
        true,
        Uuid::new_v4(),
        Color::Red,
        None,
        domain::TimeControl::PerMove { days: 3 },
        Utc::now(),
    );
    let (red, blue) = (
        domain::Setup::random(domain::Variant::Classic, Color::Red, 1),
        domain::Setup::random(domain::Variant::Classic, Color::Blue, 2),
    );
    let play = domain::Game::new(
        domain::Variant::Classic,
        domain::Rules::default(),
        red.clone(),
        blue.clone(),
    )
    .unwrap();
    record.setups.set(red);
    record.setups.set(blue);
    record.phase = Phase::Playing(Box::new(play));
    let stored = record.to_row().unwrap();
    let recent = cache(1 << 20);
    recent.keep_game(game, stored.clone(), Names::new(), None);
    let without = recent.bytes();
    recent.keep_game(game, stored.clone(), Names::new(), Some(record.clone()));
    // The record, its boxed game and both armies.
    let decoded = std::mem::size_of::<GameRecord>() + std::mem::size_of::<domain::Game>() + 80 * 2;
    assert!(
        recent.bytes() >= without + decoded,
        "{} bytes held with the decoded game, {without} without",
        recent.bytes()
    );
    // A change takes the decoded game with the row it came from.
    let taken = recent.take_game(game).unwrap();
    assert_eq!(taken.row.version, stored.version);
    let decoded = taken.decoded.as_ref().unwrap();
    assert_eq!(decoded.id, game);
    assert_eq!(decoded.version, record.version);
    assert_eq!(recent.bytes(), 0);
}
