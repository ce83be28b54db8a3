//! Property tests (bounded: 256 cases each, deterministic seed; see `runner`):
//! - arbitrary text and bytes never make a check panic, and every diagnostic
//!   span lies inside its file, on char boundaries;
//! - lexing is lossless: the token slices concatenate back to the source;
//! - mutating a valid card (deleting a char, inserting a bracket, quote or
//!   letter) never makes a check panic.
//!
//! Each property runs on a thread with the CLI's 256 MB stack (`src/main.rs`).

use fuda::base::diagnostic::{self, RenderOptions};
use fuda::base::source::FileId;
use fuda::packs::{PackSource, Session};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::cell::{Cell, RefCell};

const STACK: usize = 256 << 20;

/// A lone in-memory file.
fn lone(path: &str, bytes: Vec<u8>) -> PackSource {
    PackSource::in_memory(path, bytes)
}

/// A small self-contained ruleset and a valid card for it.
const MINI: &str = r#"game mini "Mini" {
  players 2
  zone deck "Deck" private ordered per_player
  zone hand "Hand" private per_player
  zone field "Field" public per_player
  zone grave "Grave" public per_player
  stat attack "Attack"
  counter damage "Damage" on player, card
  card_type character "Character" { cost: number  attack: stat }
  keyword pierce "Pierce"
  ability auto "Auto" = triggered
  event attacks(attacker: card, defender: card?) "Attacks"
  moment end_of_turn "End of turn"
  verb draw(n: number) "Draw" { move top n of you.deck to you.hand }
  verb destroy(c: card) "Destroy" { move c to owner(c).grave }
}

card "Alpha" {
  number: "001"
  type: character
  cost: 1
  attack: 2
  keywords: pierce
  auto when this attacks {
    may draw 1
    if count(character on opponent.field) >= 2 { draw 1 } else { draw 2 }
    destroy target 1 character on opponent.field
    let x = -(1 + 2) * 3
    opponent.damage += x
  }
}
"#;

/// Pieces of fuda text: words, brackets, quotes, comments, odd whitespace and bytes.
const FRAGMENTS: &[&str] = &[
    "game",
    "mini",
    "card",
    "\"X\"",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "「",
    "」",
    "/*",
    "*/",
    "//",
    "\n",
    "\r\n",
    " ",
    "\t",
    "\u{3000}",
    "\u{FEFF}",
    "\0",
    "é",
    "札",
    "if",
    "else",
    "may",
    "not",
    "-",
    "target",
    "choose",
    "1",
    "99999999999999999999",
    "3/2",
    "+1/_",
    "±0",
    "x",
    ".",
    "attack",
    "draw",
    "let",
    "=",
    "+=",
    "==",
    "<->",
    ":",
    ",",
    ";",
    "when",
    "this",
    "attacks",
    "auto",
    "number:",
    "type:",
    "character",
    "on",
    "opponent",
    "field",
    "until",
    "end_of_turn",
    "\\",
    "\\\"",
    "?",
    "??",
    "|",
    "where",
];

