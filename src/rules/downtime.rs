//! Downtime weeks (ADG-C5, ADG-S3, VSD-6, T-2): one span for the party or the characters named,
//! the clock moving once, each character with an activity for each week.

use super::RuleError;
use crate::dice::Dice;
use crate::event::Event;
use crate::state::{CampaignState, fold_name};
use crate::systems::contract::event::{Downtime, SystemModel};
use crate::systems::contract::rules::{Planned, SystemRules};

use crate::systems::registry::{AnyWeek, Registered, SystemId, on_system};
use crate::time::GameDuration;
use std::collections::BTreeMap;
use std::str::FromStr;

/// Downtime weeks for the party, or the characters named: one span, each character with an
/// activity for each week (rest unless planned otherwise).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DowntimeWeeks {
    /// Who spends the weeks; omit and give --party for every character able to.
    pub characters: Vec<String>,
    /// Everyone who can, instead of naming them.
    // As for rest: the rules read no names as everyone; the command line asks for the flag.
    pub party: bool,
    /// How many weeks, 1 to 52.
    pub weeks: u32,
    /// One week of one character's, as 'NAME: ACTIVITY'; repeat it for more weeks, which fill
    /// that character's weeks in order (weeks not given are rest). ACTIVITY is `rest`; `scribe RITUAL,
    /// level N[, roll damage|healing][, pre-exert N][, ongoing], effect: TEXT` (A Dungeon Game,
    /// as `scroll write`, the effect last); or the GM's own, `WHAT[: NOTE]`, such as
    /// 'Bryn: training: swordplay with the watch'.
    pub plan: Vec<PlannedWeek>,
}

/// One week of one character's, as planned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedWeek {
    pub character: String,
    pub activity: Planned<AnyWeek>,
}

/// A downtime week: seven days.
const WEEK: GameDuration = GameDuration(7 * 86_400);

const WEEK_FORM: &str = "write a week as 'NAME: ACTIVITY', such as 'Aldric: rest', 'Aldric: scribe Ward, level 1, effect: a door holds shut' or 'Bryn: travel: to the coast'";

impl FromStr for PlannedWeek {
    type Err = String;

    fn from_str(text: &str) -> Result<PlannedWeek, String> {
        let (name, activity) = text
            .split_once(':')
            .map(|(n, a)| (n.trim(), a.trim()))
            .filter(|(n, a)| !n.is_empty() && !a.is_empty())
            .ok_or_else(|| format!("'{text}' names no one or no activity; {WEEK_FORM}"))?;
        let activity = if activity.eq_ignore_ascii_case("rest") {
            Planned::Rest
        } else if let Some(own) = systems_week(name, activity) {
            Planned::Own(own?)
        } else {
            let (what, note) = match activity.split_once(':') {
                Some((what, note)) => (what.trim(), Some(note.trim())),
                None => (activity, None),
            };
            if what.is_empty() {
                return Err(format!(
                    "'{text}' names no activity before its note; {WEEK_FORM}"
                ));
            }
            Planned::Other {
                what: what.to_string(),
                note: note.filter(|n| !n.is_empty()).map(str::to_string),
            }
        };
        Ok(PlannedWeek {
            character: name.to_string(),
            activity,
        })
    }
}

/// The week as a rule system of its own reads it, if one claims it.
fn systems_week(name: &str, activity: &str) -> Option<Result<AnyWeek, String>> {
    SystemId::ALL.iter().find_map(|&system| {
        on_system!(system, SystemId, |S| S::plan_week(name, activity)
            .map(|week| week.map(S::wrap_week)))
    })
}

/// ADG-C5 ruling: a span of downtime weeks, the same weeks for everyone in it. Each character's
/// system spends their weeks; records the span, then what the weeks recorded beside it (a
/// `scroll_written` for each scroll written, in the order of the span's characters and weeks, each
/// scroll's sealed die held in its own event).
pub fn downtime(
    state: &CampaignState,
    span: &DowntimeWeeks,
    dice: &mut Dice<'_>,
) -> Result<Vec<Event>, RuleError> {
    let spending = super::rest::resting(state, &span.characters)?;
    let mut weeks_of: BTreeMap<String, Vec<Planned<AnyWeek>>> = BTreeMap::new();
    for week in &span.plan {
        let who = super::campaign::find(state, &week.character)?;
        if !spending.iter().any(|c| c.name == who.name) {
            // With --party everyone able to is in it: one left out is out for good.
            return Err(match who.is_dead() {
                true => RuleError::Dead(who.name.clone()),
                false => RuleError::NotInDowntime(who.name.clone()),
            });
        }
        let weeks = weeks_of.entry(fold_name(&who.name)).or_default();
        weeks.push(week.activity.clone());
        if weeks.len() > span.weeks as usize {
            return Err(RuleError::TooManyWeeks {
                name: who.name.clone(),
                weeks: span.weeks,
            });
        }
    }
    let mut record = Vec::new();
    let mut after = Vec::new();
    let mut characters = Vec::new();
    for who in spending {
        let mut weeks = weeks_of.remove(&fold_name(&who.name)).unwrap_or_default();
        weeks.resize(span.weeks as usize, Planned::Rest);
        characters.push(on_system!(&who.system, AnyState, |S, mine| {
            let weeks = weeks
                .into_iter()
                .map(|week| week_for::<S>(who, week))
                .collect::<Result<_, _>>()?;
            let mut written = Vec::new();
            let seen = who.as_seen_by::<S>();
            let spent = S::downtime(state, &seen, mine, weeks, &mut record, &mut written, dice)?;
            after.extend(
                written
                    .into_iter()
                    .map(|event| Event::System(S::wrap_event(event))),
            );
            spent
        }));
    }
    let mut events = vec![Event::DowntimeTaken(Downtime {
        weeks: span.weeks,
        by: GameDuration(u64::from(span.weeks) * WEEK.seconds()),
        characters,
        dice: record,
    })];
    events.extend(after);
    Ok(events)
}

