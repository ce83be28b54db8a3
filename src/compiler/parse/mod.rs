//! Parsing: source text → AST with spans.
//!
//! `lex::split` cuts a file into top-level items; each item is parsed on its
//! own by the pest grammar (`grammar/fuda.pest`), so a syntax error in one card
//! does not hide the errors of the next. The pest tree is then turned into the
//! AST of `crate::compiler::ast` (`build.rs`; declarations in `build/decl.rs`,
//! statements in `build/stmt.rs`, expressions in `expr.rs`), and pest's errors into
//! diagnostics (`errors.rs`).
//!
//! # Naming conventions
//!
//! - **`Rule`** is the enum pest derives from the grammar: one variant per rule, named as the
//!   rule is (`Rule::zone_decl`, `Rule::move_stmt`). Rules named `kw_*` are keyword tokens.
//! - **A pair** (`Pair<Rule>`, written `P<'i>` in the builder) is one matched rule with its text
//!   and its child pairs. `build::children(pair)` gives the significant children: `kw_*` pairs
//!   are skipped, so code reads the parts a rule names (`ident`, `expr`, `block`…) in order.
//!   `Parts` is those children collected into a peekable iterator, which the methods for
//!   declarations and statements take.
//! - **`Builder`** walks the pairs of one item and builds its AST; it carries the file, the
//!   item's byte offset, the diagnostics, the block depth, and whether the item failed.
//! - **`ParsedItem`** is what [`parse_file`] returns: one built `ast::Item` with the span of its
//!   source. An item with any diagnostic is left out.
//! - **Builder methods are named after the grammar rule they build**: `zone_decl` builds a
//!   `zone_decl` pair, `if_stmt` an `if_stmt`, `choice_expr` a `choice_expr`, `item_card` an
//!   `item_card`. `decl` and `stmt` are the dispatchers: one short `match` on the rule, whose
//!   arms call those methods (grouped by family, one-part rules built in the arm itself). A
//!   method for a shape several rules share is named after the shape: `signature` (the
//!   `name (params) "label"` head of keywords, events, verbs and procedures), `named_from`
//!   (`name "label"`), `keyword_change` (what `grant` and `remove` share), `mapped_decl`,
//!   `proc_decl`; a list of one rule's pairs is named in the plural (`norm_rules`, `deck_rules`),
//!   and a suffix names what a method builds where the bare rule name would mislead (`pair_lit`
//!   for the `pair` literal, `quantity_of` for a choice's `quantity`). Expressions are free functions in `expr.rs` taking the builder (`build`,
//!   `postfix`, `primary`, `choice_expr`…).
//! - **Small readers**: `ident`, `string`, `integer` read a leaf; `expr`, `block` build one
//!   child; `inner_expr` builds the one expression a wrapper pair holds (`(who)`, `if cond`);
//!   `next_expr` and `next_block` build the next of a statement's `Parts`; `call_args` the
//!   `(args)` of a call, empty when absent.
//! - **`expect("grammar: …")`** marks a shape the grammar guarantees (a rule that always has
//!   that child), so it never fails on any input; the text names the part expected. Anything
//!   that input can get wrong is a diagnostic through `Builder::error`, never a panic.
//!   `unreachable!("grammar: …")` is the same promise for a rule a dispatcher cannot receive.
//! - **Spans** are taken with `Builder::span(&pair)`: the pair's bytes shifted by the item's
//!   offset into the file, without the trailing whitespace and comments pest may leave inside
//!   it. A node's span is taken before its pair is consumed by `into_inner`/`children`.

mod build;
mod errors;
mod expr;

use crate::base::diagnostic::Diagnostic;
use crate::base::source::{FileId, Span};
use crate::compiler::ast::Item;
use crate::compiler::lex::{self, ItemKind};
use pest::Parser;

pub use generated::{FudaParser, Rule};

/// What pest generates from the grammar: the parser and its `Rule` enum, one variant per grammar
/// rule (documented in `grammar/fuda.pest` itself, so the generated items carry no doc comments).
mod generated {
    #![allow(missing_docs)]

    /// The pest parser generated from `grammar/fuda.pest`.
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar/fuda.pest"]
    pub struct FudaParser;
}

/// A parsed item with the span of its source.
#[derive(Debug, Clone)]
pub struct ParsedItem {
    /// The item.
    pub item: Item,
    /// Its bytes in the file.
    pub span: Span,
}

/// Parses every item of `src`; items with syntax errors are left out and
/// their diagnostics added to `diags`.
///
/// Items are parsed in parallel on the current rayon pool and joined in source order, each
/// with its own diagnostics, so the items, their spans and the diagnostics (and their order)
/// are the same whatever the number of threads.
pub fn parse_file(src: &str, file: FileId, diags: &mut Vec<Diagnostic>) -> Vec<ParsedItem> {
    if rayon::current_num_threads() < 2 {
        let items: Vec<Unparsed> = lex::split(src, file, diags)
            .into_iter()
            .filter(|item| item.parse)
            .map(Unparsed)
            .collect();
        return parse_items(src, file, &items, diags);
    }
    streamed(src, file, diags)
}

