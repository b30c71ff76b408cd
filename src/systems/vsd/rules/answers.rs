//! What answers a spell cast: a target's saving throw against it (VSD-7), and the attack roll a
//! bolt owes when it fires (VSD-9 with VSD-14).

use super::casting::{WEARY_MODIFIER, attack_range, unknown_spell};
use super::{Answered, Condition, Firing, SaveRoll, Verdict, caster};
use crate::dice::{Dice, open_ended};
use crate::systems::contract::port::{Decided, Refusal, Refused, View};
use crate::systems::vsd::Vsd;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::event::{AttackRolled, Modifier, Outcome, SaveRolled};
use crate::systems::vsd::rules::VsdError;
use crate::words::Folded;

/// VSD-7: a Willpower save, open-ended d100 + WSR, resisting when greater than the difficulty.
/// Dice: the open-ended d100 chain.
pub fn save(
    state: &dyn View<Vsd>,
    save: SaveRoll,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<VsdEvent>>> {
    let SaveRoll {
        target,
        wsr,
        against,
        cast,
    } = save;
    let target = target.as_str();
    if against == 0 || against > state.head() {
        return Err(Refusal::Core(Refused::NoSuchEvent(against, state.head())));
    }
    if state.is_retracted(against) {
        return Err(Refusal::Own(VsdError::CastRetracted(against)));
    }
    let (answered, recorded_at) = cast.ok_or(Refusal::Own(VsdError::NotACast(against)))?;
    let no_save = |why: &str| {
        Refusal::Own(VsdError::NoSaveNeeded {
            seq: against,
            why: why.into(),
        })
    };
    // The spell, its caster, the difficulty, and when its duration starts (the cast; for a held
    // spell, the end of its second round).
    let (spell, cast_by, difficulty, cast_at) = match &answered {
        Answered::Cast(cast) => {
            if cast.auto_resisted {
                return Err(no_save("on a partial success targets resist automatically"));
            }
            // A failure or an attack leaves nothing to resist; a spell that took effect without
            // a difficulty grants no save at all (VSD-7).
            let difficulty = cast.save_difficulty.ok_or_else(|| {
                no_save(match cast.outcome {
                    Outcome::Failure => "the spell did not take effect",
                    Outcome::Attack => {
                        "a bolt or area spell is settled by its attack roll, not a save"
                    }
                    Outcome::Partial | Outcome::Success | Outcome::Outstanding => {
                        "the spell grants no save"
                    }
                })
            })?;
            (&cast.spell, &cast.caster, difficulty, recorded_at)
        }
        Answered::Held(held) => {
            if !held.fired {
                return Err(no_save("the held spell fizzled"));
            }
            let difficulty = held
                .save_difficulty
                .ok_or_else(|| no_save("the spell grants no save"))?;
            let at = held.took_effect_at.unwrap_or(recorded_at);
            (&held.spell, &held.caster, difficulty, at)
        }
        Answered::Struck { caster, struck } => {
            let difficulty = struck
                .save_difficulty
                .ok_or_else(|| no_save("the spell grants no save"))?;
            // It struck one target instead of its own: only they can resist it.
            if crate::words::fold_name(target) != crate::words::fold_name(&struck.target) {
                return Err(no_save(&format!(
                    "it struck {}, no one else",
                    struck.target
                )));
            }
            (&struck.spell, caster, difficulty, struck.cast_at)
        }
    };
    let character = state.someone(target);
    let target_name = character.map_or(target, |c| c.name);
    // VSD-7 and VSD-8 (rulings): one save per target per cast, and only against the newest casting of
    // the spell on that target.
    if let Some(casting) = state
        .campaign()
        .castings_on
        .get(&Folded::of(target))
        .and_then(|spells| spells.get(&Folded::of(spell)))
    {
        if casting.cast_seq > against {
            return Err(Refusal::Own(VsdError::NoSaveNeeded {
                seq: against,
                why: format!(
                    "{spell} was cast on {target_name} again at #{}, and only the newest casting counts",
                    casting.cast_seq
                ),
            }));
        }
        if casting.cast_seq == against && casting.saved {
            return Err(Refusal::Own(VsdError::NoSaveNeeded {
                seq: against,
                why: format!("{target_name} has already saved against it (one save per cast)"),
            }));
        }
    }
    let own = character.and_then(|c| c.mine).map(|v| i64::from(v.wsr));
    // A character's save uses their own sheet; a bonus typed for them would quietly replace it.
    if let (Some(_), Some(own)) = (wsr, own) {
        return Err(Refusal::Own(VsdError::WsrOfTheirOwn {
            name: target_name.to_string(),
            wsr: own,
        }));
    }
    let wsr = wsr
        .or(own)
        .ok_or_else(|| Refusal::Own(VsdError::WsrNeeded(target.to_string())))?;
    let (record, chain) = open_ended::roll(dice, "Willpower save", false)?;
    let faces: Vec<u32> = chain.iter().map(|d| d.value).collect();
    let roll = open_ended::chain_total(&faces);
    let total = roll.saturating_add(wsr);
    let resisted = total > i64::from(difficulty);
    let duration = state
        .someone(cast_by)
        .and_then(|c| c.mine?.spell(spell))
        .and_then(|s| s.duration)
        .filter(|_| character.is_some());
    Ok(vec![Decided::Own(VsdEvent::SaveRolled(SaveRolled {
        target: character.map_or_else(|| target.to_string(), |c| c.name.to_string()),
        against,
        spell: spell.clone(),
        caster: cast_by.clone(),
        difficulty,
        wsr,
        roll,
        total,
        resisted,
        // Ruling: a spell's duration runs from its cast, not from the save.
        active_until: if resisted {
            None
        } else {
            duration.map(|d| cast_at.after(d))
        },
        dice: record,
    }))])
}

/// VSD-9 with VSD-14: the attack roll of a bolt that fired after its cast failed (the one owed, or
/// of several the one `--cast` names): open-ended d100 + Spell Lore bonus + the attack range's modifier + the GM's − the
/// target's Defense. **Ruling:** a first die of 01–10 is a fumble that misses; the cast's failure
/// was rolled already, so it goes to no table again. Dice: the open-ended d100 chain.
pub fn fire(
    state: &dyn View<Vsd>,
    firing: Firing,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<VsdEvent>>> {
    let (who, vsd) = caster(state, &firing.character)?;
    let owed = || {
        (vsd.attacks_due.iter())
            .map(|due| format!("{} at {} (from #{})", due.spell, due.target, due.cast_seq))
            .collect::<Vec<_>>()
    };
    // One attack owed is the one meant; of several, the table names which (a roll put to a phone
    // is then bound to its bolt, whatever is rolled at the table meanwhile).
    let due = vsd.attack_owed(firing.cast).ok_or_else(|| {
        let name = who.name.to_string();
        Refusal::Own(match firing.cast {
            _ if vsd.attacks_due.is_empty() => VsdError::NoAttackDue(name),
            None => VsdError::WhichAttack { name, owed: owed() },
            Some(cast) => VsdError::NotThatAttack {
                name,
                cast,
                owed: owed(),
            },
        })
    })?;
    let mut modifiers = Vec::new();
    let mut add = |what: &str, value: i64| {
        if value != 0 {
            modifiers.push(Modifier {
                what: what.to_string(),
                value,
            });
        }
    };
    add("attack range", attack_range(firing.range, &due.spell)?);
    add("GM modifier", firing.gm_modifier);
    if vsd.has_condition(Condition::Weary, state.clock()) {
        add("weary", WEARY_MODIFIER);
    }
    let target = state
        .someone(&due.target)
        .and_then(|c| Some((c.name, c.mine?)));
    // A character's Defense is on their sheet; a number typed for them would quietly replace it.
    if let (Some((name, sheet)), Some(_)) = (target, firing.defense) {
        return Err(Refusal::Own(VsdError::DefenseOfTheirOwn {
            name: name.to_string(),
            defense: sheet.defense,
        }));
    }
    let defense = firing
        .defense
        .or(target.map(|(_, sheet)| sheet.defense))
        .unwrap_or(0);
    // The lore bonus is the spell's lore's: a spell no longer known (its learning retracted) has
    // none to give, and is refused rather than rolled at +0.
    let spell = vsd
        .spell(&due.spell)
        .ok_or_else(|| unknown_spell(who.name, vsd, &due.spell))?;
    let lore_bonus = vsd
        .lore(&spell.lore)
        .map_or(0, |lore| i64::from(lore.bonus));
    let (record, chain) = open_ended::roll_attack(dice, "attack roll")?;
    let fumbled = chain.is_empty();
    let faces: Vec<u32> = match fumbled {
        true => record.iter().filter_map(|d| d.value).collect(),
        false => chain.iter().map(|d| d.value).collect(),
    };
    let roll = open_ended::chain_total(&faces);
    if defense != 0 && !fumbled {
        modifiers.push(Modifier {
            what: "target's Defense".into(),
            value: defense.saturating_neg(),
        });
    }
    // Saturating, as a cast's total is: a modifier from another front end may be any number.
    let total = modifiers
        .iter()
        .fold(roll.saturating_add(lore_bonus), |sum, m| {
            sum.saturating_add(m.value)
        });
    Ok(vec![Decided::Own(VsdEvent::AttackRolled(AttackRolled {
        caster: who.name.to_string(),
        spell: due.spell.clone(),
        target: due.target.clone(),
        cast_seq: due.cast_seq,
        modifiers,
        lore_bonus,
        roll,
        total,
        fumbled,
        dice: record,
    }))])
}
