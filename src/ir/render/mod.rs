//! Printed card text from the IR, in Japanese or English.
//!
//! The words of a game are the game's: each ruleset declares, next to each name, how it reads
//! in printed text (`zone pile "山札" reads en "pile"`, `verb draw(…) "カードを引く" reads ja
//! "カードを{n}枚引く", en "draw {n} card{n:s}"`, an ability kind's frame `reads ja
//! "【自動α】{trigger}場合、{effect}"`). This module walks a card's IR and fills those
//! phrases; what it adds itself is the core language's grammar (`may`, `if`, choices, moves,
//! modifications, durations), one table per language in [`words`]. A name with no phrase for
//! the language is printed with its label (or id) and reported in [`Rendered::missing`], so
//! the caller can warn at the declaration; the renderer never fails.

mod expr;
mod stmt;
pub mod words;

use crate::ir::phrase::{template_pieces, Piece};
use crate::ir::{Card, Expr, Id, Labelled, Param, Phrase, Ruleset, Stmt};
use std::collections::{BTreeSet, HashMap};
pub use words::Lang;

/// A card's printed text, and the names that had no phrase in the language.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The text: keywords on the first line (when the card has any), then one line per ability.
    pub text: String,
    /// The declarations that lack a phrase for the language: (kind of name, id), sorted.
    pub missing: BTreeSet<(&'static str, Id)>,
}

/// What a declared name is, for the renderer: its label, phrases and parameters.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'r> {
    /// What kind of name it is, as diagnostics say it (`zone`, `verb`, `ability kind`…).
    pub kind: &'static str,
    /// The name.
    pub name: &'r Labelled,
    /// Its parameters (verbs, procedures, events, keywords), in order.
    pub params: &'r [Param],
}

/// The names of the rulesets a card is rendered against (a game's and its mod packs'), by id.
pub struct Vocabulary<'r> {
    entries: HashMap<(&'static str, &'r str), Entry<'r>>,
    card_names: HashMap<&'r str, &'r str>,
    /// Slot group name → its label.
    slot_groups: HashMap<&'r str, Option<&'r str>>,
}

impl<'r> Vocabulary<'r> {
    /// Indexes every declared name of `rulesets` and the names of `cards` (for `treat … as`
    /// and card-name texts, which print as they are).
    pub fn new(rulesets: &[&'r Ruleset], cards: &[&'r Card]) -> Self {
        let mut entries = HashMap::new();
        let mut add = |kind: &'static str, name: &'r Labelled, params: &'r [Param]| {
            entries.insert((kind, name.id.as_str()), Entry { kind, name, params });
        };
        let mut slot_groups = HashMap::new();
        for r in rulesets {
            for z in &r.zones {
                add("zone", &z.name, &[]);
                for g in &z.groups {
                    slot_groups.insert(g.name.as_str(), g.label.as_deref());
                }
            }
            for s in &r.states {
                add("state", &s.name, &[]);
                for m in &s.members {
                    add("state", m, &[]);
                }
            }
            for s in &r.stats {
                add("stat", &s.name, &[]);
            }
            for c in &r.counters {
                add("counter", &c.name, &[]);
            }
            for t in &r.card_types {
                add("card type", &t.name, &[]);
            }
            for k in &r.keywords {
                add("keyword", &k.name, &k.params);
            }
            for a in &r.ability_kinds {
                add("ability kind", &a.name, &[]);
            }
            for a in &r.attributes {
                add("attribute", &a.name, &[]);
            }
            for e in &r.events {
                add("event", &e.name, &e.params);
            }
            for m in &r.moments {
                add("moment", m, &[]);
            }
            for v in &r.verbs {
                add("verb", &v.name, &v.params);
            }
            for p in &r.procedures {
                add("procedure", &p.name, &p.params);
            }
            for l in &r.layers {
                add("layer", &l.name, &[]);
            }
        }
        let card_names = cards
            .iter()
            .map(|c| (c.id.as_str(), c.name.as_str()))
            .collect();
        Vocabulary {
            entries,
            card_names,
            slot_groups,
        }
    }

    /// The entry of a name of a kind (`zone`, `state`, `verb`…: one id may name a state and a
    /// verb).
    pub fn get(&self, kind: &'static str, id: &str) -> Option<Entry<'r>> {
        self.entries.get(&(kind, id)).copied()
    }
}

