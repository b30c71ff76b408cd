//! Given / when / then tests for every Against the Darkmaster clause of docs/rules.md, with entered dice.

use super::consequences::{failure_pending, roll_resonance};
use super::*;
use crate::dice::Dice;
use crate::event::Event;
use crate::rules::Command;
use crate::rules::RuleError;
use crate::rules::campaign::ClockAdvance;
use crate::sheet::Sheet;
use crate::systems::registry::AnyCommand;
use crate::systems::registry::AnyEvent;
use crate::systems::vsd::Vsd;
use crate::systems::vsd::event::VsdEvent;
use crate::systems::vsd::event::{Outcome, SpellCast};
use crate::systems::vsd::sheet::{Lore, VsdSheet};
use crate::systems::vsd::state::VsdState;
use crate::testkit::Log;
use crate::time::GameDuration;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::BTreeMap;

type World = Log;

fn vsd_sheet(level: u32, vocation: &str, bonus: i32, ranks: u32, body: i32) -> Sheet {
    Sheet::Vsd(VsdSheet {
        level,
        vocation: vocation.into(),
        lores: vec![Lore {
            name: "Elementalism".into(),
            bonus,
            ranks,
        }],
        mp: 12,
        drive: 3,
        body,
        wsr: 20,
        defense: 10,
        health: None,
    })
}

fn spell(name: &str, weave: u32, kind: SpellKind) -> NewSpell {
    NewSpell {
        name: name.into(),
        lore: "Elementalism".into(),
        weave,
        kind,
        tags: vec![],
        instantaneous: false,
        save: false,
        attack: None,
        mp: None,
        duration: None,
    }
}

/// [`spell`] as the log keeps it once learned.
fn def(name: &str, weave: u32, kind: SpellKind) -> SpellDef {
    spell(name, weave, kind).into_def("Elementalism".into())
}

/// Mira: level 3 wizard, Elementalism +45 with 6 ranks, 12 MP, Drive 3, Body 40, WSR +20.
/// Bran: level 2 animist, Elementalism +30 (2 ranks). Tom: level 5 warrior, Elementalism +10 (6 ranks).
/// Mira knows Shield (W2 defensive, 10 minutes), Sleep (W1 enchantment, save), Light (W1 utility,
/// light, instantaneous), Fire Bolt (W2 elemental bolt), Ember (W1 elemental), Storm (W5 elemental).
fn world() -> World {
    let mut w = Log::campaign();
    w.then(
        Command::AddCharacter {
            name: "Mira".into(),
            sheet: vsd_sheet(3, "wizard", 45, 6, 40),
        },
        &[],
    );
    w.then(
        Command::AddCharacter {
            name: "Bran".into(),
            sheet: vsd_sheet(2, "animist", 30, 2, 30),
        },
        &[],
    );
    w.then(
        Command::AddCharacter {
            name: "Tom".into(),
            sheet: vsd_sheet(5, "warrior", 10, 6, 30),
        },
        &[],
    );
    let shield = NewSpell {
        duration: Some(GameDuration(600)),
        ..spell("Shield", 2, SpellKind::Defensive)
    };
    let sleep = NewSpell {
        save: true,
        duration: Some(GameDuration(600)),
        ..spell("Sleep", 1, SpellKind::Enchantment)
    };
    let light = NewSpell {
        instantaneous: true,
        tags: vec![Tag::Light],
        ..spell("Light", 1, SpellKind::Utility)
    };
    let bolt = NewSpell {
        attack: Some(AttackKind::Bolt),
        ..spell("Fire Bolt", 2, SpellKind::Elemental)
    };
    for s in [
        shield,
        sleep,
        light,
        bolt,
        spell("Ember", 1, SpellKind::Elemental),
        spell("Storm", 5, SpellKind::Elemental),
    ] {
        w.vsd(
            VsdCommand::Learn(SpellLearning {
                character: "Mira".into(),
                spell: s,
            }),
            &[],
        );
    }
    w
}

