//! Parsing: source text → AST with spans.
//!
//! `lex::split` cuts a file into top-level items; each item is parsed on its
//! own by the pest grammar (`grammar/fuda.pest`), so a syntax error in one card
//! does not hide the errors of the next. The pest tree is then turned into the
//! AST of `crate::compiler::ast` (`build.rs`, expressions in `expr.rs`).

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
pub fn parse_file(src: &str, file: FileId, diags: &mut Vec<Diagnostic>) -> Vec<ParsedItem> {
    let items = lex::split(src, file, diags);
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        if !item.parse {
            continue;
        }
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
                if let Some(parsed) = builder.item(pair) {
                    out.push(ParsedItem {
                        item: parsed,
                        span: item.span,
                    });
                }
            }
            Err(e) => diags.push(errors::syntax_error(
                e,
                src,
                item.span.start,
                file,
                item.kind,
            )),
        }
    }
    out
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
