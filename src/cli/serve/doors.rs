//! Who may hold the server's attention, so that no one link (or no link at all) can deny the table:
//! the open connections, each with the link its requests opened, and a fair queue of work in front
//! of the campaign's thread, one lane per link.
//!
//! - A connection counts against its address until a request on it opens a link; an address
//!   holding many such connections gives up its oldest, and when the server is full the oldest of
//!   them goes first, then the oldest on a player's link. A connection on the table's link is never
//!   closed for another.
//! - A player's link holds a few connections at most (a phone needs two or three) and the players'
//!   links together at most half the server: the oldest is closed when one more opens.
//! - A link that stops opening anything (a new table link, `player unlink`, a replaced link) has
//!   its connections closed at once.
//! - The campaign's thread takes one job from each lane in turn, so a link asking for many slow
//!   pages delays only itself.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::oneshot;

/// Connections open at once.
const CONNECTIONS_AT_MOST: usize = 512;
/// Connections one address may hold that have opened no link yet.
const UNOPENED_PER_ADDRESS: usize = 32;
/// Connections one player's link may hold.
const PER_PLAYER_LINK: usize = 8;
/// Connections the players' links may hold together: the rest is the table's.
const PLAYER_LINKS_AT_MOST: usize = CONNECTIONS_AT_MOST / 2;
/// Jobs one link may have waiting for the campaign's thread; more are refused as busy.
const WAITING_PER_LANE: usize = 64;

/// The link a request opened: the table's (its key as given) or a player's (its token as given);
/// or, for the queues' lanes only, a token not known to stand (one lane for all of them, so
/// guessed tokens can only delay each other).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Link {
    Table(String),
    Player(String),
    Stranger,
}

impl Link {
    /// The link a request's path names, if any (whether it opens anything is the handlers' to say).
    pub fn of_path(path: &str) -> Option<Link> {
        let mut parts = path.trim_start_matches('/').split('/');
        match (parts.next(), parts.next()) {
            (Some("p"), Some(token)) if !token.is_empty() => Some(Link::Player(token.to_string())),
            (Some(key), _) if !key.is_empty() && key != "p" => Some(Link::Table(key.to_string())),
            _ => None,
        }
    }
}

struct Connection {
    address: IpAddr,
    /// The link its latest request opened; `None` until one does.
    link: Option<Link>,
    close: oneshot::Sender<()>,
}

/// The open connections, oldest first (by the number each was admitted under).
#[derive(Default)]
pub struct Doors {
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    next: u64,
    connections: BTreeMap<u64, Connection>,
}

impl Open {
    /// The oldest connection `pick` picks, other than `spare`.
    fn oldest(&self, spare: Option<u64>, pick: impl Fn(&Connection) -> bool) -> Option<u64> {
        self.connections
            .iter()
            .find(|(id, c)| Some(**id) != spare && pick(c))
            .map(|(id, _)| *id)
    }

    fn count(&self, pick: impl Fn(&Connection) -> bool) -> usize {
        self.connections.values().filter(|c| pick(c)).count()
    }

    fn close(&mut self, id: u64) {
        if let Some(connection) = self.connections.remove(&id) {
            let _ = connection.close.send(());
        }
    }
}

impl Doors {
    fn open(&self) -> MutexGuard<'_, Open> {
        // A panic elsewhere while the table was held leaves it whole: each change is one step.
        self.open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Takes a new connection from `address`, making room as the rules above say: its number,
    /// and what says when it must be closed; `None` when the server is full of connections that
    /// opened the table's link.
    pub fn admit(&self, address: IpAddr) -> Option<(u64, oneshot::Receiver<()>)> {
        let mut open = self.open();
        let unopened_here = |c: &Connection| c.link.is_none() && c.address == address;
        if open.count(unopened_here) >= UNOPENED_PER_ADDRESS
            && let Some(oldest) = open.oldest(None, unopened_here)
        {
            open.close(oldest);
        }
        if open.connections.len() >= CONNECTIONS_AT_MOST {
            let victim = open
                .oldest(None, |c| c.link.is_none())
                .or_else(|| open.oldest(None, |c| matches!(c.link, Some(Link::Player(_)))))?;
            open.close(victim);
        }
        let id = open.next;
        open.next += 1;
        let (close, closed) = oneshot::channel();
        open.connections.insert(
            id,
            Connection {
                address,
                link: None,
                close,
            },
        );
        Some((id, closed))
    }

