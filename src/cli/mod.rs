//! The command line: clap definitions (their `///` comments are the help text), one module per
//! command group, and the one write path every recording command goes through.

mod amend;
mod args;
mod ask;
mod audit;
mod campaign;
mod character;
mod dev;
mod docs;
pub mod examples;
mod fight;
mod hints;
mod history;
mod link;
mod mount;
mod open;
pub mod outcome;
mod output;
pub mod paint;
mod parse;
mod players;
mod progress;
mod recap;
mod report;
mod serve;
pub mod shell;
mod signals;
mod table;
mod tour;
mod transfer;

use crate::Error;
use crate::campaign::{Campaign, DiceSource, Run};
use crate::rules::{Command, RuleError};
use crate::state::CampaignState;
use crate::store::{Location, Point, Stamp, Store, Written};
use crate::text;
use chrono::{DateTime, SecondsFormat, Utc};
use clap::{Args, Parser, Subcommand};
use rand::SeedableRng;
use rand::rngs::StdRng;

pub use output::Report;
pub use parse::{EnteredRolls, parse_from, parsed};
use parse::{LocationParser, parse_rolls};

/// A command line as grimoire reads it: the global options and the one command. Its definitions
/// are the core's ([`CoreLine`], read by clap's derive) with each rule system's commands mounted
/// beside them (`parse.rs`), so a command line may be read with only the command it names built.
#[derive(Debug)]
pub struct Cli {
    pub globals: Globals,
    pub command: Commands,
}

/// Keep a campaign's spellcasters as an append-only, hash-chained log, and compute every sheet from it.
///
/// Everything that happens at the table (damage, rests, time passing, every die) is recorded as an
/// event in one SQLite file. Sheets are computed by replaying those events, so any past moment can be
/// restored (`--at SEQ`) and any disputed roll settled (`explain`, `verify`).
///
/// Dice: grimoire rolls provably fair seeded dice unless you enter physical dice with --rolls, in the
/// order the command's help lists them.
///
/// Rules: what grimoire computes for each rule of both games, and its rulings where the games are
/// silent, are in docs/rules.md (clause IDs such as ADG-R9 or VSD-12 appear in help texts and tests).
#[derive(Parser)]
#[command(name = "grimoire", version, max_term_width = 100)]
struct CoreLine {
    #[command(flatten)]
    globals: Globals,
    #[command(subcommand)]
    command: Commands,
}

#[derive(Debug, Clone, Args)]
pub struct Globals {
    /// The campaign: a SQLite file's path, or a campaign in a PostgreSQL database,
    /// postgres://USER@HOST/DATABASE?campaign=NAME (README, "PostgreSQL").
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "GRIMOIRE_DB",
        default_value = "grimoire.db",
        value_name = "PATH|URL",
        value_parser = LocationParser,
        // Help would print the variable's value, and a PostgreSQL URL may hold a password.
        hide_env_values = true
    )]
    pub db: Location,
    /// Print JSON instead of text (field names are stable; see README, "JSON output").
    #[arg(long, global = true, help_heading = "Global options")]
    pub json: bool,
    /// Physical dice rolled at the table, in the command's draw order, e.g. --rolls 14,3.
    /// Each value is checked against its die; too few or too many values record nothing.
    /// `--rolls ask` asks for each die on the terminal as the command needs it (a sealed die is
    /// typed without being shown, and stays out of the shell's history).
    #[arg(long, global = true, help_heading = "Dice (commands that roll)", value_name = "N,N,…|ask", value_parser = parse_rolls)]
    pub rolls: Option<EnteredRolls>,
    /// Between sessions: text a player chooses, mixed into this command's seeded dice as a session's
    /// entropy is (a night's rest, a save after the session ended). Recorded with who typed it
    /// (--actor): entropy the GM types proves nothing, since the GM holds the seed.
    #[arg(
        long,
        global = true,
        help_heading = "Dice (commands that roll)",
        value_name = "TEXT"
    )]
    pub player_entropy: Option<String>,
    /// Put the roll to this player's phone (C-5): the log records a commitment to a secret the GM
    /// side keeps, the player taps Roll on their phone (`grimoire serve`, `grimoire player link`),
    /// and the command is recorded with dice made from that secret and the phone's own bytes.
    /// For `roll` and the systems' commands that roll; it may name no character but the player's.
    #[arg(
        long,
        global = true,
        help_heading = "Dice (commands that roll)",
        value_name = "PLAYER"
    )]
    pub rolled_by: Option<String>,
    /// Your own roll, witnessed by this player's phone (C-6): made as --rolled-by makes it, the
    /// phone adding its bytes by itself while its page is open, so you cannot foresee the dice.
    #[arg(
        long,
        global = true,
        help_heading = "Dice (commands that roll)",
        value_name = "PLAYER"
    )]
    pub witnessed_by: Option<String>,
    /// With --rolled-by or --witnessed-by: record the request and return, rather than wait here
    /// for the answer (`grimoire player list` shows what waits).
    #[arg(long, global = true, help_heading = "Dice (commands that roll)")]
    pub no_wait: bool,
    /// Who is entering this (recorded on every event) [default: GRIMOIRE_ACTOR, else your OS user name].
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "GRIMOIRE_ACTOR",
        hide_env_values = true,
        value_name = "NAME"
    )]
    pub actor: Option<String>,
    /// Colour: auto (on a terminal, unless NO_COLOR is set), always or never.
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    pub color: ColorWhen,
    /// The shell's open campaign, lent to the commands typed into it.
    #[arg(skip)]
    pub shared: open::SharedStore,
    /// Whether `--actor` was written on the command line (not taken from GRIMOIRE_ACTOR).
    #[arg(skip)]
    pub actor_typed: bool,
    /// The event `amend` is amending: what the command would record becomes its amendment.
    #[arg(skip)]
    pub amending: Option<amend::Amending>,
}

