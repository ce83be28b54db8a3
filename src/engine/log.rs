//! The event log: one entry per change of state, emitted event, choice and turn boundary,
//! written as JSON lines. Entries name their source card and ability path (`cards/pmv:019/abilities/2`, the key of the span table),
//! never a source line, so moving a comment changes no snapshot; the span table maps the path
//! back to the line when a tool wants it.

use super::state::CardId;
use serde::Serialize;
use std::rc::Rc;

/// One log entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogEntry {
    /// Position in the log (from 1).
    pub seq: u64,
    /// The turn it happened in.
    pub turn: u32,
    /// What kind of entry: `turn`, `phase`, `move`, `state`, `counter`, `event`, `choice`,
    /// `modify`, `shuffle`, `payment`, `zone`, `nothing` (an effect found no card), `random`,
    /// `end`, `note` …
    pub kind: &'static str,
    /// The readable line, with every card named.
    pub text: String,
    /// The same line for players who may not see some of its cards: those names replaced by
    /// `a card`; `None` when it holds nothing hidden.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redacted: Option<String>,
    /// Players (one bit each) who may read `text` although it names hidden cards.
    #[serde(skip)]
    pub readers: u32,
    /// The cards the line names, each with the players (one bit each) who could see it when
    /// the line was written: `readers` is what they share, and `redacted` is written from it.
    #[serde(skip)]
    pub cards: Vec<(CardId, u32)>,
    /// The card whose ability produced it, and the ability path, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl LogEntry {
    /// The line as a player sees it (`None`: every player, the whole truth).
    pub fn text_for(&self, viewer: Option<u8>) -> &str {
        match (&self.redacted, viewer) {
            (Some(r), Some(p)) if self.readers & (1 << p) == 0 => r,
            _ => &self.text,
        }
    }

    /// The entry as one JSON line.
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// How many lines a [`Log`] gathers before it freezes them into a shared chunk.
const CHUNK: usize = 64;

/// A game's log: its lines in order, shared with the game's clones rather than copied.
///
/// A search agent clones a game at every decision; copying a long log (every line's texts)
/// would cost more than the rest of the game state. So no line is ever copied: each line is
/// written once and held by reference, full chunks of lines are shared by every clone, and
/// a clone copies only the references of the newest, unfrozen lines (fewer than 64) and of
/// the list of chunks. Lines are only ever appended, so sharing changes nothing a game
/// reads: a clone writing its own lines leaves the other's log as it was.
#[derive(Debug, Clone, Default)]
pub struct Log {
    /// Full chunks of [`CHUNK`] lines, oldest first, shared with the game's clones.
    chunks: Rc<Vec<Rc<[Rc<LogEntry>]>>>,
    /// The newest lines, fewer than [`CHUNK`].
    tail: Vec<Rc<LogEntry>>,
}

impl Log {
    /// How many lines were written.
    pub fn len(&self) -> usize {
        self.frozen().saturating_add(self.tail.len())
    }

    /// How many lines the full chunks hold.
    fn frozen(&self) -> usize {
        self.chunks.len().saturating_mul(CHUNK)
    }

    /// Whether no line was written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every line, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &LogEntry> + '_ {
        self.chunks
            .iter()
            .flat_map(|c| c.iter())
            .chain(self.tail.iter())
            .map(|e| &**e)
    }

    /// The lines from the `from`th (counted from 0) on: what was written since the log was
    /// `from` lines long.
    pub fn since(&self, from: usize) -> impl Iterator<Item = &LogEntry> + '_ {
        let frozen = self.frozen();
        let (in_chunks, in_tail) = if from >= frozen {
            (0, from.saturating_sub(frozen))
        } else {
            (from % CHUNK, 0)
        };
        self.chunks
            .iter()
            .skip(from / CHUNK)
            .flat_map(|c| c.iter())
            .skip(in_chunks)
            .chain(self.tail.iter().skip(in_tail))
            .map(|e| &**e)
    }

    /// The `i`th line (counted from 0), if written.
    pub fn get(&self, i: usize) -> Option<&LogEntry> {
        let chunk = i / CHUNK;
        match self.chunks.get(chunk) {
            Some(c) => c.get(i % CHUNK).map(|e| &**e),
            None => self.tail.get(i.saturating_sub(self.frozen())).map(|e| &**e),
        }
    }

    /// The newest line, if any.
    pub fn last(&self) -> Option<&LogEntry> {
        match self.tail.last() {
            Some(e) => Some(e),
            None => self.chunks.last().and_then(|c| c.last()).map(|e| &**e),
        }
    }

    /// A copy of every line.
    pub fn to_vec(&self) -> Vec<LogEntry> {
        self.iter().cloned().collect()
    }

    /// Writes a line at the end.
    pub fn push(&mut self, entry: LogEntry) {
        self.tail.push(Rc::new(entry));
        if self.tail.len() == CHUNK {
            let full: Rc<[Rc<LogEntry>]> = std::mem::take(&mut self.tail).into();
            Rc::make_mut(&mut self.chunks).push(full);
        }
    }
}

impl<'a> IntoIterator for &'a Log {
    type Item = &'a LogEntry;
    type IntoIter = Box<dyn Iterator<Item = &'a LogEntry> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::{Log, LogEntry, CHUNK};

    fn entry(seq: u64) -> LogEntry {
        LogEntry {
            seq,
            turn: 1,
            kind: "note",
            text: format!("line {seq}"),
            redacted: None,
            readers: 0,
            cards: Vec::new(),
            source: None,
        }
    }

    fn seqs<'a>(lines: impl Iterator<Item = &'a LogEntry>) -> Vec<u64> {
        lines.map(|e| e.seq).collect()
    }

    #[test]
    fn lines_read_back_in_order_across_chunks() {
        let mut log = Log::default();
        let n = CHUNK * 2 + 5;
        for i in 1..=n {
            log.push(entry(i as u64));
        }
        assert_eq!(log.len(), n);
        let all: Vec<u64> = (1..=n as u64).collect();
        assert_eq!(seqs(log.iter()), all);
        for from in [
            0,
            1,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            2 * CHUNK,
            n - 1,
            n,
            n + 3,
        ] {
            assert_eq!(
                seqs(log.since(from)),
                all[from.min(n)..].to_vec(),
                "since {from}"
            );
        }
        for i in [0, CHUNK - 1, CHUNK, 2 * CHUNK + 4] {
            assert_eq!(log.get(i).map(|e| e.seq), Some(i as u64 + 1));
        }
        assert!(log.get(n).is_none());
        assert_eq!(log.last().map(|e| e.seq), Some(n as u64));
    }

    #[test]
    fn a_clone_shares_the_lines_and_writes_its_own() {
        let mut log = Log::default();
        for i in 1..=CHUNK as u64 + 3 {
            log.push(entry(i));
        }
        let mut other = log.clone();
        assert!(std::rc::Rc::ptr_eq(&log.chunks, &other.chunks));
        other.push(entry(1000));
        for i in 0..CHUNK as u64 {
            log.push(entry(2000 + i));
        }
        assert_eq!(other.len(), CHUNK + 4);
        assert_eq!(other.last().map(|e| e.seq), Some(1000));
        assert_eq!(log.len(), 2 * CHUNK + 3);
        assert_eq!(seqs(log.since(CHUNK + 3)).first(), Some(&2000));
        assert_eq!(seqs(other.since(CHUNK)), vec![65, 66, 67, 1000]);
    }
}
