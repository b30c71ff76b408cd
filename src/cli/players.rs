//! `grimoire player …` and `--rolled-by` / `--witnessed-by`: players' devices, and the rolls the
//! GM puts to them (C-4, C-5, C-6). The answers arrive through `grimoire serve`.

use super::output::{Report, appended};
use super::{Context, Globals, record};
use crate::Error;
use crate::event::AskedCommand;
use crate::event::{Event, Recorded};
use crate::ids::RequestId;
use crate::rules::Command;
use crate::rules::players::Refused;
use crate::seq::Seq;
use crate::state::players::RequestStatus;
use clap::{Args, Subcommand};
use rand::RngCore;
use serde_json::json;
use std::time::Duration;

/// Link players' phones to the campaign, and see or withdraw the rolls put to them.
///
/// A linked phone opens the live view (`grimoire serve`) under its own link, with its
/// characters' rolls to tap. Put a roll to it with --rolled-by PLAYER on `roll` or a system's
/// command that rolls; name it the witness of your own roll with --witnessed-by PLAYER.
#[derive(Debug, Subcommand)]
pub enum PlayerCommand {
    Link(LinkArgs),
    Unlink(UnlinkArgs),
    /// The devices linked, and the rolls waiting on them. Records nothing.
    List,
    Withdraw(WithdrawArgs),
}

/// Link a player's phone for the characters they play. Records the link; rolls no dice.
///
/// Prints the phone's own link, with a QR code, once: grimoire keeps only its hash. The link
/// opens the live view while `grimoire serve` runs on the address it names, with the player's
/// rolls to tap, and no other player's rolls to answer. Lost or leaked, replace it with --replace.
#[derive(Debug, Args)]
pub struct LinkArgs {
    /// The player's name, as the log will name their device.
    #[arg(value_name = "PLAYER")]
    pub player: String,
    /// A character the player plays (repeat for several): the rolls put to the phone are theirs.
    #[arg(long, value_name = "CHARACTER", required = true)]
    pub plays: Vec<String>,
    /// Revoke the player's current link and make a new one.
    #[arg(long)]
    pub replace: bool,
    /// Where phones reach `grimoire serve`, as the link names it.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8737", value_parser = serve_address)]
    pub address: String,
}

/// Revoke a player's link: it opens nothing from now on, and what waited for it is withdrawn.
#[derive(Debug, Args)]
pub struct UnlinkArgs {
    /// The player whose link is revoked (any case).
    #[arg(value_name = "PLAYER")]
    pub player: String,
}

/// Withdraw a roll put to a player's device that is still waiting. An answered roll is final;
/// to undo what it recorded, retract that.
#[derive(Debug, Args)]
pub struct WithdrawArgs {
    /// The request's number, as the command that made it printed.
    #[arg(value_name = "REQUEST")]
    pub request: RequestId,
}

/// A host and port as a link may name them (see serve's `--link-host`).
fn serve_address(text: &str) -> Result<String, String> {
    let refuse = || {
        "give the host and port phones reach `grimoire serve` on, e.g. 192.168.1.20:8737"
            .to_string()
    };
    let (host, port) = text.rsplit_once(':').ok_or_else(refuse)?;
    port.parse::<u16>().map_err(|_| refuse())?;
    super::link::host(host).map_err(|_| refuse())?;
    // Every address is where serve listens, never where a phone can go.
    if matches!(host, "0.0.0.0" | "[::]") {
        return Err(format!(
            "{host} is no address a phone can reach; give this machine's address on the table's network, e.g. 192.168.1.20:{port}"
        ));
    }
    Ok(text.to_string())
}

pub fn run(g: &Globals, ctx: &mut Context, command: &PlayerCommand) -> Result<Report, Error> {
    match command {
        PlayerCommand::Link(args) => link(g, ctx, args),
        PlayerCommand::Unlink(args) => {
            let written = record(
                g,
                ctx,
                Command::UnlinkDevice {
                    player: args.player.clone(),
                },
            )?;
            Ok(appended(&written))
        }
        PlayerCommand::List => list(g),
        PlayerCommand::Withdraw(args) => {
            let written = record(
                g,
                ctx,
                Command::WithdrawRoll {
                    request: args.request,
                },
            )?;
            Ok(appended(&written))
        }
    }
}