/// When output is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// The output streams' setting: `auto` leaves the terminal and NO_COLOR to decide.
    pub fn choice(self) -> anstream::ColorChoice {
        match self {
            ColorWhen::Auto => anstream::ColorChoice::Auto,
            ColorWhen::Always => anstream::ColorChoice::AlwaysAnsi,
            ColorWhen::Never => anstream::ColorChoice::Never,
        }
    }
}

/// The core command that help lists the systems' commands after: the one declared before
/// [`Commands::System`].
const SYSTEMS_FOLLOW: &str = "downtime";

// One is parsed per command line, so its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Commands {
    Init(campaign::InitArgs),
    /// Add, list and show characters (sheets are computed by replaying the log).
    #[command(subcommand)]
    Character(character::CharacterCommand),
    /// Record damage to a character's health (health never drops below 0). Rolls no dice.
    Damage(args::HealthArgs),
    /// Record healing (health never rises above its maximum). Rolls no dice.
    Heal(args::HealthArgs),
    /// Move the in-game clock.
    #[command(subcommand)]
    Time(table::TimeCommand),
    /// Start and end game sessions (ending one prints a checkpoint for the players).
    #[command(subcommand)]
    Session(table::SessionCommand),
    /// Count a fight by the round: start it, see where it stands, end it (`next` moves it on).
    #[command(subcommand)]
    Fight(fight::FightCommand),
    Next(fight::NextArgs),
    Roll(args::RollArgs),
    Reveal(args::RevealArgs),
    Peek(table::PeekArgs),
    #[command(subcommand)]
    Player(players::PlayerCommand),
    Log(history::LogArgs),
    Explain(history::ExplainArgs),
    Diff(recap::DiffArgs),
    /// Audit the record: whether the dice in the log look like fair dice.
    #[command(subcommand)]
    Audit(audit::AuditCommand),
    Verify(campaign::VerifyArgs),
    Report(report::ReportArgs),
    Serve(serve::ServeArgs),
    Head(campaign::HeadArgs),
    /// Publish the dice epoch's seeds so anyone can check its rolls.
    #[command(subcommand)]
    Seed(campaign::SeedCommand),
    Retract(args::RetractArgs),
    Amend(amend::AmendArgs),
    Export(transfer::ExportArgs),
    Import(transfer::ImportArgs),
    Backup(transfer::BackupArgs),
    Restore(transfer::RestoreArgs),
    Rest(args::RestArgs),
    Downtime(args::DowntimeArgs),
    // Help lists the systems' commands here, after [`SYSTEMS_FOLLOW`].
    /// Each rule system's own commands, as the system describes them: mounted beside the core's
    /// by [`Cli`]'s definitions rather than by the derive, so a line naming a core command is read
    /// without building them (`parse.rs`).
    #[command(skip)]
    System(mount::Mounted),
    Shell(shell::ShellArgs),
    Tour(tour::TourArgs),
    Completions(docs::CompletionsArgs),
    Man(docs::ManArgs),
    /// For the completion scripts: the campaign's names, one a line (reads the file, changes nothing).
    #[command(hide = true)]
    CompleteNames(docs::CompleteNamesArgs),
    /// Maintain the snapshots that speed replay up.
    #[command(subcommand)]
    Snapshots(dev::SnapshotsCommand),
    /// Development tools (campaign generator).
    #[command(subcommand, hide = true)]
    Dev(dev::DevCommand),
}

