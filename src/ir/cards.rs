//! A pack's cards, decoded, or encoded and each decoded when first read.
//!
//! A pack loaded from the compiled-pack cache keeps its cards as the bytes the cache stored
//! (one postcard encoding per card) and decodes a card the first time something reads it: a
//! `fuda check` of an unchanged 10,000-card pack, or an editor asking about one card, decodes
//! none or that one, not the 10,000 (a game's program still copies every card of its packs, and
//! a deck is still checked against every card of its game). Each card's normalized number is
//! kept decoded, for what looks cards up by number across a whole pack (the session's number
//! clash check).
//!
//! However they are held, [`Cards`] read, print, compare and serialize as a list of
//! [`Card`]s, exactly as the `Vec<Card>` they replace.

use super::Card;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A pack's cards, in source order (see the module documentation).
#[derive(Clone, Default)]
pub struct Cards(Held);

#[derive(Clone)]
enum Held {
    /// Cards in memory (a compiled pack, or one read from JSON).
    Decoded(Vec<Card>),
    /// Cards as stored bytes, shared by the clones of the pack.
    Encoded(Arc<Encoded>),
}

impl Default for Held {
    fn default() -> Self {
        Held::Decoded(Vec::new())
    }
}

/// Cards kept as their encodings.
struct Encoded {
    /// The bytes the encodings are in (from `start` on), shared with what else was stored
    /// with them.
    bytes: Arc<Vec<u8>>,
    /// Where each card's encoding ends, counted from `start` (the first begins at `start`).
    ends: Vec<u32>,
    /// Where the first card's encoding begins in `bytes`.
    start: usize,
    /// Each card's normalized number.
    numbers: Vec<String>,
    /// Each card once decoded.
    decoded: Vec<OnceLock<Card>>,
}

/// What [`Cards::encode`] writes for stored cards, and [`Cards::from_encoded`] reads back.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CardsIndex {
    /// Each card's normalized number.
    pub numbers: Vec<String>,
    /// Where each card's encoding ends in the encodings, which follow one another.
    pub ends: Vec<u32>,
}

/// Why stored cards can't be taken back.
#[derive(Debug)]
pub struct BadEncoding;

impl Cards {
    /// The number of cards.
    pub fn len(&self) -> usize {
        match &self.0 {
            Held::Decoded(v) => v.len(),
            Held::Encoded(e) => e.ends.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The card at `i` (decoded now if it was not yet).
    pub fn get(&self, i: usize) -> Option<&Card> {
        match &self.0 {
            Held::Decoded(v) => v.get(i),
            Held::Encoded(e) => e.card(i),
        }
    }

    /// The normalized number of the card at `i`, without decoding the card.
    pub fn normalized_number(&self, i: usize) -> Option<&str> {
        match &self.0 {
            Held::Decoded(v) => v.get(i).map(|c| c.normalized_number.as_str()),
            Held::Encoded(e) => e.numbers.get(i).map(String::as_str),
        }
    }

    /// The cards in order (each decoded as it is reached).
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            cards: self,
            at: 0..self.len(),
        }
    }

    /// How many cards are decoded (all of them, unless they came from stored bytes).
    pub fn decoded_count(&self) -> usize {
        match &self.0 {
            Held::Decoded(v) => v.len(),
            Held::Encoded(e) => e.decoded.iter().filter(|c| c.get().is_some()).count(),
        }
    }

    /// How many bytes the encodings of [`Cards::from_encoded`]'s `index` take.
    pub fn encoded_len(index: &CardsIndex) -> usize {
        index.ends.last().map_or(0, |&e| e as usize)
    }

    /// The cards' encodings, one after another, and their index: what
    /// [`Cards::from_encoded`] takes back.
    pub fn encode(&self) -> Result<(CardsIndex, Vec<u8>), postcard::Error> {
        let mut bytes = Vec::new();
        let mut index = CardsIndex::default();
        for c in self.iter() {
            bytes = postcard::to_extend(c, bytes)?;
            index.numbers.push(c.normalized_number.clone());
            index.ends.push(
                u32::try_from(bytes.len()).map_err(|_| postcard::Error::SerializeBufferFull)?,
            );
        }
        Ok((index, bytes))
    }

