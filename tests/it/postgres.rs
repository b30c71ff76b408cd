//! The PostgreSQL backend through the real binary, against a real server (see `pg_cluster`):
//! campaigns by name, export/import round trips with SQLite, writers from many processes, killed
//! writers, a players' role kept from the secrets, and messages that never show a password.

use crate::pg_cluster::{self, Database};
use crate::support::{ADG_ALDRIC, NOW, VSD_MIRA, learning};
use grimoire::seq::Seq;
use grimoire::store::{Location, Store};
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// A campaign in a PostgreSQL database, driven through the binary as `Campaign` drives a file.
struct PgCampaign {
    url: String,
    dir: tempfile::TempDir,
}

impl PgCampaign {
    fn new(database: &Database, name: &str) -> PgCampaign {
        PgCampaign {
            url: database.url(name),
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn cmd(&self) -> Command {
        grimoire_at(&self.url, self.dir.path())
    }

    fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().expect("grimoire runs")
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn store(&self) -> Store {
        Store::open(Location::parse(&self.url).unwrap()).unwrap()
    }

    fn head(&self) -> String {
        self.ok(&["head"]).trim().to_string()
    }
}

fn grimoire_at(db: &str, cwd: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grimoire"));
    cmd.current_dir(cwd)
        .env("GRIMOIRE_DB", db)
        .env("GRIMOIRE_NOW", NOW)
        .env("GRIMOIRE_RANDOMNESS_SEED", "7")
        .env("GRIMOIRE_ACTOR", "gm");
    cmd
}

/// An evening with both systems, sealed and seeded dice, a retraction and a revealed seed.
fn play(c: &PgCampaign) {
    c.ok(&["init", "--name", "The Sunken Vault"]);
    c.ok(&ADG_ALDRIC);
    c.ok(&VSD_MIRA);
    c.ok(&["session", "start", "--entropy", "pizza"]);
    c.ok(&["damage", "Aldric", "3"]);
    let hurt = c.ok(&["--json", "damage", "Mira", "2"]);
    let seq =
        serde_json::from_str::<serde_json::Value>(&hurt).unwrap()["appended"][0]["seq"].to_string();
    c.ok(&["retract", &seq, "--reason", "missed after all"]);
    c.ok(&["roll", "2d6", "--sealed"]);
    c.ok(&[
        "spell",
        "learn",
        "Mira",
        "Fire Bolt",
        "--lore",
        "Elementalism",
        "--weave",
        "3",
        "--kind",
        "elemental",
    ]);
    c.ok(&["spell", "cast", "Mira", "Fire Bolt", "--target", "Aldric"]);
    c.ok(&["rest", "--party", "--night"]);
    // The retraction undone (the damage restored), and a filtered log read through the sieve.
    let undo = c.ok(&["--json", "retract", "--last", "--reason", "a slip"]);
    let undo =
        serde_json::from_str::<serde_json::Value>(&undo).unwrap()["appended"][0]["seq"].to_string();
    c.ok(&["retract", &undo, "--reason", "it was right"]);
    assert!(
        c.ok(&["log", "--character", "mira", "--limit", "3"])
            .contains("Mira")
    );
    c.ok(&["session", "end"]);
    // A downtime span writing a Ceremony scroll: its sealed check is filed under the scroll's event.
    c.ok(&learning("Aldric", "Calling Moon", "ceremony"));
    c.ok(&["silver", "Aldric", "+100", "--reason", "the crypt's bowl"]);
    c.ok(&[
        "downtime",
        "--party",
        "--weeks",
        "2",
        "--week",
        "Aldric: scribe Calling Moon, level 1, effect: the tide turns",
        "--week",
        "Mira: study: the tower's library",
    ]);
    let scroll = c.ok(&["--json", "log", "--kind", "scroll_written", "--limit", "1"]);
    let scroll =
        serde_json::from_str::<serde_json::Value>(&scroll).unwrap()["events"][0]["seq"].to_string();
    assert!(
        c.ok(&["scroll", "read", "Aldric", &format!("S{scroll}")])
            .contains(&format!("sealed dice of #{scroll} revealed"))
    );
    c.ok(&["seed", "reveal"]);
}

#[test]
fn a_campaign_on_postgres_plays_verifies_and_round_trips_through_sqlite() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let c = PgCampaign::new(&database, "Sunken Vault");
    play(&c);
    assert!(c.ok(&["verify"]).contains("all checks hold"));
    let sheet = c.ok(&["character", "show", "Mira"]);
    let export = c.dir.path().join("all.jsonl");
    c.ok(&[
        "export",
        "--with-secrets",
        "--out",
        export.to_str().unwrap(),
    ]);

    // Onto a file and back onto another campaign of the same database: the same chain, the same sheets.
    let file = c.dir.path().join("copy.db");
    let to_file = grimoire_at(file.to_str().unwrap(), c.dir.path())
        .args(["import", export.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(to_file.status.success(), "{to_file:?}");
    let from_file = grimoire_at(file.to_str().unwrap(), c.dir.path())
        .args(["character", "show", "Mira"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&from_file.stdout), sheet);
    let again = PgCampaign::new(&database, "Sunken Vault (copy)");
    again.ok(&["import", export.to_str().unwrap()]);
    assert_eq!(again.head(), c.head());
    assert_eq!(again.ok(&["character", "show", "Mira"]), sheet);
    assert!(again.ok(&["verify"]).contains("all checks hold"));
    // Byte for byte the same export, wherever the log lives.
    let second = again.dir.path().join("again.jsonl");
    again.ok(&[
        "export",
        "--with-secrets",
        "--out",
        second.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(&export).unwrap(),
        std::fs::read_to_string(&second).unwrap()
    );
}

/// A backup of a campaign on the server is a SQLite campaign file: the same chain, secrets and
/// sheets, its checkpoint holding, its export the server's byte for byte.
#[test]
fn a_backup_of_a_postgres_campaign_is_a_campaign_file_that_verifies() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let c = PgCampaign::new(&database, "Backed Up");
    play(&c);
    let head = c.head();
    let file = c.dir.path().join("backup.db");
    let said = c.ok(&["backup", file.to_str().unwrap()]);
    assert!(said.contains(&format!("(head {head})")), "{said}");
    let on_file = |args: &[&str]| {
        let out = grimoire_at(file.to_str().unwrap(), c.dir.path())
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(on_file(&["verify", "--checkpoint", &head]).contains("all checks hold"));
    assert_eq!(
        on_file(&["character", "show", "Mira"]),
        c.ok(&["character", "show", "Mira"])
    );
    let exports: Vec<String> = [
        c.dir.path().join("pg.jsonl"),
        c.dir.path().join("file.jsonl"),
    ]
    .iter()
    .map(|p| p.to_str().unwrap().to_string())
    .collect();
    c.ok(&["export", "--with-secrets", "--out", &exports[0]]);
    on_file(&["export", "--with-secrets", "--out", &exports[1]]);
    assert_eq!(
        std::fs::read_to_string(&exports[0]).unwrap(),
        std::fs::read_to_string(&exports[1]).unwrap()
    );
}

/// The table's reads work on the server as on a file: points in time, filtered and limited logs,
/// diffs, recaps, the dice audit and the party overview give the same answers.
#[test]
fn the_tables_reads_give_the_same_answers_on_postgres_as_on_a_file() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let c = PgCampaign::new(&database, "Reads");
    play(&c);
    let export = c.dir.path().join("reads.jsonl");
    c.ok(&[
        "export",
        "--with-secrets",
        "--out",
        export.to_str().unwrap(),
    ]);
    let file = c.dir.path().join("reads.db");
    let imported = grimoire_at(file.to_str().unwrap(), c.dir.path())
        .args(["import", export.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(imported.status.success(), "{imported:?}");
    for args in [
        &["character", "show", "Aldric", "--at", "session-start:1"][..],
        &["character", "list", "--at", "session:1"],
        &["time", "show", "--at", "day:1"],
        &["log", "--character", "Mira", "--limit", "3"],
        &[
            "log",
            "--kind",
            "dice_rolled",
            "--from",
            "session-start:1",
            "--to",
            "session:1",
        ],
        &[
            "diff",
            "--party",
            "--from",
            "session-start:1",
            "--to",
            "session:1",
        ],
        &["session", "recap", "1"],
        &["audit", "dice"],
        &["scroll", "list", "--at", "now"],
    ] {
        let on_file = grimoire_at(file.to_str().unwrap(), c.dir.path())
            .args(args)
            .output()
            .unwrap();
        assert!(on_file.status.success(), "{args:?}: {on_file:?}");
        assert_eq!(
            c.ok(args),
            String::from_utf8(on_file.stdout).unwrap(),
            "{args:?}"
        );
    }
}

#[test]
fn one_database_holds_many_campaigns_each_with_its_own_chain() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let (a, b) = (
        PgCampaign::new(&database, "Tuesday table"),
        PgCampaign::new(&database, "Friday table"),
    );
    a.ok(&["init", "--name", "Tuesday"]);
    b.ok(&["init", "--name", "Friday"]);
    a.ok(&ADG_ALDRIC);
    assert!(a.head().starts_with("3:"));
    assert!(b.head().starts_with("1:"));
    assert!(
        b.ok(&["character", "list"])
            .starts_with("No characters yet")
    );
    let missing = PgCampaign::new(&database, "Sunday table").run(&["character", "list"]);
    assert_eq!(missing.status.code(), Some(1));
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(
        said.contains("no campaign \"Sunday table\"") && said.contains("grimoire init"),
        "{said}"
    );
}

#[test]
fn eight_processes_appending_to_one_campaign_lose_and_duplicate_nothing() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let c = PgCampaign::new(&database, "Busy");
    c.ok(&["init", "--name", "Busy"]);
    let writers: Vec<_> = (0..8)
        .map(|n| {
            c.cmd()
                .env("GRIMOIRE_RANDOMNESS_SEED", n.to_string())
                .args(["dev", "append-loop", "--count", "100"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut acked = Vec::new();
    for writer in writers {
        let out = writer.wait_with_output().unwrap();
        assert!(out.status.success(), "{out:?}");
        acked.extend(
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| l.strip_prefix("acked ")?.parse::<u64>().ok()),
        );
    }
    acked.sort_unstable();
    assert_eq!(
        acked,
        (2..=801).collect::<Vec<u64>>(),
        "every append acknowledged once"
    );
    let mut store = c.store();
    assert_eq!(store.head().unwrap().unwrap().seq, 801);
    // 800 advances of one minute, each applied exactly once.
    assert_eq!(store.replay(None).unwrap().clock.seconds(), 800 * 60);
    assert!(
        grimoire::verify::log(&mut store, Vec::new())
            .unwrap()
            .all_hold()
    );
}

#[test]
fn killed_appenders_lose_no_acknowledged_event() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let c = PgCampaign::new(&database, "Crashing");
    c.ok(&["init", "--name", "Crashing"]);
    let mut rng = rand::rngs::StdRng::seed_from_u64(42);
    for kill in 0..10 {
        // Killed after a random number of acknowledged appends, not after a time: the test waits
        // for the child's own word, however slow the machine.
        let wanted = rng.random_range(1..20);
        let mut child = c
            .cmd()
            .env("GRIMOIRE_RANDOMNESS_SEED", kill.to_string())
            .args(["dev", "append-loop", "--count", "100000"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut acked = Vec::new();
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            acked.push(line.strip_prefix("acked ").unwrap().parse::<u64>().unwrap());
            if acked.len() == wanted {
                child.kill().unwrap();
                break;
            }
        }
        child.wait().unwrap();
        let mut store = c.store();
        let report = grimoire::verify::log(&mut store, Vec::new()).unwrap();
        assert!(report.all_hold(), "kill {kill}: {report:?}");
        let head = store.head().unwrap().unwrap().seq;
        for seq in &acked {
            assert!(
                store.event(Seq(*seq)).unwrap().is_some(),
                "kill {kill}: #{seq} lost"
            );
        }
        assert!(acked.iter().all(|seq| *seq <= head.get()));
    }
}

#[test]
fn of_eight_racing_inits_of_one_campaign_exactly_one_wins() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let c = PgCampaign::new(&database, "Contested");
    let racers: Vec<_> = (0..8)
        .map(|n| {
            c.cmd()
                .env("GRIMOIRE_RANDOMNESS_SEED", n.to_string())
                .args(["init", "--name", "Contested"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outcomes: Vec<Output> = racers
        .into_iter()
        .map(|r| r.wait_with_output().unwrap())
        .collect();
    let codes: Vec<Option<i32>> = outcomes.iter().map(|o| o.status.code()).collect();
    for lost in outcomes.iter().filter(|o| !o.status.success()) {
        let said = String::from_utf8_lossy(&lost.stderr);
        assert!(
            ["now exists", "already holds", "is being created"]
                .iter()
                .any(|words| said.contains(words)),
            "{said}"
        );
    }
    assert_eq!(
        codes.iter().filter(|c| **c == Some(0)).count(),
        1,
        "{codes:?}"
    );
    assert!(
        codes.iter().all(|c| *c == Some(0) || *c == Some(1)),
        "{codes:?}"
    );
    assert!(c.head().starts_with("1:"), "one campaign, created once");
}

#[test]
fn a_refused_import_leaves_no_campaign_behind() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let source = PgCampaign::new(&database, "Source");
    play(&source);
    let export = source.dir.path().join("all.jsonl");
    source.ok(&["export", "--out", export.to_str().unwrap()]);
    let text = std::fs::read_to_string(&export).unwrap();
    let forged = text.replacen("\"amount\":3", "\"amount\":1", 1);
    assert_ne!(forged, text);
    std::fs::write(&export, forged).unwrap();
    let target = PgCampaign::new(&database, "Target");
    let out = target.run(&["import", export.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("was changed after it was recorded"));
    let location = Location::parse(&target.url).unwrap();
    assert!(
        !Store::exists(&location).unwrap(),
        "nothing of the import remains"
    );
    // And the name is free for the next attempt.
    let clean = source.dir.path().join("clean.jsonl");
    source.ok(&["export", "--out", clean.to_str().unwrap()]);
    target.ok(&["import", clean.to_str().unwrap()]);
    assert_eq!(target.head(), source.head());
}

#[test]
fn a_players_role_reads_the_log_but_not_the_secrets_and_writes_nothing() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let c = PgCampaign::new(&database, "Guarded");
    play(&c);
    // The GRANTs the README gives for a players' role.
    database
        .client()
        .batch_execute(
            "CREATE ROLE players LOGIN;
             GRANT SELECT ON campaigns, events, snapshots, refinery_schema_history TO players;",
        )
        .unwrap();
    let players = PgCampaign {
        url: c.url.replacen("grimoire@", "players@", 1),
        dir: tempfile::tempdir().unwrap(),
    };
    assert_eq!(
        players.ok(&["character", "show", "Mira"]),
        c.ok(&["character", "show", "Mira"])
    );
    assert!(players.ok(&["verify"]).contains("all checks hold"));
    let before = c.head();
    for args in [
        vec!["export", "--with-secrets"],
        vec!["damage", "Aldric", "1"],
    ] {
        let out = players.run(&args);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(74), "{args:?}: {said}");
        assert!(said.contains("permission denied"), "{args:?}: {said}");
    }
    assert_eq!(c.head(), before);
    // The public export works: it holds no secret.
    players.ok(&[
        "export",
        "--out",
        players.dir.path().join("p.jsonl").to_str().unwrap(),
    ]);
}

#[test]
fn a_password_never_appears_in_any_message() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let secret = "hunter2-correct-horse";
    let socket = database.socket_dir.to_string_lossy().to_string();
    for url in [
        // A database that does not exist, on the real server.
        format!("postgres://grimoire:{secret}@/nowhere?host={socket}&campaign=A"),
        // A server that is not there.
        format!("postgresql://gm:{secret}@127.0.0.1:1/club?campaign=A&connect_timeout=5"),
        // A setting the driver does not know.
        format!("postgres://gm:{secret}@/club?host={socket}&campaign=A&colour=blue"),
    ] {
        for json in [false, true] {
            let mut cmd = grimoire_at(&url, dir.path());
            if json {
                cmd.arg("--json");
            }
            let out = cmd.args(["character", "list"]).output().unwrap();
            assert!(!out.status.success());
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!said.contains(secret), "{url}: {said}");
            assert!(said.contains("could not be used"), "{url}: {said}");
        }
    }
}

/// A URL refused before any connection (no campaign named, a name the log would not take) is
/// refused in words of our own: clap's message would repeat the value, password and all.
#[test]
fn a_refused_url_is_not_echoed_with_its_password() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "hunter2-correct-horse";
    for url in [
        format!("postgres://gm:{secret}@db.example.org/club"),
        format!("postgres://gm:{secret}@db.example.org/club?campaign=a%0Ab"),
    ] {
        for json in [false, true] {
            let mut cmd = grimoire_at("unused.db", dir.path());
            if json {
                cmd.arg("--json");
            }
            let out = cmd
                .args(["--db", &url, "character", "list"])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2));
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!said.contains(secret), "{url}: {said}");
            assert!(said.contains("--db"), "{said}");
        }
        let by_env = grimoire_at(&url, dir.path())
            .args(["character", "list"])
            .output()
            .unwrap();
        assert!(!String::from_utf8_lossy(&by_env.stderr).contains(secret));
        // Help shows where GRIMOIRE_DB is read, not what it holds.
        let help = grimoire_at(&url, dir.path())
            .arg("--help")
            .output()
            .unwrap();
        assert!(!String::from_utf8_lossy(&help.stdout).contains(secret));
    }
}

/// A row changed behind grimoire's back (the trigger disabled by the database's owner) is named
/// by its seq, never taken for a newer grimoire's, and nothing panics.
#[test]
fn a_row_edited_in_the_database_is_named_not_misread() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let c = PgCampaign::new(&database, "Edited");
    c.ok(&["init", "--name", "Edited"]);
    c.ok(&ADG_ALDRIC);
    c.ok(&["snapshots", "clear"]);
    database
        .client()
        .batch_execute(
            "ALTER TABLE events DISABLE TRIGGER events_append_only;
             UPDATE events SET schema_version = -1 WHERE seq = 3;
             ALTER TABLE events ENABLE TRIGGER events_append_only;",
        )
        .unwrap();
    for args in [&["character", "list"][..], &["verify"]] {
        let out = c.run(args);
        // verify answers with its report, on standard output; the read refuses on standard error.
        let said = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {said}");
        assert!(
            said.contains("#3") && !said.contains("newer"),
            "{args:?}: {said}"
        );
        assert!(!said.contains("panicked"), "{said}");
    }
}

