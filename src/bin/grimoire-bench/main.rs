//! The benchmark harness: one table of ratios against baselines measured in the same run, for logs of
//! 10k, 100k and 1M generated events (see README, "Performance"). Each measurement alternates with
//! its baseline, run by run, so a change in the machine's load falls on both sides of a ratio.
//! Timings are medians of the runs, but appends are means over two snapshot cycles; nothing here is
//! asserted, the machine is shared. Every table is printed under its header; a run that fails is
//! named on standard error and makes the harness exit 1, a mistyped mode or flag exits 2 with the
//! usage ([`USAGE`]).

mod differential;
mod files;
mod live;
mod players;
mod postgres;
mod serve;

// What every mode uses, taken by each with `use super::*`.
use clap::Parser;
use grimoire::cli::{Cli, Context, run};
use grimoire::store::jsonl;
use grimoire::store::{SNAPSHOT_EVERY, Store};
use rusqlite::{Connection, params};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

/// Every mode, as `grimoire-bench --help` prints it.
const USAGE: &str = "\
usage: grimoire-bench [--sizes 10000,100000,1000000] [--dir DIR] [--reads-only]
           (the file backend: import, replay, reads and appends against raw SQLite)
       grimoire-bench postgres URL [--size 100000] [--dir DIR]
           (the PostgreSQL backend on the server and database URL names, e.g.
           postgres://grimoire@/bench?host=/tmp/pg; see README, \"Performance\")
       grimoire-bench serve-load [--phones 30] [--seconds 60] [--events 5000] [--dir DIR]
           (the live view under load: phones following `grimoire serve` while the GM appends)
       grimoire-bench players-load [--players 6] [--viewers 30] [--seconds 60] [--events 5000] [--dir DIR]
           (players' phones answering the rolls the GM puts to them, viewers following)
       grimoire-bench players-fair [--searchers 16] [--asks 300] [--events 5000] [--dir DIR]
           (one player's link searching the log in many loops while another's asks for its rolls)
       grimoire-bench differential [--cases 10000] [--seed N] [--dir DIR]
           (the two checkers of docs/export.md on changed exports: every verdict must agree)
       grimoire-bench replay-peak DB   (internal: full replay, then print peak memory in KiB)
       grimoire-bench profile DB       (where a read's and a write's time goes; appends one event)
       grimoire-bench append DB [--appends 50]
           (the durable append alone on a copy of DB, a campaign the harness generated, since it
           damages Magus1: one ratio, to follow one change)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, rest) = match args.split_first() {
        Some((mode, rest)) if !mode.starts_with('-') => (mode.as_str(), rest),
        _ => ("files", args.as_slice()),
    };
    let ran = match mode {
        _ if args.iter().any(|a| a == "--help" || a == "-h") || mode == "help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        "files" => files::main(rest),
        "postgres" => postgres::main(rest),
        "serve-load" => serve::main(rest),
        "players-load" => players::load_main(rest),
        "players-fair" => players::fair_main(rest),
        "differential" => differential::main(rest),
        "replay-peak" => files::replay_peak(rest),
        "profile" => files::profile(rest),
        "append" => files::append_only(rest),
        other => Err(Usage(format!("'{other}' is not a mode")).into()),
    };
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<Usage>() => {
            eprintln!("grimoire-bench: {e}\n{USAGE}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("grimoire-bench {mode}: {e}");
            ExitCode::from(1)
        }
    }
}

/// A mode or flag the harness does not know, or a flag without its value: exit 2, with the usage.
#[derive(Debug)]
struct Usage(String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// The value after `flag`, parsed, or a usage error naming it.
fn value<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T, Failure> {
    value
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| Usage(format!("{flag} needs a value of its kind")).into())
}

/// A flag the mode does not take.
fn unknown(flag: &str) -> Failure {
    Usage(format!("unknown argument {flag}")).into()
}

/// Prints a table's header and the line under it.
fn header(header: &str) {
    println!("{header}");
    println!(
        "|{}",
        "---:|".repeat(header.matches('|').count().saturating_sub(1))
    );
}

/// Prints each row of a table under its header as it is measured; a row that fails is named on
/// standard error and the others still run. Fails when any did.
fn table<T>(
    header: &str,
    rows: impl IntoIterator<Item = T>,
    mut row: impl FnMut(&T) -> Result<String, Failure>,
    name: impl Fn(&T) -> String,
) -> Result<(), Failure> {
    self::header(header);
    let mut failed = 0;
    for item in rows {
        match row(&item) {
            Ok(line) => println!("{line}"),
            Err(e) => {
                failed += 1;
                eprintln!("{}: {e}", name(&item));
            }
        }
    }
    match failed {
        0 => Ok(()),
        n => Err(format!("{n} run(s) failed").into()),
    }
}

type Failure = Box<dyn std::error::Error>;

