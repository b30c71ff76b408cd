//! The dice audit: do the faces a group of dice showed look like a fair die's? For each group (a
//! die size and where its faces came from), Pearson's chi-square test against a uniform die, in
//! both directions (too uneven, and too even to be chance), and a test of whether the characters,
//! and the actors, who rolled in it got different faces from one another (a rigged split can leave
//! the pool looking ordinary). Every p-value is adjusted for the number of tests run (Holm's
//! method), so a fair campaign's audit is flagged at most once in a thousand, however many groups
//! it has. It reads only what the public log shows.

use crate::dice::Provenance;
use crate::event::{Event, Recorded};
use crate::ids::RequestId;
use crate::seq::Seq;
use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::collections::{BTreeMap, BTreeSet};

mod ranks;

/// An adjusted p-value below this flags a test. Fair dice are flagged this often by chance: at most
/// one audit in a thousand, whatever the number of tests in it.
pub const FLAG_BELOW: f64 = 0.001;

/// Each face must be expected at least this many times before the test means anything (the usual
/// rule for Pearson's test).
pub const MIN_EXPECTED_PER_FACE: u64 = 5;

/// Where a group's dice came from, as the log records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Physical dice typed in with `--rolls`.
    Entered,
    /// grimoire's provably fair dice.
    Seeded,
    /// A GM's sealed dice, once revealed.
    Sealed,
    /// Made by a player's device with the GM side's secret: rolled by the player, or the GM's
    /// roll witnessed (C-5, C-6).
    Device,
}

impl Origin {
    pub fn word(self) -> &'static str {
        match self {
            Origin::Entered => "entered",
            Origin::Seeded => "seeded",
            Origin::Sealed => "sealed",
            Origin::Device => "device",
        }
    }
}

/// Who chose a group's faces: the groups the audit judges apart. Sealed dice the GM typed and
/// sealed dice grimoire rolled are never pooled: a GM's choices could hide among fair dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Entered,
    Seeded,
    /// Sealed, the value typed by the GM.
    SealedTyped,
    /// Sealed, the value rolled by grimoire (from the seed, or before grimoire said, the operating
    /// system's randomness).
    SealedRolled,
    /// Rolled on a player's device (C-5).
    PlayerRolled,
    /// The GM's roll, witnessed by a player's device (C-6).
    Witnessed,
}

impl Source {
    pub fn origin(self) -> Origin {
        match self {
            Source::Entered => Origin::Entered,
            Source::Seeded => Origin::Seeded,
            Source::SealedTyped | Source::SealedRolled => Origin::Sealed,
            Source::PlayerRolled | Source::Witnessed => Origin::Device,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Source::Entered => "entered",
            Source::Seeded => "seeded",
            Source::SealedTyped => "sealed, typed by the GM",
            Source::SealedRolled => "sealed, rolled by grimoire",
            Source::PlayerRolled => "rolled on a player's device",
            Source::Witnessed => "the GM's, witnessed by a device",
        }
    }

    fn of(provenance: &Provenance) -> Source {
        match provenance {
            Provenance::Entered => Source::Entered,
            Provenance::Seeded { .. } => Source::Seeded,
            Provenance::Device {
                witnessed: false, ..
            } => Source::PlayerRolled,
            Provenance::Device {
                witnessed: true, ..
            } => Source::Witnessed,
            Provenance::Sealed {
                origin: Some(crate::dice::SealedOrigin::Entered),
                ..
            } => Source::SealedTyped,
            Provenance::Sealed { .. } => Source::SealedRolled,
        }
    }
}

/// What the test says of one group.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Too few rolls to judge: `needs` in all.
    TooFew { needs: u64 },
    /// Judged against a fair die (whether it is flagged depends on every test of the audit:
    /// [`judge`]).
    Judged {
        chi_square: f64,
        degrees_of_freedom: u32,
        p_value: f64,
    },
}

