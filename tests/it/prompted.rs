//! `--rolls ask`: dice asked for on a terminal (a pseudo-terminal here), one die at a time as the
//! command needs them, never holding the log while a person types. Each step waits for what the
//! program printed before typing, so nothing depends on how quickly either side runs; the long
//! expect timeout only keeps a broken build from hanging the suite.

use crate::support::{Campaign, LEARN_SHADOW_STEP, grimoire_cmd};
use expectrl::process::unix::WaitStatus;
use expectrl::{Eof, Expect, Regex, Session};
use std::time::Duration;

pub type Pty = expectrl::session::OsSession;

/// grimoire with `args` in a pseudo-terminal that echoes what is typed, as a person's terminal
/// does (the pseudo-terminal starts without echo; `stty` turns it on before grimoire starts).
pub fn spawn(c: &Campaign, args: &[&str]) -> Pty {
    let grimoire = grimoire_cmd(&c.db, c.dir.path());
    let mut cmd = std::process::Command::new("sh");
    cmd.args(["-c", "stty echo && exec \"$0\" \"$@\""])
        .arg(grimoire.get_program())
        .args(args)
        .current_dir(c.dir.path())
        .env("NO_COLOR", "1");
    for (key, value) in grimoire.get_envs() {
        if let Some(value) = value {
            cmd.env(key, value);
        }
    }
    let mut session = Session::spawn(cmd).expect("grimoire starts in a pseudo-terminal");
    session.set_expect_timeout(Some(Duration::from_secs(120)));
    session
}

