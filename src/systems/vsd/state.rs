//! Against the Darkmaster state: what replay computes for VsD characters.

use crate::seq::Seq;
use crate::systems::contract::port::Fold;
use crate::systems::vsd::Vsd;
use crate::systems::vsd::event::{Alignment, Choice, Condition, Place, SpellDef};
use crate::systems::vsd::event::{
    ChoiceMade, ConditionChange, DelayedResolved, Pending, SaveRolled, Severed, SpellCast,
};
use crate::systems::vsd::sheet::{Lore, VsdSheet};
use crate::time::{GameDuration, GameTime};
use crate::words::Folded;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Concentration {
    pub spell: String,
    pub first_round: u64,
    pub last_round: u64,
}

pub use crate::systems::contract::port::ActiveSpell;

/// A failed spell held to fire later (VSD-9): it fires at the end of `fires_at_round` if the caster
/// concentrated on it through the two rounds up to then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DelayedSpell {
    pub cast_seq: Seq,
    pub spell: String,
    pub target: String,
    pub fires_at_round: u64,
    pub mp_cost: u32,
}

/// The newest casting of a spell on a target that allows a save (see [`VsdCampaign::castings_on`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CastingOn {
    pub cast_seq: Seq,
    pub saved: bool,
}

/// The latest resonance a caster may still sever (VSD-11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenResonance {
    pub cast_seq: Seq,
    pub spell: String,
    pub place: Place,
    pub bonus: i64,
    pub severs: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VsdState {
    pub level: u32,
    pub vocation: String,
    pub lores: Vec<Lore>,
    pub mp_max: u32,
    pub mp_spent: u32,
    pub drive: u32,
    /// Body as it stands, after soul damage (VSD-12).
    pub body: i32,
    pub soul_damage: u32,
    pub wsr: i32,
    pub defense: i64,
    pub spells: BTreeMap<Folded, SpellDef>,
    pub concentration: Option<Concentration>,
    /// The round whose whole action a cast used.
    pub last_cast_round: Option<u64>,
    /// The round in which an instantaneous spell used half the action (VSD-3): a second one may
    /// follow in it, nothing else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half_action_round: Option<u64>,
    pub conditions: Vec<ConditionChange>,
    pub pending: Vec<Pending>,
    /// The awareness window (VSD-10): the next spell before this time triggers resonance.
    pub awareness_until: Option<GameTime>,
    pub resonance_open: Option<OpenResonance>,
    /// A failed spell set to fire at this round.
    pub delayed: Option<DelayedSpell>,
    pub consumed: bool,
    /// Drive spent that a correction's lower Drive could not show (C-1), paid first by Drive
    /// gained.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub drive_owed: u32,
    /// The event that last left the character assailed: an Assessment Roll that ends it is rolled
    /// after it (VSD-10 ruling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assailed_since: Option<Seq>,
    /// Bolts that fired after a failed cast (held, or struck another target) whose attack roll is
    /// still to roll (VSD-9, VSD-14), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attacks_due: Vec<AttackDue>,
}

/// A bolt or area spell that fired after its cast failed and waits for its attack roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackDue {
    /// The failed cast.
    pub cast_seq: Seq,
    pub spell: String,
    /// Who it fired at.
    pub target: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl crate::systems::contract::state::SystemFold for super::Vsd {
    type Character = VsdState;
    type Campaign = VsdCampaign;

    fn new_character(sheet: &VsdSheet) -> VsdState {
        VsdState::new(sheet)
    }
    fn follow_sheet(character: &mut VsdState, old: &VsdSheet, new: &VsdSheet) {
        character.follow_sheet(old, new);
    }
    fn correct(character: &mut VsdState, old: &VsdSheet, new: &VsdSheet) -> bool {
        character.correct(old, new)
    }
    fn past_the_sheet(character: &VsdState) -> Option<String> {
        (character.drive > crate::systems::vsd::sheet::MAX_DRIVE).then(|| {
            format!(
                "with what play has added, Drive would be {}, past the 99 a sheet holds",
                character.drive
            )
        })
    }
    /// Consumed by Soul Damage (VSD-12).
    fn is_dead(character: &VsdState) -> bool {
        character.consumed
    }
    fn end(character: &mut VsdState) {
        character.consumed = true;
    }
    fn forget_expired(character: &mut VsdState, now: GameTime) {
        character
            .conditions
            .retain(|c| c.until.is_none_or(|u| u > now));
        character.awareness_until = character.awareness_until.filter(|u| *u > now);
    }
    fn apply(state: &mut dyn Fold<Vsd>, seq: Seq, event: &crate::systems::vsd::event::VsdEvent) {
        Folding(state).apply_vsd(seq, event);
    }
    fn apply_rest(state: &mut dyn Fold<Vsd>, rested: &crate::systems::vsd::event::MpRestored) {
        Folding(state).apply_mp_rest(rested);
    }
    /// Weeks of downtime hold nights enough to bring every MP back (VSD-6: eight hours restore
    /// all).
    fn apply_downtime(
        state: &mut dyn Fold<Vsd>,
        spent: &crate::systems::contract::event::DowntimeOf,
    ) {
        if let Some(vsd) = state.mine_mut(&spent.character) {
            vsd.mp_spent = 0;
        }
    }
}

