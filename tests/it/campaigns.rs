//! Golden campaigns in fixtures/: played through the real binary, then checked field by field.

use crate::support::Campaign;

/// Plays a `.grim` script: one command per line, `#` comments and blank lines skipped.
fn play(c: &Campaign, script: &str) {
    for line in script
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let args = shell_words::split(line).expect("a well-quoted line");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        c.ok(&args);
    }
}

#[test]
fn adg_long_campaign_replays_to_the_expected_sheet() {
    let c = Campaign::empty();
    play(&c, include_str!("../../fixtures/campaigns/adg-long.grim"));
    let shown = c.json(&["character", "show", "Wen"]);
    let wen = &shown["character"];
    let adg = &wen["adg"];

    // Learning losses: 2 health, 3 Brawn, 1 Agility, all permanent.
    assert_eq!(wen["health"]["max"], 8);
    assert_eq!(
        (
            adg["max"]["agility"].as_u64(),
            adg["max"]["brawn"].as_u64(),
            adg["max"]["cunning"].as_u64()
        ),
        (Some(11), Some(7), Some(14))
    );
    // The mishap burned 4; the nights of rest, scribing and downtime healed it all: 8, capped.
    assert_eq!(wen["health"]["current"], 8);
    // Exertion: the casts' 1 + 2 were restored by downtime; then 2 exerted ahead of the Ceremony
    // check while scribing (no recovery during those weeks) and 2 from the misfire; the last
    // downtime restored everything.
    assert_eq!(
        adg["exerted"],
        serde_json::json!({ "agility": 0, "brawn": 0, "cunning": 0 })
    );
    // Silver: 600 - 20 (SL 2 Phrase) - 100 (SL 2 Ceremony) - 10 (SL 1 Phrase).
    assert_eq!(adg["silver"], 470);
    assert_eq!(adg["known"].as_object().unwrap().len(), 2);
    assert_eq!(adg["lost"]["burning frost"], "Burning Frost");
    assert_eq!(adg["locked_out"], false);
    assert_eq!(adg["rituals_today"], 0);
    assert_eq!(adg["dead"], false);

    // S15 was damaged reading in combat, S17 turned to ash on its second reading; S16 (read once) holds.
    let held = c.json(&["scroll", "list", "Wen"]);
    let usable: Vec<(u64, u64)> = held["scrolls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_u64().unwrap(), s["reads"].as_u64().unwrap()))
        .collect();
    assert_eq!(usable, vec![(16, 1)]);
    let all = c.json(&["scroll", "list"]);
    assert_eq!(
        all["spent"],
        serde_json::json!([{ "id": 15, "state": "damaged" }, { "id": 17, "state": "ash" }])
    );

    // 2 + 3 scribing + 5 weeks of downtime, two nights and three days: past ten weeks.
    assert_eq!(
        shown["game_time"],
        10 * 7 * 86_400 + 2 * 8 * 3600 + 3 * 86_400
    );
    // Just after the failed fourth cast (#11): locked out, 1 + 2 Cunning exerted, burned for 4.
    let then = c.json(&["character", "show", "Wen", "--at", "11"])["character"].clone();
    assert_eq!(
        (
            then["adg"]["locked_out"].as_bool(),
            then["adg"]["exerted"]["cunning"].as_u64()
        ),
        (Some(true), Some(3))
    );
    assert_eq!(
        (
            then["adg"]["rituals_today"].as_u64(),
            then["health"]["current"].as_u64()
        ),
        (Some(4), Some(4))
    );
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    let log = c.ok(&["log", "--character", "Wen"]);
    assert!(
        log.contains("mishap")
            && log.contains("it was badly written")
            && log.contains("loses it forever"),
        "{log}"
    );
}

#[test]
fn vsd_wizard_campaign_replays_to_the_expected_sheet() {
    let c = Campaign::empty();
    play(&c, include_str!("../../fixtures/campaigns/vsd-wizard.grim"));
    let shown = c.json(&["character", "show", "Mira"]);
    let vsd = &shown["character"]["vsd"];

    // MPs: Shield 2, Spark's failure 1, Shield 2, Spark 1 → 6 spent, all back after 8 hours; Storm 5,
    // then 2 hours restore floor(12 × 2 / 8) = 3.
    assert_eq!(
        (vsd["mp_max"].as_u64(), vsd["mp_spent"].as_u64()),
        (Some(12), Some(2))
    );
    // Drive: one for the sever, one for the sacrifice. Soul damage 13 lowers Body for good.
    assert_eq!(vsd["drive"], 1);
    assert_eq!(
        (vsd["body"].as_i64(), vsd["soul_damage"].as_u64()),
        (Some(27), Some(13))
    );
    assert_eq!(vsd["consumed"], false);
    assert_eq!(
        vsd["pending"],
        serde_json::json!([]),
        "the sever left nothing for the GM to pick"
    );
    let log = c.json(&["log"]);
    let events = log["events"].as_array().unwrap();
    let casts = |spell: &str| -> Vec<u64> {
        events
            .iter()
            .filter(|e| e["kind"] == "spell_cast" && e["payload"]["spell"] == spell)
            .map(|e| e["seq"].as_u64().unwrap())
            .collect()
    };
    // Shield twice on herself: just after the second, only the latest casting applies (VSD-8).
    let shields = casts("Shield");
    let then = c.json(&["character", "show", "Mira", "--at", &shields[1].to_string()]);
    let active = &then["character"]["spells_on"];
    assert_eq!(active.as_object().unwrap().len(), 1);
    assert_eq!(active["shield"]["cast_seq"].as_u64(), Some(shields[1]));
    // The failed Spark stunned her, with a start and an end; by the last session it has run out, and
    // so has Shield's ten minutes: the sheet keeps only what is in force.
    let stunned = c.json(&[
        "character",
        "show",
        "Mira",
        "--at",
        &casts("Spark")[0].to_string(),
    ]);
    assert_eq!(
        stunned["character"]["vsd"]["conditions"][0]["condition"],
        "stunned"
    );
    assert!(stunned["character"]["vsd"]["conditions"][0]["until"].is_u64());
    assert_eq!(vsd["conditions"], serde_json::json!([]));
    assert!(
        shown["character"].get("spells_on").is_none(),
        "nothing in force"
    );
    let resonance: Vec<&str> = events
        .iter()
        .filter_map(|e| e["payload"]["resonance"]["result"].as_str())
        .collect();
    assert_eq!(resonance, vec!["awareness", "pursuit", "awareness"]);
    let spells = vsd["spells"].as_object().unwrap();
    assert_eq!(spells.len(), 3);
    assert_eq!(
        shown["game_time"],
        6 * 6 + 10 * 3600,
        "six rounds, then 8 + 2 hours of rest"
    );
    let sheet = c.ok(&["character", "show", "Mira"]);
    assert!(
        sheet.contains("MP 10/12   Drive 1   Body +27 (after 13 soul damage)"),
        "{sheet}"
    );
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}
