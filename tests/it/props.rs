//! Property tests: replay is deterministic and matches the state built while deciding, events
//! round-trip through their stored form, dice stay in range, hostile input never panics.

use grimoire::dice::{Dice, DiceExpr, DiePosition, SeedContext, fairness};
use grimoire::event::Event;
use grimoire::rules::campaign::{ClockAdvance, DiceRoll, HealthChange, Retraction, SessionStart};
use grimoire::rules::{Command, decide};
use grimoire::seq::Seq;
use grimoire::sheet::Sheet;
use grimoire::state::{CampaignState, replay_all};
use grimoire::systems::adg::sheet::AdgSheet;
use grimoire::time::GameDuration;
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

#[derive(Debug, Clone)]
enum Op {
    Add(u8),
    Damage(u8, u32),
    Heal(u8, u32),
    Advance(u64),
    Start(String),
    End,
    Roll(usize),
    Retract(Seq),
}

const EXPRESSIONS: [&str; 5] = ["d20", "2d6+3", "oe", "3d6-1d4", "d%+oe"];

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u8..4).prop_map(Op::Add),
        (0u8..4, 1u32..20).prop_map(|(c, n)| Op::Damage(c, n)),
        (0u8..4, 1u32..20).prop_map(|(c, n)| Op::Heal(c, n)),
        (1u64..100_000).prop_map(Op::Advance),
        "[a-z ]{0,12}".prop_map(Op::Start),
        Just(Op::End),
        (0usize..EXPRESSIONS.len()).prop_map(Op::Roll),
        (1u64..40).prop_map(|n| Op::Retract(Seq(n))),
    ]
}

fn command(op: &Op, log: &[(Seq, Event)]) -> Command {
    let name = |c: &u8| format!("Hero{c}");
    match op {
        Op::Add(c) => Command::AddCharacter {
            name: name(c),
            sheet: Sheet::Adg(AdgSheet {
                level: 1 + u32::from(*c),
                agility: 10,
                brawn: 10,
                cunning: 10,
                health: 12,
                silver: 5,
                knows: Vec::new(),
            }),
        },
        Op::Damage(c, n) => Command::Damage(HealthChange {
            character: name(c),
            amount: *n,
            reason: None,
        }),
        Op::Heal(c, n) => Command::Heal(HealthChange {
            character: name(c),
            amount: *n,
            reason: None,
        }),
        Op::Advance(s) => Command::AdvanceClock(ClockAdvance {
            by: GameDuration(*s),
        }),
        Op::Start(entropy) => Command::StartSession(SessionStart {
            entropy: entropy.clone(),
        }),
        Op::End => Command::EndSession,
        Op::Roll(i) => Command::Roll(DiceRoll {
            expression: DiceExpr::parse(EXPRESSIONS[*i]).unwrap(),
            purpose: None,
            sealed: false,
            character: None,
        }),
        Op::Retract(seq) => Command::Retract(Retraction {
            seq: Some(*seq),
            last: false,
            target: log.iter().find(|(s, _)| s == seq).map(|(_, e)| e.clone()),
            restoring: None,
            reason: "property".into(),
            fight_built_on: false,
            round_stands: None,
            clock_reshaped: None,
            acted_again: None,
            names_after: Default::default(),
        }),
    }
}

