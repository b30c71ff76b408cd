//! A player's five tasks from their link (#47), each walked in real Chromium at 390 px and held
//! to at most two taps: see their sheet, roll, see their receipts, follow the fight, check a
//! disputed roll.

use crate::browser::{Browser, Tab, chromium_or_skip};
use crate::players_dice::link;
use crate::serve::Served;
use crate::support::Campaign;

/// Whether the element `selector` names begins on the screen as it stands (a browser scrolled
/// to it may leave its top a fraction of a pixel above).
fn on_screen(browser: &mut Browser, tab: &Tab, selector: &str) -> bool {
    let seen = browser.eval(
        tab,
        &format!(
            r##"(function () {{ var el = document.querySelector({selector:?}); if (!el) return false;
  var r = el.getBoundingClientRect(); return r.top >= -1 && r.top < window.innerHeight; }})()"##
        ),
    );
    seen == true
}

/// One tap on what `selector` names.
fn tap(browser: &mut Browser, tab: &Tab, selector: &str) {
    let tapped = browser.eval(
        tab,
        &format!(
            r##"(function () {{ var el = document.querySelector({selector:?}); if (!el) return false; el.click(); return true; }})()"##
        ),
    );
    assert_eq!(tapped, true, "nothing to tap at {selector}");
}

#[test]
fn c4_a_players_five_tasks_each_take_at_most_two_taps_from_their_link() {
    let Some(chromium) = chromium_or_skip("c4_a_players_five_tasks") else {
        return;
    };
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    c.ok(&["fight", "start", "at the ford"]);
    let bea = link(&c, "Bea", "Aldric");
    let served = Served::start(&c);
    let mut browser = Browser::start(&chromium);
    let phone = browser.open(&format!("http://{}{bea}", served.address()), 390, 844, true);
    browser.wait_for(
        &phone,
        r##"document.readyState === "complete" && document.querySelector("#you-aldric") !== null && document.getElementById("rolls-waiting").textContent.indexOf("Nothing waits") >= 0"##,
        "the player's page",
    );

    // 1. Their sheet: no tap, it is the first thing on the screen.
    assert!(on_screen(&mut browser, &phone, "#you-aldric"), "the sheet");

    // 2. A roll put to them: one tap on the banner's Roll.
    c.ok(&[
        "roll",
        "d20",
        "--character",
        "Aldric",
        "--for",
        "the lock",
        "--rolled-by",
        "Bea",
        "--no-wait",
    ]);
    browser.wait_for(
        &phone,
        r##"document.querySelector("#rolls-waiting button") !== null"##,
        "the Roll button",
    );
    assert!(on_screen(&mut browser, &phone, "#rolls-waiting button"));
    tap(&mut browser, &phone, "#rolls-waiting button");
    browser.wait_for(
        &phone,
        r##"document.getElementById("rolls-said").textContent.indexOf("the lock") >= 0"##,
        "the roll recorded",
    );
    let rolled = c.json(&["log", "--kind", "dice_rolled", "--limit", "1"])["events"][0]["seq"]
        .as_u64()
        .expect("the roll's seq");

    // 3. Their receipts: one tap, and the phone's records are checked against the log.
    tap(
        &mut browser,
        &phone,
        r##"#tasks a[href="#rolls-receipts"]"##,
    );
    browser.wait_for(
        &phone,
        r##"document.getElementById("rolls-receipts").textContent.indexOf("The log holds every roll and choice this phone made as it was shown (1)") >= 0"##,
        "the receipts checked",
    );
    assert!(
        on_screen(&mut browser, &phone, "#rolls-receipts"),
        "the receipts"
    );

    // 4. The fight: one tap.
    tap(&mut browser, &phone, r##"#tasks a[href="#fight"]"##);
    browser.wait_for(
        &phone,
        r##"document.querySelector("#fight") !== null && document.getElementById("fight").getBoundingClientRect().top < window.innerHeight && document.getElementById("fight").getBoundingClientRect().top >= -1"##,
        "the fight on the screen",
    );
    let fight = browser.eval(&phone, r#"document.getElementById("fight").textContent"#);
    assert!(
        fight.as_str().unwrap_or_default().contains("at the ford"),
        "{fight}"
    );
    browser.screenshot(&phone, "players-tasks-390");

    // 5. A disputed roll: one tap on its line's explain link (followed in a tab of its own, so
    // no question is put to a page while it navigates), and the check explains it. The line comes
    // with the live log's next update, which a loaded machine may deliver after the receipts.
    let followed = browser.wait_for(
        &phone,
        &format!(r##"document.querySelector("#e{rolled} a.explain").href"##),
        "the roll's line with its explain link",
    );
    browser.close(phone);
    let check = browser.open(followed.as_str().expect("the explain link"), 390, 844, true);
    let said = browser.wait_for(
        &check,
        r#"document.getElementById("check-explained").textContent"#,
        "the roll explained",
    );
    let said = said.as_str().unwrap_or_default();
    assert!(
        said.contains(&format!("#{rolled} (dice_rolled)")) && said.contains("the lock"),
        "{said}"
    );
    assert!(
        on_screen(&mut browser, &check, "#check-explained"),
        "the explanation"
    );
}
