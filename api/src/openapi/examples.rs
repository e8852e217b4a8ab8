//! Written examples of the main answers, from a real game: a duel played
//! a few random plies by the rules engine, seen by Red.

use domain::rng::SplitMix64;
use domain::{Action, Color, Rules, Variant, Viewer};
use serde_json::{json, Value};

use super::Schemas;

const GAME: &str = "0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10";
const GAME_2: &str = "5d0c3f9a-1b2e-4c7d-8e9f-a0b1c2d3e4f5";
const ANN: &str = "6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11";
const BO: &str = "2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08";
const TOURNAMENT: &str = "6f1c2a9e-3b7d-4e0a-9c55-2d8f0b4a7e13";

/// A Swiss tournament of three in its second (last) round.
fn tournament() -> Value {
    json!({
        "id": TOURNAMENT, "name": "Winter Swiss", "organiser": "cy", "system": "swiss",
        "variant": "duel", "rules": Rules::default(),
        "time_control": {"type": "per_move", "days": 3}, "rated": true, "round_count": 2,
        "double": false, "max_players": 32, "bye_points": 1.0, "starts_at": null,
        "status": "running", "current_round": 2, "created_at": "2026-11-20T09:00:00Z",
        "started_at": "2026-11-22T09:00:00Z", "finished_at": null,
        "players": [
            {"username": "ann", "rating": 1612, "withdrawn": false},
            {"username": "bo", "rating": 1545, "withdrawn": false},
            {"username": "cy", "rating": 1500, "withdrawn": false}],
        "rounds": [
            {"number": 1, "games": [{"game_id": GAME_2, "red": "ann", "blue": "bo",
                                     "result": "1-0"}], "byes": ["cy"]},
            {"number": 2, "games": [{"game_id": GAME, "red": "cy", "blue": "ann",
                                     "result": null}], "byes": ["bo"]}],
        "standings": [
            {"rank": 1, "username": "ann", "points": 1.0, "games": 1, "wins": 1,
             "withdrawn": false, "tiebreaks": {"buchholz_cut_1": 0.0, "buchholz": 1.0,
                                               "sonneborn_berger": 1.0}},
            {"rank": 2, "username": "bo", "points": 1.0, "games": 1, "wins": 0,
             "withdrawn": false, "tiebreaks": {"buchholz_cut_1": 0.0, "buchholz": 1.0,
                                               "sonneborn_berger": 0.0}},
            {"rank": 3, "username": "cy", "points": 1.0, "games": 0, "wins": 0,
             "withdrawn": false, "tiebreaks": {"buchholz_cut_1": 0.0, "buchholz": 0.0,
                                               "sonneborn_berger": 0.0}}],
    })
}

/// The views of a duel after a few plies: (Red's view, the moves as
/// Red saw them, the last move as the mover saw it).
fn played() -> Option<(Value, Vec<Value>, Value)> {
    let mut game = domain::playout::random_game(Variant::Duel, Rules::default(), 7).ok()?;
    let mut rng = SplitMix64::new(3);
    let mut history = Vec::new();
    let mut last = Value::Null;
    for _ in 0..6 {
        let moves = game.legal_moves();
        if moves.is_empty() || game.is_finished() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let color = game.turn();
        let applied = game
            .apply(
                color,
                Action::Move {
                    from: m.from,
                    to: m.to,
                    rescue: None,
                },
            )
            .ok()?;
        let record = applied.record?;
        history
            .push(serde_json::to_value(game.move_view(&record, Viewer::Player(Color::Red))).ok()?);
        last = serde_json::to_value(game.move_view(&record, Viewer::Player(color))).ok()?;
    }
    let view = serde_json::to_value(game.view(Viewer::Player(Color::Red))).ok()?;
    Some((view, history, last))
}

fn game_view(view: &Value) -> Value {
    let mut example = json!({
        "id": GAME, "variant": "duel", "rules": Rules::default(), "status": "playing",
        "version": 9, "you": "red",
        "players": {"red": {"id": ANN, "username": "ann", "deleted": false},
                    "blue": {"id": BO, "username": "bo", "deleted": false}},
        "deadline": "2026-12-04T10:00:00Z",
        "setup_done": {"red": true, "blue": true},
        "days_per_move": 3, "time_control": {"type": "per_move", "days": 3}, "rated": true,
        "tournament": null,
        "clocks": {
            "red": {"remaining_seconds": 172_800, "deadline": "2026-12-04T10:00:00Z",
                    "running": true, "on_vacation": false, "until": null},
            "blue": {"remaining_seconds": 259_200, "deadline": null,
                     "running": false, "on_vacation": false, "until": null},
        },
        "creator": {"id": ANN, "username": "ann", "deleted": false},
        "opponent": {"id": BO, "username": "bo", "deleted": false},
        "created_at": "2026-12-01T09:00:00Z", "updated_at": "2026-12-01T10:00:00Z",
    });
    for member in [
        "ply",
        "turn",
        "board",
        "captured",
        "last_move",
        "result",
        "draw_offer",
        "rescues_used",
        "plies_without_battle",
    ] {
        example[member] = view[member].clone();
    }
    if let Some(moves) = view.get("legal_moves").filter(|m| !m.is_null()) {
        example["legal_moves"] = moves.clone();
    }
    example
}

