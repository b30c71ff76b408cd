//! The report's charts, as plain SVG drawn by templates: a handful of lines, bars and labels, so no
//! plotting library is needed and the page stays one self-contained file. Every series is
//! downsampled before it gets here ([`Series`]), so a chart costs the same for a long campaign as
//! for a short one.

use super::Text;
use maud::{Markup, html};
use std::fmt::Write;

/// How many columns a line chart's time axis is cut into: each keeps its first, lowest, highest
/// and last value, so a spike between samples still shows.
pub const COLUMNS: u64 = 240;

const HEIGHT: f64 = 200.0;

/// How wide a chart is drawn, and the class a page shows it by: each chart is drawn twice, wide
/// for a desktop and narrow for a phone, so that on a phone its labels are read at about 10 px
/// rather than the 5 px a desktop's drawing shrinks them to (#47).
#[derive(Debug, Clone, Copy)]
struct Frame {
    width: f64,
    class: &'static str,
    /// How many session labels fit under a line chart.
    labels: usize,
}

const FRAMES: [Frame; 2] = [
    Frame {
        width: 640.0,
        class: "chart wide",
        labels: 8,
    },
    Frame {
        width: 360.0,
        class: "chart narrow",
        labels: 4,
    },
];
const LEFT: f64 = 40.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 28.0;

/// Colours that stay apart for most kinds of colour blindness (Okabe and Ito's palette).
pub const PALETTE: [&str; 6] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
];

/// One value over in-game time, downsampled into [`COLUMNS`] columns as it is fed.
#[derive(Debug, Clone, Default)]
pub struct Series {
    /// (column, first, lowest, highest, last), columns in order.
    columns: Vec<(u64, u32, u32, u32, u32)>,
    last: Option<u32>,
}

impl Series {
    /// The value at `column` (0 to [`COLUMNS`]); a value equal to the last one adds nothing.
    pub fn note(&mut self, column: u64, value: u32) {
        if self.last == Some(value) {
            return;
        }
        self.last = Some(value);
        match self.columns.last_mut() {
            Some((at, _, low, high, last)) if *at == column => {
                *low = (*low).min(value);
                *high = (*high).max(value);
                *last = value;
            }
            _ => self.columns.push((column, value, value, value, value)),
        }
    }

    pub fn highest(&self) -> u32 {
        self.columns.iter().map(|c| c.3).max().unwrap_or(0)
    }

    /// How many points the series draws: bounded by [`COLUMNS`], whatever the campaign's length.
    pub fn points(&self) -> usize {
        self.columns.len()
    }
}

/// A line on a chart.
pub struct Line<'a> {
    pub label: String,
    pub series: &'a Series,
    pub colour: &'static str,
    /// Dashed: a maximum drawn behind its current value.
    pub dashed: bool,
}

/// The line charts' time axis, read from the evenings played: each session its own stretch, and
/// the in-game time between two sessions (travel, downtime, however many weeks) one short stretch,
/// so that a long downtime does not fill the width and leave the evenings as slivers. A campaign
/// with no session yet runs from Day 1 to its clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    stretches: Vec<Stretch>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Stretch {
    /// In-game seconds since Day 1, from and to.
    from: u64,
    to: u64,
    /// The session it is, or `None` for the time between sessions.
    session: Option<u32>,
    /// Its first column, and the first of the next.
    columns: (u64, u64),
    /// A session's first and last event (its start and its end, or the last event so far): its
    /// events are spaced evenly between them, so a fight of a minute in a session of hours
    /// takes its share of the width (#47).
    seqs: Option<(u64, u64)>,
}

/// An evening is drawn this many times as wide as the time between two evenings.
const SESSION_WEIGHT: u64 = 4;

