//! A Dungeon Game's commands as people type them (see `contract::command`): the help is the
//! table's manual, and says what each command records and in what order it draws dice.

use super::Adg;
use super::event::EffectKind;
use super::rules::{
    AdgCommand, AdgError, AdgTables, Attribute, Casting, ExactChoice, Exertion, Learning,
    MAX_SILVER, Pay, Reverse, RitualKind, Scribing, ScrollGift, ScrollLearning, ScrollReading,
    SigilTrigger, SilverChange,
};
use super::sheet::AdgSheet;
use crate::systems::contract::command::{
    Action, ArgSpec, CommandSpec, GroupSpec, Kind, SheetSpec, SystemCommands, words_of,
};

mod given;
use given::*;

impl SystemCommands for Adg {
    fn commands() -> &'static [CommandSpec<Adg>] {
        COMMANDS
    }

    fn groups() -> &'static [GroupSpec] {
        GROUPS
    }

    fn sheet_spec() -> Option<&'static SheetSpec<Adg>> {
        Some(&SHEET)
    }

    fn hint(error: &AdgError) -> Option<String> {
        Some(match error {
            AdgError::RestsByNight(_) => ": use --night".into(),
            AdgError::NoAdgTables => "; add an ADG character or `grimoire tables load FILE`".into(),
            AdgError::RollPending { name, .. } => {
                let name = shell_words::quote(name);
                format!("; roll them first with `grimoire scroll resolve {name}`")
            }
            AdgError::EffectWithoutTarget => ": give --target NAME with --effect".into(),
            AdgError::BeyondSafeRituals { name, .. } | AdgError::LockedOut(name) => {
                format!(" (`grimoire rest {} --night`)", shell_words::quote(name))
            }
            AdgError::RitualKindNeeded => {
                "; give --type, or --spell-level, --cast-time and --duration".into()
            }
            AdgError::NothingToExertFor => " (--pre-exert)".into(),
            AdgError::NoSuchScroll(_) => "; `grimoire scroll list` shows them".into(),
            AdgError::TargetWithoutRoll(_) => "; leave out --target".into(),
            _ => return None,
        })
    }
}

const GROUPS: &[GroupSpec] = &[
    GroupSpec {
        name: "ritual",
        help: "A Dungeon Game: discover, learn and cast rituals.",
    },
    GroupSpec {
        name: "scroll",
        help: "A Dungeon Game: write, read, learn from, give and list scrolls.",
    },
    GroupSpec {
        name: "tables",
        help: "A Dungeon Game: show or load the word lists, mishap table, scroll costs and house \
               rules.",
    },
];

const RITUAL_KNOWN: ArgSpec = ArgSpec::positional(
    "ritual",
    "The ritual, as the character knows it (any case).",
    Kind::Text,
);

const SCROLL: ArgSpec = ArgSpec::positional(
    "scroll",
    "The scroll's id (S12 or 12).",
    Kind::Checked(|t| scroll_id(t).map(|_| ())),
);

const PAY: ArgSpec = ArgSpec::flag(
    "pay",
    "What pays the cost: maximum health or one attribute's maximum.",
    Kind::Choice(words_of::<Pay>),
);