/// The faces one kind of die showed, from one source.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Tally {
    pub sides: u32,
    pub source: Source,
    /// How often each face came up, face 1 first.
    pub counts: Vec<u64>,
    /// The same faces by the character each roll was about (the first the event names; "" for
    /// none), and by the actor who entered it.
    #[serde(skip)]
    pub by_character: BTreeMap<String, Vec<u64>>,
    #[serde(skip)]
    pub by_actor: BTreeMap<String, Vec<u64>>,
    /// The characters players play (folded names), known from the devices linked to them: the
    /// rank test weighs them against the rest.
    #[serde(skip)]
    pub played: BTreeSet<String>,
}

impl Tally {
    pub fn rolls(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// How often each face is expected in as many rolls of a fair die.
    pub fn expected(&self) -> f64 {
        self.rolls() as f64 / f64::from(self.sides)
    }

    pub fn verdict(&self) -> Verdict {
        let needs = MIN_EXPECTED_PER_FACE * u64::from(self.sides);
        if self.rolls() < needs {
            return Verdict::TooFew { needs };
        }
        let expected = self.expected();
        let chi_square: f64 = self
            .counts
            .iter()
            .map(|&seen| (seen as f64 - expected).powi(2) / expected)
            .sum();
        let degrees_of_freedom = self.sides - 1;
        // Two sides or more, so at least one degree of freedom: the distribution exists.
        let p_value = ChiSquared::new(f64::from(degrees_of_freedom))
            .map_or(f64::NAN, |distribution| distribution.sf(chi_square));
        Verdict::Judged {
            chi_square,
            degrees_of_freedom,
            p_value,
        }
    }

    /// The face that came up most often, and how often.
    pub fn most_frequent(&self) -> Option<(u32, u64)> {
        let (index, &count) = self
            .counts
            .iter()
            .enumerate()
            .max_by_key(|&(index, count)| (*count, std::cmp::Reverse(index)))?;
        Some((u32::try_from(index).ok()? + 1, count))
    }
}

/// Who rolled a die: the character the roll was about, and the actor who entered it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roller {
    pub character: String,
    pub actor: String,
}

/// The tallies of every kind of die and source seen.
#[derive(Debug, Default)]
pub struct Audit {
    tallies: BTreeMap<(u32, Source), Tally>,
}

impl Audit {
    /// Counts one face. Dice of fewer than two sides, and faces off the die (which `verify`
    /// reports), say nothing about fairness and are left out.
    pub fn count(&mut self, sides: u32, source: Source, face: u32, roller: &Roller) {
        if !(2..=crate::dice::MAX_SIDES).contains(&sides) || face == 0 || face > sides {
            return;
        }
        let tally = self
            .tallies
            .entry((sides, source))
            .or_insert_with(|| Tally {
                sides,
                source,
                counts: vec![0; sides as usize],
                by_character: BTreeMap::new(),
                by_actor: BTreeMap::new(),
                played: BTreeSet::new(),
            });
        let face = face as usize - 1;
        tally.counts[face] += 1;
        for (by, who) in [
            (&mut tally.by_character, &roller.character),
            (&mut tally.by_actor, &roller.actor),
        ] {
            by.entry(who.clone())
                .or_insert_with(|| vec![0; sides as usize])[face] += 1;
        }
    }

    /// Every group, by die size and then source.
    pub fn tallies(self) -> Vec<Tally> {
        self.tallies.into_values().collect()
    }
}

/// What a test of the audit asks of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Question {
    /// Are the faces more uneven than a fair die's?
    Uneven,
    /// Are they more even than chance makes them (faces typed to look fair)?
    TooEven,
    /// Did the characters who rolled get different faces from one another?
    Characters,
    /// Did the actors who entered the rolls?
    Actors,
    /// Do the characters' faces rank differently (Kruskal–Wallis, every character its own group)?
    CharacterRanks,
    /// Do players' characters' faces rank differently from the rest's?
    PlayedAgainstRest,
}