/// A point in the campaign's history for a read (`--at`).
#[derive(Debug, Clone, Args)]
pub struct At {
    /// Show it as it stood at a point: an event number (120), session:N (the end of session N),
    /// session-start:N, day:D (the end of in-game day D) or now (the default).
    #[arg(long, value_name = "POINT")]
    pub at: Option<Point>,
}

impl At {
    /// The campaign's state at the point (now when none is given).
    fn state(&self, g: &Globals) -> Result<CampaignState, Error> {
        let mut store = g.open()?;
        let upto = match self.at {
            Some(point) => Some(store.resolve_state(point)?),
            None => None,
        };
        let state = store.replay(upto)?;
        if state.campaign.is_none() {
            return Err(crate::rules::RuleError::NoCampaign.into());
        }
        Ok(state)
    }
}

/// Time and randomness for one run. Tests pin both through the environment (GRIMOIRE_NOW, an RFC 3339
/// time; GRIMOIRE_RANDOMNESS_SEED, a number), as jj does; otherwise they come from the OS.
pub struct Context {
    pub now: DateTime<Utc>,
    pub rng: StdRng,
    /// Whether a long read may print straight to stdout as it goes (the command line), rather than
    /// into its report (the tour, which prints its transcript at the end).
    pub streams: bool,
}

impl Context {
    pub fn from_env() -> Result<Context, Error> {
        let now = match std::env::var("GRIMOIRE_NOW") {
            Ok(text) => DateTime::parse_from_rfc3339(&text)
                .map_err(|_| {
                    Error::Usage(format!(
                        "GRIMOIRE_NOW='{text}' is not an RFC 3339 time such as 2026-01-31T20:00:00Z"
                    ))
                })?
                .with_timezone(&Utc),
            Err(_) => Utc::now(),
        };
        let rng = match std::env::var("GRIMOIRE_RANDOMNESS_SEED") {
            Ok(text) => StdRng::seed_from_u64(text.parse().map_err(|_| {
                Error::Usage(format!(
                    "GRIMOIRE_RANDOMNESS_SEED='{text}' is not a whole number"
                ))
            })?),
            Err(_) => StdRng::from_os_rng(),
        };
        Ok(Context {
            now,
            rng,
            streams: true,
        })
    }

    fn stamp(&mut self, globals: &Globals) -> Result<Stamp, Error> {
        Ok(Stamp {
            recorded_at: self.now.to_rfc3339_opts(SecondsFormat::Secs, true),
            actor: globals.actor()?,
            id_rng: StdRng::from_rng(&mut self.rng),
        })
    }

    /// The time now, for the next command of a shell (still GRIMOIRE_NOW when that pins it).
    pub fn refresh_now(&mut self) {
        if std::env::var_os("GRIMOIRE_NOW").is_none() {
            self.now = Utc::now();
        }
    }
}

