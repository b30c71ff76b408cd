//! Against the Darkmaster through the real binary: each refusal is clear, exits non-zero and leaves
//! the log untouched.

use crate::support::{Campaign, LEARN_FLAME_WARD};

/// The party; Mira knows Shield (W2) and Storm (W5); Bran (animist, 2 ranks) and Tom (warrior) too.
fn coven() -> Campaign {
    let c = Campaign::with_party();
    c.ok(&[
        "character",
        "add",
        "Bran",
        "--system",
        "vsd",
        "--level",
        "2",
        "--vocation",
        "animist",
        "--lore",
        "Elementalism=30:2",
        "--mp",
        "8",
        "--drive",
        "0",
        "--body",
        "30",
        "--wsr",
        "10",
        "--defense",
        "5",
    ]);
    c.ok(&crate::support::VSD_TOM);
    c.ok(&[
        "spell",
        "learn",
        "Mira",
        "Shield",
        "--lore",
        "Elementalism",
        "--weave",
        "2",
        "--kind",
        "defensive",
    ]);
    c.ok(&[
        "spell",
        "learn",
        "Mira",
        "Storm",
        "--lore",
        "elementalism",
        "--weave",
        "5",
        "--kind",
        "elemental",
    ]);
    for who in ["Bran", "Tom"] {
        c.ok(&[
            "spell",
            "learn",
            who,
            "Storm",
            "--lore",
            "Elementalism",
            "--weave",
            "6",
            "--kind",
            "elemental",
        ]);
    }
    c
}

#[test]
fn vsd2_unknown_spells_missing_mps_and_a_second_spell_in_a_round_are_refused() {
    let c = coven();
    let err = c.refused(
        &[
            "--rolls", "50", "spell", "cast", "Mira", "Fireball", "--target", "orc",
        ],
        1,
    );
    assert!(
        err.contains("Mira does not know a spell called 'Fireball'; they know: Shield, Storm"),
        "{err}"
    );
    c.ok(&[
        "spell",
        "learn",
        "Mira",
        "Meteor",
        "--lore",
        "Elementalism",
        "--weave",
        "3",
        "--kind",
        "elemental",
        "--mp",
        "30",
    ]);
    let err = c.refused(
        &[
            "--rolls", "50", "spell", "cast", "Mira", "Meteor", "--target", "orc",
        ],
        1,
    );
    assert!(
        err.contains("Mira has 12 MP but the spell costs 30"),
        "{err}"
    );
    c.ok(&[
        "--rolls", "60", "spell", "cast", "Mira", "Shield", "--target", "Mira",
    ]);
    let err = c.refused(
        &[
            "--rolls", "60", "spell", "cast", "Mira", "Shield", "--target", "Mira",
        ],
        1,
    );
    assert!(
        err.contains("already acted this round") && err.contains("time advance 1r"),
        "{err}"
    );
}

#[test]
fn vsd2_a_caster_who_cannot_see_or_speak_is_refused() {
    let c = coven();
    let err = c.refused(
        &[
            "--rolls",
            "50",
            "spell",
            "cast",
            "Mira",
            "Shield",
            "--target",
            "Bran",
            "--cannot-see",
        ],
        1,
    );
    assert!(err.contains("cannot see the target"), "{err}");
    let err = c.refused(
        &[
            "--rolls",
            "50",
            "spell",
            "cast",
            "Mira",
            "Shield",
            "--target",
            "Bran",
            "--silenced",
        ],
        1,
    );
    assert!(err.contains("cannot speak"), "{err}");
}

