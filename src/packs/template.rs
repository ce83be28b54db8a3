//! `fuda new pack`: a working pack folder scaffolded from the template a game ships beside its
//! pack (`cards/<game>/template/`, embedded like the rest of `cards/`). Every template file ends
//! in `.tmpl` (so no tool takes it for a source, deck or scenario); the suffix is dropped and
//! the placeholders `{{name}}` (the new pack's name), `{{game}}` and `{{game_version}}` (the
//! game pack's version) are replaced, in file paths and contents.

use crate::packs::manifest::{self, Manifest};
use std::path::{Path, PathBuf};

/// The suffix every template file carries.
const SUFFIX: &str = ".tmpl";

/// Why a pack could not be scaffolded.
#[derive(Debug)]
pub enum ScaffoldError {
    /// The pack name is not letters, digits, `_` and `-` starting with a letter, or is the
    /// game's (a usage error).
    BadName(String),
    /// No pack of this game can be found.
    NoGame(String),
    /// The game ships no template.
    NoTemplate(String),
    /// The target folder exists.
    Exists(PathBuf),
    /// Writing failed.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for ScaffoldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScaffoldError::BadName(n) => write!(
                f,
                "`{n}` cannot name a new pack: use ASCII letters, digits, `_` and `-`, starting with a letter, and not the game's name"
            ),
            ScaffoldError::NoGame(g) => write!(f, "no game pack named `{g}` can be found"),
            ScaffoldError::NoTemplate(g) => write!(
                f,
                "the game `{g}` ships no pack template (`cards/{g}/template/`)"
            ),
            ScaffoldError::Exists(p) => {
                write!(f, "`{}` already exists", manifest::display(p))
            }
            ScaffoldError::Io(p, e) => write!(f, "cannot write `{}`: {e}", manifest::display(p)),
        }
    }
}

/// Whether `name` may name a new pack (and its folder): ASCII letters, digits, `_` and `-`,
/// starting with a letter.
pub fn valid_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Scaffolds the pack `name` of `game` in `parent/name` from the game's template. Returns the
/// new folder.
pub fn scaffold(name: &str, game: &str, parent: &Path) -> Result<PathBuf, ScaffoldError> {
    if !valid_name(name) || name == game {
        return Err(ScaffoldError::BadName(name.to_string()));
    }
    let game_manifest = manifest::game_manifest(game)
        .and_then(|text| toml::from_str::<Manifest>(&text).ok())
        .ok_or_else(|| ScaffoldError::NoGame(game.to_string()))?;
    let files = manifest::template_files(game)
        .filter(|f| !f.is_empty())
        .ok_or_else(|| ScaffoldError::NoTemplate(game.to_string()))?;
    let target = parent.join(name);
    if target.exists() {
        return Err(ScaffoldError::Exists(target));
    }
    let fill = |text: &str| {
        text.replace("{{name}}", name)
            .replace("{{game}}", game)
            .replace("{{game_version}}", game_manifest.version.get_ref())
    };
    for (rel, bytes) in files {
        let rel = rel.to_string_lossy();
        let Some(rel) = rel.strip_suffix(SUFFIX) else {
            continue;
        };
        let path = target.join(fill(rel));
        let text = fill(&String::from_utf8_lossy(&bytes));
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, text));
        written.map_err(|e| ScaffoldError::Io(path.clone(), e))?;
    }
    Ok(target)
}
