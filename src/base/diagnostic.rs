//! Diagnostics: one typed value per problem found in any phase, rendered in
//! one place (graphically through miette, or as JSON for tools).
//!
//! Phases return `Vec<Diagnostic>`; they never print. The primary label sits on
//! the exact token at fault; `related` labels point at the other place involved
//! (the first of two duplicate card numbers, say).

use crate::base::source::{FileId, SourceMap, Span};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan};
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

pub mod codes;

/// How bad a diagnostic is. Warnings alone leave the exit code at 0 unless
/// `--deny-warnings` is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The input is wrong: nothing is compiled from it.
    Error,
    /// Suspicious but legal.
    Warning,
}

/// A diagnostic code such as `fuda::resolve::unknown_zone`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(pub &'static str);

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A place in a file with a short explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// The file the span is in.
    pub file: FileId,
    /// The bytes the label underlines.
    pub span: Span,
    /// What the label says under them.
    pub message: String,
}

impl Label {
    /// A label on `span` of `file`.
    pub fn new(file: FileId, span: Span, message: impl Into<String>) -> Self {
        Label {
            file,
            span,
            message: message.into(),
        }
    }
}

/// One problem, with its code, message, position and an optional suggestion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable machine-readable code.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// One sentence saying what is wrong.
    pub message: String,
    /// The exact token at fault.
    pub primary: Label,
    /// A suggestion ("did you mean `crypt`?").
    pub help: Option<String>,
    /// Other places involved.
    pub related: Vec<Label>,
    /// Machine-applicable fixes: replacing each span of the primary label's file with its text
    /// fixes the mistake (`--format json` gives them to editors).
    pub fixes: Vec<Fix>,
}

/// A machine-applicable fix: replace the bytes of `span` (in the file of the diagnostic's
/// primary label) with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// The bytes to replace.
    pub span: Span,
    /// What to put in their place.
    pub replacement: String,
}

impl Diagnostic {
    /// An error at `span` of `file`; the label repeats nothing, so give it a short text.
    pub fn error(
        code: Code,
        file: FileId,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: clip(message.into()),
            primary: Label::new(file, span, clip(label.into())),
            help: None,
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }
    /// A warning at `span` of `file`.
    pub fn warning(
        code: Code,
        file: FileId,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Self::error(code, file, span, message, label)
        }
    }
    /// Adds a suggestion.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(clip(help.into()));
        self
    }
    /// Adds a suggestion when there is one.
    pub fn with_help_opt(mut self, help: Option<String>) -> Self {
        self.help = help.map(clip);
        self
    }
    /// Adds a machine-applicable fix: `replacement` in place of `span` of the primary file.
    pub fn with_fix(mut self, span: Span, replacement: impl Into<String>) -> Self {
        self.fixes.push(Fix {
            span,
            replacement: replacement.into(),
        });
        self
    }
    /// Adds a related place.
    pub fn with_related(mut self, label: Label) -> Self {
        self.related.push(label);
        self
    }
    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Longest message kept: a hostile file can hold a megabyte-long name.
const MAX_MESSAGE: usize = 400;

/// Shortens a text longer than [`MAX_MESSAGE`] bytes, at a character boundary.
fn clip(mut text: String) -> String {
    if text.len() > MAX_MESSAGE {
        let mut end = MAX_MESSAGE;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

/// Sorts diagnostics by file, position and code, so output is stable.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (a.primary.file, a.primary.span.start, a.code, &a.message).cmp(&(
            b.primary.file,
            b.primary.span.start,
            b.code,
            &b.message,
        ))
    });
}

// ───────────────────────────── graphical rendering ─────────────────────────────

/// How diagnostics are drawn.
#[derive(Debug, Clone, Copy)]
pub struct RenderOptions {
    /// Use ANSI colours.
    pub color: bool,
    /// Wrap width in columns.
    pub width: usize,
}

impl RenderOptions {
    /// No colour, 80 columns: what snapshot tests use.
    pub fn plain() -> Self {
        RenderOptions {
            color: false,
            width: 80,
        }
    }
}

/// Lines longer than this (in bytes) are not drawn with an excerpt: the renderer pads labels
/// to their column, and a line of megabytes cannot be shown usefully anyway.
const MAX_EXCERPT_LINE: usize = 2000;

/// Renders one diagnostic as text, with the source excerpt and labels.
pub fn render(diag: &Diagnostic, sources: &SourceMap, options: RenderOptions) -> String {
    // Lines too long to draw (a megabyte on one line) get the one-line form.
    let far = std::iter::once(&diag.primary)
        .chain(&diag.related)
        .any(|l| {
            let file = sources.get(l.file);
            file.line_len(l.span.start) > MAX_EXCERPT_LINE
                || file.line_len(l.span.end) > MAX_EXCERPT_LINE
        });
    if far {
        return render_plain(diag, sources);
    }
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .without_syntax_highlighting()
        .with_width(options.width);
    let report = Report::new(diag, sources);
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        out = format!("{}: {}\n", diag.code, diag.message);
    }
    out
}

