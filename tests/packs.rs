//! Packs from strangers. The hostile-pack suite: each hostile pack is built on disk at test time
//! (symbolic links, oversized files and a thousand files are no fixtures to check in) under
//! `target/test-packs/<case>/`, a relative path, so its diagnostics read the same on every
//! machine. Each is rejected with its diagnostic (an insta snapshot under
//! `tests/snapshots/packs/`), `fuda check` exits 1, and nothing of the pack is loaded: no pack of
//! its name in `session.packs`. Then the command line: `--pack DIR` on `check`, `compile`,
//! `test`, `play` and `sim`, and `fuda new pack` scaffolding a pack that checks and tests clean
//! for every shipped game.

use fuda::base::diagnostic::{self, RenderOptions};
use fuda::packs::manifest::{MAX_CARDS, MAX_FILES, MAX_FILE_BYTES};
use fuda::packs::Session;
use std::path::{Path, PathBuf};

/// Runs the `fuda` binary: exit code, stdout, stderr.
fn fuda(args: &[&str]) -> (i32, String, String) {
    crate::support::run_fuda(args)
}

/// A fresh, empty folder `target/test-packs/<name>`.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from("target/test-packs").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Writes `text` at `dir/rel`, creating folders.
fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
    std::fs::write(path, text).expect("write");
}

/// A mod pack's manifest requiring pmv, with `extra` lines.
fn manifest(name: &str, extra: &str) -> String {
    format!("name = \"{name}\"\nversion = \"0.1.0\"\ngame = \"pmv\"\nrequires = [\"pmv\"]\n{extra}")
}

/// A PMV card numbered `number`.
fn card(number: &str) -> String {
    format!(
        "card \"ファンメイドの妖精{number}\" {{\n  number: \"{number}\"\n  type: character\n  cost: 1\n  nodes: 1\n  race: \"妖精\"\n  power: 1/1\n}}\n"
    )
}

/// A pack folder `dir` named `name` with one card and `extra` manifest lines.
fn pack(dir: &Path, name: &str, extra: &str) {
    write(dir, "pack.toml", &manifest(name, extra));
    write(
        dir,
        "sets/cards.fuda",
        &format!("game pmv\n\n{}", card("F01")),
    );
}

/// Checks `path` as `fuda check` does: the session and its diagnostics rendered.
fn check(path: &Path) -> (Session, String) {
    let mut s = Session::new();
    s.check_path(path);
    s.finish();
    let text: Vec<String> = s
        .diags
        .iter()
        .map(|d| diagnostic::render(d, &s.sources, RenderOptions::plain()))
        .collect();
    let text = text.join("\n");
    (s, text)
}

/// The hostile pack `path` is rejected: diagnostic `code` (snapshot `case`), exit code 1, and
/// no pack named in `absent` loaded.
fn rejected(case: &str, path: &Path, code: &str, absent: &[&str]) -> Session {
    let (s, text) = check(path);
    assert!(text.contains(code), "{case}: expected {code}, got:\n{text}");
    for name in absent {
        assert!(
            s.packs.iter().all(|p| p.pack.name != *name),
            "{case}: pack `{name}` was loaded"
        );
    }
    insta::with_settings!({
        snapshot_path => "snapshots/packs",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(case, text);
    });
    let (exit, _, err) = fuda(&["check", &path.to_string_lossy()]);
    assert_eq!(exit, 1, "{case}: {err}");
    s
}

#[test]
fn a_glob_leaving_the_folder() {
    let dir = scratch("glob_traversal");
    pack(
        &dir,
        "traversal",
        "files = [\"sets/*.fuda\", \"../*.fuda\"]\n",
    );
    rejected(
        "glob_traversal",
        &dir,
        "fuda::pack::outside",
        &["traversal"],
    );
}

#[test]
fn an_absolute_glob() {
    let dir = scratch("glob_absolute");
    pack(&dir, "absolute", "files = [\"/etc/*.fuda\"]\n");
    rejected("glob_absolute", &dir, "fuda::pack::outside", &["absolute"]);
}