/// Renders one card's printed text in `lang`.
pub fn card(vocab: &Vocabulary, c: &Card, lang: Lang) -> Rendered {
    let mut r = Renderer::new(vocab, lang);
    let mut lines = Vec::new();
    if !c.keywords.is_empty() {
        let ks: Vec<String> = c
            .keywords
            .iter()
            .map(|k| r.keyword(&k.keyword, &k.args))
            .collect();
        lines.push(ks.join(r.w.keyword_separator()));
    }
    for a in &c.abilities {
        lines.push(r.ability(a));
    }
    Rendered {
        text: r.w.tidy(&lines.join("\n")),
        missing: r.missing,
    }
}

/// A `may` statement as the question its player is asked, in `lang`: "You may draw 1 card.
/// Do you?", 「カードを1枚引いてもよい。そうしますか？」; `None` for any other statement.
/// `bound`: how the variables in scope read (a verb's parameters, a chosen card), as the
/// asked player may know them.
pub fn may_question(
    vocab: &Vocabulary,
    stmt: &Stmt,
    lang: Lang,
    bound: &[(String, String)],
) -> Option<String> {
    let Stmt::May { body, .. } = stmt else {
        return None;
    };
    let mut r = Renderer::new(vocab, lang);
    for (var, reads_as) in bound {
        r.bind(var, reads_as.clone());
    }
    let parts: Vec<String> = body.iter().filter_map(|s| r.clause(s)).collect();
    let offer = r.w.sentence(&r.w.may(None, &parts));
    Some(r.w.tidy(&format!(
        "{offer}{}",
        r.w.pick(" Do you?", "そうしますか？")
    )))
}

/// The state of one rendering: the vocabulary, the language, what was missing, and what the
/// variables in scope stand for.
pub(crate) struct Renderer<'v, 'r> {
    vocab: &'v Vocabulary<'r>,
    pub(crate) w: words::Words,
    pub(crate) missing: BTreeSet<(&'static str, Id)>,
    /// Variable → how a later mention of it reads ("that card", or the value itself).
    vars: Vec<(String, String)>,
    /// Described cards read in the plural ("the number of cards in your hand").
    pub(crate) plural_nouns: bool,
}

impl<'v, 'r> Renderer<'v, 'r> {
    fn new(vocab: &'v Vocabulary<'r>, lang: Lang) -> Self {
        Renderer {
            vocab,
            w: words::Words::new(lang),
            missing: BTreeSet::new(),
            vars: Vec::new(),
            plural_nouns: false,
        }
    }