impl Globals {
    /// Who is entering this: a name, checked like any other text the log keeps, since it is
    /// printed on every log line.
    fn actor(&self) -> Result<String, Error> {
        let actor = self
            .actor
            .clone()
            .filter(|a| !a.trim().is_empty())
            .or_else(|| {
                ["USER", "USERNAME", "LOGNAME"]
                    .iter()
                    .find_map(|v| std::env::var(v).ok())
                    .filter(|name| !name.trim().is_empty())
            })
            // The environment says nothing (a service, `env -i`): the account's own name.
            .or_else(|| whoami::username().ok())
            .unwrap_or_else(|| "unknown".to_string());
        text::check("actor (--actor or GRIMOIRE_ACTOR)", &actor, text::NAME_MAX)
            .map_err(|e| Error::Usage(e.to_string()))?;
        Ok(actor.trim().to_string())
    }

    fn open(&self) -> Result<open::StoreHandle<'_>, Error> {
        Ok(match self.shared.lend() {
            Some(store) => open::StoreHandle::Lent(store),
            None => open::StoreHandle::Opened(Store::open(&self.db)?),
        })
    }

    fn campaign(&self) -> Result<OpenCampaign<'_>, Error> {
        Ok(Campaign::on(self.open()?))
    }

    /// Refuses `--rolls` and `--player-entropy` on a command that draws no dice, before anything is
    /// opened.
    fn no_rolls(&self, command: &str) -> Result<(), Error> {
        for (given, flag) in [
            (self.rolls.is_some(), "--rolls"),
            (self.player_entropy.is_some(), "--player-entropy"),
            (self.rolled_by.is_some(), "--rolled-by"),
            (self.witnessed_by.is_some(), "--witnessed-by"),
            (self.no_wait, "--no-wait"),
        ] {
            if given {
                return Err(Error::Usage(format!(
                    "`{command}` rolls no dice, so {flag} does not apply"
                )));
            }
        }
        Ok(())
    }

    /// `--player-entropy` with who typed it, checked like any note the log keeps.
    fn given_entropy(&self) -> Result<Option<crate::rules::GivenEntropy>, Error> {
        let Some(text) = &self.player_entropy else {
            return Ok(None);
        };
        if self.rolls.is_some() {
            return Err(Error::Usage(
                "--player-entropy goes into seeded dice, and --rolls enters physical ones: give one or the other".into(),
            ));
        }
        text::check("player entropy", text, text::NOTE_MAX).map_err(RuleError::from)?;
        if text.trim().is_empty() {
            return Err(Error::Usage(
                "--player-entropy needs text a player chooses, e.g. --player-entropy \"three crows\"".into(),
            ));
        }
        Ok(Some(crate::rules::GivenEntropy {
            text: text.clone(),
            by: self.actor()?,
        }))
    }
}

/// The commands that may roll dice, by path: the core's and each rule system's. Only their help
/// shows `--rolls` and `--player-entropy` (with the top-level help, which explains them); every
/// other command refuses both before anything is opened (`tests/it/cli_errors.rs` checks the two
/// agree).
pub fn rolling() -> Vec<&'static str> {
    let mut paths = CORE_ROLLING.to_vec();
    paths.extend(mount::rolling());
    paths
}

/// The core's commands that may roll dice.
const CORE_ROLLING: &[&str] = &["roll", "rest", "downtime"];

/// The command line as people meet it: every command's help with its examples, and the dice
/// options shown only where they apply.
pub fn definitions() -> clap::Command {
    use clap::CommandFactory;
    let command = examples::with_examples(Cli::command()).mut_subcommand("character", |c| {
        c.mut_subcommand("add", character::described_add)
    });
    let globals: Vec<clap::Arg> = command
        .get_arguments()
        .filter(|a| a.is_global_set())
        .cloned()
        .collect();
    with_global_options(command, "", &globals)
}

/// Gives every command below `command` its own copy of each global option, in the top level's
/// order, the dice options hidden unless it rolls: clap passes a global option down only to
/// commands without one of that name, so each copy decides how that command's help shows it, and
/// the value still reaches the top-level options wherever it is typed.
fn with_global_options(
    mut command: clap::Command,
    path: &str,
    globals: &[clap::Arg],
) -> clap::Command {
    let rolling = rolling();
    let subcommands: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in subcommands {
        let below = format!("{path} {name}").trim().to_string();
        let rolls = rolling.contains(&below.as_str());
        command = command.mut_subcommand(&name, |sub| {
            let sub = globals.iter().fold(sub, |sub, arg| {
                let dice = matches!(
                    arg.get_id().as_str(),
                    "rolls" | "player_entropy" | "rolled_by" | "witnessed_by" | "no_wait"
                );
                sub.arg(arg.clone().hide(arg.is_hide_set() || (dice && !rolls)))
            });
            with_global_options(sub, &below, globals)
        });
    }
    command
}

