//! The event log: one entry per change of state, emitted event, choice and turn boundary,
//! written as JSON lines. Entries name their source card and ability path (`cards/pmv:019/abilities/2`, the key of the span table),
//! never a source line, so moving a comment changes no snapshot; the span table maps the path
//! back to the line when a tool wants it.

use super::state::CardId;
use serde::Serialize;

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