    /// A request on connection `id` opened `link`: a player's link closes its oldest connection
    /// beyond its share.
    pub fn opened(&self, id: u64, link: Link) {
        let mut open = self.open();
        let Some(connection) = open.connections.get_mut(&id) else {
            return;
        };
        connection.link = Some(link.clone());
        if let Link::Player(_) = link {
            let same = |c: &Connection| c.link.as_ref() == Some(&link);
            let players = |c: &Connection| matches!(c.link, Some(Link::Player(_)));
            while open.count(same) > PER_PLAYER_LINK {
                let Some(oldest) = open.oldest(Some(id), same) else {
                    break;
                };
                open.close(oldest);
            }
            while open.count(players) > PLAYER_LINKS_AT_MOST {
                let Some(oldest) = open.oldest(Some(id), players) else {
                    break;
                };
                open.close(oldest);
            }
        }
    }

    /// Connection `id` ended.
    pub fn left(&self, id: u64) {
        self.open().connections.remove(&id);
    }

    /// Closes every connection on a link that `stale` says no longer opens anything.
    pub fn close_stale(&self, stale: impl Fn(&Link) -> bool) {
        let mut open = self.open();
        let closing: Vec<u64> = open
            .connections
            .iter()
            .filter(|(_, c)| c.link.as_ref().is_some_and(&stale))
            .map(|(id, _)| *id)
            .collect();
        for id in closing {
            open.close(id);
        }
    }
}

/// The work waiting for a thread: the terminal's own (a new link, the web server stopping)
/// first, then one job from each link's lane in turn.
pub struct Queue<J> {
    lanes: Mutex<Lanes<J>>,
    ready: Condvar,
}

struct Lanes<J> {
    own: VecDeque<J>,
    waiting: HashMap<Link, VecDeque<J>>,
    /// The lanes with work, in the order they are served.
    turn: VecDeque<Link>,
}

impl<J> Default for Queue<J> {
    fn default() -> Self {
        Queue {
            lanes: Mutex::new(Lanes {
                own: VecDeque::new(),
                waiting: HashMap::new(),
                turn: VecDeque::new(),
            }),
            ready: Condvar::new(),
        }
    }
}

impl<J> Queue<J> {
    fn lanes(&self) -> MutexGuard<'_, Lanes<J>> {
        self.lanes
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A job of the terminal's, served before any link's.
    pub fn own(&self, job: J) {
        self.lanes().own.push_back(job);
        self.ready.notify_one();
    }

    /// A job for `link`; given back when the link already has as many waiting as it may.
    pub fn push(&self, link: Link, job: J) -> Result<(), J> {
        let mut lanes = self.lanes();
        let lane = lanes.waiting.entry(link.clone()).or_default();
        if lane.len() >= WAITING_PER_LANE {
            return Err(job);
        }
        lane.push_back(job);
        if lane.len() == 1 {
            lanes.turn.push_back(link);
        }
        drop(lanes);
        self.ready.notify_one();
        Ok(())
    }

