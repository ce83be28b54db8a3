//! Parsing: source text → AST with spans.
//!
//! `lex::split` cuts a file into top-level items; each item is parsed on its
//! own by the pest grammar (`grammar/fuda.pest`), so a syntax error in one card
//! does not hide the errors of the next. The pest tree is then turned into the
//! AST of `crate::ast` (`build.rs`, expressions in `expr.rs`).

mod build;
mod errors;
mod expr;

use crate::ast::Item;
use crate::diagnostic::Diagnostic;
use crate::lex::{self, ItemKind};
use crate::source::{FileId, Span};
use pest::Parser;

/// The pest parser generated from `grammar/fuda.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "grammar/fuda.pest"]
pub struct FudaParser;

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
