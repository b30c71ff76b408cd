//! Moving a campaign between files: `export`, `import`, `backup` and `restore`.

use super::Globals;
use super::output::{Report, count};
use super::progress::Progress;
use crate::Error;
use crate::seq::Seq;
use crate::store::output::{OutputFile, OutputKind, OutputRequest};
use crate::store::{Store, io_error, jsonl};
use clap::Args;
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// The longest line import reads: the largest payload the log takes (`text::PAYLOAD_MAX_BYTES`) and
/// the row's other fields around it, with room to spare. Every line an export writes fits; junk
/// cannot exhaust memory.
const MAX_LINE_BYTES: u64 = crate::text::PAYLOAD_MAX_BYTES as u64 + 64 * 1024;

/// Write the log as JSON Lines, one event per line exactly as stored and hashed, so anyone can check
/// the chain from the file. Records nothing.
///
/// The export holds no secrets unless --with-secrets is given: without it, it is the public record a
/// GM can hand to players; with it, it is a full backup (epoch seeds not yet revealed, sealed dice
/// and the secrets of rolls put to players' phones), but for the phones' links, which open pages
/// and stay with the file they were made for: link the phones anew from a restored campaign.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Write to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Include the GM's secrets (a backup, not for players' eyes); the file is made readable by
    /// its owner only.
    #[arg(long)]
    pub with_secrets: bool,
    /// Replace --out even when it is not an earlier grimoire export. A campaign file, a folder or a
    /// device is refused all the same.
    #[arg(long)]
    pub force: bool,
}

pub fn export(g: &Globals, args: &ExportArgs) -> Result<Report, Error> {
    let mut store = g.open()?;
    if args.out.is_none() && g.json {
        return Err(Error::Usage(
            "an export is JSON Lines already (one document per event); with --json give --out FILE, and the summary is printed as JSON".into(),
        ));
    }
    let head = store.head()?.map_or(0, |h| h.seq.get());
    let Some(out) = &args.out else {
        // Standard output gets the lines themselves, streamed, and nothing else.
        let stdout = std::io::stdout();
        let mut sink = std::io::BufWriter::new(stdout.lock());
        let progress = Progress::bar(g, "exporting", head);
        write_export(
            &mut store,
            args.with_secrets,
            &mut sink,
            Path::new("standard output"),
            &progress,
        )?;
        return Ok(Report::silent());
    };
    let mut output = OutputFile::create(&OutputRequest {
        target: out,
        campaign: g.db.file(),
        kind: OutputKind::Export,
        secret: args.with_secrets,
        force: args.force,
    })?;
    let mut sink = std::io::BufWriter::new(output.file());
    let progress = Progress::bar(g, "exporting", head);
    let (events, secrets) = write_export(&mut store, args.with_secrets, &mut sink, out, &progress)?;
    drop(progress);
    sink.flush().map_err(|e| io_error(out, "written", &e))?;
    drop(sink);
    output.commit()?;
    let what = if secrets > 0 {
        format!(" and {}", count(secrets, "secret", "secrets"))
    } else {
        String::new()
    };
    Ok(Report::new(
        format!(
            "Exported {}{what} to {}.",
            count(events, "event", "events"),
            out.display()
        ),
        json!({ "events": events, "secrets": secrets, "out": out }),
    ))
}

fn write_export(
    store: &mut Store,
    with_secrets: bool,
    out: &mut impl Write,
    target: &Path,
    progress: &Progress,
) -> Result<(u64, u64), Error> {
    let io = |why: std::io::Error| io_error(target, "written", &why);
    let mut events = 0;
    store.for_each_row(Seq(1), None, |row| {
        progress.at(row.seq.get());
        let line = jsonl::export_line(&row)?;
        writeln!(out, "{line}").map_err(io)?;
        events += 1;
        Ok(())
    })?;
    let mut secrets = 0;
    if with_secrets {
        // A device's link opens the campaign's pages: it stays in the file it was made for, and a
        // restored campaign links its players' devices anew.
        for (kind, key, value) in store
            .secrets()?
            .into_iter()
            .filter(|(kind, ..)| kind != "device_token")
        {
            writeln!(out, "{}", jsonl::secret_line(&kind, &key, &value)).map_err(io)?;
            secrets += 1;
        }
    }
    out.flush().map_err(io)?;
    Ok((events, secrets))
}

