//! The capacities pass: what the engine keeps in fixed-size numbers (a card's states in one
//! `u64` bit mask, most declarations and a card's abilities numbered by a `u16`), checked
//! against what a pack declares, so that a ruleset too large for the engine is a diagnostic
//! at check time rather than a failure (or a silent wrap) when a game starts. The limits are
//! the `ir::MAX_*` constants the engine shares.

use super::symbols::Symbols;
use crate::base::diagnostic::{codes, Code, Diagnostic};
use crate::base::source::{FileId, Span};
use crate::compiler::ast::{self, Decl};
use crate::ir;
use std::collections::HashSet;

/// Checks the ruleset a pack declares (`decls`: the collected declarations, for the phases'
/// places) against the engine's capacities: its state values, then every kind the engine
/// numbers. Each excess is reported once, on the first declaration that does not fit.
pub(super) fn check_ruleset(
    ruleset: &ir::Ruleset,
    decls: &[(FileId, &Decl)],
    sym: &Symbols,
    pack: &str,
    diags: &mut Vec<Diagnostic>,
) {
    check_states(ruleset, sym, pack, diags);
    let r = ruleset;
    let indexed = [
        ("zone", beyond(&r.zones, |z| &z.name.id)),
        ("stat", beyond(&r.stats, |s| &s.name.id)),
        ("layer", beyond(&r.layers, |l| &l.name.id)),
        ("counter", beyond(&r.counters, |c| &c.name.id)),
        ("keyword", beyond(&r.keywords, |k| &k.name.id)),
        ("event", beyond(&r.events, |e| &e.name.id)),
        ("moment", beyond(&r.moments, |m| &m.id)),
        ("action", beyond(&r.actions, |a| &a.name.id)),
    ];
    for (what, (count, first_beyond)) in indexed {
        let Some(at) = first_beyond.and_then(|id| origin(sym, pack, what, id)) else {
            continue;
        };
        report_too_many_declarations(diags, what, count, at);
    }
    check_phases(ruleset, decls, diags);
}

/// Checks that a card's abilities fit the engine's `u16` ability index.
pub(super) fn check_abilities(c: &ast::CardDef, file: FileId, diags: &mut Vec<Diagnostic>) {
    let max = ir::MAX_ABILITIES_PER_CARD;
    let Some(first_beyond) = c.abilities.get(max) else {
        return;
    };
    report(
        diags,
        codes::RESOLVE_TOO_MANY_ABILITIES,
        (file, first_beyond.span),
        format!(
            "a card has at most {max} abilities; `{}` has {}",
            c.name.value,
            c.abilities.len()
        ),
        "the first ability that does not fit",
        "the engine numbers a card's abilities with 16 bits: split the card's text, or \
         declare a keyword that says what the repeated abilities do"
            .into(),
    );
}

/// Checks that the ruleset's state values fit a card's `u64` state mask: a flag takes one
/// bit, a group one bit per member (the engine's count, in its order).
fn check_states(ruleset: &ir::Ruleset, sym: &Symbols, pack: &str, diags: &mut Vec<Diagnostic>) {
    let max = ir::MAX_STATE_VALUES;
    let values = ruleset.states.iter().flat_map(|g| {
        if g.members.is_empty() {
            std::slice::from_ref(&g.name)
        } else {
            g.members.as_slice()
        }
    });
    let count = values.clone().count();
    let Some(at) = values
        .clone()
        .nth(max)
        .and_then(|first_beyond| origin(sym, pack, "state", &first_beyond.id))
    else {
        return;
    };
    report(
        diags,
        codes::RESOLVE_TOO_MANY_STATES,
        at,
        format!("a ruleset declares at most {max} state values; this one declares {count}"),
        "the first state that does not fit",
        format!(
            "a card's states are one {max}-bit mask: every flag and every member of a group \
             takes one bit; remove some states"
        ),
    );
}

/// Checks that the phases `turn` names fit the engine's `u16` phase index. The phases are
/// counted as the bodies pass made them: the top-level `phase` statements of every `turn`
/// block in order, a name repeated within a block counted once.
fn check_phases(ruleset: &ir::Ruleset, decls: &[(FileId, &Decl)], diags: &mut Vec<Diagnostic>) {
    let max = ir::MAX_INDEXED_DECLARATIONS;
    if ruleset.phases.len() <= max {
        return;
    }
    let mut counted = 0;
    for (file, d) in decls {
        let Decl::Turn(_, body) = d else { continue };
        let mut seen: HashSet<&str> = HashSet::new();
        for s in &body.stmts {
            let ast::StmtKind::Phase(named, _) = &s.kind else {
                continue;
            };
            if !seen.insert(&named.name.name) {
                continue;
            }
            if counted == max {
                let at = (*file, named.name.span);
                report_too_many_declarations(diags, "phase", ruleset.phases.len(), at);
                return;
            }
            counted += 1;
        }
    }
}

