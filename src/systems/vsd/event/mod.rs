//! Payloads of Against the Darkmaster events. Like ADG events they carry their resolved consequences.

use crate::dice::Die;
use crate::seq::Seq;
use crate::time::GameTime;
use serde::{Deserialize, Serialize};

mod vocabulary;
pub use vocabulary::*;

/// One modifier of a roll, named so the log explains the total (VSD-4, VSD-10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub what: String,
    pub value: i64,
}

/// Where a casting landed on the casting table (VSD-5), or an attack roll (VSD-14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Failure,
    Partial,
    Success,
    Outstanding,
    /// A bolt or area spell: the total goes to the GM's attack tables.
    Attack,
}

/// A roll on the spell failure table (VSD-9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRoll {
    pub roll: u32,
    /// The spell kind's modifier.
    pub modifier: i64,
    /// The GM's modifier on the failure roll (recorded since 2026-12-04; absent, none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gm_modifier: i64,
    pub total: i64,
}

/// The payload version from which a bolt that fires after a failed cast owes an attack roll
/// (`attack_due`, `attack_rolled`), and an instantaneous cast is half an action (`half_action`,
/// `out_of_turn`).
pub const ATTACK_DUE_SINCE: u32 = 5;

fn is_zero(value: &i64) -> bool {
    *value == 0
}

/// A magical resonance roll (VSD-10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResonanceRoll {
    pub roll: u32,
    pub modifiers: Vec<Modifier>,
    pub total: i64,
    /// The band read, after the Weave ≤ 4 cap: nothing, awareness, attention, pursuit, assault, lieutenant.
    pub result: String,
}

impl ResonanceRoll {
    /// The band a resonance total reads on the table (VSD-10), before any cap.
    pub fn band_of(total: i64) -> &'static str {
        match total {
            i64::MIN..=40 => "nothing",
            41..=60 => "awareness",
            61..=80 => "attention",
            81..=90 => "pursuit",
            91..=100 => "assault",
            _ => "lieutenant",
        }
    }

    /// The band the total read before a spell of Weave 4 or less capped it, when it did.
    pub fn capped_from(&self) -> Option<&'static str> {
        let band = Self::band_of(self.total);
        (band != self.result).then_some(band)
    }

    /// The result in words, with the cap when one applied (`RESONANCE 92 → pursuit (assault,
    /// capped: Weave 4 or less)`).
    pub fn words(&self) -> String {
        let capped = self
            .capped_from()
            .map(|band| format!(" ({band}, capped: Weave 4 or less)"))
            .unwrap_or_default();
        format!("RESONANCE {} → {}{capped}", self.total, self.result)
    }

    /// Every part of the total: the die, then each modifier by name.
    pub fn parts(&self) -> String {
        let mut each = vec![format!("rolled {}", self.roll)];
        each.extend(
            self.modifiers
                .iter()
                .map(|m| format!("{} {:+}", m.what, m.value)),
        );
        format!("{}; total {}", each.join(", "), self.total)
    }
}

/// A choice someone still has to make before the caster acts again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// What the choice is about: partial success, outstanding success, failure, resonance.
    pub about: String,
    /// Who picks: the caster, or the GM.
    pub by: String,
    pub options: Vec<Choice>,
    /// How many options to pick.
    pub pick: usize,
    /// The cast it belongs to, its spell and where it was cast (for a resonance roll it may call for).
    pub cast_seq: Seq,
    pub spell: String,
    pub place: Place,
    /// Everyone the consequences fall on (a ritual's participants too).
    pub affected: Vec<String>,
    pub mp_cost: u32,
    pub weave: u32,
    /// The resonance modifier a failure's resonance option carries (+20 or +50).
    #[serde(default)]
    pub resonance_bonus: i64,
    /// The cast's target and when it was cast: a partial success's halved spell is put in force
    /// there, its duration running from the cast (absent in choices recorded before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cast_at: Option<GameTime>,
}