/// One test of the audit, with its p-value adjusted for all the tests run.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Finding {
    /// The group's index among the tallies.
    pub group: usize,
    pub question: Question,
    pub chi_square: f64,
    pub degrees_of_freedom: u32,
    pub p_value: f64,
    /// Holm's adjustment for the number of tests: the p-value to compare with [`FLAG_BELOW`].
    pub adjusted_p: f64,
    pub flagged: bool,
    /// For the comparisons between rollers: who was compared (small ones pooled as "others"), and
    /// into how many ranges of faces the faces were put.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compared: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face_ranges: Option<u32>,
}

impl Question {
    /// Whether it compares who rolled, rather than judging the group's faces against a fair die.
    pub fn compares_rollers(self) -> bool {
        !matches!(self, Question::Uneven | Question::TooEven)
    }
}

impl Finding {
    /// What a flag on this finding says, in a few words.
    pub fn flag_words(&self) -> &'static str {
        match self.question {
            Question::Uneven => "fair dice rarely look this uneven",
            Question::TooEven => {
                "fair dice are rarely this even: the faces may have been chosen to look fair"
            }
            Question::Characters => "the characters' faces differ more than fair dice's would",
            Question::Actors => "the faces differ by who entered them more than fair dice's would",
            Question::CharacterRanks => {
                "the characters' faces rank apart more than fair dice's would"
            }
            Question::PlayedAgainstRest => {
                "players' characters' faces rank apart from the rest's more than fair dice's would"
            }
        }
    }
}

/// Every test the groups allow, each p-value adjusted by Holm's method, so the chance that a fair
/// campaign shows any flag stays below [`FLAG_BELOW`].
pub fn judge(tallies: &[Tally]) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (group, tally) in tallies.iter().enumerate() {
        if let Verdict::Judged {
            chi_square,
            degrees_of_freedom,
            p_value,
            ..
        } = tally.verdict()
        {
            let too_even = ChiSquared::new(f64::from(degrees_of_freedom))
                .map_or(f64::NAN, |d| d.cdf(chi_square));
            for (question, p_value) in [(Question::Uneven, p_value), (Question::TooEven, too_even)]
            {
                findings.push(Finding {
                    group,
                    question,
                    chi_square,
                    degrees_of_freedom,
                    p_value,
                    adjusted_p: p_value,
                    flagged: false,
                    compared: Vec::new(),
                    face_ranges: None,
                });
            }
        }
        for (question, by) in [
            (Question::Characters, &tally.by_character),
            (Question::Actors, &tally.by_actor),
        ] {
            for mut finding in between_rollers(tally.sides, by) {
                finding.group = group;
                finding.question = question;
                findings.push(finding);
            }
        }
        for mut finding in ranks::between_characters(&tally.by_character, &tally.played) {
            finding.group = group;
            findings.push(finding);
        }
    }
    holm(&mut findings);
    findings
}

/// Holm's step-down adjustment: the k-th smallest of m p-values is multiplied by m − k + 1, and
/// each adjusted value is at least the one before it.
fn holm(findings: &mut [Finding]) {
    let m = findings.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| findings[a].p_value.total_cmp(&findings[b].p_value));
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        let adjusted = (findings[i].p_value * (m - k) as f64).min(1.0);
        running = running.max(adjusted);
        findings[i].adjusted_p = running;
        findings[i].flagged = running < FLAG_BELOW;
    }
}

