//! The characters' names in play along the log: one character per name, as replay keeps them.

use super::clock::RecordedClock;
use crate::event::Event;
use crate::seq::Seq;
use crate::store::StoredRow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The characters added so far, by the seq of their addition, under their folded names: replay
/// keeps one character per name, so a second under a name in play would make the first vanish
/// without a word. Import and `verify` both hold a log to this.
///
/// What is in play is read from the clock's retractions as they stand (not from what a
/// retraction says it restores, which a forger may leave out), and an amendment of an addition
/// in force renames its character, as replay does.
///
/// Names that only look alike ("Aldric" and "AIdric") replay as two characters, but the rules have
/// refused them since the text rules: an event of that version that leaves two such names in play,
/// where they were not before, is refused too.
#[derive(Default)]
pub struct CharacterNames {
    added: BTreeMap<Seq, GivenName>,
    /// The amendments of each addition: (the amendment's seq, the name it gives).
    renamed: BTreeMap<Seq, Vec<(Seq, GivenName)>>,
    /// The pairs of characters in play, by their additions, whose names look alike after the last
    /// event (taken from rows older than the text rules).
    looking_alike: BTreeSet<(Seq, Seq)>,
}

/// A name as given, folded for lookup and with what it looks like at the table.
struct GivenName {
    written: String,
    folded: crate::words::Folded,
    looks: [String; 3],
}

impl GivenName {
    fn of(name: &str) -> GivenName {
        GivenName {
            written: name.to_string(),
            folded: crate::words::Folded::of(name),
            looks: crate::text::look_alike_keys(name),
        }
    }
}

impl CharacterNames {
    /// Checks `event` once `clock` has taken it in (so a retraction in it is in effect): a
    /// character is added or renamed under a name the rules take today (in a row of the current
    /// version), and after it no two characters in play hold one name, as the rules require.
    pub fn check(
        &mut self,
        row: &StoredRow,
        event: &Event,
        clock: &RecordedClock,
    ) -> Result<(), String> {
        let seq = row.seq;
        match event {
            Event::CharacterAdded { name, .. } => {
                Self::check_text(row, name, "adds a character")?;
                self.added.insert(seq, GivenName::of(name));
            }
            Event::Amended {
                seq: original,
                event: amended,
                ..
            } => {
                let Event::CharacterAdded { name, .. } = amended.as_ref() else {
                    return Ok(());
                };
                Self::check_text(row, name, "renames a character")?;
                self.renamed
                    .entry(*original)
                    .or_default()
                    .push((seq, GivenName::of(name)));
            }
            Event::Retracted {
                seq: target,
                restores: Some(restored),
                ..
            } if clock.target_of(*target) != Some(*restored) => {
                return Err(format!(
                    "#{seq} says it brings back #{restored}, but the event it undoes, #{target}, did not undo #{restored}"
                ));
            }
            Event::Retracted { .. } => {}
            _ => return Ok(()),
        }
        if let Some((first, second)) = self.clash(clock) {
            return Err(format!(
                "after #{seq} the characters added at #{first} and #{second} both hold the name {:?} in play: the rules refuse that, and replay would keep only one of them",
                self.in_play_name(second, clock)
                    .map_or("", |name| name.folded.as_str())
            ));
        }
        let looking_alike = self.looking_alike(clock);
        let new_pair = looking_alike.difference(&self.looking_alike).next();
        if let Some(&(first, second)) = new_pair
            && row.schema_version >= crate::event::TEXT_RULES_SINCE
        {
            let written = |added| {
                self.in_play_name(added, clock)
                    .map_or("", |name| name.written.as_str())
            };
            return Err(format!(
                "after #{seq} the characters added at #{first} and #{second} hold names that look alike in play ({:?} and {:?}): the rules refuse a name that cannot be told from another at the table",
                written(first),
                written(second)
            ));
        }
        self.looking_alike = looking_alike;
        Ok(())
    }

    /// A name given in a row of the current version must be one the rules take today.
    fn check_text(row: &StoredRow, name: &str, what: &str) -> Result<(), String> {
        let seq = row.seq;
        if row.schema_version < crate::event::TEXT_RULES_SINCE {
            return Ok(());
        }
        if name.trim().is_empty() || name.trim() != name {
            return Err(format!(
                "#{seq} {what} under a name that is blank or begins or ends with spaces, which the rules never record"
            ));
        }
        crate::text::check_name("character's name", name)
            .map_err(|why| format!("#{seq} {what} under a name the rules refuse: {why}"))
    }

    /// The name the character added at `added` holds now, if it is in play: its newest amendment
    /// in force renames it.
    fn in_play_name(&self, added: Seq, clock: &RecordedClock) -> Option<&GivenName> {
        if !clock.in_effect(added) {
            return None;
        }
        let amended = self.renamed.get(&added).and_then(|amendments| {
            amendments
                .iter()
                .rev()
                .find(|&&(at, _)| clock.in_effect(at))
                .map(|(_, name)| name)
        });
        amended.or_else(|| self.added.get(&added))
    }

    /// Two characters in play under one name, by the seqs of their additions.
    fn clash(&self, clock: &RecordedClock) -> Option<(Seq, Seq)> {
        let mut holders: HashMap<&str, Seq> = HashMap::new();
        for &added in self.added.keys() {
            let Some(name) = self.in_play_name(added, clock) else {
                continue;
            };
            if let Some(&first) = holders.get(name.folded.as_str()) {
                return Some((first, added));
            }
            holders.insert(name.folded.as_str(), added);
        }
        None
    }

    /// The pairs of characters in play whose names look alike, by the seqs of their additions.
    fn looking_alike(&self, clock: &RecordedClock) -> BTreeSet<(Seq, Seq)> {
        let mut holders: HashMap<&str, Seq> = HashMap::new();
        let mut pairs = BTreeSet::new();
        for &added in self.added.keys() {
            let Some(name) = self.in_play_name(added, clock) else {
                continue;
            };
            for key in &name.looks {
                match holders.get(key.as_str()) {
                    Some(&first) if first != added => {
                        pairs.insert((first, added));
                    }
                    Some(_) => {}
                    None => {
                        holders.insert(key.as_str(), added);
                    }
                }
            }
        }
        pairs
    }
}
