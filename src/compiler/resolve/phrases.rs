//! Phrases: how a declared name reads in printed card text (`reads en "…" / "…", ja "…"`).
//!
//! A phrase is a template of plain text and holes. A hole names what the renderer fills in: a
//! parameter of the declaration (`{n}`), optionally with the English plural ending (`{n:s}`:
//! `s` unless the argument is the number 1), or, in an ability kind's phrase, a part of the
//! ability (`{trigger}`, `{condition}`, `{costs}`, `{effect}`). This pass checks every hole
//! against what the declaration has, so that a template never renders a hole it cannot fill.

use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::{FileId, Span};
use crate::compiler::ast::{self, Decl, Named};
use crate::ir::{
    self,
    phrase::{template_pieces, Piece},
};
use std::collections::BTreeMap;

/// The parts of an ability an ability kind's phrase may place.
pub const ABILITY_HOLES: &[&str] = &["trigger", "condition", "costs", "effect"];

/// Checks the phrases of one declaration (and of the names declared inside it).
pub(super) fn check(file: FileId, d: &Decl, diags: &mut Vec<Diagnostic>) {
    let names = |ps: &[ast::Param]| ps.iter().map(|p| p.name.name.clone()).collect::<Vec<_>>();
    match d {
        Decl::Keyword(k) => check_named(file, &k.named, &names(&k.params), diags),
        Decl::Event(e) => check_named(file, &e.named, &names(&e.params), diags),
        Decl::Verb(v) | Decl::Procedure(v) => check_named(file, &v.named, &names(&v.params), diags),
        Decl::AbilityKind(a) => {
            let holes: Vec<String> = ABILITY_HOLES.iter().map(|h| h.to_string()).collect();
            check_named(file, &a.named, &holes, diags);
            for p in &a.named.phrases {
                let span = p.text.as_ref().map_or(p.lang.span, |t| t.span);
                let text = p.text.as_ref().map(|t| t.value.as_str());
                if !text.is_some_and(|t| t.contains("{effect}")) {
                    diags.push(phrase_error(
                        file,
                        span,
                        "an ability kind's phrase without `{effect}`",
                        "the ability's effect would not be printed",
                        "place the effect in the template: `ja \"【…】{effect}\"`",
                    ));
                }
            }
        }
        Decl::Action(a) => {
            let var: Vec<String> = a.each.iter().map(|(v, _)| v.name.clone()).collect();
            check_named(file, &a.named, &var, diags);
        }
        Decl::State(s) => {
            check_named(file, &s.named, &[], diags);
            for m in &s.members {
                check_named(file, m, &[], diags);
            }
        }
        Decl::Zone(z) => {
            check_named(file, &z.named, &[], diags);
            for g in &z.groups {
                if let Some(p) = g.named.phrases.first() {
                    diags.push(phrase_error(
                        file,
                        p.lang.span,
                        "a slot group has no phrases",
                        "not printed",
                        "printed text names a slot group by its label (in Japanese) or its name's \
                         words; remove `reads …` here",
                    ));
                }
            }
        }
        Decl::Stat(s) => check_named(file, &s.named, &[], diags),
        Decl::Layer(l) => check_named(file, &l.named, &[], diags),
        Decl::Counter(c) => check_named(file, &c.named, &[], diags),
        Decl::CardType(c) => check_named(file, &c.named, &[], diags),
        Decl::Attribute(a) => check_named(file, &a.named, &[], diags),
        Decl::Moment(m) => check_named(file, m, &[], diags),
        Decl::Rule(r) => check_named(file, &r.named, &[], diags),
        _ => {}
    }
}

/// The IR of a name's phrases, language → phrase (checked by [`check`]); a language with no
/// template reads as the label.
pub(super) fn phrases_ir(named: &Named) -> BTreeMap<String, ir::Phrase> {
    named
        .phrases
        .iter()
        .filter_map(|p| {
            let text = p.text.as_ref().or(named.label.as_ref())?;
            Some((
                p.lang.name.clone(),
                ir::Phrase {
                    text: text.value.clone(),
                    explicit: p.explicit.as_ref().map(|e| e.value.clone()),
                },
            ))
        })
        .collect()
}

