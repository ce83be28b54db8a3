//! The lossless token stream (logos) and the pre-pass that runs before pest.
//!
//! Concatenating every token's slice gives back the source exactly, so this
//! stream serves formatting and highlighting. Before any parsing, [`split`]
//! walks it once to
//! - cut the file into top-level items (each is then parsed on its own, which
//!   is how one broken card does not hide the errors of the next),
//! - bound nesting (brackets, chains of prefix words, `else if` chains) so no
//!   later phase can overflow its stack,
//! - report characters no token accepts, unterminated strings and comments.

use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::{FileId, Span};
use logos::Logos;

/// Deepest bracket nesting accepted in one item.
pub const MAX_DEPTH: usize = 48;
/// Most prefix operators (`not`, unary `-`) and choices (`target`, `choose`)
/// accepted in one statement: each nests one level deeper in the parser.
/// Also the most `may` words and `.member` accesses accepted in a row.
pub const MAX_CHAIN: usize = 48;
/// Most `else if` links accepted in one `if` statement.
pub const MAX_LINKS: usize = 256;

/// One lexical token. Trivia (whitespace, comments) are tokens too.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    /// Spaces, tabs, line ends (also vertical tab and form feed), the full-width space and a
    /// byte-order mark: the same set as the grammar's `WHITESPACE`.
    #[regex(r"[ \t\n\x0B\x0C\r\u{3000}\u{FEFF}]+")]
    Whitespace,
    /// `// …` to the end of the line.
    #[regex(r"//[^\n]*", allow_greedy = true)]
    LineComment,
    /// `/* … */`; `Err` when unterminated.
    #[token("/*", block_comment)]
    BlockComment,
    /// `"…"` or `「…」`.
    #[token("\"", quoted_string)]
    #[token("「", corner_string)]
    String,
    /// An identifier or keyword.
    #[regex(r"[\p{XID_Start}_][\p{XID_Continue}]*")]
    Ident,
    /// A run of digits.
    #[regex(r"[0-9]+")]
    Integer,
    /// An opening bracket: `{`, `(` or `[`.
    #[token("{")]
    #[token("(")]
    #[token("[")]
    Open,
    /// A closing bracket: `}`, `)` or `]`.
    #[token("}")]
    #[token(")")]
    #[token("]")]
    Close,
    /// Operators and other punctuation.
    #[regex(r"(\+=|-=|\*=|:=|<->|==|!=|<=|>=|\?\?|[-+*/=<>!?.,:;|±])")]
    Punct,
}

fn block_comment(lex: &mut logos::Lexer<Token>) -> bool {
    match lex.remainder().find("*/") {
        Some(i) => {
            lex.bump(i + 2);
            true
        }
        None => {
            lex.bump(lex.remainder().len());
            false
        }
    }
}

fn scan_until(lex: &mut logos::Lexer<Token>, close: char, escapes: bool) -> bool {
    let rest = lex.remainder();
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '\n' {
            lex.bump(i);
            return false;
        }
        if escapes && c == '\\' {
            chars.next();
            continue;
        }
        if c == close {
            lex.bump(i + c.len_utf8());
            return true;
        }
    }
    lex.bump(rest.len());
    false
}

fn quoted_string(lex: &mut logos::Lexer<Token>) -> bool {
    scan_until(lex, '"', true)
}

fn corner_string(lex: &mut logos::Lexer<Token>) -> bool {
    scan_until(lex, '」', false)
}

/// A token with its byte span; `Err(())` marks bytes no token accepts (or an
/// unterminated string or comment).
pub type Spanned = (Result<Token, ()>, Span);

/// Every token of `src`, trivia included. Their slices concatenate to `src`.
pub fn tokens(src: &str) -> Vec<Spanned> {
    token_iter(src).collect()
}

/// The tokens of `src` one at a time, for callers that stop early.
pub fn token_iter(src: &str) -> impl Iterator<Item = Spanned> + '_ {
    let mut lex = Token::lexer(src);
    std::iter::from_fn(move || {
        let tok = lex.next()?;
        let r = lex.span();
        Some((tok.map_err(|_| ()), Span::new(r.start, r.end)))
    })
}