/// `file:line:col: severity[code]: message`, then the help: for places too far along a line
/// to draw an excerpt of.
fn render_plain(diag: &Diagnostic, sources: &SourceMap) -> String {
    let mut out = String::new();
    let sev = if diag.is_error() { "error" } else { "warning" };
    for (i, l) in std::iter::once(&diag.primary)
        .chain(&diag.related)
        .enumerate()
    {
        let file = sources.get(l.file);
        let (line, col) = file.line_col(l.span.start);
        if i == 0 {
            out.push_str(&format!(
                "{}:{line}:{col}: {sev}[{}]: {} ({})\n",
                file.path, diag.code, diag.message, l.message
            ));
        } else {
            out.push_str(&format!("  {}:{line}:{col}: {}\n", file.path, l.message));
        }
    }
    if let Some(h) = &diag.help {
        out.push_str(&format!("  help: {h}\n"));
    }
    out
}

/// The miette view of a [`Diagnostic`]: labels in the primary file become
/// labels; labels in other files become related reports with their own source.
#[derive(Debug)]
struct Report {
    code: Code,
    /// `None` for a related place (rendered as advice, not as another error).
    severity: Option<Severity>,
    message: String,
    help: Option<String>,
    source: CharColumns,
    labels: Vec<LabeledSpan>,
    related: Vec<Report>,
}

/// A file's text as miette reads it, with columns counted in characters as everywhere else
/// in fuda (the JSON, the plain view, editors): miette counts bytes, so its `file:line:col`
/// header said 3:20 for a mistake after Japanese text that the JSON places at 3:14.
#[derive(Debug)]
struct CharColumns {
    name: String,
    text: Arc<str>,
}

impl CharColumns {
    fn new(name: String, text: Arc<str>) -> Self {
        CharColumns { name, text }
    }

    /// Whether there is no text to show (a problem with a file as a whole).
    fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

impl miette::SourceCode for CharColumns {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner =
            self.text
                .as_ref()
                .read_span(span, context_lines_before, context_lines_after)?;
        let start = inner.span().offset().min(self.text.len());
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let column = self.text[line_start..start].chars().count();
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            column,
            inner.line_count(),
        )))
    }
}

impl Report {
    fn new(diag: &Diagnostic, sources: &SourceMap) -> Self {
        let file = sources.get(diag.primary.file);
        let mut labels = vec![labeled(&diag.primary, file.text.len(), true)];
        let mut related = Vec::new();
        for label in &diag.related {
            if label.file == diag.primary.file {
                labels.push(labeled(label, file.text.len(), false));
            } else {
                let other = sources.get(label.file);
                related.push(Report {
                    code: diag.code,
                    severity: None,
                    message: label.message.clone(),
                    help: None,
                    source: CharColumns::new(other.path.clone(), other.text.clone()),
                    labels: vec![labeled(label, other.text.len(), true)],
                    related: Vec::new(),
                });
            }
        }
        // a file with no text to show (empty, unreadable) is named in the message instead
        let message = if file.text.is_empty() && !diag.message.contains(file.path.as_str()) {
            format!("{}: {}", file.path, diag.message)
        } else {
            diag.message.clone()
        };
        Report {
            code: diag.code,
            severity: Some(diag.severity),
            message,
            help: diag.help.clone(),
            source: CharColumns::new(file.path.clone(), file.text.clone()),
            labels,
            related,
        }
    }
}

fn labeled(label: &Label, text_len: usize, primary: bool) -> LabeledSpan {
    let start = label.span.start.min(text_len);
    let len = label.span.len().min(text_len - start);
    let text = if label.message.is_empty() {
        None
    } else {
        Some(label.message.clone())
    };
    if primary {
        LabeledSpan::new_primary_with_span(text, (start, len))
    } else {
        LabeledSpan::new_with_span(text, (start, len))
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Some(Severity::Error) => miette::Severity::Error,
            Some(Severity::Warning) => miette::Severity::Warning,
            None => miette::Severity::Advice,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        // A problem with a file as a whole (unreadable, missing) has no excerpt to show.
        (!self.source.is_empty()).then_some(&self.source as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.source.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(
                self.related.iter().map(|r| r as &dyn miette::Diagnostic),
            ))
        }
    }
}

// ───────────────────────────── JSON ─────────────────────────────

/// The `--format json` form of a diagnostic. Lines and columns are 1-based,
/// columns count Unicode scalar values; `offset` and `length` are in bytes.
#[derive(Debug, Clone, Serialize)]
pub struct JsonDiagnostic {
    /// The file's display path.
    pub file: String,
    /// Line of the first byte.
    pub line: usize,
    /// Column of the first byte.
    pub column: usize,
    /// Line of the end.
    pub end_line: usize,
    /// Column of the end (one past the last character).
    pub end_column: usize,
    /// Byte offset.
    pub offset: usize,
    /// Byte length.
    pub length: usize,
    /// Diagnostic code.
    pub code: &'static str,
    /// `error` or `warning`.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// The suggestion, if any.
    pub help: Option<String>,
    /// The primary label's text.
    pub label: String,
    /// The other places involved.
    pub related: Vec<JsonLabel>,
    /// Machine-applicable fixes, in the primary label's file (left out when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<JsonFix>,
}