/// Whether rollers' faces differ from one another: Pearson's chi-square test of independence on a
/// table of rollers by ranges of faces, at two resolutions. Coarse: faces in as many equal ranges
/// as the smallest roller's rolls allow (each range expected at least five times), so a roller with
/// too few rolls for a test of their own still counts; rollers with too few even for two ranges are
/// pooled as "others". Fine: as many ranges as the second-busiest roller's rolls allow, among the
/// rollers with that many rolls (the rest pooled, or left out when even pooled they are too few),
/// so a small roller cannot coarsen the test for everyone (a split by alternate ranges of faces
/// hides in two ranges). Each is one finding; fewer than two rollers, none.
fn between_rollers(sides: u32, by: &BTreeMap<String, Vec<u64>>) -> Vec<Finding> {
    let total = |counts: &[u64]| counts.iter().sum::<u64>();
    let rows_with = |least: u64| -> Vec<(String, Vec<u64>)> {
        let mut rows: Vec<(String, Vec<u64>)> = Vec::new();
        let mut others = vec![0u64; sides as usize];
        for (who, counts) in by {
            if total(counts) >= least {
                let name = if who.is_empty() {
                    "no one named".to_string()
                } else {
                    who.clone()
                };
                rows.push((name, counts.clone()));
            } else {
                others.iter_mut().zip(counts).for_each(|(o, c)| *o += c);
            }
        }
        if total(&others) >= least {
            rows.push(("others".to_string(), others));
        }
        rows
    };
    let ranges_for = |rolls: u64| {
        u32::try_from(rolls / MIN_EXPECTED_PER_FACE)
            .unwrap_or(u32::MAX)
            .clamp(2, sides)
    };
    let mut findings = Vec::new();
    let coarse_rows = rows_with(2 * MIN_EXPECTED_PER_FACE);
    let coarse = coarse_rows
        .iter()
        .map(|(_, c)| total(c))
        .min()
        .map(ranges_for);
    if let Some(ranges) = coarse
        && let Some(finding) = independence(sides, ranges, coarse_rows)
    {
        findings.push(finding);
    }
    let mut busiest: Vec<u64> = by.values().map(|c| total(c)).collect();
    busiest.sort_unstable_by(|a, b| b.cmp(a));
    if let Some(&second) = busiest.get(1) {
        let ranges = ranges_for(second);
        if coarse.is_some_and(|coarse| ranges > coarse)
            && let Some(finding) = independence(
                sides,
                ranges,
                rows_with(u64::from(ranges) * MIN_EXPECTED_PER_FACE),
            )
        {
            findings.push(finding);
        }
    }
    findings
}

/// Pearson's test of independence of `rows` (rollers' faces) by `ranges` equal ranges of faces.
fn independence(sides: u32, ranges: u32, rows: Vec<(String, Vec<u64>)>) -> Option<Finding> {
    if rows.len() < 2 {
        return None;
    }
    let binned: Vec<Vec<f64>> = rows
        .iter()
        .map(|(_, counts)| {
            let mut bins = vec![0.0; ranges as usize];
            for (face, &count) in counts.iter().enumerate() {
                let bin = face * ranges as usize / sides as usize;
                bins[bin] += count as f64;
            }
            bins
        })
        .collect();
    let row_totals: Vec<f64> = binned.iter().map(|r| r.iter().sum()).collect();
    let column_totals: Vec<f64> = (0..ranges as usize)
        .map(|j| binned.iter().map(|r| r[j]).sum())
        .collect();
    let total: f64 = row_totals.iter().sum();
    let mut chi_square = 0.0;
    for (row, row_total) in binned.iter().zip(&row_totals) {
        for (seen, column_total) in row.iter().zip(&column_totals) {
            let expected = row_total * column_total / total;
            if expected > 0.0 {
                chi_square += (seen - expected).powi(2) / expected;
            }
        }
    }
    let degrees_of_freedom = u32::try_from(rows.len() - 1).ok()? * (ranges - 1);
    let p_value =
        ChiSquared::new(f64::from(degrees_of_freedom)).map_or(f64::NAN, |d| d.sf(chi_square));
    Some(Finding {
        group: 0,
        question: Question::Characters,
        chi_square,
        degrees_of_freedom,
        p_value,
        adjusted_p: p_value,
        flagged: false,
        compared: rows.into_iter().map(|(who, _)| who).collect(),
        face_ranges: Some(ranges),
    })
}

