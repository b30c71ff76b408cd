//! A Dungeon Game's commands, one struct each: what `decide` takes. What people type for them,
//! and the help that explains it, is in `systems/adg/spec.rs`; the GM's sealed dice are attached
//! by `grimoire::Campaign` inside the write.

use super::{Attribute, CastTime, ExactChoice, ImportedSpell, Pay, Reverse, RitualKind};
use crate::dice::SealedSecret;
use crate::seq::Seq;
use crate::systems::adg::event::EffectKind;
use crate::time::GameDuration;

/// Try to learn a ritual (ADG-R3): pay the cost permanently, then roll a d20 at or under Cunning.
/// Failure loses the ritual forever; a maximum brought to 0 kills the character.
///
/// Dice, in order: the 1d3 cost (none for a spell with --spell-level 1 or more, which costs its level),
/// then the d20 learning check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learning {
    /// The character's name (any case).
    pub character: String,
    /// The ritual, e.g. "Concealing Darkness" (as discovered), or a spell's name.
    pub ritual: String,
    /// The ritual's type; for a spell from another game it is worked out from --cast-time and --duration.
    pub kind: Option<RitualKind>,
    /// What pays the cost: maximum health or one attribute's maximum.
    pub pay: Pay,
    /// If the check fails, exert exactly the Cunning needed to succeed (when Cunning stays at 1 or more).
    pub exert: bool,
    /// A spell from another game: its level (0 if it has none).
    pub spell_level: Option<u32>,
    /// The spell's casting time: action, 1r (one round), 3r (rounds), or 10m, 1h, … for longer.
    pub cast_time: Option<CastTime>,
    /// The spell's duration: instant, or 5m, 1h, 1d, …
    pub duration: Option<SpellDuration>,
}

impl Learning {
    /// The spell from another game being learned, if it is one (ADG-R10).
    pub fn spell(&self) -> Option<ImportedSpell> {
        self.spell_level.map(|level| ImportedSpell {
            level,
            cast_time: self.cast_time.unwrap_or(CastTime::Longer),
            duration: self.duration.and_then(|d| d.0),
        })
    }
}

/// How long a spell from another game lasts; `None` for an instantaneous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpellDuration(pub Option<GameDuration>);

/// Cast a known ritual (ADG-R4 to ADG-R9): a d20 at or under current Cunning. An exact roll doubles
/// duration or effect; a failure brings a mishap (2d6 + the difference). Beyond the safe number per
/// day, the k-th extra ritual first costs k Cunning, and a mishap on it locks the caster out until a
/// night's rest.
///
/// Dice, in order: 1d3 Cunning if both words are reversed, the d20 casting check, then on success
/// Level d6 (with --effect), or on failure the mishap's 2d6 followed by the dice its entry needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Casting {
    /// The character's name (any case).
    pub character: String,
    /// The ritual, as the character knows it (any case).
    pub ritual: String,
    pub order: CastOrder,
}

/// The options of one casting.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CastOrder {
    /// Reverse one word (free) or both (costs 1d3 Cunning first).
    pub reverse: Option<Reverse>,
    /// Damage taken earlier this combat round: the roll must then also be above it.
    pub damage_taken: Option<u32>,
    /// The caster moved this round (casting is then refused).
    pub moved: bool,
    /// The ritual damages or heals: roll Level d6 against --target.
    pub effect: Option<EffectKind>,
    /// Who the damage or healing goes to (a character's name updates their health).
    pub target: Option<String>,
    /// On an exact roll, double the duration (default) or the effect.
    pub exact: Option<ExactChoice>,
    /// If the check fails, exert exactly the Cunning needed to succeed.
    pub exert: bool,
    /// A Sigil drawn to go off later: "at will", or the condition that sets it off.
    pub when: Option<String>,
    /// How long a Ceremony took to perform: an hour or more (an hour when not given).
    pub took: Option<GameDuration>,
}

/// Set off a Sigil its maker drew to wait (ADG-R1): its effect begins now.
///
/// Dice: with a damage or healing effect, Level d6 (twice as many on an exact effect).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigilTrigger {
    /// The character who drew it (any case).
    pub character: String,
    /// The ritual drawn (any case); of several such Sigils waiting, the first drawn goes off.
    pub ritual: String,
}

