//! Scenario files (`.toml` under a `scenarios/` folder, or with a `game =` line): the scenario
//! reader's diagnostics on the text as the editor has it and, when it reads, the scenario run on
//! its game (as `fuda test` runs it: a scenario of a pack on that pack and what it requires),
//! with the names the game does not know as diagnostics and the failed expectations at the
//! `[expect]` table.

use super::documents::Documents;
use super::position::Lines;
use crate::base::diagnostic::Diagnostic;
use crate::base::source::{SourceFile, SourceMap};
use crate::packs::manifest::find_pack_dir;
use crate::packs::Session;
use crate::tools::{runner, scenario};
use lsp_types::DiagnosticSeverity;
use std::path::Path;

/// Whether a `.toml` file at `path` with this text is a scenario (a pack's `pack.toml` is not).
pub fn is_scenario(path: &Path, text: &str) -> bool {
    if path.extension().is_none_or(|x| x != "toml") || path.ends_with("pack.toml") {
        return false;
    }
    path.components().any(|c| c.as_os_str() == "scenarios")
        || text.lines().any(|l| {
            l.trim_start()
                .strip_prefix("game")
                .is_some_and(|r| r.trim_start().starts_with('='))
        })
}

/// What checking a scenario found.
pub struct Checked {
    /// The sources the diagnostics refer to.
    pub sources: SourceMap,
    /// The reader's diagnostics, or the runner's (names the game does not have).
    pub diags: Vec<Diagnostic>,
    /// The run's result as editor diagnostics: failed expectations, or why it could not run.
    pub results: Vec<lsp_types::Diagnostic>,
}

/// Reads the scenario at `path` with the text `text` and, when it reads, runs it.
pub fn check(path: &Path, text: &str, docs: &Documents) -> Checked {
    let mut session = Session::new();
    session.overlay = docs.overlay();
    session.skip_decks = true;
    let id = session
        .sources
        .add(SourceFile::new(path.to_string_lossy(), text));
    let sc = match scenario::parse(id, session.sources.get(id)) {
        Ok(sc) => sc,
        Err(diags) => {
            return Checked {
                sources: session.sources,
                diags,
                results: Vec::new(),
            }
        }
    };
    let game = sc.game.value.clone();
    let pack = match find_pack_dir(path) {
        Some(dir) => session.load_dir(&dir),
        None => session.require(&game, None),
    };
    let program = match pack {
        Some(i) => {
            let roots = vec![session.packs[i].pack.name.clone()];
            session.program_of(&roots, &game)
        }
        None => session.program(&game),
    };
    let at = Lines::new(text).range(expect_table(text), expect_table(text));
    let result = |severity, message: String| lsp_types::Diagnostic {
        range: at,
        severity: Some(severity),
        source: Some("fuda test".into()),
        message,
        ..Default::default()
    };
    let (diags, results) = match program {
        Err(why) => (
            Vec::new(),
            vec![result(
                DiagnosticSeverity::WARNING,
                format!("the scenario was not run: {why}"),
            )],
        ),
        Ok(program) => match runner::run(&program, &sc) {
            Ok(report) => (
                Vec::new(),
                report
                    .failures
                    .iter()
                    .map(|f| result(DiagnosticSeverity::ERROR, format!("scenario failed: {f}")))
                    .collect(),
            ),
            Err(diags) => (diags, Vec::new()),
        },
    };
    Checked {
        sources: session.sources,
        diags,
        results,
    }
}

/// The byte offset of the `[expect]` table's header (0: none).
fn expect_table(text: &str) -> usize {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("[expect") || t.starts_with("[[expect") {
            return offset + (line.len() - t.len());
        }
        offset += line.len();
    }
    0
}