/// A new link's token: 128 random bits in hex, and the hash the campaign keeps of it. The bits are
/// mixed with the log's length, so tokens stay distinct where tests pin the randomness (every
/// pinned process starts from the same random state), as event ids are.
pub fn new_token(rng: &mut impl RngCore, head: Seq) -> (String, String) {
    use sha2::{Digest, Sha256};
    let mut bytes = [0u8; 16];
    rng.fill_bytes(&mut bytes);
    let mixed = Sha256::new()
        .chain_update(bytes)
        .chain_update(head.get().to_be_bytes())
        .finalize();
    let token = hex::encode(&mixed[..16]);
    let hash = super::link::token_hash(&token);
    (token, hash)
}

fn link(g: &Globals, ctx: &mut Context, args: &LinkArgs) -> Result<Report, Error> {
    let head = g.open()?.head()?.map_or(Seq(0), |h| h.seq);
    let (token, token_hash) = new_token(&mut ctx.rng, head);
    let written = record(
        g,
        ctx,
        Command::LinkDevice {
            player: args.player.clone(),
            characters: args.plays.clone(),
            replace: args.replace,
            token_hash,
        },
    )?;
    let mut report = appended(&written);
    let address = format!("http://{}/p/{token}/", args.address);
    let qr = match std::io::IsTerminal::is_terminal(&std::io::stdout()) && !g.json {
        true => super::link::qr_code(&address),
        false => String::new(),
    };
    report.text.push_str(&format!(
        "\n{qr}The phone's own link, shown this once (give it only to that player):\n  {address}\nIt opens while `grimoire serve` runs on {}; `grimoire player link {} --replace` makes a new one.",
        args.address,
        shell_words::quote(args.player.trim())
    ));
    report.json["link"] = json!(address);
    Ok(report)
}

fn list(g: &Globals) -> Result<Report, Error> {
    let mut store = g.open()?;
    let state = store.replay(None)?;
    let mut lines = Vec::new();
    let mut devices = Vec::new();
    for (n, device) in &state.players.devices {
        let status = if device.linked { "linked" } else { "revoked" };
        lines.push(format!(
            "device {n}: {}, rolling for {} ({status})",
            device.player,
            device.characters.join(", ")
        ));
        devices.push(json!({ "device": n, "player": device.player, "characters": device.characters, "linked": device.linked }));
    }
    let mut waiting = Vec::new();
    for (n, request) in &state.players.requests {
        if request.status == RequestStatus::Waiting {
            // Said as its phone says it, in the rules' words: the words it was typed in would
            // read as a command line, which they are not.
            let words = crate::campaign::asked_in_words(&mut store, &state, &request.asked);
            lines.push(format!(
                "request {n} (#{}) waits on device {}: {words}{}",
                request.seq,
                request.device,
                if request.witnessed { ", witnessed" } else { "" }
            ));
            waiting.push(json!({ "request": n, "seq": request.seq, "device": request.device, "asked": request.asked.words(), "words": words, "witnessed": request.witnessed }));
        }
    }
    if lines.is_empty() {
        lines.push(
            "No player's device is linked yet: `grimoire player link PLAYER --plays CHARACTER`."
                .into(),
        );
    }
    Ok(Report::new(
        lines.join("\n"),
        json!({ "devices": devices, "waiting": waiting }),
    ))
}

/// Who rolls a command's dice, when not the GM's terminal: `--rolled-by` or `--witnessed-by`.
pub fn put_to(g: &Globals) -> Result<Option<(String, bool)>, Error> {
    match (&g.rolled_by, &g.witnessed_by) {
        (None, None) => Ok(None),
        (Some(_), Some(_)) => Err(Error::Usage(
            "--rolled-by puts the roll to a player's device and --witnessed-by keeps it yours: give one or the other".into(),
        )),
        (Some(_), None) | (None, Some(_)) if g.amending.is_some() => Err(Error::Usage(
            "an amendment keeps its original's dice, so it puts no roll to a device".into(),
        )),
        (Some(player), None) | (None, Some(player)) => {
            if g.rolls.is_some() || g.player_entropy.is_some() {
                return Err(Error::Usage(
                    "a device makes these dice with the GM side's secret, so --rolls and --player-entropy do not apply beside --rolled-by or --witnessed-by".into(),
                ));
            }
            Ok(Some((player.clone(), g.witnessed_by.is_some())))
        }
    }
}