impl Axis {
    /// The axis for sessions (number, started, ended or `None` while open) in order, up to the
    /// clock at `end`, all in in-game seconds.
    pub fn of(sessions: &[(u32, u64, Option<u64>)], end: u64) -> Axis {
        let mut spans: Vec<(u64, u64, Option<u32>)> = Vec::new();
        let mut at = 0;
        for &(number, started, ended) in sessions {
            if started > at {
                spans.push((at, started, None));
            }
            let ended = ended.unwrap_or(end).max(started);
            spans.push((started, ended, Some(number)));
            at = ended;
        }
        if spans.is_empty() || end > at {
            spans.push((at, end.max(at), None));
        }
        let weight = |session: Option<u32>| if session.is_some() { SESSION_WEIGHT } else { 1 };
        let total: u64 = spans.iter().map(|&(_, _, s)| weight(s)).sum();
        let mut taken = 0;
        let stretches = spans
            .into_iter()
            .map(|(from, to, session)| {
                let first = COLUMNS * taken / total;
                taken += weight(session);
                Stretch {
                    from,
                    to,
                    session,
                    columns: (first, COLUMNS * taken / total),
                    seqs: None,
                }
            })
            .collect();
        Axis { stretches }
    }

    /// Each session's events spaced evenly across its stretch: `(session, first seq, last seq)`.
    pub fn spaced_by_events(mut self, sessions: &[(u32, u64, u64)]) -> Axis {
        for &(number, first, last) in sessions {
            if let Some(stretch) = self
                .stretches
                .iter_mut()
                .find(|s| s.session == Some(number))
            {
                stretch.seqs = Some((first, last));
            }
        }
        self
    }

    /// Where the event `seq`, recorded at in-game time `seconds` in `session` if any, falls on the
    /// axis: among its session's events where they are spaced ([`Self::spaced_by_events`]),
    /// otherwise as [`Self::column_of`] says.
    pub fn column_at(&self, seconds: u64, session: Option<u32>, seq: u64) -> u64 {
        let own = session.and_then(|n| self.stretches.iter().find(|s| s.session == Some(n)));
        match own.and_then(|s| Some((s, s.seqs?))) {
            Some((stretch, (first, last))) if last > first => {
                let (from, next) = stretch.columns;
                let into = seq.clamp(first, last) - first;
                from + (u128::from(into) * u128::from(next - from) / u128::from(last - first))
                    as u64
            }
            _ => self.column_of(seconds, session),
        }
    }

    /// Where an event recorded at in-game time `seconds`, in `session` if any, falls on the axis
    /// (0 to [`COLUMNS`]): in its session's own stretch (two sessions may share a clock, and a
    /// clock taken back may run behind one), otherwise where its time falls.
    pub fn column_of(&self, seconds: u64, session: Option<u32>) -> u64 {
        let own = session.and_then(|n| self.stretches.iter().find(|s| s.session == Some(n)));
        let Some(stretch) = own
            .or_else(|| self.stretches.iter().find(|s| seconds <= s.to))
            .or(self.stretches.last())
        else {
            return 0;
        };
        let (first, next) = stretch.columns;
        let length = stretch.to - stretch.from;
        if length == 0 {
            return first;
        }
        let into = seconds.clamp(stretch.from, stretch.to) - stretch.from;
        first + (u128::from(into) * u128::from(next - first) / u128::from(length)) as u64
    }

    /// The labels under the axis: at most `most` sessions, evenly picked, at their middles.
    fn labels(&self, most: usize) -> Vec<(u64, String)> {
        let sessions: Vec<&Stretch> = self
            .stretches
            .iter()
            .filter(|s| s.session.is_some())
            .collect();
        if sessions.is_empty() {
            let end = self.stretches.last().map_or(0, |s| s.to);
            return (0..=4u64)
                .map(|i| {
                    (
                        COLUMNS * i / 4,
                        format!("Day {}", (end * i / 4) / crate::time::DAY_SECONDS + 1),
                    )
                })
                .collect();
        }
        let every = sessions.len().div_ceil(most.max(1));
        sessions
            .iter()
            .step_by(every)
            .map(|s| {
                let middle = (s.columns.0 + s.columns.1) / 2;
                (middle, format!("S{}", s.session.unwrap_or_default()))
            })
            .collect()
    }
}

fn x_of(f: Frame, column: u64) -> f64 {
    LEFT + (f.width - LEFT - RIGHT) * column as f64 / COLUMNS as f64
}

fn y_of(value: f64, top: f64) -> f64 {
    let plot = HEIGHT - TOP - BOTTOM;
    HEIGHT - BOTTOM - plot * (value / top)
}