/// The kind of a top-level item, from its first word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    /// `game id` or `game id "Title" { … }`.
    Game,
    /// `card "Name" { … }`.
    Card,
    /// A declaration outside a game block (a mod pack's keyword or verb).
    Decl,
}

/// One top-level item: its kind and its bytes in the file.
#[derive(Debug, Clone)]
pub struct Item {
    /// Which entry rule parses it.
    pub kind: ItemKind,
    /// Its bytes, from its first word to its last token.
    pub span: Span,
    /// False when the pre-pass already reported an error inside it: the parser skips it.
    pub parse: bool,
}

/// Splits `src` into top-level items and reports what the pre-pass finds.
pub fn split(src: &str, file: FileId, diags: &mut Vec<Diagnostic>) -> Vec<Item> {
    let toks = tokens(src);
    let mut items: Vec<Item> = Vec::new();
    // Open brackets: the bracket, its span, and the indentation of the line it is on.
    let mut stack: Vec<(char, Span, usize)> = Vec::new();
    // Where the current line starts, and the indentation of its first token.
    let mut line_begin = 0usize;
    let mut line_indent = 0usize;
    let mut chain = 0usize;
    // Depth of a choice word whose quantity has not been seen yet (`target (who) 2`).
    let mut quantity_pending: Option<usize> = None;
    // The token after a choice's quantity starts its expression: no boundary there.
    let mut after_quantity = false;
    let mut mays = (0usize, 0usize); // (`may` words in a row, their bracket depth)
    let mut members = 0usize; // `.member` accesses in a row
    let mut links: Vec<usize> = vec![0]; // `else if` links of the `if` at each bracket depth
    let mut line_start = true;
    let mut prev_word: Option<&str> = None;
    let mut suspect: Option<Span> = None;
    let mut prev_operand = false; // the previous token ends an operand, so `-` is binary
    let mut prev_ends = false; // … and is not a connector (`on`, `of`, `up to`)
    let mut item_ok = true;
    let mut pending_err = false;

    let close_item = |items: &mut Vec<Item>, end: usize, ok: bool| {
        if let Some(last) = items.last_mut() {
            last.span.end = last.span.end.max(end);
            last.parse &= ok;
        }
    };

    for (tok, span) in &toks {
        let text = &src[span.start..span.end];
        let tok = match tok {
            Ok(t) => *t,
            Err(()) => {
                if !pending_err {
                    diags.push(lex_error(src, file, *span));
                }
                pending_err = true;
                item_ok = false;
                close_item(&mut items, span.end, false);
                continue;
            }
        };
        match tok {
            Token::Whitespace => {
                if let Some(nl) = text.rfind('\n') {
                    line_start = true;
                    line_begin = span.start + nl + 1;
                }
                continue;
            }
            Token::LineComment | Token::BlockComment => continue,
            _ => {}
        }
        pending_err = false;
        let first_on_line = line_start;
        if first_on_line {
            line_indent = span.start - line_begin;
        }
        let at_column0 = span.start == 0 || src.as_bytes()[span.start - 1] == b'\n';
        // A new item starts at a depth-0 word that begins a line, or — to recover
        // from an unclosed brace — at `card`/`game` in column 0 at any depth.
        let starts_item = line_start
            && tok == Token::Ident
            && (stack.is_empty() || (at_column0 && (text == "card" || text == "game")));
        if starts_item {
            if let Some((_, open, _)) = stack.first().copied() {
                diags.push(unclosed(file, open, suspect));
                close_item(&mut items, span.start, false);
                stack.clear();
                links.truncate(1);
            }
            let kind = match text {
                "game" => ItemKind::Game,
                "card" => ItemKind::Card,
                _ => ItemKind::Decl,
            };
            items.push(Item {
                kind,
                span: *span,
                parse: true,
            });
            item_ok = true;
            suspect = None;
            chain = 0;
            quantity_pending = None;
            mays.0 = 0;
            members = 0;
        } else if items.is_empty() {
            items.push(Item {
                kind: ItemKind::Decl,
                span: *span,
                parse: true,
            });
            item_ok = true;
        }
        line_start = false;

        // Nesting bounds.
        let depth_before = stack.len();
        match tok {
            Token::Open => {
                let c = text.chars().next().unwrap_or('(');
                stack.push((c, *span, line_indent));
                links.push(0);
                if stack.len() > MAX_DEPTH && item_ok {
                    diags.push(too_deep(file, *span, "brackets", MAX_DEPTH));
                    item_ok = false;
                }
            }
            Token::Close => {
                if links.len() > 1 {
                    links.pop();
                }
                if quantity_pending.is_some_and(|d| d > depth_before.saturating_sub(1)) {
                    quantity_pending = None;
                }
                let popped = stack.pop();
                if let Some((_, open, open_indent)) = popped {
                    // A `}` first on its line but indented unlike its opener's line suggests
                    // that some brace in between was never closed: remember the first such opener.
                    if suspect.is_none() && first_on_line && line_indent != open_indent {
                        suspect = Some(open);
                    }
                }
                if popped.is_none() && item_ok {
                    diags.push(
                        Diagnostic::error(
                            codes::LEX_UNMATCHED_CLOSE,
                            file,
                            *span,
                            format!("unmatched `{text}`"),
                            "nothing to close here",
                        )
                        .with_help("remove it, or add the opening bracket it belongs to"),
                    );
                    item_ok = false;
                }
            }
            _ => {}
        }
        if item_ok {
            // Prefix words and choices nest in the parser without brackets; bound
            // how many follow one another before a statement boundary.
            let word = tok == Token::Ident;
            let class = if word { classify(text) } else { 0 };
            let keyword = class & word::KEYWORD != 0;
            let connector = class & word::CONNECTOR != 0;
            // An operand right after another at the statement's own level (`banish t  draw -1`)
            // ends the expression before it: nothing before it can nest deeper.
            let at_base = stack.last().is_none_or(|(c, _, _)| *c == '{');
            let starts = matches!(tok, Token::Integer | Token::String)
                || (word && !connector && class & word::INFIX == 0);
            if at_base && prev_ends && starts && quantity_pending.is_none() && !after_quantity {
                chain = 0;
            }
            after_quantity = false;
            if quantity_pending == Some(stack.len())
                && (tok == Token::Integer || (word && !connector && !keyword))
            {
                quantity_pending = None;
                after_quantity = true;
            }
            let choice = matches!(text, "target" | "choose" | "search");
            let nests = text == "not" || choice || (text == "-" && !prev_operand);
            if nests {
                chain += 1;
                if choice && quantity_pending.is_none() {
                    quantity_pending = Some(stack.len());
                }
                if chain > MAX_CHAIN {
                    diags.push(too_deep(
                        file,
                        *span,
                        "prefix operators or choices in one statement",
                        MAX_CHAIN,
                    ));
                    item_ok = false;
                }
            } else if matches!(text, "{" | "}" | ";") || class & word::STATEMENT != 0 {
                chain = 0;
                quantity_pending = None;
            }
            // `may may … stmt` and `x.a.b…` are flat in the grammar but deepen later phases.
            if text == "may" {
                mays = if mays.1 == depth_before {
                    (mays.0 + 1, depth_before)
                } else {
                    (1, depth_before)
                };
                if mays.0 > MAX_CHAIN && item_ok {
                    diags.push(too_deep(file, *span, "`may` in a row", MAX_CHAIN));
                    item_ok = false;
                }
            } else if depth_before == mays.1 && text != "(" {
                mays.0 = 0;
            }
            if text == "." {
                members += 1;
                if members > MAX_CHAIN && item_ok {
                    diags.push(too_deep(
                        file,
                        *span,
                        "`.member` accesses in a row",
                        MAX_CHAIN,
                    ));
                    item_ok = false;
                }
            } else if !(word && prev_word == Some(".")) {
                members = 0;
            }
            // `else if` chains are flat too; bound their length all the same.
            if text == "if" {
                if let Some(n) = links.last_mut() {
                    *n = if prev_word == Some("else") { *n + 1 } else { 0 };
                    if *n > MAX_LINKS && item_ok {
                        diags.push(too_deep(
                            file,
                            *span,
                            "`else if` links in one `if`",
                            MAX_LINKS,
                        ));
                        item_ok = false;
                    }
                }
            }
            // What a following `-` (binary after an operand) and boundary test see.
            prev_operand =
                matches!(tok, Token::Integer | Token::String | Token::Close) || (word && !keyword);
            prev_ends = (prev_operand && !connector) || class & word::OPERAND != 0;
        }
        prev_word = Some(text);
        close_item(&mut items, span.end, item_ok);
    }
    if let Some((_, open, _)) = stack.first().copied() {
        diags.push(unclosed(file, open, suspect));
        close_item(&mut items, src.len(), false);
    }
    items
}

