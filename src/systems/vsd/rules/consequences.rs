//! What follows a casting: resonance (VSD-10, VSD-11), failure results (VSD-9) and the choices a
//! cast leaves (VSD-5).

use super::{Choice, Condition, Place, SpellDef, SpellKind, Tag, Verdict, caster, round_of};
use crate::dice::{Dice, Die};
use crate::systems::contract::port::{Decided, Refusal, Someone, View};
use crate::systems::vsd::Vsd;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::event::{
    ChoiceMade, ConditionChange, DelayedResolved, InForce, Modifier, Pending, ResonanceRoll,
    Severed, Struck,
};
use crate::systems::vsd::rules::VsdError;
use crate::systems::vsd::state::VsdState;
use crate::time::{GameDuration, GameTime, ROUND_SECONDS};

/// VSD-10: a plain d100 + Weave + modifiers, capped at pursuit for Weave 4 or lower.
pub fn roll_resonance(
    dice: &mut Dice<'_>,
    record: &mut Vec<Die>,
    spell: &SpellDef,
    place: Place,
    bonus: i64,
    severs: u32,
    why: &str,
) -> Verdict<ResonanceRoll> {
    let mut modifiers = vec![Modifier {
        what: "Weave".into(),
        value: i64::from(spell.weave),
    }];
    let mut add = |what: &str, value: i64| {
        modifiers.push(Modifier {
            what: what.into(),
            value,
        })
    };
    match place {
        Place::Haven => add("safe haven", -20),
        Place::Blighted => add("blighted land or darkland", 20),
        Place::Normal => {}
    }
    let has = |tag: Tag| spell.tags.contains(&tag);
    if spell.kind == SpellKind::Healing || has(Tag::Spirit) || has(Tag::Light) {
        add("healing, spirit or light spell", -20);
    }
    // Ruling: nature magic counts as natural, tagged or not.
    if spell.kind == SpellKind::Nature || has(Tag::Natural) || has(Tag::Elven) || has(Tag::Illusory)
    {
        add("natural, elven or illusory spell", -10);
    }
    if spell.is_attack() {
        add("attack spell", 20);
    }
    if spell.kind == SpellKind::Dark {
        add("dark spell", 30);
    }
    if bonus != 0 {
        add("spell failure", bonus);
    }
    if severs > 0 {
        add("thread severed", -20 * i64::from(severs));
    }
    let die = dice.roll(100, &format!("magical resonance ({why})"))?;
    let roll = die.value.unwrap_or(0);
    record.push(die);
    let total = i64::from(roll) + modifiers.iter().map(|m| m.value).sum::<i64>();
    let mut result = ResonanceRoll::band_of(total);
    if spell.weave <= 4 && total > 90 {
        result = "pursuit";
    }
    Ok(ResonanceRoll {
        roll,
        modifiers,
        total,
        result: result.into(),
    })
}

/// The GM's pick a resonance result calls for, if any.
pub fn resonance_pending(resonance: &ResonanceRoll, base: Pending) -> Option<Pending> {
    use Choice::*;
    let options = match resonance.result.as_str() {
        "attention" => vec![Agents, Stunned],
        "pursuit" => vec![Band, Assailed],
        "assault" => vec![Servants, Scorched],
        _ => return None,
    };
    Some(Pending {
        about: format!("resonance: {}", resonance.result),
        by: "GM".into(),
        options,
        pick: 1,
        ..base
    })
}

/// The caster's choice a failure roll calls for (VSD-9), if any.
pub fn failure_pending(total: i64, base: Pending) -> Option<Pending> {
    use Choice::*;
    let (options, pick, bonus) = match total {
        i64::MIN..=75 => return None,
        76..=100 => (vec![LoseHalfMps, FiresLater], 1, 0),
        101..=125 => (vec![LoseAllMps, OtherTarget], 1, 0),
        126..=150 => (vec![LoseMps, OtherTarget, Resonance], 2, 20),
        _ => (
            vec![LoseMpsAndWeary, OtherTarget, Resonance, KnockedOut],
            2,
            50,
        ),
    };
    Some(Pending {
        about: format!("spell failure ({total})"),
        options,
        pick,
        resonance_bonus: bonus,
        ..base
    })
}

