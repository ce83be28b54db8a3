//! Checking expressions: every name resolved, every operand typed.
//!
//! `expr` dispatches each expression to the method of its kind; members (`x.y`, `event.y`)
//! are in `member.rs`, the built-in functions in `call.rs`, the binary operators (with
//! `has` and `is`) in `binary.rs`.

mod binary;
mod call;
mod history;
mod member;
mod slots;

use super::scope::{type_name, Ctx, Ty};
use crate::base::diagnostic::{codes, did_you_mean, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast::{self, ExprKind, PairPart, Quantity, UnOp};
use crate::ir::{self, Expr, FieldType, Type};

/// A boxed operand of an IR node.
fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// What an expression that failed to check stands for: no value, of no known type (the error
/// is already reported).
fn invalid() -> (Expr, Ty) {
    (Expr::Int(0), Ty::Unknown)
}

/// The zone `id`, of `owner` or (with `None`) the zone as the rules name it.
fn zone_value(id: &str, owner: Option<Expr>) -> (Expr, Ty) {
    (
        Expr::Zone {
            zone: crate::ir::Id::from(id),
            owner: owner.map(bx),
        },
        Ty::of(Type::Zone),
    )
}

impl Ctx<'_> {
    /// Checks an expression that must have one of `expected` types.
    pub fn typed(&mut self, e: &ast::Expr, expected: &[Type], what: &str) -> Expr {
        let (x, ty) = self.expr(e);
        if ty == Ty::of(Type::Pair) && !expected.contains(&Type::Pair) {
            if let Some(help) = self.pair_stat_help(e) {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_TYPE_MISMATCH,
                        self.file,
                        e.span,
                        format!(
                            "{what} must be {}, found a pair",
                            expected
                                .iter()
                                .map(|t| type_name(*t))
                                .collect::<Vec<_>>()
                                .join(" or ")
                        ),
                        "this is a pair",
                    )
                    .with_help(help),
                );
                return x;
            }
        }
        self.expect(&ty, expected, e.span, what);
        x
    }

    /// `this.vigor > 2`: for a composite stat read where one value is needed, which
    /// components it has.
    fn pair_stat_help(&self, e: &ast::Expr) -> Option<String> {
        let name = match &e.kind {
            ExprKind::Member(_, m) | ExprKind::Name(m) => m,
            _ => return None,
        };
        let stat = self.sym.stats.get(&name.name)?;
        if stat.parts.is_empty() {
            return None;
        }
        let parts: Vec<String> = stat.parts.iter().map(|p| format!("`{p}`")).collect();
        let reads: Vec<String> = stat.parts.iter().map(|p| format!("`.{p}`")).collect();
        Some(format!(
            "`{}` is a pair of {}: read one of them where a number is needed ({})",
            name.name,
            parts.join(" and "),
            reads.join(", ")
        ))
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

    /// A player, or a set of players where the statement is done for each.
    pub fn player_or_set(&mut self, e: &ast::Expr) -> Expr {
        let (x, ty) = self.expr(e);
        self.expect_player_or_set(&ty, &[Type::Player], e.span, "this value");
        x
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

    /// Checks any expression, returning its IR and type: a dispatch to the method of its kind.
    pub fn expr(&mut self, e: &ast::Expr) -> (Expr, Ty) {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(n) => (Expr::Int(*n), Ty::of(Type::Number)),
            ExprKind::Str(s) => (Expr::Text(s.clone()), Ty::of(Type::Text)),
            ExprKind::Bool(b) => (Expr::Bool(*b), Ty::of(Type::Bool)),
            ExprKind::Pair(..) => self.check_pair_misplaced(span),
            ExprKind::This => self.resolve_this(span),
            ExprKind::It => self.resolve_it(span),
            ExprKind::You => (Expr::You, Ty::of(Type::Player)),
            ExprKind::Opponent => (Expr::Opponent, Ty::of(Type::Player)),
            ExprKind::Each => (Expr::EachPlayer, Ty::Players),
            ExprKind::Name(id) => self.resolve_name(id),
            ExprKind::Member(base, name) => self.resolve_member(base, name),
            ExprKind::Call(name, args) => self.resolve_builtin_call(name, args, span),
            ExprKind::List(items) => {
                let xs = items.iter().map(|i| self.cards(i)).collect();
                (Expr::List(xs), Ty::of(Type::Cards))
            }
            ExprKind::Unary(UnOp::Not, x) => (Expr::Not(bx(self.cond(x))), Ty::of(Type::Bool)),
            ExprKind::Unary(UnOp::Neg, x) => (Expr::Neg(bx(self.number(x))), Ty::of(Type::Number)),
            ExprKind::Binary(op, l, r) => self.resolve_binary(*op, l, r),
            ExprKind::Choice {
                kind,
                who,
                quantity,
                from,
            } => {
                self.check_continuous_pick(span, "a choice");
                self.resolve_choice(*kind, who.as_deref(), quantity, from)
            }
            ExprKind::SlotChoice(c) => {
                self.check_continuous_pick(span, "a choice");
                self.resolve_slot_choice(c, span)
            }
            ExprKind::Declare(what) => {
                self.check_continuous_pick(span, "a declaration");
                self.resolve_declare(what)
            }
            ExprKind::TopOf(top, n, z) => self.resolve_top_of(*top, n, z),
            ExprKind::Random(pick) => {
                self.check_continuous_pick(span, "a random pick");
                self.resolve_random(pick)
            }
            ExprKind::Extreme(highest, key, cards) => self.resolve_extreme(*highest, key, cards),
            ExprKind::NamedWhere(name, l, r) => self.resolve_named_where(name, l, r),
            ExprKind::Typed(ty, z) => self.resolve_typed(ty, z),
        }
    }

    /// Reports a pair literal where no composite stat is expected.
    fn check_pair_misplaced(&mut self, span: Span) -> (Expr, Ty) {
        self.error(
            Diagnostic::error(
                codes::RESOLVE_PAIR_NOT_ALLOWED,
                self.file,
                span,
                "a pair literal is only allowed where a composite stat is expected",
                "not a composite stat here",
            )
            .with_help(
                "pairs like `+1/+1` modify or define composite stats (`x.strength += 1/1`); \
                 for division, write `(a) / (b)`",
            ),
        );
        invalid()
    }

    /// `this`: the card the code belongs to, where there is one.
    fn resolve_this(&mut self, span: Span) -> (Expr, Ty) {
        let present = self.has_this;
        self.implicit_card(
            Expr::This,
            present,
            span,
            [
                "`this` has no card here",
                "no card owns this code",
                "pass the card as a parameter",
            ],
        )
    }

    /// `it`: the candidate card inside a `where` filter (the candidate slot, a text, in a slot
    /// choice's condition).
    fn resolve_it(&mut self, span: Span) -> (Expr, Ty) {
        if self.in_slot_condition() {
            return (Expr::SlotCandidate(0), Ty::of(Type::Text));
        }
        let present = self.filter_depth > 0;
        self.implicit_card(
            Expr::It,
            present,
            span,
            [
                "`it` is only meaningful inside a `where` filter",
                "not in a filter",
                "`it` is the candidate card in `… where it …`",
            ],
        )
    }

    /// A card named implicitly (`x` is `this` or `it`): a card where `present`, else an
    /// error at `span` (message, label, help) and a value of unknown type.
    fn implicit_card(
        &mut self,
        x: Expr,
        present: bool,
        span: Span,
        [message, label, help]: [&str; 3],
    ) -> (Expr, Ty) {
        if present {
            return (x, Ty::of(Type::Card));
        }
        self.error(
            Diagnostic::error(codes::RESOLVE_UNKNOWN_NAME, self.file, span, message, label)
                .with_help(help),
        );
        (x, Ty::Unknown)
    }

    /// `choose|target|search [who] n|up to n|any from cards`: one card when exactly one is
    /// chosen, else a set.
    fn resolve_choice(
        &mut self,
        kind: ast::ChoiceKind,
        who: Option<&ast::Expr>,
        quantity: &Quantity,
        from: &ast::Expr,
    ) -> (Expr, Ty) {
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
                kind: choice_kind(kind),
                chooser: bx(chooser),
                min: bx(min),
                max,
                from: bx(from),
            },
            Ty::of(ty),
        )
    }

    /// `declare field`: a text the player names, for `name` or a text field of the cards.
    fn resolve_declare(&mut self, what: &ast::Ident) -> (Expr, Ty) {
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

    /// `highest name of cards` / `lowest …`: `name` is read from each candidate as in a
    /// filter, and must be a number; one card (absent when there is none).
    fn resolve_extreme(
        &mut self,
        highest: bool,
        key: &ast::Ident,
        cards: &ast::Expr,
    ) -> (Expr, Ty) {
        let cards = self.cards(cards);
        self.filter_depth += 1;
        let bare = ast::Expr {
            kind: ExprKind::Name(key.clone()),
            span: key.span,
        };
        let key = self.number(&bare);
        self.filter_depth -= 1;
        (
            Expr::Extreme {
                highest,
                key: bx(key),
                cards: bx(cards),
            },
            Ty::Of(Type::Card, true),
        )
    }

    /// `cards where c: condition`: a filter whose candidate the condition, and every filter
    /// nested in it, may also call `c`.
    fn resolve_named_where(
        &mut self,
        name: &ast::Ident,
        l: &ast::Expr,
        r: &ast::Expr,
    ) -> (Expr, Ty) {
        let cards = self.cards(l);
        self.filter_depth += 1;
        self.candidates.push((name.name.clone(), self.filter_depth));
        let cond = self.cond(r);
        self.candidates.pop();
        self.filter_depth -= 1;
        (
            Expr::Filter {
                cards: bx(cards),
                condition: bx(cond),
            },
            Ty::of(Type::Cards),
        )
    }

    /// `random n cards` (one card when `n` is 1, else a set), `random player`, `random number
    /// a to b`: picks the engine makes.
    fn resolve_random(&mut self, pick: &ast::RandomPick) -> (Expr, Ty) {
        match pick {
            ast::RandomPick::Cards(n, from) => {
                let count = self.number(n);
                let from = self.cards(from);
                let ty = if count == Expr::Int(1) {
                    Type::Card
                } else {
                    Type::Cards
                };
                (
                    Expr::RandomCards {
                        count: bx(count),
                        from: bx(from),
                    },
                    Ty::of(ty),
                )
            }
            ast::RandomPick::Player => (Expr::RandomPlayer, Ty::of(Type::Player)),
            ast::RandomPick::Number(a, b) => {
                let low = bx(self.number(a));
                let high = bx(self.number(b));
                (Expr::RandomNumber { low, high }, Ty::of(Type::Number))
            }
        }
    }

    /// `top|bottom n of zone`: the zone must be declared `ordered` (an unordered zone has no
    /// top card; its first listed card is no rule's choice).
    fn resolve_top_of(&mut self, top: bool, n: &ast::Expr, z: &ast::Expr) -> (Expr, Ty) {
        let count = self.number(n);
        let zone = self.zone(z);
        if let Expr::Zone { zone: id, .. } = &zone {
            let unordered = self.sym.zones.values().any(|s| s.id == *id && !s.ordered);
            if unordered {
                let word = if top { "top" } else { "bottom" };
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_TOP_OF_UNORDERED,
                        self.file,
                        z.span,
                        format!("`{word}` of a zone whose cards have no order"),
                        "this zone is not declared `ordered`",
                    )
                    .with_help(
                        "only an `ordered` zone (a deck, a pile) has a top and a bottom; to take \
                         cards of an unordered zone, `choose` them",
                    ),
                );
            }
        }
        (
            Expr::TopOf {
                top,
                count: bx(count),
                zone: bx(zone),
            },
            Ty::of(Type::Cards),
        )
    }

    /// `card_type on cards`: the cards of that type (`card`/`cards` keep them all).
    fn resolve_typed(&mut self, ty: &ast::Ident, z: &ast::Expr) -> (Expr, Ty) {
        let cards = self.cards(z);
        if ty.name == "card" || ty.name == "cards" {
            return (cards, Ty::of(Type::Cards));
        }
        let Some(t) = self.sym.card_types.get(&ty.name) else {
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
            return (cards, Ty::Unknown);
        };
        let cond = Expr::OfType {
            card: bx(Expr::It),
            card_type: t.id,
        };
        (
            Expr::Filter {
                cards: bx(cards),
                condition: bx(cond),
            },
            Ty::of(Type::Cards),
        )
    }

    /// A bare name: a filter's named candidate, a local, a member of `it` inside a filter, or a
    /// zone.
    fn resolve_name(&mut self, id: &ast::Ident) -> (Expr, Ty) {
        if let Some(found) = self.named_candidate(&id.name) {
            return found;
        }
        if let Some(ty) = self.lookup(&id.name) {
            return (Expr::Var(crate::ir::Id::from(&id.name)), ty);
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
            return invalid();
        }
        if self.filter_depth > 0 && !self.in_slot_condition() {
            if let Some(r) = self.card_member(Expr::It, &id.name) {
                return r;
            }
        }
        if let Some(z) = self.sym.zones.get(&id.name) {
            return zone_value(&z.id, None);
        }
        self.check_unknown_name(id);
        invalid()
    }

    /// Reports a name that is nothing in scope, suggesting a close one or saying what
    /// namespace it belongs to.
    fn check_unknown_name(&mut self, id: &ast::Ident) {
        let mut names = self.local_names();
        names.extend(self.candidates.iter().map(|(n, _)| n.clone()));
        names.extend(self.slot_candidates.iter().filter_map(|(n, _)| n.clone()));
        names.extend(self.sym.zones.keys().cloned());
        if self.filter_depth > 0 {
            names.extend(self.sym.stats.keys().cloned());
            names.extend(self.sym.field_names.keys().cloned());
            names.extend(["name".to_string(), "number".to_string()]);
        }
        if self.event.is_some() {
            names.push("event".to_string());
        }
        // `choose 1 slto of your.posts`: the misspelt word of a slot choice reads as a name
        names.push("slot".to_string());
        // `opponnent.life`: the reserved operands are names too
        names.extend(["you", "your", "opponent", "this", "each"].map(String::from));
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
}

/// An id without its pack qualifier, for messages.
pub fn short(id: &str) -> &str {
    id.rsplit(':').next().unwrap_or(id)
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
