//! `grimoire serve`: the campaign live on the players' phones. A web view of the party, each full
//! sheet, the fight, what waits on someone, the session so far, the log with `log`'s filters, the
//! report and the player's check, under a link that holds a random key; and under each player's
//! own link, the rolls put to their phone, whose answers are the one thing it records (C-5).
//!
//! Two halves. This thread (the one the command runs on) owns the campaign: it watches the log's
//! head, puts the live page into words whenever the head moves, and answers the pages a phone asks
//! for, through the same read commands the terminal runs. A tokio runtime beside it speaks HTTP
//! ([`http`]) and hands out what this thread made; it never touches the campaign itself.

mod doors;
mod http;
mod pages;
mod writes;

use super::output::Report;
use super::{Context, Globals, open::SharedStore};
use crate::Error;
use crate::ids::{DeviceId, RequestId};
use crate::rules::RuleError;
use crate::seq::Seq;
use crate::store::{Checkpoint, Store};
use clap::Args;
use rand::RngCore;
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};

/// Show the campaign live on the players' phones, following every write. Records only what
/// players' phones send: answers to rolls put to them, and choices the rules left to them.
///
/// A web page of the party and each full sheet, the fight's round, what waits on a choice or a
/// reveal, the session so far and the log (with `log`'s filters), the report, and a check of the
/// log that runs in the phone's browser. A write from any terminal, or from the shell in another
/// one, shows on every phone within a second, without a reload.
///
/// Nothing is served without the table's link, which holds a random key: it is printed here, with
/// a QR code to scan. Press Enter to make a new link; the old one stops working at once (phones
/// on it are told to ask for the new one). Nothing secret is ever served: no unrevealed seed, no
/// sealed die or outcome before its reveal. Each player's own link (`grimoire player link`) opens the
/// same page with their characters' rolls to tap (`--rolled-by`, `--witnessed-by`); an answer is
/// recorded with the command it completes. It listens on this machine only (127.0.0.1) unless
/// --listen names another address: --listen 0.0.0.0:8737 lets phones on the table's network in.
/// Stop it with Ctrl-C.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address and port to listen on; port 0 takes any free one.
    #[arg(long, value_name = "ADDRESS:PORT", default_value = "127.0.0.1:8737")]
    pub listen: SocketAddr,
    /// The host the printed link names, when phones reach this machine by another name than the
    /// address listened on (needed with 0.0.0.0 or [::]), e.g. --link-host 192.168.1.20.
    #[arg(long, value_name = "HOST", value_parser = super::link::host)]
    pub link_host: Option<String>,
}

/// How often the log's head is looked at: a write shows on the phones within this and the time
/// its page takes to make.
const LOOK_EVERY: Duration = Duration::from_millis(200);

/// The table's key: 128 random bits, in hex, the first part of every address served.
#[derive(Clone, PartialEq, Eq)]
pub struct Key(String);

impl Key {
    fn new(rng: &mut impl RngCore) -> Key {
        let mut bytes = [0u8; 16];
        rng.fill_bytes(&mut bytes);
        Key(hex::encode(bytes))
    }

    /// Whether `given` is this key. Both are hashed first, so the comparison's time says nothing
    /// about how much of a guess was right.
    fn opens(&self, given: &str) -> bool {
        use sha2::{Digest, Sha256};
        Sha256::digest(given.as_bytes()) == Sha256::digest(self.0.as_bytes())
    }
}

/// What every phone is shown now: the head it was made at, and the live page.
pub struct Live {
    pub head: Option<Checkpoint>,
    pub page: String,
}

/// A page a phone asked for that is made on request, not at every write.
pub enum Wanted {
    /// `log`'s filters, as the query string gave them.
    Log(Vec<(String, String)>),
    Report,
    Export,
}

/// A made page: its HTTP status, media type and body.
pub struct Made {
    pub status: u16,
    pub media: &'static str,
    pub body: Arc<String>,
}

