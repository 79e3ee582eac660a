//! Every name a native state can hold (stages, once-a-turn marks, flags, counters), each
//! as a small number.
//!
//! The Python state keeps these as strings. The kernel knows every name its rules write,
//! so it numbers them once per content, in sorted order: sorting symbols sorts their
//! names, which is the order the Python state keeps flags and counters in. A state with
//! a name the kernel does not know is refused when it is read, never carried blindly.

/// A name, as its place in the sorted table of `Names`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sym(pub u16);

/// The flags and counters the base game and the Artisans write (plugins/base/flow.py,
/// plugins/artisans/board_items.py), besides those made from content ids
/// (`content::names_of`).
const FIXED: &[&str] = &[
    "",
    "setup",
    "over",
    "last-camel",
    "no-moves",
    // plugins/base/variants.py: the game the round cap (`end.after_round`) ended
    "round-cap",
    "flute.tile",
    "flute.left",
    // plugins/whims/whims.py: the whims a player fulfilled
    "whims.claimed",
];

/// The sorted table of names.
#[derive(Debug, Clone)]
pub struct Names {
    sorted: Vec<String>,
}

impl Names {
    /// The table of `FIXED` and `named` (the names made from a content, which
    /// `Content::new` lists), sorted, each once.
    pub fn new(named: impl IntoIterator<Item = String>) -> Names {
        let mut all: Vec<String> = FIXED.iter().map(|s| (*s).to_owned()).collect();
        all.extend(named);
        all.sort();
        all.dedup();
        Names { sorted: all }
    }

    /// The symbol of `name`, if the kernel knows it.
    pub fn sym(&self, name: &str) -> Option<Sym> {
        self.sorted
            .binary_search_by(|probe| probe.as_str().cmp(name))
            .ok()
            .map(|i| Sym(i as u16))
    }

    /// The symbol of a name the kernel itself writes.
    ///
    /// # Panics
    /// When the name is not in the table: a name missing from `FIXED` is a kernel bug.
    pub fn known(&self, name: &str) -> Sym {
        self.sym(name)
            .unwrap_or_else(|| panic!("kernel bug: the name {name:?} is not in the table"))
    }

    pub fn name(&self, sym: Sym) -> &str {
        &self.sorted[usize::from(sym.0)]
    }

    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }
}
