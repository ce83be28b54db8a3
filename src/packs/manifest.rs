//! Pack sources: a pack folder's `pack.toml` and `.fuda` files, read from disk or from the
//! copies of the shipped games embedded in the binary, and where packs are found.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use include_dir::{include_dir, Dir};
use serde::Deserialize;
use std::path::{Component, Path, PathBuf};
use toml::Spanned;

/// The shipped game packs, embedded so `fuda check file.fuda` works anywhere.
static EMBEDDED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/cards");

/// Folders under a pack that hold no source.
const NOT_SOURCE: &[&str] = &["decks", "scenarios", "target", "template"];

/// The largest source or script file a pack may hold, in bytes (1 MiB): a pack from a
/// stranger cannot make `fuda` read a huge file.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// The most source and script files a pack may hold.
pub const MAX_FILES: usize = 1_000;

/// The most cards a pack may hold (the compile bench's 10,000-card pack loads).
pub const MAX_CARDS: usize = 20_000;

/// The manifest of a pack, as `pack.toml` spells it. Positions are kept where a diagnostic
/// may point at a value.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The pack's name: letters, digits, `_` and `-`.
    pub name: Spanned<String>,
    /// Its version: semver (`0.1.0`).
    pub version: Spanned<String>,
    /// The game its cards are for.
    pub game: String,
    /// Packs it requires: a pack name, optionally followed by a semver requirement
    /// (`"pmv"`, `"pmv ^0.1"`, `"pmv >=0.1, <0.3"`).
    #[serde(default)]
    pub requires: Vec<Spanned<String>>,
    /// Globs (relative to the pack folder) naming its `.fuda` and `.rhai` files; by default
    /// every such file below the folder.
    #[serde(default)]
    pub files: Option<Vec<Spanned<String>>>,
    /// A one-line description.
    #[serde(default)]
    pub description: Option<String>,
    /// Who made it.
    #[serde(default)]
    pub authors: Vec<String>,
    /// Its license (an SPDX expression, say).
    #[serde(default)]
    pub license: Option<String>,
}

/// The `files` entry of a manifest alone, read leniently before the files are walked (the
/// whole manifest is checked later, with diagnostics).
#[derive(Deserialize)]
struct FilesOnly {
    #[serde(default)]
    files: Option<Vec<String>>,
}

/// Why a pack's file (or a `files` glob) was refused: the pack is then not loaded at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The `files` glob at this index of the list leaves the pack folder (`..`, an absolute
    /// path).
    GlobOutside(usize),
    /// The `files` glob at this index is not a valid glob: why.
    BadGlob(usize, String),
    /// A file or folder (display path) that resolves outside the pack folder (a symbolic
    /// link): where it links to.
    Outside(String, String),
    /// A file (display path) larger than [`MAX_FILE_BYTES`]: its size.
    TooLarge(String, u64),
    /// More than [`MAX_FILES`] files: how many were found before the walk stopped.
    TooManyFiles(usize),
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
    /// Script files (`.rhai`): display path and bytes, sorted by path.
    pub scripts: Vec<(String, Vec<u8>)>,
    /// What safe loading refused (nothing of the pack is loaded when this is not empty).
    pub refused: Vec<Refusal>,
}

/// What the walk of a pack folder found.
#[derive(Default)]
struct Walk {
    /// The pack folder, canonical.
    root: PathBuf,
    /// Folders already walked, canonical (symbolic links may loop).
    seen: Vec<PathBuf>,
    /// `.fuda` files.
    fuda: Vec<PathBuf>,
    /// `.rhai` files.
    rhai: Vec<PathBuf>,
    /// Refusals.
    refused: Vec<Refusal>,
}

impl PackSource {
    /// Reads a pack folder: its `pack.toml` and the `.fuda` and `.rhai` files its `files`
    /// globs name (by default every one below it), refusing files that resolve outside the
    /// folder, files over [`MAX_FILE_BYTES`] and more than [`MAX_FILES`] files.
    pub fn from_dir(dir: &Path) -> std::io::Result<PackSource> {
        let manifest = dir.join("pack.toml");
        let manifest_text = std::fs::read_to_string(&manifest)?;
        let globs = toml::from_str::<FilesOnly>(&manifest_text)
            .ok()
            .and_then(|f| f.files);
        let mut walk = Walk {
            root: dir.canonicalize()?,
            ..Walk::default()
        };
        let matcher = match &globs {
            Some(globs) => file_globs(globs, &mut walk.refused),
            None => None,
        };
        if walk.refused.is_empty() {
            walk.seen.push(walk.root.clone());
            walk.dir(dir, Path::new(""), matcher.as_ref())?;
        }
        let count = walk.fuda.len() + walk.rhai.len();
        if count > MAX_FILES {
            walk.refused.push(Refusal::TooManyFiles(count));
        }
        let mut src = PackSource {
            dir: Some(dir.to_path_buf()),
            manifest_path: display(&manifest),
            manifest_text: Some(manifest_text),
            files: Vec::new(),
            unreadable: Vec::new(),
            scripts: Vec::new(),
            refused: Vec::new(),
        };
        if walk.refused.is_empty() {
            walk.fuda.sort();
            walk.rhai.sort();
            let (files, mut refused) = read_files(&walk.fuda, &mut src.unreadable);
            let (scripts, more) = read_files(&walk.rhai, &mut src.unreadable);
            refused.extend(more);
            src.files = files;
            src.scripts = scripts;
            walk.refused.extend(refused);
        }
        src.refused = walk.refused;
        Ok(src)
    }

