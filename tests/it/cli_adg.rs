//! A Dungeon Game through the real binary: each refusal leaves the log untouched, and seeded dice in
//! ADG events verify once the seed is out.

use crate::support::{Campaign, learning};

/// The party, with Aldric knowing Concealing Darkness (a Phrase) and Calling Moon (a Ceremony).
fn scholar() -> Campaign {
    let c = Campaign::with_party();
    c.ok(&learning("Aldric", "Concealing Darkness", "phrase"));
    c.ok(&learning("Aldric", "Calling Moon", "ceremony"));
    c
}

#[test]
fn adg_r3_learning_a_known_or_lost_ritual_is_refused() {
    let c = scholar();
    let err = c.refused(
        &[
            "--rolls",
            "1,1",
            "ritual",
            "learn",
            "Aldric",
            "concealing darkness",
            "--type",
            "phrase",
            "--pay",
            "brawn",
        ],
        1,
    );
    assert!(
        err.contains("Aldric already knows Concealing Darkness"),
        "{err}"
    );
    c.ok(&[
        "--rolls",
        "1,20",
        "ritual",
        "learn",
        "Aldric",
        "Burning Frost",
        "--type",
        "sigil",
        "--pay",
        "brawn",
    ]);
    let err = c.refused(
        &[
            "--rolls",
            "1,1",
            "ritual",
            "learn",
            "Aldric",
            "Burning Frost",
            "--type",
            "sigil",
            "--pay",
            "brawn",
        ],
        1,
    );
    assert!(
        err.contains("Burning Frost is lost to Aldric forever"),
        "{err}"
    );
}

#[test]
fn adg_r4_casting_an_unknown_ritual_is_refused_listing_the_known_ones() {
    let c = scholar();
    let err = c.refused(&["--rolls", "5", "ritual", "cast", "Aldric", "Fireball"], 1);
    assert!(err.contains("Aldric does not know a ritual called 'Fireball'; they know: Calling Moon, Concealing Darkness"), "{err}");
}

#[test]
fn adg_r8_casting_after_moving_is_refused() {
    let c = scholar();
    let err = c.refused(
        &[
            "--rolls",
            "5",
            "ritual",
            "cast",
            "Aldric",
            "Concealing Darkness",
            "--moved",
        ],
        1,
    );
    assert!(err.contains("moved this round"), "{err}");
}

#[test]
fn adg_r9_a_locked_out_caster_is_refused_until_a_nights_rest() {
    let c = scholar();
    c.ok(&[
        "--rolls",
        "1",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ]);
    c.ok(&[
        "--rolls",
        "1",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ]);
    // Third: over the limit (costs 1), a 20 fails: 2d6 1+1 + 8 = 10 → a 1d6 burn; locked out.
    let out = c.ok(&[
        "--rolls",
        "20,1,1,2",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ]);
    assert!(
        out.contains("exerts 1 Cunning for casting beyond the safe number today"),
        "{out}"
    );
    assert!(out.contains("locked out until a night's rest"), "{out}");
    let sheet = c.ok(&["character", "show", "Aldric"]);
    assert!(sheet.contains("LOCKED OUT"), "{sheet}");
    assert!(
        sheet.contains(
            "Rituals since last rest: 3 (safe per day: 2); the next costs 2 Cunning first"
        ),
        "{sheet}"
    );
    let err = c.refused(
        &[
            "--rolls",
            "5",
            "ritual",
            "cast",
            "Aldric",
            "Concealing Darkness",
        ],
        1,
    );
    assert!(
        err.contains("locked out of rituals until a night's rest"),
        "{err}"
    );
    c.refused(
        &[
            "scroll",
            "write",
            "Aldric",
            "Concealing Darkness",
            "--level",
            "1",
            "--effect",
            "x",
        ],
        1,
    );
    c.ok(&["--rolls", "2", "rest", "Aldric", "--night"]);
    c.ok(&[
        "--rolls",
        "5",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ]);
}

#[test]
fn adg_c3_exertion_below_one_and_unpayable_costs_are_refused() {
    let c = scholar();
    let err = c.refused(
        &["exert", "Aldric", "brawn", "9", "--reason", "lift the gate"],
        1,
    );
    assert!(
        err.contains("exerting 9 Brawn would leave it below 1"),
        "{err}"
    );
    c.refused(&["exert", "Aldric", "luck", "1", "--reason", "x"], 2);
    c.ok(&[
        "exert",
        "Aldric",
        "cunning",
        "11",
        "--reason",
        "a long night of study",
    ]);
    // Cunning 2 left; both words reversed cost a d3 of 2 first: that would leave 0.
    let err = c.refused(
        &[
            "--rolls",
            "2,1",
            "ritual",
            "cast",
            "Aldric",
            "Concealing Darkness",
            "--reverse",
            "both",
        ],
        1,
    );
    assert!(err.contains("would leave it below 1"), "{err}");
}

