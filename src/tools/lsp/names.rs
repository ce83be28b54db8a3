//! What the cursor is on: the token there (on the lossless token stream, so a file that does
//! not parse still has tokens) and the tokens before it, and the declared name or card it
//! names in the compiled packs of the file's game.

use super::analysis::Analysis;
use crate::base::source::{FileId, Span};
use crate::compiler::lex::{self, Token};
use crate::ir;
use crate::tools::words::{self, Word};

/// The token at a position and what comes before it.
pub struct Cursor {
    /// The token's kind (`None`: a character no token starts with).
    pub token: Option<Token>,
    /// Its span.
    pub span: Span,
    /// Its text (a string's without its quotes).
    pub text: String,
    /// The texts of the (at most four) significant tokens before it, nearest first.
    pub before: Vec<String>,
    /// Whether the position is inside a comment.
    pub in_comment: bool,
}

/// The token of `text` at byte `offset`: the one holding it or, at a token's end (the cursor
/// right after a word), the one ending there.
pub fn cursor(text: &str, offset: usize) -> Cursor {
    let toks = lex::tokens(text);
    let significant = |t: &Result<Token, ()>| {
        !matches!(
            t,
            Ok(Token::Whitespace | Token::LineComment | Token::BlockComment)
        )
    };
    let at = toks
        .iter()
        .position(|(t, s)| s.start <= offset && offset < s.end && significant(t))
        .or_else(|| {
            toks.iter()
                .position(|(t, s)| s.end == offset && offset > s.start && significant(t))
        });
    let (token, span, upto) = match at {
        Some(i) => (toks[i].0.ok(), toks[i].1, i),
        None => (
            None,
            Span::new(offset, offset),
            toks.iter()
                .position(|(_, s)| s.start >= offset)
                .unwrap_or(toks.len()),
        ),
    };
    let before = toks[..upto]
        .iter()
        .rev()
        .filter(|(t, _)| significant(t))
        .take(4)
        .map(|(_, s)| text[s.start..s.end].to_string())
        .collect();
    let in_comment = toks.iter().any(|(t, s)| {
        matches!(t, Ok(Token::LineComment | Token::BlockComment))
            && s.start < offset
            && (offset < s.end || (offset == s.end && t == &Ok(Token::LineComment)))
    });
    let raw = text.get(span.start..span.end).unwrap_or_default();
    let text = match token {
        Some(Token::String) => unquote(raw).to_string(),
        _ => raw.to_string(),
    };
    Cursor {
        token,
        span,
        text,
        before,
        in_comment,
    }
}

/// A string token's content.
pub fn unquote(raw: &str) -> &str {
    let inner = raw
        .strip_prefix('"')
        .map(|r| r.strip_suffix('"').unwrap_or(r))
        .or_else(|| {
            raw.strip_prefix('「')
                .map(|r| r.strip_suffix('」').unwrap_or(r))
        });
    inner.unwrap_or(raw)
}

/// What a cursor names.
pub enum Target<'a> {
    /// A card, by its printed name (its declaration, or a string naming it).
    Card(&'a ir::Card),
    /// Declared names spelled like the token (one name may be, say, a state and a verb), those
    /// the context expects first.
    Names(Vec<Word>),
}

/// What the cursor of the file `file` names, among the packs of its game.
pub fn target<'a>(a: &'a Analysis, c: &Cursor) -> Option<Target<'a>> {
    match c.token? {
        Token::String => a.card_named(&c.text).map(Target::Card),
        Token::Ident => {
            let game = a.game.as_ref()?;
            let all = words::collect(&a.session, game).words;
            let mut found: Vec<Word> = all.into_iter().filter(|w| w.name == c.text).collect();
            if found.is_empty() {
                return None;
            }
            let wanted = expected_kinds(&c.before);
            found.sort_by_key(|w| !wanted.contains(&w.kind));
            Some(Target::Names(found))
        }
        _ => None,
    }
}

/// The kinds of names the context before a cursor expects (`fuda words` kinds), most likely
/// first; empty: any.
pub fn expected_kinds(before: &[String]) -> Vec<&'static str> {
    let at = |i: usize| before.get(i).map(String::as_str).unwrap_or_default();
    match (at(0), at(1), at(2)) {
        (".", "your" | "opponent", _) => {
            vec!["zone", "counter", "stat", "state"]
        }
        (".", _, _) => vec!["stat", "counter", "state", "zone"],
        (":", "keywords", _) | (",", _, _) if keyword_list(before) => vec!["keyword"],
        (":", "type", _) => vec!["card_type"],
        ("when" | "instead", _, _) => vec!["event", "moment"],
        ("has", _, _) => vec!["keyword", "attribute", "state"],
        ("is" | "not", _, _) => vec!["state", "card_type"],
        ("in" | "from" | "to" | "on", _, _) => vec!["zone", "card_type"],
        ("until", _, _) => vec!["moment", "event"],
        ("{" | "}", _, _) => vec!["verb", "procedure"],
        _ => Vec::new(),
    }
}

/// Whether the tokens before a cursor are a card's `keywords:` list.
fn keyword_list(before: &[String]) -> bool {
    let mut i = 0;
    while i + 1 < before.len() && before[i] == "," {
        i += 2;
    }
    before.get(i).map(String::as_str) == Some(":")
        && before.get(i + 1).map(String::as_str) == Some("keywords")
}

/// Where a declared name is declared: its file and the span of its name.
pub fn declaration(a: &Analysis, w: &Word) -> Option<(FileId, Span)> {
    let ns = words::namespace(w.kind);
    for c in a.game_packs() {
        if let Some(ns) = ns {
            if let Some(o) = c.symbols.origins.get(&(ns.to_string(), w.name.clone())) {
                if c.pack.name == w.pack || a.game_packs().len() == 1 {
                    return Some((o.file, o.span));
                }
            }
        }
    }
    // Names the checker's record does not keep (phases, slot groups): the line `fuda words`
    // found, at its first mention of the name.
    let file = a.file_by_shown(w.file.as_deref()?)?;
    let text = a.text(file);
    let line = w.line?.checked_sub(1)?;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let line_text = text[start..].lines().next().unwrap_or_default();
    let col = line_text.find(w.name.as_str()).unwrap_or(0);
    Some((file, Span::new(start + col, start + col + w.name.len())))
}

/// Where a card is declared: its file and the span of its name.
pub fn card_declaration(a: &Analysis, card: &ir::Card) -> Option<(FileId, Span)> {
    let (shown, start, _) = *a
        .game_packs()
        .into_iter()
        .find_map(|c| c.spans.get(&format!("cards/{}", card.id)))?;
    let file = a.file_by_shown(&shown)?;
    let text = a.text(file);
    let name = lex::token_iter(text.get(start..)?)
        .find(|(t, _)| *t == Ok(Token::String))
        .map_or(Span::new(start, start), |(_, s)| s.shift(start));
    Some((file, name))
}
