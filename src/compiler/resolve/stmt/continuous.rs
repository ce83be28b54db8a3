//! What a continuous ability's body may hold: the statements the engine turns into modifiers
//! for as long as the ability applies (stat changes, `grant`, `remove`, `negate`), and the
//! control flow around them (`let`, `if`, `for each`). Any other statement, a written
//! duration, and a choice, declaration or random pick (the engine reads the body again at
//! every change and cannot ask, nor draw anew each time) would be accepted and do nothing:
//! each is reported where it is written.

use super::duration_span;
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast::{self, StmtKind};
use crate::compiler::resolve::scope::Ctx;
use crate::ir::{Duration, Stmt};

/// Whether a lowered statement is one a continuous ability carries out, with no written
/// duration; `Err` with a duration it ignores.
fn carried(s: &Stmt) -> Result<bool, ()> {
    let duration = match s {
        Stmt::Let { .. } => return Ok(true),
        Stmt::If { arms, otherwise } => {
            for body in arms.iter().map(|(_, b)| b).chain([otherwise]) {
                for s in body {
                    if !carried(s)? {
                        return Ok(false);
                    }
                }
            }
            return Ok(true);
        }
        Stmt::ForEach { body, .. } => {
            for s in body {
                if !carried(s)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        Stmt::Modify { duration, .. }
        | Stmt::Grant { duration, .. }
        | Stmt::RemoveKeyword { duration, .. }
        | Stmt::PlayerKeyword { duration, .. }
        | Stmt::Negate { duration, .. } => duration,
        _ => return Ok(false),
    };
    if *duration == Duration::Default {
        Ok(true)
    } else {
        Err(())
    }
}

/// The written duration of a statement, if any.
fn written_duration(s: &ast::Stmt) -> Option<&ast::Duration> {
    match &s.kind {
        StmtKind::Grant(_, _, d)
        | StmtKind::Remove(_, _, d)
        | StmtKind::Negate(_, _, _, d)
        | StmtKind::Becomes(_, _, d)
        | StmtKind::Call(_, _, d) => d.as_ref(),
        StmtKind::Modify(m) => m.duration.as_ref(),
        _ => None,
    }
}

impl Ctx<'_> {
    /// In a continuous ability (its body or its conditions): reports a choice, declaration or
    /// random pick (`what`) written at `span`.
    pub(crate) fn check_continuous_pick(&mut self, span: Span, what: &str) {
        if !self.continuous {
            return;
        }
        self.error(
            Diagnostic::error(
                codes::RESOLVE_MISPLACED_STATEMENT,
                self.file,
                span,
                format!("a continuous ability cannot make {what}"),
                "not in a continuous ability",
            )
            .with_help(
                "a continuous ability is read again whenever the game changes: there is no \
                 player to ask and no pick to keep; choose in a triggered or played effect and \
                 give its change a duration (`… while …`)",
            ),
        );
    }

    /// In a continuous ability's body: reports statement `s` (lowered into `lowered`) if the
    /// ability cannot carry it out. `let`, `if` and `for each` written as such are not
    /// reported themselves: their statements are checked one by one.
    pub(super) fn check_continuous_stmt(&mut self, s: &ast::Stmt, lowered: &Stmt) {
        if !self.continuous
            || matches!(
                s.kind,
                StmtKind::Let(..) | StmtKind::If(..) | StmtKind::ForEach(..)
            )
        {
            return;
        }
        match carried(lowered) {
            Ok(true) => {}
            Ok(false) => self.error(
                Diagnostic::error(
                    codes::RESOLVE_MISPLACED_STATEMENT,
                    self.file,
                    s.span,
                    "a continuous ability cannot carry out this statement",
                    "would do nothing here",
                )
                .with_help(
                    "a continuous ability's body changes characteristics while it applies: \
                     stat changes, `grant`, `remove` and `negate`, with `let`, `if` and \
                     `for each` around them; to do this once, use a triggered ability",
                ),
            ),
            Err(()) => {
                let span = written_duration(s).map_or(s.span, duration_span);
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_MISPLACED_STATEMENT,
                        self.file,
                        span,
                        "a continuous ability's changes cannot have a duration",
                        "ignored duration",
                    )
                    .with_help(
                        "its changes last as long as the ability applies; for a condition, \
                         write `while …` before the ability's body",
                    ),
                );
            }
        }
    }
}
