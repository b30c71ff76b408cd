//! An A Dungeon Game character's weeks of a downtime span (ADG-C5, ADG-S3).

use super::Scribing;
use super::Verdict;
use super::scrolls::scroll_of_the_week;
use super::{Attribute, living_state, tables};
use crate::dice::{Dice, Die};
use crate::systems::adg::Adg;
use crate::systems::adg::event::{Activity, AdgEvent, DowntimeOf, EffectKind};
use crate::systems::adg::state::{AdgState, Attributes};
use crate::systems::contract::port::{Someone, View};
use crate::systems::contract::rules::Planned;
use crate::words::Words;

const SCRIBE_PARTS: &str = "the parts are: RITUAL, level N, roll damage|healing, pre-exert N, ongoing, then effect: TEXT last";

/// A scribing week, typed as `scribe RITUAL, level N[, …], effect: TEXT` (T-2); `None` for any
/// other activity.
pub(super) fn plan_week(name: &str, activity: &str) -> Option<Result<Scribing, String>> {
    if let Some(scroll) = strip_word(activity, "scribe") {
        return Some(scribing(name, scroll));
    }
    activity.eq_ignore_ascii_case("scribe").then(|| {
        Err(format!(
            "a scribing week names the ritual first; {SCRIBE_PARTS}"
        ))
    })
}

/// A scribing week as recorded when nothing is written (never: A Dungeon Game spends its own
/// weeks, naming the ritual as the writer knows it).
impl From<Scribing> for Activity {
    fn from(scroll: Scribing) -> Activity {
        Activity::Scribe {
            ritual: scroll.ritual,
            level: scroll.level,
        }
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

/// One character's weeks, in order, each from where the last left them: a scribing week writes
/// its scroll under `scroll write`'s rules (its sealed die held in the scroll's own event, the
/// span's event being the first), then every week's seven nights heal and end the daily count and
/// any lockout, and a week not spent scribing recovers exertion (both campaign settings). The
/// recovery dice go to `span_dice`; the scrolls' events are added to `after`.
pub(super) fn downtime_weeks(
    state: &dyn View<Adg>,
    (who, adg): (Someone<'_, Adg>, &AdgState),
    weeks: Vec<Planned<Scribing>>,
    span_dice: &mut Vec<Die>,
    after: &mut Vec<AdgEvent>,
    dice: &mut Dice<'_>,
) -> Verdict<DowntimeOf> {
    living_state(who, adg)?;
    let mut scrolls = Vec::new();
    let tables = tables(state)?;
    let mut now = adg.clone();
    let mut rolled = 0u32;
    let mut activities = Vec::new();
    let mut restored_exertion = false;
    for week in weeks {
        let scribing = matches!(week, Planned::Own(_));
        activities.push(match week {
            Planned::Rest => Activity::Rest,
            Planned::Other { what, note } => Activity::Other { what, note },
            Planned::Own(scroll) => {
                // The span's own event comes first; each scroll's event follows it, in order.
                let at = after.len() + scrolls.len() + 1;
                dice.hold_in_event(u32::try_from(at).unwrap_or(u32::MAX));
                let written = scroll_of_the_week(who, &now, tables, scroll, dice);
                dice.hold_in_event(0);
                let mut written = written?;
                written.in_downtime = true;
                now.silver -= written.cost;
                now.exert(Attribute::Cunning, written.pre_exert);
                let activity = Activity::Scribe {
                    ritual: written.ritual.clone(),
                    level: written.level,
                };
                scrolls.push(written);
                activity
            }
        });
        rolled = rolled.saturating_add(super::roll_nights(who, &now, tables, 7, span_dice, dice)?);
        now.rituals_today = 0;
        now.locked_out = false;
        if !scribing && tables.settings.downtime_restores_exertion {
            now.exerted = Attributes::default();
            restored_exertion = true;
            // What the character's earlier scribing weeks exerted comes back too.
            for written in &mut scrolls {
                written.cushion_recovered = written.pre_exert > 0;
            }
        }
    }
    after.extend(scrolls.into_iter().map(AdgEvent::ScrollWritten));
    Ok(DowntimeOf {
        character: who.name.to_string(),
        activities,
        healed: rolled.min(who.health_room()),
        restored_exertion,
    })
}
