//! Source files, byte spans and line/column lookup.
//!
//! Every later phase stores byte ranges only; line and column are computed
//! here, once, for display (pest's `line_col()` rescans the input each call).

use std::sync::{Arc, OnceLock};

/// A byte range `start..end` inside one source file.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span covering `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// The span moved right by `offset` bytes (an item parsed on its own is shifted back into its file).
    pub fn shift(self, offset: usize) -> Self {
        Span::new(self.start + offset, self.end + offset)
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Self {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    /// Length in bytes.
    pub fn len(self) -> usize {
        self.end - self.start
    }
    /// True for an empty span.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// Identifies a file inside a [`SourceMap`].
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct FileId(pub u32);

/// One source file: its display path, its text and the byte offset of each line start.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path shown in diagnostics.
    pub path: String,
    /// The file's text (invalid UTF-8 was replaced before it got here).
    pub text: Arc<str>,
    /// Indexed when a position is first asked for (a pack loaded from the cache, a clean
    /// compile, may never ask).
    line_starts: OnceLock<Vec<usize>>,
}

impl SourceFile {
    /// A file of `text`, shown as `path`.
    pub fn new(path: impl Into<String>, text: impl Into<Arc<str>>) -> Self {
        SourceFile {
            path: path.into(),
            text: text.into(),
            line_starts: OnceLock::new(),
        }
    }

    /// The byte offset of each line's start.
    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0];
            starts.extend(memchr_lines(self.text.as_bytes()));
            starts
        })
    }

    /// The length in bytes of the line holding `offset`.
    pub fn line_len(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts().binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts()[line];
        let end = self
            .line_starts()
            .get(line + 1)
            .copied()
            .unwrap_or(self.text.len());
        end - start
    }

    /// 1-based line and column of a byte offset; columns count Unicode scalar values.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts().binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts()[line];
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text[start..end].chars().count() + 1;
        (line + 1, column)
    }
}

fn memchr_lines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', bytes).map(|i| i + 1)
}

/// Every file of one compilation, addressed by [`FileId`].
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a file and returns its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }
    /// The id the next added file will get.
    pub fn next_id(&self) -> FileId {
        FileId(self.files.len() as u32)
    }
    /// The file with this id.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }
    /// All files, in the order they were added.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }
}

/// Decodes file bytes as UTF-8. On failure returns the text with invalid
/// sequences replaced (so the file can still be displayed) and the byte
/// offset and length of the first invalid sequence. A leading byte-order mark
/// is dropped: it is no column, and the text then starts with its first word.
pub fn decode(bytes: &[u8]) -> Result<String, (String, usize, usize)> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_owned()),
        Err(e) => {
            let at = e.valid_up_to();
            let len = e.error_len().unwrap_or(bytes.len() - at);
            // Replace byte-for-byte with '?' so offsets after the error stay right.
            let mut fixed = Vec::with_capacity(bytes.len());
            let mut rest = bytes;
            loop {
                match std::str::from_utf8(rest) {
                    Ok(s) => {
                        fixed.extend_from_slice(s.as_bytes());
                        break;
                    }
                    Err(e) => {
                        let (good, bad) = rest.split_at(e.valid_up_to());
                        fixed.extend_from_slice(good);
                        let n = e.error_len().unwrap_or(bad.len());
                        fixed.extend(std::iter::repeat_n(b'?', n));
                        rest = &bad[n..];
                    }
                }
            }
            Err((String::from_utf8(fixed).unwrap_or_default(), at, len.max(1)))
        }
    }
}
