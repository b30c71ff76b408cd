//! The file backend's tables: import, replay, reads and appends against raw SQLite on the same
//! machine, at each size asked for.

use super::*;

pub(super) fn main(args: &[String]) -> Result<(), Failure> {
    let mut sizes = vec![10_000u64, 100_000, 1_000_000];
    let mut reads_only = false;
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--sizes" => {
                let list: String = value(arg, rest.next())?;
                sizes = (list.split(','))
                    .map(|n| n.parse())
                    .collect::<Result<_, _>>()
                    .map_err(|_| super::Usage(format!("--sizes takes numbers, not {list}")))?;
            }
            "--dir" => dir = value::<PathBuf>(arg, rest.next())?,
            "--reads-only" => reads_only = true,
            other => return Err(unknown(other)),
        }
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let size_name = |size: &u64| format!("size {size}");
    let mut failed = None;
    if !reads_only {
        failed = table(
            "| events | import vs raw insert | cold replay vs raw checked parse | `character show` vs `--version` | durable append vs raw insert | durable append in `shell` vs raw insert | peak replay memory |",
            sizes.clone(),
            |&size| bench(size, &dir),
            size_name,
        )
        .err();
        println!();
    }
    let reads = table(
        "| events | `log --limit 20` vs `head` | `log --character X --limit 20` vs `head` | `character list` vs `head` | `diff --party` (last 100 events) vs `head` | `session recap` of a 1,000-event session vs `head` | full `log` vs `export` |",
        sizes,
        |&size| reads(size, &dir),
        size_name,
    );
    match failed {
        Some(e) => Err(e),
        None => reads,
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
    let (append, raw_append) = durable_append(&db, dir, 2 * SNAPSHOT_EVERY as usize)?;

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

/// Replays the whole log without snapshots, then prints the process's peak resident memory (KiB).
pub(super) fn replay_peak(args: &[String]) -> Result<(), Failure> {
    let [db] = args else {
        return Err(super::Usage("replay-peak takes the campaign file, and only it".into()).into());
    };
    Store::open(Path::new(db))?.replay_without_snapshots(None)?;
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .map(|v| v.trim().trim_end_matches(" kB").trim().to_string());
    println!("{}", peak.unwrap_or_else(|| "0".into()));
    Ok(())
}

/// Where the time of a read goes: opening the file, loading the snapshot, replaying the tail.
pub(super) fn profile(args: &[String]) -> Result<(), Failure> {
    let [db] = args else {
        return Err(super::Usage("profile takes the campaign file, and only it".into()).into());
    };
    let db = Path::new(db);
    let started = Instant::now();
    let mut store = Store::open(db)?;
    let opened = started.elapsed();
    let conn = Connection::open(db)?;
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
    Ok(())
}

/// `appends` durable appends (a `damage` command in process, as `grimoire damage` runs it: the
/// command line parsed as the program parses it, the file opened, the snapshot and tail read, the
/// event written, the file closed), alternating with raw single-row durable inserts into a file in
/// `dir`; the two means.
fn durable_append(db: &Path, dir: &Path, appends: usize) -> Result<(Duration, Duration), Failure> {
    alternating(
        appends,
        mean,
        || {
            let cli = grimoire::cli::parse_from(
                [
                    "grimoire",
                    "--db",
                    db.to_str().unwrap_or_default(),
                    "damage",
                    "Magus1",
                    "1",
                ]
                .map(Into::into)
                .to_vec(),
            )?;
            let mut ctx = Context::from_env()?;
            run(&cli, &mut ctx)?;
            Ok(())
        },
        || raw_append_once(&dir.join("raw-append.db")),
    )
}

/// The durable append alone, on a copy of a campaign file: `appends` of them against as many raw
/// inserts, printed as one ratio (to follow one change without the whole table).
pub(super) fn append_only(args: &[String]) -> Result<(), Failure> {
    let (db, appends) = match args {
        [db] => (db, 2 * SNAPSHOT_EVERY as usize),
        [db, flag, n] if flag == "--appends" => (db, value::<usize>(flag, Some(n))?),
        _ => {
            return Err(super::Usage(
                "append takes the campaign file, and --appends N at most".into(),
            )
            .into());
        }
    };
    let mut original = Store::open(Path::new(db))?;
    let dir = tempfile::tempdir()?;
    let copy = dir.path().join("campaign.db");
    original.backup(&copy, &|| false)?;
    drop(original);
    fresh_snapshots(&copy)?;
    let (append, raw) = durable_append(&copy, dir.path(), appends)?;
    println!(
        "durable append vs raw insert: {:.2} ({append:.2?} / {raw:.2?}), {appends} of each",
        append.as_secs_f64() / raw.as_secs_f64().max(1e-9)
    );
    Ok(())
}
