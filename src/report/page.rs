//! The report's HTML: one file with its styles, charts and a few lines of script inside, so it opens
//! from a disk or an e-mail with no network. Every piece of campaign text goes through [`escape`].

use super::svg::{self, Bar, Line, PALETTE};
use super::{ByDay, CharacterTrack, DAYS_SHOWN, Gathered, KEY_EVENTS_SHOWN, SESSIONS_SHOWN};
use crate::audit::{FLAG_BELOW, Verdict, judge};
use crate::seq::Seq;
use crate::systems::contract::event::SystemModel;
use crate::systems::contract::render::{PerDay, SystemWords};
use crate::systems::registry::{SystemId, on_system};
use crate::web::REPORT_STYLE;
use maud::{Markup, PreEscaped, html};

/// The first bytes of every report: how `--out` knows a file it may replace.
use crate::store::output::REPORT_MARK as MARK;

/// Text made safe inside HTML and SVG, in element content and in quoted attributes alike; a
/// character that would reorder the text around it or pass unseen (an old or forged event's) is
/// shown as its escape, as the terminal shows it.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if crate::text::acts_unseen(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

/// Campaign text as a template puts it: through [`escape`] rather than maud's own escaping, so
/// what a template shows is held to the same rules in content and attributes alike.
#[derive(Debug, Clone, Copy)]
pub struct Text<'a>(pub &'a str);

impl maud::Render for Text<'_> {
    fn render_to(&self, buffer: &mut String) {
        buffer.push_str(&escape(self.0));
    }
}

/// Builds the contents from the sections actually on the page, and marks the page as drawn (the
/// browser test waits for that mark, so a script error shows as a missing mark).
const SCRIPT: &str = r##"
(function () {
  var list = document.querySelector("nav#contents ol");
  document.querySelectorAll("main > section[id]").forEach(function (section) {
    var heading = section.querySelector("h2");
    var item = document.createElement("li");
    var link = document.createElement("a");
    link.href = "#" + section.id;
    link.textContent = heading ? heading.textContent : section.id;
    item.appendChild(link);
    list.appendChild(item);
  });
  document.body.dataset.drawn = document.querySelectorAll("svg.chart.wide").length;
})();
"##;

pub fn render(g: &Gathered, generated_at: &str) -> String {
    let name = g
        .state
        .campaign
        .as_ref()
        .map_or("A campaign", |c| c.name.as_str());
    let head = g.head.as_ref().map_or_else(
        || "an empty log".to_string(),
        |h| format!("event #{}", h.seq),
    );
    let page = html! {
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (Text(name)) " · grimoire report" }
                style { (PreEscaped(REPORT_STYLE)) }
            }
            body {
                header {
                    h1 { (Text(name)) }
                    p class="lede" {
                        "As of " (head) ", " (Text(&g.state.clock_text())) ": "
                        (count(g.characters.len() as u64, "character", "characters")) ", "
                        (count(g.state.sessions_started.into(), "session", "sessions"))
                        ". Read from the public log only: nothing sealed is in this page."
                    }
                }
                nav id="contents" { strong { "Contents" } ol {} }
                main {
                    (characters(g))
                    (timeline(g))
                    (downtime(g))
                    (tables(g))
                    (dice(g))
                    (chain(g))
                    (super::kit::section(
                        g.export
                            .as_deref()
                            .map_or(super::kit::Carried::TooLong, super::kit::Carried::Log),
                        g.as_of,
                    ))
                }
                footer class="muted" { p { "Written by grimoire at " (Text(generated_at)) "." } }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    format!("{MARK}{}\n", page.into_string())
}

fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn characters(g: &Gathered) -> Markup {
    html! {
        section id="characters" {
            h2 { "Characters" }
            @if g.characters.is_empty() {
                p { "No characters yet." }
            } @else {
                p class="muted" {
                    "The charts run evening by evening: each session (S1, S2…) has its own stretch, and the time between two sessions, however long, one short shaded stretch."
                }
            }
            div class="cards" { @for track in &g.characters { (character(g, track)) } }
        }
    }
}

/// A chart with its caption.
fn figure(chart: Markup, caption: &str) -> Markup {
    html! { figure { (chart) figcaption { (Text(caption)) } } }
}

