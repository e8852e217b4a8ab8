//! What a player is told outside the app, per event and channel
//! (`GET/PUT /me/notifications`, docs/notifications.md).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// An event a player can be told of outside the app.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum NotifyEvent {
    /// Someone challenged you
    ChallengeReceived,
    /// Both setups are in: your game has begun
    GameStarted,
    /// It is your move
    YourMove,
    /// Little time is left for your move or setup
    DeadlineSoon,
    /// Your opponent offers a draw
    DrawOffered,
    /// Your opponent of a finished game offers a rematch
    RematchOffered,
    /// Your game is over
    GameOver,
    /// Your opponent went on vacation: their clock is stopped
    VacationStarted,
    /// Your opponent is back from vacation
    VacationEnded,
    /// A tournament you play in started: your games of it are in setup
    TournamentStarted,
    /// A Swiss tournament's next round is paired: your game, or your bye
    RoundStarted,
    /// A tournament you played in is over: your place
    TournamentFinished,
}

impl NotifyEvent {
    pub const ALL: [NotifyEvent; 12] = [
        Self::ChallengeReceived,
        Self::GameStarted,
        Self::YourMove,
        Self::DeadlineSoon,
        Self::DrawOffered,
        Self::RematchOffered,
        Self::GameOver,
        Self::VacationStarted,
        Self::VacationEnded,
        Self::TournamentStarted,
        Self::RoundStarted,
        Self::TournamentFinished,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::ChallengeReceived => "challenge_received",
            Self::GameStarted => "game_started",
            Self::YourMove => "your_move",
            Self::DeadlineSoon => "deadline_soon",
            Self::DrawOffered => "draw_offered",
            Self::RematchOffered => "rematch_offered",
            Self::GameOver => "game_over",
            Self::VacationStarted => "vacation_started",
            Self::VacationEnded => "vacation_ended",
            Self::TournamentStarted => "tournament_started",
            Self::RoundStarted => "round_started",
            Self::TournamentFinished => "tournament_finished",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|event| event.name() == name)
    }

    /// The event a stored feed event (its `type`) is told as, if any.
    pub fn of_feed_kind(kind: &str) -> Option<Self> {
        match kind {
            "challenge_received" => Some(Self::ChallengeReceived),
            "game_started" => Some(Self::GameStarted),
            "your_turn" => Some(Self::YourMove),
            "deadline_soon" => Some(Self::DeadlineSoon),
            "draw_offered" => Some(Self::DrawOffered),
            "rematch_offered" => Some(Self::RematchOffered),
            "game_finished" => Some(Self::GameOver),
            "vacation_started" => Some(Self::VacationStarted),
            "vacation_ended" => Some(Self::VacationEnded),
            "tournament_started" => Some(Self::TournamentStarted),
            "round_started" => Some(Self::RoundStarted),
            "tournament_finished" => Some(Self::TournamentFinished),
            _ => None,
        }
    }

    /// Whether a player who set nothing is told of this event.
    pub fn on_by_default(self) -> bool {
        matches!(
            self,
            Self::ChallengeReceived
                | Self::YourMove
                | Self::GameOver
                | Self::VacationStarted
                | Self::TournamentStarted
                | Self::RoundStarted
                | Self::TournamentFinished
        )
    }

    /// Whether a device should be woken at once (Web Push `Urgency`).
    pub fn urgent(self) -> bool {
        matches!(
            self,
            Self::YourMove
                | Self::GameOver
                | Self::DeadlineSoon
                | Self::TournamentStarted
                | Self::RoundStarted
        )
    }
}

/// A way to reach a player outside the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// Web Push to the player's subscribed browsers
    Push,
    /// The player's webhooks
    Webhook,
    /// E-mail to the player's verified address
    Email,
}

/// Per channel, whether an event is sent there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChannelSwitches {
    pub push: bool,
    pub webhook: bool,
    pub email: bool,
}

impl ChannelSwitches {
    fn all(on: bool) -> Self {
        Self {
            push: on,
            webhook: on,
            email: on,
        }
    }

    pub fn allows(self, channel: Channel) -> bool {
        match channel {
            Channel::Push => self.push,
            Channel::Webhook => self.webhook,
            Channel::Email => self.email,
        }
    }
}

/// Part of the switches of one event, as a `PUT` may give them: a channel
/// left out keeps its default.
#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChannelSwitchesInput {
    pub push: Option<bool>,
    pub webhook: Option<bool>,
    pub email: Option<bool>,
}

