//! The live view's pages, in the report's styles. What they say comes from the read side
//! ([`crate::read`]) the terminal prints too (`fight show`, `session recap`, `log`, the sheets of
//! `character show`), so a phone and the terminal never disagree; every piece of campaign text
//! goes through [`escape`].

use super::Made;
use crate::Error;
use crate::cli::Globals;
use crate::ids::DeviceId;
use crate::read::log::{LogQuery, LogRead};
use crate::report::Text;
use crate::seq::Seq;
use crate::state::CampaignState;
use crate::store::{Checkpoint, StoreError};
use crate::web::{LIVE_SCRIPT, LIVE_STYLE, REPORT_STYLE, ROLLS_SCRIPT};
use maud::{DOCTYPE, Markup, PreEscaped, html};
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

/// What a page says once its link opens nothing: the table's link was replaced (Enter at the
/// GM's terminal) ...
const TABLE_LINK_GONE: &str =
    "This link no longer opens the campaign: ask the GM for the table's new link.";
/// ... or a player's phone's link was revoked or replaced, which only the GM can link again.
const PLAYER_LINK_GONE: &str = "This phone's link no longer opens the campaign: the GM revoked or replaced it. Ask the GM to link your phone again.";

/// The page's frame: the report's styles, the live script, and `body` inside.
fn frame(title: &str, head_mark: &str, body: Markup) -> String {
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                title { (Text(title)) " · grimoire live" }
                style { (PreEscaped(REPORT_STYLE)) (PreEscaped(LIVE_STYLE)) }
            }
            body data-head=(Text(head_mark)) {
                p id="link-gone" class="flagged" hidden { (TABLE_LINK_GONE) }
                (body)
                script { (PreEscaped(LIVE_SCRIPT)) }
            }
        }
    };
    page.into_string() + "\n"
}

/// `head` as the page and the stream of updates mark it.
pub fn head_mark(head: Option<&Checkpoint>) -> String {
    head.map_or_else(String::new, |h| format!("{}:{}", h.seq, h.hash_prefix))
}

/// The live page: what is happening now, then the party, the session and the newest events.
pub fn live(i: &LiveInputs) -> String {
    let head = i
        .head
        .as_ref()
        .map_or_else(|| "an empty log".to_string(), |h| format!("#{}", h.seq));
    let session = i.session.map_or_else(
        || "no session open".to_string(),
        |n| format!("session {n} open"),
    );
    let body = html! {
        header id="top" {
            h1 { (Text(&i.name)) }
            p class="lede" {
                "Live: as of " (head) ", " (Text(&i.clock)) ", " (session)
                ". It follows the log as the GM records it; nothing sealed or secret is on it."
            }
            nav class="links" {
                a href="log" { "The whole log" }
                a href="report" { "The report" }
                a href="export.jsonl" { "The public log (export)" }
                a href="#check" { "Check it yourself" }
            }
        }
        main id="live" {
            @if let Some(fight) = &i.fight {
                section id="fight" { h2 { "The fight" } pre class="said" { (Text(fight)) } }
            }
            section id="waiting" {
                h2 { "Waiting on" }
                @if i.waiting.is_empty() {
                    p { "Nothing waits on a choice, a spell or a reveal." }
                } @else {
                    ul { @for line in &i.waiting { li { (Text(line)) } } }
                }
            }
            section id="party" {
                h2 { "The party" }
                div class="cards" {
                    @if i.cards.is_empty() { p { "No characters yet." } }
                    @for (name, sheet) in &i.cards {
                        @let lines: Vec<&str> = sheet.iter().map(|l| l.trim_start()).collect();
                        article { h3 { (Text(name)) } pre class="sheet" { (Text(&lines.join("\n"))) } }
                    }
                }
            }
            @if let Some((number, recap)) = &i.recap {
                section id="session" {
                    h2 { "Session " (number) }
                    pre class="said" { (Text(recap)) }
                }
            }
            section id="latest" {
                h2 { "The newest events, newest first" }
                (log_list(&i.latest))
                (filter_form(&[]))
                p { a href="log" { "The whole log, with filters" } }
            }
        }
        (crate::report::kit::section(
            crate::report::kit::Carried::Fetched("export.jsonl"),
            false,
        ))
    };
    frame(&i.name, &head_mark(i.head.as_ref()), body)
}

fn log_list(lines: &[LogLine]) -> Markup {
    html! {
        @if lines.is_empty() {
            p { "No matching events." }
        } @else {
            // The newest first, as a player scrolls for what just happened; each line's
            // explanation is worked out by the page's own check of the public log.
            ol class="log" {
                @for line in lines.iter().rev() {
                    @let session = line.session.map_or_else(
                        || "between sessions".to_string(),
                        |s| format!("session {s}"),
                    );
                    li id={ "e" (line.seq) } {
                        span class="when" {
                            "#" (line.seq) " · " (Text(&line.when)) " · " (session) " · "
                            (Text(&line.actor))
                        }
                        (Text(&line.what))
                        " "
                        a class="explain" href={ "./?explain=" (line.seq) "#check" } { "explain" }
                    }
                }
            }
        }
    }
}

