//! Learning, concentrating and casting (VSD-2 to VSD-9, VSD-12); saving against a spell and a
//! fired bolt's attack are in `answers`.

use super::consequences::{failure_pending, resonance_pending, roll_resonance};
use super::{
    Alignment, Casting, Condition, NewSpell, SpellDef, Verdict, caster, casting_band, round_of,
};
use crate::dice::{Dice, Die, open_ended};
use crate::systems::contract::port::{Decided, Refusal, View};
use crate::systems::vsd::Vsd;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::event::{
    ConditionChange, FailureRoll, Modifier, Outcome, Overcast, Pending, SpellCast, SpellLearned,
};
use crate::systems::vsd::rules::VsdError;
use crate::time::{GameDuration, ROUND_SECONDS};
use crate::words::Folded;

pub use super::order::{CastOrder, OvercastMethod, OvercastOrder, Range};

pub fn learn(
    state: &dyn View<Vsd>,
    name: &str,
    spell: NewSpell,
) -> Verdict<Vec<Decided<VsdEvent>>> {
    let (who, vsd) = caster(state, name)?;
    if spell.name.trim().is_empty() {
        return Err(crate::text::TextProblem::Empty("spell's name").into());
    }
    if vsd.spells.contains_key(&Folded::of(&spell.name)) {
        return Err(Refusal::Own(VsdError::SpellKnown {
            name: who.name.to_string(),
            spell: spell.name.trim().to_string(),
        }));
    }
    let lore = vsd.lore(&spell.lore).ok_or_else(|| {
        Refusal::Own(VsdError::UnknownLore {
            name: who.name.to_string(),
            lore: spell.lore.clone(),
            lores: vsd.lores.iter().map(|l| l.name.clone()).collect(),
        })
    })?;
    // An instantaneous spell does its work when cast and is never in force: a duration would
    // be dropped without a word.
    if spell.instantaneous && spell.duration.is_some() {
        return Err(Refusal::Own(VsdError::InvalidSpell(
            "an instantaneous spell does its work when cast and lasts no time: leave out --duration"
                .into(),
        )));
    }
    if spell.weave == 0 || spell.weave > 50 {
        return Err(Refusal::Own(VsdError::InvalidSpell(
            "the Weave must be 1 to 50".into(),
        )));
    }
    let spell = spell.into_def(lore.name.clone());
    Ok(vec![Decided::Own(VsdEvent::SpellLearned(SpellLearned {
        character: who.name.to_string(),
        spell,
    }))])
}

/// VSD-3: one round of concentration on a spell, no MPs spent yet.
pub fn concentrate(
    state: &dyn View<Vsd>,
    name: &str,
    spell: &str,
) -> Verdict<Vec<Decided<VsdEvent>>> {
    let (who, vsd) = caster(state, name)?;
    let spell = vsd
        .spell(spell)
        .ok_or_else(|| unknown_spell(who.name, vsd, spell))?;
    // A failed spell held to fire later needs concentration, instantaneous or not (VSD-9 ruling).
    let holding = vsd
        .delayed
        .as_ref()
        .is_some_and(|d| d.spell.eq_ignore_ascii_case(&spell.name));
    if spell.instantaneous && !holding {
        return Err(Refusal::Own(VsdError::InstantaneousNeedsNoConcentration(
            spell.name.clone(),
        )));
    }
    // Concentrating is acting; a stun lets only a held spell's concentration go on (VSD-13).
    able_to_act(who.name, vsd, state.clock())?;
    if !holding {
        not_stunned(
            who.name,
            vsd,
            state.clock(),
            "concentrate on a spell not held to fire",
        )?;
    }
    let round = round_of(state);
    // A round of concentration is the round's whole action: none of it may be spent already.
    if vsd
        .concentration
        .as_ref()
        .is_some_and(|c| c.last_round == round)
        || vsd.last_cast_round == Some(round)
        || vsd.half_action_round == Some(round)
    {
        return Err(Refusal::Own(VsdError::RoundUsed(who.name.to_string())));
    }
    Ok(vec![Decided::Own(VsdEvent::Concentrated {
        character: who.name.to_string(),
        spell: spell.name.clone(),
        round,
    })])
}