#[test]
fn vsd12_overcasting_refusals_name_what_is_missing() {
    let c = coven();
    let err = c.refused(
        &[
            "--rolls", "50", "spell", "cast", "Mira", "Storm", "--target", "orc",
        ],
        1,
    );
    assert!(
        err.contains("Storm is Weave 5, above Level 3") && err.contains("--overcast"),
        "{err}"
    );
    let err = c.refused(
        &[
            "--rolls",
            "50",
            "spell",
            "cast",
            "Tom",
            "Storm",
            "--target",
            "orc",
            "--overcast",
            "sacrifice",
        ],
        1,
    );
    assert!(
        err.contains("only Wizards and Animists can overcast; Tom is a warrior"),
        "{err}"
    );
    let err = c.refused(
        &[
            "--rolls",
            "50",
            "spell",
            "cast",
            "Bran",
            "Storm",
            "--target",
            "orc",
            "--overcast",
            "sacrifice",
        ],
        1,
    );
    assert!(
        err.contains(
            "Bran has 2 ranks in Elementalism; overcasting a Weave 6 spell needs at least 6"
        ),
        "{err}"
    );
    c.ok(&["drive", "Mira", "-3", "--reason", "spent on heroics"]);
    let err = c.refused(
        &[
            "--rolls",
            "1,1,50",
            "spell",
            "cast",
            "Mira",
            "Storm",
            "--target",
            "orc",
            "--overcast",
            "sacrifice",
        ],
        1,
    );
    assert!(err.contains("Mira has no Drive left"), "{err}");
    let err = c.refused(
        &[
            "--rolls",
            "50",
            "spell",
            "cast",
            "Mira",
            "Storm",
            "--target",
            "orc",
            "--overcast",
            "ritual",
        ],
        2,
    );
    assert!(err.contains("--with"), "{err}");
    let err = c.refused(&["drive", "Mira", "-1", "--reason", "x"], 1);
    assert!(err.contains("would take it below 0"), "{err}");
}

#[test]
fn vsd5_a_caster_with_a_choice_pending_cannot_cast_until_it_is_made() {
    let c = coven();
    // 10 + 45 - 10 = 45: a partial success, no save: the caster must choose.
    let out = c.ok(&[
        "--rolls", "10", "spell", "cast", "Mira", "Shield", "--target", "Mira",
    ]);
    assert!(out.contains("caster to choose (partial success)"), "{out}");
    c.ok(&["time", "advance", "1r"]);
    let err = c.refused(
        &[
            "--rolls", "60", "spell", "cast", "Mira", "Shield", "--target", "Mira",
        ],
        1,
    );
    assert!(err.contains("Mira has a choice to make first"), "{err}");
    let sheet = c.ok(&["character", "show", "Mira"]);
    assert!(
        sheet.contains("PENDING partial success")
            && sheet.contains("half-duration, half-area, keep-mps"),
        "{sheet}"
    );
    let err = c.refused(&["choose", "Mira", "half-mp"], 1);
    assert!(
        err.contains(
            "pending: partial success (caster picks 1): half-duration, half-area, keep-mps"
        ),
        "{err}"
    );
    c.refused(&["choose", "Mira", "jump"], 2);
    c.ok(&["choose", "Mira", "keep-mps"]);
    c.ok(&[
        "--rolls", "60", "spell", "cast", "Mira", "Shield", "--target", "Mira",
    ]);
}

#[test]
fn vsd7_a_save_against_a_cast_is_rolled_and_recorded() {
    let c = coven();
    c.ok(&crate::support::LEARN_SLEEP);
    let seq = c
        .seq_of(&[
            "--rolls", "50", "spell", "cast", "Mira", "Sleep", "--target", "Tom",
        ])
        .to_string();
    let out = c.ok(&["--rolls", "30", "save", "Tom", "--cast", &seq]);
    assert!(
        out.contains("Tom saves against") && out.contains("35 vs 60: affected"),
        "{out}"
    );
    assert!(
        c.ok(&["character", "show", "Tom"])
            .contains("Spells on them: Sleep (from Mira, until")
    );
    let err = c.refused(&["--rolls", "30", "save", "Tom", "--against", "2"], 1);
    assert!(err.contains("#2 is not a spell casting"), "{err}");
}

