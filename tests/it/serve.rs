//! `grimoire serve`, met as the players meet it: the real binary listening on 127.0.0.1, asked
//! over plain HTTP and by headless Chromium at a phone's and a desktop's width.

use super::browser::{Browser, chromium_or_skip};
use super::support::Campaign;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// The longest the server may take to say anything on a loaded machine.
pub(super) const PATIENCE: Duration = Duration::from_secs(120);

/// A running `grimoire serve`, stopped when dropped.
pub(super) struct Served {
    child: Child,
    stdin: ChildStdin,
    said: Receiver<serde_json::Value>,
    /// The table's link, e.g. http://127.0.0.1:PORT/KEY/.
    pub(super) link: String,
}

impl Served {
    pub(super) fn start(c: &Campaign) -> Served {
        Served::start_with(c, &[])
    }

    /// The server's process id.
    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }

    pub(super) fn start_with(c: &Campaign, env: &[(&str, &str)]) -> Served {
        let mut grimoire = c.cmd();
        grimoire.envs(env.iter().copied());
        Served::start_as(grimoire)
    }

    /// Starts `grimoire` (its campaign named in its environment) serving.
    pub(super) fn start_as(mut grimoire: std::process::Command) -> Served {
        let mut child = grimoire
            .args(["serve", "--listen", "127.0.0.1:0", "--json"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve starts");
        let stdin = child.stdin.take().expect("its input");
        let stdout = child.stdout.take().expect("its output");
        let (tell, said) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let Ok(value) = serde_json::from_str(&line) else {
                    continue;
                };
                if tell.send(value).is_err() {
                    break;
                }
            }
        });
        let first: serde_json::Value = said.recv_timeout(PATIENCE).expect("serve prints its link");
        let link = first["link"].as_str().expect("a link").to_string();
        Served {
            child,
            stdin,
            said,
            link,
        }
    }

    /// The address (host:port) served.
    pub(super) fn address(&self) -> String {
        self.link
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap()
            .to_string()
    }

    /// The path of a page under the link, e.g. `log?limit=2`.
    pub(super) fn path(&self, page: &str) -> String {
        let key_path = &self.link["http://".len() + self.address().len()..];
        format!("{key_path}{page}")
    }

    /// A page under the link, e.g. `log?limit=2`.
    pub(super) fn get(&self, page: &str) -> Answer {
        self.get_path(&self.path(page))
    }

    /// Any path on the server, as it is written (`/`, another key, `..`).
    pub(super) fn get_path(&self, path: &str) -> Answer {
        self.ask(&format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.address()
        ))
    }

    /// Sends `raw` as it is and reads the whole answer.
    pub(super) fn ask(&self, raw: &str) -> Answer {
        let mut stream = TcpStream::connect(self.address()).expect("the server takes a connection");
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        stream
            .write_all(raw.as_bytes())
            .expect("the request is sent");
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        Answer::parse(&bytes)
    }

    /// Asks for a new link (Enter at the terminal); returns it.
    fn new_link(&mut self) -> String {
        self.stdin.write_all(b"\n").expect("Enter is pressed");
        self.stdin.flush().unwrap();
        let said = self
            .said
            .recv_timeout(PATIENCE)
            .expect("serve prints the new link");
        assert_eq!(said["new"], true, "{said}");
        self.link = said["link"].as_str().expect("a link").to_string();
        self.link.clone()
    }

    /// Opens the stream of updates.
    fn updates(&self) -> Updates {
        let mut stream = TcpStream::connect(self.address()).expect("the server takes a connection");
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            stream,
            "GET {} HTTP/1.1\r\nHost: {}\r\n\r\n",
            self.path("updates"),
            self.address()
        )
        .unwrap();
        Updates {
            reader: BufReader::new(stream),
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(super) struct Answer {
    pub(super) status: u16,
    pub(super) head: String,
    pub(super) body: String,
}

impl Answer {
    fn parse(bytes: &[u8]) -> Answer {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = match head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            true => dechunked(body),
            false => body.to_string(),
        };
        Answer {
            status,
            head: head.to_string(),
            body,
        }
    }

    pub(super) fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name)
                .then(|| value.trim().to_string())
        })
    }
}