/// A machine-applicable fix in JSON form: replace `length` bytes at byte `offset` with
/// `replacement`.
#[derive(Debug, Clone, Serialize)]
pub struct JsonFix {
    /// Byte offset in the file.
    pub offset: usize,
    /// Byte length replaced.
    pub length: usize,
    /// The text put in their place.
    pub replacement: String,
}

/// A related place in JSON form.
#[derive(Debug, Clone, Serialize)]
pub struct JsonLabel {
    /// The file's display path.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Line of the end.
    pub end_line: usize,
    /// Column of the end.
    pub end_column: usize,
    /// Byte offset.
    pub offset: usize,
    /// Byte length.
    pub length: usize,
    /// What the label says.
    pub message: String,
}

impl JsonDiagnostic {
    /// Converts a diagnostic, computing lines and columns from the source map.
    pub fn new(diag: &Diagnostic, sources: &SourceMap) -> Self {
        let file = sources.get(diag.primary.file);
        let (line, column) = file.line_col(diag.primary.span.start);
        let (end_line, end_column) = file.line_col(diag.primary.span.end);
        JsonDiagnostic {
            file: file.path.clone(),
            line,
            column,
            end_line,
            end_column,
            offset: diag.primary.span.start,
            length: diag.primary.span.len(),
            code: diag.code.0,
            severity: diag.severity,
            message: diag.message.clone(),
            help: diag.help.clone(),
            label: diag.primary.message.clone(),
            related: diag
                .related
                .iter()
                .map(|l| {
                    let f = sources.get(l.file);
                    let (line, column) = f.line_col(l.span.start);
                    let (end_line, end_column) = f.line_col(l.span.end);
                    JsonLabel {
                        file: f.path.clone(),
                        line,
                        column,
                        end_line,
                        end_column,
                        offset: l.span.start,
                        length: l.span.len(),
                        message: l.message.clone(),
                    }
                })
                .collect(),
            fixes: diag
                .fixes
                .iter()
                .map(|f| JsonFix {
                    offset: f.span.start,
                    length: f.span.len(),
                    replacement: f.replacement.clone(),
                })
                .collect(),
        }
    }
}

// ───────────────────────────── suggestions ─────────────────────────────

/// The declared name closest to `name`, if one is close enough to be a likely typo. Ties go
/// to the candidate of the closest length, then to the first in alphabetical order.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = name.chars().count();
    let limit = (len / 3).max(1) + 1;
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (edit_distance(name, c), c.chars().count().abs_diff(len), c))
        .filter(|(d, _, _)| *d <= limit)
        .min()
        .map(|(_, _, c)| c)
}

/// "a" or "an" before a word (by its first letter).
pub fn article(word: &str) -> &'static str {
    match word.trim_start_matches('`').chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'A' | 'E' | 'I' | 'O' | 'U') => "an",
        _ => "a",
    }
}

/// "did you mean `x`?" for the closest candidate.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(name, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// Edit distance over Unicode scalar values, counting a swap of two neighbours as one edit
/// (optimal string alignment: `pvm` is one edit from `pmv`).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        d[i * w] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpositions_are_one_edit() {
        assert_eq!(edit_distance("pvm", "pmv"), 1);
        assert_eq!(edit_distance("colapse", "collapse"), 1);
        assert_eq!(closest("pvm", ["pm", "pmv", "ws"]), Some("pmv"));
        assert_eq!(
            closest("gravyard", ["graveyard", "library"]),
            Some("graveyard")
        );
        assert_eq!(closest("xyz", ["graveyard"]), None);
    }

    /// A diagnostic on a file with no text (nothing to draw an excerpt of) names the file;
    /// one on a file with text names it in the excerpt's header, with columns in characters.
    #[test]
    fn every_rendering_names_the_file() {
        let mut sources = SourceMap::new();
        let empty = sources.add(crate::base::source::SourceFile::new("cards/empty.fuda", ""));
        let diag = Diagnostic::error(
            codes::PACK_GAME_HEADER,
            empty,
            Span::new(0, 0),
            "a fuda file starts with the game it is written for",
            "",
        );
        let text = render(&diag, &sources, RenderOptions::plain());
        assert!(
            text.contains("cards/empty.fuda: a fuda file starts"),
            "{text}"
        );

        let jp = sources.add(crate::base::source::SourceFile::new(
            "cards/jp.fuda",
            "let x = 「霊夢」; drawx 1\n",
        ));
        let at = "let x = 「霊夢」; ".len();
        let diag = Diagnostic::error(
            codes::RESOLVE_UNKNOWN_VERB,
            jp,
            Span::new(at, at + 5),
            "unknown verb `drawx`",
            "no verb of this name",
        );
        let text = render(&diag, &sources, RenderOptions::plain());
        assert!(text.contains("[cards/jp.fuda:1:15]"), "{text}");
    }
}