impl VsdState {
    pub fn new(sheet: &VsdSheet) -> VsdState {
        VsdState {
            level: sheet.level,
            vocation: sheet.vocation.clone(),
            lores: sheet.lores.clone(),
            mp_max: sheet.mp,
            mp_spent: 0,
            drive: sheet.drive,
            body: sheet.body,
            soul_damage: 0,
            wsr: sheet.wsr,
            defense: i64::from(sheet.defense),
            spells: BTreeMap::new(),
            concentration: None,
            last_cast_round: None,
            half_action_round: None,
            conditions: Vec::new(),
            pending: Vec::new(),
            awareness_until: None,
            resonance_open: None,
            delayed: None,
            consumed: false,
            drive_owed: 0,
            assailed_since: None,
            attacks_due: Vec::new(),
        }
    }

    /// The sheet as entered changed from `old` to `new`: level, vocation and lores are the new
    /// ones, and MPs, Drive, Body, WSR and Defense move by as much as their entered values did.
    pub fn follow_sheet(&mut self, old: &VsdSheet, new: &VsdSheet) {
        let moved = |value: i64, from: i64, to: i64| value + to - from;
        let unsigned = |value: i64| u32::try_from(value.max(0)).unwrap_or(u32::MAX);
        let signed = |value: i64| i32::try_from(value).unwrap_or(i32::MAX);
        self.level = new.level;
        self.vocation = new.vocation.clone();
        self.lores = new.lores.clone();
        self.mp_max = unsigned(moved(self.mp_max.into(), old.mp.into(), new.mp.into()));
        self.drive = unsigned(moved(self.drive.into(), old.drive.into(), new.drive.into()));
        self.body = signed(moved(self.body.into(), old.body.into(), new.body.into()));
        self.wsr = signed(moved(self.wsr.into(), old.wsr.into(), new.wsr.into()));
        self.defense = moved(self.defense, old.defense.into(), new.defense.into());
    }

    /// A correction of the sheet as entered (C-1): as [`VsdState::follow_sheet`], with Drive spent
    /// kept as an amount owed when the corrected Drive cannot show it. Returns whether Body reached
    /// 0 or below, which consumes the caster (VSD-12).
    pub fn correct(&mut self, old: &VsdSheet, new: &VsdSheet) -> bool {
        let drive = i64::from(self.drive) - i64::from(self.drive_owed) + i64::from(new.drive)
            - i64::from(old.drive);
        self.follow_sheet(old, new);
        self.drive = u32::try_from(drive.max(0)).unwrap_or(u32::MAX);
        self.drive_owed = u32::try_from((-drive).max(0)).unwrap_or(u32::MAX);
        self.body <= 0
    }

    pub fn mp_current(&self) -> u32 {
        self.mp_max.saturating_sub(self.mp_spent)
    }

    pub fn spell(&self, name: &str) -> Option<&SpellDef> {
        self.spells.get(&Folded::of(name))
    }

