//! `audit dice`: whether the dice in the log look fair, group by group.

use super::Globals;
use super::output::Report;
use crate::Error;
use crate::audit::Origin;
use crate::read::audit::DiceQuestion;
use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    Dice(AuditDiceArgs),
}

/// Check that the dice in the log look like fair dice. Records nothing.
///
/// For each die size and source (entered at the table, seeded by grimoire, sealed by the GM once
/// revealed: typed, or rolled by grimoire) it counts every face and runs Pearson's chi-square test
/// against a fair die, both ways (too uneven, or too even to be chance), and tests whether the
/// characters, and the actors, who rolled in it got different faces from one another (a split
/// rigged between them can leave the pool looking fair). Every p-value is adjusted for the number
/// of tests (Holm's method) and flagged below 0.001: fair dice are flagged in at most one audit in
/// a thousand. Ranks are compared too (Kruskal-Wallis): between every character, however few its
/// rolls, and between players' characters (linked to a phone) and the rest. A group with too few
/// rolls says how many it needs. Only the public log is read; retracted rolls count, since they
/// were rolled, and the audit ends by naming the rolls retracted, the rolls made after each of
/// them (in its session until its retraction, and the first after it), those restored, and those
/// amended (their inputs fixed, their dice kept).
#[derive(Debug, Args)]
pub struct AuditDiceArgs {
    /// Only dice of commands entered by this actor (any case).
    #[arg(long, value_name = "ACTOR")]
    pub by: Option<String>,
    /// Only dice of events about this character (rolls made with `roll --character` included).
    #[arg(long, value_name = "NAME")]
    pub character: Option<String>,
    /// Only dice of this origin.
    #[arg(long, value_enum)]
    pub provenance: Option<Origin>,
    /// Only dice of this size, e.g. d20.
    #[arg(long, value_name = "dN", value_parser = parse_die)]
    pub die: Option<u32>,
}

fn parse_die(text: &str) -> Result<u32, String> {
    let digits = text.trim().trim_start_matches(['d', 'D']);
    match digits.parse::<u32>() {
        Ok(sides) if sides >= 2 => Ok(sides),
        _ => Err(format!(
            "'{text}' is not a die; write it as d20, d6, d100 (two sides or more)"
        )),
    }
}

pub fn run(g: &Globals, command: &AuditCommand) -> Result<Report, Error> {
    let AuditCommand::Dice(args) = command;
    let question = DiceQuestion {
        by: args.by.clone(),
        character: args.character.clone(),
        provenance: args.provenance,
        die: args.die,
    };
    Ok(crate::read::audit::dice(&mut *g.open()?, &question)?.into())
}

/// `--provenance`'s values: the audit's own words for where dice came from.
impl clap::ValueEnum for Origin {
    fn value_variants<'a>() -> &'a [Origin] {
        &[
            Origin::Entered,
            Origin::Seeded,
            Origin::Sealed,
            Origin::Device,
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let help = match self {
            Origin::Entered => "Physical dice typed in with `--rolls`",
            Origin::Seeded => "grimoire's provably fair dice",
            Origin::Sealed => "A GM's sealed dice, once revealed",
            Origin::Device => "Dice a player's device rolled, or witnessed for the GM",
        };
        Some(clap::builder::PossibleValue::new(self.word()).help(help))
    }
}
