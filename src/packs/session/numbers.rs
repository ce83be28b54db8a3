//! Card numbers two loaded packs of one game both use: a mod pack's card numbered like a card of
//! the game (or of another mod). A deck names cards by number and counts copies by number, so
//! such a number would mean either card; the session reports it once every pack is loaded.
//! Where the game counts cards by number and a field together (`copies 4 per_number and work`:
//! Precious Memories), a card with the same number and another value of the field is another
//! card, and no clash.

use super::{file_id, Session};
use crate::base::diagnostic::{codes, Diagnostic, Label};
use crate::base::source::{FileId, Span};
use crate::compiler::lex::{self, Token};
use crate::ir;
use std::collections::HashMap;

impl Session {
    /// Reports each card of a later pack whose normalized number a card of an earlier loaded
    /// pack of the same game has (primary label at the later card's number, related at the
    /// earlier card). Reports each once however often it runs.
    pub(crate) fn check_number_clashes(&mut self) {
        let mut found = Vec::new();
        for (b, second) in self.packs.iter().enumerate() {
            for first in &self.packs[..b] {
                if first.pack.game != second.pack.game || first.pack.name == second.pack.name {
                    continue;
                }
                // `copies N per_number and <field>`: cards differing in the field are others.
                let fields: Vec<&str> = self
                    .game_ruleset(&second.pack.game)
                    .map(|r| {
                        r.deck
                            .iter()
                            .filter_map(|d| match d {
                                ir::DeckRule::CopiesAnd { field, .. } => Some(field.as_str()),
                                _ => None,
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                // by number first, so that cards loaded from the cache are decoded only when
                // their numbers meet
                let mut by_number: HashMap<&str, Vec<usize>> = HashMap::new();
                for i in 0..first.pack.cards.len() {
                    if let Some(n) = first.pack.cards.normalized_number(i) {
                        by_number.entry(n).or_default().push(i);
                    }
                }
                for i in 0..second.pack.cards.len() {
                    let Some(n) = second.pack.cards.normalized_number(i) else {
                        continue;
                    };
                    let Some(candidates) = by_number.get(n) else {
                        continue;
                    };
                    let card = &second.pack.cards[i];
                    let same = candidates
                        .iter()
                        .map(|&j| &first.pack.cards[j])
                        .find(|c| fields.iter().all(|f| c.fields.get(f) == card.fields.get(f)));
                    if let Some(other) = same {
                        found.push((b, card.id, other.id, other.name.clone()));
                    }
                }
            }
        }
        for (b, id, other_id, other_name) in found {
            let Some(at) = self.number_at(b, &id) else {
                continue;
            };
            let other_pack = other_id.split(':').next().unwrap_or_default().to_string();
            let other_at = self
                .packs
                .iter()
                .position(|p| p.pack.name == other_pack)
                .and_then(|i| self.number_at(i, &other_id));
            let Some(card) = self.packs[b].pack.cards.iter().find(|c| c.id == id) else {
                continue;
            };
            let mut d = Diagnostic::error(
                codes::PACK_NUMBER_CLASH,
                at.0,
                at.1,
                format!(
                    "card number `{}` of `{}` is already the number of `{other_name}` in pack `{other_pack}`",
                    card.number, card.name
                ),
                format!("`{other_name}` ({other_pack}) has this number"),
            )
            .with_help(format!(
                "a deck names and counts cards by number, so `{}` would mean either card: give the \
                 cards of `{}` numbers of their own (a prefix, say `N{}`)",
                card.number, self.packs[b].pack.name, card.number
            ));
            if let Some((f, s)) = other_at {
                d = d.with_related(Label::new(f, s, format!("`{other_name}` is numbered here")));
            }
            if !self.diags.contains(&d) {
                self.diags.push(d);
            }
        }
    }

    /// Where the card `id` of pack `i` writes its number: the string after `number:` in the
    /// card's text (read on its lossless tokens), else the whole card.
    fn number_at(&self, i: usize, id: &str) -> Option<(FileId, Span)> {
        let (path, start, end) = self.packs.get(i)?.spans.get(&format!("cards/{id}"))?;
        let file = file_id(&self.sources, path)?;
        let text = self.sources.get(file).text.get(*start..*end)?;
        let mut seen_word = false;
        let mut seen_colon = false;
        for (tok, span) in lex::token_iter(text) {
            let here = text.get(span.start..span.end).unwrap_or_default();
            match tok {
                Ok(Token::Whitespace | Token::LineComment | Token::BlockComment) => continue,
                Ok(Token::Ident) if here == "number" => {
                    seen_word = true;
                    seen_colon = false;
                    continue;
                }
                Ok(Token::Punct) if seen_word && here == ":" => {
                    seen_colon = true;
                    continue;
                }
                Ok(Token::String) if seen_colon => {
                    return Some((file, span.shift(*start)));
                }
                _ => {}
            }
            seen_word = false;
            seen_colon = false;
        }
        Some((file, Span::new(*start, *end)))
    }
}
