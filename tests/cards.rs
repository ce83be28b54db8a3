//! Every shipped card compiles without diagnostics, and its IR matches its
//! reviewed snapshot (`tests/snapshots/cards/`). Each game's ruleset IR is
//! snapshotted too.

use fuda::diagnostic::{render, RenderOptions};
use fuda::pack::Session;
use std::path::Path;
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

fn snapshot_name(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[test]
fn shipped_packs_check_clean() {
    let s = shipped();
    let rendered: String = s
        .diags
        .iter()
        .map(|d| render(d, &s.sources, RenderOptions::plain()))
        .collect();
    assert!(
        s.diags.is_empty(),
        "shipped cards have diagnostics:\n{rendered}"
    );
    for game in ["pmv", "ws", "pm"] {
        let pack = s
            .packs
            .iter()
            .find(|p| p.pack.name == game)
            .unwrap_or_else(|| panic!("pack {game} not loaded"));
        assert!(
            pack.pack.cards.len() >= 12,
            "{game} ships {} cards, fewer than 12",
            pack.pack.cards.len()
        );
    }
}

#[test]
fn every_card_matches_its_ir_snapshot() {
    let s = shipped();
    insta::glob!("../cards", "*/sets/*.fuda", |path| {
        let shown = path.to_string_lossy().replace('\\', "/");
        let rel = &shown[shown.find("cards/").expect("under cards/")..];
        for compiled in &s.packs {
            for card in &compiled.pack.cards {
                let file = compiled
                    .spans
                    .entries
                    .get(&format!("cards/{}", card.id))
                    .map(|e| e.0.as_str());
                if file != Some(rel) {
                    continue;
                }
                insta::with_settings!({ snapshot_path => "snapshots/cards", prepend_module_to_snapshot => false, omit_expression => true, input_file => path }, {
                    insta::assert_json_snapshot!(snapshot_name(&card.id), card);
                });
            }
        }
    });
}

#[test]
fn every_ruleset_matches_its_ir_snapshot() {
    let s = shipped();
    for compiled in &s.packs {
        if let Some(r) = &compiled.pack.ruleset {
            insta::with_settings!({ snapshot_path => "snapshots/rulesets", prepend_module_to_snapshot => false, omit_expression => true }, {
                insta::assert_json_snapshot!(compiled.pack.name.clone(), r);
            });
        }
    }
}

#[test]
fn cached_ir_equals_compiled_ir() {
    // A pack loaded from the cache is the same IR the compiler produced.
    let dir = std::env::temp_dir().join(format!("fuda-cache-test-{}", std::process::id()));
    let run = || {
        let mut s = Session::new();
        s.cache = Some(fuda::cache::Cache::new(dir.clone()));
        s.check_path(Path::new("cards"));
        s.finish();
        s
    };
    let first = run();
    let second = run();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(first.packs.len(), second.packs.len());
    for (a, b) in first.packs.iter().zip(&second.packs) {
        assert_eq!(
            a.pack, b.pack,
            "pack {} differs after a cache round trip",
            a.pack.name
        );
    }
    assert_eq!(first.diags, second.diags);
}