/// A parsed command's path below `grimoire`, as help and [`rolling`] name it.
fn path(command: &Commands) -> &'static str {
    use character::CharacterCommand as C;
    match command {
        Commands::Init(_) => "init",
        Commands::Character(C::Add(_)) => "character add",
        Commands::Character(C::List(_)) => "character list",
        Commands::Character(C::Show(_)) => "character show",
        Commands::Character(C::Set(_)) => "character set",
        Commands::Character(C::LevelUp(_)) => "character level-up",
        Commands::Damage(_) => "damage",
        Commands::Heal(_) => "heal",
        Commands::Time(table::TimeCommand::Advance(_)) => "time advance",
        Commands::Time(table::TimeCommand::Show(_)) => "time show",
        Commands::Session(table::SessionCommand::Start(_)) => "session start",
        Commands::Session(table::SessionCommand::End) => "session end",
        Commands::Session(table::SessionCommand::Recap(_)) => "session recap",
        Commands::Fight(fight::FightCommand::Start(_)) => "fight start",
        Commands::Fight(fight::FightCommand::End) => "fight end",
        Commands::Fight(fight::FightCommand::Show(_)) => "fight show",
        Commands::Next(_) => "next",
        Commands::Roll(_) => "roll",
        Commands::Reveal(_) => "reveal",
        Commands::Peek(_) => "peek",
        Commands::Player(players::PlayerCommand::Link(_)) => "player link",
        Commands::Player(players::PlayerCommand::Unlink(_)) => "player unlink",
        Commands::Player(players::PlayerCommand::List) => "player list",
        Commands::Player(players::PlayerCommand::Withdraw(_)) => "player withdraw",
        Commands::Log(_) => "log",
        Commands::Explain(_) => "explain",
        Commands::Diff(_) => "diff",
        Commands::Audit(audit::AuditCommand::Dice(_)) => "audit dice",
        Commands::Verify(_) => "verify",
        Commands::Report(_) => "report",
        Commands::Serve(_) => "serve",
        Commands::Head(_) => "head",
        Commands::Seed(campaign::SeedCommand::Reveal) => "seed reveal",
        Commands::Retract(_) => "retract",
        Commands::Amend(_) => "amend",
        Commands::Export(_) => "export",
        Commands::Import(_) => "import",
        Commands::Backup(_) => "backup",
        Commands::Restore(_) => "restore",
        Commands::Rest(_) => "rest",
        Commands::Downtime(_) => "downtime",
        Commands::System(mounted) => mounted.path,
        Commands::Shell(_) => "shell",
        Commands::Tour(_) => "tour",
        Commands::Completions(_) => "completions",
        Commands::Man(_) => "man",
        Commands::CompleteNames(_) => "complete-names",
        Commands::Snapshots(dev::SnapshotsCommand::Rebuild) => "snapshots rebuild",
        Commands::Snapshots(dev::SnapshotsCommand::Clear) => "snapshots clear",
        Commands::Dev(dev::DevCommand::Generate(_)) => "dev generate",
        Commands::Dev(dev::DevCommand::AppendLoop { .. }) => "dev append-loop",
    }
}

