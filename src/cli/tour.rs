//! `grimoire tour`: a short scripted evening played through the real commands.

use super::output::Report;
use super::{Cli, Context, run as run_command};
use crate::Error;
use crate::store::Store;
use crate::store::remove_database_files;
use crate::systems::contract::command::SystemCommands;
use crate::systems::registry::{SystemId, on_system};
use clap::{Args, Parser};
use serde_json::{Value, json};
use std::path::PathBuf;

/// Play a short scripted evening into a fresh campaign file, printing each command and its output:
/// two characters, a session with seeded, physical and sealed dice, damage, healing, a retraction, an
/// A Dungeon Game ritual learned and cast, a fight by the round with an amendment, a scroll written
/// and read, the log, the sheets (now and at a past moment), a dice explanation, a full
/// verification, and a report page beside the file (tour.html for tour.db).
///
/// The file is replaced if an earlier tour made it; any other file is refused and left alone.
#[derive(Debug, Args)]
pub struct TourArgs {
    /// Where to write the tour's campaign.
    #[arg(long, default_value = "tour.db", value_name = "PATH")]
    pub into: PathBuf,
}

struct Tour<'a> {
    db: String,
    ctx: &'a mut Context,
    transcript: Vec<String>,
    steps: Vec<Value>,
}

impl Tour<'_> {
    /// Runs one command line (after `grimoire --db TOUR`), records it, and returns its JSON.
    fn step(&mut self, args: &[&str]) -> Result<Value, Error> {
        let mut argv = vec!["grimoire", "--db", self.db.as_str()];
        argv.extend_from_slice(args);
        let cli = Cli::try_parse_from(&argv)
            .map_err(|e| Error::Usage(format!("tour step {args:?}: {e}")))?;
        let report = run_command(&cli, self.ctx)?;
        let shown: Vec<String> = args
            .iter()
            .map(|a| {
                if a.contains(' ') {
                    format!("\"{a}\"")
                } else {
                    a.to_string()
                }
            })
            .collect();
        self.transcript
            .push(format!("$ grimoire {}\n{}\n", shown.join(" "), report.text));
        self.steps
            .push(json!({ "command": args, "output": report.json }));
        Ok(report.json)
    }

    fn say(&mut self, words: &str) {
        self.transcript.push(format!("# {words}"));
    }
}

fn first_seq(json: &Value) -> String {
    json["appended"][0]["seq"]
        .as_u64()
        .map(|s| s.to_string())
        .unwrap_or_default()
}

pub fn run(ctx: &mut Context, args: &TourArgs) -> Result<Report, Error> {
    if args
        .into
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
    {
        // Replacing removes the file at the path and SQLite's files beside it, which beside a link
        // are not the tour's.
        return Err(crate::store::StoreError::Refused {
            path: args.into.clone(),
            why: "it is a symbolic link; give --into the tour file's own path, or a new one".into(),
        }
        .into());
    }
    if args.into.symlink_metadata().is_ok() {
        // Only ever replace the tour's own earlier file: a campaign must never be lost to a demo.
        if !Store::open(&args.into)?.is_tour()? {
            return Err(crate::store::StoreError::Refused {
                path: args.into.clone(),
                why: "it was not made by `grimoire tour`, which replaces only its own earlier file; give --into a new path".into(),
            }
            .into());
        }
        remove_database_files(&args.into);
    }
    let mut new = Store::create_new(&args.into)?;
    new.store().mark_as_tour()?;
    new.publish()?;
    // A tour stopped part way (a full disk) leaves nothing: the file is its own, and half an
    // evening is no tour.
    play(ctx, args).inspect_err(|_| remove_database_files(&args.into))
}

