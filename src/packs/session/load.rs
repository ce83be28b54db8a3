//! Safe loading of a pack: its manifest checked field by field (semver versions and
//! requirements), what the walk of its folder refused, and two folders of one pack name.
//! A pack with any of these errors is not loaded at all, and the packs requiring it are not
//! compiled either.

use super::{find_value, Session};
use crate::base::diagnostic::{codes, Diagnostic, Label};
use crate::base::source::{FileId, SourceFile, Span};
use crate::compiler::resolve::PackMeta;
use crate::packs::manifest::display;
use crate::packs::manifest::{Manifest, PackSource, Refusal, MAX_FILES, MAX_FILE_BYTES};
use semver::{Version, VersionReq};
use std::path::{Path, PathBuf};

/// Where a loaded pack comes from: to tell two folders of one name apart.
#[derive(Debug, Clone, Default)]
pub(crate) struct PackHome {
    /// Its folder on disk, canonical (`None`: embedded or a lone file).
    pub dir: Option<PathBuf>,
    /// Where its name is written.
    pub manifest: Option<(FileId, Span)>,
}

/// A manifest that passed its checks.
pub(crate) struct CheckedManifest {
    /// What the compiler needs.
    pub meta: PackMeta,
    /// The version requirement of each entry of `meta.requires` (`None`: any version).
    pub reqs: Vec<Option<VersionReq>>,
    /// Where each `files` glob is written.
    pub files_at: Vec<Span>,
}

/// A span of a toml value, clamped to the text.
fn span_of(range: std::ops::Range<usize>, len: usize) -> Span {
    let start = range.start.min(len);
    Span::new(start, range.end.clamp(start, len))
}

impl Session {
    /// Loads the pack folder `dir` named by a `--pack` option, with the packs it requires: its
    /// cards join those of its game. A path that is no pack folder is `fuda::pack::no_source`.
    pub fn add_pack(&mut self, dir: &Path) -> Option<usize> {
        if dir.join("pack.toml").is_file() {
            return self.load_dir(dir);
        }
        let shown = display(dir);
        let d = self
            .whole_file_error(
                &shown,
                codes::PACK_NO_SOURCE,
                format!("`{shown}` is no pack folder"),
                "no pack.toml here",
            )
            .with_help("`--pack` names a folder holding a `pack.toml`");
        self.diags.push(d);
        None
    }

    /// The index of the loaded pack whose folder is `dir` (`None`: no pack was loaded from it).
    pub fn pack_from_dir(&self, dir: &Path) -> Option<usize> {
        let dir = dir.canonicalize().ok()?;
        self.homes.iter().position(|h| h.dir.as_ref() == Some(&dir))
    }

    /// The folder on disk of the loaded pack `i` (`None`: embedded in the binary or a lone file).
    pub fn pack_dir(&self, i: usize) -> Option<&Path> {
        self.homes.get(i)?.dir.as_deref()
    }

    /// The loaded packs a command-line path names: the pack in that folder, the packs in the
    /// folders below it (a folder of packs), or the pack a file is in; for a file in no pack
    /// folder, the pack compiled last (the file alone). Requirements loaded for them are not
    /// included.
    pub fn packs_named_by(&self, path: &Path) -> Vec<usize> {
        let Ok(canon) = path.canonicalize() else {
            return Vec::new();
        };
        let named: Vec<usize> = self
            .homes
            .iter()
            .enumerate()
            .filter(|(_, h)| {
                h.dir.as_ref().is_some_and(|d| {
                    if canon.is_dir() {
                        d.starts_with(&canon)
                    } else {
                        canon.starts_with(d)
                    }
                })
            })
            .map(|(i, _)| i)
            .collect();
        let nearest = named.iter().copied().max_by_key(|&i| {
            self.homes[i]
                .dir
                .as_ref()
                .map_or(0, |d| d.components().count())
        });
        match (canon.is_dir(), nearest) {
            (true, _) => named,
            (false, Some(i)) => vec![i],
            (false, None) => self.packs.len().checked_sub(1).into_iter().collect(),
        }
    }