    pub fn lore(&self, name: &str) -> Option<&Lore> {
        self.lores
            .iter()
            .find(|l| l.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Conditions in force at `now`.
    pub fn active_conditions(&self, now: GameTime) -> Vec<Condition> {
        self.conditions
            .iter()
            .filter(|c| c.until.is_none_or(|u| u > now))
            .map(|c| c.condition)
            .collect()
    }

    /// The pending choice that offers every one of `chosen`: the one a `choose` of them resolves.
    pub fn pending_offering(&self, chosen: &[Choice]) -> Option<&Pending> {
        (self.pending.iter()).find(|p| chosen.iter().all(|c| p.options.contains(c)))
    }

    /// The bolt's attack a `spell fire` rolls: the one from the failed cast `cast`, or without it
    /// the only one owed (of several, the table must name which).
    pub fn attack_owed(&self, cast: Option<Seq>) -> Option<&AttackDue> {
        match (cast, self.attacks_due.as_slice()) {
            (Some(cast), all) => all.iter().find(|due| due.cast_seq == cast),
            (None, [due]) => Some(due),
            (None, _) => None,
        }
    }

    pub fn has_condition(&self, condition: Condition, now: GameTime) -> bool {
        self.active_conditions(now).contains(&condition)
    }

    /// Whether the spell held to fire (VSD-9) can no longer fire, seen in round `round`: from the
    /// round after the failure on, its caster must have concentrated on it every round, this one
    /// or the one before at the latest. Broken, it only waits for its round to end to fizzle.
    pub fn hold_broken(&self, round: u64) -> bool {
        let Some(held) = &self.delayed else {
            return false;
        };
        let failed_in = held.fires_at_round.saturating_sub(2);
        round > failed_in + 1
            && !self.concentration.as_ref().is_some_and(|c| {
                c.spell.eq_ignore_ascii_case(&held.spell) && c.last_round + 1 >= round
            })
    }

    /// Rounds of unbroken concentration on `spell` up to the round before `round` (VSD-3): the caster
    /// must have concentrated in every round from the first up to the one just before casting.
    pub fn concentration_for(&self, spell: &str, round: u64) -> u32 {
        match &self.concentration {
            Some(c) if c.spell.eq_ignore_ascii_case(spell) && c.last_round + 1 == round => {
                u32::try_from(c.last_round - c.first_round + 1).unwrap_or(u32::MAX)
            }
            _ => 0,
        }
    }

    fn lose_mp(&mut self, amount: u32) {
        self.mp_spent = self.mp_spent.saturating_add(amount).min(self.mp_max);
    }
}

/// The campaign as Against the Darkmaster's events change it.
struct Folding<'f>(&'f mut dyn Fold<Vsd>);

impl Folding<'_> {
    /// Ends a condition now: those of its kind still in force end at this moment.
    fn end_condition(&mut self, character: &str, condition: Condition) {
        let now = self.0.clock();
        if let Some(vsd) = self.vsd_mut(character) {
            for c in vsd
                .conditions
                .iter_mut()
                .filter(|c| c.condition == condition)
            {
                if c.until.is_none_or(|u| u > now) {
                    c.until = Some(now);
                }
            }
        }
    }
}

