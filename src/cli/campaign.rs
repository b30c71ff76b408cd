//! The campaign file itself: `init`, `head`, `verify`, `seed reveal` and `retract`.

use super::output::{Report, appended};
use super::{Context, Globals, record_on, run_of};
use crate::Error;
use crate::event::Event;
use crate::rules::campaign::Retraction;
use crate::rules::{Command, RuleError};
use crate::store::Checkpoint;
use crate::verify::{CheckpointMiss, CheckpointResult, VerifyReport};
use clap::{Args, Subcommand};
use serde_json::json;

/// Create a campaign file and start dice epoch 1.
///
/// Records the campaign's creation with the commitments (SHA-256) of two fresh secret seeds, one
/// for the epoch's dice and one for its sealed dice, and prints them: players should note them
/// down, because `grimoire seed reveal` will later publish the seeds and anyone can check that they
/// match. Rolls no dice.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The campaign's name, e.g. "The Sunken Vault".
    // A name being given: completion offers none of the campaign's names.
    #[arg(long, value_hint = clap::ValueHint::Other)]
    pub name: String,
}

pub fn init(g: &Globals, ctx: &mut Context, args: &InitArgs) -> Result<Report, Error> {
    let name = args.name.trim().to_string();
    if name.is_empty() {
        return Err(Error::Usage(
            "--name must not be empty; e.g. --name \"The Sunken Vault\"".into(),
        ));
    }
    // The door mints the campaign's identity and its first seed inside the write.
    let command = Command::CreateCampaign {
        campaign_id: String::new(),
        name: name.clone(),
        seed_commitment: String::new(),
        sealed_commitment: String::new(),
    };
    let written = crate::Campaign::create(&g.db, run_of(g, ctx)?, command)?;
    let events = &written.events;
    let Some((campaign_id, commitment, sealed)) = events.iter().find_map(|r| match &r.event {
        Event::CampaignCreated {
            campaign_id,
            seed_commitment,
            sealed_commitment,
            ..
        } => Some((
            campaign_id.clone(),
            seed_commitment.clone(),
            sealed_commitment.clone().unwrap_or_default(),
        )),
        _ => None,
    }) else {
        return Err(Error::Internal("init recorded no campaign".into()));
    };
    let text = format!(
        "Created the campaign \"{name}\" in {}.\nDice epoch 1 seed commitment: {commitment}\nSealed dice seed commitment: {sealed}\nPlayers: note these commitments down. `grimoire seed reveal` later publishes the seeds, and anyone can check each hashes to its value.",
        g.db
    );
    let json = json!({ "campaign_id": campaign_id, "name": name, "db": g.db.to_string(), "epoch": 1, "seed_commitment": commitment, "sealed_commitment": sealed, "appended": appended(&written).json["appended"] });
    Ok(Report::new(text, json))
}

/// Print the log's head as a SEQ:HASH checkpoint.
///
/// Whoever holds the campaign file could rewrite it and recompute every hash, so players note this
/// short code; a later `grimoire verify --checkpoint SEQ:HASH` proves the history up to it is unchanged.
#[derive(Debug, Args)]
pub struct HeadArgs {}

pub fn head(g: &Globals, _args: &HeadArgs) -> Result<Report, Error> {
    let mut store = g.open()?;
    let head = store.head()?.ok_or(RuleError::NoCampaign)?;
    Ok(Report::new(
        head.to_string(),
        json!({ "checkpoint": head.to_string(), "seq": head.seq, "hash_prefix": head.hash_prefix }),
    ))
}

/// Check the whole campaign file: every page of it, the hash chain, every seeded die of revealed
/// epochs, every revealed sealed die, every stored snapshot against a replay of the log, and
/// optionally a checkpoint noted earlier.
///
/// Exits 0 only when every check holds; otherwise names the first bad event and exits 1.
/// Records nothing.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A SEQ:HASH code printed earlier by `session end` or `head`; the log must still hold it.
    /// Give it once per checkpoint, e.g. every session's.
    #[arg(long, value_name = "SEQ:HASH", value_parser = parse_checkpoint)]
    pub checkpoint: Vec<Checkpoint>,
}

fn parse_checkpoint(text: &str) -> Result<Checkpoint, String> {
    text.parse()
}

pub fn verify(g: &Globals, args: &VerifyArgs) -> Result<Report, Error> {
    let mut store = g.open()?;
    let head = store.head()?.map_or(0, |h| h.seq.get());
    let progress = super::progress::Progress::bar(g, "verifying", head);
    let report = crate::verify::log_watching(&mut store, args.checkpoint.clone(), &mut |seq| {
        progress.at(seq.get())
    })?;
    drop(progress);
    let mut out = Report::new(verify_text(&report), &report);
    out.json["all_hold"] = json!(report.all_hold());
    out.success = report.all_hold();
    Ok(out)
}