/// A week planned for `who`, one of `S`'s characters, as `S` reads it: a week of another system's
/// own is refused.
fn week_for<S: Registered>(
    who: &crate::state::Character,
    week: Planned<AnyWeek>,
) -> Result<Planned<S::Week>, RuleError> {
    Ok(match week {
        Planned::Rest => Planned::Rest,
        Planned::Other { what, note } => Planned::Other { what, note },
        Planned::Own(week) => {
            Planned::Own(S::week(week).map_err(|other| RuleError::WrongSystem {
                name: who.name.clone(),
                plays: who.sheet.system().to_string(),
                needs: on_system!(&other, AnyWeek, |Other, _week| Other::NAME),
            })?)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::adg::event::EffectKind;
    use crate::systems::adg::rules::Scribing;

    fn week(text: &str) -> Result<PlannedWeek, String> {
        text.parse()
    }

    #[test]
    fn t2_given_a_week_as_typed_when_it_is_read_then_rest_scribing_and_the_gms_activities_are_told_apart()
     {
        assert_eq!(week(" Aldric : REST ").unwrap().activity, Planned::Rest);
        let scroll = week(
            "Aldric: Scribe Ward of Fire, level 2, roll damage, pre-exert 1, ongoing, Effect: a ring of fire, 3 m across",
        )
        .unwrap();
        assert_eq!(scroll.character, "Aldric");
        assert_eq!(
            scroll.activity,
            Planned::Own(AnyWeek::Adg(Scribing {
                character: "Aldric".into(),
                ritual: "Ward of Fire".into(),
                level: 2,
                effect: "a ring of fire, 3 m across".into(),
                effect_roll: Some(EffectKind::Damage),
                pre_exert: 1,
                ongoing: true,
            }))
        );
        assert_eq!(
            week("Bryn: training: swordplay with the watch")
                .unwrap()
                .activity,
            Planned::Other {
                what: "training".into(),
                note: Some("swordplay with the watch".into())
            }
        );
        assert_eq!(
            week("Bryn: a job at the docks").unwrap().activity,
            Planned::Other {
                what: "a job at the docks".into(),
                note: None
            }
        );
        // "scribes" is not the keyword: it is the GM's own activity.
        assert!(matches!(
            week("Bryn: scribes' guild dues").unwrap().activity,
            Planned::Other { .. }
        ));
    }

    #[test]
    fn t2_given_a_week_typed_wrong_when_it_is_read_then_the_refusal_says_what_would_be_right() {
        for (text, says) in [
            ("Aldric rest", "'NAME: ACTIVITY'"),
            (": rest", "names no one"),
            ("Aldric:", "no activity"),
            ("Aldric: scribe Ward, level 1", "needs the scroll's effect"),
            ("Aldric: scribe Ward, level 1, effect:  ", "effect is empty"),
            ("Aldric: scribe Ward, effect: x", "needs the Scroll Level"),
            (
                "Aldric: scribe Ward, level two, effect: x",
                "level takes a whole number",
            ),
            (
                "Aldric: scribe Ward, level 1, roll fire, effect: x",
                "damage or healing",
            ),
            (
                "Aldric: scribe Ward, level 1, quickly, effect: x",
                "'quickly' is not part",
            ),
            (
                "Aldric: scribe , level 1, effect: x",
                "names the ritual first",
            ),
            ("Aldric: Scribe", "names the ritual first"),
            ("Mira: :", "names no activity before its note"),
            ("Mira: : a note", "names no activity before its note"),
        ] {
            let refused = week(text).expect_err(text);
            assert!(refused.contains(says), "{text}: {refused}");
        }
    }
}