    /// The embedded copy of a shipped game pack.
    pub fn embedded(name: &str) -> Option<PackSource> {
        let dir = EMBEDDED.get_dir(name)?;
        let manifest = dir.get_file(format!("{name}/pack.toml"))?;
        let mut files = Vec::new();
        let mut scripts = Vec::new();
        collect_embedded(dir, &mut files, &mut scripts);
        files.sort();
        scripts.sort();
        Some(PackSource {
            dir: None,
            manifest_path: format!("<embedded>/{name}/pack.toml"),
            manifest_text: Some(String::from_utf8_lossy(manifest.contents()).into_owned()),
            files,
            unreadable: Vec::new(),
            scripts,
            refused: Vec::new(),
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
            refused: Vec::new(),
        }
    }

    /// Replaces the text of each file (source or script) whose canonical path `overlay` holds
    /// (an editor's unsaved buffer) by the overlay's text.
    pub fn apply_overlay(&mut self, overlay: &std::collections::HashMap<PathBuf, String>) {
        if overlay.is_empty() {
            return;
        }
        for (path, bytes) in self.files.iter_mut().chain(&mut self.scripts) {
            let text = Path::new(path.as_str())
                .canonicalize()
                .ok()
                .and_then(|c| overlay.get(&c));
            if let Some(text) = text {
                *bytes = text.as_bytes().to_vec();
            }
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
            refused: Vec::new(),
        })
    }
}

/// The matcher of a manifest's `files` globs, refusing those that leave the pack folder or
/// are not globs (`None` then).
fn file_globs(globs: &[String], refused: &mut Vec<Refusal>) -> Option<GlobSet> {
    let mut set = GlobSetBuilder::new();
    for (i, g) in globs.iter().enumerate() {
        let p = Path::new(g);
        let leaves = p.is_absolute()
            || g.starts_with('/')
            || g.starts_with('\\')
            || p.components()
                .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
            || g.split(['/', '\\']).any(|part| part == "..");
        if leaves {
            refused.push(Refusal::GlobOutside(i));
            continue;
        }
        match GlobBuilder::new(g).literal_separator(true).build() {
            Ok(glob) => {
                set.add(glob);
            }
            Err(e) => refused.push(Refusal::BadGlob(i, e.kind().to_string())),
        }
    }
    if !refused.is_empty() {
        return None;
    }
    set.build().ok()
}

/// Reads `paths`, refusing those over [`MAX_FILE_BYTES`] unread; those that cannot be read
/// go to `unreadable`.
fn read_files(
    paths: &[PathBuf],
    unreadable: &mut Vec<(String, String)>,
) -> (Vec<(String, Vec<u8>)>, Vec<Refusal>) {
    let mut read = Vec::new();
    let mut refused = Vec::new();
    for p in paths {
        match std::fs::metadata(p) {
            Ok(m) if m.len() > MAX_FILE_BYTES => {
                refused.push(Refusal::TooLarge(display(p), m.len()));
                continue;
            }
            _ => {}
        }
        match std::fs::read(p) {
            Ok(bytes) if bytes.len() as u64 > MAX_FILE_BYTES => {
                refused.push(Refusal::TooLarge(display(p), bytes.len() as u64));
            }
            Ok(bytes) => read.push((display(p), bytes)),
            Err(e) => unreadable.push((display(p), e.to_string())),
        }
    }
    (read, refused)
}