#[test]
fn adg_c4_the_dead_can_take_no_action() {
    let c = Campaign::with_party();
    c.add_adg("Frail", 1, 12, 2, 0);
    let out = c.ok(&[
        "--rolls",
        "3",
        "ritual",
        "learn",
        "Frail",
        "Concealing Darkness",
        "--type",
        "phrase",
        "--pay",
        "health",
    ]);
    assert!(out.contains("dies of the cost"), "{out}");
    assert!(c.ok(&["character", "show", "Frail"]).contains("DEAD"));
    let err = c.refused(&["ritual", "roll", "Frail"], 1);
    assert!(err.contains("Frail is dead"), "{err}");
}

#[test]
fn adg_s2_s3_scroll_level_silver_and_knowledge_are_checked_before_writing() {
    let c = scholar();
    let err = c.refused(
        &[
            "scroll",
            "write",
            "Aldric",
            "Concealing Darkness",
            "--level",
            "3",
            "--effect",
            "x",
        ],
        1,
    );
    assert!(err.contains("level 1 to 2"), "{err}");
    let err = c.refused(
        &[
            "scroll",
            "write",
            "Aldric",
            "Burning Frost",
            "--level",
            "1",
            "--effect",
            "x",
        ],
        1,
    );
    assert!(
        err.contains("does not know a ritual called 'Burning Frost'"),
        "{err}"
    );
    // Aldric has 40 silver; an SL 2 Ceremony costs 100 in the sample table.
    let err = c.refused(
        &[
            "scroll",
            "write",
            "Aldric",
            "Calling Moon",
            "--level",
            "2",
            "--effect",
            "x",
        ],
        1,
    );
    assert!(
        err.contains("Aldric has 40 silver but the scroll costs 100"),
        "{err}"
    );
    let err = c.refused(
        &[
            "scroll",
            "write",
            "Aldric",
            "Concealing Darkness",
            "--level",
            "1",
            "--effect",
            "x",
            "--pre-exert",
            "2",
        ],
        1,
    );
    assert!(
        err.contains("applies only to scrolls of Ceremonies"),
        "{err}"
    );
}

#[test]
fn adg_s6_s7_s9_ash_damaged_and_other_peoples_scrolls_cannot_be_read() {
    let c = scholar();
    let out = c.ok(&[
        "scroll",
        "write",
        "Aldric",
        "Concealing Darkness",
        "--level",
        "1",
        "--effect",
        "hides the party",
    ]);
    let id = out
        .lines()
        .find_map(|l| l.strip_prefix("The scroll is "))
        .unwrap()
        .trim_end_matches('.')
        .to_string();
    assert!(
        c.ok(&["scroll", "give", &id, "Mira"])
            .contains(&format!("Aldric gives scroll {id} to Mira"))
    );
    let err = c.refused(&["--rolls", "5", "scroll", "read", "Aldric", &id], 1);
    assert!(
        err.contains(&format!("scroll {id} is held by Mira")),
        "{err}"
    );
    let err = c.refused(&["--rolls", "5", "scroll", "read", "Mira", &id], 1);
    assert!(err.contains("Mira plays Against the Darkmaster"), "{err}");
    c.ok(&[
        "character",
        "add",
        "Bryn",
        "--system",
        "adg",
        "--level",
        "1",
        "--agility",
        "10",
        "--brawn",
        "9",
        "--cunning",
        "9",
        "--health",
        "6",
    ]);
    // Mira cannot read it; she passes it to Bryn, who reads it and fails the reuse roll: ash.
    c.ok(&["scroll", "give", &id, "Bryn"]);
    let out = c.ok(&["--rolls", "20", "scroll", "read", "Bryn", &id]);
    assert!(
        out.contains("the scroll crumbles to ash (d20: 20)"),
        "{out}"
    );
    let err = c.refused(&["--rolls", "5", "scroll", "read", "Bryn", &id], 1);
    assert!(err.contains("is ash and can never be used again"), "{err}");

    let out = c.ok(&[
        "scroll",
        "write",
        "Aldric",
        "Concealing Darkness",
        "--level",
        "1",
        "--effect",
        "hides the party",
    ]);
    let second = out
        .lines()
        .find_map(|l| l.strip_prefix("The scroll is "))
        .unwrap()
        .trim_end_matches('.')
        .to_string();
    let out = c.ok(&[
        "--rolls",
        "15,1",
        "scroll",
        "read",
        "Aldric",
        &second,
        "--took-damage",
    ]);
    assert!(out.contains("scroll damaged"), "{out}");
    let err = c.refused(&["--rolls", "5", "scroll", "read", "Aldric", &second], 1);
    assert!(err.contains("is damaged"), "{err}");
    let list = c.ok(&["scroll", "list"]);
    assert!(list.contains("ash") && list.contains("damaged"), "{list}");
}

