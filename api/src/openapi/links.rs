//! The OpenAPI links: where the values of a success answer lead next.

use super::operations::operations_mut;

/// Where the values of a success answer lead next, as OpenAPI links from
/// (operation, status) to an operation: a new game's id to joining it,
/// a view's first legal move to playing it, a token pair to refreshing it.
/// For readers, and for tools that test sequences of calls (the contract
/// fuzzing of `.ci/fuzz` follows them from a new game to its moves).
/// Links to a game: (source, status, name, target, the game id, description).
#[rustfmt::skip]
const GAME_LINKS: [(&str, &str, &str, &str, &str, &str); 25] = [
    ("create_game", "201", "Join", "join_game", ID, "Take the open seat or accept"),
    ("create_game", "201", "Decline", "decline_game", ID, "Decline the challenge"),
    ("create_game", "201", "Abort", "abort_game", ID, "Withdraw the game"),
    ("join_game", "200", "PlaceSetup", "place_setup", ID, "Place a setup"),
    ("place_setup", "200", "PlaceSetup", "place_setup", ID, "Place (or replace) a setup"),
    ("get_game", "200", "Draw", "draw_game", ID, "Offer or answer a draw"),
    ("get_game", "200", "Resign", "resign_game", ID, "Resign"),
    ("play_move", "200", "GetGame", "get_game", MOVED, "The game after the move"),
    ("play_move", "200", "ListMoves", "list_moves", MOVED, "The history after the move"),
    ("create_game", "201", "GetGame", "get_game", ID, VIEW),
    ("create_game", "201", "ListMoves", "list_moves", ID, HISTORY),
    ("create_game", "201", "StreamGame", "stream_game", ID, FOLLOW),
    ("join_game", "200", "GetGame", "get_game", ID, VIEW),
    ("join_game", "200", "ListMoves", "list_moves", ID, HISTORY),
    ("join_game", "200", "StreamGame", "stream_game", ID, FOLLOW),
    ("place_setup", "200", "GetGame", "get_game", ID, VIEW),
    ("place_setup", "200", "ListMoves", "list_moves", ID, HISTORY),
    ("place_setup", "200", "StreamGame", "stream_game", ID, FOLLOW),
    ("draw_game", "200", "GetGame", "get_game", ID, VIEW),
    ("draw_game", "200", "ListMoves", "list_moves", ID, HISTORY),
    ("draw_game", "200", "StreamGame", "stream_game", ID, FOLLOW),
    ("resign_game", "200", "GetGame", "get_game", ID, VIEW),
    ("resign_game", "200", "ListMoves", "list_moves", ID, HISTORY),
    ("resign_game", "200", "StreamGame", "stream_game", ID, FOLLOW),
    ("get_game", "200", "StreamGame", "stream_game", ID, FOLLOW),
];
const ID: &str = "$response.body#/id";
const MOVED: &str = "$response.body#/game/id";
const VIEW: &str = "The game as the caller sees it now";
const HISTORY: &str = "The history of the game";
const FOLLOW: &str = "Follow the game";

/// Links that pass a token pair on: (source, status, name, target, description).
#[rustfmt::skip]
const TOKEN_LINKS: [(&str, &str, &str, &str, &str); 5] = [
    (
        "register_user",
        "201",
        "Refresh",
        "refresh_token",
        "Refresh the first tokens",
    ),
    (
        "login_user",
        "200",
        "Refresh",
        "refresh_token",
        "Refresh the tokens",
    ),
    (
        "login_user",
        "200",
        "Logout",
        "logout_user",
        "End this session",
    ),
    (
        "refresh_token",
        "200",
        "Refresh",
        "refresh_token",
        "Refresh the new tokens",
    ),
    (
        "refresh_token",
        "200",
        "Logout",
        "logout_user",
        "End this session",
    ),
];

fn link_table() -> Vec<(&'static str, &'static str, &'static str, serde_json::Value)> {
    use serde_json::json;
    let mut table = Vec::new();
    for (source, status, name, target, id, description) in GAME_LINKS {
        let link = json!({"operationId": target, "parameters": {"path.id": id},
                          "description": description});
        table.push((source, status, name, link));
    }
    let first_move = json!({
        "operationId": "play_move",
        "parameters": {"path.id": ID},
        "requestBody": {
            "from": "$response.body#/legal_moves/0/from",
            "to": "$response.body#/legal_moves/0/to",
            "expected_version": "$response.body#/version",
        },
        "description": "Play the first of the legal moves (present on the caller's turn)",
    });
    table.push(("get_game", "200", "PlayMove", first_move));
    for (source, status, name, target, description) in TOKEN_LINKS {
        // (`parameters` empty but present: utoipa's `Link` requires it.)
        let link = json!({"operationId": target, "parameters": {},
                          "requestBody": {"refresh_token": "$response.body#/refresh_token"},
                          "description": description});
        table.push((source, status, name, link));
    }
    table
}

pub(super) fn links(doc: &mut serde_json::Value) {
    let table = link_table();
    for operation in operations_mut(doc) {
        let id = operation["operationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        for (source, status, name, link) in &table {
            if *source == id && operation["responses"][*status].is_object() {
                operation["responses"][*status]["links"][*name] = link.clone();
            }
        }
    }
}