/// Load an export into a new campaign file (the path must not exist yet). Records the exported events exactly as they
/// were, after checking the whole chain: a broken one is refused naming the first bad line, and
/// nothing is imported. Rolls no dice.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A file written by `grimoire export`.
    pub file: PathBuf,
}

pub fn import(g: &Globals, args: &ImportArgs) -> Result<Report, Error> {
    let file = std::fs::File::open(&args.file)
        .and_then(|file| match file.metadata()?.is_dir() {
            // A folder opens; reading it fails with the system's words, so say it first.
            true => Err(std::io::ErrorKind::IsADirectory.into()),
            false => Ok(file),
        })
        .map_err(|e| io_error(&args.file, "read", &e))?;
    let progress = Progress::counter(g, "lines imported");
    let lines = numbered_lines(BufReader::new(file)).inspect(|(number, _)| progress.at(*number));
    let (events, secrets) = crate::campaign::Campaign::import(&g.db, lines)?;
    let head = Store::open(&g.db)?
        .head()?
        .map(|h| h.to_string())
        .unwrap_or_default();
    Ok(Report::new(
        format!(
            "Imported {} and {} into {}; the chain checks out up to {head}.",
            count(events, "event", "events"),
            count(secrets, "secret", "secrets"),
            g.db
        ),
        json!({ "events": events, "secrets": secrets, "head": head, "db": g.db.to_string() }),
    ))
}

/// The file's non-blank lines, numbered from 1; a line too long or not UTF-8 becomes an error.
fn numbered_lines(mut reader: impl BufRead) -> impl Iterator<Item = (u64, Result<String, String>)> {
    let mut number = 0u64;
    std::iter::from_fn(move || {
        loop {
            number += 1;
            let mut bytes = Vec::new();
            let opening = number == 1;
            let read = (&mut reader)
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut bytes);
            match read {
                Ok(0) => return None,
                Err(e) => return Some((number, Err(format!("the file could not be read ({e})")))),
                Ok(_) if bytes.len() as u64 > MAX_LINE_BYTES => {
                    return Some((
                        number,
                        Err(format!("the line is longer than {MAX_LINE_BYTES} bytes")),
                    ));
                }
                // The file given is the campaign itself, a likely slip between two paths.
                Ok(_) if opening && bytes.starts_with(b"SQLite format 3\0") => {
                    return Some((number, Err("this is an SQLite database (a campaign file?), not an export: `grimoire export` writes one, and `grimoire backup` copies a campaign file whole".into())));
                }
                Ok(_) => match String::from_utf8(bytes) {
                    Err(_) => return Some((number, Err("the line is not valid UTF-8".into()))),
                    // Blank as both checkers take it (docs/export.md): JSON's spaces only.
                    Ok(text) if jsonl::is_blank(text.trim_end_matches('\n')) => continue,
                    Ok(text) => {
                        return Some((number, Ok(text.trim_end_matches(['\n', '\r']).to_string())));
                    }
                },
            }
        }
    })
}

/// Copy the whole campaign, the GM's secrets included, into a new SQLite campaign file: a backup
/// taken while others go on writing (it is the log as of one moment), complete or not at all.
/// Records nothing.
///
/// The file is readable by its owner only and is a campaign file like any other: give it as --db to
/// read or verify it, or to play on from it. On PostgreSQL the backup is the same kind of file,
/// read from one consistent snapshot of the campaign.
#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The new file to write; an existing path is refused, so nothing is ever written over.
    pub file: PathBuf,
}

