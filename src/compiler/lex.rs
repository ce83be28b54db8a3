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

/// Splits `src` into top-level items and reports what the pre-pass finds: one pass over the
/// tokens, each handed to the [`Splitter`] in order.
pub fn split(src: &str, file: FileId, diags: &mut Vec<Diagnostic>) -> Vec<Item> {
    let mut splitter = Splitter::new(src, file, diags);
    for (tok, span) in token_iter(src) {
        splitter.token(tok, span);
    }
    splitter.finish()
}

/// [`split`], each item handed to `item` as soon as it is complete — when the next one
/// starts, or at the end — so that it can be parsed while the pass goes on. The items and the
/// diagnostics are [`split`]'s, in the same order.
pub fn split_each(
    src: &str,
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    mut item: impl FnMut(Item),
) {
    let mut splitter = Splitter::new(src, file, diags);
    // items before this one were handed out
    let mut handed = 0;
    for (tok, span) in token_iter(src) {
        splitter.token(tok, span);
        // every item but the last is complete: only the last is ever extended or marked
        while handed + 1 < splitter.items.len() {
            item(splitter.items[handed].clone());
            handed += 1;
        }
    }
    for rest in splitter.finish().into_iter().skip(handed) {
        item(rest);
    }
}

/// The state of [`split`]'s one pass: the items so far, the open brackets, the current line,
/// and the chains (prefix words, `may`, `.member`, `else if`) it bounds.
struct Splitter<'s, 'd> {
    src: &'s str,
    file: FileId,
    diags: &'d mut Vec<Diagnostic>,
    items: Vec<Item>,
    /// Open brackets: the bracket, its span, and the indentation of the line it is on.
    stack: Vec<(char, Span, usize)>,
    /// Where the current line starts, and the indentation of its first token.
    line_begin: usize,
    line_indent: usize,
    /// No significant token yet on the current line.
    line_start: bool,
    /// Prefix words and choices in a row in the current statement.
    chain: usize,
    /// Depth of a choice word whose quantity has not been seen yet (`target (who) 2`).
    quantity_pending: Option<usize>,
    /// The token after a choice's quantity starts its expression: no boundary there.
    after_quantity: bool,
    /// (`may` words in a row, their bracket depth).
    mays: (usize, usize),
    /// `.member` accesses in a row.
    members: usize,
    /// `else if` links of the `if` at each bracket depth.
    links: Vec<usize>,
    prev_word: Option<&'s str>,
    /// The first opener whose closer's indentation does not match its line (see [`unclosed`]).
    suspect: Option<Span>,
    /// The previous token ends an operand, so `-` is binary…
    prev_operand: bool,
    /// … and is not a connector (`on`, `of`, `up to`).
    prev_ends: bool,
    /// No error reported in the current item yet.
    item_ok: bool,
    /// The previous significant token was an error: one diagnostic per run of bad bytes.
    pending_err: bool,
}

impl<'s, 'd> Splitter<'s, 'd> {
    /// A splitter at the start of `src`.
    fn new(src: &'s str, file: FileId, diags: &'d mut Vec<Diagnostic>) -> Self {
        Splitter {
            src,
            file,
            diags,
            items: Vec::new(),
            stack: Vec::new(),
            line_begin: 0,
            line_indent: 0,
            line_start: true,
            chain: 0,
            quantity_pending: None,
            after_quantity: false,
            mays: (0, 0),
            members: 0,
            links: vec![0],
            prev_word: None,
            suspect: None,
            prev_operand: false,
            prev_ends: false,
            item_ok: true,
            pending_err: false,
        }
    }

    /// Takes one token: errors, trivia, item boundaries, brackets, then the chain bounds.
    fn token(&mut self, tok: Result<Token, ()>, span: Span) {
        let src = self.src;
        let text = &src[span.start..span.end];
        let tok = match tok {
            Ok(t) => t,
            Err(()) => {
                self.bad_bytes(span);
                return;
            }
        };
        match tok {
            Token::Whitespace => return self.whitespace(text, span),
            Token::LineComment | Token::BlockComment => return,
            _ => {}
        }
        self.pending_err = false;
        let first_on_line = self.line_start;
        if first_on_line {
            self.line_indent = span.start - self.line_begin;
        }
        self.item_boundary(tok, text, span);
        self.line_start = false;
        let depth_before = self.stack.len();
        match tok {
            Token::Open => self.open(text, span),
            Token::Close => self.close(text, span, first_on_line, depth_before),
            _ => {}
        }
        if self.item_ok {
            self.bound_chains(tok, text, span, depth_before);
        }
        self.prev_word = Some(text);
        self.close_item(span.end, self.item_ok);
    }

