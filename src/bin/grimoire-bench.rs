//! The benchmark harness: one table of ratios against baselines measured in the same run, for logs of
//! 10k, 100k and 1M generated events (see README, "Performance"). Each measurement alternates with
//! its baseline, run by run, so a change in the machine's load falls on both sides of a ratio.
//! Timings are medians of the runs, but appends are means over two snapshot cycles; nothing here is
//! asserted, the machine is shared.
//!
//! Usage: grimoire-bench [--sizes 10000,100000,1000000] [--dir DIR] [--reads-only]
//!        grimoire-bench postgres URL [--size 100000] [--dir DIR]
//!            (the PostgreSQL backend on the server and database URL names, e.g.
//!            postgres://grimoire@/bench?host=/tmp/pg; see README, "Performance")
//!        grimoire-bench serve-load [--phones 30] [--seconds 60] [--events 5000] [--dir DIR]
//!            (the live view under load: phones following `grimoire serve` while the GM appends)
//!        grimoire-bench players-load [--players 6] [--viewers 30] [--seconds 60] [--events 5000] [--dir DIR]
//!            (players' phones answering the rolls the GM puts to them, viewers following)
//!        grimoire-bench players-fair [--searchers 16] [--asks 300] [--events 5000] [--dir DIR]
//!            (one player's link searching the log in many loops while another's asks for its rolls)
//!        grimoire-bench differential [--cases 10000] [--seed N] [--dir DIR]
//!            (the two checkers of docs/export.md on changed exports: every verdict must agree)
//!        grimoire-bench replay-peak DB   (internal: full replay, then print peak memory in KiB)
//!        grimoire-bench profile DB       (where a read's and a write's time goes; appends one event)

use clap::Parser;
use grimoire::cli::{Cli, Context, run};
use grimoire::store::jsonl;
use grimoire::store::{SNAPSHOT_EVERY, Store};
use rusqlite::{Connection, params};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("profile") {
        let Some(db) = args.get(2) else {
            return eprintln!("usage: grimoire-bench profile DB");
        };
        return profile(Path::new(db));
    }
    if args.get(1).map(String::as_str) == Some("replay-peak") {
        let Some(db) = args.get(2) else {
            return eprintln!("usage: grimoire-bench replay-peak DB");
        };
        return replay_peak(Path::new(db));
    }
    if args.get(1).map(String::as_str) == Some("postgres") {
        return postgres_main(&args[2..]);
    }
    if args.get(1).map(String::as_str) == Some("players-load") {
        return match players_load_main(&args[2..]) {
            Ok(row) => println!("{row}"),
            Err(e) => eprintln!("players-load: {e}"),
        };
    }
    if args.get(1).map(String::as_str) == Some("players-fair") {
        return match players_fair_main(&args[2..]) {
            Ok(row) => println!("{row}"),
            Err(e) => eprintln!("players-fair: {e}"),
        };
    }
    if args.get(1).map(String::as_str) == Some("differential") {
        return match differential_main(&args[2..]) {
            Ok(row) => println!("{row}"),
            Err(e) => eprintln!("differential: {e}"),
        };
    }
    if args.get(1).map(String::as_str) == Some("serve-load") {
        return match serve_load_main(&args[2..]) {
            Ok(row) => println!("{row}"),
            Err(e) => eprintln!("serve-load: {e}"),
        };
    }
    let mut sizes = vec![10_000u64, 100_000, 1_000_000];
    let mut reads_only = false;
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--sizes" => {
                sizes = rest
                    .next()
                    .map(|s| s.split(',').filter_map(|n| n.parse().ok()).collect())
                    .unwrap_or(sizes)
            }
            "--dir" => dir = rest.next().map(PathBuf::from).unwrap_or(dir),
            "--reads-only" => reads_only = true,
            other => {
                return eprintln!(
                    "unknown argument {other}; usage: grimoire-bench [--sizes N,N] [--dir DIR] [--reads-only]"
                );
            }
        }
    }
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return eprintln!("cannot create {}: {e}", dir.display());
    }
    if !reads_only {
        println!(
            "| events | import vs raw insert | cold replay vs raw checked parse | `character show` vs `--version` | durable append vs raw insert | durable append in `shell` vs raw insert | peak replay memory |"
        );
        println!("|---:|---:|---:|---:|---:|---:|---:|");
        for &size in &sizes {
            match bench(size, &dir) {
                Ok(row) => println!("{row}"),
                Err(e) => eprintln!("size {size}: {e}"),
            }
        }
        println!();
    }
    println!(
        "| events | `log --limit 20` vs `head` | `log --character X --limit 20` vs `head` | `character list` vs `head` | `diff --party` (last 100 events) vs `head` | `session recap` of a 1,000-event session vs `head` | full `log` vs `export` |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for size in sizes {
        match reads(size, &dir) {
            Ok(row) => println!("{row}"),
            Err(e) => eprintln!("size {size}: {e}"),
        }
    }
}

