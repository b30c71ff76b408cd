//! What commands print: every command builds a [`Report`] with both a text and a JSON form, and `--json`
//! picks one. JSON field names here are part of the interface (README, "JSON output").

use crate::event::Recorded;
pub use crate::read::event::{EventView, Marks, event_view};
use crate::state::CampaignState;
use serde::Serialize;
use serde_json::{Value, json};

pub struct Report {
    pub text: String,
    pub json: Value,
    /// False when the command ran but found a problem to report (a failed `verify`): exit 1.
    pub success: bool,
}

impl Report {
    pub fn new(text: String, json: impl Serialize) -> Report {
        let json = serde_json::to_value(json).unwrap_or_else(|e| json!({ "error": e.to_string() }));
        Report {
            text,
            json,
            success: true,
        }
    }

    /// A command that already wrote its output itself (an export to standard output).
    pub fn silent() -> Report {
        Report {
            text: String::new(),
            json: Value::Null,
            success: true,
        }
    }

    pub fn is_silent(&self) -> bool {
        self.text.is_empty() && self.json.is_null()
    }
}

/// A read's words and data, printed as the command's.
impl From<crate::read::Shown> for Report {
    fn from(shown: crate::read::Shown) -> Report {
        Report {
            text: shown.text,
            json: shown.json,
            success: true,
        }
    }
}

/// How wide `log`'s columns are: as wide as the largest seq, clock and session number shown, so
/// the columns line up however long the campaign.
#[derive(Debug, Clone, Copy)]
pub struct Columns {
    pub seq: usize,
    pub time: usize,
    pub session: usize,
}

impl Columns {
    /// For a log read up to seq `last`, with the clock at `clock` and `sessions` begun.
    pub fn up_to(last: u64, state: &CampaignState) -> Columns {
        let digits = |n: u64| n.max(1).ilog10() as usize + 1;
        // Room for a fight's round beside the clock (", round 600", a fight's longest), when the
        // log holds a fight.
        let round = match state.fights_along.is_empty() {
            true => 0,
            false => ", round 600".len(),
        };
        Columns {
            seq: digits(last).max(5),
            time: (state.clock.to_string().len() + round).max(18),
            session: (digits(u64::from(state.sessions_started)) + 1).max(4),
        }
    }
}

/// Set once a process serves pages (`grimoire serve`): what its commands put into words goes to
/// a browser, which wraps it to the phone, so it is never fitted to the terminal serve runs in.
static FOR_PAGES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From now on, this process's command output is for pages, not the terminal (see [`FOR_PAGES`]).
pub fn write_for_pages() {
    FOR_PAGES.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The width tables and long lines are fitted to: the terminal's, when standard output is one;
/// `None` (no limit) for a pipe, a file or a page, so scripts always get whole lines.
pub fn terminal_width() -> Option<u16> {
    use std::io::IsTerminal;
    if FOR_PAGES.load(std::sync::atomic::Ordering::Relaxed) || !std::io::stdout().is_terminal() {
        return None;
    }
    terminal_size::terminal_size().map(|(terminal_size::Width(w), _)| w)
}

/// Rows under a header, fitted to the terminal when standard output is one (see [`crate::render::table`]).
pub fn table(header: &[&str], rows: Vec<Vec<String>>) -> String {
    crate::render::table(header, rows, terminal_width())
}

impl Columns {
    /// How far in a line's description starts: `#`, the seq, the clock, the session and the actor,
    /// each followed by a space.
    fn description_starts_at(&self) -> usize {
        1 + self.seq + 1 + self.time + 1 + self.session + 1 + ACTOR_WIDTH + 1
    }

    /// `line` wrapped at word boundaries to `width` (the terminal's), each further line indented to
    /// where the description starts, so the columns stay readable on a narrow terminal.
    pub fn fit(&self, line: String, width: Option<u16>) -> String {
        let Some(width) = width.map(usize::from) else {
            return line;
        };
        let indent = self.description_starts_at();
        if line.chars().count() <= width || width <= indent + 20 {
            return line;
        }
        let mut out = String::with_capacity(line.len() + 64);
        let mut column = 0;
        for word in line.split(' ') {
            let length = word.chars().count();
            if column > indent && column + 1 + length > width {
                out.push('\n');
                out.extend(std::iter::repeat_n(' ', indent));
                column = indent;
            } else if !out.is_empty() {
                out.push(' ');
                column += 1;
            }
            out.push_str(word);
            column += length;
        }
        out
    }
}

/// `text` with each line longer than the terminal wrapped at word boundaries, its continuations
/// indented two more than the line itself (a sheet's long lists of rituals or scrolls). Unchanged
/// when standard output is not a terminal.
pub fn fit_to_terminal(text: String) -> String {
    let Some(width) = terminal_width().map(usize::from) else {
        return text;
    };
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let indent = line.len() - line.trim_start().len() + 2;
        let mut column = 0;
        for (j, word) in line.split(' ').enumerate() {
            let length = word.chars().count();
            if j > 0 && column > indent && column + 1 + length > width {
                out.push('\n');
                out.extend(std::iter::repeat_n(' ', indent));
                column = indent;
            } else if j > 0 {
                out.push(' ');
                column += 1;
            }
            out.push_str(word);
            column += length;
        }
    }
    out
}

