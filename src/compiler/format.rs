//! `fuda fmt`: the canonical layout of a source file, built on the lossless token stream.
//!
//! The formatter is conservative: it never joins or splits the lines the author wrote, and it
//! never touches a token (a comment is a token too, so no comment is lost or moved). What it
//! changes is whitespace only:
//! - indentation: two spaces per open `{`; a line that continues the statement above it (it is
//!   indented deeper than the statement's first line, or it starts inside an open `(` or `[`)
//!   keeps its offset from that first line, so hand-aligned multi-line conditions stay aligned;
//!   at the top level, a line starting with a word (it starts an item) or a comment is never a
//!   continuation and starts in column 0;
//! - inside a line: no space before `,` or `:`, one space after them when another token follows
//!   on the line, at least one space before a trailing `//` comment; other runs of spaces (the
//!   column alignment designers use in rulesets) are kept;
//! - trailing whitespace is removed (a line comment's too), runs of blank lines collapse to one, the file has no blank
//!   lines at its start or end and ends with one line end (`\n`).
//!
//! The lines inside a block comment that spans lines are kept byte for byte.
//!
//! [`format_source`] adds the safety net the command line relies on: a file with syntax errors
//! is refused with its diagnostics, and a layout that would change the file's syntax tree (or
//! that is not its own layout again) is refused rather than written.

use crate::base::diagnostic::Diagnostic;
use crate::base::source::FileId;
use crate::compiler::lex::{self, Token};
use crate::compiler::parse;

/// Why [`format_source`] leaves a file as it is.
#[derive(Debug)]
pub enum FormatError {
    /// The file does not lex or parse: its error diagnostics.
    Syntax(Vec<Diagnostic>),
    /// The formatter's own layout would change the file's meaning (a bug of the formatter):
    /// what differs.
    Unsafe(String),
}

/// The canonical layout of `src`, checked: `Ok` with the formatted text (equal to `src` when it
/// is already canonical) or the reason the file must be left untouched. `file` is the id the
/// diagnostics of a syntax error point into.
pub fn format_source(src: &str, file: FileId) -> Result<String, FormatError> {
    let (before, diags) = syntax_tree(src, file);
    if diags.iter().any(Diagnostic::is_error) {
        return Err(FormatError::Syntax(diags));
    }
    let out = layout(src);
    if out == src {
        return Ok(out);
    }
    if significant(&out) != significant(src) {
        return Err(FormatError::Unsafe(
            "the tokens of the formatted text differ".into(),
        ));
    }
    let (after, diags) = syntax_tree(&out, file);
    if diags.iter().any(Diagnostic::is_error) || after != before {
        return Err(FormatError::Unsafe(
            "the formatted text parses differently".into(),
        ));
    }
    if layout(&out) != out {
        return Err(FormatError::Unsafe(
            "the formatted text formats differently again".into(),
        ));
    }
    Ok(out)
}

/// The syntax tree of `src` with every byte position left out (so two layouts of the same text
/// compare equal), and the diagnostics of lexing and parsing it.
fn syntax_tree(src: &str, file: FileId) -> (String, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let items = parse::parse_file(src, file, &mut diags);
    let tree: Vec<_> = items.iter().map(|i| &i.item).collect();
    (strip_spans(&format!("{tree:?}")), diags)
}

/// `text` (a `Debug` rendering) with every `Span { start: …, end: … }` replaced by `Span`.
fn strip_spans(text: &str) -> String {
    const OPEN: &str = "Span { start: ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        out.push_str("Span");
        let after = &rest[i..];
        rest = match after.find('}') {
            Some(end) => &after[end + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// The tokens of `src` other than whitespace, as (kind, text): what no layout may change.
fn significant(src: &str) -> Vec<(Result<Token, ()>, &str)> {
    lex::token_iter(src)
        .filter(|(t, _)| *t != Ok(Token::Whitespace))
        .map(|(t, s)| (t, trimmed(t, &src[s.start..s.end])))
        .collect()
}

/// A line comment without its trailing whitespace (the layout drops it); any other token as is.
fn trimmed(tok: Result<Token, ()>, text: &str) -> &str {
    if tok == Ok(Token::LineComment) {
        text.trim_end()
    } else {
        text
    }
}

/// One part of a line: a token (a multi-line block comment is one part) or a run of spaces.
type Part<'s> = (Result<Token, ()>, &'s str);

/// One line as written: its indentation (in columns), how many line ends came before it, and
/// its parts after the indentation.
struct Line<'s> {
    indent: usize,
    breaks: usize,
    parts: Vec<Part<'s>>,
}

/// Cuts `src` into lines of parts; whitespace holding line ends separates lines.
fn lines(src: &str) -> Vec<Line<'_>> {
    let mut out = vec![Line {
        indent: 0,
        breaks: 0,
        parts: Vec::new(),
    }];
    for (tok, span) in lex::token_iter(src) {
        let text = &src[span.start..span.end];
        let breaks = text.matches('\n').count();
        if tok == Ok(Token::Whitespace) && breaks > 0 {
            let tail = text.rsplit('\n').next().unwrap_or("");
            out.push(Line {
                indent: columns(tail),
                breaks,
                parts: Vec::new(),
            });
        } else if let Some(line) = out.last_mut() {
            if tok == Ok(Token::Whitespace) && line.parts.is_empty() {
                line.indent = columns(text);
            } else {
                line.parts.push((tok, text));
            }
        }
    }
    out
}

