//! Go to definition: a declared name jumps to where it is declared (in whichever pack: a mod
//! pack's card using its game's verb jumps into the game's ruleset), a card name to the card.

use super::analysis::{uri_of, Analysis};
use super::names::{self, Cursor, Target};
use super::position::Lines;
use lsp_types::Location;

/// Where what the cursor names is declared (every candidate, the expected kinds first).
pub fn definition(a: &Analysis, c: &Cursor) -> Vec<Location> {
    let spots = match names::target(a, c) {
        Some(Target::Card(card)) => names::card_declaration(a, card).into_iter().collect(),
        Some(Target::Names(found)) => found
            .iter()
            .filter_map(|w| names::declaration(a, w))
            .collect::<Vec<_>>(),
        None => Vec::new(),
    };
    let mut out: Vec<Location> = Vec::new();
    for (file, span) in spots {
        let Some(uri) = uri_of(a.session.sources.get(file)) else {
            continue;
        };
        let range = Lines::new(a.text(file)).range(span.start, span.end);
        let loc = Location::new(uri, range);
        if !out.contains(&loc) {
            out.push(loc);
        }
    }
    out
}
