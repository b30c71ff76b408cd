//! The circumstances a caster gives for one casting: range, place, overcasting.

use super::VsdError;
use crate::systems::vsd::event::Place;

/// Distance to the target. The casting table (VSD-4) and the attack table (VSD-14) band it
/// differently, so the distance itself is given and each table finds its band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    Touch,
    Metres(u32),
    /// Further than any band: over 90 m.
    Far,
}

impl Default for Range {
    fn default() -> Range {
        Range::Metres(15)
    }
}

impl std::str::FromStr for Range {
    type Err = String;

    /// `touch`, `far`, or metres: `12` (the old band words 3, 15, 30 and 90 are distances too).
    fn from_str(text: &str) -> Result<Range, String> {
        let text = text.trim().to_lowercase();
        match text.as_str() {
            "touch" => Ok(Range::Touch),
            "far" => Ok(Range::Far),
            metres => metres
                .trim_end_matches('m')
                .trim()
                .parse()
                .map(Range::Metres)
                .map_err(|_| {
                    format!("'{text}' is not a distance; give metres (e.g. 12), touch or far")
                }),
        }
    }
}

impl Range {
    /// VSD-4: the casting table's range modifier.
    pub(super) fn casting_modifier(self) -> i64 {
        match self {
            Range::Touch => 30,
            Range::Metres(0..=3) => 10,
            Range::Metres(4..=15) => 0,
            Range::Metres(16..=30) => -10,
            Range::Metres(31..=90) => -20,
            Range::Metres(_) | Range::Far => -30,
        }
    }

    /// VSD-14 ruling: an attack spell's own range table; `None` beyond 30 m, out of range.
    pub(super) fn attack_modifier(self) -> Option<i64> {
        match self {
            Range::Touch | Range::Metres(0..=3) => Some(35),
            Range::Metres(4..=10) => Some(10),
            Range::Metres(11..=20) => Some(0),
            Range::Metres(21..=30) => Some(-20),
            Range::Metres(_) | Range::Far => None,
        }
    }

    pub(super) fn words(self) -> String {
        match self {
            Range::Touch => "touch".into(),
            Range::Metres(m) => format!("{m} m"),
            Range::Far => "over 90 m".into(),
        }
    }
}

/// How a caster reaches a Weave above their Level (VSD-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OvercastMethod {
    /// Other casters who know the spell join in.
    Ritual,
    /// The caster spends Drive and takes soul damage.
    Sacrifice,
}

crate::words::words!(OvercastMethod {
    Ritual => "ritual",
    Sacrifice => "sacrifice",
});

/// An overcasting as the rules weigh it: a ritual's other casters, or a sacrifice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OvercastOrder {
    Ritual(Vec<String>),
    Sacrifice,
}

/// The circumstances of one casting.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CastOrder {
    /// Who the spell is aimed at: a character (any case) or anyone else, e.g. "the troll".
    pub target: String,
    /// Distance to the target in metres (e.g. 12), touch, or far (over 90 m). A casting roll takes
    /// the casting table's band for it (VSD-4); a bolt or area spell its attack table's (VSD-14),
    /// which reaches 30 m.
    pub range: Range,
    /// The target is restrained, unconscious or unaware (+10).
    pub static_target: bool,
    /// Armour movement penalty, after the Armour skill (subtracted).
    pub armor_penalty: u32,
    /// A GM modifier, e.g. --mod -15.
    pub gm_modifier: i64,
    /// The GM's modifier on the failure roll, should the cast fail (VSD-9): what makes a failure
    /// worse (or milder) here, added to the d100 and the spell kind's modifier.
    pub failure_modifier: i64,
    /// The place's effect on resonance (VSD-10).
    pub place: Place,
    /// The caster cannot see the target: the cast is refused.
    pub cannot_see: bool,
    /// The caster cannot speak: the cast is refused.
    pub silenced: bool,
    /// Cast a spell of a Weave above the caster's Level (VSD-12), and how.
    pub overcast: Option<OvercastMethod>,
    /// The other casters of a magic ritual, comma-separated.
    pub with: Vec<String>,
    /// The target's Defense, for a bolt or area spell at a non-player target.
    pub defense: Option<i64>,
    /// Cast out of turn, in response to an event, as the GM allows (an instantaneous spell only).
    pub out_of_turn: bool,
}

impl CastOrder {
    /// The overcasting asked for; a ritual must name its other casters.
    pub(super) fn overcast_order(&self) -> Result<Option<OvercastOrder>, VsdError> {
        match self.overcast {
            None => Ok(None),
            // Other casters join only a ritual: named beside a sacrifice, they would be dropped.
            Some(OvercastMethod::Sacrifice) if !self.with.is_empty() => {
                Err(VsdError::CastersWithoutRitual)
            }
            Some(OvercastMethod::Sacrifice) => Ok(Some(OvercastOrder::Sacrifice)),
            Some(OvercastMethod::Ritual) if self.with.is_empty() => {
                Err(VsdError::RitualWithoutCasters)
            }
            Some(OvercastMethod::Ritual) => Ok(Some(OvercastOrder::Ritual(self.with.clone()))),
        }
    }
}
