//! Scrolls (ADG-S1 to ADG-S9): writing over a downtime week, reading, damage, reuse, learning from
//! them and handing them over.

use super::checks::{self, can_exert};
use super::rituals::{cunning_after, may_learn, pays_with_life};
use super::{Attribute, RitualKind, Verdict, living, tables};
use crate::dice::sealed::RevealedDie;
use crate::dice::{Dice, Die, SealedSecret};
use crate::seq::Seq;
use crate::systems::adg::Adg;
use crate::systems::adg::event::AdgEvent;
use crate::systems::adg::event::{
    EffectKind, EffectRoll, LearnAttempt, Nights, PendingOutcome, PendingScrollRoll, Reading,
    ScrollCheck, ScrollOutcome, ScrollWritten,
};
use crate::systems::adg::rules::AdgError;
use crate::systems::adg::state::{AdgState, Scroll};
use crate::systems::adg::tables::AdgTables;
use crate::systems::contract::port::{Decided, Refusal, Refused, Someone, View};
use crate::time::GameDuration;

/// ADG-S3, ADG-S4. Draws: for a Ceremony only, the GM's sealed d20, then the week's seven nights.
pub fn write(
    state: &dyn View<Adg>,
    scribing: super::Scribing,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<AdgEvent>>> {
    let (who, adg) = living(state, &scribing.character)?;
    // A week at the desk does not fit in a fight (T-3).
    if let Some(fight) = state.fight_now() {
        return Err(Refusal::Core(Refused::InAFight(fight)));
    }
    let tables = tables(state)?;
    let mut written = scroll_of_the_week(who, adg, tables, scribing, dice)?;
    // ADG-S3 ruling: the week's seven nights heal (exertion does not recover while scribing).
    let healed = super::nights_heal(who, adg, tables, 7, &mut written.dice, dice)?;
    written.nights = Some(Nights { healed });
    Ok(vec![Decided::Own(AdgEvent::ScrollWritten(written))])
}

/// The writing of a scroll in a week that starts with the writer as `adg` (ADG-S3, ADG-S4): the
/// checks, the cost, and for a Ceremony the GM's sealed d20, the one die drawn here. The week's
/// nights are the caller's to count.
pub(super) fn scroll_of_the_week(
    who: Someone<'_, Adg>,
    adg: &AdgState,
    tables: &AdgTables,
    scribing: super::Scribing,
    dice: &mut Dice<'_>,
) -> Verdict<ScrollWritten> {
    let super::Scribing {
        character: _,
        ritual,
        level,
        effect,
        effect_roll,
        pre_exert,
        ongoing,
    } = scribing;
    let known = super::rituals::known_ritual(who, adg, &ritual)?;
    if adg.locked_out {
        return Err(Refusal::Own(AdgError::LockedOut(who.name.to_string())));
    }
    if level == 0 || level > adg.level {
        return Err(Refusal::Own(AdgError::ScrollLevel {
            name: who.name.to_string(),
            level,
            max: adg.level,
        }));
    }
    let cost = tables.scroll_cost(level, known.kind).unwrap_or(0);
    if adg.silver < cost {
        return Err(Refusal::Own(AdgError::NotEnoughSilver {
            name: who.name.to_string(),
            has: adg.silver,
            cost,
        }));
    }
    let ceremony = known.kind == RitualKind::Ceremony;
    if pre_exert > 0 {
        if !ceremony {
            return Err(Refusal::Own(AdgError::NothingToExertFor));
        }
        can_exert(adg, Attribute::Cunning, pre_exert)?;
    }
    let mut record = Vec::new();
    if ceremony {
        let (die, _) =
            dice.roll_sealed(20, "the GM's sealed Cunning check for a Ceremony scroll")?;
        record.push(die);
    }
    Ok(ScrollWritten {
        writer: who.name.to_string(),
        ritual: known.name.clone(),
        level,
        effect,
        effect_roll,
        original_kind: known.kind,
        cost,
        pre_exert,
        cunning: adg.current(Attribute::Cunning),
        dice: record,
        ongoing,
        nights: None,
        in_downtime: false,
        cushion_recovered: false,
    })
}

/// ADG-S2 (ruling): a turn is 10 minutes.
const TURN_SECONDS: u64 = 600;

/// A scroll that can still be used, or why not.
fn usable(state: &dyn View<Adg>, id: Seq) -> Verdict<&Scroll> {
    if let Some(fate) = state.campaign().spent_scrolls.fate(id) {
        return Err(Refusal::Own(AdgError::ScrollUnusable {
            id,
            state: crate::words::Words::word(fate).to_string(),
        }));
    }
    state
        .campaign()
        .scrolls
        .get(&id)
        .ok_or(Refusal::Own(AdgError::NoSuchScroll(id)))
}

fn held<'s>(state: &'s dyn View<Adg>, reader: &str, id: Seq) -> Verdict<&'s Scroll> {
    let scroll = usable(state, id)?;
    if !crate::words::same_name(&scroll.holder, reader) {
        return Err(Refusal::Own(AdgError::ScrollNotHeld {
            id,
            holder: scroll.holder.clone(),
        }));
    }
    Ok(scroll)
}