/// A save answers the cast as the campaign holds it: amended to another difficulty, the cast is
/// resisted against the amended one (payload version 7; the tenth hostile pass found the save
/// reading the cast as first recorded, its difficulty before the amendment).
#[test]
fn vsd7_a_save_against_an_amended_cast_answers_its_amended_difficulty() {
    let c = coven();
    c.ok(&[
        "spell",
        "learn",
        "Tom",
        "Charm",
        "--lore",
        "Elementalism",
        "--weave",
        "1",
        "--kind",
        "enchantment",
        "--save",
        "--duration",
        "10m",
    ]);
    let charm = ["spell", "cast", "Tom", "Charm", "--target", "Mira", "--mod"];
    let seq = c
        .seq_of(&[&["--rolls", "75"][..], &charm, &["40"]].concat())
        .to_string();
    let amended = c.ok(&[&["amend", &seq, "--"][..], &charm, &["0"]].concat());
    let (first, now) = amended
        .split("save_difficulty: ")
        .nth(1)
        .and_then(|s| s.split([',', ';']).next())
        .and_then(|s| s.split_once(" → "))
        .expect("the amendment changes the save's difficulty");
    assert_ne!(first, now, "{amended}");
    // Put to a phone, the save is worded by the amended difficulty too.
    crate::players_dice::link(&c, "Cal", "Mira");
    c.ok(&[
        "save",
        "Mira",
        "--cast",
        &seq,
        "--rolled-by",
        "Cal",
        "--no-wait",
    ]);
    let waiting = c.ok(&["player", "list"]);
    assert!(waiting.contains(&format!("must beat {now}")), "{waiting}");
    c.ok(&["player", "withdraw", "1"]);
    let out = c.ok(&["--rolls", "40", "save", "Mira", "--cast", &seq]);
    assert!(out.contains(&format!("vs {now}")), "{out}");
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

#[test]
fn vsd11_severing_is_refused_while_the_rule_is_off() {
    let c = coven();
    c.ok(&[
        "--rolls", "44,90", "spell", "cast", "Mira", "Shield", "--target", "Mira",
    ]);
    let err = c.refused(&["--rolls", "50", "resonance", "sever", "Mira"], 1);
    assert!(err.contains("Sever the Thread rule is off"), "{err}");
    c.ok(&["setting", "sever-the-thread", "on"]);
    let out = c.ok(&["--rolls", "50", "resonance", "sever", "Mira"]);
    assert!(out.contains("Mira severs the thread"), "{out}");
}

#[test]
fn vsd13_conditions_are_shown_and_cleared_by_the_gm() {
    let c = coven();
    c.mira_learns_ember("1");
    c.ok(&[
        "--rolls", "3,40,20", "spell", "cast", "Mira", "Ember", "--target", "orc",
    ]);
    assert!(
        c.ok(&["character", "show", "Mira"])
            .contains("Conditions: stunned until Day 1, 00:00 (2 more rounds)")
    );
    // A condition's name is taken in any case (from the hostile pass: "Stunned" was a usage error).
    c.ok(&["condition", "Mira", "clear", "Stunned"]);
    assert!(
        c.ok(&["character", "show", "Mira"])
            .contains("Conditions: none")
    );
    let err = c.refused(&["condition", "Mira", "clear", "weary"], 1);
    assert!(err.contains("Mira is not weary now"), "{err}");
}

#[test]
fn vsd_commands_on_an_adg_character_are_refused() {
    let c = coven();
    for args in [
        &[
            "spell",
            "learn",
            "Aldric",
            "Shield",
            "--lore",
            "Elementalism",
            "--weave",
            "1",
            "--kind",
            "defensive",
        ][..],
        &["spell", "concentrate", "Aldric", "Shield"],
        &[
            "--rolls", "50", "spell", "cast", "Aldric", "Shield", "--target", "x",
        ],
        &["choose", "Aldric", "keep-mps"],
        &["drive", "Aldric", "+1", "--reason", "x"],
        &["condition", "Aldric", "clear", "stunned"],
        &["rest", "Aldric", "--hours", "4"],
    ] {
        let err = c.refused(args, 1);
        assert!(
            err.contains("Aldric plays A Dungeon Game"),
            "{args:?}: {err}"
        );
    }
}

/// VSD-5: settling a disputed cast needs every part of its total: `explain` names each modifier as
/// the JSON payload holds it.
#[test]
fn vsd5_explain_names_each_part_of_a_casts_total() {
    let c = Campaign::with_party();
    c.ok(&LEARN_FLAME_WARD);
    c.ok(&["spell", "concentrate", "Mira", "Flame Ward"]);
    c.ok(&["time", "advance", "1r"]);
    let cast = c.seq_of(&[
        "--rolls",
        "62",
        "spell",
        "cast",
        "Mira",
        "Flame Ward",
        "--target",
        "Aldric",
        "--range",
        "touch",
    ]);
    let explained = c.ok(&["explain", &cast.to_string()]);
    assert!(
        explained.contains(
            "the roll: rolled 62, lore bonus +45, 1 round of concentration +10, range +30; total 147"
        ),
        "{explained}"
    );
}

/// C-1: Drive spent is kept as an amount, so a Drive corrected down and back shows what it showed.
#[test]
fn c1_a_correction_keeps_drive_spent() {
    let c = Campaign::with_party();
    c.ok(&["drive", "Mira", "-2", "--reason", "a vow broken"]);
    let drive = |c: &Campaign| {
        c.json(&["character", "show", "Mira"])["character"]["vsd"]["drive"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(drive(&c), 1);
    c.ok(&[
        "character",
        "set",
        "Mira",
        "--drive",
        "1",
        "--reason",
        "typo",
    ]);
    assert_eq!(drive(&c), 0);
    c.ok(&[
        "character",
        "set",
        "Mira",
        "--drive",
        "3",
        "--reason",
        "as it was",
    ]);
    assert_eq!(drive(&c), 1, "the 2 spent are still spent");
}

/// From a hostile pass: what would record nothing new, or leave a value a sheet cannot hold, is
/// refused with the log untouched; a vocation corrected keeps the form the rules read.
#[test]
fn c1_vsd_changes_that_change_nothing_or_leave_the_sheets_range_are_refused() {
    let c = Campaign::with_party();
    c.ok(&["alignment", "set", "benefic"]);
    let err = c.refused(&["alignment", "set", "benefic"], 1);
    assert!(err.contains("the alignment is benefic already"), "{err}");
    c.ok(&["setting", "sever-the-thread", "on"]);
    let err = c.refused(&["setting", "sever-the-thread", "on"], 1);
    assert!(err.contains("Sever the Thread is on already"), "{err}");
    let err = c.refused(&["drive", "Mira", "0", "--reason", "x"], 1);
    assert!(err.contains("a change of +0 changes nothing"), "{err}");
    let err = c.refused(&["drive", "Mira", "+99", "--reason", "a hero"], 1);
    assert!(err.contains("would take it above 99"), "{err}");
    c.ok(&["drive", "Mira", "+90", "--reason", "a long road"]);
    let err = c.refused(
        &["character", "set", "Mira", "--drive", "99", "--reason", "x"],
        1,
    );
    assert!(err.contains("Drive would be 189, past the 99"), "{err}");
    for empty in [
        &["drive", "Mira", "+1", "--reason", " "][..],
        &[
            "spell",
            "learn",
            "Mira",
            "",
            "--lore",
            "Elementalism",
            "--weave",
            "1",
            "--kind",
            "elemental",
        ],
        &["--rolls", "50", "save", "", "--cast", "1", "--wsr", "1"],
    ] {
        let err = c.refused(empty, 1);
        assert!(
            err.contains("is empty; give it in a few words"),
            "{empty:?}: {err}"
        );
    }
    let err = c.refused(
        &[
            "character",
            "set",
            "Mira",
            "--vocation",
            "  WIZARD ",
            "--reason",
            "typo",
        ],
        1,
    );
    assert!(err.contains("nothing to change"), "{err}");
    c.ok(&[
        "character",
        "set",
        "Mira",
        "--vocation",
        " Animist",
        "--reason",
        "typo",
    ]);
    let sheet = c.json(&["character", "show", "Mira"]);
    assert_eq!(
        sheet["character"]["sheet"]["vocation"], "animist",
        "{sheet}"
    );
}

/// From a hostile pass: a character saves with their own bonus (one typed for them is refused,
/// not quietly used), and the cast may be named as `grimoire log` prints it (#SEQ).
#[test]
fn vsd7_a_characters_save_uses_their_own_bonus_and_the_cast_takes_its_log_number() {
    let c = Campaign::with_party();
    c.ok(&[
        "spell",
        "learn",
        "Mira",
        "Charm",
        "--lore",
        "Elementalism",
        "--weave",
        "2",
        "--kind",
        "enchantment",
        "--save",
        "--duration",
        "10m",
    ]);
    let cast = c.json(&[
        "--rolls", "50", "spell", "cast", "Mira", "Charm", "--target", "Mira",
    ]);
    let seq = cast["appended"][0]["seq"].as_u64().unwrap().to_string();
    let err = c.refused(
        &[
            "--rolls", "50", "save", "Mira", "--cast", &seq, "--wsr", "90",
        ],
        1,
    );
    assert!(
        err.contains("Mira saves with their own Willpower save bonus (+20)")
            && err.contains("leave out --wsr"),
        "{err}"
    );
    c.ok(&[
        "--rolls",
        "50",
        "save",
        "Mira",
        "--cast",
        &format!("#{seq}"),
    ]);
}

/// VSD-12: `--with A,,B` names two casters; commas alone name none, and a ritual needs them.
#[test]
fn vsd12_commas_alone_name_no_other_caster() {
    let c = Campaign::with_party();
    c.ok(&[
        "spell",
        "learn",
        "Mira",
        "Storm",
        "--lore",
        "Elementalism",
        "--weave",
        "5",
        "--kind",
        "elemental",
    ]);
    let err = c.refused(
        &[
            "--rolls",
            "50",
            "spell",
            "cast",
            "Mira",
            "Storm",
            "--target",
            "troll",
            "--overcast",
            "ritual",
            "--with",
            ",,",
        ],
        1,
    );
    assert!(
        err.contains("a magic ritual needs its other casters"),
        "{err}"
    );
}

/// VSD-6: a character with no MP (a warrior) has no part in a rest to tell, rest after rest.
#[test]
fn vsd6_a_warrior_without_mp_is_not_said_to_regain_none() {
    let c = Campaign::with_party();
    c.ok(&[
        "character",
        "add",
        "vsd",
        "Tom",
        "--level",
        "2",
        "--vocation",
        "warrior",
        "--mp",
        "0",
        "--drive",
        "1",
        "--body",
        "30",
        "--wsr",
        "5",
        "--defense",
        "10",
    ]);
    let rested = c.ok(&["rest", "--party", "--night"]);
    assert!(!rested.contains("Tom"), "{rested}");
    assert!(rested.contains("Mira regains"), "{rested}");
}

#[test]
fn vsd9_a_failed_spell_struck_elsewhere_is_named_at_the_choice_and_saved_against_there() {
    let c = coven();
    c.ok(&crate::support::LEARN_SLEEP);
    // 3, then 40 subtracted: a failure; its roll 90 + 20 (enchantment) = 110.
    c.ok(&[
        "--rolls", "3,40,90", "spell", "cast", "Mira", "Sleep", "--target", "Bran",
    ]);
    let sheet = c.ok(&["character", "show", "Mira"]);
    assert!(
        sheet.contains("(other-target with --target WHO)"),
        "{sheet}"
    );
    let unnamed = c.refused(&["choose", "Mira", "other-target"], 1);
    assert!(
        unnamed.contains("strikes another target, but none is named; name them with --target NAME"),
        "{unnamed}"
    );
    let herself = c.refused(&["choose", "Mira", "other-target", "--target", "Mira"], 1);
    assert!(herself.contains("below a failure of 126"), "{herself}");
    let chosen = c.json(&["choose", "Mira", "other-target", "--target", "tom"]);
    let line = chosen["appended"][0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let seq = chosen["appended"][0]["seq"].as_u64().unwrap().to_string();
    assert!(
        line.contains("Sleep strikes Tom instead, 1 MP spent; save difficulty 50"),
        "{chosen}"
    );
    // Tom's save: 30 + WSR 5 = 35, not above 50: asleep.
    let saved = c.ok(&["--rolls", "30", "save", "Tom", "--cast", &seq]);
    assert!(saved.contains("35 vs 50: affected"), "{saved}");
    assert!(
        c.ok(&["character", "show", "Tom"])
            .contains("Spells on them: Sleep (from Mira, until")
    );
}

#[test]
fn vsd10_an_assessment_passed_ends_assailed_naming_the_roll_made_for_it() {
    let c = Campaign::with_party();
    c.ok(&[
        "spell",
        "learn",
        "Mira",
        "Flame Ward",
        "--lore",
        "Elementalism",
        "--weave",
        "2",
        "--kind",
        "defensive",
    ]);
    // A double (44) brings resonance: 80 + Weave 2 = 82, pursuit; the GM picks assailed.
    c.ok(&[
        "--rolls",
        "44,80",
        "spell",
        "cast",
        "Mira",
        "Flame Ward",
        "--target",
        "Mira",
        "--range",
        "touch",
    ]);
    c.ok(&["choose", "Mira", "assailed"]);
    assert!(
        c.ok(&["character", "show", "Mira"])
            .contains("Conditions: assailed until cleared")
    );
    // Rolled sealed, it is refused until revealed; then it may be named.
    let roll = c
        .seq_of(&[
            "roll",
            "oe+20",
            "--sealed",
            "--for",
            "assessment",
            "--character",
            "Mira",
        ])
        .to_string();
    let sealed = c.refused(&["assessment", "Mira", "--roll", &roll], 1);
    assert!(sealed.contains("it is sealed"), "{sealed}");
    c.ok(&["reveal", &roll]);
    let passed = c.ok(&["assessment", "Mira", "--roll", &roll]);
    assert!(
        passed.contains(&format!(
            "Mira passes an Assessment Roll (rolled at #{roll}): no longer assailed"
        )),
        "{passed}"
    );
    assert!(
        c.ok(&["character", "show", "Mira"])
            .contains("Conditions: none")
    );
    let again = c.refused(&["assessment", "Mira"], 1);
    assert!(again.contains("Mira is not assailed now"), "{again}");
}

/// VSD-9's last row is reached by a command: the GM's modifier on the failure roll, recorded with
/// it and shown in the log's line.
#[test]
fn vsd9_the_gms_failure_modifier_reaches_the_last_row_of_the_failure_table() {
    let c = Campaign::with_party();
    c.mira_learns_ember("1");
    let said = c.ok(&[
        "--rolls",
        "3,40,95",
        "spell",
        "cast",
        "Mira",
        "Ember",
        "--target",
        "the rat",
        "--failure-mod",
        "20",
    ]);
    assert!(
        said.contains("failure roll 95 +50 +20 (GM) = 165"),
        "{said}"
    );
    assert!(said.contains("knocked-out"), "{said}");
}

/// From the clause review of issue 45: a caster stunned again while still stunned (two failures in
/// a row) is stunned once, to the later end, not listed twice.
#[test]
fn vsd13_a_condition_given_again_while_in_force_is_shown_once_to_its_later_end() {
    let c = Campaign::with_party();
    c.mira_learns_ember("1");
    // A double 33 (33 + 45 - 10 = 68) brings resonance: 50 + Weave 1 = 51, awareness.
    c.ok(&[
        "--rolls", "33,50", "spell", "cast", "Mira", "Ember", "--target", "orc",
    ]);
    c.ok(&["time", "advance", "1r"]);
    // Within the hour a failure (3, then 40 subtracted; failure roll 20 + 50 = 70) stuns her, and
    // its resonance, 70 + 1 = 71, is attention: the GM picks a stun too, over the first.
    c.ok(&[
        "--rolls",
        "3,40,20,70",
        "spell",
        "cast",
        "Mira",
        "Ember",
        "--target",
        "orc",
    ]);
    c.ok(&["choose", "Mira", "stunned"]);
    let shown = c.ok(&["character", "show", "Mira"]);
    let conditions = shown
        .lines()
        .find(|line| line.trim_start().starts_with("Conditions:"))
        .expect("a conditions line");
    assert_eq!(conditions.matches("stunned").count(), 1, "{conditions}");
    assert!(
        // The later end: 3 rounds after Day 1 began, 2 rounds from the clock now.
        conditions.contains("until Day 1, 00:00 (2 more rounds)"),
        "{conditions}"
    );
}

/// T-2: a night's rest and downtime give an Against the Darkmaster character MPs, never health
/// (the text has no healing rules): given Mira hurt, when she rests or spends a week, then both
/// say her health waits on the GM and name `heal`; Aldric, whose rest heals, and Mira unhurt hear
/// nothing of it.
#[test]
fn t2_a_hurt_vsd_character_who_rests_is_told_health_heals_only_as_the_gm_records_it() {
    let c = Campaign::with_party();
    let note = "Mira's health does not heal by resting in Against the Darkmaster; record what heals with `grimoire heal Mira N` (T-2)";
    let rested = c.ok(&["rest", "--night", "Mira", "Aldric"]);
    assert!(!rested.contains("does not heal"), "unhurt: {rested}");
    c.ok(&["damage", "Mira", "4"]);
    c.ok(&["damage", "Aldric", "2"]);
    let rested = c.ok(&["rest", "--night", "Mira", "Aldric"]);
    assert!(rested.contains(note), "{rested}");
    assert!(!rested.contains("Aldric's health does not"), "{rested}");
    let weeks = c.ok(&["downtime", "--weeks", "1", "Mira", "Aldric"]);
    assert!(weeks.contains(&format!("  {note}")), "{weeks}");
    assert!(!weeks.contains("Aldric's health does not"), "{weeks}");
    c.ok(&["heal", "Mira", "4"]);
    let rested = c.ok(&["rest", "--night", "Mira"]);
    assert!(!rested.contains("does not heal"), "healed: {rested}");
}

/// From the clause review of issue 45 (item 4): a held Fire Bolt that fires shows its attack roll
/// as waiting, on the sheet and the log line, until `spell fire` rolls it; here on Mira's
/// player's phone, whose answer records the attack roll with the phone's die.
#[test]
fn vsd9_vsd14_a_held_bolt_fires_and_its_attack_roll_is_rolled_by_spell_fire() {
    let c = coven();
    c.ok(&crate::support::LEARN_FIRE_BOLT);
    // A fumble (3), then the failure roll 30 + elemental 50 = 80: Mira holds the spell.
    let cast = c.seq_of(&[
        "--rolls",
        "3,30",
        "spell",
        "cast",
        "Mira",
        "Fire Bolt",
        "--target",
        "Tom",
    ]);
    c.ok(&["choose", "Mira", "fires-later"]);
    let nothing = c.refused(&["--rolls", "50", "spell", "fire", "Mira"], 1);
    assert!(
        nothing.contains("Mira has no bolt waiting for its attack roll"),
        "{nothing}"
    );
    for _ in 0..2 {
        c.ok(&["time", "advance", "1r"]);
        c.ok(&["spell", "concentrate", "Mira", "Fire Bolt"]);
    }
    let fired = c.ok(&["time", "advance", "1r"]);
    assert!(
        fired.contains(&format!("held Fire Bolt (from #{cast}) fires at Tom"))
            && fired.contains("its attack roll is still to roll (`grimoire spell fire Mira`)"),
        "{fired}"
    );
    let sheet = c.ok(&["character", "show", "Mira"]);
    assert!(
        sheet.contains(&format!(
            "Fire Bolt (failed at #{cast}) fired at Tom: its attack roll is still to roll — `grimoire spell fire Mira`"
        )),
        "{sheet}"
    );

    // Put to Cal's phone, who plays Mira, and answered there.
    let cal = crate::players_dice::link(&c, "Cal", "Mira");
    let served = crate::serve::Served::start(&c);
    c.ok(&[
        "spell",
        "fire",
        "Mira",
        "--range",
        "8",
        "--rolled-by",
        "Cal",
        "--no-wait",
    ]);
    let answered = crate::players_dice::answer(&served, &cal, 1, &"5a".repeat(32));
    assert_eq!(answered.status, 200, "{}", answered.body);
    let log = c.json(&["log"]);
    let attack = log["events"]
        .as_array()
        .and_then(|events| events.iter().find(|e| e["kind"] == "attack_rolled"))
        .expect("the attack roll")
        .clone();
    let payload = &attack["payload"];
    assert_eq!(payload["cast_seq"], cast);
    assert_eq!(payload["dice"][0]["provenance"]["source"], "device");
    // Its faces are the phone's; verify counts them apart and decides the command again.
    let verified = c.json(&["verify"]);
    assert_eq!(
        verified["device_dice_in_rules_commands"],
        payload["dice"].as_array().unwrap().len(),
        "{verified}"
    );
    assert!(
        c.ok(&["verify"]).contains("drawn by rule-system commands"),
        "verify says which dice it checks in part"
    );
    // The phone's die + Elementalism 45 + 10 at 8 m − Tom's Defense.
    let roll = payload["roll"].as_i64().unwrap();
    let defense = payload["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["what"] == "target's Defense")
        .map_or(0, |m| m["value"].as_i64().unwrap());
    // A fumble (a first die of 01-10) misses, and takes no Defense off.
    assert_eq!(defense == 0, payload["fumbled"] == true, "{payload}");
    assert!(defense == 0 || defense == -20, "Tom's Defense: {payload}");
    assert_eq!(payload["total"].as_i64().unwrap(), roll + 45 + 10 + defense);
    // `explain` names each part of the total.
    let seq = attack["seq"].as_u64().unwrap().to_string();
    let explained = c.ok(&["explain", &seq]);
    assert!(
        explained.contains(&format!(
            "the roll: rolled {roll}, lore bonus +45, attack range +10"
        )),
        "{explained}"
    );
    assert!(
        !c.ok(&["character", "show", "Mira"])
            .contains("still to roll"),
        "no longer waiting"
    );
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

/// From the hostile pass, C-2 with VSD-7 and VSD-9: a save made against what a failed cast left
/// (its strike elsewhere) goes with the cast when the cast is retracted, as the strike does; and
/// no save may be made against that strike afterwards.
#[test]
fn c2_vsd9_a_save_against_a_retracted_casts_strike_goes_with_it() {
    let c = coven();
    c.ok(&crate::support::LEARN_SLEEP);
    // 3, then 40 subtracted: a failure; its roll 95 + 20 (enchantment) = 115: another target.
    let cast = c.seq_of(&[
        "--rolls", "3,40,95", "spell", "cast", "Mira", "Sleep", "--target", "the rat",
    ]);
    let struck = c.seq_of(&["choose", "Mira", "other-target", "--target", "Tom"]);
    // Tom's save: 30 + WSR 5 = 35, not above 50: asleep.
    let save = c.seq_of(&[
        "--rolls",
        "30",
        "save",
        "Tom",
        "--against",
        &struck.to_string(),
    ]);
    assert!(
        c.ok(&["character", "show", "Tom"])
            .contains("Spells on them: Sleep")
    );
    c.ok(&[
        "retract",
        &cast.to_string(),
        "--reason",
        "cast at the wrong rat",
    ]);
    let tom = c.ok(&["character", "show", "Tom"]);
    assert!(!tom.contains("Sleep"), "{tom}");
    // The log says the choice and the save went with the cast, and does not call the save a
    // roll made again after the retracted cast.
    let log = c.ok(&["log", "--from", &struck.to_string()]);
    let line = |seq: u64| {
        (log.lines())
            .find(|l| l.starts_with(&format!("#{seq} ")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        line(struck).ends_with(&format!("[undone with #{cast}, which it answers]")),
        "{log}"
    );
    assert!(
        line(save).ends_with(&format!("[undone with #{struck}, which it answers]")),
        "{log}"
    );
    assert!(!log.contains("rolled after"), "{log}");
    let explained = c.ok(&["explain", &save.to_string()]);
    assert!(
        explained.contains(&format!("UNDONE with #{struck}, which it answers")),
        "{explained}"
    );
    let json = c.json(&[
        "log",
        "--from",
        &save.to_string(),
        "--to",
        &save.to_string(),
    ]);
    assert_eq!(json["events"][0]["undone_with"], struck, "{json}");
    c.refused(
        &[
            "--rolls",
            "30",
            "save",
            "Tom",
            "--against",
            &struck.to_string(),
        ],
        1,
    );
}

/// T-1 (from the second hostile pass of issue 45): `diff` reads every moment a sheet holds by the
/// clock, when something was cast as well as when it runs out, never as raw seconds.
#[test]
fn t1_a_diff_reads_every_moment_by_the_clock() {
    let c = Campaign::with_party();
    c.mira_learns_ember("1");
    let before = c.seq_of(&["time", "advance", "1h"]);
    // 3, then 40 subtracted: a failure; failure roll 30 + 50 = 80: a choice waits, cast at 01:00.
    c.ok(&[
        "--rolls", "3,40,30", "spell", "cast", "Mira", "Ember", "--target", "orc",
    ]);
    let diff = c.ok(&["diff", "--from", &before.to_string(), "Mira"]);
    assert!(diff.contains("cast at Day 1, 01:00"), "{diff}");
    assert!(!diff.contains("cast at 3600"), "{diff}");
}