    /// Reads and checks a `pack.toml`: every diagnostic at the offending value; `None` when
    /// it has an error (the pack is then not loaded).
    pub(crate) fn manifest(&mut self, path: &str, text: &str) -> Option<CheckedManifest> {
        let id = self
            .sources
            .add(SourceFile::new(path.to_string(), text.to_string()));
        let m = match toml::from_str::<Manifest>(text) {
            Ok(m) => m,
            Err(e) => {
                let span = e
                    .span()
                    .map(|r| {
                        Span::new(r.start, r.end.max(r.start + 1).min(text.len().max(r.start)))
                    })
                    .unwrap_or_default();
                self.diags.push(
                    Diagnostic::error(codes::PACK_MANIFEST, id, span, format!("invalid pack.toml: {}", e.message()), "here")
                        .with_help("a pack.toml holds `name = \"my_pack\"`, `version = \"0.1.0\"`, `game = \"<game id>\"`, and optionally `requires = [\"<pack> <version requirement>\"]`, `files = [\"<glob>\"]`, `description = \"…\"`, `authors = [\"…\"]` and `license = \"…\"`"),
                );
                return None;
            }
        };
        let name_span = span_of(m.name.span(), text.len());
        let name = m.name.get_ref();
        let bad_name = name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
        if bad_name {
            self.diags.push(
                Diagnostic::error(
                    codes::PACK_MANIFEST,
                    id,
                    find_value(text, "name"),
                    format!("`{name}` is not a valid pack name"),
                    "invalid name",
                )
                .with_help("use letters, digits, `_` and `-`: the name qualifies every card id"),
            );
            return None;
        }
        let mut ok = true;
        if let Err(e) = Version::parse(m.version.get_ref()) {
            let span = span_of(m.version.span(), text.len());
            self.diags.push(
                Diagnostic::error(
                    codes::PACK_VERSION,
                    id,
                    span,
                    format!("`{}` is not a semver version: {e}", m.version.get_ref()),
                    "not a version",
                )
                .with_help("write a version as MAJOR.MINOR.PATCH: `version = \"0.1.0\"`"),
            );
            ok = false;
        }
        let mut requires = Vec::new();
        let mut reqs = Vec::new();
        let mut requires_at = Vec::new();
        for r in &m.requires {
            let span = span_of(r.span(), text.len());
            let entry = r.get_ref().trim();
            let (pack, req) = entry
                .split_once(char::is_whitespace)
                .map_or((entry, ""), |(p, q)| (p, q.trim()));
            let parsed = if req.is_empty() {
                None
            } else {
                match VersionReq::parse(req) {
                    Ok(v) => Some(v),
                    Err(e) => {
                        self.diags.push(
                            Diagnostic::error(
                                codes::PACK_VERSION,
                                id,
                                span,
                                format!("`{req}` is not a semver requirement: {e}"),
                                "not a version requirement",
                            )
                            .with_help("write a pack name, then optionally a requirement: `\"pmv\"`, `\"pmv ^0.1\"`, `\"pmv >=0.1, <0.3\"`"),
                        );
                        ok = false;
                        None
                    }
                }
            };
            requires.push(pack.to_string());
            reqs.push(parsed);
            requires_at.push((id, span));
        }
        let files_at = m
            .files
            .iter()
            .flatten()
            .map(|f| span_of(f.span(), text.len()))
            .collect();
        ok.then(|| CheckedManifest {
            meta: PackMeta {
                name: name.clone(),
                version: m.version.get_ref().clone(),
                game: m.game,
                requires,
                manifest: Some((id, name_span)),
                requires_at,
                scripts: Vec::new(),
            },
            reqs,
            files_at,
        })
    }

