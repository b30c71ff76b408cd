//! Downtime weeks (ADG-C5, ADG-S3, VSD-6, T-2): one span for the party or the characters named,
//! the clock moving once, each character with an activity for each week.

use super::RuleError;
use crate::dice::Dice;
use crate::event::{Event, Words};
use crate::state::{CampaignState, fold_name};
use crate::systems::adg::Adg;
use crate::systems::adg::event::{Activity, AdgEvent, Downtime, DowntimeOf, EffectKind};
use crate::systems::adg::rules::Scribing;
use crate::systems::adg::state::SCRIBING_WEEK;
use crate::systems::registry::AnyEvent;
use crate::time::GameDuration;
use std::collections::BTreeMap;
use std::str::FromStr;

/// Downtime weeks for the party, or the characters named, together (ADG-C5, T-2): one span, the
/// clock moving once. Each character spends each week on an activity (rest unless --week says
/// otherwise). Every week's seven nights heal A Dungeon Game characters by their recovery die
/// (capped at maximum health) and end the daily ritual count and any lockout; a week not spent
/// scribing recovers exertion (both campaign settings). Scribing follows `scroll write`'s rules,
/// week by week: silver, the ritual known, no lockout at the week's start. Against the Darkmaster
/// characters come out with every MP back, and conditions run out with the clock. Prints where each
/// character stands at the span's end, and the scrolls written.
///
/// Dice: for each A Dungeon Game character in alphabetical order, week by week: a Ceremony
/// scroll's sealed d20 in a week spent writing one, then the week's seven recovery dice.
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args)]
pub struct DowntimeWeeks {
    /// Who spends the weeks; omit and give --party for every character able to.
    #[arg(value_name = "NAMES")]
    pub characters: Vec<String>,
    /// Everyone who can, instead of naming them.
    // As for rest: the rules read no names as everyone; the command line asks for the flag.
    #[arg(long)]
    pub party: bool,
    /// How many weeks, 1 to 52.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=52))]
    pub weeks: u32,
    /// One week of one character's, as 'NAME: ACTIVITY'; repeat it for more weeks, which fill
    /// that character's weeks in order (weeks not given are rest). ACTIVITY is `rest`; `scribe RITUAL,
    /// level N[, roll damage|healing][, pre-exert N][, ongoing], effect: TEXT` (A Dungeon Game,
    /// as `scroll write`, the effect last); or the GM's own, `WHAT[: NOTE]`, such as
    /// 'Bryn: training: swordplay with the watch'.
    #[arg(long = "week", value_name = "NAME: ACTIVITY")]
    pub plan: Vec<PlannedWeek>,
}

/// One week of one character's, as planned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedWeek {
    pub character: String,
    pub activity: Planned,
}

/// What a week is planned for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Planned {
    Rest,
    /// Writing a scroll, as `scroll write` would (its `character` is the week's).
    Scribe(Scribing),
    /// The GM's own: training, travel, a job.
    Other {
        what: String,
        note: Option<String>,
    },
}

const WEEK_FORM: &str = "write a week as 'NAME: ACTIVITY', such as 'Aldric: rest', 'Aldric: scribe Ward, level 1, effect: a door holds shut' or 'Bryn: travel: to the coast'";
const SCRIBE_PARTS: &str = "the parts are: RITUAL, level N, roll damage|healing, pre-exert N, ongoing, then effect: TEXT last";

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
        } else if let Some(scroll) = strip_word(activity, "scribe") {
            Planned::Scribe(scribing(name, scroll)?)
        } else if activity.eq_ignore_ascii_case("scribe") {
            return Err(format!(
                "a scribing week names the ritual first; {SCRIBE_PARTS}"
            ));
        } else {
            let (what, note) = match activity.split_once(':') {
                Some((what, note)) => (what.trim(), Some(note.trim())),
                None => (activity, None),
            };
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

/// `text` without its first word `word` (any case) and the space after it.
fn strip_word<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    let (first, rest) = text.split_once(char::is_whitespace)?;
    first.eq_ignore_ascii_case(word).then(|| rest.trim())
}

