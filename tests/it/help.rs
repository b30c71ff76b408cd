//! The help people read at the table, kept whole: every command's `--help` and `-h`, and every
//! refusal clap words for a value it cannot take, as one golden. A change to the command line's
//! shape (how it is defined, where its words live) must leave what people read as it was, or show
//! here as a reviewed difference.

use clap::Command;

fn every_path(command: &Command, path: &str, out: &mut Vec<(String, Command)>) {
    out.push((path.to_string(), command.clone()));
    for sub in command.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        every_path(sub, format!("{path} {}", sub.get_name()).trim(), out);
    }
}

#[test]
fn every_help_text_reads_as_before() {
    let mut root = grimoire::cli::definitions();
    root.build();
    let mut paths = Vec::new();
    every_path(&root, "", &mut paths);
    // By path, so the golden does not depend on the order commands were added in (help lists them
    // in its own display order, which the golden holds).
    paths.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(paths.len() > 60, "{} paths", paths.len());
    let mut text = String::new();
    for (path, mut command) in paths {
        text.push_str(&format!("===== grimoire {path} --help\n"));
        text.push_str(&command.render_long_help().to_string());
        text.push_str(&format!("===== grimoire {path} -h\n"));
        text.push_str(&command.render_help().to_string());
    }
    insta::assert_snapshot!("every_help_text", text);
}

/// What clap says to a value a command cannot take, or to a command line missing a part: the
/// words a player meets when they mistype, for every kind of argument the rule systems define.
#[test]
fn every_kind_of_mistyped_value_reads_as_before() {
    const LINES: &[&str] = &[
        "ritual learn Aldric Veil --pay luck",
        "ritual learn Aldric Veil --pay health --spell-level 1",
        "ritual learn Aldric Veil --pay health --cast-time soon --spell-level 1 --duration 1h",
        "ritual learn Aldric Veil --pay health --spell-level 1 --cast-time 1r --duration forever",
        "ritual cast Aldric Veil --effect damage",
        "ritual cast Aldric Veil --reverse three",
        "ritual cast Aldric Veil --damage-taken -1",
        "ritual roll",
        "exert Aldric luck 1 --reason x",
        "exert Aldric cunning 0 --reason x",
        "exert Aldric cunning 1",
        "silver Aldric 1000000001 --reason x",
        "silver Aldric ten --reason x",
        "scroll write Aldric Veil --level 1",
        "scroll write Aldric Veil --level x --effect y",
        "scroll read Aldric X12",
        "scroll learn Aldric S1 --pay cunning --sealed 3",
        "scroll give S1",
        "scroll list Aldric --at never",
        "tables load",
        "tables show extra",
        "spell learn Mira Bolt --lore Fire --weave 51 --kind elemental",
        "spell learn Mira Bolt --lore Fire --weave 5 --kind nonsense",
        "spell learn Mira Bolt --lore Fire --weave 5 --kind elemental --tags attack,loud",
        "spell learn Mira Bolt --lore Fire --weave 5 --kind elemental --duration soon",
        "spell concentrate Mira",
        "spell cast Mira Bolt",
        "spell cast Mira Bolt --target troll --range nowhere",
        "spell cast Mira Bolt --target troll --overcast ritual",
        "spell cast Mira Bolt --target troll --with Aldric",
        "spell cast Mira Bolt --target troll --place holy",
        "choose Mira",
        "choose Mira a b c",
        "save troll --cast x",
        "save troll",
        "resonance sever",
        "alignment set up",
        "setting sever-the-thread maybe",
        "setting quiet on",
        "drive Mira 100 --reason x",
        "drive Mira +1",
        "condition Mira open stunned",
        "condition Mira clear tired",
        "character add adg Aldric --level x --agility 9 --brawn 9 --cunning 9 --health 4",
        "character add adg Aldric --level 1",
        "character add vsd Mira --level 1 --vocation wizard --mp 1 --drive 1 --body 1 --wsr 1 --defense 1 --lore Fire",
        "character add gnome Pip",
        "character set Aldric --lore Fire",
        "character set Aldric --silver -1",
        "character level-up Aldric --mp x",
    ];
    let mut text = String::new();
    for line in LINES {
        let argv = std::iter::once("grimoire").chain(line.split(' '));
        let said = match grimoire::cli::definitions().try_get_matches_from(argv) {
            Ok(_) => "(parsed)\n".to_string(),
            Err(e) => e.render().to_string(),
        };
        text.push_str(&format!("===== grimoire {line}\n{said}"));
    }
    insta::assert_snapshot!("every_mistyped_value", text);
}

/// The command line is first read with only the command it names (`cli::parse_from`), for a quick
/// start; it must read every line exactly as the definitions people read do: each example, each
/// with options before and after its command, and lines where a word only looks like a command.
#[test]
fn the_quick_reading_of_a_command_line_reads_it_as_the_whole_definitions_do() {
    let mut lines: Vec<Vec<String>> = Vec::new();
    for (_, examples) in grimoire::cli::examples::every_example() {
        for example in examples {
            let words = shell_words::split(example.split(" > ").next().unwrap()).unwrap();
            let after: Vec<String> = words[1..].to_vec();
            lines.push(after.clone());
            lines.push([&["--db".to_string(), "x.db".into()], after.as_slice()].concat());
            lines.push(
                [
                    after.as_slice(),
                    &["--json".to_string(), "--actor".into(), "Bea".into()],
                ]
                .concat(),
            );
        }
    }
    for line in [
        "--actor damage heal Aldric 3",
        "--db damage damage Aldric 3",
        "--actor roll roll d20",
        "heal --db damage Aldric 3",
        "damage",
        "damage Aldric",
        "damage Aldric 3 4",
        "dam Aldric 3",
        "help damage",
        "damage --help",
        "--version",
        "character",
        "character add",
        "character show Aldric --at 3",
        "session end --actor session",
        "--json --json damage Aldric 3",
        "--actor damage",
        "--db heal",
        "--json --actor roll",
        "",
    ] {
        lines.push(line.split_whitespace().map(String::from).collect());
    }
    for line in &lines {
        let argv: Vec<std::ffi::OsString> = std::iter::once("grimoire".into())
            .chain(line.iter().map(Into::into))
            .collect();
        let quick = grimoire::cli::parse_from(argv.clone());
        let whole = grimoire::cli::definitions()
            .try_get_matches_from(&argv)
            .and_then(|matches| grimoire::cli::parsed(&matches));
        match (quick, whole) {
            (Ok(quick), Ok(whole)) => {
                assert_eq!(format!("{quick:?}"), format!("{whole:?}"), "{line:?}")
            }
            (Err(quick), Err(whole)) => assert_eq!(
                quick.render().to_string(),
                whole.render().to_string(),
                "{line:?}"
            ),
            (quick, whole) => panic!("{line:?} read otherwise: {quick:?} against {whole:?}"),
        }
    }
}
