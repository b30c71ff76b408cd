//! Against the Darkmaster: spell casting, resonance, failure and overcasting (docs/rules.md VSD-*).

mod answers;
mod asked;
mod casting;
mod commands;
mod consequences;
mod error;
mod order;
#[cfg(test)]
mod tests;

use crate::dice::Dice;
use crate::systems::contract::port::{Decided, Refusal, Refused, Someone, View};
use crate::systems::contract::rules::{Logged, Needs, RestLength, Who};
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
    DriveChange, Firing, NewSpell, SaveRoll, SpellLearning,
};
pub use consequences::delayed_spells_due;
pub use error::VsdError;

/// What Against the Darkmaster's rules decide, or why they refuse.
pub(crate) type Verdict<T> = Result<T, Refusal<VsdError>>;

impl VsdCommand {
    /// Whether deciding it may draw dice (a command that never does refuses dice given for it).
    pub fn draws_dice(&self) -> bool {
        match self {
            // A choice rolls only for a resonance or the gaze's rounds: any other pick is made,
            // not rolled, so it is never put to a phone (its maker would be recorded as the one
            // who rolled).
            VsdCommand::Choose(choosing) => choosing
                .choices
                .iter()
                .any(|c| matches!(c, Choice::Resonance | Choice::Scorched)),
            VsdCommand::Cast(_)
            | VsdCommand::Save(_)
            | VsdCommand::Fire(_)
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
    Fire(Firing),
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

    /// The caster's picks waiting on them (VSD-5, VSD-9, the gaze of VSD-10): never the GM's
    /// (a resonance result's), nor the gaze's before its rounds are over.
    fn players_choices(
        state: &dyn View<Vsd>,
        character: &str,
    ) -> Vec<crate::systems::contract::rules::PlayersChoice> {
        let Some(someone) = state.someone(character) else {
            return Vec::new();
        };
        let Some(vsd) = someone.mine else {
            return Vec::new();
        };
        (vsd.pending.iter())
            .filter(|p| {
                p.by == "caster" && !consequences::still_under_the_gaze(p, vsd, state.clock())
            })
            .map(|p| crate::systems::contract::rules::PlayersChoice {
                character: someone.name.to_string(),
                about: format!("{} (#{}): {}", p.spell, p.cast_seq, p.about),
                pick: p.pick,
                options: (p.options.iter())
                    .map(|o| crate::systems::contract::rules::ChoiceOption {
                        word: o.word(),
                        meaning: o.meaning(),
                        names_someone: *o == Choice::OtherTarget,
                    })
                    .collect(),
            })
            .collect()
    }

    const CHOICE_COMMAND: Option<crate::systems::contract::rules::ChoiceCommand> =
        Some(crate::systems::contract::rules::ChoiceCommand {
            path: "choose",
            character: "character",
            picks: "choices",
            names: "target",
            made: "choice_made",
        });

    /// A save put to a phone says whose spell it resists and what the roll must beat (VSD-7); a
    /// cast, a bolt, a severing or a choice says what is rolled and against what.
    fn asked_words(command: &VsdCommand, state: &dyn View<Vsd>) -> Option<String> {
        asked::words(command, state)
    }

    /// A save reads the cast it answers from the log, an assessment the roll it names.
    fn inputs(command: &mut VsdCommand) -> Vec<Needs<'_, VsdEvent>> {
        if let VsdCommand::Assess(Assessment {
            roll: Some(seq),
            rolled,
            ..
        }) = command
        {
            return vec![Needs::Event {
                seq: *seq,
                into: Box::new(move |event, _| *rolled = Some(event)),
            }];
        }
        let VsdCommand::Save(save) = command else {
            return Vec::new();
        };
        let seq = save.against;
        let cast = &mut save.cast;
        vec![Needs::Event {
            seq,
            into: Box::new(move |event, at| {
                *cast = match event {
                    Logged::Own(VsdEvent::SpellCast(spell)) => {
                        Some((Answered::Cast(Box::new(spell)), at))
                    }
                    Logged::Own(VsdEvent::DelayedSpellResolved(held)) => {
                        Some((Answered::Held(held), at))
                    }
                    Logged::Own(VsdEvent::ChoiceMade(ChoiceMade {
                        character,
                        struck: Some(struck),
                        ..
                    })) => Some((
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
            | VsdCommand::Fire(_)
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
        state: &dyn View<Vsd>,
        command: VsdCommand,
        dice: &mut Dice<'_>,
    ) -> Verdict<Vec<Decided<VsdEvent>>> {
        decide(state, command, dice)
    }

    /// VSD-6 (house rule): eight hours restore every MP; fewer restore floor(max × hours / 8).
    fn rest(
        _state: &dyn View<Vsd>,
        who: &Someone<'_, Vsd>,
        length: RestLength,
        _dice: &mut Dice<'_>,
        _record: &mut Vec<crate::dice::Die>,
    ) -> Verdict<Option<crate::systems::vsd::event::MpRestored>> {
        // A character with no MP to regain (a warrior) has no part in the rest to tell.
        let Some(vsd) = who.mine.filter(|vsd| vsd.mp_max > 0) else {
            return Ok(None);
        };
        let hours = length.hours();
        let regained = if hours >= 8 {
            vsd.mp_max
        } else {
            vsd.mp_max * hours / 8
        };
        Ok(Some(crate::systems::vsd::event::MpRestored {
            character: who.name.to_string(),
            restored: regained.min(vsd.mp_spent),
        }))
    }

    /// A failed spell held to fire later waits on the rounds that pass.
    fn watches(state: &dyn View<Vsd>) -> bool {
        !state.campaign().delayed_casters.is_empty()
    }

    fn after_command(after: &dyn View<Vsd>) -> Vec<VsdEvent> {
        delayed_spells_due(after)
    }
}

fn decide(
    state: &dyn View<Vsd>,
    command: VsdCommand,
    dice: &mut Dice<'_>,
) -> Verdict<Vec<Decided<VsdEvent>>> {
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
                return Err(Refusal::Own(VsdError::NotConcentrating(
                    who.name.to_string(),
                )));
            }
            Ok(vec![Decided::Own(VsdEvent::ConcentrationInterrupted {
                character: who.name.to_string(),
            })])
        }
        VsdCommand::Cast(casting) => casting::cast(state, casting, dice),
        VsdCommand::Choose(Choosing {
            character,
            choices,
            target,
        }) => consequences::choose(state, &character, &choices, target.as_deref(), dice),
        VsdCommand::Save(save) => answers::save(state, save, dice),
        VsdCommand::Fire(firing) => answers::fire(state, firing, dice),
        VsdCommand::Sever(Who { character }) => consequences::sever(state, &character, dice),
        VsdCommand::SetAlignment(alignment) => {
            if state.campaign().vsd_settings.alignment == alignment {
                return Err(Refusal::Own(VsdError::SettingUnchanged(format!(
                    "the alignment is {} already",
                    Words::word(alignment)
                ))));
            }
            Ok(vec![Decided::Own(VsdEvent::AlignmentSet { alignment })])
        }
        VsdCommand::SetSever(on) => {
            if state.campaign().vsd_settings.sever_the_thread == on {
                let now = if on { "on" } else { "off" };
                return Err(Refusal::Own(VsdError::SettingUnchanged(format!(
                    "Sever the Thread is {now} already"
                ))));
            }
            Ok(vec![Decided::Own(VsdEvent::SeverTheThreadSet { on })])
        }
        VsdCommand::Drive(DriveChange {
            character,
            delta,
            reason,
        }) => {
            let (who, vsd) = caster(state, &character)?;
            let after = i64::from(vsd.drive).saturating_add(delta);
            if delta == 0 || !(0..=i64::from(MAX_DRIVE)).contains(&after) {
                return Err(Refusal::Own(VsdError::DriveOutOfRange {
                    name: who.name.to_string(),
                    drive: vsd.drive,
                    delta,
                }));
            }
            Ok(vec![Decided::Own(VsdEvent::DriveChanged {
                character: who.name.to_string(),
                delta,
                reason,
            })])
        }
        VsdCommand::ClearCondition(ConditionClearing {
            character,
            action,
            condition,
        }) => {
            // The one action there is; a new one fails to compile here until it is decided.
            let ConditionAction::Clear = action;
            let (who, vsd) = caster(state, &character)?;
            if !vsd.has_condition(condition, state.clock()) {
                return Err(Refusal::Own(VsdError::NoSuchCondition {
                    name: who.name.to_string(),
                    condition: condition.name(),
                }));
            }
            Ok(vec![Decided::Own(VsdEvent::ConditionCleared {
                character: who.name.to_string(),
                condition,
            })])
        }
        VsdCommand::Assess(assessment) => assess(state, assessment),
    }
}

/// An assailed caster passes an Assessment Roll (VSD-10 ruling): the GM's word, with the free roll
/// made for it when one was. A roll it names must be the character's, in the log, not retracted,
/// and open (a sealed roll not yet revealed would make the pass rest on a secret).
fn assess(state: &dyn View<Vsd>, assessment: Assessment) -> Verdict<Vec<Decided<VsdEvent>>> {
    let (who, vsd) = caster(state, &assessment.character)?;
    if !vsd.has_condition(Condition::Assailed, state.clock()) {
        return Err(Refusal::Own(VsdError::NoSuchCondition {
            name: who.name.to_string(),
            condition: Condition::Assailed.name(),
        }));
    }
    if let Some(seq) = assessment.roll {
        if seq == 0 || seq > state.head() {
            return Err(Refusal::Core(Refused::NoSuchEvent(seq, state.head())));
        }
        let unfit = |why: &str| {
            Err(Refusal::Own(VsdError::NotAnAssessmentRoll {
                seq,
                why: why.to_string(),
            }))
        };
        match &assessment.rolled {
            _ if state.is_retracted(seq) => return unfit("it was retracted"),
            Some(Logged::Roll { character }) => {
                if character.as_deref().is_none_or(|c| who.name != c) {
                    return unfit(&format!("it was not rolled for {}", who.name));
                }
                if let Some(since) = vsd.assailed_since.filter(|&since| seq < since) {
                    return unfit(&format!(
                        "it was rolled before {} was assailed at #{since}",
                        who.name
                    ));
                }
                if state.sealed_pending(seq).is_some() {
                    return unfit(
                        "it is sealed, and a pass cannot rest on a value not yet revealed",
                    );
                }
            }
            _ => return unfit("it is not a free roll"),
        }
    }
    Ok(vec![Decided::Own(VsdEvent::AssessmentPassed {
        character: who.name.to_string(),
        roll: assessment.roll,
    })])
}

/// The combat round the clock is in.
pub fn round_of(state: &dyn View<Vsd>) -> u64 {
    state.clock().seconds() / ROUND_SECONDS
}

/// A VsD character who can act: known, of this system, not consumed.
fn caster<'s>(state: &'s dyn View<Vsd>, name: &str) -> Verdict<(Someone<'s, Vsd>, &'s VsdState)> {
    let who = state.find(name)?;
    let vsd = who.own()?;
    if vsd.consumed {
        return Err(Refusal::Core(Refused::Dead(who.name.to_string())));
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