/// Whether the command records events under the actor's name. A read takes no `--actor`: it would
/// look like a filter (`log --actor X`) while showing everyone.
fn records(command: &Commands) -> bool {
    use character::CharacterCommand as C;
    match command {
        Commands::Init(_)
        | Commands::Character(C::Add(_) | C::Set(_) | C::LevelUp(_))
        | Commands::Damage(_)
        | Commands::Heal(_)
        | Commands::Time(table::TimeCommand::Advance(_))
        | Commands::Session(table::SessionCommand::Start(_) | table::SessionCommand::End)
        | Commands::Fight(fight::FightCommand::Start(_) | fight::FightCommand::End)
        | Commands::Next(_)
        | Commands::Roll(_)
        | Commands::Reveal(_)
        | Commands::Player(
            players::PlayerCommand::Link(_)
            | players::PlayerCommand::Unlink(_)
            | players::PlayerCommand::Withdraw(_),
        )
        | Commands::Seed(_)
        | Commands::Retract(_)
        | Commands::Amend(_)
        | Commands::Rest(_)
        | Commands::Downtime(_)
        // The shell records what is typed into it under this name; the tour plays its own file.
        | Commands::Shell(_)
        | Commands::Tour(_)
        | Commands::Dev(_) => true,
        Commands::System(mounted) => mounted.records,
        Commands::Character(C::List(_) | C::Show(_))
        | Commands::Time(table::TimeCommand::Show(_))
        | Commands::Session(table::SessionCommand::Recap(_))
        | Commands::Fight(fight::FightCommand::Show(_))
        | Commands::Peek(_)
        | Commands::Player(players::PlayerCommand::List)
        | Commands::Log(_)
        | Commands::Explain(_)
        | Commands::Diff(_)
        | Commands::Audit(_)
        | Commands::Verify(_)
        | Commands::Report(_)
        | Commands::Serve(_)
        | Commands::Head(_)
        // An import keeps each event's own actor; a backup and an export copy them.
        | Commands::Export(_)
        | Commands::Import(_)
        | Commands::Backup(_)
        | Commands::Restore(_)
        | Commands::Completions(_)
        | Commands::Man(_)
        | Commands::CompleteNames(_)
        | Commands::Snapshots(_) => false,
    }
}

/// Runs one parsed command line.
pub fn run(cli: &Cli, ctx: &mut Context) -> Result<Report, Error> {
    let g = &cli.globals;
    // Dice given to a command that rolls none are refused before anything is opened or read.
    let path = path(&cli.command);
    if !rolling().contains(&path) {
        g.no_rolls(path)?;
    }
    let put_to_a_device = g.rolled_by.is_some() || g.witnessed_by.is_some();
    if put_to_a_device && matches!(path, "rest" | "downtime") {
        return Err(Error::Usage(format!(
            "`{path}` rolls for several characters at once, so it is rolled at your terminal: --rolled-by and --witnessed-by go with `roll` and the systems' commands that roll"
        )));
    }
    if g.no_wait && !put_to_a_device {
        return Err(Error::Usage(
            "--no-wait goes with --rolled-by or --witnessed-by: only a roll put to a device is waited for".into(),
        ));
    }
    if g.actor_typed && !records(&cli.command) {
        return Err(Error::Usage(format!(
            "`{path}` records nothing, so --actor does not apply; to see what one person entered, use --by NAME where the command has it (log, audit dice)"
        )));
    }
    match &cli.command {
        Commands::Init(args) => campaign::init(g, ctx, args),
        Commands::Character(command) => character::run(g, ctx, command),
        Commands::Damage(args) => character::damage(g, ctx, &args.command()),
        Commands::Heal(args) => character::heal(g, ctx, &args.command()),
        Commands::Time(command) => table::time(g, ctx, command),
        Commands::Session(command) => table::session(g, ctx, command),
        Commands::Fight(command) => fight::fight(g, ctx, command),
        Commands::Next(_) => fight::next(g, ctx),
        Commands::Roll(args) => table::roll(g, ctx, &args.command()),
        Commands::Reveal(args) => table::reveal(g, ctx, &args.command()),
        Commands::Peek(args) => table::peek(g, args),
        Commands::Player(command) => players::run(g, ctx, command),
        Commands::Log(args) => history::log(g, ctx.streams, args),
        Commands::Explain(args) => history::explain(g, args),
        Commands::Verify(args) => campaign::verify(g, args),
        Commands::Report(args) => report::report(g, ctx, args),
        Commands::Serve(args) => serve::serve(g, ctx, args),
        Commands::Head(args) => campaign::head(g, args),
        Commands::Seed(command) => campaign::seed(g, ctx, command),
        Commands::Retract(args) => campaign::retract(g, ctx, &args.command()),
        Commands::Amend(args) => amend::run(g, ctx, args),
        Commands::Export(args) => transfer::export(g, args),
        Commands::Diff(args) => recap::diff(g, args),
        Commands::Audit(command) => audit::run(g, command),
        Commands::Backup(args) => transfer::backup(g, args),
        Commands::Restore(args) => transfer::restore(g, args),
        Commands::Import(args) => transfer::import(g, args),
        Commands::Rest(args) => table::rest(g, ctx, &args.command()),
        Commands::Downtime(args) => table::downtime(g, ctx, &args.command()),
        Commands::System(mounted) => mount::run(g, ctx, mounted),
        Commands::Tour(args) => tour::run(ctx, args),
        Commands::Shell(args) => shell::run(g, ctx, args),
        Commands::Completions(args) => docs::completions(args),
        Commands::Man(args) => docs::man(args),
        Commands::CompleteNames(_) => docs::complete_names(g),
        Commands::Snapshots(command) => dev::snapshots(g, command),
        Commands::Dev(command) => dev::dev(g, ctx, command),
    }
}