/// The players' links that stand as the campaign last stood, by their tokens' SHA-256: the HTTP
/// side sorts asks into lanes by it, and closes the connections of a link that leaves it.
pub type Standing = BTreeSet<String>;

/// What a player's link asks that its door answers (see [`keep_the_door`]).
pub enum Small {
    /// Whether the link stands (for the stream of updates, and a link typed without its slash).
    Check,
    /// The player's page, around the live page the HTTP side holds.
    Page(Arc<Live>),
    /// The rolls waiting on the device.
    Rolls,
}

/// A small ask of a player's link: its token as given, what it wants, where the answer goes.
pub struct DoorJob {
    pub token: String,
    pub wanted: Small,
    pub answer: oneshot::Sender<Made>,
}

/// What a player's link asks of the campaign's thread (C-4, C-5): each is answered only for a
/// link that stands.
pub enum ForDevice {
    /// The device's answer to a request: its bytes, read from the hex it sent.
    Answer {
        request: RequestId,
        contribution: Vec<u8>,
    },
    /// A choice the device's player made (#47): for whom, the options picked, and whom one names.
    Choose {
        character: String,
        picks: Vec<String>,
        names: Option<String>,
    },
    /// One of the table's pages.
    Public(Wanted),
}

/// What the HTTP side asks of the campaign's thread.
pub enum Job {
    Make(Wanted, oneshot::Sender<Made>),
    /// A player's link (its token as given) and what it asks for.
    Device(String, ForDevice, oneshot::Sender<Made>),
    /// A line typed at the terminal: make a new link.
    NewLink,
    /// The HTTP side stopped (it could not accept connections any more).
    Stopped(String),
}

pub fn serve(g: &Globals, ctx: &mut Context, args: &ServeArgs) -> Result<Report, Error> {
    let mut store = open_for_reads(g)?;
    if store.replay(None)?.campaign.is_none() {
        return Err(RuleError::NoCampaign.into());
    }
    super::output::write_for_pages();
    let mut reads = g.clone();
    reads.shared = SharedStore::new(store);
    let mut campaign = Campaign::new(reads, ctx.now);
    if args.listen.ip().is_unspecified() && args.link_host.is_none() {
        return Err(Error::Usage(format!(
            "listening on every address ({}), phones need the link to name this machine as they reach it: add --link-host with its address on your network, e.g. --link-host 192.168.1.20",
            args.listen.ip()
        )));
    }
    let listener = std::net::TcpListener::bind(args.listen).map_err(|e| {
        use std::io::ErrorKind;
        let why = match e.kind() {
            ErrorKind::AddrInUse => "another program listens there already".to_string(),
            ErrorKind::PermissionDenied => "ports below 1024 need the administrator".to_string(),
            ErrorKind::AddrNotAvailable => "this machine has no such address".to_string(),
            other => other.to_string(),
        };
        Error::Usage(format!(
            "cannot listen on {}: {why}; name another address or port with --listen, e.g. --listen 127.0.0.1:8738",
            args.listen
        ))
    })?;
    let listening = listener
        .local_addr()
        .map_err(|e| Error::Internal(format!("the listening address is unknown: {e}")))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::Internal(format!("the listener cannot wait for phones: {e}")))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(format!("the web server cannot start: {e}")))?;
    let key = Key::new(&mut ctx.rng);
    let (key_tx, key_rx) = watch::channel(key.clone());
    let (live_tx, live_rx) = watch::channel(Arc::new(campaign.live()?));
    let (standing_tx, standing_rx) = watch::channel(campaign.standing()?);
    let jobs = Arc::new(doors::Queue::default());
    let door = Arc::new(doors::Queue::default());
    keep_the_door(g.db.clone(), Arc::clone(&door));
    let link = Link {
        host: args.link_host.clone(),
        listening,
        json: g.json,
    };
    let shared = http::Shared {
        key: key_rx,
        live: live_rx,
        standing: standing_rx,
        jobs: Arc::clone(&jobs),
        door,
        doors: Arc::default(),
        authority: link.authority(),
    };
    listen_for_new_links(Arc::clone(&jobs));
    let stopping = Arc::clone(&jobs);
    runtime.spawn(async move {
        let stopped = http::run(listener, shared).await;
        stopping.own(Job::Stopped(stopped));
    });
    link.print(&key, false);
    let published = Published {
        live: live_tx,
        key: key_tx,
        standing: standing_tx,
    };
    campaign.run(&jobs, &published, &link, ctx)
}