/// The sealed check of a Ceremony scroll, opened with the GM's secret: (value, die to reveal).
fn open_seal(
    state: &dyn View<Adg>,
    scroll: &Scroll,
    secrets: &[SealedSecret],
) -> Verdict<Option<RevealedDie>> {
    if !scroll.sealed_check {
        return Ok(None);
    }
    let pending = state
        .sealed_pending(scroll.id)
        .and_then(|p| p.first())
        .ok_or(Refused::NothingSealed(scroll.id))?;
    let opened = crate::systems::contract::rules::open_seal(scroll.id, pending, secrets)?;
    Ok(Some(opened))
}

/// How a scroll is read: in combat (an Agility save first), after damage this round, at whom.
struct Circumstances {
    in_combat: bool,
    took_damage: bool,
    target: Option<String>,
}

/// Reads a scroll (also the accidental cast of ADG-S8). Draws, in order: the Agility save (after
/// damage), the damaged-scrolls d20, the mishap's 2d6 and dice (a badly written Ceremony) or the SL d6s
/// (a damage or healing scroll), and the reuse d20 (unless damaged).
fn reading(
    state: &dyn View<Adg>,
    reader: &str,
    scroll: &Scroll,
    circumstances: Circumstances,
    seal: Option<u32>,
    record: &mut Vec<Die>,
    dice: &mut Dice<'_>,
) -> Verdict<Reading> {
    let Circumstances {
        in_combat,
        took_damage,
        target,
    } = circumstances;
    let (who, adg) = living(state, reader)?;
    let tables = tables(state)?;
    let mut out = Reading {
        scroll: scroll.id,
        reader: who.name.to_string(),
        in_combat,
        agility_save: None,
        damaged: None,
        writing_check_passed: None,
        mishap: None,
        effect: None,
        reuse_roll: None,
        kept: false,
        pending: None,
        ongoing_until: None,
    };
    let mut room = adg.exertion_room();
    if took_damage {
        // ADG-S6: a saving throw, never exerted.
        let save = checks::check(
            dice,
            record,
            Attribute::Agility,
            adg.current(Attribute::Agility),
            false,
            None,
            "Agility save while reading",
        )?;
        if !save.success {
            let roll = checks::roll(dice, record, 20, "damaged scroll d20")?;
            let total = i64::from(roll) + i64::from(scroll.level);
            out.damaged = Some(checks::resolve_entry(
                dice,
                record,
                tables,
                tables.damaged_scroll(total),
                total,
                None,
                &mut room,
            )?);
        }
        out.agility_save = Some(save);
    }
    // ADG-S4: the check passed when roll − Cunning ≤ the points exerted ahead. A failure's mishap uses
    // the shortfall the buffer did not cover; a check opened and failed before stays failed, so
    // every later reading (or accidental cast) misfires the same way.
    let shortfall = seal
        .map(|roll| i64::from(roll) - i64::from(scroll.cunning) - i64::from(scroll.pre_exert))
        .or(scroll.bad_writing.map(i64::from));
    out.writing_check_passed = shortfall.map(|s| s <= 0);
    // ADG-S2: an ongoing effect lasts 1 turn (10 minutes) × SL, unless a bad writing misfires.
    if scroll.ongoing && out.writing_check_passed != Some(false) {
        out.ongoing_until = Some(
            state
                .clock()
                .after(GameDuration(TURN_SECONDS * u64::from(scroll.level))),
        );
    }
    let effect_target = |kind: EffectKind| match target {
        Some(t) => t,
        None if kind == EffectKind::Healing => who.name.to_string(),
        None => "its target".to_string(),
    };
    match shortfall {
        // Whether a mishap or the effect follows, and so how many dice, depends on the sealed
        // check: drawn here, a refused command would tell the check before the log opens it. They
        // wait on the reader until the next command (`scroll resolve`).
        Some(s) => {
            let outcome = if s > 0 {
                Some(PendingOutcome::Mishap {
                    difference: u32::try_from(s).unwrap_or(u32::MAX),
                })
            } else {
                scroll.effect_roll.map(|kind| PendingOutcome::Effect {
                    kind,
                    target: effect_target(kind),
                    level: scroll.level,
                })
            };
            out.pending = outcome.map(|outcome| PendingScrollRoll {
                scroll: scroll.id,
                ritual: scroll.ritual.clone(),
                outcome,
            });
        }
        None => {
            if let Some(kind) = scroll.effect_roll {
                let amount = checks::d6s(dice, record, scroll.level, "scroll damage or healing")?;
                out.effect = Some(EffectRoll {
                    kind,
                    target: effect_target(kind),
                    amount,
                });
            }
        }
    }
    if out.damaged.is_none() {
        // ADG-S7: kept when the d20 lands between Cunning and SL, both ends included.
        let roll = checks::roll(dice, record, 20, "scroll reuse d20")?;
        let cunning = adg.current(Attribute::Cunning);
        out.kept = (cunning.min(scroll.level)..=cunning.max(scroll.level)).contains(&roll);
        out.reuse_roll = Some(roll);
    }
    Ok(out)
}

