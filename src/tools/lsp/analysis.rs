//! One check of the workspace as the editor has it: the pack a file belongs to (the nearest
//! folder up the tree with a `pack.toml`, as `fuda check` finds it), compiled with the packs it
//! requires (found as `fuda check` finds them: beside it, under `cards/` of the workspace root,
//! then the games built into the binary), the open documents' unsaved texts standing in for
//! their files. A file in no pack is checked alone, as `fuda check <file>` does.

use super::documents::Documents;
use crate::base::source::{FileId, SourceFile};
use crate::ir;
use crate::packs::Session;
use lsp_types::Url;
use std::path::{Path, PathBuf};

/// A compiled workspace, as seen from one file.
pub struct Analysis {
    /// The session: sources, diagnostics, compiled packs.
    pub session: Session,
    /// The game of the file's pack, when it compiled.
    pub game: Option<String>,
    /// The file's id in the session, when it was read.
    pub file: Option<FileId>,
}

impl Analysis {
    /// Checks the pack `path` belongs to (or `path` alone), with the open documents' texts.
    pub fn of_file(path: &Path, docs: &Documents) -> Analysis {
        let mut session = Session::new();
        session.overlay = docs.overlay();
        session.skip_decks = true;
        session.check_path(path);
        session.finish();
        let pack = session.packs_named_by(path).into_iter().next();
        let game = pack.map(|i| session.packs[i].pack.game.clone());
        let file = file_id(&session, path);
        Analysis {
            session,
            game,
            file,
        }
    }

    /// The text of a file of the session.
    pub fn text(&self, id: FileId) -> &str {
        &self.session.sources.get(id).text
    }

    /// The file of the session at `shown` (a path as the session shows it).
    pub fn file_by_shown(&self, shown: &str) -> Option<FileId> {
        self.session
            .sources
            .files()
            .find(|(_, f)| f.path == shown)
            .map(|(id, _)| id)
    }

    /// The compiled packs of the file's game, in load order.
    pub fn game_packs(&self) -> Vec<&crate::compiler::resolve::Compiled> {
        let Some(game) = &self.game else {
            return Vec::new();
        };
        self.session
            .packs
            .iter()
            .filter(|c| &c.pack.game == game)
            .collect()
    }

    /// The card of the file's game with this printed name (or number).
    pub fn card_named(&self, name: &str) -> Option<&ir::Card> {
        self.game_packs()
            .into_iter()
            .flat_map(|c| &c.pack.cards)
            .find(|c| c.name == name || c.number == name)
    }
}

/// The URI of a file of a session (`None`: built into the binary, or no longer on disk).
pub fn uri_of(file: &SourceFile) -> Option<Url> {
    Url::from_file_path(canonical(&file.path)?).ok()
}

/// The canonical path of a path as a session shows it (relative ones are under the current
/// folder, the workspace root).
fn canonical(shown: &str) -> Option<PathBuf> {
    if shown.starts_with('<') {
        return None;
    }
    Path::new(shown).canonicalize().ok()
}

/// The id of the file at `path` among the session's sources.
fn file_id(s: &Session, path: &Path) -> Option<FileId> {
    let want = path.canonicalize().ok()?;
    s.sources
        .files()
        .filter(|(_, f)| canonical(&f.path).as_deref() == Some(want.as_path()))
        .map(|(id, _)| id)
        .last()
}
