//! The events a question picks from the log, each with what its dice say of their witnesses: the
//! read behind `log` (its lines and its `--json`) and the live pages' lists.

use super::event::{EventView, Marks, event_view};
use crate::Error;
use crate::audit::Askers;
use crate::dice::Provenance;
use crate::event::Recorded;
use crate::rules::RuleError;
use crate::seq::Seq;
use crate::state::{CampaignState, fold_name};
use crate::store::{Point, Store};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;

/// Which events to read: every filter given narrows the pick.
#[derive(Debug, Default, Clone)]
pub struct LogQuery {
    /// Only events about this character (rolls made for them included), and those that retract,
    /// amend or reveal one.
    pub character: Option<String>,
    /// Only events of this game session.
    pub session: Option<u32>,
    /// Only events of this kind, as the log's JSON names them.
    pub kind: Option<String>,
    /// Only events entered by this actor (any case).
    pub by: Option<String>,
    /// Only events whose line contains this text (any case).
    pub grep: Option<String>,
    /// Only the last N matching events.
    pub limit: Option<u64>,
    /// Start at the event a point names.
    pub from: Option<Point>,
    /// Stop at (and include) the event a point names.
    pub to: Option<Point>,
}

/// One event a read picked.
#[derive(Debug)]
pub struct Entry {
    pub recorded: Recorded,
    /// Seeded dice with no player entropy in force: the GM, holding the seed, could foresee them.
    pub unwitnessed: bool,
    /// Who made its dice on a device, in words (C-5, C-6).
    pub device_made: Option<String>,
}

/// An entry as `log --json` gives it: the event's view, and the two notes when they hold.
#[derive(Debug, Serialize)]
pub struct EntryView<'a> {
    #[serde(flatten)]
    pub event: EventView<'a>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unwitnessed_dice: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device_dice: Option<&'a str>,
}

impl Entry {
    /// The event's marks, as `state` (the newest) says.
    pub fn marks<'a>(&self, state: &'a CampaignState) -> Marks<'a> {
        Marks::of(state, &self.recorded)
    }

    /// The notes a line carries after its marks, each in brackets: the dice no player witnessed,
    /// and the device that made them.
    pub fn notes(&self) -> String {
        let mut notes = String::new();
        if self.unwitnessed {
            notes.push_str("  [no player entropy]");
        }
        if let Some(made) = &self.device_made {
            notes.push_str(&format!("  [{made}]"));
        }
        notes
    }

    pub fn view<'a>(&'a self, state: &'a CampaignState) -> EntryView<'a> {
        EntryView {
            event: event_view(&self.recorded, state, self.marks(state)),
            unwitnessed_dice: self.unwitnessed,
            device_dice: self.device_made.as_deref(),
        }
    }
}

/// A log read under way: the question checked against the campaign, and the newest state, which
/// knows every event's marks.
pub struct LogRead {
    query: LogQuery,
    state: CampaignState,
    from: Seq,
    to: Seq,
    /// The character asked about, folded.
    who: Option<String>,
    grep: Option<String>,
    askers: Askers,
}

impl LogRead {
    /// Checks the question (a kind that exists, points in order, a character the campaign knows)
    /// and reads what it needs to answer it.
    pub fn open(store: &mut Store, query: &LogQuery) -> Result<LogRead, Error> {
        if let Some(kind) = &query.kind
            && !crate::event::kinds().contains(&kind.as_str())
        {
            return Err(Error::Usage(format!(
                "'{kind}' is not a kind of event; the kinds are: {}",
                crate::event::kinds().join(", ")
            )));
        }
        let head = store.head()?.map_or(Seq::START, |h| h.seq);
        let from = query
            .from
            .map(|p| store.resolve(p))
            .transpose()?
            .unwrap_or(Seq(1));
        let to = query
            .to
            .map(|p| store.resolve(p))
            .transpose()?
            .unwrap_or(head);
        if (query.from.is_some() || query.to.is_some()) && from > to {
            return Err(Error::Usage(format!(
                "--from names #{from}, which comes after #{to}, named by --to; give the earlier point to --from"
            )));
        }
        // The newest state (from its snapshot) knows every retraction; no need to read the whole log.
        let state = store.replay(None)?;
        if let Some(name) = &query.character
            && state.character(name).is_none()
        {
            return Err(RuleError::UnknownCharacter {
                name: name.clone(),
                known: state.characters.values().map(|c| c.name.clone()).collect(),
            }
            .into());
        }
        let mut askers = Askers::default();
        if query.by.is_some() && !state.players.requests.is_empty() {
            store.for_each_event_of_kind("roll_requested", None, |r| {
                askers.note(&r);
                Ok(())
            })?;
        }
        Ok(LogRead {
            who: query.character.as_deref().map(fold_name),
            grep: query.grep.as_deref().map(str::to_lowercase),
            query: query.clone(),
            state,
            from,
            to,
            askers,
        })
    }

