//! The VS Code extension (`editors/vscode/`) can't rot: its TextMate grammar is valid JSON whose
//! keyword patterns cover every keyword of `grammar/fuda.pest` (read from the grammar, so a new
//! keyword fails here until it is highlighted), its manifest names the grammar and the settings
//! the extension reads, and it builds with npm (`npm ci`, `npm run compile`) in a copy of the
//! folder, giving `out/extension.js`; `npm run check-grammar` then tokenizes a shipped card file
//! with the grammar as VS Code does (vscode-textmate on Oniguruma) and checks a few scopes.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode")
}

/// Every keyword of the fuda grammar: the `kw_*` rules' words and the reserved words of its
/// `keyword` rule (written as a first letter and the rests: `"a" ~ ("ttach" | "nd")`).
fn grammar_keywords() -> BTreeSet<String> {
    let pest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar/fuda.pest"))
            .unwrap();
    let quoted = |s: &str| -> Vec<String> {
        s.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let mut out = BTreeSet::new();
    for line in pest.lines() {
        if line.starts_with("kw_") {
            let words = quoted(line);
            out.insert(words[0].clone());
        }
    }
    let start = pest.find("\nkeyword     = @{").expect("the keyword rule");
    let body = &pest[start..];
    let body = &body[..body.find("\n}").unwrap()];
    for line in body.lines() {
        let Some((first, rest)) = line.split_once("~ (") else {
            continue;
        };
        let first = quoted(first);
        for r in quoted(rest) {
            out.insert(format!("{}{r}", first[0]));
        }
    }
    assert!(out.len() > 100, "{out:?}");
    out
}

/// The words the TextMate grammar's `keywords` patterns match (`\b(a|b|…)\b`).
fn highlighted(grammar: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for p in grammar["repository"]["keywords"]["patterns"]
        .as_array()
        .unwrap()
    {
        let m = p["match"].as_str().unwrap();
        let inner = m
            .strip_prefix("\\b(")
            .and_then(|m| m.strip_suffix(")\\b"))
            .unwrap_or_else(|| panic!("a keyword pattern is `\\b(a|b)\\b`: {m}"));
        out.extend(inner.split('|').map(str::to_string));
    }
    out
}

#[test]
fn the_textmate_grammar_highlights_every_keyword_of_the_language() {
    let text = std::fs::read_to_string(folder().join("syntaxes/fuda.tmLanguage.json")).unwrap();
    let grammar: Value = serde_json::from_str(&text).expect("the TextMate grammar is JSON");
    assert_eq!(grammar["scopeName"], "source.fuda");
    let missing: Vec<String> = grammar_keywords()
        .difference(&highlighted(&grammar))
        .cloned()
        .collect();
    assert!(
        missing.is_empty(),
        "keywords of grammar/fuda.pest the TextMate grammar does not highlight: {missing:?}"
    );
    for part in ["comments", "strings", "numbers", "punctuation"] {
        assert!(grammar["repository"][part]["patterns"].is_array(), "{part}");
    }
    let lc: Value = serde_json::from_str(
        &std::fs::read_to_string(folder().join("language-configuration.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(lc["comments"]["lineComment"], "//");
}

#[test]
fn the_manifest_names_the_grammar_and_the_settings() {
    let pkg: Value =
        serde_json::from_str(&std::fs::read_to_string(folder().join("package.json")).unwrap())
            .unwrap();
    let c = &pkg["contributes"];
    assert_eq!(c["languages"][0]["id"], "fuda");
    assert_eq!(c["languages"][0]["extensions"][0], ".fuda");
    let path = c["grammars"][0]["path"].as_str().unwrap();
    assert!(folder().join(path).is_file(), "{path}");
    let conf = c["languages"][0]["configuration"].as_str().unwrap();
    assert!(folder().join(conf).is_file(), "{conf}");
    let ts = std::fs::read_to_string(folder().join("src/extension.ts")).unwrap();
    for key in ["fuda.server.path", "fuda.lang"] {
        assert!(c["configuration"]["properties"][key].is_object(), "{key}");
        let (section, name) = key.split_once('.').unwrap();
        assert_eq!(section, "fuda");
        assert!(
            ts.contains(&format!("\"{name}\"")),
            "extension.ts reads `{key}`"
        );
    }
    assert!(folder().join("package-lock.json").is_file());
}

/// Copies the extension's sources (not `node_modules/` or `out/`) to `to`.
fn copy_sources(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let name = e.file_name();
        if ["node_modules", "out"].iter().any(|n| name == *n) {
            continue;
        }
        if e.file_type().unwrap().is_dir() {
            copy_sources(&e.path(), &to.join(&name));
        } else {
            std::fs::copy(e.path(), to.join(&name)).unwrap();
        }
    }
}

fn npm(dir: &Path, args: &[&str]) {
    let out = match Command::new("npm").args(args).current_dir(dir).output() {
        Ok(o) => o,
        Err(e) => panic!(
            "cannot run `npm` ({e}): install Node.js (20 or later, with npm) to build the VS Code extension in editors/vscode/"
        ),
    };
    assert!(
        out.status.success(),
        "`npm {}` failed:\n{}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_extension_builds_with_npm() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("vscode");
    copy_sources(&folder(), &dir);
    npm(&dir, &["ci", "--no-audit", "--no-fund"]);
    npm(&dir, &["run", "compile"]);
    let js = std::fs::read_to_string(dir.join("out/extension.js")).expect("out/extension.js");
    assert!(js.contains("exports.activate"), "{js}");
    // The grammar as VS Code runs it (vscode-textmate, Oniguruma) on a shipped card file.
    let sample =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/examples/night-parade/sets/parade.fuda");
    npm(
        &dir,
        &["run", "check-grammar", "--", sample.to_str().unwrap()],
    );
}