impl Walk {
    /// Walks `dir` (`rel`: its path under the pack folder), following symbolic links that
    /// stay inside the pack folder and refusing those that leave it. Stops early once more
    /// than [`MAX_FILES`] files are found.
    fn dir(&mut self, dir: &Path, rel: &Path, globs: Option<&GlobSet>) -> std::io::Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            if self.fuda.len() + self.rhai.len() > MAX_FILES {
                return Ok(());
            }
            let path = e.path();
            let name = e.file_name();
            let rel = rel.join(&name);
            let mut ty = e.file_type()?;
            if ty.is_symlink() {
                // A broken link is kept as a file: reading it reports it.
                match (path.canonicalize(), std::fs::metadata(&path)) {
                    (Ok(target), Ok(meta)) => {
                        if !target.starts_with(&self.root) {
                            if meta.is_dir() || is_source(&path) {
                                // The link as written: the resolved path depends on the machine.
                                let link = std::fs::read_link(&path).unwrap_or(target);
                                self.refused
                                    .push(Refusal::Outside(display(&path), display(&link)));
                            }
                            continue;
                        }
                        ty = meta.file_type();
                    }
                    _ => {
                        if is_source(&path) && matches(globs, &rel, &path) {
                            self.fuda.push(path);
                        }
                        continue;
                    }
                }
            }
            if ty.is_dir() {
                let skip = (globs.is_none() && NOT_SOURCE.iter().any(|n| name == *n))
                    || name == "target"
                    || path.join("pack.toml").exists();
                let canonical = path.canonicalize()?;
                if skip || self.seen.contains(&canonical) {
                    continue;
                }
                self.seen.push(canonical);
                self.dir(&path, &rel, globs)?;
            } else if is_source(&path) && matches(globs, &rel, &path) {
                if path.extension().is_some_and(|x| x == "rhai") {
                    self.rhai.push(path);
                } else {
                    self.fuda.push(path);
                }
            }
        }
        Ok(())
    }
}

/// Whether `path` is a source (`.fuda`) or script (`.rhai`) file by its name.
fn is_source(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "fuda" || x == "rhai")
}

/// Whether the file at `rel` under the pack folder is one of the pack's: every source file
/// with no globs, else those a glob matches.
fn matches(globs: Option<&GlobSet>, rel: &Path, path: &Path) -> bool {
    match globs {
        None => is_source(path),
        Some(set) => set.is_match(rel),
    }
}

/// A path as diagnostics show it (without a leading `./`).
pub fn display(p: &Path) -> String {
    let s = p.to_string_lossy().into_owned();
    s.strip_prefix("./").map(str::to_owned).unwrap_or(s)
}

fn collect_embedded(
    dir: &Dir,
    out: &mut Vec<(String, Vec<u8>)>,
    scripts: &mut Vec<(String, Vec<u8>)>,
) {
    for f in dir.files() {
        let entry = (
            format!("<embedded>/{}", f.path().display()),
            f.contents().to_vec(),
        );
        if f.path().extension().is_some_and(|x| x == "fuda") {
            out.push(entry);
        } else if f.path().extension().is_some_and(|x| x == "rhai") {
            scripts.push(entry);
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
            collect_embedded(d, out, scripts);
        }
    }
}

/// The text of the `pack.toml` of the game pack `game`: `cards/<game>` on disk, else the
/// embedded copy.
pub(crate) fn game_manifest(game: &str) -> Option<String> {
    let on_disk = Path::new("cards").join(game).join("pack.toml");
    if let Ok(text) = std::fs::read_to_string(on_disk) {
        return Some(text);
    }
    let file = EMBEDDED.get_file(format!("{game}/pack.toml"))?;
    Some(String::from_utf8_lossy(file.contents()).into_owned())
}

/// The files of the pack template of `game` (`cards/<game>/template/` on disk, else the
/// embedded copy): paths relative to the template folder, and bytes, sorted by path.
pub(crate) fn template_files(game: &str) -> Option<Vec<(PathBuf, Vec<u8>)>> {
    let root = Path::new("cards").join(game).join("template");
    let mut out = Vec::new();
    if root.is_dir() {
        template_on_disk(&root, &root, &mut out).ok()?;
    } else {
        let dir = EMBEDDED.get_dir(format!("{game}/template"))?;
        template_embedded(dir, Path::new(game).join("template").as_path(), &mut out);
    }
    out.sort();
    Some(out)
}

fn template_on_disk(
    root: &Path,
    dir: &Path,
    out: &mut Vec<(PathBuf, Vec<u8>)>,
) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let path = e?.path();
        if path.is_dir() {
            template_on_disk(root, &path, out)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push((rel.to_path_buf(), std::fs::read(&path)?));
        }
    }
    Ok(())
}

fn template_embedded(dir: &Dir, root: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    for f in dir.files() {
        if let Ok(rel) = f.path().strip_prefix(root) {
            out.push((rel.to_path_buf(), f.contents().to_vec()));
        }
    }
    for d in dir.dirs() {
        template_embedded(d, root, out);
    }
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
