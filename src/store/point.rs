//! Points in a campaign's history, as a table names them: an event's number, the end or start of a
//! session, the end of an in-game day, or now. Every read that shows the past (`--at`) takes one.

use super::backend::LogRead;
use super::{Store, StoreError};
use crate::seq::Seq;
use std::fmt;

/// A point in the campaign's history. The state "at" a point is the state just after one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// Just after event `seq`.
    Seq(Seq),
    /// The end of session N: just after its `session end`.
    SessionEnd(u32),
    /// The start of session N: just after its `session start`.
    SessionStart(u32),
    /// The end of in-game day D: just after the last event recorded while the clock stood in day D
    /// or earlier (a downtime span recorded that day counts whole).
    Day(u64),
    /// The head of the log.
    Now,
}

const HINT: &str = "give an event number (e.g. 120), session:N, session-start:N, day:D (the end of in-game day D) or now";

impl std::str::FromStr for Point {
    type Err = String;

    /// `120` or `#120`, `session:3` (also `s3`), `session-start:3`, `day:2` (also `Day 2`), `now`.
    fn from_str(text: &str) -> Result<Point, String> {
        let typed = text.trim().to_lowercase();
        let number = |digits: &str, what: &str| -> Result<u64, String> {
            match digits.trim().parse::<u64>() {
                Ok(n) if n >= 1 => Ok(n),
                Ok(_) => Err(format!(
                    "'{text}' names no {what}: {what}s are counted 1, 2, 3 …; {HINT}"
                )),
                Err(_) => Err(format!(
                    "'{text}': '{}' is not the number of any {what} (a whole number from 1); {HINT}",
                    digits.trim()
                )),
            }
        };
        let session = |digits: &str| -> Result<u32, String> {
            u32::try_from(number(digits, "session")?)
                .map_err(|_| format!("'{text}' names no session a campaign could have"))
        };
        if typed == "now" {
            return Ok(Point::Now);
        }
        if let Some(n) = typed.strip_prefix("session-start:") {
            return Ok(Point::SessionStart(session(n)?));
        }
        if let Some(n) = typed.strip_prefix("session:") {
            return Ok(Point::SessionEnd(session(n)?));
        }
        if let Some(d) = typed
            .strip_prefix("day:")
            .or_else(|| typed.strip_prefix("day "))
        {
            return Ok(Point::Day(number(d, "day")?));
        }
        if let Some(n) = typed.strip_prefix('s')
            && n.starts_with(|c: char| c.is_ascii_digit())
        {
            return Ok(Point::SessionEnd(session(n)?));
        }
        let seq = typed.strip_prefix('#').unwrap_or(&typed);
        if seq.starts_with(|c: char| c.is_ascii_digit()) {
            return number(seq, "event").map(|n| Point::Seq(Seq(n)));
        }
        Err(format!("'{text}' is not a point in the campaign; {HINT}"))
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Point::Seq(seq) => write!(f, "#{seq}"),
            Point::SessionEnd(n) => write!(f, "the end of session {n}"),
            Point::SessionStart(n) => write!(f, "the start of session {n}"),
            Point::Day(d) => write!(f, "the end of Day {d}"),
            Point::Now => f.write_str("now"),
        }
    }
}

impl Store {
    /// The event a point names: the state at the point is the state just after it. A point the log
    /// has not reached (an event not yet recorded, a session not yet ended, a day not yet come) is
    /// refused, naming what the log does hold.
    pub fn resolve(&mut self, point: Point) -> Result<Seq, StoreError> {
        let mut log = self.backend.read()?;
        let head = log.head()?.map_or(Seq::START, |(seq, _)| seq);
        let refuse = |why: String| Err(StoreError::NoSuchPoint(why));
        match point {
            Point::Now => Ok(head),
            Point::Seq(seq) if seq <= head => Ok(seq),
            Point::Seq(seq) => refuse(format!("#{seq} is not in the log, which ends at #{head}")),
            Point::SessionEnd(n) | Point::SessionStart(n) => {
                let edge = |kind: &str, log: &mut dyn LogRead| session_edge(log, kind, n, head);
                let started = edge("session_started", &mut *log)?;
                match (point, started) {
                    (_, None) => refuse(format!(
                        "there is no session {n} in this campaign yet; `grimoire log` lists the sessions"
                    )),
                    (Point::SessionStart(_), Some(seq)) => Ok(seq),
                    _ => edge("session_ended", &mut *log)?.map_or_else(
                        || {
                            refuse(format!(
                                "session {n} has not ended yet; give session-start:{n} or now"
                            ))
                        },
                        Ok,
                    ),
                }
            }
            Point::Day(day) => {
                let clock = super::replay::replay_from(
                    &mut *log,
                    head,
                    super::replay::FromSnapshot::Whole,
                )?
                .0
                .clock;
                if day > clock.day() {
                    return refuse(format!("Day {day} has not come yet: it is {clock}"));
                }
                let end_of_day = day.saturating_mul(crate::time::DAY_SECONDS);
                match log.last_before_time(end_of_day)? {
                    Some(seq) => Ok(seq),
                    None => refuse(format!("the log holds nothing by the end of Day {day}")),
                }
            }
        }
    }
}

impl Store {
    /// The event a point names, as a state to show: a point that falls among one command's events
    /// (a downtime span, then the scrolls its weeks wrote) moves on to the command's last, so a
    /// state is never half of one.
    pub fn resolve_state(&mut self, point: Point) -> Result<Seq, StoreError> {
        let mut seq = self.resolve(point)?;
        let mut log = self.backend.read()?;
        while let Some(next) = log.row(seq + 1)? {
            if !super::replay::decode(&next)?.continues_its_command() {
                break;
            }
            seq = next.seq;
        }
        Ok(seq)
    }
}

/// The row of `kind` (a session's start or end) that session `n` recorded, if any. Sessions are
/// numbered in the order they happen and are never retracted, so the session a row of `kind`
/// belongs to grows with its seq: a binary search over seqs finds it in a few dozen indexed reads,
/// however many sessions the campaign has had.
fn session_edge(
    log: &mut dyn LogRead,
    kind: &str,
    n: u32,
    head: Seq,
) -> Result<Option<Seq>, StoreError> {
    // The newest row of `kind` at or before `seq`, and its session.
    let mut newest_at = |seq: Seq| -> Result<Option<(Seq, Option<u32>)>, StoreError> {
        Ok(log
            .last_of_kinds(&[kind], seq.next())?
            .map(|row| (row.seq, row.session)))
    };
    // The first seq at which the newest row of `kind` belongs to session `n` or a later one.
    let (mut low, mut high) = (Seq(1), head.next());
    while low < high {
        let middle = low + (high.get() - low.get()) / 2;
        match newest_at(middle)? {
            Some((_, Some(session))) if session >= n => high = middle,
            _ => low = middle + 1,
        }
    }
    Ok(match newest_at(low)? {
        Some((seq, Some(session))) if session == n => Some(seq),
        _ => None,
    })
}