/// A runner for `cases` cases (or `PROPTEST_CASES`), seeded the same way every run
/// unless `FUDA_PROPTEST_RANDOM` is set (for longer exploratory runs).
fn runner(cases: u32) -> TestRunner {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    if std::env::var_os("FUDA_PROPTEST_RANDOM").is_some() {
        return TestRunner::new(config);
    }
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// Runs `f` on a thread with the CLI's stack; a panic (or a failed property) fails the test.
fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .expect("spawn")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

/// Checks `bytes` as the lone file `path` in `s` (as `fuda check` does) and returns
/// an error message for the first diagnostic of that file whose span is out of place.
fn check_in(s: &mut Session, path: &str, bytes: Vec<u8>) -> Result<(), String> {
    let first = s.diags.len();
    s.compile_source(lone(path, bytes));
    let file: FileId =
        fuda::packs::session::file_id(&s.sources, path).ok_or("file not registered")?;
    let src = s.sources.get(file);
    for d in &s.diags[first..] {
        for l in std::iter::once(&d.primary).chain(&d.related) {
            if l.file != file {
                continue;
            }
            let sp = l.span;
            if !(sp.start <= sp.end && sp.end <= src.text.len()) {
                return Err(format!(
                    "span {sp:?} outside the text ({} bytes): {}",
                    src.text.len(),
                    d.message
                ));
            }
            if !(src.text.is_char_boundary(sp.start) && src.text.is_char_boundary(sp.end)) {
                return Err(format!("span {sp:?} not on char boundaries: {}", d.message));
            }
            let _ = src.line_col(sp.start);
        }
    }
    for d in s.diags[first..].iter().take(5) {
        let _ = diagnostic::render(d, &s.sources, RenderOptions::plain());
    }
    Ok(())
}

fn check_fresh(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    let mut s = Session::new();
    check_in(&mut s, "prop.fuda", bytes).map_err(TestCaseError::fail)?;
    s.finish();
    Ok(())
}

/// Text made of fuda fragments, after a ruleset, a `game` line or nothing.
fn fuda_soup() -> impl Strategy<Value = String> {
    let prefix = prop::sample::select(vec!["", "game mini\n", MINI]);
    (
        prefix,
        prop::collection::vec(prop::sample::select(FRAGMENTS), 0..300),
    )
        .prop_map(|(p, parts)| format!("{p}{}", parts.join(" ")))
}

// ───────────────────────────── (a) arbitrary input ─────────────────────────────

#[test]
fn arbitrary_text_never_panics_and_spans_stay_inside() {
    big_stack(|| {
        runner(256)
            .run(&any::<String>(), |text| check_fresh(text.into_bytes()))
            .unwrap();
        runner(256)
            .run(&fuda_soup(), |text| check_fresh(text.into_bytes()))
            .unwrap();
    });
}

#[test]
fn arbitrary_bytes_never_panic() {
    big_stack(|| {
        let bytes = (
            prop::sample::select(vec![&b""[..], b"\xEF\xBB\xBF", b"game mini\n"]),
            prop::collection::vec(any::<u8>(), 0..2000),
        )
            .prop_map(|(p, b)| [p, &b].concat());
        runner(256).run(&bytes, check_fresh).unwrap();
    });
}

// ───────────────────────────── (b) lossless lexing ─────────────────────────────

fn assert_lossless(src: &str) -> Result<(), TestCaseError> {
    let mut at = 0;
    let mut out = String::with_capacity(src.len());
    for (_, span) in fuda::compiler::lex::tokens(src) {
        prop_assert_eq!(span.start, at, "tokens must be contiguous");
        prop_assert!(
            span.end > span.start && span.end <= src.len(),
            "bad span {:?}",
            span
        );
        prop_assert!(src.is_char_boundary(span.start) && src.is_char_boundary(span.end));
        out.push_str(&src[span.start..span.end]);
        at = span.end;
    }
    prop_assert_eq!(out, src);
    Ok(())
}

#[test]
fn token_slices_concatenate_to_the_source() {
    big_stack(|| {
        runner(256)
            .run(&any::<String>(), |s| assert_lossless(&s))
            .unwrap();
        runner(256)
            .run(&fuda_soup(), |s| assert_lossless(&s))
            .unwrap();
        for seed in seeds() {
            assert_lossless(&seed).unwrap();
        }
    });
}

// ───────────────────────────── (c) mutated cards ─────────────────────────────

/// The mini card, and the shipped PMV card sets when present.
fn seeds() -> Vec<String> {
    let mut out = vec![MINI.to_string()];
    if let Ok(dir) = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/cards/pmv/sets")) {
        let mut paths: Vec<_> = dir
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "fuda"))
            .collect();
        paths.sort();
        out.extend(paths.iter().filter_map(|p| std::fs::read_to_string(p).ok()));
    }
    out
}

const INSERTS: &[char] = &[
    '{', '}', '(', ')', '[', ']', '"', '「', '」', '/', '*', '\\', '\n', ' ', '-', '.', ':', ',',
    'a', 'x', 'Z', '1', '札',
];

/// Deletes the char at `pos` (`None`) or inserts one there; `pos` is scaled into the text
/// and moved back to a char boundary.
fn mutate(text: &mut String, pos: usize, insert: Option<char>) {
    let mut at = pos % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    match insert {
        Some(c) => text.insert(at, c),
        None if at < text.len() => {
            text.remove(at);
        }
        None => {}
    }
}

#[test]
fn mutated_cards_never_panic() {
    big_stack(|| {
        let seeds = seeds();
        let n = seeds.len();
        let edits = prop::collection::vec(
            (
                any::<usize>(),
                prop::option::of(prop::sample::select(INSERTS)),
            ),
            1..4,
        );
        // One session for every case, so a seed's game pack is compiled once
        // (from `cards/` or the embedded copy); each case is its own lone file.
        let session = RefCell::new(Session::new());
        let count = Cell::new(0u32);
        runner(256)
            .run(&(0..n, edits), |(i, edits)| {
                let mut text = seeds[i].clone();
                for (pos, ins) in edits {
                    mutate(&mut text, pos, ins);
                }
                count.set(count.get() + 1);
                let path = format!("mutant{}.fuda", count.get());
                check_in(&mut session.borrow_mut(), &path, text.into_bytes())
                    .map_err(TestCaseError::fail)
            })
            .unwrap();
        session.borrow_mut().finish();
    });
}