/// Refuses a caster who cannot act now (scorched, assailed, knocked out; VSD-13): they can neither
/// cast nor concentrate.
pub(super) fn able_to_act(
    name: &str,
    vsd: &crate::systems::vsd::state::VsdState,
    now: crate::time::GameTime,
) -> Verdict<()> {
    match vsd
        .active_conditions(now)
        .into_iter()
        .find(|c| c.prevents_casting())
    {
        Some(condition) => Err(Refusal::Own(VsdError::CannotAct {
            name: name.to_string(),
            condition: condition.name(),
        })),
        None => Ok(()),
    }
}

/// Refuses a stunned caster (VSD-13 ruling): a stun stops a cast and the start of concentration,
/// not the concentration a held spell needs (VSD-9), which the failure table itself asks of a
/// stunned caster.
pub(super) fn not_stunned(
    name: &str,
    vsd: &crate::systems::vsd::state::VsdState,
    now: crate::time::GameTime,
    doing: &'static str,
) -> Verdict<()> {
    match vsd.has_condition(Condition::Stunned, now) {
        true => Err(Refusal::Own(VsdError::Stunned {
            name: name.to_string(),
            doing,
        })),
        false => Ok(()),
    }
}

/// VSD-14: an attack's modifier for its range, which reaches 30 m.
pub(super) fn attack_range(range: Range, spell: &str) -> Verdict<i64> {
    range.attack_modifier().ok_or_else(|| {
        Refusal::Own(VsdError::OutOfReach {
            spell: spell.to_string(),
            distance: range.words(),
        })
    })
}

/// The modifier a weary caster takes on every casting and attack roll (VSD-13 ruling).
pub const WEARY_MODIFIER: i64 = -10;

pub(super) fn unknown_spell(
    name: &str,
    vsd: &crate::systems::vsd::state::VsdState,
    spell: &str,
) -> Refusal<VsdError> {
    Refusal::Own(VsdError::UnknownSpell {
        name: name.to_string(),
        spell: spell.to_string(),
        known: vsd.spells.values().map(|s| s.name.clone()).collect(),
    })
}