/// How many declarations `list` holds, and the id (read by `id`) of the first one past
/// [`ir::MAX_INDEXED_DECLARATIONS`].
fn beyond<T>(list: &[T], id: fn(&T) -> &ir::Id) -> (usize, Option<&ir::Id>) {
    let first_beyond = list.get(ir::MAX_INDEXED_DECLARATIONS).map(id);
    (list.len(), first_beyond)
}

/// Where the ruleset's declaration `id` (of namespace `ns`, qualified by `pack`) was written.
fn origin(sym: &Symbols, pack: &str, ns: &str, id: &str) -> Option<(FileId, Span)> {
    let name = id.strip_prefix(pack)?.strip_prefix(':')?;
    let o = sym.origins.get(&(ns.to_string(), name.to_string()))?;
    Some((o.file, o.span))
}

/// Reports more declarations of kind `what` (`count` in all) than the engine numbers.
fn report_too_many_declarations(
    diags: &mut Vec<Diagnostic>,
    what: &str,
    count: usize,
    at: (FileId, Span),
) {
    let max = ir::MAX_INDEXED_DECLARATIONS;
    report(
        diags,
        codes::RESOLVE_TOO_MANY_DECLARATIONS,
        at,
        format!("a ruleset declares at most {max} {what}s; this one declares {count}"),
        &format!("the first {what} that does not fit"),
        format!("the engine numbers {what}s with 16 bits: remove some {what}s"),
    );
}

/// Pushes one capacity error at `at`.
fn report(
    diags: &mut Vec<Diagnostic>,
    code: Code,
    at: (FileId, Span),
    message: String,
    label: &str,
    help: String,
) {
    diags.push(Diagnostic::error(code, at.0, at.1, message, label).with_help(help));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::source::Span;

    /// A labelled id of pack `t`.
    fn labelled(name: &str) -> ir::Labelled {
        ir::Labelled::new(format!("t:{name}").into(), None)
    }

    /// Symbols where each of `names` was declared in namespace `ns`, at offset = its position.
    fn declared(ns: &str, names: &[String]) -> Symbols {
        let mut sym = Symbols::default();
        for (i, n) in names.iter().enumerate() {
            let origin = super::super::symbols::Origin {
                file: FileId(0),
                span: Span::new(i, i + 1),
            };
            sym.origins.insert((ns.to_string(), n.clone()), origin);
        }
        sym
    }

    /// A group of members counts one bit per member, a flag one bit: the 65th value is
    /// reported, and 64 values are not.
    #[test]
    fn states_count_members_and_flags() {
        let members: Vec<String> = (0..4).map(|i| format!("m{i}")).collect();
        let flags: Vec<String> = (0..61).map(|i| format!("f{i}")).collect();
        let mut ruleset = ir::Ruleset::default();
        ruleset.states.push(ir::StateGroup {
            name: labelled("g"),
            members: members.iter().map(|m| labelled(m)).collect(),
        });
        for f in &flags {
            ruleset.states.push(ir::StateGroup {
                name: labelled(f),
                members: Vec::new(),
            });
        }
        let all: Vec<String> = members.iter().chain(&flags).cloned().collect();
        let sym = declared("state", &all);
        let mut diags = Vec::new();
        check_states(&ruleset, &sym, "t", &mut diags);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code.0, codes::RESOLVE_TOO_MANY_STATES.0);
        assert_eq!(diags[0].primary.span, Span::new(64, 65));
        ruleset.states.pop();
        diags.clear();
        check_states(&ruleset, &sym, "t", &mut diags);
        assert!(diags.is_empty());
    }

    /// Phases are counted as `turn` makes them: a name repeated within a block once; the
    /// first phase past the limit is the one reported.
    #[test]
    fn phases_past_the_limit() {
        let max = ir::MAX_INDEXED_DECLARATIONS;
        let phase = |name: String, at: usize| ast::Stmt {
            kind: ast::StmtKind::Phase(
                ast::Named {
                    name: ast::Ident {
                        name,
                        span: Span::new(at, at + 1),
                    },
                    label: None,
                    phrases: Vec::new(),
                },
                ast::Block {
                    stmts: Vec::new(),
                    span: Span::default(),
                },
            ),
            span: Span::default(),
        };
        // A repeated name first: it does not count.
        let mut stmts = vec![phase("p0".into(), 0), phase("p0".into(), 1)];
        stmts.extend((1..=max).map(|i| phase(format!("p{i}"), i + 1)));
        let body = ast::Block {
            stmts,
            span: Span::default(),
        };
        let turn = Decl::Turn(Span::default(), body);
        let mut ruleset = ir::Ruleset {
            phases: (0..=max).map(|i| labelled(&format!("p{i}"))).collect(),
            ..Default::default()
        };
        let mut diags = Vec::new();
        check_phases(&ruleset, &[(FileId(0), &turn)], &mut diags);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code.0, codes::RESOLVE_TOO_MANY_DECLARATIONS.0);
        assert_eq!(diags[0].primary.span, Span::new(max + 1, max + 2));
        ruleset.phases.pop();
        diags.clear();
        check_phases(&ruleset, &[(FileId(0), &turn)], &mut diags);
        assert!(diags.is_empty());
    }
}