/// What a word is to the pre-pass, as bit flags: one `match` instead of a scan of each list.
mod word {
    pub const KEYWORD: u8 = 1;
    pub const STATEMENT: u8 = 2;
    pub const CONNECTOR: u8 = 4;
    pub const INFIX: u8 = 8;
    pub const OPERAND: u8 = 16;
}

fn classify(w: &str) -> u8 {
    use word::*;
    match w {
        "and" => KEYWORD | INFIX,
        "any" => CONNECTOR,
        "attach" => KEYWORD | STATEMENT,
        "becomes" => KEYWORD,
        "bottom" => KEYWORD | CONNECTOR,
        "cancel" => KEYWORD | STATEMENT,
        "chain" => KEYWORD | STATEMENT,
        "check" => KEYWORD | STATEMENT,
        "choose" => KEYWORD,
        "clear" => KEYWORD | STATEMENT,
        "contains" => KEYWORD | INFIX,
        "declare" => KEYWORD | CONNECTOR,
        "draw_game" => KEYWORD | STATEMENT,
        "each" => KEYWORD | OPERAND,
        "else" => KEYWORD | STATEMENT,
        "emit" => KEYWORD | STATEMENT,
        "false" => KEYWORD | OPERAND,
        "flip" => KEYWORD | STATEMENT,
        "for" => KEYWORD | STATEMENT,
        "from" => KEYWORD | CONNECTOR,
        "grant" => KEYWORD | STATEMENT,
        "has" => KEYWORD | INFIX,
        "if" => KEYWORD | STATEMENT,
        "in" => CONNECTOR,
        "instead" => KEYWORD,
        "is" => KEYWORD | INFIX,
        "it" => KEYWORD | OPERAND,
        "let" => KEYWORD | STATEMENT,
        "look" => KEYWORD | STATEMENT,
        "lose" => KEYWORD | STATEMENT,
        "may" => KEYWORD | STATEMENT,
        "move" => KEYWORD | STATEMENT,
        "negate" => KEYWORD | STATEMENT,
        "not" => KEYWORD,
        "number" => CONNECTOR,
        "of" => CONNECTOR,
        "on" => CONNECTOR,
        "opponent" => KEYWORD | OPERAND,
        "or" => KEYWORD | INFIX,
        "phase" => KEYWORD | STATEMENT,
        "reach" => KEYWORD | STATEMENT,
        "remove" => KEYWORD | STATEMENT,
        "repeat" => KEYWORD | STATEMENT,
        "resolve" => KEYWORD | STATEMENT,
        "reveal" => KEYWORD | STATEMENT,
        "search" => KEYWORD,
        "shuffle" => KEYWORD | STATEMENT,
        "simultaneously" => KEYWORD | STATEMENT,
        "target" => KEYWORD,
        "this" => KEYWORD | OPERAND,
        "to" => CONNECTOR,
        "top" => KEYWORD | CONNECTOR,
        "treat" => KEYWORD | STATEMENT,
        "true" => KEYWORD | OPERAND,
        "until" => KEYWORD,
        "up" => CONNECTOR,
        "when" => KEYWORD,
        "where" => KEYWORD | INFIX,
        "while" => KEYWORD,
        "win" => KEYWORD | STATEMENT,
        "window" => KEYWORD | STATEMENT,
        "you" => KEYWORD | OPERAND,
        "your" => KEYWORD | OPERAND,
        _ => 0,
    }
}

