//! A player's own choices, made on their phone (#47): through the real server's players' door,
//! recorded as theirs, refused to anyone else and for the GM's picks, offered on the player's page
//! in real Chromium at 390 px, and held to by both checkers.

use crate::browser::{Browser, chromium_or_skip};
use crate::players_dice::link;
use crate::serve::{Answer, Served};
use crate::support::Campaign;
use grimoire::differential::{rechained, rows_of, text_of};
use grimoire::seq::Seq;

/// Mira's Ember failed (a failure roll of 90: she loses half its MPs or holds it to fire two
/// rounds later); Bea plays her on a linked phone, Cal plays Aldric on his.
fn miras_failed_ember() -> (Campaign, String, String) {
    let c = Campaign::with_party();
    c.mira_learns_ember("1");
    let cast = c.ok(&[
        "--rolls", "3,40,40", "spell", "cast", "Mira", "Ember", "--target", "the orc",
    ]);
    assert!(cast.contains("lose-half-mps, fires-later"), "{cast}");
    let bea = link(&c, "Bea", "Mira");
    let cal = link(&c, "Cal", "Aldric");
    (c, bea, cal)
}

fn choose(served: &Served, player: &str, body: &str) -> Answer {
    served.ask(&format!(
        "POST {player}choose HTTP/1.1\r\nHost: {}\r\nOrigin: http://{}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        served.address(),
        served.address(),
        body.len()
    ))
}

/// A choice the rules refuse: 409, saying `why`.
fn refused(served: &Served, player: &str, body: &str, why: &str) {
    let answer = choose(served, player, body);
    assert_eq!(answer.status, 409, "{body}: {}", answer.body);
    assert!(answer.body.contains(why), "{body}: {}", answer.body);
}

#[test]
fn vsd9_a_failed_casts_choice_is_made_on_the_casters_phone_as_the_players_and_refused_to_others() {
    let (c, bea, cal) = miras_failed_ember();
    let served = Served::start(&c);
    let head = c.head();

    // Bea's page shows Mira's card with what her failure left: the stun and what it does, and
    // the choice with each option's effect.
    let page = served.get_path(&bea).body;
    assert!(
        page.contains("<strong>stunned until")
            && page.contains("cannot cast, start concentrating or join a ritual"),
        "{page}"
    );
    assert!(
        page.contains("<strong>Ember</strong>: costs 1 MP; Weave 1, Elementalism lore, elemental"),
        "her spells with their costs: {page}"
    );
    assert!(page.contains("class=\"choice\""), "{page}");
    assert!(
        page.contains("lose half the spell's MPs (lose-half-mps)"),
        "{page}"
    );
    // Another player's phone, picks the choice does not offer, and no pick: refused, nothing kept.
    refused(
        &served,
        &cal,
        "character=Mira&pick=fires-later",
        "plays Aldric, not Mira",
    );
    let unfit = "character=Mira&pick=keep-mps";
    refused(&served, &bea, unfit, "pick 1 of lose-half-mps, fires-later");
    for body in [
        "character=Mira",
        "character=Mira&pick=",
        // Not UTF-8: it would be recorded as U+FFFD.
        "character=Mira&pick=fires-later&names=x%FFy",
    ] {
        let malformed = choose(&served, &bea, body);
        assert_eq!(malformed.status, 400, "{body}: {}", malformed.body);
    }
    assert_eq!(c.head(), head, "nothing recorded");

    // Bea's pick is recorded as hers, the choice command's events after it in the same write.
    let made = choose(&served, &bea, "character=mira&pick=fires-later");
    assert_eq!(made.status, 200, "{}", made.body);
    let said: serde_json::Value = serde_json::from_str(&made.body).expect("JSON");
    let said = said["said"].to_string();
    assert!(
        said.contains("Mira's choice, made by their player on device 1"),
        "{said}"
    );
    let log = c.json(&["log", "--limit", "2"]);
    let events = log["events"].as_array().expect("events");
    assert_eq!(events[0]["kind"], "choice_answered", "{log}");
    assert_eq!(events[0]["actor"], "Bea", "recorded as the player's: {log}");
    assert_eq!(events[1]["kind"], "choice_made", "{log}");
    assert!(
        !c.ok(&["character", "show", "Mira"]).contains("PENDING"),
        "the choice is made"
    );
    // Once made, nothing waits on her player; `verify` holds.
    refused(
        &served,
        &bea,
        "character=Mira&pick=fires-later",
        "no choice waits on Mira",
    );
    assert_eq!(c.json(&["verify"])["all_hold"], true);
}

