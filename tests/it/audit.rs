//! `audit dice` on real logs: fair seeded dice pass, loaded entered dice are flagged, short runs
//! say what they need, and the filters find one actor's or one character's dice.

use crate::support::Campaign;

/// Fourteen hundred d20s a roll (the longest expression grimoire takes).
const MANY_D20: &str = "100d20+100d20+100d20+100d20+100d20+100d20+100d20+100d20+100d20+100d20+100d20+100d20+100d20+100d20";

fn group<'a>(audit: &'a serde_json::Value, die: u64, origin: &str) -> &'a serde_json::Value {
    audit["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["die"] == die && g["origin"] == origin)
        .unwrap_or_else(|| panic!("no d{die} {origin} group in {audit}"))
}

#[test]
fn ten_thousand_fair_seeded_d20s_pass() {
    let c = Campaign::with_party();
    for _ in 0..8 {
        c.ok(&["roll", MANY_D20]);
    }
    let audit = c.json(&["audit", "dice"]);
    let d20 = group(&audit, 20, "seeded");
    assert_eq!(d20["rolls"], 11_200);
    assert_eq!(d20["verdict"]["verdict"], "judged");
    assert!(
        d20["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["flagged"] == false),
        "{d20}"
    );
    assert_eq!(audit["any_flagged"], false);
    let text = c.ok(&["audit", "dice"]);
    assert!(
        text.contains("d20 seeded: 11200 rolls") && text.contains("consistent with fair dice"),
        "{text}"
    );
}

#[test]
fn entered_dice_that_roll_too_many_twenties_are_flagged() {
    let c = Campaign::with_party();
    // Two hundred d20s typed in, forty of them 20s (ten would be fair).
    let loaded: Vec<String> = (0..100)
        .map(|i| if i % 5 == 0 { 20 } else { i % 19 + 1 }.to_string())
        .collect();
    let loaded = loaded.join(",");
    for _ in 0..2 {
        c.ok(&["--rolls", &loaded, "roll", "100d20"]);
    }
    let text = c.ok(&["audit", "dice", "--provenance", "entered"]);
    assert!(text.contains("d20 entered: 200 rolls"), "{text}");
    assert!(
        text.contains("FLAGGED") && text.contains("most often 20 (40 times, 10.0 expected)"),
        "{text}"
    );
    assert_eq!(c.json(&["audit", "dice"])["any_flagged"], true);
}

#[test]
fn a_short_run_says_how_many_rolls_it_needs_and_filters_pick_the_dice() {
    let c = Campaign::with_party();
    c.ok(&["--rolls", "3,4", "roll", "2d6", "--character", "Aldric"]);
    c.ok(&["--actor", "Sam", "--rolls", "6", "roll", "d6"]);
    let sealed = c.seq_of(&["roll", "d8", "--sealed"]).to_string();
    c.ok(&["reveal", &sealed]);
    let text = c.ok(&["audit", "dice", "--die", "d6"]);
    assert!(
        text.contains(
            "d6 entered: 3 rolls, too few to judge against a fair die: the test needs 30 (27 more)"
        ),
        "{text}"
    );
    let aldric = c.json(&["audit", "dice", "--character", "aldric"]);
    assert_eq!(
        group(&aldric, 6, "entered")["counts"],
        serde_json::json!([0, 0, 1, 1, 0, 0])
    );
    let sam = c.json(&["audit", "dice", "--by", "sam"]);
    assert_eq!(group(&sam, 6, "entered")["rolls"], 1);
    let revealed = c.json(&["audit", "dice", "--provenance", "sealed"]);
    assert_eq!(group(&revealed, 8, "sealed")["rolls"], 1);
    let none = c.ok(&["audit", "dice", "--die", "d12"]);
    assert!(none.contains("No dice"), "{none}");
    let bad = c.refused(&["audit", "dice", "--die", "twenty"], 2);
    assert!(bad.contains("d20"), "{bad}");
    c.refused(&["audit", "dice", "--character", "Nobody"], 1);
    c.refused(&["audit", "dice", "--rolls", "3"], 2);
}

/// 100 typed d20s where Aldric always rolls 11 to 20 and Mira 1 to 10: the pool is perfectly even,
/// so a test of the pool alone calls it fair (p = 1). The comparison between the characters flags
/// it, and so does the pool's being too even to be chance.
#[test]
fn a_rigged_split_between_characters_whose_pool_looks_fair_is_flagged() {
    let c = Campaign::with_party();
    let high: Vec<String> = (11..=20).map(|f: u32| f.to_string()).collect();
    let low: Vec<String> = (1..=10).map(|f: u32| f.to_string()).collect();
    for _ in 0..5 {
        c.ok(&[
            "--rolls",
            &high.join(","),
            "roll",
            "10d20",
            "--character",
            "Aldric",
        ]);
        c.ok(&[
            "--rolls",
            &low.join(","),
            "roll",
            "10d20",
            "--character",
            "Mira",
        ]);
    }
    let text = c.ok(&["audit", "dice"]);
    assert!(
        text.contains("between characters (aldric, mira; faces in 10 ranges)")
            && text.contains("FLAGGED: the characters' faces differ more than fair dice's would"),
        "{text}"
    );
    assert!(text.contains("fair dice are rarely this even"), "{text}");
    assert_eq!(c.json(&["audit", "dice"])["any_flagged"], true);
    // The rank tests see it too: between the characters, and (Aldric being a player's) players'
    // characters against the rest.
    c.ok(&["player", "link", "Ann", "--plays", "Aldric"]);
    let text = c.ok(&["audit", "dice"]);
    for line in [
        "ranks between characters (2 characters, each its own group; Kruskal-Wallis)",
        "ranks of players' characters against the rest (Kruskal-Wallis)",
    ] {
        let found = text.lines().find(|l| l.contains(line)).unwrap_or_default();
        assert!(found.contains("FLAGGED: "), "{line}: {text}");
    }
    let questions: Vec<serde_json::Value> = c.json(&["audit", "dice"])["groups"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["question"].clone())
        .collect();
    assert!(
        questions.contains(&"played_against_rest".into()),
        "{questions:?}"
    );
}

/// Sealed dice the GM typed and sealed dice grimoire rolled are judged apart.
#[test]
fn typed_and_rolled_sealed_dice_are_separate_groups() {
    let c = Campaign::with_party();
    let typed = c
        .seq_of(&["--rolls", "20", "roll", "d20", "--sealed"])
        .to_string();
    let rolled = c.seq_of(&["roll", "d20", "--sealed"]).to_string();
    c.ok(&["reveal", &typed]);
    c.ok(&["reveal", &rolled]);
    let audit = c.json(&["audit", "dice", "--provenance", "sealed"]);
    let sources: Vec<&str> = audit["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["sealed_typed", "sealed_rolled"], "{audit}");
}

/// Campaigns of fair seeded dice, generated through the real rules with several seeds and many
/// characters and actors, are never flagged.
#[test]
fn fair_generated_campaigns_are_not_flagged() {
    for seed in ["1", "2", "3"] {
        let c = Campaign::empty();
        c.ok(&[
            "dev",
            "generate",
            "--characters",
            "8",
            "--events",
            "2000",
            "--seed",
            seed,
        ]);
        let audit = c.json(&["audit", "dice"]);
        assert_eq!(
            audit["any_flagged"],
            false,
            "seed {seed}: {}",
            c.ok(&["audit", "dice"])
        );
    }
}
