//! The render half of the contract: the words a rule system gives its events.

use super::event::SystemModel;

pub trait SystemWords: SystemModel {
    /// One log line for the event, without its seq (`Aldric exerts Brawn 2 (a climb)`).
    fn describe(event: &Self::Event) -> String;
    /// Each character's part of a rest, in words (`Aldric heals 3`).
    fn rest_words(share: &Self::RestShare) -> String;
}