/// Waits for the program to end; returns its exit code.
pub fn exit_code(session: &mut Pty) -> i32 {
    match session.get_process().wait().expect("grimoire ends") {
        WaitStatus::Exited(_, code) => code,
        other => panic!("grimoire did not exit normally: {other:?}"),
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Everything the program prints from here to its end.
pub fn the_rest(session: &mut Pty) -> String {
    text(session.expect(Eof).expect("the end").as_bytes())
}

fn with_shadow_step() -> Campaign {
    let c = Campaign::with_party();
    c.ok(&LEARN_SHADOW_STEP);
    c
}

#[test]
fn asked_dice_follow_the_mishap_as_it_unfolds_and_are_recorded_as_entered() {
    let c = with_shadow_step();
    let mut session = spawn(
        &c,
        &["--rolls", "ask", "ritual", "cast", "Aldric", "Shadow Step"],
    );
    session
        .expect("casting check: d20 (die 1; q gives up): ")
        .expect("the first prompt");
    // 19 against Cunning 13 fails by 6: the mishap's 2d6 are asked for next, then what its entry needs.
    session.send_line("19").unwrap();
    session
        .expect("mishap 2d6: d6 (die 2")
        .expect("the mishap's first die");
    session.send_line("3").unwrap();
    session
        .expect("mishap 2d6: d6 (die 3")
        .expect("the mishap's second die");
    session.send_line("4").unwrap();
    let mut typed: Vec<u64> = vec![19, 3, 4];
    // Whatever the entry needs, each die is asked for by name until the cast is recorded.
    let prompt = r"d(\d+) \(die (\d+); q gives up\): ";
    loop {
        let found = session
            .expect(expectrl::Any::boxed(vec![
                Box::new(Regex(prompt)),
                Box::new("Shadow Step"),
            ]))
            .expect("a prompt or the result");
        let matched = text(found.get(0).unwrap());
        if !matched.contains("gives up") {
            break;
        }
        let number: usize = text(found.get(2).unwrap()).parse().unwrap();
        assert_eq!(number, typed.len() + 1, "dice are asked for in draw order");
        session.send_line("1").unwrap();
        typed.push(1);
    }
    session.expect(Eof).expect("the end");
    assert_eq!(exit_code(&mut session), 0);
    let log = c.json(&["log", "--limit", "1"]);
    let dice = log["events"][0]["payload"]["dice"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let values: Vec<u64> = dice.iter().filter_map(|d| d["value"].as_u64()).collect();
    assert_eq!(values, typed, "{log}");
    assert!(
        dice.iter().all(|d| d["provenance"]["source"] == "entered"),
        "{log}"
    );
}

#[test]
fn a_sealed_die_typed_at_the_prompt_is_not_shown_and_opens_to_what_was_typed() {
    let c = Campaign::with_party();
    let mut session = spawn(
        &c,
        &[
            "--rolls", "ask", "roll", "d20", "--sealed", "--for", "ambush",
        ],
    );
    session
        .expect("sealed d20 (die 1), not shown")
        .expect("the sealed prompt");
    session.expect("(q gives up): ").unwrap();
    session.send_line("17").unwrap();
    let shown = the_rest(&mut session);
    assert!(shown.contains("sealed"), "{shown:?}");
    let first_line = shown
        .trim_start_matches(['\r', '\n'])
        .lines()
        .next()
        .unwrap_or_default();
    assert!(
        !first_line.contains("17"),
        "the sealed value was echoed: {shown:?}"
    );
    assert_eq!(exit_code(&mut session), 0);
    let seq = c.json(&["log", "--limit", "1"])["events"][0]["seq"]
        .as_u64()
        .unwrap();
    let revealed = c.ok(&["reveal", &seq.to_string()]);
    assert!(revealed.contains("17"), "{revealed}");
}

#[test]
fn the_log_is_free_while_a_person_types_and_dice_entered_before_it_moved_are_asked_again() {
    let c = Campaign::with_party();
    let mut session = spawn(&c, &["--rolls", "ask", "roll", "2d6", "--for", "stones"]);
    session.expect("(die 1; q gives up): ").unwrap();
    session.send_line("3").unwrap();
    session.expect("(die 2; q gives up): ").unwrap();
    // Someone else records while the prompt waits: the write is not held up.
    let damage = c.seq_of(&["damage", "Aldric", "1"]);
    session.send_line("4").unwrap();
    session
        .expect("The log moved on")
        .expect("told the log moved");
    session
        .expect("(die 1; q gives up): ")
        .expect("asked again from the first die");
    session.send_line("5").unwrap();
    session.expect("(die 2; q gives up): ").unwrap();
    session.send_line("6").unwrap();
    session.expect(Eof).unwrap();
    assert_eq!(exit_code(&mut session), 0);
    let last = &c.json(&["log", "--limit", "1"])["events"][0];
    assert_eq!(last["seq"].as_u64(), Some(damage + 1), "{last}");
    let description = last["description"].as_str().unwrap_or_default();
    assert!(
        description.contains("5") && description.contains("6"),
        "{last}"
    );
}

#[test]
fn giving_up_at_a_prompt_records_nothing() {
    let c = Campaign::with_party();
    let before = c.head();
    let mut session = spawn(&c, &["--rolls", "ask", "roll", "d20"]);
    session.expect("(die 1; q gives up): ").unwrap();
    session.send_line("25").unwrap();
    session
        .expect("not a face of a d20: type 1 to 20")
        .expect("a face off the die is refused at once");
    session.expect("(die 1; q gives up): ").unwrap();
    session.send_line("q").unwrap();
    let said = the_rest(&mut session);
    assert!(said.contains("nothing was recorded"), "{said:?}");
    assert_eq!(exit_code(&mut session), 1);
    assert_eq!(c.head(), before);
}

#[test]
fn ctrl_c_at_a_sealed_prompt_gives_up_and_records_nothing() {
    let c = Campaign::with_party();
    let before = c.head();
    let mut session = spawn(&c, &["--rolls", "ask", "roll", "d20", "--sealed"]);
    session.expect("(q gives up): ").unwrap();
    session.send("\x03").unwrap();
    let said = the_rest(&mut session);
    assert!(said.contains("nothing was recorded"), "{said:?}");
    assert_eq!(exit_code(&mut session), 1);
    assert_eq!(c.head(), before);
}

/// A sealed open-ended roll takes all its faces in one answer, unseen, at one prompt. Whatever is
/// wrong with an answer (a chain cut short after 97, a face too many, a face the die lacks, not a
/// number) gets the same words and the same prompt again, so neither tells what was typed or that
/// the roll went on; a whole answer is recorded as typed.
#[test]
fn a_sealed_open_ended_roll_is_asked_at_one_prompt_and_every_wrong_answer_gets_the_same_words() {
    let c = Campaign::with_party();
    let mut session = spawn(&c, &["--rolls", "ask", "roll", "oe", "--sealed"]);
    let prompt = "sealed d100 (die 1), not shown";
    session.expect(prompt).unwrap();
    session.expect("(q gives up): ").unwrap();
    for wrong in ["97", "50,3", "101", "x", "97,45,3"] {
        session.send_line(wrong).unwrap();
        session
            .expect("not taken: type the sealed roll again, every face it took on one line")
            .expect("the one message");
        session
            .expect(prompt)
            .expect("the same prompt, the same die");
        session.expect("(q gives up): ").unwrap();
    }
    session.send_line("97,45").unwrap();
    let said = the_rest(&mut session);
    assert!(!said.contains("die 2"), "{said:?}");
    assert_eq!(exit_code(&mut session), 0, "{said:?}");
    let seq = c.json(&["log", "--limit", "1"])["events"][0]["seq"]
        .as_u64()
        .unwrap();
    let revealed = c.ok(&["reveal", &seq.to_string()]);
    assert!(revealed.contains("revealed: 97+45"), "{revealed}");
}

#[test]
fn asking_needs_a_terminal_and_says_what_to_give_instead() {
    let c = Campaign::with_party();
    let stderr = c.refused(&["--rolls", "ask", "roll", "d20"], 2);
    assert!(stderr.contains("--rolls 14,3"), "{stderr}");
}

/// `session start` without --entropy, at a terminal: the players are shown the epoch's seed
/// commitment to note, then asked for their text, which goes into the session's dice.
#[test]
fn a_session_started_at_a_terminal_shows_the_commitment_and_asks_the_players() {
    let c = Campaign::with_party();
    let mut session = spawn(&c, &["session", "start"]);
    let asked = session
        .expect(Regex("note it, then type a phrase"))
        .expect("the players are asked");
    let shown = text(asked.before());
    assert!(
        shown.contains("Dice epoch 1's seed commitment: "),
        "{shown}"
    );
    session.send_line("owls at midnight").expect("typed");
    let rest = the_rest(&mut session);
    assert_eq!(exit_code(&mut session), 0, "{rest}");
    assert!(
        rest.contains("session 1 starts; players' entropy \"owls at midnight\""),
        "{rest}"
    );
    let log = c.ok(&["log", "--kind", "session_started"]);
    assert!(log.contains("owls at midnight"), "{log}");
    // Without a terminal nothing is asked: the commitment is printed for the players to note.
    c.ok(&["session", "end"]);
    let piped = c.ok(&["session", "start"]);
    assert!(
        piped.contains("seed commitment: ") && piped.contains("(players: note it down)"),
        "{piped}"
    );
    // With a session open the start is refused, and the players are not asked first for nothing.
    let mut again = spawn(&c, &["session", "start"]);
    let rest = the_rest(&mut again);
    assert_eq!(exit_code(&mut again), 1, "{rest}");
    assert!(!rest.contains("type a phrase"), "{rest}");
    assert!(rest.contains("is still open"), "{rest}");
}
