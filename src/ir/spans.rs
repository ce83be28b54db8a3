//! Source positions of IR nodes, kept beside the IR (never inside it).
//!
//! A table loaded from the compiled-pack cache stays encoded until something reads it (a
//! diagnostic pointing into a card, an editor's go-to-definition): most sessions never do.

use super::{Id, Map};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// A path → position entry: the file's path (interned), the byte start and the byte end.
pub type SpanEntry = (Id, usize, usize);

/// Source positions of IR nodes. Keys are paths like `cards/pmv:178/abilities/0`.
#[derive(Clone, Default)]
pub struct SpanTable(Table);

#[derive(Clone)]
enum Table {
    Decoded(Map<String, SpanEntry>),
    Encoded(Arc<Encoded>),
}

impl Default for Table {
    fn default() -> Self {
        Table::Decoded(Map::new())
    }
}

/// A table still as its stored bytes.
struct Encoded {
    /// The bytes, shared with what was stored with the table.
    bytes: Arc<Vec<u8>>,
    /// Where the table's encoding is in `bytes`.
    at: Range<usize>,
    /// The table once decoded.
    decoded: OnceLock<Map<String, SpanEntry>>,
}

impl SpanTable {
    /// Every entry, in key order (the table is decoded now if it was not yet).
    pub fn entries(&self) -> &Map<String, SpanEntry> {
        match &self.0 {
            Table::Decoded(m) => m,
            Table::Encoded(e) => e.decoded.get_or_init(|| e.decode()),
        }
    }

    /// Where the node at `path` was written.
    pub fn get(&self, path: &str) -> Option<&SpanEntry> {
        self.entries().get(path)
    }

    /// The table's encoding: what [`SpanTable::from_encoded`] takes back.
    pub fn encode(&self) -> Result<Vec<u8>, postcard::Error> {
        postcard::to_stdvec(self.entries())
    }

    /// A table kept as the encoding [`SpanTable::encode`] wrote, found at `at` in `bytes`;
    /// decoded when first read. `None` when `at` is not inside `bytes`.
    pub fn from_encoded(bytes: Arc<Vec<u8>>, at: Range<usize>) -> Option<SpanTable> {
        bytes.get(at.clone())?;
        Some(SpanTable(Table::Encoded(Arc::new(Encoded {
            bytes,
            at,
            decoded: OnceLock::new(),
        }))))
    }
}

impl Encoded {
    fn decode(&self) -> Map<String, SpanEntry> {
        super::cards::decode_stored(&self.bytes[self.at.clone()], || "the span table".into())
    }
}

impl From<Map<String, SpanEntry>> for SpanTable {
    fn from(entries: Map<String, SpanEntry>) -> Self {
        SpanTable(Table::Decoded(entries))
    }
}

impl FromIterator<(String, SpanEntry)> for SpanTable {
    fn from_iter<T: IntoIterator<Item = (String, SpanEntry)>>(iter: T) -> Self {
        SpanTable(Table::Decoded(iter.into_iter().collect()))
    }
}

impl PartialEq for SpanTable {
    fn eq(&self, other: &Self) -> bool {
        self.entries() == other.entries()
    }
}

impl Eq for SpanTable {}

impl fmt::Debug for SpanTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpanTable")
            .field("entries", self.entries())
            .finish()
    }
}

/// The serde shape of a table: `{ "entries": { path: [file, start, end], … } }`.
#[derive(Serialize)]
struct Shown<'t> {
    entries: &'t Map<String, SpanEntry>,
}

#[derive(Deserialize)]
struct Read {
    entries: Map<String, SpanEntry>,
}

impl Serialize for SpanTable {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Shown {
            entries: self.entries(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for SpanTable {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Read::deserialize(d).map(|r| SpanTable::from(r.entries))
    }
}
