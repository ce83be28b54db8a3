//! Builds the AST from pest pairs. Every node gets the span of its source,
//! shifted from the item's own text back into the file.
//!
//! Items, cards, abilities and the shared pieces (names, strings, blocks, arguments) are here;
//! declarations are in `decl.rs`, statements in `stmt.rs`, expressions in `../expr.rs`.

mod decl;
mod flags;
mod stmt;

use super::expr;
use super::Rule;
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::{FileId, Span};
use crate::compiler::ast::*;
use pest::iterators::Pair;

type P<'i> = Pair<'i, Rule>;
/// The significant children of a declaration or statement, collected, in source order.
type Parts<'i> = std::iter::Peekable<std::vec::IntoIter<P<'i>>>;

/// Deepest statement nesting (blocks inside blocks) the builder accepts.
pub const MAX_BLOCK_DEPTH: usize = 32;

/// Walks pest pairs of one item.
pub struct Builder<'d> {
    pub(super) file: FileId,
    pub(super) offset: usize,
    pub(super) diags: &'d mut Vec<Diagnostic>,
    depth: usize,
    pub(super) failed: bool,
    /// The statement built just before, in the block being built (`None` at a block's start):
    /// a value alone after it on the same line is most often a slip in it (see
    /// `stmt::value_alone`).
    pub(super) prev_stmt: Option<PrevStmt>,
    /// Where a slip reported by the expression builder ends (`target unit on …`): a value
    /// alone later on that line follows from it and is not reported again.
    pub(super) slip_reported: Option<usize>,
}

/// What a value alone needs to know of the statement before it (spans only: it is kept for
/// every statement built, and read only on an error).
#[derive(Debug, Clone, Copy)]
pub(super) struct PrevStmt {
    /// Where it ends.
    pub end: usize,
    /// When it is a call without parentheses given one argument (`mayy draw`, `draw 1`): the
    /// verb's span, the argument's span, and whether the argument is a plain name.
    pub bare_call: Option<(Span, Span, bool)>,
}

impl PrevStmt {
    /// The summary of `stmt`.
    fn of(stmt: &Stmt) -> Self {
        // (`verb(a)` ends after its `)`, `verb a` with its argument)
        let bare_call = match &stmt.kind {
            StmtKind::Call(name, args, None) => match args.as_slice() {
                [Arg { name: None, value }] if value.span.end == stmt.span.end => Some((
                    name.span,
                    value.span,
                    matches!(value.kind, ExprKind::Name(_)),
                )),
                _ => None,
            },
            _ => None,
        };
        PrevStmt {
            end: stmt.span.end,
            bare_call,
        }
    }
}

/// The significant children of a pair: keyword tokens (`kw_*`) are skipped.
pub fn children<'i>(pair: P<'i>) -> impl Iterator<Item = P<'i>> {
    pair.into_inner().filter(|p| !is_kw(p.as_rule()))
}

/// Whether a rule is a keyword token (`kw_*`), looked up in a table built once.
fn is_kw(rule: Rule) -> bool {
    static TABLE: std::sync::OnceLock<Vec<bool>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let all = Rule::all_rules();
        let mut t = vec![false; all.iter().map(|r| *r as usize + 1).max().unwrap_or(0)];
        for r in all {
            t[*r as usize] = format!("{r:?}").starts_with("kw_");
        }
        t
    });
    table.get(rule as usize).copied().unwrap_or(false)
}

impl<'d> Builder<'d> {
    /// A builder for an item that starts at byte `offset` of `file`.
    pub fn new(file: FileId, offset: usize, diags: &'d mut Vec<Diagnostic>) -> Self {
        Builder {
            file,
            offset,
            diags,
            depth: 0,
            failed: false,
            prev_stmt: None,
            slip_reported: None,
        }
    }

    /// The span of a pair, without the trailing whitespace and comments pest's implicit
    /// skipping may leave inside it (so a label ends at the last token).
    pub(super) fn span(&self, pair: &P) -> Span {
        let s = pair.as_span();
        let text = s.as_str();
        Span::new(
            s.start() + self.offset,
            s.start() + trimmed_len(text) + self.offset,
        )
    }

    /// A name, with its span.
    pub(super) fn ident(&self, pair: P) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    /// A string literal, unescaped, with the span of its quotes.
    pub(super) fn string(&self, pair: P) -> Str {
        let span = self.span(&pair);
        let inner = pair.into_inner().next().map(|p| p.as_str()).unwrap_or("");
        Str {
            value: unescape(inner),
            span,
        }
    }

    /// An integer literal; one too large for 64 bits is reported and read as 0.
    pub(super) fn integer(&mut self, pair: P) -> i64 {
        match pair.as_str().parse::<i64>() {
            Ok(n) => n,
            Err(_) => {
                let span = self.span(&pair);
                self.error(
                    Diagnostic::error(
                        codes::PARSE_INTEGER_TOO_LARGE,
                        self.file,
                        span,
                        "integer too large",
                        "does not fit in 64 bits",
                    )
                    .with_help(format!("the largest integer is {}", i64::MAX)),
                );
                0
            }
        }
    }