/// True for the reserved words of the grammar (they are never operands).
pub fn is_keyword(w: &str) -> bool {
    classify(w) & word::KEYWORD != 0
}

/// The reserved words; `grammar/fuda.pest` (rule `keyword`) lists the same.
pub const KEYWORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "where",
    "contains",
    "has",
    "is",
    "if",
    "else",
    "when",
    "while",
    "until",
    "instead",
    "let",
    "for",
    "each",
    "repeat",
    "may",
    "move",
    "attach",
    "clear",
    "grant",
    "remove",
    "reveal",
    "look",
    "shuffle",
    "negate",
    "cancel",
    "treat",
    "emit",
    "choose",
    "target",
    "win",
    "lose",
    "becomes",
    "true",
    "false",
    "this",
    "it",
    "your",
    "you",
    "opponent",
    "declare",
    "top",
    "bottom",
    "draw_game",
    "from",
    "search",
    "flip",
    "simultaneously",
    "phase",
    "window",
    "chain",
    "resolve",
    "check",
    "reach",
];

fn lex_error(src: &str, file: FileId, span: Span) -> Diagnostic {
    let text = &src[span.start..span.end];
    if text.starts_with("/*") {
        Diagnostic::error(
            codes::LEX_UNTERMINATED_COMMENT,
            file,
            Span::new(span.start, span.start + 2),
            "unterminated block comment",
            "this comment is never closed",
        )
        .with_help("close it with `*/`")
    } else if text.starts_with('"') || text.starts_with('「') {
        let first = text.chars().next().map(char::len_utf8).unwrap_or(1);
        let close = if text.starts_with('"') { "\"" } else { "」" };
        Diagnostic::error(
            codes::LEX_UNTERMINATED_STRING,
            file,
            Span::new(span.start, span.start + first),
            "unterminated string",
            "this string is never closed",
        )
        .with_help(format!("close it with `{close}` on the same line"))
    } else {
        let c = text.chars().next().unwrap_or('?');
        let shown = if c.is_control() || c == '\u{FFFD}' {
            format!("U+{:04X}", c as u32)
        } else {
            format!("`{c}`")
        };
        Diagnostic::error(
            codes::LEX_UNEXPECTED_CHAR,
            file,
            Span::new(span.start, span.start + c.len_utf8().max(1)),
            format!("unexpected character {shown}"),
            "not part of any fuda token",
        )
        .with_help("remove it; names are letters, digits and `_`, strings go in \"…\" or 「…」")
    }
}