/// From the hostile pass: a player's write refused because the snapshot it started from holds a
/// character that does not read was answered as a campaign that cannot be read (503, a page),
/// and the GM was told a page could not be made. It is a refusal naming the mend, as at the
/// terminal, and nothing is recorded.
#[test]
fn vsd9_a_choice_on_a_damaged_snapshot_is_refused_naming_the_mend() {
    let (c, bea, _cal) = miras_failed_ember();
    c.until_a_snapshot(&["heal", "Aldric", "1"]);
    c.sql()
        .execute(
            "UPDATE snapshots SET state = json_set(state, '$.characters.mira', json('[]'))",
            [],
        )
        .unwrap();
    let served = Served::start(&c);
    let head = c.head();
    refused(
        &served,
        &bea,
        "character=Mira&pick=fires-later",
        "grimoire snapshots rebuild",
    );
    assert_eq!(c.head(), head, "nothing recorded");
}

/// The GM's terminal can still make the choice; a resonance result's pick is the GM's alone.
/// From the hostile pass: a pick that rolls nothing, put to the caster's phone by the GM, was
/// recorded as the player's roll; only a pick that rolls (a resonance) goes to a phone.
#[test]
fn vsd9_a_pick_that_rolls_nothing_is_never_put_to_a_phone() {
    let (c, _bea, _cal) = miras_failed_ember();
    let put = c.refused(
        &["choose", "Mira", "lose-half-mps", "--rolled-by", "Bea"],
        1,
    );
    assert!(
        put.contains("must roll dice, and this one rolls none"),
        "{put}"
    );
    let entered = c.refused(&["--rolls", "5", "choose", "Mira", "fires-later"], 2);
    assert!(entered.contains("draws no dice"), "{entered}");
}

#[test]
fn vsd10_the_gms_pick_after_resonance_is_never_offered_to_the_casters_phone() {
    let c = Campaign::with_party();
    c.ok(&crate::support::LEARN_SLEEP);
    // A double 33 rolls resonance (50 + modifier: awareness); within the hour 60 then 70:
    // attention, whose pick is the GM's.
    c.ok(&[
        "--rolls", "33,50", "spell", "cast", "Mira", "Sleep", "--target", "the orc",
    ]);
    c.ok(&["time", "advance", "1r"]);
    let shown = c.ok(&[
        "--rolls", "60,70", "spell", "cast", "Mira", "Sleep", "--target", "the orc",
    ]);
    let bea = link(&c, "Bea", "Mira");
    let served = Served::start(&c);
    assert!(shown.contains("GM to choose"), "the GM has a pick: {shown}");
    let page = served.get_path(&bea);
    assert!(
        !page.body.contains("class=\"choice\""),
        "no form for the GM's pick"
    );
    for pick in ["agents", "stunned"] {
        let tried = format!("character=Mira&pick={pick}");
        refused(&served, &bea, &tried, "the GM makes it");
    }
}

#[test]
fn vsd9_a_player_makes_their_casters_choice_from_the_phone_in_two_taps() {
    let Some(chromium) = chromium_or_skip("vsd9_a_player_makes_their_casters_choice") else {
        return;
    };
    let (c, bea, _) = miras_failed_ember();
    let served = Served::start(&c);
    let mut browser = Browser::start(&chromium);
    let phone = browser.open(&format!("http://{}{bea}", served.address()), 390, 844, true);
    browser.wait_for(
        &phone,
        r##"document.querySelector("#yours form.choice") !== null"##,
        "the choice on Mira's card",
    );
    let offered = browser.eval(
        &phone,
        r##"document.querySelector("#yours form.choice").textContent"##,
    );
    let offered = offered.as_str().unwrap_or_default();
    assert!(
        offered.contains("Ember (#")
            && offered.contains("the spell is held and fires two rounds later"),
        "{offered}"
    );
    browser.screenshot(&phone, "players-choice-390");
    // Two taps: the option, then Choose.
    browser.eval(
        &phone,
        r##"document.querySelector('#yours form.choice input[value="fires-later"]').click(); document.querySelector("#yours form.choice button").click(); true"##,
    );
    browser.wait_for(
        &phone,
        r##"document.getElementById("rolls-said").textContent.indexOf("Mira's choice, made by their player") >= 0 && document.querySelector("#yours form.choice") === null"##,
        "the choice recorded and its form gone",
    );
    let log = c.json(&["log", "--limit", "2"]);
    assert_eq!(log["events"][0]["kind"], "choice_answered", "{log}");
    assert_eq!(log["events"][0]["actor"], "Bea", "{log}");
}