    /// Reports a diagnostic and marks the item as failed (it is left out of the output).
    pub(super) fn error(&mut self, d: Diagnostic) {
        self.failed = true;
        self.diags.push(d);
    }

    /// Builds one top-level item from its entry pair; `None` when a diagnostic was reported.
    pub fn item(&mut self, pair: P) -> Option<Item> {
        let rule = pair.as_rule();
        let parts: Vec<P> = children(pair)
            .filter(|p| p.as_rule() != Rule::EOI)
            .collect();
        let item = match rule {
            Rule::item_game => self.item_game(parts)?,
            Rule::item_card => self.item_card(parts)?,
            _ => Item::Decl(self.decl(parts.into_iter().next()?)),
        };
        if self.failed {
            None
        } else {
            Some(item)
        }
    }

    /// `game id` (a header naming the game a file belongs to) or `game id "Title" { … }`.
    fn item_game(&mut self, parts: Vec<P>) -> Option<Item> {
        let mut it = parts.into_iter();
        let name = self.ident(it.next()?);
        let rest: Vec<P> = it.collect();
        if rest.is_empty() {
            return Some(Item::GameHeader(name));
        }
        let mut title = None;
        let mut decls = Vec::new();
        for p in rest {
            if p.as_rule() == Rule::string {
                title = Some(self.string(p));
            } else {
                decls.push(self.decl(p));
            }
        }
        Some(Item::Game(GameDef { name, title, decls }))
    }

    // ───────────────────────────── cards ─────────────────────────────

    /// `card "Name" { field: value … ability … }`, spanning the name to the last part.
    fn item_card(&mut self, parts: Vec<P>) -> Option<Item> {
        let mut it = parts.into_iter();
        let name_pair = it.next()?;
        let start = self.span(&name_pair);
        let name = self.string(name_pair);
        let mut fields = Vec::new();
        let mut abilities = Vec::new();
        let mut end = start;
        for p in it {
            end = self.span(&p);
            match p.as_rule() {
                Rule::field_entry => fields.push(self.field_entry(p)),
                Rule::ability => abilities.push(self.ability(p)),
                _ => {}
            }
        }
        Some(Item::Card(CardDef {
            name,
            fields,
            abilities,
            span: start.to(end),
        }))
    }

    /// `name: value, value…` in a card (or a `treat … as` statement).
    pub(super) fn field_entry(&mut self, pair: P) -> FieldEntry {
        let span = self.span(&pair);
        let mut it = children(pair);
        let name = self.ident(it.next().expect("grammar: field name"));
        let values = it
            .map(|v| {
                let inner = v.into_inner().next().expect("grammar: field value");
                match inner.as_rule() {
                    Rule::keyword_ref => FieldValue::Word(self.keyword_ref(inner)),
                    _ => FieldValue::Expr(self.expr(inner)),
                }
            })
            .collect();
        FieldEntry { name, values, span }
    }

    /// A keyword as a field value: `name args…`.
    fn keyword_ref(&mut self, pair: P) -> KeywordRef {
        let span = self.span(&pair);
        let mut it = children(pair);
        let name = self.ident(it.next().expect("grammar: keyword"));
        let args = it
            .map(|a| {
                if a.as_rule() == Rule::integer {
                    let s = self.span(&a);
                    Expr {
                        kind: ExprKind::Int(self.integer(a)),
                        span: s,
                    }
                } else {
                    self.expr(a)
                }
            })
            .collect();
        KeywordRef { name, args, span }
    }

    fn ability(&mut self, pair: P) -> Ability {
        let span = self.span(&pair);
        let mut words = Vec::new();
        let mut clauses = Vec::new();
        let mut body = Block {
            stmts: vec![],
            span,
        };
        for p in children(pair) {
            match p.as_rule() {
                Rule::ability_word => words.push(
                    self.ident(
                        p.into_inner()
                            .find(|i| i.as_rule() == Rule::ident)
                            .expect("grammar: word"),
                    ),
                ),
                Rule::block => body = self.block(p),
                _ => clauses.extend(self.clause(p)),
            }
        }
        Ability {
            words,
            clauses,
            body,
            span,
        }
    }

    /// One clause of an ability's head (a `when`, `instead`, `while`, `if`, cost, limit or
    /// `from` clause); `None` for any other pair.
    fn clause(&mut self, p: P) -> Option<Clause> {
        let ps = self.span(&p);
        Some(match p.as_rule() {
            Rule::when_clause => Clause::When(self.inner_trigger(p), ps),
            Rule::instead_clause => Clause::Instead(self.inner_trigger(p), ps),
            Rule::while_clause => Clause::While(self.inner_expr(p), ps),
            Rule::if_clause => Clause::If(self.inner_expr(p), ps),
            Rule::cost_clause => Clause::Cost(children(p).map(|s| self.stmt(s)).collect(), ps),
            Rule::limit_clause => {
                let mut it = children(p);
                let n = self.integer(it.next().expect("grammar: limit"));
                let per = self.ident(it.next().expect("grammar: period"));
                Clause::Limit(n, per, ps)
            }
            Rule::from_clause => {
                Clause::From(self.ident(children(p).next().expect("grammar: zone")), ps)
            }
            _ => return None,
        })
    }

