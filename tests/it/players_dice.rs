//! Players' dice (C-4, C-5, C-6), met as the table meets them: the GM's terminal puts a roll to a
//! player's phone and waits; the phone answers through `grimoire serve` on 127.0.0.1, over plain
//! HTTP here and by tapping in headless Chromium; the die is re-derived here from what the log
//! publishes, the way the README's derivation says, with no grimoire code.

use super::browser::{Browser, chromium_or_skip};
use super::serve::{Answer, PATIENCE, Served};
use super::support::Campaign;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

/// Links `player`'s phone for `plays`; returns the path its link opens (`/p/TOKEN/`).
pub(super) fn link(c: &Campaign, player: &str, plays: &str) -> String {
    let linked = c.json(&["player", "link", player, "--plays", plays]);
    let link = linked["link"].as_str().expect("a link");
    let path = link.trim_start_matches("http://127.0.0.1:8737");
    assert!(path.starts_with("/p/") && path.ends_with('/'), "{link}");
    path.to_string()
}

/// Tom under Mira's Sleep (cast with a 50: a success that a save may answer), his phone Bea's:
/// the campaign, the cast's number and Bea's link.
fn tom_under_miras_sleep() -> (Campaign, String, String) {
    let c = Campaign::with_party();
    c.ok(&crate::support::VSD_TOM);
    c.ok(&crate::support::LEARN_SLEEP);
    let cast = c
        .seq_of(&[
            "--rolls", "50", "spell", "cast", "Mira", "Sleep", "--target", "Tom",
        ])
        .to_string();
    let bea = link(&c, "Bea", "Tom");
    (c, cast, bea)
}

