//! Packs: folders with a `pack.toml`, loaded from disk or from the copies of
//! the shipped games embedded in the binary, compiled in dependency order.
//!
//! Requirements are looked up, in order: among the packs already loaded, in a
//! sibling folder of the requiring pack, in `cards/<name>` under the current
//! folder, then in the embedded games. So an on-disk copy of a game always
//! wins over the embedded one.

use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::{self, FileId, SourceFile, SourceMap, Span};
use crate::compiler::parse;
use crate::compiler::resolve::{self, Compiled, PackMeta, SourceUnit};
use crate::engine::Program;
use crate::packs::cache::Cache;
use crate::packs::manifest::{display, find_pack_dir, known_packs, PackSource, MAX_CARDS};
use std::path::{Path, PathBuf};

mod clash;
mod decks;
mod load;
mod numbers;

use load::PackHome;

/// A pack's files as registered in the session's source map.
struct RegisteredFiles {
    /// The id of the pack's first file (the cache stores ids relative to it).
    base: FileId,
    /// How many files the pack has.
    count: u32,
    /// The ids of the files that are valid text, in order.
    decoded: Vec<FileId>,
    /// Whether every file could be read and decoded.
    valid: bool,
}

/// One compilation: every source file read, every diagnostic found, every pack compiled.
#[derive(Default)]
pub struct Session {
    /// Every file read.
    pub sources: SourceMap,
    /// Every diagnostic.
    pub diags: Vec<Diagnostic>,
    /// Compiled packs, dependencies before their dependents.
    pub packs: Vec<Compiled>,
    /// Packs whose compilation is under way (cycle detection).
    in_progress: Vec<String>,
    /// Where the user asked for packs to be looked up first (the command-line paths).
    search_roots: Vec<PathBuf>,
    /// Cache keys of `packs` (empty: not cacheable).
    keys: Vec<String>,
    /// The compiled-pack cache, if enabled.
    pub cache: Option<Cache>,
    /// How many packs were loaded from the cache rather than compiled.
    pub cache_hits: usize,
    /// Do not check the decks of the packs named (`compile` and `explain`: a deck is no part
    /// of a pack's IR).
    pub skip_decks: bool,
    /// Deck files for [`Session::finish`] to check, with their game.
    pub(crate) pending_decks: Vec<(PathBuf, String)>,
    /// How many deck files `finish` checked, with errors or not.
    pub decks_checked: usize,
    /// The decks `finish` checked that have no error.
    pub decks: Vec<crate::packs::deck::Deck>,
    /// The deck format decks are checked in (`--deck-format`), besides the base rules: a
    /// format of the deck's game's `deck { … }` block. See [`Session::unknown_deck_format`].
    pub deck_format: Option<String>,
    /// The games whose decks were checked or queued (or whose packs' decks would have been).
    pub(crate) deck_games: Vec<String>,
    /// Where each of `packs` comes from, in the same order.
    homes: Vec<PackHome>,
    /// Names of packs found but refused (errors of their manifest, files or requirements):
    /// a pack requiring one is not compiled, and the refusal is reported once.
    rejected: Vec<String>,
    /// The folders of packs refused (canonical): not read again.
    rejected_dirs: Vec<PathBuf>,
    /// Texts that stand in for files on disk (an editor's unsaved buffers, by canonical path):
    /// a pack read from a folder takes a file's (`.fuda` or `.rhai`) text from here when it has
    /// one. Only files the walk of the folder finds are replaced; `pack.toml` is always read
    /// from disk.
    pub overlay: std::collections::HashMap<PathBuf, String>,
}

impl Session {
    /// An empty session.
    pub fn new() -> Self {
        Self::default()
    }

    /// The game a command names: a path that exists is compiled (`check_path`) and its game is
    /// the game of the pack compiled last (`Err` when none compiled); any other text is taken
    /// as a game's name, loaded by the caller.
    pub fn game_named(&mut self, game: &str) -> Result<String, String> {
        let as_path = Path::new(game);
        if !as_path.exists() {
            return Ok(game.to_string());
        }
        self.check_path(as_path);
        match self.packs.last() {
            Some(p) => Ok(p.pack.game.clone()),
            None => Err(format!("`{game}` holds no pack that compiles")),
        }
    }