fn character(g: &Gathered, track: &CharacterTrack) -> Markup {
    let now = g.state.character(&track.name);
    let standing = now.map(|c| {
        let (system, level) = on_system!(&c.system, AnyState, |S, mine| (S::NAME, S::level(mine)));
        let health = c
            .health
            .map(|h| format!(", health {} of {}", h.current, h.max))
            .unwrap_or_default();
        let status = c.status().map(|s| format!(" ({s})")).unwrap_or_default();
        format!("{system}, level {level}{health}{status}")
    });
    let mut charts = Vec::new();
    if track.health.points() > 0 {
        charts.push(figure(
            svg::line_chart(
                "health",
                &format!("{}: health", track.name),
                &g.axis,
                &[
                    Line {
                        label: "current".into(),
                        series: &track.health,
                        colour: PALETTE[0],
                        dashed: false,
                    },
                    Line {
                        label: "maximum".into(),
                        series: &track.health_max,
                        colour: PALETTE[0],
                        dashed: true,
                    },
                ],
            ),
            "Health over in-game time: current, and the maximum dashed.",
        ));
    }
    for chart in &track.charts {
        // A quantity the character never had (a warrior's magic points) draws no flat line at 0.
        let never_had = chart
            .lines
            .iter()
            .all(|(_, current, max)| current.highest() == 0 && max.highest() == 0);
        if never_had {
            continue;
        }
        let mut lines = Vec::new();
        for (gauge, current, max) in &chart.lines {
            lines.push(Line {
                label: gauge.label.into(),
                series: current,
                colour: PALETTE[gauge.colour % PALETTE.len()],
                dashed: false,
            });
            lines.push(Line {
                label: gauge.max_label.into(),
                series: max,
                colour: PALETTE[gauge.colour % PALETTE.len()],
                dashed: true,
            });
        }
        charts.push(figure(
            svg::line_chart(
                chart.chart.id,
                &format!("{}: {}", track.name, chart.chart.title),
                &g.axis,
                &lines,
            ),
            chart.chart.caption,
        ));
    }
    html! {
        article class="character" {
            h3 { (Text(&track.name)) }
            p class="muted" { (Text(standing.as_deref().unwrap_or("retracted since"))) }
            // The sheet as `character show` prints it: rituals, spells, scrolls held, silver,
            // conditions, the spells on them.
            @if let Some(c) = now {
                @let lines: Vec<String> = crate::render::sheet_lines(c, &g.state)
                    .iter()
                    .map(|line| line.strip_prefix("  ").unwrap_or(line).to_string())
                    .collect();
                details class="sheet" open { summary { "Full sheet" } pre { (Text(&lines.join("\n"))) } }
            }
            @for chart in charts { (chart) }
            @if let Some((words, days)) = &track.per_day { (per_day(&track.name, words, days)) }
        }
    }
}

fn per_day(name: &str, words: &PerDay, by_day: &ByDay) -> Markup {
    if by_day.is_empty() {
        return html! { p class="muted" data-chart=(words.id) { (Text(words.none_yet)) } };
    }
    let days = by_day.len();
    let parts_of = |day: u64| by_day.range((day, 0)..=(day, u32::MAX)).count();
    let bars: Vec<Bar> = by_day
        .iter()
        .skip(days.saturating_sub(DAYS_SHOWN))
        .map(|(&(day, rests), &(counted, limit))| Bar {
            // A day a rest split shows each part: before it, and after.
            label: match parts_of(day) {
                1 => format!("Day {day}"),
                _ => {
                    let part = by_day.range((day, 0)..(day, rests)).count() + 1;
                    format!("Day {day}, part {part}")
                }
            },
            value: f64::from(counted),
            mark: Some(f64::from(limit)),
            warn: counted > limit,
        })
        .collect();
    let caption = if days > DAYS_SHOWN {
        format!(
            "{}, the latest {DAYS_SHOWN} of {days} {}.",
            words.caption, words.days
        )
    } else {
        format!("{}.", words.caption)
    };
    figure(
        svg::bar_chart(
            words.id,
            &format!("{name}: {}", words.title),
            &bars,
            words.counted,
            words.limit,
        ),
        &caption,
    )
}

