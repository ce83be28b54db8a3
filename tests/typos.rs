//! A typo in any name of any shipped card is caught at that token, with a
//! "did you mean": every identifier of every card is mutated in turn, and the
//! mutated card must fail with an error on the mutated token whose help names
//! the intended word.

use fuda::compiler::lex::{self, ItemKind, Token};
use fuda::packs::{PackSource, Session};
use std::path::Path;

/// Grammar words that are not names (connectors of the syntax): a typo in
/// them is a syntax error, covered by the diagnostics corpus instead.
const SYNTAX_WORDS: &[&str] = &[
    "at", "by", "of", "on", "in", "to", "as", "with", "per", "up", "any", "one", "option", "limit",
    "layer",
];

#[test]
fn every_name_typo_in_shipped_cards_is_caught_at_the_token() {
    let mut session = Session::new();
    session.check_path(Path::new("cards"));
    assert_eq!(
        session.error_count(),
        0,
        "shipped cards must check clean first"
    );
    let mut files: Vec<_> = std::fs::read_dir("cards")
        .expect("cards/")
        .filter_map(Result::ok)
        .flat_map(|g| {
            std::fs::read_dir(g.path().join("sets"))
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
        })
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "fuda"))
        .collect();
    files.sort();
    assert!(!files.is_empty());

    let mut failures = Vec::new();
    let mut tried = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let mut d = Vec::new();
        let items = lex::split(&text, fuda::base::source::FileId(0), &mut d);
        let game = text
            .lines()
            .find_map(|l| l.strip_prefix("game "))
            .expect("game header")
            .trim()
            .to_string();
        for item in items.iter().filter(|i| i.kind == ItemKind::Card) {
            let card = &text[item.span.start..item.span.end];
            let toks = lex::tokens(card);
            let significant: Vec<_> = toks
                .iter()
                .filter(|(t, _)| {
                    !matches!(
                        t,
                        Ok(Token::Whitespace | Token::LineComment | Token::BlockComment)
                    )
                })
                .collect();
            for (i, (tok, span)) in significant.iter().enumerate() {
                let word = &card[span.start..span.end];
                if *tok != Ok(Token::Ident)
                    || lex::is_keyword(word)
                    || SYNTAX_WORDS.contains(&word)
                    || word == "card" && i == 0
                {
                    continue;
                }
                // Binders introduce a name: a typo there only moves the problem to the uses.
                let prev = i
                    .checked_sub(1)
                    .map(|j| &card[significant[j].1.start..significant[j].1.end]);
                if matches!(prev, Some("let" | "each")) {
                    continue;
                }
                // `random player`, `random number …`: grammar words after `random`.
                if prev == Some("random") {
                    continue;
                }
                // `where c:` binds a name for the filter's candidate.
                let next = significant.get(i + 1).map(|(_, s)| &card[s.start..s.end]);
                if prev == Some("where") && next == Some(":") {
                    continue;
                }
                let header = format!("game {game}\n");
                let mutated = format!(
                    "{header}{}{word}q{}",
                    &card[..span.start],
                    &card[span.end..]
                );
                let at = header.len() + span.start;
                tried += 1;
                let before = session.diags.len();
                let name = format!("typo_{tried}.fuda");
                session.compile_source(PackSource::in_memory(&name, mutated.into_bytes()));
                let new = &session.diags[before..];
                let hit = new.iter().any(|d| {
                    d.is_error()
                        && d.primary.span.start <= at
                        && at < d.primary.span.end.max(at + 1)
                        && d.help
                            .as_deref()
                            .is_some_and(|h| h.contains(&format!("`{word}`")))
                });
                if !hit {
                    let got: Vec<String> = new
                        .iter()
                        .map(|d| {
                            format!(
                                "{} at {}..{}: {} (help: {:?})",
                                d.code, d.primary.span.start, d.primary.span.end, d.message, d.help
                            )
                        })
                        .collect();
                    failures.push(format!(
                        "{}: `{word}` → `{word}q` at byte {at}: {:#?}",
                        path.display(),
                        got
                    ));
                }
            }
        }
    }
    assert!(tried > 100, "only {tried} names tried");
    assert!(
        failures.is_empty(),
        "{} of {tried} typos not caught at their token with a did-you-mean:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
