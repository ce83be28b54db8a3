//! Decks: every `.deck` file of `tests/errors/decks/decks/` is read against the small game of
//! `tests/errors/decks` (8 cards; 8 to 12 cards a deck, 3 copies per number, 4 per name, at most
//! 2 spells). A bad deck's first line names the codes it expects (`# expect: …`); each file's
//! diagnostics are snapshotted as the human sees them (plain, 80 columns) and as
//! `--format json` gives them, and a good deck's snapshot is its expanded card list.
//!
//! The same folder is also an entry of `tests/errors/` (`tests/diagnostics.rs`), so every deck
//! code counts as covered there. Hostile inputs (a 10 MB line, NUL bytes, huge counts, a
//! million lines) end in diagnostics quickly.
//!
//! The decks of `tests/errors/deck_formats` (a pack of PM) are checked in the deck format their
//! first line names (`# format: mtl`), each snapshotted as `format_<file>`.
//!
//! Run `cargo insta test --test decks` (or `cargo test --test decks` then `cargo insta review`)
//! after changing a message.

use fuda::base::diagnostic::{self, codes, Diagnostic, JsonDiagnostic, RenderOptions, Severity};
use fuda::packs::deck::Deck;
use fuda::packs::{PackSource, Session};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The test game's pack.
const PACK: &str = "tests/errors/decks";
/// Its decks.
const DECKS: &str = "tests/errors/decks/decks";
/// Its game.
const GAME: &str = "deck_game";

/// A session with the test game loaded (its decks not checked) and no diagnostic.
fn session() -> Session {
    let mut s = Session::new();
    s.skip_decks = true;
    s.check_path(Path::new(PACK));
    s.finish();
    assert!(s.diags.is_empty(), "the test pack has diagnostics");
    s
}

/// The deck files, sorted.
fn deck_files() -> Vec<PathBuf> {
    deck_files_in(DECKS)
}

/// The `.deck` files of a folder, sorted.
fn deck_files_in(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "deck"))
        .collect();
    out.sort();
    out
}

/// What loading one deck gave: the deck, or its diagnostics (with the session to show them).
struct Loaded {
    session: Session,
    deck: Option<Deck>,
}

impl Loaded {
    fn of(path: &Path) -> Loaded {
        let mut session = session();
        let deck = session.load_deck(path, GAME);
        diagnostic::sort(&mut session.diags);
        Loaded { session, deck }
    }

    fn bytes(name: &str, bytes: &[u8]) -> Loaded {
        let mut session = session();
        let deck = session.load_deck_bytes(name, bytes, GAME);
        diagnostic::sort(&mut session.diags);
        Loaded { session, deck }
    }

    fn codes(&self) -> BTreeSet<&'static str> {
        self.session.diags.iter().map(|d| d.code.0).collect()
    }

    fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.session.diags.iter().filter(|d| d.is_error())
    }
}

