//! Slots: `cards at <slot or group>`, `choose 1 slot of <zone> …`, and the names of candidate
//! slots in a slot choice's condition.

use super::bx;
use crate::base::diagnostic::{codes, did_you_mean, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast::{self, ExprKind, Quantity};
use crate::compiler::resolve::scope::{Ctx, Ty};
use crate::compiler::resolve::symbols::ZoneSym;
use crate::ir::{Expr, Type};

/// A zone as a slot name is checked against: its name in the source and its symbol.
type ZoneRef<'s> = Option<(&'s str, &'s ZoneSym)>;

/// The zone a card set's cards come from, when the IR names one zone (`unit on
/// your.lanes where …` comes from `lanes`).
fn zone_of(cards: &Expr) -> Option<&str> {
    match cards {
        Expr::Zone { zone, .. } => Some(zone),
        Expr::Filter { cards, .. }
        | Expr::AtSlot { cards, .. }
        | Expr::Extreme { cards, .. }
        | Expr::TopOf { zone: cards, .. }
        | Expr::Choose { from: cards, .. }
        | Expr::RandomCards { from: cards, .. } => zone_of(cards),
        _ => None,
    }
}

impl<'a> Ctx<'a> {
    /// `cards at name`: the cards in that slot, or a slot of that group, of their zone. A bare
    /// name is a slot or group of the cards' zone when it is one, else a text value (a
    /// variable); any other name is an error.
    pub(super) fn resolve_at(&mut self, l: &ast::Expr, r: &ast::Expr) -> (Expr, Ty) {
        let cards = self.cards(l);
        let zone = zone_of(&cards).and_then(|id| self.zone_by_id(id));
        let slot = self.slot_name(r, zone);
        (
            Expr::AtSlot {
                cards: bx(cards),
                slot: bx(slot),
            },
            Ty::of(Type::Cards),
        )
    }

    /// The zone of a qualified id, with its name.
    fn zone_by_id(&self, id: &str) -> ZoneRef<'a> {
        let sym: &'a crate::compiler::resolve::symbols::Symbols = self.sym;
        sym.zones
            .iter()
            .find(|(_, z)| z.id == id)
            .map(|(n, z)| (n.as_str(), z))
    }

    /// A slot or group name read in `zone` (when known): a bare name of one of its slots or
    /// groups is that name as a text; any other expression must be a text (a variable, a
    /// parameter, `event.slot`). A zone without slots is an error.
    fn slot_name(&mut self, e: &ast::Expr, zone: ZoneRef<'a>) -> Expr {
        if let Some((name, z)) = zone {
            if z.slots.is_empty() {
                self.error(Diagnostic::error(
                    codes::RESOLVE_UNKNOWN_SLOT,
                    self.file,
                    e.span,
                    format!("zone `{name}` has no slots"),
                    "no slot to read here",
                ));
                return Expr::Text(String::new());
            }
        }
        if let ExprKind::Name(n) = &e.kind {
            if let Some(text) = self.declared_slot(n, zone) {
                return text;
            }
        }
        self.typed(e, &[Type::Text], "a slot")
    }

    /// A bare name after `at`: the slot or group of that name (a text), or `None` when the name
    /// is a value in scope. Else an error: a name of no slot or group of `zone` (with a
    /// did-you-mean), or, with no zone known, of no zone.
    fn declared_slot(&mut self, n: &ast::Ident, zone: ZoneRef<'a>) -> Option<Expr> {
        let text = Expr::Text(n.name.clone());
        let names = |z: &'a ZoneSym| z.slots.iter().chain(&z.groups).map(String::as_str);
        match zone {
            Some((_, z)) if names(z).any(|s| s == n.name) => return Some(text),
            None if self
                .sym
                .zones
                .values()
                .any(|z| names(z).any(|s| s == n.name)) =>
            {
                return Some(text)
            }
            _ => {}
        }
        if self.is_value_name(&n.name) {
            return None;
        }
        // a slot or group name, or a value in scope misspelt (`at sq` for `at s`)
        let locals = self.local_names();
        let mut values: Vec<&str> = locals.iter().map(String::as_str).collect();
        values.extend(self.candidates.iter().map(|(n, _)| n.as_str()));
        values.extend(
            self.slot_candidates
                .iter()
                .filter_map(|(n, _)| n.as_deref()),
        );
        let (message, mut candidates): (String, Vec<&str>) = match zone {
            Some((name, z)) => (
                format!("zone `{name}` has no slot or group `{}`", n.name),
                names(z).collect(),
            ),
            None => (
                format!("no zone has a slot or group `{}`", n.name),
                self.sym.zones.values().flat_map(names).collect(),
            ),
        };
        candidates.extend(values);
        self.error(
            Diagnostic::error(
                codes::RESOLVE_UNKNOWN_SLOT,
                self.file,
                n.span,
                message,
                "no such slot",
            )
            .with_help_opt(did_you_mean(&n.name, candidates)),
        );
        Some(text)
    }

    /// Whether a bare name is a value in scope: a local, or a named filter candidate.
    fn is_value_name(&mut self, name: &str) -> bool {
        self.candidates.iter().any(|(n, _)| n == name)
            || self
                .slot_candidates
                .iter()
                .any(|(n, _)| n.as_deref() == Some(name))
            || self.lookup(name).is_some()
    }

    /// A filter candidate named `name` (`where c:` on cards, `where s:` on slots), the one
    /// named innermost: a card, or a slot's name.
    pub(super) fn named_candidate(&self, name: &str) -> Option<(Expr, Ty)> {
        let card = self
            .candidates
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|&(_, depth)| depth);
        let slot = self
            .slot_candidates
            .iter()
            .enumerate()
            .rev()
            .find(|(_, (n, _))| n.as_deref() == Some(name))
            .map(|(i, &(_, depth))| (i, depth));
        // a card filter nested in a slot condition is deeper than the condition
        match (card, slot) {
            (Some(dc), Some((_, ds))) if dc > ds => Some(self.card_candidate(dc)),
            (_, Some((i, _))) => {
                let out = self.slot_candidates.len().saturating_sub(i + 1);
                let out = u32::try_from(out).unwrap_or(u32::MAX);
                Some((Expr::SlotCandidate(out), Ty::of(Type::Text)))
            }
            (Some(dc), None) => Some(self.card_candidate(dc)),
            (None, None) => None,
        }
    }

    /// The card candidate of the filter at `depth`, counted out from the innermost filter.
    fn card_candidate(&self, depth: usize) -> (Expr, Ty) {
        let out = u32::try_from(self.filter_depth.saturating_sub(depth)).unwrap_or(u32::MAX);
        (Expr::Candidate(out), Ty::of(Type::Card))
    }

    /// `choose [who] 1|up to 1 slot of zone [at name] [where s: condition]`: a slot's name
    /// (absent when none fits or an `up to` choice is declined).
    pub(super) fn resolve_slot_choice(&mut self, c: &ast::SlotChoice, span: Span) -> (Expr, Ty) {
        if c.kind != ast::ChoiceKind::Choose {
            self.invalid_slot_choice(span, "only `choose` picks a slot");
        }
        let chooser = match &c.who {
            Some(w) => self.player(w),
            None => Expr::You,
        };
        let optional = self.slot_quantity(&c.quantity, span);
        let zone = self.zone(&c.zone);
        let zsym = match &zone {
            Expr::Zone { zone, .. } => self.zone_by_id(zone),
            _ => None,
        };
        let within = match &c.within {
            Some(w) => Some(bx(self.slot_name(w, zsym))),
            None => {
                if let Some((name, _)) = zsym.filter(|(_, z)| z.slots.is_empty()) {
                    self.error(Diagnostic::error(
                        codes::RESOLVE_UNKNOWN_SLOT,
                        self.file,
                        c.zone.span,
                        format!("zone `{name}` has no slots"),
                        "no slot to choose here",
                    ));
                }
                None
            }
        };
        let condition = c.filter.as_ref().map(|(name, cond)| {
            let binder = name.as_ref().map(|n| n.name.clone());
            self.slot_candidates.push((binder, self.filter_depth));
            let x = self.cond(cond);
            self.slot_candidates.pop();
            bx(x)
        });
        let e = Expr::ChooseSlot {
            chooser: bx(chooser),
            optional,
            zone: bx(zone),
            within,
            condition,
        };
        (e, Ty::Of(Type::Text, true))
    }

    /// A slot choice's quantity: `1` (false) or `up to 1` (true: it may be declined); any
    /// other is an error.
    fn slot_quantity(&mut self, q: &Quantity, span: Span) -> bool {
        let one = |e: &ast::Expr| matches!(e.kind, ExprKind::Int(1));
        match q {
            Quantity::Exactly(n) if one(n) => false,
            Quantity::UpTo(n) if one(n) => true,
            _ => {
                self.invalid_slot_choice(span, "a slot choice picks `1` or `up to 1` slot");
                false
            }
        }
    }

    /// Reports a slot choice the language does not have.
    fn invalid_slot_choice(&mut self, span: Span, message: &str) {
        self.error(
            Diagnostic::error(
                codes::RESOLVE_INVALID_SLOT_CHOICE,
                self.file,
                span,
                message,
                "not a slot choice",
            )
            .with_help(
                "write `choose 1 slot of <zone>` or `choose up to 1 slot of <zone>` (it gives \
                 one slot's name, a text)",
            ),
        );
    }
}
