//! Formatting through `fuda fmt`'s `format_source`: one edit replacing the whole text when the
//! layout changes, none when it is already canonical or the text has syntax errors.

use super::position::Lines;
use crate::base::source::FileId;
use crate::compiler::format::format_source;
use lsp_types::TextEdit;

/// The edits that lay `text` out canonically.
pub fn format(text: &str) -> Vec<TextEdit> {
    match format_source(text, FileId(0)) {
        Ok(out) if out != text => {
            let lines = Lines::new(text);
            vec![TextEdit::new(lines.range(0, text.len()), out)]
        }
        _ => Vec::new(),
    }
}
