//! The e-mail digest (docs/notifications.md, "E-mail"): "your move in N
//! games", and what else happened since the last one. At most one a day
//! per player, unless a deadline is at most a day away.
//!
//! Written from the same notices the other channels carry and the games'
//! public headers: never a rank.

use std::collections::HashMap;
use std::fmt::Write as _;

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use super::notice::Notice;
use super::preferences::NotifyEvent;

/// The least time between two digests to one player.
pub const DIGEST_EVERY: Duration = Duration::days(1);

/// A deadline this close makes a digest go at once.
pub const URGENT_WITHIN: Duration = Duration::days(1);

/// The lines a digest lists of each part at most; the rest are counted.
pub const LINES_LISTED: usize = 20;

/// Whether `notice` is about something that waits for the player (and so
/// may have a deadline they must not miss).
fn waits(notice: &Notice) -> bool {
    matches!(
        NotifyEvent::from_name(&notice.kind),
        Some(NotifyEvent::YourMove | NotifyEvent::DeadlineSoon | NotifyEvent::ChallengeReceived)
    )
}

/// Whether `notice` must not wait for the daily digest: it warns of a
/// deadline at most [`URGENT_WITHIN`] away.
pub fn urgent(notice: &Notice, now: DateTime<Utc>) -> bool {
    waits(notice)
        && notice
            .data
            .deadline
            .is_some_and(|at| at - now <= URGENT_WITHIN)
}

/// When a digest telling of `notice` may go: at once when urgent or when
/// none went before, else a day after the last digest, but never later
/// than a day before the notice's deadline.
pub fn due(
    notice: &Notice,
    last_digest: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> DateTime<Utc> {
    let Some(last) = last_digest.filter(|_| !urgent(notice, now)) else {
        return now;
    };
    let mut at = last + DIGEST_EVERY;
    if let Some(deadline) = notice.data.deadline.filter(|_| waits(notice)) {
        at = at.min(deadline - URGENT_WITHIN);
    }
    at.max(now)
}

/// A game waiting for the player.
#[derive(Debug, Clone)]
pub struct Waiting {
    pub game_id: Uuid,
    pub opponent: Option<String>,
    pub deadline: Option<DateTime<Utc>>,
    /// Waiting for the player's setup, not a move.
    pub setup: bool,
}

/// A message to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composed {
    pub subject: String,
    pub text: String,
}

/// The digest for `username`: the games waiting for them now, then what
/// the notices tell (a move in a game that waits is told by the first
/// part). `seats`: the player's color in each game a notice names, for
/// "you won". `None` when there is nothing to tell.
pub fn compose(
    username: &str,
    waiting: &[Waiting],
    notices: &[Notice],
    seats: &HashMap<Uuid, String>,
    unsubscribe_url: &str,
) -> Option<Composed> {
    let news: Vec<String> = notices
        .iter()
        .filter_map(|notice| line_of(notice, seats))
        .collect();
    if waiting.is_empty() && news.is_empty() {
        return None;
    }
    let mut text = format!("Hello {username},\n\n");
    let subject = match waiting.len() {
        0 => "News from your Stratego games".to_owned(),
        1 => "Your move in 1 game".to_owned(),
        n => format!("Your move in {n} games"),
    };
    if !waiting.is_empty() {
        let _ = writeln!(text, "{subject}:\n");
        for game in waiting.iter().take(LINES_LISTED) {
            let against = against(game.opponent.as_deref());
            let what = if game.setup {
                "place your setup"
            } else {
                "your move"
            };
            let _ = write!(text, "  - {against}: {what}");
            if let Some(deadline) = game.deadline {
                let _ = write!(text, " before {}", deadline.format("%Y-%m-%d %H:%M UTC"));
            }
            let _ = writeln!(text, " (game {})", game.game_id);
        }
        more(&mut text, waiting.len());
        text.push('\n');
    }
    if !news.is_empty() {
        text.push_str("Since the last message:\n\n");
        for line in news.iter().take(LINES_LISTED) {
            let _ = writeln!(text, "  - {line}");
        }
        more(&mut text, news.len());
        text.push('\n');
    }
    let _ = write!(
        text,
        "You get this because you asked for e-mail about your games. \
         Choose what you get with PUT /api/v1/me/notifications, or stop all \
         e-mail in one click:\n{unsubscribe_url}\n"
    );
    Some(Composed { subject, text })
}

