//! The small maps inside cards and statements (a card's fields and stats, a trigger's
//! conditions, a call's arguments).
//!
//! They hold a handful of entries each, where a `BTreeMap` allocates a node for eleven: a
//! [`Map`] is a sorted vector of pairs (`litemap`), in the same key order, and reads, prints and
//! serializes exactly as a `BTreeMap` does (an empty map is `{}` in JSON, as before).

use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A sorted map of few entries (see the module documentation). Its reads are `LiteMap`'s
/// (`get`, `insert`, `iter`, `keys`, `values`, `len`…), through `Deref`.
#[derive(Clone, PartialEq, Eq)]
pub struct Map<K, V>(litemap::LiteMap<K, V>);

impl<K, V> Map<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Map(litemap::LiteMap::new())
    }
}

impl<V> Map<super::Id, V> {
    /// The value whose id reads `key`. A scan comparing lengths before texts: these maps hold
    /// a handful of entries, where a binary search's text comparisons cost more (the engine
    /// reads cards' fields and calls' arguments this way all game long).
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0
            .iter()
            .find(|(k, _)| {
                let k = k.as_str();
                // a key read from an id of the same text is the same copy of it
                k.len() == key.len() && (std::ptr::eq(k.as_ptr(), key.as_ptr()) || k == key)
            })
            .map(|(_, v)| v)
    }

    /// The value of the id `key`: a scan comparing addresses only (two ids are equal exactly
    /// when they are one copy of their text).
    pub fn get_id(&self, key: super::Id) -> Option<&V> {
        self.0.iter().find(|(k, _)| **k == key).map(|(_, v)| v)
    }
}

impl<K, V> Default for Map<K, V> {
    fn default() -> Self {
        Map::new()
    }
}

impl<K, V> std::ops::Deref for Map<K, V> {
    type Target = litemap::LiteMap<K, V>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<K, V> std::ops::DerefMut for Map<K, V> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for Map<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        Map(pairs.into_iter().collect())
    }
}

impl<'m, K: 'm, V: 'm> IntoIterator for &'m Map<K, V> {
    type Item = (&'m K, &'m V);
    type IntoIter = <&'m litemap::LiteMap<K, V> as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (&self.0).into_iter()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for Map<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As a BTreeMap prints: `{k: v, …}`.
        f.debug_map().entries(self.0.iter()).finish()
    }
}

impl<K: Serialize, V: Serialize> Serialize for Map<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Always a map (`LiteMap` itself writes an empty map as a list in JSON).
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, K, V> Deserialize<'de> for Map<K, V>
where
    K: Deserialize<'de> + Ord,
    V: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        litemap::LiteMap::deserialize(deserializer).map(Map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn a_map_reads_and_writes_as_a_btreemap() {
        let pairs = [("b".to_string(), 2), ("a".to_string(), 1)];
        let map: Map<String, i64> = pairs.iter().cloned().collect();
        let tree: BTreeMap<String, i64> = pairs.iter().cloned().collect();
        let json = serde_json::to_string(&map).expect("a map serializes");
        assert_eq!(json, serde_json::to_string(&tree).expect("so does a tree"));
        assert_eq!(format!("{map:?}"), format!("{tree:?}"));
        let back: Map<String, i64> = serde_json::from_str(&json).expect("and reads back");
        assert_eq!(back, map);
        let empty: Map<String, i64> = Map::new();
        assert_eq!(serde_json::to_string(&empty).expect("serializes"), "{}");
        let bytes = postcard::to_stdvec(&map).expect("a map serializes");
        let back: Map<String, i64> = postcard::from_bytes(&bytes).expect("and reads back");
        assert_eq!(back, map);
        assert_eq!(map.get("a"), Some(&1));
    }

    #[test]
    fn an_id_map_finds_its_keys_by_text() {
        let map: Map<super::super::Id, i64> = [("xq", 1), ("xqz", 2), ("zw", 3)]
            .into_iter()
            .map(|(k, v)| (super::super::Id::new(k), v))
            .collect();
        assert_eq!(map.get("xqz"), Some(&2));
        assert_eq!(map.get("xq"), Some(&1));
        assert_eq!(map.get("zw"), Some(&3));
        assert_eq!(map.get("z"), None);
        // a text that is no id's copy (built at run time) is found by its text too
        let built = ["x", "qz"].concat();
        assert_eq!(map.get(&built), Some(&2));
        assert_eq!(map.get_id(super::super::Id::new(&built)), Some(&2));
        assert_eq!(map.get_id(super::super::Id::new("zw")), Some(&3));
        assert_eq!(map.get_id(super::super::Id::new("xz")), None);
    }
}