/// What the campaign's thread publishes to the HTTP side.
struct Published {
    live: watch::Sender<Arc<Live>>,
    key: watch::Sender<Key>,
    standing: watch::Sender<Arc<Standing>>,
}

/// The campaign opened for the evening's reads, its state kept in memory between writes.
fn open_for_reads(g: &Globals) -> Result<Store, Error> {
    let mut store = Store::open(&g.db)?;
    store.keep_state_in_memory();
    Ok(store)
}

/// Which file a campaign's path names now (its device and inode): a file put in its place (a
/// restored backup, a copy moved over it) is another file, which the open connection cannot read
/// beside the new one's journal.
fn file_identity(db: &crate::store::Location) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(db.file()?).ok()?;
    Some((meta.dev(), meta.ino()))
}

/// How the table's link is written and shown.
struct Link {
    host: Option<String>,
    listening: SocketAddr,
    json: bool,
}

impl Link {
    /// The host and port every link names, as a browser sends it back in `Host`.
    fn authority(&self) -> String {
        // (Listening on every address, serve refuses to start without a host to name.)
        let host = match &self.host {
            Some(host) => host.clone(),
            None => match self.listening {
                SocketAddr::V4(v4) => v4.ip().to_string(),
                SocketAddr::V6(v6) => format!("[{}]", v6.ip()),
            },
        };
        format!("{host}:{}", self.listening.port())
    }

    fn address(&self, key: &Key) -> String {
        format!("http://{}/{}/", self.authority(), key.0)
    }

    /// Prints the link (with its QR code on a terminal); `new` when it replaces another.
    fn print(&self, key: &Key, new: bool) {
        use std::io::{IsTerminal, Write};
        let address = self.address(key);
        let mut out = std::io::stdout().lock();
        let _ = if self.json {
            writeln!(
                out,
                "{}",
                serde_json::json!({ "link": address, "listening": self.listening.to_string(), "new": new })
            )
        } else {
            let qr = match std::io::stdout().is_terminal() {
                true => super::link::qr_code(&address),
                false => String::new(),
            };
            let opening = match new {
                true => "A new link; the old one no longer opens anything:",
                false => "The table's link (give it only to the table):",
            };
            writeln!(
                out,
                "{qr}{opening}\n  {address}\nPress Enter for a new link, Ctrl-C to stop."
            )
        };
        let _ = out.flush();
    }
}

/// Reads the terminal line by line, each line asking for a new link. A closed input (serve
/// started from a script) just stops asking.
fn listen_for_new_links(jobs: Arc<doors::Queue<Job>>) {
    std::thread::spawn(move || {
        let mut line = String::new();
        while std::io::stdin()
            .read_line(&mut line)
            .is_ok_and(|read| read > 0)
        {
            line.clear();
            jobs.own(Job::NewLink);
        }
    });
}

/// Answers each player's link's small asks (its page, its rolls, whether it stands) on a thread
/// of its own, from the campaign as it is at that moment (so a revoked link opens nothing at
/// once), with a store of its own: no other link's slow page delays them, and a link's asks are
/// served in turn with every other link's.
fn keep_the_door(db: crate::store::Location, jobs: Arc<doors::Queue<DoorJob>>) {
    std::thread::spawn(move || {
        let mut open: Option<(Store, Option<(u64, u64)>)> = None;
        loop {
            let Some(job) = jobs.next(Duration::from_secs(60)) else {
                continue;
            };
            if job.answer.is_closed() {
                continue;
            }
            let made = small(&db, &mut open, &job.token, job.wanted);
            let _ = job.answer.send(made);
        }
    });
}