/// Resolves a pending choice. Dice: a resonance d100 (failure's resonance option), or 1d10 rounds
/// (the GM's "scorched" pick).
/// The gaze's choice comes after its rounds (VSD-10): while scorched, the caster can do nothing,
/// choosing included.
pub fn still_under_the_gaze(pending: &Pending, vsd: &VsdState, now: GameTime) -> bool {
    pending.about == "the Darkmaster's gaze" && vsd.has_condition(Condition::Scorched, now)
}

pub fn choose(
    state: &dyn View<Vsd>,
    name: &str,
    chosen: &[Choice],
    other_target: Option<&str>,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<VsdEvent>>> {
    let (who, vsd) = caster(state, name)?;
    if vsd.pending.is_empty() {
        return Err(Refusal::Own(VsdError::NothingToChoose(
            who.name.to_string(),
        )));
    }
    let pending = vsd.pending_offering(chosen).ok_or_else(|| {
        Refusal::Own(VsdError::InvalidChoice {
            name: who.name.to_string(),
            pending: describe_pending(&vsd.pending),
        })
    })?;
    if still_under_the_gaze(pending, vsd, state.clock()) {
        return Err(Refusal::Own(VsdError::CannotAct {
            name: who.name.to_string(),
            condition: Condition::Scorched.name(),
        }));
    }
    let mut distinct = chosen.to_vec();
    distinct.dedup();
    if distinct.len() != pending.pick || chosen.len() != pending.pick {
        return Err(Refusal::Own(VsdError::InvalidChoice {
            name: who.name.to_string(),
            pending: describe_pending(std::slice::from_ref(pending)),
        }));
    }
    let struck = strikes_instead(state, who, vsd, pending, chosen, other_target)?;
    let half = pending.mp_cost.div_ceil(2);
    let mut made = ChoiceMade {
        character: who.name.to_string(),
        cast_seq: pending.cast_seq,
        chosen: chosen.to_vec(),
        mp_refund: 0,
        mp_lost: Vec::new(),
        conditions: Vec::new(),
        fires_at_round: None,
        resonance: None,
        in_force: None,
        pending: None,
        struck: None,
        dice: Vec::new(),
    };
    let mut record = Vec::new();
    let everyone = |made: &mut ChoiceMade, condition, until| {
        for name in &pending.affected {
            made.conditions.push(ConditionChange {
                character: name.clone(),
                condition,
                until,
            });
        }
    };
    let caster_only = |made: &mut ChoiceMade, condition, until| {
        made.conditions.push(ConditionChange {
            character: who.name.to_string(),
            condition,
            until,
        });
    };
    for choice in chosen {
        match choice {
            Choice::KeepMps => made.mp_refund = pending.mp_cost,
            // Rounded up (VSD-5 ruling): the caster pays half, rounded up.
            Choice::HalfMp => made.mp_refund = pending.mp_cost - half,
            Choice::LoseHalfMps => {
                made.mp_lost = pending.affected.iter().map(|n| (n.clone(), half)).collect()
            }
            Choice::LoseAllMps | Choice::LoseMps => {
                made.mp_lost = pending
                    .affected
                    .iter()
                    .map(|n| (n.clone(), pending.mp_cost))
                    .collect()
            }
            Choice::LoseMpsAndWeary => {
                made.mp_lost = pending
                    .affected
                    .iter()
                    .map(|n| (n.clone(), pending.mp_cost))
                    .collect();
                everyone(&mut made, Condition::Weary, None);
            }
            Choice::FiresLater => made.fires_at_round = Some(round_of(state) + 2),
            Choice::KnockedOut => everyone(
                &mut made,
                Condition::KnockedOut,
                Some(state.clock().after(GameDuration(6 * 3600))),
            ),
            Choice::Stunned => caster_only(
                &mut made,
                Condition::Stunned,
                Some(state.clock().after(GameDuration(2 * ROUND_SECONDS))),
            ),
            Choice::Assailed => caster_only(&mut made, Condition::Assailed, None),
            Choice::Scorched => {
                let die = dice.roll(10, "rounds unable to act (1d10)")?;
                let rounds = u64::from(die.value.unwrap_or(1));
                record.push(die);
                // The rounds come after the one in which the gaze falls, whose action is already
                // spent: to the end of this round, and then that many whole rounds.
                caster_only(
                    &mut made,
                    Condition::Scorched,
                    Some(
                        state
                            .clock()
                            .after(GameDuration((rounds + 1) * ROUND_SECONDS)),
                    ),
                );
                // Then the caster's own choice: every MP left, or one true answer.
                made.pending = Some(Pending {
                    about: "the Darkmaster's gaze".into(),
                    by: "caster".into(),
                    options: vec![Choice::LoseRemainingMps, Choice::AnswerTruly],
                    pick: 1,
                    affected: vec![who.name.to_string()],
                    ..pending.clone()
                });
            }
            Choice::LoseRemainingMps => {
                made.mp_lost = vec![(who.name.to_string(), vsd.mp_current())];
            }
            // The answer itself is the table's; the log records that it is owed.
            Choice::AnswerTruly => {}
            Choice::Resonance => {
                let spell = vsd.spell(&pending.spell).cloned().ok_or_else(|| {
                    Refusal::Own(VsdError::UnknownSpell {
                        name: who.name.to_string(),
                        spell: pending.spell.clone(),
                        known: vec![],
                    })
                })?;
                let resonance = roll_resonance(
                    dice,
                    &mut record,
                    &spell,
                    pending.place,
                    pending.resonance_bonus,
                    0,
                    "a failed spell",
                )?;
                let base = Pending {
                    affected: vec![who.name.to_string()],
                    ..pending.clone()
                };
                made.pending = resonance_pending(&resonance, base);
                made.resonance = Some(resonance);
            }
            // Ruling: halved, a partial success still takes hold on its target, replacing older
            // castings there (VSD-8); its duration runs from the cast.
            Choice::HalfDuration | Choice::HalfArea => {
                if let (Some(target), Some(cast_at)) = (&pending.target, pending.cast_at)
                    && state.someone(target).is_some()
                {
                    let duration = vsd.spell(&pending.spell).and_then(|s| s.duration);
                    let half_duration = *choice == Choice::HalfDuration;
                    let until = duration.map(|d| {
                        let seconds = if half_duration {
                            d.seconds().div_ceil(2)
                        } else {
                            d.seconds()
                        };
                        cast_at.after(GameDuration(seconds))
                    });
                    made.in_force = Some(InForce {
                        target: target.clone(),
                        spell: pending.spell.clone(),
                        until,
                        half_area: !half_duration,
                    });
                }
            }
            Choice::FreeWarping => {}
            Choice::OtherTarget => {
                if let Some(struck) = &struck {
                    made.in_force = struck.in_force.clone();
                    made.struck = Some(struck.event.clone());
                }
            }
            Choice::Agents | Choice::Band | Choice::Servants => {}
        }
    }
    // Firing spends the spell's MPs, unless the other pick lost those very MPs already.
    if let Some(struck) = &mut made.struck
        && made.mp_lost.is_empty()
    {
        struck.mp_spent = pending.mp_cost;
    }
    made.dice = record;
    let mut events = Vec::new();
    // A caster holds one spell at a time (VSD-9 ruling): one held before fizzles, on record.
    if made.fires_at_round.is_some()
        && let Some(held) = &vsd.delayed
    {
        events.push(Decided::Own(VsdEvent::DelayedSpellResolved(
            DelayedResolved {
                caster: who.name.to_string(),
                spell: held.spell.clone(),
                target: held.target.clone(),
                cast_seq: held.cast_seq,
                fired: false,
                mp_spent: 0,
                save_difficulty: None,
                took_hold: false,
                active_until: None,
                took_effect_at: None,
                replaced_by: Some(made.cast_seq),
                attack_due: false,
            },
        )));
    }
    events.push(Decided::Own(VsdEvent::ChoiceMade(made)));
    Ok(events)
}

/// VSD-11: spend 1 Drive; the GM re-rolls the resonance at a further −20. Dice: the resonance d100.
pub fn sever(
    state: &dyn View<Vsd>,
    name: &str,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<VsdEvent>>> {
    let (who, vsd) = caster(state, name)?;
    if !state.campaign().vsd_settings.sever_the_thread {
        return Err(Refusal::Own(VsdError::SeverOff));
    }
    let open = vsd
        .resonance_open
        .as_ref()
        .ok_or_else(|| Refusal::Own(VsdError::NoResonance(who.name.to_string())))?;
    if vsd.drive == 0 {
        return Err(Refusal::Own(VsdError::NoDrive(who.name.to_string())));
    }
    let spell = vsd.spell(&open.spell).cloned().ok_or_else(|| {
        Refusal::Own(VsdError::UnknownSpell {
            name: who.name.to_string(),
            spell: open.spell.clone(),
            known: vec![],
        })
    })?;
    let severs = open.severs + 1;
    let mut record = Vec::new();
    let resonance = roll_resonance(
        dice,
        &mut record,
        &spell,
        open.place,
        open.bonus,
        severs,
        "the thread severed",
    )?;
    let base = Pending {
        about: "resonance".into(),
        by: "GM".into(),
        options: vec![],
        pick: 1,
        cast_seq: open.cast_seq,
        spell: spell.name.clone(),
        place: open.place,
        affected: vec![who.name.to_string()],
        mp_cost: 0,
        weave: spell.weave,
        resonance_bonus: 0,
        target: None,
        cast_at: None,
    };
    let pending = resonance_pending(&resonance, base);
    Ok(vec![Decided::Own(VsdEvent::ThreadSevered(Severed {
        character: who.name.to_string(),
        cast_seq: open.cast_seq,
        severs,
        resonance,
        pending,
        dice: record,
    }))])
}

fn describe_pending(pending: &[Pending]) -> String {
    pending
        .iter()
        .map(|p| {
            let options: Vec<String> = p
                .options
                .iter()
                .map(|o| crate::words::Words::word(*o).to_string())
                .collect();
            format!(
                "{} ({} picks {}): {}",
                p.about,
                p.by,
                p.pick,
                options.join(", ")
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// VSD-9 ruling: the failed spells held to fire later whose round has ended, read on the state
/// `after` a command's events. Each fires, as a success at the lowest band (save difficulty 50)
/// with its MPs spent then, if its caster concentrated on it through the two rounds up to its own;
/// otherwise it fizzles and costs nothing. Appended to the same write, so a held spell resolves as
/// soon as its time has passed.
pub fn delayed_spells_due(after: &dyn View<Vsd>) -> Vec<VsdEvent> {
    let now = round_of(after);
    let mut resolved = Vec::new();
    for name in &after.campaign().delayed_casters {
        let Some(who) = after.someone(name.as_str()) else {
            continue;
        };
        let Some((vsd, held)) = who.mine.and_then(|v| Some((v, v.delayed.as_ref()?))) else {
            continue;
        };
        if now <= held.fires_at_round {
            continue;
        }
        let fired = vsd.concentration.as_ref().is_some_and(|c| {
            c.spell.eq_ignore_ascii_case(&held.spell)
                && c.first_round < held.fires_at_round
                && c.last_round >= held.fires_at_round
        });
        let spell = vsd.spell(&held.spell);
        let saves = spell.is_some_and(|s| s.save);
        let takes_effect_at = crate::time::GameTime((held.fires_at_round + 1) * ROUND_SECONDS);
        // A one-off (a bolt, an instantaneous spell) fires and is done: it is never in force.
        let stays_on_target =
            after.someone(&held.target).is_some() && spell.is_some_and(|s| s.stays_in_force());
        resolved.push(VsdEvent::DelayedSpellResolved(DelayedResolved {
            caster: who.name.to_string(),
            spell: held.spell.clone(),
            target: held.target.clone(),
            cast_seq: held.cast_seq,
            fired,
            mp_spent: if fired { held.mp_cost } else { 0 },
            save_difficulty: (fired && saves).then_some(50),
            took_hold: fired && !saves && stays_on_target,
            active_until: spell
                .and_then(|s| s.duration)
                .filter(|_| fired && !saves && stays_on_target)
                .map(|d| takes_effect_at.after(d)),
            took_effect_at: fired.then_some(takes_effect_at),
            replaced_by: None,
            // A bolt that fired is settled by its attack roll (VSD-14), made by `spell fire`.
            attack_due: fired && spell.is_some_and(|s| s.attack.is_some()),
        }));
    }
    resolved
}

/// A failed spell fired on another target (VSD-9 ruling), before its MPs are settled.
struct StrikesInstead {
    event: Struck,
    in_force: Option<InForce>,
}

/// Who a failed spell strikes when "other-target" is picked, and what it does there: it fires as
/// a success at the lowest band, as a held spell does. The target must be named then, and only
/// then; the caster may be it only from a failure of 126 up (the 101–125 entry offers the spell's
/// own MPs instead).
fn strikes_instead(
    state: &dyn View<Vsd>,
    who: Someone<'_, Vsd>,
    vsd: &VsdState,
    pending: &Pending,
    chosen: &[Choice],
    target: Option<&str>,
) -> Verdict<Option<StrikesInstead>> {
    let refused = |error| Err(Refusal::Own(error));
    let target = match (chosen.contains(&Choice::OtherTarget), target) {
        (false, None) => return Ok(None),
        (false, Some(_)) => return refused(VsdError::TargetWithoutOtherTarget),
        (true, None) => return refused(VsdError::OtherTargetUnnamed(who.name.to_string())),
        (true, Some(target)) => target.trim(),
    };
    if target.is_empty() {
        return refused(VsdError::OtherTargetUnnamed(who.name.to_string()));
    }
    // Words that only look like the caster are the caster: below 126 that is refused.
    if pending.options.contains(&Choice::LoseAllMps)
        && (crate::words::fold_name(target) == crate::words::fold_name(who.name)
            || crate::text::look_alike(target, who.name))
    {
        return refused(VsdError::CasterNotStruckBelow126(who.name.to_string()));
    }
    let target = &state.as_recorded(target)?;
    let character = state.someone(target);
    if let Some(c) = character
        && c.dead
    {
        return refused(VsdError::TargetDead(c.name.to_string()));
    }
    // Another target is not the one it was cast at.
    if let Some(original) = &pending.target
        && (crate::words::fold_name(original) == crate::words::fold_name(target)
            || crate::text::look_alike(original, target))
    {
        return refused(VsdError::SameTarget(original.clone()));
    }
    let spell = vsd.spell(&pending.spell);
    let saves = spell.is_some_and(|s| s.save);
    let cast_at = pending.cast_at.unwrap_or(state.clock());
    let name = character.map_or_else(|| target.to_string(), |c| c.name.to_string());
    // Without a save it takes hold at once, where it stays in force at all (VSD-8).
    let in_force = spell
        .filter(|s| !saves && character.is_some() && s.stays_in_force())
        .map(|s| InForce {
            target: name.clone(),
            spell: s.name.clone(),
            until: s.duration.map(|d| cast_at.after(d)),
            half_area: false,
        });
    Ok(Some(StrikesInstead {
        event: Struck {
            spell: pending.spell.clone(),
            target: name,
            mp_spent: 0,
            save_difficulty: saves.then_some(50),
            cast_at,
            attack_due: spell.is_some_and(|s| s.attack.is_some()),
        },
        in_force,
    }))
}