/// A round number at least `highest` for the value axis, and its tick step.
fn value_axis(highest: u32) -> (f64, f64) {
    let highest = f64::from(highest.max(1));
    let step = [
        1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0,
    ]
    .into_iter()
    .find(|step| highest / step <= 5.0)
    .unwrap_or_else(|| (highest / 5.0).ceil());
    ((highest / step).ceil() * step, step)
}

/// A number as the charts write a coordinate: to a tenth.
fn at(value: f64) -> String {
    format!("{value:.1}")
}

/// A chart's frame: its kind (which the page's script and tests find it by), its title for
/// readers of the picture and of the tooltip, and what is drawn inside.
fn chart(f: Frame, kind: &str, title: &str, drawn: Markup) -> Markup {
    html! {
        svg class=(f.class) data-chart=(kind) viewBox={ "0 0 " (f.width) " " (HEIGHT) } role="img"
            aria-label=(Text(title)) xmlns="http://www.w3.org/2000/svg" {
            title { (Text(title)) }
            (drawn)
        }
    }
}

/// The value axis's grid lines and numbers, from 0 to `top` by `step`. (SVG elements are closed
/// with an end tag, never left open: inside a page, an unclosed one holds what follows it.)
fn value_ticks(f: Frame, top: f64, step: f64) -> Markup {
    let values = std::iter::successors(Some(0.0), |value| Some(value + step))
        .take_while(|value| *value <= top + f64::EPSILON);
    html! {
        @for value in values {
            @let y = y_of(value, top);
            line class="grid" x1=(LEFT) x2=(f.width - RIGHT) y1=(at(y)) y2=(at(y)) {}
            text class="tick" x=(LEFT - 4.0) y=(at(y + 4.0)) text-anchor="end" { (value) }
        }
    }
}

