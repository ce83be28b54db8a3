//! Pack scripts (docs/language.md, "Scripts"): the test pack `tests/packs/scripted` (a mod pack
//! of PMV) has commands whose effects are `.rhai` functions. Each case of its `cases/` folder is
//! a scenario played on PMV with that pack loaded: a loop, two choices replayed, a verb called,
//! and each hostile script (an endless loop, a huge string, a huge array, deep recursion, a
//! missing host function, a throw, a forged card handle) stopping its effect with one log line
//! while the game goes on. Each case's log is a snapshot; random games with every scripted card
//! keep the invariants of `support`.

use fuda::base::diagnostic::{self, RenderOptions};
use fuda::engine::Program;
use fuda::packs::Session;
use fuda::tools::{runner, scenario};
use std::path::{Path, PathBuf};

/// The test pack.
const PACK: &str = "tests/packs/scripted";

/// PMV with the scripted pack, and the session's rendered diagnostics (none expected).
fn program() -> (Program, Session) {
    let mut s = Session::new();
    s.load_dir(Path::new(PACK));
    let rendered: Vec<String> = s
        .diags
        .iter()
        .map(|d| diagnostic::render(d, &s.sources, RenderOptions::plain()))
        .collect();
    assert!(rendered.is_empty(), "diagnostics:\n{}", rendered.join("\n"));
    let p = s.program("pmv").expect("PMV with the scripted pack");
    (p, s)
}

/// The cases, sorted.
fn cases() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(Path::new(PACK).join("cases"))
        .expect("the cases folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    out.sort();
    out
}

#[test]
fn every_case_passes_and_its_log_matches_its_snapshot() {
    let (prog, mut session) = program();
    let cases = cases();
    assert!(cases.len() >= 14, "too few cases: {}", cases.len());
    for path in cases {
        let sc = scenario::load(&path, &mut session.sources).expect("a valid scenario");
        let r = runner::run(&prog, &sc).expect("names the game has");
        assert!(
            r.passed(),
            "{}: {}\n{}",
            path.display(),
            r.failures.join("\n"),
            r.log.join("\n")
        );
        let name = path
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        insta::with_settings!({
            snapshot_path => "snapshots/scripts",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, r.log.join("\n"));
        });
    }
}

/// The same scenario twice gives the same log: a script's run is deterministic.
#[test]
fn a_hostile_script_ends_the_same_way_every_time() {
    let (prog, mut session) = program();
    let path = Path::new(PACK).join("cases/script-hostile-endless-loop.toml");
    let sc = scenario::load(&path, &mut session.sources).expect("a valid scenario");
    let a = runner::run(&prog, &sc).expect("runs");
    let b = runner::run(&prog, &sc).expect("runs");
    assert_eq!(a.log, b.log);
}

/// A program with scripts can still be shared by the simulator's threads.
#[test]
fn a_program_with_scripts_is_send_and_sync() {
    fn shared<T: Send + Sync>(_: &T) {}
    let (prog, _) = program();
    shared(&prog);
}

/// A pack with scripts is stored in the compiled-pack cache (its scripts in its key) and read
/// back whole: the IR with its scripts, and the functions `script` statements may call.
#[test]
fn a_scripted_pack_round_trips_through_the_cache() {
    use fuda::packs::cache::Cache;
    use fuda::packs::PackSource;
    let dir = std::env::temp_dir().join(format!("fuda-script-cache-{}", std::process::id()));
    let mut s = Session::new();
    s.cache = Some(Cache::new(dir.clone()));
    s.load_dir(Path::new(PACK));
    let pmv = PackSource::from_dir(Path::new("cards/pmv")).expect("the pmv pack");
    let pmv_key = Cache::key(
        pmv.manifest_text.as_deref().expect("a manifest"),
        &pmv.files,
        &[],
    );
    let src = PackSource::from_dir(Path::new(PACK)).expect("the scripted pack");
    assert!(
        !src.scripts.is_empty(),
        "the pack's .rhai files are its scripts"
    );
    let hashed: Vec<(String, Vec<u8>)> = src.files.iter().chain(&src.scripts).cloned().collect();
    let key = Cache::key(
        src.manifest_text.as_deref().expect("a manifest"),
        &hashed,
        &[pmv_key],
    );
    let compiled = s
        .packs
        .iter()
        .find(|p| p.pack.name == "scripted")
        .expect("compiled");
    let dep = s
        .packs
        .iter()
        .find(|p| p.pack.name == "pmv")
        .expect("compiled");
    let cache = Cache::new(dir.clone());
    let loaded = cache.load(&key, fuda::base::source::FileId(0), &[dep], &mut Vec::new());
    let _ = std::fs::remove_dir_all(&dir);
    let loaded = loaded.expect("the scripted pack was stored and reads back");
    assert_eq!(loaded.pack, compiled.pack);
    assert_eq!(
        loaded.symbols.script_functions,
        compiled.symbols.script_functions
    );
    assert_eq!(loaded.pack.scripts.len(), src.scripts.len());
}

/// Random games of PMV whose decks hold every scripted command (hostile ones included) end, keep
/// every card in one zone, and the hostile scripts only stop their own effects.
#[test]
fn random_games_with_scripted_cards_keep_the_invariants() {
    use crate::support::{options, random_agents, step_to_end, zone_problems};
    use fuda::engine::Game;
    let (prog, _) = program();
    let scripted: Vec<u32> = prog
        .cards
        .iter()
        .enumerate()
        .filter(|(_, c)| c.id.starts_with("scripted:"))
        .map(|(i, _)| u32::try_from(i).expect("few cards"))
        .collect();
    let child = prog.find_card("人里の子供").expect("a PMV character");
    let meirin = prog
        .find_card("紅魔館の門番“紅 美鈴”")
        .expect("a PMV character");
    let mut deck = Vec::new();
    for _ in 0..2 {
        deck.extend(&scripted);
    }
    while deck.len() < 50 {
        deck.push(if deck.len() % 2 == 0 { child } else { meirin });
    }
    let mut stopped = 0;
    for seed in 0..6 {
        let decks = vec![deck.clone(), deck.clone()];
        let mut game = Game::new(&prog, &decks, None, &options(seed));
        let mut agents = random_agents(seed);
        let stepped = step_to_end(&mut game, &mut agents, |g, _| {
            let problems = zone_problems(g, 100);
            assert!(problems.is_empty(), "seed {seed}: {problems:?}");
        });
        assert!(stepped.repeated.is_empty(), "{:?}", stepped.repeated);
        assert!(game.outcome().is_some(), "seed {seed}: the game ends");
        stopped += game
            .log()
            .iter()
            .filter(|l| l.text.contains("script stops"))
            .count();
    }
    assert!(stopped > 0, "some hostile script was played and stopped");
}
