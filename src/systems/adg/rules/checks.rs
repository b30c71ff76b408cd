//! d20 checks, exertion and table results (ADG-C1, ADG-C3, ADG-R6, ADG-R7).

use super::tables::{AdgTables, Amount, Effect, TableEntry};
use super::{Attribute, Verdict};
use crate::dice::{Dice, DiceExpr, Die};
use crate::systems::adg::event::{Check, TableResult, WordReplacement};
use crate::systems::adg::rules::AdgError;
use crate::systems::adg::state::{AdgState, Attributes};
use crate::systems::contract::port::Refusal;

/// Exertion that would bring an attribute below 1 is refused (ADG-C3 ruling).
pub fn can_exert(adg: &AdgState, attribute: Attribute, amount: u32) -> Verdict<()> {
    let current = adg.current(attribute);
    if amount == 0 || current <= amount {
        return Err(Refusal::Own(AdgError::ExertionTooHigh {
            attribute: attribute.to_string(),
            current,
            amount,
        }));
    }
    Ok(())
}

/// Rolls one die and keeps its record.
pub fn roll(dice: &mut Dice<'_>, record: &mut Vec<Die>, sides: u32, purpose: &str) -> Verdict<u32> {
    let die = dice.roll(sides, purpose)?;
    let value = die.value.unwrap_or_default();
    record.push(die);
    Ok(value)
}

/// Rolls an expression (e.g. a mishap's 1d6) and keeps its records.
pub fn roll_expr(
    dice: &mut Dice<'_>,
    record: &mut Vec<Die>,
    expr: &DiceExpr,
    purpose: &str,
) -> Verdict<u32> {
    let rolled = expr.roll(dice, purpose, false)?;
    record.extend(rolled.dice);
    Ok(u32::try_from(rolled.total.unwrap_or(0).max(0)).unwrap_or(0))
}

/// A d20 check at or under `target` (ADG-C1). With `exert`, a failure is turned into a success by
/// exerting exactly roll − target points, if the attribute can pay them and stay at 1 or more
/// (ADG-C3); `blocked_at_or_under` is ADG-R8's damage taken, under which no roll succeeds.
pub fn check(
    dice: &mut Dice<'_>,
    record: &mut Vec<Die>,
    attribute: Attribute,
    target: u32,
    exert: bool,
    blocked_at_or_under: Option<u32>,
    purpose: &str,
) -> Verdict<Check> {
    let roll = roll(dice, record, 20, purpose)?;
    let blocked = blocked_at_or_under.is_some_and(|damage| roll <= damage);
    let mut result = Check {
        attribute,
        target,
        roll,
        success: roll <= target && !blocked,
        exact: roll == target && !blocked,
        exerted: 0,
    };
    if !result.success && exert && roll > target && !blocked {
        let needed = roll - target;
        if target > needed {
            result.exerted = needed;
            result.success = true;
        }
    }
    Ok(result)
}

/// Reads a table entry and resolves its structured effects, rolling what they need in entry order.
/// `words` are the ritual's words as spoken, for word replacements (absent for scroll damage).
/// `room` is what each attribute can still be exerted: a table's exertion never takes an attribute
/// below 1 (the ADG-C3 ruling), so it is cut to fit, and `room` shrinks by what was taken.
pub fn resolve_entry(
    dice: &mut Dice<'_>,
    record: &mut Vec<Die>,
    tables: &AdgTables,
    entry: &TableEntry,
    total: i64,
    words: Option<&[String]>,
    room: &mut Attributes,
) -> Verdict<TableResult> {
    let mut result = TableResult {
        total,
        text: entry.text.clone(),
        damage: 0,
        exertions: vec![],
        replaced: None,
        lockout: false,
    };
    for effect in &entry.effects {
        match effect {
            Effect::Damage(expr) => result.damage += roll_expr(dice, record, expr, "table damage")?,
            Effect::Exert { attribute, amount } => {
                let rolled = match amount {
                    Amount::Fixed(n) => *n,
                    Amount::Roll(expr) => roll_expr(dice, record, expr, "table exertion")?,
                };
                let left = room.get_mut(*attribute);
                let points = rolled.min(*left);
                *left -= points;
                result.exertions.push((*attribute, points));
            }
            Effect::ReplaceWord { word, remembered } => {
                let Some(old) = words.and_then(|w| w.get(word.index())) else {
                    continue;
                };
                let face = roll(dice, record, 20, "replacement word")?;
                let new = tables
                    .word(word.index(), face)
                    .map(|e| e.word.clone())
                    .unwrap_or_else(|| old.clone());
                result.replaced = Some(WordReplacement {
                    slot: *word,
                    old: old.clone(),
                    new,
                    remembered: *remembered,
                });
            }
            Effect::Lockout => result.lockout = true,
        }
    }
    Ok(result)
}

/// A mishap: 2d6 + the difference on the mishap table (ADG-R7).
pub fn mishap(
    dice: &mut Dice<'_>,
    record: &mut Vec<Die>,
    tables: &AdgTables,
    difference: u32,
    words: Option<&[String]>,
    room: &mut Attributes,
) -> Verdict<TableResult> {
    let a = roll(dice, record, 6, "mishap 2d6")?;
    let b = roll(dice, record, 6, "mishap 2d6")?;
    let total = i64::from(a + b) + i64::from(difference);
    resolve_entry(
        dice,
        record,
        tables,
        tables.mishap(total),
        total,
        words,
        room,
    )
}

/// `count` d6 of damage or healing (ADG-R6, ADG-S2).
pub fn d6s(dice: &mut Dice<'_>, record: &mut Vec<Die>, count: u32, purpose: &str) -> Verdict<u32> {
    let mut total = 0;
    for _ in 0..count {
        total += roll(dice, record, 6, purpose)?;
    }
    Ok(total)
}
