//! Checking statements: verbs, moves, modifications and control flow.

use super::scope::{Ctx, Ty};
use super::symbols::{Callable, Symbols};
use crate::base::diagnostic::{codes, did_you_mean, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast::{self, StmtKind};
use crate::ir::{self, Duration, Expr, Stmt, Type};
use std::collections::BTreeMap;

/// The span of a written duration.
fn duration_span(d: &ast::Duration) -> Span {
    match d {
        ast::Duration::Until(m) => m.span,
        ast::Duration::While(e) => e.span,
    }
}

impl<'a> Ctx<'a> {
    /// Checks a block in its own scope.
    pub fn block(&mut self, b: &ast::Block) -> Vec<Stmt> {
        self.push();
        let out = self.stmts(&b.stmts);
        self.pop();
        out
    }

    /// Checks statements in the current scope.
    pub fn stmts(&mut self, stmts: &[ast::Stmt]) -> Vec<Stmt> {
        stmts.iter().filter_map(|s| self.stmt(s)).collect()
    }

    fn duration(&mut self, d: &Option<ast::Duration>) -> Duration {
        match d {
            None => Duration::Default,
            Some(ast::Duration::Until(m)) => match self.sym.moments.get(&m.name) {
                Some(id) => Duration::Until(id.clone()),
                None => {
                    self.unknown(
                        codes::RESOLVE_UNKNOWN_MOMENT,
                        "moment",
                        &m.name,
                        m.span,
                        self.sym.moments.keys().map(String::as_str),
                    );
                    Duration::Default
                }
            },
            Some(ast::Duration::While(c)) => Duration::While(self.cond(c)),
        }
    }

    /// The declared event of this name, or a diagnostic with a did-you-mean.
    pub(super) fn event_named(&mut self, ev: &ast::Ident) -> Option<&'a Callable> {
        let sym: &'a Symbols = self.sym;
        let found = sym.events.get(&ev.name);
        if found.is_none() {
            self.unknown(
                codes::RESOLVE_UNKNOWN_EVENT,
                "event",
                &ev.name,
                ev.span,
                sym.events.keys().map(String::as_str),
            );
        }
        found
    }

    /// A keyword with its values (`ward 1`), checked against its declaration.
    pub(super) fn keyword(&mut self, k: &ast::KeywordRef) -> Option<(String, Vec<Expr>)> {
        let Some(kw) = self.sym.keywords.get(&k.name.name).cloned() else {
            self.unknown(
                codes::RESOLVE_UNKNOWN_KEYWORD,
                "keyword",
                &k.name.name,
                k.name.span,
                self.sym.keywords.keys().map(String::as_str),
            );
            return None;
        };
        let given = k.args.len();
        let needed = kw
            .params
            .iter()
            .filter(|p| !p.optional && !p.has_default)
            .count();
        if given > kw.params.len() || given < needed {
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_WRONG_ARITY,
                    self.file,
                    k.span,
                    format!(
                        "keyword `{}` takes {} value{}, found {given}",
                        k.name.name,
                        kw.params.len(),
                        if kw.params.len() == 1 { "" } else { "s" }
                    ),
                    "wrong number of values",
                )
                .with_help(if kw.params.is_empty() {
                    format!("write just `{}`", k.name.name)
                } else {
                    format!("write `{} 1`", k.name.name)
                }),
            );
        }
        let args = k.args.iter().map(|a| self.number(a)).collect();
        Some((kw.id, args))
    }

    /// Maps positional and named arguments onto parameters, checking arity and types.
    pub fn args(
        &mut self,
        callee: &Callable,
        what: &str,
        args: &[ast::Arg],
        span: Span,
    ) -> BTreeMap<String, Expr> {
        let mut out = BTreeMap::new();
        let mut next = 0;
        for a in args {
            let idx = match &a.name {
                Some(n) => match callee.params.iter().position(|p| p.name == n.name) {
                    Some(i) => i,
                    None => {
                        let names: Vec<&str> =
                            callee.params.iter().map(|p| p.name.as_str()).collect();
                        self.unknown_in(
                            codes::RESOLVE_UNKNOWN_ARGUMENT,
                            what,
                            "parameter",
                            &n.name,
                            n.span,
                            names,
                        );
                        self.expr(&a.value);
                        continue;
                    }
                },
                None => {
                    let i = next;
                    next += 1;
                    i
                }
            };
            let Some(p) = callee.params.get(idx) else {
                self.expr(&a.value);
                self.error(Diagnostic::error(
                    codes::RESOLVE_WRONG_ARITY,
                    self.file,
                    a.value.span,
                    format!(
                        "{what} takes {} argument{}",
                        callee.params.len(),
                        if callee.params.len() == 1 { "" } else { "s" }
                    ),
                    "one too many",
                ));
                continue;
            };
            let (x, ty) = if p.types.contains(&Type::Pair) {
                self.pair_or_expr(&a.value)
            } else {
                self.expr(&a.value)
            };
            let types = p.types.clone();
            let pname = p.name.clone();
            self.expect(&ty, &types, a.value.span, &format!("argument `{pname}`"));
            out.insert(pname, x);
        }
        for p in &callee.params {
            if !out.contains_key(&p.name) && !p.optional && !p.has_default {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_WRONG_ARITY,
                        self.file,
                        span,
                        format!("{what} is missing argument `{}`", p.name),
                        "missing an argument",
                    )
                    .with_help(format!("pass `{}: …`", p.name)),
                );
            }
        }
        out
    }

    /// A slot: a declared slot name, or a text expression naming one (`event.slot`).
    fn slot(&mut self, e: &ast::Expr) -> Expr {
        if let ast::ExprKind::Name(n) = &e.kind {
            if self.lookup(&n.name).is_none() {
                if self.sym.zones.values().any(|z| z.slots.contains(&n.name)) {
                    return Expr::Text(n.name.clone());
                }
                let names: Vec<&str> = self
                    .sym
                    .zones
                    .values()
                    .flat_map(|z| z.slots.iter().map(String::as_str))
                    .collect();
                self.unknown(
                    codes::RESOLVE_UNKNOWN_OPTION,
                    "slot",
                    &n.name,
                    n.span,
                    names,
                );
                return Expr::Text(n.name.clone());
            }
        }
        self.typed(e, &[Type::Text], "a slot")
    }

    /// A move destination: a zone, or a bare zone name.
    fn destination(&mut self, e: &ast::Expr) -> Expr {
        self.zone(e)
    }

    fn stmt(&mut self, s: &ast::Stmt) -> Option<Stmt> {
        Some(match &s.kind {
            StmtKind::Let(name, value) => {
                let (x, ty) = self.expr(value);
                self.bind(&name.name, ty, name.span, true);
                Stmt::Let {
                    var: name.name.clone(),
                    value: x,
                }
            }
            StmtKind::If(arms, els) => {
                let arms = arms
                    .iter()
                    .map(|(c, b)| (self.cond(c), self.block(b)))
                    .collect();
                let otherwise = els.as_ref().map(|b| self.block(b)).unwrap_or_default();
                Stmt::If { arms, otherwise }
            }
            StmtKind::ForEach(var, iter, body) => {
                let cards = self.cards(iter);
                self.push();
                self.bind(&var.name, Ty::of(Type::Card), var.span, false);
                let body = self.stmts(&body.stmts);
                self.pop();
                Stmt::ForEach {
                    var: var.name.clone(),
                    cards,
                    body,
                }
            }
            StmtKind::Repeat(n, body) => Stmt::Repeat {
                times: self.number(n),
                body: self.block(body),
            },
            StmtKind::May(who, body) => {
                let players = who
                    .iter()
                    .map(|w| w.as_ref().map(|e| self.player(e)).unwrap_or(Expr::You))
                    .collect();
                Stmt::May {
                    players,
                    body: self.block(body),
                }
            }
            StmtKind::Move(what, to, opts) => {
                let cards = self.cards(what);
                let to_ir = self.destination(to);
                let state =
                    opts.state
                        .as_ref()
                        .and_then(|st| match self.sym.states.get(&st.name) {
                            Some(s) => Some(s.id.clone()),
                            None => {
                                self.unknown(
                                    codes::RESOLVE_UNKNOWN_STATE,
                                    "state",
                                    &st.name,
                                    st.span,
                                    self.sym.states.keys().map(String::as_str),
                                );
                                None
                            }
                        });
                let slot = opts.slot.as_ref().map(|e| self.slot(e));
                Stmt::Move {
                    cards,
                    to: to_ir,
                    position: opts.top.map(|t| {
                        if t {
                            ir::Position::Top
                        } else {
                            ir::Position::Bottom
                        }
                    }),
                    face: opts
                        .face_up
                        .map(|u| if u { ir::Face::Up } else { ir::Face::Down }),
                    state,
                    slot,
                }
            }
            StmtKind::Attach(card, host) => {
                let card = self.typed(card, &[Type::Card], "the card set");
                let host = self.typed(host, &[Type::Card], "the host");
                Stmt::Attach { card, host }
            }
            StmtKind::Clear(what, state) => {
                let cards = self.cards(what);
                match self.sym.states.get(&state.name) {
                    Some(st) if st.flag => Stmt::ClearState {
                        cards,
                        state: st.id.clone(),
                    },
                    Some(_) => {
                        self.error(
                            Diagnostic::error(
                                codes::RESOLVE_UNKNOWN_STATE,
                                self.file,
                                state.span,
                                format!(
                                    "`{}` belongs to a group of states and cannot be cleared",
                                    state.name
                                ),
                                "not a flag state",
                            )
                            .with_help("put the card in another state of its group with `becomes`"),
                        );
                        return None;
                    }
                    None => {
                        let flags: Vec<&str> = self
                            .sym
                            .states
                            .iter()
                            .filter(|(_, s)| s.flag)
                            .map(|(n, _)| n.as_str())
                            .collect();
                        self.unknown(
                            codes::RESOLVE_UNKNOWN_STATE,
                            "state",
                            &state.name,
                            state.span,
                            flags,
                        );
                        return None;
                    }
                }
            }
            StmtKind::Grant(k, target, dur) => {
                let cards = self.cards(target);
                let duration = self.duration(dur);
                let (keyword, args) = self.keyword(k)?;
                Stmt::Grant {
                    keyword,
                    args,
                    cards,
                    duration,
                }
            }
            StmtKind::Remove(k, target, dur) => {
                let cards = self.cards(target);
                let duration = self.duration(dur);
                let (keyword, _) = self.keyword(k)?;
                Stmt::RemoveKeyword {
                    keyword,
                    cards,
                    duration,
                }
            }
            StmtKind::Reveal(e) => Stmt::Reveal {
                cards: self.cards(e),
            },
            StmtKind::Look(e, by) => {
                let cards = self.cards(e);
                let by = by.as_ref().map(|b| self.player(b)).unwrap_or(Expr::You);
                Stmt::Look { cards, by }
            }
            StmtKind::Shuffle(e) => Stmt::Shuffle { zone: self.zone(e) },
            StmtKind::Negate(e, effect, all, dur) => {
                let cards = self.cards(e);
                let scope = if *effect == Some(true) {
                    ir::NegateScope::Effect
                } else {
                    ir::NegateScope::Text
                };
                let duration = self.duration(dur);
                Stmt::Negate {
                    cards,
                    scope,
                    include_unnegatable: *all,
                    duration,
                }
            }
            StmtKind::Flip(e, face) => {
                let cards = self.cards(e);
                Stmt::Flip {
                    cards,
                    face: face.map(|up| if up { ir::Face::Up } else { ir::Face::Down }),
                }
            }
            StmtKind::Simultaneously(b) => Stmt::Simultaneously {
                body: self.block(b),
            },
            StmtKind::Cancel(ev, of) => {
                let event = self.event_named(ev)?.id.clone();
                let subject = of.as_ref().map(|e| self.expr(e).0);
                Stmt::Cancel { event, subject }
            }
            StmtKind::Treat(e, ty, fields) => {
                let cards = self.cards(e);
                let Some(t) = self.sym.card_types.get(&ty.name).cloned() else {
                    self.unknown(
                        codes::RESOLVE_UNKNOWN_CARD_TYPE,
                        "card type",
                        &ty.name,
                        ty.span,
                        self.sym.card_types.keys().map(String::as_str),
                    );
                    return None;
                };
                let mut out = BTreeMap::new();
                for f in fields {
                    let Some(schema) = t.fields.iter().find(|sf| sf.name == f.name.name) else {
                        let names: Vec<&str> = t.fields.iter().map(|sf| sf.name.as_str()).collect();
                        self.unknown_in(
                            codes::CHECK_UNKNOWN_FIELD,
                            &format!("card type `{}`", ty.name),
                            "field",
                            &f.name.name,
                            f.name.span,
                            names,
                        );
                        continue;
                    };
                    let Some(ast::FieldValue::Expr(v)) = f.values.first() else {
                        continue;
                    };
                    let x = match &schema.ty {
                        ir::FieldType::Stat(id)
                            if self
                                .sym
                                .stats
                                .values()
                                .any(|s| &s.id == id && s.components > 0) =>
                        {
                            let (x, vt) = self.pair_or_expr(v);
                            self.expect(&vt, &[Type::Pair], v.span, "a composite stat");
                            x
                        }
                        ir::FieldType::Text => self.typed(v, &[Type::Text], "this field"),
                        ir::FieldType::Bool => self.cond(v),
                        _ => self.number(v),
                    };
                    out.insert(f.name.name.clone(), x);
                }
                Stmt::TreatAs {
                    cards,
                    card_type: t.id,
                    fields: out,
                }
            }
            StmtKind::Emit(ev, args) => {
                let event = self.event_named(ev)?;
                let args = self.args(event, &format!("event `{}`", ev.name), args, s.span);
                Stmt::Emit {
                    event: event.id.clone(),
                    args,
                }
            }
            StmtKind::ChooseOne(who, options) => {
                let chooser = who.as_ref().map(|w| self.player(w)).unwrap_or(Expr::You);
                let options = options
                    .iter()
                    .map(|(label, body)| (label.value.clone(), self.block(body)))
                    .collect();
                Stmt::ChooseOne { chooser, options }
            }
            StmtKind::Win(p) => Stmt::Win {
                player: self.player(p),
            },
            StmtKind::Lose(p) => Stmt::Lose {
                player: self.player(p),
            },
            StmtKind::DrawGame => Stmt::DrawGame,
            StmtKind::Becomes(subject, name, dur) => {
                let duration = self.duration(dur);
                if let Some(st) = self.sym.states.get(&name.name) {
                    let id = st.id.clone();
                    return Some(Stmt::SetState {
                        cards: self.cards(subject),
                        state: id,
                        duration,
                    });
                }
                if let Some(z) = self.sym.zones.get(&name.name) {
                    let id = z.id.clone();
                    return Some(Stmt::AliasZone {
                        zone: self.zone(subject),
                        becomes: id,
                        duration,
                    });
                }
                self.expr(subject);
                let names: Vec<&str> = self
                    .sym
                    .states
                    .keys()
                    .chain(self.sym.zones.keys())
                    .map(String::as_str)
                    .collect();
                self.unknown(
                    codes::RESOLVE_UNKNOWN_STATE,
                    "state or zone",
                    &name.name,
                    name.span,
                    names,
                );
                return None;
            }
            StmtKind::Phase(_, body) => {
                let word = Span::new(s.span.start, s.span.start + "phase".len());
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_MISPLACED_STATEMENT,
                        self.file,
                        word,
                        "`phase` is only allowed at the top level of `turn`",
                        "not directly inside `turn { … }`",
                    )
                    .with_help(
                        "phases divide the turn: write them directly inside `turn { … }`; \
                         to share steps, call a procedure",
                    ),
                );
                self.block(body);
                return None;
            }
            StmtKind::Window(w) => {
                let players = self.window_players(&w.players);
                let entries = w
                    .entries
                    .iter()
                    .filter_map(|e| self.window_entry(e))
                    .collect();
                Stmt::Window {
                    players,
                    chain: w.chain,
                    entries,
                }
            }
            StmtKind::Chain(b) => Stmt::Chain {
                body: self.block(b),
            },
            StmtKind::Resolve(kind, cards) => {
                let cards = self.cards(cards);
                let sym: &'a Symbols = self.sym;
                let Some(k) = sym.kinds.get(&kind.name) else {
                    self.unknown(
                        codes::RESOLVE_UNKNOWN_ABILITY_KIND,
                        "ability kind",
                        &kind.name,
                        kind.span,
                        self.sym.kinds.keys().map(String::as_str),
                    );
                    return None;
                };
                Stmt::Resolve {
                    kind: k.id.clone(),
                    cards,
                }
            }
            StmtKind::Check => Stmt::Check,
            StmtKind::Reach(m) => match self.sym.moments.get(&m.name) {
                Some(id) => Stmt::Reach { moment: id.clone() },
                None => {
                    self.unknown(
                        codes::RESOLVE_UNKNOWN_MOMENT,
                        "moment",
                        &m.name,
                        m.span,
                        self.sym.moments.keys().map(String::as_str),
                    );
                    return None;
                }
            },
            StmtKind::Modify(m) => return self.modify(m),
            StmtKind::Call(name, args, dur) => return self.call_stmt(name, args, dur, s.span),
        })
    }

    /// The body of `turn { … }`: its top-level `phase` statements define the game's phases
    /// (ids qualified by `pack`), in order.
    pub fn turn(&mut self, b: &ast::Block, pack: &str) -> (Vec<Stmt>, Vec<ir::Labelled>) {
        let mut phases: Vec<ir::Labelled> = Vec::new();
        let mut seen: Vec<(&str, Span)> = Vec::new();
        let mut out = Vec::new();
        self.push();
        for s in &b.stmts {
            let StmtKind::Phase(named, body) = &s.kind else {
                out.extend(self.stmt(s));
                continue;
            };
            let name = &named.name;
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name.name) {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_DUPLICATE_DECLARATION,
                        self.file,
                        name.span,
                        format!("phase `{}` is declared twice", name.name),
                        "declared again here",
                    )
                    .with_related(crate::base::diagnostic::Label::new(
                        self.file,
                        *first,
                        "first declared here",
                    ))
                    .with_help("each phase of the turn needs its own name"),
                );
                self.block(body);
                continue;
            }
            seen.push((&name.name, name.span));
            let phase = ir::Labelled {
                id: format!("{pack}:{}", name.name),
                label: named.label.as_ref().map(|l| l.value.clone()),
            };
            out.push(Stmt::Phase {
                phase: phase.id.clone(),
                body: self.block(body),
            });
            phases.push(phase);
        }
        self.pop();
        (out, phases)
    }

    /// Who a window lets act: a player, or a list of players in priority order.
    fn window_players(&mut self, e: &ast::Expr) -> Expr {
        let one = |ctx: &mut Self, e: &ast::Expr| {
            let (x, ty) = ctx.expr(e);
            if !ty.fits(&[Type::Player]) {
                ctx.error(
                    Diagnostic::error(
                        codes::RESOLVE_TYPE_MISMATCH,
                        ctx.file,
                        e.span,
                        format!(
                            "a window's players must be a player or a list of players, found {}",
                            ty.describe()
                        ),
                        format!("this is {}", ty.describe()),
                    )
                    .with_help(
                        "name a player or list them in priority order: `window you { … }`, \
                         `window [opponent, you] { … }`",
                    ),
                );
            }
            x
        };
        match &e.kind {
            ast::ExprKind::List(items) => Expr::List(items.iter().map(|i| one(self, i)).collect()),
            _ => one(self, e),
        }
    }

    /// One thing a window offers: an action, or the abilities of an activated kind.
    fn window_entry(&mut self, e: &ast::WindowEntry) -> Option<ir::WindowEntry> {
        let sym: &'a Symbols = self.sym;
        let name = &e.name;
        if let Some(id) = sym.actions.get(&name.name) {
            if let Some(w) = &e.with {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_INVALID_WINDOW_ENTRY,
                        self.file,
                        w.span,
                        format!(
                            "`with` selects abilities by attribute, but `{}` is an action",
                            name.name
                        ),
                        "not after an action",
                    )
                    .with_help(format!(
                        "remove `with {}`, or put the condition in the action's `if`",
                        w.name
                    )),
                );
                return None;
            }
            return Some(ir::WindowEntry::Action(id.clone()));
        }
        if let Some(k) = sym.kinds.get(&name.name) {
            if k.semantics != ir::Semantics::Activated {
                let mut activated: Vec<&str> = sym
                    .kinds
                    .iter()
                    .filter(|(_, k)| k.semantics == ir::Semantics::Activated)
                    .map(|(n, _)| n.as_str())
                    .collect();
                activated.sort_unstable();
                let help = if activated.is_empty() {
                    "windows offer actions and activated abilities; the ruleset declares no \
                     activated ability kind"
                        .to_string()
                } else {
                    format!(
                        "windows offer actions and activated abilities (here: {}); other kinds \
                         work on their own (triggered ones wait for a `check`)",
                        activated
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_INVALID_WINDOW_ENTRY,
                        self.file,
                        name.span,
                        format!(
                            "a window offers activated abilities, but `{}` is {}",
                            name.name,
                            semantics_name(k.semantics)
                        ),
                        "not an activated kind",
                    )
                    .with_help(help),
                );
                return None;
            }
            let kind = k.id.clone();
            let attribute = match &e.with {
                None => None,
                Some(a) => match sym.attributes.get(&a.name) {
                    Some(id) => Some(id.clone()),
                    None => {
                        self.unknown(
                            codes::RESOLVE_UNKNOWN_ATTRIBUTE,
                            "attribute",
                            &a.name,
                            a.span,
                            sym.attributes.keys().map(String::as_str),
                        );
                        return None;
                    }
                },
            };
            return Some(ir::WindowEntry::Abilities { kind, attribute });
        }
        let names = sym
            .actions
            .keys()
            .chain(sym.kinds.keys())
            .map(String::as_str);
        self.unknown(
            codes::RESOLVE_UNKNOWN_ACTION,
            "action or ability kind",
            &name.name,
            name.span,
            names,
        );
        None
    }

    fn modify(&mut self, m: &ast::Modify) -> Option<Stmt> {
        let (op, op_span) = (&m.op.0, m.op.1);
        if let Some(stat) = self.sym.stats.get(&m.member.name).cloned() {
            let cards = self.typed(&m.subject, &[Type::Cards], "the modified value");
            let layer = match &m.layer {
                Some(l) => match self.sym.layers.get(&l.name) {
                    Some((id, _)) => id.clone(),
                    None => {
                        self.unknown(
                            codes::RESOLVE_UNKNOWN_OPERATOR,
                            "layer",
                            &l.name,
                            l.span,
                            self.sym.layers.keys().map(String::as_str),
                        );
                        return None;
                    }
                },
                None => match self.sym.layer_ops.get(op) {
                    Some(id) => id.clone(),
                    None => {
                        let mut ops: Vec<&str> =
                            self.sym.layer_ops.keys().map(String::as_str).collect();
                        ops.sort_unstable();
                        let help = if ops.is_empty() {
                            "the ruleset declares no layer operators".to_string()
                        } else {
                            format!(
                                "the ruleset's operators are {}",
                                ops.iter()
                                    .map(|o| format!("`{o}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        };
                        self.error(
                            Diagnostic::error(
                                codes::RESOLVE_UNKNOWN_OPERATOR,
                                self.file,
                                op_span,
                                format!("no layer of the ruleset is selected by `{op}`"),
                                "unknown operator",
                            )
                            .with_help(help),
                        );
                        return None;
                    }
                },
            };
            let value = if stat.components > 0 {
                let (x, ty) = self.pair_or_expr(&m.value);
                if let (Expr::Pair(parts), true) = (&x, op == "=") {
                    if parts.iter().any(Option::is_none) && parts.len() == stat.components {
                        // `=` with a kept component sets only the other one: allowed.
                    }
                }
                if !matches!(ty, Ty::Unknown | Ty::Of(Type::Pair, _)) {
                    self.error(
                        Diagnostic::error(
                            codes::RESOLVE_TYPE_MISMATCH,
                            self.file,
                            m.value.span,
                            format!("`{}` is a composite stat: it takes a pair, found {}", m.member.name, ty.describe()),
                            "not a pair",
                        )
                        .with_help("write a pair such as `+1/+1`, or `+1/±0` to leave the second part alone"),
                    );
                }
                if let Expr::Pair(parts) = &x {
                    if parts.len() != stat.components {
                        self.error(Diagnostic::error(
                            codes::RESOLVE_TYPE_MISMATCH,
                            self.file,
                            m.value.span,
                            format!(
                                "`{}` has {} components, this pair has {}",
                                m.member.name,
                                stat.components,
                                parts.len()
                            ),
                            "wrong size",
                        ));
                    }
                }
                x
            } else {
                if let ast::ExprKind::Pair(..) = m.value.kind {
                    self.error(
                        Diagnostic::error(
                            codes::RESOLVE_PAIR_NOT_ALLOWED,
                            self.file,
                            m.value.span,
                            format!(
                                "`{}` is not a composite stat: a pair is not allowed here",
                                m.member.name
                            ),
                            "a pair",
                        )
                        .with_help("write a single number"),
                    );
                    return None;
                }
                self.number(&m.value)
            };
            let duration = self.duration(&m.duration);
            return Some(Stmt::Modify {
                cards,
                stat: stat.id,
                layer,
                op: op.clone(),
                value: Some(value),
                duration,
            });
        }
        if let Some(c) = self.sym.counters.get(&m.member.name).cloned() {
            let mut allowed = Vec::new();
            if c.on_players {
                allowed.push(Type::Player);
            }
            if c.on_cards {
                allowed.push(Type::Cards);
            }
            let subject = self.typed(&m.subject, &allowed, "the counted value");
            if !matches!(op.as_str(), "=" | "+=" | "-=") {
                self.error(Diagnostic::error(
                    codes::RESOLVE_UNKNOWN_OPERATOR,
                    self.file,
                    op_span,
                    format!("counters take `=`, `+=` or `-=`, not `{op}`"),
                    "not a counter operator",
                ));
            }
            let extra = m
                .duration
                .as_ref()
                .map(duration_span)
                .or(m.layer.as_ref().map(|l| l.span));
            if let Some(span) = extra {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_INVALID_CLAUSE,
                        self.file,
                        span,
                        format!(
                            "a counter change has no duration or layer: `{}` is a counter",
                            m.member.name
                        ),
                        "not for counters",
                    )
                    .with_help("counters are plain numbers: remove this"),
                );
            }
            let value = self.number(&m.value);
            return Some(Stmt::Count {
                subject,
                counter: c.id,
                op: op.clone(),
                value,
            });
        }
        let names: Vec<&str> = self
            .sym
            .stats
            .keys()
            .chain(self.sym.counters.keys())
            .map(String::as_str)
            .collect();
        self.expr(&m.subject);
        self.unknown(
            codes::RESOLVE_UNKNOWN_STAT,
            "stat or counter",
            &m.member.name,
            m.member.span,
            names,
        );
        None
    }

    fn call_stmt(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Arg],
        dur: &Option<ast::Duration>,
        span: Span,
    ) -> Option<Stmt> {
        if let Some(verb) = self.sym.verbs.get(&name.name).cloned() {
            let args = self.args(&verb, &format!("verb `{}`", name.name), args, span);
            let duration = dur.as_ref().map(|_| self.duration(dur));
            return Some(Stmt::Call {
                verb: verb.id,
                args,
                duration,
            });
        }
        if let Some((layer, true)) = self.sym.layers.get(&name.name).cloned() {
            // A layer applied by name: `invert this.strength [until …]`.
            let target = match args {
                [ast::Arg { name: None, value }] => value,
                _ => {
                    self.error(Diagnostic::error(
                        codes::RESOLVE_WRONG_ARITY,
                        self.file,
                        span,
                        format!(
                            "`{}` takes one stat, as in `{} this.strength`",
                            name.name, name.name
                        ),
                        "wrong arguments",
                    ));
                    return None;
                }
            };
            let ast::ExprKind::Member(base, stat_name) = &target.kind else {
                self.error(Diagnostic::error(
                    codes::RESOLVE_TYPE_MISMATCH,
                    self.file,
                    target.span,
                    format!(
                        "`{}` applies to a stat, as in `{} this.strength`",
                        name.name, name.name
                    ),
                    "not a stat",
                ));
                return None;
            };
            let Some(stat) = self.sym.stats.get(&stat_name.name).cloned() else {
                self.unknown(
                    codes::RESOLVE_UNKNOWN_STAT,
                    "stat",
                    &stat_name.name,
                    stat_name.span,
                    self.sym.stats.keys().map(String::as_str),
                );
                return None;
            };
            let cards = self.cards(base);
            let duration = self.duration(dur);
            return Some(Stmt::Modify {
                cards,
                stat: stat.id,
                layer,
                op: name.name.clone(),
                value: None,
                duration,
            });
        }
        if self.sym.procedures.contains_key(&name.name) {
            let p = self.sym.procedures[&name.name].clone();
            let args = self.args(&p, &format!("procedure `{}`", name.name), args, span);
            return Some(Stmt::Call {
                verb: p.id,
                args,
                duration: None,
            });
        }
        // Candidates: verbs, procedures, layers applied by name, and the fixed words that may end
        // the previous statement (a misspelt `effect` after `negate x` reads as a new statement).
        let names: Vec<&str> = self
            .sym
            .verbs
            .keys()
            .chain(self.sym.procedures.keys())
            .chain(
                self.sym
                    .layers
                    .iter()
                    .filter(|(_, (_, by_name))| *by_name)
                    .map(|(n, _)| n),
            )
            .map(String::as_str)
            .chain([
                "text",
                "effect",
                "all",
                "face_up",
                "face_down",
                "top",
                "bottom",
            ])
            .collect();
        let help = did_you_mean(&name.name, names).or_else(|| {
            if self.lookup(&name.name).is_some() {
                Some(format!(
                    "`{}` is a variable; a statement starts with a verb",
                    name.name
                ))
            } else {
                None
            }
        });
        for a in args {
            self.expr(&a.value);
        }
        self.error(
            Diagnostic::error(
                codes::RESOLVE_UNKNOWN_VERB,
                self.file,
                name.span,
                format!("unknown verb `{}`", name.name),
                "no verb of this name",
            )
            .with_help_opt(help),
        );
        None
    }
}

/// How an ability kind's semantics reads in a message.
fn semantics_name(s: ir::Semantics) -> &'static str {
    match s {
        ir::Semantics::Activated => "an activated ability kind",
        ir::Semantics::Triggered => "a triggered ability kind",
        ir::Semantics::Continuous => "a continuous ability kind",
        ir::Semantics::Replacement => "a replacement ability kind",
    }
}
