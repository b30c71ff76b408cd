//! The model half of the contract between the core and a rule system: what the core asks of a
//! system's events ([`SystemEvent`], one exhaustive match per method, so a system's new kind does not
//! compile until the system answers for it), the macro that declares an event enum, and the range
//! check a sheet uses. The core's `Event` hands a system's variant to it and never lists its kinds.

use crate::dice::Die;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;

/// Declares an event enum (the core's `Event`, or a system's) and, from the very same variant list, its twin
/// (`EventOfKind`, …): serde's remote twin of it that reads a variant *named from outside*
/// (externally tagged). Naming the variant up front lets each payload be read straight into its
/// event, which took a quarter of an import's time. One list, so the two can never differ.
macro_rules! event_enum {
    (
        $(#[$meta:meta])* $name:ident / $twin:ident = $remote:literal { $($variants:tt)* }
        $(nested { $($nested:tt)* })?
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        pub enum $name { $($variants)* $($($nested)*)? }

        // The twin leaves the nested enums out: an untagged variant would make serde buffer every
        // payload to try it (a seventh of a replay); a nested kind is read by its own twin.
        #[derive(serde::Deserialize)]
        #[serde(remote = $remote, rename_all = "snake_case")]
        pub(crate) enum $twin { $($variants)* }
    };
}
pub(crate) use event_enum;

/// Refuses `value` outside `low..=high`, naming the flag and the range.
pub(crate) fn within<T: PartialOrd + fmt::Display>(
    what: &str,
    value: T,
    low: T,
    high: T,
) -> Result<(), String> {
    if value < low || value > high {
        return Err(format!("{what} must be {low} to {high}, not {value}"));
    }
    Ok(())
}

/// What the core asks of a rule system's events.
pub trait SystemEvent: Serialize + DeserializeOwned + Clone + PartialEq + fmt::Debug {
    /// The stable name stored in the `kind` column and the payload's `kind` field.
    fn kind(&self) -> &'static str;
    /// Whether `is` holds for a character the event names, asked of each name in turn until it
    /// does: `log --character` asks for one name, a diff notes every name as it goes.
    fn mentions(&self, is: &mut dyn FnMut(&str) -> bool) -> bool;

    /// Whether the event names the character (folded name).
    fn concerns(&self, folded: &str) -> bool {
        self.mentions(&mut |name| crate::words::folds_to(name, folded))
    }
    /// Every die the event holds, in draw order; `verify` checks them without knowing the kind.
    fn dice(&self) -> &[Die];
    /// Whether a retraction may undo it.
    fn is_retractable(&self) -> bool;
    /// Whether the rules record it only after another event of the same command, holding dice of
    /// that command (a scroll written during a downtime span follows the span): such an event
    /// shares its command's roll number, which `verify` allows it alone.
    fn continues_its_command(&self) -> bool;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::adg::event::AdgEvent;
    use crate::systems::adg::tables::Attribute;
    use crate::systems::vsd::event::{Alignment, VsdEvent};
    use serde::Deserialize;

    /// What every system's events must keep: the payload names its kind as `kind()` says, reads
    /// back equal, its dice are in range, and it concerns the character it names and nobody else.
    fn keeps_the_contract<E: SystemEvent>(samples: &[(E, Option<&str>)]) {
        for (event, named) in samples {
            let payload = serde_json::to_string(event).unwrap();
            assert!(
                payload.starts_with(&format!("{{\"kind\":\"{}\"", event.kind())),
                "{payload}"
            );
            assert_eq!(&serde_json::from_str::<E>(&payload).unwrap(), event);
            assert!(
                event
                    .dice()
                    .iter()
                    .all(|d| d.value.is_none_or(|v| v >= 1 && v <= d.sides))
            );
            if let Some(name) = named {
                assert!(event.concerns(&crate::words::fold_name(name)), "{payload}");
            }
            assert!(!event.concerns("nobody"), "{payload}");
        }
    }

    /// A third rule system that does nothing, sketched to show what a system brings: an event enum
    /// and these four answers. (Plugging it in adds `Event::Quiet(QuietEvent)` and one arm per
    /// concern, which the compiler lists; see docs/architecture.md.)
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum QuietEvent {
        Waited { character: String },
    }

    impl SystemEvent for QuietEvent {
        fn kind(&self) -> &'static str {
            match self {
                QuietEvent::Waited { .. } => "waited",
            }
        }
        fn mentions(&self, is: &mut dyn FnMut(&str) -> bool) -> bool {
            match self {
                QuietEvent::Waited { character } => is(character),
            }
        }
        fn dice(&self) -> &[Die] {
            match self {
                QuietEvent::Waited { .. } => &[],
            }
        }
        fn is_retractable(&self) -> bool {
            match self {
                QuietEvent::Waited { .. } => true,
            }
        }
        fn continues_its_command(&self) -> bool {
            match self {
                QuietEvent::Waited { .. } => false,
            }
        }
    }

    #[test]
    fn a_do_nothing_third_system_needs_only_its_events_and_four_answers() {
        let waited = QuietEvent::Waited {
            character: "Wen".into(),
        };
        assert!(waited.is_retractable());
        keeps_the_contract(&[(waited, Some("wen"))]);
    }

    #[test]
    fn both_systems_keep_the_events_contract() {
        keeps_the_contract(&[
            (
                AdgEvent::Exerted {
                    character: "Aldric".into(),
                    attribute: Attribute::Brawn,
                    amount: 1,
                    reason: "a climb".into(),
                },
                Some("Aldric"),
            ),
            (
                AdgEvent::ScrollGiven {
                    scroll: 4,
                    from: "Wen".into(),
                    to: "Aldric".into(),
                },
                Some("wen"),
            ),
        ]);
        keeps_the_contract(&[
            (
                VsdEvent::DriveChanged {
                    character: "Mira".into(),
                    delta: -1,
                    reason: "a vow".into(),
                },
                Some("MIRA"),
            ),
            (
                VsdEvent::AlignmentSet {
                    alignment: Alignment::Benefic,
                },
                None,
            ),
        ]);
    }
}
