//! Every rule system grimoire knows, and the one file that names them. A system is a folder that
//! implements the contract's traits (`systems/contract/`); here it gets one variant in each closed
//! list and one arm in [`on_system!`]. Every match is exhaustive: a system added to [`SystemId`]
//! does not build until each list below has it, and the core, which reaches systems only through
//! these lists, then serves it with no edit of its own.

use super::contract::command::SystemCommands;
use super::contract::event::{Share, SystemModel, SystemSheet};
use super::contract::port::Refusal;
use super::contract::render::SystemWords;
use super::contract::rules::SystemRules;
use super::contract::sample::SystemSample;
use super::contract::state::SystemFold;
use crate::dice::Die;
use crate::time::GameDuration;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The one declaration of the rule systems grimoire knows: each system's type and folder, the
/// field its characters' shares of a rest are stored under (with that field's serde attributes),
/// and which flag of a stored `sheet_corrected` ends its characters. Every closed list below and
/// every arm of [`on_system!`] is generated from it, so a system is in all of them or in none:
/// adding one is one line here and its folder. `[$then]` is the macro given the list (its path);
/// what is in braces goes to it first.
macro_rules! the_systems {
    ([$($then:tt)*] { $($pass:tt)* }) => {
        $($then)*! { { $($pass)* }
            Adg in adg {
                rests in results [
                    /// A Dungeon Game's shares, always written (the first rests held only these).
                ],
                ends by Dies
            },
            Vsd in vsd {
                rests in mp [
                    /// Against the Darkmaster's shares.
                    #[serde(default, skip_serializing_if = "Vec::is_empty")]
                ],
                ends by Consumed
            },
            // A Quiet Game, a small third system compiled only in tests; it ends a character by
            // strain, never by a correction.
            #[cfg(test)]
            Quiet in quiet {
                rests in quiet [
                    #[serde(default, skip_serializing_if = "Vec::is_empty")]
                ],
                ends by Neither
            },
        }
    };
}

/// Runs `$body` for the system `$value` (one of the lists below, named by `$list`) is of, with
/// `$system` naming that system's type and `$inner` bound to what the variant holds:
/// `on_system!(&c.sheet, Sheet, |S, sheet| S::NAME)`; for a [`SystemId`], with no inner value:
/// `on_system!(id, SystemId, |S| S::NAME)`. Each arm is the same code, compiled for its system;
/// the arms come from [`the_systems!`].
macro_rules! on_system {
    ($value:expr, SystemId, |$system:ident| $body:expr) => {
        $crate::systems::registry::the_systems!(
            [$crate::systems::registry::dispatch_on_id] { $value, $system, $body }
        )
    };
    ($value:expr, $list:ident, |$system:ident, $inner:pat_param| $body:expr) => {
        $crate::systems::registry::the_systems!(
            [$crate::systems::registry::dispatch_on_list] { $value, $list, $system, $inner, $body }
        )
    };
}