/// Sends `signal` (`-INT`, `-TERM`) to a command once it says it waits on a phone (only then is
/// the signal the wait's); what it printed to standard error after that, the command finished,
/// and the log's head as it stood at the wait.
fn stopped_while_waiting(
    c: &Campaign,
    mut waiting: Child,
    signal: &str,
) -> (Output, String, Option<String>) {
    use std::io::{BufRead, BufReader, Read};
    let mut said = BufReader::new(waiting.stderr.take().expect("its errors"));
    let mut line = String::new();
    while !line.contains("waiting until") {
        line.clear();
        let read = said.read_line(&mut line).expect("the terminal's words");
        assert!(read > 0, "the command ended before it waited");
    }
    let head = c.head();
    let sent = std::process::Command::new("kill")
        .args([signal, &waiting.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let mut rest = String::new();
    said.read_to_string(&mut rest)
        .expect("the rest of its words");
    (finished(waiting), rest, head)
}

/// Starts a GM's command that waits for a phone's answer.
fn waiting(c: &Campaign, args: &[&str]) -> Child {
    c.cmd()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the GM's command starts")
}

/// The GM's command, once it has finished (killed if it has not by the end of our patience).
fn finished(mut child: Child) -> Output {
    let deadline = Instant::now() + PATIENCE;
    while child
        .try_wait()
        .expect("the command can be waited on")
        .is_none()
    {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("its output")
}

/// The GM's command, finished with success; what it printed.
fn completed(child: Child) -> String {
    let out = finished(child);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn post(served: &Served, path: &str, body: &str) -> Answer {
    served.ask(&format!(
        "POST {path} HTTP/1.1\r\nHost: {}\r\nOrigin: http://{}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        served.address(),
        served.address(),
        body.len()
    ))
}

pub(super) fn answer(served: &Served, player: &str, request: u32, bytes: &str) -> Answer {
    post(
        served,
        &format!("{player}answer"),
        &format!("request={request}&contribution={bytes}"),
    )
}

/// The rolls waiting on a phone, once `count` of them are there.
fn rolls_once(served: &Served, player: &str, count: usize) -> serde_json::Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let rolls = served.get_path(&format!("{player}rolls"));
        assert_eq!(rolls.status, 200, "{}", rolls.body);
        let rolls: serde_json::Value = serde_json::from_str(&rolls.body).expect("JSON");
        if rolls["waiting"].as_array().map(Vec::len) == Some(count) || Instant::now() > deadline {
            return rolls;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The README's derivation, written out again: face of die `n` from the secret and the bytes.
fn derived_face(secret: &str, request: u64, n: u64, contribution: &str, sides: u64) -> u64 {
    let key = hex::decode(secret).unwrap();
    let limit = (1u64 << 32) - (1u64 << 32) % sides;
    for block in 0.. {
        let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
        mac.update(
            format!("grimoire-device-die-v1|{request}|{n}|{block}|{contribution}").as_bytes(),
        );
        for word in mac.finalize().into_bytes().chunks_exact(4) {
            let w = u64::from(u32::from_be_bytes(word.try_into().unwrap()));
            if w < limit {
                return w % sides + 1;
            }
        }
    }
    unreachable!()
}

/// The public log's rows of `kind`.
fn rows(c: &Campaign, kind: &str) -> Vec<serde_json::Value> {
    let export = c.ok(&["export"]);
    export
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|row| row["kind"] == kind)
        .collect()
}

#[test]
fn c5_a_roll_put_to_a_players_phone_is_answered_once_and_the_gms_command_completes_with_its_die() {
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    let served = Served::start(&c);
    let gm = waiting(
        &c,
        &[
            "roll",
            "d20",
            "--character",
            "Aldric",
            "--for",
            "sneaking past the guard",
            "--rolled-by",
            "Bea",
        ],
    );
    let rolls = rolls_once(&served, &bea, 1);
    let asked = &rolls["waiting"][0];
    assert_eq!(asked["request"], 1, "{rolls}");
    // Said as a player reads it (#47): who rolls, then what for.
    assert_eq!(
        asked["words"],
        "Aldric: roll d20 for sneaking past the guard"
    );
    let bytes = "5a".repeat(32);
    let answered = answer(&served, &bea, 1, &bytes);
    assert_eq!(answered.status, 200, "{}", answered.body);
    let answered: serde_json::Value = serde_json::from_str(&answered.body).unwrap();
    let said = completed(gm);
    assert!(
        said.contains("request 1 answered")
            && said.contains("Aldric rolled d20 for sneaking past the guard: "),
        "the GM's terminal prints the roll as if rolled there: {said}"
    );

    // The die is what the published secret and the phone's bytes give, and the secret opens the
    // commitment the request published before the phone sent anything.
    let requested = &rows(&c, "roll_requested")[0]["payload"];
    let published = &rows(&c, "roll_answered")[0]["payload"];
    let rolled = &rows(&c, "dice_rolled")[0]["payload"];
    assert_eq!(published["contribution"], bytes);
    let secret = published["secret"].as_str().unwrap();
    assert_eq!(
        hex::encode(Sha256::digest(hex::decode(secret).unwrap())),
        requested["commitment"].as_str().unwrap()
    );
    assert_eq!(
        rolled["dice"][0]["value"].as_u64().unwrap(),
        derived_face(secret, 1, 0, &bytes, 20)
    );
    assert_eq!(rolled["dice"][0]["provenance"]["source"], "device");

    // The phone that lost its connection sends the same bytes and gets the same answer; other
    // bytes are refused, and nothing more is recorded.
    let head = c.head();
    let again = answer(&served, &bea, 1, &bytes);
    assert_eq!(again.status, 200);
    let again: serde_json::Value = serde_json::from_str(&again.body).unwrap();
    assert_eq!(
        (again["again"].clone(), again["said"].clone()),
        (true.into(), answered["said"].clone())
    );
    let other = answer(&served, &bea, 1, &"00".repeat(32));
    assert_eq!(other.status, 409);
    assert!(other.body.contains("answered already"), "{}", other.body);
    assert_eq!(c.head(), head, "a refused answer records nothing");

    let verified = c.json(&["verify"]);
    assert_eq!(verified["device_dice_checked"], 1, "{verified}");
    let explained = c.ok(&["explain", &rolled_seq(&c)]);
    assert!(
        explained.contains("rolled on Bea's device (device 1), request 1")
            && explained.contains("matches"),
        "{explained}"
    );
}

fn rolled_seq(c: &Campaign) -> String {
    rows(c, "dice_rolled")[0]["seq"].to_string()
}

#[test]
fn c4_a_players_link_opens_only_their_own_rolls_and_a_revoked_one_opens_nothing() {
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    let cal = link(&c, "Cal", "Mira");
    c.ok(&[
        "roll",
        "d20",
        "--character",
        "Aldric",
        "--rolled-by",
        "Bea",
        "--no-wait",
    ]);
    c.ok(&[
        "roll",
        "d6",
        "--character",
        "Aldric",
        "--rolled-by",
        "Bea",
        "--no-wait",
    ]);
    c.ok(&["player", "withdraw", "2"]);
    let served = Served::start(&c);
    let nothing = served.get_path("/p/00000000000000000000000000000000/");
    assert_eq!(nothing.status, 404);

    // Cal's link sees none of Bea's rolls, and cannot answer them.
    assert_eq!(
        rolls_once(&served, &cal, 0)["waiting"],
        serde_json::json!([])
    );
    assert_eq!(rolls_once(&served, &bea, 1)["waiting"][0]["request"], 1);
    let head = c.head();
    let stolen = answer(&served, &cal, 1, &"11".repeat(32));
    assert_eq!(stolen.status, 409);
    assert!(stolen.body.contains("another device"), "{}", stolen.body);
    let late = answer(&served, &bea, 2, &"11".repeat(32));
    assert_eq!(late.status, 409);
    assert!(late.body.contains("withdrawn"), "{}", late.body);
    let short = answer(&served, &bea, 1, "11");
    assert_eq!(short.status, 409);
    let big = post(&served, &format!("{bea}answer"), &"x".repeat(300));
    assert_eq!(big.status, 413);
    for odd in [
        format!("request=%2B1&contribution={}", "11".repeat(32)),
        format!("request=01&contribution={}", "11".repeat(32)),
        format!("request=1&request=1&contribution={}", "11".repeat(32)),
        // Bytes not in lowercase hexadecimal are a malformed form, not a refusal of the rules.
        format!("request=1&contribution={}", "AB".repeat(32)),
        format!("request=1&contribution={}", "zz".repeat(32)),
        "request=1&contribution=1".to_string(),
    ] {
        let refused = post(&served, &format!("{bea}answer"), &odd);
        assert_eq!(refused.status, 400, "{odd}: {}", refused.body);
    }
    let unmeasured = served.ask(&format!(
        "POST {bea}answer HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        served.address()
    ));
    assert_eq!(unmeasured.status, 411);
    // An answer comes from the player's page as served here: its Origin, its Host, its form.
    let form = format!("request=1&contribution={}", "22".repeat(32));
    let address = served.address();
    for (headers, why) in [
        (
            format!("Host: {address}\r\nContent-Type: application/x-www-form-urlencoded"),
            "no Origin",
        ),
        (
            format!(
                "Host: {address}\r\nOrigin: http://evil.example\r\nContent-Type: application/x-www-form-urlencoded"
            ),
            "another site",
        ),
        (
            "Host: rebound.example:80\r\nOrigin: http://rebound.example:80\r\nContent-Type: application/x-www-form-urlencoded".to_string(),
            "a name re-pointed here",
        ),
        (
            format!("Host: {address}\r\nOrigin: http://{address}\r\nContent-Type: text/plain"),
            "not the page's form",
        ),
    ] {
        let refused = served.ask(&format!(
            "POST {bea}answer HTTP/1.1\r\n{headers}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
            form.len()
        ));
        assert_eq!(refused.status, 403, "{why}: {}", refused.body);
    }
    let slashless = served.get_path(bea.trim_end_matches('/'));
    assert_eq!(slashless.status, 303, "{}", slashless.head);
    assert_eq!(slashless.header("location").as_deref(), Some(bea.as_str()));
    let to_the_table = post(
        &served,
        served
            .link
            .trim_start_matches(&format!("http://{}", served.address())),
        "request=1",
    );
    assert_eq!(to_the_table.status, 405, "the table's link takes nothing");
    assert_eq!(c.head(), head, "nothing was recorded");

    // A player's link opens the live page and the public pages, and the table's link is not on it.
    let page = served.get_path(&bea);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Bea's rolls") && page.body.contains("The party"));
    assert!(!page.body.contains(&served.link));
    assert_eq!(
        served.get_path(&format!("{bea}export.jsonl")).body,
        c.ok(&["export"])
    );

    // No export holds a link, nor what it is kept as.
    let token = bea.trim_start_matches("/p/").trim_end_matches('/');
    let hash = hex::encode(Sha256::digest(token.as_bytes()));
    let with_secrets = c.ok(&["export", "--with-secrets"]);
    assert!(with_secrets.contains("request_secret"));
    for text in [c.ok(&["export"]), with_secrets] {
        assert!(!text.contains(token) && !text.contains(&hash));
    }

    c.ok(&["player", "unlink", "Bea"]);
    for page in ["", "rolls", "export.jsonl", "updates"] {
        let revoked = served.get_path(&format!("{bea}{page}"));
        assert_eq!(
            (revoked.status, revoked.body.as_str()),
            (nothing.status, nothing.body.as_str()),
            "{page}"
        );
    }
    let head = c.head();
    assert_eq!(answer(&served, &bea, 1, &"22".repeat(32)).status, 404);
    assert_eq!(c.head(), head);
}

#[test]
fn c5_the_gms_terminal_refuses_what_a_device_cannot_roll_and_records_nothing() {
    let c = Campaign::with_party();
    link(&c, "Bea", "Aldric");
    for (args, says) in [
        (
            vec!["roll", "d20", "--character", "Mira", "--rolled-by", "Bea"],
            "plays Aldric, not Mira",
        ),
        (
            vec!["roll", "d20", "--sealed", "--witnessed-by", "Bea"],
            "a device shows what it makes",
        ),
        (
            vec!["roll", "d20", "--rolled-by", "Dee"],
            "no device is linked for Dee",
        ),
        (
            vec!["--rolls", "4", "roll", "d20", "--rolled-by", "Bea"],
            "--rolls",
        ),
        (
            vec!["rest", "--night", "--rolled-by", "Bea"],
            "rolled at your terminal",
        ),
        (
            vec!["damage", "Aldric", "1", "--rolled-by", "Bea"],
            "rolls no dice",
        ),
        (vec!["roll", "d20", "--no-wait"], "--no-wait goes with"),
        (vec!["player", "withdraw", "7"], "there is no request 7"),
        // What the rules refuse whatever the dice is refused before anything is put to a phone.
        (
            vec!["roll", "d20", "--character", "Nobody", "--rolled-by", "Bea"],
            "plays Aldric, not Nobody",
        ),
        (
            vec!["ritual", "cast", "Aldric", "Nonesuch", "--rolled-by", "Bea"],
            "as the campaign stands now",
        ),
        (
            vec![
                "player",
                "link",
                "Cal",
                "--plays",
                "Mira",
                "--address",
                "0.0.0.0:8737",
            ],
            "no address a phone can reach",
        ),
    ] {
        let code = if says.starts_with("plays Aldric, not")
            || says.starts_with("no device")
            || says.starts_with("there is")
            || says.starts_with("as the campaign")
        {
            1
        } else {
            2
        };
        let err = c.refused(&args, code);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// A witnessed roll is the GM's: its answer keeps the phone's player as its actor (the log hashes
/// it so), but `log --by` and the audit count its dice for whoever put the request, computed from
/// the log. A player's own roll stays theirs.
#[test]
fn c6_given_a_witnessed_roll_when_filtered_by_actor_then_it_is_the_gms_who_put_it() {
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    let served = Served::start(&c);
    c.ok(&[
        "roll",
        "d6",
        "--for",
        "wandering monsters",
        "--witnessed-by",
        "Bea",
        "--no-wait",
    ]);
    rolls_once(&served, &bea, 1);
    assert_eq!(answer(&served, &bea, 1, &"3c".repeat(32)).status, 200);
    let events = c.json(&["log"]);
    let rows = events["events"].as_array().expect("events");
    let requested = rows
        .iter()
        .find(|e| e["kind"] == "roll_requested")
        .expect("the request");
    let gm = requested["actor"].as_str().expect("an actor").to_string();
    assert_ne!(gm, "Bea");
    let rolled = rows
        .iter()
        .find(|e| e["kind"] == "dice_rolled")
        .expect("the roll");
    assert_eq!(
        rolled["actor"], "Bea",
        "the answer keeps the actor it was stored with"
    );
    let kinds = |by: &str| -> Vec<String> {
        c.json(&["log", "--by", by])["events"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| e["kind"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert!(
        kinds(&gm).contains(&"dice_rolled".to_string()),
        "{:?}",
        kinds(&gm)
    );
    assert!(!kinds("bea").contains(&"dice_rolled".to_string()));
    assert!(kinds("bea").contains(&"roll_answered".to_string()));
    let audited = |by: &str| c.json(&["audit", "dice", "--by", by])["groups"].clone();
    assert_eq!(audited("Bea"), serde_json::json!([]));
    assert_eq!(audited(&gm)[0]["rolls"], 1);
}

/// The evening the issue asks for, on real phone pages: a save against a cast rolled from the
/// player's page with one tap, the GM's terminal completing with it; then the GM's own roll
/// witnessed by the same phone, answered by its page with no tap; the sheet and the newest events
/// follow on the page; the phone's receipts are checked against the log, and one the log lacks is
/// flagged.
#[test]
fn c6_a_save_tapped_on_a_players_phone_and_a_gms_roll_it_witnesses_complete_the_gms_commands() {
    let Some(chromium) = chromium_or_skip(
        "c6_a_save_tapped_on_a_players_phone_and_a_gms_roll_it_witnesses_complete_the_gms_commands",
    ) else {
        return;
    };
    let (c, cast, bea) = tom_under_miras_sleep();
    let served = Served::start(&c);
    let mut browser = Browser::start(&chromium);
    let url = format!("http://{}{bea}", served.address());
    let phone = browser.open(&url, 400, 900, true);
    // The table's screen follows too, on the table's link.
    let table = browser.open(&served.link, 1280, 900, false);
    browser.wait_for(
        &phone,
        r#"document.getElementById("rolls") !== null"#,
        "the player's part",
    );

    let gm = waiting(&c, &["save", "Tom", "--cast", &cast, "--rolled-by", "Bea"]);
    browser.wait_for(
        &phone,
        r##"document.querySelector("#rolls-waiting button") !== null"##,
        "the save's Roll button",
    );
    let asked = browser.eval(
        &phone,
        r#"document.getElementById("rolls-waiting").textContent"#,
    );
    assert!(asked.as_str().unwrap().contains("save"), "{asked}");
    browser.screenshot(&phone, "players-dice-request");
    browser.eval(
        &phone,
        r##"document.querySelector("#rolls-waiting button").click()"##,
    );
    let said = completed(gm);
    assert!(said.contains("Tom saves against"), "{said}");
    browser.wait_for(
        &phone,
        r#"document.getElementById("rolls-said").textContent.indexOf("saves against") >= 0"#,
        "the save's outcome on the phone",
    );
    browser.wait_for(
        &phone,
        r#"document.getElementById("live").textContent.indexOf("saves against") >= 0"#,
        "the newest events with the save",
    );
    browser.wait_for(
        &table,
        r#"document.getElementById("live").textContent.indexOf("saves against") >= 0"#,
        "the save on the table's screen",
    );
    let affected = said.contains("affected");
    let card = browser.eval(&phone, r#"document.getElementById("party").textContent"#);
    assert_eq!(
        card.as_str().unwrap().contains("Sleep (from Mira"),
        affected,
        "{said}\n{card}"
    );

    // The GM's own roll, witnessed: the page answers it by itself.
    let gm = waiting(
        &c,
        &[
            "roll",
            "d6",
            "--for",
            "wandering monsters",
            "--witnessed-by",
            "Bea",
        ],
    );
    let said = completed(gm);
    assert!(said.contains("rolled d6 for wandering monsters"), "{said}");
    let verified = c.json(&["verify"]);
    // The save's open-ended d100 rolls again on 96 to 100: as many dice as its event holds.
    let export = c.ok(&["export"]);
    let player_rolled = export.matches(r#""source":"device","request":1"#).count();
    assert!(player_rolled >= 1, "{export}");
    assert_eq!(
        (
            verified["device_dice_checked"].clone(),
            verified["witnessed_dice_checked"].clone()
        ),
        (player_rolled.into(), 1.into()),
        "{verified}"
    );
    let audit = c.ok(&["audit", "dice"]);
    assert!(
        audit.contains("rolled on a player's device") && audit.contains("witnessed by a device"),
        "{audit}"
    );

    // The records: the phone wrote down both rolls before answering, and the log holds them.
    browser.eval(&phone, "window.grimoireRolls()");
    browser.wait_for(
        &phone,
        r#"document.getElementById("rolls-receipts").textContent.indexOf("holds every roll and choice this phone made as it was shown (2)") >= 0"#,
        "both records found in the log",
    );
    // A record the log lacks (a request shown to the phone, then dropped) is flagged at the top.
    browser.eval(
        &phone,
        r#"(function () { var key = "grimoire-sent:" + location.pathname; var r = JSON.parse(localStorage.getItem(key)); r["9"] = { request: 9, commitment: "ab", contribution: "ff" }; localStorage.setItem(key, JSON.stringify(r)); window.grimoireRolls(); })()"#,
    );
    browser.wait_for(
        &phone,
        r#"document.getElementById("rolls-flags").textContent.indexOf("Request 9: the log does not hold the request") >= 0"#,
        "the missing record flagged",
    );
    browser.screenshot(&phone, "players-dice-receipts");
    let widths = browser.eval(
        &phone,
        "[document.documentElement.scrollWidth, window.innerWidth]",
    );
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "the phone scrolls sideways: {widths}"
    );
}

/// The server killed at random moments while phones answer: each answer is recorded whole (the
/// answer and the roll it completes, in one write) or not at all; a phone that sends its bytes
/// again to the restarted server gets the recorded answer, or has it recorded then.
#[test]
fn c5_a_server_killed_while_phones_answer_leaves_each_answer_whole_or_absent() {
    let kills = std::env::var("GRIMOIRE_CRASH_KILLS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(12usize)
        .min(12);
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    for _ in 0..kills {
        c.ok(&[
            "roll",
            "d20",
            "--character",
            "Aldric",
            "--rolled-by",
            "Bea",
            "--no-wait",
        ]);
    }
    let mut random = 0x2545_f491_4f6c_dd1du64;
    for kill in 0..kills {
        let request = kill as u32 + 1;
        let bytes = format!("{:02x}", kill + 1).repeat(32);
        let served = Served::start(&c);
        let address = served.address();
        let (path, sent) = (bea.clone(), bytes.clone());
        let phone = std::thread::spawn(move || {
            let body = format!("request={request}&contribution={sent}");
            let raw = format!(
                "POST {path}answer HTTP/1.1\r\nHost: {address}\r\nOrigin: http://{address}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            use std::io::{Read, Write};
            let Ok(mut stream) = std::net::TcpStream::connect(&address) else {
                return;
            };
            let _ = stream.write_all(raw.as_bytes());
            let _ = stream.read_to_end(&mut Vec::new());
        });
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        std::thread::sleep(Duration::from_micros(random % 40_000));
        drop(served);
        let _ = phone.join();

        // Whole or absent, and the chain sound.
        assert!(c.ok(&["verify"]).contains("all checks hold"), "kill {kill}");
        let answered: Vec<serde_json::Value> = rows(&c, "roll_answered");
        let export = c.ok(&["export"]);
        let all: Vec<serde_json::Value> = export
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for answer in &answered {
            let at = answer["seq"].as_u64().unwrap() as usize;
            let next = &all[at];
            assert_eq!(
                next["kind"], "dice_rolled",
                "kill {kill}: the answer #{at} stands alone"
            );
            assert_eq!(
                next["payload"]["dice"][0]["provenance"]["request"],
                answer["payload"]["request"]
            );
        }
        // The phone sends the same bytes again to the server started anew.
        let served = Served::start(&c);
        let again = answer(&served, &bea, request, &bytes);
        assert_eq!(again.status, 200, "kill {kill}: {}", again.body);
        assert_eq!(
            rows(&c, "roll_answered").len(),
            kill + 1,
            "kill {kill}: one answer per request"
        );
    }
}

/// The campaign moved on between the request and the tap (the character's joining retracted): the
/// answer is recorded with the rules' reason and nothing else, and the GM's terminal says so and
/// fails, since the roll did not happen.
#[test]
fn c5_an_answer_the_rules_refuse_by_then_is_recorded_with_why_and_the_gms_terminal_fails() {
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    let joined = rows(&c, "character_added")[0]["seq"].to_string();
    let served = Served::start(&c);
    let gm = waiting(
        &c,
        &["roll", "d20", "--character", "Aldric", "--rolled-by", "Bea"],
    );
    rolls_once(&served, &bea, 1);
    c.ok(&["retract", &joined, "--reason", "Aldric never joined"]);
    let answered = answer(&served, &bea, 1, &"77".repeat(32));
    assert_eq!(answered.status, 200, "{}", answered.body);
    assert!(
        answered.body.contains("refused its command"),
        "{}",
        answered.body
    );
    let gm = finished(gm);
    assert_eq!(gm.status.code(), Some(1));
    let err = String::from_utf8_lossy(&gm.stderr);
    assert!(
        err.contains("the rules refused its command then") && err.contains("Aldric"),
        "{err}"
    );
    assert!(rows(&c, "dice_rolled").is_empty(), "nothing was rolled");
    assert_eq!(rows(&c, "roll_answered").len(), 1);
}

/// In `grimoire shell` a roll put to a phone waits as at the command line: the lines after it run
/// once the phone has answered, in order.
#[test]
fn c5_the_shell_waits_for_the_phone_then_runs_the_next_line() {
    use std::io::Write;
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    let served = Served::start(&c);
    let mut shell = c.shell();
    shell
        .stdin
        .take()
        .unwrap()
        .write_all(b"roll d20 --character Aldric --for the-lock --rolled-by Bea\nroll d6 --for after\nexit\n")
        .unwrap();
    rolls_once(&served, &bea, 1);
    assert!(
        rows(&c, "dice_rolled").is_empty(),
        "the next line waits for the answer"
    );
    assert_eq!(answer(&served, &bea, 1, &"3c".repeat(32)).status, 200);
    let said = completed(shell);
    assert!(said.contains("Aldric rolled d20 for the-lock"), "{said}");
    let rolled: Vec<String> = rows(&c, "dice_rolled")
        .iter()
        .map(|r| {
            r["payload"]["purpose"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    assert_eq!(rolled, ["the-lock", "after"]);
}

/// #47: Ctrl-C while the GM's terminal waits on a phone ends the wait in words: the request stays
/// put to the phone (the terminal says so, and how to withdraw it), the exit code is a shell's for
/// an interrupted command, nothing else is recorded, and the phone can still answer it.
#[test]
fn c5_ctrl_c_while_waiting_on_a_phone_says_the_request_stays_open() {
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    let gm = waiting(
        &c,
        &[
            "roll",
            "d20",
            "--character",
            "Aldric",
            "--for",
            "the-lock",
            "--rolled-by",
            "Bea",
        ],
    );
    let (out, rest, head) = stopped_while_waiting(&c, gm, "-INT");
    assert_eq!(out.status.code(), Some(130), "{rest}");
    assert!(
        rest.contains("stopped waiting; request 1 stays put to Bea's phone")
            && rest.contains("`grimoire player withdraw 1`"),
        "{rest}"
    );
    assert_eq!(c.head(), head, "stopping the wait recorded something");
    let listed = c.json(&["player", "list"]);
    assert!(listed.to_string().contains("the-lock"), "{listed}");
    // The phone still answers it, and the roll is recorded then.
    let served = Served::start(&c);
    assert_eq!(answer(&served, &bea, 1, &"3c".repeat(32)).status, 200);
    assert!(
        c.ok(&["log", "--limit", "1"])
            .contains("Aldric rolled d20 for the-lock")
    );
}

/// From the hostile pass: `player list` says a roll waiting on a phone as the phone says it, in
/// the rules' words with the character's own name, not in words that read as a command line.
#[test]
fn c5_player_list_says_a_waiting_roll_as_its_phone_does() {
    let c = Campaign::with_party();
    link(&c, "Bea", "Aldric");
    let typed = [
        "roll",
        "d20",
        "--character",
        "aldric",
        "--for",
        "the-lock",
        "--rolled-by",
        "Bea",
        "--no-wait",
    ];
    c.ok(&typed);
    let listed = c.ok(&["player", "list"]);
    assert!(
        listed.contains("request 1 (#6) waits on device 1: Aldric: roll d20 for the-lock"),
        "{listed}"
    );
    let json = c.json(&["player", "list"]);
    assert_eq!(
        json["waiting"][0]["words"], "Aldric: roll d20 for the-lock",
        "{json}"
    );
    assert_eq!(
        json["waiting"][0]["asked"], "roll d20 for the-lock (aldric)",
        "{json}"
    );
}

/// #47: a player's page, should its link stop opening anything (revoked or replaced), tells the
/// player what to ask the GM for (their phone linked again), not the table's new link.
#[test]
fn c4_a_players_page_says_what_to_ask_for_when_its_link_is_gone() {
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    let served = Served::start(&c);
    let page = served.get_path(&bea);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("Ask the GM to link your phone again.")
            && !page.body.contains("the table's new link"),
        "{}",
        page.body
    );
    let table = served.get("");
    assert!(
        table.body.contains("ask the GM for the table's new link.")
            && !table.body.contains("link your phone again"),
        "{}",
        table.body
    );
}

/// #47, item 2: a roll put to a phone cannot be missed. A player scrolled to the very bottom of
/// their page still sees it, with its Roll button on screen; the tab's title says a roll waits;
/// the phone vibrates once for it (where the phone allows); once answered, all of that goes.
#[test]
fn c5_a_roll_put_to_a_phone_is_seen_by_a_player_scrolled_to_the_bottom() {
    let Some(chromium) = chromium_or_skip("c5_a_roll_put_to_a_phone_is_seen_by_a_player_scrolled")
    else {
        return;
    };
    let (c, cast, bea) = tom_under_miras_sleep();
    let served = Served::start(&c);
    let mut browser = Browser::start(&chromium);
    let phone = browser.open(&format!("http://{}{bea}", served.address()), 390, 844, true);
    browser.wait_for(
        &phone,
        r#"document.getElementById("rolls-waiting").textContent.indexOf("Nothing waits") >= 0"#,
        "the player's part, with nothing waiting",
    );
    // The player reads the bottom of the page; the phone's vibration is listened to.
    browser.eval(
        &phone,
        "window.buzzes = []; navigator.vibrate = function (pattern) { window.buzzes.push(pattern); return true; }; window.scrollTo(0, document.documentElement.scrollHeight); true",
    );
    let title_before = browser.eval(&phone, "document.title");
    c.ok(&[
        "save",
        "Tom",
        "--cast",
        &cast,
        "--rolled-by",
        "Bea",
        "--no-wait",
    ]);
    browser.wait_for(
        &phone,
        r##"document.querySelector("#rolls-waiting button") !== null"##,
        "the save's Roll button",
    );
    browser.eval(
        &phone,
        "window.scrollTo(0, document.documentElement.scrollHeight); true",
    );
    let seen = browser.eval(
        &phone,
        r##"(function () {
  var r = document.querySelector("#rolls-waiting button").getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, height: window.innerHeight, scrolled: window.scrollY > 0,
           title: document.title, buzzes: window.buzzes.length };
})()"##,
    );
    // It reads in the rules' words, worked out as the campaign stands: whose spell Tom resists,
    // and what his roll must beat.
    let asked = browser.eval(
        &phone,
        r#"document.getElementById("rolls-waiting").textContent"#,
    );
    let asked = asked.as_str().unwrap_or_default();
    assert!(
        asked.contains(&format!(
            "Tom: save against Mira's Sleep (#{cast}) — open-ended d100 +5 Willpower must beat 60"
        )) && !asked.contains("--"),
        "{asked}"
    );
    let at = |k: &str| seen[k].as_f64().unwrap_or(f64::NAN);
    assert!(
        seen["scrolled"] == true,
        "the page was not scrolled: {seen}"
    );
    assert!(
        at("top") >= 0.0 && at("bottom") <= at("height"),
        "the Roll button is off screen: {seen}"
    );
    assert_eq!(
        seen["title"],
        format!("(Roll!) {}", title_before.as_str().unwrap()).as_str(),
        "{seen}"
    );
    assert_eq!(seen["buzzes"], 1, "{seen}");
    browser.screenshot(&phone, "a-roll-waits-at-the-bottom");
    // Tapped, the roll is answered and the page is quiet again.
    browser.eval(
        &phone,
        r##"document.querySelector("#rolls-waiting button").click()"##,
    );
    browser.wait_for(
        &phone,
        r#"document.getElementById("rolls-waiting").textContent.indexOf("Nothing waits") >= 0 && document.title.indexOf("(Roll!)") < 0"#,
        "the page quiet once the roll is answered",
    );
    assert_eq!(browser.eval(&phone, "window.buzzes.length"), 1);
}

/// #47, item 1: a player's page opens on their own character, within the first screen of a
/// phone: its pools in bars (health, magic points) and its sheet, above the rolls and the party;
/// a player of several gets a link to each. How the rolls stay fair is a tap away.
#[test]
fn c4_a_players_page_opens_on_their_character_within_the_first_screen() {
    let Some(chromium) = chromium_or_skip("c4_a_players_page_opens_on_their_character") else {
        return;
    };
    let c = Campaign::with_party();
    c.ok(&crate::support::VSD_TOM);
    c.ok(&["damage", "Mira", "3", "--reason", "a goblin's spear"]);
    let bea = link(&c, "Bea", "Mira");
    let linked = c.json(&[
        "player", "link", "Cal", "--plays", "Aldric", "--plays", "Tom",
    ]);
    let cal = linked["link"]
        .as_str()
        .expect("Cal's link")
        .trim_start_matches("http://127.0.0.1:8737")
        .to_string();
    let served = Served::start(&c);
    let mut browser = Browser::start(&chromium);
    for width in [360, 390] {
        let phone = browser.open(
            &format!("http://{}{bea}", served.address()),
            width,
            844,
            true,
        );
        // The whole page, not just its top: a loaded machine may have parsed Mira's part and
        // not yet the party below it.
        browser.wait_for(
            &phone,
            r#"document.readyState === "complete" && document.getElementById("you-mira") !== null && document.getElementById("party") !== null"#,
            "Mira's part of the page, and the party below it",
        );
        let seen = browser.eval(
            &phone,
            r##"(function () {
  var you = document.getElementById("you-mira").getBoundingClientRect();
  var party = document.getElementById("party").getBoundingClientRect();
  var health = document.querySelector("#you-mira label.pool");
  return { top: you.top, party: party.top, health: health ? health.textContent : null,
           meters: document.querySelectorAll("#you-mira meter").length,
           fair: document.querySelector("#rolls details summary").textContent,
           fairOpen: document.querySelector("#rolls details").open };
})()"##,
        );
        assert!(
            seen["top"].as_f64().unwrap() < 844.0 / 2.0,
            "Mira is not on the first screen at {width} px: {seen}"
        );
        assert!(
            seen["party"].as_f64().unwrap() > seen["top"].as_f64().unwrap(),
            "{seen}"
        );
        let health = c.json(&["character", "show", "Mira"])["character"]["health"].clone();
        assert_eq!(
            seen["health"],
            format!("Health {} of {}", health["current"], health["max"]).as_str(),
            "{seen}"
        );
        assert_eq!(seen["meters"], 2, "health and magic points: {seen}");
        assert_eq!(seen["fairOpen"], false, "{seen}");
        browser.screenshot(&phone, &format!("players-page-{width}"));
        browser.close(phone);
    }
    // A player of two characters gets a link to each.
    let page = served.get_path(&cal);
    assert!(
        page.body.contains(r##"<a href="#you-aldric">Aldric</a>"##)
            && page.body.contains(r##"<a href="#you-tom">Tom</a>"##),
        "{}",
        page.body
    );
}

/// A server keeps its hold on the campaign file however many of its stores read it: another
/// program's SQLite opening and closing the file while `serve` runs (the sqlite3 tool, a database
/// browser) must find it open, and leave its journal alone. Were the server's locks dropped (as
/// closing any descriptor of the file in its process drops them), that program would fold the
/// journal and delete it under the server, and a phone's answer acknowledged after it would be
/// lost.
#[test]
fn c5_an_answer_acknowledged_after_another_program_opened_the_file_is_in_the_log() {
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    c.ok(&[
        "roll",
        "d20",
        "--character",
        "Aldric",
        "--rolled-by",
        "Bea",
        "--no-wait",
    ]);
    let served = Served::start(&c);
    // The player's page is made by the server's second store, which reads the file by hand.
    assert_eq!(served.get_path(&bea).status, 200);
    assert_eq!(rolls_once(&served, &bea, 1)["waiting"][0]["request"], 1);
    // The server still holds SQLite's lock on the campaign file (Linux lists every process's
    // record locks, each with its file's inode).
    let inode = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&c.db).unwrap());
    let locks = std::fs::read_to_string("/proc/locks").expect("the kernel's list of locks");
    let held = locks.lines().any(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        fields.iter().any(|f| *f == served.pid().to_string())
            && fields
                .iter()
                .any(|f| f.rsplit(':').next() == Some(&inode.to_string()) && f.contains(':'))
    });
    assert!(
        held,
        "the server let go of its lock on the campaign file:\n{locks}"
    );
    let other = rusqlite::Connection::open(&c.db).expect("another program opens the file");
    let _: i64 = other
        .query_row("SELECT count(*) FROM events", [], |r| r.get(0))
        .expect("and reads it");
    drop(other);
    let wal = c.db.with_file_name(format!(
        "{}-wal",
        c.db.file_name().unwrap().to_string_lossy()
    ));
    assert!(wal.exists(), "the server's journal was deleted under it");
    let answered = answer(&served, &bea, 1, &"ef".repeat(32));
    assert_eq!(answered.status, 200, "{}", answered.body);
    assert!(
        c.ok(&["log", "--limit", "1"]).contains("Aldric rolled d20"),
        "the acknowledged answer is not in the log: {}",
        c.ok(&["log", "--limit", "3"])
    );
}

/// In `grimoire shell`, Ctrl-C while a line waits on a phone stops that wait and the shell goes
/// on; a kill (SIGTERM) stops the wait in the same words, and then ends the shell, as it would at
/// the prompt: the lines after it do not run.
#[test]
fn c5_a_kill_while_the_shell_waits_on_a_phone_ends_the_shell_after_saying_what_stays_open() {
    use std::io::Write;
    let c = Campaign::with_party();
    link(&c, "Bea", "Aldric");
    let mut shell = c.shell();
    shell
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"roll d20 --character Aldric --for the-lock --rolled-by Bea\nheal Aldric 1\nexit\n",
        )
        .unwrap();
    let (out, rest, _) = stopped_while_waiting(&c, shell, "-TERM");
    assert!(
        rest.contains("stopped waiting; request 1 stays put to Bea's phone"),
        "{rest}"
    );
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("heals"),
        "the line after the wait ran: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        rows(&c, "healed").is_empty(),
        "the shell went on after the kill"
    );
}

/// A command put to a phone is decided again by `verify` (C-5): the rules, run on the campaign as
/// it stood before the answer with the phone's dice, must record exactly what the log holds. The
/// GM's server sees the phone's bytes before it writes the command, so without this it could
/// slip in an event that spends the first die, write numbers the dice do not give, or record a
/// refusal the rules never made; the players' page, which does not run the rules, passed each
/// (the eighth hostile pass's reproductions, on a save that reads the cast it answers).
#[test]
fn c5_a_save_put_to_a_phone_is_decided_again_by_verify_and_a_die_the_server_chose_is_refused() {
    use grimoire::differential::{rechained, rows_of, text_of};
    let (c, cast, bea) = tom_under_miras_sleep();
    let served = Served::start(&c);
    c.ok(&[
        "save",
        "Tom",
        "--cast",
        &cast,
        "--rolled-by",
        "Bea",
        "--no-wait",
    ]);
    let answered = answer(&served, &bea, 1, &"3c".repeat(32));
    assert_eq!(answered.status, 200, "{}", answered.body);
    drop(served);
    let verified = c.json(&["verify"]);
    assert_eq!(verified["all_hold"], true, "{verified}");
    assert_eq!(verified["decided_again_problems"], serde_json::json!([]));
    let rows = rows_of(&c.ok(&["export"]));
    let at = rows
        .iter()
        .position(|r| r.kind == "roll_answered")
        .expect("the answer");
    let answer_seq = at as u64 + 1;
    let save = &rows[at + 1];
    let payload = |row: &grimoire::store::StoredRow| -> serde_json::Value {
        serde_json::from_str(&row.payload).unwrap()
    };
    // What verify names first among the commands decided again, and the page's scope untouched.
    let decided_again = |rows: Vec<grimoire::store::StoredRow>| {
        let report = grimoire::verify::export(&text_of(&rechained(rows)));
        assert_eq!(report.chain_break, None);
        let first = report.decided_again_problems.first().cloned();
        let first = first.expect("a command decided again that the log does not hold");
        (first.seq.get(), first.what)
    };
    // Its numbers not what its dice give: one more than the phone's roll, and its total with it.
    let mut raised = rows.clone();
    let mut more = payload(save);
    more["roll"] = (more["roll"].as_i64().unwrap() + 1).into();
    more["total"] = (more["total"].as_i64().unwrap() + 1).into();
    raised[at + 1].payload = more.to_string();
    let (seq, said) = decided_again(raised);
    assert_eq!(seq, answer_seq + 1, "{said}");
    assert!(said.contains("with other values"), "{said}");

    // Another Against the Darkmaster event slipped in after the answer, holding the phone's first
    // die, so that the save takes the second.
    let mut slipped = rows.clone();
    let mut cast_payload = payload(&rows[cast.parse::<usize>().unwrap() - 1]);
    let mut first_die = payload(save)["dice"][0].clone();
    cast_payload["dice"] = serde_json::json!([first_die.clone()]);
    let mut moved = payload(save);
    first_die["n"] = 1.into();
    first_die["value"] = derived_face(
        payload(&rows[at])["secret"].as_str().unwrap(),
        1,
        1,
        &"3c".repeat(32),
        first_die["sides"].as_u64().unwrap(),
    )
    .into();
    moved["dice"] = serde_json::json!([first_die]);
    slipped[at + 1].payload = moved.to_string();
    let mut inserted = rows[at + 1].clone();
    inserted.kind = cast_payload["kind"].as_str().unwrap().to_string();
    inserted.payload = cast_payload.to_string();
    slipped.insert(at + 1, inserted);
    for (k, row) in slipped.iter_mut().enumerate() {
        row.seq = grimoire::seq::Seq(k as u64 + 1);
    }
    let (seq, said) = decided_again(slipped);
    assert_eq!(seq, answer_seq + 1, "{said}");
    assert!(said.contains("record a 'save_rolled' here"), "{said}");

    // The refusal of a save the rules allow: the phone's die thrown away, the roll put again.
    let mut refused = rows[..=at].to_vec();
    let mut answer_payload = payload(&rows[at]);
    answer_payload["refused"] = "Tom is not under that spell".into();
    refused[at].payload = answer_payload.to_string();
    let (seq, said) = decided_again(refused);
    assert_eq!(seq, answer_seq, "{said}");
    assert!(
        said.contains("recorded as refused, yet the rules decide"),
        "{said}"
    );

    // The save recorded a second time after it, the phone's dice drawn again.
    let mut twice = rows[..=at + 1].to_vec();
    let mut again = save.clone();
    again.seq = grimoire::seq::Seq(at as u64 + 3);
    // Another event id: the save's with its last digit changed.
    let last = if save.event_id.ends_with('0') {
        "1"
    } else {
        "0"
    };
    again.event_id = format!("{}{last}", &save.event_id[..save.event_id.len() - 1]);
    twice.push(again);
    let (seq, said) = decided_again(twice);
    assert_eq!(seq, answer_seq + 2, "{said}");
    assert!(said.contains("do not draw there"), "{said}");

    // The cast it answers retracted while the save waited: the rules refuse the save then, and a
    // server that recorded it all the same wrote what the rules would not.
    let mut undone = rows.clone();
    let retraction = serde_json::json!({
        "kind": "retracted", "seq": cast.parse::<u64>().unwrap(), "reason": "a slip",
    });
    let mut retracted = rows[at].clone();
    retracted.kind = "retracted".into();
    retracted.payload = retraction.to_string();
    undone.insert(at, retracted);
    for (k, row) in undone.iter_mut().enumerate() {
        row.seq = grimoire::seq::Seq(k as u64 + 1);
    }
    let (seq, said) = decided_again(undone);
    assert_eq!(seq, answer_seq + 1, "{said}");
    assert!(
        said.contains("the rules refuse request 1's command"),
        "{said}"
    );
}

/// A Ceremony scroll read on a phone opens the GM's sealed check with the reading (C-5): `verify`
/// decides the reading again with the check as its reveal in the log publishes it, so the honest
/// log holds and the session ends (the ninth hostile pass found `session end` refused: the check
/// was taken for a secret verify could not read). Many answers, each followed by a retraction
/// that reaches back before it, hold too: each is decided on the campaign as it stood then.
#[test]
fn c5_a_ceremony_scroll_read_on_a_phone_and_answers_followed_by_retractions_verify() {
    let c = Campaign::with_a_ceremony_writer();
    let written = c.ok(&[
        "scroll",
        "write",
        "Wen",
        "Calling Moon",
        "--level",
        "1",
        "--effect",
        "summons fog",
    ]);
    assert!(written.contains("the GM's check is sealed"), "{written}");
    let scroll = written
        .lines()
        .find_map(|l| l.strip_prefix("The scroll is "))
        .expect("the scroll's id")
        .trim_end_matches('.')
        .to_string();
    c.ok(&["session", "start", "--entropy", "moths"]);
    let bea = link(&c, "Bea", "Wen");
    let served = Served::start(&c);
    c.ok(&[
        "scroll",
        "read",
        "Wen",
        &scroll,
        "--rolled-by",
        "Bea",
        "--no-wait",
    ]);
    let answered = answer(&served, &bea, 1, &"5a".repeat(32));
    assert_eq!(answered.status, 200, "{}", answered.body);
    assert_eq!(
        rows(&c, "sealed_revealed").len(),
        1,
        "the reading opened the check"
    );
    // The GM's server, holding the answer, records it as refused and never opens the check: with
    // no reveal anywhere, the reading cannot be decided again, and verify says so (the tenth pass).
    {
        use grimoire::differential::{rechained, rows_of, text_of};
        let exported = rows_of(&c.ok(&["export"]));
        let at = (exported.iter().position(|r| r.kind == "roll_answered")).expect("the answer");
        let mut forged = exported[..=at].to_vec();
        let mut refused: serde_json::Value = serde_json::from_str(&forged[at].payload).unwrap();
        refused["refused"] = "Wen is locked out of rituals until a night's rest".into();
        forged[at].payload = refused.to_string();
        let report = grimoire::verify::export(&text_of(&rechained(forged)));
        let said = &report.decided_again_problems[0].what;
        assert!(
            said.contains("never reveals") && said.contains("refusal is unchecked"),
            "{said}"
        );
    }
    // A damage recorded before each answer, and retracted after it.
    for request in 2..=6 {
        let damage = c.seq_of(&["damage", "Bryn", "1"]).to_string();
        c.ok(&[
            "roll",
            "d20",
            "--character",
            "Wen",
            "--rolled-by",
            "Bea",
            "--no-wait",
        ]);
        let bytes = format!("{request:02x}").repeat(32);
        let answered = answer(&served, &bea, request, &bytes);
        assert_eq!(answered.status, 200, "{}", answered.body);
        c.ok(&["retract", &damage, "--reason", "the wrong fighter"]);
    }
    drop(served);
    let verified = c.json(&["verify"]);
    assert_eq!(verified["all_hold"], true, "{verified}");
    assert_eq!(verified["decided_again_problems"], serde_json::json!([]));
    c.ok(&["session", "end"]);
}

/// What a phone's roll does is decided when its answer is recorded, and the GM may go on
/// recording while it waits; but a server that held the answer back saw its dice first, and could
/// record what turns them. `verify` names each answer whose dice would have done otherwise had
/// it come at once (C-5): here a cast the phone's die made a success, blocked by damage recorded
/// while it waited; a roll with nothing in between is not named.
#[test]
fn c5_an_answer_turned_by_events_recorded_while_it_waited_is_named_by_verify() {
    let c = Campaign::with_party();
    let learn = [
        "--rolls",
        "1,4",
        "ritual",
        "learn",
        "Aldric",
        "Concealing Darkness",
    ];
    c.ok(&[&learn[..], &["--type", "phrase", "--pay", "health"]].concat());
    c.ok(&["session", "start", "--entropy", "toads"]);
    c.ok(&["fight", "start"]);
    let bea = link(&c, "Bea", "Aldric");
    let served = Served::start(&c);
    let on_the_phone = ["--rolled-by", "Bea", "--no-wait"];
    c.ok(&[&["roll", "d20", "--character", "Aldric"][..], &on_the_phone].concat());
    let answered = answer(&served, &bea, 1, &"5a".repeat(32));
    assert_eq!(answered.status, 200, "{}", answered.body);
    let cast = ["ritual", "cast", "Aldric", "Concealing Darkness"];
    c.ok(&[&cast[..], &on_the_phone].concat());
    let secret: String = rusqlite::Connection::open(&c.db)
        .unwrap()
        .query_row(
            "SELECT value FROM secrets WHERE kind = 'request_secret' AND key = '2'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    // Bytes whose check die is a low success, as a held-back answer's dice would be seen.
    let (bytes, die) = (0u32..)
        .map(|k| format!("{k:064x}"))
        .map(|bytes| {
            let die = derived_face(&secret, 2, 0, &bytes, 20);
            (bytes, die)
        })
        .find(|&(_, die)| (2..=5).contains(&die))
        .unwrap();
    c.ok(&["damage", "Aldric", &die.to_string()]);
    let answered = answer(&served, &bea, 2, &bytes);
    assert_eq!(answered.status, 200, "{}", answered.body);
    drop(served);
    let turned = rows(&c, "roll_answered")[1]["seq"].clone();
    let verified = c.json(&["verify"]);
    assert_eq!(verified["all_hold"], true, "{verified}");
    assert_eq!(
        verified["answers_changed_while_waiting"],
        serde_json::json!([turned]),
        "{verified}"
    );
    let said = c.ok(&["verify"]);
    assert!(
        said.contains(&format!(
            "answered after events that changed them: #{turned}"
        )),
        "{said}"
    );
}

/// An answer is named as turned by what was recorded while it waited only when its dice would
/// have done otherwise; a cast's events that carry their own place in the log (a failed cast's
/// choice, left to its caster) are decided at the answer's place both ways. Another roll put to
/// the phone in between turned nothing, and nothing is named (the twelfth hostile pass found
/// such a cast named).
#[test]
fn c5_a_cast_leaving_a_choice_is_not_named_for_a_roll_put_while_it_waited() {
    let (c, _, _) = tom_under_miras_sleep();
    // Mira cast Sleep this round: the next one is hers to cast.
    c.ok(&["time", "advance", "1m"]);
    let cal = link(&c, "Cal", "Mira");
    let served = Served::start(&c);
    let on_the_phone = ["--rolled-by", "Cal", "--no-wait"];
    let cast = [
        "spell", "cast", "Mira", "Sleep", "--target", "Tom", "--mod", "-60",
    ];
    c.ok(&[&cast[..], &on_the_phone].concat());
    c.ok(&[&["roll", "d20", "--character", "Mira"][..], &on_the_phone].concat());
    let secret: String = rusqlite::Connection::open(&c.db)
        .unwrap()
        .query_row(
            "SELECT value FROM secrets WHERE kind = 'request_secret' AND key = '1'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    // Bytes whose casting roll is low, neither a fumble nor a double: a failure with a choice.
    let bytes = (0u32..)
        .map(|k| format!("{k:064x}"))
        .find(|bytes| [12, 13, 14, 15].contains(&derived_face(&secret, 1, 0, bytes, 100)))
        .unwrap();
    let answered = answer(&served, &cal, 1, &bytes);
    assert_eq!(answered.status, 200, "{}", answered.body);
    drop(served);
    let sheet = c.ok(&["character", "show", "Mira"]);
    assert!(
        sheet.contains("PENDING"),
        "the failed cast leaves Mira a choice: {sheet}"
    );
    let verified = c.json(&["verify"]);
    assert_eq!(verified["all_hold"], true, "{verified}");
    assert_eq!(
        verified["answers_changed_while_waiting"],
        serde_json::json!([]),
        "{verified}"
    );
}
