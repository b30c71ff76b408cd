//! `grimoire shell`, driven through a pseudo-terminal as a person would: each step waits for what
//! the shell printed before typing the next keys, so nothing depends on timing.

use crate::prompted::{Pty, exit_code, spawn, the_rest};
use crate::support::{Campaign, learning};
use expectrl::Expect;

const PROMPT: &str = "The Sunken Vault> ";
const ENTER: &str = "\r";
const UP: &str = "\x1b[A";

fn type_line(shell: &mut Pty, line: &str) {
    shell.send(format!("{line}{ENTER}")).expect("typed");
}

#[test]
fn the_shell_records_each_line_durably_completes_names_recalls_history_and_sees_other_writers() {
    let c = Campaign::with_party();
    let mut shell = spawn(&c, &["shell"]);
    shell.expect(PROMPT).expect("the prompt names the campaign");

    type_line(&mut shell, "damage Aldric 1");
    shell.expect("Health now 7/8").expect("the damage recorded");
    shell.expect(PROMPT).unwrap();
    // Durable on return: another process reads it while the shell stays open.
    let last = &c.json(&["log", "--limit", "1"])["events"][0];
    assert_eq!(last["description"], "Aldric takes 1 damage", "{last}");

    // The arrow key brings the last line back.
    shell.send(UP).unwrap();
    shell.send(ENTER).unwrap();
    shell
        .expect("Health now 6/8")
        .expect("the line from history ran again");
    shell.expect(PROMPT).unwrap();

    // Another process records while the shell is open; the shell's next command sees it.
    c.ok(&["damage", "Aldric", "2"]);

    // Tab completes the command, the subcommand and the character's name.
    shell.send("charac\t").unwrap();
    shell.send("sh\t").unwrap();
    shell.send("Ald\t").unwrap();
    shell.send(ENTER).unwrap();
    shell
        .expect("Health 4/8")
        .expect("character show Aldric, after the other process's damage");
    shell.expect(PROMPT).unwrap();

    // A refused line says why and the shell goes on.
    type_line(&mut shell, "damage Nobody 1");
    shell.expect("no character named 'Nobody'").unwrap();
    shell.expect(PROMPT).unwrap();
    type_line(&mut shell, "--db other.db log");
    shell.expect("--db does not apply").unwrap();
    shell.expect(PROMPT).unwrap();

    type_line(&mut shell, "exit");
    let rest = the_rest(&mut shell);
    assert!(
        rest.contains("Closed the campaign after 3 commands."),
        "{rest:?}"
    );
    assert_eq!(exit_code(&mut shell), 0);
}

#[test]
fn a_shell_on_no_campaign_is_refused() {
    let c = Campaign::empty();
    let stderr = c.refused(&["shell"], 1);
    assert!(stderr.contains("init"), "{stderr}");
}

