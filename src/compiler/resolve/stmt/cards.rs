//! What happens to cards: moves, attachments, states, keywords, negation, reveals and
//! looks, flips, `treat … as`, `becomes`, and resolving abilities of a kind.

use super::face;
use crate::base::diagnostic::{codes, Diagnostic};
use crate::compiler::ast;
use crate::compiler::resolve::scope::{names_in, Ctx};
use crate::compiler::resolve::symbols::{CardTypeSym, Symbols, ZoneSym};
use crate::ir::{self, Expr, FieldType, Stmt, Type};

/// What a keyword statement does to the cards: `grant` the keyword, or `remove` it.
#[derive(Clone, Copy)]
pub(super) enum KeywordChange {
    /// `grant keyword to cards`.
    Grant,
    /// `remove keyword from cards`.
    Remove,
}

impl<'a> Ctx<'a> {
    /// `move cards to zone [top|bottom] [face_up|face_down] [as state] [in slot]`.
    pub(super) fn resolve_move(
        &mut self,
        what: &ast::Expr,
        to: &ast::Expr,
        opts: &ast::MoveOptions,
    ) -> Stmt {
        let cards = self.cards(what);
        let to = self.destination(to);
        let sym: &'a Symbols = self.sym;
        let state = opts
            .state
            .as_ref()
            .and_then(|st| self.declared(&sym.states, codes::RESOLVE_UNKNOWN_STATE, "state", st))
            .map(|s| s.id);
        let slot = opts.slot.as_ref().map(|e| self.slot(e, &to));
        Stmt::Move {
            cards,
            to,
            position: opts.top.map(|top| {
                if top {
                    ir::Position::Top
                } else {
                    ir::Position::Bottom
                }
            }),
            face: opts.face_up.map(face),
            state,
            slot,
        }
    }

    /// A move destination: a zone, or a bare zone name.
    fn destination(&mut self, e: &ast::Expr) -> Expr {
        self.zone(e)
    }

    /// A slot of the destination `to`: a declared slot name (of that zone, when the
    /// destination names one with slots), or a text expression naming one (`event.slot`).
    fn slot(&mut self, e: &ast::Expr, to: &Expr) -> Expr {
        let sym: &'a Symbols = self.sym;
        let dest = match to {
            Expr::Zone { zone, .. } => sym.zones.values().find(|z| z.id == *zone),
            _ => None,
        };
        let zones: Vec<&ZoneSym> = match dest {
            Some(z) if !z.slots.is_empty() => vec![z],
            _ => sym.zones.values().collect(),
        };
        if let ast::ExprKind::Name(n) = &e.kind {
            if self.lookup(&n.name).is_none() {
                if !zones.iter().any(|z| z.slots.contains(&n.name)) {
                    // a slot name, or a text value in scope misspelt (`at sq` for `at s`)
                    let locals = self.local_names();
                    let names: Vec<&str> = zones
                        .iter()
                        .flat_map(|z| z.slots.iter().map(String::as_str))
                        .chain(locals.iter().map(String::as_str))
                        .collect();
                    self.unknown(
                        codes::RESOLVE_UNKNOWN_OPTION,
                        "slot",
                        &n.name,
                        n.span,
                        names,
                    );
                }
                return Expr::Text(n.name.clone());
            }
        }
        self.typed(e, &[Type::Text], "a slot")
    }

    /// `attach card to host`.
    pub(super) fn resolve_attach(&mut self, card: &ast::Expr, host: &ast::Expr) -> Stmt {
        let card = self.typed(card, &[Type::Card], "the card set");
        let host = self.typed(host, &[Type::Card], "the host");
        Stmt::Attach { card, host }
    }

