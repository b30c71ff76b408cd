//! Players' dice against a GM's server changed to cheat (C-5): a proxy stands in front of the real
//! `grimoire serve` as a modified server would, serving the honest page to a phone in headless
//! Chromium while it holds the phone's answers, shows it commitments the log never holds, and
//! shows it a request again; the phone flags each, by request number, and keeps its flags across a
//! reload. Beside it, the table stays up whatever one link, or none, throws at the server.

use super::browser::{Browser, chromium_or_skip};
use super::players_dice::link;
use super::serve::{PATIENCE, Served};
use super::support::Campaign;
use grimoire::event::SCHEMA_VERSION;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the cheating server does to the phone's traffic.
#[derive(Default)]
struct Tricks {
    /// Answers to this request are held back: the phone is told 409, the server never sees them.
    hold: Option<u32>,
    /// This request is shown to the phone with this commitment instead of the one logged.
    fake_commitment: Option<(u32, String)>,
    /// This request is shown to the phone as waiting again, with this commitment.
    show_again: Option<(u32, String)>,
    /// This request is shown without the command it completes.
    strip_asked: Option<u32>,
    /// This request is shown as the GM's roll to witness, whatever it is.
    show_witnessed: Option<u32>,
    /// The public log is answered with a page of trouble instead.
    export_trouble: bool,
    /// A choice sent with the first pick is passed on with the second instead.
    rewrite_pick: Option<(&'static str, &'static str)>,
    /// A recorded choice is said to the phone as recorded at this event instead.
    said_at: Option<u64>,
    /// This many of the next asks for the player's page or its rolls are answered as a busy
    /// server answers them: a 503 page, whose `main` is the live view's.
    busy: u32,
    /// Every request the phone was shown, as it was shown.
    shown: Vec<serde_json::Value>,
    /// Every answer the phone sent: (request, bytes, whether it was passed on).
    answers: Vec<(u32, String, bool)>,
}

/// The cheating server: every request is passed on to the honest one with its Host and Origin
/// rewritten (a modified server answers as it likes), but for what [`Tricks`] says.
struct Proxy {
    address: String,
    tricks: Arc<Mutex<Tricks>>,
}

impl Proxy {
    fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("the proxy listens");
        let address = listener.local_addr().unwrap().to_string();
        let tricks = Arc::new(Mutex::new(Tricks::default()));
        let shared = Arc::clone(&tricks);
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let (upstream, tricks) = (upstream.clone(), Arc::clone(&shared));
                std::thread::spawn(move || {
                    let _ = pass_on(client, &upstream, &tricks);
                });
            }
        });
        Proxy { address, tricks }
    }

    fn tricks(&self) -> std::sync::MutexGuard<'_, Tricks> {
        self.tricks.lock().unwrap()
    }

    /// Waits until `holds` holds of the tricks' record.
    fn wait_until(&self, what: &str, holds: impl Fn(&Tricks) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !holds(&self.tricks()) {
            assert!(Instant::now() < deadline, "the proxy never saw {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// One request from the phone, read whole: its head and body.
fn read_request(client: &mut BufReader<TcpStream>) -> std::io::Result<(String, Vec<u8>)> {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if client.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let length = header(&head, "content-length")
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    client.read_exact(&mut body)?;
    Ok((head, body))
}

fn header(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name)
            .then(|| value.trim().to_string())
    })
}

