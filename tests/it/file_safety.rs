//! No grimoire command destroys a file it did not make: the tour replaces only its own file, an export
//! never lands on a campaign file or anything but a regular file, and of several commands creating
//! the same campaign file at once exactly one wins.

use crate::support::{Campaign, grimoire_cmd};
use grimoire::store::Store;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

/// The folder's entries other than `keep`: what a command left behind.
fn leftovers(dir: &Path, keep: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !keep.contains(&n.as_str()))
        .collect();
    names.sort();
    names
}

#[test]
fn the_tour_refuses_to_replace_a_real_campaign_and_leaves_it_untouched() {
    let c = Campaign::with_party();
    let before = bytes(&c.db);
    let message = c.refused(&["tour", "--into", c.db.to_str().unwrap()], 1);
    assert!(message.contains("not made by `grimoire tour`"), "{message}");
    assert_eq!(bytes(&c.db), before);
    assert!(c.ok(&["character", "list"]).contains("Aldric"));
}

#[test]
fn the_tour_replaces_its_own_earlier_file() {
    let c = Campaign::empty();
    let tour = c.dir.path().join("tour.db");
    c.ok(&["tour", "--into", tour.to_str().unwrap()]);
    let first = Store::open(&tour).unwrap().head().unwrap();
    c.ok(&["tour", "--into", tour.to_str().unwrap()]);
    let mut again = Store::open(&tour).unwrap();
    assert!(again.is_tour().unwrap());
    assert_eq!(again.head().unwrap(), first, "the same pinned evening");
}

#[test]
fn an_export_never_overwrites_the_campaign_file_however_it_is_named() {
    let c = Campaign::with_party();
    let before = bytes(&c.db);
    let other_name = c.dir.path().join("link-to-campaign.db");
    std::os::unix::fs::symlink(&c.db, &other_name).unwrap();
    let hard = c.dir.path().join("hard.db");
    std::fs::hard_link(&c.db, &hard).unwrap();
    for out in [
        c.db.clone(),
        other_name,
        hard,
        c.dir.path().join("./campaign.db"),
    ] {
        let message = c.refused(
            &["export", "--with-secrets", "--out", out.to_str().unwrap()],
            1,
        );
        // With a second name the campaign itself is refused first (see the hard-link test).
        assert!(
            message.contains("campaign file itself") || message.contains("(hard links)"),
            "{message}"
        );
        assert_eq!(bytes(&c.db), before);
    }
    // --force does not make a campaign file fair game either.
    c.refused(&["export", "--force", "--out", c.db.to_str().unwrap()], 1);
    assert_eq!(bytes(&c.db), before);
}

#[test]
fn an_export_never_overwrites_another_campaign_file() {
    let c = Campaign::with_party();
    let other = Campaign::with_party();
    let before = bytes(&other.db);
    let message = c.refused(
        &["export", "--force", "--out", other.db.to_str().unwrap()],
        1,
    );
    assert!(message.contains("database"), "{message}");
    assert_eq!(bytes(&other.db), before);
}

#[test]
fn an_export_refuses_folders_devices_and_fifos_and_leaves_no_partial_file() {
    let c = Campaign::with_party();
    let fifo = c.dir.path().join("pipe");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let folder = c.dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    for (out, says) in [
        (fifo.as_path(), "not a regular file"),
        (Path::new("/dev/null"), "not a regular file"),
        (folder.as_path(), "a folder"),
    ] {
        let message = c.refused(
            &["export", "--with-secrets", "--out", out.to_str().unwrap()],
            1,
        );
        assert!(message.contains(says), "{out:?}: {message}");
    }
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo_like()
    );
    assert_eq!(
        leftovers(c.dir.path(), &["campaign.db", "pipe", "folder"]),
        Vec::<String>::new()
    );
}

/// An output path that exists but cannot be read (here a file whose reading fails, readable by
/// no one, even root) is refused for what it is: a file grimoire could not look into before
/// replacing it, never "could not be read" as if it were the input.
#[test]
fn an_output_path_that_cannot_be_read_is_refused_as_a_file_not_looked_into() {
    let c = Campaign::with_party();
    let message = c.refused(&["export", "--out", "/proc/self/mem"], 1);
    assert!(
        message.contains("was left as it was: it exists, and grimoire could not look into it")
            && message.contains("choose another path"),
        "{message}"
    );
    assert!(!message.contains("could not be read"), "{message}");
}

trait FifoLike {
    fn is_fifo_like(&self) -> bool;
}

impl FifoLike for std::fs::FileType {
    fn is_fifo_like(&self) -> bool {
        std::os::unix::fs::FileTypeExt::is_fifo(self)
    }
}

#[test]
fn an_export_replaces_only_an_earlier_export_unless_forced() {
    let c = Campaign::with_party();
    let out = c.dir.path().join("notes.txt");
    std::fs::write(&out, "my session notes\n").unwrap();
    let message = c.refused(&["export", "--out", out.to_str().unwrap()], 1);
    assert!(message.contains("--force"), "{message}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "my session notes\n");

    let export = c.dir.path().join("log.jsonl");
    c.ok(&["export", "--out", export.to_str().unwrap()]);
    c.ok(&["damage", "Aldric", "1"]);
    c.ok(&["export", "--out", export.to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&export).unwrap().lines().count(), 5);

    c.ok(&["export", "--force", "--out", out.to_str().unwrap()]);
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("{\"seq\":1,")
    );
}