/// A line chart over in-game time on `axis`: the time between sessions shaded, with how long it
/// was, and the sessions' numbers under the chart.
pub fn line_chart(kind: &str, title: &str, axis: &Axis, lines: &[Line<'_>]) -> Markup {
    let (top, step) = value_axis(lines.iter().map(|l| l.series.highest()).max().unwrap_or(0));
    let drawn = |f: Frame| {
        let between = axis
            .stretches
            .iter()
            .filter(|s| s.session.is_none() && s.to > s.from);
        let labels = axis.labels(f.labels);
        let last = labels.len().saturating_sub(1);
        html! {
            @for stretch in between {
                @let (x, end) = (x_of(f, stretch.columns.0), x_of(f, stretch.columns.1));
                @let length = crate::time::GameDuration(stretch.to - stretch.from);
                rect class="between" x=(at(x)) y=(TOP) width=(at(end - x)) height=(at(HEIGHT - TOP - BOTTOM)) {
                    title { (length) " between sessions" }
                }
                // Its length written in it too, where it fits: a phone shows no tooltip.
                @if end - x >= 36.0 {
                    text class="tick" x=(at((x + end) / 2.0)) y=(at(TOP + 12.0)) text-anchor="middle" { (length) }
                }
            }
            (value_ticks(f, top, step))
            @for (i, (column, label)) in labels.iter().enumerate() {
                @let anchor = match (i, column) {
                    (0, 0) => "start",
                    _ if i == last && *column == COLUMNS => "end",
                    _ => "middle",
                };
                text class="tick" x=(at(x_of(f, *column))) y=(HEIGHT - 8.0) text-anchor=(anchor) { (label) }
            }
            @for line in lines {
                polyline class="series" fill="none" stroke=(line.colour) stroke-width="2"
                    stroke-dasharray=[line.dashed.then_some("5 4")] points=(points(f, line, top)) {
                    title { (Text(&line.label)) }
                }
            }
        }
    };
    let keys: Vec<_> = lines
        .iter()
        .map(|l| (l.label.as_str(), l.colour, l.dashed))
        .collect();
    html! {
        @for f in FRAMES { (chart(f, kind, title, drawn(f))) }
        (legend(&keys))
    }
}

/// A line's points: flat until each column, then up and down through what it held.
fn points(f: Frame, line: &Line<'_>, top: f64) -> String {
    let mut points = String::new();
    let mut previous: Option<u32> = None;
    for &(column, first, low, high, last) in &line.series.columns {
        let x = x_of(f, column);
        for value in previous.into_iter().chain([first, low, high, last]) {
            let _ = write!(points, "{x:.1},{:.1} ", y_of(f64::from(value), top));
        }
        previous = Some(last);
    }
    if let Some(last) = previous {
        let _ = write!(
            points,
            "{:.1},{:.1}",
            x_of(f, COLUMNS),
            y_of(f64::from(last), top)
        );
    }
    points
}

/// One bar of a bar chart.
pub struct Bar {
    pub label: String,
    pub value: f64,
    /// Where a fair or safe value would be, drawn as a mark across the bar.
    pub mark: Option<f64>,
    /// Drawn in the warning colour (beyond a safe number).
    pub warn: bool,
}

/// Bars side by side, each with an optional mark (expected count, safe number) across it.
pub fn bar_chart(
    kind: &str,
    title: &str,
    bars: &[Bar],
    bar_label: &str,
    mark_label: &str,
) -> Markup {
    let highest = bars
        .iter()
        .map(|b| b.value.max(b.mark.unwrap_or(0.0)))
        .fold(0.0, f64::max);
    let (top, step) = value_axis(highest.ceil() as u32);
    // As many labels as fit side by side (about 6 units a character), the rest left to the tooltips.
    let widest = bars
        .iter()
        .map(|b| b.label.chars().count())
        .max()
        .unwrap_or(1);
    let drawn = |f: Frame| {
        let slot = (f.width - LEFT - RIGHT) / bars.len().max(1) as f64;
        let fit = ((f.width - LEFT - RIGHT) / (widest as f64 * 6.0 + 8.0)).max(1.0) as usize;
        let label_every = bars.len().div_ceil(fit).max(1);
        html! {
            (value_ticks(f, top, step))
            @for (i, bar) in bars.iter().enumerate() {
                @let x = LEFT + slot * i as f64;
                @let y = y_of(bar.value, top);
                rect class="bar" x=(at(x + slot * 0.1)) y=(at(y)) width=(at(slot * 0.8))
                    height=(at((HEIGHT - BOTTOM - y).max(0.0)))
                    fill=(if bar.warn { PALETTE[1] } else { PALETTE[0] }) {
                    title { (Text(&bar.label)) ": " (bar.value) }
                }
                @if let Some(mark) = bar.mark {
                    @let my = y_of(mark, top);
                    line class="mark" x1=(at(x)) x2=(at(x + slot)) y1=(at(my)) y2=(at(my)) stroke="#222" stroke-width="2" {}
                }
                @if i % label_every == 0 {
                    text class="tick" x=(at(x + slot / 2.0)) y=(HEIGHT - 8.0) text-anchor="middle" { (Text(&bar.label)) }
                }
            }
        }
    };
    let mut keys = vec![(bar_label, PALETTE[0], false)];
    if bars.iter().any(|b| b.warn) {
        keys.push(("beyond it", PALETTE[1], false));
    }
    if bars.iter().any(|b| b.mark.is_some()) {
        keys.push((mark_label, "#222", false));
    }
    html! {
        @for f in FRAMES { (chart(f, kind, title, drawn(f))) }
        (legend(&keys))
    }
}

fn legend(keys: &[(&str, &str, bool)]) -> Markup {
    html! {
        ul class="legend" {
            @for (label, colour, dashed) in keys {
                li {
                    span class={ "swatch " (if *dashed { "dashed" } else { "solid" }) }
                        style={ "border-color:" (colour) } {}
                    (Text(label))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// #47: a fight of seconds in an evening of twenty minutes. By time alone its changes take a
    /// thirtieth of the evening's width; spaced by events, its share of the evening's events.
    #[test]
    fn a_fight_of_seconds_in_an_evening_takes_its_events_share_of_the_width() {
        // One evening, 20 minutes, events #10 to #110; the fight is #50 to #70, in 36 seconds.
        let axis = Axis::of(&[(1, 0, Some(1_200))], 1_200).spaced_by_events(&[(1, 10, 110)]);
        let fight = axis.column_at(636, Some(1), 70) - axis.column_at(600, Some(1), 50);
        assert_eq!(fight, COLUMNS / 5, "a fifth of the evening's events");
        assert!(axis.column_of(636, Some(1)) - axis.column_of(600, Some(1)) < COLUMNS / 20);
        // Outside any session, or with no events to space by, time places an event.
        assert_eq!(axis.column_at(600, None, 60), axis.column_of(600, None));
        let unspaced = Axis::of(&[(1, 0, Some(1_200))], 1_200);
        assert_eq!(
            unspaced.column_at(600, Some(1), 60),
            unspaced.column_of(600, Some(1))
        );
    }

    #[test]
    fn a_series_keeps_at_most_one_column_per_step_of_the_axis_whatever_its_length() {
        let mut series = Series::default();
        let span = 1_000_000;
        let axis = Axis::of(&[(1, 0, Some(span / 2)), (2, span / 2 + 600, None)], span);
        for t in 0..span {
            series.note(axis.column_of(t, None), (t % 7) as u32);
        }
        assert!(series.points() <= COLUMNS as usize + 1);
        // A spike inside one column is kept as its highest value.
        assert_eq!(series.highest(), 6);
    }

    #[test]
    fn an_unchanged_value_adds_no_point() {
        let mut series = Series::default();
        series.note(0, 5);
        series.note(100, 5);
        assert_eq!(series.points(), 1);
        series.note(120, 4);
        assert_eq!(series.points(), 2);
    }

    #[test]
    fn the_value_axis_rounds_up_to_a_tick_and_never_divides_by_zero() {
        assert_eq!(value_axis(0), (1.0, 1.0));
        assert_eq!(value_axis(12), (15.0, 5.0));
        assert_eq!(value_axis(97), (100.0, 20.0));
        assert_eq!(Axis::of(&[], 0).column_of(10, None), 0);
        assert_eq!(Axis::of(&[], 10).column_of(u64::MAX, None), COLUMNS);
    }

    #[test]
    fn labels_are_escaped_in_every_chart() {
        let series = Series::default();
        let chart = line_chart(
            "health",
            "<b>x</b>",
            &Axis::of(&[], 10),
            &[Line {
                label: "<script>".into(),
                series: &series,
                colour: PALETTE[0],
                dashed: false,
            }],
        );
        let chart = chart.into_string();
        assert!(!chart.contains("<script>") && !chart.contains("<b>"));
        let bars = bar_chart(
            "dice",
            "t",
            &[Bar {
                label: "\"><img>".into(),
                value: 1.0,
                mark: None,
                warn: false,
            }],
            "seen",
            "expected",
        );
        assert!(!bars.into_string().contains("<img>"));
    }

    #[test]
    fn the_session_axis_runs_forward_within_its_bounds_and_shares_the_width_by_evening() {
        const WEEK: u64 = 7 * 86_400;
        // An hour of set-up, an evening, six weeks, an evening still open.
        let axis = Axis::of(
            &[(1, 3_600, Some(7_200)), (2, 7_200 + 6 * WEEK, None)],
            7_200 + 6 * WEEK + 3_600,
        );
        let mut last = 0;
        for seconds in (0..=7_200 + 6 * WEEK + 7_200).step_by(997) {
            let column = axis.column_of(seconds, None);
            assert!(column >= last && column <= COLUMNS, "{seconds}: {column}");
            last = column;
        }
        assert_eq!(axis.column_of(0, None), 0);
        // Set-up and the weeks between are one share each, the two evenings four each.
        assert_eq!(axis.column_of(3_600, None), COLUMNS / 10);
        assert_eq!(axis.column_of(7_200, None), COLUMNS / 2);
        assert_eq!(axis.column_of(7_200 + 6 * WEEK, None), 6 * COLUMNS / 10);
        assert_eq!(axis.column_of(u64::MAX, None), COLUMNS);
        // No session yet: Day 1 to the clock.
        let days = Axis::of(&[], 3 * 86_400);
        assert_eq!(days.column_of(3 * 86_400 / 2, None), COLUMNS / 2);
        assert_eq!(days.labels(8).first().map(|l| l.1.as_str()), Some("Day 1"));
        // Two evenings at the same clock: each event is drawn in its own session's stretch.
        let same = Axis::of(&[(1, 600, Some(600)), (2, 600, Some(600))], 600);
        assert!(same.column_of(600, Some(2)) > same.column_of(600, Some(1)));
    }
}
