//! Checking statements: verbs, moves, modifications and control flow.
//!
//! `stmt` dispatches each statement to the method of its family, one submodule a family:
//! control flow and `turn` (`flow.rs`), what happens to cards (`cards.rs`), stat and counter
//! changes (`modify.rs`), verb, procedure and layer calls with their arguments (`call.rs`),
//! windows (`window.rs`), events and moments (`events.rs`); what a continuous ability's body
//! may hold (`continuous.rs`).

mod call;
mod cards;
mod continuous;
mod events;
mod flow;
mod modify;
mod script;
mod window;

use cards::KeywordChange;

use super::scope::Ctx;
use super::symbols::{Callable, Symbols};
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast::{self, StmtKind};
use crate::ir::{self, Duration, Expr, Stmt};

/// The span of a written duration.
fn duration_span(d: &ast::Duration) -> Span {
    match d {
        ast::Duration::Until(m) => m.span,
        ast::Duration::UntilOf(m, p) => m.span.to(p.span),
        ast::Duration::While(e) => e.span,
    }
}

/// The IR's face for a written `face_up` (`true`) or `face_down` (`false`).
fn face(up: bool) -> ir::Face {
    if up {
        ir::Face::Up
    } else {
        ir::Face::Down
    }
}

/// Names as a message lists them: `a`, `b`, `c`.
fn backticked(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
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
        let mut out: Vec<Stmt> = stmts.iter().filter_map(|s| self.stmt(s)).collect();
        // `filter_map` gives no size hint: a block of one statement would keep room for four,
        // held for as long as the program lives.
        out.shrink_to_fit();
        out
    }

    /// Checks one statement; in a continuous ability's body, also that the ability can carry
    /// it out. `None` when it cannot be lowered (the reason is reported).
    fn stmt(&mut self, s: &ast::Stmt) -> Option<Stmt> {
        let lowered = self.lower_stmt(s)?;
        self.check_continuous_stmt(s, &lowered);
        Some(lowered)
    }

    /// Checks one statement: a dispatch to the method of its family. `None` when it cannot
    /// be lowered (the reason is reported).
    fn lower_stmt(&mut self, s: &ast::Stmt) -> Option<Stmt> {
        Some(match &s.kind {
            // Control flow (flow.rs).
            StmtKind::Let(name, value) => self.resolve_let(name, value),
            StmtKind::If(arms, els) => self.resolve_if(arms, els),
            StmtKind::ForEach(var, iter, body) => self.resolve_for_each(var, iter, body),
            StmtKind::Repeat(n, body) => Stmt::Repeat {
                times: self.number(n),
                body: self.block(body),
            },
            StmtKind::While(cond, body) => Stmt::While {
                cond: self.cond(cond),
                body: self.block(body),
            },
            StmtKind::May(who, body) => self.resolve_may(who, body),
            StmtKind::ChooseOne(who, options) => self.resolve_choose_one(who, options),
            StmtKind::Simultaneously(b) => Stmt::Simultaneously {
                body: self.block(b),
            },
            StmtKind::Chain(b) => Stmt::Chain {
                body: self.block(b),
            },
            StmtKind::Phase(_, body) => {
                self.check_misplaced_phase(s.span, body);
                return None;
            }
            // What happens to cards (cards.rs).
            StmtKind::Move(what, to, opts) => self.resolve_move(what, to, opts),
            StmtKind::Attach(card, host) => self.resolve_attach(card, host),
            StmtKind::Clear(what, state) => return self.resolve_clear(what, state),
            StmtKind::Grant(k, target, dur) => {
                return self.resolve_keyword_change(KeywordChange::Grant, k, target, dur)
            }
            StmtKind::Remove(k, target, dur) => {
                return self.resolve_keyword_change(KeywordChange::Remove, k, target, dur)
            }
            StmtKind::Reveal(e) => Stmt::Reveal {
                cards: self.cards(e),
            },
            StmtKind::Look(e, by) => self.resolve_look(e, by),
            StmtKind::Shuffle(e) => Stmt::Shuffle { zone: self.zone(e) },
            StmtKind::Negate(e, effect, all, dur) => self.resolve_negate(e, *effect, *all, dur),
            StmtKind::Flip(e, up) => Stmt::Flip {
                cards: self.cards(e),
                face: up.map(face),
            },
            StmtKind::Treat(e, ty, fields) => return self.resolve_treat(e, ty, fields),
            StmtKind::Becomes(subject, name, dur) => {
                return self.resolve_becomes(subject, name, dur)
            }
            StmtKind::Resolve(kind, cards) => return self.resolve_abilities_of(kind, cards),
            // Stat and counter changes (modify.rs).
            StmtKind::Modify(m) => return self.resolve_modify(m),
            // Events and moments (events.rs), windows (window.rs), the game's end.
            StmtKind::Cancel(ev, of) => return self.resolve_cancel(ev, of),
            StmtKind::Emit(ev, args) => return self.resolve_emit(ev, args, s.span),
            StmtKind::Script(f, args) => return self.resolve_script(f, args, s.span),
            StmtKind::Reach(m) => return self.resolve_reach(m),
            StmtKind::ReachOf(m, p) => return self.resolve_reach_of(m, p),
            StmtKind::Check => Stmt::Check,
            StmtKind::Window(w) => self.resolve_window(w),
            StmtKind::Win(p) => Stmt::Win {
                player: self.player_or_set(p),
            },
            StmtKind::Lose(p) => Stmt::Lose {
                player: self.player_or_set(p),
            },
            StmtKind::DrawGame => Stmt::DrawGame,
            StmtKind::GoesFirst(p) => {
                if !self.in_setup {
                    self.misplaced_goes_first(s.span);
                }
                Stmt::GoesFirst {
                    player: self.player(p),
                }
            }
            // Verbs, procedures and layers applied by name (call.rs).
            StmtKind::Call(name, args, dur) => return self.resolve_call(name, args, dur, s.span),
        })
    }

    /// A written duration: until a declared moment, or while a condition holds.
    fn duration(&mut self, d: &Option<ast::Duration>) -> Duration {
        match d {
            None => Duration::Default,
            Some(ast::Duration::Until(m)) => match self.moment_named(m) {
                Some(id) => Duration::Until(id),
                None => Duration::Default,
            },
            Some(ast::Duration::While(c)) => Duration::While(self.cond(c)),
            Some(ast::Duration::UntilOf(m, p)) => {
                if let Some(joined) = self.moment_in_words(m, p) {
                    self.moment_written_in_words(m, p, &joined);
                    return Duration::Default;
                }
                let player = self.player(p);
                match self.moment_named(m) {
                    Some(moment) => Duration::UntilOf { moment, player },
                    None => Duration::Default,
                }
            }
        }
    }

    /// `until close of day`: an unknown moment `m` followed by `of <word>` whose words joined
    /// with `_` name a declared moment (`close_of_day`): that moment's name.
    fn moment_in_words(&self, m: &ast::Ident, p: &ast::Expr) -> Option<String> {
        let ast::ExprKind::Name(word) = &p.kind else {
            return None;
        };
        if self.sym.moments.contains_key(&m.name) {
            return None;
        }
        let joined = format!("{}_of_{}", m.name, word.name);
        self.sym.moments.contains_key(&joined).then_some(joined)
    }

    /// Reports `until close of day` at its words, suggesting the moment's one-word name.
    fn moment_written_in_words(&mut self, m: &ast::Ident, p: &ast::Expr, joined: &str) {
        let span = Span::new(m.span.start, p.span.end);
        self.error(
            Diagnostic::error(
                codes::RESOLVE_UNKNOWN_MOMENT,
                self.file,
                span,
                format!("a moment's name is one word: `{joined}`"),
                "not a moment",
            )
            .with_help(format!("write `until {joined}`")),
        );
    }

    /// The id of the declared moment of this name, or a diagnostic with a did-you-mean.
    pub(super) fn moment_named(&mut self, m: &ast::Ident) -> Option<ir::Id> {
        let sym: &'a Symbols = self.sym;
        self.declared(&sym.moments, codes::RESOLVE_UNKNOWN_MOMENT, "moment", m)
            .cloned()
    }

    /// The declared event of this name, or a diagnostic with a did-you-mean.
    pub(super) fn event_named(&mut self, ev: &ast::Ident) -> Option<&'a Callable> {
        let sym: &'a Symbols = self.sym;
        self.declared(&sym.events, codes::RESOLVE_UNKNOWN_EVENT, "event", ev)
    }

    /// A keyword with its values (`ward 1`), checked against its declaration.
    pub(super) fn keyword(&mut self, k: &ast::KeywordRef) -> Option<(ir::Id, Vec<Expr>)> {
        let sym: &'a Symbols = self.sym;
        let kw = self.declared(
            &sym.keywords,
            codes::RESOLVE_UNKNOWN_KEYWORD,
            "keyword",
            &k.name,
        )?;
        self.check_keyword_arity(k, kw);
        let args = k.args.iter().map(|a| self.number(a)).collect();
        Some((kw.id, args))
    }

    /// Reports a keyword given more values than it declares, or fewer than it needs.
    fn check_keyword_arity(&mut self, k: &ast::KeywordRef, kw: &Callable) {
        let given = k.args.len();
        let needed = kw
            .params
            .iter()
            .filter(|p| !p.optional && !p.has_default)
            .count();
        if given <= kw.params.len() && given >= needed {
            return;
        }
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
}