    /// The next job, waiting for one at most `within`.
    pub fn next(&self, within: Duration) -> Option<J> {
        let mut lanes = self.lanes();
        if lanes.own.is_empty() && lanes.turn.is_empty() {
            lanes = self
                .ready
                .wait_timeout(lanes, within)
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
        if let Some(job) = lanes.own.pop_front() {
            return Some(job);
        }
        let link = lanes.turn.pop_front()?;
        let lane = lanes.waiting.get_mut(&link)?;
        let job = lane.pop_front();
        if lane.is_empty() {
            lanes.waiting.remove(&link);
        } else {
            lanes.turn.push_back(link);
        }
        job
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    const HERE: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

    fn player(token: &str) -> Link {
        Link::Player(token.into())
    }

    #[test]
    fn a_path_names_its_link() {
        assert_eq!(Link::of_path("/p/abc/rolls"), Some(player("abc")));
        assert_eq!(Link::of_path("/p/abc"), Some(player("abc")));
        assert_eq!(Link::of_path("/k3y/log"), Some(Link::Table("k3y".into())));
        assert_eq!(Link::of_path("/"), None);
        assert_eq!(Link::of_path("/p/"), None);
    }

    #[test]
    fn a_player_link_keeps_its_newest_connections_and_closes_the_oldest() {
        let doors = Doors::default();
        let mut admitted = Vec::new();
        for _ in 0..PER_PLAYER_LINK + 3 {
            let (id, closed) = doors.admit(HERE).unwrap();
            doors.opened(id, player("bea"));
            admitted.push((id, closed));
        }
        let closed: Vec<u64> = admitted
            .iter_mut()
            .filter_map(|(id, closed)| closed.try_recv().is_ok().then_some(*id))
            .collect();
        assert_eq!(closed, vec![0, 1, 2], "the three oldest are closed");
    }

    #[test]
    fn a_full_server_closes_unopened_connections_then_players_never_the_tables() {
        let doors = Doors::default();
        let (table, mut table_closed) = doors.admit(HERE).unwrap();
        doors.opened(table, Link::Table("key".into()));
        // Many addresses, each with a few connections that open nothing.
        let mut unopened = Vec::new();
        for i in 0..CONNECTIONS_AT_MOST * 2 {
            let address = IpAddr::V4(Ipv4Addr::new(10, 0, (i / 250) as u8, (i % 250) as u8));
            unopened.push(doors.admit(address).unwrap());
        }
        assert!(table_closed.try_recv().is_err(), "the table's stays");
        assert_eq!(doors.open().connections.len(), CONNECTIONS_AT_MOST);
        // One address alone keeps only so many unopened.
        let doors = Doors::default();
        let mine: Vec<_> = (0..UNOPENED_PER_ADDRESS * 3)
            .map(|_| doors.admit(HERE).unwrap())
            .collect();
        assert_eq!(doors.open().connections.len(), UNOPENED_PER_ADDRESS);
        drop(mine);
        // Full of the table's: a new connection is refused.
        let doors = Doors::default();
        for i in 0..CONNECTIONS_AT_MOST {
            let address = IpAddr::V4(Ipv4Addr::new(10, 1, (i / 250) as u8, (i % 250) as u8));
            let (id, _closed) = doors.admit(address).unwrap();
            doors.opened(id, Link::Table("key".into()));
        }
        assert!(doors.admit(HERE).is_none());
    }

    #[test]
    fn a_stale_link_has_its_connections_closed() {
        let doors = Doors::default();
        let (old, mut old_closed) = doors.admit(HERE).unwrap();
        doors.opened(old, player("old"));
        let (new, mut new_closed) = doors.admit(HERE).unwrap();
        doors.opened(new, player("new"));
        doors.close_stale(|link| *link == player("old"));
        assert!(old_closed.try_recv().is_ok());
        assert!(new_closed.try_recv().is_err());
    }

    #[test]
    fn the_queue_serves_each_link_in_turn() {
        let queue = Queue::default();
        for n in 0..10 {
            queue.push(player("searcher"), n).unwrap();
        }
        queue.push(player("bea"), 100).unwrap();
        queue.own(1000);
        // The terminal's first, then one of each link's in turn, whatever the searcher has waiting.
        let served: Vec<u32> = (0..5).filter_map(|_| queue.next(Duration::ZERO)).collect();
        assert_eq!(served, vec![1000, 0, 100, 1, 2]);
        for n in 0..WAITING_PER_LANE as u32 {
            let _ = queue.push(player("searcher"), n);
        }
        assert_eq!(
            queue.push(player("searcher"), 99),
            Err(99),
            "a full lane is busy"
        );
    }
}
