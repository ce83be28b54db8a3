//! What happened: `happened(event(pattern)[, moment])` and
//! `happened_cards(event(pattern), parameter[, moment])`, counts and cards over the events the
//! game has seen, since it last reached a moment or in the whole game.

use super::invalid;
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast::{self, ExprKind};
use crate::compiler::resolve::scope::{Ctx, Ty};
use crate::ir::{Expr, Trigger, Type};

/// The history functions: they take an event pattern, not a value.
pub const HISTORY_FUNCTIONS: &[&str] = &["happened", "happened_cards"];

impl Ctx<'_> {
    /// `happened(e(pattern)[, moment])`: a number; `happened_cards(e(pattern), param[, moment])`:
    /// the cards the events' card parameter `param` named.
    pub(super) fn resolve_happened(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> (Expr, Ty) {
        let wants_cards = name.name == "happened_cards";
        let (min, max) = if wants_cards { (2, 3) } else { (1, 2) };
        if args.len() < min || args.len() > max || args.iter().any(|a| a.name.is_some()) {
            let usage = if wants_cards {
                "as in `happened_cards(<event>(<param>: <value>), <card param>, <moment>)`"
            } else {
                "as in `happened(<event>(<param>: <value>), <moment>)`"
            };
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_WRONG_ARITY,
                    self.file,
                    span,
                    format!(
                        "`{}` takes {min} or {max} positional arguments, found {}",
                        name.name,
                        args.len()
                    ),
                    "wrong number of arguments",
                )
                .with_help(usage),
            );
            return invalid();
        }
        let Some(pattern) = self.history_pattern(&args[0].value) else {
            return invalid();
        };
        let cards = if wants_cards {
            self.history_card_param(&pattern, &args[1].value)
        } else {
            None
        };
        let since = match args.get(min) {
            Some(m) => match &m.value.kind {
                ExprKind::Name(n) => self.moment_named(n),
                _ => {
                    self.not_a_name(
                        &m.value,
                        "the window of `happened` is a moment",
                        "not a moment name",
                        "as in `happened(<event>(<param>: <value>), <moment>)`: since the game last reached it",
                    );
                    None
                }
            },
            None => None,
        };
        let ty = if wants_cards {
            Ty::of(Type::Cards)
        } else {
            Ty::of(Type::Number)
        };
        let e = Expr::Happened {
            pattern: Box::new(pattern),
            cards: cards.map(Into::into),
            since,
        };
        (e, ty)
    }

    /// The event pattern of a history function: `e` or `e(param: value, …)`, checked like a
    /// trigger's.
    fn history_pattern(&mut self, arg: &ast::Expr) -> Option<Trigger> {
        let (event, args) = match &arg.kind {
            ExprKind::Name(n) => (n, &[][..]),
            ExprKind::Call(n, a) => (n, &a[..]),
            _ => {
                self.not_a_name(
                    arg,
                    "`happened` takes an event pattern first",
                    "not an event pattern",
                    "as in `happened(<event>(<param>: <value>))`",
                );
                return None;
            }
        };
        let ev = self.event_named(event)?;
        let t = ast::Trigger {
            subject: None,
            event: event.clone(),
            args: args.to_vec(),
            span: arg.span,
        };
        let mut when = crate::ir::Map::new();
        for a in &t.args {
            self.trigger_argument(&t, ev, a, &mut when);
        }
        Some(Trigger { event: ev.id, when })
    }

    /// The parameter of `happened_cards` naming the cards wanted: a card parameter of the event.
    fn history_card_param(&mut self, pattern: &Trigger, arg: &ast::Expr) -> Option<String> {
        let ExprKind::Name(n) = &arg.kind else {
            self.not_a_name(
                arg,
                "`happened_cards` names the event's card parameter second",
                "not a parameter name",
                "as in `happened_cards(<event>(<param>: <value>), <card param>)`",
            );
            return None;
        };
        let sym = self.sym;
        let ev = sym.events.values().find(|e| e.id == pattern.event)?;
        let Some(p) = ev.params.iter().find(|p| p.name == n.name) else {
            let names: Vec<&str> = ev.params.iter().map(|p| p.name.as_str()).collect();
            self.unknown_in(
                codes::RESOLVE_UNKNOWN_ARGUMENT,
                "this event",
                "parameter",
                &n.name,
                n.span,
                names,
            );
            return None;
        };
        if !p
            .types
            .iter()
            .any(|t| matches!(t, Type::Card | Type::Cards))
        {
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_TYPE_MISMATCH,
                    self.file,
                    n.span,
                    format!("parameter `{}` does not name a card", n.name),
                    "not a card parameter",
                )
                .with_help("`happened_cards` collects the cards a card parameter named; count events with `happened`"),
            );
            return None;
        }
        Some(p.name.clone())
    }

    /// Reports an argument that must be a name or an event pattern but is not.
    fn not_a_name(&mut self, arg: &ast::Expr, message: &str, label: &str, help: &str) {
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
