//! The scenario file format (`docs/scenarios.md`): a good file reads into the expected
//! structure; every file of `tests/errors/scenarios/` is a mistake a designer makes, with its
//! diagnostics snapshotted as the human sees them (plain, 80 columns) and as JSON; hostile
//! inputs end in diagnostics, never in a panic or a stack overflow; `discover` follows its rule.
//!
//! Run `cargo insta test --test scenario_format` (or `cargo test --test scenario_format` then
//! `cargo insta review`) after changing a message.

use fuda::base::diagnostic::{self, codes, Diagnostic, JsonDiagnostic, RenderOptions, Severity};
use fuda::base::source::{FileId, SourceFile, SourceMap, Span};
use fuda::tools::scenario::{
    self, AnswerKind, CardEntry, Face, Scenario, Spanned, StartPhase, StatValue, Winner,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The error fixtures, relative to the crate root.
const ERRORS: &str = "tests/errors/scenarios";

/// Parses `text` as the file `path`; the source map holds it.
fn parse(path: &str, text: &str) -> (SourceMap, Result<Scenario, Vec<Diagnostic>>) {
    let mut sources = SourceMap::new();
    let id = sources.add(SourceFile::new(path, text));
    let result = scenario::parse(id, sources.get(id));
    (sources, result)
}

/// The text a span covers.
fn at(text: &str, span: Span) -> &str {
    &text[span.start..span.end]
}

// ───────────────────────────── a good scenario ─────────────────────────────

const GOOD: &str = r#"name = "pmv-6.2.4.d-first-strike-damage-comes-first"
game = "pmv"
rules = ["6.2.4.d"]
description = "A first striker kills a 2/2 defender before it can deal damage."
seed = 7
max_steps = 5000
script = [
  "p1: attack 半人半霊の庭師“魂魄 妖夢”",
  "p2: pass",
  "p2: defend 人里の子供",
  "p1: yes",
  "p2: no",
  "p1: choose 人里の子供, 博麗 霊夢",
  "p1: choose nothing",
  "p1: option draw",
  "p1: declare 博麗 霊夢",
  "p1: activated 人里の子供 #2",
  "p1:end_turn",
  "p2: concede",
  "p2: repeat 3",
]

[start]
turn = 3
player = 1
phase = "main"

[[player]]
counters = { damage = 3 }
hand = ["博麗 霊夢の札", "人里の子供 x2"]
deck = ["人里の子供 ×10"]
field = [
  "半人半霊の庭師“魂魄 妖夢”",
  { card = "人里の子供", states = ["sleep"], counters = { damage = 1 }, face = "down", attached = ["ミニ八卦炉・改"], count = 2, slot = "front_left" },
]

[[player]]


[expect]
winner = "p1"
turn = 3
turn_player = 1
phase = "main"
log = ["damaged", "attacks"]
not_log = ["grazed"]

[[expect.player]]
player = 2
counters = { damage = 3 }
underworld = ["人里の子供", { card = "博麗 霊夢", count = 2 }]
hand_count = 4

[[expect.card]]
card = "半人半霊の庭師“魂魄 妖夢”"
player = 1
zone = "field"
index = 2
stats = { attack = 3, toughness = 2, power = "3/2" }
states = ["sleep"]
not_states = ["dying"]
counters = { damage = 0 }
face = "up"
attached = ["ミニ八卦炉・改 x2"]
"#;

#[test]
fn a_good_scenario_reads_into_its_structure() {
    let (_, result) = parse("cards/pmv/scenarios/good.toml", GOOD);
    let s = result.unwrap_or_else(|d| panic!("diagnostics: {d:#?}"));
    let text = GOOD;
    assert_eq!(s.name, "pmv-6.2.4.d-first-strike-damage-comes-first");
    assert_eq!(s.game.value, "pmv");
    assert_eq!(at(text, s.game.span), "pmv");
    assert_eq!(s.rules.len(), 1);
    assert_eq!(at(text, s.rules[0].span), "6.2.4.d");
    assert_eq!(
        s.description.as_deref(),
        Some("A first striker kills a 2/2 defender before it can deal damage.")
    );
    assert_eq!(s.seed, 7);
    assert_eq!(s.max_steps.value, 5000);
    assert_eq!(*s.start.turn, 3);
    assert_eq!(*s.start.player, 1);
    match &s.start.phase {
        StartPhase::Named(p) => assert_eq!(at(text, p.span), "main"),
        other => panic!("phase {other:?}"),
    }

    // Setup: two seats, the second empty.
    assert_eq!(s.players.len(), 2);
    let p1 = &s.players[0];
    assert_eq!(p1.seat, 1);
    assert_eq!(at(text, p1.span), "[[player]]");
    assert_eq!(p1.counters.len(), 1);
    assert_eq!(at(text, p1.counters[0].name.span), "damage");
    assert_eq!(*p1.counters[0].value, 3);
    let zone = |name: &str| {
        p1.zones
            .iter()
            .find(|z| z.zone.value == name)
            .unwrap_or_else(|| panic!("zone {name}"))
    };
    let hand = &zone("hand").cards;
    assert_eq!(hand.len(), 2);
    assert_eq!(
        (hand[0].card.value.as_str(), hand[0].count),
        ("博麗 霊夢の札", 1)
    );
    assert_eq!(
        (hand[1].card.value.as_str(), hand[1].count),
        ("人里の子供", 2)
    );
    assert_eq!(at(text, hand[1].card.span), "人里の子供");
    assert_eq!(at(text, hand[1].span), "\"人里の子供 x2\"");
    assert_eq!(zone("deck").cards[0].count, 10);
    assert_eq!(at(text, zone("deck").zone.span), "deck");
    let field = &zone("field").cards;
    assert_eq!(field[0].card.value, "半人半霊の庭師“魂魄 妖夢”");
    let CardEntry {
        card,
        count,
        states,
        counters,
        face,
        attached,
        slot,
        ..
    } = &field[1];
    assert_eq!((card.value.as_str(), *count), ("人里の子供", 2));
    assert_eq!(
        states.iter().map(|s| s.value.as_str()).collect::<Vec<_>>(),
        ["sleep"]
    );
    assert_eq!(at(text, states[0].span), "sleep");
    assert_eq!(
        (counters[0].name.value.as_str(), *counters[0].value),
        ("damage", 1)
    );
    assert_eq!(face.as_ref().map(|f| f.value), Some(Face::Down));
    assert_eq!(attached.len(), 1);
    assert_eq!(attached[0].card.value, "ミニ八卦炉・改");
    assert_eq!(slot.as_ref().map(|s| s.value.as_str()), Some("front_left"));
    assert!(s.players[1].zones.is_empty() && s.players[1].counters.is_empty());
    assert_eq!(s.players[1].seat, 2);

    // Script.
    let kinds: Vec<(u32, &AnswerKind)> = s.script.iter().map(|a| (a.player, &a.kind)).collect();
    let name = |a: &AnswerKind| match a {
        AnswerKind::Action { name, card } => {
            (name.value.clone(), card.as_ref().map(|c| c.value.clone()))
        }
        other => panic!("not an action: {other:?}"),
    };
    assert_eq!(kinds.len(), 13);
    assert_eq!(
        name(kinds[0].1),
        ("attack".into(), Some("半人半霊の庭師“魂魄 妖夢”".into()))
    );
    assert_eq!(kinds[1], (2, &AnswerKind::Pass));
    assert_eq!(
        name(kinds[2].1),
        ("defend".into(), Some("人里の子供".into()))
    );
    assert_eq!(kinds[3], (1, &AnswerKind::Yes));
    assert_eq!(kinds[4], (2, &AnswerKind::No));
    match kinds[5].1 {
        AnswerKind::Choose(names) => {
            let names: Vec<&str> = names.iter().map(|n| at(text, n.span)).collect();
            assert_eq!(names, ["人里の子供", "博麗 霊夢"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(kinds[6].1, &AnswerKind::Choose(Vec::new()));
    match kinds[7].1 {
        AnswerKind::Option(o) => assert_eq!(at(text, o.span), "draw"),
        other => panic!("{other:?}"),
    }
    match kinds[8].1 {
        AnswerKind::Declare(d) => assert_eq!(at(text, d.span), "博麗 霊夢"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        name(kinds[9].1),
        ("activated".into(), Some("人里の子供 #2".into()))
    );
    assert_eq!(name(kinds[10].1), ("end_turn".into(), None));
    assert_eq!(kinds[11], (2, &AnswerKind::Concede));
    assert_eq!(kinds[12], (2, &AnswerKind::Repeat(3)));
    assert_eq!(
        at(text, s.script[0].span),
        "p1: attack 半人半霊の庭師“魂魄 妖夢”"
    );

    // Expectations.
    let e = &s.expect;
    assert_eq!(e.winner.as_ref().map(|w| w.value), Some(Winner::Player(1)));
    assert_eq!(e.turn.as_ref().map(|t| t.value), Some(3));
    assert_eq!(e.turn_player.as_ref().map(|t| t.value), Some(1));
    assert_eq!(e.phase.as_ref().map(|p| p.value.as_str()), Some("main"));
    let texts = |v: &[Spanned<String>]| v.iter().map(|s| s.value.clone()).collect::<Vec<_>>();
    assert_eq!(texts(&e.log), ["damaged", "attacks"]);
    assert_eq!(texts(&e.not_log), ["grazed"]);
    let p = &e.players[0];
    assert_eq!(*p.player, 2);
    assert_eq!(
        (p.counters[0].name.value.as_str(), *p.counters[0].value),
        ("damage", 3)
    );
    assert_eq!(p.zones[0].zone.value, "underworld");
    let under: Vec<(&str, u32)> = p.zones[0]
        .cards
        .iter()
        .map(|c| (c.card.value.as_str(), c.count))
        .collect();
    assert_eq!(under, [("人里の子供", 1), ("博麗 霊夢", 2)]);
    assert_eq!(p.counts.len(), 1);
    assert_eq!(at(text, p.counts[0].zone.span), "hand");
    assert_eq!(*p.counts[0].count, 4);
    let c = &e.cards[0];
    assert_eq!(c.card.value, "半人半霊の庭師“魂魄 妖夢”");
    assert_eq!(c.player.as_ref().map(|p| p.value), Some(1));
    assert_eq!(c.zone.as_ref().map(|z| z.value.as_str()), Some("field"));
    assert_eq!(*c.index, 2);
    let stats: Vec<(&str, &StatValue)> = c
        .stats
        .iter()
        .map(|s| (s.stat.value.as_str(), &s.value.value))
        .collect();
    assert!(stats.contains(&("attack", &StatValue::Number(3))));
    assert!(stats.contains(&("toughness", &StatValue::Number(2))));
    assert!(stats.contains(&("power", &StatValue::Composite(vec![3, 2]))));
    assert_eq!(texts(&c.states), ["sleep"]);
    assert_eq!(texts(&c.not_states), ["dying"]);
    assert_eq!(*c.counters[0].value, 0);
    assert_eq!(c.face.as_ref().map(|f| f.value), Some(Face::Up));
    let attached = c.attached.as_ref().expect("attached");
    assert_eq!(
        (attached[0].card.value.as_str(), attached[0].count),
        ("ミニ八卦炉・改", 2)
    );
}

#[test]
fn defaults_fill_what_a_minimal_scenario_leaves_out() {
    let (_, result) = parse(
        "tests/scenarios/shape/minimal.toml",
        "game = 'pmv'\nrules = []\n",
    );
    let s = result.unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(s.name, "minimal");
    assert_eq!(s.seed, 0);
    assert_eq!(s.max_steps.value, scenario::DEFAULT_MAX_STEPS);
    assert_eq!((*s.start.turn, *s.start.player), (1, 1));
    assert_eq!(s.start.phase, StartPhase::First);
    assert!(s.players.is_empty() && s.script.is_empty());
    assert_eq!(s.expect, scenario::Expect::default());

    let (_, result) = parse(
        "x.toml",
        "game = 'pmv'\nrules = []\nstart = { phase = 'setup' }\n",
    );
    let s = result.unwrap_or_else(|d| panic!("{d:#?}"));
    assert!(matches!(s.start.phase, StartPhase::Setup(_)));
}

#[test]
fn a_card_entry_suffix_needs_a_space_and_digits() {
    let text = "game = 'pmv'\nrules = []\n[[player]]\nhand = ['x2', 'Mr x', 'A  x3', 'B x２', 'C xx2', '''\nD x4''']\n";
    let (_, result) = parse("x.toml", text);
    let s = result.unwrap_or_else(|d| panic!("{d:#?}"));
    let hand: Vec<(&str, u32, &str)> = s.players[0].zones[0]
        .cards
        .iter()
        .map(|c| (c.card.value.as_str(), c.count, at(text, c.card.span)))
        .collect();
    assert_eq!(
        hand,
        [
            ("x2", 1, "x2"),
            ("Mr x", 1, "Mr x"),
            ("A", 3, "A"),
            ("B", 2, "B"),
            ("C xx2", 1, "C xx2"),
            ("D", 4, "D"),
        ]
    );
}

#[test]
fn an_entry_can_be_its_own_table() {
    let text = "game = 'pmv'\nrules = []\n[[player]]\n[[player.field]]\ncard = 'A'\nstates = ['sleep']\n[[player.field]]\ncard = 'B'\n";
    let (_, result) = parse("x.toml", text);
    let s = result.unwrap_or_else(|d| panic!("{d:#?}"));
    let field = &s.players[0].zones[0];
    assert_eq!(field.zone.value, "field");
    let cards: Vec<&str> = field.cards.iter().map(|c| c.card.value.as_str()).collect();
    assert_eq!(cards, ["A", "B"]);
    assert_eq!(at(text, field.cards[0].span), "[[player.field]]");
    assert_eq!(field.cards[0].states[0].value, "sleep");
}

#[test]
fn escaped_strings_are_labelled_whole() {
    // `\u0070` is `p`: the line reads fine, but a bad part of it cannot be pointed at exactly.
    let text = "game = 'pmv'\nrules = []\nscript = [\"\\u0070\\u0030: pass\"]\n";
    let (_, result) = parse("x.toml", text);
    let d = result.expect_err("p0 is no seat");
    assert_eq!(d[0].code, codes::SCENARIO_BAD_ANSWER);
    assert_eq!(at(text, d[0].primary.span), "\"\\u0070\\u0030: pass\"");
}

// ───────────────────────────── error fixtures ─────────────────────────────

/// The fixtures, sorted.
fn fixtures() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(ERRORS)
        .expect("tests/errors/scenarios exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    out.sort();
    out
}

/// What loading one fixture gave.
struct Case {
    name: String,
    rendered: Vec<String>,
    json: Vec<JsonDiagnostic>,
    text: String,
}

fn load(path: &Path) -> Case {
    let mut sources = SourceMap::new();
    let diags = match scenario::load(path, &mut sources) {
        Ok(_) => Vec::new(),
        Err(d) => d,
    };
    Case {
        name: path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned(),
        rendered: diags
            .iter()
            .map(|d| diagnostic::render(d, &sources, RenderOptions::plain()))
            .collect(),
        json: diags
            .iter()
            .map(|d| JsonDiagnostic::new(d, &sources))
            .collect(),
        text: sources.get(FileId(0)).text.to_string(),
    }
}

fn snapshot_text(c: &Case) -> String {
    let count = |s: Severity| c.json.iter().filter(|j| j.severity == s).count();
    let mut out = format!(
        "{}: {} error(s), {} warning(s)\n\n",
        c.name,
        count(Severity::Error),
        count(Severity::Warning)
    );
    for r in &c.rendered {
        out.push_str(r.trim_end());
        out.push_str("\n\n");
    }
    out.push_str("──────── JSON ────────\n");
    out.push_str(&serde_json::to_string_pretty(&c.json).expect("diagnostics serialize"));
    out.push('\n');
    out
}

#[test]
fn snapshot() {
    let mut failed = Vec::new();
    for p in fixtures() {
        let c = load(&p);
        let result = std::panic::catch_unwind(|| {
            insta::with_settings!({
                snapshot_path => "snapshots/scenarios",
                prepend_module_to_snapshot => false,
                omit_expression => true,
                input_file => &p,
            }, {
                insta::assert_snapshot!(c.name.clone(), snapshot_text(&c));
            });
        });
        if result.is_err() {
            failed.push(c.name.clone());
        }
    }
    assert!(failed.is_empty(), "snapshots differ for: {failed:#?}");
}

/// The codes named on a fixture's first line (`# expect: fuda::scenario::…`).
fn expected_codes(text: &str) -> BTreeSet<String> {
    let first = text.lines().next().unwrap_or("");
    first
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .filter(|w| first.contains("expect:") && w.starts_with("fuda::"))
        .map(|w| w.trim_end_matches(':').to_string())
        .collect()
}

#[test]
fn every_fixture_reports_its_expected_codes_and_only_errors() {
    for p in fixtures() {
        let c = load(&p);
        let want = expected_codes(&c.text);
        assert!(!want.is_empty(), "{}: no `# expect:` line", c.name);
        let got: BTreeSet<String> = c.json.iter().map(|j| j.code.to_string()).collect();
        for w in &want {
            assert!(got.contains(w), "{}: expects `{w}`, got {got:?}", c.name);
        }
        assert!(
            c.json.iter().all(|j| j.severity == Severity::Error),
            "{}: a scenario problem is always an error",
            c.name
        );
    }
}

#[test]
fn every_scenario_code_has_a_fixture() {
    let hit: BTreeSet<String> = fixtures()
        .iter()
        .flat_map(|p| load(p).json.into_iter().map(|j| j.code.to_string()))
        .collect();
    let missing: Vec<&str> = codes::ALL
        .iter()
        .map(|c| c.0)
        .filter(|c| c.starts_with("fuda::scenario::") && !hit.contains(*c))
        .collect();
    assert!(missing.is_empty(), "no fixture produces {missing:?}");
}

/// 1-based line and column of a byte offset, columns in Unicode scalar values.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, text[start..offset].chars().count() + 1)
}

#[test]
fn json_positions_agree_with_offsets() {
    for p in fixtures() {
        let c = load(&p);
        for j in &c.json {
            let what = format!("{}: {} at {}:{}", c.name, j.code, j.line, j.column);
            let end = j.offset + j.length;
            assert!(end <= c.text.len(), "{what}: beyond the file");
            assert!(
                c.text.is_char_boundary(j.offset) && c.text.is_char_boundary(end),
                "{what}: not on character boundaries"
            );
            assert_eq!((j.line, j.column), line_col(&c.text, j.offset), "{what}");
            assert_eq!((j.end_line, j.end_column), line_col(&c.text, end), "{what}");
            assert!(j.length > 0, "{what}: an empty label");
        }
    }
}

#[test]
fn bad_script_lines_are_labelled_inside_the_string() {
    let text = "game = 'pmv'\nrules = []\nscript = [\"p0: pass\", 'p1: choose a,,b', \"p1 yes\", \"p1:  \"]\n";
    let (_, result) = parse("x.toml", text);
    let d = result.expect_err("bad lines");
    let labelled: Vec<&str> = d.iter().map(|d| at(text, d.primary.span)).collect();
    assert_eq!(labelled, ["p0", ",", " ", "p1:"]);
    assert!(d.iter().all(|d| d.code == codes::SCENARIO_BAD_ANSWER));
}

// ───────────────────────────── hostile inputs ─────────────────────────────

/// Parses `bytes` as a file on a thread with a small (2 MB) stack, to prove no recursion
/// depends on the input's nesting; renders the diagnostics too.
fn hostile(bytes: Vec<u8>) -> Result<Scenario, Vec<Diagnostic>> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let dir = std::env::temp_dir().join(format!(
                "fuda-scenario-hostile-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            std::fs::create_dir_all(&dir).expect("temp dir");
            let path = dir.join("hostile.toml");
            std::fs::write(&path, &bytes).expect("write");
            let mut sources = SourceMap::new();
            let result = scenario::load(&path, &mut sources);
            if let Err(diags) = &result {
                // The first hundred: the renderer's cost grows with the line a label is on.
                for d in diags.iter().take(100) {
                    let _ = diagnostic::render(d, &sources, RenderOptions::plain());
                    let _ = JsonDiagnostic::new(d, &sources);
                }
            }
            let _ = std::fs::remove_dir_all(&dir);
            result
        })
        .expect("spawn")
        .join()
        .expect("no panic")
}

const N: usize = 100_000;

fn errors(bytes: Vec<u8>) -> Vec<Diagnostic> {
    let d = hostile(bytes).expect_err("a diagnostic");
    assert!(!d.is_empty());
    d
}

#[test]
fn deep_nesting_is_a_syntax_error() {
    for deep in [
        "[".repeat(N),
        format!("game = 'pmv'\nrules = []\nscript = {}", "[".repeat(N)),
        format!("game = 'pmv'\nrules = []\nscript = {}", "{a=".repeat(N)),
        format!("x = {}{}", "[".repeat(N), "]".repeat(N)),
        format!("[{}]", "a.".repeat(N) + "b"),
    ] {
        let d = errors(deep.into_bytes());
        assert!(d.iter().all(|d| d.code == codes::SCENARIO_SYNTAX), "{d:#?}");
        assert!(d.len() <= scenario::MAX_SYNTAX_ERRORS);
    }
}

#[test]
fn attached_cards_nest_boundedly() {
    let mut entry = "'x'".to_string();
    for _ in 0..30 {
        entry = format!("{{ card = 'x', attached = [{entry}] }}");
    }
    let text = format!("game = 'pmv'\nrules = []\n[[player]]\nfield = [{entry}]\n");
    let d = errors(text.into_bytes());
    assert!(
        d.iter().any(|d| d.code == codes::SCENARIO_BAD_CARD_ENTRY),
        "{d:#?}"
    );
}

#[test]
fn garbage_and_invalid_utf8_give_diagnostics() {
    let d = errors("=!\n".repeat(N).into_bytes());
    assert!(d.len() <= scenario::MAX_SYNTAX_ERRORS);
    let mut bytes = b"game = 'pmv'\nrules = ['".to_vec();
    bytes.extend([0xff, 0xc0, 0x80]);
    bytes.extend(b"']\n");
    let d = errors(bytes);
    assert_eq!(d[0].code, codes::SOURCE_INVALID_UTF8);
    let d = errors(vec![0xff; N]);
    assert!(d.iter().any(|d| d.code == codes::SOURCE_INVALID_UTF8));
    let d = errors(Vec::new());
    assert!(d.iter().all(|d| d.code == codes::SCENARIO_MISSING_KEY));
}

#[test]
fn huge_files_are_read_or_bounded() {
    // 100,000 script lines and a megabyte-long card name read fine.
    let lines = "'p1: pass',".repeat(N);
    let long = "名".repeat(N * 3);
    let text =
        format!("game = 'pmv'\nrules = []\nscript = [{lines}]\n[[player]]\nhand = ['{long} x2']\n");
    let s = hostile(text.into_bytes()).unwrap_or_else(|d| panic!("{:?}", &d[..1]));
    assert_eq!(s.script.len(), N);
    assert_eq!(s.players[0].zones[0].cards[0].count, 2);

    // As many bad lines give one diagnostic each.
    let lines = "'p0: pass',\n".repeat(N);
    let d = errors(format!("game = 'pmv'\nrules = []\nscript = [{lines}]\n").into_bytes());
    assert_eq!(d.len(), N);

    // A million cards are refused once, at the entry that goes beyond the limit.
    let entries = "'a x1000',".repeat(1000);
    let d =
        errors(format!("game = 'pmv'\nrules = []\n[[player]]\nhand = [{entries}]\n").into_bytes());
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, codes::SCENARIO_BAD_CARD_ENTRY);

    // Huge numbers and 10,000 seats.
    let seats = "[[player]]\n".repeat(10_000);
    let text = format!("game = 'pmv'\nrules = []\nseed = 0xffffffffffffffff\nmax_steps = 99999999999999999999999999999999999\n{seats}");
    let d = errors(text.into_bytes());
    assert_eq!(d.len(), 1, "{d:#?}");
}

// ───────────────────────────── discovery ─────────────────────────────

#[test]
fn discover_finds_pack_and_test_scenarios_only() {
    let root = std::env::temp_dir().join(format!("fuda-discover-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let files = [
        "cards/pmv/pack.toml",
        "cards/pmv/scenarios/a.toml",
        "cards/pmv/scenarios/deeper/b.toml",
        "cards/pmv/scenarios/notes.md",
        "cards/pmv/scenarios/pack.toml",
        "cards/pmv/sets/scenarios/not_a_pack_folder.toml",
        "cards/pmv/other.toml",
        "tests/scenarios/c.toml",
        "tests/errors/scenarios/broken.toml",
        "tests/.hidden/scenarios/d.toml",
        "tests/scenarios/.git/e.toml",
    ];
    for f in files {
        let p = root.join(f);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dir");
        std::fs::write(&p, "").expect("file");
    }
    let rel = |paths: Vec<PathBuf>| -> Vec<String> {
        paths
            .iter()
            .map(|p| {
                p.strip_prefix(&root)
                    .unwrap_or(p)
                    .to_string_lossy()
                    .replace('\\', "/")
            })
            .collect()
    };
    assert_eq!(
        rel(scenario::discover(std::slice::from_ref(&root))),
        [
            "cards/pmv/scenarios/a.toml",
            "cards/pmv/scenarios/deeper/b.toml",
            "tests/scenarios/c.toml",
        ]
    );
    // A scenario folder given explicitly, and an explicit file (even a missing one), are taken.
    assert_eq!(
        rel(scenario::discover(&[
            root.join("tests/errors/scenarios"),
            root.join("cards/pmv/other.toml"),
            root.join("missing.toml"),
            root.join("tests/errors/scenarios"),
        ])),
        [
            "cards/pmv/other.toml",
            "missing.toml",
            "tests/errors/scenarios/broken.toml",
        ]
    );
    let _ = std::fs::remove_dir_all(&root);
}