    /// `clear state from cards`: only a flag state can be cleared (a state of a group is left by
    /// entering another one).
    pub(super) fn resolve_clear(&mut self, what: &ast::Expr, state: &ast::Ident) -> Option<Stmt> {
        let cards = self.cards(what);
        match self.sym.states.get(&state.name) {
            Some(st) if st.flag => Some(Stmt::ClearState {
                cards,
                state: st.id,
            }),
            Some(_) => {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_UNKNOWN_STATE,
                        self.file,
                        state.span,
                        format!(
                            "`{}` belongs to a group of states and cannot be cleared",
                            state.name
                        ),
                        "not a flag state",
                    )
                    .with_help("put the card in another state of its group with `becomes`"),
                );
                None
            }
            None => {
                let flags: Vec<&str> = self
                    .sym
                    .states
                    .iter()
                    .filter(|(_, s)| s.flag)
                    .map(|(n, _)| n.as_str())
                    .collect();
                self.unknown(
                    codes::RESOLVE_UNKNOWN_STATE,
                    "state",
                    &state.name,
                    state.span,
                    flags,
                );
                None
            }
        }
    }

    /// `grant keyword to cards [for duration]`, or `remove keyword from cards [for duration]`
    /// (the keyword's values are checked, not kept); checked in this order: the cards, the
    /// duration, the keyword.
    pub(super) fn resolve_keyword_change(
        &mut self,
        change: KeywordChange,
        k: &ast::KeywordRef,
        target: &ast::Expr,
        dur: &Option<ast::Duration>,
    ) -> Option<Stmt> {
        if self.sym.player_keywords.contains(&k.name.name) {
            return self.resolve_player_keyword(change, k, target, dur);
        }
        let cards = self.cards(target);
        let duration = self.duration(dur);
        let (keyword, args) = self.keyword(k)?;
        Some(match change {
            KeywordChange::Grant => Stmt::Grant {
                keyword,
                args,
                cards,
                duration,
            },
            KeywordChange::Remove => Stmt::RemoveKeyword {
                keyword,
                cards,
                duration,
            },
        })
    }

    /// `grant k to players [duration]` / `remove k from players` for a keyword declared
    /// `= player` (PMV 6.3.8): the target is players, not cards.
    fn resolve_player_keyword(
        &mut self,
        change: KeywordChange,
        k: &ast::KeywordRef,
        target: &ast::Expr,
        dur: &Option<ast::Duration>,
    ) -> Option<Stmt> {
        let players = self.player(target);
        let duration = self.duration(dur);
        let (keyword, _) = self.keyword(k)?;
        Some(Stmt::PlayerKeyword {
            keyword,
            players,
            grant: matches!(change, KeywordChange::Grant),
            duration,
        })
    }

    /// `look at cards [by player]` (`you` by default).
    pub(super) fn resolve_look(&mut self, e: &ast::Expr, by: &Option<ast::Expr>) -> Stmt {
        let cards = self.cards(e);
        let by = by.as_ref().map(|b| self.player(b)).unwrap_or(Expr::You);
        Stmt::Look { cards, by }
    }

    /// `negate cards [text|effect] [all] [for duration]`.
    pub(super) fn resolve_negate(
        &mut self,
        e: &ast::Expr,
        effect: Option<bool>,
        all: bool,
        dur: &Option<ast::Duration>,
    ) -> Stmt {
        let cards = self.cards(e);
        let scope = if effect == Some(true) {
            ir::NegateScope::Effect
        } else {
            ir::NegateScope::Text
        };
        let duration = self.duration(dur);
        Stmt::Negate {
            cards,
            scope,
            include_unnegatable: all,
            duration,
        }
    }

    /// `treat cards as card_type { field: value … }`: the fields checked against the type.
    pub(super) fn resolve_treat(
        &mut self,
        e: &ast::Expr,
        ty: &ast::Ident,
        fields: &[ast::FieldEntry],
    ) -> Option<Stmt> {
        let cards = self.cards(e);
        let sym: &'a Symbols = self.sym;
        let t = self.declared(
            &sym.card_types,
            codes::RESOLVE_UNKNOWN_CARD_TYPE,
            "card type",
            ty,
        )?;
        let mut out = crate::ir::Map::new();
        for f in fields {
            let Some(schema) = t.fields.iter().find(|sf| sf.name == f.name.name) else {
                self.check_treat_field_unknown(t, ty, f);
                continue;
            };
            let Some(ast::FieldValue::Expr(v)) = f.values.first() else {
                continue;
            };
            let x = self.treat_field_value(&schema.ty, v);
            out.insert(crate::ir::Id::from(&f.name.name), x);
        }
        Some(Stmt::TreatAs {
            cards,
            card_type: t.id,
            fields: out,
        })
    }

    /// Reports a field that the card type `t` (written `ty`) does not declare.
    fn check_treat_field_unknown(&mut self, t: &CardTypeSym, ty: &ast::Ident, f: &ast::FieldEntry) {
        let names: Vec<&str> = t.fields.iter().map(|sf| sf.name.as_str()).collect();
        self.unknown_in(
            codes::CHECK_UNKNOWN_FIELD,
            &format!("card type `{}`", ty.name),
            "field",
            &f.name.name,
            f.name.span,
            names,
        );
    }

    /// A field's value in `treat … as`, typed by the field's schema.
    fn treat_field_value(&mut self, field_ty: &FieldType, v: &ast::Expr) -> Expr {
        match field_ty {
            FieldType::Stat(id)
                if self
                    .sym
                    .stats
                    .values()
                    .any(|s| &s.id == id && s.components > 0) =>
            {
                let (x, vt) = self.pair_or_expr(v);
                self.expect(&vt, &[Type::Pair], v.span, "a composite stat");
                x
            }
            FieldType::Text => self.typed(v, &[Type::Text], "this field"),
            FieldType::Bool => self.cond(v),
            _ => self.number(v),
        }
    }

    /// `subject becomes name [for duration]`: cards enter a state, or a zone takes another
    /// zone's role.
    pub(super) fn resolve_becomes(
        &mut self,
        subject: &ast::Expr,
        name: &ast::Ident,
        dur: &Option<ast::Duration>,
    ) -> Option<Stmt> {
        let duration = self.duration(dur);
        let sym: &'a Symbols = self.sym;
        if let Some(st) = sym.states.get(&name.name) {
            if let Some(d) = dur {
                self.report_state_duration(name, d);
            }
            return Some(Stmt::SetState {
                cards: self.cards(subject),
                state: st.id,
                duration,
            });
        }
        if let Some(z) = sym.zones.get(&name.name) {
            return Some(Stmt::AliasZone {
                zone: self.zone(subject),
                becomes: z.id,
                duration,
            });
        }
        self.expr(subject);
        self.unknown(
            codes::RESOLVE_UNKNOWN_STATE,
            "state or zone",
            &name.name,
            name.span,
            names_in(&sym.states, &sym.zones),
        );
        None
    }

    /// Reports a duration written on a state change (`c becomes <state> until …`): the
    /// engine keeps no duration for a state, so it would be ignored.
    fn report_state_duration(&mut self, name: &ast::Ident, d: &ast::Duration) {
        self.error(
            Diagnostic::error(
                codes::RESOLVE_INVALID_CLAUSE,
                self.file,
                super::duration_span(d),
                format!("a state change has no duration: `{}` is a state", name.name),
                "not for states",
            )
            .with_help(
                "a card stays in a state until something changes it: remove this, and undo \
                 the change where it should end (a triggered ability, a rule)",
            ),
        );
    }

    /// `resolve kind of cards`: the abilities of one declared kind, run now.
    pub(super) fn resolve_abilities_of(
        &mut self,
        kind: &ast::Ident,
        cards: &ast::Expr,
    ) -> Option<Stmt> {
        let cards = self.cards(cards);
        let sym: &'a Symbols = self.sym;
        let k = self.declared(
            &sym.kinds,
            codes::RESOLVE_UNKNOWN_ABILITY_KIND,
            "ability kind",
            kind,
        )?;
        Some(Stmt::Resolve { kind: k.id, cards })
    }
}