    /// Compiles every pack or file a command-line path names: a pack folder,
    /// a folder of packs, or a lone `.fuda` file.
    pub fn check_path(&mut self, path: &Path) {
        if path.is_dir() {
            self.search_roots.push(path.to_path_buf());
            if path.join("pack.toml").exists() {
                let pack = self.load_dir(path);
                self.queue_decks(path, pack);
                return;
            }
            let mut subdirs: Vec<PathBuf> = match std::fs::read_dir(path) {
                Ok(rd) => rd
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.is_dir())
                    .collect(),
                Err(e) => return self.io_error(path, &e),
            };
            subdirs.sort();
            let packs = packs_below(subdirs);
            if packs.is_empty() {
                let d = self.whole_file_error(
                    &display(path),
                    codes::PACK_NO_SOURCE,
                    format!("`{}` holds no pack", display(path)),
                    "no pack.toml here or in its folders",
                );
                self.diags.push(
                    d.with_help("a pack is a folder with a `pack.toml`; or pass `.fuda` files"),
                );
            }
            for p in packs {
                let pack = self.load_dir(&p);
                self.queue_decks(&p, pack);
            }
        } else if path.is_file() && path.extension().is_some_and(|x| x == "deck") {
            self.check_deck_path(path);
        } else if path.is_file() {
            match find_pack_dir(path) {
                Some(dir) => {
                    self.load_dir(&dir);
                }
                None => match PackSource::lone_file(path) {
                    Ok(mut src) => {
                        src.apply_overlay(&self.overlay);
                        self.compile_source(src);
                    }
                    Err(e) => self.io_error(path, &e),
                },
            }
        } else {
            let d = self.whole_file_error(
                &display(path),
                codes::PACK_NO_SOURCE,
                format!("`{}` does not exist", display(path)),
                "no such file or folder",
            );
            self.diags.push(d);
        }
    }

    /// Reports that `path` cannot be read.
    pub(crate) fn io_error(&mut self, path: &Path, e: &std::io::Error) {
        let path = display(path);
        let d = self.whole_file_error(
            &path,
            codes::SOURCE_IO,
            format!("cannot read `{path}`: {e}"),
            "unreadable",
        );
        self.diags.push(d);
    }

    /// An error about a file or folder as a whole (missing, unreadable): it is registered
    /// with no text, so the diagnostic names it without an excerpt.
    pub(crate) fn whole_file_error(
        &mut self,
        path: &str,
        code: crate::base::diagnostic::Code,
        message: String,
        label: &str,
    ) -> Diagnostic {
        let id = self.sources.add(SourceFile::new(path.to_string(), ""));
        Diagnostic::error(code, id, Span::default(), message, label)
    }

    /// Loads and compiles the pack in `dir` (once).
    pub fn load_dir(&mut self, dir: &Path) -> Option<usize> {
        let canonical = dir.canonicalize().ok();
        if let Some(c) = &canonical {
            if self.rejected_dirs.contains(c) {
                // Refused already, and reported where it was.
                return None;
            }
        }
        match PackSource::from_dir(dir) {
            Ok(mut src) => {
                src.apply_overlay(&self.overlay);
                let i = self.compile_source(src);
                if let (None, Some(c)) = (i, canonical) {
                    self.rejected_dirs.push(c);
                }
                i
            }
            Err(e) => {
                self.io_error(dir, &e);
                None
            }
        }
    }

    /// The index of a compiled pack by name.
    pub fn pack_index(&self, name: &str) -> Option<usize> {
        self.packs.iter().position(|p| p.pack.name == name)
    }

    /// Compiles a pack's sources, compiling its requirements first. Returns its index; `None`
    /// when the pack is refused (nothing of it is loaded).
    pub fn compile_source(&mut self, src: PackSource) -> Option<usize> {
        let files = self.register_files(&src);
        let mut checked = match &src.manifest_text {
            Some(text) => self.manifest(&src.manifest_path, text)?,
            None => load::CheckedManifest {
                meta: self.lone_meta(&src, &files.decoded)?,
                reqs: Vec::new(),
                files_at: Vec::new(),
            },
        };
        if let Some(i) = self.pack_index(&checked.meta.name) {
            return self.same_pack(i, &checked.meta, &src);
        }
        if self.rejected.contains(&checked.meta.name) {
            // Refused already, and reported where it was.
            return None;
        }
        checked.meta.scripts = self.check_scripts(&src);
        let meta = &checked.meta;
        let home = PackHome {
            dir: src.dir.as_ref().and_then(|d| d.canonicalize().ok()),
            manifest: meta.manifest,
        };
        let required = match self.accept(&src, &checked) {
            true => self.compile_requirements(&checked, &src, &files),
            false => None,
        };
        let Some((deps, requirements_met)) = required else {
            self.rejected.push(meta.name.clone());
            return None;
        };
        let valid = files.valid && requirements_met;

        // A cached copy, when the pack (its scripts too) and everything it builds on are
        // unchanged.
        let key = match (&self.cache, &src.manifest_text, valid) {
            (Some(_), Some(manifest), true) => {
                let dep_keys: Vec<String> = deps.iter().map(|i| self.keys[*i].clone()).collect();
                let hashed = if src.scripts.is_empty() {
                    std::borrow::Cow::Borrowed(&src.files)
                } else {
                    std::borrow::Cow::Owned(src.files.iter().chain(&src.scripts).cloned().collect())
                };
                (dep_keys.iter().all(|k| !k.is_empty()))
                    .then(|| Cache::key(manifest, &hashed, &dep_keys))
            }
            _ => None,
        };
        if let (Some(cache), Some(key)) = (&self.cache, &key) {
            let dep_refs: Vec<&Compiled> = deps.iter().map(|i| &self.packs[*i]).collect();
            if let Some(compiled) = cache.load(key, files.base, &dep_refs, &mut self.diags) {
                self.cache_hits += 1;
                self.packs.push(compiled);
                self.keys.push(key.clone());
                self.homes.push(home);
                return Some(self.packs.len() - 1);
            }
        }
        let i = self.compile_fresh(meta, files, &deps, key, home);
        if i.is_none() {
            self.rejected.push(meta.name.clone());
        }
        i
    }

    /// Checks the pack's scripts (`.rhai` files; each registered as a source, so a syntax
    /// error is reported at its line and column): those that compile, sorted by path.
    fn check_scripts(&mut self, src: &PackSource) -> Vec<crate::compiler::script::Script> {
        let folder = src
            .manifest_path
            .strip_suffix("pack.toml")
            .unwrap_or_default()
            .to_string();
        let mut out = Vec::new();
        for (path, bytes) in &src.scripts {
            let Some(file) = self.add_source(path, bytes) else {
                continue;
            };
            let text = self.sources.get(file).text.clone();
            let inside = path.strip_prefix(folder.as_str()).unwrap_or(path);
            if let Some(s) = crate::compiler::script::check(inside, &text, file, &mut self.diags) {
                out.push(s);
            }
        }
        out
    }

    /// Registers every file of `src` first, so a pack's files get consecutive ids (the cache
    /// stores ids relative to the first one), and reports the files that could not be read.
    fn register_files(&mut self, src: &PackSource) -> RegisteredFiles {
        let base = self.sources.next_id();
        let mut decoded = Vec::new();
        let mut valid = true;
        for (path, bytes) in &src.files {
            match self.add_source(path, bytes) {
                Some(id) => decoded.push(id),
                None => valid = false,
            }
        }
        for (path, reason) in &src.unreadable {
            let d = self.whole_file_error(
                path,
                codes::SOURCE_IO,
                format!("cannot read `{path}`: {reason}"),
                "unreadable",
            );
            self.diags.push(d);
            valid = false;
        }
        RegisteredFiles {
            base,
            count: src.files.len() as u32,
            decoded,
            valid,
        }
    }

    /// Compiles the packs a manifest requires, reporting a requirement cycle where it closes
    /// (then `None`: the pack is not compiled) and each requirement that cannot be found.
    /// Returns the requirements' indices, and whether all of them were found. A requirement
    /// refused, or found in a version the manifest excludes, gives `None` too.
    fn compile_requirements(
        &mut self,
        checked: &load::CheckedManifest,
        src: &PackSource,
        files: &RegisteredFiles,
    ) -> Option<(Vec<usize>, bool)> {
        let meta = &checked.meta;
        if self.in_progress.contains(&meta.name) {
            let (file, span) = meta.manifest.unwrap_or_default();
            let chain = self.in_progress.join("` → `");
            self.diags.push(
                Diagnostic::error(
                    codes::PACK_MISSING_REQUIREMENT,
                    file,
                    span,
                    format!(
                        "pack `{}` requires itself: `{chain}` → `{}`",
                        meta.name, meta.name
                    ),
                    "a cycle of requirements",
                )
                .with_help("remove one of these requirements"),
            );
            return None;
        }
        self.in_progress.push(meta.name.clone());
        let mut deps = Vec::new();
        let mut found = Vec::new();
        let mut all_found = true;
        let mut refused = false;
        for (at, req) in meta.requires.iter().enumerate() {
            match self.require(req, src.dir.as_deref()) {
                Some(i) => {
                    deps.push(i);
                    found.push((at, i));
                }
                // A cycle was reported where it closed: no pack of it is loaded.
                None if self.in_progress.contains(req) => refused = true,
                // So was the refusal of a pack.
                None if self.rejected.contains(req) => refused = true,
                None => {
                    let (file, span) = meta
                        .requires_at
                        .get(at)
                        .copied()
                        .or(meta.manifest)
                        .unwrap_or((
                            files.decoded.first().copied().unwrap_or(files.base),
                            Span::default(),
                        ));
                    self.missing_requirement(meta, req, file, span);
                    all_found = false;
                }
            }
        }
        self.in_progress.retain(|n| n != &meta.name);
        let met = self.versions_met(meta, &checked.reqs, &found);
        (met && !refused).then_some((deps, all_found))
    }

    /// Reports that `meta` requires `req`, which no search found, at `file`/`span`.
    fn missing_requirement(&mut self, meta: &PackMeta, req: &str, file: FileId, span: Span) {
        let loaded: Vec<String> = self.packs.iter().map(|p| p.pack.name.clone()).collect();
        let known = known_packs(&loaded);
        let help = crate::base::diagnostic::did_you_mean(req, known.iter().map(String::as_str))
            .unwrap_or_else(|| {
                format!("put the `{req}` pack beside this one, or under `cards/{req}`")
            });
        self.diags.push(
            Diagnostic::error(
                codes::PACK_MISSING_REQUIREMENT,
                file,
                span,
                format!(
                    "pack `{}` requires `{req}`, which cannot be found",
                    meta.name
                ),
                "no such pack",
            )
            .with_help(help),
        );
    }

    /// Parses and resolves a pack no cache holds, and stores it under `key` when it has no
    /// error. Returns its index.
    fn compile_fresh(
        &mut self,
        meta: &PackMeta,
        files: RegisteredFiles,
        deps: &[usize],
        key: Option<String>,
        home: PackHome,
    ) -> Option<usize> {
        let before = self.diags.len();
        let units = self.parse_files(&files.decoded);
        if !self.cards_within_limit(meta, &units) {
            return None;
        }
        let dep_refs: Vec<&Compiled> = deps.iter().map(|i| &self.packs[*i]).collect();
        let compiled = resolve::compile(meta, units, &dep_refs, &self.sources, &mut self.diags);
        let new_diags = &self.diags[before..];
        let stored_key = match (&self.cache, key) {
            (Some(cache), Some(key)) if new_diags.iter().all(|d| !d.is_error()) => {
                cache.store(&key, &compiled, files.base, files.count, new_diags);
                key
            }
            _ => String::new(),
        };
        self.packs.push(compiled);
        self.keys.push(stored_key);
        self.homes.push(home);
        Some(self.packs.len() - 1)
    }

    /// Parses `files` but their cards (which the checker parses a chunk at a time), in parallel
    /// on the current rayon pool (files and, within each, items), joined in order: the units
    /// and the diagnostics are the same whatever the thread count.
    fn parse_files(&mut self, files: &[FileId]) -> Vec<SourceUnit> {
        use rayon::prelude::*;
        let sources = &self.sources;
        let parsed: Vec<(SourceUnit, Vec<Diagnostic>)> = files
            .par_iter()
            .map(|&id| {
                let mut own = Vec::new();
                let (items, cards) =
                    parse::parse_file_but_cards(&sources.get(id).text, id, &mut own);
                (
                    SourceUnit {
                        file: id,
                        items,
                        cards,
                    },
                    own,
                )
            })
            .collect();
        let mut units = Vec::with_capacity(parsed.len());
        for (unit, own) in parsed {
            self.diags.extend(own);
            units.push(unit);
        }
        units
    }

    /// Reports a pack with more than [`MAX_CARDS`] cards; true when it has no more.
    fn cards_within_limit(&mut self, meta: &PackMeta, units: &[SourceUnit]) -> bool {
        // The cards written (their syntax is checked later, by the cards pass).
        let cards: usize = units.iter().map(|u| u.cards.len()).sum();
        if cards <= MAX_CARDS {
            return true;
        }
        let (file, span) = meta.manifest.unwrap_or_default();
        self.diags.push(
            Diagnostic::error(
                codes::PACK_LIMIT,
                file,
                span,
                format!("this pack has {cards} cards, more than a pack may have ({MAX_CARDS})"),
                "too many cards",
            )
            .with_help("split the pack into packs that require each other"),
        );
        false
    }

    /// Registers a file's bytes as text. Invalid UTF-8 is reported and gives `None` (the file
    /// is still registered, with the bad bytes replaced, for the excerpt).
    pub(crate) fn add_source(&mut self, path: &str, bytes: &[u8]) -> Option<FileId> {
        match source::decode(bytes) {
            Ok(text) => Some(self.sources.add(SourceFile::new(path, text))),
            Err((fixed, at, len)) => {
                let id = self.sources.add(SourceFile::new(path, fixed));
                self.diags.push(
                    Diagnostic::error(
                        codes::SOURCE_INVALID_UTF8,
                        id,
                        Span::new(at, at + len),
                        "this file is not valid UTF-8",
                        "invalid byte sequence",
                    )
                    .with_help("save the file as UTF-8"),
                );
                None
            }
        }
    }

    /// The metadata of a lone file: its `game` header names the game it requires.
    fn lone_meta(&mut self, src: &PackSource, files: &[FileId]) -> Option<PackMeta> {
        let id = *files.first()?;
        let text = self.sources.get(id).text.clone();
        let Some((game, game_span)) = lone_game(&text) else {
            // Still report the file's syntax errors, then say what is missing.
            parse::parse_file(&text, id, &mut self.diags);
            let first = crate::compiler::lex::token_iter(&text)
                .find(|(t, _)| {
                    !matches!(
                        t,
                        Ok(crate::compiler::lex::Token::Whitespace
                            | crate::compiler::lex::Token::LineComment
                            | crate::compiler::lex::Token::BlockComment)
                    )
                })
                .map_or(Span::default(), |(_, s)| s);
            self.diags.push(
                Diagnostic::error(codes::PACK_GAME_HEADER, id, first, "a fuda file starts with the game it is written for", "no `game` line before this")
                    .with_help("start the file with `game <id>`, the id of the game it is written for, or put it in a pack folder"),
            );
            return None;
        };
        let stem = Path::new(&src.manifest_path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "file".into());
        let name: String = stem
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let is_ruleset = text
            .lines()
            .any(|l| l.starts_with("game ") && l.contains('{'));
        let requires = if is_ruleset {
            vec![]
        } else {
            vec![game.clone()]
        };
        let requires_at = requires.iter().map(|_| (id, game_span)).collect();
        Some(PackMeta {
            name,
            version: "0.0.0".into(),
            game,
            requires,
            manifest: Some((id, game_span)),
            requires_at,
            scripts: Vec::new(),
        })
    }

    /// The index of the pack `name`, compiled first if need be (looked up as the module doc
    /// says; `from`: the folder of the pack requiring it).
    pub(crate) fn require(&mut self, name: &str, from: Option<&Path>) -> Option<usize> {
        if let Some(i) = self.pack_index(name) {
            return Some(i);
        }
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(dir) = from.and_then(Path::parent) {
            candidates.push(dir.join(name));
        }
        for root in &self.search_roots {
            candidates.push(root.join(name));
        }
        candidates.push(PathBuf::from("cards").join(name));
        for c in candidates {
            if c.join("pack.toml").exists() {
                let i = self.load_dir(&c);
                if i.is_none() && !self.rejected.iter().any(|r| r == name) {
                    self.rejected.push(name.to_string());
                }
                return i;
            }
        }
        PackSource::embedded(name).and_then(|src| self.compile_source(src))
    }

    /// Checks the queued decks and warns about exact card names no loaded pack has (run once
    /// all packs are loaded).
    pub fn finish(&mut self) {
        self.check_name_clashes();
        self.check_number_clashes();
        self.check_queued_decks();
        let refs: Vec<&Compiled> = self.packs.iter().collect();
        resolve::check_exact_names(&refs, &mut self.diags);
        crate::base::diagnostic::sort(&mut self.diags);
        self.diags.dedup();
    }

    /// The engine's program for `game`: its pack (loaded when it is not yet) and every loaded
    /// pack of that game. `Err` says why there is none: the pack can't be found or has errors.
    pub fn program(&mut self, game: &str) -> Result<Program, String> {
        if self.require(game, None).is_none() {
            return Err(format!("no pack named `{game}` could be loaded"));
        }
        self.check_name_clashes();
        if self.error_count() > 0 {
            return Err(format!("the pack `{game}` has errors (run `fuda check`)"));
        }
        let packs: Vec<&crate::ir::Pack> = self
            .packs
            .iter()
            .map(|c| &c.pack)
            .filter(|p| p.game == game)
            .collect();
        Program::new(&packs)
    }

    /// The engine's program for `game` as the packs `roots` see it: the packs of that game among
    /// them and the packs they require, directly or not (a scenario of a mod pack runs on the
    /// game with that mod, and no other). When the first root is of another game, its game's
    /// program as [`Session::program`] builds it.
    pub fn program_of(&mut self, roots: &[String], game: &str) -> Result<Program, String> {
        let first = roots.first().and_then(|n| self.pack_index(n));
        if first.is_none_or(|i| self.packs[i].pack.game != game) {
            return self.program(game);
        }
        // (this may unload a pack: the roots are looked up by name after it)
        self.check_name_clashes();
        if self.error_count() > 0 {
            return Err(format!("the pack `{game}` has errors (run `fuda check`)"));
        }
        let mut wanted: Vec<usize> = roots.iter().filter_map(|n| self.pack_index(n)).collect();
        let mut next = 0;
        while let Some(&i) = wanted.get(next) {
            next += 1;
            for req in &self.packs[i].pack.requires {
                if let Some(r) = self.pack_index(req) {
                    if !wanted.contains(&r) {
                        wanted.push(r);
                    }
                }
            }
        }
        let packs: Vec<&crate::ir::Pack> = self
            .packs
            .iter()
            .enumerate()
            .filter(|(i, c)| wanted.contains(i) && c.pack.game == game)
            .map(|(_, c)| &c.pack)
            .collect();
        Program::new(&packs)
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.diags.iter().filter(|d| d.is_error()).count()
    }

    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.diags.len() - self.error_count()
    }
}

