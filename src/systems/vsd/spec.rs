//! Against the Darkmaster's commands as people type them (see `contract::command`): the help is
//! the table's manual, and says what each command records and in what order it draws dice.

use super::Vsd;
use super::rules::{
    Alignment, Assessment, AttackKind, CastOrder, Casting, Choice, Choosing, Concentration,
    Condition, ConditionAction, ConditionClearing, DriveChange, Firing, NewSpell, OvercastMethod,
    Place, Range, SaveRoll, SpellKind, SpellLearning, Tag, VsdCommand, VsdError,
};
use super::sheet::{Lore, VsdSheet};
use crate::seq::Seq;
use crate::systems::contract::command::{
    Action, ArgSpec, CommandSpec, Given, GroupSpec, Kind, SheetSpec, SystemCommands, words_of,
};
use crate::systems::contract::rules::Who;
use crate::time::GameDuration;
use crate::words::Words;

impl SystemCommands for Vsd {
    fn commands() -> &'static [CommandSpec<Vsd>] {
        COMMANDS
    }

    fn groups() -> &'static [GroupSpec] {
        GROUPS
    }

    fn sheet_spec() -> Option<&'static SheetSpec<Vsd>> {
        Some(&SHEET)
    }

    fn hint(error: &VsdError) -> Option<String> {
        Some(match error {
            VsdError::RitualWithoutCasters => ": name them with --with NAME,NAME".into(),
            VsdError::RoundUsed(_) => {
                "; the next round begins with `grimoire next` in a fight, else `grimoire time advance 1r`"
                    .into()
            }
            VsdError::OtherTargetUnnamed(_) => {
                "; name them with --target NAME (the GM picks, or rolls among those in range)".into()
            }
            VsdError::TargetWithoutOtherTarget => "; leave out --target".into(),
            VsdError::ChoicePending(name) => {
                let name = shell_words::quote(name);
                format!(
                    "; `grimoire character show {name}` lists it, `grimoire choose {name}` makes it"
                )
            }
            VsdError::WeaveAboveLevel { .. } => {
                ": overcast it with --overcast ritual --with NAMES or --overcast sacrifice".into()
            }
            VsdError::WsrNeeded(_) => "; give it with --wsr N".into(),
            VsdError::WsrOfTheirOwn { .. } => "; leave out --wsr".into(),
            VsdError::SeverOff => {
                "; the GM turns it on with `grimoire setting sever-the-thread on`".into()
            }
            _ => return None,
        })
    }
}

const GROUPS: &[GroupSpec] = &[
    GroupSpec {
        name: "spell",
        help: "Against the Darkmaster: learn, concentrate on and cast spells.",
    },
    GroupSpec {
        name: "resonance",
        help: "Against the Darkmaster: sever the thread of a resonance.",
    },
    GroupSpec {
        name: "alignment",
        help: "Against the Darkmaster: the celestial alignment in force.",
    },
];

/// A bonus as a sheet holds one (a Willpower save bonus, a Defense).
const BONUS: Kind = Kind::Whole {
    min: -100,
    max: 300,
};

/// A GM's modifier to a roll: far past any the casting tables read.
const MODIFIER: Kind = Kind::Whole {
    min: -999,
    max: 999,
};

const SPELL: ArgSpec = ArgSpec::positional(
    "spell",
    "The spell, as the character learned it (any case).",
    Kind::Text,
);

fn who(given: &Given) -> Result<Who, String> {
    Ok(Who {
        character: given.text("character")?,
    })
}

const fn records(rolls: bool, build: fn(&Given) -> Result<VsdCommand, String>) -> Action<Vsd> {
    Action::Records {
        rolls,
        build,
        then: None,
    }
}

fn overcast_methods() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            OvercastMethod::Ritual.word(),
            "Other casters who know the spell join in (name them with --with)",
        ),
        (
            OvercastMethod::Sacrifice.word(),
            "Spend 1 Drive and take 1d10+1 soul damage per Weave above Level",
        ),
    ]
}

fn settings() -> Vec<(&'static str, &'static str)> {
    vec![(
        "sever-the-thread",
        "VSD-11: casters may spend Drive to have a resonance re-rolled at -20",
    )]
}

fn on_off() -> Vec<(&'static str, &'static str)> {
    vec![("on", ""), ("off", "")]
}

fn condition_actions() -> Vec<(&'static str, &'static str)> {
    words_of::<ConditionAction>()
}

