//! Printed card text (`ir::render`, `fuda render`): every shipped card in Japanese and English,
//! one reviewed snapshot per pack and language, with the names each pack's game still lacks a
//! phrase for listed at the end; the missing-phrase warning at its declaration; the CLI.

use fuda::base::diagnostic::{render, RenderOptions};
use fuda::ir::render::Lang;
use fuda::packs::Session;
use fuda::tools::render::render_packs;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

fn shipped() -> &'static Session {
    static SESSION: OnceLock<Session> = OnceLock::new();
    SESSION.get_or_init(|| {
        let mut s = Session::new();
        s.check_path(Path::new("cards"));
        s.finish();
        s
    })
}

/// The printed text of every card of every shipped pack, in both languages: one snapshot per
/// pack and language. No text may hold a hole, an empty ability line, or an id.
#[test]
fn every_shipped_card_renders_in_both_languages() {
    let s = shipped();
    for (i, compiled) in s.packs.iter().enumerate() {
        for &lang in Lang::ALL {
            let (cards, warnings) = render_packs(s, &[i], lang);
            let mut out = String::new();
            for c in &cards {
                assert!(
                    !c.text.contains(['{', '}'])
                        && !c.text.contains(&format!("{}:", compiled.pack.game)),
                    "{} ({}) renders a hole or an id:\n{}",
                    c.name,
                    c.id,
                    c.text
                );
                assert!(
                    !c.text.lines().any(|l| l.trim().is_empty()),
                    "{} renders an empty line",
                    c.id
                );
                out.push_str(&format!("{} ({})\n{}\n\n", c.name, c.id, c.text));
            }
            let missing: Vec<String> = warnings.iter().map(|d| d.message.clone()).collect();
            if !missing.is_empty() {
                out.push_str(&format!(
                    "— names without a `{}` phrase —\n{}\n",
                    lang.code(),
                    missing.join("\n")
                ));
            }
            insta::assert_snapshot!(format!("{}_{}", compiled.pack.name, lang.code()), out);
        }
    }
}

/// Every shipped game (and the example mod pack) declares a phrase, in both languages, for
/// every name its cards print.
#[test]
fn every_shipped_pack_has_every_phrase_its_cards_need() {
    let s = shipped();
    let all: Vec<usize> = (0..s.packs.len()).collect();
    for &lang in Lang::ALL {
        let (_, warnings) = render_packs(s, &all, lang);
        let text: String = warnings
            .iter()
            .map(|d| render(d, &s.sources, RenderOptions::plain()))
            .collect();
        assert!(warnings.is_empty(), "{}:\n{text}", lang.code());
    }
}

/// The codes `fuda render` reports (for `diagnostics::every_code_is_covered`).
pub fn render_codes() -> BTreeSet<&'static str> {
    let mut s = Session::new();
    s.check_path(Path::new("tests/games/render_gaps"));
    s.finish();
    let named = s.packs_named_by(Path::new("tests/games/render_gaps"));
    let (_, warnings) = render_packs(&s, &named, Lang::En);
    warnings.iter().map(|d| d.code.0).collect()
}

/// A name with no phrase: the warning stands at its declaration, says what prints instead and
/// how to add one; the card still renders.
#[test]
fn a_missing_phrase_is_a_warning_at_the_declaration() {
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["render", "tests/games/render_gaps", "--lang", "en"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    insta::assert_snapshot!(
        "missing_phrase",
        format!("{stderr}\n--- stdout ---\n{stdout}")
    );
    let denied = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args([
            "render",
            "tests/games/render_gaps",
            "--lang",
            "en",
            "--deny-warnings",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(denied.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&denied.stdout).unwrap();
    assert_eq!(doc["cards"][0]["lang"], "en");
    assert_eq!(
        doc["diagnostics"][0]["code"],
        "fuda::render::missing_phrase"
    );
}

/// `--lang` accepts the languages there are, and lists them otherwise (a usage error).
#[test]
fn an_unknown_language_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["render", "cards/pmv", "--lang", "fr"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the languages: ja, en"));
}

/// `explain --lang` prints the card's text before its outline.
#[test]
fn explain_shows_the_printed_text() {
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(["explain", "cards/pmv", "--card", "pmv:057", "--lang", "ja"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("カードを3枚引く。\n"), "{stdout}");
}
