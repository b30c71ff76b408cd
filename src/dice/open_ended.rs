//! The open-ended d100 (docs/rules.md VSD-1).

use super::{Dice, DiceError, Die};

/// One die of an open-ended chain, as the rules need to see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainDie {
    pub value: u32,
    /// Whether this die's value was subtracted (the low chain after an opening 01–05).
    pub subtracted: bool,
}

/// Whether a d100 face continues a chain.
fn is_high(value: u32) -> bool {
    (96..=100).contains(&value)
}

/// Whether an opening face starts a subtracting chain.
fn is_low(value: u32) -> bool {
    (1..=5).contains(&value)
}

/// The total of a chain given its faces in order; the single source of the VSD-1 arithmetic, used both
/// when rolling and when explaining a stored roll.
pub fn chain_total(faces: &[u32]) -> i64 {
    let Some((&first, rest)) = faces.split_first() else {
        return 0;
    };
    let sign = if is_low(first) { -1 } else { 1 };
    i64::from(first) + rest.iter().map(|&v| sign * i64::from(v)).sum::<i64>()
}

/// How many faces a chain that opens with `faces` still needs: the chain goes on after the first die
/// when it is high or low, and after any later die while that die is high.
pub fn needs_another(faces: &[u32]) -> bool {
    match faces {
        [] => true,
        [first] => is_high(*first) || is_low(*first),
        [.., last] => is_high(*last),
    }
}

/// VSD-14 ruling: an attack roll. Its first die showing 01–10 is a fumble: the roll ends there, and
/// the chain comes back empty (the die is in the records). Otherwise it goes on as an open-ended
/// roll (a first die of 11–95 ends it, 96–100 rolls again and adds).
pub fn roll_attack(
    dice: &mut Dice<'_>,
    purpose: &str,
) -> Result<(Vec<Die>, Vec<ChainDie>), DiceError> {
    let first = dice.roll(100, &format!("{purpose} (open-ended d100)"))?;
    let face = first.value.unwrap_or_default();
    let mut records = vec![first];
    if face <= 10 {
        return Ok((records, Vec::new()));
    }
    let mut faces = vec![face];
    while needs_another(&faces) {
        let die = dice.roll(
            100,
            &format!("{purpose} (open-ended, rolled again and added)"),
        )?;
        faces.push(die.value.unwrap_or_default());
        records.push(die);
    }
    let chain = faces
        .into_iter()
        .map(|value| ChainDie {
            value,
            subtracted: false,
        })
        .collect();
    Ok((records, chain))
}

/// Rolls an open-ended d100, each die recorded with `purpose`. A sealed roll is sealed whole: one
/// record and one commitment for the chain, so its length (which gives the first die away) stays
/// secret until the reveal.
pub fn roll(
    dice: &mut Dice<'_>,
    purpose: &str,
    sealed: bool,
) -> Result<(Vec<Die>, Vec<ChainDie>), DiceError> {
    let mut records = Vec::new();
    let mut faces = Vec::new();
    if sealed {
        let what = format!("{purpose} (open-ended d100, sealed whole)");
        let (die, chain) = dice.roll_sealed_chain(100, &what, needs_another)?;
        records.push(die);
        faces = chain;
    }
    while needs_another(&faces) {
        let what = match faces.first() {
            None => format!("{purpose} (open-ended d100)"),
            Some(&first) if is_low(first) => {
                format!("{purpose} (open-ended, rolled again and subtracted)")
            }
            Some(_) => format!("{purpose} (open-ended, rolled again and added)"),
        };
        let die = dice.roll(100, &what)?;
        faces.push(die.value.unwrap_or_default());
        records.push(die);
    }
    let low = faces.first().is_some_and(|&f| is_low(f));
    let chain = faces
        .iter()
        .enumerate()
        .map(|(i, &value)| ChainDie {
            value,
            subtracted: low && i > 0,
        })
        .collect();
    Ok((records, chain))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn roll_entered(values: Vec<u32>) -> Result<(Vec<u32>, i64), DiceError> {
        let mut rng = StdRng::seed_from_u64(0);
        let mut dice = Dice::entered(values, &mut rng);
        let (records, _) = roll(&mut dice, "test", false)?;
        dice.finish()?;
        let faces: Vec<u32> = records.iter().filter_map(|d| d.value).collect();
        let total = chain_total(&faces);
        Ok((faces, total))
    }

    #[test]
    fn vsd1_a_middle_roll_stands_alone() {
        assert_eq!(roll_entered(vec![50]).unwrap(), (vec![50], 50));
        assert_eq!(roll_entered(vec![6]).unwrap(), (vec![6], 6));
        assert_eq!(roll_entered(vec![95]).unwrap(), (vec![95], 95));
    }

    #[test]
    fn vsd1_high_rolls_add_and_keep_adding_while_96_or_more() {
        assert_eq!(roll_entered(vec![96, 40]).unwrap(), (vec![96, 40], 136));
        assert_eq!(
            roll_entered(vec![100, 98, 3]).unwrap(),
            (vec![100, 98, 3], 201)
        );
    }

    #[test]
    fn vsd1_low_rolls_subtract_and_keep_subtracting_while_96_or_more() {
        assert_eq!(roll_entered(vec![5, 40]).unwrap(), (vec![5, 40], -35));
        assert_eq!(
            roll_entered(vec![1, 97, 12]).unwrap(),
            (vec![1, 97, 12], 1 - 97 - 12)
        );
        // A low second die ends the subtracting chain: only 96+ continues it.
        assert_eq!(roll_entered(vec![3, 2]).unwrap(), (vec![3, 2], 1));
    }

    #[test]
    fn vsd1_every_die_of_the_chain_is_recorded_and_extra_values_refused() {
        assert!(matches!(
            roll_entered(vec![99]),
            Err(DiceError::TooFew { .. })
        ));
        assert!(matches!(
            roll_entered(vec![50, 7]),
            Err(DiceError::TooMany { .. })
        ));
    }
}
