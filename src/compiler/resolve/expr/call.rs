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
    ("attached", 1),
    ("host", 1),
    ("turn_number", 0),
    ("is_turn_player", 1),
    ("cancelled", 2),
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
            return (Expr::TurnNumber, Ty::of(Type::Number));
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
            "distinct" => self.resolve_distinct(a, &args[1].value),
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
        if args.len() == *arity && args.iter().all(|a| a.name.is_none()) {
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

    /// `cancelled(event, subject)`: whether that event was cancelled for the subject.
    fn resolve_cancelled(&mut self, ev: &ast::Expr, subject: &ast::Expr) -> (Expr, Ty) {
        let event = match &ev.kind {
            ExprKind::Name(n) if self.sym.events.contains_key(&n.name) => {
                self.sym.events[&n.name].id.clone()
            }
            ExprKind::Name(n) => {
                let names: Vec<&str> = self.sym.events.keys().map(String::as_str).collect();
                self.unknown(codes::RESOLVE_UNKNOWN_NAME, "event", &n.name, n.span, names);
                String::new()
            }
            _ => {
                self.check_name_argument(
                    ev,
                    "`cancelled` takes an event name first",
                    "not an event name",
                    "as in `cancelled(raids, a)`",
                );
                String::new()
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
                field,
            },
            Ty::of(Type::Number),
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
