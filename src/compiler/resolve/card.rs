//! Checking cards: header fields against the card type's schema, then each
//! ability against its kind.

use super::scope::{Ctx, Ty};
use super::symbols::Callable;
use crate::base::diagnostic::{codes, did_you_mean, Diagnostic, Label};
use crate::compiler::ast::{self, Clause, FieldValue};
use crate::ir::{self, FieldType, Type, Value};
use std::collections::BTreeMap;

/// A card checked, before its id is qualified.
pub struct CheckedCard {
    /// The IR card (id filled in by the caller).
    pub card: ir::Card,
}

impl<'a> Ctx<'a> {
    /// Checks one card. `None` when its type could not be resolved.
    pub fn card(&mut self, c: &ast::CardDef, number_rules: &[ir::NormRule]) -> Option<CheckedCard> {
        let mut seen: BTreeMap<&str, &ast::FieldEntry> = BTreeMap::new();
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
        let number = match seen.get("number") {
            Some(f) => match f.values.as_slice() {
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
            },
            None => {
                self.error(
                    Diagnostic::error(
                        codes::CHECK_MISSING_FIELD,
                        self.file,
                        c.name.span,
                        format!("card `{}` has no `number`", c.name.value),
                        "missing `number:`",
                    )
                    .with_help("add `number: \"…\"`"),
                );
                None
            }
        };
        let type_sym = match seen.get("type") {
            Some(f) => match f.values.as_slice() {
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
            },
            None => {
                self.error(
                    Diagnostic::error(
                        codes::CHECK_MISSING_FIELD,
                        self.file,
                        c.name.span,
                        format!("card `{}` has no `type`", c.name.value),
                        "missing `type:`",
                    )
                    .with_help_opt(
                        self.sym
                            .card_types
                            .keys()
                            .min()
                            .map(|t| format!("add `type: {t}`")),
                    ),
                );
                None
            }
        };
        let mut keywords = Vec::new();
        if let Some(f) = seen.get("keywords") {
            for v in &f.values {
                match v {
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
        }
        let mut fields = BTreeMap::new();
        let mut stats = BTreeMap::new();
        if type_sym.is_none() {
            // Without a type there is no schema: still catch names no card type knows.
            for (name, f) in &seen {
                let known = matches!(*name, "number" | "type" | "keywords")
                    || self.sym.field_names.contains_key(*name);
                if !known {
                    let candidates: Vec<&str> = self
                        .sym
                        .field_names
                        .keys()
                        .map(String::as_str)
                        .chain(["number", "type", "keywords"])
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
        }
        if let Some(t) = &type_sym {
            for (name, f) in &seen {
                if matches!(*name, "number" | "type" | "keywords") {
                    continue;
                }
                let Some(schema) = t.fields.iter().find(|s| s.name == *name) else {
                    let candidates: Vec<&str> = t
                        .fields
                        .iter()
                        .map(|s| s.name.as_str())
                        .chain(["number", "type", "keywords"])
                        .collect();
                    let help = did_you_mean(name, candidates.iter().copied()).or_else(|| {
                        let mut owners: Vec<&str> = self
                            .sym
                            .card_types
                            .iter()
                            .filter(|(_, ct)| ct.fields.iter().any(|s| s.name == *name))
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
                    let tname = t.id.split(':').next_back().unwrap_or(&t.id).to_string();
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
                    continue;
                };
                if let Some(v) = self.field_value(schema, f) {
                    match &schema.ty {
                        FieldType::Stat(id) => {
                            stats.insert(id.clone(), v);
                        }
                        _ => {
                            fields.insert(schema.name.clone(), v);
                        }
                    }
                }
            }
            for s in &t.fields {
                if !s.optional && !seen.contains_key(s.name.as_str()) {
                    let tname = t.id.split(':').next_back().unwrap_or(&t.id).to_string();
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
        let abilities = c.abilities.iter().filter_map(|a| self.ability(a)).collect();
        let number = number?;
        let t = type_sym?;
        Some(CheckedCard {
            card: ir::Card {
                id: String::new(),
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

    fn ability(&mut self, a: &ast::Ability) -> Option<ir::Ability> {
        let (kind_word, attr_words) = a.words.split_last()?;
        let Some(kind) = self.sym.kinds.get(&kind_word.name).cloned() else {
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
            return None;
        };
        let mut attributes = Vec::new();
        for w in attr_words {
            match self.sym.attributes.get(&w.name) {
                Some(id) => attributes.push(id.clone()),
                None => self.unknown(
                    codes::RESOLVE_UNKNOWN_ATTRIBUTE,
                    "attribute",
                    &w.name,
                    w.span,
                    self.sym.attributes.keys().map(String::as_str),
                ),
            }
        }
        let sem = kind.semantics;
        let mut out = ir::Ability {
            kind: kind.id.clone(),
            semantics: sem,
            attributes,
            trigger: None,
            condition: None,
            while_condition: None,
            cost: Vec::new(),
            limit: None,
            zone: kind.from_zone.clone(),
            effect: Vec::new(),
        };
        self.push();
        self.has_this = true;
        let mut trigger_ast = None;
        for c in &a.clauses {
            let allowed = match c {
                Clause::When(..) => sem == ir::Semantics::Triggered,
                Clause::Instead(..) => sem == ir::Semantics::Replacement,
                Clause::While(..) => sem == ir::Semantics::Continuous,
                Clause::Cost(..) | Clause::Limit(..) => {
                    matches!(sem, ir::Semantics::Activated | ir::Semantics::Triggered)
                }
                Clause::If(..) | Clause::From(..) => true,
            };
            if !allowed {
                let (span, what) = clause_span(c);
                let help = match c {
                    Clause::When(..) => "`when` belongs to triggered abilities".to_string(),
                    Clause::Instead(..) => {
                        "`instead of` belongs to replacement abilities".to_string()
                    }
                    Clause::While(..) => {
                        "`while` belongs to continuous abilities; use `if` for a condition"
                            .to_string()
                    }
                    _ => "costs and limits belong to activated and triggered abilities".to_string(),
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
                continue;
            }
            match c {
                Clause::When(t, _) | Clause::Instead(t, _) => trigger_ast = Some(t),
                _ => {}
            }
        }
        if matches!(sem, ir::Semantics::Triggered | ir::Semantics::Replacement)
            && trigger_ast.is_none()
        {
            let need = if sem == ir::Semantics::Triggered {
                "`when <event>`"
            } else {
                "`instead of <event>`"
            };
            self.error(
                Diagnostic::error(
                    codes::RESOLVE_INVALID_CLAUSE,
                    self.file,
                    kind_word.span,
                    format!(
                        "{} `{}` ability needs {need}",
                        if article(&kind_word.name) == "an" {
                            "An"
                        } else {
                            "A"
                        },
                        kind_word.name
                    ),
                    "no trigger",
                )
                .with_help(format!("add {need} before the body")),
            );
        }
        let event = trigger_ast.and_then(|t| self.trigger(t, &mut out));
        self.event = event;
        for c in &a.clauses {
            match c {
                Clause::If(e, _) => out.condition = Some(self.cond(e)),
                Clause::While(e, _) if sem == ir::Semantics::Continuous => {
                    out.while_condition = Some(self.cond(e))
                }
                Clause::Cost(stmts, _) => out.cost = self.stmts(stmts),
                Clause::Limit(n, per, _) => {
                    let per_ok = per.name == "turn"
                        || per.name == "game"
                        || self.sym.moments.contains_key(&per.name);
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
                    out.limit = Some(ir::Limit {
                        count: (*n).clamp(0, u32::MAX as i64) as u32,
                        per: per.name.clone(),
                    });
                }
                Clause::From(z, _) => match self.sym.zones.get(&z.name) {
                    Some(zone) => out.zone = Some(zone.id.clone()),
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
        out.effect = self.block(&a.body);
        self.event = None;
        self.has_this = false;
        self.pop();
        Some(out)
    }

    fn trigger(&mut self, t: &ast::Trigger, out: &mut ir::Ability) -> Option<&'a Callable> {
        let ev = self.event_named(&t.event)?;
        let mut when = BTreeMap::new();
        if let Some(subject) = &t.subject {
            match ev.params.first() {
                Some(p) => {
                    let (x, ty) = self.expr(subject);
                    self.expect(
                        &ty,
                        &p.types,
                        subject.span,
                        &format!("the subject (parameter `{}`)", p.name),
                    );
                    when.insert(p.name.clone(), x);
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
        for a in &t.args {
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
                continue;
            };
            match ev.params.iter().find(|p| p.name == n.name) {
                Some(p) => {
                    let (x, ty) = self.expr(&a.value);
                    self.expect(
                        &ty,
                        &p.types,
                        a.value.span,
                        &format!("parameter `{}`", p.name),
                    );
                    if when.insert(p.name.clone(), x).is_some() {
                        self.error(Diagnostic::error(
                            codes::RESOLVE_WRONG_ARITY,
                            self.file,
                            n.span,
                            format!("parameter `{}` is matched twice", n.name),
                            "matched again",
                        ));
                    }
                }
                None => {
                    let names: Vec<&str> = ev.params.iter().map(|p| p.name.as_str()).collect();
                    self.unknown_in(
                        codes::RESOLVE_UNKNOWN_ARGUMENT,
                        &format!("event `{}`", t.event.name),
                        "parameter",
                        &n.name,
                        n.span,
                        names,
                    );
                }
            }
        }
        out.trigger = Some(ir::Trigger {
            event: ev.id.clone(),
            when,
        });
        Some(ev)
    }
}

use crate::base::diagnostic::article;

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

fn describe(ty: &FieldType) -> &'static str {
    match ty {
        FieldType::Number => "a number",
        FieldType::Text => "a text",
        FieldType::Bool => "`true` or `false`",
        FieldType::Stat(_) => "a stat value",
    }
}
