//! What a mod pack may declare. A pack that requires its game's pack (a mod pack) adds names to
//! that game: zones, states, stats, layers, counters, card types, keywords, ability kinds,
//! attributes, events, moments, verbs, procedures and rules, written at the top level of its
//! files. The engine appends them to the game's ruleset (`engine::program`), so each works in
//! games exactly as if the game pack had declared it.
//!
//! What would change how the game itself runs — a second ruleset, the seats, `setup`, `turn`
//! and its phases, actions (no window of the game would offer them), deck rules, normalization,
//! the default duration, the trigger order — and what would compete with the game's own core
//! meanings (a second `= move` event, an activated ability kind no window offers) is the game
//! pack's alone: in a mod pack it is an error at the declaration, never a silently ignored line.

use super::{PackMeta, SourceUnit};
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::{FileId, Span};
use crate::compiler::ast::{Decl, GameDef, Item};

/// Reports every declaration of `units` that a mod pack may not make (`meta` builds on a game
/// pack: one of its requirements holds the game's ruleset), and removes them from `units`, so
/// that no later pass reads a refused declaration (a refused `turn` is not also a second
/// `turn` of the game).
pub(super) fn drop_refused(meta: &PackMeta, units: &mut [SourceUnit], diags: &mut Vec<Diagnostic>) {
    for unit in units.iter_mut() {
        let file = unit.file;
        unit.items.retain(|it| {
            let d = match &it.item {
                Item::Game(g) => Some(second_ruleset(meta, file, g)),
                Item::Decl(d) => refuse(file, d),
                Item::GameHeader(_) | Item::Card(_) => None,
            };
            let keep = d.is_none();
            diags.extend(d);
            keep
        });
    }
}

/// The error for a mod pack's `game … { … }` ruleset.
fn second_ruleset(meta: &PackMeta, file: FileId, g: &GameDef) -> Diagnostic {
    refusal(
        file,
        g.name.span,
        format!(
            "a mod pack holds no ruleset of its own: the ruleset of `{}` is in the game pack it requires",
            meta.game
        ),
        "a second ruleset",
    )
    .with_help(format!(
        "write the pack's declarations at the top level of a file that starts with `game {}`, outside any `{{ … }}` block",
        meta.game
    ))
}

/// The error for a declaration a mod pack may not make, if `d` is one.
fn refuse(file: FileId, d: &Decl) -> Option<Diagnostic> {
    let game_level = |span: Span, what: &str| {
        refusal(
            file,
            span,
            format!("a mod pack cannot declare {what}: it is the game pack's"),
            "only the game pack declares this",
        )
        .with_help("a mod pack adds names to its game (zones, states, stats, layers, counters, card types, keywords, ability kinds, attributes, events, moments, verbs, procedures, rules); how the game runs stays the game pack's")
    };
    Some(match d {
        Decl::Players(_, span) => game_level(*span, "the number of players"),
        Decl::Setup(span, _) => game_level(*span, "a `setup`"),
        Decl::Turn(span, _) => game_level(*span, "a `turn`"),
        Decl::Numbers(_, span) => game_level(*span, "card-number normalization"),
        Decl::Names(_, span) => game_level(*span, "name normalization"),
        Decl::Deck(_, _, span) => game_level(*span, "deck rules"),
        Decl::Durations(m) => game_level(m.span, "the default duration"),
        Decl::TriggerOrder(w) => game_level(w.span, "the trigger order"),
        Decl::Action(a) => refusal(
            file,
            a.named.name.span,
            format!("a mod pack cannot declare the action `{}`: no window of the game would offer it", a.named.name.name),
            "an action no window offers",
        )
        .with_help("write what the action does as a verb, and call it from a card's ability"),
        Decl::AbilityKind(k) if k.semantics.name == "activated" => refusal(
            file,
            k.semantics.span,
            format!("a mod pack cannot declare the activated ability kind `{}`: no window of the game would offer its abilities", k.named.name.name),
            "no window offers this kind",
        )
        .with_help("use one of the game's activated ability kinds, or declare a triggered, continuous or replacement kind"),
        Decl::Event(e) => {
            let core = e.core.as_ref()?;
            refusal(
                file,
                core.span,
                format!("a mod pack cannot give the event `{}` the core meaning `{}`: the game pack's events have it", e.named.name.name, core.name),
                "a core meaning of the game's",
            )
            .with_help("declare the event without `= …` and emit it from the pack's verbs, or trigger on the game's own event")
        }
        _ => return None,
    })
}

/// An error of [`codes::RESOLVE_MOD_PACK_DECLARATION`].
fn refusal(file: FileId, span: Span, message: String, label: &str) -> Diagnostic {
    Diagnostic::error(
        codes::RESOLVE_MOD_PACK_DECLARATION,
        file,
        span,
        message,
        label,
    )
}