/// The generated campaign file of `size` events and its export, made once and kept in `dir`.
fn prepared(size: u64, dir: &Path) -> Result<(PathBuf, PathBuf), Failure> {
    let db = dir.join(format!("bench-{size}.db"));
    if !db.exists() {
        let started = Instant::now();
        let mut new = Store::create_new(&db)?;
        grimoire::generate::generate(new.store(), 50, size, 7, "2026-01-01T00:00:00Z")?;
        // Snapshots as a campaign grown one command at a time keeps them (one every few events
        // near its head): the generator's bulk writes leave one per transaction, thousands of
        // events apart, which no table's file has and which would make every read of the recent
        // past replay thousands of events.
        new.store().rebuild_snapshots()?;
        new.publish()?;
        eprintln!("generated {size} events in {:.1?}", started.elapsed());
    } else {
        fresh_snapshots(&db)?;
    }
    let export = dir.join(format!("bench-{size}.jsonl"));
    if !export.exists() {
        let mut store = Store::open(&db)?;
        let mut out = std::io::BufWriter::new(std::fs::File::create(&export)?);
        store.for_each_row(grimoire::seq::Seq(1), None, |row| {
            writeln!(out, "{}", jsonl::event_line(&row).unwrap_or_default()).map_err(|e| {
                grimoire::store::StoreError::Io {
                    path: export.clone(),
                    action: "written",
                    why: e.to_string(),
                }
            })
        })?;
        out.flush()?;
    }
    Ok((db, export))
}

/// A copy of the generated campaign with one more session of about 1,000 events at its end, made
/// once and kept in `dir`.
fn with_a_long_session(db: &Path, size: u64, dir: &Path) -> Result<PathBuf, Failure> {
    let long = dir.join(format!("bench-{size}-long-session.db"));
    if !long.exists() {
        let copy = dir.join(format!("bench-{size}-long-session.partial.db"));
        remove(&copy);
        Store::open(db)?.backup(&copy, &|| false)?;
        let mut store = Store::open(&copy)?;
        grimoire::generate::play_session(&mut store, 50, 1_000, 9, "2026-02-01T00:00:00Z")?;
        drop(store);
        std::fs::rename(&copy, &long)?;
    } else {
        fresh_snapshots(&long)?;
    }
    Ok(long)
}

/// A file kept from an earlier run may hold snapshots of another state format, which this build
/// passes over: every read would replay from the first event and measure that instead (reads ran
/// about 90 times `head` on such a file). They are taken again by this build.
fn fresh_snapshots(db: &Path) -> Result<(), Failure> {
    Store::open(db)?.rebuild_snapshots()?;
    Ok(())
}

/// Imports an export into a new campaign at `location`, as `grimoire import` does.
fn import_into(location: grimoire::store::Location, export: &Path) -> Result<(), Failure> {
    let file = BufReader::new(std::fs::File::open(export)?);
    let lines = file
        .lines()
        .enumerate()
        .map(|(i, l)| (i as u64 + 1, l.map_err(|e| e.to_string())));
    grimoire::Campaign::import(&location, lines)?;
    Ok(())
}

/// One raw single-row durable insert, on a connection opened for it with the campaign's pragmas.
fn raw_append_once(path: &Path) -> Result<(), Failure> {
    insert_one_row(&raw_connection(path)?)
}

/// One raw single-row durable insert in its own transaction on `conn`.
fn insert_one_row(conn: &Connection) -> Result<(), Failure> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)",
    )?;
    conn.execute_batch("BEGIN IMMEDIATE")?;
    conn.execute(
        "INSERT INTO t (payload) VALUES (?1)",
        ["{\"kind\":\"damage_taken\",\"character\":\"Magus1\",\"amount\":1}"],
    )?;
    conn.execute_batch("COMMIT")?;
    Ok(())
}

fn raw_connection(path: &Path) -> Result<Connection, Failure> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    Ok(conn)
}

fn remove(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.as_os_str().to_owned();
        file.push(suffix);
        let _ = std::fs::remove_file(file);
    }
}

fn process(exe: &Path, args: &[&str]) -> Result<(), Failure> {
    let status = Command::new(exe)
        .args(args)
        .stdout(std::process::Stdio::null())
        .status()?;
    if !status.success() {
        return Err(format!("{} {args:?} failed", exe.display()).into());
    }
    Ok(())
}

fn time_once(mut work: impl FnMut() -> Result<(), Failure>) -> Result<Duration, Failure> {
    let started = Instant::now();
    work()?;
    Ok(started.elapsed())
}

/// Runs `measured` and `baseline` by turns, `runs` times each, and summarises each side's times.
fn alternating(
    runs: usize,
    summary: fn(Vec<Duration>) -> Duration,
    mut measured: impl FnMut() -> Result<(), Failure>,
    mut baseline: impl FnMut() -> Result<(), Failure>,
) -> Result<(Duration, Duration), Failure> {
    let (mut ours, mut theirs) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    for _ in 0..runs.max(1) {
        ours.push(time_once(&mut measured)?);
        theirs.push(time_once(&mut baseline)?);
    }
    Ok((summary(ours), summary(theirs)))
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn mean(times: Vec<Duration>) -> Duration {
    let count = u32::try_from(times.len().max(1)).unwrap_or(u32::MAX);
    times.iter().sum::<Duration>() / count
}

/// The machine's Chromium, when it has one.
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}