/// Reads that must cost what they print, each a whole process against `grimoire head` (open the
/// campaign, read its last row) on the same file; the full log against `export`, which writes as
/// many lines.
fn reads(size: u64, dir: &Path) -> Result<String, Failure> {
    let (db, _) = prepared(size, dir)?;
    let exe = std::env::current_exe()?.with_file_name("grimoire");
    let on = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["--db".to_string(), db.display().to_string()];
        all.extend(args.iter().map(|a| a.to_string()));
        all
    };
    let run = |args: &[String]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        process(&exe, &args)
    };
    let head = on(&["head"]);
    let last = Store::open(&db)?.head()?.map_or(1, |h| h.seq.get());
    let hundred_back = last.saturating_sub(100).max(1).to_string();
    let mut ratios = Vec::new();
    for args in [
        on(&["log", "--limit", "20"]),
        on(&["log", "--character", "Magus1", "--limit", "20"]),
        on(&["character", "list"]),
        on(&["diff", "--party", "--from", &hundred_back]),
    ] {
        let (measured, baseline) = alternating(7, median, || run(&args), || run(&head))?;
        ratios.push(format!(
            "{:.2} ({measured:.2?} / {baseline:.2?})",
            measured.as_secs_f64() / baseline.as_secs_f64().max(1e-9)
        ));
    }
    // A recap of a long evening: the same campaign with one more session of 1,000 events, each
    // process against `head` on that file.
    let long = with_a_long_session(&db, size, dir)?;
    let on_long = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["--db".to_string(), long.display().to_string()];
        all.extend(args.iter().map(|a| a.to_string()));
        all
    };
    let (recap, baseline) = alternating(
        7,
        median,
        || run(&on_long(&["session", "recap"])),
        || run(&on_long(&["head"])),
    )?;
    ratios.push(format!(
        "{:.2} ({recap:.2?} / {baseline:.2?})",
        recap.as_secs_f64() / baseline.as_secs_f64().max(1e-9)
    ));
    let (log, export) = alternating(3, median, || run(&on(&["log"])), || run(&on(&["export"])))?;
    ratios.push(format!(
        "{:.2} ({log:.2?} / {export:.2?})",
        log.as_secs_f64() / export.as_secs_f64().max(1e-9)
    ));
    Ok(format!("| {size} | {} |", ratios.join(" | ")))
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