/// Exert an attribute (ADG-C3): its current value drops until recovered. Refused if it would go
/// below 1. Rolls no dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exertion {
    /// The character's name (any case).
    pub character: String,
    /// The attribute exerted.
    pub attribute: Attribute,
    /// How many points, 1 to 100.
    pub amount: u32,
    /// Why, in a few words; kept in the log.
    pub reason: String,
}

/// Spend one downtime week writing a scroll of a known ritual (ADG-S1 to ADG-S4): the clock moves 7
/// days, silver is paid from the cost table (by SL and the ritual's type), and exertion does not
/// recover that week. The scroll's id is printed (S and the event number).
///
/// The week's seven nights heal by the writer's recovery die and end the daily ritual count and any
/// lockout; exerted points do not recover while scribing.
///
/// Dice: for a Ceremony only, the GM's sealed d20 check (revealed when the scroll is first used),
/// then one recovery die per night, seven in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scribing {
    /// The character's name (any case).
    pub character: String,
    /// The ritual, as the character knows it (any case).
    pub ritual: String,
    /// Scroll Level, 1 up to the writer's level.
    pub level: u32,
    /// The exact effect, fixed now.
    pub effect: String,
    /// If the scroll damages or heals: it rolls SL d6 when read.
    pub effect_roll: Option<EffectKind>,
    /// Ceremony only: Cunning exerted before the GM's check, spent whatever happens.
    pub pre_exert: u32,
    /// The effect lasts once read: 10 minutes × SL on the reader's sheet. A Sigil's or a
    /// Ceremony's effect lasts anyway.
    pub ongoing: bool,
}

/// Read a scroll (anyone can; it uses none of the daily rituals). In combat it takes the whole round.
///
/// Dice, in order: with --took-damage an Agility save d20 and, if failed, the damaged-scrolls d20 and
/// its entry's dice; for a damage or healing scroll without a sealed check, SL d6; then, unless
/// damaged, the reuse d20. A Ceremony scroll's sealed check is opened and recorded, and what depends
/// on it (a mishap, or the damage or healing) waits for `scroll resolve`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScrollReading {
    /// The character's name (any case).
    pub character: String,
    /// The scroll's id (S12 or 12).
    pub scroll: Seq,
    /// Read in combat: it takes the whole round and the reader acts last.
    pub in_combat: bool,
    /// The reader took damage this round (implies --in-combat).
    pub took_damage: bool,
    /// Who the damage or healing goes to (default: the reader, for healing).
    pub target: Option<String>,
    /// The GM's secret for a Ceremony scroll's sealed check.
    pub sealed: Vec<SealedSecret>,
}

/// Learn the ritual on a scroll one holds (ADG-S8): as `ritual learn`, with an extra d20 after the cost
/// — strictly between SL and Cunning continues, otherwise the scroll is cast by accident first.
///
/// Dice, in order: the 1d3 cost, the scroll d20, any accidental reading's dice, the d20 learning check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScrollLearning {
    /// The character's name (any case).
    pub character: String,
    /// The scroll's id (S12 or 12).
    pub scroll: Seq,
    /// What pays the cost: maximum health or one attribute's maximum.
    pub pay: Pay,
    /// If the learning check fails, exert exactly the Cunning needed to succeed (when Cunning stays at 1 or more).
    pub exert: bool,
    /// The GM's secret for a Ceremony scroll's sealed check (an accidental reading opens it).
    pub sealed: Vec<SealedSecret>,
}

/// Record silver gained or spent (ADG-C2): loot, pay, anything bought but a scroll (writing one pays
/// its own cost). Spending more than the purse holds is refused. Rolls no dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SilverChange {
    /// The character's name (any case).
    pub character: String,
    /// The change, e.g. +30 (gained) or -12 (spent).
    pub delta: i64,
    /// Why, in a few words; kept in the log.
    pub reason: String,
}

/// The most silver a purse holds (as the sheet allows): far past any campaign, and far from
/// overflowing any sum.
pub const MAX_SILVER: i64 = crate::systems::adg::sheet::PURSE_MAX as i64;

/// A scroll handed to another character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScrollGift {
    /// The scroll's id (S12 or 12).
    pub scroll: Seq,
    /// The character who receives it (any case).
    pub to: String,
}