#[cfg(unix)]
#[test]
fn a_file_linked_out() {
    let root = scratch("link_file");
    let dir = root.join("pack");
    pack(&dir, "link_file", "");
    write(
        &root,
        "elsewhere/secret.fuda",
        &format!("game pmv\n\n{}", card("S01")),
    );
    std::os::unix::fs::symlink("../../elsewhere/secret.fuda", dir.join("sets/linked.fuda"))
        .expect("symlink");
    rejected("link_file", &dir, "fuda::pack::outside", &["link_file"]);
}

#[cfg(unix)]
#[test]
fn a_folder_linked_out() {
    let root = scratch("link_folder");
    let dir = root.join("pack");
    pack(&dir, "link_folder", "");
    write(
        &root,
        "elsewhere/secret.fuda",
        &format!("game pmv\n\n{}", card("S01")),
    );
    std::os::unix::fs::symlink("../elsewhere", dir.join("more")).expect("symlink");
    rejected("link_folder", &dir, "fuda::pack::outside", &["link_folder"]);
}

#[cfg(unix)]
#[test]
fn a_link_inside_the_folder_loads() {
    let dir = scratch("link_inside");
    pack(&dir, "link_inside", "");
    std::os::unix::fs::symlink("sets", dir.join("alias")).expect("symlink");
    let (s, text) = check(&dir);
    assert!(text.is_empty(), "{text}");
    assert!(s.packs.iter().any(|p| p.pack.name == "link_inside"));
}

#[test]
fn cyclic_requires() {
    let root = scratch("cycle");
    write(
        &root.join("a"),
        "pack.toml",
        "name = \"cycle_a\"\nversion = \"0.1.0\"\ngame = \"pmv\"\nrequires = [\"pmv\", \"cycle_b\"]\n",
    );
    write(
        &root.join("a"),
        "cards.fuda",
        &format!("game pmv\n\n{}", card("A01")),
    );
    write(
        &root.join("cycle_b"),
        "pack.toml",
        "name = \"cycle_b\"\nversion = \"0.1.0\"\ngame = \"pmv\"\nrequires = [\"pmv\", \"cycle_a\"]\n",
    );
    write(
        &root.join("cycle_b"),
        "cards.fuda",
        &format!("game pmv\n\n{}", card("B01")),
    );
    // `cycle_a` is found as `cycle_b`'s sibling only under its own name: rename the folder.
    std::fs::rename(root.join("a"), root.join("cycle_a")).expect("rename");
    rejected(
        "cycle",
        &root,
        "fuda::pack::missing_requirement",
        &["cycle_a", "cycle_b"],
    );
}

#[test]
fn two_folders_of_one_name() {
    let root = scratch("duplicate_name");
    pack(&root.join("a"), "twin", "");
    write(&root.join("b"), "pack.toml", &manifest("twin", ""));
    write(
        &root.join("b"),
        "cards.fuda",
        &format!("game pmv\n\n{}", card("F02")),
    );
    let s = rejected("duplicate_name", &root, "fuda::pack::duplicate_name", &[]);
    // The first folder's pack is loaded; nothing of the second.
    let twins: Vec<_> = s.packs.iter().filter(|p| p.pack.name == "twin").collect();
    assert_eq!(twins.len(), 1);
    assert!(twins[0].pack.cards.iter().all(|c| c.number != "F02"));
}

#[test]
fn malformed_toml() {
    let dir = scratch("malformed");
    pack(&dir, "malformed", "");
    write(
        &dir,
        "pack.toml",
        "name = \"malformed\"\nversion = 0.1.0\ngame = \"pmv\"\n",
    );
    rejected("malformed", &dir, "fuda::pack::manifest", &["malformed"]);
}

#[test]
fn an_unknown_field() {
    let dir = scratch("unknown_field");
    pack(
        &dir,
        "unknown_field",
        "homepage = \"https://example.com\"\n",
    );
    rejected(
        "unknown_field",
        &dir,
        "fuda::pack::manifest",
        &["unknown_field"],
    );
}

