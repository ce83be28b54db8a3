//! Binary operators: logic, comparison, arithmetic, `contains`, `??`, `where`, and the
//! `has`/`is` tests of a card.

use super::bx;
use crate::base::diagnostic::{codes, Code, Diagnostic};
use crate::compiler::ast::{self, BinOp, ExprKind};
use crate::compiler::resolve::scope::{coerces, names_in, Ctx, Ty};
use crate::compiler::resolve::symbols::Symbols;
use crate::ir::{self, Expr, Type};

/// What a `has`/`is` test gives when it cannot be checked (the error is reported).
fn failed_test() -> (Expr, Ty) {
    (Expr::Bool(false), Ty::of(Type::Bool))
}

/// A test's IR with its type, bool.
fn test(e: Expr) -> (Expr, Ty) {
    (e, Ty::of(Type::Bool))
}

/// The IR operator of a logic, comparison or arithmetic operator; `None` for the others.
fn ir_op(op: BinOp) -> Option<ir::Op> {
    match op {
        BinOp::Or => Some(ir::Op::Or),
        BinOp::And => Some(ir::Op::And),
        BinOp::Eq => Some(ir::Op::Eq),
        BinOp::Ne => Some(ir::Op::Ne),
        BinOp::Lt => Some(ir::Op::Lt),
        BinOp::Le => Some(ir::Op::Le),
        BinOp::Gt => Some(ir::Op::Gt),
        BinOp::Ge => Some(ir::Op::Ge),
        BinOp::Add => Some(ir::Op::Add),
        BinOp::Sub => Some(ir::Op::Sub),
        BinOp::Mul => Some(ir::Op::Mul),
        BinOp::Div => Some(ir::Op::Div),
        _ => None,
    }
}

/// A binary operation of the IR.
fn binop(op: Option<ir::Op>, lhs: Expr, rhs: Expr) -> Expr {
    Expr::Binary {
        op: op.unwrap_or(ir::Op::Eq),
        lhs: bx(lhs),
        rhs: bx(rhs),
    }
}

