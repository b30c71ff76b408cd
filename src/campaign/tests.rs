//! The door's own tests: dice drawn in the write, refusals that leave the log as it was.

use super::*;
use crate::rules::campaign::{ClockAdvance, DiceRoll};
use crate::systems::adg::rules::{AdgCommand, Attribute, Exertion};
use crate::systems::registry::AnyCommand;
use crate::time::GameDuration;

fn entered() -> DiceSource {
    DiceSource::Entered(vec![3])
}

fn with_entropy() -> DiceSource {
    DiceSource::Seeded {
        player_entropy: Some(GivenEntropy {
            text: "three crows".into(),
            by: "Bryn".into(),
        }),
    }
}

#[test]
fn given_a_command_that_draws_no_dice_when_dice_are_given_then_it_is_refused_naming_them() {
    let exert = Command::System(AnyCommand::Adg(Box::new(AdgCommand::Exert(Exertion {
        character: "Aldric".into(),
        attribute: Attribute::Brawn,
        amount: 1,
        reason: "a climb".into(),
    }))));
    for (dice, given) in [
        (entered(), "dice entered"),
        (with_entropy(), "player entropy"),
    ] {
        let refused = Campaign::check_dice(&exert, &dice).unwrap_err().to_string();
        assert!(
            refused.contains("not apply") && refused.contains(given),
            "{refused}"
        );
    }
    let seeded = DiceSource::Seeded {
        player_entropy: None,
    };
    assert!(Campaign::check_dice(&exert, &seeded).is_ok());
}

#[test]
fn given_a_command_that_draws_dice_when_dice_are_given_then_they_are_taken() {
    let roll = Command::Roll(DiceRoll {
        expression: crate::dice::DiceExpr::parse("d6").unwrap(),
        purpose: None,
        sealed: false,
        character: None,
    });
    assert!(Campaign::check_dice(&roll, &entered()).is_ok());
    assert!(Campaign::check_dice(&roll, &with_entropy()).is_ok());
    let clock = Command::AdvanceClock(ClockAdvance {
        by: GameDuration(60),
    });
    assert!(Campaign::check_dice(&clock, &entered()).is_err());
}

fn run(seed: u64) -> Run {
    Run {
        stamp: Stamp {
            recorded_at: "2026-12-01T18:00:00Z".into(),
            actor: "gm".into(),
            id_rng: StdRng::seed_from_u64(seed),
        },
        dice: DiceSource::Seeded {
            player_entropy: None,
        },
        rng: StdRng::seed_from_u64(seed),
    }
}

/// The seed the campaign's secrets keep as `kind` under `key`.
fn kept(campaign: &mut Campaign, kind: &str, key: &str) -> [u8; 32] {
    let kept = campaign.store().secrets().unwrap();
    let (_, _, seed) = (kept.iter())
        .find(|(k, named, _)| k == kind && named == key)
        .unwrap_or_else(|| panic!("no {kind} {key} in {kept:?}"));
    hex::decode(seed).unwrap().try_into().unwrap()
}

fn created(seed: u64) -> (Campaign, String, String) {
    let mut campaign = Campaign::on(crate::store::MemoryLog::new().open());
    let create = Command::CreateCampaign {
        campaign_id: String::new(),
        name: "The Sunken Vault".into(),
        seed_commitment: String::new(),
        sealed_commitment: String::new(),
    };
    let written = campaign.execute(run(seed), create).unwrap();
    let Event::CampaignCreated {
        campaign_id,
        seed_commitment,
        ..
    } = &written.events[0].event
    else {
        panic!("{:?}", written.events);
    };
    (campaign, campaign_id.clone(), seed_commitment.clone())
}

