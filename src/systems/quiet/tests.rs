//! A Quiet Game through the same doors as the shipped systems: the rules' log, the store, replay
//! and the words. Nothing here or in its folder needed a line of the core.

use super::Quiet;
use super::event::QuietEvent;
use super::rules::{QuietCommand, QuietError};
use super::sheet::QuietSheet;
use super::state::QuietCharacter;
use crate::campaign::{Campaign, DiceSource, Run};
use crate::event::Event;
use crate::rules::Command;
use crate::rules::RuleError;
use crate::rules::campaign::Resting;
use crate::sheet::Sheet;
use crate::state::CampaignState;
use crate::store::{MemoryLog, Stamp};
use crate::systems::adg::sheet::AdgSheet;
use crate::systems::registry::Registered;
use crate::systems::registry::{AnyCommand, AnyError, SystemId};
use crate::testkit::Log;
use rand::SeedableRng;
use rand::rngs::StdRng;

fn wen() -> Command {
    Command::AddCharacter {
        name: "Wen".into(),
        sheet: Sheet::Quiet(QuietSheet { level: 1, calm: 4 }),
    }
}

/// An A Dungeon Game character, to play beside.
fn aldric() -> Command {
    Command::AddCharacter {
        name: "Aldric".into(),
        sheet: Sheet::Adg(AdgSheet {
            level: 1,
            agility: 10,
            brawn: 10,
            cunning: 10,
            health: 8,
            silver: 0,
            knows: Vec::new(),
        }),
    }
}

fn steady(name: &str) -> Command {
    Command::System(AnyCommand::Quiet(Box::new(QuietCommand::Steady {
        character: name.into(),
    })))
}

fn strain(log: &Log) -> u32 {
    let state = log.state();
    state
        .character("Wen")
        .unwrap()
        .state::<Quiet>()
        .unwrap()
        .strain
}

#[test]
fn quiet_given_a_sheet_when_added_then_it_starts_calm_and_brings_no_other_systems_tables() {
    let mut log = Log::campaign();
    let events = log.then(wen(), &[]);
    assert_eq!(events.len(), 1, "{events:?}");
    let state = log.state();
    let wen = state.character("Wen").unwrap();
    assert_eq!(
        wen.state::<Quiet>(),
        Some(&QuietCharacter {
            level: 1,
            calm: 4,
            strain: 0
        })
    );
    assert_eq!(wen.health, None);
    assert!(state.systems.adg.adg_tables.is_none());
    assert_eq!(
        crate::render::describe(&events[0]),
        "Wen joins (A Quiet Game, level 1: calm 4)"
    );
}

#[test]
fn quiet_when_steadied_then_strain_rises_by_the_d4_and_the_line_says_so() {
    let mut log = Log::campaign();
    log.then(wen(), &[]);
    let events = log.then(steady("wen"), &[3]);
    assert_eq!(strain(&log), 3);
    assert_eq!(
        crate::render::describe(&events[0]),
        "Wen steadies: strain +3"
    );
    assert_eq!(events[0].dice().len(), 1);
    assert!(events[0].concerns("wen"));
    // A d4 has no 5.
    assert!(matches!(
        log.when(steady("Wen"), &[5]),
        Err(RuleError::Dice(_))
    ));
}

#[test]
fn quiet_given_too_much_strain_when_steadied_then_refused_with_the_numbers() {
    let mut log = Log::campaign();
    log.then(wen(), &[]);
    log.then(steady("Wen"), &[4]);
    let refused = log.when(steady("Wen"), &[1]).unwrap_err();
    assert_eq!(
        refused,
        RuleError::System(AnyError::Quiet(QuietError::TooStrained {
            name: "Wen".into(),
            strain: 4,
            calm: 4
        }))
    );
    assert_eq!(
        refused.to_string(),
        "Wen is too strained to steady again (4 of 4 calm)"
    );
}

#[test]
fn quiet_given_an_adg_character_when_steadied_then_refused_as_another_systems() {
    let mut log = Log::campaign();
    log.then(aldric(), &[]);
    assert!(matches!(
        log.when(steady("Aldric"), &[1]),
        Err(RuleError::WrongSystem {
            needs: "A Quiet Game",
            ..
        })
    ));
}

