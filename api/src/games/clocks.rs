//! The clocks as callers see them (docs/lifecycle.md, "Clocks"): time left
//! now, when each running clock runs out, who is on vacation. Public to
//! players and spectators alike (the clocks say nothing of the board).
//!
//! What a view shows of the clocks changes as time passes while the game
//! does not, so it is rendered for every answer at the time of the answer:
//! the view's last two members, `deadline` and `clocks` ([`ClockTail`]),
//! are written after the rest of the view, which is kept as it was encoded
//! (`recent`). Both come from the stored row as well as from the
//! decoded game, so a kept view is answered without decoding the game.

use chrono::{DateTime, Utc};
use domain::{ByColor, Clocks, Color, Running, TimeControl};
use serde::Serialize;
use utoipa::ToSchema;

use super::record::{GameRecord, Phase, Status};
use crate::storage::games::GameRow;

/// One player's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct ClockView {
    /// Seconds left on this clock now (0 once it has run out).
    pub remaining_seconds: i64,
    /// When this clock runs out at its present rate: `null` while it does
    /// not run (the other player's move, a setup already placed, a
    /// vacation, the game not in progress).
    #[schema(required = true)]
    pub deadline: Option<DateTime<Utc>>,
    /// Whether it runs now.
    pub running: bool,
    /// Whether the player is on vacation (docs/lifecycle.md, "Vacation"):
    /// the clock is stopped.
    pub on_vacation: bool,
    /// While on vacation: when the clock runs again at the latest (the
    /// vacation may end sooner).
    #[schema(required = true)]
    pub until: Option<DateTime<Utc>>,
    /// Under `moves_in_days` only: the moves this player still makes
    /// before the next control adds its days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_to_control: Option<u32>,
}

/// Both players' clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct ClocksView {
    pub red: ClockView,
    pub blue: ClockView,
}

/// What is needed to show the clocks: the same from the stored row as
/// from the decoded game.
#[derive(Debug, Clone, Copy)]
pub struct LiveClocks {
    control: TimeControl,
    clocks: Option<Clocks>,
    running: Running,
    ply: u32,
    in_progress: bool,
}

/// The last members of a view: the deadline of the player to move and
/// the clocks, as of the answer.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ClockTail {
    pub deadline: Option<DateTime<Utc>>,
    pub clocks: Option<ClocksView>,
}

impl LiveClocks {
    pub fn of_record(record: &GameRecord) -> LiveClocks {
        LiveClocks {
            control: record.time_control,
            clocks: record.clocks,
            running: record.running(),
            ply: record.game().map_or(0, domain::Game::ply),
            in_progress: matches!(record.phase, Phase::Setup | Phase::Playing(_)),
        }
    }

    /// From the stored row, without decoding the game; `None` if the row
    /// does not read (the decoded game then says why).
    pub fn of_row(row: &GameRow) -> Option<LiveClocks> {
        let (control, mut clocks) = super::record::clocks_of_row(row)?;
        let status = Status::parse(&row.status)?;
        let running = match status {
            Status::Setup => ByColor {
                red: row.red_setup.is_none(),
                blue: row.blue_setup.is_none(),
            },
            Status::Playing => ByColor {
                red: row.turn.as_deref() == Some(Color::Red.name()),
                blue: row.turn.as_deref() == Some(Color::Blue.name()),
            },
            Status::Waiting | Status::Finished | Status::Aborted => ByColor::default(),
        };
        // As `GameRecord::from_row` does: the stored deadline wins.
        if let (Some(deadline), Some(clocks)) = (row.deadline, clocks.as_mut()) {
            let deadline = crate::storage::from_db_time(deadline).timestamp();
            if clocks
                .first_out(&running)
                .is_some_and(|(out, _)| out != deadline)
            {
                clocks.agree_with(&running, deadline);
            }
        }
        Some(LiveClocks {
            control,
            clocks,
            running,
            ply: u32::try_from(row.ply).unwrap_or(0),
            in_progress: matches!(status, Status::Setup | Status::Playing),
        })
    }

