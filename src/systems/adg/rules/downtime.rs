//! An A Dungeon Game character's weeks of a downtime span (ADG-C5, ADG-S3).

use super::scrolls::scroll_of_the_week;
use super::{Attribute, living_state, tables};
use crate::dice::{Dice, Die};
use crate::rules::RuleError;
use crate::rules::downtime::Planned;
use crate::state::{CampaignState, Character};
use crate::systems::adg::event::{Activity, DowntimeOf, ScrollWritten};
use crate::systems::adg::state::{AdgState, Attributes};

/// One character's weeks, in order, each from where the last left them: a scribing week writes
/// its scroll under `scroll write`'s rules (its sealed die held in the scroll's own event, the
/// span's event being the first), then every week's seven nights heal and end the daily count and
/// any lockout, and a week not spent scribing recovers exertion (both campaign settings). The
/// recovery dice go to `span_dice`; the scrolls are added to `scrolls`.
pub(crate) fn downtime_weeks(
    state: &CampaignState,
    (who, adg): (&Character, &AdgState),
    weeks: Vec<Planned>,
    span_dice: &mut Vec<Die>,
    scrolls: &mut Vec<ScrollWritten>,
    dice: &mut Dice<'_>,
) -> Result<DowntimeOf, RuleError> {
    living_state(who, adg)?;
    let tables = tables(state)?;
    let mut now = adg.clone();
    let mut rolled = 0u32;
    let mut activities = Vec::new();
    let mut restored_exertion = false;
    let written_before = scrolls.len();
    for week in weeks {
        let scribing = matches!(week, Planned::Scribe(_));
        activities.push(match week {
            Planned::Rest => Activity::Rest,
            Planned::Other { what, note } => Activity::Other { what, note },
            Planned::Scribe(scroll) => {
                // The span's own event comes first; each scroll's event follows it, in order.
                dice.hold_in_event(u32::try_from(scrolls.len() + 1).unwrap_or(u32::MAX));
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
            for written in &mut scrolls[written_before..] {
                written.cushion_recovered = written.pre_exert > 0;
            }
        }
    }
    Ok(DowntimeOf {
        character: who.name.clone(),
        activities,
        healed: rolled.min(who.health_room()),
        restored_exertion,
    })
}