#[test]
fn lines_from_a_pipe_run_in_order_and_the_shell_ends_at_the_end_of_its_input() {
    let c = Campaign::with_party();
    let out = assert_cmd::Command::from_std(c.cmd())
        .arg("shell")
        .write_stdin("damage Aldric 1\n\nheal Aldric 1\nlog --limit 2\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let damage = stdout.find("#5 Aldric takes 1 damage").expect("the damage");
    let heal = stdout.find("#6 Aldric heals 1").expect("the healing");
    assert!(damage < heal, "{stdout}");
    assert!(
        stdout.contains("Closed the campaign after 3 commands."),
        "{stdout}"
    );
}

/// The state the shell keeps in memory answers exactly as a fresh process reading the file, after
/// its own writes, a refused line, a retraction, and another process's write.
#[test]
fn the_state_kept_between_lines_answers_as_a_fresh_replay_would() {
    let c = Campaign::with_party();
    let lines = [
        "damage Aldric 3",
        "damage Nobody 1",
        "retract --last --reason \"wrong target\"",
        "damage Mira 2",
        "time advance 8h",
        "rest --party",
        "--json character list",
    ];
    let out = assert_cmd::Command::from_std(c.cmd())
        .arg("shell")
        .write_stdin(lines.join("\n") + "\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let from_shell = stdout
        .find("{\n")
        .map(|start| &stdout[start..])
        .and_then(|json| json.rfind("\n}").map(|end| &json[..end + 2]))
        .expect("the shell's JSON");
    let from_shell: serde_json::Value = serde_json::from_str(from_shell).expect("JSON");
    assert_eq!(from_shell, c.json(&["character", "list"]), "{stdout}");
}

/// What `args` print on a terminal `cols` wide. The pseudo-terminal's library sets its own size
/// just after starting the child, so the child waits for a word sent once the size is set, and only
/// then starts grimoire (which reads the size at once).
fn on_a_terminal(c: &Campaign, cols: u16, args: &str) -> String {
    let grimoire = crate::support::grimoire_cmd(&c.db, c.dir.path());
    let mut cmd = std::process::Command::new("sh");
    cmd.args([
        "-c",
        &format!("read go && exec \"$0\" --color never {args}"),
    ])
    .arg(grimoire.get_program())
    .current_dir(c.dir.path());
    for (key, value) in grimoire.get_envs() {
        if let Some(value) = value {
            cmd.env(key, value);
        }
    }
    let mut session = expectrl::Session::spawn(cmd).expect("a pseudo-terminal");
    session.set_expect_timeout(Some(std::time::Duration::from_secs(120)));
    session
        .get_process_mut()
        .set_window_size(cols, 40)
        .expect("the terminal's size");
    session.send_line("go").expect("the word to start");
    the_rest(&mut session).replace('\r', "")
}

/// On a terminal, tables and the log are fitted to its width: long glances wrap inside their
/// column, long log lines under their description, instead of running past the edge.
#[test]
fn tables_and_the_log_fit_a_narrow_terminal() {
    // Wen knows Calling Moon; two more wards make her sheet's list of rituals long.
    let c = Campaign::with_a_ceremony_writer();
    for ward in ["Ward of Ash", "Ward of the Long Road"] {
        c.ok(&learning("Wen", ward, "phrase"));
    }
    let shown = on_a_terminal(&c, 60, "character list");
    assert!(shown.lines().any(|l| l.starts_with("Wen")), "{shown}");
    let widest = shown.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(widest <= 60, "a line of {widest} columns: {shown}");
    assert!(shown.lines().count() > 4, "the glances wrapped: {shown}");

    let log = on_a_terminal(&c, 72, "log");
    for line in log.lines().filter(|l| l.chars().count() > 72) {
        // Only a word longer than the room left (a commitment's hex) may run past the edge.
        assert!(!line.trim_start().contains(' '), "{line:?} in {log}");
    }
    assert!(
        log.lines()
            .any(|l| l.starts_with("      ") && !l.trim().is_empty()),
        "long lines continue under their description: {log}"
    );
    // A sheet's long lines wrap too.
    let sheet = on_a_terminal(&c, 40, "character show Wen");
    let widest = sheet.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(widest <= 40, "a line of {widest} columns: {sheet}");
    assert!(sheet.contains("Road"), "{sheet}");
    // Piped, every event stays one line.
    let piped = c.ok(&["log"]);
    assert_eq!(piped.lines().count(), 7, "{piped}");
}

/// A campaign file deleted or moved while the shell holds it open: the shell's next write is
/// refused, saying what happened, rather than acknowledged into a file nothing opens again. Put
/// back, the file takes writes as before, and it holds only what the shell acknowledged.
#[test]
fn the_shell_refuses_to_write_to_a_campaign_file_deleted_or_moved_under_it() {
    let c = Campaign::with_party();
    let mut shell = spawn(&c, &["shell"]);
    shell.expect(PROMPT).unwrap();
    type_line(&mut shell, "damage Aldric 1");
    shell.expect("Health now 7/8").unwrap();
    shell.expect(PROMPT).unwrap();

    let moved = c.dir.path().join("moved.db");
    std::fs::rename(&c.db, &moved).unwrap();
    type_line(&mut shell, "damage Aldric 1");
    shell
        .expect("deleted or moved away while it was open here")
        .expect("the write is refused");
    shell.expect(PROMPT).unwrap();

    // Another file in its place is not the campaign the shell opened either.
    std::fs::copy(&moved, &c.db).unwrap();
    type_line(&mut shell, "damage Aldric 1");
    shell
        .expect("another file (or a link to one) has taken the campaign file's place")
        .expect("the write is refused");
    shell.expect(PROMPT).unwrap();
    std::fs::remove_file(&c.db).unwrap();

    std::fs::rename(&moved, &c.db).unwrap();
    type_line(&mut shell, "heal Aldric 1");
    shell.expect("Health now 8/8").unwrap();
    shell.expect(PROMPT).unwrap();
    type_line(&mut shell, "exit");
    the_rest(&mut shell);
    let log = c.json(&["log"]);
    let seen: Vec<&str> = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["description"].as_str())
        .filter(|d| d.starts_with("Aldric takes") || d.starts_with("Aldric heals"))
        .collect();
    assert_eq!(seen, ["Aldric takes 1 damage", "Aldric heals 1"], "{log}");
    c.ok(&["verify"]);
}

/// The same when the file is moved and a link left in its place (another process then writes
/// through the link, to another journal), or when its journal is deleted under the shell and
/// another process writes meanwhile: the shell refuses rather than acknowledge a write that would
/// be lost, and the events other processes acknowledged stay.
#[test]
fn the_shell_refuses_to_write_past_a_link_put_in_its_files_place_or_a_deleted_journal() {
    for case in ["link", "journal"] {
        let c = Campaign::with_party();
        let mut shell = spawn(&c, &["shell"]);
        shell.expect(PROMPT).unwrap();
        type_line(&mut shell, "damage Aldric 1");
        shell.expect("Health now 7/8").unwrap();
        shell.expect(PROMPT).unwrap();
        match case {
            "link" => {
                let moved = c.dir.path().join("moved.db");
                std::fs::rename(&c.db, &moved).unwrap();
                std::os::unix::fs::symlink(&moved, &c.db).unwrap();
            }
            _ => {
                for journal in ["campaign.db-wal", "campaign.db-shm"] {
                    std::fs::remove_file(c.dir.path().join(journal)).unwrap();
                }
            }
        }
        let other = c.seq_of(&["heal", "Aldric", "1"]);
        type_line(&mut shell, "damage Aldric 3");
        let refused = if case == "link" {
            "another file (or a link to one) has taken the campaign file's place"
        } else {
            "journal (-wal) was deleted or replaced"
        };
        shell.expect(refused).expect("the write is refused");
        shell.expect(PROMPT).unwrap();
        type_line(&mut shell, "exit");
        the_rest(&mut shell);
        let log = c.json(&["log"]);
        let last = &log["events"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["seq"], other, "{case}: {log}");
        assert_eq!(last["description"], "Aldric heals 1", "{case}");
        c.ok(&["verify"]);
    }
}

/// T-3: while a fight is on, the prompt says its round, as the table counts it.
#[test]
fn t3_the_prompt_counts_the_fights_rounds() {
    let c = Campaign::with_party();
    let mut shell = spawn(&c, &["shell"]);
    shell.expect(PROMPT).expect("the prompt names the campaign");
    type_line(&mut shell, "fight start \"at the bridge\"");
    shell.expect("The Sunken Vault, round 1> ").unwrap();
    type_line(&mut shell, "next");
    shell
        .expect("round 2 of the fight at the bridge begins")
        .unwrap();
    shell.expect("The Sunken Vault, round 2> ").unwrap();
    type_line(&mut shell, "fight end");
    shell.expect("ends after 2 rounds").unwrap();
    shell.expect(PROMPT).unwrap();
    type_line(&mut shell, "exit");
    the_rest(&mut shell);
    assert_eq!(exit_code(&mut shell), 0);
}
