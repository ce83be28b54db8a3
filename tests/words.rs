//! `fuda words`: every name a game declares, with its printed name, parameters and the rules its
//! declaration cites; the generated pages `docs/words/<game>.md` are current.

use crate::support::run_fuda;
use fuda::packs::Session;
use std::path::Path;

/// The words of the shipped game `game`, read from `cards/<game>`.
fn words_of(game: &str) -> fuda::tools::words::Words {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut s = Session::new();
    s.skip_decks = true;
    s.check_path(&root.join("cards").join(game));
    s.finish();
    assert_eq!(s.error_count(), 0, "{game} compiles");
    fuda::tools::words::collect(&s, game)
}

#[test]
fn the_generated_pages_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stale = Vec::new();
    for game in ["pmv", "ws", "pm"] {
        let want = words_of(game).render_markdown();
        let path = root.join("docs/words").join(format!("{game}.md"));
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        if have.trim_end() != want.trim_end() {
            stale.push(format!(
                "docs/words/{game}.md is not current: regenerate it with \
                 `cargo run -- words {game} --format markdown > docs/words/{game}.md`"
            ));
        }
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

#[test]
fn a_declaration_cites_the_rules_of_its_comment() {
    let w = words_of("pmv");
    let find = |kind: &str, name: &str| {
        w.words
            .iter()
            .find(|x| x.kind == kind && x.name == name)
            .unwrap_or_else(|| panic!("{kind} {name} is listed"))
    };
    // the comment ending the declaration's line
    let deck = find("zone", "deck");
    assert_eq!(deck.label.as_deref(), Some("デッキ"));
    assert_eq!(deck.rules, ["3.2.1", "3.2.3", "3.2.4"]);
    assert!(deck
        .file
        .as_deref()
        .is_some_and(|f| f.ends_with("cards/pmv/ruleset.fuda")));
    assert_eq!(deck.line, Some(18));
    // the comment lines right above a declaration whose line has none
    assert_eq!(find("zone", "hell").rules[0], "3.3.6");
    // parameters, with their types
    assert_eq!(
        find("event", "damaged").params,
        [
            "recipient: player | card",
            "source: card?",
            "amount: number",
            "battle: bool"
        ]
    );
    assert_eq!(find("card_type", "character").params[2], "caster: text?");
    // phases are found by their `phase` statement
    assert_eq!(find("phase", "main").rules, ["6.3.2"]);
    assert!(find("phase", "main").line.is_some());
}

#[test]
fn rule_numbers_are_the_dotted_numbers() {
    use fuda::tools::words::rule_numbers;
    assert_eq!(
        rule_numbers("6.2.4.b/f/j, 6.3.4.d; assumption: 2 players (3.1.6) v1.2x"),
        ["6.2.4.b", "6.3.4.d", "3.1.6"]
    );
    assert_eq!(
        rule_numbers("12.4.1: survives; 7.3.1.2.4 (comeback)"),
        ["12.4.1", "7.3.1.2.4"]
    );
    assert!(rule_numbers("players 2, 3 cards").is_empty());
}

#[test]
fn the_command_filters_by_kind_and_prints_one_json_document() {
    let (code, out, err) = run_fuda(&["words", "pmv", "--kind", "keyword", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(doc["game"], "pmv");
    let words = doc["words"].as_array().unwrap();
    assert!(words.iter().all(|w| w["kind"] == "keyword"));
    let graze = words.iter().find(|w| w["name"] == "graze").unwrap();
    assert_eq!(graze["params"][0], "n: number");
    assert_eq!(graze["label"], "グレイズ");
    // stable key order, as docs/cli.md documents it
    let keys: Vec<&str> = [
        "\"kind\"",
        "\"name\"",
        "\"pack\"",
        "\"label\"",
        "\"params\"",
        "\"details\"",
        "\"rules\"",
        "\"comment\"",
        "\"file\"",
        "\"line\"",
    ]
    .to_vec();
    let at: Vec<usize> = keys.iter().map(|k| out.find(k).unwrap()).collect();
    assert!(at.windows(2).all(|p| p[0] < p[1]), "key order: {at:?}");
}

#[test]
fn a_wrong_kind_is_a_usage_error_listing_the_kinds() {
    let (code, out, err) = run_fuda(&["words", "pmv", "--kind", "zones"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("no kind `zones`"), "{err}");
    assert!(err.contains("zone, slot_group, state, stat"), "{err}");
}

#[test]
fn a_loaded_pack_adds_its_words() {
    let (code, out, err) = run_fuda(&[
        "words",
        "pmv",
        "--pack",
        "cards/examples/night-parade",
        "--kind",
        "keyword",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(packs: pmv, night_parade)"), "{out}");
    assert!(
        out.contains("terrify \"威圧\"  (pack night_parade)"),
        "{out}"
    );
}

#[test]
fn an_unknown_game_is_an_error() {
    let (code, _, err) = run_fuda(&["words", "nosuchgame"]);
    assert_eq!(code, 1);
    assert!(err.contains("no pack named `nosuchgame`"), "{err}");
}
