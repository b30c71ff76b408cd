//! How a command gets its campaign: opened for it on the command line, or lent by the shell, which
//! keeps one store open (and its state in memory) across the commands typed into it.

use crate::store::Store;
use std::borrow::{Borrow, BorrowMut};
use std::cell::{RefCell, RefMut};
use std::ops::{Deref, DerefMut};
use std::rc::Rc;

/// The shell's open store, lent to each command it runs; empty on the command line.
#[derive(Clone, Default)]
pub struct SharedStore(Option<Rc<RefCell<Store>>>);

impl SharedStore {
    pub fn new(store: Store) -> SharedStore {
        SharedStore(Some(Rc::new(RefCell::new(store))))
    }

    /// The store, when one is shared and not already lent out (a command that opens its campaign
    /// twice at once gets a second connection for the second).
    pub fn lend(&self) -> Option<RefMut<'_, Store>> {
        self.0.as_ref()?.try_borrow_mut().ok()
    }

    /// Whether this is the shell's store (the command runs inside `grimoire shell`).
    pub fn in_shell(&self) -> bool {
        self.0.is_some()
    }
}

impl std::fmt::Debug for SharedStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "SharedStore(open)"
        } else {
            "SharedStore(none)"
        })
    }
}

/// A command's store: its own, or the shell's for the length of the command.
pub enum StoreHandle<'a> {
    Opened(Store),
    Lent(RefMut<'a, Store>),
}

impl Deref for StoreHandle<'_> {
    type Target = Store;
    fn deref(&self) -> &Store {
        match self {
            StoreHandle::Opened(store) => store,
            StoreHandle::Lent(store) => store,
        }
    }
}

impl DerefMut for StoreHandle<'_> {
    fn deref_mut(&mut self) -> &mut Store {
        match self {
            StoreHandle::Opened(store) => store,
            StoreHandle::Lent(store) => store,
        }
    }
}

impl Borrow<Store> for StoreHandle<'_> {
    fn borrow(&self) -> &Store {
        self
    }
}

impl BorrowMut<Store> for StoreHandle<'_> {
    fn borrow_mut(&mut self) -> &mut Store {
        self
    }
}
