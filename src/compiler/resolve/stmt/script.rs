//! `script f(args)`: a call of a function of the pack's scripts (or its required packs').

use super::super::scope::{Ctx, Ty};
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast;
use crate::ir::{Stmt, Type};

impl Ctx<'_> {
    /// `script f(args)`: `f` must be a function of a script the pack sees, taking as many
    /// arguments as are given; each argument a number, truth value, text, card, cards or player.
    pub(super) fn resolve_script(
        &mut self,
        function: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Stmt> {
        let mut lowered = Vec::new();
        for a in args {
            let (e, ty) = self.expr(a);
            self.check_script_arg(a, &ty);
            lowered.push(e);
        }
        let sym = self.sym;
        let Some(defs) = sym.script_functions.get(&function.name) else {
            let known: Vec<&str> = sym.script_functions.keys().map(String::as_str).collect();
            self.unknown(
                codes::RESOLVE_UNKNOWN_SCRIPT_FUNCTION,
                "script function",
                &function.name,
                function.span,
                known,
            );
            return None;
        };
        let Some(def) = defs.iter().find(|d| d.arity == args.len()) else {
            let takes: Vec<String> = defs
                .iter()
                .map(|d| {
                    let s = if d.arity == 1 { "" } else { "s" };
                    format!("{} argument{s} (in `{}`)", d.arity, d.path)
                })
                .collect();
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_WRONG_ARITY,
                    self.file,
                    span,
                    format!(
                        "script function `{}` takes {}, not {}",
                        function.name,
                        takes.join(" or "),
                        args.len()
                    ),
                    "wrong number of arguments",
                )
                .with_help("give the function one argument per parameter, in order"),
            );
            return None;
        };
        Some(Stmt::Script {
            function: def.id.clone().into(),
            args: lowered,
        })
    }

    /// An argument a script can take: a number, truth value, text, card, cards or player.
    fn check_script_arg(&mut self, a: &ast::Expr, ty: &Ty) {
        let ok = match ty {
            Ty::Of(t, _) => matches!(
                t,
                Type::Number | Type::Bool | Type::Text | Type::Card | Type::Cards | Type::Player
            ),
            Ty::Unknown => true,
            Ty::TextList | Ty::Players => false,
        };
        if !ok {
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_TYPE_MISMATCH,
                    self.file,
                    a.span,
                    format!("a script cannot take {}", ty.describe()),
                    "not a script argument",
                )
                .with_help("a script takes numbers, truth values, texts, cards and players"),
            );
        }
    }
}