/// Plays the evening into the tour's new file.
fn play(ctx: &mut Context, args: &TourArgs) -> Result<Report, Error> {
    // The tour prints its transcript at the end, so its steps' output goes into it, in order.
    ctx.streams = false;
    let mut tour = Tour {
        db: args.into.display().to_string(),
        ctx,
        transcript: Vec::new(),
        steps: Vec::new(),
    };

    tour.say("A new campaign. The commitment printed is what players write down.");
    tour.step(&["init", "--name", "The Sunken Vault"])?;
    tour.say("One caster of each rule system.");
    for &system in SystemId::ALL {
        // Each system's first sheet example is the tour's caster of that system, typed as its
        // help shows it.
        let example = on_system!(system, SystemId, |S| S::sheet_spec()
            .and_then(|spec| spec.examples.first().copied()));
        if let Some(line) = example {
            let words = shell_words::split(line)
                .map_err(|e| Error::Internal(format!("sheet example {line:?}: {e}")))?;
            let args: Vec<&str> = words.iter().skip(1).map(String::as_str).collect();
            tour.step(&args)?;
        }
    }
    tour.say("The players choose the session's entropy, so no seed could have been picked to favour tonight.");
    tour.step(&["session", "start", "--entropy", "owls at midnight"])?;
    tour.say("grimoire rolls seeded dice...");
    let sneak = tour.step(&["roll", "d20", "--for", "Aldric sneaks past the gate"])?;
    tour.step(&["roll", "oe+45", "--for", "Mira's Elementalism"])?;
    tour.say("...or the table rolls physical dice and enters them.");
    tour.step(&["--rolls", "4,6", "roll", "2d6", "--for", "falling stones"])?;
    tour.step(&["damage", "Aldric", "5"])?;
    let hurt = tour.step(&["damage", "Mira", "3"])?;
    tour.say("A mistake: the stones missed Mira. Undo it with a retraction; both stay in the log.");
    tour.step(&[
        "retract",
        &first_seq(&hurt),
        "--reason",
        "the stones missed her",
    ])?;
    let wounded = tour.step(&["heal", "Aldric", "2"])?;
    tour.say("A Dungeon Game magic: discover a ritual, learn one found in a tomb (the table rolls), cast it.");
    tour.step(&["ritual", "roll", "Aldric"])?;
    tour.step(&[
        "--rolls",
        "1,4",
        "ritual",
        "learn",
        "Aldric",
        "Concealing Darkness",
        "--type",
        "phrase",
        "--pay",
        "health",
    ])?;
    // The casting check is entered rather than seeded: a seeded failure would bring a mishap that can
    // lock Aldric out or kill him, and the rest of the evening could not be played.
    tour.say(
        "Reversing one word is free; the table rolls the casting check (9 against Cunning 13).",
    );
    tour.step(&[
        "--rolls",
        "9",
        "ritual",
        "cast",
        "Aldric",
        "Concealing Darkness",
        "--reverse",
        "first",
    ])?;
    tour.say("Against the Darkmaster magic: Mira learns a spell for the fight ahead.");
    tour.step(&[
        "spell",
        "learn",
        "Mira",
        "Flame Ward",
        "--lore",
        "Elementalism",
        "--weave",
        "2",
        "--kind",
        "defensive",
        "--duration",
        "10m",
    ])?;
    tour.say(
        "Ghouls at the vault gate: a fight, counted by the round. Round 1 starts at the clock as \
         it stands; Mira spends it concentrating, and a ghoul claws Aldric.",
    );
    tour.step(&["fight", "start", "at the vault gate"])?;
    tour.step(&["spell", "concentrate", "Mira", "Flame Ward"])?;
    let claw = tour.step(&["damage", "Aldric", "1", "--reason", "a ghoul's claw"])?;
    tour.step(&["fight", "show"])?;
    tour.say(
        "The claw did 2, not 1. An amendment fixes the entry: the command typed again as it \
         should have been, decided with the original's own dice (none here) and read in its place \
         from now on. Both stay in the log, and it is no new roll.",
    );
    tour.step(&[
        "amend",
        &first_seq(&claw),
        "--",
        "damage",
        "Aldric",
        "2",
        "--reason",
        "a ghoul's claw",
    ])?;
    tour.say("`next` begins round 2, and Mira casts with her round of concentration.");
    tour.step(&["next"])?;
    tour.step(&[
        "--rolls",
        "62",
        "spell",
        "cast",
        "Mira",
        "Flame Ward",
        "--target",
        "Aldric",
        "--range",
        "touch",
    ])?;
    tour.step(&["next"])?;
    tour.say("A double on the first die (44) makes the GM roll for magical resonance.");
    tour.step(&[
        "--rolls",
        "44,30",
        "spell",
        "cast",
        "Mira",
        "Flame Ward",
        "--target",
        "Mira",
        "--range",
        "touch",
    ])?;
    tour.step(&["fight", "end"])?;
    tour.say(
        "The GM rolls in secret: they see the value, the log only a commitment until the reveal.",
    );
    let secret = tour.step(&[
        "roll",
        "d20",
        "--sealed",
        "--for",
        "is the vault guardian awake?",
    ])?;
    tour.step(&["time", "advance", "2h"])?;
    tour.say("Later the GM reads it again from the campaign's secrets (this records nothing).");
    tour.step(&["peek", &first_seq(&secret)])?;
    tour.step(&["reveal", &first_seq(&secret)])?;
    tour.say("Ending the session prints a checkpoint for the players to note.");
    let ended = tour.step(&["session", "end"])?;
    let checkpoint = ended["checkpoint"].as_str().unwrap_or_default().to_string();
    tour.say("Downtime: a week scribing a scroll, then reading it.");
    let scroll = tour.step(&[
        "scroll",
        "write",
        "Aldric",
        "Concealing Darkness",
        "--level",
        "1",
        "--effect",
        "hides one person for ten minutes",
    ])?;
    tour.step(&[
        "scroll",
        "read",
        "Aldric",
        &format!("S{}", first_seq(&scroll)),
    ])?;
    tour.say(
        "The party spends two weeks of downtime together: one span, the clock moving once, each \
         week with an activity (Aldric scribes one more scroll, Mira trains, the rest is rest).",
    );
    tour.step(&[
        "downtime",
        "--party",
        "--weeks",
        "2",
        "--week",
        "Aldric: scribe Concealing Darkness, level 1, effect: hides one door from sight",
        "--week",
        "Mira: training: the Elementalism circle at the tower",
    ])?;
    tour.step(&["log"])?;
    tour.step(&["character", "show", "Aldric"])?;
    tour.step(&["character", "show", "Mira"])?;
    tour.say("Any past moment can be restored: Aldric just before he was healed.");
    let before_heal = first_seq(&wounded)
        .parse::<u64>()
        .unwrap_or(1)
        .saturating_sub(1)
        .to_string();
    tour.step(&["character", "show", "Aldric", "--at", &before_heal])?;
    tour.say("The evening in numbers, and what it changed for the party.");
    tour.step(&["session", "recap", "1"])?;
    tour.step(&["diff", "--party", "--from", "session:1"])?;
    tour.step(&["character", "list"])?;
    tour.say("Publishing the epoch's seed lets anyone re-derive every seeded die.");
    tour.step(&["seed", "reveal"])?;
    tour.step(&["explain", &first_seq(&sneak)])?;
    tour.step(&["verify", "--checkpoint", &checkpoint])?;
    tour.say("The dice, audited: too few rolls to judge yet, and each group says so.");
    tour.step(&["audit", "dice"])?;
    tour.say(
        "Last, the campaign as a page to open in a browser: charts, sessions, scrolls, dice, \
         checkpoints, and a check any player can run on it, offline on a phone (it re-derives \
         every die of the published seed, and explains a roll asked about).",
    );
    let page = args.into.with_extension("html").display().to_string();
    tour.step(&["report", "--out", &page])?;

    let text = format!(
        "{}\nThe tour's campaign is in {db}: try `grimoire --db {db} log` or `grimoire --db {db} character show Mira`, and open {page} in a browser. To show it live on the players' phones: `grimoire --db {db} serve` (with --listen 0.0.0.0:8737 --link-host ADDRESS for the phones on the table's network), then open the link it prints.",
        tour.transcript.join("\n"),
        db = tour.db
    );
    Ok(Report::new(
        text,
        json!({ "db": tour.db, "report": page, "steps": tour.steps }),
    ))
}
