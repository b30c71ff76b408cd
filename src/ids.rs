//! The numbers that name a campaign's players' things, each its own type so that one is never
//! taken for another: a device linked to the campaign (C-4) and a roll put to one (C-5). Both are
//! stored as the plain number they wrap, so the log's shapes are what they were.

use serde::{Deserialize, Serialize};

/// A player's device, numbered from 1 in the order devices were linked.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct DeviceId(pub u32);

/// A roll put to a device, numbered from 1 in the order rolls were put.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct RequestId(pub u32);

impl DeviceId {
    /// The number the next device linked takes: one past the highest so far (1 for the first).
    pub fn after(highest: Option<DeviceId>) -> DeviceId {
        DeviceId(highest.map_or(0, |d| d.0).saturating_add(1))
    }
}

impl RequestId {
    /// The number the next roll put takes: one past the highest so far (1 for the first).
    pub fn after(highest: Option<RequestId>) -> RequestId {
        RequestId(highest.map_or(0, |r| r.0).saturating_add(1))
    }
}

impl std::fmt::Display for DeviceId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for DeviceId {
    type Err = std::num::ParseIntError;

    /// A device's number as the secrets table keeps it beside a link's token hash.
    fn from_str(text: &str) -> Result<DeviceId, Self::Err> {
        text.parse().map(DeviceId)
    }
}

impl std::str::FromStr for RequestId {
    type Err = std::num::ParseIntError;

    /// A request's number as people type it (`player withdraw 3`).
    fn from_str(text: &str) -> Result<RequestId, Self::Err> {
        text.parse().map(RequestId)
    }
}