/// What a small ask of `token` gets, read from the store `open` keeps (opened again when another
/// file took the campaign's place, or after a read failed).
fn small(
    db: &crate::store::Location,
    open: &mut Option<(Store, Option<(u64, u64)>)>,
    token: &str,
    wanted: Small,
) -> Made {
    let identity = file_identity(db);
    if open.as_ref().is_none_or(|(_, was)| *was != identity) {
        *open = Store::open(db).ok().map(|mut store| {
            store.keep_state_in_memory();
            (store, identity)
        });
    }
    let Some((store, _)) = open.as_mut() else {
        return pages::trouble(503, pages::UNREADABLE);
    };
    let found = device_of(store, token);
    let (device, linked, state) = match found {
        Ok(Some(found)) => found,
        Ok(None) => return http::nothing_made(),
        Err(_) => {
            *open = None;
            return pages::trouble(503, pages::UNREADABLE);
        }
    };
    match wanted {
        Small::Check => pages::json_made(200, &serde_json::json!({})),
        Small::Page(live) => Made {
            status: 200,
            media: pages::HTML,
            body: Arc::new(pages::player_page(
                &live.page,
                &linked.player,
                &linked.characters,
                &state,
            )),
        },
        Small::Rolls => pages::rolls(store, &state, device),
    }
}

/// The linked device a token opens, with its link and the campaign as it stands; `None` for a
/// token no standing link was made with.
fn device_of(
    store: &mut Store,
    token: &str,
) -> Result<
    Option<(
        DeviceId,
        crate::state::players::Device,
        std::rc::Rc<crate::state::CampaignState>,
    )>,
    Error,
> {
    // Only what a link can hold is looked up: 128 bits in lowercase hex.
    if token.len() != 32
        || !token
            .chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
    {
        return Ok(None);
    }
    let Some(device) = store.device_of_token(&super::link::token_hash(token))? else {
        return Ok(None);
    };
    let state = store.head_state()?;
    Ok(match state.players.devices.get(&device) {
        Some(linked) if linked.linked => Some((device, linked.clone(), state)),
        _ => None,
    })
}

/// Each device by its number, with whether its link stands.
type LinkedDevices = Vec<(DeviceId, bool)>;

/// A page made for the head it was made at.
type Kept = Option<(Option<Checkpoint>, Arc<String>)>;

/// How a page kept for a head is made: from the campaign, at a time (the report's footer).
type Making = fn(&Globals, chrono::DateTime<chrono::Utc>) -> Result<String, Error>;

/// The campaign, as this thread reads it for the pages.
struct Campaign {
    /// Read commands' globals, lending them one open store.
    reads: Globals,
    /// The report and the export, made again only once the head has moved.
    report: Kept,
    export: Kept,
    /// When serve started (the context's time, pinned in tests) and the instant it did: the
    /// report's footer says when it was written.
    started: (chrono::DateTime<chrono::Utc>, Instant),
    /// What was last said on the terminal about a campaign that cannot be read.
    trouble: Option<String>,
    /// The file the open store reads (see [`file_identity`]).
    file: Option<(u64, u64)>,
    /// The links that stood at the last look, with the devices (and whether each was linked)
    /// they were read for: the GM's secrets are read again only once those change.
    standing: Option<(LinkedDevices, Arc<Standing>)>,
}

impl Campaign {
    fn new(reads: Globals, now: chrono::DateTime<chrono::Utc>) -> Campaign {
        Campaign {
            report: None,
            export: None,
            started: (now, Instant::now()),
            trouble: None,
            file: file_identity(&reads.db),
            standing: None,
            reads,
        }
    }

    fn head(&self) -> Result<Option<Checkpoint>, Error> {
        let mut store = self.reads.open()?;
        Ok(store.head()?)
    }

    /// The live page as the campaign stands now.
    fn live(&mut self) -> Result<Live, Error> {
        let inputs = pages::LiveInputs::read(&self.reads)?;
        Ok(Live {
            page: pages::live(&inputs),
            head: inputs.head,
        })
    }

