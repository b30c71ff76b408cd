//! What commands print: every command builds a [`Report`] with both a text and a JSON form, and `--json`
//! picks one. JSON field names here are part of the interface (README, "JSON output").

use crate::event::{Event, Recorded};
use crate::seq::Seq;
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

/// One event for JSON output.
#[derive(Debug, Serialize)]
pub struct EventView<'a> {
    pub seq: Seq,
    pub kind: &'static str,
    pub description: String,
    pub game_time: u64,
    pub game_time_text: String,
    pub session: Option<u32>,
    pub actor: &'a str,
    pub recorded_at: &'a str,
    pub event_id: &'a str,
    pub hash: &'a str,
    #[serde(flatten)]
    pub marks: Marks<'a>,
    pub payload: &'a Event,
}

/// What later events say about an event: retracted (with the reason), restored (by the retraction
/// of its retraction), or the first roll after a roll was retracted. The table sees them
/// wherever the event is shown, so nothing undone or redone passes unnoticed.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Marks<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retracted: Option<&'a str>,
    /// The event this one answers, retracted (or itself undone so): this one went with it (C-2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undone_with: Option<Seq>,
    /// The seq of the retraction that undid this event's retraction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restored_by: Option<Seq>,
    /// The seqs of the retracted rolls this one was made after (C-2).
    #[serde(skip_serializing_if = "<[Seq]>::is_empty")]
    pub rolled_again_after: &'a [Seq],
    /// The seq of the amendment in force for this event (C-3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amended_by: Option<Seq>,
    /// For a roll put to a device, and the dice its answer made: the requests to that device
    /// withdrawn just before it was put (C-5).
    #[serde(skip_serializing_if = "<[u32]>::is_empty")]
    pub put_again_after: &'a [u32],
}

impl<'a> Marks<'a> {
    /// The marks of event `r` in `state`.
    pub fn of(state: &'a CampaignState, r: &Recorded) -> Marks<'a> {
        let seq = r.seq;
        // Only a campaign that puts rolls to phones has requests to look up.
        let request = match &r.event {
            _ if state.players.requests.is_empty() => None,
            crate::event::Event::RollRequested { request, .. } => Some(*request),
            event => event.dice().iter().find_map(|d| match d.provenance {
                crate::dice::Provenance::Device { request, .. } => Some(request),
                _ => None,
            }),
        };
        Marks {
            retracted: state.retracted.get(&seq).map(String::as_str),
            undone_with: state.undone_with_answered.get(&seq).copied(),
            restored_by: state.restored.get(&seq).copied(),
            rolled_again_after: state.rerolls.get(&seq).map_or(&[], Vec::as_slice),
            amended_by: state.amended.get(&seq).copied(),
            put_again_after: request
                .and_then(|request| state.players.requests.get(&request))
                .map_or(&[], |asked| asked.put_again_after.as_slice()),
        }
    }

    /// The mark of a roll put to a device again after a withdrawal (C-5), in brackets.
    pub fn put_again_words(withdrawn: &[u32]) -> String {
        let numbers: Vec<String> = withdrawn.iter().map(u32::to_string).collect();
        match numbers.as_slice() {
            [] => String::new(),
            [one] => format!("  [put again after request {one} was withdrawn]"),
            [.., _] => format!(
                "  [put again after requests {} were withdrawn]",
                numbers.join(", ")
            ),
        }
    }

    /// The mark of an event undone with the one it answers (C-2), in brackets.
    pub fn undone_with_words(answered: Option<Seq>) -> String {
        answered.map_or_else(String::new, |answered| {
            format!("  [undone with #{answered}, which it answers]")
        })
    }

    /// The mark of a roll made after retracted rolls (C-2), in brackets.
    pub fn rolled_again_words(after: &[Seq]) -> String {
        let seqs: Vec<String> = after.iter().map(|seq| format!("#{seq}")).collect();
        match seqs.as_slice() {
            [] => String::new(),
            [one] => format!("  [rolled after {one}, which was retracted]"),
            [.., _] => format!("  [rolled after {}, which were retracted]", seqs.join(", ")),
        }
    }

    /// The marks as words, each in brackets: empty when there are none.
    pub fn words(&self) -> String {
        let mut words = String::new();
        if let Some(reason) = self.retracted {
            words.push_str(&format!("  [retracted: {reason}]"));
        }
        words.push_str(&Marks::undone_with_words(self.undone_with));
        if let Some(by) = self.restored_by {
            words.push_str(&format!("  [restored by #{by}]"));
        }
        words.push_str(&Marks::rolled_again_words(self.rolled_again_after));
        if let Some(by) = self.amended_by {
            words.push_str(&format!("  [amended by #{by}]"));
        }
        words.push_str(&Marks::put_again_words(self.put_again_after));
        words
    }
}

/// One event for JSON output; `state` (at or after it) says when it happened, in its fight's
/// round when one was on.
pub fn event_view<'a>(r: &'a Recorded, state: &CampaignState, marks: Marks<'a>) -> EventView<'a> {
    EventView {
        seq: r.seq,
        kind: r.event.kind(),
        description: crate::render::describe(&r.event),
        game_time: r.game_time.seconds(),
        game_time_text: state.time_of(r.seq, r.game_time),
        session: r.session,
        actor: &r.actor,
        recorded_at: &r.recorded_at,
        event_id: &r.event_id,
        hash: r.hash.as_str(),
        marks,
        payload: &r.event,
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

/// Rows under a header, in columns as wide as their widest cell; on a terminal, the widest
/// columns wrap so that the table fits its width. No borders: a line under the header only.
pub fn table(header: &[&str], rows: Vec<Vec<String>>) -> String {
    use comfy_table::{ContentArrangement, LineStyle, Table, TableStyle};
    const UNDERLINED_HEADER: TableStyle =
        TableStyle::new().header_separator(LineStyle::none().fill('-').junction('-'));
    let mut table = Table::new();
    table
        .load_style(UNDERLINED_HEADER)
        .set_header(header.to_vec())
        .add_rows(rows);
    match terminal_width() {
        Some(width) => {
            table
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(width);
        }
        None => {
            table.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    for column in table.column_iter_mut() {
        column.set_padding((0, 2));
    }
    table.trim_fmt()
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