/// `RITUAL, level N[, roll K][, pre-exert N][, ongoing], effect: TEXT`: the effect comes last, so
/// it may hold commas of its own.
fn scribing(name: &str, text: &str) -> Result<Scribing, String> {
    const EFFECT: &str = ", effect";
    let at = text
        .char_indices()
        .map(|(at, _)| at)
        .find(|&at| {
            text[at..]
                .get(..EFFECT.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(EFFECT))
        })
        .ok_or_else(|| {
            format!("a scribing week needs the scroll's effect, last; {SCRIBE_PARTS}")
        })?;
    let effect = text[at + EFFECT.len()..]
        .trim_start_matches([':', ' '])
        .trim();
    if effect.is_empty() {
        return Err(format!("the scroll's effect is empty; {SCRIBE_PARTS}"));
    }
    let mut parts = text[..at].split(',').map(str::trim);
    let ritual = parts
        .next()
        .filter(|r| !r.is_empty())
        .ok_or_else(|| format!("a scribing week names the ritual first; {SCRIBE_PARTS}"))?;
    let mut scroll = Scribing {
        character: name.to_string(),
        ritual: ritual.to_string(),
        level: 0,
        effect: effect.to_string(),
        effect_roll: None,
        pre_exert: 0,
        ongoing: false,
    };
    for part in parts {
        let number = |word: &str| {
            strip_word(part, word).map(|n| {
                n.parse::<u32>()
                    .map_err(|_| format!("'{part}': {word} takes a whole number"))
            })
        };
        if let Some(level) = number("level") {
            scroll.level = level?;
        } else if let Some(cushion) = number("pre-exert") {
            scroll.pre_exert = cushion?;
        } else if let Some(kind) = strip_word(part, "roll") {
            scroll.effect_roll = Some(
                EffectKind::ALL
                    .iter()
                    .copied()
                    .find(|k| k.word().eq_ignore_ascii_case(kind))
                    .ok_or_else(|| format!("'{part}': a scroll rolls damage or healing"))?,
            );
        } else if part.eq_ignore_ascii_case("ongoing") {
            scroll.ongoing = true;
        } else {
            return Err(format!(
                "'{part}' is not part of a scribing week; {SCRIBE_PARTS}"
            ));
        }
    }
    if scroll.level == 0 {
        return Err(format!(
            "a scribing week needs the Scroll Level ('level N', 1 up to the writer's level); {SCRIBE_PARTS}"
        ));
    }
    Ok(scroll)
}

/// ADG-C5 ruling: a span of downtime weeks, the same weeks for everyone in it. Records the span,
/// then a `scroll_written` for each scroll written in it, in the order of the span's characters and
/// weeks; each scroll's sealed die is held in its own event.
pub fn downtime(
    state: &CampaignState,
    span: &DowntimeWeeks,
    dice: &mut Dice<'_>,
) -> Result<Vec<Event>, RuleError> {
    let spending = super::rest::resting(state, &span.characters)?;
    let mut weeks_of: BTreeMap<String, Vec<Planned>> = BTreeMap::new();
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
    let mut scrolls = Vec::new();
    let mut characters = Vec::new();
    for who in spending {
        let mut weeks = weeks_of.remove(&fold_name(&who.name)).unwrap_or_default();
        weeks.resize(span.weeks as usize, Planned::Rest);
        characters.push(match who.state::<Adg>() {
            Some(adg) => super::adg::downtime_weeks(
                state,
                (who, adg),
                weeks,
                &mut record,
                &mut scrolls,
                dice,
            )?,
            None => DowntimeOf {
                character: who.name.clone(),
                activities: weeks
                    .into_iter()
                    .map(|week| match week {
                        Planned::Rest => Ok(Activity::Rest),
                        Planned::Other { what, note } => Ok(Activity::Other { what, note }),
                        Planned::Scribe(_) => Err(RuleError::WrongSystem {
                            name: who.name.clone(),
                            plays: who.sheet.system().to_string(),
                            needs: "A Dungeon Game",
                        }),
                    })
                    .collect::<Result<_, _>>()?,
                healed: 0,
                restored_exertion: false,
            },
        });
    }
    let mut events = vec![Event::DowntimeTaken(Downtime {
        weeks: span.weeks,
        by: GameDuration(u64::from(span.weeks) * SCRIBING_WEEK.seconds()),
        characters,
        dice: record,
    })];
    events.extend(
        scrolls
            .into_iter()
            .map(|written| Event::System(AnyEvent::Adg(AdgEvent::ScrollWritten(written)))),
    );
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            Planned::Scribe(Scribing {
                character: "Aldric".into(),
                ritual: "Ward of Fire".into(),
                level: 2,
                effect: "a ring of fire, 3 m across".into(),
                effect_roll: Some(EffectKind::Damage),
                pre_exert: 1,
                ongoing: true,
            })
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
        ] {
            let refused = week(text).expect_err(text);
            assert!(refused.contains(says), "{text}: {refused}");
        }
    }
}