pub(super) fn add(schemas: &mut Schemas) {
    let Some((view, history, last)) = played() else {
        return;
    };
    let game = game_view(&view);
    let summary = json!({
        "id": GAME, "variant": "duel", "rules": Rules::default(), "status": "playing",
        "version": 9, "ply": game["ply"], "turn": game["turn"], "players": game["players"],
        "creator": game["creator"], "opponent": game["opponent"], "days_per_move": 3,
        "time_control": {"type": "per_move", "days": 3}, "rated": true, "tournament": null,
        "deadline": game["deadline"], "result": null,
        "setup_done": game["setup_done"], "created_at": game["created_at"],
        "updated_at": game["updated_at"],
    });
    let examples = [
        ("GameView", game.clone()),
        ("MoveAnswer", json!({"move": last, "game": game})),
        (
            "MoveHistory",
            json!({"game_id": GAME, "version": 9, "moves": history}),
        ),
        (
            "GamePage",
            json!({"games": [summary.clone()], "next_cursor": null}),
        ),
        (
            "Leaderboard",
            json!({"variant": "classic", "max_deviation": 110.0, "active_days": 90,
                   "entries": [
                {"rank": 1, "user_id": ANN, "username": "ann", "rating": 1612.4,
                 "deviation": 84.2, "games": 31, "last_game_at": "2026-11-30T18:00:00Z"},
                {"rank": 2, "user_id": BO, "username": "bo", "rating": 1544.9,
                 "deviation": 97.5, "games": 22, "last_game_at": "2026-12-01T08:15:00Z"},
            ], "next_cursor": "bHw0NjE4M..."}),
        ),
        (
            "Profile",
            json!({"id": ANN, "username": "ann", "joined_at": "2026-09-14T12:00:00Z",
                   "ratings": [
                {"variant": "classic", "rating": 1612.4, "deviation": 84.2,
                 "volatility": 0.0599, "settled": true, "games": 31, "wins": 18,
                 "losses": 10, "draws": 3, "last_game_at": "2026-11-30T18:00:00Z"},
                {"variant": "duel", "rating": 1478.0, "deviation": 212.7,
                 "volatility": 0.06, "settled": false, "games": 2, "wins": 0,
                 "losses": 1, "draws": 1, "last_game_at": "2026-10-02T09:30:00Z"},
            ], "current_games": [summary], "on_vacation": false,
              "vacation_remaining_days": 30}),
        ),
        (
            "RatingHistory",
            json!({"username": "ann", "points": [
                {"variant": "classic", "number": 1, "game_id": GAME,
                 "at": "2026-09-20T10:00:00Z", "rating": 1662.3, "deviation": 290.3,
                 "volatility": 0.06},
                {"variant": "classic", "number": 2, "game_id": GAME_2,
                 "at": "2026-09-27T16:40:00Z", "rating": 1601.8, "deviation": 254.1,
                 "volatility": 0.06},
            ], "next_cursor": null}),
        ),
        ("TournamentView", tournament()),
        (
            "TournamentList",
            json!({"tournaments": [{"id": TOURNAMENT, "name": "Winter Swiss",
                "organiser": "cy", "system": "swiss", "variant": "duel",
                "time_control": {"type": "per_move", "days": 3}, "rated": true,
                "status": "running", "players": 3, "max_players": 32, "round_count": 2,
                "current_round": 2, "starts_at": null, "created_at": "2026-11-20T09:00:00Z"}]}),
        ),
        (
            "EventPage",
            json!({"events": [
            {"id": 41, "created_at": "2026-12-01T09:30:00Z", "type": "game_started",
             "game_id": GAME},
            {"id": 42, "created_at": "2026-12-01T10:00:00Z", "type": "your_turn",
             "game_id": GAME, "ply": game["ply"], "opponent_move": history.last()},
        ], "last_id": 42}),
        ),
    ];
    for (name, example) in examples {
        if let Some(schema) = schemas.get_mut(name) {
            schema["example"] = example;
        }
    }
}
