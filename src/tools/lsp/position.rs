//! Byte offsets ↔ LSP positions. LSP counts a line's characters in UTF-16 code units (a
//! Japanese character is one, an emoji outside the Basic Multilingual Plane two), fuda's spans
//! count bytes: the conversion goes through rust-analyzer's `line-index`, never by counting
//! chars. Every conversion clamps: a position past the end of a line or of the text is the end
//! of that line or text, an offset inside a character is that character's start.

use line_index::{LineCol, LineIndex, TextSize, WideEncoding, WideLineCol};
use lsp_types::{Position, Range};

/// A text and its line index.
pub struct Lines<'t> {
    text: &'t str,
    index: LineIndex,
}

impl<'t> Lines<'t> {
    /// Indexes `text`.
    pub fn new(text: &'t str) -> Self {
        Lines {
            text,
            index: LineIndex::new(text),
        }
    }

    /// The LSP position of byte `offset` (clamped to the text, floored to a character start).
    pub fn position(&self, offset: usize) -> Position {
        let mut at = offset.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let size = TextSize::from(u32::try_from(at).unwrap_or(u32::MAX));
        let Some(lc) = self.index.try_line_col(size) else {
            return Position::new(0, 0);
        };
        match self.index.to_wide(WideEncoding::Utf16, lc) {
            Some(w) => Position::new(w.line, w.col),
            None => Position::new(lc.line, lc.col),
        }
    }

    /// The LSP range of bytes `start..end`.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The byte offset of an LSP position, clamped to its line and to the text.
    pub fn offset(&self, pos: Position) -> usize {
        let Some(line) = self.index.line(pos.line) else {
            return self.text.len();
        };
        let start = usize::from(line.start());
        // The line's end, before its line break.
        let end = self.text[start..usize::from(line.end())]
            .trim_end_matches(['\n', '\r'])
            .len()
            + start;
        let wide = WideLineCol {
            line: pos.line,
            col: pos.character,
        };
        let col = self
            .index
            .to_utf8(WideEncoding::Utf16, wide)
            .map_or(u32::MAX, |lc: LineCol| lc.col);
        let mut at = start.saturating_add(col as usize).min(end);
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }
}