    /// The items, once every token is in; a bracket still open is reported.
    fn finish(mut self) -> Vec<Item> {
        if let Some((_, open, _)) = self.stack.first().copied() {
            self.diags.push(unclosed(self.file, open, self.suspect));
            self.close_item(self.src.len(), false);
        }
        self.items
    }

    /// Extends the last item to `end`; `ok == false` keeps the parser off it.
    fn close_item(&mut self, end: usize, ok: bool) {
        if let Some(last) = self.items.last_mut() {
            last.span.end = last.span.end.max(end);
            last.parse &= ok;
        }
    }

    /// Bytes no token accepts, or an unterminated string or comment: reported once per run.
    fn bad_bytes(&mut self, span: Span) {
        if !self.pending_err {
            self.diags.push(lex_error(self.src, self.file, span));
        }
        self.pending_err = true;
        self.item_ok = false;
        self.close_item(span.end, false);
    }

    /// Whitespace: notes where a new line begins.
    fn whitespace(&mut self, text: &str, span: Span) {
        if let Some(nl) = text.rfind('\n') {
            self.line_start = true;
            self.line_begin = span.start + nl + 1;
        }
    }

    /// A new item starts at a depth-0 word that begins a line, or — to recover from an
    /// unclosed brace — at `card`/`game` in column 0 at any depth. Tokens before the first
    /// item word make a declaration item of their own.
    fn item_boundary(&mut self, tok: Token, text: &str, span: Span) {
        let at_column0 = span.start == 0 || self.src.as_bytes()[span.start - 1] == b'\n';
        let starts_item = self.line_start
            && tok == Token::Ident
            && (self.stack.is_empty() || (at_column0 && (text == "card" || text == "game")));
        if starts_item {
            self.start_item(text, span);
        } else if self.items.is_empty() {
            self.items.push(Item {
                kind: ItemKind::Decl,
                span,
                parse: true,
            });
            self.item_ok = true;
        }
    }

    /// Opens an item at `span`, closing the previous one (and reporting its open bracket).
    fn start_item(&mut self, text: &str, span: Span) {
        if let Some((_, open, _)) = self.stack.first().copied() {
            self.diags.push(unclosed(self.file, open, self.suspect));
            self.close_item(span.start, false);
            self.stack.clear();
            self.links.truncate(1);
        }
        let kind = match text {
            "game" => ItemKind::Game,
            "card" => ItemKind::Card,
            _ => ItemKind::Decl,
        };
        self.items.push(Item {
            kind,
            span,
            parse: true,
        });
        self.item_ok = true;
        self.suspect = None;
        self.chain = 0;
        self.quantity_pending = None;
        self.mays.0 = 0;
        self.members = 0;
    }

    /// An opening bracket, bounded to [`MAX_DEPTH`].
    fn open(&mut self, text: &str, span: Span) {
        let c = text.chars().next().unwrap_or('(');
        self.stack.push((c, span, self.line_indent));
        self.links.push(0);
        if self.stack.len() > MAX_DEPTH && self.item_ok {
            self.report_too_deep("brackets", MAX_DEPTH, span);
        }
    }

    /// Reports nesting deeper than `limit` `what` at `span`; the item is then left unparsed.
    fn report_too_deep(&mut self, what: &str, limit: usize, span: Span) {
        self.diags.push(too_deep(self.file, span, what, limit));
        self.item_ok = false;
    }

    /// A closing bracket: pops its opener (or reports that there is none) and remembers a
    /// suspicious indentation for the unclosed-bracket report.
    fn close(&mut self, text: &str, span: Span, first_on_line: bool, depth_before: usize) {
        if self.links.len() > 1 {
            self.links.pop();
        }
        if self
            .quantity_pending
            .is_some_and(|d| d > depth_before.saturating_sub(1))
        {
            self.quantity_pending = None;
        }
        let popped = self.stack.pop();
        if let Some((_, open, open_indent)) = popped {
            // A `}` first on its line but indented unlike its opener's line suggests
            // that some brace in between was never closed: remember the first such opener.
            if self.suspect.is_none() && first_on_line && self.line_indent != open_indent {
                self.suspect = Some(open);
            }
        }
        if popped.is_none() && self.item_ok {
            self.diags.push(
                Diagnostic::error(
                    codes::LEX_UNMATCHED_CLOSE,
                    self.file,
                    span,
                    format!("unmatched `{text}`"),
                    "nothing to close here",
                )
                .with_help("remove it, or add the opening bracket it belongs to"),
            );
            self.item_ok = false;
        }
    }

