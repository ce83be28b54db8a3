//! Checking expressions: every name resolved, every operand typed.

use super::scope::{Ctx, Ty};
use crate::base::diagnostic::{codes, did_you_mean, Diagnostic};
use crate::compiler::ast::{self, BinOp, ExprKind, PairPart, Quantity, UnOp};
use crate::ir::{self, Expr, FieldType, Type};

/// Built-in functions and their arity.
pub const BUILTINS: &[(&str, usize)] = &[
    ("count", 1),
    ("owner", 1),
    ("controller", 1),
    ("opponent_of", 1),
    ("min", 2),
    ("max", 2),
    ("distinct", 2),
    ("attached", 1),
    ("host", 1),
    ("turn_number", 0),
    ("is_turn_player", 1),
    ("cancelled", 2),
];

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Ctx<'_> {
    /// Checks an expression that must have one of `expected` types.
    pub fn typed(&mut self, e: &ast::Expr, expected: &[Type], what: &str) -> Expr {
        let (x, ty) = self.expr(e);
        self.expect(&ty, expected, e.span, what);
        x
    }

    /// A condition.
    pub fn cond(&mut self, e: &ast::Expr) -> Expr {
        self.typed(e, &[Type::Bool], "a condition")
    }

    /// A number.
    pub fn number(&mut self, e: &ast::Expr) -> Expr {
        self.typed(e, &[Type::Number], "this value")
    }

    /// A player.
    pub fn player(&mut self, e: &ast::Expr) -> Expr {
        self.typed(e, &[Type::Player], "this value")
    }

    /// Cards (a card, a set, or a zone's cards).
    pub fn cards(&mut self, e: &ast::Expr) -> Expr {
        self.typed(e, &[Type::Cards], "this value")
    }

    /// A zone.
    pub fn zone(&mut self, e: &ast::Expr) -> Expr {
        self.typed(e, &[Type::Zone], "this value")
    }

    /// A value where a pair literal is also allowed (composite stats).
    pub fn pair_or_expr(&mut self, e: &ast::Expr) -> (Expr, Ty) {
        if let ExprKind::Pair(a, b) = &e.kind {
            return (pair(*a, *b), Ty::of(Type::Pair));
        }
        self.expr(e)
    }

    /// Checks any expression, returning its IR and type.
    pub fn expr(&mut self, e: &ast::Expr) -> (Expr, Ty) {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(n) => (Expr::Int(*n), Ty::of(Type::Number)),
            ExprKind::Str(s) => (Expr::Text(s.clone()), Ty::of(Type::Text)),
            ExprKind::Bool(b) => (Expr::Bool(*b), Ty::of(Type::Bool)),
            ExprKind::Pair(..) => {
                self.error(
                    Diagnostic::error(codes::RESOLVE_PAIR_NOT_ALLOWED, self.file, span, "a pair literal is only allowed where a composite stat is expected", "not a composite stat here")
                        .with_help("pairs like `+1/+1` modify or define composite stats (`x.strength += 1/1`); for division, write `(a) / (b)`"),
                );
                (Expr::Int(0), Ty::Unknown)
            }
            ExprKind::This => {
                if !self.has_this {
                    self.error(
                        Diagnostic::error(
                            codes::RESOLVE_UNKNOWN_NAME,
                            self.file,
                            span,
                            "`this` has no card here",
                            "no card owns this code",
                        )
                        .with_help("pass the card as a parameter"),
                    );
                    return (Expr::This, Ty::Unknown);
                }
                (Expr::This, Ty::of(Type::Card))
            }
            ExprKind::It => {
                if self.filter_depth == 0 {
                    self.error(
                        Diagnostic::error(
                            codes::RESOLVE_UNKNOWN_NAME,
                            self.file,
                            span,
                            "`it` is only meaningful inside a `where` filter",
                            "not in a filter",
                        )
                        .with_help("`it` is the candidate card in `… where it …`"),
                    );
                    return (Expr::It, Ty::Unknown);
                }
                (Expr::It, Ty::of(Type::Card))
            }
            ExprKind::You => (Expr::You, Ty::of(Type::Player)),
            ExprKind::Opponent => (Expr::Opponent, Ty::of(Type::Player)),
            ExprKind::Each => (Expr::EachPlayer, Ty::of(Type::Player)),
            ExprKind::Name(id) => self.name(id),
            ExprKind::Member(base, name) => self.member(base, name),
            ExprKind::Call(name, args) => self.call(name, args, span),
            ExprKind::List(items) => {
                let xs = items.iter().map(|i| self.cards(i)).collect();
                (Expr::List(xs), Ty::of(Type::Cards))
            }
            ExprKind::Unary(UnOp::Not, x) => (Expr::Not(bx(self.cond(x))), Ty::of(Type::Bool)),
            ExprKind::Unary(UnOp::Neg, x) => (Expr::Neg(bx(self.number(x))), Ty::of(Type::Number)),
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r),
            ExprKind::Choice {
                kind,
                who,
                quantity,
                from,
            } => {
                let chooser = match who {
                    Some(w) => self.player(w),
                    None => Expr::You,
                };
                let (min, max, one) = match quantity {
                    Quantity::Exactly(n) => {
                        let n = self.number(n);
                        let one = n == Expr::Int(1);
                        (n.clone(), Some(bx(n)), one)
                    }
                    Quantity::UpTo(n) => (Expr::Int(0), Some(bx(self.number(n))), false),
                    Quantity::Any => (Expr::Int(0), None, false),
                };
                let from = self.cards(from);
                let ty = if one { Type::Card } else { Type::Cards };
                (
                    Expr::Choose {
                        kind: choice_kind(*kind),
                        chooser: bx(chooser),
                        min: bx(min),
                        max,
                        from: bx(from),
                    },
                    Ty::of(ty),
                )
            }
            ExprKind::Declare(what) => {
                let ok = what.name == "name"
                    || matches!(self.sym.field_names.get(&what.name), Some(FieldType::Text));
                if !ok {
                    let names: Vec<&str> = std::iter::once("name")
                        .chain(
                            self.sym
                                .field_names
                                .iter()
                                .filter(|(_, t)| **t == FieldType::Text)
                                .map(|(n, _)| n.as_str()),
                        )
                        .collect();
                    self.unknown(
                        codes::RESOLVE_UNKNOWN_MEMBER,
                        "text field",
                        &what.name,
                        what.span,
                        names,
                    );
                }
                (Expr::Declare(what.name.clone()), Ty::of(Type::Text))
            }
            ExprKind::TopOf(top, n, z) => {
                let count = self.number(n);
                let zone = self.zone(z);
                (
                    Expr::TopOf {
                        top: *top,
                        count: bx(count),
                        zone: bx(zone),
                    },
                    Ty::of(Type::Cards),
                )
            }
            ExprKind::Typed(ty, z) => {
                let cards = self.cards(z);
                if ty.name == "card" || ty.name == "cards" {
                    return (cards, Ty::of(Type::Cards));
                }
                match self.sym.card_types.get(&ty.name) {
                    Some(t) => {
                        let cond = Expr::OfType {
                            card: bx(Expr::It),
                            card_type: t.id.clone(),
                        };
                        (
                            Expr::Filter {
                                cards: bx(cards),
                                condition: bx(cond),
                            },
                            Ty::of(Type::Cards),
                        )
                    }
                    None => {
                        let names = self
                            .sym
                            .card_types
                            .keys()
                            .map(String::as_str)
                            .chain(["card"]);
                        self.unknown(
                            codes::RESOLVE_UNKNOWN_CARD_TYPE,
                            "card type",
                            &ty.name,
                            ty.span,
                            names,
                        );
                        (cards, Ty::Unknown)
                    }
                }
            }
        }
    }

    fn name(&mut self, id: &ast::Ident) -> (Expr, Ty) {
        if let Some(ty) = self.lookup(&id.name) {
            return (Expr::Var(id.name.clone()), ty);
        }
        if id.name == "event" {
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_TYPE_MISMATCH,
                    self.file,
                    id.span,
                    "`event` is read through its parameters",
                    "not a value",
                )
                .with_help("write `event.<parameter>`"),
            );
            return (Expr::Int(0), Ty::Unknown);
        }
        if self.filter_depth > 0 {
            if let Some(r) = self.card_member(Expr::It, &id.name) {
                return r;
            }
        }
        if let Some(z) = self.sym.zones.get(&id.name) {
            return (
                Expr::Zone {
                    zone: z.id.clone(),
                    owner: None,
                },
                Ty::of(Type::Zone),
            );
        }
        let mut names = self.local_names();
        names.extend(self.sym.zones.keys().cloned());
        if self.filter_depth > 0 {
            names.extend(self.sym.stats.keys().cloned());
            names.extend(self.sym.field_names.keys().cloned());
            names.extend(["name".to_string(), "number".to_string()]);
        }
        if self.event.is_some() {
            names.push("event".to_string());
        }
        let help = did_you_mean(&id.name, names.iter().map(String::as_str))
            .or_else(|| self.kind_hint(&id.name));
        self.error(
            Diagnostic::error(
                codes::RESOLVE_UNKNOWN_NAME,
                self.file,
                id.span,
                format!("unknown name `{}`", id.name),
                "not a variable or zone in scope",
            )
            .with_help_opt(help),
        );
        (Expr::Int(0), Ty::Unknown)
    }

    /// A hint when a name of another namespace is used as a value.
    fn kind_hint(&self, name: &str) -> Option<String> {
        if self.sym.states.contains_key(name) {
            Some(format!("`{name}` is a state: test it with `x is {name}`"))
        } else if self.sym.keywords.contains_key(name) {
            Some(format!(
                "`{name}` is a keyword: test it with `x has {name}`"
            ))
        } else if self.sym.card_types.contains_key(name) {
            Some(format!(
                "`{name}` is a card type: select with `{name} on <zone>` or test `x is {name}`"
            ))
        } else if self.sym.stats.contains_key(name) || self.sym.field_names.contains_key(name) {
            Some(format!("read it from a card: `this.{name}`"))
        } else if self.sym.verbs.contains_key(name) {
            Some(format!(
                "`{name}` is a verb: it is a statement, not a value"
            ))
        } else {
            None
        }
    }

    /// `card.member` for a stat, counter or field; `None` if no such member.
    fn card_member(&mut self, of: Expr, name: &str) -> Option<(Expr, Ty)> {
        if let Some(s) = self.sym.stats.get(name) {
            let ty = if s.components > 0 {
                Type::Pair
            } else {
                Type::Number
            };
            return Some((
                Expr::Stat {
                    of: bx(of),
                    stat: s.id.clone(),
                },
                Ty::of(ty),
            ));
        }
        if let Some(r) = self.sym.relations.get(name) {
            return Some((
                Expr::Related {
                    of: bx(of),
                    relation: r.clone(),
                },
                Ty::Of(Type::Card, true),
            ));
        }
        if let Some(k) = self.sym.keywords.get(name).filter(|k| !k.params.is_empty()) {
            // `a.ward`: the first value of a keyword with values (absent without it)
            return Some((
                Expr::KeywordValue {
                    card: bx(of),
                    keyword: k.id.clone(),
                },
                Ty::Of(Type::Number, true),
            ));
        }
        if let Some(c) = self.sym.counters.get(name) {
            if c.on_cards {
                return Some((
                    Expr::Counter {
                        of: bx(of),
                        counter: c.id.clone(),
                    },
                    Ty::of(Type::Number),
                ));
            }
        }
        let field_ty = match name {
            "name" | "number" => Some(Ty::of(Type::Text)),
            _ => self
                .sym
                .card_types
                .values()
                .flat_map(|t| t.fields.iter())
                .find(|f| f.name == name)
                .map(|f| match (&f.ty, f.list) {
                    (FieldType::Text, true) => Ty::TextList,
                    (FieldType::Text, false) => Ty::of(Type::Text),
                    (FieldType::Bool, _) => Ty::of(Type::Bool),
                    _ => Ty::of(Type::Number),
                }),
        }?;
        Some((
            Expr::Field {
                of: bx(of),
                field: name.to_string(),
            },
            field_ty,
        ))
    }

    fn member(&mut self, base: &ast::Expr, name: &ast::Ident) -> (Expr, Ty) {
        let reads_event = matches!(&base.kind, ExprKind::Name(n) if n.name == "event")
            && !self.scopes.iter().flatten().any(|l| l.name == "event");
        if reads_event {
            let Some(event) = self.event else {
                self.error(
                    Diagnostic::error(codes::RESOLVE_UNKNOWN_NAME, self.file, base.span, "no event here: `event` is only available in triggered and replacement abilities", "no triggering event")
                        .with_help("add a `when …` trigger, or pass the value as a parameter"),
                );
                return (Expr::Int(0), Ty::Unknown);
            };
            return match event.params.iter().find(|p| p.name == name.name) {
                Some(p) => {
                    let ty = if p.types.len() == 1 {
                        Ty::Of(p.types[0], p.optional)
                    } else {
                        Ty::Unknown
                    };
                    (Expr::EventParam(name.name.clone()), ty)
                }
                None => {
                    let names: Vec<&str> = event.params.iter().map(|p| p.name.as_str()).collect();
                    let ev = short(&event.id).to_string();
                    self.unknown_in(
                        codes::RESOLVE_UNKNOWN_MEMBER,
                        &format!("event `{ev}`"),
                        "parameter",
                        &name.name,
                        name.span,
                        names,
                    );
                    (Expr::Int(0), Ty::Unknown)
                }
            };
        }
        let (b, ty) = self.expr(base);
        match ty {
            Ty::Unknown => {
                if let Some(z) = self.sym.zones.get(&name.name) {
                    return (
                        Expr::Zone {
                            zone: z.id.clone(),
                            owner: Some(bx(b)),
                        },
                        Ty::of(Type::Zone),
                    );
                }
                self.card_member(b, &name.name)
                    .unwrap_or((Expr::Int(0), Ty::Unknown))
            }
            Ty::Of(Type::Player, _) => {
                if let Some(z) = self.sym.zones.get(&name.name) {
                    return (
                        Expr::Zone {
                            zone: z.id.clone(),
                            owner: Some(bx(b)),
                        },
                        Ty::of(Type::Zone),
                    );
                }
                if let Some(c) = self.sym.counters.get(&name.name).filter(|c| c.on_players) {
                    return (
                        Expr::Counter {
                            of: bx(b),
                            counter: c.id.clone(),
                        },
                        Ty::of(Type::Number),
                    );
                }
                let names: Vec<&str> = self
                    .sym
                    .zones
                    .keys()
                    .map(String::as_str)
                    .chain(
                        self.sym
                            .counters
                            .iter()
                            .filter(|(_, c)| c.on_players)
                            .map(|(n, _)| n.as_str()),
                    )
                    .collect();
                let code = if self.sym.stats.contains_key(&name.name) {
                    codes::RESOLVE_UNKNOWN_MEMBER
                } else {
                    codes::RESOLVE_UNKNOWN_ZONE
                };
                let what = if code == codes::RESOLVE_UNKNOWN_ZONE {
                    "zone"
                } else {
                    "player member"
                };
                self.unknown(code, what, &name.name, name.span, names);
                (Expr::Int(0), Ty::Unknown)
            }
            Ty::Of(Type::Card, _) => match self.card_member(b, &name.name) {
                Some(r) => r,
                None => {
                    let names: Vec<&str> = self
                        .sym
                        .stats
                        .keys()
                        .map(String::as_str)
                        .chain(
                            self.sym
                                .counters
                                .iter()
                                .filter(|(_, c)| c.on_cards)
                                .map(|(n, _)| n.as_str()),
                        )
                        .chain(self.sym.field_names.keys().map(String::as_str))
                        .chain(self.sym.relations.keys().map(String::as_str))
                        .chain(["name", "number"])
                        .collect();
                    self.unknown(
                        codes::RESOLVE_UNKNOWN_MEMBER,
                        "card member",
                        &name.name,
                        name.span,
                        names,
                    );
                    (Expr::Int(0), Ty::Unknown)
                }
            },
            Ty::Of(Type::Cards, _) => {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_TYPE_MISMATCH,
                        self.file,
                        name.span,
                        format!(
                            "`{}` is read from one card, but this is a set of cards",
                            name.name
                        ),
                        "needs one card",
                    )
                    .with_help("choose one first (`target 1 …`), or use `for each`"),
                );
                (Expr::Int(0), Ty::Unknown)
            }
            other => {
                self.error(Diagnostic::error(
                    codes::RESOLVE_UNKNOWN_MEMBER,
                    self.file,
                    name.span,
                    format!("a {} has no member `{}`", other.describe(), name.name),
                    "no such member",
                ));
                (Expr::Int(0), Ty::Unknown)
            }
        }
    }

    fn call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Arg],
        span: crate::base::source::Span,
    ) -> (Expr, Ty) {
        let Some((_, arity)) = BUILTINS.iter().find(|(n, _)| *n == name.name) else {
            let help = did_you_mean(&name.name, BUILTINS.iter().map(|(n, _)| *n))
                .or_else(|| self.kind_hint(&name.name));
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_UNKNOWN_FUNCTION,
                    self.file,
                    name.span,
                    format!("unknown function `{}`", name.name),
                    "not a built-in function",
                )
                .with_help_opt(help),
            );
            return (Expr::Int(0), Ty::Unknown);
        };
        if args.len() != *arity || args.iter().any(|a| a.name.is_some()) {
            self.error(Diagnostic::error(
                codes::RESOLVE_WRONG_ARITY,
                self.file,
                span,
                format!(
                    "`{}` takes {arity} positional argument{}, found {}",
                    name.name,
                    if *arity == 1 { "" } else { "s" },
                    args.len()
                ),
                "wrong number of arguments",
            ));
            return (Expr::Int(0), Ty::Unknown);
        }
        let Some(a) = args.first().map(|x| &x.value) else {
            // The built-ins without arguments.
            return (Expr::TurnNumber, Ty::of(Type::Number));
        };
        match name.name.as_str() {
            "cancelled" => {
                let event = match &a.kind {
                    ExprKind::Name(n) if self.sym.events.contains_key(&n.name) => {
                        self.sym.events[&n.name].id.clone()
                    }
                    ExprKind::Name(n) => {
                        let names: Vec<&str> = self.sym.events.keys().map(String::as_str).collect();
                        self.unknown(codes::RESOLVE_UNKNOWN_NAME, "event", &n.name, n.span, names);
                        String::new()
                    }
                    _ => {
                        self.error(
                            Diagnostic::error(
                                codes::RESOLVE_TYPE_MISMATCH,
                                self.file,
                                a.span,
                                "`cancelled` takes an event name first",
                                "not an event name",
                            )
                            .with_help("as in `cancelled(raids, a)`"),
                        );
                        String::new()
                    }
                };
                let subject = self.expr(&args[1].value).0;
                (
                    Expr::Cancelled {
                        event,
                        subject: bx(subject),
                    },
                    Ty::of(Type::Bool),
                )
            }
            "is_turn_player" => (Expr::IsTurnPlayer(bx(self.player(a))), Ty::of(Type::Bool)),
            "count" => (Expr::Count(bx(self.cards(a))), Ty::of(Type::Number)),
            "owner" => (
                Expr::Owner(bx(self.typed(a, &[Type::Card], "the argument"))),
                Ty::of(Type::Player),
            ),
            "controller" => (
                Expr::Controller(bx(self.typed(a, &[Type::Card], "the argument"))),
                Ty::of(Type::Player),
            ),
            "opponent_of" => (Expr::OpponentOf(bx(self.player(a))), Ty::of(Type::Player)),
            "attached" => (
                Expr::Attached(bx(self.typed(a, &[Type::Card], "the argument"))),
                Ty::of(Type::Cards),
            ),
            "host" => (
                Expr::Host(bx(self.typed(a, &[Type::Card], "the argument"))),
                Ty::Of(Type::Card, true),
            ),
            "distinct" => {
                let cards = self.cards(a);
                let f = &args[1].value;
                let field = match &f.kind {
                    ExprKind::Name(n)
                        if n.name == "name"
                            || n.name == "number"
                            || self.sym.field_names.contains_key(&n.name) =>
                    {
                        n.name.clone()
                    }
                    ExprKind::Name(n) => {
                        let names: Vec<&str> = self
                            .sym
                            .field_names
                            .keys()
                            .map(String::as_str)
                            .chain(["name", "number"])
                            .collect();
                        self.unknown(
                            codes::RESOLVE_UNKNOWN_MEMBER,
                            "card field",
                            &n.name,
                            n.span,
                            names,
                        );
                        n.name.clone()
                    }
                    _ => {
                        self.error(
                            Diagnostic::error(
                                codes::RESOLVE_TYPE_MISMATCH,
                                self.file,
                                f.span,
                                "`distinct` counts the values of a field: name the field",
                                "not a field name",
                            )
                            .with_help("as in `distinct(unit on your.arena, clan)`"),
                        );
                        String::new()
                    }
                };
                (
                    Expr::Distinct {
                        cards: bx(cards),
                        field,
                    },
                    Ty::of(Type::Number),
                )
            }
            _ => {
                let x = self.number(a);
                let y = self.number(&args[1].value);
                let e = if name.name == "min" {
                    Expr::Min(bx(x), bx(y))
                } else {
                    Expr::Max(bx(x), bx(y))
                };
                (e, Ty::of(Type::Number))
            }
        }
    }

    fn binary(&mut self, op: BinOp, l: &ast::Expr, r: &ast::Expr) -> (Expr, Ty) {
        let bool_ty = Ty::of(Type::Bool);
        let arith = |op| Some(op);
        let ir_op = match op {
            BinOp::Or => arith(ir::Op::Or),
            BinOp::And => arith(ir::Op::And),
            BinOp::Eq => arith(ir::Op::Eq),
            BinOp::Ne => arith(ir::Op::Ne),
            BinOp::Lt => arith(ir::Op::Lt),
            BinOp::Le => arith(ir::Op::Le),
            BinOp::Gt => arith(ir::Op::Gt),
            BinOp::Ge => arith(ir::Op::Ge),
            BinOp::Add => arith(ir::Op::Add),
            BinOp::Sub => arith(ir::Op::Sub),
            BinOp::Mul => arith(ir::Op::Mul),
            BinOp::Div => arith(ir::Op::Div),
            _ => None,
        };
        match op {
            BinOp::Or | BinOp::And => {
                let (a, b) = (self.cond(l), self.cond(r));
                (binop(ir_op, a, b), bool_ty)
            }
            BinOp::Eq | BinOp::Ne => {
                let (a, ta) = self.expr(l);
                let (b, tb) = self.expr(r);
                if let (Ty::Of(x, _), Ty::Of(y, _)) = (&ta, &tb) {
                    let comparable = x == y
                        || matches!((x, y), (Type::Card | Type::Cards, Type::Card | Type::Cards));
                    if !comparable {
                        self.error(Diagnostic::error(
                            codes::RESOLVE_TYPE_MISMATCH,
                            self.file,
                            l.span.to(r.span),
                            format!("cannot compare {} with {}", ta.describe(), tb.describe()),
                            "different types",
                        ));
                    }
                }
                for (side, other) in [(&a, &b), (&b, &a)] {
                    if let (Expr::Field { field, .. }, Expr::Text(t)) = (side, other) {
                        if field == "name" {
                            let span = if matches!(other, Expr::Text(_)) && std::ptr::eq(other, &b)
                            {
                                r.span
                            } else {
                                l.span
                            };
                            self.exact_names.push((t.clone(), span));
                        }
                    }
                }
                (binop(ir_op, a, b), bool_ty)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (a, b) = (self.number(l), self.number(r));
                (binop(ir_op, a, b), bool_ty)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                let (a, b) = (self.number(l), self.number(r));
                (binop(ir_op, a, b), Ty::of(Type::Number))
            }
            BinOp::Contains => {
                let a = self.typed(l, &[Type::Text], "the searched value");
                let b = self.typed(r, &[Type::Text], "the searched-for text");
                (
                    Expr::Contains {
                        haystack: bx(a),
                        needle: bx(b),
                    },
                    bool_ty,
                )
            }
            BinOp::Coalesce => {
                let (a, ta) = self.expr(l);
                let (b, tb) = self.expr(r);
                let ty = match (&ta, &tb) {
                    (Ty::Of(x, _), Ty::Of(y, _)) if x == y => Ty::of(*x),
                    (Ty::Of(x, _), Ty::Of(y, _))
                        if super::scope::coerces(*x, *y) || super::scope::coerces(*y, *x) =>
                    {
                        Ty::Unknown
                    }
                    (Ty::Of(..), Ty::Of(..)) => {
                        self.error(Diagnostic::error(
                            codes::RESOLVE_TYPE_MISMATCH,
                            self.file,
                            r.span,
                            format!(
                                "the fallback is {}, but the value is {}",
                                tb.describe(),
                                ta.describe()
                            ),
                            "different type",
                        ));
                        Ty::Unknown
                    }
                    _ => Ty::Unknown,
                };
                (Expr::Coalesce(bx(a), bx(b)), ty)
            }
            BinOp::Where => {
                let cards = self.cards(l);
                self.filter_depth += 1;
                let cond = self.cond(r);
                self.filter_depth -= 1;
                (
                    Expr::Filter {
                        cards: bx(cards),
                        condition: bx(cond),
                    },
                    Ty::of(Type::Cards),
                )
            }
            BinOp::Has => {
                let card = self.typed(l, &[Type::Card], "the tested value");
                let ExprKind::Name(k) = &r.kind else {
                    self.error(Diagnostic::error(
                        codes::RESOLVE_UNKNOWN_KEYWORD,
                        self.file,
                        r.span,
                        "`has` tests a keyword, ability kind or attribute name",
                        "not a name",
                    ));
                    return (Expr::Bool(false), bool_ty);
                };
                if let Some(kind) = self.sym.kinds.get(&k.name) {
                    return (
                        Expr::HasAbility {
                            card: bx(card),
                            kind: kind.id.clone(),
                        },
                        bool_ty,
                    );
                }
                if let Some(kw) = self.sym.keywords.get(&k.name) {
                    return (
                        Expr::HasKeyword {
                            card: bx(card),
                            keyword: kw.id.clone(),
                        },
                        bool_ty,
                    );
                }
                match self.sym.attributes.get(&k.name) {
                    Some(attribute) => (
                        Expr::HasAttribute {
                            card: bx(card),
                            attribute: attribute.clone(),
                        },
                        bool_ty,
                    ),
                    None => {
                        let names: Vec<&str> = self
                            .sym
                            .keywords
                            .keys()
                            .chain(self.sym.kinds.keys())
                            .chain(self.sym.attributes.keys())
                            .map(String::as_str)
                            .collect();
                        self.unknown(
                            codes::RESOLVE_UNKNOWN_KEYWORD,
                            "keyword, ability kind or attribute",
                            &k.name,
                            k.span,
                            names,
                        );
                        (Expr::Bool(false), bool_ty)
                    }
                }
            }
            BinOp::Is => {
                let ExprKind::Name(k) = &r.kind else {
                    self.error(
                        Diagnostic::error(
                            codes::RESOLVE_UNKNOWN_STATE,
                            self.file,
                            r.span,
                            "`is` tests a state, a card type, `player` or `card`",
                            "not a name",
                        )
                        .with_help("to compare values, use `==`"),
                    );
                    return (Expr::Bool(false), bool_ty);
                };
                let (value, ty) = self.expr(l);
                if k.name == "player" || k.name == "card" {
                    let kind = if k.name == "player" {
                        Type::Player
                    } else {
                        Type::Card
                    };
                    return (
                        Expr::IsKind {
                            value: bx(value),
                            kind,
                        },
                        bool_ty,
                    );
                }
                self.expect(&ty, &[Type::Card], l.span, "the tested value");
                if let Some(s) = self.sym.states.get(&k.name) {
                    return (
                        Expr::InState {
                            card: bx(value),
                            state: s.id.clone(),
                        },
                        bool_ty,
                    );
                }
                if let Some(t) = self.sym.card_types.get(&k.name) {
                    return (
                        Expr::OfType {
                            card: bx(value),
                            card_type: t.id.clone(),
                        },
                        bool_ty,
                    );
                }
                if k.name == "face_up" || k.name == "face_down" {
                    let face = if k.name == "face_up" {
                        ir::Face::Up
                    } else {
                        ir::Face::Down
                    };
                    return (
                        Expr::FaceIs {
                            card: bx(value),
                            face,
                        },
                        bool_ty,
                    );
                }
                let names: Vec<&str> = self
                    .sym
                    .states
                    .keys()
                    .chain(self.sym.card_types.keys())
                    .map(String::as_str)
                    .chain(["player", "card", "face_up", "face_down"])
                    .collect();
                self.unknown(
                    codes::RESOLVE_UNKNOWN_STATE,
                    "state or card type",
                    &k.name,
                    k.span,
                    names,
                );
                (Expr::Bool(false), bool_ty)
            }
        }
    }
}

/// An id without its pack qualifier, for messages.
pub fn short(id: &str) -> &str {
    id.rsplit(':').next().unwrap_or(id)
}

fn binop(op: Option<ir::Op>, lhs: Expr, rhs: Expr) -> Expr {
    Expr::Binary {
        op: op.unwrap_or(ir::Op::Eq),
        lhs: bx(lhs),
        rhs: bx(rhs),
    }
}

/// A pair literal's IR: `null` for "no modifier" components.
pub fn pair(a: PairPart, b: PairPart) -> Expr {
    let part = |p: PairPart| match p {
        PairPart::Value(v, _) => Some(v),
        PairPart::Keep => None,
    };
    Expr::Pair(vec![part(a), part(b)])
}

/// The IR's kind of a choice the source wrote.
fn choice_kind(kind: ast::ChoiceKind) -> ir::ChoiceKind {
    match kind {
        ast::ChoiceKind::Choose => ir::ChoiceKind::Choose,
        ast::ChoiceKind::Target => ir::ChoiceKind::Target,
        ast::ChoiceKind::Search => ir::ChoiceKind::Search,
    }
}