/// The actor's column in `log`.
const ACTOR_WIDTH: usize = 10;

/// One line of `log`: seq, in-game time (in its fight's round when one was on, by `state` at or
/// after it), session, actor, what happened.
pub fn event_line(r: &Recorded, state: &CampaignState, marks: Marks<'_>, width: Columns) -> String {
    use std::fmt::Write;
    let Columns {
        seq: seq_width,
        time: time_width,
        session: session_width,
    } = width;
    let session = r.session.map(|s| format!("s{s}"));
    // Written straight into one buffer: `log` makes a line for every event of the campaign.
    let mut line = String::with_capacity(192);
    let _ = write!(
        line,
        "#{:<seq_width$} {:<time_width$} {:<session_width$} {:<ACTOR_WIDTH$} ",
        r.seq,
        state.time_of_in_column(r.seq, r.game_time),
        session.as_deref().unwrap_or("-"),
        r.actor,
    );
    line.push_str(&crate::render::describe(&r.event));
    line.push_str(&marks.words());
    line
}

/// The report of a recording command: what it appended, one line per event.
pub fn appended(written: &crate::store::Written) -> Report {
    appended_to(&written.events, &written.state)
}

/// What was appended, with the state after it (which says when each event happened).
pub fn appended_to(events: &[Recorded], state: &CampaignState) -> Report {
    let text = events
        .iter()
        .map(|r| format!("#{} {}", r.seq, crate::render::describe(&r.event)))
        .collect::<Vec<_>>()
        .join("\n");
    let views: Vec<EventView<'_>> = events
        .iter()
        .map(|r| event_view(r, state, Marks::default()))
        .collect();
    Report::new(text, json!({ "appended": views }))
}

pub use crate::render::count;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use crate::seq::Seq;
    use crate::time::GameTime;

    #[test]
    fn log_columns_grow_with_the_largest_seq_clock_and_session_so_they_line_up() {
        let mut state = CampaignState {
            sessions_started: 3,
            ..CampaignState::default()
        };
        let short = Columns::up_to(42, &state);
        assert_eq!((short.seq, short.time, short.session), (5, 18, 4));
        // Day 121,288 at a million events, session 9,989.
        state.clock = GameTime(121_287 * 86_400 + 76_000);
        state.sessions_started = 9_989;
        let long = Columns::up_to(1_001_003, &state);
        assert_eq!((long.seq, long.session), (7, 5));
        assert_eq!(long.time, "Day 121288, 21:06".len().max(18));
        // A log that holds a fight leaves room for the round beside the clock.
        state.fights_along.push(crate::state::FightSpan {
            number: 1,
            name: None,
            began: GameTime(0),
            from: Seq(2),
            to: Some(Seq(3)),
        });
        let fought = Columns::up_to(1_001_003, &state);
        assert_eq!(fought.time, "Day 121288, 21:06, round 600".len());
        let line = |seq: Seq| {
            let r = Recorded {
                seq,
                event_id: String::new(),
                schema_version: 2,
                game_time: GameTime(0),
                recorded_at: String::new(),
                session: Some(12),
                actor: "gm".into(),
                prev_hash: crate::event::EventHash::parse(&"0".repeat(64)).unwrap(),
                hash: crate::event::EventHash::parse(&"1".repeat(64)).unwrap(),
                event: Event::SessionEnded { number: 12 },
            };
            event_line(&r, &state, Marks::default(), long)
        };
        assert_eq!(line(Seq(7)).find("gm"), line(Seq(1_001_003)).find("gm"));
    }
}