/// The filters `log` takes, as a form; `given` fills it in.
const FILTERS: [(&str, &str, &str); 8] = [
    ("character", "Character", "a name"),
    ("session", "Session", "N"),
    ("kind", "Kind", ""),
    ("by", "Entered by", "an actor"),
    ("grep", "Containing", "text"),
    ("from", "From", "#, session:N, day:D"),
    ("to", "To", "#, session:N, day:D"),
    ("limit", "The last", "N events"),
];

fn filter_form(given: &[(String, String)]) -> Markup {
    html! {
        form class="filters" method="get" action="log" {
            @for (name, label, hint) in FILTERS {
                @let value = given
                    .iter()
                    .find(|(k, _)| k == name)
                    .map_or("", |(_, v)| v.as_str());
                label {
                    (label) " "
                    @if name == "kind" {
                        // The kinds to pick from, in words: no one types the log's own names.
                        select name="kind" {
                            option value="" { "any kind" }
                            @for kind in crate::event::kinds() {
                                option value=(kind) selected[value == kind] { (kind.replace('_', " ")) }
                            }
                        }
                    } @else {
                        input name=(name) value=(Text(value)) placeholder=(hint) autocomplete="off";
                    }
                }
            }
            button type="submit" { "Show" }
        }
    }
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
    let body = html! {
        header id="top" {
            h1 { (Text(&name)) " — the log" }
            nav class="links" { a href="./" { "The live view" } a href="report" { "The report" } }
        }
        main id="live" {
            p {
                "The filters are " code { "grimoire log" } "'s; empty ones are left out. Without \"The last\", the newest "
                (LOG_SHOWN) " matching events are shown (at most " (LOG_SHOWN_AT_MOST) ")."
            }
            (filter_form(filters))
            @match &lines {
                Ok(lines) => (log_list(lines)),
                Err(why) => p class="flagged" { (Text(why)) },
            }
        }
    };
    Made {
        status,
        media: HTML,
        body: Arc::new(frame(&name, "", body)),
    }
}

/// `log`'s arguments from the query; each value read as the command line reads it.
fn log_args(filters: &[(String, String)]) -> Result<LogQuery, String> {
    let mut args = LogQuery {
        limit: Some(LOG_SHOWN),
        ..LogQuery::default()
    };
    for (at, (name, value)) in filters.iter().enumerate() {
        // One value a filter: the form shows the first, so a second would filter unseen.
        if filters[..at].iter().any(|(earlier, _)| earlier == name) {
            return Err(format!(
                "'{name}' is given more than once; give each filter once"
            ));
        }
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
            html! { main id="live" { p class="flagged" { (Text(why)) } } },
        )),
    }
}

