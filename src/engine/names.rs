//! Names → indices, answered by address.
//!
//! The IR names everything by its id (`mygame:frozen`, `mygame:strength`): an engine that looks
//! a state up by its text hashes and compares that text at every evaluation. Ids are interned
//! ([`ir::Id`](crate::ir::Id)): every id of the same text points at one shared copy, which
//! lives as long as the process. [`Names`] keeps the map by text and, beside it, the same
//! answers keyed by where each of its ids' shared text lies (address and length). A lookup
//! tries the address first (one hash of two machine words, no text read), then the text.
//!
//! The answers by address are kept in a small table of their own ([`ByAddress`]): open
//! addressing, the address's bits mixed by one multiplication, at most half full — a lookup
//! is a few instructions where a general hash map's took about fifty, and the engine looks
//! names up at nearly every expression.
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
    by_address: ByAddress<V>,
}

impl<V> Default for Names<V> {
    fn default() -> Self {
        Names {
            by_name: HashMap::default(),
            by_address: ByAddress::default(),
        }
    }
}

impl<V: Copy> Names<V> {
    /// The value of an id: by the address of its text when that is an id's shared copy, else
    /// by its text.
    #[inline(always)]
    pub fn get(&self, id: &str) -> Option<&V> {
        if let Some(v) = self.by_address.get(address(id)) {
            return Some(v);
        }
        self.by_name.get(id)
    }
}

/// (address, length) → value: open addressing with linear probing in a table of a power of
/// two slots, at most half of them taken (so that a probe always meets an empty slot). Also the
/// table of other engine-private maps keyed by an address (`lowered::Conds`).
#[derive(Debug)]
pub(super) struct ByAddress<V> {
    slots: Vec<Option<((usize, usize), V)>>,
    /// How far a mixed address is shifted right to leave the bits of a slot's index.
    shift: u32,
    /// The slots' count less one (the count is a power of two).
    mask: usize,
    /// How many keys it holds.
    len: usize,
}

impl<V> Default for ByAddress<V> {
    fn default() -> Self {
        ByAddress::of(Vec::new())
    }
}

impl<V> ByAddress<V> {
    /// The table of `entries` (each key once).
    pub(super) fn of(entries: Vec<((usize, usize), V)>) -> Self {
        let size = entries.len().saturating_mul(2).max(1).next_power_of_two();
        let mut slots: Vec<Option<((usize, usize), V)>> = Vec::with_capacity(size);
        slots.resize_with(size, || None);
        let bits = size.trailing_zeros();
        let mut table = ByAddress {
            slots,
            shift: 64u32.saturating_sub(bits).min(63),
            mask: size.wrapping_sub(1),
            len: entries.len(),
        };
        for (key, v) in entries {
            let mut i = table.home(key.0);
            while table.slots.get(i).is_some_and(Option::is_some) {
                i = table.next(i);
            }
            if let Some(slot) = table.slots.get_mut(i) {
                *slot = Some((key, v));
            }
        }
        table
    }

    /// The value at `key`, if any.
    #[inline]
    pub(super) fn get(&self, key: (usize, usize)) -> Option<&V> {
        let mut i = self.home(key.0);
        loop {
            match self.slots.get(i)? {
                Some((k, v)) if *k == key => return Some(v),
                Some(_) => i = self.next(i),
                None => return None,
            }
        }
    }

    /// The slot a key's probe starts at: the address's bits mixed (Fibonacci hashing), the
    /// top ones taken.
    #[inline]
    fn home(&self, addr: usize) -> usize {
        // (a no-op conversion where pointers are 64 bits wide)
        let addr = u64::try_from(addr).unwrap_or(u64::MAX);
        let mixed = addr
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_shr(self.shift);
        usize::try_from(mixed).unwrap_or(0) & self.mask
    }

    /// The slot after `i`, wrapping around.
    #[inline]
    fn next(&self, i: usize) -> usize {
        i.wrapping_add(1) & self.mask
    }

    /// How many keys it holds.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no key.
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
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
        let by_address = ByAddress::of(by_name.iter().map(|(id, &v)| (address(id), v)).collect());
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
        assert_eq!(names.by_address.get(address(&held)), Some(&3));
        assert_eq!(names.get(&held), Some(&3));
        // another text with the same bytes, and a part of the shared text (same address,
        // shorter): each answered by its own text
        assert_eq!(names.get(&String::from("g:frozen")), Some(&3));
        assert_eq!(names.get(&held[..2]), None);
        assert_eq!(names.get("g:glowing"), Some(&5));
        assert_eq!(names.get("g:unknown"), None);
        assert_eq!(names.get(""), None);
    }

    #[test]
    fn a_large_table_finds_every_id_and_no_other() {
        let ids: Vec<Id> = (0..1000).map(|i| Id::from(format!("g:name{i}"))).collect();
        let names: Names<u32> = ids.iter().zip(0u32..).map(|(id, i)| (*id, i)).collect();
        assert_eq!(names.by_address.len(), 1000);
        assert!(names.by_address.slots.len() >= 2000);
        for (id, i) in ids.iter().zip(0u32..) {
            assert_eq!(names.get(id), Some(&i));
            assert_eq!(names.by_address.get(address(id)), Some(&i));
        }
        for other in ["g:name1000", "g:name", "name1"] {
            assert_eq!(names.get(&Id::from(other)), None);
        }
        let empty: Names<u32> = std::iter::empty().collect();
        assert_eq!(empty.get(&ids[0]), None);
    }
}