    /// The chains the grammar keeps flat but later phases nest, each bounded; then what the
    /// next token's tests need to know of this one.
    fn bound_chains(&mut self, tok: Token, text: &str, span: Span, depth_before: usize) {
        let word = tok == Token::Ident;
        let class = if word { classify(text) } else { 0 };
        self.prefix_chain(tok, text, span, class);
        self.may_chain(text, span, depth_before);
        self.member_chain(text, span, word);
        self.else_if_links(text, span);
        // What a following `-` (binary after an operand) and boundary test see.
        let keyword = class & word::KEYWORD != 0;
        let connector = class & word::CONNECTOR != 0;
        self.prev_operand =
            matches!(tok, Token::Integer | Token::String | Token::Close) || (word && !keyword);
        self.prev_ends = (self.prev_operand && !connector) || class & word::OPERAND != 0;
    }

    /// Prefix words and choices nest in the parser without brackets; bounds how many follow
    /// one another before a statement boundary. `class` is the word's [`classify`] flags.
    fn prefix_chain(&mut self, tok: Token, text: &str, span: Span, class: u8) {
        let word = tok == Token::Ident;
        let keyword = class & word::KEYWORD != 0;
        let connector = class & word::CONNECTOR != 0;
        // An operand right after another at the statement's own level (`banish t  draw -1`)
        // ends the expression before it: nothing before it can nest deeper.
        let at_base = self.stack.last().is_none_or(|(c, _, _)| *c == '{');
        let starts = matches!(tok, Token::Integer | Token::String)
            || (word && !connector && class & word::INFIX == 0);
        if at_base
            && self.prev_ends
            && starts
            && self.quantity_pending.is_none()
            && !self.after_quantity
        {
            self.chain = 0;
        }
        self.after_quantity = false;
        if self.quantity_pending == Some(self.stack.len())
            && (tok == Token::Integer || (word && !connector && !keyword))
        {
            self.quantity_pending = None;
            self.after_quantity = true;
        }
        let choice = matches!(
            text,
            "target" | "choose" | "search" | "random" | "highest" | "lowest"
        );
        let nests = text == "not" || choice || (text == "-" && !self.prev_operand);
        if nests {
            self.chain += 1;
            if choice && self.quantity_pending.is_none() {
                self.quantity_pending = Some(self.stack.len());
            }
            if self.chain > MAX_CHAIN {
                self.report_too_deep(
                    "prefix operators or choices in one statement",
                    MAX_CHAIN,
                    span,
                );
            }
        } else if matches!(text, "{" | "}" | ";") || class & word::STATEMENT != 0 {
            self.chain = 0;
            self.quantity_pending = None;
        }
    }

    /// `may may … stmt` is flat in the grammar but deepens later phases: bounds the run.
    fn may_chain(&mut self, text: &str, span: Span, depth_before: usize) {
        if text == "may" {
            self.mays = if self.mays.1 == depth_before {
                (self.mays.0 + 1, depth_before)
            } else {
                (1, depth_before)
            };
            if self.mays.0 > MAX_CHAIN && self.item_ok {
                self.report_too_deep("`may` in a row", MAX_CHAIN, span);
            }
        } else if depth_before == self.mays.1 && text != "(" {
            self.mays.0 = 0;
        }
    }

    /// `x.a.b…` is flat in the grammar but deepens later phases: bounds the run.
    fn member_chain(&mut self, text: &str, span: Span, word: bool) {
        if text == "." {
            self.members += 1;
            if self.members > MAX_CHAIN && self.item_ok {
                self.report_too_deep("`.member` accesses in a row", MAX_CHAIN, span);
            }
        } else if !(word && self.prev_word == Some(".")) {
            self.members = 0;
        }
    }

