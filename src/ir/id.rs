//! Interned names: every id of the IR (a zone, a stat, a keyword, an event, a card's id…)
//! with the same text is one shared copy of it.
//!
//! A pack of ten thousand cards names the same few hundred zones, stats and keywords over and
//! over: as owned `String`s each mention was an allocation of its own, built again by every
//! cached load. An [`Id`] is a pointer to the one copy of its text, which lives as long as the
//! process (it is never freed: a long-running process — the language server — keeps every name
//! it has met, which grows with what is typed, not with how often it is compiled). Two ids are
//! equal exactly when they point at the same copy, so comparing them is comparing two pointers;
//! they order and hash as their texts do, so maps of ids keep the order of maps of texts, and
//! a map keyed by `Id` is looked up with a `&str`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock};

/// An interned name (see the module documentation). Serialized as its text.
///
/// One pointer wide (to the shared copy's own `&str`), so an optional id is one pointer too:
/// the IR's nodes are mostly ids and boxes.
#[derive(Clone, Copy)]
pub struct Id(&'static &'static str);

/// Every text interned so far, with its id. A std `HashMap` (SipHash with a random key), so
/// that names chosen by a stranger's pack cannot be made to collide.
fn interned() -> &'static Mutex<HashMap<&'static str, Id>> {
    static SET: OnceLock<Mutex<HashMap<&'static str, Id>>> = OnceLock::new();
    SET.get_or_init(|| Mutex::new(HashMap::new()))
}

impl Id {
    /// The id of `text`: its one shared copy, made the first time the text is seen.
    pub fn new(text: &str) -> Id {
        // A poisoned lock only means another thread panicked while holding it; the set
        // itself is always whole (an insert either happened or did not).
        let mut set = interned()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&id) = set.get(text) {
            return id;
        }
        let text: &'static str = Box::leak(text.to_owned().into_boxed_str());
        let copy: &'static &'static str = Box::leak(Box::new(text));
        set.insert(text, Id(copy));
        Id(copy)
    }

    /// The text.
    pub fn as_str(&self) -> &'static str {
        self.text()
    }

    fn text(&self) -> &'static str {
        self.0
    }

    /// The address of the shared copy: the same for every id of the same text, a key for
    /// tables that answer by id without reading its text.
    pub fn addr(&self) -> usize {
        std::ptr::from_ref(self.0).addr()
    }
}

/// How many texts are interned and their bytes (what the interner holds for the whole
/// process; benchmarks report it beside a phase's own memory).
pub fn interned_size() -> (usize, usize) {
    let set = interned()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    (set.len(), set.keys().map(|s| s.len()).sum())
}

impl Default for Id {
    fn default() -> Self {
        Id::new("")
    }
}

impl std::ops::Deref for Id {
    type Target = str;
    fn deref(&self) -> &str {
        self.text()
    }
}

impl AsRef<str> for Id {
    fn as_ref(&self) -> &str {
        self.text()
    }
}

impl Borrow<str> for Id {
    fn borrow(&self) -> &str {
        self.text()
    }
}

impl PartialEq for Id {
    fn eq(&self, other: &Id) -> bool {
        // One copy per text: the same text is the same address (and length).
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Id {}

impl Hash for Id {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As the text hashes, so that `Borrow<str>` lookups agree.
        self.text().hash(state);
    }
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Id) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Id {
    fn cmp(&self, other: &Id) -> std::cmp::Ordering {
        self.text().cmp(other.text())
    }
}

impl PartialEq<str> for Id {
    fn eq(&self, other: &str) -> bool {
        self.text() == other
    }
}

impl PartialEq<&str> for Id {
    fn eq(&self, other: &&str) -> bool {
        self.text() == *other
    }
}

impl PartialEq<String> for Id {
    fn eq(&self, other: &String) -> bool {
        self.text() == other.as_str()
    }
}

impl PartialEq<Id> for str {
    fn eq(&self, other: &Id) -> bool {
        self == other.text()
    }
}

impl PartialEq<Id> for &str {
    fn eq(&self, other: &Id) -> bool {
        *self == other.text()
    }
}

impl PartialEq<Id> for String {
    fn eq(&self, other: &Id) -> bool {
        self.as_str() == other.text()
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As a `String` prints, so debug output (and snapshots of it) read as before.
        fmt::Debug::fmt(self.text(), f)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl From<&str> for Id {
    fn from(text: &str) -> Id {
        Id::new(text)
    }
}

impl From<String> for Id {
    fn from(text: String) -> Id {
        Id::new(&text)
    }
}

impl From<&String> for Id {
    fn from(text: &String) -> Id {
        Id::new(text)
    }
}

impl From<Id> for String {
    fn from(id: Id) -> String {
        id.text().to_owned()
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.text())
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Id, D::Error> {
        struct Text;
        impl serde::de::Visitor<'_> for Text {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a name")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Id, E> {
                Ok(Id::new(text))
            }
        }
        deserializer.deserialize_str(Text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_text_is_the_same_copy() {
        let a = Id::new("mygame:frozen");
        let b = Id::from(String::from("mygame:frozen"));
        assert_eq!(a, b);
        assert_eq!(a.addr(), b.addr());
        assert_ne!(a, Id::new("mygame:thawed"));
        assert_eq!(a, "mygame:frozen");
    }

    #[test]
    fn ids_order_and_print_as_their_texts() {
        let mut ids = [Id::new("b"), Id::new("a"), Id::new("c")];
        ids.sort();
        assert_eq!(ids.map(|i| i.as_str()), ["a", "b", "c"]);
        assert_eq!(format!("{:?}", Id::new("x")), "\"x\"");
        assert_eq!(Id::new("x").to_string(), "x");
    }

    #[test]
    fn ids_serialize_as_their_texts() {
        let json = serde_json::to_string(&Id::new("zone")).expect("an id serializes");
        assert_eq!(json, "\"zone\"");
        let back: Id = serde_json::from_str(&json).expect("and reads back");
        assert_eq!(back, Id::new("zone"));
        let bytes = postcard::to_stdvec(&Id::new("zone")).expect("an id serializes");
        let back: Id = postcard::from_bytes(&bytes).expect("and reads back");
        assert_eq!(back, Id::new("zone"));
    }
}