/// The snapshot text: the rendered diagnostics and their JSON form, or the deck's cards.
fn snapshot_text(name: &str, l: &Loaded) -> String {
    let s = &l.session;
    let count = |sev| s.diags.iter().filter(|d| d.severity == sev).count();
    let mut out = format!(
        "{name}: {} error(s), {} warning(s)\n\n",
        count(Severity::Error),
        count(Severity::Warning)
    );
    for d in &s.diags {
        out.push_str(diagnostic::render(d, &s.sources, RenderOptions::plain()).trim_end());
        out.push_str("\n\n");
    }
    if let Some(deck) = &l.deck {
        out.push_str(&format!("──────── {} cards ────────\n", deck.size()));
        for e in &deck.entries {
            out.push_str(&format!("line {}: {} × {}\n", e.line, e.count, e.card));
        }
        return out;
    }
    let json: Vec<JsonDiagnostic> = s
        .diags
        .iter()
        .map(|d| JsonDiagnostic::new(d, &s.sources))
        .collect();
    out.push_str("──────── JSON ────────\n");
    out.push_str(&serde_json::to_string_pretty(&json).expect("diagnostics serialize"));
    out.push('\n');
    out
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn snapshot() {
    assert_deck_snapshots(deck_files(), |p| (file_name(p), Loaded::of(p)));
}

/// Each deck file's rendered load (named and loaded by `load`) matches its snapshot in
/// `snapshots/decks`; all are compared before the test fails, naming every one that differs.
fn assert_deck_snapshots(files: Vec<PathBuf>, load: impl Fn(&Path) -> (String, Loaded)) {
    let mut failed = Vec::new();
    for p in files {
        let (name, loaded) = load(&p);
        let result = std::panic::catch_unwind(|| {
            insta::with_settings!({
                snapshot_path => "snapshots/decks",
                prepend_module_to_snapshot => false,
                omit_expression => true,
                input_file => &p,
            }, {
                insta::assert_snapshot!(name.clone(), snapshot_text(&name, &loaded));
            });
        });
        if result.is_err() {
            failed.push(name);
        }
    }
    assert!(failed.is_empty(), "snapshots differ for: {failed:#?}");
}

/// The codes a deck's first line names after `expect:`.
fn expected_codes(path: &Path) -> BTreeSet<String> {
    let bytes = std::fs::read(path).expect("deck file");
    let text = String::from_utf8_lossy(&bytes);
    let first = text
        .trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap_or("");
    if !first.contains("expect:") {
        return BTreeSet::new();
    }
    first
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .filter(|w| w.starts_with("fuda::"))
        .map(|w| w.trim_end_matches(':').to_string())
        .collect()
}

/// How a loaded deck differs from its `expect:` line: other codes than those it names, or
/// loading when it expects errors (not loading when it expects none).
fn expectation_problems(name: &str, want: &BTreeSet<String>, l: &Loaded) -> Vec<String> {
    let mut wrong = Vec::new();
    let got: BTreeSet<String> = l.codes().into_iter().map(String::from).collect();
    if *want != got {
        wrong.push(format!("{name}: expects {want:?}, got {got:?}"));
    }
    if want.is_empty() != l.deck.is_some() {
        wrong.push(format!("{name}: loaded {}", l.deck.is_some()));
    }
    wrong
}

/// A deck with an `expect:` line reports those codes and no others, and every diagnostic is in
/// the deck file; a deck without one loads.
#[test]
fn expect_comments_match() {
    let mut wrong = Vec::new();
    for p in deck_files() {
        let name = file_name(&p);
        let l = Loaded::of(&p);
        let want = expected_codes(&p);
        wrong.extend(expectation_problems(&name, &want, &l));
        let shown = p.to_string_lossy().into_owned();
        for d in &l.session.diags {
            if l.session.sources.get(d.primary.file).path != shown {
                wrong.push(format!("{name}: {} is not in the deck file", d.code));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Every `fuda::deck::` code has a deck file producing it (the format codes: a format deck).
#[test]
fn every_deck_code_has_a_deck() {
    let hit: BTreeSet<&str> = deck_files()
        .iter()
        .flat_map(|p| Loaded::of(p).codes())
        .chain(format_codes())
        .collect();
    let missing: Vec<&str> = codes::ALL
        .iter()
        .map(|c| c.0)
        .filter(|c| c.starts_with("fuda::deck::") && !hit.contains(c))
        .collect();
    assert!(missing.is_empty(), "no deck file produces {missing:?}");
}

fn ids(cards: &[&str]) -> Vec<String> {
    cards.iter().map(|c| format!("{GAME}:{c}")).collect()
}

#[test]
fn good_deck_expands_in_file_order() {
    let l = Loaded::of(&Path::new(DECKS).join("good.deck"));
    let deck = l.deck.expect("good.deck loads");
    assert_eq!(deck.path, "tests/errors/decks/decks/good.deck");
    assert_eq!(deck.game, GAME);
    assert_eq!(
        deck.cards(),
        ids(&["D01", "D01", "D01", "D02", "D02", "D03", "D03", "D04", "D06", "D03"])
    );
    assert_eq!(deck.size(), 10);
    let lines: Vec<usize> = deck.entries.iter().map(|e| e.line).collect();
    assert_eq!(lines, [2, 3, 4, 5, 6, 7]);
    // An entry's span is its count and card, without the comment.
    let text = std::fs::read_to_string(&deck.path).expect("deck");
    let e = &deck.entries[1];
    assert_eq!(&text[e.span.start..e.span.end], "2 Knight");
}

#[test]
fn byte_order_mark_crlf_and_full_width_forms() {
    let l = Loaded::of(&Path::new(DECKS).join("bom_crlf.deck"));
    let deck = l.deck.expect("bom_crlf.deck loads");
    // `２　Knight` (full-width digit and space), `Shield　Bearer` (the name after the ruleset's
    // name normalization), an id, and `Heal`.
    assert_eq!(
        deck.cards(),
        ids(&["D02", "D02", "D08", "D08", "D08", "D05", "D07", "D07"])
    );
    let text = &l
        .session
        .sources
        .get(fuda::packs::session::file_id(&l.session.sources, &deck.path).expect("registered"))
        .text;
    let e = &deck.entries[2];
    assert_eq!(&text[e.span.start..e.span.end], "1 deck_game:D05");
}

/// A deck may name the cards of every loaded pack of its game; a number two packs share is
/// ambiguous, and their ids tell them apart.
#[test]
fn cards_of_other_packs_of_the_game() {
    let mut s = session();
    let extra = "game deck_game\n\ncard \"Goblin\" {\n  number: \"M01\"\n  type: unit\n  cost: 1\n}\n\ncard \"Imp\" {\n  number: \"D01\"\n  type: unit\n  cost: 1\n}\n";
    s.compile_source(PackSource::in_memory(
        "extra.fuda",
        extra.as_bytes().to_vec(),
    ));
    assert!(s.diags.is_empty(), "the extra pack compiles");
    let deck = s
        .load_deck_bytes("mixed.deck", b"3 Goblin\n3 Knight\n2 Imp\n", GAME)
        .expect("the deck loads");
    assert_eq!(
        deck.cards(),
        [
            "extra:M01",
            "extra:M01",
            "extra:M01",
            "deck_game:D02",
            "deck_game:D02",
            "deck_game:D02",
            "extra:D01",
            "extra:D01"
        ]
    );
    assert!(s
        .load_deck_bytes("shared_number.deck", b"4 Squire\n4 D01\n", GAME)
        .is_none());
    let d = s.diags.last().expect("a diagnostic");
    assert_eq!(d.code, codes::DECK_AMBIGUOUS_CARD);
    assert_eq!(
        d.help.as_deref(),
        Some("write one of their ids instead: `deck_game:D01`, `extra:D01`")
    );
    // Copies per number count both packs' `D01` together.
    let before = s.diags.len();
    assert!(s
        .load_deck_bytes(
            "by_id.deck",
            b"2 deck_game:D01\n2 extra:D01\n3 Knight\n1 Archer\n",
            GAME
        )
        .is_none());
    let new: Vec<_> = s.diags[before..].iter().map(|d| d.code).collect();
    assert_eq!(new, [codes::DECK_TOO_MANY_COPIES]);
}

/// A game of `size 3` (exactly): too few and too many say how many to add or remove.
#[test]
fn exact_size() {
    let ruleset = "game mini \"Mini\" {\n  players 2\n  zone deck \"Deck\" private ordered per_player\n  card_type unit \"Unit\" { cost: number }\n  deck { size 3 }\n}\n\ncard \"A\" {\n  number: \"1\"\n  type: unit\n  cost: 1\n}\n";
    let mut s = Session::new();
    s.compile_source(PackSource::in_memory(
        "mini.fuda",
        ruleset.as_bytes().to_vec(),
    ));
    assert!(s.diags.is_empty(), "the mini game compiles");
    assert!(s.load_deck_bytes("ok.deck", b"3 A", "mini").is_some());
    let mut helps = Vec::new();
    for (name, text) in [("two.deck", "# two\n2 A\n"), ("five.deck", "5 A\n")] {
        assert!(s.load_deck_bytes(name, text.as_bytes(), "mini").is_none());
        let d = s.diags.last().expect("a diagnostic");
        assert_eq!(d.code, codes::DECK_SIZE);
        helps.push((d.message.clone(), d.help.clone().unwrap_or_default()));
    }
    assert_eq!(
        helps,
        [
            (
                "this deck has 2 cards; the game requires exactly 3".to_string(),
                "add 1 card".to_string()
            ),
            (
                "this deck has 5 cards; the game requires exactly 3".to_string(),
                "remove 2 cards".to_string()
            ),
        ]
    );
    // A deck of a game no pack is loaded for, and that cannot be found.
    assert!(s
        .load_deck_bytes("x.deck", b"1 A", "no_such_game")
        .is_none());
    assert_eq!(
        s.diags.last().map(|d| d.code),
        Some(codes::PACK_MISSING_REQUIREMENT)
    );
}

// ───────────────────────────── hostile inputs ─────────────────────────────

/// Loads `bytes` as a deck, checks it ends in an error inside the deck, and renders every
/// diagnostic the way the CLI does (and as JSON). How fast is no test's business (a loaded
/// 2-core machine makes any bound flaky): the callers check that the output stays bounded.
fn hostile(name: &str, bytes: Vec<u8>) -> Loaded {
    let l = Loaded::bytes(name, &bytes);
    for d in &l.session.diags {
        let _ = diagnostic::render(d, &l.session.sources, RenderOptions::plain());
        let _ = JsonDiagnostic::new(d, &l.session.sources);
    }
    assert!(l.deck.is_none(), "{name}: loaded");
    assert!(l.errors().next().is_some(), "{name}: no error");
    for d in &l.session.diags {
        assert_eq!(l.session.sources.get(d.primary.file).path, name);
    }
    l
}

#[test]
fn ten_megabyte_line() {
    let mut bytes = b"1 ".to_vec();
    bytes.extend(std::iter::repeat_n(b'a', 10 << 20));
    let l = hostile("long.deck", bytes);
    assert_eq!(
        l.codes(),
        BTreeSet::from(["fuda::deck::unknown_card", "fuda::deck::size"])
    );
    let d = l
        .errors()
        .find(|d| d.code == codes::DECK_UNKNOWN_CARD)
        .expect("the card is unknown");
    assert_eq!(
        (d.primary.span.start, d.primary.span.end),
        (2, 2 + (10 << 20))
    );
    assert!(d.message.len() < 1000, "the message is clipped");

    let l = hostile("long_count.deck", vec![b'7'; 10 << 20]);
    assert_eq!(l.codes(), BTreeSet::from(["fuda::deck::invalid_count"]));
}

#[test]
fn nul_bytes_and_binary() {
    let l = hostile("nul.deck", b"\0\0\0 Squire\n3\0Knight\n".to_vec());
    assert_eq!(
        l.codes(),
        BTreeSet::from(["fuda::deck::missing_count", "fuda::deck::invalid_count"])
    );
    let l = hostile("nuls.deck", vec![0; 1 << 20]);
    assert_eq!(l.codes(), BTreeSet::from(["fuda::deck::missing_count"]));
    let binary: Vec<u8> = (0..1_000_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let l = hostile("binary.deck", binary);
    assert_eq!(l.codes(), BTreeSet::from(["fuda::source::invalid_utf8"]));
}

#[test]
fn huge_counts() {
    let l = hostile(
        "huge.deck",
        b"99999999999999999999 Squire\n4294967296 Knight\n1000 Archer\n".to_vec(),
    );
    assert_eq!(l.errors().count(), 3);
    assert!(l.errors().all(|d| d.code == codes::DECK_INVALID_COUNT));
    // Counts each allowed, summing past what any deck holds.
    let many = "999 Squire\n".repeat(20);
    let l = hostile("many.deck", many.into_bytes());
    let sizes: Vec<&str> = l
        .errors()
        .filter(|d| d.code == codes::DECK_SIZE)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        sizes,
        ["this deck has 19980 cards; fuda reads decks of at most 10000"]
    );
}

#[test]
fn a_million_lines() {
    // Wrong lines stop being reported after 100.
    let l = hostile("words.deck", "x\n".repeat(1_000_000).into_bytes());
    assert_eq!(l.errors().count(), fuda::packs::deck::MAX_LINE_ERRORS + 1);
    assert_eq!(
        l.session.diags.last().map(|d| d.code),
        Some(codes::DECK_TOO_MANY_ERRORS)
    );
    // Good lines: one copy-limit diagnostic with its labels bounded, and the size.
    let l = hostile("squires.deck", "1 Squire\n".repeat(1_000_000).into_bytes());
    let got: Vec<_> = l.errors().map(|d| (d.code, d.related.len())).collect();
    assert_eq!(
        got,
        [
            (codes::DECK_SIZE, 0),
            (codes::DECK_TOO_MANY_COPIES, 16),
            (codes::DECK_TOO_MANY_COPIES, 16)
        ]
    );
}

// ───────────────────────────── the command line ─────────────────────────────

/// Runs the `fuda` binary: exit code and its output, stderr (diagnostics) then stdout (the
/// summary of `check`).
fn fuda(args: &[&str]) -> (i32, String) {
    let (code, out, err) = crate::support::run_fuda(args);
    (code, format!("{err}{out}"))
}

/// `fuda check file.deck` checks that deck against its pack; a pack folder's decks are counted.
#[test]
fn check_command() {
    let (code, err) = fuda(&["check", "tests/errors/decks/decks/good.deck"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("checked 1 pack, 8 cards, 1 deck: 0 errors"),
        "{err}"
    );

    let (code, err) = fuda(&["check", "tests/errors/decks/decks/too_few.deck"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("fuda::deck::size"), "{err}");
    assert!(err.contains("1 deck: 1 error,"), "{err}");

    let n = deck_files().len();
    let (code, err) = fuda(&["check", PACK, "--max-diagnostics", "0"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("checked 1 pack, 8 cards, {n} decks:")),
        "{err}"
    );

    let dir = std::env::temp_dir().join(format!("fuda-deck-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let lone = dir.join("lone.deck");
    std::fs::write(&lone, "1 Squire\n").expect("write");
    let (code, err) = fuda(&["check", &lone.to_string_lossy()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("fuda::pack::no_source") && err.contains("is in no pack folder"),
        "{err}"
    );
}

// ───────────────────────────── deck formats ─────────────────────────────

/// A pack of PM (game `pm`, whose ruleset declares the formats `single`, `mtl` and `mix`) with
/// test cards of two made-up works; its decks are checked in the format their first line names
/// (`# format: mtl  expect: …`), or in none.
const FORMATS_PACK: &str = "tests/errors/deck_formats";
/// Its decks.
const FORMATS_DECKS: &str = "tests/errors/deck_formats/decks";

/// The format a deck's first line names after `format:`.
fn deck_format_of(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).expect("deck file");
    let first = text.lines().next().unwrap_or("");
    let (_, rest) = first.split_once("format:")?;
    rest.split_whitespace().next().map(String::from)
}

/// The format decks, sorted.
fn format_deck_files() -> Vec<PathBuf> {
    deck_files_in(FORMATS_DECKS)
}

/// Loads a format deck in `format` against PM and the test pack.
fn load_in_format(path: &Path, format: Option<String>) -> Loaded {
    let mut session = Session::new();
    session.skip_decks = true;
    session.deck_format = format;
    session.check_path(Path::new(FORMATS_PACK));
    session.finish();
    assert!(
        session.diags.is_empty(),
        "the format test pack has diagnostics"
    );
    let deck = session.load_deck(path, "pm");
    assert!(session.unknown_deck_format().is_none());
    diagnostic::sort(&mut session.diags);
    Loaded { session, deck }
}

/// The codes the format decks produce in their formats: `tests/diagnostics.rs` counts them as
/// covered (the folder is one of its `OWN_TESTS`).
pub fn format_codes() -> BTreeSet<&'static str> {
    format_deck_files()
        .iter()
        .flat_map(|p| load_in_format(p, deck_format_of(p)).codes())
        .collect()
}

/// Each format deck's diagnostics in its format (or the deck's cards), as `snapshot` shows them.
#[test]
fn format_snapshot() {
    assert_deck_snapshots(format_deck_files(), |p| {
        (
            format!("format_{}", file_name(p)),
            load_in_format(p, deck_format_of(p)),
        )
    });
}

/// A format deck reports the codes its `expect:` names in its format and no others (a legal
/// Single, MTL or Mix deck loads); checked in no format, a deck breaking only a format's rules
/// loads: the base rules alone are checked.
#[test]
fn format_expect_comments_match() {
    let mut wrong = Vec::new();
    for p in format_deck_files() {
        let name = file_name(&p);
        let format = deck_format_of(&p);
        let l = load_in_format(&p, format.clone());
        let want = expected_codes(&p);
        wrong.extend(expectation_problems(&name, &want, &l));
        let base_only = want.iter().all(|c| c.starts_with("fuda::deck::format_"));
        if format.is_some() && base_only && load_in_format(&p, None).deck.is_none() {
            wrong.push(format!("{name}: does not load without its format"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    for good in ["single_good.deck", "mtl_good.deck", "mix_good.deck"] {
        let p = Path::new(FORMATS_DECKS).join(good);
        let l = load_in_format(&p, deck_format_of(&p));
        assert_eq!(l.deck.map(|d| d.size()), Some(60), "{good}");
    }
}

/// `--deck-format` on the command line: the format's violations at their deck lines (exit 1),
/// a legal deck (exit 0), JSON output, and a format the game lacks: a usage error (exit 2)
/// listing the game's formats, as for `sim` and `play`.
#[test]
fn deck_format_flag() {
    let deck = |name: &str| format!("{FORMATS_DECKS}/{name}.deck");
    let (code, err) = fuda(&["check", &deck("mtl_good"), "--deck-format", "mtl"]);
    assert_eq!(code, 0, "{err}");
    let (code, err) = fuda(&["check", &deck("mtl_good"), "--deck-format", "single"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("fuda::deck::format_distinct") && err.contains("mtl_good.deck:10:1"),
        "{err}"
    );
    let (code, err) = fuda(&["check", &deck("mtl_good")]);
    assert_eq!(code, 0, "{err}");

    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args([
            "check",
            &deck("mtl_too_few_per_work"),
            "--deck-format",
            "mtl",
        ])
        .args(["--format", "json"])
        .env("FUDA_NO_CACHE", "1")
        .output()
        .expect("run fuda");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(doc["errors"], 1);
    assert_eq!(
        doc["diagnostics"][0]["code"],
        "fuda::deck::format_per_value"
    );
    assert_eq!(doc["diagnostics"][0]["line"], 12);

    let (code, err) = fuda(&["check", FORMATS_PACK, "--deck-format", "standard"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("game `pm` has no deck format `standard`; its formats: `single` (シングル), `mtl` (MTL), `mix` (ミックス)"),
        "{err}"
    );
    let (code, err) = fuda(&["check", PACK, "--deck-format", "mtl"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("game `deck_game` declares no deck format"),
        "{err}"
    );
    let (code, err) = fuda(&[
        "sim",
        FORMATS_PACK,
        "--deck",
        &deck("mtl_good"),
        "--deck",
        &deck("mtl_good"),
        "--deck-format",
        "standard",
        "--games",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no deck format `standard`"), "{err}");
}
