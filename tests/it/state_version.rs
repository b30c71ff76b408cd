//! Keeps `STATE_FORMAT` honest. A snapshot is trusted only when the format that wrote it is this
//! build's, so a change to what `apply` computes (or to how the state is kept) must come with a new
//! format, or old snapshots would stand in for a replay that now gives another answer.
//!
//! The fixture is a public export holding every kind of event the log can hold but one (made once
//! with the tour's campaign and the commands a GM types, and never regenerated: exports, like the
//! log, keep their shape; a new kind is recorded onto it and its lines appended, as the fights' and an
//! amendment's and a player's choice made on their phone were, so the states before them are hashed as they always were); the retired `downtime_spent` kind, which no command records any more, is
//! appended here by value, and so is an epoch with a second seed for its sealed dice, whose
//! `seed reveal` needs the epoch seed a public export does not carry, and a held bolt's attack
//! roll (Mira's held spell in the fixture fired before bolts owed one). Every state the replay
//! passes through is hashed; `FINGERPRINT` holds the format and that hash.

use grimoire::event::Event;
use grimoire::store::testkit::Writes;
use grimoire::store::{Batch, MemoryLog, STATE_FORMAT, Stamp};
use grimoire::systems::adg::event::AdgEvent;
use grimoire::systems::registry::AnyEvent;
use grimoire::systems::vsd::event::{AttackRolled, DelayedResolved, VsdEvent};
use grimoire::time::GameDuration;
use rand::SeedableRng;
use rand::rngs::StdRng;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

const FIXTURE: &str = include_str!("../../fixtures/state/every-kind.jsonl");
const FINGERPRINT: &str = include_str!("../../fixtures/state/fingerprint");