/// A failed spell held to fire two rounds later (VSD-9), resolved once its round is over: it fires
/// if the caster concentrated through both rounds, as a success at the lowest band, else it fizzles
/// and costs nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DelayedResolved {
    pub caster: String,
    pub spell: String,
    pub target: String,
    /// The failed cast that was held.
    pub cast_seq: Seq,
    pub fired: bool,
    pub mp_spent: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save_difficulty: Option<u32>,
    #[serde(default)]
    pub took_hold: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_until: Option<GameTime>,
    /// When a held spell that fired took effect: the end of its second round, from which its
    /// duration runs, also after a save (recorded since 2026-12-02).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub took_effect_at: Option<GameTime>,
    /// The failed cast whose spell was held in this one's place, making it fizzle (VSD-9 ruling: one
    /// held spell at a time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced_by: Option<Seq>,
    /// A bolt or area spell that fired: its attack roll (VSD-14) is still to roll, by `spell
    /// fire` (recorded since payload version 5; a bolt held before fired with none).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attack_due: bool,
}

/// A spell a choice put in force (VSD-5 ruling: a partial success, halved, still takes hold).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InForce {
    pub target: String,
    pub spell: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<GameTime>,
    /// Over half its area.
    #[serde(default)]
    pub half_area: bool,
}

/// A condition placed on a character (VSD-13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionChange {
    pub character: String,
    pub condition: Condition,
    /// `None`: until cleared by the GM.
    pub until: Option<GameTime>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overcast {
    /// ritual, sacrifice or alignment.
    pub method: String,
    pub weaves_over: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub participants: Vec<String>,
    #[serde(default)]
    pub drive_spent: u32,
    #[serde(default)]
    pub soul_damage: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellCast {
    pub caster: String,
    pub spell: String,
    pub target: String,
    pub place: Place,
    pub round: u64,
    pub modifiers: Vec<Modifier>,
    pub lore_bonus: i64,
    /// The open-ended roll before bonus and modifiers.
    pub roll: i64,
    pub total: i64,
    pub outcome: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save_difficulty: Option<u32>,
    /// With a save and a partial result, targets resist automatically.
    #[serde(default)]
    pub auto_resisted: bool,
    pub mp_spent: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overcast: Option<Overcast>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<FailureRoll>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resonance: Option<ResonanceRoll>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Pending>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConditionChange>,
    /// When the spell's effect ends on its target (a spell with a duration that took hold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_until: Option<GameTime>,
    /// The spell took hold on its target now (no save needed).
    #[serde(default)]
    pub took_hold: bool,
    /// The caster's Body fell to 0 or below: consumed by the spell.
    #[serde(default)]
    pub consumed: bool,
    /// An attack roll whose first die showed 01–10 (VSD-14): it ended there and failed (recorded
    /// since 2026-12-05; earlier fumbles read as plain failures).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fumbled: bool,
    /// An instantaneous spell: half of the caster's action in its round (VSD-3), so a second
    /// instantaneous spell may follow in that round (recorded since payload version 5; earlier
    /// casts each took the round's action).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub half_action: bool,
    /// Cast out of turn, in response to an event, as the GM allowed (VSD-3; instantaneous spells
    /// only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub out_of_turn: bool,
    pub dice: Vec<Die>,
}

/// A pending choice resolved, with what it did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceMade {
    pub character: String,
    pub cast_seq: Seq,
    pub chosen: Vec<Choice>,
    /// MPs given back to the caster (keep the MPs, half cost).
    #[serde(default)]
    pub mp_refund: u32,
    /// MPs lost by each affected character.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mp_lost: Vec<(String, u32)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConditionChange>,
    /// A spell that will fire later (failure: fires 2 rounds later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fires_at_round: Option<u64>,
    /// A resonance roll the choice called for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resonance: Option<ResonanceRoll>,
    /// The spell put in force by the choice (a partial success's half duration or half area).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_force: Option<InForce>,
    /// A further choice (the GM's, after such a resonance roll).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
    /// The failed spell fired on another target (VSD-9 ruling); recorded since 2026-12-02.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub struck: Option<Struck>,
    pub dice: Vec<Die>,
}

