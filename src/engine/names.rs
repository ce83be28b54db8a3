//! Names → indices, answered by address.
//!
//! The IR names everything by its id (`mygame:frozen`, `mygame:strength`): an engine that looks
//! a state up by its text hashes and compares that text at every evaluation. Ids are interned
//! ([`ir::Id`](crate::ir::Id)): every id of the same text points at one shared copy, which
//! lives as long as the process. [`Names`] keeps the map by text and, beside it, the same
//! answers keyed by where each of its ids' shared text lies (address and length). A lookup
//! tries the address first (one hash of two machine words, no text read), then the text.
//!
//! Why an address is a sound key: an interned text is never freed or moved, so no other live
//! text can lie at its address, and two views of the same bytes (same address, same length)
//! are the same text. A text that is not an id's shared copy (a scenario's, a script's, a part
//! of an id) misses by address and is looked up by its text, so both ways always agree.

use crate::ir::Id;
use rustc_hash::FxHashMap as HashMap;
use std::ops::Deref;

/// A map from ids to values (indices, mostly), looked up by the address of an id's shared text
/// and else by text (see the module's doc). It reads as the plain map otherwise (`Deref`).
#[derive(Debug)]
pub struct Names<V> {
    /// Id → value: the map itself.
    by_name: HashMap<Id, V>,
    /// (address, length) of each key's shared text → the value `by_name` gives for it.
    by_address: HashMap<(usize, usize), V>,
}

impl<V> Default for Names<V> {
    fn default() -> Self {
        Names {
            by_name: HashMap::default(),
            by_address: HashMap::default(),
        }
    }
}

impl<V: Copy> Names<V> {
    /// The value of an id: by the address of its text when that is an id's shared copy, else
    /// by its text.
    #[inline]
    pub fn get(&self, id: &str) -> Option<&V> {
        if let Some(v) = self.by_address.get(&address(id)) {
            return Some(v);
        }
        self.by_name.get(id)
    }
}

impl<V> Deref for Names<V> {
    type Target = HashMap<Id, V>;

    fn deref(&self) -> &Self::Target {
        &self.by_name
    }
}

impl<V: Copy> FromIterator<(Id, V)> for Names<V> {
    fn from_iter<I: IntoIterator<Item = (Id, V)>>(iter: I) -> Self {
        let by_name: HashMap<Id, V> = iter.into_iter().collect();
        let by_address = by_name.iter().map(|(id, &v)| (address(id), v)).collect();
        Names {
            by_name,
            by_address,
        }
    }
}

/// Where a text lies: its first byte's address and its length.
fn address(id: &str) -> (usize, usize) {
    (id.as_ptr().addr(), id.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_found_by_address_and_by_text_alike() {
        let names: Names<u16> = [(Id::from("g:frozen"), 3), (Id::from("g:glowing"), 5)]
            .into_iter()
            .collect();
        let held = Id::from("g:frozen");
        assert_eq!(names.by_address.len(), 2);
        assert_eq!(names.by_address.get(&address(&held)), Some(&3));
        assert_eq!(names.get(&held), Some(&3));
        // another text with the same bytes, and a part of the shared text (same address,
        // shorter): each answered by its own text
        assert_eq!(names.get(&String::from("g:frozen")), Some(&3));
        assert_eq!(names.get(&held[..2]), None);
        assert_eq!(names.get("g:glowing"), Some(&5));
        assert_eq!(names.get("g:unknown"), None);
        assert_eq!(names.get(""), None);
    }
}