#[test]
fn an_export_through_a_symlink_writes_its_target_and_keeps_the_link() {
    let c = Campaign::with_party();
    let real = c.dir.path().join("real.jsonl");
    let link = c.dir.path().join("latest.jsonl");
    std::os::unix::fs::symlink("real.jsonl", &link).unwrap();
    c.ok(&["export", "--out", link.to_str().unwrap()]);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .starts_with("{\"seq\":1,")
    );
}

#[test]
fn files_that_hold_secrets_are_readable_by_their_owner_only() {
    let c = Campaign::with_party();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&c.db), 0o600, "the campaign file holds the seeds");
    let backup = c.dir.path().join("backup.jsonl");
    c.ok(&[
        "export",
        "--with-secrets",
        "--out",
        backup.to_str().unwrap(),
    ]);
    assert_eq!(mode(&backup), 0o600);
    let public = c.dir.path().join("public.jsonl");
    c.ok(&["export", "--out", public.to_str().unwrap()]);
    assert_eq!(mode(&public), 0o644);
    let restored = Campaign::empty();
    restored.ok(&["import", backup.to_str().unwrap()]);
    assert_eq!(mode(&restored.db), 0o600);
}

#[test]
fn a_failed_export_leaves_no_partial_file() {
    let c = Campaign::with_party();
    let out = c.dir.path().join("missing-folder").join("x.jsonl");
    let message = c.refused(&["export", "--out", out.to_str().unwrap()], 74);
    assert!(message.contains("folder does not exist"), "{message}");
    assert_eq!(
        leftovers(c.dir.path(), &["campaign.db"]),
        Vec::<String>::new()
    );
}

