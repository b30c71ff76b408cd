//! `grimoire report`: the page's content, the files it may write, and the page opened in a real
//! browser (headless Chromium), which must draw every chart with nothing in its console.

use crate::support::{Campaign, LEARN_SHADOW_STEP};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The sections every report has, by id, in order.
const SECTIONS: [&str; 6] = [
    "characters",
    "timeline",
    "downtime",
    "scrolls",
    "dice",
    "chain",
];

fn write_report(c: &Campaign, name: &str, extra: &[&str]) -> (String, serde_json::Value) {
    let out = c.dir.path().join(name);
    let mut args = vec!["report", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let summary = c.json(&args);
    (std::fs::read_to_string(&out).expect("the report"), summary)
}

/// An evening at the table: damage, a ritual cast, a session ended with its checkpoint.
fn an_evening() -> Campaign {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    c.ok(&["damage", "Aldric", "3"]);
    c.ok(&LEARN_SHADOW_STEP);
    c.ok(&["--rolls", "5", "ritual", "cast", "Aldric", "Shadow Step"]);
    c.ok(&["time", "advance", "2d"]);
    c.ok(&["session", "end"]);
    c
}

#[test]
fn a_report_shows_every_section_each_characters_charts_and_the_chain_head() {
    let c = an_evening();
    let head = c.head().expect("a head");
    let (page, summary) = write_report(&c, "campaign.html", &[]);
    for id in SECTIONS {
        assert!(
            page.contains(&format!("<section id=\"{id}\">")),
            "section {id}"
        );
    }
    for chart in ["health", "attributes", "rituals", "mps", "sessions", "dice"] {
        assert!(
            page.contains(&format!("data-chart=\"{chart}\"")),
            "chart {chart} missing"
        );
    }
    assert!(page.contains("<h3>Aldric</h3>") && page.contains("<h3>Mira</h3>"));
    assert!(
        page.contains(&format!("<code>{head}</code>")),
        "the head {head}"
    );
    // The timeline lists what mattered: the ritual learned, not the damage.
    let timeline = &page[page.find("<section id=\"timeline\">").unwrap()..];
    let timeline = &timeline[..timeline.find("</section>").unwrap()];
    assert!(timeline.contains("Shadow Step"), "{timeline}");
    assert!(!timeline.contains("takes 3 damage"), "{timeline}");
    // Self-contained: nothing is fetched from anywhere.
    for outside in ["http://", "https://", "src=", "<link"] {
        let found = page
            .replace("http://www.w3.org/2000/svg", "")
            .contains(outside);
        assert!(!found, "the page refers outside itself: {outside}");
    }
    assert_eq!(summary["characters"], 2);
    assert_eq!(summary["sessions"], 1);
    assert_eq!(
        summary["charts"].as_u64().unwrap() as usize,
        page.matches("<svg class=\"chart wide\"").count()
    );
}

#[test]
fn a_report_at_a_past_point_shows_the_campaign_as_it_stood_then() {
    let c = an_evening();
    let (page, summary) = write_report(&c, "then.html", &["--at", "3"]);
    assert_eq!(summary["as_of"], 3);
    assert!(page.contains("As of event #3"), "{}", &page[..600]);
    assert!(page.contains("<h3>Aldric</h3>") && !page.contains("<h3>Mira</h3>"));
    assert!(page.contains("No session has started yet."));
}

#[test]
fn campaign_text_is_shown_as_text_never_as_markup() {
    let c = Campaign::empty();
    c.ok(&["init", "--name", "<script>alert(1)</script>"]);
    c.add_adg("<img src=x onerror=alert(2)>", 1, 9, 5, 0);
    c.ok(&["damage", "<img src=x onerror=alert(2)>", "2"]);
    // From a hostile pass: a fight's name reached the page's opening line as markup.
    c.ok(&["fight", "start", "<img src=x onerror=alert(3)>"]);
    let (page, _) = write_report(&c, "hostile.html", &[]);
    // Only the page's own: its contents list, the log it carries for the check, the checker.
    assert_eq!(
        page.matches("<script>").count(),
        3,
        "only the page's own scripts"
    );
    assert!(!page.contains("<script>alert"), "a name became a script");
    assert!(!page.contains("<img"), "a name became markup");
    assert!(page.contains("&lt;img src=x onerror=alert(2)&gt;"));
    assert!(page.contains("&lt;img src=x onerror=alert(3)&gt;"));
}

#[test]
fn a_report_reads_only_the_public_log_and_counts_sealed_dice_once_revealed() {
    let c = Campaign::with_party();
    c.ok(&["--rolls", "17", "roll", "d20", "--sealed"]);
    let (page, _) = write_report(&c, "before.html", &[]);
    assert!(
        !page.contains("d20 sealed"),
        "a pending sealed die was counted"
    );
    // The same page with the GM's secrets gone: the report never read them.
    c.sql()
        .execute("DELETE FROM secrets", [])
        .expect("drop the secrets");
    let (without, _) = write_report(&c, "before.html", &[]);
    assert_eq!(page, without);

    let c = Campaign::with_party();
    let sealed = c.seq_of(&["--rolls", "17", "roll", "d20", "--sealed"]);
    c.ok(&["reveal", &sealed.to_string()]);
    let (page, _) = write_report(&c, "after.html", &[]);
    assert!(
        page.contains("<h3>d20 sealed, typed by the GM</h3>"),
        "the revealed die is counted, as the GM's own"
    );
}

#[test]
fn a_report_replaces_only_an_earlier_report_and_never_the_campaign_file() {
    let c = an_evening();
    let out = c.dir.path().join("notes.html");
    std::fs::write(&out, "<p>my own notes</p>").unwrap();
    let stderr = c.refused(&["report", "--out", out.to_str().unwrap()], 1);
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "<p>my own notes</p>"
    );
    c.refused(&["report", "--out", c.db.to_str().unwrap(), "--force"], 1);
    // An earlier report is replaced without asking.
    write_report(&c, "campaign.html", &[]);
    c.ok(&["damage", "Aldric", "1"]);
    let (page, _) = write_report(&c, "campaign.html", &[]);
    let head = c.head().expect("a head");
    assert!(
        page.contains(&format!("<code>{head}</code>")),
        "the newer report"
    );
}