/// A choice the log says a phone made that it could not have (forged onto another player's
/// device, recorded by someone other than the device's player, answering a command that is not
/// the system's choice, or one no system knows; the chain rebuilt around it) is named by `verify`
/// and by the players' own check, at the same event.
#[test]
fn vsd9_a_forged_choice_is_refused_by_both_checkers_at_the_same_event() {
    let (c, bea, _) = miras_failed_ember();
    let served = Served::start(&c);
    let made = choose(&served, &bea, "character=Mira&pick=lose-half-mps");
    assert_eq!(made.status, 200, "{}", made.body);
    drop(served);
    let good = rows_of(&c.ok(&["export"]));
    let at = good
        .iter()
        .position(|r| r.kind == "choice_answered")
        .expect("the choice in the log");
    let seq = good[at].seq.get();
    let edits: [(&str, Forgery); 6] = [
        ("onto Cal's device", |row| {
            edit(row, |p| p["device"] = 2.into())
        }),
        ("recorded by Cal", |row| row.actor = "Cal".into()),
        ("answering a cast", |row| {
            edit(row, |p| p["asked"]["path"] = "spell cast".into())
        }),
        ("in no system", |row| {
            edit(row, |p| p["asked"]["system"] = "zzz".into())
        }),
        // What it picked changed, so the next row records another pick than the player's.
        ("asking another pick", |row| {
            edit(row, |p| {
                p["asked"]["given"]["choices"] = serde_json::json!(["fires-later"])
            })
        }),
        ("with three picks", |row| {
            edit(row, |p| {
                p["asked"]["given"]["choices"] =
                    serde_json::json!(["lose-half-mps", "resonance", "x"])
            })
        }),
    ];
    // The choice's row is named, or for changed picks the row after it, which records others.
    let named = |i: usize| if i < 4 { seq } else { seq + 1 };
    let mut exports = vec![text_of(&good)];
    assert_eq!(
        crate::player_check::grimoire_verdict(&c, &good, &c.dir.path().join("good.db")),
        (true, None)
    );
    for (i, (what, change)) in edits.iter().enumerate() {
        let mut forged = good.clone();
        change(&mut forged[at]);
        let forged = rechained(forged);
        let copy = c.dir.path().join(format!("forged-{i}.db"));
        assert_eq!(
            crate::player_check::grimoire_verdict(&c, &forged, &copy),
            (false, Some(named(i))),
            "verify on the choice {what}"
        );
        exports.push(text_of(&forged));
    }
    let Some(chromium) = chromium_or_skip("vsd9_a_forged_choice_is_refused_by_both_checkers")
    else {
        return;
    };
    let page = c.dir.path().join("checking.html");
    std::fs::write(
        &page,
        crate::player_check::page_checking(&exports, Seq(1), Seq(1), &[]),
    )
    .unwrap();
    let (dom, _) = crate::report::browse(&chromium, &page, &["--dump-dom"]);
    let out = crate::player_check::out_of(&dom);
    assert_eq!(out["verdicts"][0][0], true, "{out}");
    for (i, (what, _)) in edits.iter().enumerate() {
        assert_eq!(
            out["verdicts"][i + 1][0],
            false,
            "the page on the choice {what}: {out}"
        );
        assert_eq!(
            out["verdicts"][i + 1][1],
            named(i),
            "the page on the choice {what}: {out}"
        );
    }
}

/// What a forgery does to the choice's row.
type Forgery = fn(&mut grimoire::store::StoredRow);

/// A row's payload, edited as JSON and written back.
fn edit(row: &mut grimoire::store::StoredRow, change: impl FnOnce(&mut serde_json::Value)) {
    let mut payload: serde_json::Value = serde_json::from_str(&row.payload).unwrap();
    change(&mut payload);
    row.payload = payload.to_string();
}