    /// Answers jobs, a link's in turn, and follows the head until the HTTP side stops.
    fn run(
        &mut self,
        jobs: &doors::Queue<Job>,
        published: &Published,
        link: &Link,
        ctx: &mut Context,
    ) -> Result<Report, Error> {
        let mut looked = Instant::now();
        loop {
            match jobs.next(LOOK_EVERY) {
                // A page no one waits for any more (its connection closed) is not made.
                Some(Job::Make(_, answer) | Job::Device(_, ForDevice::Public(_), answer))
                    if answer.is_closed() => {}
                Some(Job::Make(wanted, answer)) => {
                    let _ = answer.send(self.make(wanted));
                }
                Some(Job::Device(token, wanted, answer)) => {
                    let _ = answer.send(self.for_device(&token, wanted, ctx));
                }
                Some(Job::NewLink) => {
                    let new = Key::new(&mut ctx.rng);
                    published.key.send_replace(new.clone());
                    link.print(&new, true);
                }
                Some(Job::Stopped(why)) => {
                    return Err(Error::Internal(format!("the web server stopped: {why}")));
                }
                None => {}
            }
            if looked.elapsed() >= LOOK_EVERY {
                looked = Instant::now();
                self.follow(published);
            }
        }
    }

    /// The players' links that stand now, by their tokens' SHA-256. Every secret is read to find
    /// them, so only when a device was linked or revoked since the last look.
    fn standing(&mut self) -> Result<Arc<Standing>, Error> {
        let mut store = self.reads.open()?;
        let state = store.head_state()?;
        let devices: LinkedDevices = state
            .players
            .devices
            .iter()
            .map(|(&device, d)| (device, d.linked))
            .collect();
        if let Some((seen, standing)) = &self.standing
            && *seen == devices
        {
            return Ok(Arc::clone(standing));
        }
        let standing: Arc<Standing> = Arc::new(
            store
                .secrets()?
                .into_iter()
                .filter(|(kind, _, device)| {
                    kind == "device_token"
                        && device
                            .parse::<DeviceId>()
                            .ok()
                            .and_then(|device| state.players.devices.get(&device))
                            .is_some_and(|d| d.linked)
                })
                .map(|(_, hash, _)| hash)
                .collect(),
        );
        self.standing = Some((devices, Arc::clone(&standing)));
        Ok(standing)
    }

    /// Makes the live page anew when the head has moved (or been replaced, by an import or a
    /// restore), and says again which players' links stand. A read that fails leaves the last
    /// page up and says why on the terminal, once until it changes or the campaign reads again.
    fn follow(&mut self, published: &Published) {
        self.reopen_if_replaced();
        let made = self
            .head()
            .and_then(|head| match head != published.live.borrow().head {
                true => Ok(Some((self.live()?, self.standing()?))),
                false => Ok(None),
            });
        match made {
            Ok(page) => {
                if self.trouble.take().is_some() {
                    eprintln!("grimoire serve: the campaign reads again.");
                }
                if let Some((page, standing)) = page {
                    published.live.send_replace(Arc::new(page));
                    published.standing.send_if_modified(|now| {
                        let changed = **now != *standing;
                        if changed {
                            *now = standing;
                        }
                        changed
                    });
                }
            }
            Err(e) => self.say_trouble(format!(
                "grimoire serve: the campaign cannot be read, so the phones keep the last page: {e}"
            )),
        }
    }

