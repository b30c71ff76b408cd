use super::*;
use crate::dice::DiceExpr;
use crate::seq::Seq;
use crate::state::replay_all;
use crate::systems::adg::sheet::AdgSheet;
use crate::systems::vsd::sheet::VsdSheet;
use crate::time::GameDuration;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::{BTreeMap, BTreeSet};

mod basics;
mod fights;
mod retractions;
mod seeds;

fn created() -> Event {
    Event::CampaignCreated {
        campaign_id: "c-1".into(),
        name: "The Sunken Vault".into(),
        seed_commitment: fairness::seed_commitment(&[7u8; 32]),
        grimoire_version: "test".into(),
        derivation: Some(fairness::ROLL_BOUND_DERIVATION),
        // An epoch begun before epochs had a second seed: its sealed dice come from its one seed.
        sealed_commitment: None,
    }
}

/// A level 1 A Dungeon Game sheet, for characters added during a test.
fn a_novice_sheet() -> Sheet {
    Sheet::Adg(AdgSheet {
        level: 1,
        agility: 10,
        brawn: 10,
        cunning: 10,
        health: 5,
        silver: 0,
        knows: Vec::new(),
    })
}

fn adg(name: &str, health: u32) -> Event {
    Event::CharacterAdded {
        name: name.into(),
        sheet: Sheet::Adg(AdgSheet {
            level: 2,
            agility: 11,
            brawn: 9,
            cunning: 13,
            health,
            silver: 40,
            knows: Vec::new(),
        }),
    }
}

fn given(events: &[Event]) -> CampaignState {
    replay_all(
        events
            .iter()
            .enumerate()
            .map(|(i, e)| (Seq(i as u64 + 1), e)),
    )
}

fn when(state: &CampaignState, command: Command, rolls: Vec<u32>) -> Result<Vec<Event>, RuleError> {
    let mut rng = StdRng::seed_from_u64(0);
    let mut dice = Dice::entered(rolls, &mut rng);
    let events = decide(state, command, &mut dice)?;
    dice.finish()?;
    Ok(events)
}

/// A GM's sealed d20, rolled from epoch 1's seed.
fn sealed_seeded_roll() -> Event {
    use crate::dice::{Die, Provenance, SealedOrigin};
    Event::DiceRolled {
        expression: DiceExpr::parse("d20").unwrap(),
        purpose: None,
        dice: vec![Die {
            n: 0,
            purpose: "GM check".into(),
            sides: 20,
            value: None,
            provenance: Provenance::Sealed {
                commitment: "c".repeat(64),
                origin: Some(SealedOrigin::Seeded {
                    epoch: 1,
                    roll: Some(0),
                    witness: None,
                }),
            },
        }],
        total: None,
        character: None,
    }
}

/// A campaign begun with two seeds for epoch 1: `[7; 32]` for its dice, `[5; 32]` for its
/// sealed dice.
fn created_with_two_seeds() -> Event {
    let Event::CampaignCreated {
        campaign_id,
        name,
        seed_commitment,
        grimoire_version,
        derivation,
        ..
    } = created()
    else {
        unreachable!("created() creates the campaign")
    };
    Event::CampaignCreated {
        campaign_id,
        name,
        seed_commitment,
        grimoire_version,
        derivation,
        sealed_commitment: Some(fairness::seed_commitment(&[5u8; 32])),
    }
}

/// `seed reveal` in an epoch with two seeds, the second as kept: `sealed_seed`.
fn reveal_two_seeds(sealed_seed: [u8; 32]) -> Command {
    Command::RevealSeed {
        seed: Some([7u8; 32]),
        sealed_seed: Some(sealed_seed),
        next_commitment: fairness::seed_commitment(&[8u8; 32]),
        next_sealed_commitment: fairness::seed_commitment(&[6u8; 32]),
    }
}