/// The width of an indentation: a tab counts 4 columns, any other character one.
fn columns(ws: &str) -> usize {
    ws.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

/// The last statement line seen in a block: its indentation as written and as laid out.
#[derive(Clone, Copy)]
struct Anchor {
    written: usize,
    laid: usize,
}

/// The canonical layout of `src` (see the module documentation). It never fails: a file that
/// does not lex is laid out all the same, which is why [`format_source`] checks first.
pub fn layout(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + src.len() / 16);
    // Open brackets; for each `{` (and the file itself), the block's last statement line.
    let mut brackets: Vec<char> = Vec::new();
    let mut anchors: Vec<Option<Anchor>> = vec![None];
    let mut started = false;
    for line in lines(src) {
        if line.parts.is_empty() {
            continue;
        }
        if started {
            out.push_str(if line.breaks > 1 { "\n\n" } else { "\n" });
        }
        started = true;
        let first = line.parts.first().map(|p| p.1).unwrap_or("");
        let in_parens = matches!(brackets.last(), Some('(' | '['));
        let closes_block = first == "}" && !in_parens;
        let depth = (anchors.len() - 1).saturating_sub(usize::from(closes_block));
        let code = line
            .parts
            .iter()
            .any(|(t, _)| !matches!(t, Ok(Token::LineComment | Token::BlockComment)));
        // At the top level a word first on its line starts an item (as `lex::split` cuts the
        // file), and a comment there belongs to no statement: neither continues the line above.
        let item_start = anchors.len() == 1
            && !in_parens
            && matches!(
                line.parts.first(),
                Some((
                    Ok(Token::Ident | Token::LineComment | Token::BlockComment),
                    _
                ))
            );
        let indent = match anchors.last().copied().flatten() {
            _ if closes_block => 2 * depth,
            Some(a) if in_parens => a.laid + line.indent.saturating_sub(a.written),
            Some(a) if !item_start && line.indent > a.written => a.laid + (line.indent - a.written),
            _ => {
                if code {
                    if let Some(slot) = anchors.last_mut() {
                        *slot = Some(Anchor {
                            written: line.indent,
                            laid: 2 * depth,
                        });
                    }
                }
                2 * depth
            }
        };
        out.extend(std::iter::repeat_n(' ', indent));
        write_parts(&line.parts, &mut out);
        for (tok, text) in &line.parts {
            track_brackets(*tok, text, &mut brackets, &mut anchors);
        }
    }
    // One line end at the end (an unterminated comment may carry more: the file is refused).
    let kept = out.trim_end_matches('\n').len();
    out.truncate(kept);
    if started {
        out.push('\n');
    }
    out
}

/// Follows the brackets of one part: `{` opens a block with no statement line yet.
fn track_brackets(
    tok: Result<Token, ()>,
    text: &str,
    brackets: &mut Vec<char>,
    anchors: &mut Vec<Option<Anchor>>,
) {
    match (tok, text) {
        (Ok(Token::Open), "{") => {
            brackets.push('{');
            anchors.push(None);
        }
        (Ok(Token::Open), t) => brackets.push(t.chars().next().unwrap_or('(')),
        (Ok(Token::Close), _) => {
            let closed_block = brackets.pop() == Some('{');
            if closed_block && anchors.len() > 1 {
                anchors.pop();
            }
        }
        _ => {}
    }
}

/// Writes the parts of one line after its indentation, with the spacing rules of the module
/// documentation; trailing spaces are dropped.
fn write_parts(parts: &[Part<'_>], out: &mut String) {
    let punct =
        |p: Option<&Part<'_>>, s: &str| p.is_some_and(|(t, x)| *t == Ok(Token::Punct) && *x == s);
    for (i, (tok, text)) in parts.iter().enumerate() {
        let next = parts.get(i + 1);
        if *tok == Ok(Token::Whitespace) {
            let last = next.is_none();
            if last || punct(next, ",") || punct(next, ":") {
                continue;
            }
            out.push_str(text);
            continue;
        }
        if *tok == Ok(Token::LineComment) && i > 0 && !out.ends_with([' ', '\t', '\u{3000}']) {
            out.push(' ');
        }
        out.push_str(trimmed(*tok, text));
        let spaced_after = *tok == Ok(Token::Punct) && (*text == "," || *text == ":");
        let needs_space = next.is_some_and(|(t, x)| match t {
            Ok(Token::Whitespace | Token::Close) => false,
            Ok(Token::Punct) => !matches!(*x, "," | ":" | ";"),
            _ => true,
        });
        if spaced_after && needs_space {
            out.push(' ');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{layout, syntax_tree};
    use crate::base::source::{SourceFile, SourceMap};

    /// The safety net compares something real: two layouts of one text have the same syntax
    /// tree, two texts that mean different things do not.
    #[test]
    fn the_syntax_tree_check_sees_meaning_not_layout() {
        let file = SourceMap::new().add(SourceFile::new("t.fuda", ""));
        let tree = |src: &str| {
            let (tree, diags) = syntax_tree(src, file);
            assert!(diags.is_empty(), "{src}: {diags:?}");
            tree
        };
        let a = tree("card \"a\" {\n  cost: 1\n  x: +1/-1\n}\n");
        assert!(!a.contains("start:"), "spans are left out: {a}");
        assert_eq!(a, tree("card \"a\" {   cost :1\n\n        x:+1/-1 }"));
        assert_ne!(a, tree("card \"a\" {\n  cost: 2\n  x: +1/-1\n}\n"));
        assert_ne!(a, tree("card \"a\" {\n  cost: 1\n  x: +1/+1\n}\n"));
    }

    #[test]
    fn indents_blocks_by_two_and_keeps_continuations() {
        let src = "game g {\n    action a \"A\" for c in x\n        if p(c)\n           and q(c) {\n      rest c\n        }\n}\n";
        let want = "game g {\n  action a \"A\" for c in x\n      if p(c)\n         and q(c) {\n    rest c\n  }\n}\n";
        assert_eq!(layout(src), want);
        assert_eq!(layout(want), want);
    }
}