const COMMANDS: &[CommandSpec<Adg>] = &[
    CommandSpec {
        path: "ritual roll",
        help: "Discover a new ritual: draws two d20s, one on each word list, and records the ritual \
               found (not yet learned).",
        args: &[ArgSpec::character()],
        examples: &["grimoire ritual roll Aldric"],
        action: records(true, |g| Ok(AdgCommand::RollRitual(who(g)?))),
    },
    CommandSpec {
        path: "ritual learn",
        help: "Try to learn a ritual (ADG-R3): pay the cost permanently, then roll a d20 at or \
               under Cunning. Failure loses the ritual forever; a maximum brought to 0 kills the \
               character.\n\n\
               Dice, in order: the 1d3 cost (none for a spell with --spell-level 1 or more, which \
               costs its level), then the d20 learning check.",
        args: &[
            ArgSpec::character(),
            ArgSpec::positional(
                "ritual",
                "The ritual, e.g. \"Concealing Darkness\" (as discovered), or a spell's name.",
                Kind::Text,
            ),
            ArgSpec::flag(
                "kind",
                "The ritual's type; for a spell from another game it is worked out from \
                 --cast-time and --duration.",
                Kind::Choice(words_of::<RitualKind>),
            )
            .long_as("type")
            .optional(),
            PAY,
            ArgSpec::switch(
                "exert",
                "If the check fails, exert exactly the Cunning needed to succeed (when Cunning \
                 stays at 1 or more).",
            ),
            ArgSpec::flag(
                "spell_level",
                "A spell from another game: its level (0 if it has none).",
                Kind::Whole { min: 0, max: 20 },
            )
            .optional()
            .requires(&["cast_time", "duration"]),
            ArgSpec::flag(
                "cast_time",
                "The spell's casting time: action, 1r (one round), 3r (rounds), or 10m, 1h, … for \
                 longer.",
                Kind::Checked(|t| cast_time(t).map(|_| ())),
            )
            .optional()
            .requires(&["spell_level"]),
            ArgSpec::flag(
                "duration",
                "The spell's duration: instant, or 5m, 1h, 1d, …",
                Kind::Checked(|t| spell_duration(t).map(|_| ())),
            )
            .optional()
            .requires(&["spell_level"]),
        ],
        examples: &[
            "grimoire ritual learn Aldric \"Concealing Darkness\" --type phrase --pay health",
        ],
        action: records(true, |g| {
            Ok(AdgCommand::Learn(Learning {
                character: g.text("character")?,
                ritual: g.text("ritual")?,
                kind: g.maybe_word("kind")?,
                pay: g.word("pay")?,
                exert: g.switch("exert"),
                spell_level: g.maybe_read("spell_level")?,
                cast_time: g.maybe_with("cast_time", cast_time)?,
                duration: g.maybe_with("duration", spell_duration)?,
            }))
        }),
    },
    CommandSpec {
        path: "ritual cast",
        help: "Cast a known ritual (ADG-R4 to ADG-R9): a d20 at or under current Cunning. An \
               exact roll doubles duration or effect; a failure brings a mishap (2d6 + the \
               difference). Beyond the safe number per day, the k-th extra ritual first costs k \
               Cunning, and a mishap on it locks the caster out until a night's rest.\n\n\
               Dice, in order: 1d3 Cunning if both words are reversed, the d20 casting check, \
               then on success Level d6 (with --effect), or on failure the mishap's 2d6 followed \
               by the dice its entry needs.",
        args: &[
            ArgSpec::character(),
            RITUAL_KNOWN,
            ArgSpec::flag(
                "reverse",
                "Reverse one word (free) or both (costs 1d3 Cunning first).",
                Kind::Choice(words_of::<Reverse>),
            )
            .optional(),
            ArgSpec::flag(
                "damage_taken",
                "Damage taken earlier this combat round: the roll must then also be above it.",
                Kind::U32,
            )
            .value_name("N")
            .optional(),
            ArgSpec::switch(
                "moved",
                "The caster moved this round (casting is then refused).",
            ),
            ArgSpec::flag(
                "effect",
                "The ritual damages or heals: roll Level d6 against --target.",
                Kind::Choice(words_of::<EffectKind>),
            )
            .optional()
            .requires(&["target"]),
            ArgSpec::flag(
                "target",
                "Who the damage or healing goes to (a character's name updates their health).",
                Kind::Text,
            )
            .optional()
            .requires(&["effect"]),
            ArgSpec::flag(
                "exact",
                "On an exact roll, double the duration (default) or the effect.",
                Kind::Choice(words_of::<ExactChoice>),
            )
            .optional(),
            ArgSpec::switch(
                "exert",
                "If the check fails, exert exactly the Cunning needed to succeed.",
            ),
            ArgSpec::flag(
                "when",
                "A Sigil drawn to go off later: \"at will\", or the condition that sets it off. \
                 It waits for `ritual trigger`, which rolls its damage or healing.",
                Kind::Text,
            )
            .optional(),
            ArgSpec::flag(
                "took",
                "How long a Ceremony took to perform: 1h or more (1h when not given). The clock \
                 moves on by it; a Sigil's drawing moves it a minute.",
                Kind::Checked(|t| performing_time(t).map(|_| ())),
            )
            .value_name("DURATION")
            .optional(),
        ],
        examples: &[
            "grimoire ritual cast Aldric \"Concealing Darkness\"",
            "grimoire ritual cast Aldric \"Warding Glyph\" --when \"a door opens\"",
            "grimoire ritual cast Aldric \"Binding Circle\" --took 3h",
            "grimoire --rolls 14,3,5 ritual cast Aldric Fireball --effect damage --target \"the ghoul\"",
        ],
        action: records(true, |g| {
            Ok(AdgCommand::Cast(Casting {
                character: g.text("character")?,
                ritual: g.text("ritual")?,
                order: cast_order(g)?,
            }))
        }),
    },
    CommandSpec {
        path: "ritual trigger",
        help: "Set off a Sigil drawn to wait (`ritual cast … --when`): its effect begins now and \
               lasts ten minutes per Adventurer Level (ADG-R1). Of several of one ritual waiting, \
               the first drawn goes off.\n\n\
               Dice: with a damage or healing effect, Level d6 (twice as many on an exact \
               effect).",
        args: &[ArgSpec::character(), RITUAL_KNOWN],
        examples: &["grimoire ritual trigger Aldric \"Warding Glyph\""],
        action: records(true, |g| {
            Ok(AdgCommand::Trigger(SigilTrigger {
                character: g.text("character")?,
                ritual: g.text("ritual")?,
            }))
        }),
    },
    CommandSpec {
        path: "exert",
        help: "Exert an attribute (ADG-C3): its current value drops until recovered. Refused if it \
               would go below 1. Rolls no dice.",
        args: &[
            ArgSpec::character(),
            ArgSpec::positional(
                "attribute",
                "The attribute exerted.",
                Kind::Choice(words_of::<Attribute>),
            ),
            ArgSpec::positional(
                "amount",
                "How many points, 1 to 100.",
                Kind::Whole { min: 1, max: 100 },
            ),
            ArgSpec::reason(),
        ],
        examples: &["grimoire exert Aldric brawn 2 --reason \"forcing the gate\""],
        action: records(false, |g| {
            Ok(AdgCommand::Exert(Exertion {
                character: g.text("character")?,
                attribute: g.word("attribute")?,
                amount: g.read("amount")?,
                reason: g.text("reason")?,
            }))
        }),
    },
    CommandSpec {
        path: "silver",
        help: "Record silver gained or spent (ADG-C2): loot, pay, anything bought but a scroll \
               (writing one pays its own cost). Spending more than the purse holds is refused. \
               Rolls no dice.",
        args: &[
            ArgSpec::character(),
            ArgSpec::positional(
                "delta",
                "The change, e.g. +30 (gained) or -12 (spent).",
                Kind::Whole {
                    min: -MAX_SILVER,
                    max: MAX_SILVER,
                },
            ),
            ArgSpec::reason(),
        ],
        examples: &[
            "grimoire silver Aldric +30 --reason \"the crypt's offering bowl\"",
            "grimoire silver Aldric -12 --reason rope",
        ],
        action: Action::Records {
            rolls: false,
            build: |g| {
                Ok(AdgCommand::Silver(SilverChange {
                    character: g.text("character")?,
                    delta: g.read("delta")?,
                    reason: g.text("reason")?,
                }))
            },
            then: Some(silver_now),
        },
    },
    CommandSpec {
        path: "scroll write",
        help: "Spend one downtime week writing a scroll of a known ritual (ADG-S1 to ADG-S4): the \
               clock moves 7 days, silver is paid from the cost table (by SL and the ritual's \
               type), and exertion does not recover that week. The scroll's id is printed (S and \
               the event number).\n\n\
               The week's seven nights heal by the writer's recovery die and end the daily ritual \
               count and any lockout; exerted points do not recover while scribing.\n\n\
               Dice: for a Ceremony only, the GM's sealed d20 check (revealed when the scroll is \
               first used), then one recovery die per night, seven in all.",
        args: &[
            ArgSpec::character(),
            RITUAL_KNOWN,
            ArgSpec::flag(
                "level",
                "Scroll Level, 1 up to the writer's level.",
                Kind::U32,
            ),
            ArgSpec::flag("effect", "The exact effect, fixed now.", Kind::Text),
            ArgSpec::flag(
                "effect_roll",
                "If the scroll damages or heals: it rolls SL d6 when read.",
                Kind::Choice(words_of::<EffectKind>),
            )
            .long_as("roll")
            .value_name("ROLL")
            .optional(),
            ArgSpec::flag(
                "pre_exert",
                "Ceremony only: Cunning exerted before the GM's check, spent whatever happens.",
                Kind::U32,
            )
            .default("0"),
            ArgSpec::switch(
                "ongoing",
                "The effect lasts once read: 10 minutes × SL on the reader's sheet. A Sigil's or \
                 a Ceremony's effect lasts anyway.",
            ),
        ],
        examples: &[
            "grimoire scroll write Aldric \"Calling Moon\" --level 2 --effect \"fog over the harbour\"",
        ],
        action: Action::Records {
            rolls: true,
            build: |g| {
                Ok(AdgCommand::WriteScroll(Scribing {
                    character: g.text("character")?,
                    ritual: g.text("ritual")?,
                    level: g.read("level")?,
                    effect: g.text("effect")?,
                    effect_roll: g.maybe_word("effect_roll")?,
                    pre_exert: g.read("pre_exert")?,
                    ongoing: g.switch("ongoing"),
                }))
            },
            then: Some(scroll_written),
        },
    },
    CommandSpec {
        path: "scroll read",
        help: "Read a scroll (anyone can; it uses none of the daily rituals). In combat it takes \
               the whole round.\n\n\
               Dice, in order: with --took-damage an Agility save d20 and, if failed, the \
               damaged-scrolls d20 and its entry's dice; for a damage or healing scroll without a \
               sealed check, SL d6; then, unless damaged, the reuse d20. A Ceremony scroll's \
               sealed check is opened and recorded, and what depends on it (a mishap, or the \
               damage or healing) waits for `scroll resolve`.",
        args: &[
            ArgSpec::character(),
            SCROLL,
            ArgSpec::switch(
                "in_combat",
                "Read in combat: it takes the whole round and the reader acts last.",
            ),
            ArgSpec::switch(
                "took_damage",
                "The reader took damage this round (implies --in-combat).",
            ),
            ArgSpec::flag(
                "target",
                "Who the damage or healing goes to (default: the reader, for healing).",
                Kind::Text,
            )
            .optional(),
        ],
        examples: &[
            "grimoire scroll read Aldric S12",
            "grimoire scroll read Aldric S12 --in-combat",
        ],
        action: records(true, |g| {
            Ok(AdgCommand::ReadScroll(ScrollReading {
                character: g.text("character")?,
                scroll: scroll_id(&g.text("scroll")?)?,
                in_combat: g.switch("in_combat"),
                took_damage: g.switch("took_damage"),
                target: g.maybe("target").map(str::to_string),
                sealed: Vec::new(),
            }))
        }),
    },
    CommandSpec {
        path: "scroll learn",
        help: "Learn the ritual on a scroll one holds (ADG-S8): as `ritual learn`, with an extra \
               d20 after the cost — strictly between SL and Cunning continues, otherwise the \
               scroll is cast by accident first.\n\n\
               Dice, in order: the 1d3 cost, the scroll d20, any accidental reading's dice, the \
               d20 learning check.",
        args: &[
            ArgSpec::character(),
            SCROLL,
            PAY,
            ArgSpec::switch(
                "exert",
                "If the learning check fails, exert exactly the Cunning needed to succeed (when \
                 Cunning stays at 1 or more).",
            ),
        ],
        examples: &["grimoire scroll learn Bryn S12 --pay cunning"],
        action: records(true, |g| {
            Ok(AdgCommand::LearnScroll(ScrollLearning {
                character: g.text("character")?,
                scroll: scroll_id(&g.text("scroll")?)?,
                pay: g.word("pay")?,
                exert: g.switch("exert"),
                sealed: Vec::new(),
            }))
        }),
    },
    CommandSpec {
        path: "scroll give",
        help: "Hand a scroll to another character. Rolls no dice.",
        args: &[
            SCROLL,
            ArgSpec::positional(
                "to",
                "The character who receives it (any case).",
                Kind::Text,
            ),
        ],
        examples: &["grimoire scroll give S12 Bryn"],
        action: records(false, |g| {
            Ok(AdgCommand::GiveScroll(ScrollGift {
                scroll: scroll_id(&g.text("scroll")?)?,
                to: g.text("to")?,
            }))
        }),
    },
    CommandSpec {
        path: "scroll list",
        help: "List scrolls, or those one character holds. Records nothing.",
        args: &[
            ArgSpec::positional("name", "The character's name (any case).", Kind::Text).optional(),
        ],
        examples: &[
            "grimoire scroll list",
            "grimoire scroll list Aldric --at session:1",
        ],
        action: Action::Reads {
            at: true,
            read: scroll_list,
        },
    },
    CommandSpec {
        path: "scroll resolve",
        help: "Roll what reading a Ceremony scroll left pending: its mishap if the GM's sealed \
               check failed, or its damage or healing if the check passed.\n\n\
               Those dice depend on the sealed check, so the reading records the check first and \
               leaves them on the reader, who does nothing else until they are rolled. Dice, in \
               order: the mishap's 2d6 and its entry's dice, or SL d6 of damage or healing.",
        args: &[ArgSpec::character()],
        examples: &["grimoire scroll resolve Aldric"],
        action: records(true, |g| Ok(AdgCommand::ResolvePending(who(g)?))),
    },
    CommandSpec {
        path: "tables show",
        help: "Show the A Dungeon Game tables in force. Records nothing.",
        args: &[],
        examples: &["grimoire tables show"],
        action: Action::Reads {
            at: false,
            read: tables_show,
        },
    },
    CommandSpec {
        path: "tables load",
        help: "Load tables from a JSON file (format in README.md); recorded whole in the log, so \
               later edits to the file change nothing. Rolls no dice.",
        args: &[ArgSpec::positional(
            "file",
            "The JSON file to load.",
            Kind::File,
        )],
        examples: &["grimoire tables load my-tables.json"],
        action: records(false, |g| {
            let file = g.file("file")?;
            let tables = AdgTables::parse(&file.text).map_err(|e| format!("{}: {e}", file.path))?;
            Ok(AdgCommand::LoadTables {
                source: file.path.clone(),
                tables: Box::new(tables),
            })
        }),
    },
];