/// An unclosed bracket. `suspect`, when the indentation points at an inner bracket that lost its
/// closing one, is labelled first: that is where the fix goes.
fn unclosed(file: FileId, outermost: Span, suspect: Option<Span>) -> Diagnostic {
    match suspect {
        Some(inner) if inner != outermost => Diagnostic::error(codes::LEX_UNCLOSED, file, inner, "unclosed bracket", "this one seems never closed")
            .with_related(crate::base::diagnostic::Label::new(file, outermost, "so this one is still open at the end"))
            .with_help("add the closing bracket where this block ends (the indentation of a later `}` does not match its line)"),
        _ => Diagnostic::error(codes::LEX_UNCLOSED, file, outermost, "unclosed bracket", "opened here and never closed").with_help("add the matching closing bracket"),
    }
}

fn too_deep(file: FileId, span: Span, what: &str, limit: usize) -> Diagnostic {
    Diagnostic::error(
        codes::LEX_TOO_DEEP,
        file,
        span,
        format!("nesting too deep: more than {limit} {what}"),
        "too deep from here on",
    )
    .with_help("split the effect into smaller steps (let-bindings, verbs)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reserved_word_is_classified_as_one() {
        for w in KEYWORDS {
            assert!(is_keyword(w), "{w}");
        }
        assert!(!is_keyword("draw"));
        assert!(!is_keyword("on"));
    }
}
