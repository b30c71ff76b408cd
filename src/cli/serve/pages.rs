//! The live view's pages, in the report's styles. What they say comes from the read side
//! ([`crate::read`]) the terminal prints too (`fight show`, `session recap`, `log`, the sheets of
//! `character show`), so a phone and the terminal never disagree; every piece of campaign text
//! goes through [`escape`].

use super::Made;
use crate::Error;
use crate::cli::Globals;
use crate::read::log::{LogQuery, LogRead};
use crate::report::{STYLE, escape};
use crate::seq::Seq;
use crate::store::{Checkpoint, StoreError};
use std::fmt::Write;
use std::sync::Arc;

pub const HTML: &str = "text/html; charset=utf-8";

/// What phones are told when the campaign cannot be read (the terminal says why).
pub const UNREADABLE: &str = "The campaign cannot be read just now; the GM's terminal says why. This page tries again on the next update.";

/// Events the live page lists at its foot (the newest).
const LATEST_SHOWN: u64 = 20;
/// Events a log page lists when no --limit is given, and the most it lists at all.
const LOG_SHOWN: u64 = 200;
const LOG_SHOWN_AT_MOST: u64 = 2000;

/// What the live page is made from, read from the campaign as it stands.
pub struct LiveInputs {
    name: String,
    /// The head the page is made at (the live view's mark for it).
    pub head: Option<Checkpoint>,
    clock: String,
    session: Option<u32>,
    fight: Option<String>,
    waiting: Vec<String>,
    /// Each character: their name and the sheet `character show` prints.
    cards: Vec<(String, Vec<String>)>,
    /// The newest session's recap: its number, and what `session recap` prints.
    recap: Option<(u32, String)>,
    latest: Vec<LogLine>,
}

/// One event as a log page lists it.
pub struct LogLine {
    seq: Seq,
    when: String,
    session: Option<u32>,
    actor: String,
    what: String,
}

impl LiveInputs {
    pub fn read(reads: &Globals) -> Result<LiveInputs, Error> {
        let (state, head) = {
            let mut store = reads.open()?;
            (store.head_state()?, store.head()?)
        };
        let cards = state
            .characters
            .values()
            .map(|c| (c.name.clone(), crate::render::sheet_lines(c, &state)))
            .collect();
        let recap = match state.sessions_started {
            0 => None,
            newest => Some((
                newest,
                // A page is wrapped by the browser, never fitted to a width.
                crate::read::recap::recap(&mut *reads.open()?, None, None)?.text,
            )),
        };
        let latest = log_lines(
            reads,
            &LogQuery {
                limit: Some(LATEST_SHOWN),
                ..LogQuery::default()
            },
        )?;
        Ok(LiveInputs {
            name: state
                .campaign
                .as_ref()
                .map_or_else(String::new, |c| c.name.clone()),
            head,
            clock: state.clock_text(),
            session: state.open_session.as_ref().map(|s| s.number),
            fight: state
                .fight
                .is_some()
                .then(|| crate::read::fight::show(&state).text),
            waiting: crate::read::waiting::at_the_table(&state),
            cards,
            recap,
            latest,
        })
    }
}

/// The events `query` picks, each in the words of its line in `log`.
fn log_lines(reads: &Globals, query: &LogQuery) -> Result<Vec<LogLine>, Error> {
    let mut store = reads.open()?;
    let read = LogRead::open(&mut store, query)?;
    let state = read.state();
    Ok(read
        .entries(&mut store)?
        .into_iter()
        .map(|entry| {
            let what = format!(
                "{}{}{}",
                crate::render::describe(&entry.recorded.event),
                entry.marks(state).words(),
                entry.notes()
            );
            let r = entry.recorded;
            LogLine {
                when: state.time_of(r.seq, r.game_time),
                seq: r.seq,
                session: r.session,
                actor: r.actor,
                what,
            }
        })
        .collect())
}

/// The page's frame: the report's styles, the live script, and `body` inside.
fn frame(title: &str, head_mark: &str, body: &str) -> String {
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>{title} · grimoire live</title><style>{STYLE}{LIVE_STYLE}</style></head><body data-head="{head_mark}"><p id="link-gone" class="flagged" hidden>This link no longer opens the campaign: ask the GM for the table's new link.</p>{body}<script>{FOLLOW}</script></body></html>
"#,
        title = escape(title),
        head_mark = escape(head_mark),
    )
}