    /// The newest state, which every entry's marks are read from.
    pub fn state(&self) -> &CampaignState {
        &self.state
    }

    /// The last event the read reaches.
    pub fn last(&self) -> Seq {
        self.to
    }

    /// Whether an event passes every filter given, `pointing` being the events that retract,
    /// amend or reveal one about the character asked for ([`LogRead::pointing_at_who`]). Who acts
    /// for a roll a phone witnessed is the GM who put it (C-6).
    fn keeps(&self, r: &Recorded, pointing: &BTreeSet<Seq>) -> bool {
        self.who
            .as_deref()
            .is_none_or(|w| r.event.concerns(w) || pointing.contains(&r.seq))
            && self.keeps_whoever(r)
    }

    /// Whether an event passes every filter given but the character's.
    fn keeps_whoever(&self, r: &Recorded) -> bool {
        let q = &self.query;
        q.session.is_none_or(|s| r.session == Some(s))
            && q.kind.as_deref().is_none_or(|k| r.event.kind() == k)
            && q.by
                .as_deref()
                .is_none_or(|a| fold_name(a) == fold_name(self.askers.actor_of(r)))
            && self
                .grep
                .as_deref()
                .is_none_or(|g| crate::render::describe(&r.event).to_lowercase().contains(g))
    }

    /// The events from `from` to the read's last that retract, amend or reveal an event about the
    /// character asked for, or another such event: their own payloads name only the seq, so a
    /// read by the character's name would leave out that the damage it shows was undone.
    fn pointing_at_who(&self, store: &mut Store, from: Seq) -> Result<BTreeSet<Seq>, Error> {
        let Some(who) = self.who.as_deref() else {
            return Ok(BTreeSet::new());
        };
        let mut pointers: Vec<(Seq, Seq)> = Vec::new();
        for kind in ["retracted", "amended", "sealed_revealed"] {
            store.for_each_event_of_kind_between(kind, from, self.to, |r| {
                // Only an earlier event can be named: a later one was forged.
                if let Some(target) = r.event.names_event().filter(|&t| t < r.seq) {
                    pointers.push((r.seq, target));
                }
                Ok(())
            })?;
        }
        pointers.sort_unstable();
        let mut about: BTreeMap<Seq, bool> = BTreeMap::new();
        let mut pointing = BTreeSet::new();
        for (seq, target) in pointers {
            if is_about(store, who, target, &mut about)? {
                pointing.insert(seq);
            }
        }
        Ok(pointing)
    }

    /// Every event picked, oldest first, each handed to `each` as it is read (never all held in
    /// memory), until `each` breaks. The limit is not applied: see [`LogRead::entries`].
    pub fn stream(
        &self,
        store: &mut Store,
        mut each: impl FnMut(Entry) -> ControlFlow<()>,
    ) -> Result<(), Error> {
        let entropies = store.entropy_along_the_log()?;
        let pointing = self.pointing_at_who(store, self.from)?;
        store.for_each_event_while(self.from, self.to, |r| {
            Ok(match self.keeps(&r, &pointing) {
                true => {
                    let witness = entropies.at(r.seq);
                    each(entry(r, witness))
                }
                false => ControlFlow::Continue(()),
            })
        })?;
        Ok(())
    }

