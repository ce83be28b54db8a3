//! The session's diagnostics as LSP diagnostics, grouped by the file they are in: each at its
//! primary label's exact range (UTF-16 positions), its related labels as related information,
//! its help after the message.

use super::analysis::uri_of;
use super::position::Lines;
use crate::base::diagnostic::{Diagnostic, Label, Severity};
use crate::base::source::SourceMap;
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, Url,
};
use std::collections::BTreeMap;

/// The LSP diagnostics of `diags`, by the URI of their file. Diagnostics of files that are no
/// file on disk (the games built into the binary) are left out.
pub fn by_file(
    diags: &[Diagnostic],
    sources: &SourceMap,
) -> BTreeMap<Url, Vec<lsp_types::Diagnostic>> {
    let mut out: BTreeMap<Url, Vec<lsp_types::Diagnostic>> = BTreeMap::new();
    for d in diags {
        let file = sources.get(d.primary.file);
        let Some(uri) = uri_of(file) else {
            continue;
        };
        out.entry(uri).or_default().push(convert(d, sources));
    }
    out
}

/// One diagnostic.
pub fn convert(d: &Diagnostic, sources: &SourceMap) -> lsp_types::Diagnostic {
    let mut message = d.message.clone();
    if !d.primary.message.is_empty() && d.primary.message != d.message {
        message.push_str(&format!(" ({})", d.primary.message));
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|l| {
            Some(DiagnosticRelatedInformation {
                location: Location::new(uri_of(sources.get(l.file))?, range(l, sources)),
                message: l.message.clone(),
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range: range(&d.primary, sources),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.0.to_string())),
        source: Some("fuda".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

/// The range of a label in its file.
fn range(l: &Label, sources: &SourceMap) -> Range {
    Lines::new(&sources.get(l.file).text).range(l.span.start, l.span.end)
}