    /// Cards kept as the encodings [`Cards::encode`] wrote, found in `bytes` from `start` on
    /// (checked to fit; each card is decoded when first read).
    pub fn from_encoded(
        index: CardsIndex,
        bytes: Arc<Vec<u8>>,
        start: usize,
    ) -> Result<Cards, BadEncoding> {
        let CardsIndex { numbers, ends } = index;
        let room = bytes.len().checked_sub(start).ok_or(BadEncoding)?;
        let ordered = ends.windows(2).all(|w| w[0] <= w[1]);
        let fits = ends.last().is_none_or(|&e| e as usize <= room);
        if numbers.len() != ends.len() || !ordered || !fits {
            return Err(BadEncoding);
        }
        let decoded = (0..ends.len()).map(|_| OnceLock::new()).collect();
        Ok(Cards(Held::Encoded(Arc::new(Encoded {
            bytes,
            ends,
            start,
            numbers,
            decoded,
        }))))
    }
}

impl Encoded {
    fn card(&self, i: usize) -> Option<&Card> {
        let cell = self.decoded.get(i)?;
        Some(cell.get_or_init(|| self.decode(i)))
    }

    fn decode(&self, i: usize) -> Card {
        let begin = match i.checked_sub(1) {
            Some(p) => self.ends[p] as usize,
            None => 0,
        };
        let end = self.ends[i] as usize;
        decode_stored(&self.bytes[self.start + begin..self.start + end], || {
            format!("card {i}")
        })
    }
}

/// Decodes what the compiled-pack cache stored (`what` names it: a card, a span table). The
/// cache checks its entries' bytes against their hash before it keeps them, and the round trip
/// of every shipped card and span table is tested (tests/cards.rs): bytes that no longer decode
/// are a fuda bug, not bad input.
pub(super) fn decode_stored<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    what: impl FnOnce() -> String,
) -> T {
    match postcard::from_bytes(bytes) {
        Ok(v) => v,
        Err(e) => panic!("{} of a compiled-pack cache entry does not decode ({e}): a fuda bug; removing the cache folder works around it", what()),
    }
}

/// The cards of a [`Cards`] in order.
pub struct Iter<'c> {
    cards: &'c Cards,
    at: std::ops::Range<usize>,
}

impl<'c> Iterator for Iter<'c> {
    type Item = &'c Card;
    fn next(&mut self) -> Option<&'c Card> {
        self.at.next().map(|i| &self.cards[i])
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.at.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.at.next_back().map(|i| &self.cards[i])
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl From<Vec<Card>> for Cards {
    fn from(cards: Vec<Card>) -> Self {
        Cards(Held::Decoded(cards))
    }
}

impl FromIterator<Card> for Cards {
    fn from_iter<T: IntoIterator<Item = Card>>(iter: T) -> Self {
        Cards(Held::Decoded(iter.into_iter().collect()))
    }
}

impl std::ops::Index<usize> for Cards {
    type Output = Card;
    fn index(&self, i: usize) -> &Card {
        match self.get(i) {
            Some(c) => c,
            None => panic!("card {i} of a pack of {} cards", self.len()),
        }
    }
}

impl<'c> IntoIterator for &'c Cards {
    type Item = &'c Card;
    type IntoIter = Iter<'c>;
    fn into_iter(self) -> Iter<'c> {
        self.iter()
    }
}

impl PartialEq for Cards {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Cards {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<Card>::deserialize(d).map(Cards::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(numbers: &[&str], ends: &[u32]) -> CardsIndex {
        CardsIndex {
            numbers: numbers.iter().map(|n| n.to_string()).collect(),
            ends: ends.to_vec(),
        }
    }

    #[test]
    fn an_index_that_does_not_fit_its_bytes_is_refused() {
        let bytes = Arc::new(vec![0u8; 8]);
        // an encoding past the end, ends out of order, a count that differs, a start past the end
        assert!(Cards::from_encoded(index(&["1"], &[9]), bytes.clone(), 0).is_err());
        assert!(Cards::from_encoded(index(&["1", "2"], &[4, 2]), bytes.clone(), 0).is_err());
        assert!(Cards::from_encoded(index(&["1"], &[2, 4]), bytes.clone(), 0).is_err());
        assert!(Cards::from_encoded(index(&[], &[]), bytes.clone(), 9).is_err());
        assert!(Cards::from_encoded(index(&["1"], &[4]), bytes.clone(), 4).is_ok());
        assert!(Cards::from_encoded(index(&["1"], &[5]), bytes, 4).is_err());
    }

    #[test]
    fn stored_numbers_are_read_without_decoding() {
        let cards = Cards::from_encoded(index(&["A-1", "A-2"], &[0, 0]), Arc::new(Vec::new()), 0)
            .expect("fits");
        assert_eq!(cards.len(), 2);
        assert_eq!(cards.normalized_number(1), Some("A-2"));
        assert_eq!(cards.normalized_number(2), None);
        assert_eq!(cards.decoded_count(), 0);
    }
}
