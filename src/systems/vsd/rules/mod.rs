//! Against the Darkmaster: spell casting, resonance, failure and overcasting (docs/rules.md VSD-*).

mod casting;
mod commands;
mod consequences;
mod error;
mod order;
#[cfg(test)]
mod tests;

use crate::dice::Dice;
use crate::event::Event;
use crate::rules::{RuleError, Who};
use crate::state::{CampaignState, Character};
use crate::systems::registry::AnyError;
use crate::systems::registry::AnyEvent;
use crate::systems::vsd::Vsd;
use crate::systems::vsd::event::{ChoiceMade, VsdEvent};
use crate::systems::vsd::sheet::{MAX_DRIVE, VsdSheet};
use crate::systems::vsd::state::VsdState;
use crate::time::ROUND_SECONDS;
use crate::words::Words;

pub use crate::systems::vsd::event::{
    Alignment, AttackKind, Choice, Condition, Place, SpellDef, SpellKind, Tag,
};
pub use crate::systems::vsd::state::VsdSettings;
pub use casting::{CastOrder, OvercastMethod, OvercastOrder, Range};
pub use commands::{
    Answered, Assessment, Casting, Choosing, Concentration, ConditionAction, ConditionClearing,
    DriveChange, NewSpell, SaveRoll, SpellLearning,
};
pub use consequences::delayed_spells_due;
pub use error::VsdError;

impl VsdCommand {
    /// Whether deciding it may draw dice (see [`crate::rules::Command::draws_dice`]).
    pub fn draws_dice(&self) -> bool {
        match self {
            VsdCommand::Cast(_)
            | VsdCommand::Choose(_)
            | VsdCommand::Save(_)
            | VsdCommand::Sever(_) => true,
            VsdCommand::Learn(_)
            | VsdCommand::Concentrate(_)
            | VsdCommand::Interrupt(_)
            | VsdCommand::SetAlignment(_)
            | VsdCommand::SetSever(_)
            | VsdCommand::Drive(_)
            | VsdCommand::ClearCondition(_)
            | VsdCommand::Assess(_) => false,
        }
    }
}

// Lives for one call, so its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VsdCommand {
    Learn(SpellLearning),
    Concentrate(Concentration),
    Interrupt(Who),
    Cast(Casting),
    Choose(Choosing),
    Save(SaveRoll),
    Sever(Who),
    SetAlignment(Alignment),
    SetSever(bool),
    Drive(DriveChange),
    ClearCondition(ConditionClearing),
    Assess(Assessment),
}

impl crate::systems::contract::rules::SystemRules for Vsd {
    type Command = VsdCommand;
    type Error = VsdError;
    /// Its characters rest or do the GM's activities.
    type Week = std::convert::Infallible;

    fn draws_dice(command: &VsdCommand) -> bool {
        command.draws_dice()
    }

