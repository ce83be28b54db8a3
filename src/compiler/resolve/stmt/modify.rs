//! Changing a stat (`x.strength += 1 until …`) or a counter (`you.life -= 2`).

use super::{backticked, duration_span};
use crate::base::diagnostic::{codes, Diagnostic};
use crate::compiler::ast;
use crate::compiler::resolve::scope::{names_in, Ctx, Ty};
use crate::compiler::resolve::symbols::{CounterSym, StatSym, Symbols};
use crate::ir::{Expr, Stmt, Type};

impl<'a> Ctx<'a> {
    /// `subject.member op value`: a stat change, a counter change, or an unknown member.
    pub(super) fn resolve_modify(&mut self, m: &ast::Modify) -> Option<Stmt> {
        let sym: &'a Symbols = self.sym;
        if let Some(stat) = sym.stats.get(&m.member.name) {
            return self.resolve_stat_change(m, stat);
        }
        if let Some(c) = sym.counters.get(&m.member.name) {
            return Some(self.resolve_counter_change(m, c));
        }
        let names: Vec<&str> = names_in(&sym.stats, &sym.counters).collect();
        self.expr(&m.subject);
        if sym.field_names.contains_key(&m.member.name) {
            // `this.price += 1`: a printed field, which no effect changes
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_UNKNOWN_STAT,
                    self.file,
                    m.member.span,
                    format!("`{}` is a field, not a stat or counter", m.member.name),
                    "a field can't be changed",
                )
                .with_help(format!(
                    "a card's fields are what it prints, read with `x.{0}`; only stats and \
                     counters change ({1}): declare `{0}` as a `stat` to change it",
                    m.member.name,
                    {
                        let mut n = names.clone();
                        n.sort_unstable();
                        n.join(", ")
                    }
                )),
            );
            return None;
        }
        self.unknown(
            codes::RESOLVE_UNKNOWN_STAT,
            "stat or counter",
            &m.member.name,
            m.member.span,
            names,
        );
        None
    }

    /// A stat change: the cards, the layer it applies in, the value, the duration.
    fn resolve_stat_change(&mut self, m: &ast::Modify, stat: &StatSym) -> Option<Stmt> {
        let cards = self.typed(&m.subject, &[Type::Cards], "the modified value");
        let layer = self.stat_layer(m)?;
        let value = if stat.components > 0 {
            self.composite_value(m, stat)
        } else {
            self.plain_stat_value(m)?
        };
        let duration = self.duration(&m.duration);
        Some(Stmt::Modify {
            cards,
            stat: stat.id,
            layer,
            op: m.op.0.clone(),
            value: Some(value),
            duration,
        })
    }

    /// The layer a stat change applies in: the one written (`in layer`), else the layer the
    /// ruleset selects by the operator.
    fn stat_layer(&mut self, m: &ast::Modify) -> Option<crate::ir::Id> {
        let sym: &'a Symbols = self.sym;
        if let Some(l) = &m.layer {
            let (id, _) =
                self.declared(&sym.layers, codes::RESOLVE_UNKNOWN_OPERATOR, "layer", l)?;
            return Some(*id);
        }
        let (op, op_span) = (&m.op.0, m.op.1);
        if let Some(id) = sym.layer_ops.get(op) {
            return Some(*id);
        }
        let mut ops: Vec<&str> = sym.layer_ops.keys().map(String::as_str).collect();
        ops.sort_unstable();
        let help = if ops.is_empty() {
            "the ruleset declares no layer operators".to_string()
        } else {
            format!("the ruleset's operators are {}", backticked(&ops))
        };
        self.error(
            Diagnostic::error(
                codes::RESOLVE_UNKNOWN_OPERATOR,
                self.file,
                op_span,
                format!("no layer of the ruleset is selected by `{op}`"),
                "unknown operator",
            )
            .with_help(help),
        );
        None
    }

    /// The value of a composite stat's change: a pair of its size (`=` with a kept component,
    /// as in `+1/±0`, sets only the other one).
    fn composite_value(&mut self, m: &ast::Modify, stat: &StatSym) -> Expr {
        let (x, ty) = self.pair_or_expr(&m.value);
        if !matches!(ty, Ty::Unknown | Ty::Of(Type::Pair, _)) {
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_TYPE_MISMATCH,
                    self.file,
                    m.value.span,
                    format!(
                        "`{}` is a composite stat: it takes a pair, found {}",
                        m.member.name,
                        ty.describe()
                    ),
                    "not a pair",
                )
                .with_help(
                    "write a pair such as `+1/+1`, or `+1/±0` to leave the second part alone",
                ),
            );
        }
        if let Expr::Pair(parts) = &x {
            if parts.len() != stat.components {
                self.error(Diagnostic::error(
                    codes::RESOLVE_TYPE_MISMATCH,
                    self.file,
                    m.value.span,
                    format!(
                        "`{}` has {} components, this pair has {}",
                        m.member.name,
                        stat.components,
                        parts.len()
                    ),
                    "wrong size",
                ));
            }
        }
        x
    }

    /// The value of a plain stat's change: a number; `None` after reporting a pair.
    fn plain_stat_value(&mut self, m: &ast::Modify) -> Option<Expr> {
        if let ast::ExprKind::Pair(..) = m.value.kind {
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_PAIR_NOT_ALLOWED,
                    self.file,
                    m.value.span,
                    format!(
                        "`{}` is not a composite stat: a pair is not allowed here",
                        m.member.name
                    ),
                    "a pair",
                )
                .with_help("write a single number"),
            );
            return None;
        }
        Some(self.number(&m.value))
    }

    /// A counter change: on what the counter may be kept, with `=`, `+=` or `-=` and no
    /// duration or layer.
    fn resolve_counter_change(&mut self, m: &ast::Modify, c: &CounterSym) -> Stmt {
        let mut allowed = Vec::new();
        if c.on_players {
            allowed.push(Type::Player);
        }
        if c.on_cards {
            allowed.push(Type::Cards);
        }
        let (subject, ty) = self.expr(&m.subject);
        self.expect_player_or_set(&ty, &allowed, m.subject.span, "the counted value");
        let (op, op_span) = (&m.op.0, m.op.1);
        if !matches!(op.as_str(), "=" | "+=" | "-=") {
            self.error(Diagnostic::error(
                codes::RESOLVE_UNKNOWN_OPERATOR,
                self.file,
                op_span,
                format!("counters take `=`, `+=` or `-=`, not `{op}`"),
                "not a counter operator",
            ));
        }
        self.check_counter_clauses(m);
        let value = self.number(&m.value);
        Stmt::Count {
            subject,
            counter: c.id,
            op: op.clone(),
            value,
        }
    }

    /// Reports a duration or layer written on a counter change (the first of them).
    fn check_counter_clauses(&mut self, m: &ast::Modify) {
        let extra = m
            .duration
            .as_ref()
            .map(duration_span)
            .or(m.layer.as_ref().map(|l| l.span));
        let Some(span) = extra else {
            return;
        };
        self.error(
            Diagnostic::error(
                codes::RESOLVE_INVALID_CLAUSE,
                self.file,
                span,
                format!(
                    "a counter change has no duration or layer: `{}` is a counter",
                    m.member.name
                ),
                "not for counters",
            )
            .with_help("counters are plain numbers: remove this"),
        );
    }
}
