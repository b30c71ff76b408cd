//! A player's own choice made on their phone (#47), as `verify` holds it: on a device whose link
//! stands, answering its system's choice command for a character the device's player plays,
//! recorded by that player, and followed at once by the event the command records, for the same
//! character and the same picks.

use super::Verifier;
use crate::event::{AskedCommand, Event};
use crate::ids::DeviceId;
use crate::seq::Seq;
use crate::words::fold_name;

/// A choice checked so far, whose next row must record it.
pub(super) struct ChoiceDue {
    seq: Seq,
    device: DeviceId,
    character: String,
    picks: Vec<String>,
    made: &'static str,
}

impl Verifier {
    /// The choice at `seq`, recorded by `actor`: why it could not have been made so, if it could
    /// not. One that could is owed its command's event by the next row.
    pub(super) fn check_choice(
        &mut self,
        seq: Seq,
        actor: &str,
        device: DeviceId,
        asked: &AskedCommand,
    ) -> Option<String> {
        let command = match asked {
            AskedCommand::System { system, path, .. } => {
                crate::systems::registry::SystemId::keyed(system)
                    .and_then(|s| s.choice_command())
                    .filter(|command| command.path == path)
            }
            AskedCommand::Roll { .. } => None,
        };
        let player = self.device_players.get(&device).map_or("", String::as_str);
        let (plays, linked) = match self.devices.get(&device) {
            None => {
                return Some(format!(
                    "#{seq}: a choice is made on device {device}, which was never linked"
                ));
            }
            Some((plays, linked)) => (plays, *linked),
        };
        if !linked {
            return Some(format!(
                "#{seq}: a choice is made on device {device}, whose link was revoked"
            ));
        }
        let Some(command) = command else {
            return Some(format!(
                "#{seq}: what device {device} answers is not its system's choice command"
            ));
        };
        let Some(acting) = asked.acting() else {
            return Some(format!(
                "#{seq}: the choice made on device {device} names no character who acts"
            ));
        };
        if !crate::state::players::plays(plays, acting) {
            return Some(format!(
                "#{seq}: a choice made on device {device} is for {acting}, whom its player does not play ({})",
                plays.join(", ")
            ));
        }
        if fold_name(actor) != fold_name(player) {
            return Some(format!(
                "#{seq}: a choice made on device {device} is recorded by {actor}, not by its player {player}"
            ));
        }
        let AskedCommand::System { given, .. } = asked else {
            return None;
        };
        self.choice_due = Some(ChoiceDue {
            seq,
            device,
            character: acting.to_string(),
            picks: given.get(command.picks).cloned().unwrap_or_default(),
            made: command.made,
        });
        None
    }

    /// The row after a choice (at `seq`, holding `event`): the event its command records, for
    /// the choice's character and picks.
    pub(super) fn check_choice_made(&mut self, seq: Seq, event: &Event) {
        let Some(due) = self.choice_due.take() else {
            return;
        };
        let payload = serde_json::to_value(event).unwrap_or_default();
        let character = payload["character"].as_str().unwrap_or_default();
        let chosen: Vec<&str> = (payload["chosen"].as_array().into_iter().flatten())
            .filter_map(|c| c.as_str())
            .collect();
        let records_it = event.kind() == due.made
            && fold_name(character) == fold_name(&due.character)
            && chosen == due.picks.iter().map(String::as_str).collect::<Vec<_>>();
        if !records_it {
            self.dice_problem(
                seq,
                format!(
                    "#{seq} does not record the choice made on device {} at #{} ({} picked {})",
                    due.device,
                    due.seq,
                    due.character,
                    due.picks.join(", ")
                ),
            );
        }
    }

    /// A choice that is the log's last row recorded nothing of what it chose.
    pub(super) fn check_no_choice_left(&mut self) {
        if let Some(due) = self.choice_due.take() {
            self.dice_problem(
                due.seq,
                format!(
                    "#{}: the choice made on device {} is followed by nothing that records it",
                    due.seq, due.device
                ),
            );
        }
    }
}
