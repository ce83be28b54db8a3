//! Hover: on a card (its name where it is declared, or a string naming it), its printed text in
//! the session's language and its type, number, fields and stats; on a declared name, its kind,
//! printed name, declaration line(s), comment (as `fuda words` reads it) and printed phrases.

use super::analysis::Analysis;
use super::names::{self, Cursor, Target};
use crate::ir::render::{Lang, Vocabulary};
use crate::ir::{self, Value};
use crate::tools::render::render_card;
use crate::tools::words::{self, Word};
use std::fmt::Write as _;

/// Most lines of a declaration a hover shows.
const MAX_DECLARATION_LINES: usize = 12;

/// The Markdown a hover on `c` shows (`None`: nothing known there).
pub fn hover(a: &Analysis, c: &Cursor, lang: Lang) -> Option<String> {
    match names::target(a, c)? {
        Target::Card(card) => Some(card_hover(a, card, lang)),
        Target::Names(found) => {
            let parts: Vec<String> = found.iter().map(|w| name_hover(a, w)).collect();
            Some(parts.join("\n\n---\n\n"))
        }
    }
}

/// A card: name, number and type, its fields and stats, its printed text.
pub fn card_hover(a: &Analysis, card: &ir::Card, lang: Lang) -> String {
    let game = a.game.clone().unwrap_or_default();
    let (text, _) = render_card(&a.session, card, &game, lang);
    let mut out = format!(
        "**{}** · `{}` · {}\n\n",
        card.name,
        card.number,
        local(&card.card_type)
    );
    let mut facts: Vec<String> = card
        .fields
        .iter()
        .map(|(k, v)| format!("{k}: {}", value(v)))
        .collect();
    facts.extend(
        card.stats
            .iter()
            .map(|(k, v)| format!("{}: {}", local(k), value(v))),
    );
    if !facts.is_empty() {
        let _ = writeln!(out, "{}\n", facts.join(" · "));
    }
    if !text.is_empty() {
        let _ = writeln!(out, "---\n\n{}", text.replace('\n', "  \n"));
    }
    out.trim_end().to_string()
}

/// A declared name: its kind and pack, printed name, declaration, comment and phrases.
pub fn name_hover(a: &Analysis, w: &Word) -> String {
    let mut out = format!("{} `{}` ({})", w.kind.replace('_', " "), w.name, w.pack);
    if let Some(label) = &w.label {
        let _ = write!(out, " — {label}");
    }
    out.push_str("\n\n");
    if let Some(lines) = declaration_lines(a, w) {
        let _ = writeln!(out, "```fuda\n{lines}\n```\n");
    }
    if let Some(comment) = &w.comment {
        let _ = writeln!(out, "{comment}\n");
    }
    for (lang, phrase) in phrases(a, w) {
        let _ = writeln!(out, "- printed ({lang}): {phrase}");
    }
    out.trim_end().to_string()
}

/// The lines of a name's declaration: the line of its name, and the lines after it up to where
/// its brackets close (at most [`MAX_DECLARATION_LINES`]).
fn declaration_lines(a: &Analysis, w: &Word) -> Option<String> {
    let (file, span) = names::declaration(a, w)?;
    let text = a.text(file);
    let start = text.get(..span.start)?.rfind('\n').map_or(0, |i| i + 1);
    let mut depth: i64 = 0;
    let mut lines = Vec::new();
    for line in text[start..].lines().take(MAX_DECLARATION_LINES) {
        lines.push(line.trim_end());
        depth += line.matches(['{', '(', '[']).count() as i64;
        depth -= line.matches(['}', ')', ']']).count() as i64;
        if depth <= 0 {
            break;
        }
    }
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    Some(
        lines
            .iter()
            .map(|l| l.get(indent..).unwrap_or(l.trim_start()))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// How a name reads in printed card text, by language (those its declaration gives).
fn phrases(a: &Analysis, w: &Word) -> Vec<(String, String)> {
    let Some(kind) = words::namespace(w.kind) else {
        return Vec::new();
    };
    let rulesets: Vec<&ir::Ruleset> = a
        .game_packs()
        .into_iter()
        .filter_map(|c| c.pack.ruleset.as_ref())
        .collect();
    let vocab = Vocabulary::new(&rulesets, &[]);
    let id = format!("{}:{}", w.pack, w.name);
    vocab
        .get(kind, &id)
        .map(|e| {
            e.name
                .phrases
                .iter()
                .map(|(lang, p)| (lang.clone(), format!("`{}`", p.text)))
                .collect()
        })
        .unwrap_or_default()
}

/// An id without its pack.
fn local(id: &str) -> &str {
    id.split_once(':').map_or(id, |(_, n)| n)
}

/// A field's value as a card would show it.
fn value(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::Text(t) => t.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Pair(p) => p.iter().map(i64::to_string).collect::<Vec<_>>().join("/"),
        Value::List(l) => l.iter().map(value).collect::<Vec<_>>().join(", "),
    }
}
