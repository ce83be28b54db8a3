//! Pack sources: a pack folder's `pack.toml` and `.fuda` files, read from disk or from the
//! copies of the shipped games embedded in the binary, and where packs are found.

use include_dir::{include_dir, Dir};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The shipped game packs, embedded so `fuda check file.fuda` works anywhere.
static EMBEDDED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/cards");

/// Folders under a pack that hold no source.
const NOT_SOURCE: &[&str] = &["decks", "scenarios", "target"];

/// The manifest of a pack.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The pack's name: letters, digits, `_` and `-`.
    pub name: String,
    /// Its version.
    pub version: String,
    /// The game its cards are for.
    pub game: String,
    /// Packs it requires.
    #[serde(default)]
    pub requires: Vec<String>,
    /// A one-line description.
    #[serde(default)]
    pub description: Option<String>,
}

/// A pack's raw files, from disk or embedded.
#[derive(Debug, Clone)]
pub struct PackSource {
    /// The folder on disk, if any.
    pub dir: Option<PathBuf>,
    /// Display path of the manifest.
    pub manifest_path: String,
    /// The manifest's text (`None`: a lone file with no pack).
    pub manifest_text: Option<String>,
    /// Source files: display path and bytes, sorted by path.
    pub files: Vec<(String, Vec<u8>)>,
    /// Files that could not be read: display path and the reason.
    pub unreadable: Vec<(String, String)>,
    /// The pack's `.rhai` scripts: display path and bytes, sorted by path.
    pub scripts: Vec<(String, Vec<u8>)>,
}

impl PackSource {
    /// Reads a pack folder (its `pack.toml` and every `.fuda` file below it).
    pub fn from_dir(dir: &Path) -> std::io::Result<PackSource> {
        let manifest = dir.join("pack.toml");
        let manifest_text = std::fs::read_to_string(&manifest)?;
        let mut files = Vec::new();
        collect_fuda(dir, &mut files)?;
        files.sort();
        let mut read = Vec::new();
        let mut scripts = Vec::new();
        let mut unreadable = Vec::new();
        for p in files {
            let into = if is_script(&p) {
                &mut scripts
            } else {
                &mut read
            };
            match std::fs::read(&p) {
                Ok(bytes) => into.push((display(&p), bytes)),
                Err(e) => unreadable.push((display(&p), e.to_string())),
            }
        }
        Ok(PackSource {
            dir: Some(dir.to_path_buf()),
            manifest_path: display(&manifest),
            manifest_text: Some(manifest_text),
            files: read,
            unreadable,
            scripts,
        })
    }

    /// The embedded copy of a shipped game pack.
    pub fn embedded(name: &str) -> Option<PackSource> {
        let dir = EMBEDDED.get_dir(name)?;
        let manifest = dir.get_file(format!("{name}/pack.toml"))?;
        let mut files = Vec::new();
        collect_embedded(dir, &mut files);
        files.sort();
        let (scripts, files) = files
            .into_iter()
            .partition(|(p, _)| is_script(Path::new(p)));
        Some(PackSource {
            dir: None,
            manifest_path: format!("<embedded>/{name}/pack.toml"),
            manifest_text: Some(String::from_utf8_lossy(manifest.contents()).into_owned()),
            files,
            unreadable: Vec::new(),
            scripts,
        })
    }

    /// A lone file given as bytes (an editor buffer, a test): checked as `lone_file` checks one
    /// read from disk.
    pub fn in_memory(path: &str, bytes: Vec<u8>) -> PackSource {
        PackSource {
            dir: None,
            manifest_path: path.to_string(),
            manifest_text: None,
            files: vec![(path.to_string(), bytes)],
            unreadable: Vec::new(),
            scripts: Vec::new(),
        }
    }

    /// A lone file outside any pack.
    pub fn lone_file(path: &Path) -> std::io::Result<PackSource> {
        let bytes = std::fs::read(path)?;
        Ok(PackSource {
            dir: None,
            manifest_path: display(path),
            manifest_text: None,
            files: vec![(display(path), bytes)],
            unreadable: Vec::new(),
            scripts: Vec::new(),
        })
    }
}

/// A path as diagnostics show it (without a leading `./`).
pub fn display(p: &Path) -> String {
    let s = p.to_string_lossy().into_owned();
    s.strip_prefix("./").map(str::to_owned).unwrap_or(s)
}

fn collect_fuda(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let ty = e.file_type()?;
        if ty.is_dir() {
            let name = e.file_name();
            if NOT_SOURCE.iter().any(|n| name == *n) || path.join("pack.toml").exists() {
                continue;
            }
            collect_fuda(&path, out)?;
        } else if path.extension().is_some_and(|x| x == "fuda") || is_script(&path) {
            out.push(path);
        }
    }
    Ok(())
}

fn collect_embedded(dir: &Dir, out: &mut Vec<(String, Vec<u8>)>) {
    for f in dir.files() {
        if f.path().extension().is_some_and(|x| x == "fuda") || is_script(f.path()) {
            out.push((
                format!("<embedded>/{}", f.path().display()),
                f.contents().to_vec(),
            ));
        }
    }
    for d in dir.dirs() {
        let name = d
            .path()
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !NOT_SOURCE.contains(&name.as_str()) && d.get_file(d.path().join("pack.toml")).is_none()
        {
            collect_embedded(d, out);
        }
    }
}

/// Whether a file is a pack's script (a `.rhai` file).
fn is_script(p: &Path) -> bool {
    p.extension().is_some_and(|x| x == "rhai")
}

/// The pack folder a file belongs to: the nearest folder up the tree with a `pack.toml`.
pub fn find_pack_dir(file: &Path) -> Option<PathBuf> {
    let abs = file.canonicalize().ok()?;
    let mut dir = abs.parent();
    while let Some(d) = dir {
        if d.join("pack.toml").exists() {
            // Keep the path relative when the file was given relatively.
            let rel = pathdiff(d);
            return Some(rel);
        }
        dir = d.parent();
    }
    None
}

fn pathdiff(d: &Path) -> PathBuf {
    match std::env::current_dir()
        .ok()
        .and_then(|cwd| d.strip_prefix(&cwd).ok().map(Path::to_path_buf))
    {
        Some(p) if p.as_os_str().is_empty() => PathBuf::from("."),
        Some(p) => p,
        None => d.to_path_buf(),
    }
}

/// The names of packs that could be required: loaded ones, `cards/*` on disk, embedded ones.
pub(crate) fn known_packs(loaded: &[String]) -> Vec<String> {
    let mut names: Vec<String> = loaded.to_vec();
    if let Ok(rd) = std::fs::read_dir("cards") {
        names.extend(
            rd.filter_map(Result::ok)
                .filter(|e| e.path().join("pack.toml").exists())
                .map(|e| e.file_name().to_string_lossy().into_owned()),
        );
    }
    names.extend(
        EMBEDDED
            .dirs()
            .filter_map(|d| d.path().file_name())
            .map(|n| n.to_string_lossy().into_owned()),
    );
    names.sort();
    names.dedup();
    names
}
