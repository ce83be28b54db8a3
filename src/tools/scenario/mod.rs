//! Scenario files: rules tests that game designers write, in TOML (`docs/scenarios.md`).
//!
//! A scenario sets up a game state (cards by name in each player's zones), scripts every action
//! and every answer to a choice, and states what must hold when the run stops. This module is
//! the format layer only: it reads a file into a [`Scenario`] and reports every problem of the
//! file itself (syntax, unknown keys, wrong types, bad script lines, bad card entries) at the
//! exact key or value. Names (game, zones, cards, states, counters, stats, phases, actions) stay
//! text with their spans: the runner resolves them against the compiled packs and reports
//! unknown ones at those spans.
//!
//! The TOML is read by `toml`'s span-keeping parser (`toml::de::DeTable`), whose recursion guard
//! bounds nesting (a file of 100,000 `[` is one diagnostic); the readers here recurse only into
//! `attached`, bounded by [`MAX_ATTACH_DEPTH`].

mod discover;
mod expect;
mod model;
mod read;
mod script;
mod setup;

pub use discover::discover;
pub use model::*;
pub use setup::{MAX_ATTACH_DEPTH, MAX_COPIES, MAX_SETUP_CARDS};

use crate::base::diagnostic::{self, codes, Diagnostic};
use crate::base::source::{self, FileId, SourceFile, SourceMap, Span};
use read::{span_of, Reader, TOP_KEYS, TOP_TABLE};
use std::path::Path;
use toml::de::DeTable;

/// The step budget of a scenario without `max_steps`.
pub const DEFAULT_MAX_STEPS: u64 = 100_000;

/// Syntax errors reported per file: after the first few, the parser's recovery mostly reports
/// the consequences of the first (a file of garbage would otherwise give one per line).
pub const MAX_SYNTAX_ERRORS: usize = 10;

/// Reads the scenario file at `path`, registering it in `sources`. An unreadable file or one
/// that is not UTF-8 is a diagnostic like any other problem.
pub fn load(path: &Path, sources: &mut SourceMap) -> Result<Scenario, Vec<Diagnostic>> {
    let shown = path.to_string_lossy().into_owned();
    let shown = shown.strip_prefix("./").map(str::to_owned).unwrap_or(shown);
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            let id = sources.add(SourceFile::new(shown.clone(), ""));
            return Err(vec![Diagnostic::error(
                codes::SOURCE_IO,
                id,
                Span::default(),
                format!("cannot read `{shown}`: {e}"),
                "unreadable",
            )]);
        }
    };
    match source::decode(&bytes) {
        Ok(text) => {
            let id = sources.add(SourceFile::new(shown, text));
            parse(id, sources.get(id))
        }
        Err((fixed, at, len)) => {
            let id = sources.add(SourceFile::new(shown, fixed));
            let bad = Diagnostic::error(
                codes::SOURCE_INVALID_UTF8,
                id,
                Span::new(at, at + len),
                "this file is not valid UTF-8",
                "invalid byte sequence",
            )
            .with_help("save the file as UTF-8");
            let mut diags = parse(id, sources.get(id)).err().unwrap_or_default();
            diags.push(bad);
            diagnostic::sort(&mut diags);
            Err(diags)
        }
    }
}

