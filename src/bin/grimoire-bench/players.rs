//! Players' dice under load, and one link against another.

use super::live::{http, serving, viewing};
use super::*;

/// The mode's table: its header, then its one row.
pub(super) fn load_main(args: &[String]) -> Result<(), Failure> {
    println!("{}", measure_load(args)?);
    Ok(())
}

/// Players' dice under load (C-5): `players` phones poll their own links and answer every roll
/// put to them with random bytes, while the GM puts a roll to one of them every half second and
/// `viewers` follow the table's stream of updates, for `seconds` on loopback. Then every request
/// must be answered exactly once, with the bytes its phone sent; `verify` must hold and count one
/// re-derived die per request; and the browser's check (headless Chromium on the report, when the
/// machine has it) must say the same. Every loop is bounded in count and time.
fn measure_load(args: &[String]) -> Result<String, Failure> {
    let (mut players, mut viewers, mut seconds, mut events) = (6usize, 30usize, 60u64, 5_000u64);
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = rest.next();
        match arg.as_str() {
            "--players" => players = super::value(arg, value)?,
            "--viewers" => viewers = super::value(arg, value)?,
            "--seconds" => seconds = super::value(arg, value)?,
            "--events" => events = super::value(arg, value)?,
            "--dir" => dir = super::value(arg, value)?,
            other => return Err(unknown(other)),
        }
    }
    super::header(
        "| run | rolls put to phones | receipts | answer times | verify | the page's check | viewers |",
    );
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

/// The mode's table: its header, then its one row.
pub(super) fn fair_main(args: &[String]) -> Result<(), Failure> {
    println!("{}", measure_fair(args)?);
    Ok(())
}

/// One link cannot delay another's (the server's fair queue): `searchers` loops ask for searched
/// log pages through one player's link while another player's phone asks for its rolls `asks`
/// times, one after another; its latencies are compared with the same asks made alone, in the same
/// run. Every loop is bounded in count and time.
fn measure_fair(args: &[String]) -> Result<String, Failure> {
    let (mut searchers, mut asks, mut events) = (16usize, 300usize, 5_000u64);
    let mut dir = std::env::temp_dir().join("grimoire-bench");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = rest.next();
        match arg.as_str() {
            "--searchers" => searchers = super::value(arg, value)?,
            "--asks" => asks = super::value(arg, value)?,
            "--events" => events = super::value(arg, value)?,
            "--dir" => dir = super::value(arg, value)?,
            other => return Err(unknown(other)),
        }
    }
    super::header(
        "| run | another link's rolls list | its log's last 20 | searches served meanwhile |",
    );
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