    pub fn time_control(&self) -> TimeControl {
        self.control
    }

    /// The deadline and clocks at `now`.
    pub fn at(&self, now: DateTime<Utc>) -> ClockTail {
        let Some(clocks) = &self.clocks else {
            return ClockTail {
                deadline: None,
                clocks: None,
            };
        };
        let at = now.timestamp();
        let view = |color: Color| {
            let paused = clocks.paused(color, at);
            let running = self.in_progress && *self.running.get(color) && !paused;
            let moves_made = match color {
                Color::Red => self.ply.div_ceil(2),
                Color::Blue => self.ply / 2,
            };
            ClockView {
                remaining_seconds: clocks.left_at(color, &self.running, at),
                deadline: running
                    .then(|| clocks.runs_out_at(color, &self.running))
                    .flatten()
                    .and_then(|out| DateTime::from_timestamp(out, 0)),
                running,
                on_vacation: paused,
                until: clocks
                    .paused_until
                    .get(color)
                    .filter(|_| paused)
                    .and_then(|until| DateTime::from_timestamp(until, 0)),
                moves_to_control: self.control.moves_to_control(moves_made),
            }
        };
        let shown = ClocksView {
            red: view(Color::Red),
            blue: view(Color::Blue),
        };
        ClockTail {
            deadline: [shown.red.deadline, shown.blue.deadline]
                .into_iter()
                .flatten()
                .min(),
            clocks: Some(shown),
        }
    }
}

impl ClockTail {
    /// Ends `prefix`, a view encoded without its last members (as
    /// [`view_prefix`] cut it), with this tail.
    pub fn finish(&self, prefix: &[u8]) -> Result<Vec<u8>, serde_json::Error> {
        let mut body = Vec::with_capacity(prefix.len() + 512);
        body.extend_from_slice(prefix);
        body.extend_from_slice(b",\"deadline\":");
        serde_json::to_writer(&mut body, &self.deadline)?;
        body.extend_from_slice(b",\"clocks\":");
        serde_json::to_writer(&mut body, &self.clocks)?;
        body.push(b'}');
        Ok(body)
    }
}

/// The encoded view `body` without its last members, `deadline` and
/// `clocks` (the view writes them last: `answers::GameView`); `None` if
/// they are not where they should be. A member's name cannot appear inside
/// a JSON string unescaped, and only the clocks hold another `deadline`.
pub fn view_prefix(body: &[u8]) -> Option<usize> {
    let last = |within: &[u8], mark: &[u8]| {
        within
            .windows(mark.len())
            .rposition(|window| window == mark)
    };
    let clocks = last(body, b",\"clocks\":")?;
    last(&body[..clocks], b",\"deadline\":")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_cut_and_finished_is_the_view_with_a_new_tail() {
        let control = TimeControl::PerMove { days: 1 };
        let live = LiveClocks {
            control,
            clocks: Some(Clocks::start(&control, 1_800_000_000)),
            running: ByColor {
                red: true,
                blue: false,
            },
            ply: 0,
            in_progress: true,
        };
        let head = r#"{"id":1,"name":"a,\"deadline\":\"x"#;
        let then = DateTime::from_timestamp(1_800_000_000, 0).unwrap_or_default();
        let later = then + chrono::Duration::hours(1);
        let tail = |at| serde_json::to_string(&live.at(at)).unwrap_or_default();
        let body = format!("{head}\",{}", &tail(then)[1..]);
        let cut = view_prefix(body.as_bytes()).unwrap_or(0);
        assert_eq!(&body[..cut], format!("{head}\""));
        let finished = live.at(later).finish(&body.as_bytes()[..cut]).ok();
        let expected = format!("{head}\",{}", &tail(later)[1..]);
        assert_eq!(finished.as_deref(), Some(expected.as_bytes()));
        assert!(
            expected.contains("\"remaining_seconds\":82800"),
            "{expected}"
        );
    }
}
