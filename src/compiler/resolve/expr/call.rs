//! The built-in functions: `count(x)`, `min(a, b)`, `cancelled(event, x)`, ….

use super::{bx, invalid};
use crate::base::diagnostic::{codes, did_you_mean, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast::{self, ExprKind};
use crate::compiler::resolve::scope::{Ctx, Ty};
use crate::ir::{Expr, Type};

/// Built-in functions and their arity.
pub const BUILTINS: &[(&str, usize)] = &[
    ("count", 1),
    ("owner", 1),
    ("controller", 1),
    ("opponent_of", 1),
    ("min", 2),
    ("max", 2),
    ("distinct", 2),
    ("total", 2),
    ("usable", 2),
    ("same_card", 2),
    ("negated", 1),
    ("attached", 1),
    ("host", 1),
    ("turn_number", 0),
    ("deck_format", 0),
    ("is_turn_player", 1),
    ("cancelled", 2),
    ("printed", 1),
    ("modified", 1),
    ("slot", 1),
];

impl Ctx<'_> {
    /// A call of a built-in function: checked for its name and arity, then dispatched on
    /// the function.
    pub(super) fn resolve_builtin_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> (Expr, Ty) {
        if super::history::HISTORY_FUNCTIONS.contains(&name.name.as_str()) {
            return self.resolve_happened(name, args, span);
        }
        if !self.check_builtin_call(name, args, span) {
            return invalid();
        }
        let Some(a) = args.first().map(|x| &x.value) else {
            // The built-ins without arguments.
            return if name.name == "deck_format" {
                (Expr::DeckFormat, Ty::Of(Type::Text, true))
            } else {
                (Expr::TurnNumber, Ty::of(Type::Number))
            };
        };
        let one_card = |ctx: &mut Self| bx(ctx.typed(a, &[Type::Card], "the argument"));
        match name.name.as_str() {
            "cancelled" => self.resolve_cancelled(a, &args[1].value),
            "is_turn_player" => (Expr::IsTurnPlayer(bx(self.player(a))), Ty::of(Type::Bool)),
            "count" => (Expr::Count(bx(self.cards(a))), Ty::of(Type::Number)),
            "owner" => (Expr::Owner(one_card(self)), Ty::of(Type::Player)),
            "controller" => (Expr::Controller(one_card(self)), Ty::of(Type::Player)),
            "opponent_of" => (Expr::OpponentOf(bx(self.player(a))), Ty::of(Type::Player)),
            "attached" => (Expr::Attached(one_card(self)), Ty::of(Type::Cards)),
            "host" => (Expr::Host(one_card(self)), Ty::Of(Type::Card, true)),
            "slot" => (Expr::SlotOf(one_card(self)), Ty::Of(Type::Text, true)),
            "distinct" => self.resolve_distinct(a, &args[1].value),
            "total" => self.resolve_total(a, &args[1].value),
            "usable" => self.resolve_usable(a, &args[1].value),
            "negated" => (Expr::EffectNegated(one_card(self)), Ty::of(Type::Bool)),
            "same_card" => {
                let x = one_card(self);
                let y = bx(self.typed(&args[1].value, &[Type::Card], "the argument"));
                (Expr::SameCard(x, y), Ty::of(Type::Bool))
            }
            "printed" | "modified" => self.resolve_stat_query(&name.name, a, args.get(1)),
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

    /// Whether `name` is a built-in given its number of positional arguments; reports an
    /// unknown function (with a did-you-mean or a hint) or a wrong arity.
    fn check_builtin_call(&mut self, name: &ast::Ident, args: &[ast::Arg], span: Span) -> bool {
        let Some((_, arity)) = BUILTINS.iter().find(|(n, _)| *n == name.name) else {
            let names = BUILTINS.iter().map(|(n, _)| *n);
            let names = names.chain(super::history::HISTORY_FUNCTIONS.iter().copied());
            let help = did_you_mean(&name.name, names).or_else(|| self.kind_hint(&name.name));
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
            return false;
        };
        // `modified(c.stat, layer)`: the layer is optional
        let arity_ok = args.len() == *arity || (name.name == "modified" && args.len() == 2);
        if arity_ok && args.iter().all(|a| a.name.is_none()) {
            return true;
        }
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
        false
    }

    /// `printed(c.stat)` (the value before modifiers) or `modified(c.stat[, layer])` (whether
    /// a modifier applies): the argument must read a card's stat.
    fn resolve_stat_query(
        &mut self,
        func: &str,
        a: &ast::Expr,
        layer: Option<&ast::Arg>,
    ) -> (Expr, Ty) {
        let (e, ty) = self.expr(a);
        let Expr::Stat { of, stat } = e else {
            if !matches!(ty, Ty::Unknown) {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_TYPE_MISMATCH,
                        self.file,
                        a.span,
                        format!("`{func}` takes a card's stat"),
                        "not a stat of a card",
                    )
                    .with_help(format!("as in `{func}(c.strength)`")),
                );
            }
            return invalid();
        };
        if func == "printed" {
            return (Expr::Printed { of, stat }, ty);
        }
        let layer = layer.and_then(|l| self.layer_argument(&l.value));
        (Expr::Modified { of, stat, layer }, Ty::of(Type::Bool))
    }

    /// The layer named as `modified`'s second argument, or a diagnostic.
    fn layer_argument(&mut self, e: &ast::Expr) -> Option<crate::ir::Id> {
        let ExprKind::Name(n) = &e.kind else {
            self.check_name_argument(
                e,
                "`modified` takes a layer name second",
                "not a layer name",
                "as in `modified(c.strength, boost)`",
            );
            return None;
        };
        if let Some((id, _)) = self.sym.layers.get(&n.name) {
            return Some(*id);
        }
        let names: Vec<&str> = self.sym.layers.keys().map(String::as_str).collect();
        self.unknown(codes::RESOLVE_UNKNOWN_NAME, "layer", &n.name, n.span, names);
        None
    }

    /// `cancelled(event, subject)`: whether that event was cancelled for the subject.
    fn resolve_cancelled(&mut self, ev: &ast::Expr, subject: &ast::Expr) -> (Expr, Ty) {
        let event = match &ev.kind {
            ExprKind::Name(n) if self.sym.events.contains_key(&n.name) => {
                self.sym.events[&n.name].id
            }
            ExprKind::Name(n) => {
                let names: Vec<&str> = self.sym.events.keys().map(String::as_str).collect();
                self.unknown(codes::RESOLVE_UNKNOWN_NAME, "event", &n.name, n.span, names);
                crate::ir::Id::default()
            }
            _ => {
                self.check_name_argument(
                    ev,
                    "`cancelled` takes an event name first",
                    "not an event name",
                    "as in `cancelled(raids, a)`",
                );
                crate::ir::Id::default()
            }
        };
        let subject = self.expr(subject).0;
        (
            Expr::Cancelled {
                event,
                subject: bx(subject),
            },
            Ty::of(Type::Bool),
        )
    }

    /// `distinct(cards, field)`: how many different values of the field the cards have.
    fn resolve_distinct(&mut self, a: &ast::Expr, f: &ast::Expr) -> (Expr, Ty) {
        let cards = self.cards(a);
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
                self.check_name_argument(
                    f,
                    "`distinct` counts the values of a field: name the field",
                    "not a field name",
                    "as in `distinct(unit on your.arena, clan)`",
                );
                String::new()
            }
        };
        (
            Expr::Distinct {
                cards: bx(cards),
                field: field.into(),
            },
            Ty::of(Type::Number),
        )
    }

    /// `total(cards, key)`: the sum of a number read from each card as a bare name in a filter
    /// (a stat, a number field, a counter; `total(unit on your.board, upkeep)`).
    fn resolve_total(&mut self, a: &ast::Expr, f: &ast::Expr) -> (Expr, Ty) {
        let cards = self.cards(a);
        let key = match &f.kind {
            ExprKind::Name(_) => {
                self.filter_depth += 1;
                let key = self.number(f);
                self.filter_depth -= 1;
                key
            }
            _ => {
                self.check_name_argument(
                    f,
                    "`total` adds up a number of each card: name it",
                    "not a stat, field or counter name",
                    "as in `total(unit on your.board, upkeep)`",
                );
                Expr::Int(0)
            }
        };
        (
            Expr::Total {
                key: bx(key),
                cards: bx(cards),
            },
            Ty::of(Type::Number),
        )
    }

    /// `usable(card, kind)`: whether the card has an ability of that kind it could use now
    /// (`usable(c, interrupt)`).
    fn resolve_usable(&mut self, a: &ast::Expr, k: &ast::Expr) -> (Expr, Ty) {
        let card = self.typed(a, &[Type::Card], "the argument");
        let kind = match &k.kind {
            ExprKind::Name(n) => {
                let sym = self.sym;
                self.declared(
                    &sym.kinds,
                    codes::RESOLVE_UNKNOWN_ABILITY_KIND,
                    "ability kind",
                    n,
                )
                .map(|s| s.id)
            }
            _ => {
                self.check_name_argument(
                    k,
                    "`usable` asks about an ability kind: name it",
                    "not an ability kind name",
                    "as in `usable(c, counter)`",
                );
                None
            }
        };
        (
            Expr::Usable {
                card: bx(card),
                kind: kind.unwrap_or_default(),
            },
            Ty::of(Type::Bool),
        )
    }

    /// Reports an argument that must be a bare name (of an event, of a field) but is not.
    fn check_name_argument(&mut self, arg: &ast::Expr, message: &str, label: &str, help: &str) {
        self.error(
            Diagnostic::error(
                codes::RESOLVE_TYPE_MISMATCH,
                self.file,
                arg.span,
                message,
                label,
            )
            .with_help(help),
        );
    }
}
