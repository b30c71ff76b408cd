//! `diff` and `session recap`: their arguments; what they say is read in [`crate::read::recap`].

use super::Globals;
use super::output::Report;
use crate::Error;
use crate::read::recap::{Between, Whom};
use crate::store::Point;
use clap::Args;

/// Show what changed for characters between two points: every value of their sheets that differs
/// (health, attributes and exertion, rituals, silver, scrolls, MPs, Drive, conditions, spells in
/// force, pending choices…) and the events that touched them. Records nothing.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The characters to compare (any case); or --party for everyone.
    #[arg(value_name = "NAMES")]
    pub names: Vec<String>,
    /// Every character, instead of naming them.
    #[arg(long, conflicts_with = "names")]
    pub party: bool,
    /// The earlier point: an event number, session:N, session-start:N, day:D or now.
    #[arg(long, value_name = "POINT")]
    pub from: Point,
    /// The later point (now when not given).
    #[arg(long, value_name = "POINT")]
    pub to: Option<Point>,
}

pub fn diff(g: &Globals, args: &DiffArgs) -> Result<Report, Error> {
    if args.party != args.names.is_empty() {
        return Err(Error::Usage(
            "name the characters to compare, or give --party for everyone (not both)".into(),
        ));
    }
    let question = Between {
        who: match args.party {
            true => Whom::Party,
            false => Whom::Named(args.names.clone()),
        },
        from: args.from,
        to: args.to.unwrap_or(Point::Now),
    };
    let width = super::output::terminal_width();
    Ok(crate::read::recap::diff(&mut *g.open()?, &question, width)?.into())
}

/// Sum up a game session: time passed, damage and healing, rituals and spells cast, mishaps,
/// failures, resonance, scrolls, retractions, dice by origin, then each character's changes from
/// the session's start to its end. Records nothing.
#[derive(Debug, Args)]
pub struct RecapArgs {
    /// The session's number (the newest session when not given).
    pub number: Option<u32>,
}

pub fn recap(g: &Globals, args: &RecapArgs) -> Result<Report, Error> {
    let width = super::output::terminal_width();
    Ok(crate::read::recap::recap(&mut *g.open()?, args.number, width)?.into())
}
