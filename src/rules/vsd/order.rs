//! The circumstances a caster gives for one casting: range, place, overcasting.

use crate::event::vsd::Place;

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

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OvercastOrder {
    Ritual(Vec<String>),
    Sacrifice,
}

/// The circumstances of one casting.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CastOrder {
    pub target: String,
    pub range: Range,
    pub static_target: bool,
    /// The armour movement penalty, already adjusted by the Armour skill; subtracted.
    pub armor_penalty: u32,
    /// Any GM modifier.
    pub gm_modifier: i64,
    pub place: Place,
    pub cannot_see: bool,
    pub silenced: bool,
    pub overcast: Option<OvercastOrder>,
    /// The target's Defense for a bolt or area spell (a character's own is used when not given).
    pub defense: Option<i64>,
}
