//! The two checkers of docs/export.md on changed exports.

use super::*;

/// The mode's table: its header, then its one row.
pub(super) fn main(args: &[String]) -> Result<(), Failure> {
    println!("{}", measure(args)?);
    Ok(())
}

/// The two checkers of docs/export.md on `cases` exports of the every-kind fixture (as written, of
/// payload version 2, and raised to today's) changed at random and on purpose: grimoire's own check
/// in this process, the players' page in headless Chromium. Prints how many verdicts disagree
/// (there must be none), each listed, and how long each checker took per export.
fn measure(args: &[String]) -> Result<String, Failure> {
    use grimoire::differential::{
        at_version, grimoire_verdict, mutations, page_verdicts, rows_of, write_check_page,
    };
    let (mut cases, mut seed) = (10_000usize, None);
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = rest.next();
        match arg.as_str() {
            "--cases" => cases = super::value(arg, value)?,
            "--seed" => seed = Some(super::value(arg, value)?),
            "--dir" => dir = super::value(arg, value)?,
            other => return Err(unknown(other)),
        }
    }
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |since| since.as_nanos() as u64)
    });
    let dir = dir.join("differential");
    let _ = std::fs::remove_dir_all(&dir);
    super::header("| mode | exports | verdicts | time per export |");
    std::fs::create_dir_all(&dir)?;
    let every_kind = rows_of(include_str!("../../../fixtures/state/every-kind.jsonl"));
    let older = every_kind[..48].to_vec();
    let bases = vec![
        older.clone(),
        at_version(&older, grimoire::event::SCHEMA_VERSION),
    ];
    let changed = mutations(&bases, seed, cases);
    let texts: Vec<String> = changed.iter().map(|case| case.text.clone()).collect();
    let started = Instant::now();
    let ours: Vec<(bool, Option<u64>)> = texts.iter().map(|text| grimoire_verdict(text)).collect();
    let grimoire_took = started.elapsed();
    let Some(chromium) = chromium() else {
        return Ok(format!(
            "| differential | {cases} exports, seed {seed} | page not run (no Chromium) |"
        ));
    };
    let page = write_check_page(&dir, &texts, 100)?;
    let started = Instant::now();
    let out = Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .output()?;
    let page_took = started.elapsed();
    let theirs =
        page_verdicts(&String::from_utf8_lossy(&out.stdout)).ok_or("the page wrote no verdicts")?;
    let mut disagree = Vec::new();
    for ((case, ours), theirs) in changed.iter().zip(&ours).zip(&theirs) {
        let page = theirs.as_ref().map(|(holds, first, _)| (*holds, *first));
        if page != Ok(*ours) {
            disagree.push(format!("{}: grimoire {ours:?}, page {theirs:?}", case.what));
        }
    }
    if theirs.len() != cases {
        disagree.push(format!("the page judged {} of {cases}", theirs.len()));
    }
    let refused = ours.iter().filter(|(holds, _)| !holds).count();
    let per = |took: Duration| took / cases.max(1) as u32;
    Ok(format!(
        "| differential | {cases} exports, seed {seed}, {refused} refused | {} disagree | grimoire {:.2?} per export, page {:.2?} per export |{}",
        disagree.len(),
        per(grimoire_took),
        per(page_took),
        disagree
            .iter()
            .map(|d| format!("\n{d}"))
            .collect::<String>()
    ))
}