fn pass_on(client: TcpStream, upstream: &str, tricks: &Mutex<Tricks>) -> std::io::Result<()> {
    client.set_read_timeout(Some(PATIENCE))?;
    let mut reader = BufReader::new(client.try_clone()?);
    let mut client = client;
    let (head, mut body) = read_request(&mut reader)?;
    let mut words = head.split_whitespace();
    let (method, path) = (
        words.next().unwrap_or_default().to_string(),
        words.next().unwrap_or_default().to_string(),
    );
    if method == "POST" && path.ends_with("/answer") {
        let form: Vec<(String, String)> = form_urlencoded::parse(&body).into_owned().collect();
        let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let request: u32 = field("request").and_then(|r| r.parse().ok()).unwrap_or(0);
        let bytes = field("contribution").unwrap_or_default();
        let mut t = tricks.lock().unwrap();
        let held = t.hold == Some(request);
        t.answers.push((request, bytes, !held));
        if held {
            let said = r#"{"refused":"the GM's side is busy"}"#;
            return write!(
                client,
                "HTTP/1.1 409 Conflict\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{said}",
                said.len()
            );
        }
    }
    if method == "POST"
        && path.ends_with("/choose")
        && let Some((made, recorded)) = tricks.lock().unwrap().rewrite_pick
    {
        let form = String::from_utf8_lossy(&body).into_owned();
        body = form
            .replace(&format!("pick={made}"), &format!("pick={recorded}"))
            .into_bytes();
    }
    // The head as the honest server expects it: its own Host and Origin, the body's length as
    // passed on, one request per connection.
    let mut passed = String::new();
    for line in head.lines() {
        let name = line
            .split(':')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match name.as_str() {
            "host" => passed.push_str(&format!("Host: {upstream}\r\n")),
            "origin" => passed.push_str(&format!("Origin: http://{upstream}\r\n")),
            "content-length" => passed.push_str(&format!("Content-Length: {}\r\n", body.len())),
            "connection" => {}
            _ => passed.push_str(&format!("{line}\r\n")),
        }
    }
    passed.push_str("Connection: close\r\n\r\n");
    let mut server = TcpStream::connect(upstream)?;
    server.write_all(passed.as_bytes())?;
    server.write_all(&body)?;
    if path.ends_with("/export.jsonl") && tricks.lock().unwrap().export_trouble {
        let page = "<p>The campaign is busy.</p>";
        return write!(
            client,
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
            page.len()
        );
    }
    {
        let mut t = tricks.lock().unwrap();
        if t.busy > 0 && (path.ends_with('/') || path.ends_with("/rolls")) {
            t.busy -= 1;
            let page = r#"<main id="live"><p class="flagged">The campaign is busy.</p></main>"#;
            return write!(
                client,
                "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
        }
    }
    let said_at = tricks.lock().unwrap().said_at;
    if let Some(at) = said_at.filter(|_| path.ends_with("/choose")) {
        let mut answer = Vec::new();
        server.read_to_end(&mut answer)?;
        let text = String::from_utf8_lossy(&answer).into_owned();
        let (answer_head, answer_body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let mut said: serde_json::Value = serde_json::from_str(answer_body).expect("JSON");
        if let Some(first) = said["said"][0].as_str() {
            let (_, words) = first.split_once(' ').unwrap_or_default();
            said["said"][0] = format!("#{at} {words}").into();
        }
        let body = said.to_string();
        let status = answer_head.lines().next().unwrap_or("HTTP/1.1 200 OK");
        return write!(
            client,
            "{status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
    }
    if !path.ends_with("/rolls") {
        // Pages and the stream of updates pass as they are, until either side closes.
        std::io::copy(&mut server, &mut client)?;
        return Ok(());
    }
    let mut answer = Vec::new();
    server.read_to_end(&mut answer)?;
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (answer_head, answer_body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut rolls: serde_json::Value =
        serde_json::from_str(answer_body).unwrap_or(serde_json::json!({ "waiting": [] }));
    {
        let mut t = tricks.lock().unwrap();
        let waiting = rolls["waiting"].as_array_mut().expect("a list");
        for entry in waiting.iter_mut() {
            if let Some((request, commitment)) = &t.fake_commitment
                && entry["request"] == *request
            {
                entry["commitment"] = commitment.clone().into();
            }
            if t.strip_asked.is_some_and(|r| entry["request"] == r)
                && let Some(fields) = entry.as_object_mut()
            {
                fields.remove("asked");
            }
            if t.show_witnessed.is_some_and(|r| entry["request"] == r) {
                entry["witnessed"] = true.into();
            }
        }
        if let Some((request, commitment)) = t.show_again.clone()
            && let Some(seen) = t.shown.iter().find(|s| s["request"] == request).cloned()
        {
            let mut again = seen;
            again["commitment"] = commitment.into();
            waiting.push(again);
        }
        for entry in waiting.iter() {
            if !t.shown.iter().any(|s| s["request"] == entry["request"]) {
                t.shown.push(entry.clone());
            }
        }
    }
    let body = rolls.to_string();
    let status = answer_head.lines().next().unwrap_or("HTTP/1.1 200 OK");
    write!(
        client,
        "{status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// The flags the phone shows at the top of its page, as text.
fn flags(browser: &mut Browser, phone: &super::browser::Tab) -> String {
    browser
        .eval(
            phone,
            r#"document.getElementById("rolls-flags").textContent"#,
        )
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The phone's flags once it has looked at its rolls and the log again and raised one holding
/// `words`.
fn flagged(browser: &mut Browser, phone: &super::browser::Tab, words: &str) -> String {
    browser.eval(phone, "window.grimoireRolls()");
    browser.wait_for(
        phone,
        &format!(
            r#"document.getElementById("rolls-flags").textContent.indexOf({}) >= 0"#,
            serde_json::json!(words)
        ),
        &format!("a flag saying {words}"),
    );
    flags(browser, phone)
}

/// Bea's phone (she plays Aldric) at 390 px, reaching the real server only through the proxy,
/// its page loaded whole: the campaign, the server (held for the test's length), the proxy, the
/// browser and the page.
fn phone_behind_a_proxy(
    chromium: &std::path::Path,
) -> (Campaign, Served, Proxy, Browser, super::browser::Tab) {
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    let (served, proxy, browser, phone) = behind_a_proxy(chromium, &c, &bea);
    (c, served, proxy, browser, phone)
}

/// The phone that opens `link` at 390 px, reaching the real server on `c` only through the
/// proxy, its page loaded whole.
fn behind_a_proxy(
    chromium: &std::path::Path,
    c: &Campaign,
    link: &str,
) -> (Served, Proxy, Browser, super::browser::Tab) {
    let served = Served::start(c);
    let proxy = Proxy::start(served.address());
    let mut browser = Browser::start(chromium);
    let phone = browser.open(&format!("http://{}{link}", proxy.address), 390, 844, true);
    browser.wait_for(
        &phone,
        r#"document.readyState === "complete" && document.getElementById("rolls") !== null && document.getElementById("party") !== null && document.body.dataset.head !== undefined"#,
        "the player's page",
    );
    (served, proxy, browser, phone)
}

/// The three ways a modified server chose a witnessed die before: each is flagged on the phone by
/// its request's number, the flags survive a reload, and the log marks the roll put again.
#[test]
fn c5_a_server_changed_to_cheat_that_holds_fakes_or_repeats_a_request_is_flagged_on_the_phone() {
    let Some(chromium) = chromium_or_skip(
        "c5_a_server_changed_to_cheat_that_holds_fakes_or_repeats_a_request_is_flagged_on_the_phone",
    ) else {
        return;
    };
    let (c, _served, proxy, mut browser, phone) = phone_behind_a_proxy(&chromium);
    let witnessed = |purpose: &str| {
        c.ok(&[
            "roll",
            "d6",
            "--for",
            purpose,
            "--witnessed-by",
            "Bea",
            "--no-wait",
        ]);
    };
    let answered = |request: u32| {
        let deadline = Instant::now() + PATIENCE;
        while !c
            .ok(&["export"])
            .contains(&format!(r#""kind":"roll_answered","schema_version":{SCHEMA_VERSION},"payload":{{"kind":"roll_answered","request":{request}"#))
        {
            assert!(Instant::now() < deadline, "request {request} was never answered");
            std::thread::sleep(Duration::from_millis(100));
        }
    };

    // (a) The phone's answer to request 1 is held back; the GM withdraws it and puts the roll
    // again, which the phone answers by itself, unseen by the player.
    proxy.tricks().hold = Some(1);
    witnessed("the ambush");
    proxy.wait_until("the answer to request 1", |t| {
        t.answers.iter().any(|(r, _, _)| *r == 1)
    });
    c.ok(&["player", "withdraw", "1"]);
    proxy.tricks().hold = None;
    witnessed("the ambush");
    answered(2);
    let raised = flagged(&mut browser, &phone, "Request 1 (#");
    assert!(raised.contains("withdrew"), "{raised}");
    // The roll put again is marked wherever the log is read, computed from the log.
    let log = c.ok(&["log"]);
    assert!(
        log.contains("[put again after request 1 was withdrawn or refused]"),
        "{log}"
    );
    let audit = c.ok(&["audit", "dice"]);
    assert!(audit.contains("Bea 1"), "{audit}");
    assert!(audit.contains("after request 1"), "{audit}");
    let verified = c.json(&["verify"]);
    assert_eq!(verified["rolls_put_again"], 1, "{verified}");
    // On the page too: its newest events, and its own check of the public log, which computes
    // the mark from the log rather than reading it there.
    browser.wait_for(
        &phone,
        r#"document.getElementById("live").textContent.indexOf("[put again after request 1 was withdrawn or refused]") >= 0"#,
        "the mark among the newest events",
    );
    browser.wait_for(
        &phone,
        r#"JSON.parse(document.getElementById("check-result").textContent).rolls_put_again === 1"#,
        "the page's own check counting the roll put again",
    );

    // (b) Request 3 is shown with a commitment the log never holds.
    proxy.tricks().fake_commitment = Some((3, "ab".repeat(32)));
    witnessed("the trap");
    answered(3);
    let raised = flagged(&mut browser, &phone, "Request 3 (#");
    assert!(raised.contains("another commitment"), "{raised}");

    // A trouble page in the log's place is no log lacking every request: it is said, not flagged.
    proxy.tricks().export_trouble = true;
    browser.eval(&phone, "window.grimoireRolls()");
    browser.wait_for(
        &phone,
        r#"document.getElementById("rolls-receipts").textContent.indexOf("could not be fetched") >= 0"#,
        "the log not fetched, said",
    );
    assert!(
        !flags(&mut browser, &phone).contains("does not hold the request"),
        "no request is flagged missing from a page that is not the log"
    );
    proxy.tricks().export_trouble = false;

    // (c) Request 3, answered, is shown again under yet another commitment, to draw other bytes.
    proxy.tricks().fake_commitment = None;
    proxy.tricks().show_again = Some((3, "cd".repeat(32)));
    flagged(
        &mut browser,
        &phone,
        "Request 3 was shown to this phone again",
    );
    proxy.tricks().show_again = None;

    // (d) Request 4 is shown without its command, which the phone could never check later.
    proxy.tricks().strip_asked = Some(4);
    witnessed("the bridge");
    flagged(
        &mut browser,
        &phone,
        "Request 4 was shown to this phone without its command",
    );
    assert!(
        !proxy.tricks().answers.iter().any(|(r, _, _)| *r == 4),
        "it was not answered"
    );
    proxy.tricks().strip_asked = None;
    c.ok(&["player", "withdraw", "4"]);

    // (e) Bea's own roll, request 5, is shown as the GM's to witness, so the page answers it with
    // no tap: the log records it as hers.
    proxy.tricks().show_witnessed = Some(5);
    c.ok(&[
        "roll",
        "d20",
        "--character",
        "Aldric",
        "--for",
        "the climb",
        "--rolled-by",
        "Bea",
        "--no-wait",
    ]);
    answered(5);
    let raised = flagged(&mut browser, &phone, "Request 5 (#");
    assert!(raised.contains("as the GM's roll to witness"), "{raised}");
    proxy.tricks().show_witnessed = None;

    let sent: Vec<String> = proxy
        .tricks()
        .answers
        .iter()
        .filter(|(r, _, _)| *r == 3)
        .map(|(_, bytes, _)| bytes.clone())
        .collect();
    assert!(
        sent.windows(2).all(|pair| pair[0] == pair[1]),
        "the phone never answers a request with other bytes: {sent:?}"
    );
    browser.screenshot(&phone, "players-hold-flags");

    // The flags stay across a reload, until the player dismisses one. The mark set before the
    // reload tells the reloaded page from the old one, whose flags are still up until it goes.
    let expected = ["Request 1 (#", "Request 3 (#", "Request 3 was shown"];
    browser.eval(&phone, "window.beforeReload = true; location.reload()");
    browser.wait_for(
        &phone,
        &format!(
            r#"window.beforeReload === undefined && document.getElementById("rolls-flags") !== null && !document.getElementById("rolls-flags").hidden && {}.every(function (w) {{ return document.getElementById("rolls-flags").textContent.indexOf(w) >= 0; }})"#,
            serde_json::json!(expected)
        ),
        "the flags after a reload",
    );
    let kept = flags(&mut browser, &phone);
    for request in expected {
        assert!(kept.contains(request), "{request} lost on reload: {kept}");
    }
    assert!(
        browser
            .eval(&phone, "document.title")
            .as_str()
            .unwrap_or_default()
            .starts_with("(!)"),
        "the title says so"
    );
    browser.eval(
        &phone,
        r#"document.querySelector('#rolls-flags [data-flag^="withdrawn:1"] button').click()"#,
    );
    browser.eval(&phone, "window.beforeReload = true; location.reload()");
    browser.wait_for(
        &phone,
        r#"window.beforeReload === undefined && document.getElementById("rolls-flags") !== null && document.getElementById("rolls-flags").textContent.indexOf("Request 3 (#") >= 0"#,
        "the other flags after a reload",
    );
    assert!(
        !flags(&mut browser, &phone).contains("Request 1 (#"),
        "a dismissed flag stays dismissed"
    );
    // The honest log verifies throughout: only the phone could see what the server did.
    assert_eq!(c.json(&["verify"])["dice_problems"], serde_json::json!([]));
}

/// Opens `path` on `address` and reads the head of the answer (a stream stays open).
fn open_stream(address: &str, path: &str) -> Option<TcpStream> {
    let mut stream = TcpStream::connect(address).ok()?;
    stream.set_read_timeout(Some(PATIENCE)).ok()?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n").ok()?;
    Some(stream)
}

/// Whether the server closed `stream` (it reads to its end within our patience).
fn closed_by_the_server(stream: &mut TcpStream) -> bool {
    let mut sink = [0u8; 4096];
    loop {
        match stream.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

/// 512 streams opened with one player's link leave the table's page loading, and unlinking the
/// player closes what remains of them; 700 connections that keep reopening and send no link leave
/// it loading too. Every wait is bounded; none is timed.
#[test]
fn c4_no_one_link_nor_a_crowd_without_one_can_keep_the_tables_page_from_loading() {
    let c = Campaign::with_party();
    let bea = link(&c, "Bea", "Aldric");
    let served = Served::start(&c);
    let address = served.address();
    let mut streams: Vec<TcpStream> = (0..512)
        .filter_map(|_| open_stream(&address, &format!("{bea}updates")))
        .collect();
    assert_eq!(streams.len(), 512, "every connection is taken");
    let page = served.get("");
    assert_eq!(page.status, 200, "the table's page loads beside them");
    assert!(page.body.contains("The party"));
    c.ok(&["player", "unlink", "Bea"]);
    let still_open = streams
        .iter_mut()
        .map(closed_by_the_server)
        .filter(|closed| !closed)
        .count();
    assert_eq!(still_open, 0, "unlinking closes the link's streams");

    // A crowd with no link, from another address on the network (here 127.0.0.2): 700
    // connections held open sending nothing, each reopened as soon as the server closes it, while
    // the table's page is asked for.
    let stop = Arc::new(AtomicBool::new(false));
    let opened = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let crowd = {
        let (stop, address, counted) = (Arc::clone(&stop), address.clone(), Arc::clone(&opened));
        std::thread::spawn(move || {
            let target: std::net::SocketAddr = address.parse().expect("an address");
            let stranger: std::net::SocketAddr = "127.0.0.2:0".parse().unwrap();
            let connect = || -> std::io::Result<TcpStream> {
                let socket =
                    socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
                socket.bind(&stranger.into())?;
                socket.connect(&target.into())?;
                let stream: TcpStream = socket.into();
                stream.set_nonblocking(true)?;
                Ok(stream)
            };
            let mut held: Vec<TcpStream> = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                // Closed by the server (read gives its end, or an error): reopened below.
                held.retain(|s| {
                    let mut byte = [0u8; 1];
                    matches!((&*s).read(&mut byte), Err(ref e) if e.kind() == std::io::ErrorKind::WouldBlock)
                });
                while held.len() < 700 {
                    match connect() {
                        Ok(s) => {
                            held.push(s);
                            counted.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(_) => break,
                    }
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    // Once the crowd has had its connections closed and reopened a few times over.
    let deadline = Instant::now() + PATIENCE;
    while opened.load(Ordering::Relaxed) < 2100 {
        assert!(
            Instant::now() < deadline,
            "the server never closed the crowd's idle connections"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    for _ in 0..3 {
        let page = served.get("");
        assert_eq!(page.status, 200, "the table's page loads through the crowd");
    }
    stop.store(true, Ordering::Relaxed);
    crowd.join().expect("the crowd ran");
}

/// A busy server's answer (a 503 page) in place of the player's page or its rolls wipes nothing
/// the phone shows, and the phone asks again: the update and the roll put to it still arrive.
#[test]
fn c5_a_busy_answer_in_place_of_the_page_or_its_rolls_is_asked_again_and_wipes_nothing() {
    let Some(chromium) = chromium_or_skip("c5_a_busy_answer_in_place_of_the_page") else {
        return;
    };
    let (c, _served, proxy, mut browser, phone) = phone_behind_a_proxy(&chromium);
    proxy.tricks().busy = 2;
    c.ok(&["damage", "Aldric", "1", "--reason", "a busy evening"]);
    browser.wait_for(
        &phone,
        r#"document.getElementById("live").textContent.indexOf("a busy evening") >= 0"#,
        "the update, asked for again after a busy answer",
    );
    assert_eq!(proxy.tricks().busy, 0, "the busy answers were given");
    let kept = browser.eval(
        &phone,
        r#"document.getElementById("party") !== null && document.getElementById("live").textContent.indexOf("The campaign is busy") < 0"#,
    );
    assert_eq!(kept, true, "a busy page took the live view's place");
    // A roll put to the phone while the server answers its rolls busy is still answered.
    proxy.tricks().busy = 1;
    c.ok(&[
        "roll",
        "d6",
        "--for",
        "the busy gate",
        "--witnessed-by",
        "Bea",
        "--no-wait",
    ]);
    proxy.wait_until("the phone's answer to request 1", |t| {
        t.answers.iter().any(|(r, _, _)| *r == 1)
    });
}

/// A choice Mira's failed cast left to Bea, made on her phone: `pick` tapped and sent, the
/// `made`th the phone says was recorded.
fn choose_on_the_phone(
    browser: &mut Browser,
    phone: &super::browser::Tab,
    pick: &str,
    made: usize,
) {
    browser.wait_for(
        phone,
        r##"document.querySelector("#yours form.choice") !== null"##,
        "the choice on Mira's card",
    );
    browser.eval(
        phone,
        &format!(
            r##"document.querySelector('#yours form.choice input[value="{pick}"]').click(); document.querySelector("#yours form.choice button").click(); true"##
        ),
    );
    browser.wait_for(
        phone,
        &format!(
            r##"Array.prototype.filter.call(document.querySelectorAll("#rolls-said li"), function (li) {{ return li.textContent.indexOf("Mira's choice, made by their player") >= 0; }}).length >= {made}"##
        ),
        "the choice said as recorded",
    );
}

/// A server changed to cheat (here a proxy in front of the real one) that records another pick
/// than the one the player made on their phone, and answers as if it had recorded theirs, is
/// flagged on the phone by the event it recorded; an honest choice is counted among the phone's
/// receipts.
#[test]
fn vsd9_a_server_changed_to_cheat_that_records_another_pick_is_flagged_on_the_phone() {
    let Some(chromium) = chromium_or_skip(
        "vsd9_a_server_changed_to_cheat_that_records_another_pick_is_flagged_on_the_phone",
    ) else {
        return;
    };
    let c = Campaign::with_party();
    c.mira_learns_ember("1");
    let fails = || {
        let cast = c.ok(&[
            "--rolls", "3,40,40", "spell", "cast", "Mira", "Ember", "--target", "the orc",
        ]);
        assert!(cast.contains("lose-half-mps, fires-later"), "{cast}");
    };
    fails();
    let bea = link(&c, "Bea", "Mira");
    let (_served, proxy, mut browser, phone) = behind_a_proxy(&chromium, &c, &bea);

    // Honest: the pick Bea made is the one the log holds, and her receipts count it.
    choose_on_the_phone(&mut browser, &phone, "lose-half-mps", 1);
    browser.wait_for(
        &phone,
        r#"document.getElementById("rolls-receipts").textContent.indexOf("The log holds every roll and choice this phone made as it was shown (1)") >= 0"#,
        "the honest choice among the receipts",
    );

    // Cheating: Bea picks to hold the spell; the log records her losing half its MPs.
    c.ok(&["time", "advance", "10m"]);
    fails();
    proxy.tricks().rewrite_pick = Some(("fires-later", "lose-half-mps"));
    choose_on_the_phone(&mut browser, &phone, "fires-later", 2);
    let log = c.json(&["log", "--limit", "2"]);
    assert_eq!(log["events"][0]["kind"], "choice_answered", "{log}");
    assert_eq!(
        log["events"][0]["payload"]["asked"]["given"]["choices"],
        serde_json::json!(["lose-half-mps"]),
        "the log holds the rewritten pick: {log}"
    );
    let raised = flagged(
        &mut browser,
        &phone,
        "the log records another choice than the one this phone made (Mira: fires-later)",
    );
    assert!(raised.contains('#'), "{raised}");
    browser.screenshot(&phone, "players-hold-choice-flag");

    // From the hostile pass: a server that rewrites the pick and names, as where it recorded it,
    // the event of an earlier choice that holds the pick made now.
    let honest = c.json(&["log", "--limit", "20"]);
    let first_choice = (honest["events"].as_array().expect("events").iter())
        .find(|e| e["kind"] == "choice_answered")
        .and_then(|e| e["seq"].as_u64())
        .expect("the honest choice");
    c.ok(&["time", "advance", "10m"]);
    fails();
    {
        let mut t = proxy.tricks();
        t.rewrite_pick = Some(("lose-half-mps", "fires-later"));
        t.said_at = Some(first_choice);
    }
    choose_on_the_phone(&mut browser, &phone, "lose-half-mps", 3);
    let raised = flagged(
        &mut browser,
        &phone,
        "but the log held that event before you made it",
    );
    assert!(raised.contains(&format!("#{first_choice}: ")), "{raised}");
}