/// An `import` killed while it builds its campaign leaves an unpublished campaign behind, whose
/// build lock went with the process. Its name is not blocked: a read says there is no such
/// campaign (the leftovers reclaimed), and the next import takes the name. The import reads its
/// export from a FIFO, so the test kills it at a moment it chooses: once the campaign exists
/// unpublished, with half the lines sent.
#[test]
fn a_killed_import_never_blocks_its_campaigns_name() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let source = PgCampaign::new(&database, "Source of the killed import");
    play(&source);
    let export = source.dir.path().join("all.jsonl");
    source.ok(&["export", "--out", export.to_str().unwrap()]);
    let lines = std::fs::read_to_string(&export).unwrap();
    let target = PgCampaign::new(&database, "Killed import");
    let fifo = target.dir.path().join("export.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut child = target
        .cmd()
        .args(["import", fifo.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    let half: String = lines.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::io::Write::write_all(&mut writer, half.as_bytes()).unwrap();
    let mut client = database.client();
    let mut unpublished = false;
    for _ in 0..6000 {
        unpublished = client
            .query_opt(
                "SELECT 1 FROM campaigns WHERE name = 'Killed import' AND NOT ready",
                &[],
            )
            .unwrap()
            .is_some();
        if unpublished {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(unpublished, "the import began building its campaign");
    child.kill().unwrap();
    child.wait().unwrap();
    drop(writer);

    let read = target.run(&["character", "list"]);
    let said = String::from_utf8_lossy(&read.stderr);
    assert_eq!(read.status.code(), Some(1), "{said}");
    assert!(said.contains("no campaign \"Killed import\""), "{said}");
    assert!(!said.contains("being created"), "{said}");
    target.ok(&["import", export.to_str().unwrap()]);
    assert_eq!(target.head(), source.head());
}

/// Right after a kill, the killed import's server process may hold its build lock a moment
/// longer. A retry then hears that the campaign is being created and to try again (never that
/// there is no campaign, nor that it exists), and once the lock is gone the retry imports.
#[test]
fn an_import_retried_while_a_killed_builds_lock_lingers_is_told_to_try_again() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let source = PgCampaign::new(&database, "Source of the retried import");
    play(&source);
    let export = source.dir.path().join("all.jsonl");
    source.ok(&["export", "--out", export.to_str().unwrap()]);
    // The killed builder as its server process still stands: its campaign unpublished, its build
    // lock (class 2, keyed by the campaign) held.
    let mut builder = database.client();
    let id: i64 = builder
        .query_one(
            "INSERT INTO campaigns (name) VALUES ('Retried import') RETURNING id",
            &[],
        )
        .unwrap()
        .get(0);
    let lock = "($1::BIGINT % 2147483647)::INTEGER";
    builder
        .execute(&format!("SELECT pg_advisory_lock(2, {lock})"), &[&id])
        .unwrap();
    let target = PgCampaign::new(&database, "Retried import");
    for words in [
        &["import", export.to_str().unwrap()][..],
        &["init", "--name", "Retried"],
    ] {
        let out = target.run(words);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{words:?}: {said}");
        assert!(
            said.contains("is being created by another command"),
            "{words:?}: {said}"
        );
        assert!(
            !said.contains("no campaign") && !said.contains("now exists"),
            "{said}"
        );
    }
    builder
        .execute(&format!("SELECT pg_advisory_unlock(2, {lock})"), &[&id])
        .unwrap();
    target.ok(&["import", export.to_str().unwrap()]);
    assert_eq!(target.head(), source.head());
}

/// Campaign names follow the rules of character names: one that looks like another's (in another
/// case, or with look-alike letters) is refused, and a read that misses names the look-alike. An
/// empty name is refused before anything is opened.
#[test]
fn campaign_names_that_look_alike_cannot_coexist_and_an_empty_one_is_refused() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    PgCampaign::new(&database, "Alpha").ok(&["init", "--name", "Alpha"]);
    for look_alike in ["alpha", "ALPHA", "\u{410}lpha", "Al\u{200b}pha"] {
        let other = PgCampaign::new(&database, look_alike);
        let out = other.run(&["init", "--name", "Other"]);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{look_alike}: {said}");
        assert!(
            said.contains("but there is \"Alpha\""),
            "{look_alike}: {said}"
        );
        let read = other.run(&["character", "list"]);
        let said = String::from_utf8_lossy(&read.stderr);
        assert!(
            said.contains("but there is \"Alpha\""),
            "{look_alike}: {said}"
        );
    }
    let names: Vec<String> = database
        .client()
        .query("SELECT name FROM campaigns", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(names, ["Alpha"]);
    let empty = PgCampaign::new(&database, "");
    let out = empty.run(&["character", "list"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("?campaign= is empty"));
}

/// A server that runs with `fsync = off` can lose commits it has acknowledged in a power cut:
/// grimoire records nothing there, saying why.
#[test]
fn a_server_that_can_lose_acknowledged_commits_is_refused_for_writing() {
    let Some(careful) = pg_cluster::database() else {
        return;
    };
    let c = PgCampaign::new(&careful, "Source");
    c.ok(&["init", "--name", "Source"]);
    c.ok(&ADG_ALDRIC);
    let Some(careless) = pg_cluster::careless_database() else {
        return;
    };
    let target = PgCampaign::new(&careless, "Careless");
    let export = c.dir.path().join("all.jsonl");
    c.ok(&[
        "export",
        "--with-secrets",
        "--out",
        export.to_str().unwrap(),
    ]);
    for args in [
        vec!["init", "--name", "Careless"],
        vec!["import", export.to_str().unwrap()],
    ] {
        let out = target.run(&args);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(74), "{args:?}: {said}");
        assert!(
            said.contains("fsync = off") && said.contains("records nothing"),
            "{said}"
        );
    }
}

/// An import sends its rows to PostgreSQL many to a statement: a long campaign (over a batch of
/// rows, with retractions and kept snapshots between) arrives whole and verifies, and a repeated
/// event id in a later batch than the first is still refused by the line that repeats it, leaving
/// nothing behind.
#[test]
fn a_long_import_arrives_whole_and_a_repeated_id_across_batches_is_refused_by_its_line() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.db");
    let grimoire = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_grimoire"))
            .current_dir(dir.path())
            .env("GRIMOIRE_NOW", NOW)
            .env("GRIMOIRE_ACTOR", "gm")
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let db = file.to_str().unwrap();
    grimoire(&[
        "--db",
        db,
        "dev",
        "generate",
        "--characters",
        "6",
        "--events",
        "2600",
    ]);
    let export = dir.path().join("long.jsonl");
    grimoire(&[
        "--db",
        db,
        "export",
        "--with-secrets",
        "--out",
        export.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&export).unwrap();
    assert!(
        text.contains("\"kind\":\"retracted\""),
        "retractions between the batches"
    );

    let whole = PgCampaign::new(&database, "Long");
    whole.ok(&["import", export.to_str().unwrap()]);
    assert_eq!(whole.head(), grimoire(&["--db", db, "head"]).trim());
    assert!(whole.ok(&["verify"]).contains("all checks hold"));

    let rows: Vec<grimoire::store::StoredRow> = text
        .lines()
        .filter_map(
            |line| match grimoire::store::jsonl::parse_line(line).unwrap() {
                grimoire::store::jsonl::Line::Event(row) => Some(row),
                grimoire::store::jsonl::Line::Secret { .. } => None,
            },
        )
        .collect();
    let repeated = rows[9].event_id.clone();
    let forged = crate::hostile_text::forge(&text, 2_345, |row| row.event_id = repeated.clone());
    let line = forged
        .lines()
        .position(|l| l.starts_with("{\"seq\":2345,"))
        .unwrap()
        + 1;
    let forged_file = dir.path().join("forged.jsonl");
    std::fs::write(&forged_file, forged).unwrap();
    let target = PgCampaign::new(&database, "Forged");
    let out = target.run(&["import", forged_file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!("line {line}: #2345 repeats an event id")),
        "{said}"
    );
    assert!(!Store::exists(&Location::parse(&target.url).unwrap()).unwrap());
}

/// An import into PostgreSQL checks its rows on a thread of its own while the server inserts the
/// ones before them: a long export changed far in is still refused naming the line a file's
/// import names, with nothing left behind, and the export whole imports to the same head.
#[test]
fn a_long_import_changed_far_in_is_refused_at_the_same_line_as_into_a_file() {
    let Some(database) = pg_cluster::database() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let source = file("source.db");
    let run = |db: &str, args: &[&str]| {
        grimoire_at(db, dir.path())
            .args(args)
            .output()
            .expect("grimoire runs")
    };
    for args in [
        &["dev", "generate", "--characters", "4", "--events", "3000"][..],
        &["export", "--with-secrets", "--out", &file("all.jsonl")],
    ] {
        let out = run(&source, args);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    let text = std::fs::read_to_string(file("all.jsonl")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Past a thousand lines, so the server has taken rows before the changed one.
    let changed = 2_400;
    let line = &mut lines[changed - 1];
    let at = line.find("\"game_time\":").expect("an event line") + "\"game_time\":".len();
    line.insert(at, '9');
    std::fs::write(file("changed.jsonl"), lines.join("\n") + "\n").unwrap();

    let into_file = run(&file("target.db"), &["import", &file("changed.jsonl")]);
    let target = PgCampaign::new(&database, "Long target");
    let into_server = target.run(&["import", &file("changed.jsonl")]);
    assert_eq!(into_file.status.code(), Some(1), "{into_file:?}");
    assert_eq!(into_server.status.code(), Some(1), "{into_server:?}");
    let said = String::from_utf8_lossy(&into_server.stderr).to_string();
    assert!(said.contains(&format!("line {changed}")), "{said}");
    assert_eq!(said, String::from_utf8_lossy(&into_file.stderr));
    assert!(!Store::exists(&Location::parse(&target.url).unwrap()).unwrap());

    target.ok(&["import", &file("all.jsonl")]);
    let head = run(&source, &["head"]);
    assert_eq!(target.head(), String::from_utf8_lossy(&head.stdout).trim());
    assert!(target.ok(&["verify"]).contains("chain"));
}
