//! Fingerprints the sources that decide what a compiled pack holds, for the compiled-pack cache:
//! an entry written by a build whose compiler differs in any way (a fixed checker, a changed IR
//! type, a new diagnostic) is never read back. Only those layers count: shared ground
//! (diagnostics are cached with the IR), the compiler, the IR, the pack loader and the grammar.
//! Editing the engine or the tools keeps every user's cache.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The folders whose files make the fingerprint (see the module doc).
const FINGERPRINTED: &[&str] = &["src/base", "src/compiler", "src/ir", "src/packs", "grammar"];

fn main() {
    let mut files = Vec::new();
    for dir in FINGERPRINTED {
        println!("cargo:rerun-if-changed={dir}");
        collect(Path::new(dir), &mut files);
    }
    files.sort();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for f in &files {
        f.hash(&mut h);
        std::fs::read(f).unwrap_or_default().hash(&mut h);
    }
    println!("cargo:rustc-env=FUDA_SOURCE_HASH={:016x}", h.finish());
}