/// The pack folders among `dirs` and, for those that are no pack, below them at any depth (a
/// folder of packs may hold folders of packs: `cards/examples/`), in path order. Hidden folders
/// and symbolic links to folders are not searched.
fn packs_below(dirs: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut packs = Vec::new();
    let mut todo = dirs;
    todo.reverse();
    while let Some(d) = todo.pop() {
        if d.join("pack.toml").exists() {
            packs.push(d);
            continue;
        }
        let hidden = d
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        let linked = d
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        if hidden || linked {
            continue;
        }
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut sub: Vec<PathBuf> = rd
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        sub.sort();
        todo.extend(sub.into_iter().rev());
    }
    packs
}

/// The game a lone file is written for: the word after `game` on its first
/// non-comment line (the file may not parse; this needs no parser).
fn lone_game(text: &str) -> Option<(String, Span)> {
    let mut toks = crate::compiler::lex::tokens(text)
        .into_iter()
        .filter(|(t, _)| {
            !matches!(
                t,
                Ok(crate::compiler::lex::Token::Whitespace
                    | crate::compiler::lex::Token::LineComment
                    | crate::compiler::lex::Token::BlockComment)
            )
        });
    let (_, first) = toks.next()?;
    if &text[first.start..first.end] != "game" {
        return None;
    }
    let (t, name) = toks.next()?;
    (t == Ok(crate::compiler::lex::Token::Ident))
        .then(|| (text[name.start..name.end].to_string(), name))
}

fn find_value(text: &str, key: &str) -> Span {
    for (i, line) in text.lines().scan(0usize, |off, l| {
        let start = *off;
        *off += l.len() + 1;
        Some((start, l))
    }) {
        if line.trim_start().starts_with(key) {
            if let Some(eq) = line.find('=') {
                let v = line[eq + 1..].trim();
                let vs = i + line.find(v).unwrap_or(eq + 1);
                return Span::new(vs, vs + v.len());
            }
        }
    }
    Span::default()
}

/// Used by tests: the id of a file by its display path.
pub fn file_id(sources: &SourceMap, path: &str) -> Option<FileId> {
    sources
        .files()
        .find(|(_, f)| f.path == path)
        .map(|(id, _)| id)
}
