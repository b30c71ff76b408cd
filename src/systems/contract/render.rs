//! The render half of the contract: the words a rule system gives its events.

use super::event::SystemModel;

pub trait SystemWords: SystemModel {
    /// One log line for the event, without its seq (`Aldric exerts Brawn 2 (a climb)`).
    fn describe(event: &Self::Event) -> String;
    /// A sheet as entered, in words, beginning with the system's name.
    fn sheet_words(sheet: &Self::Sheet) -> String;
    /// Each character's part of a rest, in words (`Aldric heals 3`).
    fn rest_words(share: &Self::RestShare) -> String;
}