/// A failed spell that fired on another target than the one it was cast at (VSD-9): as a success
/// at the lowest band, like a held spell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Struck {
    pub spell: String,
    /// Who it struck: a character of the campaign, or anyone in words.
    pub target: String,
    /// The MPs its firing spent (none when the MPs were lost by the other pick).
    pub mp_spent: u32,
    /// The save its target makes (50, the lowest band), when the spell allows one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save_difficulty: Option<u32>,
    /// When it was cast: its duration runs from then.
    pub cast_at: GameTime,
    /// A bolt or area spell: its attack roll at the one it struck (VSD-14) is still to roll, by
    /// `spell fire` (recorded since payload version 5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attack_due: bool,
}

/// The attack roll of a bolt or area spell that fired after its cast failed (VSD-9, VSD-14): held
/// two rounds, or struck another target. Open-ended d100 + Spell Lore bonus + modifiers − the
/// target's Defense; a first die of 01–10 is a fumble, which misses (the cast's failure was
/// already rolled).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackRolled {
    pub caster: String,
    pub spell: String,
    pub target: String,
    /// The failed cast whose spell fired.
    pub cast_seq: Seq,
    pub modifiers: Vec<Modifier>,
    pub lore_bonus: i64,
    /// The open-ended roll before bonus and modifiers.
    pub roll: i64,
    pub total: i64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fumbled: bool,
    pub dice: Vec<Die>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaveRolled {
    pub target: String,
    pub against: Seq,
    pub spell: String,
    pub caster: String,
    pub difficulty: u32,
    pub wsr: i64,
    pub roll: i64,
    pub total: i64,
    pub resisted: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_until: Option<GameTime>,
    pub dice: Vec<Die>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Severed {
    pub character: String,
    pub cast_seq: Seq,
    /// How many times the thread has now been severed for this resonance.
    pub severs: u32,
    pub resonance: ResonanceRoll,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
    pub dice: Vec<Die>,
}

/// The magic points a rest gave one caster back (VSD-6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MpRestored {
    pub character: String,
    pub restored: u32,
}

impl crate::systems::contract::event::Share for MpRestored {
    fn character(&self) -> &str {
        &self.character
    }
}

/// What a spell learned is, kept with the character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellLearned {
    pub character: String,
    pub spell: SpellDef,
}

crate::systems::contract::event::event_enum! {
    /// Against the Darkmaster's events: spells, saves, resonance, conditions.
    VsdEvent / VsdEventOfKind = "VsdEvent" {
    SpellLearned(SpellLearned),
    /// One round of concentration on a spell (VSD-3).
    Concentrated {
        character: String,
        spell: String,
        round: u64,
    },
    ConcentrationInterrupted {
        character: String,
    },
    SpellCast(SpellCast),
    ChoiceMade(ChoiceMade),
    /// A failed spell held two rounds fires or fizzles (VSD-9 ruling).
    DelayedSpellResolved(DelayedResolved),
    SaveRolled(SaveRolled),
    /// The attack roll of a bolt that fired after its cast failed (VSD-9, VSD-14).
    AttackRolled(AttackRolled),
    ThreadSevered(Severed),
    AlignmentSet {
        alignment: Alignment,
    },
    SeverTheThreadSet {
        on: bool,
    },
    DriveChanged {
        character: String,
        delta: i64,
        reason: String,
    },
    ConditionCleared {
        character: String,
        condition: Condition,
    },
    /// The GM's word that an assailed caster passed an Assessment Roll, which ends the condition
    /// (VSD-10 ruling), naming the free roll that was made for it, if one was.
    AssessmentPassed {
        character: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<Seq>,
    },
}
}