/// Plays ops through `decide` (refusals are skipped, as the CLI would write nothing), returning the
/// log and the state kept up to date by `apply` along the way.
fn play(ops: &[Op]) -> (Vec<(Seq, Event)>, CampaignState) {
    let mut state = CampaignState::default();
    let mut log = Vec::new();
    let mut rng = StdRng::seed_from_u64(0);
    let create = Command::CreateCampaign {
        campaign_id: "prop".into(),
        name: "P".into(),
        seed_commitment: "ab".repeat(32),
        sealed_commitment: "cd".repeat(32),
    };
    for command in
        std::iter::once(create).chain(ops.iter().map(|op| command(op, &log)).collect::<Vec<_>>())
    {
        let context = SeedContext {
            seed: [3u8; 32],
            sealed_seed: Some([3u8; 32]),
            campaign_id: "prop".into(),
            epoch: 1,
            seq: state.head + 1,
            entropy: String::new(),
            witness_by: None,
            roll: state.epoch_counts_rolls.then_some(state.epoch_rolls),
        };
        let mut dice = Dice::seeded(context, &mut rng);
        if let Ok(events) = decide(&state, command, &mut dice) {
            for event in events {
                let seq = state.head + 1;
                state.apply(seq, &event);
                log.push((seq, event));
            }
        }
    }
    (log, state)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn replaying_a_log_twice_gives_the_same_state(ops in proptest::collection::vec(op(), 0..60)) {
        let (log, _) = play(&ops);
        let once = replay_all(log.iter().map(|(s, e)| (*s, e)));
        let twice = replay_all(log.iter().map(|(s, e)| (*s, e)));
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn replay_matches_the_state_seen_while_deciding_when_nothing_is_retracted(
        ops in proptest::collection::vec(op().prop_filter("no retraction", |o| !matches!(o, Op::Retract(_))), 0..60)
    ) {
        let (log, live) = play(&ops);
        prop_assert_eq!(replay_all(log.iter().map(|(s, e)| (*s, e))), live);
    }

    #[test]
    fn events_round_trip_through_their_stored_form(ops in proptest::collection::vec(op(), 0..40)) {
        let (log, _) = play(&ops);
        for (_, event) in &log {
            let payload = event.to_payload();
            let back = Event::from_stored(event.kind(), grimoire::event::SCHEMA_VERSION, &payload);
            prop_assert_eq!(back.as_ref(), Ok(event));
            // Read by naming the variant (above) and by serde's tag (here): the same event.
            let by_tag = serde_json::from_str::<Event>(&payload).ok();
            prop_assert_eq!(by_tag.as_ref(), Some(event));
        }
    }

    #[test]
    fn seeded_dice_stay_in_range(seed in any::<[u8; 32]>(), seq in any::<u64>(), n in any::<u32>(), sides in 1u32..=100_000, entropy in ".{0,20}") {
        let pos = DiePosition { campaign_id: "c", epoch: 1, seq: Seq(seq), roll: (seq % 2 == 0).then_some(seq / 2), n, entropy: &entropy };
        let face = fairness::seeded_face(&seed, &pos, sides);
        prop_assert!((1..=sides).contains(&face));
    }

    #[test]
    fn rolled_expressions_stay_within_their_bounds(count in 1u32..20, sides in 2u32..200, bonus in -50i64..50, seed in any::<[u8; 32]>()) {
        let expr = DiceExpr::parse(&format!("{count}d{sides}{bonus:+}")).unwrap();
        let mut rng = StdRng::seed_from_u64(1);
        let context = SeedContext { seed, sealed_seed: Some(seed), campaign_id: "c".into(), epoch: 1, seq: Seq(1), entropy: String::new(), witness_by: None, roll: Some(0) };
        let mut dice = Dice::seeded(context, &mut rng);
        let rolled = expr.roll(&mut dice, "p", false).unwrap();
        prop_assert_eq!(rolled.dice.len(), count as usize);
        prop_assert!(rolled.dice.iter().all(|d| d.value.is_some_and(|v| (1..=sides).contains(&v))));
        let total = rolled.total.unwrap();
        prop_assert!(i64::from(count) + bonus <= total && total <= i64::from(count * sides) + bonus);
    }

    #[test]
    fn hostile_dice_expressions_and_durations_never_panic(text in ".{0,120}") {
        let _ = DiceExpr::parse(&text);
        let _ = GameDuration::parse(&text);
    }

    #[test]
    fn hostile_export_lines_never_panic(text in ".{0,300}") {
        let _ = grimoire::store::jsonl::parse_line(&text);
    }
}

/// Every kind a long campaign records, read by naming its variant (how grimoire reads the log) and
/// by serde's tag: the same event each time.
#[test]
fn every_stored_payload_of_a_generated_campaign_reads_the_same_both_ways() {
    let c = crate::support::Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "8", "--events", "3000"]);
    let conn = c.sql();
    let mut rows = conn
        .prepare("SELECT kind, schema_version, payload FROM events ORDER BY seq")
        .unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for row in rows
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, u32>(1)?,
                r.get::<_, String>(2)?,
            ))
        })
        .unwrap()
    {
        let (kind, version, payload) = row.unwrap();
        let by_kind = Event::from_stored(&kind, version, &payload).unwrap();
        let by_tag: Event = serde_json::from_str(&payload).unwrap();
        assert_eq!(by_kind, by_tag, "{payload}");
        kinds.insert(kind);
    }
    assert!(
        kinds.len() >= 15,
        "the campaign should hold most kinds: {kinds:?}"
    );
}