#[test]
fn a_missing_field() {
    let dir = scratch("missing_field");
    pack(&dir, "missing_field", "");
    write(
        &dir,
        "pack.toml",
        "name = \"missing_field\"\ngame = \"pmv\"\n",
    );
    rejected(
        "missing_field",
        &dir,
        "fuda::pack::manifest",
        &["missing_field"],
    );
}

#[test]
fn a_bad_semver_version() {
    let dir = scratch("bad_semver");
    pack(&dir, "bad_semver", "");
    write(
        &dir,
        "pack.toml",
        "name = \"bad_semver\"\nversion = \"one\"\ngame = \"pmv\"\nrequires = [\"pmv\"]\n",
    );
    rejected("bad_semver", &dir, "fuda::pack::version", &["bad_semver"]);
}

#[test]
fn an_unmet_version() {
    let dir = scratch("unmet_version");
    pack(&dir, "unmet_version", "");
    write(
        &dir,
        "pack.toml",
        "name = \"unmet_version\"\nversion = \"0.1.0\"\ngame = \"pmv\"\nrequires = [\"pmv >=0.2, <0.3\"]\n",
    );
    rejected(
        "unmet_version",
        &dir,
        "fuda::pack::unmet_requirement",
        &["unmet_version"],
    );
}

#[test]
fn a_met_version_loads() {
    let dir = scratch("met_version");
    pack(&dir, "met_version", "");
    write(
        &dir,
        "pack.toml",
        "name = \"met_version\"\nversion = \"0.1.0\"\ngame = \"pmv\"\nrequires = [\"pmv ^0.1\"]\nauthors = [\"A. Modder\"]\nlicense = \"MIT\"\ndescription = \"x\"\n",
    );
    let (s, text) = check(&dir);
    assert!(text.is_empty(), "{text}");
    assert!(s.packs.iter().any(|p| p.pack.name == "met_version"));
}

#[test]
fn files_globs_choose_the_files() {
    let dir = scratch("globs");
    pack(&dir, "globs", "files = [\"sets/*.fuda\"]\n");
    // Not matched by the glob: not part of the pack (it would be a duplicate number).
    write(
        &dir,
        "extra/more.fuda",
        &format!("game pmv\n\n{}", card("F01")),
    );
    let (s, text) = check(&dir);
    assert!(text.is_empty(), "{text}");
    let p = s
        .packs
        .iter()
        .find(|p| p.pack.name == "globs")
        .expect("loaded");
    assert_eq!(p.pack.cards.len(), 1);
}

#[test]
fn too_many_files() {
    let dir = scratch("too_many_files");
    pack(&dir, "too_many_files", "");
    for i in 0..MAX_FILES {
        write(&dir, &format!("sets/more/f{i:04}.fuda"), "game pmv\n");
    }
    rejected(
        "too_many_files",
        &dir,
        "fuda::pack::limit",
        &["too_many_files"],
    );
}

#[test]
fn a_file_too_large() {
    let dir = scratch("too_large");
    pack(&dir, "too_large", "");
    let size = usize::try_from(MAX_FILE_BYTES).expect("small") + 1;
    let mut text = String::from("game pmv\n");
    text.push_str(&"/".repeat(size - text.len()));
    write(&dir, "sets/huge.fuda", &text);
    rejected("too_large", &dir, "fuda::pack::limit", &["too_large"]);
}

#[test]
fn too_many_cards() {
    let dir = scratch("too_many_cards");
    write(&dir, "pack.toml", &manifest("too_many_cards", ""));
    // Short cards, a few thousand to a file (each file under the size limit).
    let per_file = 4_000;
    let mut n = 0;
    let mut file = 0;
    while n <= MAX_CARDS {
        let mut text = String::from("game pmv\n");
        for _ in 0..per_file {
            text.push_str(&format!(
                "card \"c{n}\" {{\n  number: \"{n}\"\n  type: character\n  cost: 1\n  nodes: 1\n  race: \"x\"\n  power: 1/1\n}}\n"
            ));
            n += 1;
        }
        write(&dir, &format!("sets/f{file}.fuda"), &text);
        file += 1;
    }
    let (s, text) = check(&dir);
    assert!(text.contains("fuda::pack::limit"), "{text}");
    assert!(s.packs.iter().all(|p| p.pack.name != "too_many_cards"));
}

