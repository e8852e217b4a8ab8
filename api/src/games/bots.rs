//! The bot opponents (docs/bots.md): their accounts, created by a
//! migration with fixed ids, and what `GET /bots` says about them. They
//! play through `bot_worker`.

use domain::bot::Bot;
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

/// One bot account.
#[derive(Debug, Clone, Copy)]
pub struct BotAccount {
    /// The id the migration gave the account (`migrations/*/..._bot_accounts`).
    pub id: Uuid,
    pub username: &'static str,
    pub description: &'static str,
    /// 1 (weakest) to 5; see docs/bots.md.
    pub strength: u8,
    /// How it plays.
    pub kind: Bot,
}

/// Every bot, weakest first.
pub const BOTS: [BotAccount; 2] = [
    BotAccount {
        id: Uuid::from_u128(0xb070_0000_0000_4000_8000_0000_0000_0001),
        username: "bot-random",
        description: "Places a random setup and plays a random legal move; declines every \
                      draw offer. For trying the API out.",
        strength: 1,
        kind: Bot::Random,
    },
    BotAccount {
        id: Uuid::from_u128(0xb070_0000_0000_4000_8000_0000_0000_0002),
        username: "bot-tactician",
        description: "Hides its flag behind bombs, probes with scouts, remembers every rank it \
                      has seen and every piece that moved, attacks what it knows it beats, \
                      keeps its pieces away from what beats them, sends the spy at a known \
                      marshal and miners at suspected bombs.",
        strength: 3,
        kind: Bot::Tactician,
    },
];

/// The bot playing as `user`, if `user` is one.
pub fn bot(user: Uuid) -> Option<&'static BotAccount> {
    BOTS.iter().find(|b| b.id == user)
}

/// The answer of `GET /bots`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"bots": [
    {"username": "bot-random", "strength": 1,
     "description": "Places a random setup and plays a random legal move; declines every draw offer. For trying the API out."},
    {"username": "bot-tactician", "strength": 3,
     "description": "Hides its flag behind bombs, probes with scouts, remembers every rank it has seen ..."}]}))]
pub struct BotList {
    pub bots: Vec<BotInfo>,
}

/// A bot anyone may challenge (`"opponent": "<username>"`) in every
/// variant and ruleset.
#[derive(Debug, Serialize, ToSchema)]
pub struct BotInfo {
    #[schema(example = "bot-tactician")]
    pub username: &'static str,
    /// How it plays
    pub description: &'static str,
    /// 1 (weakest) to 5
    #[schema(minimum = 1, maximum = 5, example = 3)]
    pub strength: u8,
}

/// Every bot, weakest first.
pub fn list() -> BotList {
    BotList {
        bots: BOTS
            .iter()
            .map(|b| BotInfo {
                username: b.username,
                description: b.description,
                strength: b.strength,
            })
            .collect(),
    }
}