    /// The phrase of `id` in the language, noting it missing when there is none.
    fn phrase(&mut self, kind: &'static str, id: &str) -> Option<&'r Phrase> {
        let entry = self.vocab.get(kind, id)?;
        let found = entry.name.phrases.get(self.w.lang.code());
        if found.is_none() {
            self.missing.insert((entry.kind, crate::ir::Id::from(id)));
        }
        found
    }

    /// A name with no holes (a zone, state, stat, counter, card type, moment…): its phrase,
    /// or its label (Japanese) or its id's words (other languages) when it has none.
    pub(crate) fn noun(&mut self, kind: &'static str, id: &str) -> String {
        match self.phrase(kind, id) {
            Some(p) => p.text.clone(),
            None => self.fallback_name(kind, id),
        }
    }

    /// How a name without a phrase prints: the game's label in Japanese, the id's words
    /// otherwise.
    fn fallback_name(&self, kind: &'static str, id: &str) -> String {
        let label = self.vocab.get(kind, id).and_then(|e| e.name.label.clone());
        match (self.w.lang, label) {
            (Lang::Ja, Some(l)) => l,
            _ => short(id).replace('_', " "),
        }
    }

    /// A name with parameters, filled with `args` (by parameter name; a missing one reads as
    /// its type's indefinite noun). `explicit` picks the second form when there is one.
    pub(crate) fn filled(
        &mut self,
        kind: &'static str,
        id: &str,
        args: &[(String, String, bool)],
    ) -> String {
        let explicit = args.iter().any(|(_, _, not_default)| *not_default);
        let Some(entry) = self.vocab.get(kind, id) else {
            return short(id).replace('_', " ");
        };
        let Some(p) = self.phrase(kind, id) else {
            let rendered: Vec<&str> = args.iter().map(|(_, v, _)| v.as_str()).collect();
            let name = self.fallback_name(kind, id);
            return if rendered.is_empty() {
                name
            } else {
                format!("{name}({})", rendered.join(", "))
            };
        };
        let template = match (&p.explicit, explicit) {
            (Some(e), true) => e.as_str(),
            _ => p.text.as_str(),
        };
        let mut out = String::new();
        for piece in template_pieces(template) {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Hole { name, plural, .. } => {
                    let value = args.iter().find(|(n, _, _)| n == name);
                    let param = entry.params.iter().find(|p| p.name == name);
                    match (value, plural) {
                        (Some((_, v, _)), Some(_)) => {
                            if v != "1" && v != "you" && self.w.lang == Lang::En {
                                out.push('s');
                            }
                        }
                        (Some((_, v, _)), None) => out.push_str(v),
                        (None, Some(_)) => {
                            // an indefinite argument ("a player") is third person singular
                            if self.w.lang == Lang::En {
                                out.push('s');
                            }
                        }
                        (None, None) => {
                            out.push_str(&self.w.indefinite(param.map(|p| p.types.as_slice())))
                        }
                    }
                }
                Piece::Unclosed { .. } | Piece::Stray { .. } => {}
            }
        }
        out
    }

    /// A keyword with its values, as printed on the card.
    fn keyword(&mut self, id: &str, args: &[Expr]) -> String {
        let params = self
            .vocab
            .get("keyword", id)
            .map(|e| e.params)
            .unwrap_or(&[]);
        let filled: Vec<(String, String, bool)> = params
            .iter()
            .zip(args)
            .map(|(p, a)| (p.name.to_string(), self.expr(a), false))
            .collect();
        let has_phrase = self
            .vocab
            .get("keyword", id)
            .is_some_and(|e| e.name.phrases.contains_key(self.w.lang.code()));
        let text = self.filled("keyword", id, &filled);
        if has_phrase || filled.is_empty() {
            self.w.keyword_mark(&text)
        } else {
            // no phrase: the label and the values, in the keyword marks
            let name = self.fallback_name("keyword", id);
            let values: Vec<&str> = filled.iter().map(|(_, v, _)| v.as_str()).collect();
            self.w.keyword_mark(&format!("{name}{}", values.join(" ")))
        }
    }

    /// Binds a variable to how later mentions read.
    pub(crate) fn bind(&mut self, var: &str, reads_as: String) {
        self.vars.push((var.to_string(), reads_as));
    }

    /// How a variable reads.
    pub(crate) fn var(&self, var: &str) -> String {
        self.vars
            .iter()
            .rev()
            .find(|(v, _)| v == var)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| self.w.that_card())
    }

    /// Forgets the variables bound after `mark`.
    pub(crate) fn unbind_to(&mut self, mark: usize) {
        self.vars.truncate(mark);
    }

    /// How many variables are bound.
    pub(crate) fn bound(&self) -> usize {
        self.vars.len()
    }

    /// A slot or slot group as printed: a group's label in Japanese, a name's words otherwise.
    pub(crate) fn slot_name(&self, name: &str) -> String {
        match (self.w.lang, self.vocab.slot_groups.get(name)) {
            (Lang::Ja, Some(Some(label))) => label.to_string(),
            _ => name.replace('_', " "),
        }
    }

    /// A card's printed name, by id.
    pub(crate) fn card_name(&self, id: &str) -> Option<String> {
        self.vocab.card_names.get(id).map(|n| n.to_string())
    }
}

/// An id without its pack: `pack:pile` → `pile`.
pub(crate) fn short(id: &str) -> &str {
    id.rsplit(':').next().unwrap_or(id)
}