const LIVE_STYLE: &str = r#"
ol.log { list-style: none; padding: 0; margin: 0.5rem 0; font-size: 0.9rem; }
ol.log li { padding: 0.3rem 0; border-bottom: 1px solid #e2ddd0; }
ol.log .when { color: #666; font-size: 0.8rem; display: block; }
form.filters { display: flex; flex-wrap: wrap; gap: 0.4rem 0.8rem; align-items: end; margin: 0.5rem 0; }
form.filters label { display: flex; flex-direction: column; font-size: 0.8rem; color: #444; }
form.filters input { font: inherit; width: 9rem; max-width: 100%; box-sizing: border-box; }
pre.said { overflow-x: auto; font-size: 0.85rem; background: #fff; border: 1px solid #e2ddd0; border-radius: 8px; padding: 0.6rem 0.8rem; }
pre.sheet { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.85rem; margin: 0.3rem 0 0; }
nav.links a { margin-right: 1rem; }
#rolls { border: 2px solid #8a6d3b; border-radius: 8px; padding: 0.4rem 0.8rem; margin: 0.5rem 0; }
#rolls .request button { font: inherit; padding: 0.4rem 1.2rem; }
.flags { position: sticky; top: 0; z-index: 10; background: #fff4f4; border: 2px solid #b00020; border-radius: 8px; padding: 0.3rem 0.8rem; margin: 0.5rem 0; overflow-wrap: anywhere; }
.flags h2 { font-size: 1rem; margin: 0.3rem 0; color: #b00020; }
.flags button { font: inherit; margin-left: 0.5rem; }
"#;

/// Follows the campaign: on each new head the server announces, fetches this page again and puts
/// its new parts in place (the page is never reloaded, so what a player typed stays), then checks
/// the log again. A link that stops opening anything says so.
const FOLLOW: &str = r##"
(function () {
  if (!window.EventSource) return;
  var busy = false, again = false;
  var gone = function () { document.getElementById("link-gone").hidden = false; };
  var refresh = function () {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.pathname + location.search, { cache: "no-store" }).then(function (answer) {
      if (answer.status === 404) { gone(); throw new Error("gone"); }
      return answer.text();
    }).then(function (text) {
      var fresh = new DOMParser().parseFromString(text, "text/html");
      ["top", "live"].forEach(function (id) {
        var now = document.getElementById(id), then = fresh.getElementById(id);
        if (now && then) now.replaceWith(then);
      });
      document.body.dataset.head = fresh.body.dataset.head;
      document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
      if (window.grimoireCheckServed) window.grimoireCheckServed();
      if (window.grimoireRolls) window.grimoireRolls();
    }).catch(function () {}).then(function () {
      busy = false;
      if (again) { again = false; refresh(); }
    });
  };
  var source = new EventSource("updates");
  source.addEventListener("head", function (e) {
    var head = JSON.parse(e.data);
    if (head.mark !== document.body.dataset.head) refresh();
  });
  source.addEventListener("closed", function () { source.close(); gone(); });
  source.onerror = function () { if (source.readyState === EventSource.CLOSED) gone(); };
})();
"##;

/// `head` as the page and the stream of updates mark it.
pub fn head_mark(head: Option<&Checkpoint>) -> String {
    head.map_or_else(String::new, |h| format!("{}:{}", h.seq, h.hash_prefix))
}

/// The live page: what is happening now, then the party, the session and the newest events.
pub fn live(i: &LiveInputs) -> String {
    let mut body = String::new();
    let head = i
        .head
        .as_ref()
        .map_or_else(|| "an empty log".to_string(), |h| format!("#{}", h.seq));
    let session = i.session.map_or_else(
        || "no session open".to_string(),
        |n| format!("session {n} open"),
    );
    let _ = write!(
        body,
        r##"<header id="top"><h1>{name}</h1><p class="lede">Live: as of {head}, {clock}, {session}. It follows the log as the GM records it; nothing sealed or secret is on it.</p><nav class="links"><a href="log">The whole log</a><a href="report">The report</a><a href="export.jsonl">The public log (export)</a><a href="#check">Check it yourself</a></nav></header><main id="live">"##,
        name = escape(&i.name),
        clock = escape(&i.clock),
    );
    if let Some(fight) = &i.fight {
        let _ = write!(
            body,
            r#"<section id="fight"><h2>The fight</h2><pre class="said">{}</pre></section>"#,
            escape(fight)
        );
    }
    body.push_str(r#"<section id="waiting"><h2>Waiting on</h2>"#);
    if i.waiting.is_empty() {
        body.push_str("<p>Nothing waits on a choice, a spell or a reveal.</p>");
    } else {
        body.push_str("<ul>");
        for line in &i.waiting {
            let _ = write!(body, "<li>{}</li>", escape(line));
        }
        body.push_str("</ul>");
    }
    body.push_str(r#"</section><section id="party"><h2>The party</h2><div class="cards">"#);
    if i.cards.is_empty() {
        body.push_str("<p>No characters yet.</p>");
    }
    for (name, sheet) in &i.cards {
        let lines: Vec<&str> = sheet.iter().map(|l| l.trim_start()).collect();
        let _ = write!(
            body,
            r#"<article><h3>{}</h3><pre class="sheet">{}</pre></article>"#,
            escape(name),
            escape(&lines.join("\n"))
        );
    }
    body.push_str("</div></section>");
    if let Some((number, recap)) = &i.recap {
        let _ = write!(
            body,
            r#"<section id="session"><h2>Session {number}</h2><pre class="said">{}</pre></section>"#,
            escape(recap)
        );
    }
    let _ = write!(
        body,
        r#"<section id="latest"><h2>The newest events</h2>{}{}<p><a href="log">The whole log, with filters</a></p></section></main>"#,
        log_list(&i.latest),
        filter_form(&[]),
    );
    body.push_str(&crate::report::kit::section(
        crate::report::kit::Carried::Fetched("export.jsonl"),
        false,
    ));
    frame(&i.name, &head_mark(i.head.as_ref()), &body)
}

fn log_list(lines: &[LogLine]) -> String {
    if lines.is_empty() {
        return "<p>No matching events.</p>".to_string();
    }
    let mut out = String::from(r#"<ol class="log">"#);
    for line in lines {
        let session = line.session.map_or_else(
            || "between sessions".to_string(),
            |s| format!("session {s}"),
        );
        let _ = write!(
            out,
            r#"<li id="e{seq}"><span class="when">#{seq} · {} · {} · {}</span>{}</li>"#,
            escape(&line.when),
            session,
            escape(&line.actor),
            escape(&line.what),
            seq = line.seq,
        );
    }
    out.push_str("</ol>");
    out
}

/// The filters `log` takes, as a form; `given` fills it in.
const FILTERS: [(&str, &str, &str); 8] = [
    ("character", "Character", "a name"),
    ("session", "Session", "N"),
    ("kind", "Kind", "dice_rolled"),
    ("by", "Entered by", "an actor"),
    ("grep", "Containing", "text"),
    ("from", "From", "#, session:N, day:D"),
    ("to", "To", "#, session:N, day:D"),
    ("limit", "The last", "N events"),
];

fn filter_form(given: &[(String, String)]) -> String {
    let mut out = String::from(r#"<form class="filters" method="get" action="log">"#);
    for (name, label, hint) in FILTERS {
        let value = given
            .iter()
            .find(|(k, _)| k == name)
            .map_or("", |(_, v)| v.as_str());
        let _ = write!(
            out,
            r#"<label>{label} <input name="{name}" value="{}" placeholder="{hint}" autocomplete="off"></label>"#,
            escape(value)
        );
    }
    out.push_str(r#"<button type="submit">Show</button></form>"#);
    out
}

/// The log page: `log` with the filters in the query.
pub fn log(reads: &Globals, filters: &[(String, String)]) -> Made {
    let args = match log_args(filters) {
        Ok(args) => args,
        Err(why) => return log_page(reads, filters, 400, Err(why)),
    };
    match log_lines(reads, &args) {
        Ok(lines) => log_page(reads, filters, 200, Ok(lines)),
        // A point the log does not reach is the filter's problem, said in grimoire's words; a
        // campaign that cannot be read is the GM's, said on the terminal, not to the phones.
        Err(Error::Store(StoreError::NoSuchPoint(why))) => log_page(reads, filters, 400, Err(why)),
        Err(e @ (Error::Internal(_) | Error::Store(_))) => {
            eprintln!("grimoire serve: a log page could not be made: {e}");
            trouble(503, UNREADABLE)
        }
        Err(e) => log_page(reads, filters, 400, Err(e.to_string())),
    }
}

fn log_page(
    reads: &Globals,
    filters: &[(String, String)],
    status: u16,
    lines: Result<Vec<LogLine>, String>,
) -> Made {
    let name = reads
        .open()
        .ok()
        .and_then(|mut store| store.head_state().ok())
        .and_then(|state| state.campaign.as_ref().map(|c| c.name.clone()))
        .unwrap_or_default();
    let shown = match lines {
        Ok(lines) => log_list(&lines),
        Err(why) => format!(r#"<p class="flagged">{}</p>"#, escape(&why)),
    };
    let body = format!(
        r#"<header id="top"><h1>{} — the log</h1><nav class="links"><a href="./">The live view</a><a href="report">The report</a></nav></header><main id="live"><p>The filters are <code>grimoire log</code>'s; empty ones are left out. Without "The last", the newest {LOG_SHOWN} matching events are shown (at most {LOG_SHOWN_AT_MOST}).</p>{}{shown}</main>"#,
        escape(&name),
        filter_form(filters),
    );
    Made {
        status,
        media: HTML,
        body: Arc::new(frame(&name, "", &body)),
    }
}

/// `log`'s arguments from the query; each value read as the command line reads it.
fn log_args(filters: &[(String, String)]) -> Result<LogQuery, String> {
    let mut args = LogQuery {
        limit: Some(LOG_SHOWN),
        ..LogQuery::default()
    };
    for (name, value) in filters {
        let value = value.trim();
        if value.is_empty() {
            continue;
        }
        let text = Some(value.to_string());
        let point = || value.parse().map(Some).map_err(|e| format!("{name}: {e}"));
        match name.as_str() {
            "character" => args.character = text,
            "kind" => args.kind = text,
            "by" => args.by = text,
            "grep" => args.grep = text,
            "session" => {
                args.session = Some(value.parse().map_err(|_| {
                    format!("session: '{value}' is not a session's number, e.g. 2")
                })?);
            }
            "limit" => {
                args.limit = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|n| (1..=LOG_SHOWN_AT_MOST).contains(n))
                        .ok_or_else(|| {
                            format!(
                                "the last: '{value}' is not a number of events from 1 to {LOG_SHOWN_AT_MOST}"
                            )
                        })?,
                );
            }
            "from" => args.from = point()?,
            "to" => args.to = point()?,
            other => {
                return Err(format!(
                    "'{other}' is not one of log's filters; they are: {}",
                    FILTERS.map(|(name, _, _)| name).join(", ")
                ));
            }
        }
    }
    Ok(args)
}

/// A page that says what went wrong, with `status`.
pub fn trouble(status: u16, why: &str) -> Made {
    Made {
        status,
        media: HTML,
        body: Arc::new(frame(
            "grimoire",
            "",
            &format!(
                r#"<main id="live"><p class="flagged">{}</p></main>"#,
                escape(why)
            ),
        )),
    }
}

/// A player's page: the live page, with their device's part above it (the rolls put to it), and
/// above everything the flags the phone raised about the GM's side, which stay until the player
/// dismisses them.
pub fn player_page(live: &str, player: &str, characters: &[String]) -> String {
    let part = format!(
        r#"<section id="rolls-flags" class="flags" aria-live="assertive" hidden></section><section id="rolls"><h2>{player}'s rolls</h2><p class="lede">For {characters}. When the GM puts a roll to you, it appears here: tap Roll. Your phone adds 32 random bytes of its own to a secret the GM committed to before you saw the request, so neither of you can choose or foresee the die. Before it sends them, your phone writes down the request as it was shown (its number, the GM's commitment, what it is for) and the bytes; each time the log moves it checks the log against every one, and says so at the top of this page if the GM's side dropped, withdrew, changed or answered differently a roll your phone made.</p><div id="rolls-waiting"><p>Nothing waits on you.</p></div><ul id="rolls-said" aria-live="polite"></ul><p id="rolls-receipts"></p></section><script>{ROLLS}</script>"#,
        player = escape(player),
        characters = escape(&characters.join(", ")),
    );
    match live.find(r#"<header id="top">"#) {
        Some(at) => format!("{}{part}{}", &live[..at], &live[at..]),
        None => format!("{part}{live}"),
    }
}

/// The rolls waiting on a device, as its page reads them: each with the command as its request
/// records it, which the page writes down and later finds in the log.
pub fn rolls(players: &crate::state::players::Players, device: u32) -> Made {
    let waiting: Vec<serde_json::Value> = players
        .waiting_for(device)
        .map(|(request, r)| {
            serde_json::json!({
                "request": request,
                "seq": r.seq,
                "words": r.asked.words(),
                "asked": r.asked,
                "witnessed": r.witnessed,
                "commitment": r.commitment,
                "put_again_after": r.put_again_after,
            })
        })
        .collect();
    json_made(200, &serde_json::json!({ "waiting": waiting }))
}

/// JSON for a page's script.
pub fn json_made(status: u16, value: &serde_json::Value) -> Made {
    Made {
        status,
        media: "application/json",
        body: Arc::new(value.to_string()),
    }
}

/// The player's part of the page. It draws the rolls waiting on the device and answers one when
/// tapped (a roll the GM's device witnesses, at once) with 32 bytes from the browser's
/// cryptographic randomness. Before the bytes leave, it writes down what it was shown (the
/// request's number, commitment and command) with them, once: a request is never answered with
/// other bytes, nor under another commitment, and a lost connection sends the very same bytes.
/// Each time the log moves it reads the public log and checks every record: the request is there
/// with the same commitment and command, and was answered with exactly these bytes. Anything else
/// raises a flag at the top of the page, kept until the player dismisses it.
const ROLLS: &str = r##"
(function () {
  var here = location.pathname;
  // What the phone keeps is held in memory too, so a browser that keeps nothing (a private
  // window, storage full) still sends the same bytes for a request while the page is open; it is
  // told that its records end with the page.
  var memory = {}, unkept = false;
  var load = function (key) {
    try { var kept = JSON.parse(localStorage.getItem(key) || "null"); if (kept) return kept; } catch (e) {}
    return JSON.parse(JSON.stringify(memory[key] || {}));
  };
  var save = function (key, value) {
    memory[key] = JSON.parse(JSON.stringify(value));
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { unkept = true; }
  };
  var SENT = "grimoire-sent:" + here, FLAGS = "grimoire-flags:" + here;
  var hex = function (bytes) { return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join(""); };
  // The same value whatever order its keys were written in.
  var canon = function (value) {
    if (Array.isArray(value)) return "[" + value.map(canon).join(",") + "]";
    if (value && typeof value === "object") return "{" + Object.keys(value).sort().map(function (k) { return JSON.stringify(k) + ":" + canon(value[k]); }).join(",") + "}";
    return JSON.stringify(value === undefined ? null : value);
  };
  var flag = function (key, words) {
    var flags = load(FLAGS);
    if (flags[key]) return;
    flags[key] = { words: words, at: new Date().toISOString() };
    save(FLAGS, flags);
    drawFlags();
  };
  var drawFlags = function () {
    // A dismissed flag is kept as dismissed, so the next check does not raise it again.
    var flags = load(FLAGS), keys = Object.keys(flags).filter(function (key) { return !flags[key].dismissed; }), box = document.getElementById("rolls-flags");
    box.textContent = "";
    box.hidden = keys.length === 0;
    if (!keys.length) { document.title = document.title.replace(/^\(!\) /, ""); return; }
    if (!/^\(!\) /.test(document.title)) document.title = "(!) " + document.title;
    var title = document.createElement("h2");
    title.textContent = "Your phone found something wrong with the GM's side";
    box.appendChild(title);
    keys.forEach(function (key) {
      var row = document.createElement("p");
      row.className = "flagged";
      row.dataset.flag = key;
      row.textContent = flags[key].words + " ";
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.textContent = "Dismiss";
      dismiss.addEventListener("click", function () { var now = load(FLAGS); if (now[key]) now[key].dismissed = true; save(FLAGS, now); drawFlags(); });
      row.appendChild(dismiss);
      box.appendChild(row);
    });
  };
  // What this phone sends for request r: written down before it is sent, and never changed.
  var recordFor = function (r) {
    var sent = load(SENT), kept = sent[r.request];
    if (kept) return kept;
    kept = { request: r.request, commitment: r.commitment, asked: r.asked, words: r.words, witnessed: r.witnessed === true, contribution: hex(crypto.getRandomValues(new Uint8Array(32))) };
    sent[r.request] = kept;
    save(SENT, sent);
    return kept;
  };
  var said = function (lines, flagged) {
    var list = document.getElementById("rolls-said");
    lines.forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      if (flagged) item.className = "flagged";
      list.insertBefore(item, list.firstChild);
    });
  };
  var answering = {}, tried = {};
  var answer = function (r) {
    if (answering[r.request]) return;
    // A request shown without the command it completes cannot be checked against the log later.
    if (!r.asked || typeof r.asked !== "object" || typeof r.commitment !== "string") {
      flag("unreadable:" + r.request, "Request " + r.request + " was shown to this phone without its command or commitment: it was not answered.");
      return;
    }
    tried[r.request] = true;
    var kept = load(SENT)[r.request];
    // Shown again under another commitment or for another command: the phone answered it once,
    // and never again with other bytes.
    if (kept && (kept.commitment !== r.commitment || canon(kept.asked) !== canon(r.asked) || kept.witnessed !== (r.witnessed === true))) {
      flag("shown-again:" + r.request, "Request " + r.request + " was shown to this phone again, changed (another commitment or another command) after the phone answered it: it was not answered again.");
      return;
    }
    answering[r.request] = true;
    var record = recordFor(r);
    fetch("answer", { method: "POST", cache: "no-store", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "request=" + r.request + "&contribution=" + record.contribution })
      .then(function (reply) { return reply.json().then(function (body) { return { status: reply.status, body: body }; }); })
      .then(function (got) {
        if (got.status === 200) said(got.body.said, false);
        else said(["Request " + r.request + ": " + (got.body.refused || "not taken")], true);
      })
      .catch(function () { said(["Request " + r.request + ": the answer did not arrive; tap Roll again (the same bytes are sent)."], true); })
      .then(function () { answering[r.request] = false; window.grimoireRolls(true); });
  };
  // `afterAnswer`: a witnessed request already tried is not answered again by itself until the
  // log moves (a refused answer would otherwise be sent again and again).
  var draw = function (waiting, afterAnswer) {
    shown = {};
    waiting.forEach(function (r) { shown[r.request] = true; });
    var box = document.getElementById("rolls-waiting");
    box.textContent = "";
    if (!waiting.length) { var none = document.createElement("p"); none.textContent = "Nothing waits on you."; box.appendChild(none); return; }
    waiting.forEach(function (r) {
      var row = document.createElement("p");
      row.className = "request";
      row.dataset.request = r.request;
      var words = document.createElement("span");
      var again = (r.put_again_after || []).length ? " [put again after request " + r.put_again_after.join(", ") + " was withdrawn]" : "";
      words.textContent = "Request " + r.request + " (#" + r.seq + "): " + r.words + (r.witnessed ? " (the GM's roll; your phone witnesses it)" : "") + again + " ";
      row.appendChild(words);
      if (r.witnessed) { if (!(afterAnswer && tried[r.request])) answer(r); }
      else {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = "Roll";
        button.addEventListener("click", function () { button.disabled = true; answer(r); });
        row.appendChild(button);
      }
      box.appendChild(row);
    });
  };
  // Every record against the public log: the request as shown, answered with these bytes.
  var checkRecords = function () {
    var sent = load(SENT), requests = Object.keys(sent);
    var out = document.getElementById("rolls-receipts");
    if (!requests.length) { out.textContent = ""; return; }
    // Only the log itself is checked: a busy or trouble page in its place would read as a log
    // that lacks every request.
    fetch("export.jsonl", { cache: "no-store" }).then(function (reply) { if (!reply.ok) throw new Error("" + reply.status); return reply.text(); }).then(function (text) {
      // What the log says of each request, and (as every reader computes it) which were put
      // to a phone right after a roll to it was withdrawn.
      var put = {}, answered = {}, withdrawn = {}, withdrawnFrom = {}, putAgain = {};
      text.split("\n").forEach(function (line) {
        if (!line) return;
        try { var row = JSON.parse(line); } catch (e) { return; }
        var p = row.payload || {};
        if (row.kind === "roll_requested") {
          put[p.request] = { seq: row.seq, commitment: p.commitment, asked: p.asked, device: p.device, witnessed: p.witnessed === true };
          if ((withdrawnFrom[p.device] || []).length) putAgain[p.request] = withdrawnFrom[p.device];
          delete withdrawnFrom[p.device];
        } else if (row.kind === "roll_answered") {
          if (answered[p.request] === undefined) answered[p.request] = p.contribution;
        } else if (row.kind === "roll_withdrawn" && put[p.request] && answered[p.request] === undefined && withdrawn[p.request] === undefined) {
          withdrawn[p.request] = row.seq;
          (withdrawnFrom[put[p.request].device] = withdrawnFrom[put[p.request].device] || []).push(p.request);
        }
      });
      var waiting = 0;
      requests.forEach(function (request) {
        var kept = sent[request], inLog = put[request];
        if (!inLog) {
          flag("missing:" + request, "Request " + request + ": the log does not hold the request this phone was shown and answered: the GM's side never recorded it, or took it out.");
        } else if (inLog.commitment !== kept.commitment) {
          flag("commitment:" + request, "Request " + request + " (#" + inLog.seq + "): the log holds another commitment than the one this phone was shown: the GM's side showed this phone a request it did not record.");
        } else if (canon(inLog.asked) !== canon(kept.asked)) {
          flag("command:" + request, "Request " + request + " (#" + inLog.seq + "): the log holds another command than the one this phone was shown.");
        } else if (kept.witnessed !== undefined && inLog.witnessed !== kept.witnessed) {
          flag("witnessed:" + request, "Request " + request + " (#" + inLog.seq + "): shown to this phone as " + (kept.witnessed ? "the GM's roll to witness" : "a roll of yours") + ", but the log records it as " + (inLog.witnessed ? "the GM's, witnessed" : "a roll of yours") + ".");
        } else if (withdrawn[request] !== undefined && answered[request] === undefined) {
          flag("withdrawn:" + request, "Request " + request + " (#" + inLog.seq + "): the GM's side withdrew (or never recorded) a roll this phone made, at #" + withdrawn[request] + ".");
        } else if (answered[request] === undefined && !shown[request]) {
          flag("dropped:" + request, "Request " + request + " (#" + inLog.seq + "): the GM's side took it off this phone's list without recording the answer this phone made.");
        } else if (answered[request] === undefined) {
          waiting++;
        } else if (answered[request] !== kept.contribution) {
          flag("bytes:" + request, "Request " + request + " (#" + inLog.seq + "): the log records an answer with bytes this phone never sent.");
        }
      });
      var marks = requests.filter(function (request) { return putAgain[request]; }).map(function (request) {
        return "request " + request + " was put again after request " + putAgain[request].join(", ") + " was withdrawn";
      });
      var raised = load(FLAGS), flags = Object.keys(raised).filter(function (key) { return !raised[key].dismissed; }).length;
      out.className = flags ? "flagged" : "";
      out.textContent = (flags
        ? "This phone raised " + flags + (flags === 1 ? " flag" : " flags") + " (at the top of the page). "
        : "The log holds every roll this phone made as it was shown (" + (requests.length - waiting) + "). ") +
        (waiting ? waiting + " sent, not yet in the log. " : "") +
        (marks.length ? "Marked: " + marks.join("; ") + "." : "") +
        (unkept ? " This browser keeps nothing past this page (a private window, or its storage is full): keep the page open until your rolls are in the log." : "");
    }).catch(function () {
      out.className = "flagged";
      out.textContent = "The public log could not be fetched, so this phone could not check its " + requests.length + " records against it; it tries again when the log moves.";
    });
  };
  var busy = false, shown = {};
  window.grimoireRolls = function (afterAnswer) {
    if (busy) return;
    busy = true;
    fetch("rolls", { cache: "no-store" }).then(function (reply) {
      if (reply.status === 404) { document.getElementById("link-gone").hidden = false; throw new Error("gone"); }
      return reply.json();
    }).then(function (body) { draw(body.waiting, afterAnswer === true); checkRecords(); }).catch(function () {}).then(function () { busy = false; });
  };
  drawFlags();
  window.grimoireRolls();
})();
"##;
