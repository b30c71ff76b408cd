//! The two ports the campaign's state opens to each rule system (`systems/contract/port.rs`):
//! what a system's rules and words read of the campaign, and what its events change in replay.

use super::{ActiveSpell, CampaignState, Character, Health, PendingSeal};
use crate::seq::Seq;
use crate::systems::contract::event::SystemModel;
use crate::systems::contract::port::{Fold, Refused, Someone, View};
use crate::systems::registry::{Registered, on_system};
use crate::time::{GameDuration, GameTime};
use crate::words::Folded;
use std::collections::BTreeMap;

impl Character {
    /// The character as system `S`'s rules and words see them.
    pub fn as_seen_by<S: Registered>(&self) -> Someone<'_, S> {
        Someone {
            name: &self.name,
            health: self.health,
            mine: self.state::<S>(),
            sheet: S::sheet(&self.sheet),
            plays: on_system!(&self.system, AnyState, |T, _state| T::NAME),
            dead: self.is_dead(),
            status: self.status(),
            spells_on: &self.spells_on,
        }
    }
}

impl<S: Registered> View<S> for CampaignState {
    fn head(&self) -> Seq {
        self.head
    }
    fn clock(&self) -> GameTime {
        self.clock
    }
    fn until_words(&self, until: GameTime) -> String {
        CampaignState::until_words(self, until)
    }
    fn end_of_round_words(&self, round: u64) -> String {
        CampaignState::end_of_round_words(self, round)
    }
    fn fight_now(&self) -> Option<String> {
        self.fight_words()
    }
    fn damage_this_round(&self, name: &str) -> Option<u32> {
        self.fight.as_ref()?;
        Some(self.round.damage_this_round(self.clock, &Folded::of(name)))
    }
    fn acted_this_round(&self, name: &str) -> bool {
        self.fight.is_some() && self.round.acted(self.clock, &Folded::of(name))
    }
    fn someone(&self, name: &str) -> Option<Someone<'_, S>> {
        self.character(name).map(Character::as_seen_by)
    }
    fn everyone(&self) -> Vec<Someone<'_, S>> {
        self.characters
            .values()
            .map(Character::as_seen_by)
            .collect()
    }
    fn as_recorded(&self, target: &str) -> Result<String, Refused> {
        self.recorded_as(target)
    }
    fn campaign(&self) -> &S::Campaign {
        S::campaign(&self.systems)
    }
    fn is_retracted(&self, seq: Seq) -> bool {
        self.retracted.contains_key(&seq) || self.undone_with_answered.contains_key(&seq)
    }
    fn sealed_pending(&self, seq: Seq) -> Option<&[PendingSeal]> {
        self.sealed_pending.get(&seq).map(Vec::as_slice)
    }
}

impl CampaignState {
    /// The fight under way with its round ("the fight at the bridge (round 2)"), if any.
    pub fn fight_words(&self) -> Option<String> {
        self.fight
            .as_ref()
            .map(|on| format!("{} (round {})", on.words(), on.round_at(self.clock)))
    }

    /// A target as the log records it: the character's own name when it names one (in any case,
    /// with any spaces around it), else the words as typed, trimmed ("the ghoul"). Words that
    /// only look like a character's name are refused: they would be recorded as someone else.
    pub fn recorded_as(&self, target: &str) -> Result<String, Refused> {
        if let Some(c) = self.character(target) {
            return Ok(c.name.clone());
        }
        match self
            .characters
            .values()
            .find(|c| crate::text::look_alike(&c.name, target))
        {
            Some(c) => Err(Refused::ConfusableName {
                name: target.trim().to_string(),
                existing: c.name.clone(),
            }),
            None => Ok(target.trim().to_string()),
        }
    }
}

impl<S: Registered> Fold<S> for CampaignState {
    fn clock(&self) -> GameTime {
        self.clock
    }
    fn pass_time(&mut self, by: GameDuration) {
        self.clock = self.clock.after(by);
    }
    fn change_health(&mut self, name: &str, delta: i64) {
        CampaignState::change_health(self, name, delta);
    }
    fn health_mut(&mut self, name: &str) -> Option<&mut Health> {
        self.characters
            .get_mut(&Folded::of(name))
            .and_then(|c| c.health.as_mut())
    }
    fn recorded_name(&self, name: &str) -> Option<String> {
        self.character(name).map(|c| c.name.clone())
    }
    fn mine_mut(&mut self, name: &str) -> Option<&mut S::Character> {
        self.characters
            .get_mut(&Folded::of(name))
            .and_then(|c| c.state_mut::<S>())
    }
    fn spells_on_mut(&mut self, name: &str) -> Option<&mut BTreeMap<Folded, ActiveSpell>> {
        self.characters
            .get_mut(&Folded::of(name))
            .map(|c| &mut c.spells_on)
    }
    fn campaign(&self) -> &S::Campaign {
        S::campaign(&self.systems)
    }
    fn campaign_mut(&mut self) -> &mut S::Campaign {
        S::campaign_mut(&mut self.systems)
    }
}