fn bench(size: u64, dir: &Path) -> Result<String, Failure> {
    let (db, export) = prepared(size, dir)?;

    // 1. Import (chain checked, events validated) vs inserting the same parsed rows raw; repeated
    // where that is quick, since a single run of a fraction of a second is at the mercy of the machine.
    let import_runs = if size <= 100_000 { 3 } else { 1 };
    let (import, raw_insert) = alternating(
        import_runs,
        median,
        || {
            let target = dir.join("import.db");
            remove(&target);
            import_into(target.into(), &export)
        },
        || {
            let target = dir.join("raw.db");
            remove(&target);
            let mut conn = raw_connection(&target)?;
            conn.execute_batch("CREATE TABLE events (seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, schema_version INTEGER NOT NULL, payload TEXT NOT NULL, game_time INTEGER NOT NULL, recorded_at TEXT NOT NULL, session INTEGER, actor TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL) STRICT")?;
            let tx = conn.transaction()?;
            {
                let mut insert = tx.prepare(
                    "INSERT INTO events VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                )?;
                for line in BufReader::new(std::fs::File::open(&export)?).lines() {
                    let jsonl::Line::Event(r) = jsonl::parse_line(&line?)? else {
                        continue;
                    };
                    insert.execute(params![
                        r.seq.get() as i64,
                        r.event_id,
                        r.kind,
                        r.schema_version,
                        r.payload,
                        r.game_time as i64,
                        r.recorded_at,
                        r.session,
                        r.actor,
                        r.prev_hash,
                        r.hash
                    ])?;
                }
            }
            tx.commit()?;
            Ok(())
        },
    )?;

    // 2. Cold full replay without snapshots vs a raw SELECT of the same rows, each payload read as
    // JSON and checked whole but kept as nothing (serde's IgnoredAny): the least any reader of the
    // log must do. (Building a generic JSON tree instead, as this baseline once did, cost three
    // times as much and flattered the ratio.)
    let (replay, raw_parse) = alternating(
        3,
        median,
        || {
            let mut store = Store::open(&db)?;
            store.replay_without_snapshots(None)?;
            Ok(())
        },
        || {
            let conn = raw_connection(&db)?;
            let mut stmt =
                conn.prepare("SELECT seq, kind, schema_version, payload FROM events ORDER BY seq")?;
            let mut rows = stmt.query([])?;
            while let Some(row) = rows.next()? {
                let payload: String = row.get(3)?;
                let _: serde::de::IgnoredAny = serde_json::from_str(&payload)?;
            }
            Ok(())
        },
    )?;

    // 3. `character show` as a whole process (snapshots kept) vs `grimoire --version`.
    let exe = std::env::current_exe()?.with_file_name("grimoire");
    Store::open(&db)?.rebuild_snapshots()?;
    let (show, version) = alternating(
        7,
        median,
        || {
            process(
                &exe,
                &[
                    "--db",
                    db.to_str().unwrap_or_default(),
                    "character",
                    "show",
                    "Magus1",
                ],
            )
        },
        || process(&exe, &["--version"]),
    )?;

    // 4. One durable append (a `damage` command, in process) vs a raw single-row durable insert,
    // averaged over two whole snapshot cycles: the tail replayed grows from none to a full interval,
    // and one append in each cycle also writes a snapshot.
    let cycles = 2 * SNAPSHOT_EVERY as usize;
    let (append, raw_append) = alternating(
        cycles,
        mean,
        || {
            let cli = Cli::try_parse_from([
                "grimoire",
                "--db",
                db.to_str().unwrap_or_default(),
                "damage",
                "Magus1",
                "1",
            ])?;
            let mut ctx = Context::from_env()?;
            run(&cli, &mut ctx)?;
            Ok(())
        },
        || raw_append_once(&dir.join("raw-append.db")),
    )?;

    // 4b. The same append typed into `grimoire shell`, which keeps the file open and the state at
    // its head in memory, vs the same raw insert on a connection also kept open.
    let globals =
        Cli::try_parse_from(["grimoire", "--db", db.to_str().unwrap_or_default(), "head"])?.globals;
    let mut shell = grimoire::cli::shell::Shell::open(&globals)?;
    let mut shell_ctx = Context::from_env()?;
    let raw_open = raw_connection(&dir.join("raw-append.db"))?;
    // Two of the shell's own snapshot cycles, for the same reason as above.
    let (shell_append, raw_shell_append) = alternating(
        2 * grimoire::cli::shell::SHELL_SNAPSHOT_EVERY as usize,
        mean,
        || {
            shell.execute("damage Magus1 1", &mut shell_ctx)?;
            Ok(())
        },
        || insert_one_row(&raw_open),
    )?;

    // 5. Peak memory of a full replay, in a fresh process.
    let bench_exe = std::env::current_exe()?;
    let out = Command::new(bench_exe)
        .args(["replay-peak", db.to_str().unwrap_or_default()])
        .output()?;
    let peak_kib: u64 = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(0);

    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64().max(1e-9);
    Ok(format!(
        "| {size} | {:.2} ({:.2?} / {:.2?}) | {:.2} ({:.2?} / {:.2?}) | {:.2} ({:.2?} / {:.2?}) | {:.2} ({:.2?} / {:.2?}) | {:.2} ({:.2?} / {:.2?}) | {:.1} MiB |",
        ratio(import, raw_insert),
        import,
        raw_insert,
        ratio(replay, raw_parse),
        replay,
        raw_parse,
        ratio(show, version),
        show,
        version,
        ratio(append, raw_append),
        append,
        raw_append,
        ratio(shell_append, raw_shell_append),
        shell_append,
        raw_shell_append,
        peak_kib as f64 / 1024.0
    ))
}

fn postgres_main(args: &[String]) {
    let Some(url) = args.first() else {
        return eprintln!("usage: grimoire-bench postgres URL [--size N] [--dir DIR]");
    };
    let mut size = 100_000u64;
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--size" => size = rest.next().and_then(|n| n.parse().ok()).unwrap_or(size),
            "--dir" => dir = rest.next().map(PathBuf::from).unwrap_or(dir),
            other => return eprintln!("unknown argument {other}"),
        }
    }
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return eprintln!("cannot create {}: {e}", dir.display());
    }
    println!(
        "| events | durable append vs raw `psql` insert | `character show` vs raw `psql` select | import vs the same import into a SQLite file |"
    );
    println!("|---:|---:|---:|---:|");
    match bench_postgres(url, size, &dir) {
        Ok(row) => println!("{row}"),
        Err(e) => eprintln!("postgres, size {size}: {e}"),
    }
}

