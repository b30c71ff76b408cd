//! One event as every reader sees it: its envelope, its words, its clock in its fight's round, and
//! the marks later events put on it (retracted, undone with what it answers, restored, rolled
//! again, amended, put to a phone again). `log --json`, `explain`, the dice audit and the live
//! pages all read an event through this one view.

use crate::event::{Event, Recorded};
use crate::ids::RequestId;
use crate::seq::Seq;
use crate::state::CampaignState;
use serde::Serialize;

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
    #[serde(skip_serializing_if = "<[RequestId]>::is_empty")]
    pub put_again_after: &'a [RequestId],
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

    /// The mark of a roll put to a device again after a withdrawal or a refused answer (C-5), in
    /// brackets.
    pub fn put_again_words(withdrawn: &[RequestId]) -> String {
        let numbers: Vec<String> = withdrawn.iter().map(RequestId::to_string).collect();
        match numbers.as_slice() {
            [] => String::new(),
            [one] => format!("  [put again after request {one} was withdrawn or refused]"),
            [.., _] => format!(
                "  [put again after requests {} were withdrawn or refused]",
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
