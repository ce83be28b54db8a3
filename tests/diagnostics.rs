//! Diagnostic snapshots: every entry of `tests/errors/` is a mistake a card
//! designer or modder makes. A `.fuda` file is checked as a lone file (a file
//! saying `game pmv` is compiled against `cards/pmv`); a folder is checked as
//! a pack. Each entry's diagnostics are snapshotted twice — as the human sees
//! them (plain, 80 columns) and as `--format json` gives them.
//!
//! Only diagnostics located in `tests/errors/` are kept: the shipped game packs
//! the files build on are checked elsewhere, and their own diagnostics would
//! make these snapshots change whenever a shipped card changes. (Did-you-mean
//! suggestions still come from the shipped rulesets: renaming a PMV zone, say,
//! changes some snapshots.) `pack_unreadable_file/cards.fuda` is a deliberately
//! broken symbolic link.
//!
//! Run `cargo insta test --test diagnostics` (or `cargo test --test diagnostics`
//! then `cargo insta review`) after changing a message.

use fuda::base::diagnostic::{self, codes, JsonDiagnostic, RenderOptions, Severity};
use fuda::packs::Session;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The folder of error files, relative to the crate root (the tests' current dir).
const ERRORS: &str = "tests/errors";

/// Codes that no file in `tests/errors/` can trigger, with the reason.
const NOT_COVERABLE: &[(&str, &str)] = &[(
    "fuda::pack::limit",
    "a file over 1 MiB or over 1,000 files is no fixture to check in: tests/packs.rs builds them in a temp folder and snapshots the diagnostics",
)];

/// Entries whose diagnostics are warnings only (every other entry must yield an error).
const WARNINGS_ONLY: &[&str] = &["unused_let.fuda", "unknown_card_name.fuda"];

/// What checking one entry of `tests/errors/` gave.
struct Case {
    /// The entry's file or folder name.
    name: String,
    /// Every diagnostic located in `tests/errors/`, rendered as text.
    rendered: Vec<String>,
    /// The same diagnostics in JSON form.
    json: Vec<JsonDiagnostic>,
    /// The text of every file the session read, by display path.
    texts: BTreeMap<String, Arc<str>>,
}

impl Case {
    fn codes(&self) -> BTreeSet<&'static str> {
        self.json.iter().map(|j| j.code).collect()
    }
    fn count(&self, severity: Severity) -> usize {
        self.json.iter().filter(|j| j.severity == severity).count()
    }
}

/// Folders of `tests/errors/` holding files that are no packs, each snapshotted by its own
/// test file; their codes still count for `every_code_is_covered`.
const OWN_TESTS: &[(&str, &str)] = &[
    ("scenarios", "tests/scenario_format.rs"),
    ("run", "tests/scenarios.rs"),
    ("deck_formats", "tests/decks.rs"),
    ("proof", "tests/proof.rs"),
];

/// The entries of `tests/errors/`: `.fuda` files and pack folders, sorted.
fn entries() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(ERRORS)
        .expect("tests/errors exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|x| x == "fuda"))
        .filter(|p| !OWN_TESTS.iter().any(|(dir, _)| p.ends_with(dir)))
        .collect();
    out.sort();
    out
}

fn entry_name(path: &Path) -> String {
    path.file_name()
        .expect("entry has a name")
        .to_string_lossy()
        .into_owned()
}

fn check(path: &Path) -> Case {
    let mut s = Session::new();
    s.check_path(path);
    s.finish();
    let prefix = format!("{ERRORS}/");
    let own: Vec<_> = s
        .diags
        .iter()
        .filter(|d| s.sources.get(d.primary.file).path.starts_with(&prefix))
        .collect();
    Case {
        name: entry_name(path),
        rendered: own
            .iter()
            .map(|d| diagnostic::render(d, &s.sources, RenderOptions::plain()))
            .collect(),
        json: own
            .iter()
            .map(|d| JsonDiagnostic::new(d, &s.sources))
            .collect(),
        texts: s
            .sources
            .files()
            .map(|(_, f)| (f.path.clone(), f.text.clone()))
            .collect(),
    }
}