/// The PostgreSQL backend as whole processes on both sides: `grimoire` against `psql` (the
/// server's own client) doing one insert or one select on the same server.
fn bench_postgres(url: &str, size: u64, dir: &Path) -> Result<String, Failure> {
    let (_, export) = prepared(size, dir)?;
    let separator = if url.contains('?') { '&' } else { '?' };
    let campaign = format!("{url}{separator}campaign=bench-{size}");
    let location = grimoire::store::Location::parse(&campaign)?;
    if !Store::exists(&location)? {
        let started = Instant::now();
        import_into(location.clone(), &export)?;
        eprintln!(
            "imported {size} events into PostgreSQL in {:.1?}",
            started.elapsed()
        );
    }
    // Snapshots of this build's state format, as the file side has them.
    Store::open(&location)?.rebuild_snapshots()?;
    let exe = std::env::current_exe()?.with_file_name("grimoire");
    let psql = |sql: &str| process(Path::new("psql"), &["-X", "-q", "-d", url, "-c", sql]);
    psql("CREATE TABLE IF NOT EXISTS bench_raw (id BIGSERIAL PRIMARY KEY, payload TEXT NOT NULL)")?;
    let (append, raw_append) = alternating(
        2 * SNAPSHOT_EVERY as usize,
        mean,
        || process(&exe, &["--db", &campaign, "damage", "Magus1", "1"]),
        || {
            psql(
                "INSERT INTO bench_raw (payload) VALUES ('{\"kind\":\"damage_taken\",\"character\":\"Magus1\",\"amount\":1}')",
            )
        },
    )?;
    let (show, select) = alternating(
        7,
        median,
        || process(&exe, &["--db", &campaign, "character", "show", "Magus1"]),
        || psql("SELECT payload FROM events ORDER BY campaign DESC, seq DESC LIMIT 1"),
    )?;
    // The export imported into a new campaign on the server, against the same import into a new
    // file: each run a campaign of its own (rows are never deleted), each file removed first.
    let mut run = 0;
    let file = dir.join(format!("import-{size}.db"));
    let (pg_import, file_import) = alternating(
        3,
        median,
        || {
            run += 1;
            let name = format!(
                "{url}{separator}campaign=bench-import-{size}-{}-{run}",
                std::process::id()
            );
            import_into(grimoire::store::Location::parse(&name)?, &export)
        },
        || {
            grimoire::store::remove_database_files(&file);
            import_into(grimoire::store::Location::File(file.clone()), &export)
        },
    )?;
    grimoire::store::remove_database_files(&file);
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64().max(1e-9);
    Ok(format!(
        "| {size} | {:.2} ({:.2?} / {:.2?}) | {:.2} ({:.2?} / {:.2?}) | {:.2} ({:.2?} / {:.2?}) |",
        ratio(append, raw_append),
        append,
        raw_append,
        ratio(show, select),
        show,
        select,
        ratio(pg_import, file_import),
        pg_import,
        file_import
    ))
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

/// Replays the whole log without snapshots, then prints the process's peak resident memory (KiB).
fn replay_peak(db: &Path) {
    let replayed = Store::open(db).and_then(|mut s| s.replay_without_snapshots(None));
    if let Err(e) = replayed {
        return eprintln!("replay failed: {e}");
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .map(|v| v.trim().trim_end_matches(" kB").trim().to_string());
    println!("{}", peak.unwrap_or_else(|| "0".into()));
}

/// Where the time of a read goes: opening the file, loading the snapshot, replaying the tail.
fn profile(db: &Path) {
    let started = Instant::now();
    let Ok(mut store) = Store::open(db) else {
        return eprintln!("cannot open {}", db.display());
    };
    let opened = started.elapsed();
    let Ok(conn) = Connection::open(db) else {
        return eprintln!("cannot open {}", db.display());
    };
    let load = Instant::now();
    let text: String = conn
        .query_row(
            "SELECT state FROM snapshots ORDER BY seq DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap_or_default();
    let read = load.elapsed();
    let parse = Instant::now();
    let parsed = serde_json::from_str::<grimoire::state::CampaignState>(&text).is_ok();
    let parsed_in = parse.elapsed();
    let replay = Instant::now();
    let replayed = store.replay(None).is_ok();
    let replay_in = replay.elapsed();
    // One durable write of a one-round clock advance (it stays in the log: profile a copy).
    let write = Instant::now();
    let run = grimoire::campaign::Run {
        stamp: grimoire::store::Stamp {
            recorded_at: "2026-01-01T00:00:00Z".into(),
            actor: "profile".into(),
            id_rng: rand::SeedableRng::seed_from_u64(1),
        },
        dice: grimoire::campaign::DiceSource::Seeded {
            player_entropy: None,
        },
        rng: rand::SeedableRng::seed_from_u64(2),
    };
    let advance = grimoire::rules::Command::AdvanceClock(grimoire::rules::campaign::ClockAdvance {
        by: grimoire::time::GameDuration(6),
    });
    let wrote = grimoire::Campaign::on(&mut store)
        .execute(run, advance)
        .is_ok();
    println!(
        "open {opened:.2?}; snapshot of {} bytes read in {read:.2?}, parsed ({parsed}) in {parsed_in:.2?}; \
         replay with snapshot ({replayed}) {replay_in:.2?}; one durable write ({wrote}) {:.2?}",
        text.len(),
        write.elapsed()
    );
}

/// The live view under load: `phones` clients follow `grimoire serve`'s stream of updates on
/// loopback for `seconds` while the GM appends a roll every half second (faster than any table),
/// each append timed. Before and after, the same appends are timed with no server running: the
/// ratio says what serving costs the GM. Every phone must see every append's head; the delay from
/// an append's commit to each phone's receipt is summed up as its median and 99th percentile.
/// Every loop is bounded in count and time, and only 127.0.0.1 is spoken to.
fn serve_load_main(args: &[String]) -> Result<String, Failure> {
    let (mut phones, mut seconds, mut events) = (30usize, 60u64, 5_000u64);
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = rest.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--phones" => phones = value.parse()?,
            "--seconds" => seconds = value.parse()?,
            "--events" => events = value.parse()?,
            "--dir" => dir = PathBuf::from(value),
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    std::fs::create_dir_all(&dir)?;
    let db = dir.join(format!("serve-load-{events}.db"));
    remove(&db);
    let last_file = dir.join("serve-load-last");
    let _ = std::fs::remove_file(&last_file);
    let exe = std::env::current_exe()?.with_file_name("grimoire");
    let path = db.to_str().unwrap_or_default();
    process(
        &exe,
        &[
            "--db",
            path,
            "dev",
            "generate",
            "--events",
            &events.to_string(),
        ],
    )?;
    let append = || -> Result<(Duration, Instant), Failure> {
        let cli = Cli::try_parse_from(["grimoire", "--db", path, "roll", "d20", "--for", "load"])?;
        let mut ctx = Context::from_env()?;
        let started = Instant::now();
        run(&cli, &mut ctx)?;
        Ok((started.elapsed(), Instant::now()))
    };
    let pace = Duration::from_millis(500);
    let alone = |count: usize| -> Result<Vec<Duration>, Failure> {
        let mut times = Vec::with_capacity(count);
        for _ in 0..count {
            times.push(append()?.0);
            std::thread::sleep(pace);
        }
        Ok(times)
    };
    let mut without = alone(20)?;

    let (mut server, address, updates) = serving(&exe, path)?;
    let outcome = (|| -> Result<String, Failure> {
        let deadline = Instant::now() + Duration::from_secs(seconds + 30);
        let followers = viewing(phones, &address, &updates, &last_file, deadline);
        // Every phone has its first head before the appends begin.
        std::thread::sleep(Duration::from_secs(2));
        let mut served = Vec::new();
        let mut committed: Vec<(u64, Instant)> = Vec::new();
        let until = Instant::now() + Duration::from_secs(seconds);
        while Instant::now() < until {
            let (took, at) = append()?;
            served.push(took);
            let head = Store::open(&db)?.head()?.map_or(0, |h| h.seq.get());
            committed.push((head, at));
            std::thread::sleep(pace);
        }
        // The last append's head reaches every phone, or the deadline ends the wait.
        let last = committed.last().map_or(0, |(seq, _)| *seq);
        std::fs::write(&last_file, last.to_string())?;
        let mut delays = Vec::new();
        let mut missed = 0usize;
        for follower in followers {
            let seen = follower.join().map_err(|_| "a phone's thread failed")??;
            for (seq, at) in &committed {
                match seen.iter().find(|(s, _)| s == seq) {
                    Some((_, got)) => delays.push(got.saturating_duration_since(*at)),
                    None => missed += 1,
                }
            }
        }
        delays.sort();
        let quantile = |q: f64| {
            delays
                .get(((delays.len() as f64 * q) as usize).min(delays.len().saturating_sub(1)))
                .copied()
                .unwrap_or_default()
        };
        without.extend(alone(20)?);
        let (with, without) = (mean(served.clone()), mean(without));
        Ok(format!(
            "| {phones} phones, {seconds} s, {events} events | {} appends | {} | {:.0?} | {:.0?} | {:.2} ({:.2?} / {:.2?}) |",
            committed.len(),
            match missed {
                0 => "every update to every phone".to_string(),
                n => format!("{n} updates missed"),
            },
            quantile(0.5),
            quantile(0.99),
            with.as_secs_f64() / without.as_secs_f64().max(1e-9),
            with,
            without,
        ))
    })();
    let _ = server.kill();
    let _ = server.wait();
    outcome
}

/// `grimoire serve` on a free port of 127.0.0.1: the process, the address it listens on, and the
/// path of the table's stream of updates.
fn serving(exe: &Path, path: &str) -> Result<(std::process::Child, String, String), Failure> {
    let mut server = Command::new(exe)
        .args(["--db", path, "serve", "--listen", "127.0.0.1:0", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    let mut said = String::new();
    let read = match server.stdout.take() {
        Some(out) => BufReader::new(out)
            .read_line(&mut said)
            .map_err(Failure::from),
        None => Err("serve has no output".into()),
    };
    let link = read
        .and_then(|_| Ok(serde_json::from_str::<serde_json::Value>(&said)?))
        .and_then(|said| {
            Ok(said["link"]
                .as_str()
                .ok_or("serve printed no link")?
                .to_string())
        });
    let link = match link {
        Ok(link) => link,
        Err(e) => {
            let _ = server.kill();
            let _ = server.wait();
            return Err(e);
        }
    };
    let address = link
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let updates = format!("{}updates", &link["http://".len() + address.len()..]);
    Ok((server, address, updates))
}

/// The heads one viewer saw, each with when it arrived.
type Followed = Result<Vec<(u64, Instant)>, String>;

/// `count` viewers following the table's stream until the last head or `deadline` (see [`follow`]).
fn viewing(
    count: usize,
    address: &str,
    updates: &str,
    last_file: &Path,
    deadline: Instant,
) -> Vec<std::thread::JoinHandle<Followed>> {
    (0..count)
        .map(|_| {
            let (address, updates, last_file) = (
                address.to_string(),
                updates.to_string(),
                last_file.to_path_buf(),
            );
            std::thread::spawn(move || follow(&address, &updates, &last_file, deadline))
        })
        .collect()
}

/// One phone: follows the stream of updates until the head the GM's last append made arrives (the
/// harness writes it to a file once known) or `deadline` passes; returns each head's seq with
/// when it arrived.
fn follow(address: &str, updates: &str, last_file: &Path, deadline: Instant) -> Followed {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(address).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_millis(500)))
        .map_err(|e| e.to_string())?;
    write!(stream, "GET {updates} HTTP/1.1\r\nHost: {address}\r\n\r\n")
        .map_err(|e| e.to_string())?;
    let mut seen = Vec::new();
    let mut pending = String::new();
    let mut buffer = [0u8; 4096];
    while Instant::now() < deadline {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => pending.push_str(&String::from_utf8_lossy(&buffer[..n])),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => return Err(e.to_string()),
        }
        let now = Instant::now();
        while let Some(end) = pending.find('\n') {
            let line: String = pending.drain(..=end).collect();
            if let Some(at) = line.find("\"mark\":\"") {
                let seq = line[at + 8..]
                    .split(':')
                    .next()
                    .and_then(|s| s.parse().ok());
                if let Some(seq) = seq {
                    seen.push((seq, now));
                }
            }
        }
        let last: Option<u64> = std::fs::read_to_string(last_file)
            .ok()
            .and_then(|t| t.trim().parse().ok());
        if last.is_some_and(|last| seen.iter().any(|(s, _)| *s >= last)) {
            break;
        }
    }
    Ok(seen)
}

/// Players' dice under load (C-5): `players` phones poll their own links and answer every roll
/// put to them with random bytes, while the GM puts a roll to one of them every half second and
/// `viewers` follow the table's stream of updates, for `seconds` on loopback. Then every request
/// must be answered exactly once, with the bytes its phone sent; `verify` must hold and count one
/// re-derived die per request; and the browser's check (headless Chromium on the report, when the
/// machine has it) must say the same. Every loop is bounded in count and time.
fn players_load_main(args: &[String]) -> Result<String, Failure> {
    let (mut players, mut viewers, mut seconds, mut events) = (6usize, 30usize, 60u64, 5_000u64);
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = rest.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--players" => players = value.parse()?,
            "--viewers" => viewers = value.parse()?,
            "--seconds" => seconds = value.parse()?,
            "--events" => events = value.parse()?,
            "--dir" => dir = PathBuf::from(value),
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    std::fs::create_dir_all(&dir)?;
    let last_file = dir.join("players-load-last");
    let _ = std::fs::remove_file(&last_file);
    let players: Vec<String> = (1..=players).map(|p| format!("Player{p}")).collect();
    let (exe, path, names, links) = linked_campaign(&dir, "players-load", events, &players)?;
    let players = players.len();
    let db = PathBuf::from(&path);
    let verify = || -> Result<serde_json::Value, Failure> {
        let out = Command::new(&exe)
            .args(["--db", &path, "--json", "verify"])
            .output()?;
        Ok(serde_json::from_slice(&out.stdout)?)
    };
    let (mut server, address, updates) = serving(&exe, &path)?;
    let outcome = (|| -> Result<String, Failure> {
        let deadline = Instant::now() + Duration::from_secs(seconds + 60);
        let followers = viewing(viewers, &address, &updates, &last_file, deadline);
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let phones: Vec<_> = links
            .iter()
            .enumerate()
            .map(|(i, player)| {
                let (address, player, stop) = (
                    address.clone(),
                    player.clone(),
                    std::sync::Arc::clone(&stop),
                );
                std::thread::spawn(move || {
                    answer_rolls(&address, &player, i as u64, &stop, deadline)
                })
            })
            .collect();
        let pace = Duration::from_millis(500);
        let until = Instant::now() + Duration::from_secs(seconds);
        let mut requests = 0usize;
        while Instant::now() < until {
            // Every other request is the GM's own roll, witnessed by the phone.
            let p = requests % players + 1;
            let character = &names[p - 1];
            let by = if (requests / players).is_multiple_of(2) {
                "--rolled-by"
            } else {
                "--witnessed-by"
            };
            let cli = Cli::try_parse_from([
                "grimoire",
                "--db",
                &path,
                "roll",
                "d20",
                "--character",
                character,
                "--for",
                "load",
                by,
                &format!("Player{p}"),
                "--no-wait",
            ])?;
            run(&cli, &mut Context::from_env()?)?;
            requests += 1;
            std::thread::sleep(pace);
        }
        // Wait, bounded, for the last requests' answers; then the phones stop.
        let all_answered = |store: &mut Store| -> Result<bool, Failure> {
            let state = store.replay(None)?;
            Ok(state
                .players
                .requests
                .values()
                .all(|r| r.status != grimoire::state::players::RequestStatus::Waiting))
        };
        let wait_until = Instant::now() + Duration::from_secs(30);
        while !all_answered(&mut Store::open(&db)?)? && Instant::now() < wait_until {
            std::thread::sleep(Duration::from_millis(100));
        }
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let head = Store::open(&db)?.head()?.map_or(0, |h| h.seq.get());
        std::fs::write(&last_file, head.to_string())?;
        let mut sent: Vec<(u64, String)> = Vec::new();
        let mut latencies = Vec::new();
        for phone in phones {
            let answered = phone.join().map_err(|_| "a phone's thread failed")??;
            for (request, bytes, took) in answered {
                sent.push((request, bytes));
                latencies.push(took);
            }
        }
        let mut missed = 0usize;
        for follower in followers {
            let seen = follower.join().map_err(|_| "a viewer's thread failed")??;
            if !seen.iter().any(|(s, _)| *s >= head) {
                missed += 1;
            }
        }
        // Every request answered once, with the bytes its phone sent.
        let export = grimoire_export(&exe, &path)?;
        let mut recorded: std::collections::BTreeMap<u64, Vec<String>> = Default::default();
        for line in export.lines() {
            let row: serde_json::Value = serde_json::from_str(line)?;
            if row["kind"] == "roll_answered" {
                let p = &row["payload"];
                recorded
                    .entry(p["request"].as_u64().unwrap_or(0))
                    .or_default()
                    .push(p["contribution"].as_str().unwrap_or("").to_string());
            }
        }
        let once = recorded.len() == requests && recorded.values().all(|v| v.len() == 1);
        let receipts_hold = sent.iter().all(|(request, bytes)| {
            recorded
                .get(request)
                .is_some_and(|v| v.first() == Some(bytes))
        });
        let verified = verify()?;
        let verify_words = format!(
            "verify {}: {} player-rolled and {} witnessed dice",
            if verified["dice_problems"]
                .as_array()
                .is_some_and(|p| p.is_empty())
                && verified["chain_break"].is_null()
            {
                "holds"
            } else {
                "FAILS"
            },
            verified["device_dice_checked"],
            verified["witnessed_dice_checked"]
        );
        let browser = browser_verdict(&exe, &path, &dir)?;
        latencies.sort();
        let quantile = |q: f64| {
            latencies
                .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
                .copied()
                .unwrap_or_default()
        };
        Ok(format!(
            "| {players} players, {viewers} viewers, {seconds} s, {events} events | {requests} requests, {} | receipts {} | answer p50 {:.0?}, p99 {:.0?} | {verify_words} | {browser} | viewers {} |",
            if once {
                "each answered once"
            } else {
                "NOT each answered once"
            },
            if receipts_hold {
                "all in the log"
            } else {
                "NOT all in the log"
            },
            quantile(0.5),
            quantile(0.99),
            match missed {
                0 => "saw the last head".to_string(),
                n => format!("{n} missed the last head"),
            },
        ))
    })();
    let _ = server.kill();
    let _ = server.wait();
    outcome
}

/// A generated campaign of `events` events in `dir` (named after `name`), each of `players`
/// playing a character of its party with a link of their own: the grimoire binary, the
/// campaign's path, the characters played and each player's link path (`/p/TOKEN/`), in order.
fn linked_campaign(
    dir: &Path,
    name: &str,
    events: u64,
    players: &[String],
) -> Result<(PathBuf, String, Vec<String>, Vec<String>), Failure> {
    let db = dir.join(format!("{name}-{events}.db"));
    remove(&db);
    let exe = std::env::current_exe()?.with_file_name("grimoire");
    let path = db.to_str().unwrap_or_default().to_string();
    process(
        &exe,
        &[
            "--db",
            &path,
            "dev",
            "generate",
            "--events",
            &events.to_string(),
        ],
    )?;
    let grimoire = |words: &[&str]| -> Result<serde_json::Value, Failure> {
        let out = Command::new(&exe)
            .args(["--db", &path, "--json"])
            .args(words)
            .output()?;
        if !out.status.success() {
            return Err(format!("{words:?}: {}", String::from_utf8_lossy(&out.stderr)).into());
        }
        Ok(serde_json::from_slice(&out.stdout)?)
    };
    let party = grimoire(&["character", "list"])?;
    let names: Vec<String> = party["characters"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str().map(str::to_string))
        .take(players.len())
        .collect();
    if names.len() < players.len() {
        return Err(format!("the generated party has only {} characters", names.len()).into());
    }
    let mut links = Vec::new();
    for (player, plays) in players.iter().zip(&names) {
        let linked = grimoire(&["player", "link", player, "--plays", plays])?;
        let link = linked["link"].as_str().ok_or("no link printed")?;
        links.push(link.trim_start_matches("http://127.0.0.1:8737").to_string());
    }
    Ok((exe, path, names, links))
}

/// One link cannot delay another's (the server's fair queue): `searchers` loops ask for searched
/// log pages through one player's link while another player's phone asks for its rolls `asks`
/// times, one after another; its latencies are compared with the same asks made alone, in the same
/// run. Every loop is bounded in count and time.
fn players_fair_main(args: &[String]) -> Result<String, Failure> {
    let (mut searchers, mut asks, mut events) = (16usize, 300usize, 5_000u64);
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = rest.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--searchers" => searchers = value.parse()?,
            "--asks" => asks = value.parse()?,
            "--events" => events = value.parse()?,
            "--dir" => dir = PathBuf::from(value),
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    std::fs::create_dir_all(&dir)?;
    let (exe, path, _, links) = linked_campaign(
        &dir,
        "players-fair",
        events,
        &["Searcher".to_string(), "Asker".to_string()],
    )?;
    let (mut server, address, _) = serving(&exe, &path)?;
    let outcome = (|| -> Result<String, Failure> {
        // Another player's phone: its rolls list (served from the campaign as it last stood) and
        // the newest lines of the log (made on the campaign's thread, in its link's turn).
        let ask = |page: &str| -> Result<Duration, Failure> {
            let started = Instant::now();
            let (status, body) = http(
                &address,
                &format!(
                    "GET {}{page} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n",
                    links[1]
                ),
            )?;
            if status != 200 {
                return Err(format!("{page} answered {status}: {body}").into());
            }
            Ok(started.elapsed())
        };
        let asking = || -> Result<(Vec<Duration>, Vec<Duration>), Failure> {
            let (mut rolls, mut log) = (Vec::new(), Vec::new());
            for _ in 0..asks {
                rolls.push(ask("rolls")?);
                log.push(ask("log?limit=20")?);
            }
            Ok((rolls, log))
        };
        let quantiles = |mut times: Vec<Duration>| {
            times.sort();
            let at = |q: f64| {
                times
                    .get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1)))
                    .copied()
                    .unwrap_or_default()
            };
            (at(0.5), at(0.99))
        };
        let alone = asking()?;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let deadline = Instant::now() + Duration::from_secs(600);
        let loops: Vec<_> = (0..searchers)
            .map(|i| {
                let (address, link, stop) = (
                    address.clone(),
                    links[0].clone(),
                    std::sync::Arc::clone(&stop),
                );
                std::thread::spawn(move || {
                    let mut served = 0u64;
                    while !stop.load(std::sync::atomic::Ordering::SeqCst)
                        && Instant::now() < deadline
                    {
                        let query = format!("GET {link}log?grep=r{i}{served} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
                        if matches!(http(&address, &query), Ok((200, _))) {
                            served += 1;
                        }
                    }
                    served
                })
            })
            .collect();
        // The searchers' lane fills before the asks begin.
        std::thread::sleep(Duration::from_secs(2));
        let crowded = asking();
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let searched: u64 = loops.into_iter().map(|l| l.join().unwrap_or(0)).sum();
        let crowded = crowded?;
        let words = |(p50, p99): (Duration, Duration)| format!("p50 {p50:.1?}, p99 {p99:.1?}");
        Ok(format!(
            "| {events} events, {searchers} searching loops on one link, {asks} asks of each on another | rolls list {} (alone: {}) | log's last 20 {} (alone: {}) | {searched} searched pages served meanwhile |",
            words(quantiles(crowded.0)),
            words(quantiles(alone.0)),
            words(quantiles(crowded.1)),
            words(quantiles(alone.1)),
        ))
    })();
    let _ = server.kill();
    let _ = server.wait();
    outcome
}

