//! Events and moments: cancelling an event, emitting one, reaching a moment.

use crate::base::source::Span;
use crate::compiler::ast;
use crate::compiler::resolve::scope::Ctx;
use crate::ir::Stmt;

impl Ctx<'_> {
    /// `cancel event [of subject]`.
    pub(super) fn resolve_cancel(
        &mut self,
        ev: &ast::Ident,
        of: &Option<ast::Expr>,
    ) -> Option<Stmt> {
        let event = self.event_named(ev)?.id;
        let subject = of.as_ref().map(|e| self.expr(e).0);
        Some(Stmt::Cancel { event, subject })
    }

    /// `emit event(args)`: the arguments checked against the event's parameters.
    pub(super) fn resolve_emit(
        &mut self,
        ev: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> Option<Stmt> {
        let event = self.event_named(ev)?;
        let (args, sets) = self.args(event, &format!("event `{}`", ev.name), args, span);
        Some(super::call::per_player(
            Stmt::Emit {
                event: event.id,
                args,
            },
            sets,
        ))
    }

    /// `reach moment`: the moment must be declared.
    pub(super) fn resolve_reach(&mut self, m: &ast::Ident) -> Option<Stmt> {
        let moment = self.moment_named(m)?;
        Some(Stmt::Reach { moment })
    }

    /// `reach moment of player`: a declared moment, reached for a player.
    pub(super) fn resolve_reach_of(&mut self, m: &ast::Ident, p: &ast::Expr) -> Option<Stmt> {
        let player = self.player(p);
        let moment = self.moment_named(m)?;
        Some(Stmt::ReachOf { moment, player })
    }
}