/// "and N more" under a part that had more than [`LINES_LISTED`] lines.
fn more(text: &mut String, lines: usize) {
    if lines > LINES_LISTED {
        let _ = writeln!(text, "  and {} more", lines - LINES_LISTED);
    }
}

fn against(opponent: Option<&str>) -> String {
    match opponent {
        Some(name) => format!("against {name}"),
        None => "an open game".to_owned(),
    }
}

/// What one notice tells, in a line; `None` for what the waiting games
/// already say.
fn line_of(notice: &Notice, seats: &HashMap<Uuid, String>) -> Option<String> {
    let data = &notice.data;
    let game = data
        .game_id
        .map(|id| format!(" (game {id})"))
        .unwrap_or_default();
    let who = data.opponent.as_deref().unwrap_or("a player");
    let line = match NotifyEvent::from_name(&notice.kind)? {
        NotifyEvent::YourMove => return None,
        NotifyEvent::ChallengeReceived => format!("{who} challenged you{game}"),
        NotifyEvent::GameStarted => format!("your game against {who} has started{game}"),
        NotifyEvent::DeadlineSoon => {
            format!("little time is left in your game against {who}{game}")
        }
        NotifyEvent::DrawOffered => format!("{who} offers a draw{game}"),
        NotifyEvent::RematchOffered => format!("{who} offers a rematch{game}"),
        NotifyEvent::VacationStarted => match data.until {
            Some(until) => format!(
                "{who} is on vacation until {} at the latest{game}",
                until.format("%Y-%m-%d %H:%M UTC")
            ),
            None => format!("{who} is on vacation{game}"),
        },
        NotifyEvent::VacationEnded => format!("{who} is back from vacation{game}"),
        NotifyEvent::TournamentStarted | NotifyEvent::RoundStarted => {
            let name = data.tournament.as_deref().unwrap_or("a tournament");
            let start = match data.round {
                Some(round) => format!("round {round} of {name} is paired"),
                None => format!("{name} has started"),
            };
            let games: Vec<String> = data
                .games
                .as_ref()
                .and_then(serde_json::Value::as_array)
                .map(|games| {
                    games
                        .iter()
                        .map(|g| {
                            let opponent = g["opponent"].as_str().unwrap_or("a player");
                            let id = g["game_id"].as_str().unwrap_or_default();
                            format!("against {opponent} (game {id})")
                        })
                        .collect()
                })
                .unwrap_or_default();
            match (games.is_empty(), data.bye == Some(true)) {
                (true, true) => format!("{start}: you have the bye"),
                (true, false) => start,
                (false, bye) => format!(
                    "{start}: your setup{} {}{}",
                    if games.len() > 1 { "s" } else { "" },
                    games.join(", "),
                    if bye { ", and a bye" } else { "" }
                ),
            }
        }
        NotifyEvent::TournamentFinished => {
            let name = data.tournament.as_deref().unwrap_or("a tournament");
            match (data.place, data.players) {
                (Some(place), Some(players)) => {
                    format!("{name} is over: you placed {place} of {players}")
                }
                _ => format!("{name} is over"),
            }
        }
        NotifyEvent::GameOver => {
            let result = data.result.as_ref();
            let winner = result.and_then(|r| r["winner"].as_str());
            let reason = result
                .and_then(|r| r["reason"].as_str())
                .map(|r| format!(" ({})", r.replace('_', " ")))
                .unwrap_or_default();
            let seat = data.game_id.and_then(|id| seats.get(&id));
            let outcome = match (winner, seat) {
                (None, _) => "a draw".to_owned(),
                (Some(w), Some(seat)) if w == seat => "you won".to_owned(),
                (Some(_), Some(_)) => "you lost".to_owned(),
                (Some(w), None) => format!("{w} won"),
            };
            format!("your game against {who} is over: {outcome}{reason}{game}")
        }
    };
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notifications::notice::NoticeData;

    fn notice(kind: &str, deadline: Option<DateTime<Utc>>) -> Notice {
        Notice {
            kind: kind.to_owned(),
            timestamp: DateTime::<Utc>::UNIX_EPOCH,
            data: NoticeData {
                game_id: Some(Uuid::nil()),
                opponent: Some("bob".to_owned()),
                deadline,
                ..NoticeData::default()
            },
        }
    }

    #[test]
    fn a_digest_waits_a_day_unless_a_deadline_is_a_day_away() {
        let now = DateTime::<Utc>::UNIX_EPOCH + Duration::days(10);
        let last = Some(now - Duration::hours(2));
        let far = notice("your_move", Some(now + Duration::days(3)));
        let near = notice("your_move", Some(now + Duration::hours(23)));
        assert_eq!(due(&far, last, now), now + Duration::hours(22));
        assert_eq!(due(&near, last, now), now);
        assert_eq!(due(&far, None, now), now);
        assert_eq!(due(&far, Some(now - Duration::days(2)), now), now);
        // A deadline a day and a half away: the digest goes a day before
        // it, not after it.
        let soonish = notice("your_move", Some(now + Duration::hours(36)));
        assert_eq!(due(&soonish, last, now), now + Duration::hours(12));
        // A game's end has no deadline: it waits for the day's digest.
        assert_eq!(
            due(&notice("game_over", None), last, now),
            now + Duration::hours(22)
        );
    }

    #[test]
    fn the_digest_counts_waiting_games_and_tells_the_rest() {
        let waiting = [Waiting {
            game_id: Uuid::nil(),
            opponent: Some("bob".to_owned()),
            deadline: Some(DateTime::<Utc>::UNIX_EPOCH),
            setup: false,
        }];
        let mut over = notice("game_over", None);
        over.data.result = Some(serde_json::json!({"winner": "red", "reason": "flag_captured"}));
        let seats = HashMap::from([(Uuid::nil(), "red".to_owned())]);
        let notices = [notice("your_move", None), over];
        let mail = compose(
            "ann",
            &waiting,
            &notices,
            &seats,
            "https://s.example/u?token=t",
        );
        let mail = mail.unwrap_or(Composed {
            subject: String::new(),
            text: String::new(),
        });
        assert_eq!(mail.subject, "Your move in 1 game");
        assert!(mail
            .text
            .contains("against bob: your move before 1970-01-01 00:00 UTC"));
        assert!(
            mail.text.contains("is over: you won (flag captured)"),
            "{}",
            mail.text
        );
        assert!(mail.text.contains("https://s.example/u?token=t"));
        assert_eq!(mail.text.matches("  - ").count(), 2, "{}", mail.text);
        assert_eq!(
            compose("ann", &[], &[notice("your_move", None)], &seats, ""),
            None
        );
    }

    #[test]
    fn a_long_digest_lists_twenty_lines_a_part_and_counts_the_rest() {
        let waiting: Vec<Waiting> = (0..23)
            .map(|_| Waiting {
                game_id: Uuid::nil(),
                opponent: None,
                deadline: None,
                setup: true,
            })
            .collect();
        let news: Vec<Notice> = (0..25).map(|_| notice("draw_offered", None)).collect();
        let mail = compose("ann", &waiting, &news, &HashMap::new(), "u");
        let text = mail.map(|m| (m.subject, m.text)).unwrap_or_default();
        assert_eq!(text.0, "Your move in 23 games");
        assert_eq!(text.1.matches("  - ").count(), 40, "{}", text.1);
        assert!(text.1.contains("  and 3 more\n"), "{}", text.1);
        assert!(text.1.contains("  and 5 more\n"), "{}", text.1);
    }
}