#[test]
fn a_name_two_sibling_packs_declare() {
    let root = scratch("name_clash");
    for name in ["clash_a", "clash_b"] {
        pack(&root.join(name), name, "");
        write(
            &root.join(name),
            "rules.fuda",
            "game pmv\n\ncounter kills \"撃破数\" on player\n",
        );
    }
    let s = rejected("name_clash", &root, "fuda::pack::name_clash", &["clash_b"]);
    assert!(s.packs.iter().any(|p| p.pack.name == "clash_a"));
}

#[test]
fn a_pack_requiring_a_refused_pack_is_not_compiled() {
    let root = scratch("requires_refused");
    pack(&root.join("base_bad"), "base_bad", "");
    write(
        &root.join("base_bad"),
        "pack.toml",
        "name = \"base_bad\"\nversion = \"0.1\"\ngame = \"pmv\"\nrequires = [\"pmv\"]\n",
    );
    pack(&root.join("on_top"), "on_top", "");
    write(
        &root.join("on_top"),
        "pack.toml",
        "name = \"on_top\"\nversion = \"0.1.0\"\ngame = \"pmv\"\nrequires = [\"pmv\", \"base_bad\"]\n",
    );
    let s = rejected(
        "requires_refused",
        &root,
        "fuda::pack::version",
        &["base_bad", "on_top"],
    );
    // Reported once, where it happens: no "missing requirement" for `on_top`.
    assert_eq!(s.error_count(), 1);
}

// ───────────────────────── the command line ─────────────────────────

/// Scaffolds `fuda new pack <name> --game <game>` under a fresh scratch folder.
fn scaffold(scratch_name: &str, name: &str, game: &str) -> PathBuf {
    let parent = scratch(scratch_name);
    let (exit, out, err) = fuda(&[
        "new",
        "pack",
        name,
        "--game",
        game,
        "--dir",
        &parent.to_string_lossy(),
    ]);
    assert_eq!(exit, 0, "{out}{err}");
    parent.join(name)
}

#[test]
fn new_pack_checks_and_tests_clean_for_every_shipped_game() {
    for game in ["pmv", "ws", "pm"] {
        let dir = scaffold(&format!("new_{game}"), &format!("fan_{game}"), game);
        let dir_s = dir.to_string_lossy();
        for f in ["pack.toml", "README.md", "decks/starter.deck"] {
            assert!(dir.join(f).is_file(), "{game}: no {f}");
        }
        let toml = std::fs::read_to_string(dir.join("pack.toml")).expect("pack.toml");
        assert!(toml.contains(&format!("\"{game} ^0.1.0\"")), "{toml}");
        let (exit, out, err) = fuda(&["check", &dir_s]);
        assert_eq!(exit, 0, "{game}: {out}{err}");
        assert!(out.contains("1 deck"), "{game}: the deck is checked: {out}");
        let (exit, out, err) = fuda(&["test", &dir_s]);
        assert_eq!(exit, 0, "{game}: {out}{err}");
        assert!(out.contains("1 passed, 0 failed"), "{game}: {out}");
    }
}

#[test]
fn new_pack_refuses_what_it_cannot_make() {
    let dir = scaffold("new_refused", "fan", "pmv");
    let parent = dir.parent().expect("parent").to_string_lossy().into_owned();
    // An existing folder.
    let (exit, _, err) = fuda(&["new", "pack", "fan", "--game", "pmv", "--dir", &parent]);
    assert_eq!(exit, 1, "{err}");
    assert!(err.contains("already exists"), "{err}");
    // A bad name is a usage error.
    let (exit, _, err) = fuda(&["new", "pack", "../up", "--game", "pmv", "--dir", &parent]);
    assert_eq!(exit, 2, "{err}");
    // A game with no pack (or no template).
    let (exit, _, err) = fuda(&["new", "pack", "x", "--game", "nosuch", "--dir", &parent]);
    assert_eq!(exit, 1, "{err}");
}