/// A Dungeon Game's sheet as people enter and change it.
static SHEET: SheetSpec<Adg> = SheetSpec {
    help: "Add an A Dungeon Game character (rituals and scrolls). Records the sheet; rolls no \
           dice.",
    fields: &[
        ArgSpec::flag("level", "Adventurer Level, 1 to 10.", Kind::U32),
        ArgSpec::flag("agility", "Agility.", Kind::U32),
        ArgSpec::flag("brawn", "Brawn.", Kind::U32),
        ArgSpec::flag("cunning", "Cunning.", Kind::U32),
        ArgSpec::flag("health", "Maximum health.", Kind::U32),
        ArgSpec::flag("silver", "Silver on hand.", Kind::U64).default("0"),
        ArgSpec::flag(
            "knows",
            "A ritual the character starts play knowing, learned before the campaign at no cost, \
             as NAME=KIND (phrase, sigil or ceremony). Repeat for each.",
            Kind::Checked(|t| starting_ritual(t).map(|_| ())),
        )
        .value_name("NAME=KIND")
        .repeated(),
    ],
    examples: &[
        "grimoire character add adg Aldric --level 2 --agility 11 --brawn 9 --cunning 13 --health 8 --silver 40",
    ],
    entered: |g| {
        Ok(AdgSheet {
            level: g.read("level")?,
            agility: g.read("agility")?,
            brawn: g.read("brawn")?,
            cunning: g.read("cunning")?,
            health: g.read("health")?,
            silver: g.maybe_read("silver")?.unwrap_or(0),
            knows: g
                .all("knows")
                .iter()
                .map(|t| starting_ritual(t))
                .collect::<Result<_, _>>()?,
        })
    },
    set_flags: &[
        ArgSpec::flag("level", "Level.", Kind::U32).optional(),
        ArgSpec::flag("health", "Maximum health.", Kind::U32).optional(),
        ArgSpec::flag("agility", "A Dungeon Game: Agility.", Kind::U32).optional(),
        ArgSpec::flag("brawn", "A Dungeon Game: Brawn.", Kind::U32).optional(),
        ArgSpec::flag("cunning", "A Dungeon Game: Cunning.", Kind::U32).optional(),
        ArgSpec::flag(
            "silver",
            "A Dungeon Game: silver as entered (for loot and purchases, use `silver`).",
            Kind::U64,
        )
        .optional(),
    ],
    set: |sheet, g| {
        Ok(AdgSheet {
            level: g.maybe_read("level")?.unwrap_or(sheet.level),
            health: g.maybe_read("health")?.unwrap_or(sheet.health),
            agility: g.maybe_read("agility")?.unwrap_or(sheet.agility),
            brawn: g.maybe_read("brawn")?.unwrap_or(sheet.brawn),
            cunning: g.maybe_read("cunning")?.unwrap_or(sheet.cunning),
            silver: g.maybe_read("silver")?.unwrap_or(sheet.silver),
            // What a character knew at the start is not corrected: play has built on it.
            knows: sheet.knows.clone(),
        })
    },
    level_up_flags: &[ArgSpec::flag("health", "Health the level brings.", Kind::U32).default("0")],
    level_up: |sheet, g| {
        let health: u32 = g.read("health")?;
        Ok(AdgSheet {
            level: sheet.level + 1,
            health: sheet.health.saturating_add(health),
            ..sheet.clone()
        })
    },
};
