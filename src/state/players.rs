//! Players' devices and the rolls put to them, as replay leaves them (C-4, C-5).

use crate::event::{AskedCommand, Event};
use crate::ids::{DeviceId, RequestId};
use crate::seq::Seq;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The devices linked to the campaign and the rolls put to them, as replay leaves them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Players {
    /// By device number.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub devices: BTreeMap<DeviceId, Device>,
    /// By request number.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requests: BTreeMap<RequestId, Request>,
    #[serde(default, skip_serializing_if = "Withdrawals::is_empty")]
    pub withdrawn: Withdrawals,
}

/// What was withdrawn from each device, or answered there only to be refused, since a request was
/// last put to it: the next request to that device is marked as put again after them (C-5), since
/// a GM who withdraws a roll the phone answered, or was about to, or records its answer as
/// refused, and puts it again could be choosing the die. A withdrawal by
/// `player unlink` or a replaced link leaves a device no request can reach, so it marks nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Withdrawals(BTreeMap<DeviceId, Vec<RequestId>>);

impl Withdrawals {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `request`, put to `device`, was withdrawn.
    pub fn withdraw(&mut self, device: DeviceId, request: RequestId) {
        self.0.entry(device).or_default().push(request);
    }

    /// A request is put to `device`: the requests withdrawn from it since the last one, which
    /// this one is marked as put again after.
    pub fn put(&mut self, device: DeviceId) -> Vec<RequestId> {
        self.0.remove(&device).unwrap_or_default()
    }
}

/// Whether `name` (any case) is one of the characters a device was linked for.
pub fn plays(characters: &[String], name: &str) -> bool {
    let folded = crate::words::fold_name(name);
    characters
        .iter()
        .any(|c| crate::words::fold_name(c) == folded)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Device {
    pub player: String,
    pub characters: Vec<String>,
    /// Revoked links stay known, so old requests still name their device.
    pub linked: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// The seq of the request's event.
    pub seq: Seq,
    pub device: DeviceId,
    pub commitment: String,
    pub asked: AskedCommand,
    pub witnessed: bool,
    pub status: RequestStatus,
    /// The requests to the same device withdrawn since the one before it (C-5): computed from
    /// the log, never stored in it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub put_again_after: Vec<RequestId>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum RequestStatus {
    Waiting,
    /// Answered by the event at `seq`.
    Answered {
        seq: Seq,
    },
    Withdrawn {
        seq: Seq,
    },
}

impl Players {
    pub fn is_empty(&self) -> bool {
        self.devices.is_empty() && self.requests.is_empty()
    }

    /// The live device `player` (any case) holds.
    pub fn device_of(&self, player: &str) -> Option<(DeviceId, &Device)> {
        let folded = crate::words::fold_name(player);
        self.devices
            .iter()
            .find(|(_, d)| d.linked && crate::words::fold_name(&d.player) == folded)
            .map(|(&n, d)| (n, d))
    }

    /// The requests still waiting for device `device`, oldest first.
    pub fn waiting_for(&self, device: DeviceId) -> impl Iterator<Item = (RequestId, &Request)> {
        self.requests
            .iter()
            .filter(move |(_, r)| r.device == device && r.status == RequestStatus::Waiting)
            .map(|(&n, r)| (n, r))
    }

    /// Folds in one of the players' events (others change nothing here).
    pub fn apply(&mut self, seq: Seq, event: &Event) {
        match event {
            Event::DeviceLinked {
                device,
                player,
                characters,
            } => {
                self.devices.insert(
                    *device,
                    Device {
                        player: player.clone(),
                        characters: characters.clone(),
                        linked: true,
                    },
                );
            }
            Event::DeviceUnlinked { device } => {
                if let Some(d) = self.devices.get_mut(device) {
                    d.linked = false;
                }
            }
            Event::RollRequested {
                request,
                device,
                commitment,
                asked,
                witnessed,
            } => {
                self.requests.insert(
                    *request,
                    Request {
                        seq,
                        device: *device,
                        commitment: commitment.clone(),
                        asked: asked.clone(),
                        witnessed: *witnessed,
                        status: RequestStatus::Waiting,
                        put_again_after: self.withdrawn.put(*device),
                    },
                );
            }
            Event::RollAnswered {
                request, refused, ..
            } => {
                // A refused answer recorded no roll: the next put to that device is a roll put
                // again, as after a withdrawal (a refusal the GM's server made up would otherwise
                // let it roll again until a die suited).
                if refused.is_some()
                    && let Some(device) = self.requests.get(request).map(|r| r.device)
                {
                    self.withdrawn.withdraw(device, *request);
                    // So is a roll already put to that device again and still waiting: the
                    // server could hold the answer, put the roll again, and only then record the
                    // refusal. (A withdrawal the phone flags itself, when it had answered.)
                    let later = (
                        std::ops::Bound::Excluded(*request),
                        std::ops::Bound::Unbounded,
                    );
                    for (_, again) in self.requests.range_mut(later) {
                        if again.device == device && again.status == RequestStatus::Waiting {
                            again.put_again_after.push(*request);
                        }
                    }
                }
                self.settle(*request, RequestStatus::Answered { seq })
            }
            Event::RollWithdrawn { request } => {
                if let Some(r) = self.requests.get(request) {
                    self.withdrawn.withdraw(r.device, *request);
                }
                self.settle(*request, RequestStatus::Withdrawn { seq })
            }
            _ => {}
        }
    }

    fn settle(&mut self, request: RequestId, status: RequestStatus) {
        if let Some(r) = self.requests.get_mut(&request) {
            r.status = status;
        }
    }
}
