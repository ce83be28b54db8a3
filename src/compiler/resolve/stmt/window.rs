//! Windows: who may act, in which order, and what they are offered (actions, or the
//! abilities of an activated kind).

use super::backticked;
use crate::base::diagnostic::{codes, Diagnostic};
use crate::compiler::ast;
use crate::compiler::resolve::scope::{names_in, Ctx, Ty};
use crate::compiler::resolve::symbols::{KindSym, Symbols};
use crate::ir::{self, Expr, Stmt, Type};

impl<'a> Ctx<'a> {
    /// `window [chain] players [once] [unchecked] { entries }`.
    pub(super) fn resolve_window(&mut self, w: &ast::Window) -> Stmt {
        let players = self.resolve_window_players(&w.players);
        let entries = w
            .entries
            .iter()
            .filter_map(|e| self.resolve_window_entry(e))
            .collect();
        Stmt::Window {
            players,
            chain: w.chain,
            once: w.once,
            unchecked: w.unchecked,
            entries,
        }
    }

    /// Who a window lets act: a player, or a list of players in priority order.
    fn resolve_window_players(&mut self, e: &ast::Expr) -> Expr {
        match &e.kind {
            ast::ExprKind::List(items) => Expr::List(
                items
                    .iter()
                    .map(|i| self.resolve_window_player(i))
                    .collect(),
            ),
            _ => {
                let (x, ty) = self.expr(e);
                if ty != Ty::Players {
                    self.expect_window_player(&ty, e);
                }
                x
            }
        }
    }

    /// One of a window's players: a value of type player.
    fn resolve_window_player(&mut self, e: &ast::Expr) -> Expr {
        let (x, ty) = self.expr(e);
        self.expect_window_player(&ty, e);
        x
    }

    /// Reports a window's player `e` of type `ty` that is not one player.
    fn expect_window_player(&mut self, ty: &Ty, e: &ast::Expr) {
        if *ty == Ty::Players {
            self.player_set_misplaced(e.span, "one of a window's listed players");
        } else if !ty.fits(&[Type::Player]) {
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_TYPE_MISMATCH,
                    self.file,
                    e.span,
                    format!(
                        "a window's players must be a player or a list of players, found {}",
                        ty.describe()
                    ),
                    format!("this is {}", ty.describe()),
                )
                .with_help(
                    "name a player or list them in priority order: `window you { … }`, \
                     `window [opponent, you] { … }`",
                ),
            );
        }
    }

    /// One thing a window offers: an action, or the abilities of an activated kind.
    fn resolve_window_entry(&mut self, e: &ast::WindowEntry) -> Option<ir::WindowEntry> {
        let sym: &'a Symbols = self.sym;
        let name = &e.name;
        if let Some(id) = sym.actions.get(&name.name) {
            return self.resolve_action_entry(e, id);
        }
        if let Some(k) = sym.kinds.get(&name.name) {
            return self.resolve_abilities_entry(e, k);
        }
        self.unknown(
            codes::RESOLVE_UNKNOWN_ACTION,
            "action or ability kind",
            &name.name,
            name.span,
            names_in(&sym.actions, &sym.kinds),
        );
        None
    }

    /// An action a window offers (`with` may not follow it).
    fn resolve_action_entry(&mut self, e: &ast::WindowEntry, id: &str) -> Option<ir::WindowEntry> {
        let Some(w) = &e.with else {
            return Some(ir::WindowEntry::Action(crate::ir::Id::from(id)));
        };
        self.error(
            Diagnostic::error(
                codes::RESOLVE_INVALID_WINDOW_ENTRY,
                self.file,
                w.span,
                format!(
                    "`with` selects abilities by attribute, but `{}` is an action",
                    e.name.name
                ),
                "not after an action",
            )
            .with_help(format!(
                "remove `with {}`, or put the condition in the action's `if`",
                w.name
            )),
        );
        None
    }

    /// The abilities of kind `k` a window offers, optionally only those `with` an attribute;
    /// the kind must be activated.
    fn resolve_abilities_entry(
        &mut self,
        e: &ast::WindowEntry,
        k: &KindSym,
    ) -> Option<ir::WindowEntry> {
        if !self.check_activated_kind(&e.name, k.semantics) {
            return None;
        }
        let attribute = match &e.with {
            None => None,
            Some(a) => {
                let sym: &'a Symbols = self.sym;
                let id = self.declared(
                    &sym.attributes,
                    codes::RESOLVE_UNKNOWN_ATTRIBUTE,
                    "attribute",
                    a,
                )?;
                Some(*id)
            }
        };
        Some(ir::WindowEntry::Abilities {
            kind: k.id,
            attribute,
        })
    }

    /// Whether a window entry's kind has activated `semantics`; if not, reports it, listing the
    /// activated kinds the ruleset has.
    fn check_activated_kind(&mut self, name: &ast::Ident, semantics: ir::Semantics) -> bool {
        if semantics == ir::Semantics::Activated {
            return true;
        }
        let mut activated: Vec<&str> = self
            .sym
            .kinds
            .iter()
            .filter(|(_, k)| k.semantics == ir::Semantics::Activated)
            .map(|(n, _)| n.as_str())
            .collect();
        activated.sort_unstable();
        let help = if activated.is_empty() {
            "windows offer actions and activated abilities; the ruleset declares no \
             activated ability kind"
                .to_string()
        } else {
            format!(
                "windows offer actions and activated abilities (here: {}); other kinds \
                 work on their own (triggered ones wait for a `check`)",
                backticked(&activated)
            )
        };
        self.error(
            Diagnostic::error(
                codes::RESOLVE_INVALID_WINDOW_ENTRY,
                self.file,
                name.span,
                format!(
                    "a window offers activated abilities, but `{}` is {}",
                    name.name,
                    semantics_name(semantics)
                ),
                "not an activated kind",
            )
            .with_help(help),
        );
        false
    }
}

/// How an ability kind's semantics reads in a message.
fn semantics_name(s: ir::Semantics) -> &'static str {
    match s {
        ir::Semantics::Activated => "an activated ability kind",
        ir::Semantics::Triggered => "a triggered ability kind",
        ir::Semantics::Continuous => "a continuous ability kind",
        ir::Semantics::Replacement => "a replacement ability kind",
    }
}
