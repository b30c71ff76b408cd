//! A Dungeon Game state: what replay computes for ADG characters and scrolls.

mod spent;

use crate::seq::Seq;
use crate::systems::adg::Adg;
use crate::systems::adg::event::{
    Cast, DowntimeOf, EffectKind, EffectRoll, LearnAttempt, PendingScrollRoll, Reading,
    ScrollOutcome, ScrollWritten, TableResult,
};
use crate::systems::adg::event::{Pay, PendingOutcome, RitualKind};
use crate::systems::adg::sheet::AdgSheet;
use crate::systems::adg::tables::Attribute;
use crate::systems::contract::port::Fold;
use crate::time::{GameDuration, GameTime};
use crate::words::Folded;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One uninterrupted downtime week of scribing (ADG-S3).
pub const SCRIBING_WEEK: GameDuration = GameDuration(7 * 86_400);

/// One value per attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Attributes {
    pub agility: u32,
    pub brawn: u32,
    pub cunning: u32,
}

impl Attributes {
    pub fn get(&self, a: Attribute) -> u32 {
        match a {
            Attribute::Agility => self.agility,
            Attribute::Brawn => self.brawn,
            Attribute::Cunning => self.cunning,
        }
    }

    pub fn get_mut(&mut self, a: Attribute) -> &mut u32 {
        match a {
            Attribute::Agility => &mut self.agility,
            Attribute::Brawn => &mut self.brawn,
            Attribute::Cunning => &mut self.cunning,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownRitual {
    pub name: String,
    pub words: Vec<String>,
    pub kind: RitualKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spell_level: Option<u32>,
    /// Spells from other games are used only as written (ADG-R10 ruling).
    pub reversible: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveEffect {
    pub ritual: String,
    pub until: GameTime,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdgState {
    pub level: u32,
    pub max: Attributes,
    pub exerted: Attributes,
    pub silver: u64,
    /// Rituals rolled on the word lists and not yet learned: folded name → (name, words).
    pub discovered: BTreeMap<Folded, (String, Vec<String>)>,
    pub known: BTreeMap<Folded, KnownRitual>,
    /// Folded name → name: lost forever (ADG-R3).
    pub lost: BTreeMap<Folded, String>,
    /// Rituals cast since the last night's rest (ADG-R9).
    pub rituals_today: u32,
    pub locked_out: bool,
    pub effects: Vec<ActiveEffect>,
    pub dead: bool,
    /// Dice a reading left to roll once its sealed check was open (ADG-S4); the character does
    /// nothing else until `scroll resolve` rolls them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_roll: Option<PendingScrollRoll>,
    /// Silver spent that a correction's lower purse could not show (C-1), paid first by silver
    /// gained.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub silver_owed: u64,
    /// Sigils drawn to go off later, in the order drawn (ADG-R1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sigils: Vec<DrawnSigil>,
}

/// A Sigil drawn and waiting to be set off (ADG-R1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawnSigil {
    pub cast_seq: Seq,
    /// The ritual as drawn (its words as spoken).
    pub ritual: String,
    /// What sets it off, and what it will do then.
    pub waits: crate::systems::adg::event::Waiting,
    /// What an exact casting check doubles once it goes off: "duration" or "effect".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_choice: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl crate::systems::contract::state::SystemFold for super::Adg {
    type Character = AdgState;
    type Campaign = AdgCampaign;
    const ENDS_AT_ZERO_MAX_HEALTH: bool = true;

    fn new_character(sheet: &AdgSheet) -> AdgState {
        AdgState::new(sheet)
    }
    fn follow_sheet(character: &mut AdgState, old: &AdgSheet, new: &AdgSheet) {
        character.follow_sheet(old, new);
    }
    fn correct(character: &mut AdgState, old: &AdgSheet, new: &AdgSheet) -> bool {
        character.correct(old, new)
    }
    fn past_the_sheet(character: &AdgState) -> Option<String> {
        (character.silver > crate::systems::adg::sheet::PURSE_MAX).then(|| {
            format!(
                "with what play has added, the purse would hold {} silver, past the 1,000,000,000 a purse may hold",
                character.silver
            )
        })
    }
    /// A maximum reached 0 (ADG-C4).
    fn is_dead(character: &AdgState) -> bool {
        character.dead
    }
    fn end(character: &mut AdgState) {
        character.dead = true;
    }
    fn forget_expired(character: &mut AdgState, now: GameTime) {
        character.effects.retain(|e| e.until > now);
    }
    fn apply(state: &mut dyn Fold<Adg>, seq: Seq, event: &crate::systems::adg::event::AdgEvent) {
        Folding(state).apply_adg(seq, event);
    }
    fn apply_rest(state: &mut dyn Fold<Adg>, rested: &crate::systems::adg::event::RestResult) {
        Folding(state).apply_rest(rested);
    }
    /// Every week's nights end the daily count and any lockout; the span may give exertion back
    /// (ADG-C5).
    fn apply_downtime(state: &mut dyn Fold<Adg>, spent: &DowntimeOf) {
        if let Some(adg) = state.mine_mut(&spent.character) {
            adg.rituals_today = 0;
            adg.locked_out = false;
            if spent.restored_exertion {
                adg.exerted = Attributes::default();
            }
        }
    }
}

impl AdgState {
    pub fn new(sheet: &AdgSheet) -> AdgState {
        AdgState {
            level: sheet.level,
            max: Attributes {
                agility: sheet.agility,
                brawn: sheet.brawn,
                cunning: sheet.cunning,
            },
            exerted: Attributes::default(),
            silver: sheet.silver,
            discovered: BTreeMap::new(),
            // The rituals the character starts with, learned before play at no cost.
            known: sheet
                .knows
                .iter()
                .map(|r| {
                    let words: Vec<String> =
                        r.name.split_whitespace().map(str::to_string).collect();
                    let ritual = KnownRitual {
                        name: words.join(" "),
                        words,
                        kind: r.kind,
                        spell_level: None,
                        reversible: true,
                    };
                    (Folded::of(&ritual.name), ritual)
                })
                .collect(),
            lost: BTreeMap::new(),
            rituals_today: 0,
            locked_out: false,
            effects: Vec::new(),
            dead: false,
            pending_roll: None,
            silver_owed: 0,
            sigils: Vec::new(),
        }
    }

    /// The sheet as entered changed from `old` to `new`: the level is the new one, and each
    /// maximum and the purse move by as much as their entered values did.
    pub fn follow_sheet(&mut self, old: &AdgSheet, new: &AdgSheet) {
        let moved = |value: u32, from: u32, to: u32| {
            u32::try_from((i64::from(value) + i64::from(to) - i64::from(from)).max(0))
                .unwrap_or(u32::MAX)
        };
        self.level = new.level;
        self.max.agility = moved(self.max.agility, old.agility, new.agility);
        self.max.brawn = moved(self.max.brawn, old.brawn, new.brawn);
        self.max.cunning = moved(self.max.cunning, old.cunning, new.cunning);
        let silver = i128::from(self.silver) + i128::from(new.silver) - i128::from(old.silver);
        self.silver = u64::try_from(silver.max(0)).unwrap_or(u64::MAX);
    }

    /// A correction of the sheet as entered (C-1): the level is the new one; each maximum moves by
    /// as much as its entered value (a point lost to learning stays lost) and the purse keeps what
    /// was spent, as an amount owed when the corrected purse cannot show it. Returns whether a
    /// maximum reached 0, which kills (ADG-C4).
    pub fn correct(&mut self, old: &AdgSheet, new: &AdgSheet) -> bool {
        self.level = new.level;
        let mut reached_zero = false;
        for (max, from, to) in [
            (&mut self.max.agility, old.agility, new.agility),
            (&mut self.max.brawn, old.brawn, new.brawn),
            (&mut self.max.cunning, old.cunning, new.cunning),
        ] {
            let moved = i64::from(*max) + i64::from(to) - i64::from(from);
            reached_zero |= moved <= 0;
            *max = u32::try_from(moved.max(0)).unwrap_or(u32::MAX);
        }
        let purse = i128::from(self.silver) - i128::from(self.silver_owed) + i128::from(new.silver)
            - i128::from(old.silver);
        self.silver = u64::try_from(purse.max(0)).unwrap_or(u64::MAX);
        self.silver_owed = u64::try_from((-purse).max(0)).unwrap_or(u64::MAX);
        reached_zero
    }

    /// Silver gained pays what a correction left owed first (C-1); silver spent never goes below 0.
    pub(crate) fn gain_silver(&mut self, delta: i64) {
        if delta > 0 {
            let paid = self.silver_owed.min(delta.unsigned_abs());
            self.silver_owed -= paid;
            self.silver = self.silver.saturating_add(delta.unsigned_abs() - paid);
        } else {
            self.silver = self.silver.saturating_sub(delta.unsigned_abs());
        }
    }

    /// The attribute's value now: its maximum less what is exerted, never below 0.
    pub fn current(&self, a: Attribute) -> u32 {
        self.max.get(a).saturating_sub(self.exerted.get(a))
    }

    /// Points each attribute can still be exerted before its current value would fall below 1.
    pub fn exertion_room(&self) -> Attributes {
        let room = |a| self.current(a).saturating_sub(1);
        Attributes {
            agility: room(Attribute::Agility),
            brawn: room(Attribute::Brawn),
            cunning: room(Attribute::Cunning),
        }
    }

    /// floor(level / 2) + 1 rituals a day without exertion (ADG-R9).
    pub fn safe_rituals_per_day(&self) -> u32 {
        self.level / 2 + 1
    }

    /// The Cunning the next ritual costs before its roll: k for the k-th beyond the safe number.
    pub fn next_ritual_cost(&self) -> u32 {
        (self.rituals_today + 1).saturating_sub(self.safe_rituals_per_day())
    }

    pub(crate) fn exert(&mut self, a: Attribute, amount: u32) {
        let exerted = self.exerted.get_mut(a);
        *exerted = exerted.saturating_add(amount);
    }
}

pub use spent::{ScrollState, SpentScrolls};

/// What A Dungeon Game keeps for the whole campaign.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AdgCampaign {
    /// The tables in force (loaded with the first ADG character, or by the GM).
    pub adg_tables: Option<crate::systems::adg::tables::AdgTables>,
    /// Scrolls that can still be used, by id.
    pub scrolls: BTreeMap<Seq, Scroll>,
    /// Scrolls turned to ash or damaged (ADG-S6, ADG-S7), by id.
    #[serde(default)]
    pub spent_scrolls: SpentScrolls,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scroll {
    /// The seq of the event that wrote it.
    pub id: Seq,
    pub ritual: String,
    pub level: u32,
    pub effect: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect_roll: Option<EffectKind>,
    pub original_kind: RitualKind,
    pub writer: String,
    pub holder: String,
    pub reads: u32,
    /// A Ceremony scroll's sealed writing check, not yet revealed.
    pub sealed_check: bool,
    /// Once its check is open and failed: by how much (ADG-S4). A badly written scroll stays bad:
    /// every reading brings a mishap until it is ash or damaged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bad_writing: Option<u32>,
    /// The writer's Cunning and pre-exertion for that check.
    pub cunning: u32,
    pub pre_exert: u32,
    /// Its effect is ongoing (ADG-S2): a Sigil's or a Ceremony's, or marked so by the writer.
    #[serde(default)]
    pub ongoing: bool,
}

/// The campaign as A Dungeon Game's events change it.
struct Folding<'f>(&'f mut dyn Fold<Adg>);

impl Folding<'_> {
    fn adg_mut(&mut self, name: &str) -> Option<&mut AdgState> {
        self.0.mine_mut(name)
    }

    fn change_health(&mut self, name: &str, delta: i64) {
        self.0.change_health(name, delta);
    }

    fn apply_effect(&mut self, effect: &Option<EffectRoll>) {
        if let Some(e) = effect {
            let sign = if e.kind == EffectKind::Damage { -1 } else { 1 };
            self.change_health(&e.target, sign * i64::from(e.amount));
        }
    }

    fn apply_table_result(&mut self, who: &str, result: &Option<TableResult>) {
        let Some(r) = result else { return };
        self.change_health(who, -i64::from(r.damage));
        if let Some(adg) = self.adg_mut(who) {
            for (attribute, amount) in &r.exertions {
                adg.exert(*attribute, *amount);
            }
            adg.locked_out |= r.lockout;
        }
    }

    fn apply_learn(&mut self, a: &LearnAttempt) {
        if let Some(scroll) = &a.from_scroll
            && let Some(reading) = &scroll.reading
        {
            self.apply_reading(reading);
        }
        match a.pay {
            Pay::Health => {
                if let Some(h) = self.0.health_mut(&a.character) {
                    h.max = h.max.saturating_sub(a.cost);
                    h.current = h.current.min(h.max);
                }
            }
            Pay::Agility | Pay::Brawn | Pay::Cunning => {
                if let (Some(adg), Some(attribute)) =
                    (self.adg_mut(&a.character), a.pay.attribute())
                {
                    let max = adg.max.get_mut(attribute);
                    *max = max.saturating_sub(a.cost);
                }
            }
        }
        let Some(adg) = self.adg_mut(&a.character) else {
            return;
        };
        adg.dead |= a.died;
        if let Some(check) = &a.check {
            adg.exert(Attribute::Cunning, check.exerted);
        }
        let key = Folded::of(&a.ritual);
        adg.discovered.remove(&key);
        if a.learned {
            adg.known.insert(
                key,
                KnownRitual {
                    name: a.ritual.clone(),
                    words: a.words.clone(),
                    kind: a.ritual_kind,
                    spell_level: a.spell_level,
                    reversible: a.spell_level.is_none(),
                },
            );
        } else if !a.died {
            adg.lost.insert(key, a.ritual.clone());
        }
    }

    fn apply_cast(&mut self, seq: Seq, c: &Cast) {
        // Drawing a Sigil or performing a Ceremony takes its time first (ADG-R1).
        if let Some(took) = c.took {
            self.0.pass_time(took);
        }
        self.apply_table_result(&c.character, &c.mishap);
        self.apply_effect(&c.effect);
        let Some(adg) = self.adg_mut(&c.character) else {
            return;
        };
        if let Some(w) = &c.waits {
            adg.sigils.push(DrawnSigil {
                cast_seq: seq,
                ritual: c.words.join(" "),
                waits: w.clone(),
                exact_choice: c.exact_choice.clone(),
            });
        }
        adg.exert(
            Attribute::Cunning,
            c.reversal_cost + c.over_limit_cost + c.check.exerted,
        );
        adg.rituals_today += 1;
        adg.locked_out |= c.lockout;
        if let Some(until) = c.effect_until {
            adg.effects.push(ActiveEffect {
                ritual: c.words.join(" "),
                until,
            });
        }
        remember_replacement(adg, &c.ritual, c.mishap.as_ref());
    }

    /// A waiting Sigil goes off: its damage or healing, and its effect from now. One whose drawing
    /// was retracted never waited, and does nothing.
    fn apply_trigger(&mut self, t: &crate::systems::adg::event::Triggered) {
        let Some(adg) = self.adg_mut(&t.character) else {
            return;
        };
        let Some(i) = adg.sigils.iter().position(|s| s.cast_seq == t.cast_seq) else {
            return;
        };
        adg.sigils.remove(i);
        if let Some(until) = t.effect_until {
            adg.effects.push(ActiveEffect {
                ritual: t.ritual.clone(),
                until,
            });
        }
        self.apply_effect(&t.effect);
    }

    /// A night's rest for one character: the health it gave back, and the daily count and any
    /// lockout end (ADG-C5, ADG-R9).
    fn apply_rest(&mut self, rested: &crate::systems::adg::event::RestResult) {
        self.change_health(&rested.character, i64::from(rested.healed));
        if let Some(adg) = self.adg_mut(&rested.character) {
            adg.rituals_today = 0;
            adg.locked_out = false;
        }
    }

    fn apply_downtime(&mut self, character: &str, by: GameDuration, restored: bool) {
        self.0.pass_time(by);
        if let Some(adg) = self.adg_mut(character) {
            // Nights pass during downtime, so the daily count and any lockout end too.
            adg.rituals_today = 0;
            adg.locked_out = false;
            if restored {
                adg.exerted = Attributes::default();
            }
        }
    }

    /// Nights passed: health restored, and the daily ritual count and any lockout over (ADG-C5).
    fn apply_nights(&mut self, character: &str, healed: u32) {
        self.change_health(character, i64::from(healed));
        if let Some(adg) = self.adg_mut(character) {
            adg.rituals_today = 0;
            adg.locked_out = false;
        }
    }

    fn apply_scroll_written(&mut self, seq: Seq, w: &ScrollWritten) {
        if !w.in_downtime {
            self.0.pass_time(SCRIBING_WEEK);
        }
        if let Some(adg) = self.adg_mut(&w.writer) {
            adg.silver = adg.silver.saturating_sub(w.cost);
            if !w.cushion_recovered {
                adg.exert(Attribute::Cunning, w.pre_exert);
            }
        }
        if let Some(nights) = &w.nights {
            self.apply_nights(&w.writer, nights.healed);
        }
        self.0.campaign_mut().scrolls.insert(
            seq,
            Scroll {
                id: seq,
                ritual: w.ritual.clone(),
                level: w.level,
                effect: w.effect.clone(),
                effect_roll: w.effect_roll,
                original_kind: w.original_kind,
                writer: w.writer.clone(),
                holder: w.writer.clone(),
                reads: 0,
                sealed_check: w.original_kind == RitualKind::Ceremony,
                bad_writing: None,
                cunning: w.cunning,
                pre_exert: w.pre_exert,
                ongoing: w.ongoing || w.original_kind != RitualKind::Phrase,
            },
        );
    }

    fn apply_reading(&mut self, r: &Reading) {
        if let Some(until) = r.ongoing_until {
            let ritual = self
                .0
                .campaign()
                .scrolls
                .get(&r.scroll)
                .map(|s| s.ritual.clone())
                .unwrap_or_default();
            if let Some(adg) = self.adg_mut(&r.reader) {
                adg.effects.push(ActiveEffect { ritual, until });
            }
        }
        if let (Some(pending), Some(adg)) = (&r.pending, self.adg_mut(&r.reader)) {
            adg.pending_roll = Some(pending.clone());
        }
        self.apply_table_result(&r.reader, &r.damaged);
        self.apply_table_result(&r.reader, &r.mishap);
        self.apply_effect(&r.effect);
        let spent = match (&r.damaged, r.kept) {
            (Some(_), _) => Some(ScrollState::Damaged),
            (None, true) => None,
            (None, false) => Some(ScrollState::Ash),
        };
        match spent {
            // A spent scroll can never be used again: only its id and fate are kept, so a long
            // campaign's state does not fill up with the remains of every scroll ever read.
            Some(fate) => {
                self.0.campaign_mut().scrolls.remove(&r.scroll);
                self.0.campaign_mut().spent_scrolls.insert(r.scroll, fate);
            }
            None => {
                if let Some(scroll) = self.0.campaign_mut().scrolls.get_mut(&r.scroll) {
                    scroll.reads += 1;
                    scroll.sealed_check = false;
                    if let Some(PendingScrollRoll {
                        outcome: PendingOutcome::Mishap { difference },
                        ..
                    }) = &r.pending
                        && r.writing_check_passed == Some(false)
                    {
                        scroll.bad_writing = Some(*difference);
                    }
                }
            }
        }
    }

    fn apply_scroll_outcome(&mut self, o: &ScrollOutcome) {
        if let Some(adg) = self.adg_mut(&o.reader)
            && let Some(pending) = adg.pending_roll.take()
        {
            // A mishap that burns a word into memory changes the ritual as the reader knows it.
            remember_replacement(adg, &pending.ritual, o.mishap.as_ref());
        }
        self.apply_table_result(&o.reader, &o.mishap);
        self.apply_effect(&o.effect);
    }

    fn apply_scroll_given(&mut self, scroll: Seq, to: &str) {
        let holder = self.0.recorded_name(to).unwrap_or_else(|| to.to_string());
        if let Some(s) = self.0.campaign_mut().scrolls.get_mut(&scroll) {
            s.holder = holder;
        }
    }

    fn apply_exerted(&mut self, character: &str, attribute: Attribute, amount: u32) {
        if let Some(adg) = self.adg_mut(character) {
            adg.exert(attribute, amount);
        }
    }

    fn apply_discovered(&mut self, character: &str, ritual: &str, words: &[String]) {
        if let Some(adg) = self.adg_mut(character) {
            adg.discovered
                .insert(Folded::of(ritual), (ritual.to_string(), words.to_vec()));
        }
    }
}

impl Folding<'_> {
    /// Folds one of the system's events into the campaign.
    fn apply_adg(&mut self, seq: Seq, event: &crate::systems::adg::event::AdgEvent) {
        use crate::systems::adg::event::AdgEvent;
        match event {
            AdgEvent::AdgTablesLoaded { tables, .. } => {
                self.0.campaign_mut().adg_tables = Some(tables.clone())
            }
            AdgEvent::RitualDiscovered {
                character,
                ritual,
                words,
                ..
            } => self.apply_discovered(character, ritual, words),
            AdgEvent::Exerted {
                character,
                attribute,
                amount,
                ..
            } => self.apply_exerted(character, *attribute, *amount),
            AdgEvent::RitualLearnAttempted(attempt) => self.apply_learn(attempt),
            AdgEvent::RitualCast(cast) => self.apply_cast(seq, cast),
            AdgEvent::SigilTriggered(triggered) => self.apply_trigger(triggered),
            AdgEvent::DowntimeSpent {
                character,
                by,
                restored_exertion,
                ..
            } => self.apply_downtime(character, *by, *restored_exertion),
            AdgEvent::ScrollWritten(written) => self.apply_scroll_written(seq, written),
            AdgEvent::ScrollRead { reading, .. } => self.apply_reading(reading),
            AdgEvent::ScrollGiven { scroll, to, .. } => self.apply_scroll_given(*scroll, to),
            AdgEvent::ScrollOutcomeRolled(o) => self.apply_scroll_outcome(o),
            AdgEvent::SilverChanged {
                character, delta, ..
            } => {
                if let Some(adg) = self.adg_mut(character) {
                    adg.gain_silver(*delta);
                }
            }
        }
    }
}

/// A mishap's word replaced for good (ADG-R7) in `ritual` as the character knows it; nothing when
/// the entry keeps no word or they do not know the ritual.
fn remember_replacement(adg: &mut AdgState, ritual: &str, mishap: Option<&TableResult>) {
    if let Some(replaced) = mishap
        .and_then(|m| m.replaced.as_ref())
        .filter(|r| r.remembered)
        && let Some(known) = adg.known.get_mut(&Folded::of(ritual))
        && let Some(word) = known.words.get_mut(replaced.slot.index())
    {
        *word = replaced.new.clone();
    }
}