    /// The events picked, oldest first: with a limit, the newest that many (read newest first,
    /// so a short look at a long campaign costs what it shows).
    pub fn entries(&self, store: &mut Store) -> Result<Vec<Entry>, Error> {
        let mut kept: Vec<Recorded> = Vec::new();
        match self.query.limit {
            Some(limit) => {
                // The character's name as a sieve for the read: only a plain name, whose stored
                // text in any payload is itself (JSON escapes nothing in it) and whose case the
                // database can fold.
                let needle = self.who.as_deref().filter(|name| {
                    name.bytes()
                        .all(|b| (b.is_ascii_graphic() && b != b'"' && b != b'\\') || b == b' ')
                });
                let limit = usize::try_from(limit).unwrap_or(usize::MAX);
                let none = BTreeSet::new();
                store.for_each_event_backwards_mentioning(self.from, self.to, needle, |r| {
                    if self.keeps(&r, &none) {
                        kept.push(r);
                    }
                    Ok(if kept.len() >= limit {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    })
                })?;
                kept.reverse();
                // What retracts, amends or reveals the character's events names none of them, so
                // the sieve passed it over: it is looked for apart, back to the oldest event kept
                // (an older one would not be among the newest `limit`).
                let back_to = match kept.first() {
                    Some(oldest) if kept.len() >= limit => oldest.seq,
                    _ => self.from,
                };
                let pointing = self.pointing_at_who(store, back_to)?;
                let sieved: BTreeSet<Seq> = kept.iter().map(|r| r.seq).collect();
                for seq in pointing.difference(&sieved) {
                    if let Some(r) = store.event(*seq)?
                        && self.keeps_whoever(&r)
                    {
                        kept.push(r);
                    }
                }
                kept.sort_by_key(|r| r.seq);
                kept.drain(..kept.len().saturating_sub(limit));
            }
            None => {
                let pointing = self.pointing_at_who(store, self.from)?;
                store.for_each_event(self.from, Some(self.to), |r| {
                    if self.keeps(&r, &pointing) {
                        kept.push(r);
                    }
                    Ok(())
                })?
            }
        }
        // A few events (a limit): each one's session entropy is looked up by itself (only events
        // with seeded dice need it), not every session's; the whole log reads every session's once.
        let sessions = match self.query.limit {
            Some(_) => None,
            None => Some(store.entropy_along_the_log()?),
        };
        let mut entries = Vec::with_capacity(kept.len());
        for r in kept {
            let witness = match (&sessions, is_seeded(&r)) {
                (_, false) => String::new(),
                (Some(sessions), true) => sessions.at(r.seq).to_string(),
                (None, true) => store.entropy_before(r.seq)?,
            };
            entries.push(entry(r, &witness));
        }
        Ok(entries)
    }
}

/// Whether the event at `seq` is about the character `who` (folded), or retracts, amends or reveals
/// one that is, however long the chain (a retraction of an amendment that moved a character's
/// damage to another). Followed without recursion, each step to an earlier event; `known` keeps
/// what was found.
fn is_about(
    store: &mut Store,
    who: &str,
    seq: Seq,
    known: &mut BTreeMap<Seq, bool>,
) -> Result<bool, Error> {
    let mut chain = Vec::new();
    let mut at = seq;
    let answer = loop {
        if let Some(&answer) = known.get(&at) {
            break answer;
        }
        chain.push(at);
        let Some(r) = store.event(at)? else {
            break false;
        };
        if r.event.concerns(who) {
            break true;
        }
        // Only an earlier event can be named: a later one was forged.
        match r.event.names_event().filter(|&target| target < at) {
            Some(target) => at = target,
            None => break false,
        }
    };
    for seq in chain {
        known.insert(seq, answer);
    }
    Ok(answer)
}

fn is_seeded(r: &Recorded) -> bool {
    r.event
        .dice()
        .iter()
        .any(|d| matches!(d.provenance, Provenance::Seeded { .. }))
}

/// An event as an entry, `witness` being the player entropy in force for it (its session's, or
/// none).
fn entry(recorded: Recorded, witness: &str) -> Entry {
    let unwitnessed = recorded.event.dice().iter().any(|d| {
        matches!(d.provenance, Provenance::Seeded { .. })
            && d.provenance.entropy(witness).is_empty()
    });
    Entry {
        device_made: device_made(&recorded),
        unwitnessed,
        recorded,
    }
}

/// Who made an event's dice on a device, as the log marks the line (C-5, C-6): "rolled on a
/// player's device, request 3" or "witnessed by a player's device, request 4".
fn device_made(r: &Recorded) -> Option<String> {
    r.event.dice().iter().find_map(|d| match d.provenance {
        Provenance::Device {
            request,
            witnessed: false,
        } => Some(format!("rolled on a player's device, request {request}")),
        Provenance::Device {
            request,
            witnessed: true,
        } => Some(format!("witnessed by a player's device, request {request}")),
        _ => None,
    })
}
