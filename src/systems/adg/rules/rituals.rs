//! Rituals: discovering, learning, casting (ADG-R1 to ADG-R10), and the night's rest (ADG-C5).

use super::checks::{self, can_exert};
use super::{
    Attribute, Casting, ExactChoice, Pay, Reverse, RitualKind, SigilTrigger, Verdict, living,
    tables,
};
use crate::dice::Dice;
use crate::systems::adg::Adg;
use crate::systems::adg::event::AdgEvent;
use crate::systems::adg::event::{Cast, EffectRoll, LearnAttempt, Triggered, Waiting};
use crate::systems::adg::rules::AdgError;
use crate::systems::adg::state::{AdgState, KnownRitual};
use crate::systems::contract::port::{Decided, Refusal, Refused, Someone, View};
use crate::text::look_alike;
use crate::time::GameDuration;
use crate::words::Folded;

/// ADG-R2: two d20s, one on each word list.
pub fn roll(
    state: &dyn View<Adg>,
    name: &str,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<AdgEvent>>> {
    let (who, _) = living(state, name)?;
    let tables = tables(state)?;
    let mut record = Vec::new();
    let mut words = Vec::new();
    for list in 0..2 {
        let face = checks::roll(dice, &mut record, 20, &format!("word list {}", list + 1))?;
        words.push(
            tables
                .word(list, face)
                .map(|e| e.word.clone())
                .unwrap_or_default(),
        );
    }
    Ok(vec![Decided::Own(AdgEvent::RitualDiscovered {
        character: who.name.to_string(),
        ritual: words.join(" "),
        words,
        dice: record,
    })])
}

/// The words of a ritual being learned: as discovered, else the name's words.
fn words_of(adg: &AdgState, ritual: &str) -> Vec<String> {
    adg.discovered
        .get(&Folded::of(ritual))
        .map(|(_, w)| w.clone())
        .unwrap_or_else(|| ritual.split_whitespace().map(str::to_string).collect())
}

/// The caster's known ritual of that name, or a refusal listing what they know.
pub(super) fn known_ritual<'a>(
    who: Someone<'_, Adg>,
    adg: &'a AdgState,
    ritual: &str,
) -> Verdict<&'a KnownRitual> {
    adg.known.get(&Folded::of(ritual)).ok_or_else(|| {
        Refusal::Own(AdgError::UnknownRitual {
            name: who.name.to_string(),
            ritual: ritual.to_string(),
            known: adg.known.values().map(|k| k.name.clone()).collect(),
        })
    })
}

/// Refuses a ritual already known or lost forever (ADG-R3).
pub(super) fn may_learn(who: Someone<'_, Adg>, adg: &AdgState, ritual: &str) -> Verdict<()> {
    // A name that only looks different (another case, a doubled space, a look-alike letter) is
    // the same ritual: known already, or lost for good (ADG-R3).
    let same = |name: &str| Folded::of(name) == Folded::of(ritual) || look_alike(name, ritual);
    if let Some(known) = adg.known.values().find(|k| same(&k.name)) {
        return Err(Refusal::Own(AdgError::AlreadyKnown {
            name: who.name.to_string(),
            ritual: known.name.clone(),
        }));
    }
    if let Some(lost) = adg.lost.values().find(|lost| same(lost)) {
        return Err(Refusal::Own(AdgError::LostForever {
            name: who.name.to_string(),
            ritual: lost.clone(),
        }));
    }
    Ok(())
}

/// Pays a permanent learning cost (ADG-R3, ADG-C4); returns whether a maximum reached 0.
pub(super) fn pays_with_life(who: Someone<'_, Adg>, adg: &AdgState, pay: Pay, cost: u32) -> bool {
    match pay.attribute() {
        Some(attribute) => adg.max.get(attribute) <= cost,
        None => who.health.is_some_and(|h| h.max <= cost),
    }
}

/// The check's Cunning after a learning cost paid from it.
pub(super) fn cunning_after(adg: &AdgState, pay: Pay, cost: u32) -> u32 {
    let current = adg.current(Attribute::Cunning);
    if pay == Pay::Cunning {
        current.saturating_sub(cost)
    } else {
        current
    }
}

