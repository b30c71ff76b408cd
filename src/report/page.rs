//! The report's HTML: one file with its styles, charts and a few lines of script inside, so it opens
//! from a disk or an e-mail with no network. Every piece of campaign text goes through [`escape`].

use super::svg::{self, Bar, Line, PALETTE};
use super::{ByDay, CharacterTrack, DAYS_SHOWN, Gathered, SESSIONS_SHOWN};
use crate::audit::{FLAG_BELOW, Verdict, judge};
use crate::systems::contract::event::SystemModel;
use crate::systems::contract::render::{PerDay, SystemWords};
use crate::systems::registry::{SystemId, on_system};
use crate::web::REPORT_STYLE;
use std::fmt::Write;

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
  document.body.dataset.drawn = document.querySelectorAll("svg.chart").length;
})();
"##;

pub fn render(g: &Gathered, generated_at: &str) -> String {
    let name = g
        .state
        .campaign
        .as_ref()
        .map_or("A campaign", |c| c.name.as_str());
    let mut out = String::from(MARK);
    let _ = write!(
        out,
        r#"<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{title} · grimoire report</title><style>{REPORT_STYLE}</style></head><body>"#,
        title = escape(name)
    );
    let head = g.head.as_ref().map_or_else(
        || "an empty log".to_string(),
        |h| format!("event #{}", h.seq),
    );
    let _ = write!(
        out,
        r#"<header><h1>{}</h1><p class="lede">As of {head}, {clock}: {characters}, {sessions}. Read from the public log only: nothing sealed is in this page.</p></header>"#,
        escape(name),
        clock = escape(&g.state.clock_text()),
        characters = count(g.characters.len() as u64, "character", "characters"),
        sessions = count(g.state.sessions_started.into(), "session", "sessions"),
    );
    out.push_str(r#"<nav id="contents"><strong>Contents</strong><ol></ol></nav><main>"#);
    characters(&mut out, g);
    timeline(&mut out, g);
    downtime(&mut out, g);
    tables(&mut out, g);
    dice(&mut out, g);
    chain(&mut out, g);
    out.push_str(&super::kit::section(
        g.export
            .as_deref()
            .map_or(super::kit::Carried::TooLong, super::kit::Carried::Log),
        g.as_of,
    ));
    let _ = write!(
        out,
        r#"</main><footer class="muted"><p>Written by grimoire at {}.</p></footer><script>{SCRIPT}</script></body></html>"#,
        escape(generated_at)
    );
    out.push('\n');
    out
}

fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn characters(out: &mut String, g: &Gathered) {
    out.push_str(r#"<section id="characters"><h2>Characters</h2>"#);
    if g.characters.is_empty() {
        out.push_str("<p>No characters yet.</p>");
    } else {
        out.push_str(r#"<p class="muted">The charts run evening by evening: each session (S1, S2…) has its own stretch, and the time between two sessions, however long, one short shaded stretch.</p>"#);
    }
    out.push_str(r#"<div class="cards">"#);
    for track in &g.characters {
        character(out, g, track);
    }
    out.push_str("</div></section>");
}

fn character(out: &mut String, g: &Gathered, track: &CharacterTrack) {
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
    let _ = write!(
        out,
        r#"<article class="character"><h3>{}</h3><p class="muted">{}</p>"#,
        escape(&track.name),
        escape(standing.as_deref().unwrap_or("retracted since"))
    );
    // The sheet as `character show` prints it: rituals, spells, scrolls held, silver, conditions,
    // the spells on them.
    if let Some(c) = now {
        let lines: Vec<String> = crate::render::sheet_lines(c, &g.state)
            .iter()
            .map(|line| escape(line.strip_prefix("  ").unwrap_or(line)))
            .collect();
        let _ = write!(
            out,
            r#"<details class="sheet" open><summary>Full sheet</summary><pre>{}</pre></details>"#,
            lines.join("\n")
        );
    }
    let figure = |out: &mut String, caption: &str, chart: String| {
        let _ = write!(
            out,
            "<figure>{chart}<figcaption>{}</figcaption></figure>",
            escape(caption)
        );
    };
    if track.health.points() > 0 {
        figure(
            out,
            "Health over in-game time: current, and the maximum dashed.",
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
        );
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
        figure(
            out,
            chart.chart.caption,
            svg::line_chart(
                chart.chart.id,
                &format!("{}: {}", track.name, chart.chart.title),
                &g.axis,
                &lines,
            ),
        );
    }
    if let Some((words, days)) = &track.per_day {
        per_day(out, &track.name, words, days, figure);
    }
    out.push_str("</article>");
}

fn per_day(
    out: &mut String,
    name: &str,
    words: &PerDay,
    by_day: &ByDay,
    figure: impl Fn(&mut String, &str, String),
) {
    if by_day.is_empty() {
        let _ = write!(
            out,
            r#"<p class="muted" data-chart="{}">{}</p>"#,
            words.id,
            escape(words.none_yet)
        );
        return;
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
        out,
        &caption,
        svg::bar_chart(
            words.id,
            &format!("{name}: {}", words.title),
            &bars,
            words.counted,
            words.limit,
        ),
    );
}

fn timeline(out: &mut String, g: &Gathered) {
    out.push_str(r#"<section id="timeline"><h2>Sessions</h2>"#);
    if g.sessions.is_empty() {
        out.push_str("<p>No session has started yet.</p>");
    } else {
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
        let _ = write!(
            out,
            "<figure>{}<figcaption>{}</figcaption></figure>",
            svg::bar_chart("sessions", "Events per session", &bars, "events", ""),
            escape(&caption)
        );
        let shown = newest_first(out, g.sessions.len(), "sessions");
        for session in g.sessions.iter().rev().take(shown) {
            let ended = session
                .ended
                .map_or_else(|| "still open".to_string(), |t| format!("to {t}"));
            let _ = write!(
                out,
                "<li value=\"{n}\"><strong>Session {n}</strong>, {started} {ended}: {events} (#{first}–#{last})",
                n = session.number,
                started = session.started,
                events = count(session.events, "event", "events"),
                first = session.first_seq,
                last = session.last_seq,
            );
            if !session.key_events.is_empty() {
                out.push_str("<ul>");
                for (seq, what) in &session.key_events {
                    let _ = write!(out, "<li>#{seq} {}</li>", escape(what));
                }
                if session.more_key_events > 0 {
                    let _ = write!(
                        out,
                        "<li class=\"muted\">and {} more</li>",
                        session.more_key_events
                    );
                }
                out.push_str("</ul>");
            }
            out.push_str("</li>");
        }
        out.push_str("</ol>");
    }
    if g.between_sessions > 0 {
        let _ = write!(
            out,
            "<p class=\"muted\">{} recorded outside any session (set-up, downtime).</p>",
            count(g.between_sessions, "event", "events")
        );
    }
    out.push_str("</section>");
}

/// Opens a list of the latest of `all` things, newest first, saying so when some are left out;
/// returns how many it shows.
fn newest_first(out: &mut String, all: usize, things: &str) -> usize {
    let shown = all.min(SESSIONS_SHOWN);
    if all > shown {
        let _ = write!(
            out,
            "<p class=\"muted\">The latest {shown} of {all} {things}, newest first.</p>"
        );
    }
    out.push_str(r#"<ol class="sessions" reversed>"#);
    shown
}

/// The downtime season: each span of weeks, newest first, with who did what, what it gave them,
/// the scrolls written and the silver spent, as `downtime` printed it.
fn downtime(out: &mut String, g: &Gathered) {
    out.push_str(r#"<section id="downtime"><h2>Downtime</h2>"#);
    if g.downtime.is_empty() {
        out.push_str("<p>No downtime spent yet.</p></section>");
        return;
    }
    let weeks: u64 = g.downtime.iter().map(|span| u64::from(span.weeks)).sum();
    let _ = write!(
        out,
        "<p>{} in all, over {}.</p>",
        count(weeks, "week", "weeks"),
        count(g.downtime.len() as u64, "span", "spans"),
    );
    let shown = newest_first(out, g.downtime.len(), "spans");
    for span in g.downtime.iter().rev().take(shown) {
        let _ = write!(
            out,
            "<li><strong>#{seq}, from {began}</strong>: {weeks}<pre class=\"span\">{lines}</pre></li>",
            seq = span.seq,
            began = span.began,
            weeks = count(span.weeks.into(), "week", "weeks"),
            lines = escape(&span.summaries.join("\n")),
        );
    }
    out.push_str("</ol></section>");
}

/// Each rule system's tables of what the campaign holds.
fn tables(out: &mut String, g: &Gathered) {
    for &system in SystemId::ALL {
        for table in on_system!(system, SystemId, |S| S::report_tables(&g.state)) {
            let _ = write!(
                out,
                r#"<section id="{}"><h2>{}</h2>"#,
                table.id,
                escape(table.heading)
            );
            if table.rows.is_empty() {
                let _ = write!(out, "<p>{}</p>", escape(table.empty));
            } else {
                out.push_str("<table><thead><tr>");
                for column in &table.columns {
                    let _ = write!(out, "<th>{}</th>", escape(column));
                }
                out.push_str("</tr></thead><tbody>");
                for row in &table.rows {
                    out.push_str("<tr>");
                    for cell in row {
                        let _ = write!(out, "<td>{}</td>", escape(cell));
                    }
                    out.push_str("</tr>");
                }
                out.push_str("</tbody></table>");
            }
            out.push_str("</section>");
        }
    }
}

fn dice(out: &mut String, g: &Gathered) {
    out.push_str(r#"<section id="dice"><h2>Dice</h2><p>Each face's count against what a fair die would give in as many rolls (the black mark), by die and by where the dice came from: entered at the table, seeded by grimoire, or sealed by the GM and revealed since. Pearson's chi-square test gives the chance that fair dice would look at least this uneven; the audit also asks whether the faces are too even to be chance and whether the characters or actors who rolled got different faces from one another. Adjusted for the number of tests, below "#);
    let _ = write!(out, "{FLAG_BELOW} a group is flagged.</p>");
    if g.dice.is_empty() {
        out.push_str("<p>No dice rolled yet.</p>");
    }
    out.push_str(r#"<div class="cards">"#);
    let findings = judge(&g.dice);
    for (index, tally) in g.dice.iter().enumerate() {
        let flagged = findings.iter().find(|f| f.group == index && f.flagged);
        let expected = tally.expected();
        let bars: Vec<Bar> = tally
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
        let verdict = match tally.verdict() {
            Verdict::TooFew { needs } => format!(
                "{}: too few to judge (the test needs {needs}).",
                count(tally.rolls(), "roll", "rolls")
            ),
            Verdict::Judged { p_value, .. } => {
                let judgement = match flagged {
                    Some(f) => {
                        format!("<span class=\"flagged\">flagged: {}</span>", f.flag_words())
                    }
                    None => "consistent with fair dice".to_string(),
                };
                format!(
                    "{}: p = {p_value:.4}, {judgement}.",
                    count(tally.rolls(), "roll", "rolls")
                )
            }
        };
        let title = format!("d{} {}", tally.sides, tally.source.word());
        let _ = write!(
            out,
            "<article class=\"dice\"><h3>{title}</h3><figure>{}<figcaption>{verdict}</figcaption></figure></article>",
            svg::bar_chart(
                "dice",
                &title,
                &bars,
                "times seen",
                "expected of a fair die"
            ),
        );
    }
    out.push_str("</div></section>");
}

fn chain(out: &mut String, g: &Gathered) {
    out.push_str(r#"<section id="chain"><h2>The chain</h2>"#);
    let Some(head) = &g.head else {
        out.push_str("<p>The log is empty.</p></section>");
        return;
    };
    let _ = write!(
        out,
        "<p>Every event carries the hash of the one before it, so a copy that matches these codes holds the same history up to them. Check yours with <code>grimoire verify --checkpoint {head}</code>.</p><table><tbody><tr><th>Head</th><td><code>{head}</code></td></tr><tr><th>Its full hash</th><td><code>{}</code></td></tr></tbody></table>",
        escape(&g.head_hash)
    );
    let ended: Vec<_> = g
        .sessions
        .iter()
        .filter_map(|s| s.checkpoint.as_ref().map(|c| (s.number, c)))
        .collect();
    if !ended.is_empty() {
        let shown = ended.len().min(SESSIONS_SHOWN);
        let _ = write!(
            out,
            "<h3>Checkpoints at the end of sessions{}</h3><table><thead><tr><th>Session</th><th>Checkpoint</th></tr></thead><tbody>",
            if ended.len() > shown {
                format!(" (the latest {shown} of {})", ended.len())
            } else {
                String::new()
            }
        );
        for (number, checkpoint) in ended.iter().rev().take(shown) {
            let _ = write!(
                out,
                "<tr><td>{number}</td><td><code>{checkpoint}</code></td></tr>"
            );
        }
        out.push_str("</tbody></table>");
    }
    out.push_str("</section>");
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