pub fn backup(g: &Globals, args: &BackupArgs) -> Result<Report, Error> {
    let head = super::signals::watching(|stopped| Ok(g.open()?.backup(&args.file, stopped)?));
    let head = head?;
    let shown = args.file.display();
    let (events, head_text) = match &head {
        Some(head) => (head.seq, head.to_string()),
        None => (Seq::START, "(empty)".to_string()),
    };
    Ok(Report::new(
        format!(
            "Backed up {} to {shown} (head {head_text}). It holds the GM's secrets: keep it as safe as the campaign. `grimoire --db {shown} verify --checkpoint {head_text}` checks it.",
            count(events.get(), "event", "events")
        ),
        json!({ "backup": shown.to_string(), "events": events, "head": head.map(|h| h.to_string()) }),
    ))
}

/// Put a backup in the campaign file's place (--db), keeping what it replaces. Records nothing.
///
/// The backup is copied whole under a private name first. Then, only when no other process has
/// the campaign open (stop every `shell` and `serve` on it first), the campaign file and every
/// journal beside it (`-wal`, `-shm`) are moved aside together under the printed names, never
/// deleted, and the copy takes the file's place. A journal a killed process left beside the file
/// thus stays with the file it belongs to; copying a backup into place by hand would not.
/// `grimoire verify --checkpoint SEQ:HASH` then proves the campaign is the history you noted.
#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The backup to restore: a campaign file, as `grimoire backup` writes one.
    pub backup: PathBuf,
}

pub fn restore(g: &Globals, args: &RestoreArgs) -> Result<Report, Error> {
    let into = match &g.db {
        crate::store::Location::File(path) => path.clone(),
        crate::store::Location::Postgres(_) => {
            return Err(Error::Usage(
                "`restore` puts a backup file in a campaign file's place; on PostgreSQL, export the backup (`grimoire --db BACKUP export --with-secrets --out FILE`) and import it into a new campaign".into(),
            ));
        }
    };
    // Through a link, the file it leads to is the campaign (SQLite's journals sit beside it): that
    // is the file set aside and replaced, and the link stays a link.
    let into = crate::store::follow_links(&into).map_err(|why| {
        Error::Store(crate::store::StoreError::Refused {
            path: into.clone(),
            why,
        })
    })?;
    let aside = aside_name(&into);
    let restored = super::signals::watching(|stopped| {
        Ok(crate::store::Store::restore(
            &args.backup,
            &into,
            &aside,
            stopped,
        )?)
    })?;
    let head = restored
        .head
        .as_ref()
        .map_or_else(|| "(empty)".to_string(), ToString::to_string);
    let kept: Vec<String> = restored
        .set_aside
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let kept_words = match kept.as_slice() {
        [] => "There was no campaign file there to set aside.".to_string(),
        [file] => format!("The file it replaced is kept as {file}."),
        [file, journals @ ..] => format!(
            "The file it replaced is kept as {file}, with its journals beside it ({}); nothing was deleted.",
            journals.join(", ")
        ),
    };
    Ok(Report::new(
        format!(
            "Restored {} into {} (head {head}). {kept_words} `grimoire verify --checkpoint {head}` checks it.",
            args.backup.display(),
            into.display(),
        ),
        json!({
            "restored": args.backup.display().to_string(),
            "into": into.display().to_string(),
            "head": restored.head.map(|h| h.to_string()),
            "set_aside": kept,
        }),
    ))
}

/// Where the file a restore replaces is kept: `NAME.replaced-YYYYMMDDTHHMMSSZ`, numbered on when
/// taken (with or without its journals).
fn aside_name(into: &std::path::Path) -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
    let taken = |candidate: &PathBuf| {
        std::iter::once("")
            .chain(["-wal", "-shm", "-journal"])
            .any(|suffix| {
                let mut name = candidate.as_os_str().to_owned();
                name.push(suffix);
                std::path::Path::new(&name).symlink_metadata().is_ok()
            })
    };
    (1..)
        .map(|n| {
            let mut name = into.as_os_str().to_owned();
            match n {
                1 => name.push(format!(".replaced-{stamp}")),
                n => name.push(format!(".replaced-{stamp}-{n}")),
            }
            PathBuf::from(name)
        })
        .find(|candidate| !taken(candidate))
        .unwrap_or_else(|| into.to_path_buf())
}