/// An event number as typed: `42`, or `#42` as `grimoire log` prints it.
fn seq_of(text: &str) -> Result<Seq, String> {
    let digits = text.strip_prefix('#').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "'{text}' is not an event number; write it as 42 or #42"
        ));
    }
    digits
        .parse()
        .map_err(|_| format!("'{text}' is past any event number"))
}

fn duration(text: &str) -> Result<GameDuration, String> {
    GameDuration::parse(text).map_err(|e| e.to_string())
}

fn range(text: &str) -> Result<Range, String> {
    text.parse()
}

const COMMANDS: &[CommandSpec<Vsd>] = &[
    CommandSpec {
        path: "spell learn",
        help: "Record a spell a character knows. Rolls no dice.",
        args: &[
            ArgSpec::character(),
            ArgSpec::positional(
                "name",
                "The spell's name, as it will be cast later, e.g. \"Fire Bolt\".",
                Kind::Text,
            )
            .value_name("SPELL"),
            ArgSpec::flag(
                "lore",
                "The Spell Lore it belongs to (one of the character's lores).",
                Kind::Text,
            ),
            ArgSpec::flag(
                "weave",
                "The spell's Weave, 1 to 50: the MPs it costs unless --mp says otherwise, and the \
                 Level needed to cast it without overcasting.",
                Kind::Whole { min: 1, max: 50 },
            ),
            ArgSpec::flag(
                "kind",
                "The spell's kind, which sets its failure modifier (VSD-9).",
                Kind::Choice(words_of::<SpellKind>),
            ),
            ArgSpec::flag(
                "tags",
                "Comma-separated: attack, spirit, light, natural, elven, illusory.",
                Kind::Choice(words_of::<Tag>),
            )
            .list(),
            ArgSpec::switch(
                "instantaneous",
                "A half action; gains nothing from concentration and is never improvised.",
            ),
            ArgSpec::switch("save", "Unwilling targets get a Willpower save."),
            ArgSpec::flag(
                "attack",
                "A bolt or area spell: an attack roll instead of the casting table.",
                Kind::Choice(words_of::<AttackKind>),
            )
            .optional(),
            ArgSpec::flag("mp", "MP cost, when not equal to the Weave.", Kind::U32).optional(),
            ArgSpec::flag(
                "duration",
                "How long it lasts on its target, e.g. 10m or 1h.",
                Kind::Checked(|t| duration(t).map(|_| ())),
            )
            .optional(),
        ],
        examples: &[
            "grimoire spell learn Mira \"Fire Bolt\" --lore Elementalism --weave 3 --kind elemental",
        ],
        action: records(false, |g| {
            Ok(VsdCommand::Learn(SpellLearning {
                character: g.text("character")?,
                spell: NewSpell {
                    name: g.text("name")?,
                    lore: g.text("lore")?,
                    weave: g.read("weave")?,
                    kind: g.word("kind")?,
                    tags: g.words("tags")?,
                    instantaneous: g.switch("instantaneous"),
                    save: g.switch("save"),
                    attack: g.maybe_word("attack")?,
                    mp: g.maybe_read("mp")?,
                    duration: g.maybe_with("duration", duration)?,
                },
            }))
        }),
    },
    CommandSpec {
        path: "spell concentrate",
        help: "Spend this round concentrating on a spell: +10 to its casting roll per round, at \
               most +40. No MPs are spent until the cast; skipping a round or being interrupted \
               loses the bonus. Rolls no dice.",
        args: &[ArgSpec::character(), SPELL],
        examples: &["grimoire spell concentrate Mira \"Fire Bolt\""],
        action: records(false, |g| {
            Ok(VsdCommand::Concentrate(Concentration {
                character: g.text("character")?,
                spell: g.text("spell")?,
            }))
        }),
    },
    CommandSpec {
        path: "spell interrupt",
        help: "Record that a caster's concentration was broken. Rolls no dice.",
        args: &[ArgSpec::character()],
        examples: &["grimoire spell interrupt Mira"],
        action: records(false, |g| Ok(VsdCommand::Interrupt(who(g)?))),
    },
    CommandSpec {
        path: "spell cast",
        help: "Cast a known spell: an open-ended d100 + Spell Lore bonus + modifiers on the \
               casting table (or, for bolt and area spells, an attack roll less the target's \
               Defense). MPs are spent on a success or partial success. A double on the first \
               die (11, 22 … 99) brings a magical resonance roll.\n\n\
               Dice, in order: for --overcast sacrifice one d10 per Weave above Level (soul \
               damage, +1 each); the open-ended d100 (another d100 after 96-100, or after 01-05, \
               and on while 96-100); on a failure the d100 failure roll; on resonance the d100 \
               resonance roll.",
        args: &[
            ArgSpec::character(),
            SPELL,
            ArgSpec::flag(
                "target",
                "Who the spell is aimed at: a character (any case) or anyone else, e.g. \"the \
                 troll\".",
                Kind::Text,
            ),
            ArgSpec::flag(
                "range",
                "Distance to the target in metres (e.g. 12), touch, or far (over 90 m). A \
                 casting roll takes the casting table's band for it (VSD-4); a bolt or area \
                 spell its attack table's (VSD-14), which reaches 30 m.",
                Kind::Checked(|t| range(t).map(|_| ())),
            )
            .default("15"),
            ArgSpec::switch(
                "static_target",
                "The target is restrained, unconscious or unaware (+10).",
            )
            .long_as("static"),
            ArgSpec::flag(
                "armor_penalty",
                "Armour movement penalty, after the Armour skill (subtracted).",
                Kind::Whole { min: 0, max: 300 },
            )
            .default("0"),
            ArgSpec::flag("gm_modifier", "A GM modifier, e.g. --mod -15.", MODIFIER)
                .long_as("mod")
                .default("0"),
            ArgSpec::flag(
                "failure_modifier",
                "Should the cast fail: the GM's modifier on the failure roll (VSD-9), for what makes \
                 a failure worse here, e.g. --failure-mod 20 in a place of dark power. With it a \
                 failure can reach the table's last row (151 and up).",
                MODIFIER,
            )
            .long_as("failure-mod")
            .value_name("N")
            .default("0"),
            ArgSpec::flag(
                "place",
                "The place's effect on resonance (VSD-10).",
                Kind::Choice(words_of::<Place>),
            )
            .default("normal"),
            ArgSpec::switch(
                "cannot_see",
                "The caster cannot see the target: the cast is refused.",
            ),
            ArgSpec::switch("silenced", "The caster cannot speak: the cast is refused."),
            ArgSpec::flag(
                "overcast",
                "Cast a spell of a Weave above the caster's Level (VSD-12), and how.",
                Kind::Choice(overcast_methods),
            )
            .optional(),
            ArgSpec::flag(
                "with",
                "The other casters of a magic ritual, comma-separated.",
                Kind::Text,
            )
            .list()
            .requires(&["overcast"])
            .required_if("overcast", "ritual"),
            ArgSpec::flag(
                "defense",
                "The target's Defense, for a bolt or area spell at a non-player target.",
                BONUS,
            )
            .optional(),
            ArgSpec::switch(
                "out_of_turn",
                "An instantaneous spell cast out of turn, in response to an event (a fall, an \
                 incoming blow), as the GM allows; it takes half the caster's action in the round \
                 like any instantaneous spell.",
            )
            .long_as("out-of-turn"),
        ],
        examples: &[
            "grimoire spell cast Mira \"Fire Bolt\" --target \"the ghoul\"",
            "grimoire --rolls 62 spell cast Mira \"Flame Ward\" --target Aldric --range touch",
        ],
        action: records(true, |g| {
            Ok(VsdCommand::Cast(Casting {
                character: g.text("character")?,
                spell: g.text("spell")?,
                order: CastOrder {
                    target: g.text("target")?,
                    range: range(&g.text("range")?)?,
                    static_target: g.switch("static_target"),
                    armor_penalty: g.read("armor_penalty")?,
                    gm_modifier: g.read("gm_modifier")?,
                    failure_modifier: g.read("failure_modifier")?,
                    place: g.word("place")?,
                    cannot_see: g.switch("cannot_see"),
                    silenced: g.switch("silenced"),
                    overcast: g.maybe_word("overcast")?,
                    // `--with A,,B` names two casters, not an empty third.
                    with: g
                        .all("with")
                        .iter()
                        .filter(|name| !name.trim().is_empty())
                        .cloned()
                        .collect(),
                    defense: g.maybe_read("defense")?,
                    out_of_turn: g.switch("out_of_turn"),
                },
            }))
        }),
    },
    CommandSpec {
        path: "spell fire",
        help: "Roll the attack of a bolt or area spell that fired after its cast failed (held two \
               rounds, or struck another target): open-ended d100 + Spell Lore bonus + modifiers \
               - the target's Defense, for the GM to read on the attack table. `character show` \
               lists the attacks still to roll, oldest first.\n\n\
               Dice: the open-ended d100 (another after 96-100, and on while 96-100; a first die \
               of 01-10 is a fumble, which misses).",
        args: &[
            ArgSpec::character(),
            ArgSpec::flag(
                "cast",
                "The failed cast whose bolt this is (#SEQ in `grimoire log`), when the caster owes \
                 more than one.",
                Kind::Checked(|t| seq_of(t).map(|_| ())),
            )
            .value_name("SEQ")
            .optional(),
            ArgSpec::flag(
                "range",
                "Distance to the target in metres when the spell fires (e.g. 12), or touch: the \
                 attack table's band for it (VSD-14), which reaches 30 m.",
                Kind::Checked(|t| range(t).map(|_| ())),
            )
            .default("15"),
            ArgSpec::flag("gm_modifier", "A GM modifier, e.g. --mod -15.", MODIFIER)
                .long_as("mod")
                .default("0"),
            ArgSpec::flag(
                "defense",
                "The target's Defense, for a target with no Defense on a sheet here (0 when not \
                 given).",
                BONUS,
            )
            .optional(),
        ],
        examples: &[
            "grimoire spell fire Mira",
            "grimoire spell fire Mira --range 8 --defense 20 --rolled-by Cal",
            "grimoire spell fire Mira --cast 23",
        ],
        action: records(true, |g| {
            Ok(VsdCommand::Fire(Firing {
                character: g.text("character")?,
                cast: g.maybe("cast").map(seq_of).transpose()?,
                range: range(&g.text("range")?)?,
                gm_modifier: g.read("gm_modifier")?,
                defense: g.maybe_read("defense")?,
            }))
        }),
    },
    CommandSpec {
        path: "choose",
        help: "Resolve a pending choice: the caster's after a partial or outstanding success or a \
               failure, or the GM's pick after a resonance result. `character show` lists what is \
               pending.\n\n\
               Dice: a d100 resonance roll if \"resonance\" is chosen; 1d10 rounds for the GM's \
               \"scorched\".",
        args: &[
            ArgSpec::character(),
            ArgSpec::positional(
                "choices",
                "The option picked (two where the result offers two, e.g. an outstanding \
                 success).",
                Kind::Choice(words_of::<Choice>),
            )
            .value_name("CHOICE")
            .between(1, 2),
            ArgSpec::flag(
                "target",
                "With other-target: who the failed spell strikes instead, a character or anyone \
                 in words (the caster only from a failure of 126 up).",
                Kind::Text,
            )
            .optional(),
        ],
        examples: &[
            "grimoire choose Mira keep-mps",
            "grimoire choose Mira other-target --target Tom",
        ],
        action: records(true, |g| {
            Ok(VsdCommand::Choose(Choosing {
                character: g.text("character")?,
                choices: g.words("choices")?,
                target: g.maybe("target").map(str::to_string),
            }))
        }),
    },
    CommandSpec {
        path: "save",
        help: "A Willpower save against a cast: open-ended d100 + WSR must beat the cast's save \
               difficulty.\n\n\
               Dice: the open-ended d100.",
        args: &[
            ArgSpec::positional(
                "target",
                "The target: a character (whose WSR is used) or anyone, with --wsr.",
                Kind::Text,
            )
            .acting(),
            ArgSpec::flag(
                "wsr",
                "The target's Willpower save bonus, for a target who is not a character here.",
                BONUS,
            )
            .optional(),
            ArgSpec::flag(
                "against",
                "The cast's event number (#SEQ in `grimoire log`); `--against` is the older \
                 spelling.",
                Kind::Checked(|t| seq_of(t).map(|_| ())),
            )
            .long_as("cast")
            .alias("against")
            .value_name("SEQ"),
        ],
        examples: &[
            "grimoire save Aldric --cast 42",
            "grimoire save Aldric --cast 42 --rolled-by Bea",
        ],
        action: records(true, |g| {
            Ok(VsdCommand::Save(SaveRoll {
                target: g.text("target")?,
                wsr: g.maybe_read("wsr")?,
                against: seq_of(&g.text("against")?)?,
                cast: None,
            }))
        }),
    },
    CommandSpec {
        path: "resonance sever",
        help: "Sever the Thread (optional rule): spend 1 Drive; the GM re-rolls the caster's \
               latest resonance at a further -20 (the -20s add up). Dice: the d100 resonance \
               roll.",
        args: &[ArgSpec::character()],
        examples: &["grimoire resonance sever Mira"],
        action: records(true, |g| Ok(VsdCommand::Sever(who(g)?))),
    },
    CommandSpec {
        path: "alignment set",
        help: "Set the celestial alignment in force: benefic (overcast up to 3 Weaves), \
               auspicious (1), malefic (+1 MP per spell), disastrous (-10 and +1 MP), none. Rolls \
               no dice.",
        args: &[ArgSpec::positional(
            "alignment",
            "The alignment now in force.",
            Kind::Choice(words_of::<Alignment>),
        )],
        examples: &["grimoire alignment set malefic"],
        action: records(false, |g| {
            Ok(VsdCommand::SetAlignment(g.word("alignment")?))
        }),
    },
    CommandSpec {
        path: "setting",
        help: "Turn an optional rule on or off for the campaign. Rolls no dice.",
        args: &[
            ArgSpec::positional("setting", "The optional rule.", Kind::Choice(settings)),
            ArgSpec::positional(
                "value",
                "Whether it is in force from now on.",
                Kind::Choice(on_off),
            ),
        ],
        examples: &["grimoire setting sever-the-thread on"],
        action: records(false, |g| {
            Ok(VsdCommand::SetSever(g.text("value")? == "on"))
        }),
    },
    CommandSpec {
        path: "drive",
        help: "Change a character's Drive, e.g. `drive Mira +1 --reason \"a heroic deed\"`. Rolls \
               no dice.",
        args: &[
            ArgSpec::character(),
            ArgSpec::positional(
                "delta",
                "The change, e.g. +1 or -2.",
                Kind::Whole { min: -99, max: 99 },
            ),
            ArgSpec::reason(),
        ],
        examples: &["grimoire drive Mira +1 --reason \"stood her ground\""],
        action: records(false, |g| {
            Ok(VsdCommand::Drive(DriveChange {
                character: g.text("character")?,
                delta: g.read("delta")?,
                reason: g.text("reason")?,
            }))
        }),
    },
    CommandSpec {
        path: "condition",
        help: "End a condition now, e.g. `condition Mira clear stunned` (the GM's call). Rolls no \
               dice.",
        args: &[
            ArgSpec::character(),
            ArgSpec::positional(
                "action",
                "What to do with the condition.",
                Kind::Choice(condition_actions),
            ),
            ArgSpec::positional(
                "condition",
                "The condition.",
                Kind::Choice(words_of::<Condition>),
            ),
        ],
        examples: &["grimoire condition Mira clear stunned"],
        action: records(false, |g| {
            Ok(VsdCommand::ClearCondition(ConditionClearing {
                character: g.text("character")?,
                action: g.word("action")?,
                condition: g.word("condition")?,
            }))
        }),
    },
    CommandSpec {
        path: "assessment",
        help: "Record that an assailed caster passed an Assessment Roll, which ends the \
               condition (VSD-10). The game leaves the roll's mechanics to the table: roll it \
               first with `roll … --character NAME` to keep the dice on record, and name that \
               roll with --roll. Rolls no dice.",
        args: &[
            ArgSpec::character(),
            ArgSpec::flag(
                "roll",
                "The free roll made for it (#SEQ in `grimoire log`), rolled for this character.",
                Kind::Checked(|t| seq_of(t).map(|_| ())),
            )
            .value_name("SEQ")
            .optional(),
        ],
        examples: &[
            "grimoire assessment Mira",
            "grimoire assessment Mira --roll 42",
        ],
        action: records(false, |g| {
            Ok(VsdCommand::Assess(Assessment {
                character: g.text("character")?,
                roll: g.maybe_with("roll", seq_of)?,
                rolled: None,
            }))
        }),
    },
];