fn grimoire_export(exe: &Path, path: &str) -> Result<String, Failure> {
    let out = Command::new(exe).args(["--db", path, "export"]).output()?;
    Ok(String::from_utf8(out.stdout)?)
}

/// One player's phone: polls its link's rolls and answers each with 32 random bytes, until told
/// to stop or `deadline` passes; returns each answer's request, bytes and round trip.
fn answer_rolls(
    address: &str,
    player: &str,
    seed: u64,
    stop: &std::sync::atomic::AtomicBool,
    deadline: Instant,
) -> Result<Vec<(u64, String, Duration)>, String> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed + 1);
    let mut answered = Vec::new();
    while !stop.load(std::sync::atomic::Ordering::SeqCst) && Instant::now() < deadline {
        let (_, body) = http(
            address,
            &format!("GET {player}rolls HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"),
        )?;
        let rolls: serde_json::Value =
            serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))?;
        for waiting in rolls["waiting"].as_array().into_iter().flatten() {
            let request = waiting["request"].as_u64().unwrap_or(0);
            let bytes = hex::encode(rng.random::<[u8; 32]>());
            let form = format!("request={request}&contribution={bytes}");
            let started = Instant::now();
            let (status, reply) = http(
                address,
                &format!(
                    "POST {player}answer HTTP/1.1\r\nHost: {address}\r\nOrigin: http://{address}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
                    form.len()
                ),
            )?;
            if status != 200 {
                return Err(format!("request {request} refused: {reply}"));
            }
            answered.push((request, bytes, started.elapsed()));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(answered)
}

