//! The outline of a file (`textDocument/documentSymbol`): the cards it declares and the names it
//! declares (from the checker's record of where each name was declared), in file order.

use super::analysis::Analysis;
use super::names;
use super::position::Lines;
use crate::base::source::Span;
use lsp_types::{DocumentSymbol, SymbolKind};

/// The symbols of the analysed file.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written; it is `None`.
pub fn symbols(a: &Analysis) -> Vec<DocumentSymbol> {
    let Some(file) = a.file else {
        return Vec::new();
    };
    let mut found: Vec<(Span, String, String, SymbolKind)> = Vec::new();
    for c in a.game_packs() {
        for card in &c.pack.cards {
            if let Some((f, span)) = names::card_declaration(a, card) {
                if f == file {
                    let detail = format!("card {}", card.number);
                    found.push((span, card.name.clone(), detail, SymbolKind::CLASS));
                }
            }
        }
        for ((ns, name), origin) in &c.symbols.origins {
            if origin.file == file && !found.iter().any(|(s, ..)| *s == origin.span) {
                found.push((origin.span, name.clone(), ns.clone(), kind(ns)));
            }
        }
    }
    found.sort_by_key(|(s, ..)| s.start);
    let lines = Lines::new(a.text(file));
    found
        .into_iter()
        .map(|(span, name, detail, kind)| {
            let range = lines.range(span.start, span.end);
            DocumentSymbol {
                name,
                detail: Some(detail),
                kind,
                tags: None,
                deprecated: None,
                range,
                selection_range: range,
                children: None,
            }
        })
        .collect()
}

/// The editor's icon for a namespace of names.
fn kind(ns: &str) -> SymbolKind {
    match ns {
        "verb" | "procedure" | "action" => SymbolKind::FUNCTION,
        "event" | "moment" => SymbolKind::EVENT,
        "stat" | "counter" => SymbolKind::FIELD,
        "state" => SymbolKind::ENUM_MEMBER,
        "keyword" | "attribute" => SymbolKind::KEY,
        "card type" | "ability kind" => SymbolKind::CLASS,
        "zone" => SymbolKind::NAMESPACE,
        _ => SymbolKind::CONSTANT,
    }
}