fn verify_text(r: &VerifyReport) -> String {
    let mut lines = Vec::new();
    if r.file_problems > 0 {
        lines.push(format!(
            "file: DAMAGED — SQLite's integrity check found {} problem(s) in its pages; restore from a backup or an export",
            r.file_problems
        ));
    }
    match &r.chain_break {
        None => lines.push(format!(
            "chain: {}, unbroken; head {}",
            super::output::count(r.events, "event", "events"),
            r.head.as_deref().unwrap_or("(empty)")
        )),
        Some(problem) => lines.push(format!(
            "chain: BROKEN at #{}: {}",
            problem.seq, problem.what
        )),
    }
    let epochs: Vec<String> = r.epochs_revealed.iter().map(u32::to_string).collect();
    lines.push(format!(
        "seeded dice: {} re-derived from revealed seeds (epochs: {}); {} await their epoch's reveal",
        r.seeded_dice_checked,
        if epochs.is_empty() { "none yet".to_string() } else { epochs.join(", ") },
        r.seeded_dice_awaiting_reveal
    ));
    if r.seeded_dice_unwitnessed > 0 {
        lines.push(format!(
            "unwitnessed dice: {} seeded {} rolled with no player entropy (outside a session, or in one started without it): the GM could have predicted {}",
            r.seeded_dice_unwitnessed,
            if r.seeded_dice_unwitnessed == 1 { "die was" } else { "dice were" },
            if r.seeded_dice_unwitnessed == 1 { "it" } else { "them" },
        ));
    }
    if !r.seq_bound_epochs.is_empty() {
        let epochs: Vec<String> = r.seq_bound_epochs.iter().map(u32::to_string).collect();
        lines.push(format!(
            "steerable epochs: {} (begun before roll numbers, their seeded dice are bound to their event's seq: whoever held the seed could move a roll onto another die with events that roll nothing, unseen)",
            epochs.join(", ")
        ));
    }
    if r.device_dice_checked + r.witnessed_dice_checked > 0 {
        lines.push(format!(
            "players' devices: {} rolled by players and {} of the GM's witnessed, each re-derived from its request's published secret and the device's bytes",
            r.device_dice_checked, r.witnessed_dice_checked
        ));
    }
    if r.device_dice_in_rules_commands > 0 {
        lines.push(format!(
            "  of them drawn by rule-system commands: {} (each command decided again by the rules, on the campaign as it stood, with the phone's dice: the players' page cannot do this)",
            r.device_dice_in_rules_commands
        ));
    }
    if !r.answers_changed_while_waiting.is_empty() {
        let answers: Vec<String> = (r.answers_changed_while_waiting.iter())
            .map(|seq| format!("#{seq}"))
            .collect();
        lines.push(format!(
            "answered after events that changed them: {} (decided on the campaign as it stood when each roll was put, the phone's dice did otherwise: the GM recorded while it waited, or a server held the answer back after seeing the dice)",
            answers.join(", ")
        ));
    }
    if r.rolls_put_again > 0 {
        lines.push(format!(
            "put to a phone again right after a roll to it was withdrawn or refused: {} (`grimoire audit dice` names them)",
            r.rolls_put_again
        ));
    }
    lines.push(format!(
        "sealed dice: {} revealed and checked; {} still sealed",
        r.sealed_dice_checked, r.sealed_dice_awaiting_reveal
    ));
    lines.push(format!(
        "snapshots: {} compared with a replay of the log{}",
        r.snapshots_checked,
        match r.snapshots_passed_over {
            0 => String::new(),
            n => format!("; {n} passed over, as every command passes them over (taken by another state format, at an event the log no longer holds as it was, or before a retraction that reaches back past them); `grimoire snapshots rebuild` replaces them"),
        }
    ));
    for problem in (r.dice_problems.iter())
        .chain(&r.decided_again_problems)
        .chain(&r.snapshot_problems)
    {
        // A problem's words stand alone (the first one is quoted where a session end is
        // refused), so most begin with their seq: the line names it once.
        let at = format!("#{}: ", problem.seq);
        let what = problem.what.strip_prefix(&at).unwrap_or(&problem.what);
        lines.push(format!("PROBLEM at #{}: {what}", problem.seq));
    }
    for c in &r.checkpoints {
        lines.push(checkpoint_line(c));
    }
    lines.push(if r.all_hold() {
        "all checks hold".into()
    } else {
        "verification FAILED".into()
    });
    lines.join("\n")
}

/// A checkpoint's verdict, saying what the file can tell about one that does not hold: a code
/// off in up to half its digits was most likely mistyped; one off in most names another history;
/// a point past the log's end, a shorter file (or a mistyped number).
fn checkpoint_line(c: &CheckpointResult) -> String {
    let code = &c.checkpoint;
    let Some(miss) = &c.miss else {
        return format!("checkpoint {code}: holds");
    };
    let seq = code.split(':').next().unwrap_or_default();
    let why = match miss {
        CheckpointMiss::PastTheEnd { log_ends_at } => format!(
            "the log ends at #{log_ends_at}, before #{seq}: this file is shorter than the history noted (cut, or an older copy), unless the event number was mistyped"
        ),
        // Another history's hash matches each digit 1 time in 16, so it differs in nearly all of
        // them: up to half is far likelier a slip of the pen.
        CheckpointMiss::Differs {
            digits_differing,
            of,
        } if digits_differing * 2 <= *of => format!(
            "#{seq}'s hash differs from the code in {digits_differing} of its {of} digits: most likely the code was mistyped (another history would differ in nearly every digit); check the note"
        ),
        CheckpointMiss::Differs {
            digits_differing,
            of,
        } => format!(
            "#{seq}'s hash differs from the code in {digits_differing} of its {of} digits: the history up to #{seq} is not the one noted (it has been changed), unless the code was noted wrongly"
        ),
        CheckpointMiss::NotReached => {
            "a damaged event before it stopped the check, so nothing at or after it is vouched for"
                .to_string()
        }
    };
    format!("checkpoint {code}: DOES NOT HOLD — {why}")
}