    /// Reports what safe loading refused of `src` (see [`Refusal`]); true when nothing was.
    pub(crate) fn accept(&mut self, src: &PackSource, checked: &CheckedManifest) -> bool {
        let (manifest_file, name_span) = checked.meta.manifest.unwrap_or_default();
        for r in &src.refused {
            let d = match r {
                Refusal::GlobOutside(i) => Diagnostic::error(
                    codes::PACK_OUTSIDE,
                    manifest_file,
                    checked.files_at.get(*i).copied().unwrap_or(name_span),
                    "this glob leaves the pack folder",
                    "outside the pack",
                )
                .with_help("a `files` glob is relative to the pack folder, with no `..` and no leading `/`"),
                Refusal::BadGlob(i, why) => Diagnostic::error(
                    codes::PACK_MANIFEST,
                    manifest_file,
                    checked.files_at.get(*i).copied().unwrap_or(name_span),
                    format!("invalid glob: {why}"),
                    "not a glob",
                )
                .with_help("write a glob such as `\"sets/**/*.fuda\"`"),
                Refusal::Outside(path, target) => self
                    .whole_file_error(
                        path,
                        codes::PACK_OUTSIDE,
                        format!("`{path}` is a link to `{target}`, outside the pack folder"),
                        "a link out of the pack",
                    )
                    .with_help("copy the file into the pack folder instead of linking to it"),
                Refusal::TooLarge(path, bytes) => self
                    .whole_file_error(
                        path,
                        codes::PACK_LIMIT,
                        format!("`{path}` has {bytes} bytes, more than a pack file may have ({MAX_FILE_BYTES})"),
                        "too large",
                    )
                    .with_help("split the file into smaller ones"),
                Refusal::TooManyFiles(_) => Diagnostic::error(
                    codes::PACK_LIMIT,
                    manifest_file,
                    name_span,
                    format!("this pack has more source and script files than a pack may have ({MAX_FILES})"),
                    "too many files",
                )
                .with_help("merge files, or split the pack into packs that require each other"),
            };
            self.diags.push(d);
        }
        src.refused.is_empty()
    }

    /// `meta` names a pack already loaded as pack `i`: the same pack (`Some(i)`), or another
    /// folder of the same name, reported (`None`: it is not loaded).
    pub(crate) fn same_pack(
        &mut self,
        i: usize,
        meta: &PackMeta,
        src: &PackSource,
    ) -> Option<usize> {
        let home = self.homes.get(i).cloned().unwrap_or_default();
        let dir = src.dir.as_ref().and_then(|d| d.canonicalize().ok());
        match (&home.dir, dir) {
            (Some(first), Some(this)) if *first != this => {
                let (file, span) = meta.manifest.unwrap_or_default();
                let mut d = Diagnostic::error(
                    codes::PACK_DUPLICATE_NAME,
                    file,
                    span,
                    format!("two pack folders are both named `{}`", meta.name),
                    "this pack is named like another",
                )
                .with_help("rename one of the two packs: a pack name qualifies its card ids");
                if let Some((f, s)) = home.manifest {
                    d = d.with_related(Label::new(f, s, "the pack loaded under this name"));
                }
                self.diags.push(d);
                self.rejected.push(meta.name.clone());
                None
            }
            _ => Some(i),
        }
    }

    /// Reports each requirement of `meta` that the pack found for it does not meet (pack
    /// `deps[k]` for `meta.requires[k]`); true when all are met.
    pub(crate) fn versions_met(
        &mut self,
        meta: &PackMeta,
        reqs: &[Option<VersionReq>],
        found: &[(usize, usize)],
    ) -> bool {
        let mut met = true;
        for &(at, i) in found {
            let Some(Some(req)) = reqs.get(at) else {
                continue;
            };
            let version = self.packs[i].pack.version.clone();
            if Version::parse(&version).is_ok_and(|v| req.matches(&v)) {
                continue;
            }
            let (file, span) = meta.requires_at.get(at).copied().unwrap_or_default();
            let name = &meta.requires[at];
            self.diags.push(
                Diagnostic::error(
                    codes::PACK_UNMET_REQUIREMENT,
                    file,
                    span,
                    format!("pack `{}` requires `{name}` {req}, but the `{name}` found is version {version}", meta.name),
                    format!("`{name}` {version} found"),
                )
                .with_help(format!("use a version of `{name}` that meets `{req}`, or change the requirement")),
            );
            met = false;
        }
        met
    }
}
