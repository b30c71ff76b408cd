//! `backup`: a whole, consistent copy of a campaign file in a new file, never written over anything,
//! and a restore that checks out (the PostgreSQL backend's backup is in `postgres.rs`).

use crate::support::{Campaign, grimoire_cmd};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;

fn on(db: &Path, cwd: &Path, args: &[&str]) -> String {
    let out = grimoire_cmd(db, cwd).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_backup_restores_the_campaign_with_its_secrets_and_its_checkpoint_holds() {
    let c = Campaign::with_party();
    c.ok(&["session", "start", "--entropy", "owls"]);
    c.ok(&["damage", "Aldric", "3"]);
    let sealed = c.seq_of(&["roll", "d20", "--sealed"]).to_string();
    let head = c.head().unwrap();
    let copy = c.dir.path().join("backup.db");
    let said = c.ok(&["backup", copy.to_str().unwrap()]);
    assert!(said.contains(&format!("(head {head})")), "{said}");
    let mode = std::fs::metadata(&copy).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "it holds the GM's secrets");
    let cwd = c.dir.path();
    assert!(on(&copy, cwd, &["verify", "--checkpoint", &head]).contains("all checks hold"));
    assert_eq!(
        on(&copy, cwd, &["character", "show", "Aldric"]),
        c.ok(&["character", "show", "Aldric"])
    );
    // The secrets came along: the sealed roll opens on the copy as on the original.
    let revealed = on(&copy, cwd, &["reveal", &sealed]);
    assert_eq!(revealed, c.ok(&["reveal", &sealed]));
}

#[test]
fn a_backup_never_writes_over_anything() {
    let c = Campaign::with_party();
    let notes = c.dir.path().join("notes.txt");
    std::fs::write(&notes, "the GM's notes").unwrap();
    let campaign = c.db.to_str().unwrap().to_string();
    for target in [
        notes.to_str().unwrap(),
        &campaign,
        c.dir.path().to_str().unwrap(),
    ] {
        let before: Vec<String> = names(c.dir.path());
        let said = c.refused(&["backup", target], 1);
        assert!(said.contains("already exists"), "{said}");
        assert_eq!(names(c.dir.path()), before, "nothing left behind");
    }
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "the GM's notes");
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Backups taken while another process appends are each a whole log as of one moment: they verify,
/// and each is the start of the final log. Whenever each lands among the writes, that holds.
#[test]
fn backups_taken_while_another_process_writes_are_each_whole() {
    let c = Campaign::with_party();
    let mut writer = c
        .cmd()
        .args(["dev", "append-loop", "--count", "150"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let copies: Vec<_> = (0..4)
        .map(|n| {
            let copy = c.dir.path().join(format!("during-{n}.db"));
            c.ok(&["backup", copy.to_str().unwrap()]);
            copy
        })
        .collect();
    assert!(writer.wait().unwrap().success());
    let whole = c.dir.path().join("whole.jsonl");
    c.ok(&["export", "--out", whole.to_str().unwrap()]);
    let whole = std::fs::read_to_string(&whole).unwrap();
    for copy in &copies {
        assert!(
            on(copy, c.dir.path(), &["verify"]).contains("all checks hold"),
            "{copy:?}"
        );
        let part = copy.with_extension("jsonl");
        on(
            copy,
            c.dir.path(),
            &["export", "--out", part.to_str().unwrap()],
        );
        let part = std::fs::read_to_string(&part).unwrap();
        assert!(whole.starts_with(&part), "{copy:?} is the start of the log");
    }
}

/// A snapshot only saves replay time: one damaged in the file is left out of a backup, which still
/// copies the whole log and verifies.
#[test]
fn a_damaged_snapshot_does_not_stop_a_backup() {
    let c = Campaign::with_party();
    c.ok(&["damage", "Aldric", "3"]);
    c.ok(&["snapshots", "rebuild"]);
    rusqlite::Connection::open(&c.db)
        .unwrap()
        .execute("UPDATE snapshots SET state = CAST(x'7bff22' AS TEXT)", [])
        .unwrap();
    let copy = c.dir.path().join("backup.db");
    c.ok(&["backup", copy.to_str().unwrap()]);
    let cwd = c.dir.path();
    assert!(on(&copy, cwd, &["verify"]).contains("all checks hold"));
    let shown = on(&copy, cwd, &["character", "show", "Aldric"]);
    assert!(shown.contains("Health 5/8"), "{shown}");
}

/// Stopped by a signal that can be caught (a kill, Ctrl-C, a closed terminal), a backup removes the
/// private file it was building, which holds every secret of the campaign, and publishes nothing.
#[test]
fn a_backup_stopped_by_a_signal_leaves_no_file_behind() {
    let c = Campaign::empty();
    c.ok(&["dev", "generate", "--events", "20000"]);
    for signal in ["TERM", "INT", "HUP"] {
        let copy = c.dir.path().join(format!("backup-{signal}.db"));
        let building = format!(".backup-{signal}.db.");
        let left = || -> Vec<String> {
            std::fs::read_dir(c.dir.path())
                .unwrap()
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|name| name.starts_with(&building))
                .collect()
        };
        let mut child = c
            .cmd()
            .args(["backup", copy.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Once the private file is there (or the backup is already done), the signal.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        while left().is_empty()
            && child.try_wait().unwrap().is_none()
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let _ = std::process::Command::new("kill")
            .args(["-s", signal, &child.id().to_string()])
            .status();
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            left(),
            Vec::<String>::new(),
            "SIG{signal} left the private file"
        );
        if !copy.exists() {
            assert_eq!(out.status.code(), Some(143), "SIG{signal}: {out:?}");
            let said = String::from_utf8_lossy(&out.stderr);
            assert!(said.contains("stopped by a signal"), "{said}");
        }
    }
}
