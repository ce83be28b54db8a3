//! The session's decks: `.deck` files loaded against the packs of their game, and the decks of
//! each pack's `decks/` folder queued for [`Session::finish`].

use super::Session;
use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::Span;
use crate::ir;
use crate::packs::deck::{load_deck_in, Deck};
use crate::packs::manifest::{display, find_pack_dir};
use std::path::{Path, PathBuf};

impl Session {
    /// The ruleset of `game`: that of the first loaded pack of the game that has one (the game
    /// pack: packs are loaded after the packs they require).
    pub fn game_ruleset(&self, game: &str) -> Option<&ir::Ruleset> {
        self.packs
            .iter()
            .filter(|p| p.pack.game == game)
            .find_map(|p| p.pack.ruleset.as_ref())
    }

    /// Every card of every loaded pack of `game`: what its decks may name.
    pub fn game_cards(&self, game: &str) -> Vec<&ir::Card> {
        self.packs
            .iter()
            .filter(|p| p.pack.game == game)
            .flat_map(|p| &p.pack.cards)
            .collect()
    }

    /// Reads and checks the deck file at `path` for `game` against the loaded packs of that game
    /// (the game's pack is loaded when none is). Diagnostics go to the session; the deck is
    /// returned when it has no error.
    pub fn load_deck(&mut self, path: &Path, game: &str) -> Option<Deck> {
        match std::fs::read(path) {
            Ok(bytes) => {
                let before = self.diags.len();
                let deck = self.load_deck_bytes(&display(path), &bytes, game);
                self.hint_unloaded_pack(path, before);
                deck
            }
            Err(e) => {
                self.io_error(path, &e);
                None
            }
        }
    }

    /// A deck in the folder of a pack that was not loaded (`fuda sim pmv --deck
    /// mypack/decks/x.deck` without `--pack mypack`): its unknown cards (the diagnostics from
    /// `before` on) are most likely that pack's, so their help says to load it.
    fn hint_unloaded_pack(&mut self, path: &Path, before: usize) {
        let Some(dir) = find_pack_dir(path) else {
            return;
        };
        if self.pack_from_dir(&dir).is_some() {
            return;
        }
        let dir = display(&dir);
        for d in self.diags.iter_mut().skip(before) {
            if d.code == codes::DECK_UNKNOWN_CARD {
                d.help = Some(format!(
                    "this deck is in the pack folder `{dir}`, which is not loaded: add `--pack {dir}`"
                ));
            }
        }
    }

    /// [`Session::load_deck`] for a deck given as bytes (an editor buffer, a test), shown as `path`.
    pub fn load_deck_bytes(&mut self, path: &str, bytes: &[u8], game: &str) -> Option<Deck> {
        let file = self.add_source(path, bytes)?;
        if self.game_ruleset(game).is_none() {
            self.require(game, None);
        }
        let Some(ruleset) = self.game_ruleset(game) else {
            self.diags.push(
                Diagnostic::error(
                    codes::PACK_MISSING_REQUIREMENT,
                    file,
                    Span::default(),
                    format!("no ruleset for game `{game}` is loaded"),
                    "a deck of this game",
                )
                .with_help(format!(
                    "check the deck along with the pack of game `{game}`"
                )),
            );
            return None;
        };
        let cards = self.game_cards(game);
        let format = self.deck_format.as_deref();
        let loaded = load_deck_in(file, self.sources.get(file), ruleset, &cards, format);
        self.note_deck_game(game);
        match loaded {
            Ok(deck) => Some(deck),
            Err(diags) => {
                self.diags.extend(diags);
                None
            }
        }
    }

    /// Queues every `.deck` file under `pack_dir/decks/` for [`Session::finish`], for the game
    /// of the pack compiled as `pack`.
    pub(crate) fn queue_decks(&mut self, pack_dir: &Path, pack: Option<usize>) {
        let Some(i) = pack.filter(|_| !self.skip_decks) else {
            return;
        };
        let game = self.packs[i].pack.game.clone();
        self.note_deck_game(&game);
        let dir = pack_dir.join("decks");
        if !dir.is_dir() {
            return;
        }
        let mut files = Vec::new();
        if let Err(e) = collect_decks(&dir, &mut files) {
            return self.io_error(&dir, &e);
        }
        files.sort();
        for f in files {
            self.queue_deck(f, &game);
        }
    }

    /// `fuda check file.deck`: loads the pack the deck is in and queues the deck.
    pub(crate) fn check_deck_path(&mut self, path: &Path) {
        let Some(dir) = find_pack_dir(path) else {
            let shown = display(path);
            let d = self.whole_file_error(
                &shown,
                codes::PACK_NO_SOURCE,
                format!("`{shown}` is in no pack folder"),
                "no pack.toml above this deck",
            );
            self.diags.push(d.with_help(
                "a deck is for the game of the pack it is in: put it in the `decks/` folder of a pack",
            ));
            return;
        };
        let pack = self.load_dir(&dir);
        if let (Some(i), false) = (pack, self.skip_decks) {
            let game = self.packs[i].pack.game.clone();
            self.queue_deck(path.to_path_buf(), &game);
        }
    }

    /// Records that decks of `game` are checked (in the chosen deck format, if any).
    fn note_deck_game(&mut self, game: &str) {
        if !self.deck_games.iter().any(|g| g == game) {
            self.deck_games.push(game.to_string());
        }
    }

    /// With a [`Session::deck_format`] chosen: why it can't be used, when the game of some
    /// deck checked (or, with none, of some loaded pack) declares no format of that name: the
    /// games and the formats they declare. `None` when the format is known (or none chosen).
    pub fn unknown_deck_format(&self) -> Option<String> {
        let name = self.deck_format.as_deref()?;
        let mut games: Vec<&str> = self.deck_games.iter().map(String::as_str).collect();
        if games.is_empty() {
            games = self.packs.iter().map(|p| p.pack.game.as_str()).collect();
            games.dedup();
        }
        let mut problems = Vec::new();
        for game in games {
            let Some(ruleset) = self.game_ruleset(game) else {
                continue;
            };
            if ruleset.deck_format(name).is_some() {
                continue;
            }
            let known: Vec<String> = ruleset
                .deck_formats()
                .map(|f| match &f.label {
                    Some(l) => format!("`{}` ({l})", f.name),
                    None => format!("`{}`", f.name),
                })
                .collect();
            problems.push(if known.is_empty() {
                format!("game `{game}` declares no deck format, so no `{name}`")
            } else {
                format!(
                    "game `{game}` has no deck format `{name}`; its formats: {}",
                    known.join(", ")
                )
            });
        }
        (!problems.is_empty()).then(|| problems.join("; "))
    }

    fn queue_deck(&mut self, path: PathBuf, game: &str) {
        if !self.pending_decks.iter().any(|(p, _)| *p == path) {
            self.pending_decks.push((path, game.to_string()));
        }
    }

    /// Checks the queued decks, once every pack is loaded (a deck may name any of them).
    pub(crate) fn check_queued_decks(&mut self) {
        for (path, game) in std::mem::take(&mut self.pending_decks) {
            self.decks_checked += 1;
            if let Some(deck) = self.load_deck(&path, &game) {
                self.decks.push(deck);
            }
        }
    }
}

/// Every `.deck` file under `dir` (symbolic links to folders are not followed).
fn collect_decks(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let path = e.path();
        if e.file_type()?.is_dir() {
            collect_decks(&path, out)?;
        } else if path.extension().is_some_and(|x| x == "deck") {
            out.push(path);
        }
    }
    Ok(())
}