/// One run's inputs from the command line and the context: who and when, the dice (`--rolls`, else
/// seeded, with `--player-entropy` if given), and fresh randomness.
fn run_of(g: &Globals, ctx: &mut Context) -> Result<Run, Error> {
    let dice = match &g.rolls {
        Some(EnteredRolls::Values(values)) => {
            // Refuses --player-entropy beside --rolls.
            g.given_entropy()?;
            DiceSource::Entered(values.clone())
        }
        // Asked for one by one (see `record_on`); none entered yet.
        Some(EnteredRolls::Ask) => {
            g.given_entropy()?;
            DiceSource::Entered(Vec::new())
        }
        None => DiceSource::Seeded {
            player_entropy: g.given_entropy()?,
        },
    };
    Ok(Run {
        stamp: ctx.stamp(g)?,
        dice,
        rng: StdRng::from_rng(&mut ctx.rng),
    })
}

/// A campaign opened for one command, or the shell's.
type OpenCampaign<'a> = Campaign<open::StoreHandle<'a>>;

/// Records `command` on a campaign already open (see [`Campaign::execute`]).
fn record_on(
    g: &Globals,
    ctx: &mut Context,
    campaign: &mut OpenCampaign<'_>,
    command: Command,
) -> Result<Written, Error> {
    let run = run_of(g, ctx)?;
    let command = amended(g, command);
    let written = execute(g, ctx, campaign, run, command)?;
    Ok(presented(g, written))
}

/// Records `command` (see [`Campaign::execute`]); dice it cannot take are refused before the
/// campaign is opened.
fn record(g: &Globals, ctx: &mut Context, command: Command) -> Result<Written, Error> {
    let run = run_of(g, ctx)?;
    let command = amended(g, command);
    Campaign::check_dice(&command, &run.dice)?;
    let written = execute(g, ctx, &mut g.campaign()?, run, command)?;
    Ok(presented(g, written))
}

/// `command`, or under `amend` the amendment it makes.
fn amended(g: &Globals, command: Command) -> Command {
    match &g.amending {
        Some(amending) => amending.wrap(command),
        None => command,
    }
}

/// What was written, as the command that wrote it says it: under `amend`, the amended event in
/// its original's place.
fn presented(g: &Globals, written: Written) -> Written {
    match &g.amending {
        Some(amending) => Written {
            events: amending.present(written.events),
            ..written
        },
        None => written,
    }
}

/// Runs `run` with `command`; with `--rolls ask`, asking for each die on the terminal as the
/// command needs it ([`Campaign::execute_asking`]), each attempt with fresh randomness.
fn execute(
    g: &Globals,
    ctx: &mut Context,
    campaign: &mut OpenCampaign<'_>,
    run: Run,
    command: Command,
) -> Result<Written, Error> {
    if g.rolls != Some(EnteredRolls::Ask) {
        return campaign.execute(run, command);
    }
    let mut asker = ask::TerminalAsker::new()?;
    let mut first = Some(run);
    campaign.execute_asking(
        |dice| {
            let run = match first.take() {
                Some(run) => run,
                None => run_of(g, ctx)?,
            };
            Ok(Run { dice, ..run })
        },
        &command,
        &mut asker,
    )
}

#[cfg(test)]
mod tests;