fn timeline(g: &Gathered) -> Markup {
    html! {
        section id="timeline" {
            h2 { "Sessions" }
            @if g.sessions.is_empty() {
                p { "No session has started yet." }
            } @else {
                (sessions(g))
            }
            @if g.between_sessions > 0 {
                p class="muted" {
                    (count(g.between_sessions, "event", "events"))
                    " recorded outside any session (set-up, downtime)."
                }
            }
        }
    }
}

/// Events per session as a chart, then the latest sessions, newest first.
fn sessions(g: &Gathered) -> Markup {
    // Events per session, sessions grouped so that at most 120 bars are drawn.
    let group = g.sessions.len().div_ceil(120);
    let bars: Vec<Bar> = g
        .sessions
        .chunks(group)
        .map(|chunk| {
            let (first, last) = (chunk[0].number, chunk[chunk.len() - 1].number);
            Bar {
                label: if first == last {
                    format!("{first}")
                } else {
                    format!("{first}–{last}")
                },
                value: chunk.iter().map(|s| s.events as f64).sum::<f64>() / chunk.len() as f64,
                mark: None,
                warn: false,
            }
        })
        .collect();
    let caption = if group > 1 {
        format!("Events recorded per session, averaged over groups of {group} sessions.")
    } else {
        "Events recorded per session.".to_string()
    };
    html! {
        (figure(svg::bar_chart("sessions", "Events per session", &bars, "events", ""), &caption))
        (newest_first(g.sessions.len(), "sessions", g.sessions.iter().rev().map(|session| {
            let ended = session
                .ended
                .map_or_else(|| "still open".to_string(), |t| format!("to {t}"));
            html! {
                li value=(session.number) {
                    strong { "Session " (session.number) }
                    ", " (session.started) " " (ended) ": "
                    (count(session.events, "event", "events"))
                    " (#" (session.first_seq) "–#" (session.last_seq) ")"
                    (what_mattered(session))
                }
            }
        })))
    }
}

