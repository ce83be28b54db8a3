//! Finding scenario files on disk.
//!
//! The rule (also in `docs/scenarios.md`): a path given that is not a folder is always taken. A
//! folder given is searched through; a *scenario folder* is a folder named `scenarios` that is
//! the folder given itself, or sits next to a `pack.toml` (a pack's scenarios), or sits in a
//! folder named `tests`. Every `*.toml` file at any depth under a scenario folder is a scenario,
//! except `pack.toml`. Hidden folders (`.git`) and `target` are not searched, and symbolic links
//! to folders are not followed (no cycles). Deliberately broken fixtures therefore live in folders
//! such as `tests/errors/scenarios/`, which is found only when given explicitly.

use std::path::{Path, PathBuf};

/// The name of a scenario folder.
const FOLDER: &str = "scenarios";

/// Every scenario file under `paths`, sorted, without duplicates.
pub fn discover(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, is_named(path, FOLDER), &mut out);
        } else {
            out.push(path.clone());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// True when the last component of `path` is `name`.
fn is_named(path: &Path, name: &str) -> bool {
    path.file_name().is_some_and(|n| n == name)
}

/// Collects the scenarios under `root` (iteratively: no recursion on deep trees).
fn walk(root: &Path, root_is_scenarios: bool, out: &mut Vec<PathBuf>) {
    let mut stack = vec![(root.to_path_buf(), root_is_scenarios)];
    while let Some((dir, inside)) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        let entries: Vec<_> = read.filter_map(Result::ok).collect();
        let is_pack = entries.iter().any(|e| e.file_name() == "pack.toml");
        let is_tests = is_named(&dir, "tests");
        for e in entries {
            let path = e.path();
            let name = e.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = e.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if name.starts_with('.') || name == "target" {
                    continue;
                }
                let scenarios = inside || (name == FOLDER && (is_pack || is_tests));
                stack.push((path, scenarios));
            } else if inside
                && name != "pack.toml"
                && path.extension().is_some_and(|x| x == "toml")
                && path.is_file()
            {
                out.push(path);
            }
        }
    }
}
