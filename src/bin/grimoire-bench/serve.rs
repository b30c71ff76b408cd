//! The live view under load.

use super::live::{serving, viewing};
use super::*;

/// The mode's table: its header, then its one row.
pub(super) fn main(args: &[String]) -> Result<(), Failure> {
    println!("{}", measure(args)?);
    Ok(())
}

/// The live view under load: `phones` clients follow `grimoire serve`'s stream of updates on
/// loopback for `seconds` while the GM appends a roll every half second (faster than any table),
/// each append timed. Before and after, the same appends are timed with no server running: the
/// ratio says what serving costs the GM. Every phone must see every append's head; the delay from
/// an append's commit to each phone's receipt is summed up as its median and 99th percentile.
/// Every loop is bounded in count and time, and only 127.0.0.1 is spoken to.
fn measure(args: &[String]) -> Result<String, Failure> {
    let (mut phones, mut seconds, mut events) = (30usize, 60u64, 5_000u64);
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = rest.next();
        match arg.as_str() {
            "--phones" => phones = super::value(arg, value)?,
            "--seconds" => seconds = super::value(arg, value)?,
            "--events" => events = super::value(arg, value)?,
            "--dir" => dir = super::value(arg, value)?,
            other => return Err(unknown(other)),
        }
    }
    super::header(
        "| run | appends | updates seen | delay p50 | delay p99 | append while serving vs alone |",
    );
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