#[derive(Debug, Subcommand)]
pub enum SeedCommand {
    /// Publish the current dice epoch's secret seeds and start the next epoch (between sessions only).
    ///
    /// Records the epoch's seed (anyone can then re-derive every seeded die of the epoch with
    /// `verify`), its second seed, the one its sealed dice came from, and the next epoch's two
    /// commitments, which it prints for the players to note. While any sealed die rolled from the
    /// second seed is pending (a Ceremony scroll's check waits for its reading), that seed stays
    /// secret, and the reveal of the last such die publishes it. In an epoch begun by an older
    /// grimoire, with one seed for all its dice, that one seed waits so. Rolls no dice.
    Reveal,
}

pub fn seed(g: &Globals, ctx: &mut Context, command: &SeedCommand) -> Result<Report, Error> {
    let SeedCommand::Reveal = command;
    // The seed and the next one are looked up and minted inside the write (Campaign::execute).
    let command = Command::RevealSeed {
        seed: None,
        sealed_seed: None,
        next_commitment: String::new(),
        next_sealed_commitment: String::new(),
    };
    let run = run_of(g, ctx)?;
    let written = g.campaign()?.execute(run, command)?;
    let events = &written.events;
    let Some((ended, next_commitment, next_sealed)) = events.iter().find_map(|r| match &r.event {
        Event::EpochStarted {
            epoch,
            seed_commitment,
            sealed_commitment,
            ..
        } => Some((
            epoch - 1,
            seed_commitment.clone(),
            sealed_commitment.clone().unwrap_or_default(),
        )),
        _ => None,
    }) else {
        return Err(Error::Internal("a seed reveal started no epoch".into()));
    };
    let mut report = appended(&written);
    let waiting: Vec<String> = crate::rules::campaign::holding_back(&written.state, ended)
        .iter()
        .map(|seq| format!("#{seq}"))
        .collect();
    let how_they_open = "`grimoire reveal SEQ` opens a roll early; a Ceremony scroll's check opens when the scroll is read";
    let withheld = (events.iter()).any(|r| matches!(r.event, Event::SeedWithheld { .. }));
    let checked = if withheld {
        format!(
            "The seed stays secret while sealed dice rolled from it are pending ({}): the reveal of the last of them publishes it ({how_they_open}).",
            waiting.join(", ")
        )
    } else if waiting.is_empty() {
        "Anyone can now check the revealed epoch's dice with `grimoire verify`.".to_string()
    } else {
        format!(
            "Anyone can now check the revealed epoch's dice with `grimoire verify`, all but its sealed ones: their own seed stays secret while sealed dice rolled from it are pending ({}), and the reveal of the last of them publishes it ({how_they_open}).",
            waiting.join(", ")
        )
    };
    report.text.push_str(&format!(
        "\n{checked}\nNew epoch seed commitment: {next_commitment}\nSealed dice seed commitment: {next_sealed}\nPlayers: note them down."
    ));
    report.json["seed_commitment"] = json!(next_commitment);
    report.json["sealed_commitment"] = json!(next_sealed);
    Ok(report)
}

pub fn retract(g: &Globals, ctx: &mut Context, args: &Retraction) -> Result<Report, Error> {
    let mut campaign = g.campaign()?;
    // The door reads the target (and what `--last` names) inside the write.
    let written = record_on(g, ctx, &mut campaign, Command::Retract(args.clone()))?;
    let Some((seq, restores)) = written.events.iter().find_map(|r| match &r.event {
        Event::Retracted { seq, restores, .. } => Some((*seq, *restores)),
        _ => None,
    }) else {
        return Err(Error::Internal(
            "a retraction recorded no retraction".into(),
        ));
    };
    // Events never change once written: the one named is read back to say what it was.
    let named = match restores {
        Some(restored) => campaign.store().event(restored)?.map(|r| {
            format!(
                "Restoring #{restored}: {}",
                crate::render::describe(&r.event)
            )
        }),
        None => campaign
            .store()
            .event(seq)?
            .map(|r| format!("Retracting #{seq}: {}", crate::render::describe(&r.event))),
    };
    let mut report = appended(&written);
    if let Some(named) = named {
        report.text = format!("{named}\n{}", report.text);
    }
    report.json["retracted"] = json!(seq);
    Ok(report)
}