impl Ctx<'_> {
    /// `l op r`: a dispatch on the operator's family.
    pub(super) fn resolve_binary(&mut self, op: BinOp, l: &ast::Expr, r: &ast::Expr) -> (Expr, Ty) {
        match op {
            BinOp::Or | BinOp::And => {
                let (a, b) = (self.cond(l), self.cond(r));
                test(binop(ir_op(op), a, b))
            }
            BinOp::Eq | BinOp::Ne => self.resolve_equality(op, l, r),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (a, b) = (self.number(l), self.number(r));
                test(binop(ir_op(op), a, b))
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                let (a, b) = (self.number(l), self.number(r));
                (binop(ir_op(op), a, b), Ty::of(Type::Number))
            }
            BinOp::Contains => {
                let a = self.typed(l, &[Type::Text], "the searched value");
                let b = self.typed(r, &[Type::Text], "the searched-for text");
                test(Expr::Contains {
                    haystack: bx(a),
                    needle: bx(b),
                })
            }
            BinOp::Coalesce => self.resolve_coalesce(l, r),
            BinOp::Where => self.resolve_where(l, r),
            BinOp::At => self.resolve_at(l, r),
            BinOp::Has => self.resolve_has(l, r),
            BinOp::Is => self.resolve_is(l, r),
        }
    }

    /// `l == r`, `l != r`: values of comparable types; a card's name compared with a text is
    /// noted as an exact name, checked once all packs are loaded.
    fn resolve_equality(&mut self, op: BinOp, l: &ast::Expr, r: &ast::Expr) -> (Expr, Ty) {
        let (a, ta) = self.expr(l);
        let (b, tb) = self.expr(r);
        for (t, side) in [(&ta, l), (&tb, r)] {
            if *t == Ty::Players {
                self.player_set_misplaced(side.span, "a compared value");
            }
        }
        if let (Ty::Of(x, _), Ty::Of(y, _)) = (&ta, &tb) {
            let comparable =
                x == y || matches!((x, y), (Type::Card | Type::Cards, Type::Card | Type::Cards));
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
        for (side, other, text_span) in [(&a, &b, r.span), (&b, &a, l.span)] {
            if let (Expr::Field { field, .. }, Expr::Text(t)) = (side, other) {
                if field == "name" {
                    self.exact_names.push((t.clone(), text_span));
                }
            }
        }
        test(binop(ir_op(op), a, b))
    }

    /// `value ?? fallback`: the fallback must have the value's type (or coerce to or from it).
    fn resolve_coalesce(&mut self, l: &ast::Expr, r: &ast::Expr) -> (Expr, Ty) {
        let (a, ta) = self.expr(l);
        let (b, tb) = self.expr(r);
        for (t, side) in [(&ta, l), (&tb, r)] {
            if *t == Ty::Players {
                self.player_set_misplaced(side.span, "a value with a fallback");
            }
        }
        let ty = match (&ta, &tb) {
            (Ty::Of(x, _), Ty::Of(y, _)) if x == y => Ty::of(*x),
            (Ty::Of(x, _), Ty::Of(y, _)) if coerces(*x, *y) || coerces(*y, *x) => Ty::Unknown,
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

    /// `cards where condition`: the condition sees each candidate as `it`.
    fn resolve_where(&mut self, l: &ast::Expr, r: &ast::Expr) -> (Expr, Ty) {
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

    /// `card has name`: an ability kind, a keyword or an attribute (in this order).
    fn resolve_has(&mut self, l: &ast::Expr, r: &ast::Expr) -> (Expr, Ty) {
        if let ExprKind::Name(k) = &r.kind {
            if let Some(kw) = self.sym.keywords.get(&k.name) {
                if self.sym.player_keywords.contains(&k.name) {
                    // a keyword of players (PMV 6.3.8): the tested value is a player
                    let keyword = kw.id;
                    let player = bx(self.player(l));
                    return test(Expr::PlayerHas { player, keyword });
                }
            }
        }
        let card = self.typed(l, &[Type::Card], "the tested value");
        let ExprKind::Name(k) = &r.kind else {
            self.error(Diagnostic::error(
                codes::RESOLVE_UNKNOWN_KEYWORD,
                self.file,
                r.span,
                "`has` tests a keyword, ability kind or attribute name",
                "not a name",
            ));
            return failed_test();
        };
        self.card_test(CardTest::Has, card, k)
    }

    /// `value is name`: `player` or `card` test any value's kind; a state, a card type,
    /// `face_up` or `face_down` test a card.
    fn resolve_is(&mut self, l: &ast::Expr, r: &ast::Expr) -> (Expr, Ty) {
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
            return failed_test();
        };
        let (value, ty) = self.expr(l);
        if k.name == "player" || k.name == "card" {
            let kind = if k.name == "player" {
                Type::Player
            } else {
                Type::Card
            };
            return test(Expr::IsKind {
                value: bx(value),
                kind,
            });
        }
        self.expect(&ty, &[Type::Card], l.span, "the tested value");
        self.card_test(CardTest::Is, value, k)
    }

    /// `card has name` or `card is name` for a name that must be declared: the test the name
    /// selects, or an unknown-name error suggesting among what the operator may test.
    fn card_test(&mut self, op: CardTest, card: Expr, k: &ast::Ident) -> (Expr, Ty) {
        let sym: &Symbols = self.sym;
        if let Some(e) = op.lower(sym, card, &k.name) {
            return test(e);
        }
        let (code, what, names) = op.candidates(sym);
        self.unknown(code, what, &k.name, k.span, names);
        failed_test()
    }
}

/// An operator that tests a card by a declared name.
#[derive(Clone, Copy)]
enum CardTest {
    /// `has`: an ability kind, a keyword or an attribute (in this order).
    Has,
    /// `is`: a state, a card type, or a face.
    Is,
}

impl CardTest {
    /// The IR of this test of `card` for `name`, by the first namespace that has `name`;
    /// `None` if none has it.
    fn lower(self, sym: &Symbols, card: Expr, name: &str) -> Option<Expr> {
        let card = bx(card);
        Some(match self {
            CardTest::Has => {
                if let Some(kind) = sym.kinds.get(name) {
                    let kind = kind.id;
                    Expr::HasAbility { card, kind }
                } else if let Some(kw) = sym.keywords.get(name) {
                    let keyword = kw.id;
                    Expr::HasKeyword { card, keyword }
                } else {
                    let attribute = *sym.attributes.get(name)?;
                    Expr::HasAttribute { card, attribute }
                }
            }
            CardTest::Is => {
                if let Some(s) = sym.states.get(name) {
                    let state = s.id;
                    Expr::InState { card, state }
                } else if let Some(t) = sym.card_types.get(name) {
                    let card_type = t.id;
                    Expr::OfType { card, card_type }
                } else {
                    let face = match name {
                        "face_up" => ir::Face::Up,
                        "face_down" => ir::Face::Down,
                        _ => return None,
                    };
                    Expr::FaceIs { card, face }
                }
            }
        })
    }

    /// What an unknown name after this operator is reported as: the code, what the name
    /// should have been, and the names it may be.
    fn candidates(self, sym: &Symbols) -> (Code, &'static str, Vec<&str>) {
        match self {
            CardTest::Has => (
                codes::RESOLVE_UNKNOWN_KEYWORD,
                "keyword, ability kind or attribute",
                names_in(&sym.keywords, &sym.kinds)
                    .chain(sym.attributes.keys().map(String::as_str))
                    .collect(),
            ),
            CardTest::Is => (
                codes::RESOLVE_UNKNOWN_STATE,
                "state or card type",
                names_in(&sym.states, &sym.card_types)
                    .chain(["player", "card", "face_up", "face_down"])
                    .collect(),
            ),
        }
    }
}