/// [`on_system!`] on a [`SystemId`]: one arm for each system declared.
macro_rules! dispatch_on_id {
    (
        { $value:expr, $system:ident, $body:expr }
        $( $(#[$only:meta])* $S:ident in $module:ident { $($_:tt)* }, )*
    ) => {
        match $value {
            $(
                $(#[$only])*
                $crate::systems::registry::SystemId::$S => {
                    #[allow(unused)]
                    type $system = $crate::systems::$module::$S;
                    $body
                }
            )*
        }
    };
}

/// [`on_system!`] on one of the lists: one arm for each system declared.
macro_rules! dispatch_on_list {
    (
        { $value:expr, $list:ident, $system:ident, $inner:pat_param, $body:expr }
        $( $(#[$only:meta])* $S:ident in $module:ident { $($_:tt)* }, )*
    ) => {
        match $value {
            $(
                $(#[$only])*
                $crate::systems::registry::$list::$S($inner) => {
                    #[allow(unused)]
                    type $system = $crate::systems::$module::$S;
                    $body
                }
            )*
        }
    };
}
pub(crate) use {dispatch_on_id, dispatch_on_list, on_system, the_systems};

/// A system as the registry holds it: the contract's traits, and how to find its part of each
/// closed list.
pub trait Registered: SystemRules + SystemWords + SystemSample + SystemCommands {
    const ID: SystemId;
    fn sheet(sheet: &Sheet) -> Option<&Self::Sheet>;
    fn wrap_sheet(sheet: Self::Sheet) -> Sheet;
    fn state(state: &AnyState) -> Option<&Self::Character>;
    fn state_mut(state: &mut AnyState) -> Option<&mut Self::Character>;
    fn wrap_state(character: Self::Character) -> AnyState;
    fn event(event: &AnyEvent) -> Option<&Self::Event>;
    fn wrap_event(event: Self::Event) -> AnyEvent;
    fn wrap_command(command: Self::Command) -> AnyCommand;
    fn wrap_week(week: Self::Week) -> AnyWeek;
    /// The week, when it is this system's; otherwise the week back.
    fn week(week: AnyWeek) -> Result<Self::Week, AnyWeek>;
    /// The system's shares of a rest.
    fn rest_shares(rest: &Rest) -> &[Self::RestShare];
    fn rest_shares_mut(rest: &mut Rest) -> &mut Vec<Self::RestShare>;
    /// One of the system's own refusals, as the core holds them (`RuleError::System`).
    fn wrap_error(error: Self::Error) -> AnyError;
    /// The system's campaign-wide state.
    fn campaign(campaigns: &Campaigns) -> &Self::Campaign;
    fn campaign_mut(campaigns: &mut Campaigns) -> &mut Self::Campaign;
    /// Which of a stored `sheet_corrected`'s two flags is this system's.
    const END_FLAG: EndFlag;

    /// Whether a correction recorded with these flags ends this system's character.
    fn ended_by(dies: bool, consumed: bool) -> bool {
        match Self::END_FLAG {
            EndFlag::Dies => dies,
            EndFlag::Consumed => consumed,
            EndFlag::Neither => false,
        }
    }

    /// The flags (`dies`, `consumed`) that record whether a correction ends this system's
    /// character.
    fn correction_flags(ended: bool) -> (bool, bool) {
        match Self::END_FLAG {
            EndFlag::Dies => (ended, false),
            EndFlag::Consumed => (false, ended),
            EndFlag::Neither => (false, false),
        }
    }
}

/// A stored `sheet_corrected` says whether it ends its character with two flags: `dies` (A Dungeon
/// Game's: a maximum reached 0, ADG-C4) and `consumed` (Against the Darkmaster's, VSD-12). A
/// system that no correction ends reads neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndFlag {
    Dies,
    Consumed,
    Neither,
}

/// The lists the core holds the systems by, each with one variant or field per system declared in
/// [`the_systems!`].
macro_rules! declare_lists {
    (
        {}
        $(
            $(#[$only:meta])*
            $S:ident in $module:ident {
                rests in $rest:ident [ $(#[$rest_attr:meta])* ],
                ends by $flag:ident
            },
        )*
    ) => {
        /// Which rule system a character plays under.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum SystemId {
            $( $(#[$only])* $S, )*
        }

        /// Every system, in the declaration's order.
        const ALL_SYSTEMS: &[SystemId] = &[ $( $(#[$only])* SystemId::$S, )* ];

        /// A character's sheet as entered: one rule system's.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(tag = "system", rename_all = "lowercase")]
        pub enum Sheet {
            $( $(#[$only])* $S(<super::$module::$S as SystemModel>::Sheet), )*
        }

        /// What a character's rule system keeps: one system, never two (stored under the
        /// system's key).
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum AnyState {
            $( $(#[$only])* $S(<super::$module::$S as SystemFold>::Character), )*
        }

        /// Each system's campaign-wide state, under its key. (Not flattened into the campaign
        /// state: serde reads a flattened map's number keys back as text, which a scroll's id is
        /// not.)
        #[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
        pub struct Campaigns {
            $(
                $(#[$only])*
                #[serde(default)]
                pub $module: crate::deferred::Deferred<<super::$module::$S as SystemFold>::Campaign>,
            )*
        }

        impl Campaigns {
            /// Reads every system's part now: whether each reads as that system keeps it.
            pub fn read_now(&self) -> bool {
                let mut readable = true;
                $( $(#[$only])* { readable &= self.$module.read_now(); } )*
                readable
            }

            /// Whether a system's part, once used, did not read as that system keeps it.
            pub fn is_unreadable(&self) -> bool {
                let mut unreadable = false;
                $( $(#[$only])* { unreadable |= self.$module.is_unreadable(); } )*
                unreadable
            }
        }

        /// A rule system's event, as the core's `Event` holds it (stored as the system's own
        /// payload: the variant adds nothing to it).
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(untagged)]
        pub enum AnyEvent {
            $( $(#[$only])* $S(<super::$module::$S as SystemModel>::Event), )*
        }

        /// A rest as `rested` rows store it: the time it took, each system's shares under its own
        /// field, and the dice. A shipped shape: its fields are never renamed or reordered.
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        pub struct Rest {
            pub by: GameDuration,
            $(
                $(#[$only])*
                $(#[$rest_attr])*
                pub $rest: Vec<<super::$module::$S as SystemModel>::RestShare>,
            )*
            pub dice: Vec<Die>,
        }

        impl Rest {
            /// A rest of `by` that has given no one anything yet.
            pub fn new(by: GameDuration) -> Rest {
                Rest {
                    by,
                    $( $(#[$only])* $rest: Vec::new(), )*
                    dice: Vec::new(),
                }
            }
        }

        /// A rule system's command, as the core's `Command` holds it.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum AnyCommand {
            $( $(#[$only])* $S(Box<<super::$module::$S as SystemRules>::Command>), )*
        }

        /// A downtime week of a rule system's own, as the core's plan holds it.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum AnyWeek {
            $( $(#[$only])* $S(<super::$module::$S as SystemRules>::Week), )*
        }

        /// A rule system's refusal, as the core's `RuleError` holds it.
        #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
        pub enum AnyError {
            $(
                $(#[$only])*
                #[error(transparent)]
                $S(<super::$module::$S as SystemRules>::Error),
            )*
        }

        $(
            $(#[$only])*
            register!(super::$module::$S, $S, keeps $module, rests in $rest, ends by $flag);
        )*
    };
}
impl SystemId {
    /// Every system, in the registry's order.
    pub const ALL: &[SystemId] = ALL_SYSTEMS;

    /// The system's word on the command line and in JSON (`adg`).
    pub fn key(self) -> &'static str {
        on_system!(self, SystemId, |S| S::KEY)
    }

    /// The system whose word is `key`.
    pub fn keyed(key: &str) -> Option<SystemId> {
        SystemId::ALL
            .iter()
            .copied()
            .find(|system| system.key() == key)
    }

    /// The argument of the system's command `path` that names the character who acts (C-5), if
    /// it has one: what a roll put to a player's phone is checked against.
    pub fn acting_argument(self, path: &str) -> Option<&'static str> {
        on_system!(self, SystemId, |S| S::commands()
            .iter()
            .find(|c| c.path == path)
            .and_then(|c| c.acting()))
    }

    /// Every command of the system with an acting argument, as `(path, argument)`: the table the
    /// players' check reads a request's or a choice's acting character by, as `verify` does.
    pub fn acting_arguments(self) -> Vec<(&'static str, &'static str)> {
        on_system!(self, SystemId, |S| S::commands()
            .iter()
            .filter_map(|c| Some((c.path, c.acting()?)))
            .collect())
    }

    /// The command a player's choice is made with in this system (#47), if it leaves players any.
    pub fn choice_command(self) -> Option<super::contract::rules::ChoiceCommand> {
        on_system!(self, SystemId, |S| S::CHOICE_COMMAND)
    }

    /// The system's name as the table says it.
    pub fn name(self) -> &'static str {
        on_system!(self, SystemId, |S| S::NAME)
    }
}

impl fmt::Display for SystemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Rest {
    /// Every resting character's name, system by system.
    pub fn characters(&self) -> Vec<&str> {
        let mut names = Vec::new();
        for &system in SystemId::ALL {
            on_system!(system, SystemId, |S| names
                .extend(S::rest_shares(self).iter().map(|share| share.character())));
        }
        names
    }
}

impl Sheet {
    pub fn system(&self) -> SystemId {
        on_system!(self, Sheet, |S, _sheet| S::ID)
    }

    pub fn max_health(&self) -> Option<u32> {
        on_system!(self, Sheet, |S, sheet| sheet.max_health())
    }

    /// Checks the ranges a sheet must respect; the message says which value is off and what is
    /// allowed.
    pub fn validate(&self) -> Result<(), String> {
        on_system!(self, Sheet, |S, sheet| sheet.validate())
    }
}

impl AnyState {
    pub fn system(&self) -> SystemId {
        on_system!(self, AnyState, |S, _state| S::ID)
    }

    /// The next value of `map` read as the state of the system whose key is `key`, as a
    /// character's state is stored; `None`, the value left unread, when no system has that key.
    pub fn next_value_under<'de, A: serde::de::MapAccess<'de>>(
        key: &str,
        map: &mut A,
    ) -> Result<Option<AnyState>, A::Error> {
        let Some(system) = SystemId::keyed(key) else {
            return Ok(None);
        };
        on_system!(system, SystemId, |S| map
            .next_value::<<S as SystemFold>::Character>()
            .map(|state| Some(S::wrap_state(state))))
    }
}

/// One system's accessors into the lists: each picks its own variant.
macro_rules! register {
    ($ty:path, $system:ident, keeps $campaign:ident, rests in $rest_field:ident, ends by $flag:ident) => {
        impl Registered for $ty {
            const ID: SystemId = SystemId::$system;
            const END_FLAG: EndFlag = EndFlag::$flag;
            fn rest_shares(rest: &Rest) -> &[Self::RestShare] {
                &rest.$rest_field
            }
            fn rest_shares_mut(rest: &mut Rest) -> &mut Vec<Self::RestShare> {
                &mut rest.$rest_field
            }
            fn wrap_error(error: Self::Error) -> AnyError {
                AnyError::$system(error)
            }
            fn campaign(campaigns: &Campaigns) -> &Self::Campaign {
                &*campaigns.$campaign
            }
            fn campaign_mut(campaigns: &mut Campaigns) -> &mut Self::Campaign {
                &mut *campaigns.$campaign
            }
            fn sheet(sheet: &Sheet) -> Option<&Self::Sheet> {
                let Sheet::$system(sheet) = sheet else {
                    return None;
                };
                Some(sheet)
            }
            fn wrap_sheet(sheet: Self::Sheet) -> Sheet {
                Sheet::$system(sheet)
            }
            fn state(state: &AnyState) -> Option<&Self::Character> {
                let AnyState::$system(state) = state else {
                    return None;
                };
                Some(state)
            }
            fn state_mut(state: &mut AnyState) -> Option<&mut Self::Character> {
                let AnyState::$system(state) = state else {
                    return None;
                };
                Some(state)
            }
            fn wrap_state(character: Self::Character) -> AnyState {
                AnyState::$system(character)
            }
            fn event(event: &AnyEvent) -> Option<&Self::Event> {
                let AnyEvent::$system(event) = event else {
                    return None;
                };
                Some(event)
            }
            fn wrap_event(event: Self::Event) -> AnyEvent {
                AnyEvent::$system(event)
            }
            fn wrap_command(command: Self::Command) -> AnyCommand {
                AnyCommand::$system(Box::new(command))
            }
            fn wrap_week(week: Self::Week) -> AnyWeek {
                AnyWeek::$system(week)
            }
            fn week(week: AnyWeek) -> Result<Self::Week, AnyWeek> {
                match week {
                    AnyWeek::$system(week) => Ok(week),
                    #[allow(unreachable_patterns)]
                    other => Err(other),
                }
            }
        }

        impl From<<$ty as SystemRules>::Error> for Refusal<<$ty as SystemRules>::Error> {
            fn from(error: <$ty as SystemRules>::Error) -> Self {
                Refusal::Own(error)
            }
        }

        impl From<<$ty as SystemModel>::Event> for AnyEvent {
            fn from(event: <$ty as SystemModel>::Event) -> AnyEvent {
                AnyEvent::$system(event)
            }
        }
    };
}
the_systems!([declare_lists] {});

#[cfg(test)]
mod tests {
    use super::*;

    /// A system's key is the word its JSON is stored under, so it must be its registry name.
    #[test]
    fn each_systems_key_is_its_stored_name() {
        for &id in SystemId::ALL {
            let key = on_system!(id, SystemId, |S| S::KEY);
            assert_eq!(serde_json::to_value(id).unwrap(), key);
        }
    }

    /// `ALL` lists every system once: the variants serde knows are exactly those.
    #[test]
    fn all_lists_every_system_once() {
        let named: Vec<SystemId> = crate::systems::contract::event::variant_names(|d| {
            SystemId::deserialize(d).map(|_| ())
        })
        .iter()
        .map(|name| serde_json::from_value(serde_json::json!(name)).unwrap())
        .collect();
        assert_eq!(named, SystemId::ALL);
    }

    /// A kind belongs to one enum only: a system declaring a kind the core or another system
    /// has would take its rows.
    #[test]
    fn no_event_kind_is_declared_twice() {
        let kinds = crate::event::kinds();
        let mut unique = kinds.clone();
        unique.dedup();
        assert_eq!(kinds, unique);
    }
}
