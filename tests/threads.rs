//! The compiler gives the same result whatever the thread count: parsing runs per file and per
//! item on the rayon pool (`parse::parse_file`, `Session`), joined in source order. Each case
//! is compiled in a 1-thread and in a 2-thread pool, and everything a session produced is
//! compared byte for byte: the diagnostics in the order they were found (before `finish`
//! sorts them) and after `finish`, each pack's IR as JSON, its span table, its exact names,
//! and the source map.
//!
//! The cases: every shipped pack under `cards/`, every entry of `tests/errors/`, and a
//! generated file of 3,000 cards where every 7th has a syntax error and every 5th an unknown
//! name, so items with and without diagnostics interleave across the threads' chunks.

use fuda::packs::{PackSource, Session};
use std::path::{Path, PathBuf};

/// Everything a session produced, as text.
fn outcome(mut s: Session) -> (String, String, Vec<String>) {
    let found = format!("{:?}", s.diags);
    s.finish();
    let finished = format!("{:?}\n{:?}", s.diags, s.sources);
    let packs = s
        .packs
        .iter()
        .map(|c| {
            format!(
                "{}\n{:?}\n{:?}",
                serde_json::to_string(&c.pack).unwrap(),
                c.spans,
                c.exact_names
            )
        })
        .collect();
    (found, finished, packs)
}

/// Runs `compile` on a pool of `threads` threads (with the CLI's large stack).
fn on_pool(
    threads: usize,
    compile: impl Fn() -> Session + Send + Sync,
) -> (String, String, Vec<String>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(256 << 20)
        .build()
        .unwrap();
    pool.install(|| outcome(compile()))
}

/// Compiles with 1 and 2 threads and asserts the outcomes are identical; returns the number
/// of diagnostics and of packs, for the caller to check the case is not empty.
fn same_on_1_and_2(name: &str, compile: impl Fn() -> Session + Send + Sync) -> (usize, usize) {
    let one = on_pool(1, &compile);
    let two = on_pool(2, &compile);
    assert_eq!(one.0, two.0, "{name}: diagnostics as found differ");
    assert_eq!(
        one.1, two.1,
        "{name}: diagnostics or sources after finish differ"
    );
    assert_eq!(one.2, two.2, "{name}: compiled packs differ");
    (one.0.matches("Diagnostic {").count(), one.2.len())
}

#[test]
fn the_shipped_packs_compile_the_same_on_one_and_two_threads() {
    let (_, packs) = same_on_1_and_2("cards/", || {
        let mut s = Session::new();
        s.check_path(Path::new("cards"));
        s
    });
    assert!(packs >= 4, "cards/ compiled {packs} packs");
}

#[test]
fn the_error_fixtures_give_the_same_diagnostics_on_one_and_two_threads() {
    let mut entries: Vec<PathBuf> = std::fs::read_dir("tests/errors")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "fuda"))
        .collect();
    entries.sort();
    assert!(entries.len() > 100);
    let (diags, _) = same_on_1_and_2("tests/errors", || {
        let mut s = Session::new();
        for e in &entries {
            s.check_path(e);
        }
        s
    });
    assert!(diags > 100, "only {diags} diagnostics");
}

/// A lone PMV file of `n` cards: every 7th has a syntax error, every 5th an unknown name.
fn generated(n: usize) -> String {
    let mut out = String::from("game pmv\n\n");
    for i in 0..n {
        let broken = if i % 7 == 3 { "  cost: = 2\n" } else { "" };
        let target = if i % 5 == 1 { "no_such_zone" } else { "field" };
        out.push_str(&format!(
            "card \"generated {i}\" {{\n  number: \"T{i:05}\"\n  type: character\n  cost: {}\n  nodes: 2\n  race: \"人間\"\n  power: 1/2\n{broken}\n  alpha when this enters(zone: {target}) {{\n    draw {}\n  }}\n}}\n\n",
            i % 5,
            i % 3 + 1
        ));
    }
    out
}

#[test]
fn a_generated_file_compiles_the_same_on_one_and_two_threads() {
    let text = generated(3000);
    let (diags, packs) = same_on_1_and_2("generated", || {
        let mut s = Session::new();
        s.compile_source(PackSource::in_memory(
            "generated.fuda",
            text.clone().into_bytes(),
        ));
        s
    });
    // 3000 / 7 syntax errors and 3000 / 5 unknown zones (less the broken cards among them).
    assert!(diags > 900, "only {diags} diagnostics");
    assert!(packs >= 1);
}

/// `parse_file` alone (what `fuda fmt` and a file without a `game` header use): its pre-pass
/// hands items over while it runs, so on 2 or 4 threads items are parsed as the pass goes
/// on. Items and diagnostics must be those of 1 thread, in the same order, with errors of
/// the pre-pass (bad bytes, an unclosed brace, an unterminated string at the end) among
/// items with syntax errors and clean ones.
#[test]
fn parse_file_gives_the_same_items_and_diagnostics_on_one_two_and_four_threads() {
    let mut text = generated(2000);
    // a stray byte in a card, a brace left open in another (the next card recovers)
    text = text.replacen("  nodes: 2\n", "  nodes: 2 \u{1}\n", 1);
    let open = text.find("card \"generated 1200\"").unwrap();
    let body = text[open..].find("  }\n}").unwrap();
    text.replace_range(open + body..open + body + 5, "  \n");
    text.push_str("card \"unterminated\" {\n  number: \"T9");
    let parse = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(256 << 20)
            .build()
            .unwrap();
        pool.install(|| {
            let mut diags = Vec::new();
            let items =
                fuda::compiler::parse::parse_file(&text, fuda::base::source::FileId(0), &mut diags);
            (
                format!("{items:?}"),
                format!("{diags:?}"),
                items.len(),
                diags.len(),
            )
        })
    };
    let one = parse(1);
    assert!(one.2 > 1500, "only {} items parsed", one.2);
    assert!(one.3 > 280, "only {} diagnostics", one.3);
    for threads in [2, 4] {
        let other = parse(threads);
        assert_eq!(one.0, other.0, "items differ on {threads} threads");
        assert_eq!(one.1, other.1, "diagnostics differ on {threads} threads");
    }
}