pub fn read(
    state: &dyn View<Adg>,
    order: &super::ScrollReading,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<AdgEvent>>> {
    let (name, id, secrets) = (order.character.as_str(), order.scroll, &order.sealed);
    let (who, _) = living(state, name)?;
    super::free_to_act(state, who.name)?;
    let scroll = held(state, who.name, id)?;
    // A target is whom the scroll's damage or healing goes to; a scroll with none would drop it.
    if order.target.is_some() && scroll.effect_roll.is_none() {
        return Err(Refusal::Own(AdgError::TargetWithoutRoll(id)));
    }
    if let Some(target) = order.target.as_deref() {
        super::reachable(state, target)?;
    }
    let seal = open_seal(state, scroll, secrets)?;
    let mut record = Vec::new();
    // Damage taken this round means a fight is on, whether or not --in-combat was given; in a
    // fight counted by the round, the reading is in combat and the damage the log holds against
    // the reader this round counts (T-3).
    let took_damage = order.took_damage || super::damage_this_round(state, who.name).is_some();
    let circumstances = Circumstances {
        in_combat: order.in_combat || took_damage || state.fight_now().is_some(),
        took_damage,
        target: order
            .target
            .as_deref()
            .map(|t| state.as_recorded(t))
            .transpose()?,
    };
    let reading = reading(
        state,
        name,
        scroll,
        circumstances,
        seal.as_ref().map(|s| s.value),
        &mut record,
        dice,
    )?;
    // The dice belong to the first event (their seq); the reveal follows it.
    let mut events = vec![Decided::Own(AdgEvent::ScrollRead {
        reading,
        dice: record,
    })];
    if let Some(revealed) = seal {
        events.push(Decided::SealedRevealed {
            seq: id,
            dice: vec![revealed],
        });
    }
    Ok(events)
}

/// ADG-S8. Draws: the 1d3 cost, the scroll d20, any accidental reading's dice, then the learning d20.
pub fn learn(
    state: &dyn View<Adg>,
    learning: &super::ScrollLearning,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<AdgEvent>>> {
    let (id, pay, exert, secrets) = (
        learning.scroll,
        learning.pay,
        learning.exert,
        &learning.sealed,
    );
    let (who, adg) = living(state, &learning.character)?;
    let scroll = held(state, who.name, id)?;
    may_learn(who, adg, &scroll.ritual)?;
    let mut record = Vec::new();
    let cost = checks::roll(dice, &mut record, 3, "learning cost 1d3")?;
    let died = pays_with_life(who, adg, pay, cost);
    let mut attempt = LearnAttempt {
        character: who.name.to_string(),
        ritual: scroll.ritual.clone(),
        words: scroll
            .ritual
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        // A scroll holds its ritual as a Phrase (ADG-S1), so that is the form learned from it.
        ritual_kind: RitualKind::Phrase,
        spell_level: None,
        pay,
        cost,
        from_scroll: None,
        check: None,
        learned: false,
        died,
        dice: Vec::new(),
    };
    let mut reveal = None;
    if !died {
        let cunning = cunning_after(adg, pay, cost);
        let roll = checks::roll(dice, &mut record, 20, "scroll study d20")?;
        let accidental = roll <= scroll.level || roll >= cunning;
        let accident = if accidental {
            let seal = open_seal(state, scroll, secrets)?;
            let value = seal.as_ref().map(|s| s.value);
            reveal = seal;
            let unhurried = Circumstances {
                in_combat: false,
                took_damage: false,
                target: None,
            };
            Some(reading(
                state,
                &learning.character,
                scroll,
                unhurried,
                value,
                &mut record,
                dice,
            )?)
        } else {
            None
        };
        attempt.from_scroll = Some(ScrollCheck {
            scroll: id,
            roll,
            accidental,
            reading: accident,
        });
        let check = checks::check(
            dice,
            &mut record,
            Attribute::Cunning,
            cunning,
            exert,
            None,
            "learning check",
        )?;
        attempt.learned = check.success;
        attempt.check = Some(check);
    }
    attempt.dice = record;
    let mut events = vec![Decided::Own(AdgEvent::RitualLearnAttempted(attempt))];
    if let Some(revealed) = reveal {
        events.push(Decided::SealedRevealed {
            seq: id,
            dice: vec![revealed],
        });
    }
    Ok(events)
}

/// ADG-S4: rolls what a reading left pending on `name` once its sealed check was open. Draws: the
/// mishap's 2d6 and the dice of its entry, or the SL d6s of damage or healing.
pub fn resolve(
    state: &dyn View<Adg>,
    name: &str,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<AdgEvent>>> {
    let (who, adg) = super::alive(state, name)?;
    let pending = adg
        .pending_roll
        .as_ref()
        .ok_or_else(|| Refusal::Own(AdgError::NothingPending(who.name.to_string())))?;
    let tables = tables(state)?;
    let mut record = Vec::new();
    let mut room = adg.exertion_room();
    let mut unreached = None;
    let (mishap, effect) = match &pending.outcome {
        PendingOutcome::Mishap { difference } => {
            let words: Vec<String> = pending
                .ritual
                .split_whitespace()
                .map(str::to_string)
                .collect();
            let mut mishap = checks::mishap(
                dice,
                &mut record,
                tables,
                *difference,
                Some(&words),
                &mut room,
            )?;
            // A word burned into memory changes only a ritual the reader knows: otherwise it
            // came out wrong this once, and the log must not say "for good".
            if !adg
                .known
                .contains_key(&crate::words::Folded::of(&pending.ritual))
                && let Some(replaced) = mishap.replaced.as_mut()
            {
                replaced.remembered = false;
            }
            (Some(mishap), None)
        }
        // Aimed at someone who has died since the reading: it reaches no one (ADG-C4).
        PendingOutcome::Effect { target, .. } if state.someone(target).is_some_and(|c| c.dead) => {
            unreached = state.someone(target).map(|c| c.name.to_string());
            (None, None)
        }
        PendingOutcome::Effect {
            kind,
            target,
            level,
        } => {
            let amount = checks::d6s(dice, &mut record, *level, "scroll damage or healing")?;
            let effect = EffectRoll {
                kind: *kind,
                target: target.clone(),
                amount,
            };
            (None, Some(effect))
        }
    };
    Ok(vec![Decided::Own(AdgEvent::ScrollOutcomeRolled(
        ScrollOutcome {
            reader: who.name.to_string(),
            scroll: pending.scroll,
            mishap,
            effect,
            unreached,
            dice: record,
        },
    ))])
}

/// ADG-S9: a scroll is an item and changes hands.
pub fn give(state: &dyn View<Adg>, id: Seq, to: &str) -> Verdict<Vec<Decided<AdgEvent>>> {
    let scroll = usable(state, id)?;
    // Anyone may carry a scroll for another (only an A Dungeon Game character can read it); one
    // who holds it already receives nothing.
    let receiver = state.find(to)?;
    if crate::words::same_name(&scroll.holder, receiver.name) {
        return Err(Refusal::Own(AdgError::HoldsAlready {
            name: receiver.name.to_string(),
            id,
        }));
    }
    Ok(vec![Decided::Own(AdgEvent::ScrollGiven {
        scroll: id,
        from: scroll.holder.clone(),
        to: receiver.name.to_string(),
    })])
}
