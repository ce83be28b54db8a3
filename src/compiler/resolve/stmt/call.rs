//! Statements that call by name: verbs, procedures, layers applied by name, and the
//! arguments they are given.

use crate::base::diagnostic::{codes, did_you_mean, edit_distance, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast;
use crate::compiler::resolve::scope::{Ctx, Ty};
use crate::compiler::resolve::symbols::{Callable, ParamSig, Symbols};
use crate::ir::{Expr, Stmt, Type};

/// Fixed words that may end the previous statement: a misspelt `effect` after `negate x`
/// reads as a call, so they are candidates for an unknown verb's did-you-mean — one edit away
/// only (`effetc`), so that a word of the game's is never met with `text`.
const STATEMENT_TAIL_WORDS: [&str; 7] = [
    "text",
    "effect",
    "all",
    "face_up",
    "face_down",
    "top",
    "bottom",
];

impl<'a> Ctx<'a> {
    /// `name(args) [for duration]`: a verb, a layer applied by name, or a procedure.
    pub(super) fn resolve_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Arg],
        dur: &Option<ast::Duration>,
        span: Span,
    ) -> Option<Stmt> {
        let sym: &'a Symbols = self.sym;
        if let Some(verb) = sym.verbs.get(name.name.as_str()) {
            let (args, sets) = self.args(verb, &format!("verb `{}`", name.name), args, span);
            let duration = dur.as_ref().map(|_| self.duration(dur));
            return Some(per_player(
                Stmt::Call {
                    verb: verb.id,
                    args,
                    duration,
                },
                sets,
            ));
        }
        if let Some((layer, true)) = sym.layers.get(name.name.as_str()) {
            return self.resolve_layer_call(layer, name, args, dur, span);
        }
        if let Some(p) = sym.procedures.get(name.name.as_str()) {
            let (args, sets) = self.args(p, &format!("procedure `{}`", name.name), args, span);
            return Some(per_player(
                Stmt::Call {
                    verb: p.id,
                    args,
                    duration: None,
                },
                sets,
            ));
        }
        self.check_unknown_verb(name, args);
        None
    }

    /// A layer applied by name to one stat: `invert this.strength [until …]`.
    fn resolve_layer_call(
        &mut self,
        layer: &str,
        name: &ast::Ident,
        args: &[ast::Arg],
        dur: &Option<ast::Duration>,
        span: Span,
    ) -> Option<Stmt> {
        let [ast::Arg {
            name: None,
            value: target,
        }] = args
        else {
            self.error(Diagnostic::error(
                codes::RESOLVE_WRONG_ARITY,
                self.file,
                span,
                format!(
                    "`{}` takes one stat, as in `{} this.strength`",
                    name.name, name.name
                ),
                "wrong arguments",
            ));
            return None;
        };
        let ast::ExprKind::Member(base, stat_name) = &target.kind else {
            self.error(Diagnostic::error(
                codes::RESOLVE_TYPE_MISMATCH,
                self.file,
                target.span,
                format!(
                    "`{}` applies to a stat, as in `{} this.strength`",
                    name.name, name.name
                ),
                "not a stat",
            ));
            return None;
        };
        let sym: &'a Symbols = self.sym;
        let stat = self.declared(&sym.stats, codes::RESOLVE_UNKNOWN_STAT, "stat", stat_name)?;
        let cards = self.cards(base);
        let duration = self.duration(dur);
        Some(Stmt::Modify {
            cards,
            stat: stat.id,
            layer: crate::ir::Id::from(layer),
            op: name.name.clone(),
            value: None,
            duration,
        })
    }

    /// Reports a call of no verb, procedure or layer, after checking its arguments; suggests
    /// a close name, or says that a variable is not a statement.
    fn check_unknown_verb(&mut self, name: &ast::Ident, args: &[ast::Arg]) {
        let sym: &'a Symbols = self.sym;
        let layers_by_name = sym
            .layers
            .iter()
            .filter(|(_, (_, by_name))| *by_name)
            .map(|(n, _)| n);
        let names: Vec<&str> = sym
            .verbs
            .keys()
            .chain(sym.procedures.keys())
            .chain(layers_by_name)
            .map(String::as_str)
            .collect();
        let tail_word = STATEMENT_TAIL_WORDS
            .into_iter()
            .find(|w| edit_distance(w, &name.name) == 1)
            .map(|w| format!("did you mean `{w}`?"));
        let help = did_you_mean(&name.name, names.iter().copied())
            .or(tail_word)
            .or_else(|| {
                self.lookup(&name.name).map(|_| {
                    format!(
                        "`{}` is a variable; a statement starts with a verb",
                        name.name
                    )
                })
            })
            .or_else(|| {
                crate::compiler::resolve::scope::known_names(names).map(|known| {
                    known.replace(
                        "the names known here",
                        "the verbs and procedures of the game",
                    )
                })
            });
        for a in args {
            self.expr(&a.value);
        }
        self.error(
            Diagnostic::error(
                codes::RESOLVE_UNKNOWN_VERB,
                self.file,
                name.span,
                format!("unknown verb `{}`", name.name),
                "no verb of this name",
            )
            .with_help_opt(help),
        );
    }

    /// Maps positional and named arguments onto parameters, checking arity and types; also
    /// gives the player parameters given a set of players (`each`), in parameter order, for
    /// [`per_player`].
    pub fn args(
        &mut self,
        callee: &Callable,
        what: &str,
        args: &[ast::Arg],
        span: Span,
    ) -> (crate::ir::Map<crate::ir::Id, Expr>, Vec<String>) {
        let mut out = crate::ir::Map::new();
        let mut sets = Vec::new();
        let mut next = 0;
        for a in args {
            let Some(p) = self.arg_param(callee, what, a, &mut next) else {
                continue;
            };
            let (x, ty) = if p.types.contains(&Type::Pair) {
                self.pair_or_expr(&a.value)
            } else {
                self.expr(&a.value)
            };
            self.expect_player_or_set(
                &ty,
                &p.types,
                a.value.span,
                &format!("argument `{}`", p.name),
            );
            if ty == Ty::Players && p.types.contains(&Type::Player) {
                sets.push(p.name.clone());
            }
            out.insert(crate::ir::Id::from(&p.name), x);
        }
        self.check_missing_args(callee, what, &out, span);
        sets.sort_by_key(|n| callee.params.iter().position(|p| &p.name == n));
        (out, sets)
    }

    /// The parameter an argument is for: by its name, else the next positional one (`next`).
    /// `None` after reporting an unknown name or one argument too many (the value is still
    /// checked).
    fn arg_param<'c>(
        &mut self,
        callee: &'c Callable,
        what: &str,
        a: &ast::Arg,
        next: &mut usize,
    ) -> Option<&'c ParamSig> {
        let idx = match &a.name {
            Some(n) => {
                let Some(i) = callee.params.iter().position(|p| p.name == n.name) else {
                    let names: Vec<&str> = callee.params.iter().map(|p| p.name.as_str()).collect();
                    self.unknown_in(
                        codes::RESOLVE_UNKNOWN_ARGUMENT,
                        what,
                        "parameter",
                        &n.name,
                        n.span,
                        names,
                    );
                    self.expr(&a.value);
                    return None;
                };
                i
            }
            None => {
                *next += 1;
                *next - 1
            }
        };
        let p = callee.params.get(idx);
        if p.is_none() {
            self.expr(&a.value);
            self.error(Diagnostic::error(
                codes::RESOLVE_WRONG_ARITY,
                self.file,
                a.value.span,
                format!(
                    "{what} takes {} argument{}",
                    callee.params.len(),
                    if callee.params.len() == 1 { "" } else { "s" }
                ),
                "one too many",
            ));
        }
        p
    }

    /// Reports each required parameter (no default, not optional) that got no argument.
    fn check_missing_args(
        &mut self,
        callee: &Callable,
        what: &str,
        given: &crate::ir::Map<crate::ir::Id, Expr>,
        span: Span,
    ) {
        for p in &callee.params {
            if !given.contains_key(p.name.as_str()) && !p.optional && !p.has_default {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_WRONG_ARITY,
                        self.file,
                        span,
                        format!("{what} is missing argument `{}`", p.name),
                        "missing an argument",
                    )
                    .with_help(format!("pass `{}: …`", p.name)),
                );
            }
        }
    }
}

/// `stmt` (a call or an emit) done once per player for each parameter in `sets` given a set of
/// players: `draw(2, each)` is `for each p in each player { draw(2, p) }`, the other arguments
/// read anew for each player; two such parameters nest, the first outermost. The loop variable
/// is named `<parameter> of each`, a name no card can write.
pub(in crate::compiler::resolve) fn per_player(mut stmt: Stmt, sets: Vec<String>) -> Stmt {
    let mut loops = Vec::new();
    if let Stmt::Call { args, .. } | Stmt::Emit { args, .. } = &mut stmt {
        for param in sets {
            let var = format!("{param} of each");
            if let Some(set) = args.insert(
                crate::ir::Id::from(&param),
                Expr::Var(crate::ir::Id::from(&var)),
            ) {
                loops.push((var, set));
            }
        }
    }
    for (var, set) in loops.into_iter().rev() {
        stmt = Stmt::ForEach {
            var: var.into(),
            cards: set,
            body: vec![stmt],
        };
    }
    stmt
}