/// Every entry checked once, shared by all tests of this file.
fn cases() -> &'static BTreeMap<String, Case> {
    static CASES: OnceLock<BTreeMap<String, Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        entries()
            .iter()
            .map(|p| (entry_name(p), check(p)))
            .collect()
    })
}

fn case(path: &Path) -> &'static Case {
    cases()
        .get(&entry_name(path))
        .expect("every entry was checked")
}

/// The snapshot text: the rendered diagnostics, then their JSON form.
fn snapshot_text(c: &Case) -> String {
    let mut out = format!(
        "{}: {} error(s), {} warning(s)\n\n",
        c.name,
        c.count(Severity::Error),
        c.count(Severity::Warning)
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
    // An explicit loop (not `insta::glob!`, which walks into pack folders and
    // stops at the deliberately broken symlink of `pack_unreadable_file`); like
    // `glob!`, it checks every entry before failing.
    let mut failed = Vec::new();
    for p in entries() {
        let c = case(&p);
        let result = std::panic::catch_unwind(|| {
            insta::with_settings!({
                snapshot_path => "snapshots/diagnostics",
                prepend_module_to_snapshot => false,
                omit_expression => true,
                input_file => &p,
            }, {
                insta::assert_snapshot!(c.name.clone(), snapshot_text(c));
            });
        });
        if result.is_err() {
            failed.push(c.name.clone());
        }
    }
    assert!(failed.is_empty(), "snapshots differ for: {failed:#?}");
}

/// The codes the scenario files of `tests/errors/scenarios/` produce (their snapshots are
/// `tests/scenario_format.rs`'s).
fn scenario_codes() -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    let dir = std::fs::read_dir(format!("{ERRORS}/scenarios")).expect("scenario fixtures");
    for e in dir {
        let path = e.expect("readable entry").path();
        let mut sources = fuda::base::source::SourceMap::new();
        if let Err(diags) = fuda::tools::scenario::load(&path, &mut sources) {
            out.extend(diags.iter().map(|d| d.code.0));
        }
    }
    out
}

/// The codes running the scenarios of `tests/errors/run/` produces (names the game lacks).
fn run_codes() -> BTreeSet<&'static str> {
    let suite =
        fuda::tools::runner::run_paths(&[format!("{ERRORS}/run/unknown-names.toml").into()]);
    suite.session.diags.iter().map(|d| d.code.0).collect()
}

/// Every diagnostic code is produced by at least one entry (minus `NOT_COVERABLE`).
#[test]
fn every_code_is_covered() {
    let hit: BTreeSet<&str> = cases()
        .values()
        .flat_map(Case::codes)
        .chain(scenario_codes())
        .chain(run_codes())
        .chain(super::decks::format_codes())
        .chain(super::render::render_codes())
        .chain(super::proof::proof_codes())
        .collect();
    let all: BTreeSet<&str> = codes::ALL.iter().map(|c| c.0).collect();
    for (code, _) in NOT_COVERABLE {
        assert!(
            all.contains(code),
            "NOT_COVERABLE lists `{code}`, which is no diagnostic code"
        );
        assert!(!hit.contains(code), "`{code}` is listed as not coverable, but an error file hits it: remove it from NOT_COVERABLE");
    }
    let missing: Vec<&str> = all
        .iter()
        .copied()
        .filter(|c| !hit.contains(c) && !NOT_COVERABLE.iter().any(|(n, _)| n == c))
        .collect();
    assert!(
        missing.is_empty(),
        "no file in tests/errors/ produces: {missing:#?}"
    );
}

