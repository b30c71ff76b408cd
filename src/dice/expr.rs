//! Dice expressions for free rolls: `2d6+3`, `d20`, `d%`, `3d6-1d4+2` and `oe`/`d100oe` (the
//! open-ended d100 of docs/rules.md VSD-1).

use super::open_ended;
use super::{Dice, DiceError, Die};
use serde::{Deserialize, Serialize};
use std::fmt;

const MAX_LENGTH: usize = 100;
const MAX_TERMS: usize = 20;
const MAX_COUNT: u32 = 100;
/// The most sides a die grimoire rolls may have.
pub const MAX_SIDES: u32 = 1000;
const MAX_CONSTANT: i64 = 1_000_000;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Term {
    Dice { count: u32, sides: u32 },
    OpenEnded,
    Constant(i64),
}

/// A parsed expression; a sum of signed terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DiceExpr {
    terms: Vec<(i64, Term)>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{input}' is not a dice expression: {why}. Examples: d20, 2d6+3, 3d6-1d4, d% (a d100), oe (open-ended d100), oe+35"
)]
pub struct ExprError {
    pub input: String,
    pub why: String,
}

/// The outcome of rolling an expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rolled {
    pub dice: Vec<Die>,
    /// `None` when the roll is sealed.
    pub total: Option<i64>,
}

impl DiceExpr {
    pub fn parse(input: &str) -> Result<DiceExpr, ExprError> {
        let fail = |why: &str| ExprError {
            input: input.chars().take(40).collect(),
            why: why.to_string(),
        };
        if input.len() > MAX_LENGTH {
            return Err(fail("it is longer than 100 characters"));
        }
        let text: String = input
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase();
        if text.is_empty() {
            return Err(fail("it is empty"));
        }
        let mut terms = Vec::new();
        let mut rest = text.as_str();
        let mut sign = 1;
        if let Some(stripped) = rest.strip_prefix('-') {
            sign = -1;
            rest = stripped;
        } else if let Some(stripped) = rest.strip_prefix('+') {
            rest = stripped;
        }
        loop {
            let end = rest.find(['+', '-']).unwrap_or(rest.len());
            let (term_text, after) = rest.split_at(end);
            terms.push((sign, parse_term(term_text).map_err(|why| fail(&why))?));
            if terms.len() > MAX_TERMS {
                return Err(fail("it has more than 20 terms"));
            }
            let Some(op) = after.chars().next() else {
                break;
            };
            sign = if op == '-' { -1 } else { 1 };
            rest = &after[1..];
        }
        if terms.iter().all(|(_, t)| matches!(t, Term::Constant(_))) {
            return Err(fail("it rolls no dice"));
        }
        Ok(DiceExpr { terms })
    }

    /// Rolls every die in order (terms left to right; an open-ended term draws its whole chain
    /// before the next term).
    pub fn roll(
        &self,
        dice: &mut Dice<'_>,
        purpose: &str,
        sealed: bool,
    ) -> Result<Rolled, DiceError> {
        let mut records = Vec::new();
        let mut total = 0i64;
        for (sign, term) in &self.terms {
            match term {
                Term::Constant(c) => total += sign * c,
                Term::Dice { count, sides } => {
                    for _ in 0..*count {
                        let label = format!("{purpose} (d{sides})");
                        let (die, value) = if sealed {
                            dice.roll_sealed(*sides, &label)?
                        } else {
                            let die = dice.roll(*sides, &label)?;
                            let value = die.value.unwrap_or_default();
                            (die, value)
                        };
                        records.push(die);
                        total += sign * i64::from(value);
                    }
                }
                Term::OpenEnded => {
                    let (chain_records, chain) = open_ended::roll(dice, purpose, sealed)?;
                    let faces: Vec<u32> = chain.iter().map(|d| d.value).collect();
                    total += sign * open_ended::chain_total(&faces);
                    records.extend(chain_records);
                }
            }
        }
        Ok(Rolled {
            dice: records,
            total: (!sealed).then_some(total),
        })
    }

    /// The sides of the die behind each face, term by term as `faces` fill the expression (an
    /// open-ended term takes d100s until its chain stops); `None` when the faces do not fit.
    pub fn sides_of(&self, faces: &[u32]) -> Option<Vec<u32>> {
        let mut sides = Vec::with_capacity(faces.len());
        let mut next = faces.iter().copied();
        for (_, term) in &self.terms {
            match term {
                Term::Constant(_) => {}
                Term::Dice { count, sides: each } => {
                    for _ in 0..*count {
                        next.next()?;
                        sides.push(*each);
                    }
                }
                Term::OpenEnded => {
                    let mut chain = Vec::new();
                    while open_ended::needs_another(&chain) {
                        chain.push(next.next()?);
                        sides.push(100);
                    }
                }
            }
        }
        next.next().is_none().then_some(sides)
    }

