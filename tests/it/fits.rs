//! #47, item 5: nothing on a page is cut off. Every page the table and a player open (the live
//! view, the log, the report, a player's page) is framed in real Chromium at 360 and 390 pixels
//! (phones) and 1280 (a desktop), and a script walks every element that has a box of its own: none
//! may hold content wider than itself (1 pixel of rounding allowed), so no word, hash, sheet line or
//! fight line is hidden inside a box that scrolls or clips it. Screenshots are kept as artifacts.

use super::browser::{Browser, Tab, chromium_or_skip};
use super::serve::Served;
use super::support::{Campaign, LEARN_SLEEP, VSD_TOM};

/// Every element with a box (not inline text, not the drawing inside a chart, not a form field,
/// whose own text scrolls inside it by design) whose content is wider than it: its tag, id and
/// classes, and both widths.
const OVERFLOWING: &str = r##"(function () {
  var found = [];
  document.querySelectorAll("html, body, body *").forEach(function (el) {
    if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") return;
    if (/^(input|textarea|select|option|script|style|br)$/i.test(el.tagName)) return;
    var display = getComputedStyle(el).display;
    if (display === "inline" || display === "none" || display === "contents") return;
    if (el.getClientRects().length === 0) return;
    if (el.scrollWidth > el.clientWidth + 1) {
      found.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
        (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "") +
        " holds " + el.scrollWidth + " px in " + el.clientWidth + ": " +
        (el.textContent || "").slice(0, 80));
    }
  });
  return found;
})()"##;

/// A campaign that puts long things on every page: a fight under way with rounds of actions and
/// damage, a session whose recap has a table of changes, a purpose written as one long word, a
/// long name, a choice waiting on a caster's player, and that player's phone linked.
fn a_crowded_evening() -> (Campaign, String) {
    let c = Campaign::with_party();
    c.ok(&VSD_TOM);
    c.ok(&LEARN_SLEEP);
    c.mira_learns_ember("1");
    c.add_adg(
        "Bartholomew-Maximilian-Oakenshield-the-Unwearying",
        1,
        9,
        5,
        0,
    );
    c.ok(&["session", "start"]);
    c.ok(&[
        "--rolls",
        "14",
        "roll",
        "d20",
        "--for",
        "a-purpose-written-as-one-very-long-word-that-would-push-any-box-out-of-the-page",
    ]);
    c.ok(&[
        "fight",
        "start",
        "at the drowned bridge under the old watchtower",
    ]);
    c.ok(&[
        "damage",
        "Aldric",
        "2",
        "--reason",
        "a ghoul's claw raking across the shoulder in the first round",
    ]);
    c.ok(&[
        "--rolls", "50", "spell", "cast", "Mira", "Sleep", "--target", "Tom",
    ]);
    c.ok(&[
        "damage",
        "Bartholomew-Maximilian-Oakenshield-the-Unwearying",
        "1",
    ]);
    // Mira's Ember fails next round (a failure roll of 140): her player's card holds a choice of
    // two, one of which names whom it strikes.
    c.ok(&["next"]);
    c.ok(&[
        "--rolls", "3,40,90", "spell", "cast", "Mira", "Ember", "--target", "Tom",
    ]);
    let linked = c.json(&["player", "link", "Bea", "--plays", "Tom", "--plays", "Mira"]);
    let player = linked["link"]
        .as_str()
        .and_then(|l| l.strip_prefix("http://127.0.0.1:8737"))
        .expect("a player's link")
        .to_string();
    (c, player)
}

fn overflowing(browser: &mut Browser, tab: &Tab) -> Vec<String> {
    let found = browser.eval(tab, OVERFLOWING);
    found
        .as_array()
        .expect("the walk's findings")
        .iter()
        .map(|f| f.as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn no_box_on_any_page_holds_content_wider_than_itself_on_phones_or_a_desktop() {
    let Some(chromium) = chromium_or_skip("no_box_on_any_page_holds_content_wider_than_itself")
    else {
        return;
    };
    let (c, player) = a_crowded_evening();
    let served = Served::start(&c);
    let card = served.get_path(&player).body;
    assert!(
        card.contains("class=\"choice\"") && card.contains("name=\"names\""),
        "the player's page holds Mira's choice, with a line for whom it strikes"
    );
    let player = format!("http://{}{player}", served.address());
    let pages = [
        ("live", served.link.clone(), "check-verdict"),
        ("log", format!("{}log", served.link), "live"),
        ("report", format!("{}report", served.link), "check-verdict"),
        ("player", player, "rolls"),
    ];
    let mut browser = Browser::start(&chromium);
    let mut cut_off = Vec::new();
    for width in [360, 390, 1280] {
        for (name, url, drawn) in &pages {
            let tab = browser.open(url, width, 844, width < 1000);
            browser.wait_for(
                &tab,
                &format!(
                    r#"document.readyState === "complete" && document.getElementById({drawn:?}) !== null"#
                ),
                &format!("the {name} page drawn"),
            );
            // The check's verdict fills its box last; wait for it where the page has one.
            browser.wait_for(
                &tab,
                r#"!document.getElementById("check-verdict") || document.getElementById("check-verdict").textContent.indexOf("Checking") < 0"#,
                &format!("the {name} page's check"),
            );
            browser.screenshot(&tab, &format!("fits-{name}-{width}"));
            for found in overflowing(&mut browser, &tab) {
                cut_off.push(format!("{name} at {width} px: {found}"));
            }
            browser.close(tab);
        }
    }
    assert!(
        cut_off.is_empty(),
        "content cut off inside its box:\n{}",
        cut_off.join("\n")
    );
}

/// The walk finds what it is for: a box made narrower than a line it holds is named.
#[test]
fn the_walk_names_a_box_too_narrow_for_its_line() {
    let Some(chromium) = chromium_or_skip("the_walk_names_a_box_too_narrow_for_its_line") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("narrow.html");
    std::fs::write(
        &page,
        r#"<!doctype html><html><body><pre id="tight" style="width:100px;overflow:auto">a line far wider than one hundred pixels, as a fight's line once was</pre><p>fits</p></body></html>"#,
    )
    .unwrap();
    let mut browser = Browser::start(&chromium);
    let tab = browser.open(&format!("file://{}", page.display()), 390, 844, true);
    browser.wait_for(
        &tab,
        r#"document.getElementById("tight") !== null"#,
        "the page",
    );
    let found = overflowing(&mut browser, &tab);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("pre#tight holds "), "{found:?}");
}
