//! The PostgreSQL backend's table, as whole processes on both sides.

use super::*;

pub(super) fn main(args: &[String]) -> Result<(), Failure> {
    let Some(url) = args.first().filter(|url| !url.starts_with('-')) else {
        return Err(super::Usage("postgres takes the database's URL first".into()).into());
    };
    let mut size = 100_000u64;
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--size" => size = value(arg, rest.next())?,
            "--dir" => dir = value(arg, rest.next())?,
            other => return Err(unknown(other)),
        }
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    table(
        "| events | durable append vs raw `psql` insert | `character show` vs raw `psql` select | import vs the same import into a SQLite file |",
        [size],
        |&size| bench_postgres(url, size, &dir),
        |size| format!("postgres, size {size}"),
    )
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
