//! Checking cards: header fields against the card type's schema, then each
//! ability against its kind.

use super::scope::{Ctx, Ty};
use super::symbols::{Callable, CardTypeSym, KindSym};
use crate::base::diagnostic::{codes, did_you_mean, Diagnostic, Label};
use crate::compiler::ast::{self, Clause, FieldValue};
use crate::ir::{self, FieldType, Type, Value};
use std::collections::BTreeMap;

/// The fields every card has, read apart from its card type's schema.
const BUILT_IN_FIELDS: [&str; 3] = ["number", "type", "keywords"];

/// A card's header fields by name (the first of each name).
type Fields<'c> = BTreeMap<&'c str, &'c ast::FieldEntry>;

/// A card checked, before its id is qualified.
pub struct CheckedCard {
    /// The IR card (id filled in by the caller).
    pub card: ir::Card,
}

impl<'a> Ctx<'a> {
    /// Checks one card. `None` when its type could not be resolved.
    pub fn card(&mut self, c: &ast::CardDef, number_rules: &[ir::NormRule]) -> Option<CheckedCard> {
        let seen = self.fields_by_name(c);
        let number = self.card_number(c, &seen);
        let type_sym = self.card_type(c, &seen);
        let keywords = self.card_keywords(&seen);
        let mut fields = ir::Map::new();
        let mut stats = ir::Map::new();
        match &type_sym {
            // Without a type there is no schema: still catch names no card type knows.
            None => self.check_untyped_fields(&seen),
            Some(t) => {
                for (name, f) in &seen {
                    let Some((schema, v)) = self.schema_field_value(t, name, f) else {
                        continue;
                    };
                    match &schema.ty {
                        FieldType::Stat(id) => {
                            stats.insert(*id, v);
                        }
                        _ => {
                            fields.insert(ir::Id::from(&schema.name), v);
                        }
                    }
                }
                self.check_required_fields(c, t, &seen);
            }
        }
        let mut abilities: Vec<ir::Ability> =
            c.abilities.iter().filter_map(|a| self.ability(a)).collect();
        abilities.shrink_to_fit();
        let number = number?;
        let t = type_sym?;
        Some(CheckedCard {
            card: ir::Card {
                id: crate::ir::Id::default(),
                normalized_number: crate::ir::normalize::apply(number_rules, &number),
                number,
                name: c.name.value.clone(),
                card_type: t.id,
                fields,
                stats,
                keywords,
                abilities,
            },
        })
    }

