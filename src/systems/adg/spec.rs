//! A Dungeon Game's commands as people type them (see `contract::command`): the help is the
//! table's manual, and says what each command records and in what order it draws dice.

use super::Adg;
use crate::systems::contract::command::SystemCommands;

impl SystemCommands for Adg {}