/// Eight `init`s (then eight `import`s) race for one new path. However they interleave, one wins, the
/// others exit 1 saying the file exists, and no zero-length or half-made file is left.
#[test]
fn of_commands_creating_the_same_campaign_file_at_once_exactly_one_wins() {
    let source = Campaign::with_party();
    let export = source.export_all();
    for (what, args) in [
        ("init", vec!["init", "--name", "Race"]),
        ("import", vec!["import", export.to_str().unwrap()]),
    ] {
        let c = Campaign::empty();
        let children: Vec<_> = (0..8)
            .map(|_| {
                grimoire_cmd(&c.db, c.dir.path())
                    .args(&args)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let outcomes: Vec<_> = children
            .into_iter()
            .map(|child| child.wait_with_output().unwrap())
            .collect();
        let winners = outcomes.iter().filter(|o| o.status.success()).count();
        assert_eq!(winners, 1, "{what}: exactly one creates the file");
        for lost in outcomes.iter().filter(|o| !o.status.success()) {
            let message = String::from_utf8_lossy(&lost.stderr);
            assert_eq!(lost.status.code(), Some(1), "{what}: {message}");
            assert!(
                message.contains("exists") || message.contains("already holds"),
                "{what}: {message}"
            );
        }
        // The campaign file's own WAL companions may stay: SQLite removes them when the last
        // connection closes, but two closing at once can each see the other and leave them
        // (harmless; the next open uses them). No private or half-made file may stay.
        assert_eq!(
            leftovers(
                c.dir.path(),
                &["campaign.db", "campaign.db-wal", "campaign.db-shm"]
            ),
            Vec::<String>::new()
        );
        assert!(
            grimoire::verify::log(&mut Store::open(&c.db).unwrap(), Vec::new())
                .unwrap()
                .all_hold()
        );
    }
}

/// An empty file where the campaign should be is neither taken for a campaign nor replaced.
#[test]
fn an_empty_file_at_the_campaign_path_is_named_and_left_alone() {
    let c = Campaign::empty();
    std::fs::write(&c.db, b"").unwrap();
    for args in [&["init", "--name", "X"][..], &["character", "list"]] {
        let message = c.refused(args, 1);
        assert!(
            message.contains("is an empty file, not a campaign file"),
            "{message}"
        );
    }
    assert_eq!(bytes(&c.db), b"");
}

/// Runs grimoire (as `cmd` would) under a file-size limit of `kib` KiB (`ulimit -f`): every write
/// past it fails as a full disk would, and SIGXFSZ is raised.
fn under_a_size_limit(cmd: std::process::Command, kib: u32) -> std::process::Output {
    let mut limited = std::process::Command::new("bash");
    limited
        .args(["-c", "ulimit -f \"$1\"; shift; exec \"$@\"", "bash"])
        .arg(kib.to_string())
        .arg(cmd.get_program())
        .args(cmd.get_args());
    if let Some(dir) = cmd.get_current_dir() {
        limited.current_dir(dir);
    }
    for (key, value) in cmd.get_envs() {
        match value {
            Some(value) => limited.env(key, value),
            None => limited.env_remove(key),
        };
    }
    limited.output().expect("bash runs")
}

/// A `grimoire shell` killed with -9 leaves its journal (`-wal`) beside the file, holding the
/// campaign's last events. With the file deleted, a new campaign at that path would take that
/// journal in and come back as the old campaign. Every command that creates a campaign file
/// refuses, naming the journal, and leaves it exactly as it was.
/// A `grimoire shell` on the campaign (its errors kept), which has run `command` and printed a
/// line holding `until`: the shell, its input and the rest of its output.
fn shell_that_ran(
    c: &Campaign,
    command: &str,
    until: &str,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::io::BufReader<std::process::ChildStdout>,
) {
    use std::io::{BufRead, Write};
    let mut shell = c.shell();
    let mut input = shell.stdin.take().unwrap();
    let mut output = std::io::BufReader::new(shell.stdout.take().unwrap());
    writeln!(input, "{command}").unwrap();
    let mut line = String::new();
    while !line.contains(until) {
        line.clear();
        assert!(
            output.read_line(&mut line).unwrap() > 0,
            "the shell answered"
        );
    }
    (shell, input, output)
}

/// Records a damage in a `grimoire shell` and kills it with -9: its journal stays beside the file,
/// holding that event. Returns the journal's path.
fn killed_shell_leaves_its_journal(c: &Campaign) -> std::path::PathBuf {
    let (mut shell, input, _) = shell_that_ran(c, "damage Aldric 1", "Health now");
    shell.kill().unwrap();
    shell.wait().unwrap();
    drop(input);
    let wal = c.dir.path().join("campaign.db-wal");
    assert!(
        std::fs::metadata(&wal).unwrap().len() > 0,
        "the journal holds the last events"
    );
    wal
}

#[test]
fn a_journal_left_beside_a_new_path_is_never_adopted_or_deleted() {
    let c = Campaign::with_party();
    let export = c.export_all();
    let wal = killed_shell_leaves_its_journal(&c);
    let journal = bytes(&wal);
    std::fs::remove_file(&c.db).unwrap();
    let db = c.db.to_str().unwrap();
    let other = Campaign::with_party();
    for (what, args) in [
        ("init", vec!["--db", db, "init", "--name", "Fresh"]),
        (
            "import",
            vec!["--db", db, "import", export.to_str().unwrap()],
        ),
        ("tour", vec!["tour", "--into", db]),
    ] {
        let said = c.refused(&args, 1);
        assert!(
            said.contains("campaign.db-wal") && said.contains("journal"),
            "{what}: {said}"
        );
        assert!(!c.db.exists(), "{what} created nothing");
        assert_eq!(bytes(&wal), journal, "{what} left the journal alone");
    }
    let said = other.refused(&["backup", db], 1);
    assert!(said.contains("campaign.db-wal"), "backup: {said}");
    assert_eq!(bytes(&wal), journal);
}

/// The campaign's journals are part of the campaign file: no export lands on one, `--force` or
/// not, whether it exists yet or not; the events they hold stay and `verify` still holds.
#[test]
fn an_export_never_writes_over_the_campaigns_journals() {
    let c = Campaign::with_party();
    let before = c.json(&["log"]);
    for journal in ["campaign.db-wal", "campaign.db-shm", "campaign.db-journal"] {
        let path = c.dir.path().join(journal);
        let existed = path.exists().then(|| bytes(&path));
        let said = c.refused(&["export", "--out", path.to_str().unwrap(), "--force"], 1);
        assert!(said.contains("journal"), "{journal}: {said}");
        assert_eq!(path.exists().then(|| bytes(&path)), existed, "{journal}");
    }
    assert_eq!(c.json(&["log"]), before);
    c.ok(&["verify"]);
}

/// Exports stopped by SIGKILL at any moment leave no file under any name but, at most, the whole
/// export at its path: the output is unnamed until complete. (The kills land wherever they land;
/// every outcome is checked, none is waited for.)
#[test]
fn an_export_stopped_at_any_moment_leaves_no_named_partial_file() {
    let c = Campaign::with_party();
    for i in 0..20 {
        c.ok(&[
            "silver",
            "Aldric",
            "+1",
            "--reason",
            &format!("coin {i} of many"),
        ]);
    }
    let whole = c.ok(&["export", "--with-secrets"]);
    let out = c.dir.path().join("stopped.jsonl");
    for round in 0..8u64 {
        let mut export = c
            .cmd()
            .args(["export", "--with-secrets", "--out", out.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(round * 3));
        let _ = export.kill();
        export.wait().unwrap();
        let left = leftovers(
            c.dir.path(),
            &[
                "campaign.db",
                "campaign.db-wal",
                "campaign.db-shm",
                "all.jsonl",
            ],
        );
        match left.as_slice() {
            [] => {}
            [name] if name == "stopped.jsonl" => {
                assert_eq!(
                    std::fs::read_to_string(&out).unwrap(),
                    whole,
                    "only ever whole"
                );
                std::fs::remove_file(&out).unwrap();
            }
            other => panic!("round {round} left {other:?}"),
        }
    }
}

/// Near a full disk (a file-size limit here, which raises SIGXFSZ as well): every command that
/// writes a new file says the disk is full (exit 74) rather than dying silently or calling the file
/// damaged, and publishes nothing half-written; the campaign it read is untouched.
#[test]
fn near_a_full_disk_nothing_half_written_is_published_and_the_disk_is_named() {
    let c = Campaign::with_party();
    for i in 0..30 {
        c.ok(&[
            "silver",
            "Aldric",
            "+1",
            "--reason",
            &format!("coin {i} of many"),
        ]);
    }
    let export = c.export_all();
    let head = c.ok(&["head"]);
    let new = c.dir.path().join("new.db");
    let new_path = new.to_str().unwrap();
    let keep = [
        "campaign.db",
        "campaign.db-wal",
        "campaign.db-shm",
        "all.jsonl",
    ];
    for (what, args, kib) in [
        ("init", vec!["--db", new_path, "init", "--name", "Fresh"], 8),
        (
            "import",
            vec!["--db", new_path, "import", export.to_str().unwrap()],
            96,
        ),
        ("backup", vec!["backup", new_path], 96),
        ("tour", vec!["tour", "--into", new_path], 8),
        // Past its creation, part way through its evening.
        ("tour", vec!["tour", "--into", new_path], 60),
        ("export", vec!["export", "--out", "out.jsonl"], 8),
    ] {
        let mut cmd = c.cmd();
        cmd.args(&args);
        let out = under_a_size_limit(cmd, kib);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(74), "{what}: {said}");
        assert!(said.contains("full"), "{what}: {said}");
        assert!(!said.contains("damaged"), "{what}: {said}");
        assert!(
            !said.contains(".creating-"),
            "{what} names the private file: {said}"
        );
        assert_eq!(
            leftovers(c.dir.path(), &keep),
            Vec::<String>::new(),
            "{what}"
        );
    }
    assert_eq!(c.ok(&["head"]), head);
}

/// A creation stopped before it could clean up leaves its private `.NAME.creating-PID-…` file; the
/// next command creating that path removes it once its process is gone, and never touches one
/// whose process still runs, nor anyone else's file.
#[test]
fn a_stale_creation_file_is_cleaned_up_by_the_next_creation_of_that_path() {
    let c = Campaign::empty();
    let dead = std::process::Command::new("true").spawn().unwrap();
    let dead_pid = dead.id();
    let mut dead = dead;
    dead.wait().unwrap();
    let stale = format!(".campaign.db.creating-{dead_pid}-0123456789abcdef");
    let stale_wal = format!("{stale}-wal");
    let living = format!(
        ".campaign.db.creating-{}-0123456789abcdef",
        std::process::id()
    );
    let foreign = ".campaign.db.creating-notes.txt".to_string();
    let signed = format!(".campaign.db.creating-+{dead_pid}-0123456789abcdef");
    for name in [&stale, &stale_wal, &living, &foreign, &signed] {
        std::fs::write(c.dir.path().join(name), b"x").unwrap();
    }
    c.ok(&["init", "--name", "Fresh"]);
    let left = leftovers(
        c.dir.path(),
        &["campaign.db", "campaign.db-wal", "campaign.db-shm"],
    );
    let mut expected = vec![foreign, living, signed];
    expected.sort();
    assert_eq!(left, expected);
}

/// A new campaign never takes the name of another database's journal (SQLite would read it as part
/// of that database and delete it at its next open), and never starts beside a leftover index
/// (`-shm`) either: both are refused up front, and nothing is created.
#[test]
fn a_new_campaign_never_takes_a_journals_name_or_starts_beside_a_leftover_index() {
    let c = Campaign::with_party();
    let other = c.dir.path().join("other.db");
    for suffix in ["-wal", "-shm", "-journal"] {
        let path = format!("{}{suffix}", c.db.display());
        let said = c.refused(&["--db", &path, "init", "--name", "Evil"], 1);
        assert!(
            said.contains("another database's journal"),
            "{suffix}: {said}"
        );
        // (A journal that exists is refused as an existing path, one that does not as a journal.)
        let said = c.refused(&["backup", &path], 1);
        assert!(
            said.contains("another database's journal") || said.contains("already exists"),
            "{suffix}: {said}"
        );
    }
    std::os::unix::fs::symlink(&c.db, c.dir.path().join("other.db-shm")).unwrap();
    let said = c.refused(
        &["--db", other.to_str().unwrap(), "init", "--name", "Fresh"],
        1,
    );
    assert!(said.contains("other.db-shm"), "{said}");
    assert!(!other.exists());
    c.ok(&["verify"]);
}

/// Publishing a new file happens outside SQLite: the file is synced whole, then given its name,
/// then its folder is synced so the name survives a power cut. The order is read from the system
/// calls themselves (strace), for a campaign created (`init`, `import`, `backup`) and an export.
#[test]
fn a_new_file_is_synced_then_named_then_its_folder_synced() {
    let strace_here = std::process::Command::new("strace")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !strace_here {
        assert!(
            std::env::var_os("GRIMOIRE_REQUIRE_STRACE").is_none(),
            "strace is required here (GRIMOIRE_REQUIRE_STRACE) but is not installed"
        );
        eprintln!("skipped: the publishing order test needs strace (apt-get install strace)");
        return;
    }
    let c = Campaign::with_party();
    let export = c.export_all();
    let dir = c.dir.path().to_str().unwrap().to_string();
    for (what, args, named) in [
        (
            "init",
            vec!["--db", "new.db", "init", "--name", "New"],
            "new.db",
        ),
        (
            "import",
            vec!["--db", "imported.db", "import", export.to_str().unwrap()],
            "imported.db",
        ),
        ("backup", vec!["backup", "copy.db"], "copy.db"),
        ("export", vec!["export", "--out", "out.jsonl"], "out.jsonl"),
    ] {
        let trace = c.dir.path().join(format!("{what}.trace"));
        let grimoire = c.cmd();
        let status = std::process::Command::new("strace")
            .args([
                "-f",
                "-y",
                "-e",
                "trace=fsync,fdatasync,link,linkat,rename,renameat,renameat2",
                "-o",
            ])
            .arg(&trace)
            .arg(grimoire.get_program())
            .args(&args)
            .current_dir(c.dir.path())
            .envs(grimoire.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{what}");
        let lines: Vec<String> = std::fs::read_to_string(&trace)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let named_at = lines
            .iter()
            .position(|l| {
                (l.contains("link") || l.contains("rename")) && l.contains(&format!("\"{named}\""))
            })
            .unwrap_or_else(|| panic!("{what}: no link or rename to {named}: {lines:#?}"));
        let naming = &lines[named_at];
        // What was named: a private file beside it, or an unnamed one by its descriptor.
        let source = naming.split('"').nth(1).unwrap_or_default().to_string();
        let synced_before = lines[..named_at].iter().rev().find(|l| l.contains("sync("));
        let synced_source = match source.strip_prefix("/proc/self/fd/") {
            Some(fd) => synced_before.is_some_and(|l| l.contains(&format!("sync({fd}<"))),
            None => lines[..named_at]
                .iter()
                .any(|l| l.contains("fsync(") && l.contains(&format!("/{source}>"))),
        };
        assert!(
            synced_source,
            "{what}: the file is synced before it is named: {lines:#?}"
        );
        assert!(
            lines[named_at + 1..]
                .iter()
                .any(|l| l.contains("fsync(") && l.contains(&format!("<{dir}>"))),
            "{what}: the folder is synced after the name is given: {lines:#?}"
        );
    }
}

/// From the third hostile pass: `tour --into` a symbolic link is refused (replacing would remove
/// the link and whatever lies beside it, none of it the tour's), and a journal whose database was
/// moved away, known by its own header, is never written over by an export, `--force` or not.
#[test]
fn a_tour_never_replaces_through_a_link_and_an_orphaned_journal_is_never_overwritten() {
    let c = Campaign::empty();
    let tour = c.dir.path().join("tour.db");
    c.ok(&["tour", "--into", tour.to_str().unwrap()]);
    let link = c.dir.path().join("link.db");
    std::os::unix::fs::symlink(&tour, &link).unwrap();
    let beside = c.dir.path().join("link.db-journal");
    std::fs::write(&beside, b"user data").unwrap();
    let said = c.refused(&["tour", "--into", link.to_str().unwrap()], 1);
    assert!(said.contains("symbolic link"), "{said}");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(bytes(&beside), b"user data");

    // A real write-ahead log, its database gone.
    let campaign = Campaign::with_party();
    let orphan = campaign.dir.path().join("orphan.wal");
    let mut wal = vec![0x37, 0x7f, 0x06, 0x82];
    wal.extend_from_slice(&[0; 28]);
    std::fs::write(&orphan, &wal).unwrap();
    let said = campaign.refused(&["export", "--out", orphan.to_str().unwrap(), "--force"], 1);
    assert!(said.contains("journal"), "{said}");
    assert_eq!(bytes(&orphan), wal);
}

/// A link to nowhere is neither created behind nor read as a missing campaign (whose advice,
/// `grimoire init`, would refuse the same path): every command says what the link is.
#[test]
fn a_dangling_symlink_is_named_as_one_and_nothing_is_created_behind_it() {
    let c = Campaign::empty();
    let behind = c.dir.path().join("elsewhere.db");
    std::os::unix::fs::symlink(&behind, &c.db).unwrap();
    for (args, code) in [
        (&["init", "--name", "Vault"][..], 1),
        (&["character", "list"][..], 1),
        (&["dev", "generate", "--events", "50"][..], 1),
    ] {
        let refused = c.refused(args, code);
        assert!(
            refused.contains("is a symbolic link to") && refused.contains("which does not exist"),
            "{args:?}: {refused}"
        );
        assert!(!refused.contains("grimoire init"), "{args:?}: {refused}");
    }
    assert!(!behind.exists());
    // A file that is there already is not another command's creation: it is named as there.
    std::fs::remove_file(&c.db).unwrap();
    std::fs::write(&c.db, b"notes").unwrap();
    let refused = c.refused(&["dev", "generate", "--events", "50"], 1);
    assert!(refused.contains("it already exists"), "{refused}");
    assert_eq!(std::fs::read(&c.db).unwrap(), b"notes");
}

/// `--db` naming a device or a pipe, or links that lead round in a circle, is refused saying what
/// the path is (not that an empty file should be deleted, or that a link's existing target is
/// missing), and an export or a campaign file given to `import` by mistake is named for what it is.
#[test]
fn a_device_a_circle_of_links_and_the_wrong_file_to_import_are_named_for_what_they_are() {
    let c = Campaign::with_party();
    for args in [&["character", "list"][..], &["init", "--name", "Null"]] {
        let mut with_db = vec!["--db", "/dev/null"];
        with_db.extend_from_slice(args);
        let out = c.run(&with_db);
        let message = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{message}");
        assert!(message.contains("device, pipe or socket"), "{message}");
        assert!(!message.contains("delete it"), "{message}");
    }
    let (one, two) = (c.dir.path().join("one.db"), c.dir.path().join("two.db"));
    std::os::unix::fs::symlink(&two, &one).unwrap();
    std::os::unix::fs::symlink(&one, &two).unwrap();
    let out = c.run(&["--db", one.to_str().unwrap(), "character", "list"]);
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(message.contains("lead round in a circle"), "{message}");
    assert!(!message.contains("does not exist"), "{message}");

    // An output written into a folder reached through the circle says so too, not the system's
    // words with an error number.
    for (command, out_path) in [("export", "x.jsonl"), ("report", "x.html")] {
        let inside = one.join(out_path);
        let out = c.run(&[command, "--out", inside.to_str().unwrap()]);
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{message}");
        assert!(message.contains("lead round in a circle"), "{message}");
        assert!(!message.contains("os error"), "{message}");
    }

    let target = Campaign::empty();
    let out = target.run(&["import", one.to_str().unwrap()]);
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{message}");
    assert!(message.contains("lead round in a circle"), "{message}");
    assert!(!message.contains("os error"), "{message}");
    assert!(!target.db.exists());
    let message = target.refused(&["import", c.db.to_str().unwrap()], 1);
    assert!(
        message.contains("line 1")
            && message.contains("SQLite database")
            && message.contains("grimoire backup"),
        "{message}"
    );
    assert!(!target.db.exists());
}

/// Reading, writing and verifying the campaign are each refused for the journal `wal` beside it,
/// saying `says`, and leave the file and the journal byte for byte as they were.
fn every_command_refuses_and_keeps_both(c: &Campaign, wal: &Path, says: &str) {
    let (journal, copied) = (bytes(wal), bytes(&c.db));
    for args in [
        vec!["character", "list"],
        vec!["damage", "Aldric", "1"],
        vec!["verify"],
    ] {
        let said = c.refused(&args, 1);
        assert!(
            said.contains("campaign.db-wal") && said.contains(says),
            "{args:?}: {said}"
        );
        assert_eq!(bytes(wal), journal, "{args:?} left the journal alone");
        assert_eq!(bytes(&c.db), copied, "{args:?} left the copy alone");
    }
}

/// Restoring by copying a backup into place beside a journal a killed shell left: SQLite would fold
/// the old file's journal into the copy. No command opens the copy; each names the journal, and
/// the copy and the journal are both left byte for byte as they were.
#[test]
fn a_journal_left_by_a_killed_shell_is_never_folded_into_a_backup_copied_into_place() {
    let c = Campaign::with_party();
    let backup = c.dir.path().join("before.db");
    c.ok(&["backup", backup.to_str().unwrap()]);
    let wal = killed_shell_leaves_its_journal(&c);
    let journal = bytes(&wal);
    std::fs::copy(&backup, &c.db).unwrap();
    let copied = bytes(&c.db);
    // A backup has an identity of its own, which one time in 16 is the campaign's: then the
    // journal is refused as another moment's.
    every_command_refuses_and_keeps_both(&c, &wal, "the journal beside it");
    // The way out the refusal names: `restore` sets the copy aside with the journal beside it
    // (both kept, as they were), and puts the backup in place whole.
    let restored = c.json(&["restore", backup.to_str().unwrap()]);
    let aside = restored["set_aside"].as_array().unwrap();
    assert_eq!(
        bytes(Path::new(aside[0].as_str().unwrap())),
        copied,
        "{restored}"
    );
    let kept_wal = aside.iter().find(|p| p.as_str().unwrap().ends_with("-wal"));
    assert_eq!(
        bytes(Path::new(kept_wal.unwrap().as_str().unwrap())),
        journal
    );
    assert!(c.ok(&["verify"]).contains("all checks hold"));
}

/// Plain copies of the campaign file (`cp`, which keeps its identity) from another moment, put in
/// place beside the journal a killed shell left: an earlier copy (the journal continues a later
/// moment of the same campaign) and a later one (the journal would take it back). No command
/// folds the journal into either; each names it, and the copy and the journal stay as they were.
#[test]
fn a_journal_is_never_folded_into_a_copy_of_its_campaign_from_another_moment() {
    let c = Campaign::with_party();
    let earlier = c.dir.path().join("earlier.db");
    std::fs::copy(&c.db, &earlier).unwrap();
    c.ok(&["damage", "Aldric", "1"]);
    // A later moment of the same campaign, played on in a copy of its own.
    let elsewhere = tempfile::tempdir().unwrap();
    let later = elsewhere.path().join("campaign.db");
    std::fs::copy(&c.db, &later).unwrap();
    for _ in 0..3 {
        let out = c
            .cmd()
            .args(["--db", later.to_str().unwrap(), "damage", "Aldric", "1"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    let wal = killed_shell_leaves_its_journal(&c);
    for copy in [&earlier, &later] {
        std::fs::copy(copy, &c.db).unwrap();
        every_command_refuses_and_keeps_both(&c, &wal, "a copy of it from another moment");
    }
}

/// A copy of the campaign played on by itself and put back in place beside the journal a killed
/// shell left on the original: both went on one write from the same moment, so they count the
/// same number of writes, but each write drew its own random mark. The journal is refused, named
/// and kept, and the copy's event is not lost.
///
/// And the same when the original also went on one write, folded in, before the shell: the copy
/// then stands at the very count the journal starts from (a count alone let that one in).
#[test]
fn a_journal_is_never_folded_into_a_copy_that_went_its_own_way() {
    for original_went_on in [false, true] {
        let c = Campaign::with_party();
        let branch = c.dir.path().join("branch.db");
        std::fs::copy(&c.db, &branch).unwrap();
        let out = c
            .cmd()
            .args(["--db", branch.to_str().unwrap(), "heal", "Aldric", "1"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        if original_went_on {
            c.ok(&["damage", "Aldric", "1"]);
        }
        let wal = killed_shell_leaves_its_journal(&c);
        std::fs::copy(&branch, &c.db).unwrap();
        every_command_refuses_and_keeps_both(&c, &wal, "a copy of it from another moment");
    }
}

/// A campaign file copied over the one a shell holds open, in place (the same inode): the shell's
/// next write is refused rather than mixing the two files' pages, and the copy stays whole.
#[test]
fn a_file_copied_in_place_under_a_shell_stops_its_next_write() {
    let c = Campaign::with_party();
    let backup = c.dir.path().join("before.db");
    c.ok(&["backup", backup.to_str().unwrap()]);
    let errors = second_write_after_copying_in_place(&c, &backup);
    // Told by the file's identity, or (when the 4-bit identities happen to agree) by the journal
    // the file no longer continues.
    assert!(
        errors.contains("copied over this one in place")
            || errors.contains("copied over it in place"),
        "{errors}"
    );
}

/// A shell records a damage, `copy` is copied over its file in place (the same inode), and the
/// shell is asked for a second damage, which must be refused; returns what the shell said on
/// stderr once it has ended.
fn second_write_after_copying_in_place(c: &Campaign, copy: &Path) -> String {
    use std::io::Write;
    let (mut shell, mut input, mut output) = shell_that_ran(c, "damage Aldric 1", "Health now");
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let before = inode(&c.db);
    std::fs::copy(copy, &c.db).unwrap();
    assert_eq!(inode(&c.db), before, "copied in place");
    writeln!(input, "damage Aldric 1").unwrap();
    drop(input);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut output, &mut rest).unwrap();
    let mut errors = String::new();
    std::io::Read::read_to_string(shell.stderr.as_mut().unwrap(), &mut errors).unwrap();
    shell.wait().unwrap();
    assert!(
        !rest.contains("Health now"),
        "the second write was refused: {rest}"
    );
    errors
}

/// A campaign with a backup in `before.db`, and the head the backup holds.
fn backed_up() -> (Campaign, std::path::PathBuf, String) {
    let c = Campaign::with_party();
    let backup = c.dir.path().join("before.db");
    let noted = c.json(&["backup", backup.to_str().unwrap()])["head"]
        .as_str()
        .unwrap()
        .to_string();
    (c, backup, noted)
}

/// `restore` after a killed shell: the file and the journal it left are set aside together (never
/// deleted, byte for byte, still one campaign with its last event), and the backup takes the
/// place, whole and verified.
#[test]
fn restore_sets_the_file_and_the_journal_a_killed_shell_left_aside_together() {
    let (c, backup, noted) = backed_up();
    let wal = killed_shell_leaves_its_journal(&c);
    let (file, journal) = (bytes(&c.db), bytes(&wal));
    let restored = c.json(&["restore", backup.to_str().unwrap()]);
    assert_eq!(restored["head"], noted.as_str(), "{restored}");
    let aside: Vec<String> = restored["set_aside"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    let kept = Path::new(&aside[0]);
    assert!(
        kept.file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("campaign.db.replaced-"),
        "{aside:?}"
    );
    assert_eq!(bytes(kept), file, "the file set aside is the one replaced");
    let kept_wal = aside
        .iter()
        .find(|p| p.ends_with("-wal"))
        .expect("its journal");
    assert_eq!(
        bytes(Path::new(kept_wal)),
        journal,
        "with its journal, as it was"
    );
    assert!(!wal.exists(), "no journal is left beside the restored file");
    let verified = c.ok(&["verify", "--checkpoint", &noted]);
    assert!(verified.contains("all checks hold"), "{verified}");
    assert!(
        !c.ok(&["log"]).contains("Health now"),
        "the restored campaign is the backup's"
    );
    // The file set aside is still the old campaign, its last event (in the journal) included.
    let old = kept.to_str().unwrap();
    let log = c.ok(&["--db", old, "log", "--limit", "1"]);
    assert!(log.contains("Aldric takes 1"), "{log}");
}

/// `restore` holds the campaign alone: while a shell or `serve` has it open it is refused and
/// changes nothing; once they stop, it restores.
#[test]
fn restore_is_refused_while_a_shell_or_serve_has_the_campaign_open() {
    let c = Campaign::with_party();
    let backup = c.dir.path().join("before.db");
    c.ok(&["backup", backup.to_str().unwrap()]);
    c.ok(&["damage", "Aldric", "1"]);
    let file = bytes(&c.db);
    let (mut shell, input, _output) = shell_that_ran(&c, "character list", "Aldric");
    let said = c.refused(&["restore", backup.to_str().unwrap()], 1);
    assert!(said.contains("another process has it open"), "{said}");
    drop(input);
    shell.wait().unwrap();
    assert_eq!(bytes(&c.db), file, "the shell's refusal changed nothing");
    // A shell that has written keeps fewer locks on the file itself, and holds the campaign all
    // the same.
    let (mut shell, input, _output) = shell_that_ran(&c, "damage Aldric 1", "Health now");
    let said = c.refused(&["restore", backup.to_str().unwrap()], 1);
    assert!(said.contains("another process has it open"), "{said}");
    drop(input);
    shell.wait().unwrap();
    {
        let _served = crate::serve::Served::start(&c);
        let said = c.refused(&["restore", backup.to_str().unwrap()], 1);
        assert!(said.contains("another process has it open"), "{said}");
    }
    let restored = c.ok(&["restore", backup.to_str().unwrap()]);
    assert!(restored.starts_with("Restored "), "{restored}");
    let leftovers: Vec<_> = std::fs::read_dir(c.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("restoring"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// `restore` into something that is not a file (a pipe) is refused at once, writing nothing.
#[test]
fn restore_into_a_pipe_is_refused_before_anything_is_written() {
    let c = Campaign::with_party();
    let backup = c.dir.path().join("before.db");
    c.ok(&["backup", backup.to_str().unwrap()]);
    let pipe = c.dir.path().join("pipe.db");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&pipe)
            .status()
            .unwrap()
            .success()
    );
    let said = c.refused(
        &[
            "--db",
            pipe.to_str().unwrap(),
            "restore",
            backup.to_str().unwrap(),
        ],
        1,
    );
    assert!(said.contains("not a campaign file"), "{said}");
    let names: Vec<String> = std::fs::read_dir(c.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("pipe.db") && name != "pipe.db")
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

/// `restore` through a link to the campaign file restores the file the link leads to: the link
/// stays a link, the file it led to is set aside beside it, and the campaign read through the link
/// is the backup's.
#[test]
fn restore_through_a_link_replaces_the_file_it_leads_to_and_keeps_the_link() {
    let (c, backup, noted) = backed_up();
    c.ok(&["damage", "Aldric", "2"]);
    let link = c.dir.path().join("link.db");
    std::os::unix::fs::symlink(&c.db, &link).unwrap();
    let restored = c.json(&[
        "--db",
        link.to_str().unwrap(),
        "restore",
        backup.to_str().unwrap(),
    ]);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link is still a link"
    );
    let aside = restored["set_aside"][0].as_str().unwrap();
    assert!(
        aside.starts_with(c.db.to_str().unwrap()) && aside.contains(".replaced-"),
        "{restored}"
    );
    let head = c.json(&["--db", link.to_str().unwrap(), "head"]);
    assert_eq!(head["checkpoint"].as_str().unwrap(), noted, "{head}");
}

/// A backup or an import that is not a file, or not a campaign, is named for what it is, in the
/// words of the argument given (not `--db`'s), and nothing is changed.
#[test]
fn a_backup_or_an_import_that_is_no_such_file_is_named_for_what_it_is() {
    let c = Campaign::with_party();
    let folder = c.dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    let text = c.dir.path().join("notes.txt");
    std::fs::write(&text, "not a campaign").unwrap();
    let before = bytes(&c.db);
    for (backup, says) in [
        (
            folder.as_path(),
            "it is a folder; give the path of a backup",
        ),
        (
            Path::new("/dev/null"),
            "it is a device, pipe or socket, not a file",
        ),
        (
            text.as_path(),
            "it is not a campaign file, so not a backup grimoire wrote",
        ),
    ] {
        let out = c.run(&["restore", backup.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{backup:?}");
        assert!(said.contains(says), "{backup:?}: {said}");
        assert!(!said.contains("--db"), "{backup:?}: {said}");
    }
    assert_eq!(bytes(&c.db), before);
    let out = c.run(&["--db", "new.db", "import", folder.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("it is a folder") && !said.contains("os error"),
        "{said}"
    );
}

/// An earlier copy of the same campaign (a plain `cp`, which keeps its identity) copied over the
/// file a shell holds open, in place: the shell's next write is refused, and closing the shell
/// folds nothing into the copy, which stays byte for byte as it was put there.
#[test]
fn an_earlier_copy_put_in_place_under_a_shell_stops_its_writes_and_takes_nothing_at_close() {
    let c = Campaign::with_party();
    let earlier = c.dir.path().join("earlier.db");
    std::fs::copy(&c.db, &earlier).unwrap();
    // Folded into the file at its close: the shell's journal starts after the copy's moment.
    c.ok(&["heal", "Aldric", "1"]);
    let errors = second_write_after_copying_in_place(&c, &earlier);
    assert!(errors.contains("copied over it in place"), "{errors}");
    assert_eq!(
        bytes(&c.db),
        bytes(&earlier),
        "closing the shell folded nothing into the copy"
    );
}

/// A campaign file with two names (a hard link) is refused under either: SQLite would keep a
/// journal beside each, and writes through one would be lost to the other.
#[test]
fn a_campaign_file_with_two_names_is_refused_under_either() {
    let c = Campaign::with_party();
    let other = c.dir.path().join("other-name.db");
    std::fs::hard_link(&c.db, &other).unwrap();
    for db in [&c.db, &other] {
        let out = c.run(&["--db", db.to_str().unwrap(), "damage", "Aldric", "1"]);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(said.contains("has 2 names (hard links)"), "{said}");
    }
    std::fs::remove_file(&other).unwrap();
    c.ok(&["damage", "Aldric", "1"]);
}
