//! Helpers: a campaign in a temporary folder, driven through the real binary with time, randomness
//! and actor pinned, so outputs are stable.

use grimoire::store::Store;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tempfile::TempDir;

pub const NOW: &str = "2026-03-14T19:30:00Z";

pub struct Campaign {
    pub dir: TempDir,
    pub db: PathBuf,
}

impl Campaign {
    /// An empty folder; the campaign file does not exist yet.
    pub fn empty() -> Campaign {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("campaign.db");
        Campaign { dir, db }
    }

    /// A copy of the golden file made by the first schema (rollback journal, refinery version 1),
    /// not yet opened by this build.
    pub fn from_the_first_schema() -> Campaign {
        let c = Campaign::empty();
        std::fs::copy(
            concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/golden/schema-v1.db"),
            &c.db,
        )
        .expect("copy the golden file");
        c
    }

    /// Wen (Cunning 14, 500 silver), who knows the Ceremony Calling Moon, and Bryn (Cunning 12), who
    /// does not: enough to write, read and learn from sealed Ceremony scrolls.
    pub fn with_a_ceremony_writer() -> Campaign {
        let c = Campaign::empty();
        c.ok(&["init", "--name", "Rich"]);
        for (name, cunning) in [("Wen", 14), ("Bryn", 12)] {
            c.add_adg(name, 3, cunning, 9, 500);
        }
        c.ok(&learning("Wen", "Calling Moon", "ceremony"));
        c
    }

    /// A campaign with one character of each system.
    pub fn with_party() -> Campaign {
        let c = Campaign::empty();
        c.ok(&["init", "--name", "The Sunken Vault"]);
        c.ok(&ADG_ALDRIC);
        c.ok(&VSD_MIRA);
        c
    }

    /// Adds an A Dungeon Game character with Agility and Brawn 9.
    pub fn add_adg(&self, name: &str, level: u32, cunning: u32, health: u32, silver: u32) {
        let (level, cunning, health, silver) = (
            level.to_string(),
            cunning.to_string(),
            health.to_string(),
            silver.to_string(),
        );
        self.ok(&[
            "character",
            "add",
            "adg",
            name,
            "--level",
            &level,
            "--agility",
            "9",
            "--brawn",
            "9",
            "--cunning",
            &cunning,
            "--health",
            &health,
            "--silver",
            &silver,
        ]);
    }

    /// Another wizard of Against the Darkmaster, Mira's equal ([`VSD_MIRA`]) under `name`.
    pub fn add_wizard(&self, name: &str) {
        let mut add = VSD_MIRA;
        add[2] = name;
        self.ok(&add);
    }

    /// `who` learns `spell`, an elemental spell of Weave `weave`, instantaneous when asked.
    pub fn learns_elemental(&self, who: &str, spell: &str, weave: &str, instantaneous: bool) {
        let mut learn = vec![
            "spell",
            "learn",
            who,
            spell,
            "--lore",
            "Elementalism",
            "--weave",
            weave,
            "--kind",
            "elemental",
        ];
        if instantaneous {
            learn.push("--instantaneous");
        }
        self.ok(&learn);
    }

    /// Mira (of [`Campaign::with_party`]) learns Ember, an elemental spell of Weave `weave`.
    pub fn mira_learns_ember(&self, weave: &str) {
        self.ok(&[
            "spell",
            "learn",
            "Mira",
            "Ember",
            "--lore",
            "Elementalism",
            "--weave",
            weave,
            "--kind",
            "elemental",
        ]);
    }

    /// Mira (of [`Campaign::with_party`]) learns Ember and casts it on a rat (the roll entered: 50),
    /// spending MPs.
    pub fn mira_casts_ember(&self) {
        self.mira_learns_ember("2");
        self.ok(&[
            "--rolls", "50", "spell", "cast", "Mira", "Ember", "--target", "the rat",
        ]);
    }

    pub fn cmd(&self) -> Command {
        grimoire_cmd(&self.db, self.dir.path())
    }

    /// `grimoire shell` on the campaign, started, its standard streams piped to the test.
    pub fn shell(&self) -> std::process::Child {
        self.cmd()
            .arg("shell")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the shell starts")
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().expect("grimoire runs")
    }

    /// Runs a command that must succeed; returns its stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        // With --json an error is printed on stdout.
        assert!(
            out.status.success(),
            "{args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8(out.stdout).expect("utf-8 output")
    }

    /// Runs a command that must fail with `code` and leave the log exactly as it was; returns stderr.
    pub fn refused(&self, args: &[&str], code: i32) -> String {
        let before = self.head();
        let out = self.run(args);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: expected exit {code}; stderr: {stderr}"
        );
        assert!(
            stderr.starts_with("error: "),
            "{args:?}: message missing: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
        assert_eq!(self.head(), before, "{args:?} changed the log");
        stderr
    }