/// VSD-2 to VSD-14. Dice, in order: for a sacrifice, 1d10 per Weave over Level (soul damage); the
/// open-ended d100 chain; on a failure the plain d100 failure roll; on resonance its plain d100.
pub fn cast(
    state: &dyn View<Vsd>,
    casting: Casting,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<VsdEvent>>> {
    let (who, vsd) = caster(state, &casting.character)?;
    let spell = vsd
        .spell(&casting.spell)
        .ok_or_else(|| unknown_spell(who.name, vsd, &casting.spell))?
        .clone();
    let mut order = casting.order;
    order.target = state.as_recorded(&order.target)?;
    let settings = &state.campaign().vsd_settings;
    let round = round_of(state);
    if !vsd.pending.is_empty() {
        return Err(Refusal::Own(VsdError::ChoicePending(who.name.to_string())));
    }
    able_to_act(who.name, vsd, state.clock())?;
    not_stunned(who.name, vsd, state.clock(), "cast")?;
    if order.cannot_see {
        return Err(Refusal::Own(VsdError::CannotSee(who.name.to_string())));
    }
    if order.silenced {
        return Err(Refusal::Own(VsdError::CannotSpeak(who.name.to_string())));
    }
    // VSD-3: a cast takes the round's action, an instantaneous one half of it, so a second
    // instantaneous spell may follow one in its round; nothing else may.
    if vsd.last_cast_round == Some(round)
        || vsd
            .concentration
            .as_ref()
            .is_some_and(|c| c.last_round == round)
        || (vsd.half_action_round == Some(round) && !spell.instantaneous)
    {
        return Err(Refusal::Own(VsdError::RoundUsed(who.name.to_string())));
    }
    // Out of turn, in response to an event, the GM may allow an instantaneous spell alone.
    if order.out_of_turn && !spell.instantaneous {
        return Err(Refusal::Own(VsdError::OutOfTurnNotInstantaneous(
            spell.name.clone(),
        )));
    }
    let cost = spell.mp_cost() + settings.alignment.extra_mp();
    if vsd.mp_current() < cost {
        return Err(Refusal::Own(VsdError::NotEnoughMp {
            name: who.name.to_string(),
            has: vsd.mp_current(),
            cost,
        }));
    }
    let over = spell.weave.saturating_sub(vsd.level);
    let overcast_order = order.overcast_order()?;
    let overcast = check_overcast(state, who.name, vsd, &spell, over, &overcast_order)?;

    let mut modifiers = Vec::new();
    let mut add = |what: &str, value: i64| {
        if value != 0 {
            modifiers.push(Modifier {
                what: what.to_string(),
                value,
            });
        }
    };
    if !spell.instantaneous {
        match vsd.concentration_for(&spell.name, round) {
            0 => add("improvised", -10),
            rounds => add(
                &format!(
                    "{rounds} round{} of concentration",
                    if rounds == 1 { "" } else { "s" }
                ),
                10 * i64::from(rounds.min(4)),
            ),
        }
    }
    if order.static_target {
        add("static target", 10);
    }
    match spell.attack {
        // VSD-14: an attack spell takes its own range table, not the casting table's.
        Some(_) => add("attack range", attack_range(order.range, &spell.name)?),
        None => add("range", order.range.casting_modifier()),
    }
    add("armour movement penalty", -i64::from(order.armor_penalty));
    add("GM modifier", order.gm_modifier);
    if vsd.has_condition(Condition::Weary, state.clock()) {
        add("weary", WEARY_MODIFIER);
    }
    add("overcasting", -10 * i64::from(over));
    if settings.alignment == Alignment::Disastrous {
        add("disastrous alignment", -10);
    }

    let mut record: Vec<Die> = Vec::new();
    let mut overcast = overcast;
    if let Some(o) = overcast.as_mut().filter(|o| o.method == "sacrifice") {
        for _ in 0..over {
            let die = dice.roll(10, "soul damage 1d10+1")?;
            o.soul_damage += die.value.unwrap_or(0) + 1;
            record.push(die);
        }
    }
    // VSD-14 ruling: an attack roll whose first die shows 01–10 is a fumble; it ends there and goes
    // to the spell failure table.
    let (chain_dice, chain, fumbled) = if spell.attack.is_some() {
        let (chain_dice, chain) = open_ended::roll_attack(dice, "attack roll")?;
        let fumbled = chain.is_empty();
        (chain_dice, chain, fumbled)
    } else {
        let (chain_dice, chain) = open_ended::roll(dice, "spell casting roll", false)?;
        (chain_dice, chain, false)
    };
    let faces: Vec<u32> = if fumbled {
        chain_dice.iter().filter_map(|d| d.value).collect()
    } else {
        chain.iter().map(|d| d.value).collect()
    };
    record.extend(chain_dice);
    let roll = open_ended::chain_total(&faces);
    let lore_bonus = i64::from(vsd.lore(&spell.lore).map_or(0, |l| l.bonus));
    // Saturating: a modifier typed by another front end can be any number, and a sum that wrapped
    // around would record the opposite result.
    let mut total = modifiers
        .iter()
        .fold(roll.saturating_add(lore_bonus), |sum, m| {
            sum.saturating_add(m.value)
        });
    let affected: Vec<String> = std::iter::once(who.name.to_string())
        .chain(
            overcast
                .as_ref()
                .map(|o| o.participants.clone())
                .unwrap_or_default(),
        )
        .collect();

    let (outcome, save_difficulty) = if fumbled {
        (Outcome::Failure, None)
    } else if spell.attack.is_some() {
        let defense = order
            .defense
            .or_else(|| {
                state
                    .someone(&order.target)
                    .and_then(|c| c.mine)
                    .map(|v| v.defense)
            })
            .unwrap_or(0);
        if defense != 0 {
            modifiers.push(Modifier {
                what: "target's Defense".into(),
                value: defense.saturating_neg(),
            });
            total = total.saturating_sub(defense);
        }
        (Outcome::Attack, None)
    } else {
        let (outcome, difficulty) = casting_band(total);
        // Only a spell that grants a save has a difficulty to beat (VSD-7).
        (outcome, difficulty.filter(|_| spell.save))
    };
    let mut cast = SpellCast {
        caster: who.name.to_string(),
        spell: spell.name.clone(),
        target: order.target.clone(),
        place: order.place,
        round,
        modifiers,
        lore_bonus,
        roll,
        total,
        outcome,
        save_difficulty,
        auto_resisted: outcome == Outcome::Partial && spell.save,
        mp_spent: if outcome == Outcome::Failure { 0 } else { cost },
        overcast,
        failure: None,
        resonance: None,
        pending: Vec::new(),
        conditions: Vec::new(),
        active_until: None,
        took_hold: false,
        consumed: false,
        fumbled,
        half_action: spell.instantaneous,
        out_of_turn: order.out_of_turn,
        dice: Vec::new(),
    };
    let pending = |about: &str, by: &str, options: Vec<super::Choice>, pick: usize| Pending {
        about: about.into(),
        by: by.into(),
        options,
        pick,
        cast_seq: state.head() + 1,
        spell: spell.name.clone(),
        place: order.place,
        affected: affected.clone(),
        mp_cost: cost,
        weave: spell.weave,
        resonance_bonus: 0,
        target: Some(order.target.clone()),
        cast_at: Some(state.clock()),
    };
    use super::Choice::*;
    match outcome {
        Outcome::Failure => {
            let die = dice.roll(100, "spell failure d100")?;
            let face = die.value.unwrap_or(0);
            record.push(die);
            let failure = FailureRoll {
                roll: face,
                modifier: spell.kind.failure_modifier(),
                gm_modifier: order.failure_modifier,
                total: i64::from(face)
                    .saturating_add(spell.kind.failure_modifier())
                    .saturating_add(order.failure_modifier),
            };
            // Always stunned, whatever the band (VSD-9); until the end of the next round.
            let until = Some(state.clock().after(GameDuration(2 * ROUND_SECONDS)));
            for name in &affected {
                cast.conditions.push(ConditionChange {
                    character: name.clone(),
                    condition: Condition::Stunned,
                    until,
                });
            }
            if let Some(p) = failure_pending(failure.total, pending("failure", "caster", vec![], 1))
            {
                cast.pending.push(p);
            }
            cast.failure = Some(failure);
        }
        Outcome::Partial if !spell.save => {
            cast.pending.push(pending(
                "partial success",
                "caster",
                vec![HalfDuration, HalfArea, KeepMps],
                1,
            ));
        }
        Outcome::Outstanding => cast.pending.push(pending(
            "outstanding success",
            "caster",
            vec![HalfMp, FreeWarping],
            1,
        )),
        // A save spell's partial success is resisted automatically instead (VSD-7); a success
        // leaves nothing to choose, and an attack's total goes to the GM's tables.
        Outcome::Partial | Outcome::Success | Outcome::Attack => {}
    }
    // VSD-10: a double on the first die (never 100), or the awareness window still open.
    let first = faces.first().copied().unwrap_or(0);
    let double = first < 100 && first % 11 == 0 && first > 0;
    let aware = vsd
        .awareness_until
        .is_some_and(|until| until > state.clock());
    if double || aware {
        let why = if double {
            "a double on the casting roll"
        } else {
            "the Darkmaster's awareness"
        };
        let resonance = roll_resonance(dice, &mut record, &spell, order.place, 0, 0, why)?;
        if let Some(p) = resonance_pending(&resonance, pending("resonance", "GM", vec![], 1)) {
            cast.pending.push(p);
        }
        cast.resonance = Some(resonance);
    }
    let lands = matches!(outcome, Outcome::Success | Outcome::Outstanding);
    if lands && !spell.save && spell.stays_in_force() && state.someone(&order.target).is_some() {
        cast.took_hold = true;
        cast.active_until = spell.duration.map(|d| state.clock().after(d));
    }
    if let Some(o) = &cast.overcast {
        cast.consumed = i64::from(vsd.body) - i64::from(o.soul_damage) <= 0;
    }
    cast.dice = record;
    Ok(vec![Decided::Own(VsdEvent::SpellCast(cast))])
}

/// VSD-12: who may overcast, by how much, and how.
fn check_overcast(
    state: &dyn View<Vsd>,
    name: &str,
    vsd: &crate::systems::vsd::state::VsdState,
    spell: &SpellDef,
    over: u32,
    order: &Option<OvercastOrder>,
) -> Verdict<Option<Overcast>> {
    if over == 0 {
        return match order {
            Some(_) => Err(Refusal::Own(VsdError::NoNeedToOvercast {
                spell: spell.name.clone(),
                weave: spell.weave,
                level: vsd.level,
            })),
            None => Ok(None),
        };
    }
    if !matches!(vsd.vocation.as_str(), "wizard" | "animist") {
        return Err(Refusal::Own(VsdError::CannotOvercast {
            name: name.to_string(),
            vocation: vsd.vocation.clone(),
        }));
    }
    let ranks = vsd.lore(&spell.lore).map_or(0, |l| l.ranks);
    if ranks < spell.weave {
        return Err(Refusal::Own(VsdError::TooFewRanks {
            name: name.to_string(),
            lore: spell.lore.clone(),
            ranks,
            weave: spell.weave,
        }));
    }
    let allowance = state.campaign().vsd_settings.alignment.overcast_allowance();
    let weaves_over = over;
    match order {
        None if over <= allowance => Ok(Some(Overcast {
            method: "alignment".into(),
            weaves_over,
            participants: vec![],
            drive_spent: 0,
            soul_damage: 0,
        })),
        None => Err(Refusal::Own(VsdError::WeaveAboveLevel {
            spell: spell.name.clone(),
            weave: spell.weave,
            level: vsd.level,
        })),
        Some(OvercastOrder::Sacrifice) => {
            if vsd.drive == 0 {
                return Err(Refusal::Own(VsdError::NoDrive(name.to_string())));
            }
            Ok(Some(Overcast {
                method: "sacrifice".into(),
                weaves_over,
                participants: vec![],
                drive_spent: 1,
                soul_damage: 0,
            }))
        }
        Some(OvercastOrder::Ritual(with)) => {
            let mut participants = Vec::new();
            for other in with {
                let (helper, helper_vsd) = caster(state, other)?;
                if Folded::of(helper.name) == Folded::of(name)
                    || participants.iter().any(|p: &String| p == helper.name)
                {
                    return Err(Refusal::Own(VsdError::RitualParticipants(
                        "each participant is another caster, named once".into(),
                    )));
                }
                if helper_vsd.spell(&spell.name).is_none() {
                    return Err(Refusal::Own(VsdError::RitualParticipants(format!(
                        "{} does not know {}",
                        helper.name, spell.name
                    ))));
                }
                // A participant who cannot act (scorched, assailed, knocked out), or stunned,
                // cannot concentrate on a ritual either.
                if let Some(condition) = helper_vsd
                    .active_conditions(state.clock())
                    .into_iter()
                    .find(|c| c.prevents_casting() || *c == Condition::Stunned)
                {
                    return Err(Refusal::Own(VsdError::RitualParticipants(format!(
                        "{} cannot act while {}, so cannot concentrate on the ritual",
                        helper.name,
                        condition.name()
                    ))));
                }
                // Ruling: a participant spends the round concentrating on the ritual, so one who
                // already acted in it (a cast, or concentration on something else) cannot join.
                let round = round_of(state);
                // The other casters concentrate throughout (VSD-12): through every round the lead
                // built concentration for it, with no spell of their own in between.
                let built = vsd.concentration_for(&spell.name, round);
                if built > 0 && helper_vsd.concentration_for(&spell.name, round) < built {
                    return Err(Refusal::Own(VsdError::RitualParticipants(format!(
                        "{} did not concentrate on {} through the {} the ritual was built over",
                        helper.name,
                        spell.name,
                        crate::words::count(u64::from(built), "round", "rounds")
                    ))));
                }
                let acted = helper_vsd.last_cast_round == Some(round)
                    || helper_vsd.half_action_round == Some(round)
                    || helper_vsd
                        .concentration
                        .as_ref()
                        .is_some_and(|c| c.last_round == round);
                if acted {
                    return Err(Refusal::Own(VsdError::RitualParticipants(format!(
                        "{} has already acted this round and cannot also concentrate on the ritual",
                        helper.name
                    ))));
                }
                participants.push(helper.name.to_string());
            }
            // Rulings: each other participant allows one Weave over Level, and the caster meets
            // one condition: a ritual's allowance is not added to an alignment's.
            if over > participants.len() as u32 {
                return Err(Refusal::Own(VsdError::RitualParticipants(format!(
                    "overcasting by {over} Weave(s) needs {over} other participant(s); {} named",
                    participants.len()
                ))));
            }
            Ok(Some(Overcast {
                method: "ritual".into(),
                weaves_over,
                participants,
                drive_spent: 0,
                soul_damage: 0,
            }))
        }
    }
}
