//! The library's error type and the exit codes it maps to: usage 2, refused by the rules or the data
//! 1, internal or input/output failures 70 and up.

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
    Abandoned(crate::campaign::DieWanted),
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

impl Error {
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 2,
            // Physical dice that do not fit the command are an argument mistake, like a bad flag.
            Error::Rule(RuleError::Dice(
                DiceError::TooFew { .. } | DiceError::TooMany { .. } | DiceError::OutOfRange { .. },
            )) => 2,
            Error::Rule(_) | Error::Abandoned(_) | Error::LogMoved => 1,
            Error::Store(e) => e.exit_code(),
            Error::Internal(_) => 70,
        }
    }
}