    /// `else if` chains are flat too; bounds their length all the same.
    fn else_if_links(&mut self, text: &str, span: Span) {
        if text != "if" {
            return;
        }
        let after_else = self.prev_word == Some("else");
        let Some(n) = self.links.last_mut() else {
            return;
        };
        *n = if after_else { *n + 1 } else { 0 };
        if *n > MAX_LINKS && self.item_ok {
            self.report_too_deep("`else if` links in one `if`", MAX_LINKS, span);
        }
    }
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
        "goes_first" => KEYWORD | STATEMENT,
        "each" => KEYWORD | OPERAND,
        "else" => KEYWORD | STATEMENT,
        "emit" => KEYWORD | STATEMENT,
        "false" => KEYWORD | OPERAND,
        "flip" => KEYWORD | STATEMENT,
        "for" => KEYWORD | STATEMENT,
        "from" => KEYWORD | CONNECTOR,
        "grant" => KEYWORD | STATEMENT,
        "has" => KEYWORD | INFIX,
        "highest" => KEYWORD,
        "if" => KEYWORD | STATEMENT,
        "in" => CONNECTOR,
        "instead" => KEYWORD,
        "is" => KEYWORD | INFIX,
        "it" => KEYWORD | OPERAND,
        "let" => KEYWORD | STATEMENT,
        "look" => KEYWORD | STATEMENT,
        "lose" => KEYWORD | STATEMENT,
        "lowest" => KEYWORD,
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
        "random" => KEYWORD,
        "reach" => KEYWORD | STATEMENT,
        "remove" => KEYWORD | STATEMENT,
        "repeat" => KEYWORD | STATEMENT,
        "resolve" => KEYWORD | STATEMENT,
        "reveal" => KEYWORD | STATEMENT,
        "search" => KEYWORD,
        "script" => KEYWORD | STATEMENT,
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
        "while" => KEYWORD | STATEMENT,
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

/// The words that open a statement (`grammar/fuda.pest`, rule `keyword_stmt`): a misspelt one
/// is suggested from these.
pub const STATEMENT_WORDS: &[&str] = &[
    "let",
    "look",
    "lose",
    "if",
    "for",
    "flip",
    "repeat",
    "remove",
    "reveal",
    "resolve",
    "reach",
    "may",
    "move",
    "attach",
    "clear",
    "cancel",
    "choose",
    "chain",
    "check",
    "grant",
    "goes_first",
    "shuffle",
    "simultaneously",
    "negate",
    "treat",
    "emit",
    "win",
    "window",
    "while",
    "draw_game",
    "phase",
];

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
    "script",
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
    "goes_first",
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
    "random",
    "highest",
    "lowest",
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
    } else if let Some(d) = text
        .chars()
        .next()
        .and_then(|c| typed_with_an_ime(file, span, c))
    {
        d
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

/// The ASCII character fuda expects where a Japanese input method typed `c`: a full-width form
/// (`２`, `：`, `／`, `＋`, `（`…: U+FF01 to U+FF5E), a typographic double quote (`“`, `”`), or
/// the double corner brackets `『』` (fuda's Japanese strings are `「…」`). `None` for any other
/// character.
pub fn ascii_for(c: char) -> Option<char> {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0),
        '“' | '”' | '″' => Some('"'),
        '『' => Some('「'),
        '』' => Some('」'),
        _ => None,
    }
}

/// The error for a character typed with a Japanese input method (see [`ascii_for`]): it names
/// the character, gives the replacement, and carries it as a machine-applicable fix.
fn typed_with_an_ime(file: FileId, span: Span, c: char) -> Option<Diagnostic> {
    let ascii = ascii_for(c)?;
    let at = Span::new(span.start, span.start + c.len_utf8());
    let what = match c {
        '“' | '”' | '″' => "a typographic quote",
        '『' | '』' => "a double corner bracket",
        _ => "a full-width character",
    };
    Some(
        Diagnostic::error(
            codes::LEX_UNEXPECTED_CHAR,
            file,
            at,
            format!("{what} `{c}` (U+{:04X}) where fuda expects `{ascii}`", c as u32),
            format!("write `{ascii}`"),
        )
        .with_help(format!(
            "replace `{c}` with `{ascii}` (a Japanese input method types `{c}`; fuda reads names, numbers and operators in ASCII, and strings in \"…\" or 「…」)"
        ))
        .with_fix(at, ascii.to_string()),
    )
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