#[test]
fn adg_s4_a_ceremony_scroll_is_revealed_when_read_and_verifies() {
    let rich = Campaign::with_a_ceremony_writer();
    let out = rich.ok(&[
        "scroll",
        "write",
        "Wen",
        "Calling Moon",
        "--level",
        "2",
        "--effect",
        "summons fog",
        "--pre-exert",
        "1",
    ]);
    assert!(out.contains("the GM's check is sealed"), "{out}");
    let id = out
        .lines()
        .find_map(|l| l.strip_prefix("The scroll is "))
        .unwrap()
        .trim_end_matches('.')
        .to_string();
    let public = rich.ok(&["export"]);
    assert!(!public.contains("sealed_die"));
    rich.ok(&["scroll", "read", "Wen", &id]);
    let verify = rich.ok(&["seed", "reveal"]);
    assert!(verify.contains("epoch 2 starts"));
    let report = rich.ok(&["verify"]);
    assert!(
        report.contains("sealed dice: 1 revealed and checked; 0 still sealed")
            && report.contains("all checks hold"),
        "{report}"
    );
}

#[test]
fn seeded_adg_dice_verify_after_the_seed_is_revealed() {
    let c = scholar();
    c.ok(&["session", "start", "--entropy", "candles"]);
    c.ok(&["ritual", "roll", "Aldric"]);
    c.ok(&["ritual", "cast", "Aldric", "Concealing Darkness"]);
    c.ok(&["rest", "--party", "--night"]);
    c.ok(&["session", "end"]);
    c.ok(&["seed", "reveal"]);
    let report = c.ok(&["verify"]);
    assert!(
        report.contains("all checks hold") && !report.contains(" 0 re-derived"),
        "{report}"
    );
}

#[test]
fn adg_c5_tables_load_from_a_file_and_travel_in_the_log() {
    let c = scholar();
    let mut tables = crate::support::sample_tables();
    tables["name"] = "House tables".into();
    tables["settings"]["night_rest_heals"] = false.into();
    let file = c.dir.path().join("house.json");
    std::fs::write(&file, serde_json::to_string(&tables).unwrap()).unwrap();
    c.ok(&["tables", "load", file.to_str().unwrap()]);
    std::fs::remove_file(&file).unwrap();
    let shown = c.ok(&["tables", "show"]);
    assert!(
        shown.starts_with("House tables") && shown.contains("a night's rest heals: false"),
        "{shown}"
    );
    c.ok(&["damage", "Aldric", "2"]);
    c.ok(&["rest", "Aldric", "--night"]);
    assert_eq!(
        c.json(&["character", "show", "Aldric"])["character"]["health"]["current"],
        4
    );

    std::fs::write(&file, "{\"name\": \"broken\"}").unwrap();
    let err = c.refused(&["tables", "load", file.to_str().unwrap()], 2);
    assert!(err.contains("not a tables file"), "{err}");
}

/// `tables load` reads only a small regular file of text: a missing path, a folder, a pipe that
/// would never end, a huge file or bytes that are not text are each refused as a mistake (exit
/// 2), said in plain words, before anything is recorded.
#[test]
fn adg_c5_tables_load_refuses_what_is_not_a_small_text_file() {
    let c = scholar();
    let dir = c.dir.path();
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let huge = dir.join("huge.json");
    std::fs::write(&huge, vec![b' '; 5 * 1024 * 1024]).unwrap();
    let binary = dir.join("binary.json");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    let mut cases = vec![
        (dir.join("missing.json"), "there is no such file"),
        (dir.to_path_buf(), "not a regular file"),
        (huge, "larger than 4 MiB"),
        (binary, "not UTF-8 text"),
    ];
    if made.is_ok_and(|s| s.success()) {
        cases.push((fifo, "not a regular file"));
    }
    // A byte-order mark first is read past; the same tables again are refused as in force.
    let marked = dir.join("marked.json");
    let tables = serde_json::to_string(&crate::support::sample_tables()).unwrap();
    std::fs::write(&marked, format!("\u{feff}{tables}")).unwrap();
    let err = c.refused(&["tables", "load", marked.to_str().unwrap()], 1);
    assert!(err.contains("are in force already"), "{err}");
    for (path, said) in cases {
        let err = c.refused(&["tables", "load", path.to_str().unwrap()], 2);
        assert!(err.contains(said), "{}: {err}", path.display());
    }
}