    /// The sides of the dice a sealed roll of this expression holds, term by term: its faces are
    /// hidden, but not its dice. An open-ended term's chain is one die sealed whole, as every
    /// grimoire since payload version 3 seals it (an older one may have sealed a die a face: its
    /// dice may then be of the sizes [`Self::die_sizes`] names).
    pub fn sealed_sides(&self) -> Vec<u32> {
        let mut sides = Vec::new();
        for (_, term) in &self.terms {
            match term {
                Term::Constant(_) => {}
                Term::Dice { count, sides: each } => {
                    sides.extend(std::iter::repeat_n(*each, *count as usize));
                }
                Term::OpenEnded => sides.push(100),
            }
        }
        sides
    }

    /// Whether the expression has an open-ended term.
    pub fn is_open_ended(&self) -> bool {
        (self.terms.iter()).any(|(_, term)| matches!(term, Term::OpenEnded))
    }

    /// The sizes of die the expression rolls (100 for an open-ended term).
    pub fn die_sizes(&self) -> Vec<u32> {
        (self.terms.iter())
            .filter_map(|(_, term)| match term {
                Term::Constant(_) => None,
                Term::Dice { sides, .. } => Some(*sides),
                Term::OpenEnded => Some(100),
            })
            .collect()
    }

    /// Re-adds a stored roll from its faces, term by term, for `explain`: e.g. `4+2 +3 = 9`.
    /// `None` when the faces do not fit the expression (a damaged or hand-edited event).
    pub fn breakdown(&self, faces: &[u32]) -> Option<(String, i64)> {
        let mut parts = Vec::new();
        let mut total = 0i64;
        let mut next = faces.iter().copied();
        for (sign, term) in &self.terms {
            let (text, value) = match term {
                Term::Constant(c) => (c.to_string(), *c),
                Term::Dice { count, .. } => {
                    let faces: Vec<u32> =
                        (0..*count).map(|_| next.next()).collect::<Option<_>>()?;
                    let sum: i64 = faces.iter().map(|&f| i64::from(f)).sum();
                    let shown: Vec<String> = faces.iter().map(u32::to_string).collect();
                    (format!("[{}]", shown.join("+")), sum)
                }
                Term::OpenEnded => {
                    let mut chain = Vec::new();
                    while open_ended::needs_another(&chain) {
                        chain.push(next.next()?);
                    }
                    let value = open_ended::chain_total(&chain);
                    let low = chain.len() > 1 && value < i64::from(chain[0]);
                    let joiner = if low { "-" } else { "+" };
                    let shown: Vec<String> = chain.iter().map(u32::to_string).collect();
                    (format!("[{}]", shown.join(joiner)), value)
                }
            };
            let op = if sign < &0 {
                "- "
            } else if parts.is_empty() {
                ""
            } else {
                "+ "
            };
            parts.push(format!("{op}{text}"));
            total += sign * value;
        }
        if next.next().is_some() {
            return None;
        }
        Some((format!("{} = {total}", parts.join(" ")), total))
    }
}

fn parse_term(text: &str) -> Result<Term, String> {
    if text.is_empty() {
        return Err("a + or - must sit between two terms".into());
    }
    if text == "oe" || text == "d100oe" {
        return Ok(Term::OpenEnded);
    }
    let Some((count_text, sides_text)) = text.split_once('d') else {
        let value: i64 = text
            .parse()
            .map_err(|_| format!("'{text}' is neither a number nor a die like 2d6"))?;
        if value > MAX_CONSTANT {
            return Err(format!("constants above {MAX_CONSTANT} are not accepted"));
        }
        return Ok(Term::Constant(value));
    };
    let count: u32 = if count_text.is_empty() {
        1
    } else {
        count_text
            .parse()
            .map_err(|_| format!("'{count_text}' is not a number of dice"))?
    };
    let sides: u32 = if sides_text == "%" {
        100
    } else {
        sides_text
            .parse()
            .map_err(|_| format!("'{sides_text}' is not a number of sides"))?
    };
    if !(1..=MAX_COUNT).contains(&count) {
        return Err(format!("roll 1 to {MAX_COUNT} dice in a term, not {count}"));
    }
    if !(2..=MAX_SIDES).contains(&sides) {
        return Err(format!("dice have 2 to {MAX_SIDES} sides, not {sides}"));
    }
    Ok(Term::Dice { count, sides })
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (sign, term)) in self.terms.iter().enumerate() {
            if *sign < 0 {
                write!(f, "-")?;
            } else if i > 0 {
                write!(f, "+")?;
            }
            match term {
                Term::Dice { count: 1, sides } => write!(f, "d{sides}")?,
                Term::Dice { count, sides } => write!(f, "{count}d{sides}")?,
                Term::OpenEnded => write!(f, "d100oe")?,
                Term::Constant(c) => write!(f, "{c}")?,
            }
        }
        Ok(())
    }
}