    /// A card's header fields by name, the first of each; a field given twice is reported.
    fn fields_by_name<'c>(&mut self, c: &'c ast::CardDef) -> Fields<'c> {
        let mut seen: Fields<'c> = BTreeMap::new();
        for f in &c.fields {
            if let Some(prev) = seen.get(f.name.name.as_str()) {
                self.error(
                    Diagnostic::error(
                        codes::CHECK_DUPLICATE_FIELD,
                        self.file,
                        f.name.span,
                        format!("field `{}` is given twice", f.name.name),
                        "given again here",
                    )
                    .with_related(Label::new(
                        self.file,
                        prev.name.span,
                        "first given here",
                    )),
                );
                continue;
            }
            seen.insert(&f.name.name, f);
        }
        seen
    }

    /// Reports a card without the built-in field `field` (`help`: what to add).
    fn report_missing_field(&mut self, c: &ast::CardDef, field: &str, help: Option<String>) {
        self.error(
            Diagnostic::error(
                codes::CHECK_MISSING_FIELD,
                self.file,
                c.name.span,
                format!("card `{}` has no `{field}`", c.name.value),
                format!("missing `{field}:`"),
            )
            .with_help_opt(help),
        );
    }

    /// The card's `number:`, a string.
    fn card_number(&mut self, c: &ast::CardDef, seen: &Fields<'_>) -> Option<String> {
        let Some(f) = seen.get("number") else {
            self.report_missing_field(c, "number", Some("add `number: \"…\"`".into()));
            return None;
        };
        match f.values.as_slice() {
            [FieldValue::Expr(ast::Expr {
                kind: ast::ExprKind::Str(s),
                ..
            })] => Some(s.clone()),
            _ => {
                self.error(
                    Diagnostic::error(codes::RESOLVE_TYPE_MISMATCH, self.file, f.span, "a card number is a string", "not a string")
                        .with_help("write it in quotes: numbers carry set codes and suffixes, as in `number: \"01-001P\"`"),
                );
                None
            }
        }
    }

    /// The card's `type:`, one declared card type.
    fn card_type(&mut self, c: &ast::CardDef, seen: &Fields<'_>) -> Option<CardTypeSym> {
        let Some(f) = seen.get("type") else {
            let help = self
                .sym
                .card_types
                .keys()
                .min()
                .map(|t| format!("add `type: {t}`"));
            self.report_missing_field(c, "type", help);
            return None;
        };
        match f.values.as_slice() {
            [FieldValue::Word(k)] if k.args.is_empty() => {
                match self.sym.card_types.get(&k.name.name) {
                    Some(t) => Some(t.clone()),
                    None => {
                        self.unknown(
                            codes::RESOLVE_UNKNOWN_CARD_TYPE,
                            "card type",
                            &k.name.name,
                            k.name.span,
                            self.sym.card_types.keys().map(String::as_str),
                        );
                        None
                    }
                }
            }
            _ => {
                self.error(Diagnostic::error(
                    codes::RESOLVE_TYPE_MISMATCH,
                    self.file,
                    f.span,
                    "`type` takes one card type name",
                    "not a card type name",
                ));
                None
            }
        }
    }

    /// The card's `keywords:`, each a declared keyword with its values.
    fn card_keywords(&mut self, seen: &Fields<'_>) -> Vec<ir::KeywordInstance> {
        let mut keywords = Vec::new();
        let Some(f) = seen.get("keywords") else {
            return keywords;
        };
        for v in &f.values {
            match v {
                FieldValue::Word(k) if self.sym.player_keywords.contains(&k.name.name) => {
                    self.error(
                        Diagnostic::error(
                            codes::RESOLVE_TYPE_MISMATCH,
                            self.file,
                            k.name.span,
                            format!("`{}` is a keyword of players, not of cards", k.name.name),
                            "a keyword of players",
                        )
                        .with_help(
                            "grant it to a player with an effect: `grant … to opponent until …`",
                        ),
                    );
                }
                FieldValue::Word(k) => {
                    if let Some((keyword, args)) = self.keyword(k) {
                        keywords.push(ir::KeywordInstance { keyword, args });
                    }
                }
                FieldValue::Expr(e) => self.error(Diagnostic::error(
                    codes::RESOLVE_UNKNOWN_KEYWORD,
                    self.file,
                    e.span,
                    "expected a keyword name",
                    "not a keyword",
                )),
            }
        }
        keywords
    }

    /// For a card whose type is unknown: reports the fields no card type has.
    fn check_untyped_fields(&mut self, seen: &Fields<'_>) {
        for (name, f) in seen {
            let known = BUILT_IN_FIELDS.contains(name) || self.sym.field_names.contains_key(*name);
            if known {
                continue;
            }
            let candidates: Vec<&str> = self
                .sym
                .field_names
                .keys()
                .map(String::as_str)
                .chain(BUILT_IN_FIELDS)
                .collect();
            let help = did_you_mean(name, candidates);
            self.error(
                Diagnostic::error(
                    codes::CHECK_UNKNOWN_FIELD,
                    self.file,
                    f.name.span,
                    format!("no card type has a field `{name}`"),
                    "unknown field",
                )
                .with_help_opt(help),
            );
        }
    }

    /// One header field of a card of type `t`: its schema and checked value. `None` for the
    /// built-in fields (read apart), a field the type does not have (reported), or a bad value.
    fn schema_field_value<'t>(
        &mut self,
        t: &'t CardTypeSym,
        name: &str,
        f: &ast::FieldEntry,
    ) -> Option<(&'t ir::FieldSchema, Value)> {
        if BUILT_IN_FIELDS.contains(&name) {
            return None;
        }
        let Some(schema) = t.fields.iter().find(|s| s.name == name) else {
            self.report_unknown_field(t, name, f);
            return None;
        };
        let v = self.field_value(schema, f)?;
        Some((schema, v))
    }

    /// Reports a field card type `t` does not have, naming the card types that have it.
    fn report_unknown_field(&mut self, t: &CardTypeSym, name: &str, f: &ast::FieldEntry) {
        let candidates: Vec<&str> = t
            .fields
            .iter()
            .map(|s| s.name.as_str())
            .chain(BUILT_IN_FIELDS)
            .collect();
        let help = did_you_mean(name, candidates.iter().copied()).or_else(|| {
            let mut owners: Vec<&str> = self
                .sym
                .card_types
                .iter()
                .filter(|(_, ct)| ct.fields.iter().any(|s| s.name == name))
                .map(|(n, _)| n.as_str())
                .collect();
            owners.sort_unstable();
            (!owners.is_empty()).then(|| {
                let list = owners
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!("`{name}` is a field of {list} cards, not of this card's type")
            })
        });
        let tname = local_name(&t.id);
        self.error(
            Diagnostic::error(
                codes::CHECK_UNKNOWN_FIELD,
                self.file,
                f.name.span,
                format!("card type `{tname}` has no field `{name}`"),
                "unknown field",
            )
            .with_help_opt(help),
        );
    }

    /// Reports each field card type `t` requires that the card does not give.
    fn check_required_fields(&mut self, c: &ast::CardDef, t: &CardTypeSym, seen: &Fields<'_>) {
        for s in &t.fields {
            if !s.optional && !seen.contains_key(s.name.as_str()) {
                let tname = local_name(&t.id);
                self.error(
                    Diagnostic::error(
                        codes::CHECK_MISSING_FIELD,
                        self.file,
                        c.name.span,
                        format!("a `{tname}` card needs `{}`", s.name),
                        format!("missing `{}:`", s.name),
                    )
                    .with_help(format!("add `{}: …`", s.name)),
                );
            }
        }
    }

    /// A header field's value, checked against its schema.
    fn field_value(&mut self, schema: &ir::FieldSchema, f: &ast::FieldEntry) -> Option<Value> {
        if !schema.list && f.values.len() > 1 {
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_TYPE_MISMATCH,
                    self.file,
                    f.span,
                    format!(
                        "field `{}` takes one value, found {}",
                        schema.name,
                        f.values.len()
                    ),
                    "several values",
                )
                .with_help("declare it as a list (`text*`) in the card type to allow several"),
            );
            return None;
        }
        let mut out = Vec::new();
        for v in &f.values {
            let e = match v {
                FieldValue::Expr(e) => e,
                FieldValue::Word(k) => {
                    let hint = match schema.ty {
                        FieldType::Text => format!("write it in quotes: `\"{}\"`", k.name.name),
                        _ => "write a literal value".to_string(),
                    };
                    self.error(
                        Diagnostic::error(
                            codes::RESOLVE_TYPE_MISMATCH,
                            self.file,
                            k.span,
                            format!(
                                "field `{}` takes {}, found a name",
                                schema.name,
                                describe(&schema.ty)
                            ),
                            "a bare name",
                        )
                        .with_help(hint),
                    );
                    return None;
                }
            };
            out.push(self.constant(&schema.ty, e, &schema.name)?);
        }
        if schema.list {
            Some(Value::List(out))
        } else {
            out.pop()
        }
    }

    /// A literal field value of type `ty` (`field`: the field's name, for diagnostics).
    fn constant(&mut self, ty: &FieldType, e: &ast::Expr, field: &str) -> Option<Value> {
        use ast::ExprKind as K;
        let composite = match ty {
            FieldType::Stat(id) => self
                .sym
                .stats
                .values()
                .find(|s| &s.id == id)
                .map(|s| s.components)
                .unwrap_or(0),
            _ => 0,
        };
        let value = match (&e.kind, ty) {
            (K::Int(n), FieldType::Number) => Value::Number(*n),
            (K::Int(n), FieldType::Stat(_)) if composite == 0 => Value::Number(*n),
            (K::Unary(ast::UnOp::Neg, x), FieldType::Number | FieldType::Stat(_))
                if composite == 0 =>
            {
                match x.kind {
                    K::Int(n) => Value::Number(-n),
                    _ => return self.not_constant(e, ty, field),
                }
            }
            (K::Pair(a, b), FieldType::Stat(_)) if composite == 2 => match (a, b) {
                (ast::PairPart::Value(x, _), ast::PairPart::Value(y, _)) => {
                    Value::Pair(vec![*x, *y])
                }
                _ => {
                    self.error(
                        Diagnostic::error(
                            codes::RESOLVE_TYPE_MISMATCH,
                            self.file,
                            e.span,
                            format!("a base `{field}` needs both values"),
                            "`±0`/`_` means no modifier",
                        )
                        .with_help("`±0` and `_` only make sense in modifiers; write a number"),
                    );
                    return None;
                }
            },
            (K::Pair(..), _) => {
                self.error(
                    Diagnostic::error(
                        codes::RESOLVE_PAIR_NOT_ALLOWED,
                        self.file,
                        e.span,
                        format!("field `{field}` is not a composite stat: a pair is not allowed"),
                        "a pair",
                    )
                    .with_help("write a single value"),
                );
                return None;
            }
            (K::Str(s), FieldType::Text) => Value::Text(s.clone()),
            (K::Bool(b), FieldType::Bool) => Value::Bool(*b),
            _ => return self.not_constant(e, ty, field),
        };
        Some(value)
    }

    /// Reports a field value that is no literal of the field's type.
    fn not_constant(&mut self, e: &ast::Expr, ty: &FieldType, field: &str) -> Option<Value> {
        let (_, found) = self.expr(e);
        let help = match (ty, &found) {
            (FieldType::Number | FieldType::Stat(_), Ty::Of(Type::Text, _)) => {
                Some("write the number without quotes".to_string())
            }
            (FieldType::Text, Ty::Of(Type::Number, _)) => {
                Some("write the text in quotes".to_string())
            }
            (FieldType::Stat(_), Ty::Of(Type::Number, _)) => {
                Some("this composite stat takes a pair such as `3/2`".to_string())
            }
            _ => None,
        };
        let composite = matches!(ty, FieldType::Stat(id) if self.sym.stats.values().any(|s| &s.id == id && s.components > 0));
        let wanted = if composite {
            "a pair such as `3/2`"
        } else {
            describe(ty)
        };
        self.error(
            Diagnostic::error(
                codes::RESOLVE_TYPE_MISMATCH,
                self.file,
                e.span,
                format!("field `{field}` takes {wanted}, found {}", found.describe()),
                "wrong kind of value",
            )
            .with_help_opt(help),
        );
        None
    }

    /// One ability: its kind and attributes, the clauses its kind allows, its body.
    fn ability(&mut self, a: &ast::Ability) -> Option<ir::Ability> {
        let (kind_word, attr_words) = a.words.split_last()?;
        let kind = self.ability_kind(kind_word)?;
        let attributes = self.ability_attributes(attr_words);
        let sem = kind.semantics;
        let mut out = ir::Ability {
            kind: kind.id,
            semantics: sem,
            attributes,
            trigger: None,
            condition: None,
            while_condition: None,
            cost: Vec::new(),
            limit: None,
            zone: kind.from_zone,
            effect: Vec::new(),
        };
        self.push();
        self.has_this = true;
        let trigger_ast = self.trigger_clause(a, kind_word, sem);
        self.check_trigger_given(kind_word, sem, trigger_ast.is_some());
        let event = trigger_ast.and_then(|t| self.trigger(t, &mut out));
        self.event = event;
        let continuous = sem == ir::Semantics::Continuous;
        for c in &a.clauses {
            // a continuous ability's conditions are read as its body is (a cost was reported)
            self.continuous = continuous && !matches!(c, Clause::Cost(..));
            self.lower_clause(c, sem, &mut out);
        }
        self.continuous = continuous;
        out.effect = self.block(&a.body);
        self.continuous = false;
        self.event = None;
        self.has_this = false;
        self.pop();
        Some(out)
    }

    /// The ability kind an ability's last word names.
    fn ability_kind(&mut self, kind_word: &ast::Ident) -> Option<KindSym> {
        if let Some(kind) = self.sym.kinds.get(&kind_word.name) {
            return Some(kind.clone());
        }
        let help = did_you_mean(&kind_word.name, self.sym.kinds.keys().map(String::as_str));
        let help = help.or_else(|| {
            self.sym.attributes.contains_key(&kind_word.name).then(|| {
                format!(
                    "`{}` is an attribute: the ability kind comes after it",
                    kind_word.name
                )
            })
        });
        self.error(
            Diagnostic::error(
                codes::RESOLVE_UNKNOWN_ABILITY_KIND,
                self.file,
                kind_word.span,
                format!("unknown ability kind `{}`", kind_word.name),
                "not an ability kind of this game",
            )
            .with_help_opt(help),
        );
        None
    }

    /// The ids of the attributes written before an ability's kind.
    fn ability_attributes(&mut self, attr_words: &[ast::Ident]) -> Vec<ir::Id> {
        let mut attributes = Vec::new();
        for w in attr_words {
            match self.sym.attributes.get(&w.name) {
                Some(id) => attributes.push(*id),
                None => self.unknown(
                    codes::RESOLVE_UNKNOWN_ATTRIBUTE,
                    "attribute",
                    &w.name,
                    w.span,
                    self.sym.attributes.keys().map(String::as_str),
                ),
            }
        }
        attributes
    }

    /// The trigger of an ability's last `when`/`instead of` clause its kind (`kind_word`, of
    /// semantics `sem`) allows; each clause the kind does not allow is reported.
    fn trigger_clause<'c>(
        &mut self,
        a: &'c ast::Ability,
        kind_word: &ast::Ident,
        sem: ir::Semantics,
    ) -> Option<&'c ast::Trigger> {
        let mut trigger_ast = None;
        for c in &a.clauses {
            if !clause_allowed(c, sem) {
                self.report_clause_not_allowed(c, kind_word);
                continue;
            }
            if let Clause::When(t, _) | Clause::Instead(t, _) = c {
                trigger_ast = Some(t);
            }
        }
        trigger_ast
    }

    /// Reports a clause an ability of kind `kind_word` cannot have.
    fn report_clause_not_allowed(&mut self, c: &Clause, kind_word: &ast::Ident) {
        let (span, what) = clause_span(c);
        let help = match c {
            Clause::When(..) => "`when` belongs to triggered abilities",
            Clause::Instead(..) => "`instead of` belongs to replacement abilities",
            Clause::While(..) => {
                "`while` belongs to continuous abilities; use `if` for a condition"
            }
            _ => "costs and limits belong to activated and triggered abilities",
        };
        self.error(
            Diagnostic::error(
                codes::RESOLVE_INVALID_CLAUSE,
                self.file,
                span,
                format!(
                    "{} `{}` ability cannot have {what}",
                    article(&kind_word.name),
                    kind_word.name
                ),
                "not allowed for this kind",
            )
            .with_help(help),
        );
    }

    /// Reports a triggered or replacement ability with no trigger (`has_trigger`).
    fn check_trigger_given(
        &mut self,
        kind_word: &ast::Ident,
        sem: ir::Semantics,
        has_trigger: bool,
    ) {
        if has_trigger || !matches!(sem, ir::Semantics::Triggered | ir::Semantics::Replacement) {
            return;
        }
        let need = if sem == ir::Semantics::Triggered {
            "`when <event>`"
        } else {
            "`instead of <event>`"
        };
        let capital = if article(&kind_word.name) == "an" {
            "An"
        } else {
            "A"
        };
        self.error(
            Diagnostic::error(
                codes::RESOLVE_INVALID_CLAUSE,
                self.file,
                kind_word.span,
                format!("{capital} `{}` ability needs {need}", kind_word.name),
                "no trigger",
            )
            .with_help(format!("add {need} before the body")),
        );
    }

    /// Lowers one clause into the ability `out` (of semantics `sem`); triggers were read
    /// already, and clauses the kind does not allow were reported.
    fn lower_clause(&mut self, c: &Clause, sem: ir::Semantics, out: &mut ir::Ability) {
        match c {
            Clause::If(e, _) => out.condition = Some(self.cond(e)),
            Clause::While(e, _) if sem == ir::Semantics::Continuous => {
                out.while_condition = Some(self.cond(e))
            }
            Clause::Cost(stmts, _) => out.cost = self.stmts(stmts),
            Clause::Limit(n, per, _) => out.limit = Some(self.limit(*n, per)),
            Clause::From(z, _) => match self.sym.zones.get(&z.name) {
                Some(zone) => out.zone = Some(zone.id),
                None => self.unknown(
                    codes::RESOLVE_UNKNOWN_ZONE,
                    "zone",
                    &z.name,
                    z.span,
                    self.sym.zones.keys().map(String::as_str),
                ),
            },
            _ => {}
        }
    }

    /// A use limit: `n` uses per turn, per game, or per declared moment.
    fn limit(&mut self, n: i64, per: &ast::Ident) -> ir::Limit {
        let per_ok =
            per.name == "turn" || per.name == "game" || self.sym.moments.contains_key(&per.name);
        if !per_ok {
            let names: Vec<&str> = ["turn", "game"]
                .into_iter()
                .chain(self.sym.moments.keys().map(String::as_str))
                .collect();
            self.unknown(
                codes::RESOLVE_UNKNOWN_MOMENT,
                "period",
                &per.name,
                per.span,
                names,
            );
        }
        ir::Limit {
            count: n.clamp(0, u32::MAX as i64) as u32,
            per: per.name.clone(),
        }
    }

    /// An ability's trigger (`when …`, `instead of …`) into `out`; the event it names.
    fn trigger(&mut self, t: &ast::Trigger, out: &mut ir::Ability) -> Option<&'a Callable> {
        let ev = self.event_named(&t.event)?;
        let mut when = ir::Map::new();
        if let Some(subject) = &t.subject {
            self.trigger_subject(t, ev, subject, &mut when);
        }
        for a in &t.args {
            self.trigger_argument(t, ev, a, &mut when);
        }
        out.trigger = Some(ir::Trigger { event: ev.id, when });
        Some(ev)
    }

    /// The subject of trigger `t` (`when <subject> <event>`): matched against the first
    /// parameter of its event `ev`, into `when`.
    fn trigger_subject(
        &mut self,
        t: &ast::Trigger,
        ev: &Callable,
        subject: &ast::Expr,
        when: &mut ir::Map<ir::Id, ir::Expr>,
    ) {
        match ev.params.first() {
            Some(p) => {
                let (x, ty) = self.expr(subject);
                self.expect_player_or_set(
                    &ty,
                    &p.types,
                    subject.span,
                    &format!("the subject (parameter `{}`)", p.name),
                );
                when.insert(ir::Id::from(&p.name), x);
            }
            None => self.error(
                Diagnostic::error(
                    codes::RESOLVE_WRONG_ARITY,
                    self.file,
                    subject.span,
                    format!(
                        "event `{}` has no parameter to match this subject against",
                        t.event.name
                    ),
                    "nothing to match",
                )
                .with_help(format!("write `when {}`", t.event.name)),
            ),
        }
    }

    /// One pattern of trigger `t` (`<parameter>: <value>`): matched against the parameter of
    /// its event `ev` it names, into `when`.
    pub(super) fn trigger_argument(
        &mut self,
        t: &ast::Trigger,
        ev: &Callable,
        a: &ast::Arg,
        when: &mut ir::Map<ir::Id, ir::Expr>,
    ) {
        let Some(n) = &a.name else {
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_UNKNOWN_ARGUMENT,
                    self.file,
                    a.value.span,
                    "trigger patterns name the parameter they match",
                    "unnamed",
                )
                .with_help(format!("write `{}(<parameter>: …)`", t.event.name)),
            );
            return;
        };
        let Some(p) = ev.params.iter().find(|p| p.name == n.name) else {
            let names: Vec<&str> = ev.params.iter().map(|p| p.name.as_str()).collect();
            self.unknown_in(
                codes::RESOLVE_UNKNOWN_ARGUMENT,
                &format!("event `{}`", t.event.name),
                "parameter",
                &n.name,
                n.span,
                names,
            );
            return;
        };
        let (x, ty) = self.expr(&a.value);
        self.expect_player_or_set(
            &ty,
            &p.types,
            a.value.span,
            &format!("parameter `{}`", p.name),
        );
        if when.insert(ir::Id::from(&p.name), x).is_some() {
            self.error(Diagnostic::error(
                codes::RESOLVE_WRONG_ARITY,
                self.file,
                n.span,
                format!("parameter `{}` is matched twice", n.name),
                "matched again",
            ));
        }
    }
}