#[test]
fn adg_commands_on_a_vsd_character_are_refused() {
    let c = Campaign::with_party();
    for args in [
        &["ritual", "roll", "Mira"][..],
        &["exert", "Mira", "cunning", "1", "--reason", "x"],
    ] {
        let err = c.refused(args, 1);
        assert!(
            err.contains(
                "Mira plays Against the Darkmaster, and this is for A Dungeon Game characters"
            ),
            "{err}"
        );
    }
}

/// A rest line says what the rest gave back: health no higher than the maximum, MPs by name, and
/// how long a rest shorter than a night was.
#[test]
fn t2_a_rest_line_says_what_each_character_regained() {
    let c = Campaign::with_party();
    c.ok(&["damage", "Aldric", "1"]);
    // A recovery die of 3 with one point lost heals 1, not 3.
    let said = c.ok(&["--rolls", "3", "rest", "--party", "--night"]);
    assert!(
        said.contains("a night's rest: Aldric heals 1, Mira regains no MP"),
        "{said}"
    );
    let again = c.ok(&["--rolls", "2", "rest", "Aldric", "--night"]);
    assert!(again.contains("Aldric regains no health"), "{again}");
    c.mira_casts_ember();
    let short = c.ok(&["rest", "Mira", "--hours", "4"]);
    assert!(short.contains("4h of rest: Mira regains"), "{short}");
}

/// A party spends the same downtime weeks together: the clock moves once, each A Dungeon Game
/// character's nights heal and exertion recovers, each Against the Darkmaster character's MPs come
/// back.
#[test]
fn adg_c5_t2_the_party_spends_downtime_weeks_together_with_the_clock_moving_once() {
    let c = Campaign::with_party();
    c.ok(&["exert", "Aldric", "brawn", "2", "--reason", "the gate"]);
    c.ok(&["damage", "Aldric", "5"]);
    c.mira_casts_ember();
    let before = c.json(&["character", "show", "Mira"])["character"]["vsd"]["mp_spent"].clone();
    assert_ne!(before, 0, "Mira spent MPs");
    // Fourteen nights for Aldric: one recovery die each, in order.
    let rolls = vec!["1"; 14].join(",");
    let said = c.ok(&["--rolls", &rolls, "downtime", "--party", "--weeks", "2"]);
    assert!(
        said.contains(
            "2 weeks of downtime. Aldric: rest ×2, heals 5, exertion recovered; Mira: rest ×2"
        ),
        "{said}"
    );
    assert!(said.contains("It is now Day 15, 00:00."), "{said}");
    let aldric = c.json(&["character", "show", "Aldric"])["character"].clone();
    assert_eq!(aldric["health"]["current"], 8);
    assert_eq!(aldric["adg"]["exerted"]["brawn"], 0);
    assert_eq!(
        c.json(&["character", "show", "Mira"])["character"]["vsd"]["mp_spent"],
        0
    );
    // Named characters only; the clock moves by their weeks once.
    c.ok(&["downtime", "Mira", "--weeks", "1"]);
    assert!(c.ok(&["time", "show"]).contains("It is Day 22, 00:00"));
    c.refused(&["downtime", "--weeks", "1"], 2);
    c.refused(&["downtime", "Mira", "--party", "--weeks", "1"], 2);
    c.refused(&["downtime", "Nobody", "--weeks", "1"], 1);
}