/// ADG-R3 / ADG-R10. Draws: the 1d3 cost (unless a levelled spell), then the d20 learning check.
pub fn learn(
    state: &dyn View<Adg>,
    learning: &super::Learning,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<AdgEvent>>> {
    let (name, ritual, kind, spell, pay, exert) = (
        learning.character.as_str(),
        learning.ritual.as_str(),
        learning.kind,
        learning.spell(),
        learning.pay,
        learning.exert,
    );
    let (who, adg) = living(state, name)?;
    let ritual = ritual.trim();
    if ritual.is_empty() {
        return Err(crate::text::TextProblem::Empty("ritual's name").into());
    }
    may_learn(who, adg, ritual)?;
    let kind = kind
        .or(spell.map(|s| s.ritual_kind()))
        .ok_or(Refusal::Own(AdgError::RitualKindNeeded))?;
    let mut record = Vec::new();
    let cost = match spell {
        Some(s) if s.level > 0 => s.level,
        _ => checks::roll(dice, &mut record, 3, "learning cost 1d3")?,
    };
    let died = pays_with_life(who, adg, pay, cost);
    let check = if died {
        None
    } else {
        let target = cunning_after(adg, pay, cost);
        Some(checks::check(
            dice,
            &mut record,
            Attribute::Cunning,
            target,
            exert,
            None,
            "learning check",
        )?)
    };
    let learned = check.as_ref().is_some_and(|c| c.success);
    let display = adg
        .discovered
        .get(&Folded::of(ritual))
        .map(|(n, _)| n.clone())
        .unwrap_or_else(|| ritual.to_string());
    Ok(vec![Decided::Own(AdgEvent::RitualLearnAttempted(
        LearnAttempt {
            character: who.name.to_string(),
            ritual: display,
            words: words_of(adg, ritual),
            ritual_kind: kind,
            spell_level: spell.map(|s| s.level),
            pay,
            cost,
            from_scroll: None,
            check,
            learned,
            died,
            dice: record,
        },
    ))])
}

/// ADG-R4 to ADG-R9. Draws: the 1d3 reversal cost (both words reversed), the d20 casting check, then
/// on success the level's d6s (with --effect), or on failure the mishap's 2d6 and its entry's dice.
pub fn cast(
    state: &dyn View<Adg>,
    casting: Casting,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<AdgEvent>>> {
    let (who, adg) = living(state, &casting.character)?;
    let tables = tables(state)?;
    let known = known_ritual(who, adg, &casting.ritual)?;
    super::free_to_act(state, who.name)?;
    let mut order = casting.order;
    if known.kind == RitualKind::Ceremony
        && let Some(fight) = state.fight_now()
    {
        return Err(Refusal::Core(Refused::InAFight(fight)));
    }
    order.target = order.target.map(|t| state.as_recorded(&t)).transpose()?;
    let took = time_taken(known, &order)?;
    if order.effect.is_some() && order.target.is_none() {
        return Err(Refusal::Own(AdgError::EffectWithoutTarget));
    }
    if let Some(target) = order.target.as_deref() {
        super::reachable(state, target)?;
    }
    if adg.locked_out {
        return Err(Refusal::Own(AdgError::LockedOut(who.name.to_string())));
    }
    if order.moved {
        return Err(Refusal::Own(AdgError::MovedThisRound(who.name.to_string())));
    }
    let mut words = known.words.clone();
    let mut record = Vec::new();
    let mut reversal_cost = 0;
    // ADG-R9: beyond the safe number the ritual costs Cunning up front; say so in those words when it
    // cannot be paid, before any die is rolled.
    let over_limit_cost = adg.next_ritual_cost();
    let cunning = adg.current(Attribute::Cunning);
    if over_limit_cost > 0 && cunning <= over_limit_cost {
        return Err(Refusal::Own(AdgError::BeyondSafeRituals {
            name: who.name.to_string(),
            beyond: over_limit_cost,
            cunning,
        }));
    }
    if let Some(reverse) = order.reverse {
        if !known.reversible {
            return Err(Refusal::Own(AdgError::NotReversible(known.name.clone())));
        }
        let slots: &[usize] = match reverse {
            Reverse::First => &[0],
            Reverse::Second => &[1],
            Reverse::Both => &[0, 1],
        };
        for &slot in slots {
            let word = words.get(slot).cloned().unwrap_or_default();
            words[slot] = tables
                .reverse_of(&word)
                .ok_or_else(|| Refusal::Own(AdgError::NoReverse(word.clone())))?;
        }
        if reverse == Reverse::Both {
            reversal_cost = checks::roll(dice, &mut record, 3, "reversing both words 1d3 Cunning")?;
        }
    }
    // ADG-R9: the k-th ritual beyond the safe number costs k Cunning, paid before the roll.
    let upfront = reversal_cost + over_limit_cost;
    if upfront > 0 {
        can_exert(adg, Attribute::Cunning, upfront)?;
    }
    let target = adg.current(Attribute::Cunning) - upfront;
    // In a fight, the damage the log holds against the caster this round counts; the GM may name
    // more (damage the log does not hold), never less (T-3, ADG-R8).
    let damage_taken = match (
        order.damage_taken,
        super::damage_this_round(state, who.name),
    ) {
        (Some(given), Some(recorded)) => Some(given.max(recorded)),
        (given, recorded) => given.or(recorded),
    };
    let check = checks::check(
        dice,
        &mut record,
        Attribute::Cunning,
        target,
        order.exert,
        damage_taken,
        "casting check",
    )?;
    let mut cast = Cast {
        character: who.name.to_string(),
        ritual: known.name.clone(),
        words: words.clone(),
        reversal_cost,
        over_limit_cost,
        damage_taken,
        check: check.clone(),
        exact_choice: None,
        effect: None,
        effect_until: None,
        mishap: None,
        lockout: false,
        took,
        waits: None,
        dice: Vec::new(),
    };
    // The effect begins once the drawing or the performing is done (ADG-R1).
    let done = state.clock().after(took.unwrap_or(GameDuration(0)));
    if check.success
        && let Some(trigger) = order.when.map(|w| w.trim().to_string())
    {
        // Drawn to wait: what it will do is rolled when it goes off (`trigger`).
        cast.exact_choice = check
            .exact
            .then(|| crate::words::Words::word(order.exact.unwrap_or(ExactChoice::Duration)))
            .map(str::to_string);
        cast.waits = Some(Waiting {
            trigger,
            effect: order.effect,
            target: order.target,
        });
    } else if check.success {
        // An exact roll doubles duration unless the caster chose effect (ADG-R4); a Phrase, which
        // lasts no time, doubles its effect.
        let unless_chosen = match duration(known.kind, adg.level) {
            Some(_) => ExactChoice::Duration,
            None => ExactChoice::Effect,
        };
        let choice = check.exact.then(|| order.exact.unwrap_or(unless_chosen));
        cast.exact_choice = choice.map(|c| crate::words::Words::word(c).to_string());
        if let (Some(kind), Some(target)) = (order.effect, order.target) {
            let dice_count = adg.level
                * if choice == Some(ExactChoice::Effect) {
                    2
                } else {
                    1
                };
            let amount = checks::d6s(dice, &mut record, dice_count, "ritual damage or healing")?;
            cast.effect = Some(EffectRoll {
                kind,
                target,
                amount,
            });
        }
        let doubled = if choice == Some(ExactChoice::Duration) {
            2
        } else {
            1
        };
        cast.effect_until = duration(known.kind, adg.level)
            .map(|d| done.after(GameDuration(d.seconds() * doubled)));
    } else {
        let difference = check.roll.abs_diff(check.target);
        let mut room = adg.exertion_room();
        room.cunning = room.cunning.saturating_sub(upfront + check.exerted);
        let mishap = checks::mishap(
            dice,
            &mut record,
            tables,
            difference,
            Some(&words),
            &mut room,
        )?;
        cast.lockout = mishap.lockout || over_limit_cost > 0;
        cast.mishap = Some(mishap);
    }
    cast.dice = record;
    Ok(vec![Decided::Own(AdgEvent::RitualCast(cast))])
}

/// ADG-R1: how long a ritual's effect lasts; a Phrase fades at once.
fn duration(kind: RitualKind, level: u32) -> Option<GameDuration> {
    match kind {
        RitualKind::Phrase => None,
        RitualKind::Sigil => Some(GameDuration(600 * u64::from(level))),
        RitualKind::Ceremony => Some(GameDuration(86_400 * u64::from(level))),
    }
}

/// ADG-R1: how long casting takes when the clock should move for it. A Sigil takes a minute to
/// draw; a Ceremony an hour or more (as the GM says, an hour when not given); a Phrase is spoken
/// within the round. Only a Sigil may be drawn to wait, and only a Ceremony's time is given.
fn time_taken(known: &KnownRitual, order: &super::CastOrder) -> Verdict<Option<GameDuration>> {
    let refused = |error| Err(Refusal::Own(error));
    if order.when.is_some() && known.kind != RitualKind::Sigil {
        return refused(AdgError::OnlySigilsWait(known.name.clone()));
    }
    match (known.kind, order.took) {
        (RitualKind::Ceremony, Some(took)) if took.seconds() < HOUR.seconds() => {
            refused(AdgError::CeremonyUnderAnHour(took))
        }
        // Past a week it is a downtime matter, and most likely a slip of the keys.
        (RitualKind::Ceremony, Some(took)) if took.seconds() > WEEK.seconds() => {
            refused(AdgError::CeremonyOverAWeek(took))
        }
        (RitualKind::Ceremony, took) => Ok(Some(took.unwrap_or(HOUR))),
        (_, Some(_)) => refused(AdgError::OnlyCeremoniesTakeTime(known.name.clone())),
        (RitualKind::Sigil, None) => Ok(Some(MINUTE)),
        (RitualKind::Phrase, None) => Ok(None),
    }
}

const MINUTE: GameDuration = GameDuration(crate::time::MINUTE_SECONDS);
const HOUR: GameDuration = GameDuration(crate::time::HOUR_SECONDS);
const WEEK: GameDuration = GameDuration(7 * crate::time::DAY_SECONDS);

/// Sets off a Sigil drawn to wait (ADG-R1): the first drawn of that ritual goes off, its effect
/// lasting from now. Draws Level d6 when it damages or heals (twice as many on an exact effect).
pub fn trigger(
    state: &dyn View<Adg>,
    order: &SigilTrigger,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<AdgEvent>>> {
    let (who, adg) = super::alive(state, &order.character)?;
    let waiting = adg
        .sigils
        .iter()
        .find(|s| Folded::of(&s.ritual) == Folded::of(&order.ritual))
        .ok_or_else(|| {
            Refusal::Own(AdgError::NoSigilWaiting {
                name: who.name.to_string(),
                ritual: order.ritual.trim().to_string(),
                waiting: adg.sigils.iter().map(|s| s.ritual.clone()).collect(),
            })
        })?;
    if let Some(target) = waiting.waits.target.as_deref() {
        super::reachable(state, target)?;
    }
    // The exact roll made as it was drawn doubles what its maker chose, now (ADG-R4).
    let exact = waiting.exact_choice.as_deref();
    let doubles = |choice: ExactChoice| exact == Some(crate::words::Words::word(choice));
    let mut record = Vec::new();
    let effect = match (waiting.waits.effect, &waiting.waits.target) {
        (Some(kind), Some(target)) => {
            let count = adg.level * if doubles(ExactChoice::Effect) { 2 } else { 1 };
            let amount = checks::d6s(dice, &mut record, count, "sigil damage or healing")?;
            Some(EffectRoll {
                kind,
                target: target.clone(),
                amount,
            })
        }
        _ => None,
    };
    let doubled = if doubles(ExactChoice::Duration) { 2 } else { 1 };
    Ok(vec![Decided::Own(AdgEvent::SigilTriggered(Triggered {
        character: who.name.to_string(),
        ritual: waiting.ritual.clone(),
        cast_seq: waiting.cast_seq,
        effect,
        effect_until: duration(RitualKind::Sigil, adg.level)
            .map(|d| state.clock().after(GameDuration(d.seconds() * doubled))),
        dice: record,
    }))])
}
