//! Pack scripts (docs/language.md, "Scripts"): the test pack `tests/packs/scripted` (a mod pack
//! of PMV) has commands whose effects are `.rhai` functions. Each case of its `cases/` folder is
//! a scenario played on PMV with that pack loaded: a loop, two choices replayed, a verb called,
//! and each hostile script (an endless loop, a huge string, a huge array, deep recursion, a
//! missing host function, a throw, a forged card handle) stopping its effect with one log line
//! while the game goes on. Each case's log is a snapshot.

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
    assert!(cases.len() >= 10, "too few cases: {}", cases.len());
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
