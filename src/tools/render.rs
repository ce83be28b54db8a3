//! `fuda render` and `fuda explain --lang`: every card's printed text in a language, from its
//! IR and the phrases its game (and the game's mod packs) declare; a warning at each
//! declaration that lacks a phrase the text needed.

use crate::base::diagnostic::{codes, Diagnostic};
use crate::ir::render::{self, Lang, Vocabulary};
use crate::ir::{Card, Ruleset};
use crate::packs::session::Session;
use serde::Serialize;
use std::collections::BTreeSet;

/// One card's printed text (`fuda render --format json`: `{"cards": [CardText…]}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardText {
    /// The card's id (`pack:number`).
    pub id: String,
    /// Its printed name.
    pub name: String,
    /// The language code.
    pub lang: String,
    /// Its text: keywords, then one line per ability.
    pub text: String,
}

/// The cards of the packs `packs` (indices into the session), rendered in `lang`, and one
/// warning per declaration some text needed a phrase of and found none.
pub fn render_packs(s: &Session, packs: &[usize], lang: Lang) -> (Vec<CardText>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut missing = BTreeSet::new();
    for &i in packs {
        let Some(compiled) = s.packs.get(i) else {
            continue;
        };
        let (rulesets, cards) = game_names(s, &compiled.pack.game);
        let vocab = Vocabulary::new(&rulesets, &cards);
        for c in &compiled.pack.cards {
            let r = render::card(&vocab, c, lang);
            missing.extend(r.missing);
            out.push(CardText {
                id: c.id.to_string(),
                name: c.name.clone(),
                lang: lang.code().to_string(),
                text: r.text,
            });
        }
    }
    let warnings = missing
        .iter()
        .filter_map(|(kind, id)| missing_phrase(s, kind, id, lang))
        .collect();
    (out, warnings)
}

/// One card's printed text, and the warnings of the declarations it lacked phrases of.
pub fn render_card(s: &Session, card: &Card, game: &str, lang: Lang) -> (String, Vec<Diagnostic>) {
    let (rulesets, cards) = game_names(s, game);
    let vocab = Vocabulary::new(&rulesets, &cards);
    let r = render::card(&vocab, card, lang);
    let warnings = r
        .missing
        .iter()
        .filter_map(|(kind, id)| missing_phrase(s, kind, id, lang))
        .collect();
    (r.text, warnings)
}

/// The rulesets (the game's and its mod packs') and the cards of every loaded pack of `game`.
fn game_names<'s>(s: &'s Session, game: &str) -> (Vec<&'s Ruleset>, Vec<&'s Card>) {
    let packs = || s.packs.iter().filter(move |p| p.pack.game == game);
    (
        packs().filter_map(|p| p.pack.ruleset.as_ref()).collect(),
        packs().flat_map(|p| &p.pack.cards).collect(),
    )
}

/// The warning for a name with no phrase in `lang`, at its declaration.
fn missing_phrase(s: &Session, kind: &str, id: &str, lang: Lang) -> Option<Diagnostic> {
    let (pack, name) = id.split_once(':')?;
    let compiled = s.packs.iter().find(|p| p.pack.name == pack)?;
    let origin = compiled
        .symbols
        .origins
        .get(&(kind.to_string(), name.to_string()))?;
    let code = lang.code();
    let example = match (kind, lang) {
        ("verb" | "procedure" | "event" | "keyword", Lang::En) => {
            format!("`reads {code} \"… {{param}} …\"`")
        }
        ("ability kind", Lang::En) => format!("`reads {code} \"[…] {{trigger}}: {{effect}}\"`"),
        ("ability kind", Lang::Ja) => {
            format!("`reads {code} \"【…】{{trigger}}場合、{{effect}}\"`")
        }
        _ => format!("`reads {code} \"…\"`"),
    };
    Some(
        Diagnostic::warning(
            codes::RENDER_MISSING_PHRASE,
            origin.file,
            origin.span,
            format!("{kind} `{name}` has no `{code}` phrase: printed text shows its {}", fallback(lang)),
            format!("no `{code}` phrase"),
        )
        .with_help(format!(
            "say how it reads in printed card text after its label: {example} (docs/language.md, \"Printed text\")"
        )),
    )
}

/// What a name without a phrase prints as.
fn fallback(lang: Lang) -> &'static str {
    match lang {
        Lang::Ja => "label",
        Lang::En => "id",
    }
}