/// The door mints a new campaign's identity and first seeds inside the write: front ends
/// leave them empty, and the seeds it keeps are the ones the recorded commitments bind, the
/// second (for sealed dice) apart from the first.
#[test]
fn given_a_new_campaign_when_created_then_its_id_and_seeds_are_fresh_and_the_seeds_are_kept() {
    let (mut first, id, commitment) = created(1);
    let (_, other_id, other_commitment) = created(2);
    assert!(uuid::Uuid::parse_str(&id).is_ok(), "{id}");
    assert_ne!(id, other_id);
    assert_ne!(commitment, other_commitment);
    let kinds: Vec<String> = (first.store().secrets().unwrap().into_iter())
        .map(|(kind, key, _)| format!("{kind} {key}"))
        .collect();
    assert_eq!(kinds, ["epoch_seed 1", "sealed_seed 1"]);
    let seed = kept(&mut first, "epoch_seed", "1");
    assert_eq!(crate::dice::fairness::seed_commitment(&seed), commitment);
    let sealed = kept(&mut first, "sealed_seed", "1");
    let state = first.store().replay(None).unwrap();
    assert_eq!(
        state.epoch_sealed_commitment,
        Some(crate::dice::fairness::seed_commitment(&sealed))
    );
    assert_ne!(seed, sealed);
}

/// A seed reveal publishes the seed the first commitment bound and records a commitment to a
/// new seed, which it keeps.
#[test]
fn given_a_campaign_when_its_seed_is_revealed_then_the_next_epochs_seed_is_minted_and_kept() {
    let (mut campaign, _, commitment) = created(3);
    let reveal = Command::RevealSeed {
        seed: None,
        sealed_seed: None,
        next_commitment: String::new(),
        next_sealed_commitment: String::new(),
    };
    let written = campaign.execute(run(4), reveal).unwrap();
    let kinds: Vec<&str> = written.events.iter().map(|r| r.event.kind()).collect();
    assert_eq!(
        kinds,
        ["seed_revealed", "sealed_seed_revealed", "epoch_started"]
    );
    let Event::SeedRevealed { seed, .. } = &written.events[0].event else {
        panic!()
    };
    let seed: [u8; 32] = hex::decode(seed).unwrap().try_into().unwrap();
    assert_eq!(crate::dice::fairness::seed_commitment(&seed), commitment);
    let Event::SealedSeedRevealed { seed: sealed, .. } = &written.events[1].event else {
        panic!()
    };
    assert_eq!(
        *sealed,
        hex::encode(kept(&mut campaign, "sealed_seed", "1"))
    );
    let Event::EpochStarted {
        seed_commitment,
        sealed_commitment,
        ..
    } = &written.events[2].event
    else {
        panic!()
    };
    let next = kept(&mut campaign, "epoch_seed", "2");
    let next_sealed = kept(&mut campaign, "sealed_seed", "2");
    let commitment_of = crate::dice::fairness::seed_commitment;
    assert_eq!(&commitment_of(&next), seed_commitment);
    assert_eq!(Some(commitment_of(&next_sealed)), *sealed_commitment);
}

/// `--last` is resolved inside the write: an event recorded by another front end after the
/// GM typed the retraction is the one it undoes, since it was the newest when the retraction
/// was recorded.
#[test]
fn given_retract_last_typed_when_another_event_lands_first_then_the_newest_is_retracted() {
    let log = crate::store::MemoryLog::new();
    let mut gm = Campaign::on(log.open());
    let create = Command::CreateCampaign {
        campaign_id: String::new(),
        name: "The Sunken Vault".into(),
        seed_commitment: String::new(),
        sealed_commitment: String::new(),
    };
    gm.execute(run(1), create).unwrap();
    let tick = |minutes: u64| {
        Command::AdvanceClock(ClockAdvance {
            by: GameDuration(60 * minutes),
        })
    };
    gm.execute(run(2), tick(1)).unwrap();
    let typed = Command::Retract(crate::rules::campaign::Retraction {
        seq: None,
        last: true,
        reason: "a slip".into(),
        target: None,
        restoring: None,
        fight_built_on: false,
        round_stands: None,
        clock_reshaped: None,
        acted_again: None,
        names_after: Default::default(),
    });
    let mut shell = Campaign::on(log.open());
    let landed = shell.execute(run(3), tick(5)).unwrap().events[0].seq;
    let written = gm.execute(run(4), typed).unwrap();
    let Event::Retracted { seq, .. } = &written.events[0].event else {
        panic!("{:?}", written.events);
    };
    assert_eq!(*seq, landed);
    assert_eq!(written.state.clock.seconds(), 60);
}