/// What mattered in a session, the heaviest first (deaths, then what went wrong, then the record
/// corrected, then reveals, then routine), each weight in the log's order; past the first few, the
/// rest under "more", which opens.
fn what_mattered(session: &super::SessionRow) -> Markup {
    let mut ranked: Vec<&(super::Weight, Seq, String)> = session.key_events.iter().collect();
    ranked.sort_by_key(|(weight, seq, _)| (*weight, *seq));
    let shown = ranked.len().min(KEY_EVENTS_SHOWN);
    let (first, rest) = ranked.split_at(shown);
    let more = rest.len() as u64 + session.more_key_events;
    let line = |(_, seq, what): &&(super::Weight, Seq, String)| html! { li { "#" (seq) " " (Text(what)) } };
    html! {
        @if !first.is_empty() {
            ul {
                @for event in first { (line(event)) }
                @if more > 0 {
                    li class="muted" {
                        details {
                            summary { "and " (more) " more" }
                            ul {
                                @for event in rest { (line(event)) }
                                @if session.more_key_events > 0 {
                                    li {
                                        (session.more_key_events) " more of the least weight: "
                                        code { "grimoire log --session " (session.number) }
                                        " lists every event"
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The latest of `all` things as a list, newest first (`items` gives them so), saying so when
/// some are left out.
fn newest_first(all: usize, things: &str, items: impl Iterator<Item = Markup>) -> Markup {
    let shown = all.min(SESSIONS_SHOWN);
    html! {
        @if all > shown {
            p class="muted" { "The latest " (shown) " of " (all) " " (things) ", newest first." }
        }
        ol class="sessions" reversed { @for item in items.take(shown) { (item) } }
    }
}

/// The downtime season: each span of weeks, newest first, with who did what, what it gave them,
/// the scrolls written and the silver spent, as `downtime` printed it.
fn downtime(g: &Gathered) -> Markup {
    let weeks: u64 = g.downtime.iter().map(|span| u64::from(span.weeks)).sum();
    html! {
        section id="downtime" {
            h2 { "Downtime" }
            @if g.downtime.is_empty() {
                p { "No downtime spent yet." }
            } @else {
                p {
                    (count(weeks, "week", "weeks")) " in all, over "
                    (count(g.downtime.len() as u64, "span", "spans")) "."
                }
                (newest_first(g.downtime.len(), "spans", g.downtime.iter().rev().map(|span| html! {
                    li {
                        strong { "#" (span.seq) ", from " (span.began) }
                        ": " (count(span.weeks.into(), "week", "weeks"))
                        pre class="span" { (Text(&span.summaries.join("\n"))) }
                    }
                })))
            }
        }
    }
}

/// Each rule system's tables of what the campaign holds.
fn tables(g: &Gathered) -> Markup {
    let tables: Vec<_> = SystemId::ALL
        .iter()
        .flat_map(|&system| on_system!(system, SystemId, |S| S::report_tables(&g.state)))
        .collect();
    html! {
        @for table in &tables {
            section id=(table.id) {
                h2 { (Text(table.heading)) }
                @if table.rows.is_empty() {
                    p { (Text(table.empty)) }
                } @else {
                    table {
                        thead { tr { @for column in &table.columns { th { (Text(column)) } } } }
                        tbody {
                            @for row in &table.rows { tr { @for cell in row { td { (Text(cell)) } } } }
                        }
                    }
                }
            }
        }
    }
}

fn dice(g: &Gathered) -> Markup {
    let findings = judge(&g.dice);
    html! {
        section id="dice" {
            h2 { "Dice" }
            p {
                "Each face's count against what a fair die would give in as many rolls (the black mark), by die and by where the dice came from: entered at the table, seeded by grimoire, or sealed by the GM and revealed since. Pearson's chi-square test gives the chance that fair dice would look at least this uneven; the audit also asks whether the faces are too even to be chance and whether the characters or actors who rolled got different faces from one another. Adjusted for the number of tests, below "
                (FLAG_BELOW) " a group is flagged."
            }
            @if g.dice.is_empty() { p { "No dice rolled yet." } }
            div class="cards" {
                @for (index, tally) in g.dice.iter().enumerate() {
                    @let flagged = findings.iter().find(|f| f.group == index && f.flagged);
                    @let expected = tally.expected();
                    @let bars: Vec<Bar> = tally
                        .counts
                        .iter()
                        .enumerate()
                        .map(|(face, &seen)| Bar {
                            label: format!("{}", face + 1),
                            value: seen as f64,
                            mark: Some(expected),
                            warn: false,
                        })
                        .collect();
                    @let title = format!("d{} {}", tally.sides, tally.source.word());
                    article class="dice" {
                        h3 { (title) }
                        figure {
                            (svg::bar_chart("dice", &title, &bars, "times seen", "expected of a fair die"))
                            figcaption {
                                (count(tally.rolls(), "roll", "rolls")) ": "
                                @match tally.verdict() {
                                    Verdict::TooFew { needs } => {
                                        "too few to judge (the test needs " (needs) ")."
                                    }
                                    Verdict::Judged { p_value, .. } => {
                                        "p = " (format!("{p_value:.4}")) ", "
                                        @match flagged {
                                            Some(f) => span class="flagged" { "flagged: " (f.flag_words()) },
                                            None => "consistent with fair dice",
                                        }
                                        "."
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn chain(g: &Gathered) -> Markup {
    let Some(head) = &g.head else {
        return html! { section id="chain" { h2 { "The chain" } p { "The log is empty." } } };
    };
    let ended: Vec<_> = g
        .sessions
        .iter()
        .filter_map(|s| s.checkpoint.as_ref().map(|c| (s.number, c)))
        .collect();
    let shown = ended.len().min(SESSIONS_SHOWN);
    html! {
        section id="chain" {
            h2 { "The chain" }
            p {
                "Every event carries the hash of the one before it, so a copy that matches these codes holds the same history up to them. Check yours with "
                code { "grimoire verify --checkpoint " (head) } "."
            }
            table {
                tbody {
                    tr { th { "Head" } td { code { (head) } } }
                    tr { th { "Its full hash" } td { code { (Text(&g.head_hash)) } } }
                }
            }
            @if !ended.is_empty() {
                h3 {
                    "Checkpoints at the end of sessions"
                    @if ended.len() > shown { " (the latest " (shown) " of " (ended.len()) ")" }
                }
                table {
                    thead { tr { th { "Session" } th { "Checkpoint" } } }
                    tbody {
                        @for (number, checkpoint) in ended.iter().rev().take(shown) {
                            tr { td { (number) } td { code { (checkpoint) } } }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escaping_leaves_no_markup_and_no_way_out_of_an_attribute() {
        assert_eq!(
            escape(r#"<a href='x'>"&"</a>"#),
            "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;"
        );
    }
}
