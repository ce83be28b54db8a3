//! Small contracts of the command line and its documentation: `check` prints diagnostics on
//! stderr and its summary on stdout, with counts that agree with their number; the docs cite only
//! files and folders the repository has.

use crate::support::run_fuda;
use std::path::Path;

#[test]
fn check_prints_its_summary_on_stdout_and_diagnostics_on_stderr() {
    let (code, out, err) = run_fuda(&["check", "tests/errors/decks/decks/too_few.deck"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("fuda::deck::size"),
        "diagnostics on stderr: {err}"
    );
    assert!(
        !out.contains("fuda::deck::size"),
        "no diagnostic on stdout: {out}"
    );
    assert!(
        out.contains("checked 1 pack, 8 cards, 1 deck: 1 error, 0 warnings"),
        "the summary on stdout, counts in the singular for one: {out}"
    );
    assert!(
        !err.contains("checked 1 pack"),
        "no summary on stderr: {err}"
    );
}

/// The backticked repository paths of a Markdown text: `cards/…`, `src/…`, `tests/…`, `docs/…`,
/// `grammar/…`, `.ci/…`, ending at the first character no path has. Placeholders (`<game>`,
/// `…`, `*`, `{{name}}`) and paths of folders made at run time are left out.
fn cited_paths(text: &str) -> Vec<String> {
    const ROOTS: &[&str] = &["cards/", "src/", "tests/", "docs/", "grammar/", ".ci/"];
    let mut out = Vec::new();
    for (i, span) in text.split('`').enumerate() {
        if i % 2 == 0 {
            continue;
        }
        let path = span.split_whitespace().next().unwrap_or_default();
        let path = path.split([':', '#', ')', ',']).next().unwrap_or_default();
        if !ROOTS.iter().any(|r| path.starts_with(r)) {
            continue;
        }
        if ["<", "…", "*", "{", "$"].iter().any(|p| path.contains(p)) {
            continue;
        }
        out.push(path.trim_end_matches('.').to_string());
    }
    out
}

#[test]
fn the_docs_cite_only_paths_the_repository_has() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut missing = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a doc");
        for p in cited_paths(&text) {
            if !root.join(&p).exists() {
                let shown = f.strip_prefix(root).unwrap_or(f).display().to_string();
                missing.push(format!("{shown}: `{p}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the docs cite paths the repository does not have:\n{}",
        missing.join("\n")
    );
}

#[test]
fn cited_paths_skip_placeholders() {
    let text = "see `cards/<game>/ruleset.fuda`, `src/main.rs`, `cards/pmv/sets/…`, \
                `tests/errors/x.fuda:3:5`, `docs/cli.md#exit-codes` and `fuda check cards`";
    assert_eq!(
        cited_paths(text),
        ["src/main.rs", "tests/errors/x.fuda", "docs/cli.md"]
    );
}

/// The position of each of `keys` (as `"key"`) in `text`, which must increase.
fn in_order(text: &str, keys: &[&str]) -> bool {
    let at: Vec<Option<usize>> = keys
        .iter()
        .map(|k| text.find(&format!("\"{k}\"")))
        .collect();
    at.iter().all(Option::is_some) && at.windows(2).all(|p| p[0] < p[1])
}

#[test]
fn explain_json_is_one_document_keyed_as_compile_card() {
    let (code, out, err) = run_fuda(&["explain", "cards/pmv", "--card", "001", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(doc["pack"], "pmv");
    assert_eq!(doc["card"]["id"], "pmv:001");
    assert!(doc["outline"].is_string());
    // keys in the documented order, the card's in the IR's order (as `compile` prints them)
    let order = [
        "ir_version",
        "pack",
        "card",
        "id",
        "number",
        "name",
        "card_type",
        "outline",
    ];
    assert!(in_order(&out, &order), "{out}");

    let (code, card, err) = run_fuda(&["compile", "cards/pmv", "--card", "001"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&card).expect("one JSON document");
    let (_, pack, _) = run_fuda(&["compile", "cards/pmv"]);
    let whole: serde_json::Value = serde_json::from_str(&pack).expect("the pack");
    assert_eq!(doc["ir_version"], whole["ir_version"]);
    assert!(doc["ir_version"].is_u64());
    let first = whole["cards"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["id"] == "pmv:001"));
    assert_eq!(Some(&doc["card"]), first);
    assert!(in_order(&card, &order[..7]), "{card}");
    let explained = out.split("\"outline\"").next().unwrap_or_default();
    assert_eq!(
        explained.trim_end().trim_end_matches(','),
        card.trim_end().trim_end_matches('}').trim_end(),
        "the same card, keyed the same"
    );
}

#[test]
fn a_card_key_naming_several_cards_lists_them() {
    // two printings of one card in Precious Memories share their name
    let (code, out, err) = run_fuda(&["compile", "cards/pm", "--card", "星見 あかり"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("`星見 あかり` names 2 cards in pack `pm`"),
        "{err}"
    );
    assert!(err.contains("01-001  星見 あかり  (pack pm)"), "{err}");
    assert!(err.contains("01-007  星見 あかり  (pack pm)"), "{err}");
    assert!(err.contains("number or id: `--card 01-001`"), "{err}");
    // a part of several names too; a number names one
    let (code, _, err) = run_fuda(&["explain", "cards/pm", "--card", "星見"]);
    assert_eq!(code, 1);
    assert!(err.contains("names 3 cards"), "{err}");
    let (code, out, err) = run_fuda(&["compile", "cards/pm", "--card", "01-007"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"pm:01-007\""), "{out}");
}

/// A fresh pack made by `fuda new pack <name> --game pmv` in a scratch folder: the folder.
fn scaffold(name: &str) -> std::path::PathBuf {
    let parent = std::env::temp_dir().join(format!("fuda-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&parent);
    std::fs::create_dir_all(&parent).expect("scratch folder");
    let p = parent.to_string_lossy().into_owned();
    let (code, out, err) = run_fuda(&["new", "pack", name, "--game", "pmv", "--dir", &p]);
    assert_eq!(code, 0, "{out}{err}");
    parent.join(name)
}

#[test]
fn a_deck_of_a_pack_not_loaded_says_to_load_it() {
    let dir = scaffold("modder");
    let dir_s = dir.to_string_lossy().into_owned();
    let deck = dir
        .join("decks/starter.deck")
        .to_string_lossy()
        .into_owned();
    for command in ["sim", "play"] {
        let mut args = vec![command, "pmv", "--deck", &deck, "--deck", &deck];
        args.extend(["--p1", "random", "--games", "1"].iter().filter(|a| {
            // `play` has no `--games`; `sim` no `--p1`
            (command == "sim") == (**a == "--games" || **a == "1")
        }));
        let (code, _, err) = run_fuda(&args);
        assert_eq!(code, 1, "{command}: {err}");
        assert!(err.contains("fuda::deck::unknown_card"), "{command}: {err}");
        assert!(
            err.replace('\n', " ")
                .replace("  ", " ")
                .contains("which is not loaded: add"),
            "{command}: {err}"
        );
        assert!(err.contains("--pack"), "{command}: {err}");
    }
    // named, it plays
    let (code, out, err) = run_fuda(&[
        "sim", "pmv", "--pack", &dir_s, "--deck", &deck, "--deck", &deck, "--games", "1",
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn test_without_paths_inside_a_pack_tests_that_pack() {
    let dir = scaffold("tester");
    for cwd in [dir.clone(), dir.join("sets")] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_fuda"))
            .arg("test")
            .current_dir(&cwd)
            .env("FUDA_NO_CACHE", "1")
            .env("NO_COLOR", "1")
            .output()
            .expect("run fuda");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {stdout}{stderr}",
            cwd.display()
        );
        assert!(stdout.contains("ok    tester-"), "{stdout}");
        assert!(stdout.contains("1 passed, 0 failed"), "{stdout}");
    }
}

#[test]
fn a_card_name_in_two_packs_of_a_folder_lists_both() {
    let a = scaffold("twin_a");
    let parent = a.parent().expect("a parent").to_path_buf();
    let p = parent.to_string_lossy().into_owned();
    let (code, out, err) = run_fuda(&["new", "pack", "twin_b", "--game", "pmv", "--dir", &p]);
    assert_eq!(code, 0, "{out}{err}");
    // twin_b's card: twin_a's name, a number of its own
    let cards = parent.join("twin_b/sets/cards.fuda");
    let text = std::fs::read_to_string(&cards).expect("cards");
    let text = text
        .replace("twin_bの見習い巫女", "twin_aの見習い巫女")
        .replace("\"N001\"", "\"N002\"");
    std::fs::write(&cards, text).expect("write");
    let (code, out, err) = run_fuda(&["compile", &p, "--card", "twin_aの見習い巫女"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("names 2 cards in packs"), "{err}");
    assert!(
        err.contains("N001  twin_aの見習い巫女  (pack twin_a)"),
        "{err}"
    );
    assert!(
        err.contains("N002  twin_aの見習い巫女  (pack twin_b)"),
        "{err}"
    );
    let (code, out, err) = run_fuda(&["explain", &p, "--card", "N002", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("one document");
    assert_eq!(doc["pack"], "twin_b");
}