/// Mira concentrates a round on `spell`.
fn concentrate(spell: &str) -> VsdCommand {
    VsdCommand::Concentrate(Concentration {
        character: "Mira".into(),
        spell: spell.into(),
    })
}

fn cast(spell: &str) -> VsdCommand {
    cast_by("Mira", spell, |_| {})
}

fn cast_with(spell: &str, change: impl FnOnce(&mut CastOrder)) -> VsdCommand {
    cast_by("Mira", spell, change)
}

fn cast_by(who: &str, spell: &str, change: impl FnOnce(&mut CastOrder)) -> VsdCommand {
    let mut order = CastOrder {
        target: "the orc".into(),
        ..CastOrder::default()
    };
    change(&mut order);
    VsdCommand::Cast(Casting {
        character: who.into(),
        spell: spell.into(),
        order,
    })
}

fn the_cast(events: &[Event]) -> &SpellCast {
    events
        .iter()
        .find_map(|e| {
            if let Event::System(AnyEvent::Vsd(VsdEvent::SpellCast(c))) = e {
                Some(c)
            } else {
                None
            }
        })
        .expect("a cast")
}

/// Against the Darkmaster helpers on the test log.
trait VsdWorld {
    fn vsd(&mut self, command: VsdCommand, rolls: &[u32]) -> Vec<Event>;
    fn refused(&self, command: VsdCommand, rolls: &[u32]) -> RuleError;
    fn next_round(&mut self);
    fn of(&self, name: &str) -> VsdState;
    /// The spells in force on a character of either system.
    fn on(&self, name: &str) -> BTreeMap<String, crate::systems::vsd::state::ActiveSpell>;
}

impl VsdWorld for World {
    fn vsd(&mut self, command: VsdCommand, rolls: &[u32]) -> Vec<Event> {
        self.then(Command::System(AnyCommand::Vsd(Box::new(command))), rolls)
    }

    fn refused(&self, command: VsdCommand, rolls: &[u32]) -> RuleError {
        self.when(Command::System(AnyCommand::Vsd(Box::new(command))), rolls)
            .expect_err("the command is refused")
    }

    fn next_round(&mut self) {
        self.then(
            Command::AdvanceClock(ClockAdvance {
                by: GameDuration(6),
            }),
            &[],
        );
    }

    fn of(&self, name: &str) -> VsdState {
        self.state()
            .character(name)
            .unwrap()
            .state::<Vsd>()
            .cloned()
            .unwrap()
    }

    fn on(&self, name: &str) -> BTreeMap<String, crate::systems::vsd::state::ActiveSpell> {
        let on = self.state().character(name).unwrap().spells_on.clone();
        on.into_iter()
            .map(|(spell, active)| (spell.to_string(), active))
            .collect()
    }
}

fn choose(choices: &[Choice]) -> VsdCommand {
    VsdCommand::Choose(Choosing {
        character: "Mira".into(),
        choices: choices.to_vec(),
        target: None,
    })
}

/// Mira picks `choices`, naming who a failed spell strikes instead.
fn choose_striking(choices: &[Choice], target: &str) -> VsdCommand {
    VsdCommand::Choose(Choosing {
        character: "Mira".into(),
        choices: choices.to_vec(),
        target: Some(target.into()),
    })
}

/// Each player's phone linked, in turn, for the character they play (devices 1, 2, …).
fn link_phones(w: &mut World, players: &[(&str, &str)]) {
    for (player, plays) in players {
        w.then(
            Command::LinkDevice {
                player: player.to_string(),
                characters: vec![plays.to_string()],
                replace: false,
                token_hash: format!("{player:0>64}"),
            },
            &[],
        );
    }
}

mod acting;
mod attacks;
mod casting;
mod failure;
mod mps_saves_stacking;
mod overcasting_conditions_range;
mod phone;
mod resonance;