/// Every entry yields at least one error, except the warnings-only ones,
/// which yield warnings and no error.
#[test]
fn every_file_yields_an_error() {
    for c in cases().values() {
        if WARNINGS_ONLY.contains(&c.name.as_str()) {
            assert_eq!(
                c.count(Severity::Error),
                0,
                "{}: listed as warnings-only but has errors",
                c.name
            );
            assert!(
                c.count(Severity::Warning) > 0,
                "{}: listed as warnings-only but has no warning",
                c.name
            );
        } else {
            assert!(
                c.count(Severity::Error) > 0,
                "{}: no error reported",
                c.name
            );
        }
    }
}

/// The codes named in an entry's `// expect:` lines (or a pack folder's files and README).
fn expected_codes(path: &Path) -> BTreeSet<String> {
    let mut texts = Vec::new();
    if path.is_dir() {
        for e in std::fs::read_dir(path)
            .expect("pack folder")
            .chain(std::fs::read_dir(path.join("sets")).into_iter().flatten())
        {
            let p = e.expect("entry").path();
            if let Ok(bytes) = std::fs::read(&p) {
                texts.push(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    } else {
        texts.push(String::from_utf8_lossy(&std::fs::read(path).expect("error file")).into_owned());
    }
    let mut out = BTreeSet::new();
    for t in texts {
        let first = t
            .trim_start_matches('\u{feff}')
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        if !first.contains("expect:") {
            continue;
        }
        for word in first.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':')) {
            if word.starts_with("fuda::") {
                out.insert(word.trim_end_matches(':').to_string());
            }
        }
    }
    out
}

/// The codes each entry's `// expect:` comment names are really reported.
#[test]
fn expect_comments_match() {
    let mut wrong = Vec::new();
    for p in entries() {
        let c = case(&p);
        let got = c.codes();
        let want = expected_codes(&p);
        assert!(
            !want.is_empty(),
            "{}: no `expect:` comment naming a code",
            c.name
        );
        for w in &want {
            if !got.contains(w.as_str()) {
                wrong.push(format!("{}: expects `{w}`, got {got:?}", c.name));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// 1-based line and column of a byte offset, columns in Unicode scalar values.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, text[start..offset].chars().count() + 1)
}

/// In JSON form, lines and columns are 1-based and agree with `offset` and
/// `length`, which stay inside the file and on character boundaries.
#[test]
fn json_positions_are_consistent() {
    for c in cases().values() {
        for j in &c.json {
            let text = c
                .texts
                .get(&j.file)
                .unwrap_or_else(|| panic!("{}: unknown file {}", c.name, j.file));
            let what = format!("{}: {} at {}:{}", c.name, j.code, j.line, j.column);
            assert!(
                j.line >= 1 && j.column >= 1 && j.end_line >= 1 && j.end_column >= 1,
                "{what}: not 1-based"
            );
            let end = j.offset + j.length;
            assert!(
                end <= text.len(),
                "{what}: span {}..{end} beyond the file ({} bytes)",
                j.offset,
                text.len()
            );
            assert!(
                text.is_char_boundary(j.offset) && text.is_char_boundary(end),
                "{what}: span not on character boundaries"
            );
            assert_eq!(
                (j.line, j.column),
                line_col(text, j.offset),
                "{what}: line/column disagree with offset"
            );
            assert_eq!(
                (j.end_line, j.end_column),
                line_col(text, end),
                "{what}: end line/column disagree with offset + length"
            );
            assert!(
                (j.end_line, j.end_column) >= (j.line, j.column),
                "{what}: ends before it starts"
            );
            for r in &j.related {
                let t = c
                    .texts
                    .get(&r.file)
                    .unwrap_or_else(|| panic!("{what}: related label in unknown file {}", r.file));
                let rend = r.offset + r.length;
                assert!(
                    rend <= t.len() && t.is_char_boundary(r.offset) && t.is_char_boundary(rend),
                    "{what}: related span out of its file"
                );
                assert_eq!(
                    (r.line, r.column),
                    line_col(t, r.offset),
                    "{what}: related line/column disagree with offset"
                );
            }
        }
    }
}
