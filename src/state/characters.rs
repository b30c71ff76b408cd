//! The characters of a campaign state, and how a snapshot's are read.

use super::Character;
use crate::deferred::Deferred;
use crate::systems::registry::AnyState;
use crate::words::Folded;
use serde::de::{Error, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Characters keyed by their folded name. A snapshot's are each kept as its text until one is
/// looked at: a write acts on a character or two, and reading all of a long campaign's was most
/// of what a write's start cost. A character is judged as it is read: one that does not read, or
/// that is kept under another's name (a command naming one would act on the other), stands as
/// absent and marks the state ([`Characters::has_unreadable`]), so what was decided on it is
/// never recorded.
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Characters {
    kept: BTreeMap<Folded, Kept>,
    /// Set when a character that did not read is replaced or taken out: what was decided on it
    /// (a new character added under its name, as if none held it) is still not to be recorded.
    #[serde(skip)]
    dropped_unreadable: bool,
}

/// One character as [`Characters`] keeps it, written as the character either way.
#[derive(Clone, Serialize)]
#[serde(untagged)]
enum Kept {
    /// Made by replay, or read and then changed: a plain character, as replay wants them.
    Read(Character),
    /// As the snapshot wrote it, until it is looked at (`None` once it did not read).
    Text(Deferred<Option<Character>>),
}

/// Every character a snapshot holds is kept as its text.
impl<'de> Deserialize<'de> for Kept {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Kept, D::Error> {
        Deferred::deserialize(from).map(Kept::Text)
    }
}

/// Whether a character read from a snapshot may stand under `key`.
fn sound_under(key: &Folded) -> impl FnOnce(&Option<Character>) -> bool + '_ {
    move |read| read.as_ref().is_some_and(|c| key.is(&c.name))
}

impl Kept {
    #[inline]
    fn read(&self, key: &Folded) -> Option<&Character> {
        match self {
            Kept::Read(character) => Some(character),
            Kept::Text(text) => text.read_judged(sound_under(key)).as_ref(),
        }
    }

    /// The character, to change: one still kept as text is read and kept plain from now on. One
    /// that does not read stays as its text, marked.
    #[inline]
    fn read_mut(&mut self, key: &Folded) -> Option<&mut Character> {
        if let Kept::Text(_) = self {
            self.read_in(key);
        }
        match self {
            Kept::Read(character) => Some(character),
            Kept::Text(_) => None,
        }
    }

    /// Reads a character kept as text, once, to keep them plain.
    #[cold]
    fn read_in(&mut self, key: &Folded) {
        if let Kept::Text(text) = self
            && text.read_judged(sound_under(key)).is_some()
            && let Some(character) = std::mem::take(text).into_judged(|_| true)
        {
            *self = Kept::Read(character);
        }
    }

    fn is_unreadable(&self) -> bool {
        matches!(self, Kept::Text(text) if text.is_unreadable())
    }
}

impl Characters {
    #[inline]
    pub fn get(&self, key: &Folded) -> Option<&Character> {
        self.kept.get(key)?.read(key)
    }

    #[inline]
    pub fn get_mut(&mut self, key: &Folded) -> Option<&mut Character> {
        self.kept.get_mut(key)?.read_mut(key)
    }

    pub fn insert(&mut self, key: Folded, character: Character) {
        let replaced = self.kept.insert(key, Kept::Read(character));
        self.dropped_unreadable |= replaced.is_some_and(|old| old.is_unreadable());
    }

    pub fn remove(&mut self, key: &Folded) -> Option<Character> {
        let removed = self.kept.remove(key)?;
        self.dropped_unreadable |= removed.is_unreadable();
        match removed {
            Kept::Read(character) => Some(character),
            Kept::Text(text) => text.into_judged(sound_under(key)),
        }
    }

    /// Keeps only the characters whose folded names `keep` accepts.
    pub fn retain_names(&mut self, mut keep: impl FnMut(&Folded) -> bool) {
        let mut dropped = false;
        self.kept.retain(|key, kept| {
            let stays = keep(key);
            dropped |= !stays && kept.is_unreadable();
            stays
        });
        self.dropped_unreadable |= dropped;
    }