    /// The chain head as `SEQ:HASH`, or `None` when there is no campaign file.
    pub fn head(&self) -> Option<String> {
        if !self.db.exists() {
            return None;
        }
        Store::open(&self.db)
            .ok()?
            .head()
            .ok()?
            .map(|h| h.to_string())
    }

    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        serde_json::from_str(&self.ok(&all)).expect("valid JSON")
    }

    /// The seq of the first event a recording command appended (run with --json).
    /// `who` writes a first-level scroll of a phrase they know, its seven nights' recovery dice
    /// entered as 1s; returns the scroll's id (its event's seq).
    pub fn write_scroll(&self, who: &str, ritual: &str, effect: &str) -> u64 {
        let rolls = ["1"; 7].join(",");
        let args = [
            "--rolls", &rolls, "scroll", "write", who, ritual, "--level", "1", "--effect", effect,
        ];
        self.json(&args)["scroll"].as_u64().expect("a scroll id")
    }

    /// The events `log` gives with `args`, as its JSON lists them.
    pub fn logged(&self, args: &[&str]) -> Vec<serde_json::Value> {
        let mut all = vec!["log"];
        all.extend_from_slice(args);
        self.json(&all)["events"]
            .as_array()
            .cloned()
            .expect("the events")
    }

    pub fn seq_of(&self, args: &[&str]) -> u64 {
        self.json(args)["appended"][0]["seq"]
            .as_u64()
            .expect("a seq")
    }

    /// Exports the whole log with the GM's secrets to `all.jsonl` in the campaign's folder.
    pub fn export_all(&self) -> std::path::PathBuf {
        let export = self.dir.path().join("all.jsonl");
        self.ok(&[
            "export",
            "--with-secrets",
            "--out",
            export.to_str().unwrap(),
        ]);
        export
    }

    /// A new campaign imported from a full export of this one.
    pub fn restored(&self) -> Campaign {
        let export = self.export_all();
        let restored = Campaign::empty();
        restored.ok(&["import", export.to_str().unwrap()]);
        restored
    }

    /// Opens the raw SQLite file, as a tamperer would.
    pub fn sql(&self) -> rusqlite::Connection {
        rusqlite::Connection::open(&self.db).expect("open raw")
    }

    /// Records `args` again and again until the campaign holds a snapshot.
    pub fn until_a_snapshot(&self, args: &[&str]) {
        let snapshots = || {
            self.sql()
                .query_row("SELECT count(*) FROM snapshots", [], |r| r.get::<_, i64>(0))
                .unwrap()
        };
        while snapshots() == 0 {
            self.ok(args);
        }
    }
}

/// The sample A Dungeon Game tables, as a tables file holds them.
pub fn sample_tables() -> serde_json::Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/tables/adg-sample.json"
    ))
    .expect("the sample tables file");
    serde_json::from_str(&text).expect("the sample tables are JSON")
}

pub fn grimoire_cmd(db: &Path, cwd: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grimoire"));
    cmd.current_dir(cwd)
        .env("GRIMOIRE_DB", db)
        .env("GRIMOIRE_NOW", NOW)
        .env("GRIMOIRE_RANDOMNESS_SEED", "7")
        .env("GRIMOIRE_ACTOR", "gm");
    cmd
}

/// The arguments for `name` to learn `ritual` of type `kind`, paying 1 maximum health (the d3
/// entered: 1) and passing the d20 check with a 3.
pub fn learning<'a>(name: &'a str, ritual: &'a str, kind: &'a str) -> [&'a str; 10] {
    [
        "--rolls", "1,3", "ritual", "learn", name, ritual, "--type", kind, "--pay", "health",
    ]
}

/// Aldric learns Shadow Step, a first-level spell from another game (the d20 entered: 3).
pub const LEARN_SHADOW_STEP: [&str; 14] = [
    "--rolls",
    "3",
    "ritual",
    "learn",
    "Aldric",
    "Shadow Step",
    "--spell-level",
    "1",
    "--cast-time",
    "action",
    "--duration",
    "1h",
    "--pay",
    "health",
];

pub const ADG_ALDRIC: [&str; 16] = [
    "character",
    "add",
    "Aldric",
    "--system",
    "adg",
    "--level",
    "2",
    "--agility",
    "11",
    "--brawn",
    "9",
    "--cunning",
    "13",
    "--health",
    "8",
    "--silver=40",
];

pub const VSD_MIRA: [&str; 24] = [
    "character",
    "add",
    "Mira",
    "--system",
    "vsd",
    "--level",
    "3",
    "--vocation",
    "wizard",
    "--lore",
    "Elementalism=45:6",
    "--mp",
    "12",
    "--drive",
    "3",
    "--body",
    "40",
    "--wsr",
    "20",
    "--defense",
    "10",
    "--health",
    "14",
    "--lore=Divination=20:3",
];

/// Mira learns Flame Ward: Elementalism, Weave 2, defensive, for 10 minutes.
/// Mira learns Sleep, an enchantment its target may save against.
/// Tom, a VsD warrior with Willpower save bonus 5: a target for saves.
pub const VSD_TOM: [&str; 21] = [
    "character",
    "add",
    "Tom",
    "--system",
    "vsd",
    "--level",
    "5",
    "--vocation",
    "warrior",
    "--lore",
    "Elementalism=10:6",
    "--mp",
    "12",
    "--drive",
    "2",
    "--body",
    "50",
    "--wsr",
    "5",
    "--defense",
    "20",
];

/// Mira learns Fire Bolt (W2 elemental bolt).
pub const LEARN_FIRE_BOLT: [&str; 12] = [
    "spell",
    "learn",
    "Mira",
    "Fire Bolt",
    "--lore",
    "Elementalism",
    "--weave",
    "2",
    "--kind",
    "elemental",
    "--attack",
    "bolt",
];

/// Wen writes a Ceremony scroll of Calling Moon at level 2 (see [`Campaign::with_a_ceremony_writer`]):
/// its check is sealed, seeded from the epoch's seed for sealed dice.
pub const WRITE_CEREMONY: [&str; 8] = [
    "scroll",
    "write",
    "Wen",
    "Calling Moon",
    "--level",
    "2",
    "--effect",
    "summons fog",
];

pub const LEARN_SLEEP: [&str; 13] = [
    "spell",
    "learn",
    "Mira",
    "Sleep",
    "--lore",
    "Elementalism",
    "--weave",
    "1",
    "--kind",
    "enchantment",
    "--save",
    "--duration",
    "10m",
];

pub const LEARN_FLAME_WARD: [&str; 12] = [
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
];