    /// The trigger a `when` or `instead` clause holds.
    fn inner_trigger(&mut self, pair: P) -> Trigger {
        self.trigger(children(pair).next().expect("grammar: trigger"))
    }

    /// `subject event(args)`: what an ability waits for.
    fn trigger(&mut self, pair: P) -> Trigger {
        let span = self.span(&pair);
        let mut subject = None;
        let mut event = None;
        let mut args = Vec::new();
        for p in children(pair) {
            match p.as_rule() {
                Rule::trigger_subject => {
                    let s = p.into_inner().next().expect("grammar: subject");
                    let sspan = self.span(&s);
                    let kind = if s.as_rule() == Rule::this_kw {
                        ExprKind::This
                    } else {
                        ExprKind::Name(self.ident(s))
                    };
                    subject = Some(Expr { kind, span: sspan });
                }
                Rule::ident => event = Some(self.ident(p)),
                Rule::trigger_args => args = children(p).map(|a| self.arg(a)).collect(),
                _ => {}
            }
        }
        Trigger {
            subject,
            event: event.expect("grammar: event"),
            args,
            span,
        }
    }

    // ───────────────────────────── statements ─────────────────────────────

    /// `{ stmt … }`, bounded to [`MAX_BLOCK_DEPTH`] levels (deeper is reported, and empty).
    pub(super) fn block(&mut self, pair: P) -> Block {
        let span = self.span(&pair);
        self.depth += 1;
        if self.depth > MAX_BLOCK_DEPTH {
            self.error(
                Diagnostic::error(
                    codes::PARSE_TOO_DEEP,
                    self.file,
                    Span::new(span.start, span.start + 1),
                    format!("blocks nested more than {MAX_BLOCK_DEPTH} deep"),
                    "too deep from here on",
                )
                .with_help("split the effect into verbs"),
            );
            self.depth -= 1;
            return Block {
                stmts: vec![],
                span,
            };
        }
        self.prev_stmt = None;
        let mut stmts = Vec::new();
        for s in children(pair) {
            let stmt = self.stmt(s);
            self.prev_stmt = Some(PrevStmt::of(&stmt));
            stmts.push(stmt);
        }
        self.depth -= 1;
        Block { stmts, span }
    }

    /// One argument of a call: `value` or `name: value`.
    pub(super) fn arg(&mut self, pair: P) -> Arg {
        if pair.as_rule() == Rule::named_arg {
            let mut it = children(pair);
            let name = self.ident(it.next().expect("grammar: arg name"));
            let value = self.expr(it.next().expect("grammar: arg value"));
            Arg {
                name: Some(name),
                value,
            }
        } else {
            Arg {
                name: None,
                value: self.expr(pair),
            }
        }
    }

    /// `(args)` after a callee; no arguments when absent.
    pub(super) fn call_args(&mut self, pair: Option<P>) -> Vec<Arg> {
        pair.map(|a| children(a).map(|x| self.arg(x)).collect())
            .unwrap_or_default()
    }

    /// An expression (by precedence climbing, in `expr.rs`).
    pub(super) fn expr(&mut self, pair: P) -> Expr {
        expr::build(self, pair)
    }

    /// The one expression a wrapper pair holds (`(who)`, `if cond`, `while cond`, `by x`…).
    pub(super) fn inner_expr(&mut self, pair: P) -> Expr {
        self.expr(children(pair).next().expect("grammar: inner expression"))
    }

    /// A primary and its member accesses: the subject of a statement.
    fn postfix(&mut self, pair: P) -> Expr {
        expr::postfix(self, pair)
    }
}

/// The length of `text` without trailing whitespace and comments.
fn trimmed_len(text: &str) -> usize {
    let ends_in_trivia =
        |t: &str| t.ends_with(|c: char| c.is_whitespace() || c == '\u{feff}') || t.ends_with("*/");
    if !ends_in_trivia(text) {
        return text.len();
    }
    let mut t = text;
    loop {
        t = t.trim_end_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if t.ends_with("*/") {
            if let Some(open) = t.rfind("/*") {
                t = &t[..open];
                continue;
            }
        }
        // A line comment ending the last line: `//` outside a string on that line.
        let line_start = t.rfind('\n').map_or(0, |i| i + 1);
        match line_comment_start(&t[line_start..]) {
            Some(i) => t = &t[..line_start + i],
            None => return t.len(),
        }
    }
}

/// Where a line comment starts in one line, if it has one outside strings.
fn line_comment_start(line: &str) -> Option<usize> {
    let mut in_str: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (in_str, c) {
            (None, '"') => in_str = Some('"'),
            (None, '「') => in_str = Some('」'),
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some(close), c) if c == close => in_str = None,
            (None, '/') if chars.peek().is_some_and(|(_, n)| *n == '/') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Resolves `\"`, `\\`, `\n` and `\t` escapes.
pub fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}