/// [`parse_file`] on several threads: the pre-pass hands each item over as soon as it is
/// complete, and the other threads parse it meanwhile (the pre-pass, on one thread, no longer
/// runs before any parsing). Items and diagnostics are put back in source order: the
/// pre-pass's diagnostics first, then each item's, as [`parse_items`] gives them.
fn streamed(src: &str, file: FileId, diags: &mut Vec<Diagnostic>) -> Vec<ParsedItem> {
    use rayon::prelude::*;
    let (sender, receiver) = std::sync::mpsc::channel::<(usize, lex::Item)>();
    let mut found = Vec::new();
    let ((), mut parsed) = rayon::join(
        || {
            let sender = sender;
            let mut n = 0usize;
            lex::split_each(src, file, &mut found, |item| {
                if item.parse {
                    // the receiver is read until the sender is dropped: a send does not fail
                    let _ = sender.send((n, item));
                    n += 1;
                }
            });
        },
        || {
            receiver
                .into_iter()
                .par_bridge()
                .map(|(n, item)| {
                    let mut own = Vec::new();
                    let parsed = parse_item(src, file, &item, &mut own);
                    (n, parsed, own)
                })
                .collect::<Vec<_>>()
        },
    );
    parsed.sort_unstable_by_key(|(n, _, _)| *n);
    diags.append(&mut found);
    let mut items = Vec::with_capacity(parsed.len());
    for (_, item, mut own) in parsed {
        diags.append(&mut own);
        items.extend(item);
    }
    items
}

/// A top-level item the pre-pass found and that has not been parsed yet (see
/// [`parse_file_but_cards`]).
#[derive(Debug, Clone)]
pub struct Unparsed(lex::Item);

impl Unparsed {
    /// Its bytes in the file.
    pub fn span(&self) -> Span {
        self.0.span
    }
}

/// Parses the items of `src` but its cards, which are returned unparsed: a pack's cards are
/// parsed a few hundred at a time by the checker (`parse_items`), each freed once its IR is
/// built, so a big pack's syntax trees are never all held at once. Diagnostics as
/// [`parse_file`]'s (the cards' own come when they are parsed).
pub fn parse_file_but_cards(
    src: &str,
    file: FileId,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<ParsedItem>, Vec<Unparsed>) {
    let (cards, others): (Vec<Unparsed>, Vec<Unparsed>) = lex::split(src, file, diags)
        .into_iter()
        .filter(|item| item.parse)
        .map(Unparsed)
        .partition(|item| item.0.kind == ItemKind::Card);
    (parse_items(src, file, &others, diags), cards)
}

/// Parses `items` of `src` in parallel on the current rayon pool, joined in source order; items
/// with syntax errors are left out and their diagnostics added to `diags` in item order.
pub fn parse_items(
    src: &str,
    file: FileId,
    items: &[Unparsed],
    diags: &mut Vec<Diagnostic>,
) -> Vec<ParsedItem> {
    use rayon::prelude::*;
    let (parsed, found): (Vec<Option<ParsedItem>>, Vec<Vec<Diagnostic>>) = items
        .par_iter()
        // (no `filter`: an indexed iterator is collected straight into its final vectors)
        .map(|item| {
            let mut own = Vec::new();
            let parsed = parse_item(src, file, &item.0, &mut own);
            (parsed, own)
        })
        .unzip();
    diags.extend(found.into_iter().flatten());
    // `filter_map` (not `flatten`) is collected in place: the items are not copied into a
    // second vector, which a big file would briefly hold twice.
    #[allow(clippy::filter_map_identity)]
    parsed.into_iter().filter_map(|p| p).collect()
}

/// Parses one item of `src` (pest, then the AST builder); `None` when it has a syntax error.
fn parse_item(
    src: &str,
    file: FileId,
    item: &lex::Item,
    diags: &mut Vec<Diagnostic>,
) -> Option<ParsedItem> {
    let text = &src[item.span.start..item.span.end];
    let rule = match item.kind {
        ItemKind::Game => Rule::item_game,
        ItemKind::Card => Rule::item_card,
        ItemKind::Decl => Rule::item_decl,
    };
    match FudaParser::parse(rule, text) {
        Ok(mut pairs) => {
            let pair = pairs.next().expect("entry rule produces one pair");
            let mut builder = build::Builder::new(file, item.span.start, diags);
            builder.item(pair).map(|parsed| ParsedItem {
                item: parsed,
                span: item.span,
            })
        }
        Err(e) => {
            diags.push(errors::syntax_error(
                e,
                src,
                item.span.start,
                file,
                item.kind,
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{FudaParser, Rule};
    use crate::compiler::lex;

    #[test]
    fn the_grammar_reserves_the_same_words() {
        use pest::Parser;
        for w in lex::KEYWORDS {
            let whole = FudaParser::parse(Rule::keyword, w).is_ok_and(|p| p.as_str() == *w);
            assert!(whole, "the grammar's `keyword` rule does not reserve `{w}`");
            assert!(
                FudaParser::parse(Rule::ident, w).is_err(),
                "`{w}` parses as a name"
            );
        }
        for w in [
            "draw", "on", "card", "event", "yours", "iff", "top_card", "wind", "windows", "phases",
            "checked", "reaches", "resolved", "chains", "turn", "setup", "action", "rule",
        ] {
            assert!(
                FudaParser::parse(Rule::ident, w).is_ok_and(|p| p.as_str() == w),
                "`{w}` is not a name"
            );
        }
    }
}