/// One HTTP exchange on loopback: the status and the body (no chunked answers are asked for).
fn http(address: &str, raw: &str) -> Result<(u16, String), String> {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(address).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(raw.as_bytes())
        .map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Ok((status, body.to_string()))
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

/// The browser's check of the campaign's report, in headless Chromium when the machine has it.
fn browser_verdict(exe: &Path, path: &str, dir: &Path) -> Result<String, Failure> {
    let Some(chromium) = chromium() else {
        return Ok("browser check not run (no Chromium)".into());
    };
    let page = dir.join("players-load-report.html");
    let _ = std::fs::remove_file(&page);
    process(
        exe,
        &[
            "--db",
            path,
            "report",
            "--out",
            page.to_str().unwrap_or_default(),
        ],
    )?;
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=60000",
            "--dump-dom",
        ])
        .arg(format!("file://{}", page.display()))
        .output()?;
    let dom = String::from_utf8_lossy(&out.stdout);
    let verdict = dom
        .split("id=\"check-verdict\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .unwrap_or("no verdict");
    Ok(format!("browser: {verdict}"))
}

/// The two checkers of docs/export.md on `cases` exports of the every-kind fixture (as written, of
/// payload version 2, and raised to today's) changed at random and on purpose: grimoire's own check
/// in this process, the players' page in headless Chromium. Prints how many verdicts disagree
/// (there must be none), each listed, and how long each checker took per export.
fn differential_main(args: &[String]) -> Result<String, Failure> {
    use grimoire::differential::{
        at_version, grimoire_verdict, mutations, page_verdicts, rows_of, write_check_page,
    };
    let (mut cases, mut seed) = (10_000usize, None);
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = rest.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--cases" => cases = value.parse()?,
            "--seed" => seed = Some(value.parse()?),
            "--dir" => dir = PathBuf::from(value),
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |since| since.as_nanos() as u64)
    });
    let dir = dir.join("differential");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let every_kind = rows_of(include_str!("../../fixtures/state/every-kind.jsonl"));
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