fn dechunked(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// A stream of server-sent events, read event by event.
struct Updates {
    reader: BufReader<TcpStream>,
}

impl Updates {
    /// The next event's name and data (keep-alive comments skipped).
    fn next(&mut self) -> (String, String) {
        self.next_or_end().expect("the stream goes on")
    }

    /// The next event's name and data, or `None` once the server has closed the stream.
    fn next_or_end(&mut self) -> Option<(String, String)> {
        let (mut event, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            let read = match self.reader.read_line(&mut line) {
                Ok(read) => read,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => 0,
                Err(e) => panic!("the stream broke: {e}"),
            };
            if read == 0 {
                return None;
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if let Some(name) = line.strip_prefix("event: ") {
                event = name.to_string();
            } else if let Some(text) = line.strip_prefix("data: ") {
                data = text.to_string();
            } else if line.is_empty() && !event.is_empty() {
                return Some((event, data));
            }
        }
    }

    /// The next head announced.
    fn next_head(&mut self) -> String {
        loop {
            let (event, data) = self.next();
            if event == "head" {
                let data: serde_json::Value = serde_json::from_str(&data).expect("JSON");
                return data["mark"].as_str().expect("a mark").to_string();
            }
        }
    }
}

/// The head as the pages mark it (SEQ:HASH-PREFIX).
fn head_mark(c: &Campaign) -> String {
    let head = c.json(&["head"]);
    format!(
        "{}:{}",
        head["seq"],
        head["checkpoint"]
            .as_str()
            .expect("a checkpoint")
            .split(':')
            .nth(1)
            .expect("its hash")
    )
}

pub(super) fn an_evening() -> Campaign {
    let c = Campaign::with_party();
    c.ok(&["session", "start"]);
    c.ok(&["damage", "Aldric", "2", "--reason", "a ghoul's claw"]);
    c.ok(&[
        "--rolls",
        "14",
        "roll",
        "d20",
        "--for",
        "listening at the door",
    ]);
    c
}

/// The live page shows the campaign only under the table's link, every sheet as `character show`
/// prints it; anything else (no key, a wrong key, a path outside the app, a write) gets nothing,
/// and every answer tells the browser to keep the link to itself.
#[test]
fn serve_shows_the_party_under_its_link_and_nothing_anywhere_else() {
    let c = an_evening();
    let served = Served::start(&c);
    let page = served.get("");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("The Sunken Vault"), "{}", page.body);
    for name in ["Aldric", "Mira"] {
        let sheet = c.ok(&["character", "show", name]);
        for line in sheet.lines().skip(1) {
            let line = line
                .trim()
                .replace('&', "&amp;")
                .replace('"', "&quot;")
                .replace('\'', "&#39;");
            assert!(
                page.body.contains(&line),
                "{name}'s sheet line {line:?} is missing"
            );
        }
    }
    assert!(page.body.contains("listening at the door"));
    assert_eq!(
        page.header("referrer-policy").as_deref(),
        Some("no-referrer")
    );
    assert!(
        page.header("content-security-policy")
            .is_some_and(|policy| policy.contains("default-src 'none'")
                && policy.contains("connect-src 'self'")),
        "{}",
        page.head
    );
    let refused = served.get_path("/");
    assert_eq!(refused.status, 404);
    let mut refusals = vec![served.get_path("/favicon.ico")];
    let key = served.path("");
    let wrong_key = format!("/{}/", "0".repeat(32));
    for path in [
        wrong_key.clone(),
        format!("{wrong_key}export.jsonl"),
        format!("{key}../../etc/passwd"),
        format!("{key}%2e%2e/%2e%2e/etc/passwd"),
        format!("{key}secrets"),
        "/favicon.ico".to_string(),
    ] {
        let answer = served.get_path(&path);
        assert_eq!(answer.status, 404, "{path}: {}", answer.body);
        assert_eq!(
            answer.body, refused.body,
            "{path} is refused in other words"
        );
    }
    let before = c.head();
    for method in ["POST", "PUT", "DELETE"] {
        let answer = served.ask(&format!(
            "{method} {key} HTTP/1.1\r\nHost: {}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}",
            served.address()
        ));
        assert_eq!(answer.status, 405, "{method}: {}", answer.body);
        refusals.push(answer);
    }
    assert_eq!(c.head(), before, "a refused request changed the log");
    // Every answer carries the guarding headers: a page, and each refusal (a wrong path, a
    // method that sends something, an address too long).
    refusals.push(served.get(&format!("log?grep={}", "a".repeat(4000))));
    for answer in std::iter::once(&page).chain(&refusals) {
        for (name, value) in [
            ("cache-control", "no-store"),
            ("x-content-type-options", "nosniff"),
            ("referrer-policy", "no-referrer"),
            ("x-frame-options", "DENY"),
        ] {
            assert_eq!(
                answer.header(name).as_deref(),
                Some(value),
                "{name} on a {}: {}",
                answer.status,
                answer.head
            );
        }
        assert!(
            answer
                .header("content-security-policy")
                .is_some_and(|policy| policy.contains("frame-ancestors 'none'")),
            "{}",
            answer.head
        );
    }
}

/// Oversized and malformed requests are refused before any page is made.
#[test]
fn oversized_and_malformed_requests_are_refused() {
    let c = an_evening();
    let served = Served::start(&c);
    let long = served.get(&format!("log?grep={}", "a".repeat(4000)));
    assert_eq!(long.status, 414, "{}", long.body);
    let huge_header = served.ask(&format!(
        "GET {} HTTP/1.1\r\nHost: {}\r\nX-Junk: {}\r\nConnection: close\r\n\r\n",
        served.path(""),
        served.address(),
        "x".repeat(64 * 1024)
    ));
    assert!(
        huge_header.status == 431 || huge_header.status == 0,
        "a 64 KiB header was read: {}",
        huge_header.status
    );
    let garbage = served.ask("HELLO THERE\r\n\r\n");
    assert_eq!(garbage.status, 400, "{}", garbage.head);
    // The server still serves after all of that.
    assert_eq!(served.get("").status, 200);
}

/// The export served is the public log exactly as `grimoire export` writes it.
#[test]
fn the_served_export_is_the_public_log() {
    let c = an_evening();
    c.ok(&["roll", "d20", "--sealed", "--for", "the ambush"]);
    let served = Served::start(&c);
    let export = served.get("export.jsonl");
    assert_eq!(export.status, 200);
    assert_eq!(export.body, c.ok(&["export"]));
}

/// The log page takes `log`'s filters and lists the events `log --json` gives for them; a filter
/// `log` would refuse is refused on the page in grimoire's words.
#[test]
fn the_log_page_filters_as_log_does() {
    let c = an_evening();
    c.ok(&["heal", "Aldric", "1"]);
    let served = Served::start(&c);
    let page = served.get("log?character=Aldric&limit=2");
    assert_eq!(page.status, 200, "{}", page.body);
    let listed: Vec<u64> = c.json(&["log", "--character", "Aldric", "--limit", "2"])["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(listed.len(), 2);
    let shown = page.body.matches("<li id=\"e").count();
    assert_eq!(shown, 2, "{}", page.body);
    for seq in listed {
        assert!(
            page.body.contains(&format!("<li id=\"e{seq}\"")),
            "#{seq} is missing"
        );
    }
    // The kind is picked from a list in words (#47), and stays picked on the page it gives.
    let healed = served.get("log?kind=healed");
    assert_eq!(healed.status, 200, "{}", healed.body);
    assert!(
        healed
            .body
            .contains(r#"<option value="healed" selected>healed</option>"#)
            && healed
                .body
                .contains(r#"<option value="dice_rolled">dice rolled</option>"#)
            && !healed.body.contains(r#"name="kind" value"#),
        "{}",
        healed.body
    );
    assert_eq!(healed.body.matches("<li id=\"e").count(), 1);
    // A filter `log` would refuse, in grimoire's words; a point the log does not reach is the
    // filter's slip, not the server's trouble.
    for (query, says) in [
        ("log?character=Nobody", "Nobody"),
        ("log?session=two", "is not a session&#39;s number"),
        ("log?from=999", "#999 is not in the log"),
        ("log?secret=1", "not one of log&#39;s filters"),
        (
            "log?kind=dice_rolled&kind=healed",
            "&#39;kind&#39; is given more than once",
        ),
    ] {
        let refused = served.get(query);
        assert_eq!(refused.status, 400, "{query}: {}", refused.body);
        assert!(refused.body.contains(says), "{query}: {}", refused.body);
    }
}

/// A write from another terminal reaches the stream of updates, as the new head.
#[test]
fn a_write_reaches_the_stream_of_updates() {
    let c = an_evening();
    let served = Served::start(&c);
    let mut updates = served.updates();
    assert_eq!(updates.next_head(), head_mark(&c));
    c.ok(&["heal", "Aldric", "1"]);
    assert_eq!(updates.next_head(), head_mark(&c));
    let sheet = c.ok(&["character", "show", "Aldric"]);
    let health = sheet
        .lines()
        .find(|line| line.trim().starts_with("Health"))
        .expect("a health line")
        .trim();
    assert!(served.get("").body.contains(health), "{health}");
}

/// Enter makes a new link: the old one opens nothing at once (its stream of updates ends, told
/// so if it is quick enough, its connection closed either way), and the new one opens everything.
#[test]
fn a_new_link_closes_the_old_one_at_once() {
    let c = an_evening();
    let mut served = Served::start(&c);
    let mut old_updates = served.updates();
    old_updates.next_head();
    let old = served.path("");
    let new = served.new_link();
    assert_ne!(served.path(""), old, "{new}");
    assert!(
        old_updates
            .next_or_end()
            .is_none_or(|(event, _)| event == "closed"),
        "the old stream ends"
    );
    assert!(old_updates.next_or_end().is_none(), "and is closed");
    let refused = served.get_path(&old);
    assert_eq!(refused.status, 404);
    assert_eq!(served.get("").status, 200);
}

/// Two campaigns that differ only in their secrets (each epoch's seed, a sealed die not yet
/// revealed, and so every id, hash and key) serve the same bytes on every page once those are
/// blanked: nothing a page shows depends on a secret.
#[test]
fn pages_of_campaigns_differing_only_in_secrets_are_the_same() {
    let pages = [
        "",
        "log",
        "log?limit=3&kind=dice_rolled",
        "report",
        "export.jsonl",
    ];
    let mut seen: Vec<Vec<String>> = Vec::new();
    for (randomness, sealed) in [("1", "3"), ("2", "19")] {
        let c = Campaign::empty();
        let run = |args: &[&str]| {
            let out = c
                .cmd()
                .env("GRIMOIRE_RANDOMNESS_SEED", randomness)
                .arg("--json")
                .args(args)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let said: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            said["appended"][0]["seq"].as_u64().unwrap_or_default()
        };
        run(&["init", "--name", "Secrets"]);
        run(&super::support::ADG_ALDRIC);
        run(&["session", "start"]);
        let trap = run(&[
            "--rolls", "11", "roll", "d20", "--sealed", "--for", "the trap",
        ]);
        run(&["reveal", &trap.to_string()]);
        run(&[
            "--rolls",
            sealed,
            "roll",
            "d20",
            "--sealed",
            "--for",
            "the ambush",
        ]);
        run(&["--rolls", "9", "roll", "d20", "--for", "the door"]);
        let served = Served::start_with(&c, &[("GRIMOIRE_RANDOMNESS_SEED", randomness)]);
        let mut bodies: Vec<String> = pages
            .iter()
            .map(|page| {
                let answer = served.get(page);
                assert_eq!(answer.status, 200, "{page}: {}", answer.body);
                blanked(&answer.body)
            })
            .collect();
        bodies.push(blanked(&served.updates().next_head()));
        seen.push(bodies);
    }
    for (i, page) in pages.iter().chain(["updates"].iter()).enumerate() {
        if seen[0][i] != seen[1][i] {
            let (a, b) = (&seen[0][i], &seen[1][i]);
            let at = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
            panic!(
                "the page {page:?} differs with the secrets, from: {:?} / {:?}",
                a.chars()
                    .skip(at.saturating_sub(80))
                    .take(200)
                    .collect::<String>(),
                b.chars()
                    .skip(at.saturating_sub(80))
                    .take(200)
                    .collect::<String>()
            );
        }
    }
}

/// `text` with what differs by design between two campaigns blanked: hex of 16 digits or more
/// (hashes, commitments, nonces, keys), ids, and the time a report was written.
fn blanked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let run = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit() || **c == '-')
            .count();
        let hex = chars[i..i + run]
            .iter()
            .filter(|c| c.is_ascii_hexdigit())
            .count();
        if hex >= 16 {
            out.push_str("<HEX>");
            i += run;
        } else {
            out.extend(&chars[i..i + run.max(1)]);
            i += run.max(1);
        }
    }
    match out.find("Written by grimoire at ") {
        Some(at) => {
            let end = out[at..].find('<').map_or(out.len(), |e| at + e);
            out.replace_range(at..end, "Written by grimoire at <TIME>.");
            out
        }
        None => out,
    }
}

/// The live view in real Chromium, on a phone and a desktop: it fits each width with no sideways
/// scrolling, its check of the log holds, and a write from the terminal appears on both pages
/// without a reload. Screenshots of both are kept as artifacts.
#[test]
fn the_live_view_follows_a_write_on_a_phone_and_a_desktop() {
    let Some(chromium) = chromium_or_skip("the_live_view_follows_a_write_on_a_phone_and_a_desktop")
    else {
        return;
    };
    let c = an_evening();
    c.ok(&[
        "roll",
        "d20",
        "--for",
        "a-purpose-written-as-one-very-long-word-that-would-push-any-table-out-of-the-page",
    ]);
    let served = Served::start(&c);
    let mut browser = Browser::start(&chromium);
    let tabs = [
        ("phone", browser.open(&served.link, 400, 900, true), 400),
        (
            "desktop",
            browser.open(&served.link, 1280, 900, false),
            1280,
        ),
    ];
    for (name, tab, width) in &tabs {
        let verdict = browser.wait_for(
            tab,
            r#"document.getElementById("check-verdict").textContent.indexOf("Checking") < 0 && document.getElementById("check-verdict").textContent"#,
            "the check's verdict",
        );
        assert!(
            verdict.as_str().unwrap().starts_with("All checks hold"),
            "{name}: {verdict}"
        );
        let widths = browser.eval(
            tab,
            "[document.documentElement.scrollWidth, window.innerWidth]",
        );
        assert_eq!(widths[1], *width, "{name}: {widths}");
        assert!(
            widths[0].as_u64() <= widths[1].as_u64(),
            "the {name} scrolls sideways: {widths}"
        );
        browser.screenshot(tab, &format!("live-view-{name}"));
        // A mark that a reload would wipe.
        browser.eval(tab, "window.notReloaded = true");
    }
    c.ok(&["damage", "Aldric", "3", "--reason", "a falling portcullis"]);
    let mark = head_mark(&c);
    for (name, tab, _) in &tabs {
        browser.wait_for(
            tab,
            &format!("document.body.dataset.head === {mark:?}"),
            &format!("the new head {mark} on the {name}"),
        );
        let page = browser.eval(tab, "document.getElementById('live').textContent");
        assert!(
            page.as_str().unwrap().contains("a falling portcullis"),
            "{name}: {page}"
        );
        assert_eq!(
            browser.eval(tab, "window.notReloaded === true"),
            true,
            "{name} reloaded"
        );
        browser.wait_for(
            tab,
            &format!(
                r#"document.getElementById("check-verdict").textContent.indexOf("All checks hold: {} events") === 0"#,
                mark.split(':').next().unwrap()
            ),
            "the check run again on the longer log",
        );
    }
}

/// The shell's evening: a command typed into `grimoire shell` reaches the phones as one typed at
/// the command line does; `serve` typed into the shell is refused (it would stop the shell).
#[test]
fn what_the_shell_records_reaches_the_stream_of_updates() {
    let c = an_evening();
    let served = Served::start(&c);
    let mut updates = served.updates();
    updates.next_head();
    let mut shell = c.shell();
    shell
        .stdin
        .take()
        .unwrap()
        .write_all(b"serve\nheal Aldric 1\nexit\n")
        .unwrap();
    let out = shell.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("start it in another terminal"), "{said}");
    assert_eq!(updates.next_head(), head_mark(&c));
    assert!(c.ok(&["log", "--limit", "1"]).contains("Aldric heals 1"));
}

/// A campaign in PostgreSQL is served as a file is, and followed as it is written.
#[test]
fn a_campaign_on_postgres_is_served_and_followed() {
    let Some(database) = super::pg_cluster::database() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let url = database.url("Served");
    let grimoire = || super::support::grimoire_cmd(std::path::Path::new(&url), dir.path());
    let ok = |args: &[&str]| {
        let out = grimoire().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    ok(&["init", "--name", "Over the Wire"]);
    ok(&super::support::ADG_ALDRIC);
    let served = Served::start_as(grimoire());
    let page = served.get("");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Over the Wire") && page.body.contains("Aldric"));
    let mut updates = served.updates();
    let first = updates.next_head();
    ok(&["damage", "Aldric", "1", "--reason", "a splinter"]);
    let next = updates.next_head();
    assert_ne!(first, next);
    let head: serde_json::Value = serde_json::from_str(&ok(&["--json", "head"])).unwrap();
    assert_eq!(next.split(':').next().unwrap(), head["seq"].to_string());
    assert!(served.get("").body.contains("a splinter"));
}

/// Witnessing on the live view: a phone that saw the log remembers it, and when the GM then cuts
/// events from its end (straight in the file, under the running server), the open page says so at
/// once, naming where the log now ends short, without the player doing anything.
#[test]
fn a_phone_that_saw_the_log_says_at_once_when_events_are_cut_from_it() {
    let Some(chromium) =
        chromium_or_skip("a_phone_that_saw_the_log_says_at_once_when_events_are_cut_from_it")
    else {
        return;
    };
    let c = an_evening();
    c.ok(&["heal", "Aldric", "1"]);
    let served = Served::start(&c);
    let mut browser = Browser::start(&chromium);
    let tab = browser.open(&served.link, 400, 900, true);
    browser.wait_for(
        &tab,
        r#"document.getElementById("check-witness").textContent.indexOf("has not seen this campaign before") >= 0"#,
        "the browser remembering the log",
    );
    let head: u64 = head_mark(&c).split(':').next().unwrap().parse().unwrap();
    let sql = c.sql();
    let triggers: Vec<String> = sql
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for trigger in triggers {
        sql.execute_batch(&format!("DROP TRIGGER \"{trigger}\""))
            .unwrap();
    }
    sql.execute_batch("DELETE FROM snapshots").unwrap();
    sql.execute("DELETE FROM events WHERE seq = ?1", [head])
        .unwrap();
    drop(sql);
    let said = browser.wait_for(
        &tab,
        r#"document.getElementById("check-witness").textContent.indexOf("WARNING") === 0 && document.getElementById("check-witness").textContent"#,
        "the warning that events were cut",
    );
    let said = said.as_str().unwrap();
    assert!(
        said.contains(&format!("up to #{head}"))
            && said.contains("events were dropped from its end"),
        "{said}"
    );
}

/// ADG-S4: a Ceremony scroll's sealed check waits on the table's page as what it is: opened by the
/// scroll's reading, not by `grimoire reveal`, which refuses it.
#[test]
fn adg_s4_the_live_view_says_a_ceremony_check_opens_with_its_reading() {
    let c = Campaign::with_a_ceremony_writer();
    let scroll = c.seq_of(&crate::support::WRITE_CEREMONY);
    let served = Served::start(&c);
    let page = served.get("").body;
    let start = page.find(r#"<section id="waiting">"#).expect("the section");
    let end = start + page[start..].find("</section>").unwrap();
    let waiting = &page[start..end];
    assert!(
        waiting.contains(&format!(
            "1 die sealed at #{scroll}; #{scroll} is a Ceremony scroll, and its sealed check is opened when the scroll is read, not before"
        )),
        "{waiting}"
    );
    assert!(!waiting.contains("grimoire reveal"), "{waiting}");
}

/// "Waiting on" gathers what the table owes: a sealed die to reveal (never its value) and a save
/// still to roll against a spell cast on a character; each goes once it is answered.
#[test]
fn the_live_view_lists_what_waits_on_the_table_until_it_is_answered() {
    let c = an_evening();
    c.ok(&super::support::LEARN_SLEEP);
    let cast = c.seq_of(&[
        "--rolls", "50", "spell", "cast", "Mira", "Sleep", "--target", "Aldric",
    ]);
    let sealed = c.seq_of(&[
        "--rolls",
        "17",
        "roll",
        "d20",
        "--sealed",
        "--for",
        "the ambush",
    ]);
    let served = Served::start(&c);
    let waiting = |page: &str| {
        let start = page.find(r#"<section id="waiting">"#).expect("the section");
        let end = start + page[start..].find("</section>").unwrap();
        page[start..end].to_string()
    };
    let before = waiting(&served.get("").body);
    assert!(
        before.contains(&format!("1 die sealed at #{sealed}, to be revealed")),
        "{before}"
    );
    assert!(!before.contains("17"), "a sealed value is shown: {before}");
    assert!(
        before.contains(&format!(
            "Aldric: a save against the spell cast at #{cast} is still to roll — `grimoire save Aldric --cast {cast}`"
        )),
        "{before}"
    );
    let mut updates = served.updates();
    updates.next_head();
    c.ok(&["reveal", &sealed.to_string()]);
    updates.next_head();
    c.ok(&[
        "--rolls",
        "90",
        "save",
        "Aldric",
        "--cast",
        &cast.to_string(),
        "--wsr",
        "10",
    ]);
    updates.next_head();
    let after = waiting(&served.get("").body);
    assert!(
        after.contains("Nothing waits on a choice, a spell or a reveal."),
        "{after}"
    );
}

/// The printed link names only a host: anything that could break the link, or the terminal it is
/// printed on, is refused before anything listens; so is an address already taken.
#[test]
fn a_link_host_that_is_not_a_host_and_a_taken_address_are_refused() {
    let c = an_evening();
    for host in [
        "evil\u{1b}]0;owned\u{7}",
        "a b",
        "host/path",
        "",
        "[not-v6]",
    ] {
        let err = c.refused(&["serve", "--link-host", host], 2);
        assert!(
            err.contains("give a host name or address"),
            "{host:?}: {err}"
        );
    }
    // Listening on every address, the link must name a host phones reach.
    let err = c.refused(&["serve", "--listen", "0.0.0.0:0"], 2);
    assert!(err.contains("add --link-host"), "{err}");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let err = c.refused(&["serve", "--listen", &address], 2);
    assert!(
        err.contains(&format!(
            "cannot listen on {address}: another program listens there already"
        )),
        "{err}"
    );
}

/// A file moved into the campaign's place while it is served (a restored backup) is served from
/// then on, its writes followed: not read through the old file's connection as if damaged.
#[test]
fn a_file_put_in_the_campaigns_place_is_served_from_then_on() {
    let c = an_evening();
    let served = Served::start(&c);
    let mut updates = served.updates();
    updates.next_head();
    // A campaign of another shape, so that no page of the old file could pass for one of it.
    let other = Campaign::empty();
    other.ok(&["dev", "generate", "--characters", "3", "--events", "400"]);
    let name = "A generated West-Marches campaign";
    let moved = c.dir.path().join("moved-in.db");
    std::fs::copy(&other.db, &moved).unwrap();
    std::fs::rename(&moved, &c.db).unwrap();
    let someone = c.json(&["character", "list"])["characters"][0]["name"]
        .as_str()
        .unwrap()
        .to_string();
    c.ok(&["damage", &someone, "1", "--reason", "after the restore"]);
    // The moved-in file's own head may be announced first, if serve looked between the move and
    // the damage; the damage's head comes (each read waits at most our patience).
    let wanted = head_mark(&c);
    while updates.next_head() != wanted {}
    let page = served.get("");
    assert!(
        page.body.contains(name) && page.body.contains("after the restore"),
        "{name}: {}",
        page.body
    );
    assert_eq!(served.get("log").status, 200);
}

/// T-1: the pages read the clock as the terminal does: in a fight with its round beside it, on
/// the page's clock and on each of its events in the log; after it, to the minute.
#[test]
fn t1_the_pages_read_the_clock_with_the_fights_round_as_the_terminal_does() {
    let c = an_evening();
    c.ok(&["fight", "start", "at the gate"]);
    let struck = c.seq_of(&["damage", "Aldric", "1", "--reason", "a spear"]);
    c.ok(&["next"]);
    let served = Served::start(&c);
    let during = served.get("").body;
    assert!(
        during.contains("Day 1, 00:00, round 2 of the fight at the gate"),
        "{during}"
    );
    c.ok(&["fight", "end"]);
    let after = c.seq_of(&["heal", "Aldric", "1"]);
    let log = served.get("log").body;
    let line = |seq: u64| {
        let from = log.find(&format!("<li id=\"e{seq}\"")).expect("its line");
        log[from..from + log[from..].find("</li>").expect("its end")].to_string()
    };
    assert!(
        line(struck).contains("Day 1, 00:00, round 1 of the fight at the gate"),
        "{}",
        line(struck)
    );
    assert!(!line(after).contains("round"), "{}", line(after));
    let table = served.get("").body;
    assert!(!table.contains("round 3 of the fight"), "{table}");
}

/// #47, item 4: every line of the newest events, newest first, links to its explanation, and the
/// explanation of a seeded roll, worked out by the page's own check from the public log, shows
/// what `grimoire explain` shows of it: its face and purpose, who recorded it and when, and how
/// it is derived (its epoch, its roll, the entropy it had, none here, and the message hashed).
#[test]
fn a_phone_explains_a_seeded_roll_from_its_log_line_with_its_face_and_purpose() {
    let Some(chromium) = chromium_or_skip("a_phone_explains_a_seeded_roll_from_its_log_line")
    else {
        return;
    };
    let c = an_evening();
    let sealed = c.seq_of(&["roll", "d20", "--sealed", "--for", "the trapdoor"]);
    let seq = c.seq_of(&["roll", "d20", "--for", "the ambush at the ford"]);
    c.ok(&["reveal", &sealed.to_string()]);
    c.ok(&["heal", "Aldric", "1"]);
    let die = &c.json(&["log", "--limit", "3"])["events"][0]["payload"]["dice"][0];
    let face = die["value"].as_u64().expect("a seeded face");
    let explained = c.ok(&["explain", &seq.to_string()]);
    let message = explained
        .lines()
        .find_map(|l| l.split_once("HMAC-SHA256(seed, \"").map(|(_, m)| m))
        .and_then(|m| m.split('"').next())
        .expect("explain's message")
        .to_string();
    let served = Served::start(&c);
    let mut browser = Browser::start(&chromium);
    let tab = browser.open(&served.link, 390, 844, true);
    browser.wait_for(
        &tab,
        r##"document.querySelector("#latest a.explain") !== null"##,
        "the newest events' explain links",
    );
    let order = browser.eval(
        &tab,
        r##"Array.from(document.querySelectorAll("#latest ol.log li")).map(function (li) { return Number(li.id.slice(1)); })"##,
    );
    let order: Vec<u64> = order
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert!(
        order.windows(2).all(|w| w[0] > w[1]),
        "newest first: {order:?}"
    );
    // The roll's line links to its explanation, which the page works out itself.
    let href = browser.eval(
        &tab,
        &format!(r##"document.querySelector("#e{seq} a.explain").getAttribute("href")"##),
    );
    assert_eq!(href, format!("./?explain={seq}#check").as_str());
    // Followed (in a tab of its own, so no question is put to a page while it navigates).
    let followed = browser.eval(
        &tab,
        &format!(r##"document.querySelector("#e{seq} a.explain").href"##),
    );
    browser.close(tab);
    let tab = browser.open(followed.as_str().expect("the link"), 390, 844, true);
    let said = browser.wait_for(
        &tab,
        r#"document.getElementById("check-explained").textContent"#,
        "the roll explained",
    );
    let said = said.as_str().unwrap();
    for part in [
        format!("#{seq} (dice_rolled) rolled 1 die:"),
        format!("a d20 for \"the ambush at the ford (d20)\", shows {face}"),
        "in session 1".to_string(),
        "roll 1 of the epoch, with no player entropy".to_string(),
        format!("HMAC-SHA256(seed, \"{message}\")"),
        "not published yet".to_string(),
    ] {
        assert!(said.contains(&part), "{part:?} is missing from:\n{said}");
    }
    browser.screenshot(&tab, "explained-on-a-phone");
    // A sealed die grimoire rolled from the epoch's seed, revealed, is said as sealed and
    // opened, with no seeded die's derivation (its own waits for its epoch's seed).
    browser.close(tab);
    let tab = browser.open(
        &format!("{}?explain={sealed}#check", served.link),
        390,
        844,
        true,
    );
    let said = browser.wait_for(
        &tab,
        r#"document.getElementById("check-explained").textContent"#,
        "the sealed roll explained",
    );
    let said = said.as_str().unwrap();
    assert!(
        said.contains("which opens its commitment") && !said.contains("HMAC"),
        "{said}"
    );
}
