//! Completion of declared names: those of the kinds the context expects (a zone after `your.`,
//! a stat after another `.`, a keyword in a `keywords:` list, an event after `when`…), else
//! every declared name of the file's game, each with its kind (and printed name) as detail.
//! Inside a string, the names of the game's cards; inside a comment, nothing.

use super::analysis::Analysis;
use super::names::{self, Cursor};
use super::position::Lines;
use crate::compiler::lex::Token;
use crate::tools::words;
use lsp_types::{CompletionItem, CompletionItemKind, CompletionTextEdit, TextEdit};

/// The completions at a cursor.
pub fn complete(a: &Analysis, c: &Cursor) -> Vec<CompletionItem> {
    let Some(game) = &a.game else {
        return Vec::new();
    };
    if c.in_comment {
        return Vec::new();
    }
    if c.token == Some(Token::String) {
        return card_names(a, c);
    }
    let all = words::collect(&a.session, game).words;
    let wanted = names::expected_kinds(&c.before);
    let fits: Vec<&words::Word> = all
        .iter()
        .filter(|w| wanted.is_empty() || wanted.contains(&w.kind))
        .collect();
    let shown = if fits.is_empty() {
        all.iter().collect()
    } else {
        fits
    };
    let mut out: Vec<CompletionItem> = Vec::new();
    for w in shown {
        if out.iter().any(|i| i.label == w.name) {
            continue;
        }
        let detail = match &w.label {
            Some(l) => format!("{} — {l}", w.kind.replace('_', " ")),
            None => w.kind.replace('_', " "),
        };
        out.push(CompletionItem {
            label: w.name.clone(),
            kind: Some(item_kind(w.kind)),
            detail: Some(detail),
            documentation: w.comment.clone().map(lsp_types::Documentation::String),
            ..Default::default()
        });
    }
    out
}

/// The names of the game's cards, each replacing the string's content.
fn card_names(a: &Analysis, c: &Cursor) -> Vec<CompletionItem> {
    let Some(file) = a.file else {
        return Vec::new();
    };
    let text = a.text(file);
    let raw = text.get(c.span.start..c.span.end).unwrap_or_default();
    let inner = names::unquote(raw);
    // The content's place: after the opening quote, before the closing one.
    let open = raw.chars().next().map_or(0, char::len_utf8);
    let start = c.span.start + open;
    let range = Lines::new(text).range(start, start + inner.len());
    a.game_packs()
        .into_iter()
        .flat_map(|p| &p.pack.cards)
        .map(|card| CompletionItem {
            label: card.name.clone(),
            kind: Some(CompletionItemKind::CONSTANT),
            detail: Some(format!("card {}", card.number)),
            filter_text: Some(card.name.clone()),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                range,
                card.name.clone(),
            ))),
            ..Default::default()
        })
        .collect()
}

/// The editor's icon for a kind of name.
fn item_kind(kind: &str) -> CompletionItemKind {
    match kind {
        "verb" | "procedure" | "action" => CompletionItemKind::FUNCTION,
        "event" | "moment" => CompletionItemKind::EVENT,
        "stat" | "counter" => CompletionItemKind::FIELD,
        "state" => CompletionItemKind::ENUM_MEMBER,
        "keyword" | "attribute" => CompletionItemKind::KEYWORD,
        "card_type" | "ability" => CompletionItemKind::CLASS,
        "zone" | "slot_group" => CompletionItemKind::MODULE,
        _ => CompletionItemKind::VALUE,
    }
}