/// The concerns every event answers (as the core's events do), for Against the Darkmaster's own.
impl crate::systems::contract::event::SystemEvent for VsdEvent {
    fn kind(&self) -> &'static str {
        match self {
            VsdEvent::SpellLearned(_) => "spell_learned",
            VsdEvent::Concentrated { .. } => "concentrated",
            VsdEvent::ConcentrationInterrupted { .. } => "concentration_interrupted",
            VsdEvent::SpellCast(_) => "spell_cast",
            VsdEvent::ChoiceMade(_) => "choice_made",
            VsdEvent::DelayedSpellResolved(_) => "delayed_spell_resolved",
            VsdEvent::SaveRolled(_) => "save_rolled",
            VsdEvent::AttackRolled(_) => "attack_rolled",
            VsdEvent::ThreadSevered(_) => "thread_severed",
            VsdEvent::AlignmentSet { .. } => "alignment_set",
            VsdEvent::SeverTheThreadSet { .. } => "sever_the_thread_set",
            VsdEvent::DriveChanged { .. } => "drive_changed",
            VsdEvent::ConditionCleared { .. } => "condition_cleared",
            VsdEvent::AssessmentPassed { .. } => "assessment_passed",
        }
    }

    fn mentions(&self, is: &mut dyn FnMut(&str) -> bool) -> bool {
        match self {
            VsdEvent::SpellLearned(l) => is(&l.character),
            VsdEvent::Concentrated { character, .. }
            | VsdEvent::ConcentrationInterrupted { character }
            | VsdEvent::DriveChanged { character, .. }
            | VsdEvent::ConditionCleared { character, .. }
            | VsdEvent::AssessmentPassed { character, .. } => is(character),
            VsdEvent::SpellCast(c) => is(&c.caster) || is(&c.target),
            VsdEvent::ChoiceMade(c) => is(&c.character),
            VsdEvent::DelayedSpellResolved(d) => is(&d.caster) || is(&d.target),
            VsdEvent::SaveRolled(s) => is(&s.target) || is(&s.caster),
            VsdEvent::AttackRolled(a) => is(&a.caster) || is(&a.target),
            VsdEvent::ThreadSevered(s) => is(&s.character),
            // The campaign's bookkeeping and free rolls name no character.
            VsdEvent::AlignmentSet { .. } | VsdEvent::SeverTheThreadSet { .. } => false,
        }
    }

    fn actions(&self) -> Vec<crate::systems::contract::event::Action<'_>> {
        use crate::systems::contract::event::Action;
        match self {
            // A ritual's participants spend their round concentrating on it (VSD-6).
            VsdEvent::SpellCast(c) => std::iter::once(Action {
                who: &c.caster,
                what: format!("cast {}", c.spell),
                last: false,
                half: c.half_action,
                counted_outside_fights: true,
            })
            .chain(
                c.overcast
                    .iter()
                    .flat_map(|o| &o.participants)
                    .map(|helper| Action {
                        who: helper,
                        what: format!("joined the ritual for {}", c.spell),
                        last: false,
                        half: false,
                        counted_outside_fights: true,
                    }),
            )
            .collect(),
            VsdEvent::Concentrated {
                character, spell, ..
            } => vec![Action {
                who: character,
                what: format!("concentrates on {spell}"),
                last: false,
                half: false,
                counted_outside_fights: true,
            }],
            // A save answers another's spell, and a held spell fires on its own (its attack roll
            // with it): none is a turn.
            VsdEvent::SpellLearned(_)
            | VsdEvent::ConcentrationInterrupted { .. }
            | VsdEvent::SaveRolled(_)
            | VsdEvent::AttackRolled(_)
            | VsdEvent::AlignmentSet { .. }
            | VsdEvent::SeverTheThreadSet { .. }
            | VsdEvent::DriveChanged { .. }
            | VsdEvent::ConditionCleared { .. }
            | VsdEvent::AssessmentPassed { .. }
            | VsdEvent::ChoiceMade(_)
            | VsdEvent::DelayedSpellResolved(_)
            | VsdEvent::ThreadSevered(_) => Vec::new(),
        }
    }

    fn dice(&self) -> &[Die] {
        match self {
            VsdEvent::SpellCast(c) => &c.dice,
            VsdEvent::ChoiceMade(c) => &c.dice,
            VsdEvent::SaveRolled(s) => &s.dice,
            VsdEvent::AttackRolled(a) => &a.dice,
            VsdEvent::ThreadSevered(s) => &s.dice,
            VsdEvent::SpellLearned(_)
            | VsdEvent::DelayedSpellResolved(_)
            | VsdEvent::Concentrated { .. }
            | VsdEvent::ConcentrationInterrupted { .. }
            | VsdEvent::AlignmentSet { .. }
            | VsdEvent::SeverTheThreadSet { .. }
            | VsdEvent::DriveChanged { .. }
            | VsdEvent::ConditionCleared { .. }
            | VsdEvent::AssessmentPassed { .. } => &[],
        }
    }

    /// Undone by a retraction: what a slip of the GM's may have recorded. A choice made, a held
    /// spell resolved and a thread severed stay: they answer pending rolls of the log.
    fn is_retractable(&self) -> bool {
        match self {
            VsdEvent::SpellLearned(_)
            | VsdEvent::Concentrated { .. }
            | VsdEvent::ConcentrationInterrupted { .. }
            | VsdEvent::SpellCast(_)
            | VsdEvent::SaveRolled(_)
            | VsdEvent::AttackRolled(_)
            | VsdEvent::AlignmentSet { .. }
            | VsdEvent::SeverTheThreadSet { .. }
            | VsdEvent::DriveChanged { .. }
            | VsdEvent::ConditionCleared { .. }
            | VsdEvent::AssessmentPassed { .. } => true,
            VsdEvent::ChoiceMade(_)
            | VsdEvent::DelayedSpellResolved(_)
            | VsdEvent::ThreadSevered(_) => false,
        }
    }

    /// Before payload version 5 a bolt that fired after a failed cast had no attack roll, and
    /// every cast took the round's whole action: such an event owes no attack and was no half
    /// action, whatever a forged one says.
    fn read_as_version(self, version: u32) -> Result<Self, String> {
        if version >= ATTACK_DUE_SINCE {
            return Ok(self);
        }
        Ok(match self {
            VsdEvent::SpellCast(mut cast) => {
                cast.half_action = false;
                cast.out_of_turn = false;
                VsdEvent::SpellCast(cast)
            }
            VsdEvent::DelayedSpellResolved(held) => {
                VsdEvent::DelayedSpellResolved(DelayedResolved {
                    attack_due: false,
                    ..held
                })
            }
            VsdEvent::ChoiceMade(mut made) => {
                if let Some(struck) = made.struck.as_mut() {
                    struck.attack_due = false;
                }
                VsdEvent::ChoiceMade(made)
            }
            other => other,
        })
    }

    /// A save answers its cast; what a cast left to settle (its choice, its held spell's end, a
    /// severed thread, a fired bolt's attack) answers that cast.
    fn answers(&self) -> Option<Seq> {
        match self {
            VsdEvent::SaveRolled(save) => Some(save.against),
            VsdEvent::AttackRolled(attack) => Some(attack.cast_seq),
            VsdEvent::ChoiceMade(made) => Some(made.cast_seq),
            VsdEvent::DelayedSpellResolved(held) => Some(held.cast_seq),
            VsdEvent::ThreadSevered(severed) => Some(severed.cast_seq),
            _ => None,
        }
    }

    fn kinds_since() -> &'static [(&'static str, u32)] {
        &[("attack_rolled", ATTACK_DUE_SINCE)]
    }

    /// Every Against the Darkmaster command records its dice in one event.
    fn continues_its_command(&self) -> bool {
        match self {
            VsdEvent::SpellLearned(_)
            | VsdEvent::Concentrated { .. }
            | VsdEvent::ConcentrationInterrupted { .. }
            | VsdEvent::SpellCast(_)
            | VsdEvent::SaveRolled(_)
            | VsdEvent::AttackRolled(_)
            | VsdEvent::AlignmentSet { .. }
            | VsdEvent::SeverTheThreadSet { .. }
            | VsdEvent::DriveChanged { .. }
            | VsdEvent::ConditionCleared { .. }
            | VsdEvent::AssessmentPassed { .. }
            | VsdEvent::ChoiceMade(_)
            | VsdEvent::DelayedSpellResolved(_)
            | VsdEvent::ThreadSevered(_) => false,
        }
    }
}