/// Checks a name's phrases: a known shape of language code, each language once, every hole one
/// of `holes`, a second form only where there are parameters.
fn check_named(file: FileId, named: &Named, holes: &[String], diags: &mut Vec<Diagnostic>) {
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    for p in &named.phrases {
        let lang = &p.lang;
        let valid =
            (2..=3).contains(&lang.name.len()) && lang.name.chars().all(|c| c.is_ascii_lowercase());
        if !valid {
            diags.push(phrase_error(
                file,
                lang.span,
                &format!("`{}` is not a language code", lang.name),
                "not a language code",
                "write a two- or three-letter lowercase code: `en`, `ja`",
            ));
        }
        if let Some(first) = seen.insert(&lang.name, lang.span) {
            diags.push(
                phrase_error(
                    file,
                    lang.span,
                    &format!("a second `{}` phrase for `{}`", lang.name, named.name.name),
                    "second phrase",
                    "keep one phrase per language",
                )
                .with_related(crate::base::diagnostic::Label::new(
                    file,
                    first,
                    "the first one",
                )),
            );
        }
        match &p.text {
            Some(t) => check_template(file, t, holes, diags),
            None if named.label.is_none() => diags.push(phrase_error(
                file,
                lang.span,
                &format!("a `{}` phrase with no template and no label", lang.name),
                "nothing to print",
                &format!("write how it reads: `{} \"…\"`", lang.name),
            )),
            None => {}
        }
        if let Some(e) = &p.explicit {
            if holes.is_empty() {
                diags.push(phrase_error(
                    file,
                    e.span,
                    "a second form for a name without parameters",
                    "never used",
                    "the form after `/` is printed when a player argument is not its default; \
                     this name has no arguments",
                ));
            }
            check_template(file, e, holes, diags);
        }
    }
}

/// Checks each hole of one template.
fn check_template(file: FileId, text: &ast::Str, holes: &[String], diags: &mut Vec<Diagnostic>) {
    for piece in template_pieces(&text.value) {
        let at = |range: (usize, usize)| hole_span(text, range);
        match piece {
            Piece::Hole {
                name,
                plural,
                range,
            } => {
                if !holes.iter().any(|h| h == name) {
                    let known = if holes.is_empty() {
                        "this name has nothing to fill a hole with".to_string()
                    } else {
                        format!(
                            "the holes this template may use: {}",
                            holes
                                .iter()
                                .map(|h| format!("`{{{h}}}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    };
                    diags.push(phrase_error(
                        file,
                        at(range),
                        &format!("unknown hole `{{{name}}}` in a phrase"),
                        "nothing to fill this with",
                        &known,
                    ));
                } else if let Some(m) = plural.filter(|m| *m != "s") {
                    diags.push(phrase_error(
                        file,
                        at(range),
                        &format!("unknown hole modifier `:{m}`"),
                        "unknown modifier",
                        "the one modifier is `:s`, the English ending `s` unless the argument reads `1` or `you`: `card{n:s}`, `draw{p:s}`",
                    ));
                }
            }
            Piece::Unclosed { range } => diags.push(phrase_error(
                file,
                at(range),
                "a `{` with no `}` in a phrase",
                "unclosed hole",
                "close the hole: `{n}`",
            )),
            Piece::Stray { range } => diags.push(phrase_error(
                file,
                at(range),
                "a `}` that closes no hole in a phrase",
                "stray `}`",
                "remove it, or open the hole with `{`",
            )),
            Piece::Text(_) => {}
        }
    }
}

/// The source span of bytes `range` of a template: exact when the literal has no escapes,
/// the whole literal otherwise.
fn hole_span(text: &ast::Str, range: (usize, usize)) -> Span {
    let quote = if text.span.len() == text.value.len() + 2 {
        1
    } else if text.span.len() == text.value.len() + 6 {
        3 // 「…」
    } else {
        return text.span;
    };
    Span::new(
        text.span.start + quote + range.0,
        text.span.start + quote + range.1,
    )
}

/// A phrase diagnostic.
fn phrase_error(file: FileId, span: Span, message: &str, label: &str, help: &str) -> Diagnostic {
    Diagnostic::error(codes::RESOLVE_PHRASE, file, span, message, label).with_help(help)
}