use crate::base::diagnostic::article;

/// Whether an ability of semantics `sem` may have clause `c`.
fn clause_allowed(c: &Clause, sem: ir::Semantics) -> bool {
    match c {
        Clause::When(..) => sem == ir::Semantics::Triggered,
        Clause::Instead(..) => sem == ir::Semantics::Replacement,
        Clause::While(..) => sem == ir::Semantics::Continuous,
        Clause::Cost(..) | Clause::Limit(..) => {
            matches!(sem, ir::Semantics::Activated | ir::Semantics::Triggered)
        }
        Clause::If(..) | Clause::From(..) => true,
    }
}

/// The last part of a qualified id: the name as declared (`pack:name` → `name`).
fn local_name(id: &str) -> &str {
    id.split(':').next_back().unwrap_or(id)
}

/// Where a clause is written, and how to name it in a diagnostic.
fn clause_span(c: &Clause) -> (crate::base::source::Span, &'static str) {
    match c {
        Clause::When(_, s) => (*s, "a `when` trigger"),
        Clause::Instead(_, s) => (*s, "an `instead of` clause"),
        Clause::While(_, s) => (*s, "a `while` condition"),
        Clause::If(_, s) => (*s, "an `if` condition"),
        Clause::Cost(_, s) => (*s, "a cost"),
        Clause::Limit(_, _, s) => (*s, "a use limit"),
        Clause::From(_, s) => (*s, "a `from` zone"),
    }
}

/// What a field of type `ty` takes, for diagnostics.
fn describe(ty: &FieldType) -> &'static str {
    match ty {
        FieldType::Number => "a number",
        FieldType::Text => "a text",
        FieldType::Bool => "`true` or `false`",
        FieldType::Stat(_) => "a stat value",
    }
}