/// A rest gives each resting character their own system's share, in alphabetical order: the ADG
/// recovery die is the only die drawn, and the stored rest carries each system's shares under its
/// own field (no `mp`, since no Against the Darkmaster character rested).
#[test]
fn quiet_and_adg_given_a_party_when_resting_a_night_then_each_takes_its_share() {
    let mut log = Log::campaign();
    log.then(wen(), &[]);
    log.then(aldric(), &[]);
    log.then(
        Command::Damage(crate::rules::campaign::HealthChange {
            character: "Aldric".into(),
            amount: 3,
            reason: None,
        }),
        &[],
    );
    log.then(steady("Wen"), &[3]);
    let events = log.then(Command::Rest(Resting::night(&[])), &[2]);
    let payload: serde_json::Value = serde_json::from_str(&events[0].to_payload()).unwrap();
    assert_eq!(payload["results"][0]["healed"], 2);
    assert_eq!(payload["quiet"][0]["eased"], 3);
    assert!(payload.get("mp").is_none(), "{payload}");
    assert_eq!(events[0].dice().len(), 1);
    assert_eq!(strain(&log), 0);
    assert_eq!(
        log.state()
            .character("Aldric")
            .unwrap()
            .health
            .unwrap()
            .current,
        7
    );
    assert_eq!(
        crate::render::describe(&events[0]),
        "a night's rest: Aldric heals 2, Wen eases 3 strain"
    );
}

/// Downtime needs nothing of a system with no weeks of its own: its characters rest or do the
/// GM's activities, and a week another system reads as its own is refused for them.
#[test]
fn quiet_given_downtime_weeks_when_spent_then_the_gms_activities_are_kept_and_scribing_is_refused()
{
    let mut log = Log::campaign();
    log.then(wen(), &[]);
    log.then(aldric(), &[]);
    log.then(steady("Wen"), &[3]);
    let before = log.state().clock;
    let weeks = |plan: &[&str]| {
        Command::Downtime(crate::rules::campaign::DowntimeWeeks {
            characters: vec!["Wen".into()],
            party: false,
            weeks: 2,
            plan: plan.iter().map(|week| week.parse().unwrap()).collect(),
        })
    };
    let refused = log
        .when(
            weeks(&["Wen: scribe Ward, level 1, effect: a door holds"]),
            &[],
        )
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        RuleError::WrongSystem {
            name: "Wen".into(),
            plays: "A Quiet Game".into(),
            needs: "A Dungeon Game",
        }
        .to_string()
    );
    let events = log.then(weeks(&["Wen: travel: to the coast"]), &[]);
    let Event::DowntimeTaken(span) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(span.characters.len(), 1);
    assert_eq!(span.characters[0].healed, 0);
    assert!(span.dice.is_empty());
    assert_eq!(
        crate::render::describe(&events[0]),
        "2 weeks of downtime. Wen: travel (to the coast), rest"
    );
    assert_eq!(strain(&log), 3, "nothing in the weeks eases strain");
    assert_eq!(log.state().clock.seconds() - before.seconds(), 14 * 86_400);
}