fn retraction(state: &CampaignState, seq: Seq, log: &[Event]) -> Command {
    let target = log.get(seq.get() as usize - 1).cloned();
    let event_at = |at: Seq| Ok::<_, ()>(log.get(at.get() as usize - 1).cloned());
    let restoring = target
        .as_ref()
        .and_then(|target| super::brought_back(target, event_at).unwrap())
        .map(|(back, event)| (back, Box::new(event)));
    assert!(seq <= state.head, "a seq of the log");
    // As the write reads it: who is in play, under what name, once the retraction is in effect.
    let numbered = || (1..).map(Seq).zip(log.iter());
    let mut revisions = crate::state::Revisions::of(numbered());
    revisions.retract(state.head.next(), seq);
    let additions = numbered()
        .filter_map(|(at, event)| match event {
            Event::CharacterAdded { name, .. } => Some((at, name.clone())),
            _ => None,
        })
        .collect();
    // As the write reads it: for a round's start, the first event still standing after it.
    let round_stands = match &target {
        Some(Event::RoundBegan { .. }) => log
            .iter()
            .enumerate()
            .skip(seq.get() as usize)
            .map(|(i, e)| (Seq(i as u64 + 1), e))
            .find(|(at, e)| {
                !matches!(e, Event::Retracted { .. }) && !state.retracted.contains_key(at)
            })
            .map(|(at, _)| (seq, at)),
        _ => None,
    };
    Command::Retract(Retraction {
        seq: Some(seq),
        last: false,
        target,
        restoring,
        reason: "a mistake".into(),
        fight_built_on: false,
        round_stands,
        clock_reshaped: None,
        acted_again: None,
        names_after: revisions.names_in_play(&additions),
    })
}

/// Decides `command` on the log and appends what it records.
fn then(log: &mut Vec<Event>, command: impl FnOnce(&CampaignState, &[Event]) -> Command) {
    let state = given(log);
    let events = when(&state, command(&state, log), vec![]).expect("accepted");
    log.extend(events);
}

fn hurt(amount: u32) -> Event {
    Event::DamageTaken {
        character: "Aldric".into(),
        amount,
        reason: None,
    }
}

fn amended(seq: Seq, amount: u32) -> Event {
    Event::Amended {
        seq,
        event: Box::new(hurt(amount)),
        changed: vec![format!("amount: 1 → {amount}")],
        outcome_changed: true,
    }
}

fn retracted(seq: Seq) -> Event {
    Event::Retracted {
        seq,
        reason: "a slip".into(),
        roll: None,
        restores: None,
    }
}

fn aldrics_health(log: &[Event]) -> u32 {
    given(log)
        .character("Aldric")
        .unwrap()
        .health
        .unwrap()
        .current
}

fn free_roll(character: Option<&str>, face: u32) -> Event {
    use crate::dice::{Die, Provenance};
    Event::DiceRolled {
        expression: DiceExpr::parse("d20").unwrap(),
        purpose: None,
        dice: vec![Die {
            n: 0,
            purpose: "d20".into(),
            sides: 20,
            value: Some(face),
            provenance: Provenance::Entered,
        }],
        total: Some(i64::from(face)),
        character: character.map(str::to_string),
    }
}

/// The marks C-2 computes for `log`: each marked roll with the retracted rolls it follows.
fn reroll_marks(log: &[Event]) -> Vec<(u64, Vec<u64>)> {
    let state = given(log);
    let marks = state.rerolls.iter();
    marks
        .map(|(seq, after)| (seq.get(), after.iter().map(|a| a.get()).collect()))
        .collect()
}

/// The GM reveals epoch 1's seed (`[7; 32]`), starting epoch 2: withheld while a sealed roll from
/// it waits.
fn reveal_epoch_one(log: &mut Vec<Event>) {
    then(log, |_, _| Command::RevealSeed {
        seed: Some([7u8; 32]),
        sealed_seed: None,
        next_commitment: fairness::seed_commitment(&[8u8; 32]),
        next_sealed_commitment: fairness::seed_commitment(&[6u8; 32]),
    });
}

/// Epoch 1's seed published at last.
fn publish_epoch_one(log: &mut Vec<Event>) {
    log.push(Event::SeedRevealed {
        epoch: 1,
        seed: hex::encode([7u8; 32]),
    });
}

fn fight(step: FightStep) -> Command {
    Command::Fight(step)
}

fn start_fight(name: Option<&str>) -> Command {
    fight(FightStep::Start {
        name: name.map(str::to_string),
    })
}

fn clock_by(by: &str) -> Event {
    Event::ClockAdvanced {
        by: GameDuration::parse(by).unwrap(),
    }
}