/// Per event, the channels it goes to: every event is listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"events": {
    "challenge_received": {"push": true, "webhook": true, "email": true},
    "game_started": {"push": false, "webhook": false, "email": false},
    "your_move": {"push": true, "webhook": true, "email": true},
    "deadline_soon": {"push": false, "webhook": false, "email": false},
    "draw_offered": {"push": false, "webhook": false, "email": false},
    "rematch_offered": {"push": false, "webhook": false, "email": false},
    "game_over": {"push": true, "webhook": true, "email": true},
    "vacation_started": {"push": true, "webhook": true, "email": true},
    "vacation_ended": {"push": false, "webhook": false, "email": false},
    "tournament_started": {"push": true, "webhook": true, "email": true},
    "round_started": {"push": true, "webhook": true, "email": true},
    "tournament_finished": {"push": true, "webhook": true, "email": true}}}))]
pub struct Preferences {
    pub events: BTreeMap<NotifyEvent, ChannelSwitches>,
}

/// Preferences to set: the events and channels given are set, the others
/// take their defaults.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"events": {"deadline_soon": {"push": true},
    "your_move": {"email": false}}}))]
pub struct PreferencesInput {
    #[serde(default)]
    pub events: BTreeMap<NotifyEvent, ChannelSwitchesInput>,
}

impl Preferences {
    /// What a player who set nothing gets.
    pub fn defaults() -> Self {
        Self::from_input(&PreferencesInput::default())
    }

    /// Every event: the switches given, defaults for the rest.
    pub fn from_input(input: &PreferencesInput) -> Self {
        let events = NotifyEvent::ALL
            .into_iter()
            .map(|event| {
                let default = ChannelSwitches::all(event.on_by_default());
                let given = input.events.get(&event).copied().unwrap_or_default();
                let switches = ChannelSwitches {
                    push: given.push.unwrap_or(default.push),
                    webhook: given.webhook.unwrap_or(default.webhook),
                    email: given.email.unwrap_or(default.email),
                };
                (event, switches)
            })
            .collect();
        Self { events }
    }

    /// The stored preferences, or the defaults when nothing (or nothing
    /// readable) is stored.
    pub fn from_stored(stored: Option<&str>) -> Self {
        stored
            .and_then(|json| serde_json::from_str::<PreferencesInput>(json).ok())
            .map(|input| Self::from_input(&input))
            .unwrap_or_else(Self::defaults)
    }

    /// The JSON stored for these preferences (every switch, explicitly).
    pub fn to_stored(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }

    pub fn allows(&self, event: NotifyEvent, channel: Channel) -> bool {
        self.events
            .get(&event)
            .is_some_and(|switches| switches.allows(channel))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_tell_of_challenges_your_move_and_the_end() {
        let defaults = Preferences::defaults();
        for event in NotifyEvent::ALL {
            for channel in [Channel::Push, Channel::Webhook, Channel::Email] {
                assert_eq!(defaults.allows(event, channel), event.on_by_default());
            }
        }
        assert!(defaults.allows(NotifyEvent::YourMove, Channel::Push));
        assert!(!defaults.allows(NotifyEvent::DrawOffered, Channel::Webhook));
    }

    #[test]
    fn a_partial_input_keeps_defaults_for_the_rest_and_round_trips() {
        let input: PreferencesInput = serde_json::from_str(
            r#"{"events": {"your_move": {"email": false}, "draw_offered": {"push": true}}}"#,
        )
        .unwrap_or_default();
        let prefs = Preferences::from_input(&input);
        assert!(!prefs.allows(NotifyEvent::YourMove, Channel::Email));
        assert!(prefs.allows(NotifyEvent::YourMove, Channel::Push));
        assert!(prefs.allows(NotifyEvent::DrawOffered, Channel::Push));
        assert!(!prefs.allows(NotifyEvent::DrawOffered, Channel::Email));
        let stored = prefs.to_stored().unwrap_or_default();
        assert_eq!(Preferences::from_stored(Some(&stored)), prefs);
    }

    #[test]
    fn every_feed_kind_told_maps_to_its_event_name() {
        for event in NotifyEvent::ALL {
            assert_eq!(NotifyEvent::from_name(event.name()), Some(event));
        }
        assert_eq!(
            NotifyEvent::of_feed_kind("your_turn"),
            Some(NotifyEvent::YourMove)
        );
        assert_eq!(
            NotifyEvent::of_feed_kind("game_finished"),
            Some(NotifyEvent::GameOver)
        );
        assert_eq!(NotifyEvent::of_feed_kind("opponent_joined"), None);
    }
}