/// Reads a scenario from `source` (registered as `file`). Returns every problem found, sorted
/// by position: all TOML syntax errors (up to [`MAX_SYNTAX_ERRORS`]) or, for a well-formed file,
/// every key, type and value error.
pub fn parse(file: FileId, source: &SourceFile) -> Result<Scenario, Vec<Diagnostic>> {
    let text: &str = &source.text;
    let (doc, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        return Err(syntax_errors(file, text, &errors));
    }
    let mut r = Reader {
        file,
        text,
        diags: Vec::new(),
        setup_cards: 0,
    };
    let stem = Path::new(&source.path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut scenario = Scenario {
        file,
        name: stem,
        game: Spanned::default_at_start(String::new()),
        rules: Vec::new(),
        description: None,
        seed: 0,
        max_steps: Spanned::default_at_start(DEFAULT_MAX_STEPS),
        deck_format: None,
        start: Start::default(),
        players: Vec::new(),
        script: Vec::new(),
        expect: Expect::default(),
    };
    let (mut game, mut rules) = (false, false);
    for (k, v) in doc.get_ref().iter() {
        let key: &str = k.get_ref();
        match key {
            "name" => {
                if let Some(n) = r.name(v, "`name`") {
                    scenario.name = n.value;
                }
            }
            "game" => {
                game = true;
                if let Some(g) = r.name(v, "`game`") {
                    scenario.game = g;
                }
            }
            "rules" => {
                rules = true;
                scenario.rules = r.names(v, "`rules`");
            }
            "description" => scenario.description = r.string(v, "`description`").map(|d| d.value),
            "seed" => {
                if let Some(s) = r.uint(v, "`seed`", 0, u64::MAX) {
                    scenario.seed = s.value;
                }
            }
            "max_steps" => {
                if let Some(s) = r.uint(v, "`max_steps`", 1, u64::MAX) {
                    scenario.max_steps = s;
                }
            }
            "deck_format" => scenario.deck_format = r.name(v, "`deck_format`"),
            "start" => scenario.start = setup::start(&mut r, v),
            "player" => scenario.players = setup::players(&mut r, v),
            "script" => scenario.script = script::script(&mut r, v),
            "expect" => scenario.expect = expect::expect(&mut r, v),
            _ => r.unknown_key(k, TOP_TABLE, TOP_KEYS),
        }
    }
    // A missing top-level key is reported at the file's first key, where it would go.
    let top = doc
        .get_ref()
        .keys()
        .map(span_of)
        .min()
        .unwrap_or_else(|| widen(text, Span::default()));
    if !game {
        r.missing(top, "game", "this scenario", "game = \"<game>\"");
    }
    if !rules {
        r.missing(top, "rules", "this scenario", "rules = [\"<rule number>\"]");
    }
    if r.diags.is_empty() {
        Ok(scenario)
    } else {
        diagnostic::sort(&mut r.diags);
        Err(r.diags)
    }
}

/// The syntax errors of a file, deduplicated, at most [`MAX_SYNTAX_ERRORS`].
fn syntax_errors(file: FileId, text: &str, errors: &[toml::de::Error]) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    for e in errors {
        let span = e
            .span()
            .map_or(Span::default(), |r| Span::new(r.start, r.end));
        let span = widen(text, span);
        let (what, expected) = match e.message().split_once(", expected ") {
            Some((what, expected)) => (what, Some(expected)),
            None => (e.message(), None),
        };
        let label = match (what, expected) {
            (_, Some(x)) => format!("expected {x}"),
            ("duplicate key", None) => "given a second time".to_string(),
            _ => "here".to_string(),
        };
        let help = e
            .message()
            .contains("recursion")
            .then(|| "lists and tables nest at most 80 levels deep".to_string());
        let d = Diagnostic::error(
            codes::SCENARIO_SYNTAX,
            file,
            span,
            format!("invalid TOML: {what}"),
            label,
        )
        .with_help_opt(help);
        if !out
            .iter()
            .any(|o| o.primary.span == d.primary.span && o.message == d.message)
        {
            out.push(d);
        }
        if out.len() == MAX_SYNTAX_ERRORS {
            break;
        }
    }
    diagnostic::sort(&mut out);
    out
}

/// `span` kept inside `text` and on character boundaries; an empty span inside the text covers
/// the character it stands before, so that a label has something to underline.
fn widen(text: &str, span: Span) -> Span {
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    if end == start {
        end += text[start..].chars().next().map_or(0, char::len_utf8);
    }
    Span::new(start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inner(text: &str, value: &str, range: std::ops::Range<usize>) -> Span {
        let r = Reader {
            file: FileId(0),
            text,
            diags: Vec::new(),
            setup_cards: 0,
        };
        r.inner(Span::new(0, text.len()), value, range)
    }

    #[test]
    fn inner_spans_skip_quotes_and_fall_back_on_escapes() {
        assert_eq!(inner("\"p1: pass\"", "p1: pass", 4..8), Span::new(5, 9));
        assert_eq!(inner("'p1: pass'", "p1: pass", 0..2), Span::new(1, 3));
        assert_eq!(inner("\"\"\"\nab\"\"\"", "ab", 1..2), Span::new(5, 6));
        assert_eq!(inner("\"a\\u0062\"", "ab", 1..2), Span::new(0, 9));
        assert_eq!(inner("pile", "pile", 0..2), Span::new(0, 2));
    }

    #[test]
    fn widened_spans_stay_on_boundaries() {
        assert_eq!(widen("aé", Span::new(1, 1)), Span::new(1, 3));
        assert_eq!(widen("ab", Span::new(2, 2)), Span::new(2, 2));
        assert_eq!(widen("ab", Span::new(7, 9)), Span::new(2, 2));
    }

    #[test]
    fn span_of_reads_toml_spans() {
        let (doc, errors) = DeTable::parse_recoverable("game = \"pmv\"");
        assert!(errors.is_empty());
        let (k, v) = doc.get_ref().iter().next().expect("one key");
        assert_eq!(span_of(k), Span::new(0, 4));
        assert_eq!(span_of(v), Span::new(7, 12));
    }
}