/// Counts the dice of a log read in seq order: entered and seeded faces as their events come, a
/// sealed die's faces when its reveal comes (the public log shows nothing of it before).
#[derive(Debug, Default)]
pub struct LogTally {
    audit: Audit,
    die: Option<u32>,
    origin: Option<Origin>,
    /// Sealed dice of the events counted, by seq: (die number, sides, source, who rolled it),
    /// waiting for their reveal.
    sealed: BTreeMap<Seq, Vec<(u32, u32, Source, Roller)>>,
    /// Who put each roll to a device, by request number.
    askers: Askers,
    /// The characters players play (folded), from every device ever linked.
    played: BTreeSet<String>,
}

/// Who put each roll to a player's device, by request number, learnt from the log in seq order:
/// the GM's roll a phone witnessed (C-6) is the asker's, though the phone's player recorded its
/// answer (the answer keeps the actor it was stored with).
#[derive(Debug, Default, Clone)]
pub struct Askers(BTreeMap<RequestId, String>);

impl Askers {
    /// Reads one event (a request is remembered).
    pub fn note(&mut self, r: &Recorded) {
        if let Event::RollRequested { request, .. } = &r.event {
            self.0.insert(*request, r.actor.clone());
        }
    }

    /// Who acts for `r`: the actor who put the request, for dice a phone witnessed; otherwise
    /// the actor who entered it.
    pub fn actor_of<'r>(&'r self, r: &'r Recorded) -> &'r str {
        r.event
            .dice()
            .iter()
            .find_map(|d| match d.provenance {
                crate::dice::Provenance::Device {
                    request,
                    witnessed: true,
                } => self.0.get(&request),
                _ => None,
            })
            .map_or(r.actor.as_str(), String::as_str)
    }
}

impl LogTally {
    /// Counts only dice of the size `die` and the origin `origin` (all when `None`).
    pub fn new(die: Option<u32>, origin: Option<Origin>) -> LogTally {
        LogTally {
            die,
            origin,
            ..LogTally::default()
        }
    }

    /// Reads one event; `counted` says whether its own dice count (a reveal is always read, and
    /// counts the sealed dice of the events that were). Returns whether the event rolled dice.
    pub fn feed(&mut self, r: &Recorded, counted: bool) -> bool {
        self.askers.note(r);
        if let Event::DeviceLinked { characters, .. } = &r.event {
            self.played
                .extend(characters.iter().map(|c| crate::words::fold_name(c)));
        }
        if let Event::SealedRevealed { seq, dice } = &r.event {
            if let Some(waiting) = self.sealed.remove(seq) {
                for revealed in dice {
                    let Some((_, sides, source, roller)) =
                        waiting.iter().find(|(n, ..)| *n == revealed.n)
                    else {
                        continue;
                    };
                    for face in revealed.faces() {
                        self.audit.count(*sides, *source, face, roller);
                    }
                }
            }
            return false;
        }
        let dice = r.event.dice();
        if !counted {
            return false;
        }
        let mut first_named = String::new();
        r.event.mentions(&mut |name| {
            first_named = crate::words::fold_name(name);
            true
        });
        let roller = Roller {
            character: first_named,
            actor: crate::words::fold_name(self.askers.actor_of(r)),
        };
        for die in dice {
            let source = Source::of(&die.provenance);
            if self.die.is_some_and(|sides| sides != die.sides)
                || self.origin.is_some_and(|o| o != source.origin())
            {
                continue;
            }
            match die.value {
                Some(face) => self.audit.count(die.sides, source, face, &roller),
                None => self.sealed.entry(r.seq).or_default().push((
                    die.n,
                    die.sides,
                    source,
                    roller.clone(),
                )),
            }
        }
        !dice.is_empty()
    }

    pub fn tallies(self) -> Vec<Tally> {
        let mut tallies = self.audit.tallies();
        for tally in &mut tallies {
            tally.played = self.played.clone();
        }
        tallies
    }
}

#[cfg(test)]
mod tests;
