//! What commands print: every command builds a [`Report`] with both a text and a JSON form, and `--json`
//! picks one. JSON field names here are part of the interface (README, "JSON output").

use crate::event::{Event, Recorded};
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
    pub seq: u64,
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
/// of its retraction), or a roll made again after a roll like it was retracted. The table sees them
/// wherever the event is shown, so nothing undone or redone passes unnoticed.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Marks<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retracted: Option<&'a str>,
    /// The seq of the retraction that undid this event's retraction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restored_by: Option<u64>,
    /// The seq of the retracted roll this one was made after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolled_again_after: Option<u64>,
}

impl<'a> Marks<'a> {
    /// The marks of event `seq` in `state`.
    pub fn of(state: &'a CampaignState, seq: u64) -> Marks<'a> {
        Marks {
            retracted: state.retracted.get(&seq).map(String::as_str),
            restored_by: state.restored.get(&seq).copied(),
            rolled_again_after: state.rerolls.get(&seq).copied(),
        }
    }

    /// The marks as words, each in brackets: empty when there are none.
    pub fn words(&self) -> String {
        let mut words = String::new();
        if let Some(reason) = self.retracted {
            words.push_str(&format!("  [retracted: {reason}]"));
        }
        if let Some(by) = self.restored_by {
            words.push_str(&format!("  [restored by #{by}]"));
        }
        if let Some(first) = self.rolled_again_after {
            words.push_str(&format!("  [rolled again after #{first} was retracted]"));
        }
        words
    }
}

pub fn event_view<'a>(r: &'a Recorded, marks: Marks<'a>) -> EventView<'a> {
    EventView {
        seq: r.seq,
        kind: r.event.kind(),
        description: crate::render::describe(&r.event),
        game_time: r.game_time.seconds(),
        game_time_text: r.game_time.to_string(),
        session: r.session,
        actor: &r.actor,
        recorded_at: &r.recorded_at,
        event_id: &r.event_id,
        hash: &r.hash,
        marks,
        payload: &r.event,
    }
}

/// One line of `log`: seq, in-game time, session, actor, what happened.
pub fn event_line(r: &Recorded, marks: Marks<'_>) -> String {
    let session = r
        .session
        .map(|s| format!("s{s}"))
        .unwrap_or_else(|| "-".into());
    let mut line = format!(
        "#{:<5} {:<18} {:<4} {:<10} {}",
        r.seq,
        r.game_time.to_string(),
        session,
        r.actor,
        crate::render::describe(&r.event)
    );
    line.push_str(&marks.words());
    line
}

/// The report of a recording command: what it appended, one line per event.
pub fn appended(events: &[Recorded]) -> Report {
    let text = events
        .iter()
        .map(|r| format!("#{} {}", r.seq, crate::render::describe(&r.event)))
        .collect::<Vec<_>>()
        .join("\n");
    let views: Vec<EventView<'_>> = events
        .iter()
        .map(|r| event_view(r, Marks::default()))
        .collect();
    Report::new(text, json!({ "appended": views }))
}

/// "1 event", "3 events": a count with its noun in the right number.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