impl TryFrom<String> for DiceExpr {
    type Error = ExprError;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        DiceExpr::parse(&text)
    }
}

impl From<DiceExpr> for String {
    fn from(expr: DiceExpr) -> String {
        expr.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use rand::SeedableRng;
    use rand::rngs::StdRng;

    /// Each face's die, term by term: an open-ended chain's faces are d100s for as long as it
    /// goes on; faces that do not fit the expression have none.
    #[test]
    fn sides_of_names_each_faces_die_in_the_order_they_fill_the_expression() {
        let expr = DiceExpr::parse("2d6+oe+d4").unwrap();
        assert_eq!(
            expr.sides_of(&[3, 4, 97, 12, 2]),
            Some(vec![6, 6, 100, 100, 4])
        );
        assert_eq!(expr.sides_of(&[3, 4, 50, 2]), Some(vec![6, 6, 100, 4]));
        assert_eq!(expr.sides_of(&[3, 4, 97]), None, "the chain is cut short");
        assert_eq!(expr.sides_of(&[3, 4, 50, 2, 1]), None, "a face too many");
    }
    fn roll_entered(expr: &str, values: Vec<u32>) -> Result<Rolled, DiceError> {
        let mut rng = StdRng::seed_from_u64(0);
        let mut dice = Dice::entered(values, &mut rng);
        let rolled = DiceExpr::parse(expr)
            .unwrap()
            .roll(&mut dice, "test", false)?;
        dice.finish()?;
        Ok(rolled)
    }

    #[test]
    fn expressions_parse_and_print_in_a_normal_form() {
        for (input, shown) in [
            ("d20", "d20"),
            ("2D6 + 3", "2d6+3"),
            ("3d6-1d4+2", "3d6-d4+2"),
            ("d%", "d100"),
            ("oe+35", "d100oe+35"),
            ("-2+d8", "-2+d8"),
        ] {
            assert_eq!(
                DiceExpr::parse(input).unwrap().to_string(),
                shown,
                "{input}"
            );
        }
    }

    #[test]
    fn malformed_expressions_say_what_is_wrong() {
        for (bad, why) in [
            ("", "empty"),
            ("2d", "number of sides"),
            ("d1", "2 to 1000 sides"),
            ("0d6", "1 to 100 dice"),
            ("101d6", "1 to 100 dice"),
            ("d6++2", "between two terms"),
            ("5", "rolls no dice"),
            ("abc", "neither a number"),
            ("99999999999d6", "number of dice"),
            ("d6+9999999", "constants above"),
        ] {
            let err = DiceExpr::parse(bad).unwrap_err();
            assert!(err.why.contains(why), "{bad}: {err}");
        }
        assert!(
            DiceExpr::parse(&"d6+".repeat(40))
                .unwrap_err()
                .why
                .contains("longer")
        );
    }

    #[test]
    fn rolling_sums_every_term_in_draw_order() {
        let rolled = roll_entered("2d6+3", vec![4, 2]).unwrap();
        assert_eq!(rolled.total, Some(9));
        assert_eq!(
            rolled.dice.iter().map(|d| d.n).collect::<Vec<_>>(),
            vec![0, 1]
        );
        assert_eq!(
            roll_entered("d20-1d4-1", vec![15, 3]).unwrap().total,
            Some(11)
        );
        assert_eq!(
            roll_entered("oe+10", vec![97, 50]).unwrap().total,
            Some(157)
        );
    }

    #[test]
    fn breakdown_re_adds_stored_faces() {
        let expr = DiceExpr::parse("2d6+oe-1").unwrap();
        assert_eq!(
            expr.breakdown(&[4, 2, 3, 99, 10]).unwrap(),
            ("[4+2] + [3-99-10] - 1 = -101".into(), 6 + 3 - 109 - 1)
        );
        assert_eq!(expr.breakdown(&[4, 2]), None, "too few faces");
        assert_eq!(expr.breakdown(&[4, 2, 50, 1]), None, "too many faces");
    }

    #[test]
    fn sealed_rolls_hide_the_total() {
        let mut rng = StdRng::seed_from_u64(0);
        let mut dice = Dice::entered(vec![12], &mut rng);
        let rolled = DiceExpr::parse("d20")
            .unwrap()
            .roll(&mut dice, "gm", true)
            .unwrap();
        assert_eq!(rolled.total, None);
        assert_eq!(rolled.dice[0].value, None);
    }
}
