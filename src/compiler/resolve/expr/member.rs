//! Members: `event.parameter`, a player's zones and counters, a card's stats, counters,
//! relations, keyword values and fields.

use super::{bx, invalid, short, zone_value};
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::Span;
use crate::compiler::ast::{self, ExprKind};
use crate::compiler::resolve::scope::{names_in, Ctx, Ty};
use crate::compiler::resolve::symbols::{CounterSym, Symbols};
use crate::ir::{Expr, FieldType, Type};

impl Ctx<'_> {
    /// `base.name`: dispatched on what `base` is (the event, a player, a card, …).
    pub(super) fn resolve_member(&mut self, base: &ast::Expr, name: &ast::Ident) -> (Expr, Ty) {
        let reads_event = matches!(&base.kind, ExprKind::Name(n) if n.name == "event")
            && !self.scopes.iter().flatten().any(|l| l.name == "event");
        if reads_event {
            return self.resolve_event_member(base, name);
        }
        let (b, ty) = self.expr(base);
        match ty {
            Ty::Unknown => {
                if let Some(z) = self.sym.zones.get(&name.name) {
                    return zone_value(&z.id, Some(b));
                }
                self.card_member(b, &name.name).unwrap_or_else(invalid)
            }
            Ty::Of(Type::Player, _) => self.resolve_player_member(b, name),
            Ty::Players => self.resolve_players_member(b, name, base.span),
            Ty::Of(Type::Card, _) => match self.card_member(b, &name.name) {
                Some(r) => r,
                None => {
                    self.check_unknown_card_member(name);
                    invalid()
                }
            },
            Ty::Of(Type::Cards, _) => {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_TYPE_MISMATCH,
                        self.file,
                        name.span,
                        format!(
                            "`{}` is read from one card, but this is a set of cards",
                            name.name
                        ),
                        "needs one card",
                    )
                    .with_help("choose one first (`target 1 …`), or use `for each`"),
                );
                invalid()
            }
            other => {
                self.error(Diagnostic::error(
                    codes::RESOLVE_UNKNOWN_MEMBER,
                    self.file,
                    name.span,
                    format!("a {} has no member `{}`", other.describe(), name.name),
                    "no such member",
                ));
                invalid()
            }
        }
    }

    /// `event.name`: a parameter of the event that triggered the ability.
    fn resolve_event_member(&mut self, base: &ast::Expr, name: &ast::Ident) -> (Expr, Ty) {
        let Some(event) = self.event else {
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_UNKNOWN_NAME,
                    self.file,
                    base.span,
                    "no event here: `event` is only available in triggered and replacement \
                     abilities",
                    "no triggering event",
                )
                .with_help("add a `when …` trigger, or pass the value as a parameter"),
            );
            return invalid();
        };
        let Some(p) = event.params.iter().find(|p| p.name == name.name) else {
            let names: Vec<&str> = event.params.iter().map(|p| p.name.as_str()).collect();
            let ev = short(&event.id).to_string();
            self.unknown_in(
                codes::RESOLVE_UNKNOWN_MEMBER,
                &format!("event `{ev}`"),
                "parameter",
                &name.name,
                name.span,
                names,
            );
            return invalid();
        };
        let ty = if p.types.len() == 1 {
            Ty::Of(p.types[0], p.optional)
        } else {
            Ty::Unknown
        };
        (Expr::EventParam(crate::ir::Id::from(&name.name)), ty)
    }

    /// `each.name`: the zone of every player of the set (`each.z`); a counter reads one
    /// player's value, so it is a diagnostic; an unknown name is reported as for one player.
    fn resolve_players_member(&mut self, b: Expr, name: &ast::Ident, base: Span) -> (Expr, Ty) {
        if let Some(z) = self.sym.zones.get(&name.name) {
            return zone_value(&z.id, Some(b));
        }
        if !self.sym.counters.contains_key(&name.name) {
            return self.resolve_player_member(b, name);
        }
        self.player_set_misplaced(base, &format!("the player whose `{}` is read", name.name));
        invalid()
    }

    /// `player.name`: one of the player's zones, or a counter kept on players.
    fn resolve_player_member(&mut self, b: Expr, name: &ast::Ident) -> (Expr, Ty) {
        if let Some(z) = self.sym.zones.get(&name.name) {
            return zone_value(&z.id, Some(b));
        }
        if let Some(c) = self.sym.counters.get(&name.name).filter(|c| c.on_players) {
            return (
                Expr::Counter {
                    of: bx(b),
                    counter: c.id,
                },
                Ty::of(Type::Number),
            );
        }
        let sym: &Symbols = self.sym;
        let names: Vec<&str> = sym
            .zones
            .keys()
            .map(String::as_str)
            .chain(counter_names(sym, |c| c.on_players))
            .collect();
        let (code, what) = if self.sym.stats.contains_key(&name.name) {
            (codes::RESOLVE_UNKNOWN_MEMBER, "player member")
        } else {
            (codes::RESOLVE_UNKNOWN_ZONE, "zone")
        };
        self.unknown(code, what, &name.name, name.span, names);
        invalid()
    }

    /// Reports a member no card has, suggesting among everything a card has.
    fn check_unknown_card_member(&mut self, name: &ast::Ident) {
        let sym: &Symbols = self.sym;
        let names: Vec<&str> = sym
            .stats
            .keys()
            .map(String::as_str)
            .chain(counter_names(sym, |c| c.on_cards))
            .chain(names_in(&sym.field_names, &sym.relations))
            .chain(["name", "number"])
            .collect();
        self.unknown(
            codes::RESOLVE_UNKNOWN_MEMBER,
            "card member",
            &name.name,
            name.span,
            names,
        );
    }

    /// `card.member` for a stat, counter or field; `None` if no such member.
    pub(super) fn card_member(&mut self, of: Expr, name: &str) -> Option<(Expr, Ty)> {
        if let Some(s) = self.sym.stats.get(name) {
            let ty = if s.components > 0 {
                Type::Pair
            } else {
                Type::Number
            };
            return Some((
                Expr::Stat {
                    of: bx(of),
                    stat: s.id,
                },
                Ty::of(ty),
            ));
        }
        if let Some(r) = self.sym.relations.get(name) {
            return Some((
                Expr::Related {
                    of: bx(of),
                    relation: crate::ir::Id::from(r.as_str()),
                },
                Ty::Of(Type::Card, true),
            ));
        }
        if let Some(k) = self.sym.keywords.get(name).filter(|k| !k.params.is_empty()) {
            // `a.ward`: the first value of a keyword with values (absent without it)
            return Some((
                Expr::KeywordValue {
                    card: bx(of),
                    keyword: k.id,
                },
                Ty::Of(Type::Number, true),
            ));
        }
        if let Some(c) = self.sym.counters.get(name).filter(|c| c.on_cards) {
            return Some((
                Expr::Counter {
                    of: bx(of),
                    counter: c.id,
                },
                Ty::of(Type::Number),
            ));
        }
        let field_ty = self.field_type(name)?;
        Some((
            Expr::Field {
                of: bx(of),
                field: crate::ir::Id::from(name),
            },
            field_ty,
        ))
    }

    /// The type of a card field read by name (`name`, `number`, or a field some card type
    /// declares); `None` if no card type has it.
    fn field_type(&self, name: &str) -> Option<Ty> {
        match name {
            "name" | "number" => Some(Ty::of(Type::Text)),
            _ => self
                .sym
                .card_types
                .values()
                .flat_map(|t| t.fields.iter())
                .find(|f| f.name == name)
                .map(|f| match (&f.ty, f.list) {
                    (FieldType::Text, true) => Ty::TextList,
                    (FieldType::Text, false) => Ty::of(Type::Text),
                    (FieldType::Bool, _) => Ty::of(Type::Bool),
                    _ => Ty::of(Type::Number),
                }),
        }
    }
}

/// The names of the counters `kept` selects (those kept on players, or on cards).
fn counter_names(sym: &Symbols, kept: fn(&CounterSym) -> bool) -> impl Iterator<Item = &str> {
    sym.counters
        .iter()
        .filter(move |(_, c)| kept(c))
        .map(|(n, _)| n.as_str())
}