/// A player's page: the live page, with their device's part above it (the rolls put to it), and
/// above everything the flags the phone raised about the GM's side, which stay until the player
/// dismisses them.
pub fn player_page(
    live: &str,
    player: &str,
    characters: &[String],
    state: &CampaignState,
) -> String {
    // A player's tasks each a tap away from the top (#47): their rolls, the receipts their phone
    // keeps, the fight when there is one, and the check that explains a disputed roll.
    let fighting = live.contains(r#"<section id="fight">"#);
    let part = html! {
        section id="rolls-flags" class="flags" aria-live="assertive" hidden {}
        nav class="links" id="tasks" {
            a href="#rolls" { "Your rolls" }
            a href="#rolls-receipts" { "Your receipts" }
            @if fighting { a href="#fight" { "The fight" } }
            a href="#check" { "Check a roll" }
        }
        (yours(characters, state))
        section id="rolls" {
            h2 { (Text(player)) "'s rolls" }
            p class="lede" {
                "For " (Text(&characters.join(", "))) ". When the GM puts a roll to you, it appears here: tap Roll."
            }
            details {
                summary { "How your phone keeps the rolls fair" }
                p {
                    "Your phone adds 32 random bytes of its own to a secret the GM committed to before you saw the request, so neither of you can choose or foresee the die. Before it sends them, your phone writes down the request as it was shown (its number, the GM's commitment, what it is for) and the bytes; each time the log moves it checks the log against every one, and says so at the top of this page if the GM's side dropped, withdrew, changed or answered differently a roll your phone made."
                }
            }
            div id="rolls-waiting" { p { "Nothing waits on you." } }
            ul id="rolls-said" aria-live="polite" {}
            p id="rolls-receipts" {}
        }
        script { (PreEscaped(ROLLS_SCRIPT)) }
    }
    .into_string();
    // A player's link gone is theirs to ask the GM about, not the table's.
    let live = live.replacen(TABLE_LINK_GONE, PLAYER_LINK_GONE, 1);
    match live.find(r#"<header id="top">"#) {
        Some(at) => format!("{}{part}{}", &live[..at], &live[at..]),
        None => format!("{part}{live}"),
    }
}

/// The player's own characters first (#47): each one's pools in bars, then their sheet as
/// `character show` prints it; with several, a line of links to each.
fn yours(characters: &[String], state: &CampaignState) -> Markup {
    let played: Vec<&crate::state::Character> = characters
        .iter()
        .filter_map(|name| state.character(name))
        .collect();
    let anchors = anchors(played.iter().map(|c| c.name.as_str()));
    html! {
        section id="yours" {
            @if played.len() > 1 {
                nav class="links" {
                    @for (c, anchor) in played.iter().zip(&anchors) {
                        a href={ "#" (anchor) } { (Text(&c.name)) }
                    }
                }
            }
            @for (c, anchor) in played.iter().zip(&anchors) {
                article id=(anchor) class="you" {
                    h2 {
                        (Text(&c.name))
                        @if let Some(status) = c.status() { " (" (status) ")" }
                    }
                    @for pool in crate::read::sheet::pools(c) {
                        label class="pool" {
                            span { (Text(&pool.label)) " " (pool.current) " of " (pool.max) }
                            meter min="0" max=(pool.max) value=(pool.current) {}
                        }
                    }
                    @let in_force = crate::render::in_force(c, state);
                    @if !in_force.is_empty() {
                        ul class="in-force" {
                            @for (what, does) in &in_force {
                                li { strong { (Text(what)) } ": " (does) }
                            }
                        }
                    }
                    @let known = crate::render::known(c, state);
                    @if !known.is_empty() {
                        ul class="known" {
                            @for (name, what) in &known {
                                li { strong { (Text(name)) } ": " (Text(what)) }
                            }
                        }
                    }
                    @for choice in crate::rules::players::waiting_on(state, &c.name) {
                        (choice_form(&choice))
                    }
                    @let lines: Vec<String> = crate::render::sheet_lines(c, state)
                        .iter()
                        .map(|l| l.trim_start().to_string())
                        .collect();
                    pre class="sheet" { (Text(&lines.join("\n"))) }
                }
            }
        }
    }
}

/// A choice the rules left to the player (#47), as a form their phone sends as theirs: one
/// option picked with a tap where one is picked, boxes where two are, and a line for whom a
/// pick names. The page's script sends it and says what was recorded.
fn choice_form(choice: &crate::systems::contract::rules::PlayersChoice) -> Markup {
    let kind = if choice.pick == 1 {
        "radio"
    } else {
        "checkbox"
    };
    let names = choice.options.iter().any(|o| o.names_someone);
    html! {
        form class="choice" method="post" action="choose" {
            fieldset {
                legend {
                    "Your choice: " (Text(&choice.about)) " — pick "
                    (if choice.pick == 1 { "one" } else { "two" })
                }
                input type="hidden" name="character" value=(choice.character);
                @for option in &choice.options {
                    label class="option" {
                        input type=(kind) name="pick" value=(option.word);
                        " " (option.meaning) " (" (option.word) ")"
                    }
                }
                @if names {
                    label class="option" {
                        "Whom it strikes instead, if that is picked: "
                        input type="text" name="names" maxlength=(crate::text::NAME_MAX);
                    }
                }
                button type="submit" { "Choose" }
                p class="choice-said" aria-live="polite" {}
            }
        }
    }
}

/// A name as a fragment of an address: its letters and digits, the rest as hyphens.
/// Each character's card's id on the page, `you-` and their name's slug, numbered from the
/// second where two names slug alike ("Mira!" and "Mira?"): a link to one must not open the other.
fn anchors<'n>(names: impl Iterator<Item = &'n str>) -> Vec<String> {
    let mut given: Vec<String> = Vec::new();
    for name in names {
        let plain = format!("you-{}", slug(name));
        let (mut anchor, mut n) = (plain.clone(), 1);
        while given.contains(&anchor) {
            n += 1;
            anchor = format!("{plain}-{n}");
        }
        given.push(anchor);
    }
    given
}

fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// The rolls waiting on a device, as its page reads them: each with the command as its request
/// records it, which the page writes down and later finds in the log.
pub fn rolls(store: &mut crate::store::Store, state: &CampaignState, device: DeviceId) -> Made {
    let waiting: Vec<serde_json::Value> = state
        .players
        .waiting_for(device)
        .map(|(request, r)| {
            serde_json::json!({
                "request": request,
                "seq": r.seq,
                // Said by the rules as the campaign stands when the phone asks (#47).
                "words": crate::campaign::asked_in_words(store, state, &r.asked),
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

#[cfg(test)]
mod tests {
    /// From a review: two characters whose names slug alike had one id, so the link to the
    /// second opened the first.
    #[test]
    fn each_of_a_players_characters_has_a_card_id_of_its_own() {
        let names = ["Mira", "Mira!", "Mira?", "Mira 2", "Tom"];
        let anchors = super::anchors(names.into_iter());
        assert_eq!(
            anchors,
            [
                "you-mira",
                "you-mira-",
                "you-mira--2",
                "you-mira-2",
                "you-tom"
            ]
        );
        let clash = super::anchors(["Mira", "Mira", "Mira 2"].into_iter());
        assert_eq!(clash, ["you-mira", "you-mira-2", "you-mira-2-2"]);
    }
}