    fn make(&mut self, wanted: Wanted) -> Made {
        let head = match self.head() {
            Ok(head) => head,
            Err(e) => return self.unreadable(&e),
        };
        let now = self.now();
        let (kept, media, make): (&mut Kept, _, Making) = match &wanted {
            Wanted::Log(filters) => return pages::log(&self.reads, filters),
            Wanted::Report => (&mut self.report, pages::HTML, report),
            Wanted::Export => (&mut self.export, "application/jsonl; charset=utf-8", export),
        };
        if let Some((at, body)) = kept.as_ref()
            && *at == head
        {
            return Made {
                status: 200,
                media,
                body: Arc::clone(body),
            };
        }
        match make(&self.reads, now) {
            Ok(body) => {
                let body = Arc::new(body);
                *kept = Some((head, Arc::clone(&body)));
                Made {
                    status: 200,
                    media,
                    body,
                }
            }
            Err(e) => self.unreadable(&e),
        }
    }

    /// The time now: when serve started (pinned in tests) and how long it has run.
    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.started.0 + chrono::Duration::from_std(self.started.1.elapsed()).unwrap_or_default()
    }

    /// What a player's link asks for, when the link stands; the table's one refusal otherwise.
    fn for_device(&mut self, token: &str, wanted: ForDevice, ctx: &mut Context) -> Made {
        let (device, player) = match self.device(token) {
            Ok(Some(found)) => found,
            Ok(None) => return http::nothing_made(),
            Err(e) => return self.unreadable(&e),
        };
        match wanted {
            ForDevice::Answer {
                request,
                contribution,
            } => self.answer(device, &player, request, contribution, ctx),
            ForDevice::Choose {
                character,
                picks,
                names,
            } => {
                let choice = crate::campaign::PlayerChoice {
                    device,
                    character: &character,
                    picks: &picks,
                    names: names.as_deref(),
                };
                self.choose(&player, choice, ctx)
            }
            ForDevice::Public(wanted) => self.make(wanted),
        }
    }

    /// The linked device a token opens, with its player, as the log stands now; `None` for a
    /// token no standing link was made with.
    fn device(&mut self, token: &str) -> Result<Option<(DeviceId, String)>, Error> {
        let mut store = self.reads.open()?;
        Ok(device_of(&mut store, token)?.map(|(device, linked, _)| (device, linked.player)))
    }

    /// Opens the campaign's file again when another file has taken its place (a file deleted and
    /// not replaced is still read where it was).
    fn reopen_if_replaced(&mut self) {
        let now = file_identity(&self.reads.db);
        if now.is_none() || now == self.file {
            return;
        }
        match open_for_reads(&self.reads) {
            Ok(store) => {
                self.reads.shared = SharedStore::new(store);
                self.file = now;
                // Another file's links are its own.
                self.standing = None;
                eprintln!(
                    "grimoire serve: another file took the campaign's place; serving it from now on."
                );
            }
            Err(e) => self.say_trouble(format!(
                "grimoire serve: another file took the campaign's place, and it cannot be opened: {e}"
            )),
        }
    }

    /// The page phones get when the campaign cannot be read: why is said on the terminal only
    /// (it names the file, and what to do about it is the GM's).
    fn unreadable(&mut self, e: &Error) -> Made {
        self.say_trouble(format!("grimoire serve: a page could not be made: {e}"));
        pages::trouble(503, pages::UNREADABLE)
    }

    fn say_trouble(&mut self, said: String) {
        if self.trouble.as_ref() != Some(&said) {
            eprintln!("{said}");
            self.trouble = Some(said);
        }
    }
}

/// The report, as `grimoire report` writes it.
fn report(reads: &Globals, now: chrono::DateTime<chrono::Utc>) -> Result<String, Error> {
    let mut store = reads.open()?;
    let gathered = crate::report::gather(&mut store, None, &mut |_| {})?;
    let now = now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    Ok(crate::report::html(&gathered, &now))
}

/// The public log as `grimoire export` writes it: nothing sealed, no seed before its reveal.
fn export(reads: &Globals, _now: chrono::DateTime<chrono::Utc>) -> Result<String, Error> {
    let mut store = reads.open()?;
    let mut text = String::new();
    store.for_each_row(Seq(1), None, |row| {
        text.push_str(&crate::store::jsonl::export_line(&row)?);
        text.push('\n');
        Ok(())
    })?;
    Ok(text)
}

#[cfg(test)]
mod tests;