#[test]
fn the_pack_option_on_every_command() {
    let dir = scaffold("flag", "fan_flag", "pmv");
    let dir_s = dir.to_string_lossy().into_owned();
    let deck = dir
        .join("decks/starter.deck")
        .to_string_lossy()
        .into_owned();
    let other = "cards/pmv/decks/youkai-control.deck";

    let (exit, out, err) = fuda(&["check", "cards/pmv", "--pack", &dir_s]);
    assert_eq!(exit, 0, "{err}");
    assert!(out.contains("fan_flag"), "{out}");

    let (exit, out, err) = fuda(&["compile", "cards/pmv", "--pack", &dir_s, "--card", "001"]);
    assert_eq!(exit, 0, "{err}");
    assert!(
        out.contains("\"pmv:001\""),
        "compile prints the pack the path names: {out}"
    );
    let (exit, out, err) = fuda(&["compile", &dir_s, "--card", "N001"]);
    assert_eq!(exit, 0, "{err}");
    assert!(out.contains("\"fan_flag:N001\""), "{out}");

    // The pack's scenario run from a copy outside the pack: only `--pack` brings its card.
    let alone = scratch("flag_scenarios");
    std::fs::copy(
        dir.join("scenarios/new-card-draws-on-entering.toml"),
        alone.join("new-card.toml"),
    )
    .expect("copy");
    let scenario = alone.join("new-card.toml").to_string_lossy().into_owned();
    let (exit, out, _) = fuda(&["test", &scenario]);
    assert_eq!(exit, 1, "without --pack the card is unknown: {out}");
    let (exit, out, err) = fuda(&["test", &scenario, "--pack", &dir_s]);
    assert_eq!(exit, 0, "{out}{err}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");

    let game = [
        "--deck",
        &deck,
        "--deck",
        other,
        "--pack",
        &dir_s,
        "--max-steps",
        "200000",
    ];
    let (exit, out, err) = fuda(
        &[
            &["play", "pmv", "--p1", "random", "--p2", "random"],
            &game[..],
        ]
        .concat(),
    );
    assert_eq!(exit, 0, "{out}{err}");
    assert!(out.contains("after"), "{out}");
    let (exit, out, err) = fuda(
        &[
            &["sim", "pmv", "--games", "2", "--threads", "1", "--json"],
            &game[..],
        ]
        .concat(),
    );
    assert_eq!(exit, 0, "{out}{err}");
    assert!(out.contains("\"games\": 2"), "{out}");

    // Without `--pack`, the deck names a card the game lacks.
    let (exit, _, err) = fuda(&[
        "sim", "pmv", "--deck", &deck, "--deck", other, "--games", "1",
    ]);
    assert_eq!(exit, 1, "{err}");
}

#[test]
fn a_bad_pack_option_is_an_error() {
    let dir = scratch("flag_bad");
    pack(&dir, "flag_bad", "");
    write(
        &dir,
        "pack.toml",
        "name = \"flag_bad\"\nversion = \"0.1\"\ngame = \"pmv\"\n",
    );
    let dir_s = dir.to_string_lossy().into_owned();
    let deck = "cards/pmv/decks/reimu-humans.deck";
    for args in [
        vec!["check", "cards/pmv", "--pack", &dir_s],
        vec!["compile", "cards/pmv", "--pack", &dir_s],
        vec![
            "test",
            "cards/pmv/scenarios/pmv-6.1.10-while-duration-keeps-its-let-values.toml",
            "--pack",
            &dir_s,
        ],
        vec![
            "play", "pmv", "--deck", deck, "--deck", deck, "--p1", "random", "--pack", &dir_s,
        ],
        vec![
            "sim", "pmv", "--deck", deck, "--deck", deck, "--games", "1", "--pack", &dir_s,
        ],
        vec![
            "check",
            "cards/pmv",
            "--pack",
            "target/test-packs/no-such-pack",
        ],
    ] {
        let (exit, out, err) = fuda(&args);
        assert_eq!(exit, 1, "{args:?}: {out}{err}");
        assert!(err.contains("fuda::pack::"), "{args:?}: {err}");
    }
}
