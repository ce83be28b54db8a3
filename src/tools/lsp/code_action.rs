//! Quick fixes: a diagnostic's machine-applicable fixes, and its `did you mean `x`?` help when
//! the diagnostic's label is on one name (the name is replaced by the suggestion).

use super::analysis::{uri_of, Analysis};
use super::diagnostics;
use super::position::Lines;
use crate::base::diagnostic::Diagnostic;
use crate::base::source::Span;
use lsp_types::{CodeAction, CodeActionKind, Range, TextEdit, WorkspaceEdit};
use std::collections::HashMap;

/// The quick fixes of the diagnostics of the analysed file that touch `range`.
pub fn quick_fixes(a: &Analysis, range: Range) -> Vec<CodeAction> {
    let Some(file) = a.file else {
        return Vec::new();
    };
    let Some(uri) = uri_of(a.session.sources.get(file)) else {
        return Vec::new();
    };
    let text = a.text(file);
    let lines = Lines::new(text);
    let (from, to) = (lines.offset(range.start), lines.offset(range.end));
    let mut out = Vec::new();
    for d in a.session.diags.iter().filter(|d| d.primary.file == file) {
        let span = d.primary.span;
        if span.end < from || span.start > to {
            continue;
        }
        for (title, edits) in fixes(d, text) {
            let edits: Vec<TextEdit> = edits
                .into_iter()
                .map(|(s, new)| TextEdit::new(lines.range(s.start, s.end), new))
                .collect();
            out.push(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostics::convert(d, &a.session.sources)]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..Default::default()
                }),
                is_preferred: Some(true),
                ..Default::default()
            });
        }
    }
    out
}

/// A diagnostic's fixes: a title and the replacements (spans of the diagnostic's file).
fn fixes(d: &Diagnostic, text: &str) -> Vec<(String, Vec<(Span, String)>)> {
    let mut out = Vec::new();
    if !d.fixes.is_empty() {
        let edits: Vec<(Span, String)> = d
            .fixes
            .iter()
            .map(|f| (f.span, f.replacement.clone()))
            .collect();
        let title = match edits.as_slice() {
            [(_, r)] => format!("Replace with `{r}`"),
            _ => "Apply the suggested fixes".to_string(),
        };
        out.push((title, edits));
    }
    let suggestion = d
        .help
        .as_deref()
        .and_then(|h| h.strip_prefix("did you mean `"))
        .and_then(|h| h.split_once("`?"))
        .map(|(name, _)| name.to_string());
    let labelled = text
        .get(d.primary.span.start..d.primary.span.end)
        .unwrap_or_default();
    let one_name = !labelled.is_empty()
        && labelled
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if let (Some(name), true) = (suggestion, one_name) {
        out.push((
            format!("Replace `{labelled}` with `{name}`"),
            vec![(d.primary.span, name)],
        ));
    }
    out
}