    /// Every character that reads, by folded name.
    pub fn iter(&self) -> impl Iterator<Item = (&Folded, &Character)> {
        (self.kept.iter()).filter_map(|(key, kept)| Some((key, kept.read(key)?)))
    }

    pub fn values(&self) -> impl Iterator<Item = &Character> {
        self.iter().map(|(_, c)| c)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Character> {
        (self.kept.iter_mut()).filter_map(|(key, kept)| kept.read_mut(key))
    }

    /// How many characters there are, read or not.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// Reads every character now: whether each reads, under their own name.
    pub fn read_now(&self) -> bool {
        self.iter().count() == self.kept.len()
    }

    /// Whether a character used since the snapshot was read did not read (and is still here, or
    /// was replaced or taken out since).
    pub fn has_unreadable(&self) -> bool {
        self.dropped_unreadable || self.kept.values().any(Kept::is_unreadable)
    }
}

impl<'a> IntoIterator for &'a Characters {
    type Item = (&'a Folded, &'a Character);
    type IntoIter = Box<dyn Iterator<Item = (&'a Folded, &'a Character)> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// Equal when the same names hold equal characters, each read as [`Characters::get`] reads it.
impl PartialEq for Characters {
    fn eq(&self, other: &Characters) -> bool {
        self.kept.len() == other.kept.len()
            && (self.kept.keys().zip(other.kept.keys()))
                .all(|(mine, theirs)| mine == theirs && self.get(mine) == other.get(theirs))
    }
}

impl Eq for Characters {}

impl std::fmt::Debug for Characters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A character as written: its own fields, and its system's state under the system's key beside
/// them. Read field by field rather than through serde's `flatten`, which first copies every
/// character whole into a generic tree: that copy was half of reading a snapshot.
impl<'de> Deserialize<'de> for Character {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Character, D::Error> {
        from.deserialize_map(CharacterFields)
    }
}

struct CharacterFields;

impl<'de> Visitor<'de> for CharacterFields {
    type Value = Character;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a character")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Character, A::Error> {
        fn once<T, E: Error>(slot: &mut Option<T>, field: &'static str, value: T) -> Result<(), E> {
            match slot.replace(value) {
                Some(_) => Err(E::duplicate_field(field)),
                None => Ok(()),
            }
        }
        let (mut name, mut sheet, mut health, mut added_seq, mut system, mut spells_on) =
            (None, None, None, None, None, None);
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "name" => once(&mut name, "name", map.next_value()?)?,
                "sheet" => once(&mut sheet, "sheet", map.next_value()?)?,
                "health" => once(&mut health, "health", map.next_value()?)?,
                "added_seq" => once(&mut added_seq, "added_seq", map.next_value()?)?,
                "spells_on" => once(&mut spells_on, "spells_on", map.next_value()?)?,
                other => match AnyState::next_value_under(other, &mut map)? {
                    Some(state) => once(&mut system, "the system's state", state)?,
                    None => {
                        map.next_value::<IgnoredAny>()?;
                    }
                },
            }
        }
        let sheet: crate::sheet::Sheet = sheet.ok_or_else(|| A::Error::missing_field("sheet"))?;
        let system: AnyState = system.ok_or_else(|| A::Error::custom("no rule system's state"))?;
        // Replay never gives a character the state of a system their sheet is not of: a snapshot
        // that does was edited, and the rules would judge by the wrong game.
        if sheet.system() != system.system() {
            return Err(A::Error::custom(
                "a sheet of one rule system with the state of another",
            ));
        }
        Ok(Character {
            name: name.ok_or_else(|| A::Error::missing_field("name"))?,
            sheet,
            // Written for every character (null for one with no health track): a snapshot
            // without it was edited, and would read as a character with none.
            health: health.ok_or_else(|| A::Error::missing_field("health"))?,
            added_seq: added_seq.ok_or_else(|| A::Error::missing_field("added_seq"))?,
            system,
            spells_on: spells_on.unwrap_or_default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::event::Event;
    use crate::seq::Seq;
    use crate::sheet::Sheet;
    use crate::state::{CampaignState, Character};
    use crate::systems::adg::Adg;
    use crate::systems::adg::sheet::AdgSheet;
    use crate::systems::adg::state::ActiveEffect;
    use crate::time::{GameDuration, GameTime};

    /// Two ADG characters, each under an effect that runs out ten minutes in.
    fn party_under_effects() -> CampaignState {
        let mut state = CampaignState::default();
        for (seq, name) in [(Seq(1), "Aldric"), (Seq(2), "Bryn")] {
            let sheet = Sheet::Adg(AdgSheet {
                level: 1,
                agility: 10,
                brawn: 10,
                cunning: 10,
                health: 8,
                silver: 0,
                knows: Vec::new(),
            });
            let added = Event::CharacterAdded {
                name: name.into(),
                sheet,
            };
            state.apply(seq, &added);
            let adg = crate::systems::contract::port::Fold::<crate::systems::adg::Adg>::mine_mut(
                &mut state, name,
            )
            .expect("an ADG character");
            adg.effects.push(ActiveEffect {
                ritual: "Warding Light".into(),
                until: GameTime(600),
            });
        }
        state
    }

    fn through_a_snapshot(state: &CampaignState) -> CampaignState {
        let text = serde_json::to_string(state).expect("serialises");
        serde_json::from_str(&text).expect("reads back")
    }

    #[test]
    fn a_character_loaded_from_a_snapshot_drops_what_runs_out_as_the_clock_moves() {
        let mut whole = party_under_effects();
        let mut loaded = through_a_snapshot(&whole);
        let later = Event::ClockAdvanced {
            by: GameDuration(3600),
        };
        whole.apply(Seq(3), &later);
        loaded.apply(Seq(3), &later);
        let aldric = loaded.character("Aldric").expect("still there");
        assert!(aldric.state::<Adg>().expect("ADG").effects.is_empty());
        assert_eq!(loaded, whole);
        assert_eq!(through_a_snapshot(&loaded), whole);
    }

    #[test]
    fn a_character_changed_after_loading_is_saved_as_changed() {
        let mut whole = party_under_effects();
        let mut loaded = through_a_snapshot(&whole);
        let hurt = Event::DamageTaken {
            character: "Bryn".into(),
            amount: 3,
            reason: None,
        };
        whole.apply(Seq(3), &hurt);
        loaded.apply(Seq(3), &hurt);
        let saved = through_a_snapshot(&loaded);
        let bryn = saved.character("Bryn").expect("still there");
        assert_eq!(bryn.health.map(|h| h.current), Some(5));
        assert_eq!(saved, whole);
    }

    /// A character of each system, one with a health track and spells on them, one without.
    fn one_of_each_system() -> CampaignState {
        let mut state = party_under_effects();
        let sheets = [
            (
                "Mira",
                Sheet::Vsd(crate::systems::vsd::sheet::VsdSheet {
                    level: 3,
                    vocation: "wizard".into(),
                    lores: Vec::new(),
                    mp: 12,
                    drive: 3,
                    body: 40,
                    wsr: 20,
                    defense: 10,
                    health: None,
                }),
            ),
            (
                "Wen",
                Sheet::Quiet(crate::systems::quiet::sheet::QuietSheet { level: 1, calm: 4 }),
            ),
        ];
        for (at, (name, sheet)) in (10..).zip(sheets) {
            let added = Event::CharacterAdded {
                name: name.into(),
                sheet,
            };
            state.apply(Seq(at), &added);
        }
        let aldric = state
            .characters
            .get_mut(&crate::words::Folded::of("Aldric"));
        aldric.expect("Aldric").spells_on.insert(
            crate::words::Folded::of("Shield"),
            crate::state::ActiveSpell {
                spell: "Shield".into(),
                caster: "Mira".into(),
                cast_seq: Seq(12),
                until: Some(GameTime(600)),
                half_area: true,
            },
        );
        state
    }

    /// A snapshot's characters are read one at a time, as they are used: one never used is
    /// written back as the snapshot held it, and one kept under another's name stands as absent
    /// once looked at, marking the state so that nothing decided on it is recorded.
    #[test]
    fn a_snapshots_characters_are_read_as_used_and_judged_by_the_name_they_are_kept_under() {
        let text = serde_json::to_string(&one_of_each_system()).expect("serialises");
        let loaded: CampaignState = serde_json::from_str(&text).expect("reads");
        assert_eq!(serde_json::to_string(&loaded).expect("serialises"), text);
        let mut swapped: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let wen = swapped["characters"]["wen"].clone();
        swapped["characters"]["mira"] = wen;
        let loaded: CampaignState = serde_json::from_value(swapped).expect("reads");
        assert!(loaded.character("Aldric").is_some());
        assert!(!loaded.has_unreadable_part(), "Mira not looked at yet");
        assert!(loaded.character("Mira").is_none());
        assert!(loaded.has_unreadable_part());
        assert!(!loaded.read_whole());
    }

    /// Characters are read by hand (not through serde's `flatten`): each system's state comes
    /// back under its own key, with the health track and spells in force, equal to what was written.
    #[test]
    fn every_systems_character_reads_back_from_a_snapshot_as_written() {
        let state = one_of_each_system();
        let loaded = through_a_snapshot(&state);
        assert_eq!(loaded, state);
        for (name, system) in [("Aldric", "adg"), ("Mira", "vsd"), ("Wen", "quiet")] {
            let character = loaded.character(name).expect("read back");
            assert_eq!(character.system.system().key(), system, "{name}");
        }
        assert!(loaded.character("Mira").expect("Mira").health.is_none());
    }

    /// A character written with fields this build does not know (by a later one) reads as it
    /// did through `flatten`, which passed them over; one with no system's state, the state of
    /// another system than their sheet's (from the hostile pass: the rules then judged an ADG
    /// character by Against the Darkmaster's), or a field given twice, is refused.
    #[test]
    fn a_snapshots_character_with_unknown_fields_reads_and_a_malformed_one_is_refused() {
        let state = one_of_each_system();
        let text = serde_json::to_string(state.character("Wen").expect("Wen")).expect("serialises");
        let with_more = text.replacen('{', r#"{"mood":{"calm":true},"#, 1);
        let read: Character = serde_json::from_str(&with_more).expect("reads");
        assert_eq!(&read, state.character("Wen").expect("Wen"));

        let refused = |text: &str| {
            serde_json::from_str::<Character>(text)
                .expect_err("refused")
                .to_string()
        };
        let stateless = text.replace(r#""quiet":"#, r#""calm":"#);
        assert!(
            refused(&stateless).contains("no rule system's state"),
            "{}",
            refused(&stateless)
        );
        let mut other_game =
            serde_json::to_value(state.character("Aldric").expect("Aldric")).expect("serialises");
        let quiet = serde_json::to_value(state.character("Wen").expect("Wen")).expect("serialises")
            ["quiet"]
            .take();
        let aldric = other_game.as_object_mut().expect("a map");
        aldric.remove("adg");
        aldric.insert("quiet".into(), quiet);
        let other_game = other_game.to_string();
        assert!(
            refused(&other_game).contains("the state of another"),
            "{}",
            refused(&other_game)
        );
        // From the hostile pass: a character without their health track read as one with none.
        let mut without_health =
            serde_json::to_value(state.character("Aldric").expect("Aldric")).expect("serialises");
        without_health
            .as_object_mut()
            .expect("a map")
            .remove("health");
        let without_health = refused(&without_health.to_string());
        assert!(
            without_health.contains("missing field `health`"),
            "{without_health}"
        );
        let twice = text.replacen('{', r#"{"name":"Other","#, 1);
        assert!(refused(&twice).contains("duplicate field `name`"));
        assert!(refused(r#"{"name":"Wen"}"#).contains("missing field"));
    }
}
