//! The rules of one content, built once and shared by every call that plays it.
//!
//! Building `Rules` reads every name of the content (6.7 µs in the base game, 22.7 µs
//! with the Thieves), so the Python layer must not build them per call: a `SharedRules`
//! owns its content and the rules built over it, and every state made from one kernel
//! holds the same `Arc<SharedRules>`.

use std::sync::Arc;

use self_cell::self_cell;

use crate::callbacks::HookCalls;
use crate::content::Content;
use crate::rules::Rules;

self_cell!(
    /// The content and the rules that borrow it, kept together.
    struct Cell {
        owner: Arc<Content>,
        #[covariant]
        dependent: Rules,
    }
);

/// One content's rules, built once.
pub struct SharedRules {
    cell: Cell,
}

impl SharedRules {
    /// The rules of `content`, built now, once.
    pub fn new(content: Arc<Content>) -> SharedRules {
        SharedRules {
            cell: Cell::new(content, |content| Rules::new(content)),
        }
    }

    /// The rules of `content` with a plugin's hooks called back (`crate::callbacks`).
    pub fn with_callbacks(content: Arc<Content>, calls: Arc<dyn HookCalls>) -> SharedRules {
        SharedRules {
            cell: Cell::new(content, |content| Rules::new(content).with_callbacks(calls)),
        }
    }

    pub fn rules(&self) -> &Rules<'_> {
        self.cell.borrow_dependent()
    }

    pub fn content(&self) -> &Content {
        self.cell.borrow_owner()
    }

    /// The content, shared (what a view of one of its states keeps).
    pub fn shared_content(&self) -> Arc<Content> {
        Arc::clone(self.cell.borrow_owner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bindings hand one `SharedRules` to calls that run without the GIL, on any
    /// thread: it must stay `Send + Sync` (a `Rules` field that is not would stop this).
    #[test]
    fn shared_rules_are_sent_between_threads() {
        fn sendable<T: Send + Sync>() {}
        sendable::<SharedRules>();
    }
}
