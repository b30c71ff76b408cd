//! The library's error type. Which exit code each maps to is the command line's choice
//! (`cli::outcome::exit_code`).

use crate::dice::DiceError;
use crate::dice::expr::ExprError;
use crate::rules::RuleError;
use crate::store::StoreError;
use crate::time::DurationError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Input that is malformed whatever the campaign holds.
    #[error("{0}")]
    Usage(String),
    /// The person asked for dice (`--rolls ask`) gave up before entering them all.
    #[error(
        "no value was entered for die {} (a d{} for {}), so nothing was recorded",
        .0.number, .0.sides, .0.purpose
    )]
    Abandoned(crate::dice::DieWanted),
    /// The person stopped waiting for a phone's answer (Ctrl-C): the request stays put to it.
    #[error(
        "stopped waiting; request {request} stays put to {player}'s phone, which can still answer it (its answer and the command it completes are recorded then, as `grimoire log` will show), or `grimoire player withdraw {request}` takes it back"
    )]
    StoppedWaiting {
        request: crate::ids::RequestId,
        player: String,
    },
    /// The log moved on between asking for dice and recording them (the dice are asked again).
    #[error("the log moved on while dice were being entered; nothing was recorded")]
    LogMoved,
    /// A bug in grimoire; nothing was written.
    #[error("internal error: {0}; nothing was recorded (please report this)")]
    Internal(String),
}

impl From<DurationError> for Error {
    fn from(e: DurationError) -> Self {
        Error::Usage(e.to_string())
    }
}

impl From<ExprError> for Error {
    fn from(e: ExprError) -> Self {
        Error::Usage(e.to_string())
    }
}

impl From<DiceError> for Error {
    fn from(e: DiceError) -> Self {
        Error::Rule(RuleError::Dice(e))
    }
}