/// A span of weeks in which a writer scribes two scrolls, one a Ceremony, and a Darkmaster caster
/// trains: each scroll is its own event and id, the summary says how everyone stands, the sealed
/// check opens when the scroll is read, and once the seed is out `verify` re-derives the sealed die
/// from the seq of the scroll's own event.
#[test]
fn adg_s3_adg_c5_a_downtime_span_writes_several_scrolls_and_says_how_each_character_stands() {
    let c = Campaign::with_a_ceremony_writer();
    c.ok(&learning("Wen", "Ward", "phrase"));
    c.ok(&["exert", "Wen", "brawn", "2", "--reason", "the gate"]);
    c.ok(&crate::support::VSD_MIRA);
    let said = c.ok(&[
        "downtime",
        "Wen",
        "Mira",
        "--weeks",
        "4",
        "--week",
        "Wen: scribe Calling Moon, level 2, pre-exert 1, effect: the moon answers, once",
        "--week",
        "Wen: rest",
        "--week",
        "wen: scribe ward, level 1, roll damage, effect: a hard word",
        "--week",
        "Mira: training: swordplay with the watch",
        "--week",
        "Mira: travel",
    ]);
    let summary = said.split_once("\n\n").map(|(_, s)| s).unwrap_or_default();
    insta::assert_snapshot!("downtime_span_summary", summary);
    let scrolls: Vec<u64> = c.json(&["log", "--kind", "scroll_written"])["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["seq"].as_u64())
        .collect();
    let [moon, ward] = scrolls[..] else {
        panic!("two scrolls: {scrolls:?}")
    };
    assert_eq!(ward, moon + 1, "one event per scroll: {said}");
    let held = c.ok(&["scroll", "list"]);
    assert!(
        held.contains(&format!("S{moon}")) && held.contains(&format!("S{ward}")),
        "{held}"
    );
    let read = c.ok(&["scroll", "read", "Wen", &format!("S{moon}")]);
    assert!(
        read.contains(&format!("sealed dice of #{moon} revealed")),
        "{read}"
    );
    c.ok(&["seed", "reveal"]);
    let verified = c.ok(&["verify"]);
    assert!(
        verified.contains("sealed dice: 1 revealed and checked")
            && verified.contains("all checks hold"),
        "{verified}"
    );
    // Scribing is A Dungeon Game's; someone outside the span gets no weeks.
    let err = c.refused(
        &[
            "downtime",
            "Mira",
            "--weeks",
            "1",
            "--week",
            "Mira: scribe Ember, level 1, effect: x",
        ],
        1,
    );
    assert!(err.contains("Mira plays Against the Darkmaster"), "{err}");
    let err = c.refused(
        &["downtime", "Mira", "--weeks", "1", "--week", "Wen: rest"],
        1,
    );
    assert!(
        err.contains("Wen is not among those spending the weeks"),
        "{err}"
    );
    let err = c.refused(
        &["downtime", "Mira", "--weeks", "1", "--week", "Mira rests"],
        2,
    );
    assert!(err.contains("'NAME: ACTIVITY'"), "{err}");
}

/// Loot and purchases are events: shown in the log, undone by a retraction, and never more spent
/// than the purse holds.
#[test]
fn adg_c2_silver_comes_and_goes_by_events_on_the_sheet_and_in_the_log() {
    let c = Campaign::with_party();
    let said = c.ok(&["silver", "aldric", "+30", "--reason", "the crypt's bowl"]);
    assert!(
        said.contains("Aldric gains 30 silver: the crypt's bowl"),
        "{said}"
    );
    assert!(said.contains("Silver now 70."), "{said}");
    let spent = c.json(&["silver", "Aldric", "-25", "--reason", "rope"]);
    assert_eq!(spent["silver"], 45);
    let sheet = c.json(&["character", "show", "Aldric"]);
    assert_eq!(sheet["character"]["adg"]["silver"], 45);
    let too_much = c.refused(&["silver", "Aldric", "-46", "--reason", "a horse"], 1);
    assert!(
        too_much.contains("has 45 silver and cannot spend 46"),
        "{too_much}"
    );
    let vsd = c.refused(&["silver", "Mira", "+5", "--reason", "pay"], 1);
    assert!(
        vsd.contains("this is for A Dungeon Game characters"),
        "{vsd}"
    );
    c.refused(&["silver", "Aldric", "+5"], 2);
    c.refused(&["silver", "Aldric", "five", "--reason", "pay"], 2);
    let seq = c.seq_of(&["silver", "Aldric", "+100", "--reason", "miscounted"]);
    c.ok(&["retract", &seq.to_string(), "--reason", "it was copper"]);
    assert_eq!(
        c.json(&["character", "show", "Aldric"])["character"]["adg"]["silver"],
        45
    );
    c.refused(
        &["silver", "Aldric", "+1", "--reason", "x", "--rolls", "3"],
        2,
    );
}

/// ADG-R7: a failed cast tells its story in one line: the check and what it failed by, then the
/// mishap's two dice, the difference added, the total and what the table says.
#[test]
fn adg_r7_a_failed_cast_shows_the_mishap_dice_the_difference_and_the_total() {
    let c = scholar();
    let out = c.ok(&[
        "--rolls",
        "19,3,4,2",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ]);
    assert!(
        out.contains("rolls 19 against Cunning 13: failure by 6; mishap 2d6 (3, 4) + 6 = 13: \""),
        "{out}"
    );
}

/// From a hostile pass: a scroll given to the one who holds it changes nothing and is refused,
/// and empty text where the log keeps words is refused before anything is recorded.
#[test]
fn adg_s9_a_gift_to_the_holder_and_empty_words_are_refused() {
    let c = scholar();
    let written = c.json(&[
        "scroll",
        "write",
        "Aldric",
        "Concealing Darkness",
        "--level",
        "1",
        "--effect",
        "shade",
    ]);
    let id = format!("S{}", written["scroll"]);
    c.ok(&[
        "silver",
        "Aldric",
        "+999999000",
        "--reason",
        "a dragon's hoard",
    ]);
    let err = c.refused(
        &[
            "character",
            "set",
            "Aldric",
            "--silver",
            "1000000000",
            "--reason",
            "x",
        ],
        1,
    );
    assert!(
        err.contains("past the 1,000,000,000 a purse may hold"),
        "{err}"
    );
    let err = c.refused(&["scroll", "give", &id, "aldric"], 1);
    assert!(
        err.contains(&format!("Aldric holds scroll {id} already")),
        "{err}"
    );
    let err = c.refused(&["scroll", "read", "Aldric", &id, "--target", "Mira"], 1);
    assert!(
        err.contains("neither damages nor heals") && err.contains("leave out --target"),
        "{err}"
    );
    for empty in [
        &["exert", "Aldric", "brawn", "1", "--reason", ""][..],
        &["silver", "Aldric", "+1", "--reason", "  "],
        &[
            "ritual", "learn", "Aldric", "", "--pay", "health", "--type", "phrase",
        ],
        &[
            "scroll",
            "write",
            "Aldric",
            "Concealing Darkness",
            "--level",
            "1",
            "--effect",
            "",
        ],
    ] {
        let err = c.refused(empty, 1);
        assert!(
            err.contains("is empty; give it in a few words"),
            "{empty:?}: {err}"
        );
    }
    let err = c.refused(
        &[
            "ritual",
            "cast",
            "Aldric",
            "Concealing Darkness",
            "--target",
            "Mira",
        ],
        2,
    );
    assert!(err.contains("--effect"), "{err}");
}

/// ADG-S9: `diff` shows the scrolls a character holds as their sheet does: written, read, turned to
/// ash and given away (to a character of either game), with the JSON's values typed.
#[test]
fn adg_s9_diff_shows_scrolls_written_read_lost_and_given() {
    let c = scholar();
    let write = |effect: &str| c.write_scroll("Aldric", "Concealing Darkness", effect);
    let (kept, burned) = (
        write("a shadow hides the door"),
        write("a shadow hides the path"),
    );
    let mark = c.json(&["head"])["seq"]
        .as_u64()
        .expect("a head")
        .to_string();
    let (kept, burned) = (format!("S{kept}"), format!("S{burned}"));
    // Reuse d20 of 5, between the SL and Cunning 13: kept. Then 20: ash.
    c.ok(&["--rolls", "5", "scroll", "read", "Aldric", &kept]);
    c.ok(&["--rolls", "20", "scroll", "read", "Aldric", &burned]);
    let third = format!("S{}", write("a shadow hides the well"));
    c.ok(&["scroll", "give", &kept, "Mira"]);
    let text = c.ok(&["diff", "--party", "--from", &mark]);
    let rows: Vec<&str> = text.lines().map(str::trim).collect();
    for row in [
        format!("scroll {kept}            present   gone"),
        format!("scroll {burned}            present   gone"),
        format!("scroll {third}            -         added"),
    ] {
        assert!(
            rows.iter()
                .any(|r| r.split_whitespace().eq(row.split_whitespace())),
            "{row} in\n{text}"
        );
    }
    let mira = text.split("Mira:").nth(1).expect("Mira's changes");
    assert!(mira.contains(&format!("scroll {kept}")), "{text}");
    assert!(
        c.ok(&["character", "show", "Mira"]).contains(&format!(
            "Scrolls held: {kept} Concealing Darkness SL 1 read 1x"
        )),
        "a character of the other game lists the scroll they hold"
    );
    let json = c.json(&["diff", "Aldric", "--from", &mark]);
    let changes = json["characters"][0]["changes"]
        .as_array()
        .expect("changes");
    let silver = changes
        .iter()
        .find(|c| c["field"] == "adg.silver")
        .expect("silver paid for the third scroll");
    assert!(silver["from"].is_u64() && silver["to"].is_u64(), "{silver}");
    let written = changes
        .iter()
        .find(|c| c["field"] == format!("holds.scrolls.{third}"))
        .expect("the third scroll");
    assert_eq!(written["from"], serde_json::Value::Null);
    assert_eq!(written["to"]["reads"], 0);
    assert_eq!(written["to"]["effect"], "a shadow hides the well");
}

/// T-2 with ADG-S1: a point that falls inside a downtime span (the end of a day the span covers,
/// or the span's own event) shows the span's whole state: the heals and the scrolls its weeks wrote,
/// never the one without the other.
#[test]
fn t2_adg_s1_a_point_inside_a_downtime_span_shows_the_whole_span() {
    let c = scholar();
    let span = c.seq_of(&[
        "downtime",
        "Aldric",
        "--weeks",
        "2",
        "--week",
        "Aldric: scribe Concealing Darkness, level 1, effect: hides one door from sight",
    ]);
    let whole = c.json(&["character", "show", "Aldric"]);
    let scrolls = whole["character"]["holds"]["scrolls"].clone();
    assert_eq!(scrolls.as_object().map(|s| s.len()), Some(1), "{whole}");
    for point in ["day:5", &span.to_string()] {
        let at = c.json(&["character", "show", "Aldric", "--at", point]);
        assert_eq!(at["character"]["holds"]["scrolls"], scrolls, "--at {point}");
        assert_eq!(
            at["character"]["adg"]["silver"], whole["character"]["adg"]["silver"],
            "--at {point}"
        );
        assert_eq!(at["as_of_seq"], whole["as_of_seq"], "--at {point}");
    }
}

/// ADG-R8: a die within Cunning that is not above the damage taken this round fails, and the line
/// says so with the difference the mishap adds (not "failure by 0").
#[test]
fn adg_r8_a_failure_within_cunning_names_the_damage_and_the_difference() {
    let c = scholar();
    // 8 is within Cunning 13 but not above 10: difference 13 - 8 = 5; mishap 3 + 4 + 5 = 12.
    let out = c.ok(&[
        "--rolls",
        "8,3,4,2",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
        "--damage-taken",
        "10",
    ]);
    assert!(
        out.contains(
            "rolls 8 against Cunning 13: failure, not above the 10 damage taken this round (difference 5); mishap 2d6 (3, 4) + 5 = 12"
        ),
        "{out}"
    );
}

/// ADG-R7 with ADG-S4: a badly written scroll's mishap that burns a word into memory changes the
/// ritual as its reader knows it, and only then says "for good"; a reader who does not know the
/// ritual just spoke it wrong this once.
#[test]
fn adg_r7_adg_s4_a_scroll_mishaps_word_is_kept_only_by_a_reader_who_knows_the_ritual() {
    let c = Campaign::with_a_ceremony_writer();
    let write = || {
        let id = c.json(&[
            "--rolls",
            "20,1,1,1,1,1,1,1",
            "scroll",
            "write",
            "Wen",
            "Calling Moon",
            "--level",
            "2",
            "--effect",
            "fog",
        ])["scroll"]
            .as_u64()
            .expect("an id");
        format!("S{id}")
    };
    // The sealed 20 fails by 6 against Cunning 14; mishap 2 + 3 + 6 = 11: the second word, for good.
    let given = write();
    c.ok(&["scroll", "give", &given, "Bryn"]);
    c.ok(&["--rolls", "10", "scroll", "read", "Bryn", &given]);
    let bryn = c.ok(&["--rolls", "2,3,7", "scroll", "resolve", "Bryn"]);
    assert!(
        bryn.contains("Moon became ") && !bryn.contains("for good"),
        "{bryn}"
    );
    let own = write();
    c.ok(&["--rolls", "10", "scroll", "read", "Wen", &own]);
    let wen = c.ok(&["--rolls", "2,3,7", "scroll", "resolve", "Wen"]);
    assert!(wen.contains("for good"), "{wen}");
    let known = c.json(&["character", "show", "Wen"])["character"]["adg"]["known"]["calling moon"]
        ["words"]
        .clone();
    assert_ne!(known[1], "Moon", "{known}");
}

/// ADG-C4: a ritual's or a scroll's damage or healing aimed at a dead character is refused, not
/// logged as applied.
#[test]
fn adg_c4_no_damage_or_healing_reaches_the_dead() {
    let c = scholar();
    c.add_adg("Pell", 1, 9, 2, 0);
    c.ok(&learning("Pell", "Concealing Darkness", "phrase"));
    c.ok(&[
        "--rolls",
        "2",
        "ritual",
        "learn",
        "Pell",
        "Calling Moon",
        "--type",
        "ceremony",
        "--pay",
        "health",
    ]);
    assert!(c.ok(&["character", "show", "Pell"]).contains("dead"));
    let err = c.refused(
        &[
            "--rolls",
            "5,4,3",
            "ritual",
            "cast",
            "Aldric",
            "Concealing Darkness",
            "--effect",
            "healing",
            "--target",
            "pell",
        ],
        1,
    );
    assert!(
        err.contains("Pell is dead: no damage or healing reaches them any more"),
        "{err}"
    );
}

/// ADG-C4 with ADG-S4: damage a Ceremony scroll left waiting on a reader, aimed at someone who dies
/// before it is rolled, reaches no one: the waiting ends on record, with no dice drawn.
#[test]
fn adg_c4_adg_s4_damage_left_waiting_reaches_no_one_once_its_target_is_dead() {
    let c = Campaign::with_a_ceremony_writer();
    // The sealed check 1 passes; then the week's seven recovery dice.
    let id = c.json(&[
        "--rolls",
        "1,1,1,1,1,1,1,1",
        "scroll",
        "write",
        "Wen",
        "Calling Moon",
        "--level",
        "2",
        "--effect",
        "a rain of stones",
        "--roll",
        "damage",
    ])["scroll"]
        .as_u64()
        .expect("an id");
    let read = c.ok(&[
        "--rolls",
        "10",
        "scroll",
        "read",
        "Wen",
        &format!("S{id}"),
        "--target",
        "Bryn",
    ]);
    assert!(read.contains("scroll resolve"), "{read}");
    c.ok(&[
        "character",
        "set",
        "Bryn",
        "--health",
        "1",
        "--reason",
        "a bad fall",
    ]);
    c.ok(&[
        "--rolls",
        "1",
        "ritual",
        "learn",
        "Bryn",
        "Iron Gate",
        "--type",
        "phrase",
        "--pay",
        "health",
    ]);
    assert!(c.ok(&["character", "show", "Bryn"]).contains("dead"));
    let resolved = c.ok(&["scroll", "resolve", "Wen"]);
    assert!(
        resolved.contains("its damage or healing reaches no one: Bryn is dead"),
        "{resolved}"
    );
    c.refused(&["scroll", "resolve", "Wen"], 1);
}

#[test]
fn adg_r1_adg_r3_starting_rituals_sigils_that_wait_and_ceremonies_that_take_hours() {
    let c = Campaign::empty();
    c.ok(&["init", "--name", "The Sunken Vault"]);
    let joined = c.ok(&[
        "character",
        "add",
        "adg",
        "Wen",
        "--level",
        "2",
        "--agility",
        "10",
        "--brawn",
        "9",
        "--cunning",
        "14",
        "--health",
        "8",
        "--knows",
        "Warding Glyph=sigil",
        "--knows",
        "Calling Moon=ceremony",
    ]);
    assert!(
        joined.contains("knows Warding Glyph (sigil), Calling Moon (ceremony) from the start"),
        "{joined}"
    );
    let bad = c.refused(
        &[
            "character",
            "add",
            "adg",
            "Bo",
            "--level",
            "1",
            "--agility",
            "9",
            "--brawn",
            "9",
            "--cunning",
            "9",
            "--health",
            "5",
            "--knows",
            "Glyph",
        ],
        2,
    );
    assert!(bad.contains("is not NAME=KIND"), "{bad}");
    // Drawn to wait: a minute passes, and nothing is rolled for its effect yet.
    let drawn = c.ok(&[
        "--rolls",
        "5",
        "ritual",
        "cast",
        "Wen",
        "Warding Glyph",
        "--when",
        "a door opens",
        "--effect",
        "damage",
        "--target",
        "the thief",
    ]);
    assert!(
        drawn.contains("casts Warding Glyph over 1m")
            && drawn.contains("the sigil waits to go off: a door opens"),
        "{drawn}"
    );
    let sheet = c.ok(&["character", "show", "Wen"]);
    assert!(
        sheet.contains("Sigils waiting to go off: Warding Glyph (drawn at #4; a door opens)"),
        "{sheet}"
    );
    // Set off: level 2 → 2d6 (4 + 5) on the thief.
    let fired = c.ok(&[
        "--rolls",
        "4,5",
        "ritual",
        "trigger",
        "Wen",
        "warding glyph",
    ]);
    assert!(
        fired.contains("Wen's sigil Warding Glyph (drawn at #4) goes off; 9 damage to the thief"),
        "{fired}"
    );
    let none = c.refused(&["ritual", "trigger", "Wen", "Warding Glyph"], 1);
    assert!(
        none.contains("Wen has no Sigil of Warding Glyph waiting (none is)"),
        "{none}"
    );
    // A three-hour Ceremony moves the clock three hours; under an hour is refused.
    c.ok(&[
        "--rolls",
        "6",
        "ritual",
        "cast",
        "Wen",
        "Calling Moon",
        "--took",
        "3h",
    ]);
    assert!(c.ok(&["time", "show"]).starts_with("It is Day 1, 03:01."));
    let short = c.refused(
        &[
            "--rolls",
            "6",
            "ritual",
            "cast",
            "Wen",
            "Calling Moon",
            "--took",
            "30m",
        ],
        1,
    );
    assert!(
        short.contains("an hour or more to perform, not 30m"),
        "{short}"
    );
    let long = c.refused(
        &[
            "--rolls",
            "6",
            "ritual",
            "cast",
            "Wen",
            "Calling Moon",
            "--took",
            "2w",
        ],
        1,
    );
    assert!(long.contains("2w is longer than a week"), "{long}");
    // The kind is a word in any case; the same ritual twice, even as a look-alike, is refused.
    let twice = c.refused(
        &[
            "character",
            "add",
            "adg",
            "Cy",
            "--level",
            "1",
            "--agility",
            "9",
            "--brawn",
            "9",
            "--cunning",
            "9",
            "--health",
            "5",
            "--knows",
            "Glyph=Phrase",
            "--knows",
            "\u{ff27}lyph=phrase",
        ],
        1,
    );
    assert!(twice.contains("is given twice"), "{twice}");
}