impl Folding<'_> {
    fn vsd_mut(&mut self, name: &str) -> Option<&mut VsdState> {
        self.0.mine_mut(name)
    }

    fn add_conditions(&mut self, seq: Seq, changes: &[ConditionChange]) {
        for change in changes {
            if let Some(vsd) = self.vsd_mut(&change.character) {
                vsd.conditions.push(change.clone());
                if change.condition == Condition::Assailed {
                    vsd.assailed_since = Some(seq);
                }
            }
        }
    }

    /// Puts a spell in force on its target, of either system (VSD-8: it replaces an older casting of
    /// the same spell). An instantaneous spell has done its work once cast: nothing stays in force.
    fn take_hold(
        &mut self,
        target: &str,
        spell: &str,
        caster: &str,
        cast_seq: Seq,
        until: Option<GameTime>,
    ) {
        let instantaneous = self
            .vsd_mut(caster)
            .and_then(|v| v.spell(spell).map(|s| s.instantaneous))
            .unwrap_or(false);
        if instantaneous {
            return;
        }
        if let Some(spells_on) = self.0.spells_on_mut(target) {
            let active = ActiveSpell {
                spell: spell.to_string(),
                caster: caster.to_string(),
                cast_seq,
                until,
                half_area: false,
            };
            spells_on.insert(Folded::of(spell), active);
        }
    }

    fn apply_concentrated(&mut self, character: &str, spell: &str, round: u64) {
        if let Some(vsd) = self.vsd_mut(character) {
            vsd.concentration = match vsd.concentration.take() {
                Some(c) if c.spell == spell && c.last_round + 1 == round => Some(Concentration {
                    last_round: round,
                    ..c
                }),
                _ => Some(Concentration {
                    spell: spell.to_string(),
                    first_round: round,
                    last_round: round,
                }),
            };
        }
    }

    /// Records the casting at `seq` as the newest of `spell` on `target` that a save may answer.
    fn note_casting_on(&mut self, target: &str, spell: &str, seq: Seq) {
        self.0
            .campaign_mut()
            .castings_on
            .entry(Folded::of(target))
            .or_default()
            .insert(
                Folded::of(spell),
                CastingOn {
                    cast_seq: seq,
                    saved: false,
                },
            );
    }

    fn apply_spell_cast(&mut self, seq: Seq, c: &SpellCast) {
        let now = self.0.clock();
        if c.save_difficulty.is_some() {
            self.note_casting_on(&c.target, &c.spell, seq);
        }
        self.add_conditions(seq, &c.conditions);
        if c.took_hold {
            self.take_hold(&c.target, &c.spell, &c.caster, seq, c.active_until);
        }
        if let Some(o) = &c.overcast {
            // Each participant spent the round concentrating on the ritual: their action is used.
            for helper in &o.participants {
                if let Some(vsd) = self.vsd_mut(helper) {
                    vsd.concentration = None;
                    vsd.last_cast_round = Some(c.round);
                }
            }
        }
        let Some(vsd) = self.vsd_mut(&c.caster) else {
            return;
        };
        vsd.lose_mp(c.mp_spent);
        vsd.concentration = None;
        // Half an action leaves the other half; a second half, or a whole action, uses the round.
        match c.half_action && vsd.half_action_round != Some(c.round) {
            true => vsd.half_action_round = Some(c.round),
            false => vsd.last_cast_round = Some(c.round),
        }
        vsd.pending.extend(c.pending.iter().cloned());
        if let Some(o) = &c.overcast {
            vsd.drive = vsd.drive.saturating_sub(o.drive_spent);
            vsd.soul_damage += o.soul_damage;
            vsd.body -= i32::try_from(o.soul_damage).unwrap_or(i32::MAX);
        }
        vsd.consumed |= c.consumed;
        // A resonance triggered by the awareness window uses it up; a new awareness result opens one.
        if c.resonance.is_some() {
            vsd.awareness_until = None;
        }
        vsd.resonance_open = c.resonance.as_ref().map(|r| {
            if r.result == "awareness" {
                vsd.awareness_until = Some(now.after(GameDuration(3600)));
            }
            OpenResonance {
                cast_seq: seq,
                spell: c.spell.clone(),
                place: c.place,
                bonus: 0,
                severs: 0,
            }
        });
    }

    fn apply_choice(&mut self, seq: Seq, made: &ChoiceMade) {
        self.add_conditions(seq, &made.conditions);
        // A failed spell fired on another target: its save answers this choice (VSD-9).
        if let Some(struck) = &made.struck {
            if struck.save_difficulty.is_some() {
                self.note_casting_on(&struck.target, &struck.spell, seq);
            }
            if let Some(vsd) = self.vsd_mut(&made.character) {
                vsd.lose_mp(struck.mp_spent);
                if struck.attack_due {
                    vsd.attacks_due.push(AttackDue {
                        cast_seq: made.cast_seq,
                        spell: struck.spell.clone(),
                        target: struck.target.clone(),
                    });
                }
            }
        }
        if let Some(f) = &made.in_force {
            self.take_hold(&f.target, &f.spell, &made.character, made.cast_seq, f.until);
            if f.half_area
                && let Some(active) = self
                    .0
                    .spells_on_mut(&f.target)
                    .and_then(|on| on.get_mut(&Folded::of(&f.spell)))
            {
                active.half_area = true;
            }
        }
        for (name, lost) in &made.mp_lost {
            if let Some(vsd) = self.vsd_mut(name) {
                vsd.lose_mp(*lost);
            }
        }
        let now = self.0.clock();
        let Some(vsd) = self.vsd_mut(&made.character) else {
            return;
        };
        // The choice resolves the first pending entry of that cast whose options hold the picks.
        let (mut resolved_spell, mut resolved_target, mut resolved_cost) = (None, None, 0);
        if let Some(i) = vsd.pending.iter().position(|p| {
            p.cast_seq == made.cast_seq && made.chosen.iter().all(|c| p.options.contains(c))
        }) {
            let resolved = vsd.pending.remove(i);
            resolved_spell = Some(resolved.spell.clone());
            resolved_target = resolved.target.clone();
            resolved_cost = resolved.mp_cost;
            if let Some(r) = &made.resonance {
                if r.result == "awareness" {
                    vsd.awareness_until = Some(now.after(GameDuration(3600)));
                }
                vsd.resonance_open = Some(OpenResonance {
                    cast_seq: made.cast_seq,
                    spell: resolved.spell.clone(),
                    place: resolved.place,
                    bonus: resolved.resonance_bonus,
                    severs: 0,
                });
            }
        }
        vsd.mp_spent = vsd.mp_spent.saturating_sub(made.mp_refund);
        // A choice recorded before held spells were resolved names no target: it stays as it was.
        let delayed = match (made.fires_at_round, resolved_spell, resolved_target) {
            (Some(fires_at_round), Some(spell), Some(target)) => Some(DelayedSpell {
                cast_seq: made.cast_seq,
                spell,
                target,
                fires_at_round,
                mp_cost: resolved_cost,
            }),
            _ => None,
        };
        let holds = delayed.is_some();
        if let Some(delayed) = delayed {
            vsd.delayed = Some(delayed);
        }
        vsd.pending.extend(made.pending.iter().cloned());
        if holds {
            self.0
                .campaign_mut()
                .delayed_casters
                .insert(Folded::of(&made.character));
        }
    }

    fn apply_delayed(&mut self, seq: Seq, d: &DelayedResolved) {
        self.0
            .campaign_mut()
            .delayed_casters
            .remove(&Folded::of(&d.caster));
        if let Some(vsd) = self.vsd_mut(&d.caster) {
            vsd.delayed = None;
            vsd.concentration = None;
            vsd.lose_mp(d.mp_spent);
            if d.attack_due {
                vsd.attacks_due.push(AttackDue {
                    cast_seq: d.cast_seq,
                    spell: d.spell.clone(),
                    target: d.target.clone(),
                });
            }
        }
        if d.save_difficulty.is_some() {
            self.note_casting_on(&d.target, &d.spell, seq);
        }
        if d.took_hold {
            self.take_hold(&d.target, &d.spell, &d.caster, seq, d.active_until);
        }
    }

    fn apply_save(&mut self, s: &SaveRolled) {
        // The saver may be anyone the spell reaches, not only the cast's named target.
        let casting = self
            .0
            .campaign_mut()
            .castings_on
            .entry(Folded::of(&s.target))
            .or_default()
            .entry(Folded::of(&s.spell))
            .or_insert(CastingOn {
                cast_seq: s.against,
                saved: false,
            });
        if casting.cast_seq <= s.against {
            *casting = CastingOn {
                cast_seq: s.against,
                saved: true,
            };
        }
        if !s.resisted {
            self.take_hold(&s.target, &s.spell, &s.caster, s.against, s.active_until);
        }
    }

    fn apply_severed(&mut self, s: &Severed) {
        let now = self.0.clock();
        let Some(vsd) = self.vsd_mut(&s.character) else {
            return;
        };
        vsd.drive = vsd.drive.saturating_sub(1);
        vsd.pending
            .retain(|p| !(p.cast_seq == s.cast_seq && p.by == "GM"));
        vsd.pending.extend(s.pending.iter().cloned());
        if let Some(open) = vsd.resonance_open.as_mut() {
            open.severs = s.severs;
        }
        vsd.awareness_until =
            (s.resonance.result == "awareness").then(|| now.after(GameDuration(3600)));
    }

    fn apply_mp_rest(&mut self, rested: &crate::systems::vsd::event::MpRestored) {
        if let Some(vsd) = self.vsd_mut(&rested.character) {
            vsd.mp_spent = vsd.mp_spent.saturating_sub(rested.restored);
        }
    }
}