/// Puts `asked` to `player`'s device and, unless --no-wait, waits for the answer and prints what it
/// recorded, as the command would have at this terminal.
pub fn put(
    g: &Globals,
    ctx: &mut Context,
    to: (String, bool),
    asked: AskedCommand,
) -> Result<Report, Error> {
    // Signals are watched for from before the request is recorded: stopped at any moment after,
    // the wait ends in words, and a request is never left recorded in silence.
    super::signals::watching(|stopped| put_watching(g, ctx, to, asked, stopped))
}

fn put_watching(
    g: &Globals,
    ctx: &mut Context,
    (player, witnessed): (String, bool),
    asked: AskedCommand,
    stopped: &dyn Fn() -> bool,
) -> Result<Report, Error> {
    let written = record(
        g,
        ctx,
        Command::RequestRoll {
            player,
            asked,
            witnessed,
            commitment: String::new(),
        },
    )?;
    let Some((request, at)) = written.events.iter().find_map(|r| match &r.event {
        Event::RollRequested { request, .. } => Some((*request, r.seq)),
        _ => None,
    }) else {
        return Err(Error::Internal("a request recorded no request".into()));
    };
    let mut report = appended(&written);
    let waiting_words = match witnessed {
        true => "the device adds its bytes by itself while its page is open",
        false => "the player taps Roll on their phone",
    };
    if g.no_wait {
        report.text.push_str(&format!(
            "\nRequest {request} waits until {waiting_words}; `grimoire player list` shows it, `grimoire player withdraw {request}` withdraws it."
        ));
        report.json["request"] = json!(request);
        return Ok(report);
    }
    if !g.json {
        eprintln!(
            "#{at} request {request}: waiting until {waiting_words}… (Ctrl-C stops waiting; the request stays open until answered or withdrawn with `grimoire player withdraw {request}`)"
        );
    }
    let answered = wait_for(g, request, stopped)?;
    // Answered, but refused by the rules as the campaign then stood: the roll did not happen.
    if let Some(Recorded {
        seq,
        event: Event::RollAnswered {
            refused: Some(why), ..
        },
        ..
    }) = answered.first()
    {
        return Err(crate::rules::RuleError::from(Refused::AnsweredButRefused {
            request,
            seq: *seq,
            why: why.clone(),
        })
        .into());
    }
    // The state after the answer says when it came (in its fight's round, when one is on).
    let state = g.open()?.replay(None)?;
    let mut report = super::output::appended_to(&answered, &state);
    report.json["request"] = json!(request);
    Ok(report)
}

/// How often a waiting terminal looks at the log.
const LOOK_EVERY: Duration = Duration::from_millis(200);

/// Waits until request `request` is answered or withdrawn, or until `stopped` says the person
/// stopped waiting; the events its answer recorded. The campaign is replayed only when its head
/// has moved since the last look.
fn wait_for(
    g: &Globals,
    request: RequestId,
    stopped: &dyn Fn() -> bool,
) -> Result<Vec<Recorded>, Error> {
    let mut looked_at = None;
    loop {
        // The store is let go before each wait, so the shell's lent one is not held across it.
        let mut store = g.open()?;
        let head = store.head()?;
        if looked_at.is_none() || head != looked_at {
            looked_at = head;
            let state = store.replay(None)?;
            let refused = |why: Refused| Err(crate::rules::RuleError::from(why).into());
            match state.players.requests.get(&request).map(|r| r.status) {
                Some(RequestStatus::Answered { seq }) => {
                    return crate::read::answer::with_what_it_completed(&mut store, seq);
                }
                Some(RequestStatus::Withdrawn { seq }) => {
                    return refused(Refused::Withdrawn { request, seq });
                }
                Some(RequestStatus::Waiting) => {}
                None => return refused(Refused::NoSuchRequest(request)),
            }
        }
        drop(store);
        if stopped() {
            let state = g.open()?.replay(None)?;
            let player = (state.players.requests.get(&request))
                .and_then(|asked| state.players.devices.get(&asked.device))
                .map_or_else(|| "the player".to_string(), |d| d.player.clone());
            return Err(Error::StoppedWaiting { request, player });
        }
        std::thread::sleep(LOOK_EVERY);
    }
}

//END
