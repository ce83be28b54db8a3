//! Control flow: bindings, branches, loops, choices between blocks, and the phases of `turn`.

use crate::base::diagnostic::{codes, Diagnostic, Label};
use crate::base::source::Span;
use crate::compiler::ast::{self, StmtKind};
use crate::compiler::resolve::scope::{Ctx, Ty};
use crate::ir::{self, Expr, Stmt, Type};

impl Ctx<'_> {
    /// `let name = value`: binds the value's type for the rest of the scope.
    pub(super) fn resolve_let(&mut self, name: &ast::Ident, value: &ast::Expr) -> Stmt {
        let (x, ty) = self.expr(value);
        self.bind(&name.name, ty, name.span, true);
        Stmt::Let {
            var: crate::ir::Id::from(&name.name),
            value: x,
        }
    }

    /// `if … else if … else …`: each condition with its block, then the `else` block.
    pub(super) fn resolve_if(
        &mut self,
        arms: &[(ast::Expr, ast::Block)],
        els: &Option<ast::Block>,
    ) -> Stmt {
        let arms = arms
            .iter()
            .map(|(c, b)| (self.cond(c), self.block(b)))
            .collect();
        let otherwise = els.as_ref().map(|b| self.block(b)).unwrap_or_default();
        Stmt::If { arms, otherwise }
    }

    /// `for each var in cards { … }`: the body sees `var` as one card; over a set of players
    /// (`for each p in each player`), as one player.
    pub(super) fn resolve_for_each(
        &mut self,
        var: &ast::Ident,
        iter: &ast::Expr,
        body: &ast::Block,
    ) -> Stmt {
        let (cards, ty) = self.expr(iter);
        let each_ty = if ty == Ty::Players {
            Ty::of(Type::Player)
        } else {
            self.expect(&ty, &[Type::Cards], iter.span, "this value");
            Ty::of(Type::Card)
        };
        self.push();
        self.bind(&var.name, each_ty, var.span, false);
        let body = self.stmts(&body.stmts);
        self.pop();
        Stmt::ForEach {
            var: crate::ir::Id::from(&var.name),
            cards,
            body,
        }
    }

    /// `may { … }`, optionally for given players (`you` where none is written).
    pub(super) fn resolve_may(&mut self, who: &[Option<ast::Expr>], body: &ast::Block) -> Stmt {
        let players = who
            .iter()
            .map(|w| w.as_ref().map(|e| self.player(e)).unwrap_or(Expr::You))
            .collect();
        Stmt::May {
            players,
            body: self.block(body),
        }
    }

    /// `choose one { "label": { … } … }`: the chooser (`you` by default) and the labelled blocks.
    pub(super) fn resolve_choose_one(
        &mut self,
        who: &Option<ast::Expr>,
        options: &[(ast::Str, ast::Block)],
    ) -> Stmt {
        let chooser = who.as_ref().map(|w| self.player(w)).unwrap_or(Expr::You);
        let options = options
            .iter()
            .map(|(label, body)| (label.value.clone(), self.block(body)))
            .collect();
        Stmt::ChooseOne { chooser, options }
    }

    /// Reports a `goes_first` outside `setup`.
    pub(super) fn misplaced_goes_first(&mut self, span: Span) {
        let word = Span::new(span.start, span.start + "goes_first".len());
        self.error(
            Diagnostic::error(
                codes::RESOLVE_MISPLACED_STATEMENT,
                self.file,
                word,
                "`goes_first` is only allowed in `setup`",
                "not in `setup { … }`",
            )
            .with_help(
                "the first player is chosen before the first turn: write `goes_first` in the \
                 ruleset's `setup { … }`",
            ),
        );
    }

    /// Reports a `phase` outside the top level of `turn`, still checking its body.
    pub(super) fn check_misplaced_phase(&mut self, span: Span, body: &ast::Block) {
        let word = Span::new(span.start, span.start + "phase".len());
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
                self.check_phase_twice(name, *first);
                self.block(body);
                continue;
            }
            seen.push((&name.name, name.span));
            let phase = ir::Labelled::new(
                format!("{pack}:{}", name.name).into(),
                named.label.as_ref().map(|l| l.value.clone()),
            );
            out.push(Stmt::Phase {
                phase: phase.id,
                body: self.block(body),
            });
            phases.push(phase);
        }
        self.pop();
        (out, phases)
    }

    /// Reports a phase of `turn` named again (`first` is where it was named first).
    fn check_phase_twice(&mut self, name: &ast::Ident, first: Span) {
        self.error(
            Diagnostic::error(
                codes::RESOLVE_DUPLICATE_DECLARATION,
                self.file,
                name.span,
                format!("phase `{}` is declared twice", name.name),
                "declared again here",
            )
            .with_related(Label::new(self.file, first, "first declared here"))
            .with_help("each phase of the turn needs its own name"),
        );
    }
}
