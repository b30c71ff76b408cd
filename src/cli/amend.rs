//! `grimoire amend`: an earlier event's command typed again with its inputs corrected, decided with
//! the event's own dice (C-3). The command after `--` runs as it would on its own, except that
//! what it would record becomes the amendment, and it prints what it would print of the event as
//! amended.

use super::{Context, Globals, Report, outcome};
use crate::Error;
use crate::event::{Event, Recorded};
use crate::rules::Command;
use crate::rules::amend::Amendment;
use crate::seq::Seq;
use clap::Args;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;

/// Fix a mistyped input of an earlier event without rolling again (C-3).
///
/// Give the event's number and, after `--`, the command that recorded it as it should have been
/// typed. grimoire decides that command again on the campaign as it stood just before the event,
/// with the event's own dice in the same order, and records an amendment naming the event; from
/// then on every sheet, log and recap reads the amended outcome in the event's place. It never
/// counts as a new roll. Retracting the amendment brings the original back; retracting the
/// original undoes both.
///
/// Refused, with nothing recorded: a command that needs a die the event did not draw, or leaves
/// one of its dice unused; one that records anything but one event of the same kind; an event a
/// later one may rest on (a later event names someone either version names, or the change reaches
/// the campaign beyond them, such as the alignment); an event with a sealed die not yet revealed;
/// and a change that would move the clock by another amount. The log, `explain`, the recap and the
/// dice audit name every field an amendment changed.
///
/// Rolls no dice.
#[derive(Debug, Clone, Args)]
pub struct AmendArgs {
    /// The event to amend, as `grimoire log` numbers it (#SEQ).
    pub seq: Seq,
    /// The command as it should have been typed, after `--`, without `grimoire` (e.g.
    /// `-- roll 2d6+5 --for climb`).
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// An amendment under way: the event it amends, and what it recorded once it has.
#[derive(Debug, Clone)]
pub struct Amending {
    seq: Seq,
    recorded: Rc<RefCell<Vec<Recorded>>>,
}

impl Amending {
    /// `command`, recorded as an amendment of the event instead.
    pub fn wrap(&self, command: Command) -> Command {
        Command::Amend(Amendment {
            seq: self.seq,
            command: Box::new(command),
            read: None,
        })
    }

    /// What was recorded, kept for `amend` to say; the command that recorded it is shown the
    /// amended event in the original's place, and says what it would say of it.
    pub fn present(&self, mut events: Vec<Recorded>) -> Vec<Recorded> {
        self.recorded.borrow_mut().extend(events.iter().cloned());
        for recorded in &mut events {
            if let Event::Amended { seq, event, .. } = &recorded.event {
                recorded.seq = *seq;
                recorded.event = event.as_ref().clone();
            }
        }
        events
    }
}

/// What may follow `--`: a command that records one event of play. The others would record
/// bookkeeping (a session, a reveal, a retraction), or another file, or nothing.
fn refused_path(path: &str) -> Option<&'static str> {
    Some(match path {
        "init" | "import" => "it makes a campaign, not an event of one",
        "shell" | "tour" | "dev generate" | "dev append-loop" => "it is no command of play",
        "session start" | "session end" | "seed reveal" | "reveal" => {
            "it records the campaign's bookkeeping, which stays as it was"
        }
        "retract" => "a retraction is retracted, not amended",
        "amend" => "an amendment is amended by amending its original again",
        _ => return None,
    })
}

pub fn run(g: &Globals, ctx: &mut Context, args: &AmendArgs) -> Result<Report, Error> {
    let argv = std::iter::once("grimoire".to_string()).chain(args.command.iter().cloned());
    let matches = super::definitions()
        .try_get_matches_from(argv)
        .map_err(|e| match e.use_stderr() {
            true => Error::Usage(format!(
                "the command after `--`: {}",
                outcome::usage_words(&e)
            )),
            false => Error::Usage(
                "give the command after `--` as it should have been typed, not its help (`grimoire help amend` shows how)".into(),
            ),
        })?;
    for global in [
        "db",
        "rolls",
        "player_entropy",
        "rolled_by",
        "witnessed_by",
        "no_wait",
        "actor",
        "json",
        "color",
    ] {
        if matches.value_source(global) == Some(clap::parser::ValueSource::CommandLine) {
            let flag = global.replace('_', "-");
            return Err(Error::Usage(match global {
                "rolls" | "player_entropy" | "rolled_by" | "witnessed_by" | "no_wait" => format!(
                    "an amendment takes no dice (--{flag}): it keeps the original's, in their order"
                ),
                _ => format!("--{flag} goes before `--`, on `amend` itself"),
            }));
        }
    }
    let mut inner = super::parsed(&matches).map_err(|e| Error::Usage(e.to_string()))?;
    let path = super::path(&inner.command);
    if let Some(why) = refused_path(path) {
        return Err(Error::Usage(format!("`{path}` cannot be amended: {why}")));
    }
    if !super::records(&inner.command) {
        return Err(Error::Usage(format!(
            "`{path}` records nothing; give the command that recorded #{}",
            args.seq
        )));
    }
    let amending = Amending {
        seq: args.seq,
        recorded: Rc::default(),
    };
    inner.globals = Globals {
        amending: Some(amending.clone()),
        ..g.clone()
    };
    let mut report = super::run(&inner, ctx)?;
    let recorded = amending.recorded.borrow();
    let Some((at, changed, outcome_changed, event)) =
        recorded.iter().find_map(|r| match &r.event {
            Event::Amended {
                changed,
                outcome_changed,
                event,
                ..
            } => Some((r.seq, changed, *outcome_changed, event)),
            _ => None,
        })
    else {
        return Err(Error::Usage(format!(
            "`{path}` recorded nothing here; give the command that recorded #{}",
            args.seq
        )));
    };
    let rolled = !event.dice().is_empty();
    let rolled_sealed = event
        .dice()
        .iter()
        .any(|die| matches!(die.provenance, crate::dice::Provenance::Sealed { .. }));
    let outcome = match outcome_changed {
        true => "the outcome changes",
        false => "the outcome stands",
    };
    report.text = format!(
        "#{at} amends #{}{} ({}; {outcome}). As amended:\n{}",
        args.seq,
        if rolled { " with its own dice" } else { "" },
        changed.join(", "),
        report.text
    );
    if rolled_sealed {
        report.text.push_str(&format!(
            "\nIts sealed dice were opened by their reveal; `grimoire explain {}` shows their faces.",
            args.seq
        ));
    }
    report.json = json!({
        "amendment": at,
        "amends": args.seq,
        "changed": changed,
        "outcome_changed": outcome_changed,
        "as_amended": report.json,
    });
    Ok(report)
}
