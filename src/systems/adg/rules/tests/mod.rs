//! Given / when / then tests for every A Dungeon Game clause of docs/rules.md. Dice are entered, so each
//! test says exactly what was rolled.

use super::CastOrder;
use super::*;
use crate::dice::SealedSecret;
use crate::event::Event;
use crate::rules::Command;
use crate::rules::RuleError;
use crate::seq::Seq;
use crate::sheet::Sheet;
use crate::systems::adg::Adg;
use crate::systems::adg::event::AdgEvent;
use crate::systems::adg::event::EffectKind;
use crate::systems::adg::event::{Activity, PendingOutcome};
use crate::systems::adg::event::{Cast, LearnAttempt, Reading};
use crate::systems::adg::sheet::AdgSheet;
use crate::systems::adg::state::{AdgState, ScrollState};
use crate::systems::registry::AnyCommand;
use crate::systems::registry::AnyEvent;
use crate::testkit::Log;

type World = Log;

fn adg_sheet(level: u32, cunning: u32) -> Sheet {
    Sheet::Adg(AdgSheet {
        level,
        agility: 11,
        brawn: 9,
        cunning,
        health: 8,
        silver: 400,
        knows: Vec::new(),
    })
}

/// A campaign with Aldric: level 2, Agility 11, Brawn 9, Cunning 13, health 8, 400 silver.
fn world() -> World {
    world_with(adg_sheet(2, 13))
}

fn world_with(sheet: Sheet) -> World {
    let mut w = Log::campaign();
    w.then(
        Command::AddCharacter {
            name: "Aldric".into(),
            sheet,
        },
        &[],
    );
    w
}

/// Adds Mira, an Against the Darkmaster wizard, beside Aldric.
fn add_mira(w: &mut World) {
    w.then(
        Command::AddCharacter {
            name: "Mira".into(),
            sheet: Sheet::Vsd(crate::systems::vsd::sheet::VsdSheet {
                level: 3,
                vocation: "wizard".into(),
                lores: vec![],
                mp: 10,
                drive: 2,
                body: 30,
                wsr: 10,
                defense: 5,
                health: None,
            }),
        },
        &[],
    );
}

/// A Dungeon Game helpers on the test log.
trait AdgWorld {
    fn adg(&mut self, command: AdgCommand, rolls: &[u32]) -> Vec<Event>;
    fn refused(&self, command: AdgCommand, rolls: &[u32]) -> RuleError;
    fn aldric(&self) -> AdgState;
    fn health(&self) -> (u32, u32);
    fn knows(&mut self, ritual: &str, kind: RitualKind);
    fn seq_of_last(&self) -> Seq;
}

impl AdgWorld for World {
    fn adg(&mut self, command: AdgCommand, rolls: &[u32]) -> Vec<Event> {
        self.then(adg_cmd(command), rolls)
    }

    fn refused(&self, command: AdgCommand, rolls: &[u32]) -> RuleError {
        self.when(adg_cmd(command), rolls)
            .expect_err("the command is refused")
    }

    fn aldric(&self) -> AdgState {
        self.state()
            .character("Aldric")
            .unwrap()
            .state::<Adg>()
            .cloned()
            .unwrap()
    }

    fn health(&self) -> (u32, u32) {
        let h = self.state().character("Aldric").unwrap().health.unwrap();
        (h.current, h.max)
    }

    /// Aldric knows `ritual` of `kind` (learning cost 1 from health, check 1).
    fn knows(&mut self, ritual: &str, kind: RitualKind) {
        self.adg(learn(ritual, Some(kind), false), &[1, 1]);
    }

    fn seq_of_last(&self) -> Seq {
        self.seq()
    }
}

fn adg_cmd(command: AdgCommand) -> Command {
    Command::System(AnyCommand::Adg(Box::new(command)))
}

fn learn(ritual: &str, kind: Option<RitualKind>, exert: bool) -> AdgCommand {
    AdgCommand::Learn(crate::systems::adg::rules::Learning {
        character: "Aldric".into(),
        ritual: ritual.into(),
        kind,
        spell_level: None,
        cast_time: None,
        duration: None,
        pay: Pay::Health,
        exert,
    })
}

fn cast(ritual: &str) -> AdgCommand {
    cast_with(ritual, |_| {})
}

fn cast_with(ritual: &str, change: impl FnOnce(&mut CastOrder)) -> AdgCommand {
    let mut order = CastOrder::default();
    change(&mut order);
    AdgCommand::Cast(Casting {
        character: "Aldric".into(),
        ritual: ritual.into(),
        order,
    })
}

fn the_cast(events: &[Event]) -> &Cast {
    events
        .iter()
        .find_map(|e| {
            if let Event::System(AnyEvent::Adg(AdgEvent::RitualCast(c))) = e {
                Some(c)
            } else {
                None
            }
        })
        .expect("a cast")
}

fn the_learning(events: &[Event]) -> &LearnAttempt {
    events
        .iter()
        .find_map(|e| {
            if let Event::System(AnyEvent::Adg(AdgEvent::RitualLearnAttempted(a))) = e {
                Some(a)
            } else {
                None
            }
        })
        .expect("a learning attempt")
}

fn the_reading(events: &[Event]) -> &Reading {
    events
        .iter()
        .find_map(|e| {
            if let Event::System(AnyEvent::Adg(AdgEvent::ScrollRead { reading, .. })) = e {
                Some(reading)
            } else {
                None
            }
        })
        .expect("a reading")
}

/// A scribing week's dice: any sealed check, then the week's seven recovery dice (ones).
fn scribing(check: &[u32]) -> Vec<u32> {
    check.iter().copied().chain([1; 7]).collect()
}

fn write(ritual: &str, level: u32, pre_exert: u32) -> AdgCommand {
    AdgCommand::WriteScroll(crate::systems::adg::rules::Scribing {
        character: "Aldric".into(),
        ritual: ritual.into(),
        level,
        effect: "reveals hidden doors within 10 m".into(),
        effect_roll: None,
        pre_exert,
        ongoing: false,
    })
}

fn read(scroll: Seq, took_damage: bool, sealed: Vec<SealedSecret>) -> AdgCommand {
    AdgCommand::ReadScroll(crate::systems::adg::rules::ScrollReading {
        character: "Aldric".into(),
        scroll,
        in_combat: took_damage,
        took_damage,
        target: None,
        sealed,
    })
}

mod characters;
mod downtime;
mod mishaps_and_limits;
mod rituals;
mod scrolls;
