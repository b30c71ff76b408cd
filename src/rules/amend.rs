//! Amendments (C-3): a mistyped input fixed without rolling again. The original's command is
//! decided anew with the corrected inputs, on the state just before the original and with the
//! original's own dice in draw order; replay then puts that event in the original's place.

use super::RuleError;
use super::campaign::{Command, decide};
use crate::dice::Dice;
use crate::event::Event;
use crate::seq::Seq;
use crate::state::CampaignState;
use std::collections::{BTreeMap, BTreeSet};

/// The event at `seq` decided again as `command` (the command as it should have been typed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Amendment {
    /// The event amended, as `grimoire log` numbers it.
    pub seq: Seq,
    pub command: Box<Command>,
    /// What the write reads of the log for it (see [`AmendmentRead`]); `None` until then.
    pub read: Option<Box<AmendmentRead>>,
}

/// What an amendment reads of the log inside the write, under its lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AmendmentRead {
    /// The event at `seq`.
    pub original: Event,
    /// The event in force in its place: an earlier amendment's, or `None` when it stands as
    /// recorded.
    pub in_force: Option<Event>,
    /// The state just before it, as the log now replays it.
    pub before: CampaignState,
    /// The event after it belongs to the same command (a downtime span's scrolls).
    pub continued: bool,
    /// The faces of its sealed dice that have been revealed, by each die's `n`.
    pub revealed: BTreeMap<u32, Vec<u32>>,
    /// Each character (folded name) that an event after it names, still in force, with the first
    /// such event: other than retractions and amendments of the original itself.
    pub named_later: BTreeMap<String, Seq>,
    /// The first event of play after it, still in force, of any kind (the same ones left out).
    pub play_later: Option<Seq>,
}

/// The dice an amendment draws: its original's, in their order.
pub fn original_dice<'r>(read: &AmendmentRead, rng: &'r mut dyn rand::RngCore) -> Dice<'r> {
    Dice::replaying(read.original.dice().to_vec(), read.revealed.clone(), rng)
}

/// The `amended` event, or why the amendment is refused. `dice` must be [`original_dice`].
pub fn amend(
    state: &CampaignState,
    amendment: Amendment,
    dice: &mut Dice<'_>,
) -> Result<Event, RuleError> {
    let Amendment { seq, command, read } = amendment;
    let read = read.ok_or(RuleError::NoSuchEvent(seq, state.head))?;
    let original = &read.original;
    refuse_original(state, seq, original, &read)?;
    // The command's own refusal, said as of the moment it is decided at (a number mistyped for
    // the event would otherwise read as a refusal of the command now).
    let decided = decide(&read.before, *command, dice).map_err(|why| match why {
        RuleError::Dice(_) => why,
        why => RuleError::RefusedBefore {
            seq,
            kind: original.kind().to_string(),
            why: Box::new(why),
        },
    })?;
    let [event] = <[Event; 1]>::try_from(decided).map_err(|events| RuleError::AmendsInto {
        seq,
        was: original.kind().to_string(),
        now: kinds(&events),
    })?;
    if event.kind() != original.kind() {
        return Err(RuleError::AmendsInto {
            seq,
            was: original.kind().to_string(),
            now: event.kind().to_string(),
        });
    }
    let unused = dice.left_unused();
    if unused > 0 {
        return Err(RuleError::AmendLeavesDice { seq, unused });
    }
    // A roll that answers another event answers it still: moved to another, the first would be
    // owed again and rolled anew with no mark (C-2).
    if let (Some(was), Some(now)) = (original.answers(), event.answers())
        && was != now
    {
        return Err(RuleError::AmendAnswersAnother { seq, was, now });
    }
    // What stands in the original's place now: the amendment in force, else the original.
    let in_force = read.in_force.as_ref().unwrap_or(original);
    if in_force == &event {
        return Err(RuleError::AmendsNothing(seq));
    }
    if let Some(&amendment) = state.amended.get(&seq)
        && &event == original
    {
        return Err(RuleError::AmendsBackToOriginal { seq, amendment });
    }
    let changed = crate::event::differences(in_force, &event);
    // What each leaves in the campaign, from the same state.
    let (mut as_in_force, mut as_amended) = (read.before.clone(), read.before.clone());
    as_in_force.apply(seq, in_force);
    as_amended.apply(seq, &event);
    if as_in_force.clock != as_amended.clock {
        // Every later event was recorded at a time this would move.
        return Err(RuleError::AmendMovesClock(seq));
    }
    let mut named = BTreeSet::new();
    for version in [original, in_force, &event] {
        version.mentions(&mut |name| {
            named.insert(crate::words::fold_name(name));
            false
        });
    }
    // A later event naming someone either version names may rest on what it left them; and any
    // later event at all may rest on what it left the campaign beyond them (an alignment, a
    // fight, a spell held to fire).
    let beyond_them = without(&as_in_force, &named) != without(&as_amended, &named);
    let built_on = named
        .iter()
        .filter_map(|name| read.named_later.get(name).copied())
        .chain(read.play_later.filter(|_| beyond_them))
        .min();
    if let Some(later) = built_on {
        return Err(RuleError::AmendBuiltOn { seq, later });
    }
    Ok(Event::Amended {
        seq,
        event: Box::new(event),
        changed,
        outcome_changed: as_in_force != as_amended,
    })
}

/// The campaign with the characters `named` (folded) left out, and their turns in the round.
fn without(state: &CampaignState, named: &BTreeSet<String>) -> CampaignState {
    let mut rest = state.clone();
    rest.characters
        .retain_names(|folded| !named.contains(folded.as_str()));
    rest.round
        .turns
        .retain(|folded, _| !named.contains(folded.as_str()));
    rest
}

/// Why the event at `seq` may not be amended at all, whatever the command.
fn refuse_original(
    state: &CampaignState,
    seq: Seq,
    original: &Event,
    read: &AmendmentRead,
) -> Result<(), RuleError> {
    if let Event::Amended { seq: first, .. } = original {
        return Err(RuleError::AmendAnAmendment { seq, first: *first });
    }
    if let Some(why) = state.retracted.get(&seq) {
        return Err(RuleError::AmendRetracted(seq, why.clone()));
    }
    if matches!(original, Event::Retracted { .. }) || !original.is_retractable() {
        return Err(RuleError::NotAmendable {
            seq,
            kind: original.kind().to_string(),
        });
    }
    if read.continued || original.continues_its_command() {
        return Err(RuleError::AmendOneOfMany(seq));
    }
    // Its outcome would rest on a value only the GM has seen.
    if state.sealed_pending.contains_key(&seq) {
        return Err(RuleError::AmendSealed(seq));
    }
    // A device made its dice for the very command put to it (C-5): that roll is final.
    if original
        .dice()
        .iter()
        .any(|d| matches!(d.provenance, crate::dice::Provenance::Device { .. }))
    {
        return Err(RuleError::AmendDeviceRoll(seq));
    }
    Ok(())
}

fn kinds(events: &[Event]) -> String {
    let kinds: Vec<&str> = events.iter().map(Event::kind).collect();
    match kinds.is_empty() {
        true => "nothing".into(),
        false => kinds.join(" and "),
    }
}
