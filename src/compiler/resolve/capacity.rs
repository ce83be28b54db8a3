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
    let max = ir::MAX_INDEXED_DECLARATIONS;
    let indexed: [(&str, usize, Option<&ir::Id>); 8] = [
        (
            "zone",
            ruleset.zones.len(),
            ruleset.zones.get(max).map(|z| &z.name.id),
        ),
        (
            "stat",
            ruleset.stats.len(),
            ruleset.stats.get(max).map(|s| &s.name.id),
        ),
        (
            "layer",
            ruleset.layers.len(),
            ruleset.layers.get(max).map(|l| &l.name.id),
        ),
        (
            "counter",
            ruleset.counters.len(),
            ruleset.counters.get(max).map(|c| &c.name.id),
        ),
        (
            "keyword",
            ruleset.keywords.len(),
            ruleset.keywords.get(max).map(|k| &k.name.id),
        ),
        (
            "event",
            ruleset.events.len(),
            ruleset.events.get(max).map(|e| &e.name.id),
        ),
        (
            "moment",
            ruleset.moments.len(),
            ruleset.moments.get(max).map(|m| &m.id),
        ),
        (
            "action",
            ruleset.actions.len(),
            ruleset.actions.get(max).map(|a| &a.name.id),
        ),
    ];
    for (what, count, first_beyond) in indexed {
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
        let mut seen: Vec<&str> = Vec::new();
        for s in &body.stmts {
            let ast::StmtKind::Phase(named, _) = &s.kind else {
                continue;
            };
            if seen.contains(&named.name.name.as_str()) {
                continue;
            }
            seen.push(&named.name.name);
            if counted == max {
                let at = (*file, named.name.span);
                report_too_many_declarations(diags, "phase", ruleset.phases.len(), at);
                return;
            }
            counted += 1;
        }
    }
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