/// The fixture, imported into memory, plus the retired kind; then one full replay, hashing the
/// state after every event. Returns the hash and the kinds seen.
fn replay_every_kind() -> (String, BTreeSet<String>) {
    let mut store = MemoryLog::new().open();
    let lines = FIXTURE
        .lines()
        .enumerate()
        .map(|(i, line)| (i as u64 + 1, Ok(line.to_string())));
    (store.import(lines, &mut grimoire::verify::ChainCheck::default())).unwrap();
    store
        .write(
            Stamp {
                recorded_at: "2026-12-01T18:00:00Z".into(),
                actor: "fixture".into(),
                id_rng: StdRng::seed_from_u64(23),
            },
            |_, _| {
                Ok(Batch {
                    events: vec![Event::System(AnyEvent::Adg(AdgEvent::DowntimeSpent {
                        character: "Aldric".into(),
                        weeks: 1,
                        by: GameDuration(7 * 86_400),
                        restored_exertion: true,
                    }))],
                    ..Batch::default()
                })
            },
        )
        .unwrap();
    // Epoch 3 ends (the fixture's seeds are not in it: any seed serves the replay), and epoch 4
    // begins with two seeds, `[4; 32]` and `[5; 32]` for its sealed dice; a sealed roll holds the
    // second back at its end, and its reveal publishes it.
    let commitment = |seed: u8| grimoire::dice::fairness::seed_commitment(&[seed; 32]);
    let epoch = |epoch: u32, seed: u8, sealed: u8| Event::EpochStarted {
        epoch,
        seed_commitment: commitment(seed),
        derivation: Some(grimoire::dice::fairness::ROLL_BOUND_DERIVATION),
        sealed_commitment: Some(commitment(sealed)),
    };
    let revealed = |epoch: u32, seed: u8| Event::SeedRevealed {
        epoch,
        seed: hex::encode([seed; 32]),
    };
    let sealed_roll = Event::DiceRolled {
        expression: grimoire::dice::DiceExpr::parse("d20").unwrap(),
        purpose: None,
        dice: vec![grimoire::dice::Die {
            n: 0,
            purpose: "a sealed d20".into(),
            sides: 20,
            value: None,
            provenance: grimoire::dice::Provenance::Sealed {
                commitment: "c".repeat(64),
                origin: Some(grimoire::dice::SealedOrigin::Seeded {
                    epoch: 4,
                    roll: Some(0),
                    witness: None,
                }),
            },
        }],
        total: None,
        character: None,
    };
    let held_bolt = Event::System(AnyEvent::Vsd(VsdEvent::DelayedSpellResolved(
        DelayedResolved {
            caster: "Mira".into(),
            spell: "Fire Bolt".into(),
            target: "the troll".into(),
            cast_seq: grimoire::seq::Seq(2),
            fired: true,
            mp_spent: 0,
            save_difficulty: None,
            took_hold: false,
            active_until: None,
            took_effect_at: None,
            replaced_by: None,
            attack_due: true,
        },
    )));
    let attack = Event::System(AnyEvent::Vsd(VsdEvent::AttackRolled(AttackRolled {
        caster: "Mira".into(),
        spell: "Fire Bolt".into(),
        target: "the troll".into(),
        cast_seq: grimoire::seq::Seq(2),
        modifiers: vec![],
        lore_bonus: 45,
        roll: 57,
        total: 102,
        fumbled: false,
        dice: vec![],
    })));
    // A roll put to device 2, its answer refused by the rules, and the next roll to it put again
    // after the refusal (C-5: the state marks it).
    let put = |request: u32| Event::RollRequested {
        request: grimoire::ids::RequestId(request),
        device: grimoire::ids::DeviceId(2),
        commitment: commitment(9),
        asked: grimoire::event::AskedCommand::Roll {
            expression: grimoire::dice::DiceExpr::parse("d20").unwrap(),
            purpose: None,
            character: Some("Mira".into()),
        },
        witnessed: false,
    };
    let refused = Event::RollAnswered {
        request: grimoire::ids::RequestId(3),
        contribution: "5a".repeat(32),
        secret: hex::encode([9u8; 32]),
        refused: Some("no character named 'Mira'".into()),
    };
    let batches = [
        vec![put(3)],
        vec![refused],
        vec![put(4)],
        vec![held_bolt],
        vec![attack],
        vec![revealed(3, 3), epoch(4, 4, 5)],
        vec![sealed_roll],
        vec![revealed(4, 4), epoch(5, 6, 7)],
        vec![
            Event::SealedRevealed {
                seq: grimoire::seq::Seq(0),
                dice: vec![],
            },
            Event::SealedSeedRevealed {
                epoch: 4,
                seed: hex::encode([5u8; 32]),
            },
        ],
    ];
    for (i, events) in batches.into_iter().enumerate() {
        store
            .write(
                Stamp {
                    recorded_at: "2026-12-05T18:00:00Z".into(),
                    actor: "fixture".into(),
                    id_rng: StdRng::seed_from_u64(24 + i as u64),
                },
                |state, _| {
                    // The reveal names the sealed roll, the newest event but two.
                    let events = events
                        .into_iter()
                        .map(|event| match event {
                            Event::SealedRevealed { dice, .. } => Event::SealedRevealed {
                                seq: grimoire::seq::Seq(state.head.get() - 2),
                                dice,
                            },
                            other => other,
                        })
                        .collect();
                    Ok(Batch {
                        events,
                        ..Batch::default()
                    })
                },
            )
            .unwrap();
    }
    let mut hasher = Sha256::new();
    let mut kinds = BTreeSet::new();
    store
        .replay_each(None, |recorded, state| {
            kinds.insert(recorded.event.kind().to_string());
            hasher.update(serde_json::to_string(state).unwrap());
            hasher.update([0]);
        })
        .unwrap();
    (hex::encode(hasher.finalize()), kinds)
}

#[test]
fn the_fixture_holds_every_kind_of_event() {
    let (_, seen) = replay_every_kind();
    let missing: Vec<_> = grimoire::event::kinds()
        .into_iter()
        .filter(|kind| !seen.contains(*kind))
        .collect();
    assert!(
        missing.is_empty(),
        "fixtures/state/every-kind.jsonl holds no {missing:?}: export a campaign that records them \
         too (add its commands to the tour's campaign, as its events were) and record the new \
         fingerprint"
    );
}

#[test]
fn the_state_format_changes_whenever_the_states_replay_computes_change() {
    let (hash, _) = replay_every_kind();
    let computed = format!("{STATE_FORMAT} {hash}");
    let recorded = FINGERPRINT.trim();
    let (recorded_format, _) = recorded.split_once(' ').unwrap_or((recorded, ""));
    assert!(
        recorded_format != STATE_FORMAT || recorded == computed,
        "replay now computes other states from the same log, but STATE_FORMAT is still \
         {STATE_FORMAT}: raise its number in src/store/replay.rs (snapshots written by this \
         build must not be read as the old ones), then write `{{new format}} {hash}` into \
         fixtures/state/fingerprint"
    );
    assert_eq!(
        recorded, computed,
        "STATE_FORMAT changed: record what this build computes in fixtures/state/fingerprint"
    );
}