/// What Against the Darkmaster keeps for the whole campaign.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VsdCampaign {
    pub vsd_settings: VsdSettings,
    /// For each target (folded name) and spell (folded): the newest casting on it that allows a
    /// save, and whether the target has saved against it (VSD-7: one save per target per cast;
    /// VSD-8: only the newest casting counts). One entry per target and spell, however long the
    /// campaign.
    #[serde(default)]
    pub castings_on: BTreeMap<Folded, BTreeMap<Folded, CastingOn>>,
    /// Casters (folded names) holding a failed spell to fire later (VSD-9): found without reading
    /// every character.
    #[serde(default)]
    pub delayed_casters: std::collections::BTreeSet<Folded>,
}

/// The campaign's VsD settings, changed by events.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VsdSettings {
    pub alignment: Alignment,
    /// The optional Sever the Thread rule (VSD-11); off unless the GM turns it on.
    pub sever_the_thread: bool,
}

impl Folding<'_> {
    /// Folds one of the system's events into the campaign.
    fn apply_vsd(&mut self, seq: Seq, event: &crate::systems::vsd::event::VsdEvent) {
        use crate::systems::vsd::event::VsdEvent;
        match event {
            VsdEvent::SpellLearned(l) => {
                if let Some(vsd) = self.vsd_mut(&l.character) {
                    vsd.spells
                        .insert(Folded::of(&l.spell.name), l.spell.clone());
                }
            }
            VsdEvent::Concentrated {
                character,
                spell,
                round,
            } => self.apply_concentrated(character, spell, *round),
            VsdEvent::ConcentrationInterrupted { character } => {
                if let Some(vsd) = self.vsd_mut(character) {
                    vsd.concentration = None;
                }
            }
            VsdEvent::SpellCast(cast) => self.apply_spell_cast(seq, cast),
            VsdEvent::ChoiceMade(made) => self.apply_choice(seq, made),
            VsdEvent::SaveRolled(save) => self.apply_save(save),
            VsdEvent::AttackRolled(attack) => {
                if let Some(vsd) = self.vsd_mut(&attack.caster) {
                    vsd.attacks_due
                        .retain(|due| due.cast_seq != attack.cast_seq);
                }
            }
            VsdEvent::DelayedSpellResolved(d) => self.apply_delayed(seq, d),
            VsdEvent::ThreadSevered(severed) => self.apply_severed(severed),
            VsdEvent::AlignmentSet { alignment } => {
                self.0.campaign_mut().vsd_settings.alignment = *alignment
            }
            VsdEvent::SeverTheThreadSet { on } => {
                self.0.campaign_mut().vsd_settings.sever_the_thread = *on
            }
            VsdEvent::DriveChanged {
                character, delta, ..
            } => {
                if let Some(vsd) = self.vsd_mut(character) {
                    // Drive gained pays what a correction left owed first (C-1).
                    let owed = i64::from(vsd.drive_owed);
                    let drive = i64::from(vsd.drive) - owed + delta;
                    vsd.drive = u32::try_from(drive.max(0)).unwrap_or(0);
                    vsd.drive_owed = u32::try_from((-drive).clamp(0, owed)).unwrap_or(0);
                }
            }
            VsdEvent::ConditionCleared {
                character,
                condition,
            } => self.end_condition(character, *condition),
            VsdEvent::AssessmentPassed { character, .. } => {
                self.end_condition(character, Condition::Assailed)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(body: i32) -> VsdSheet {
        VsdSheet {
            level: 3,
            vocation: "wizard".into(),
            lores: vec![],
            mp: 12,
            drive: 3,
            body,
            wsr: 20,
            defense: 10,
            health: None,
        }
    }

    /// C-1 with VSD-12: Body 40 as entered, 36 lost to soul damage (4 left); corrected to 3 as
    /// entered moves it by −37 to −33, which consumes the caster; corrected to 39 it would not.
    #[test]
    fn c1_a_correction_that_brings_body_to_zero_or_below_consumes_the_caster() {
        let mut mira = VsdState::new(&sheet(40));
        mira.body = 4;
        mira.soul_damage = 36;
        let mut spared = mira.clone();
        assert!(mira.correct(&sheet(40), &sheet(3)));
        assert_eq!(mira.body, -33);
        assert!(!spared.correct(&sheet(40), &sheet(39)));
        assert_eq!(spared.body, 3);
    }
}