    /// A save reads the cast it answers from the log, an assessment the roll it names.
    fn inputs(command: &mut VsdCommand) -> Vec<crate::rules::campaign::Input<'_>> {
        if let VsdCommand::Assess(Assessment {
            roll: Some(seq),
            rolled,
            ..
        }) = command
        {
            return vec![crate::rules::campaign::Input::Event {
                seq: *seq,
                into: Box::new(move |event, _| *rolled = Some(event)),
            }];
        }
        let VsdCommand::Save(save) = command else {
            return Vec::new();
        };
        let seq = save.against;
        let cast = &mut save.cast;
        vec![crate::rules::campaign::Input::Event {
            seq,
            into: Box::new(move |event, at| {
                *cast = match event {
                    Event::System(AnyEvent::Vsd(VsdEvent::SpellCast(spell))) => {
                        Some((Answered::Cast(Box::new(spell)), at))
                    }
                    Event::System(AnyEvent::Vsd(VsdEvent::DelayedSpellResolved(held))) => {
                        Some((Answered::Held(held), at))
                    }
                    Event::System(AnyEvent::Vsd(VsdEvent::ChoiceMade(ChoiceMade {
                        character,
                        struck: Some(struck),
                        ..
                    }))) => Some((
                        Answered::Struck {
                            caster: character,
                            struck,
                        },
                        at,
                    )),
                    _ => None,
                };
            }),
        }]
    }

    fn check_text(command: &VsdCommand) -> Result<(), crate::text::TextProblem> {
        use crate::text::{NAME_MAX, NOTE_MAX, check_filled, check_name};
        match command {
            VsdCommand::Learn(learning) => {
                check_name("spell's name", &learning.spell.name)?;
                check_filled("spell's name", &learning.spell.name, NAME_MAX)
            }
            VsdCommand::Cast(casting) => check_filled("target", &casting.order.target, NAME_MAX),
            VsdCommand::Save(save) => check_filled("target", &save.target, NAME_MAX),
            VsdCommand::Drive(change) => check_filled("reason", &change.reason, NOTE_MAX),
            VsdCommand::Choose(choosing) => choosing
                .target
                .as_deref()
                .map_or(Ok(()), |t| check_filled("target", t, NAME_MAX)),
            VsdCommand::Concentrate(_)
            | VsdCommand::Interrupt(_)
            | VsdCommand::Sever(_)
            | VsdCommand::SetAlignment(_)
            | VsdCommand::SetSever(_)
            | VsdCommand::ClearCondition(_)
            | VsdCommand::Assess(_) => Ok(()),
        }
    }

    /// The names a sheet carries.
    fn check_sheet_text(sheet: &VsdSheet) -> Result<(), crate::text::TextProblem> {
        use crate::text::{NAME_MAX, check, check_name};
        check("vocation", &sheet.vocation, NAME_MAX)?;
        for lore in &sheet.lores {
            check_name("Spell Lore's name", &lore.name)?;
        }
        Ok(())
    }

    fn decide(
        state: &CampaignState,
        command: VsdCommand,
        dice: &mut Dice<'_>,
    ) -> Result<Vec<Event>, RuleError> {
        decide(state, command, dice)
    }

    /// VSD-6 (house rule): eight hours restore every MP; fewer restore floor(max × hours / 8).
    fn rest(
        _state: &CampaignState,
        who: &Character,
        length: crate::rules::rest::RestLength,
        _dice: &mut Dice<'_>,
        _record: &mut Vec<crate::dice::Die>,
    ) -> Result<Option<crate::systems::vsd::event::MpRestored>, RuleError> {
        // A character with no MP to regain (a warrior) has no part in the rest to tell.
        let Some(vsd) = who.state::<Vsd>().filter(|vsd| vsd.mp_max > 0) else {
            return Ok(None);
        };
        let hours = length.hours();
        let regained = if hours >= 8 {
            vsd.mp_max
        } else {
            vsd.mp_max * hours / 8
        };
        Ok(Some(crate::systems::vsd::event::MpRestored {
            character: who.name.clone(),
            restored: regained.min(vsd.mp_spent),
        }))
    }

    fn after_command(state: &CampaignState, events: &[Event]) -> Vec<Event> {
        delayed_spells_due(state, events)
    }
}