/// Against the Darkmaster's sheet as people enter and change it.
static SHEET: SheetSpec<Vsd> = SheetSpec {
    help: "Add an Against the Darkmaster character (spell casting). Records the sheet; rolls no \
           dice.",
    fields: &[
        ArgSpec::flag("level", "Level.", Kind::U32),
        ArgSpec::flag(
            "vocation",
            "Vocation, e.g. wizard, animist, warrior.",
            Kind::Text,
        ),
        ArgSpec::flag(
            "lore",
            "A Spell Lore as NAME=BONUS:RANKS, e.g. Elementalism=45:6. Repeat for each lore.",
            LORE,
        )
        .value_name("NAME=BONUS:RANKS")
        .repeated(),
        ArgSpec::flag("mp", "Maximum magic points.", Kind::U32),
        ArgSpec::flag("drive", "Drive points.", Kind::U32),
        ArgSpec::flag("body", "Body skill bonus.", Kind::I32),
        ArgSpec::flag("wsr", "Willpower save (WSR) bonus.", Kind::I32),
        ArgSpec::flag("defense", "Defense.", Kind::I32),
        ArgSpec::flag(
            "health",
            "Maximum health, if the table tracks it.",
            Kind::U32,
        )
        .optional(),
    ],
    examples: &[
        "grimoire character add vsd Mira --level 3 --vocation wizard --lore Elementalism=45:6 --mp 12 --drive 3 --body 40 --wsr 20 --defense 10 --health 14",
    ],
    entered: |g| {
        Ok(VsdSheet {
            level: g.read("level")?,
            vocation: g.text("vocation")?.trim().to_lowercase(),
            lores: lores(g)?,
            mp: g.read("mp")?,
            drive: g.read("drive")?,
            body: g.read("body")?,
            wsr: g.read("wsr")?,
            defense: g.read("defense")?,
            health: g.maybe_read("health")?,
        })
    },
    set_flags: &[
        ArgSpec::flag("level", "Level.", Kind::U32).optional(),
        ArgSpec::flag("health", "Maximum health.", Kind::U32).optional(),
        ArgSpec::flag(
            "vocation",
            "Against the Darkmaster: the vocation.",
            Kind::Text,
        )
        .optional(),
        ArgSpec::flag("mp", "Against the Darkmaster: maximum MPs.", Kind::U32).optional(),
        ArgSpec::flag("drive", "Against the Darkmaster: Drive.", Kind::U32).optional(),
        ArgSpec::flag("body", "Against the Darkmaster: Body.", Kind::I32).optional(),
        ArgSpec::flag(
            "wsr",
            "Against the Darkmaster: the Willpower save bonus.",
            Kind::I32,
        )
        .optional(),
        ArgSpec::flag("defense", "Against the Darkmaster: Defense.", Kind::I32).optional(),
        ArgSpec::flag(
            "lore",
            "Against the Darkmaster: a Spell Lore, new or changed, as NAME=BONUS:RANKS \
             (repeatable).",
            LORE,
        )
        .value_name("NAME=BONUS:RANKS")
        .repeated(),
    ],
    set: |sheet, g| {
        let mut lores_now = sheet.lores.clone();
        for lore in lores(g)? {
            match lores_now
                .iter_mut()
                .find(|l| l.name.eq_ignore_ascii_case(&lore.name))
            {
                Some(known) => *known = lore,
                None => lores_now.push(lore),
            }
        }
        Ok(VsdSheet {
            level: g.maybe_read("level")?.unwrap_or(sheet.level),
            health: g.maybe_read("health")?.or(sheet.health),
            // As `character add` keeps it: the rules know a vocation by its lowercase word.
            vocation: g
                .maybe("vocation")
                .map_or_else(|| sheet.vocation.clone(), |v| v.trim().to_lowercase()),
            lores: lores_now,
            mp: g.maybe_read("mp")?.unwrap_or(sheet.mp),
            drive: g.maybe_read("drive")?.unwrap_or(sheet.drive),
            body: g.maybe_read("body")?.unwrap_or(sheet.body),
            wsr: g.maybe_read("wsr")?.unwrap_or(sheet.wsr),
            defense: g.maybe_read("defense")?.unwrap_or(sheet.defense),
        })
    },
    level_up_flags: &[
        ArgSpec::flag("health", "Health the level brings.", Kind::U32).default("0"),
        ArgSpec::flag(
            "mp",
            "Against the Darkmaster: MPs the level brings.",
            Kind::U32,
        )
        .default("0"),
    ],
    level_up: |sheet, g| {
        let (health, mp): (u32, u32) = (g.read("health")?, g.read("mp")?);
        Ok(VsdSheet {
            level: sheet.level + 1,
            mp: sheet.mp.saturating_add(mp),
            health: match (sheet.health, health) {
                (Some(max), gain) => Some(max.saturating_add(gain)),
                (None, 0) => None,
                (None, gain) => Some(gain),
            },
            ..sheet.clone()
        })
    },
};

const LORE: Kind = Kind::Checked(|t| Lore::parse(t).map(|_| ()));

fn lores(g: &Given) -> Result<Vec<Lore>, String> {
    g.all("lore").iter().map(|t| Lore::parse(t)).collect()
}