#[test]
fn a_report_of_no_campaign_is_refused_and_writes_nothing() {
    let c = Campaign::empty();
    let out = c.dir.path().join("none.html");
    let stderr = c.refused(&["report", "--out", out.to_str().unwrap()], 1);
    assert!(
        stderr.contains("no campaign") || stderr.contains("init"),
        "{stderr}"
    );
    assert!(!out.exists());
}

/// Where Chromium is: `GRIMOIRE_CHROMIUM`, else the usual names on PATH.
pub fn chromium() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("GRIMOIRE_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|dir| {
        ["chromium", "chromium-browser", "google-chrome"]
            .iter()
            .map(|name| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// How every test runs Chromium: headless, in a container (no sandbox, no GPU, a small /dev/shm),
/// and quiet (nothing fetched from outside, no first-run pages).
pub const HEADLESS: [&str; 8] = [
    "--headless",
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// Runs headless Chromium on `page` with `what` (e.g. --dump-dom) and a fresh profile; returns its
/// stdout and stderr. A run that has not ended after two minutes is killed, so a hung browser fails
/// the test rather than hanging the suite; nothing here depends on how quickly it ends before that.
pub fn browse(browser: &Path, page: &Path, what: &[&str]) -> (String, String) {
    let profile = tempfile::tempdir().expect("a profile folder");
    browse_as(browser, profile.path(), page, what)
}

/// [`browse`] with the browser profile in `profile`, so what a page keeps (its local storage)
/// stays for the next page opened with it.
pub fn browse_as(browser: &Path, profile: &Path, page: &Path, what: &[&str]) -> (String, String) {
    // Its output goes to files, not pipes: a pipe nobody reads while it runs could fill and stall it.
    let outputs = tempfile::tempdir().expect("an output folder");
    let (out_file, err_file) = (outputs.path().join("out"), outputs.path().join("err"));
    let mut child = Command::new(browser)
        .args(HEADLESS)
        .args(["--enable-logging=stderr", "--v=0"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(what)
        .arg(format!("file://{}", page.display()))
        .stdout(std::fs::File::create(&out_file).expect("stdout file"))
        .stderr(std::fs::File::create(&err_file).expect("stderr file"))
        .spawn()
        .expect("Chromium starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("Chromium did not finish within two minutes");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let status = child.wait().expect("Chromium's status");
    let read = |file: &Path| {
        String::from_utf8_lossy(&std::fs::read(file).unwrap_or_default()).into_owned()
    };
    let (stdout, stderr) = (read(&out_file), read(&err_file));
    assert!(status.success(), "Chromium failed: {stderr}");
    (stdout, stderr)
}

/// The share of a screenshot's pixels that differ from its top-left pixel (the page's background).
fn drawn_share(png_file: &Path) -> f64 {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_file).expect("the screenshot"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    let step = info.color_type.samples();
    let pixels = &pixels[..info.buffer_size()];
    let background = &pixels[..step];
    let differing = pixels
        .chunks(step)
        .filter(|pixel| *pixel != background)
        .count();
    differing as f64 / (pixels.len() / step) as f64
}

#[test]
fn the_report_of_a_generated_campaign_renders_in_chromium_with_every_section_and_chart() {
    let Some(browser) = super::browser::chromium_or_skip("the_report_renders_in_chromium") else {
        return;
    };
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "6", "--events", "3000"]);
    let (page, summary) = write_report(&c, "campaign.html", &[]);
    let file = c.dir.path().join("campaign.html");
    let charts = summary["charts"].as_u64().expect("a chart count");
    assert!(charts >= 6 * 2, "{summary}");

    let (dom, log) = browse(&browser, &file, &["--dump-dom"]);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "the console said: {console:#?}");
    // The page's script ran to its end: it counts the charts the browser drew.
    assert!(
        dom.contains(&format!("data-drawn=\"{charts}\"")),
        "the script did not finish: {}",
        dom.lines()
            .find(|l| l.contains("<body"))
            .unwrap_or_default()
    );
    for id in SECTIONS {
        assert!(
            dom.contains(&format!("<section id=\"{id}\">")),
            "section {id}"
        );
        assert!(
            dom.contains(&format!("href=\"#{id}\"")),
            "contents link to {id}"
        );
    }
    let characters = page.matches("<article class=\"character\">").count();
    assert_eq!(characters, 6);
    assert_eq!(
        dom.matches("<article class=\"character\">").count(),
        characters
    );

    let shot = c.dir.path().join("report.png");
    browse(
        &browser,
        &file,
        &[
            "--window-size=1200,1600",
            &format!("--screenshot={}", shot.display()),
        ],
    );
    let share = drawn_share(&shot);
    assert!(
        share > 0.02,
        "the screenshot is nearly blank ({share:.4} drawn)"
    );
}

/// Each character's card carries their whole sheet, line for line as `character show` prints it
/// (rituals known and lost, spells, scrolls held, silver, conditions, the spells on them), so a
/// player reads it from the page without the command line.
#[test]
fn each_character_card_shows_the_full_sheet_as_character_show_prints_it() {
    let c = an_evening();
    let (page, _) = write_report(&c, "campaign.html", &[]);
    for name in ["Aldric", "Mira"] {
        let card = &page[page.find(&format!("<h3>{name}</h3>")).expect("a card")..];
        let card = &card[..card.find("</article>").expect("the card ends")];
        let sheet = &card[card
            .find("<summary>Full sheet</summary><pre>")
            .expect("a full sheet")..];
        let shown = c.ok(&["character", "show", name]);
        let lines: Vec<&str> = shown.lines().skip(1).map(str::trim).collect();
        assert!(lines.len() >= 5, "{shown}");
        for line in lines {
            let escaped = line
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;")
                .replace('\'', "&#39;");
            assert!(
                sheet.contains(&escaped),
                "{name}'s card lacks {line:?}:\n{sheet}"
            );
        }
    }
    let aldric = &page[page.find("<h3>Aldric</h3>").unwrap()..];
    assert!(
        aldric.contains("Rituals known: Shadow Step"),
        "the ritual learned this evening"
    );
}

/// The downtime season: every span in force, newest first, with who did what and what it gave
/// them, the scrolls its weeks wrote and the silver they cost, as `downtime` printed it; a span
/// retracted since is left out, and the weeks are added up.
#[test]
fn the_downtime_season_shows_each_span_as_downtime_printed_it() {
    let c = Campaign::with_party();
    c.ok(&crate::support::learning(
        "Aldric",
        "Concealing Darkness",
        "phrase",
    ));
    let said = c.ok(&[
        "downtime",
        "--party",
        "--weeks",
        "2",
        "--week",
        "Aldric: scribe Concealing Darkness, level 1, effect: hides <one> door",
        "--week",
        "Mira: training: the circle at the tower",
    ]);
    // Play straight after is not part of the span, however soon it is recorded.
    c.ok(&["exert", "Aldric", "brawn", "1", "--reason", "the gate"]);
    c.ok(&["silver", "Aldric", "-5", "--reason", "rope"]);
    c.ok(&["downtime", "Mira", "--weeks", "1"]);
    c.ok(&["downtime", "Aldric", "--weeks", "5"]);
    c.ok(&["retract", "--last", "--reason", "the road was closed"]);
    let (page, _) = write_report(&c, "season.html", &[]);
    let season = &page[page.find("<section id=\"downtime\">").expect("the season")..];
    let season = &season[..season.find("</section>").unwrap()];
    assert!(season.contains("3 weeks in all, over 2 spans."), "{season}");
    assert!(!season.contains("5 weeks"), "the retracted span: {season}");
    let summaries = said.split("\n\n").nth(1).expect("the span's summaries");
    assert!(summaries.contains("wrote S"), "{said}");
    for line in summaries.lines() {
        let escaped = line
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(
            season.contains(&escaped),
            "{line:?} missing from:\n{season}"
        );
    }
    // Newest first.
    let mira_alone = season.find("Mira, 1 week").expect("the second span");
    assert!(
        mira_alone < season.find("Aldric, 2 weeks").unwrap(),
        "{season}"
    );
}

/// The charts run session by session: six weeks of downtime between two one-hour evenings is
/// one short shaded stretch, not nearly the whole width with the evenings as slivers at its edges.
#[test]
fn charts_give_each_evening_its_own_stretch_and_the_weeks_between_one_short_one() {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    c.ok(&["damage", "Aldric", "2"]);
    c.ok(&["time", "advance", "1h"]);
    c.ok(&["session", "end"]);
    c.ok(&["downtime", "--party", "--weeks", "6"]);
    c.ok(&["session", "start"]);
    c.ok(&["damage", "Aldric", "1"]);
    c.ok(&["time", "advance", "1h"]);
    c.ok(&["session", "end"]);
    let (page, _) = write_report(&c, "axis.html", &[]);
    let chart = &page[page.find("data-chart=\"health\"").expect("a health chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    let number = |text: &str, attribute: &str| -> f64 {
        let at = text.find(&format!("{attribute}=\"")).expect(attribute) + attribute.len() + 2;
        text[at..at + text[at..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    let between: Vec<&str> = chart.split("<rect class=\"between\"").skip(1).collect();
    assert_eq!(
        between.len(),
        1,
        "one stretch between the two sessions: {chart}"
    );
    assert!(between[0].contains("6w between sessions"), "{}", between[0]);
    // The plot is 588 wide (640 less its margins); each evening gets four times the gap's share.
    let width = number(between[0], "width");
    assert!(
        width > 20.0 && width < 0.2 * 588.0,
        "the gap is {width} wide"
    );
    for label in [">S1</text>", ">S2</text>"] {
        assert!(chart.contains(label), "{label} under the chart: {chart}");
    }
    assert!(
        !chart.contains(">Day "),
        "no day labels on a session axis: {chart}"
    );
}

/// The page fits a 400-pixel phone and a 1280-pixel desktop with no sideways scrolling: framed at
/// each width in real Chromium, its scroll width is no wider than the frame, long names and the
/// player's check included.
#[test]
fn the_report_fits_a_phone_and_a_desktop_without_scrolling_sideways() {
    let Some(browser) = super::browser::chromium_or_skip("the_report_fits_a_phone_and_a_desktop")
    else {
        return;
    };
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "6", "--events", "1500"]);
    c.add_adg(
        "Bartholomew-Maximilian-Oakenshield-the-Unwearying",
        1,
        9,
        5,
        0,
    );
    c.ok(&[
        "roll",
        "d20",
        "--for",
        "a-purpose-written-as-one-very-long-word-that-would-push-any-table-out-of-the-page",
    ]);
    write_report(&c, "campaign.html", &[]);
    let frames = c.dir.path().join("frames.html");
    std::fs::write(
        &frames,
        r#"<!doctype html><html><body>
<iframe id="phone" src="campaign.html" style="width:400px;height:900px;border:0"></iframe>
<iframe id="desktop" src="campaign.html" style="width:1280px;height:900px;border:0"></iframe>
<pre id="out"></pre><script>
var seen = {};
["phone", "desktop"].forEach(function (id) {
  var frame = document.getElementById(id);
  frame.addEventListener("load", function () {
    seen[id] = [frame.contentDocument.documentElement.scrollWidth, frame.contentWindow.innerWidth];
    document.getElementById("out").textContent = JSON.stringify(seen);
  });
});
</script></body></html>"#,
    )
    .unwrap();
    let (dom, _) = browse(
        &browser,
        &frames,
        &[
            "--allow-file-access-from-files",
            "--virtual-time-budget=30000",
            "--dump-dom",
        ],
    );
    let start = dom.find("<pre id=\"out\">").expect("the output") + "<pre id=\"out\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let seen: serde_json::Value =
        serde_json::from_str(&dom[start..end]).expect("both frames measured");
    for (id, width) in [("phone", 400), ("desktop", 1280)] {
        let [scroll, inner] = [&seen[id][0], &seen[id][1]].map(|v| v.as_u64().expect("a width"));
        assert_eq!(inner, width, "{seen}");
        assert!(scroll <= inner, "the {id} scrolls sideways: {seen}");
    }
}

/// No chart for a quantity a character never had: a warrior without magic points gets no flat
/// line at 0, while a wizard's magic points are drawn.
#[test]
fn a_warrior_without_magic_points_gets_no_magic_points_chart() {
    let c = Campaign::with_party();
    c.ok(&[
        "character",
        "add",
        "Tom",
        "--system",
        "vsd",
        "--level",
        "2",
        "--vocation",
        "warrior",
        "--lore",
        "Elementalism=10:1",
        "--mp",
        "0",
        "--drive",
        "2",
        "--body",
        "50",
        "--wsr",
        "5",
        "--defense",
        "20",
        "--health",
        "12",
    ]);
    c.ok(&["damage", "Tom", "1"]);
    let (page, _) = write_report(&c, "party.html", &[]);
    assert!(
        page.contains("Mira: magic points"),
        "the wizard's chart is missing"
    );
    assert!(
        !page.contains("Tom: magic points"),
        "a flat chart of nothing for Tom"
    );
}

/// Rituals per day are counted between rests (ADG-R9): a night's rest inside one in-game day
/// splits its bar in two, so two casts before it and one after are not shown as three in a day.
#[test]
fn adg_r9_a_rest_within_a_day_splits_its_rituals_per_day() {
    let c = Campaign::with_party();
    c.ok(&LEARN_SHADOW_STEP);
    let cast = ["--rolls", "5", "ritual", "cast", "Aldric", "Shadow Step"];
    c.ok(&cast);
    c.ok(&cast);
    c.ok(&["rest", "--party", "--night"]);
    c.ok(&cast);
    let (page, _) = write_report(&c, "rests.html", &[]);
    assert!(
        page.contains("Day 1, part 1") && page.contains("Day 1, part 2"),
        "the day is not split at the rest"
    );
}

/// What mattered in a session names a character going down (and an amendment), not only deaths.
#[test]
fn a_session_says_who_went_down_and_what_was_amended() {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    let hit = c.seq_of(&["damage", "Aldric", "7"]).to_string();
    c.ok(&["amend", &hit, "--", "damage", "Aldric", "8"]);
    c.ok(&["session", "end"]);
    let (page, _) = write_report(&c, "down.html", &[]);
    let session = &page[page
        .find("<section id=\"timeline\">")
        .expect("the sessions")..];
    let session = &session[..session.find("</section>").unwrap()];
    assert!(session.contains("Aldric takes 8 damage"), "{session}");
    assert!(session.contains("amended"), "{session}");
}

/// Each system names what in its play is worth a session's highlights: a ritual cast with a
/// mishap and a failed spell are listed; a cast that went well is routine and is only counted.
#[test]
fn a_session_lists_a_mishap_and_a_failed_spell_but_not_a_routine_cast() {
    let c = Campaign::with_party();
    c.ok(&crate::support::learning(
        "Aldric",
        "Concealing Darkness",
        "phrase",
    ));
    c.ok(&crate::support::LEARN_SLEEP);
    c.ok(&["session", "start"]);
    let routine = c.seq_of(&[
        "--rolls",
        "5",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ]);
    c.ok(&["time", "advance", "1m"]);
    let mishap = c.seq_of(&[
        "--rolls",
        "19,3,4,2",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
    ]);
    let failed = c.seq_of(&[
        "--rolls", "3,40,90", "spell", "cast", "Mira", "Sleep", "--target", "Bran",
    ]);
    c.ok(&["session", "end"]);
    let (page, _) = write_report(&c, "highlights.html", &[]);
    let session = &page[page
        .find("<section id=\"timeline\">")
        .expect("the sessions")..];
    let session = &session[..session.find("</section>").unwrap()];
    assert!(
        session.contains(&format!("<li>#{mishap} ")),
        "the mishap: {session}"
    );
    assert!(
        session.contains(&format!("<li>#{failed} ")),
        "the failed spell: {session}"
    );
    assert!(
        !session.contains(&format!("<li>#{routine} ")),
        "a routine cast: {session}"
    );
}

/// #47: a session's highlights are ranked by weight, so a fall, a mishap or failure and the
/// record corrected come before routine additions, however many of those there were; the rest
/// are under "more", which opens (a details element) to list them.
#[test]
fn a_sessions_highlights_put_a_fall_and_a_correction_before_routine_and_more_opens() {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    for n in 1..=9 {
        c.add_adg(&format!("Recruit{n}"), 1, 9, 5, 0);
    }
    let fall = c.seq_of(&["damage", "Recruit9", "5", "--reason", "a fall into the pit"]);
    let wrong = c.seq_of(&["damage", "Aldric", "1", "--reason", "a mistaken blow"]);
    let retraction = c.seq_of(&["retract", &wrong.to_string(), "--reason", "it missed"]);
    c.ok(&["session", "end"]);
    let (page, _) = write_report(&c, "ranked.html", &[]);
    let timeline = &page[page.find("<section id=\"timeline\">").unwrap()..];
    let timeline = &timeline[..timeline.find("</section>").unwrap()];
    let list = &timeline[timeline.find("<ul>").expect("the highlights")..];
    let shown = &list[..list.find("<details>").expect("more opens")];
    let place = |seq: u64| shown.find(&format!("<li>#{seq} ")).unwrap_or(usize::MAX);
    assert!(
        place(fall) < place(retraction) && place(retraction) < usize::MAX,
        "the fall first, then the correction: {shown}"
    );
    let first_recruit = shown.find("Recruit1").unwrap_or(usize::MAX);
    assert!(place(retraction) < first_recruit, "{shown}");
    assert_eq!(shown.matches("<li>#").count(), 8, "{shown}");
    let more = &list[list.find("<details>").unwrap()..];
    assert!(
        more.contains("<summary>and 3 more</summary>") && more.contains("Recruit9"),
        "{more}"
    );
}

/// #47: a chart's labels are read at about 10 px wherever the report is opened. Each chart is
/// drawn wide and narrow; a phone shows the narrow drawing (the wide one shrank its labels to
/// about 5 px in a 366 px column), a desktop the wide one, never both.
#[test]
fn a_reports_chart_labels_stay_readable_on_a_phone_and_a_desktop() {
    let Some(chromium) = super::browser::chromium_or_skip("a_reports_chart_labels_stay_readable")
    else {
        return;
    };
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--characters", "3", "--events", "600"]);
    let (_, summary) = write_report(&c, "phone.html", &[]);
    let charts = summary["charts"].as_u64().expect("a chart count");
    let file = c.dir.path().join("phone.html");
    let mut browser = super::browser::Browser::start(&chromium);
    for (width, mobile) in [(360, true), (390, true), (1280, false)] {
        let tab = browser.open(&format!("file://{}", file.display()), width, 844, mobile);
        browser.wait_for(
            &tab,
            "document.body.dataset.drawn !== undefined",
            "the report drawn",
        );
        let seen = browser.eval(
            &tab,
            r#"(function () {
  var shown = Array.from(document.querySelectorAll("svg.chart")).filter(function (s) { return s.getClientRects().length > 0; });
  var heights = shown.map(function (s) { var t = s.querySelector("text.tick"); return t ? t.getBoundingClientRect().height : 99; });
  return { shown: shown.length, narrow: shown.filter(function (s) { return s.classList.contains("narrow"); }).length,
           smallest: Math.min.apply(null, heights) };
})()"#,
        );
        assert_eq!(
            seen["shown"], charts,
            "one drawing of each chart at {width} px: {seen}"
        );
        assert_eq!(
            seen["narrow"].as_u64(),
            Some(if width < 560 { charts } else { 0 }),
            "{seen}"
        );
        assert!(
            seen["smallest"].as_f64().unwrap_or(0.0) >= 9.0,
            "labels too small to read at {width} px: {seen}"
        );
        browser.close(tab);
    }
}