fn decide(
    state: &CampaignState,
    command: VsdCommand,
    dice: &mut Dice<'_>,
) -> Result<Vec<Event>, RuleError> {
    match command {
        VsdCommand::Learn(SpellLearning { character, spell }) => {
            casting::learn(state, &character, spell)
        }
        VsdCommand::Concentrate(Concentration { character, spell }) => {
            casting::concentrate(state, &character, &spell)
        }
        VsdCommand::Interrupt(Who { character }) => {
            let (who, vsd) = caster(state, &character)?;
            if vsd.concentration.is_none() {
                return Err(RuleError::System(AnyError::Vsd(
                    VsdError::NotConcentrating(who.name.clone()),
                )));
            }
            Ok(vec![Event::System(AnyEvent::Vsd(
                VsdEvent::ConcentrationInterrupted {
                    character: who.name.clone(),
                },
            ))])
        }
        VsdCommand::Cast(casting) => casting::cast(state, casting, dice),
        VsdCommand::Choose(Choosing {
            character,
            choices,
            target,
        }) => consequences::choose(state, &character, &choices, target.as_deref(), dice),
        VsdCommand::Save(save) => casting::save(state, save, dice),
        VsdCommand::Sever(Who { character }) => consequences::sever(state, &character, dice),
        VsdCommand::SetAlignment(alignment) => {
            if state.systems.vsd.vsd_settings.alignment == alignment {
                return Err(RuleError::System(AnyError::Vsd(
                    VsdError::SettingUnchanged(format!(
                        "the alignment is {} already",
                        Words::word(alignment)
                    )),
                )));
            }
            Ok(vec![Event::System(AnyEvent::Vsd(VsdEvent::AlignmentSet {
                alignment,
            }))])
        }
        VsdCommand::SetSever(on) => {
            if state.systems.vsd.vsd_settings.sever_the_thread == on {
                let now = if on { "on" } else { "off" };
                return Err(RuleError::System(AnyError::Vsd(
                    VsdError::SettingUnchanged(format!("Sever the Thread is {now} already")),
                )));
            }
            Ok(vec![Event::System(AnyEvent::Vsd(
                VsdEvent::SeverTheThreadSet { on },
            ))])
        }
        VsdCommand::Drive(DriveChange {
            character,
            delta,
            reason,
        }) => {
            let (who, vsd) = caster(state, &character)?;
            let after = i64::from(vsd.drive).saturating_add(delta);
            if delta == 0 || !(0..=i64::from(MAX_DRIVE)).contains(&after) {
                return Err(RuleError::System(AnyError::Vsd(
                    VsdError::DriveOutOfRange {
                        name: who.name.clone(),
                        drive: vsd.drive,
                        delta,
                    },
                )));
            }
            Ok(vec![Event::System(AnyEvent::Vsd(VsdEvent::DriveChanged {
                character: who.name.clone(),
                delta,
                reason,
            }))])
        }
        VsdCommand::ClearCondition(ConditionClearing {
            character,
            action,
            condition,
        }) => {
            // The one action there is; a new one fails to compile here until it is decided.
            let ConditionAction::Clear = action;
            let (who, vsd) = caster(state, &character)?;
            if !vsd.has_condition(condition, state.clock) {
                return Err(RuleError::System(AnyError::Vsd(
                    VsdError::NoSuchCondition {
                        name: who.name.clone(),
                        condition: condition.name(),
                    },
                )));
            }
            Ok(vec![Event::System(AnyEvent::Vsd(
                VsdEvent::ConditionCleared {
                    character: who.name.clone(),
                    condition,
                },
            ))])
        }
        VsdCommand::Assess(assessment) => assess(state, assessment),
    }
}

/// An assailed caster passes an Assessment Roll (VSD-10 ruling): the GM's word, with the free roll
/// made for it when one was. A roll it names must be the character's, in the log, not retracted,
/// and open (a sealed roll not yet revealed would make the pass rest on a secret).
fn assess(state: &CampaignState, assessment: Assessment) -> Result<Vec<Event>, RuleError> {
    let (who, vsd) = caster(state, &assessment.character)?;
    if !vsd.has_condition(Condition::Assailed, state.clock) {
        return Err(RuleError::System(AnyError::Vsd(
            VsdError::NoSuchCondition {
                name: who.name.clone(),
                condition: Condition::Assailed.name(),
            },
        )));
    }
    if let Some(seq) = assessment.roll {
        if seq == 0 || seq > state.head {
            return Err(RuleError::NoSuchEvent(seq, state.head));
        }
        let unfit = |why: &str| {
            Err(RuleError::System(AnyError::Vsd(
                VsdError::NotAnAssessmentRoll {
                    seq,
                    why: why.to_string(),
                },
            )))
        };
        match &assessment.rolled {
            _ if state.retracted.contains_key(&seq) => return unfit("it was retracted"),
            Some(Event::DiceRolled { character, .. }) => {
                if character.as_deref().is_none_or(|c| who.name != *c) {
                    return unfit(&format!("it was not rolled for {}", who.name));
                }
                if let Some(since) = vsd.assailed_since.filter(|&since| seq < since) {
                    return unfit(&format!(
                        "it was rolled before {} was assailed at #{since}",
                        who.name
                    ));
                }
                if state.sealed_pending.contains_key(&seq) {
                    return unfit(
                        "it is sealed, and a pass cannot rest on a value not yet revealed",
                    );
                }
            }
            _ => return unfit("it is not a free roll"),
        }
    }
    Ok(vec![Event::System(AnyEvent::Vsd(
        VsdEvent::AssessmentPassed {
            character: who.name.clone(),
            roll: assessment.roll,
        },
    ))])
}

/// The combat round the clock is in.
pub fn round_of(state: &CampaignState) -> u64 {
    state.clock.seconds() / ROUND_SECONDS
}

