//! Builds the AST from pest pairs. Every node gets the span of its source,
//! shifted from the item's own text back into the file.

use super::expr;
use super::Rule;
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::{FileId, Span};
use crate::compiler::ast::*;
use pest::iterators::Pair;

type P<'i> = Pair<'i, Rule>;

/// Deepest statement nesting (blocks inside blocks) the builder accepts.
pub const MAX_BLOCK_DEPTH: usize = 32;

/// Walks pest pairs of one item.
pub struct Builder<'d> {
    pub(super) file: FileId,
    pub(super) offset: usize,
    pub(super) diags: &'d mut Vec<Diagnostic>,
    depth: usize,
    pub(super) failed: bool,
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

    pub(super) fn ident(&self, pair: P) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    pub(super) fn string(&self, pair: P) -> Str {
        let span = self.span(&pair);
        let inner = pair.into_inner().next().map(|p| p.as_str()).unwrap_or("");
        Str {
            value: unescape(inner),
            span,
        }
    }

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
            Rule::item_game => {
                let mut it = parts.into_iter();
                let name = self.ident(it.next()?);
                let rest: Vec<P> = it.collect();
                if rest.is_empty() {
                    Item::GameHeader(name)
                } else {
                    let mut title = None;
                    let mut decls = Vec::new();
                    for p in rest {
                        if p.as_rule() == Rule::string {
                            title = Some(self.string(p));
                        } else {
                            decls.push(self.decl(p));
                        }
                    }
                    Item::Game(GameDef { name, title, decls })
                }
            }
            Rule::item_card => {
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
                Item::Card(CardDef {
                    name,
                    fields,
                    abilities,
                    span: start.to(end),
                })
            }
            _ => Item::Decl(self.decl(parts.into_iter().next()?)),
        };
        if self.failed {
            None
        } else {
            Some(item)
        }
    }

    // ───────────────────────────── declarations ─────────────────────────────

    fn decl(&mut self, pair: P) -> Decl {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let parts: Vec<P> = children(pair).collect();
        let mut it = parts.into_iter().peekable();
        match rule {
            Rule::players_decl => {
                let n = it.next().map(|p| self.integer(p)).unwrap_or(0);
                Decl::Players(n, span)
            }
            Rule::zone_decl => {
                let named = self.named_from(&mut it);
                let mut props = Vec::new();
                let mut slots = Vec::new();
                let mut relations = Vec::new();
                for p in it {
                    match p.as_rule() {
                        Rule::zone_prop => props.push(self.ident(p)),
                        Rule::zone_body => {
                            for b in children(p) {
                                match b.as_rule() {
                                    Rule::slot_decl => {
                                        slots.extend(children(b).map(|i| self.ident(i)))
                                    }
                                    Rule::relation_decl => {
                                        let mut r = children(b);
                                        let name =
                                            self.ident(r.next().expect("grammar: relation name"));
                                        let pairs = r
                                            .map(|sp| {
                                                let mut s = children(sp);
                                                let a =
                                                    self.ident(s.next().expect("grammar: slot"));
                                                let b =
                                                    self.ident(s.next().expect("grammar: slot"));
                                                (a, b)
                                            })
                                            .collect();
                                        relations.push(RelationDecl { name, pairs });
                                    }
                                    _ => {}
                                }
                            }
                        }
                        _ => {}
                    }
                }
                Decl::Zone(ZoneDecl {
                    named,
                    props,
                    slots,
                    relations,
                })
            }
            Rule::state_decl => {
                let named = self.named_from(&mut it);
                let members = it
                    .map(|m| {
                        let mut mi = children(m).peekable();
                        self.named_from(&mut mi)
                    })
                    .collect();
                Decl::State(StateDecl { named, members })
            }
            Rule::stat_decl => {
                let named = self.named_from(&mut it);
                let mut components = Vec::new();
                let mut props = Vec::new();
                for p in it {
                    match p.as_rule() {
                        Rule::stat_composite => {
                            components.extend(children(p).map(|i| self.ident(i)))
                        }
                        Rule::stat_prop => {
                            let mut s = children(p);
                            let name = self.ident(s.next().expect("grammar: prop"));
                            let value = s.next().map(|v| self.integer(v));
                            props.push((name, value));
                        }
                        _ => {}
                    }
                }
                Decl::Stat(StatDecl {
                    named,
                    components,
                    props,
                })
            }
            Rule::layer_decl => {
                let named = self.named_from(&mut it);
                let ops = it
                    .map(|p| (p.as_str().to_string(), self.span(&p)))
                    .collect();
                Decl::Layer(LayerDecl { named, ops })
            }
            Rule::counter_decl => {
                let named = self.named_from(&mut it);
                let on = it.map(|p| self.ident(p)).collect();
                Decl::Counter(CounterDecl { named, on })
            }
            Rule::card_type_decl => {
                let named = self.named_from(&mut it);
                let mut it = it.peekable();
                let counts_as = match it.peek().map(|p| p.as_rule()) {
                    Some(Rule::counts_as) => {
                        let mut ci = children(it.next().expect("grammar: counts_as"));
                        let ty = self.ident(ci.next().expect("grammar: counted type"));
                        let zone = ci.next().map(|z| self.ident(z));
                        Some((ty, zone))
                    }
                    _ => None,
                };
                let fields = it
                    .map(|f| {
                        let mut fi = children(f);
                        let name = self.ident(fi.next().expect("grammar: field"));
                        let ty = self.ident(fi.next().expect("grammar: type"));
                        let mult = fi.next().and_then(|m| m.as_str().chars().next());
                        FieldDecl { name, ty, mult }
                    })
                    .collect();
                Decl::CardType(CardTypeDecl {
                    named,
                    counts_as,
                    fields,
                })
            }
            Rule::keyword_decl => {
                let name = self.ident(it.next().expect("grammar: keyword name"));
                let mut params = Vec::new();
                let mut label = None;
                let mut semantics = None;
                for p in it {
                    match p.as_rule() {
                        Rule::params => params = self.params(p),
                        Rule::string => label = Some(self.string(p)),
                        Rule::ident => semantics = Some(self.ident(p)),
                        _ => {}
                    }
                }
                Decl::Keyword(KeywordDecl {
                    named: Named { name, label },
                    params,
                    semantics,
                })
            }
            Rule::durations_decl => {
                Decl::Durations(self.ident(it.next().expect("grammar: moment")))
            }
            Rule::ability_decl | Rule::attribute_decl => {
                let named = self.named_from(&mut it);
                let semantics = self.ident(it.next().expect("grammar: semantics"));
                let from_zone = it.next().map(|p| self.ident(p));
                let d = MappedDecl {
                    named,
                    semantics,
                    from_zone,
                };
                if rule == Rule::ability_decl {
                    Decl::AbilityKind(d)
                } else {
                    Decl::Attribute(d)
                }
            }
            Rule::event_decl => {
                let name = self.ident(it.next().expect("grammar: event name"));
                let mut params = Vec::new();
                let mut label = None;
                let mut core = None;
                for p in it {
                    match p.as_rule() {
                        Rule::params => params = self.params(p),
                        Rule::string => label = Some(self.string(p)),
                        Rule::event_core => core = Some(self.ident(p)),
                        _ => {}
                    }
                }
                Decl::Event(EventDecl {
                    named: Named { name, label },
                    params,
                    core,
                })
            }
            Rule::setup_decl | Rule::turn_decl => {
                let word = Span::new(
                    span.start,
                    span.start + if rule == Rule::setup_decl { 5 } else { 4 },
                );
                let body = self.block(it.next().expect("grammar: body"));
                if rule == Rule::setup_decl {
                    Decl::Setup(word, body)
                } else {
                    Decl::Turn(word, body)
                }
            }
            Rule::action_decl => {
                let named = self.named_from(&mut it);
                let mut each = None;
                let mut condition = None;
                let mut body = None;
                for p in it {
                    match p.as_rule() {
                        Rule::action_for => {
                            let mut f = children(p);
                            let var = self.ident(f.next().expect("grammar: variable"));
                            let cards = self.expr(f.next().expect("grammar: candidates"));
                            each = Some((var, cards));
                        }
                        Rule::if_clause => {
                            condition =
                                Some(self.expr(children(p).next().expect("grammar: condition")))
                        }
                        _ => body = Some(self.block(p)),
                    }
                }
                Decl::Action(Box::new(ActionDecl {
                    named,
                    each,
                    condition,
                    body: body.expect("grammar: body"),
                }))
            }
            Rule::rule_decl => {
                let named = self.named_from(&mut it);
                let body = self.block(it.next().expect("grammar: body"));
                Decl::Rule(RuleDecl { named, body })
            }
            Rule::moment_decl => Decl::Moment(self.named_from(&mut it)),
            Rule::verb_decl | Rule::procedure_decl => {
                let name = self.ident(it.next().expect("grammar: verb name"));
                let mut params = Vec::new();
                let mut label = None;
                let mut body = None;
                for p in it {
                    match p.as_rule() {
                        Rule::params => params = self.params(p),
                        Rule::string => label = Some(self.string(p)),
                        Rule::block => body = Some(self.block(p)),
                        _ => {}
                    }
                }
                let d = ProcDecl {
                    named: Named { name, label },
                    params,
                    body: body.unwrap_or(Block {
                        stmts: vec![],
                        span,
                    }),
                };
                if rule == Rule::verb_decl {
                    Decl::Verb(d)
                } else {
                    Decl::Procedure(d)
                }
            }
            Rule::numbers_decl | Rule::names_decl => {
                let rules = it
                    .map(|r| {
                        let mut ri = children(r);
                        let name = self.ident(ri.next().expect("grammar: rule name"));
                        let args = ri.map(|s| self.string(s)).collect();
                        NormRule { name, args }
                    })
                    .collect();
                if rule == Rule::numbers_decl {
                    Decl::Numbers(rules, span)
                } else {
                    Decl::Names(rules, span)
                }
            }
            Rule::deck_decl => {
                let rules = it
                    .map(|r| {
                        let span = self.span(&r);
                        let mut ri = children(r);
                        let name = self.ident(ri.next().expect("grammar: deck rule"));
                        let value = ri.next().map(|v| self.integer(v)).unwrap_or(0);
                        let qualifier = ri.next().map(|q| self.ident(q));
                        DeckRule {
                            name,
                            value,
                            qualifier,
                            span,
                        }
                    })
                    .collect();
                Decl::Deck(rules, span)
            }
            _ => unreachable!("grammar: unexpected declaration rule {rule:?}"),
        }
    }

    fn named_from<'i>(
        &mut self,
        it: &mut std::iter::Peekable<impl Iterator<Item = P<'i>>>,
    ) -> Named {
        let name = self.ident(it.next().expect("grammar: name"));
        let label = if it.peek().is_some_and(|p| p.as_rule() == Rule::string) {
            it.next().map(|p| self.string(p))
        } else {
            None
        };
        Named { name, label }
    }

    fn params(&mut self, pair: P) -> Vec<Param> {
        children(pair)
            .map(|p| {
                let mut pi = children(p);
                let name = self.ident(pi.next().expect("grammar: param name"));
                let ty = pi.next().expect("grammar: param type");
                let mut types = Vec::new();
                let mut optional = false;
                for t in children(ty) {
                    match t.as_rule() {
                        Rule::type_name => {
                            types.push(self.ident(t.into_inner().next().expect("grammar: type")))
                        }
                        Rule::opt_mark => optional = true,
                        _ => {}
                    }
                }
                let default = pi.next().map(|e| self.expr(e));
                Param {
                    name,
                    types,
                    optional,
                    default,
                }
            })
            .collect()
    }

    // ───────────────────────────── cards ─────────────────────────────

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
            let ps = self.span(&p);
            match p.as_rule() {
                Rule::ability_word => words.push(
                    self.ident(
                        p.into_inner()
                            .find(|i| i.as_rule() == Rule::ident)
                            .expect("grammar: word"),
                    ),
                ),
                Rule::when_clause => {
                    let t = self.trigger(children(p).next().expect("grammar: trigger"));
                    clauses.push(Clause::When(t, ps));
                }
                Rule::instead_clause => {
                    let t = self.trigger(children(p).next().expect("grammar: trigger"));
                    clauses.push(Clause::Instead(t, ps));
                }
                Rule::while_clause => {
                    let e = self.expr(children(p).next().expect("grammar: condition"));
                    clauses.push(Clause::While(e, ps));
                }
                Rule::if_clause => {
                    let e = self.expr(children(p).next().expect("grammar: condition"));
                    clauses.push(Clause::If(e, ps));
                }
                Rule::cost_clause => {
                    let stmts = children(p).map(|s| self.stmt(s)).collect();
                    clauses.push(Clause::Cost(stmts, ps));
                }
                Rule::limit_clause => {
                    let mut it = children(p);
                    let n = self.integer(it.next().expect("grammar: limit"));
                    let per = self.ident(it.next().expect("grammar: period"));
                    clauses.push(Clause::Limit(n, per, ps));
                }
                Rule::from_clause => {
                    let z = self.ident(children(p).next().expect("grammar: zone"));
                    clauses.push(Clause::From(z, ps));
                }
                Rule::block => body = self.block(p),
                _ => {}
            }
        }
        Ability {
            words,
            clauses,
            body,
            span,
        }
    }

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
        let stmts = children(pair).map(|s| self.stmt(s)).collect();
        self.depth -= 1;
        Block { stmts, span }
    }

    fn duration(&mut self, pair: P) -> Duration {
        let inner = children(pair).next().expect("grammar: duration");
        match inner.as_rule() {
            Rule::ident => Duration::Until(self.ident(inner)),
            _ => Duration::While(self.expr(inner)),
        }
    }

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

    fn keyword_arg(&mut self, pair: P) -> KeywordRef {
        let span = self.span(&pair);
        let mut it = children(pair);
        let name = self.ident(it.next().expect("grammar: keyword"));
        let args = it.map(|e| self.expr(e)).collect();
        KeywordRef { name, args, span }
    }

    fn opt_duration(&mut self, p: Option<P>) -> Option<Duration> {
        p.map(|d| self.duration(d))
    }

    fn stmt(&mut self, pair: P) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        if rule == Rule::may_stmt {
            return Stmt {
                kind: self.may(pair, span),
                span,
            };
        }
        let parts: Vec<P> = children(pair).collect();
        let mut it = parts.into_iter().peekable();
        let kind = match rule {
            Rule::let_stmt => {
                let name = self.ident(it.next().expect("grammar"));
                StmtKind::Let(name, self.expr(it.next().expect("grammar")))
            }
            Rule::if_stmt => {
                let cond = self.expr(it.next().expect("grammar"));
                let then = self.block(it.next().expect("grammar"));
                let mut arms = vec![(cond, then)];
                let mut els = None;
                for p in it {
                    match p.as_rule() {
                        Rule::else_if => {
                            let mut e = children(p);
                            let c = self.expr(e.next().expect("grammar"));
                            let b = self.block(e.next().expect("grammar"));
                            arms.push((c, b));
                        }
                        _ => els = Some(self.block(children(p).next().expect("grammar"))),
                    }
                }
                StmtKind::If(arms, els)
            }
            Rule::for_stmt => {
                let var = self.ident(it.next().expect("grammar"));
                let iter = self.expr(it.next().expect("grammar"));
                StmtKind::ForEach(var, iter, self.block(it.next().expect("grammar")))
            }
            Rule::repeat_stmt => {
                let n = self.expr(it.next().expect("grammar"));
                StmtKind::Repeat(n, self.block(it.next().expect("grammar")))
            }
            Rule::move_stmt => {
                let what = self.expr(it.next().expect("grammar"));
                let to = self.expr(it.next().expect("grammar"));
                let mut opts = MoveOptions::default();
                for o in it {
                    match o.as_rule() {
                        Rule::move_pos => {
                            opts.top = o.into_inner().next().map(|w| w.as_rule() == Rule::kw_top)
                        }
                        Rule::move_face => {
                            opts.face_up = o
                                .into_inner()
                                .next()
                                .map(|w| w.as_rule() == Rule::kw_face_up)
                        }
                        Rule::move_state => opts.state = children(o).next().map(|i| self.ident(i)),
                        _ => opts.slot = children(o).next().map(|e| self.expr(e)),
                    }
                }
                StmtKind::Move(what, to, opts)
            }
            Rule::attach_stmt => {
                let what = self.expr(it.next().expect("grammar"));
                StmtKind::Attach(what, self.expr(it.next().expect("grammar")))
            }
            Rule::clear_state_stmt => {
                let what = self.expr(it.next().expect("grammar"));
                StmtKind::Clear(what, self.ident(it.next().expect("grammar")))
            }
            Rule::grant_stmt | Rule::remove_stmt => {
                let kw = self.keyword_arg(it.next().expect("grammar"));
                let target = self.expr(it.next().expect("grammar"));
                let dur = self.opt_duration(it.next());
                if rule == Rule::grant_stmt {
                    StmtKind::Grant(kw, target, dur)
                } else {
                    StmtKind::Remove(kw, target, dur)
                }
            }
            Rule::reveal_stmt => StmtKind::Reveal(self.expr(it.next().expect("grammar"))),
            Rule::look_stmt => {
                let what = self.expr(it.next().expect("grammar"));
                let by = it
                    .next()
                    .map(|b| self.expr(children(b).next().expect("grammar")));
                StmtKind::Look(what, by)
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(it.next().expect("grammar"))),
            Rule::negate_stmt => {
                let what = self.expr(it.next().expect("grammar"));
                let mut effect = None;
                let mut all = false;
                let mut dur = None;
                for p in it {
                    match p.as_rule() {
                        Rule::negate_scope => {
                            effect = p
                                .into_inner()
                                .next()
                                .map(|w| w.as_rule() == Rule::kw_effect)
                        }
                        Rule::negate_all => all = true,
                        _ => dur = Some(self.duration(p)),
                    }
                }
                StmtKind::Negate(what, effect, all, dur)
            }
            Rule::flip_stmt => {
                let what = self.expr(it.next().expect("grammar"));
                let face = it
                    .next()
                    .and_then(|f| f.into_inner().next())
                    .map(|w| w.as_rule() == Rule::kw_face_up);
                StmtKind::Flip(what, face)
            }
            Rule::simultaneously_stmt => {
                StmtKind::Simultaneously(self.block(it.next().expect("grammar")))
            }
            Rule::cancel_stmt => {
                let ev = self.ident(it.next().expect("grammar"));
                StmtKind::Cancel(ev, it.next().map(|e| self.expr(e)))
            }
            Rule::treat_stmt => {
                let what = self.expr(it.next().expect("grammar"));
                let ty = self.ident(it.next().expect("grammar"));
                let fields = it.map(|f| self.field_entry(f)).collect();
                StmtKind::Treat(what, ty, fields)
            }
            Rule::emit_stmt => {
                let ev = self.ident(it.next().expect("grammar"));
                let args = it
                    .next()
                    .map(|a| children(a).map(|x| self.arg(x)).collect())
                    .unwrap_or_default();
                StmtKind::Emit(ev, args)
            }
            Rule::choose_one_stmt => {
                let mut who = None;
                let mut options = Vec::new();
                for p in it {
                    match p.as_rule() {
                        Rule::who => who = Some(self.expr(children(p).next().expect("grammar"))),
                        _ => {
                            let mut o = children(p);
                            let label = self.string(o.next().expect("grammar"));
                            let body = self.block(o.next().expect("grammar"));
                            options.push((label, body));
                        }
                    }
                }
                StmtKind::ChooseOne(who, options)
            }
            Rule::win_stmt => StmtKind::Win(self.expr(it.next().expect("grammar"))),
            Rule::lose_stmt => StmtKind::Lose(self.expr(it.next().expect("grammar"))),
            Rule::draw_game_stmt => StmtKind::DrawGame,
            Rule::phase_stmt => {
                let named = self.named_from(&mut it);
                StmtKind::Phase(named, self.block(it.next().expect("grammar")))
            }
            Rule::window_stmt => {
                let chain = it.next_if(|p| p.as_rule() == Rule::window_chain).is_some();
                let players = self.expr(it.next().expect("grammar"));
                let entries = it
                    .map(|e| {
                        let mut ei = children(e);
                        let name = self.ident(ei.next().expect("grammar"));
                        let with = ei.next().map(|w| self.ident(w));
                        WindowEntry { name, with }
                    })
                    .collect();
                StmtKind::Window(Window {
                    players,
                    chain,
                    entries,
                })
            }
            Rule::chain_stmt => StmtKind::Chain(self.block(it.next().expect("grammar"))),
            Rule::resolve_stmt => {
                let kind = self.ident(it.next().expect("grammar"));
                StmtKind::Resolve(kind, self.expr(it.next().expect("grammar")))
            }
            Rule::check_stmt => StmtKind::Check,
            Rule::reach_stmt => StmtKind::Reach(self.ident(it.next().expect("grammar"))),
            Rule::subject_stmt if it.peek().is_some_and(|p| p.as_rule() == Rule::paren_call) => {
                let mut call = children(it.next().expect("grammar"));
                let name = self.ident(call.next().expect("grammar"));
                let args = call
                    .next()
                    .map(|a| children(a).map(|x| self.arg(x)).collect())
                    .unwrap_or_default();
                StmtKind::Call(name, args, self.opt_duration(it.next()))
            }
            Rule::subject_stmt => {
                let subject = self.postfix(it.next().expect("grammar"));
                let tail = it.next().expect("grammar: statement tail");
                let tail_rule = tail.as_rule();
                let mut t = children(tail);
                match tail_rule {
                    Rule::becomes_tail => {
                        let name = self.ident(t.next().expect("grammar"));
                        StmtKind::Becomes(subject, name, self.opt_duration(t.next()))
                    }
                    Rule::modify_tail => {
                        let member = self.ident(t.next().expect("grammar"));
                        let op_pair = t.next().expect("grammar");
                        let op = (op_pair.as_str().to_string(), self.span(&op_pair));
                        let value = self.expr(t.next().expect("grammar"));
                        let mut duration = None;
                        let mut layer = None;
                        for p in t {
                            match p.as_rule() {
                                Rule::duration => duration = Some(self.duration(p)),
                                _ => layer = Some(self.ident(children(p).next().expect("grammar"))),
                            }
                        }
                        StmtKind::Modify(Modify {
                            subject,
                            member,
                            op,
                            value,
                            duration,
                            layer,
                        })
                    }
                    _ => {
                        // A call: `verb`, `verb arg`, `verb(args)`, each with an optional duration.
                        let mut bare = None;
                        let mut dur = None;
                        for p in t {
                            match p.as_rule() {
                                Rule::bare_args => {
                                    bare = Some(self.expr(children(p).next().expect("grammar")))
                                }
                                _ => dur = Some(self.duration(p)),
                            }
                        }
                        match (subject.kind, bare) {
                            (ExprKind::Name(name), bare) => StmtKind::Call(
                                name,
                                bare.map(|value| Arg { name: None, value })
                                    .into_iter()
                                    .collect(),
                                dur,
                            ),
                            (ExprKind::Call(name, args), None) => StmtKind::Call(name, args, dur),
                            (_, _) => {
                                self.error(
                                    Diagnostic::error(codes::PARSE_SYNTAX, self.file, subject.span, "expected a statement, found a value", "a value alone does nothing")
                                        .with_help("a statement starts with a verb (`draw 1`), or changes something (`x.might += 1`, `x becomes tapped`)"),
                                );
                                StmtKind::DrawGame
                            }
                        }
                    }
                }
            }
            _ => unreachable!("grammar: unexpected statement rule {rule:?}"),
        };
        Stmt { kind, span }
    }

    /// `may(p) may …`: one entry per `may` word, `None` for the resolving player.
    fn may(&mut self, pair: P, span: Span) -> StmtKind {
        let mut who: Vec<Option<Expr>> = Vec::new();
        let mut body = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::kw_may => who.push(None),
                Rule::who => {
                    let e = self.expr(children(p).next().expect("grammar"));
                    if let Some(last) = who.last_mut() {
                        *last = Some(e);
                    }
                }
                Rule::block => body = Some(self.block(p)),
                _ => {
                    let s = self.stmt(p);
                    body = Some(Block {
                        span: s.span,
                        stmts: vec![s],
                    });
                }
            }
        }
        StmtKind::May(
            who,
            body.unwrap_or(Block {
                stmts: vec![],
                span,
            }),
        )
    }

    pub(super) fn expr(&mut self, pair: P) -> Expr {
        expr::build(self, pair)
    }

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
