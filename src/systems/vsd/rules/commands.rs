//! Against the Darkmaster's commands, one struct each: what `decide` takes. What people type for
//! them, and the help that explains it, is in `systems/vsd/spec.rs`.

use super::{AttackKind, CastOrder, Choice, Condition, SpellDef, SpellKind, Tag};
use crate::seq::Seq;
use crate::systems::vsd::event::{DelayedResolved, SpellCast, Struck};
use crate::time::{GameDuration, GameTime};

/// Record a spell a character knows. Rolls no dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpellLearning {
    /// The character's name (any case).
    pub character: String,
    pub spell: NewSpell,
}

/// A spell as a character learns it; the log keeps it as a [`SpellDef`] under the lore's own name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSpell {
    /// The spell's name, as it will be cast later, e.g. "Fire Bolt".
    pub name: String,
    /// The Spell Lore it belongs to (one of the character's lores).
    pub lore: String,
    /// The spell's Weave, 1 to 50: the MPs it costs unless --mp says otherwise, and the Level needed to cast it without overcasting.
    pub weave: u32,
    /// The spell's kind, which sets its failure modifier (VSD-9).
    pub kind: SpellKind,
    /// Comma-separated: attack, spirit, light, natural, elven, illusory.
    pub tags: Vec<Tag>,
    /// A half action; gains nothing from concentration and is never improvised.
    pub instantaneous: bool,
    /// Unwilling targets get a Willpower save.
    pub save: bool,
    /// A bolt or area spell: an attack roll instead of the casting table.
    pub attack: Option<AttackKind>,
    /// MP cost, when not equal to the Weave.
    pub mp: Option<u32>,
    /// How long it lasts on its target, e.g. 10m or 1h.
    pub duration: Option<GameDuration>,
}

impl NewSpell {
    /// The spell as the log keeps it, filed under `lore` (the lore's name as the sheet spells it).
    pub(super) fn into_def(self, lore: String) -> SpellDef {
        SpellDef {
            name: self.name.trim().to_string(),
            lore,
            weave: self.weave,
            kind: self.kind,
            tags: self.tags,
            instantaneous: self.instantaneous,
            save: self.save,
            attack: self.attack,
            mp: self.mp,
            duration: self.duration,
        }
    }
}

/// A round spent concentrating on a spell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Concentration {
    /// The character's name (any case).
    pub character: String,
    /// The spell, as the character learned it (any case).
    pub spell: String,
}

/// Cast a known spell: an open-ended d100 + Spell Lore bonus + modifiers on the casting table (or, for
/// bolt and area spells, an attack roll less the target's Defense). MPs are spent on a success or
/// partial success. A double on the first die (11, 22 … 99) brings a magical resonance roll.
///
/// Dice, in order: for --overcast sacrifice one d10 per Weave above Level (soul damage, +1 each); the
/// open-ended d100 (another d100 after 96-100, or after 01-05, and on while 96-100); on a failure the
/// d100 failure roll; on resonance the d100 resonance roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Casting {
    /// The character's name (any case).
    pub character: String,
    /// The spell, as the character learned it (any case).
    pub spell: String,
    pub order: CastOrder,
}

/// Resolve a pending choice: the caster's after a partial or outstanding success or a failure, or the
/// GM's pick after a resonance result. `character show` lists what is pending.
///
/// Dice: a d100 resonance roll if "resonance" is chosen; 1d10 rounds for the GM's "scorched".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choosing {
    /// The character's name (any case).
    pub character: String,
    /// The option picked (two where the result offers two, e.g. an outstanding success).
    pub choices: Vec<Choice>,
    /// Who a failed spell strikes instead, with "other-target" (VSD-9).
    pub target: Option<String>,
}

/// Roll the attack of a bolt or area spell that fired after its cast failed (held two rounds, or
/// struck another target): open-ended d100 + Spell Lore bonus + modifiers − the target's Defense,
/// for the GM to read on the attack table. `character show` lists the attacks still to roll.
///
/// Dice: the open-ended d100 (another after 96-100, and on while 96-100; a first die of 01-10 is
/// a fumble, which misses).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Firing {
    /// The caster's name (any case).
    pub character: String,
    /// The failed cast whose bolt this is (#SEQ): needed when the caster owes more than one.
    pub cast: Option<Seq>,
    /// How far the target stands when the spell fires.
    pub range: super::Range,
    pub gm_modifier: i64,
    /// The target's Defense, for a target who is not a character here.
    pub defense: Option<i64>,
}

/// A Willpower save against a cast: open-ended d100 + WSR must beat the cast's save difficulty.
///
/// Dice: the open-ended d100.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveRoll {
    /// The target: a character (whose WSR is used) or anyone, with --wsr.
    pub target: String,
    /// The target's Willpower save bonus, for a target who is not a character here.
    pub wsr: Option<i64>,
    /// The cast's event number (#SEQ in `grimoire log`); `--against` is the older spelling.
    pub against: Seq,
    /// What `against` holds, with the in-game time the event was recorded, read from the log
    /// inside the write; `None` when that event is neither a cast nor a held spell's end.
    pub cast: Option<(Answered, GameTime)>,
}

/// What a save can answer (VSD-7): a cast, or a held spell firing (VSD-9), which takes hold as
/// the lowest band of success with its save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answered {
    Cast(Box<SpellCast>),
    Held(DelayedResolved),
    /// A failed spell that struck another target (VSD-9), as its caster's choice recorded it.
    Struck {
        caster: String,
        struck: Struck,
    },
}

/// Change a character's Drive, e.g. `drive Mira +1 --reason "a heroic deed"`. Rolls no dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriveChange {
    /// The character's name (any case).
    pub character: String,
    /// The change, e.g. +1 or -2.
    pub delta: i64,
    /// Why, in a few words; kept in the log.
    pub reason: String,
}

/// What to do with a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConditionAction {
    Clear,
}

crate::words::words!(ConditionAction { Clear => "clear" });

/// End a condition now, e.g. `condition Mira clear stunned` (the GM's call). Rolls no dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionClearing {
    /// The character's name (any case).
    pub character: String,
    /// What to do with the condition.
    pub action: ConditionAction,
    /// The condition.
    pub condition: Condition,
}

/// The GM's word that an assailed caster passed an Assessment Roll (VSD-10 ruling): the condition
/// ends. Rolls no dice; a roll made for it first (`roll … --character NAME`) is named with `roll`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assessment {
    /// The character's name (any case).
    pub character: String,
    /// The free roll made for it (#SEQ in `grimoire log`), if one was.
    pub roll: Option<Seq>,
    /// That roll as the log holds it, read inside the write.
    pub rolled:
        Option<crate::systems::contract::rules::Logged<crate::systems::vsd::event::VsdEvent>>,
}