/// A VsD character who can act: known, of this system, not consumed.
fn caster<'s>(
    state: &'s CampaignState,
    name: &str,
) -> Result<(&'s Character, &'s VsdState), RuleError> {
    let who = crate::rules::campaign::find(state, name)?;
    let vsd = who.state::<Vsd>().ok_or_else(|| RuleError::WrongSystem {
        name: who.name.clone(),
        plays: who.sheet.system().to_string(),
        needs: <Vsd as crate::systems::contract::event::SystemModel>::NAME,
    })?;
    if vsd.consumed {
        return Err(RuleError::Dead(who.name.clone()));
    }
    Ok((who, vsd))
}

/// Where a total lands on the casting table, and its save difficulty (VSD-5).
pub fn casting_band(total: i64) -> (crate::systems::vsd::event::Outcome, Option<u32>) {
    use crate::systems::vsd::event::Outcome;
    const DIFFICULTIES: [(i64, u32); 16] = [
        (80, 50),
        (95, 60),
        (105, 65),
        (110, 70),
        (120, 75),
        (130, 80),
        (135, 85),
        (140, 90),
        (145, 95),
        (150, 100),
        (155, 105),
        (160, 110),
        (165, 120),
        (170, 130),
        (175, 140),
        (i64::MAX, 150),
    ];
    match total {
        i64::MIN..=25 => (Outcome::Failure, None),
        26..=50 => (Outcome::Partial, None),
        _ => {
            let difficulty = DIFFICULTIES
                .iter()
                .find(|(max, _)| total <= *max)
                .map(|(_, d)| *d);
            (
                if total >= 151 {
                    Outcome::Outstanding
                } else {
                    Outcome::Success
                },
                difficulty,
            )
        }
    }
}

#[cfg(test)]
mod band_tests {
    use super::*;
    use crate::systems::vsd::event::Outcome;

    #[test]
    fn vsd5_every_band_boundary_of_the_casting_table() {
        let cases = [
            (25, Outcome::Failure, None),
            (26, Outcome::Partial, None),
            (50, Outcome::Partial, None),
            (51, Outcome::Success, Some(50)),
            (80, Outcome::Success, Some(50)),
            (81, Outcome::Success, Some(60)),
            (95, Outcome::Success, Some(60)),
            (96, Outcome::Success, Some(65)),
            (105, Outcome::Success, Some(65)),
            (106, Outcome::Success, Some(70)),
            (110, Outcome::Success, Some(70)),
            (111, Outcome::Success, Some(75)),
            (120, Outcome::Success, Some(75)),
            (121, Outcome::Success, Some(80)),
            (130, Outcome::Success, Some(80)),
            (131, Outcome::Success, Some(85)),
            (135, Outcome::Success, Some(85)),
            (136, Outcome::Success, Some(90)),
            (140, Outcome::Success, Some(90)),
            (141, Outcome::Success, Some(95)),
            (145, Outcome::Success, Some(95)),
            (146, Outcome::Success, Some(100)),
            (150, Outcome::Success, Some(100)),
            (151, Outcome::Outstanding, Some(105)),
            (155, Outcome::Outstanding, Some(105)),
            (156, Outcome::Outstanding, Some(110)),
            (160, Outcome::Outstanding, Some(110)),
            (161, Outcome::Outstanding, Some(120)),
            (165, Outcome::Outstanding, Some(120)),
            (166, Outcome::Outstanding, Some(130)),
            (170, Outcome::Outstanding, Some(130)),
            (171, Outcome::Outstanding, Some(140)),
            (175, Outcome::Outstanding, Some(140)),
            (176, Outcome::Outstanding, Some(150)),
            (400, Outcome::Outstanding, Some(150)),
            (-120, Outcome::Failure, None),
        ];
        for (total, outcome, difficulty) in cases {
            assert_eq!(casting_band(total), (outcome, difficulty), "total {total}");
        }
    }

    #[test]
    fn vsd9_failure_modifiers_by_kind() {
        assert_eq!(SpellKind::Divination.failure_modifier(), 0);
        assert_eq!(SpellKind::Nature.failure_modifier(), 10);
        assert_eq!(SpellKind::Enchantment.failure_modifier(), 20);
        assert_eq!(SpellKind::Alteration.failure_modifier(), 30);
        assert_eq!(SpellKind::Elemental.failure_modifier(), 50);
    }
}