#[test]
fn quiet_events_read_back_by_their_kind() {
    let steadied = Event::System(Quiet::wrap_event(QuietEvent::Steadied {
        character: "Wen".into(),
        strain: 2,
        dice: Vec::new(),
    }));
    let payload = steadied.to_payload();
    assert!(payload.starts_with(r#"{"kind":"steadied""#), "{payload}");
    assert_eq!(
        Event::from_stored("steadied", 2, &payload),
        Ok(steadied.clone())
    );
    assert_eq!(serde_json::from_str::<Event>(&payload).ok(), Some(steadied));
    assert!(crate::event::kinds().contains(&"steadied"));
    assert!(SystemId::ALL.contains(&SystemId::Quiet));
}

/// Through the door and the store: recorded, read back and replayed from a snapshot as from the
/// start.
#[test]
fn quiet_through_the_campaign_door_replays_the_same_from_snapshots() {
    let run = |seed: u64, dice: Vec<u32>| Run {
        stamp: Stamp {
            recorded_at: "2026-12-01T18:00:00Z".into(),
            actor: "gm".into(),
            id_rng: StdRng::seed_from_u64(seed),
        },
        dice: match dice.is_empty() {
            true => DiceSource::Seeded {
                player_entropy: None,
            },
            false => DiceSource::Entered(dice),
        },
        rng: StdRng::seed_from_u64(seed),
    };
    let mut campaign = Campaign::on(MemoryLog::new().open());
    let create = Command::CreateCampaign {
        campaign_id: String::new(),
        name: "Quiet".into(),
        seed_commitment: String::new(),
        sealed_commitment: String::new(),
    };
    campaign.execute(run(1, vec![]), create).unwrap();
    campaign.execute(run(2, vec![]), wen()).unwrap();
    for (i, die) in [1, 2, 1].into_iter().enumerate() {
        campaign
            .execute(run(3 + i as u64, vec![die]), steady("Wen"))
            .unwrap();
    }
    campaign
        .execute(run(9, vec![]), Command::Rest(Resting::hours(&["Wen"], 2)))
        .unwrap();
    let store = campaign.store();
    store.rebuild_snapshots().unwrap();
    let replayed = store.replay(None).unwrap();
    assert_eq!(replayed, store.replay_without_snapshots(None).unwrap());
    let wen = replayed.character("Wen").unwrap();
    assert_eq!(wen.state::<Quiet>().unwrap().strain, 3);
    // A system that draws no sheet of its own gets the core's health line.
    use crate::systems::contract::render::SystemWords;
    let mine = wen.state::<Quiet>().unwrap();
    assert_eq!(
        Quiet::sheet_lines(&wen.as_seen_by::<Quiet>(), mine, &replayed),
        ["  No health track"]
    );
    assert_eq!(
        Quiet::glance(&wen.as_seen_by::<Quiet>(), mine, &replayed),
        Vec::<String>::new()
    );
    let through_json: CampaignState =
        serde_json::from_str(&serde_json::to_string(&replayed).unwrap()).unwrap();
    assert_eq!(through_json, replayed);
    // The report names the system and level, and draws only the core's health for a system
    // with no charts of its own.
    let gathered = crate::report::gather(store, None, &mut |_| {}).unwrap();
    let page = crate::report::html(&gathered, "now");
    assert!(page.contains("A Quiet Game, level 1"), "{page}");
    assert!(!page.contains("data-chart=\"attributes\""));
    assert!(page.contains("<h2>Scrolls</h2><p>No scroll is held.</p>"));
}

/// The command line mounts the system's command from its description alone: `steady` parses,
/// its help is the system's, and it takes the dice options because it rolls.
#[test]
fn the_cli_mounts_quiet() {
    use clap::FromArgMatches;
    let matches = crate::cli::definitions()
        .try_get_matches_from(["grimoire", "--rolls", "3", "steady", "Pip"])
        .unwrap();
    let cli = crate::cli::Cli::from_arg_matches(&matches).unwrap();
    let crate::cli::Commands::System(mounted) = &cli.command else {
        panic!("{:?}", cli.command);
    };
    assert_eq!((mounted.system, mounted.path), (SystemId::Quiet, "steady"));
    assert!(crate::cli::rolling().contains(&"steady"));
    let mut definitions = crate::cli::definitions();
    let steady = definitions.find_subcommand_mut("steady").unwrap();
    let help = steady.render_long_help().to_string();
    assert!(help.contains("Steady a character's nerves"), "{help}");
    assert!(help.contains("Examples:\n  grimoire steady Pip"), "{help}");
    assert!(help.contains("--rolls <"), "{help}");
}

/// Played through the command line with nothing of the command line edited: the system's sheet
/// and command are mounted from its descriptions, its flags are refused on another game's
/// character, and its command records into a real campaign file.
#[test]
fn the_cli_plays_quiet_from_its_descriptions_alone() {
    use clap::FromArgMatches;
    use rand::SeedableRng;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("quiet.db");
    let db = db.to_str().unwrap();
    let mut ctx = crate::cli::Context {
        now: chrono::DateTime::parse_from_rfc3339("2026-12-02T20:00:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc),
        rng: rand::rngs::StdRng::seed_from_u64(7),
        streams: false,
    };
    let mut run = |line: &[&str]| {
        let head = ["grimoire", "--db", db, "--actor", "gm"];
        let argv = head.iter().chain(line);
        let matches = crate::cli::definitions()
            .try_get_matches_from(argv)
            .unwrap();
        let cli = crate::cli::Cli::from_arg_matches(&matches).unwrap();
        crate::cli::run(&cli, &mut ctx)
    };
    run(&["init", "--name", "Hush"]).unwrap();
    run(&[
        "character",
        "add",
        "quiet",
        "Pip",
        "--level",
        "1",
        "--calm",
        "5",
    ])
    .unwrap();
    let added = run(&[
        "character",
        "add",
        "adg",
        "Wen",
        "--level",
        "1",
        "--agility",
        "9",
        "--brawn",
        "9",
        "--cunning",
        "9",
        "--health",
        "4",
    ]);
    added.unwrap();
    let steadied = run(&["--rolls", "3", "steady", "Pip"]).unwrap();
    assert!(steadied.text.contains("Pip"), "{}", steadied.text);
    let Err(wrong) = run(&["character", "set", "Wen", "--calm", "3", "--reason", "x"]) else {
        panic!("a Quiet flag on another game's character is refused");
    };
    assert!(
        wrong
            .to_string()
            .contains("Wen plays A Dungeon Game, whose sheet has no --calm"),
        "{wrong}"
    );
    run(&["character", "level-up", "Pip"]).unwrap();
    let state = crate::store::Store::open(crate::store::Location::parse(db).unwrap())
        .unwrap()
        .replay(None)
        .unwrap();
    let pip = state.character("Pip").unwrap();
    assert_eq!(pip.state::<Quiet>().unwrap().strain, 3);
    assert_eq!(pip.sheet, Sheet::Quiet(QuietSheet { level: 2, calm: 5 }));
}
