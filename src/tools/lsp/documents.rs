//! The documents the editor has open: their text as the editor has it (saved or not), by URI,
//! and that text as an overlay for the sessions that read the rest of the workspace from disk.

use lsp_types::Url;
use std::collections::HashMap;
use std::path::PathBuf;

/// The open documents.
#[derive(Default)]
pub struct Documents {
    texts: HashMap<Url, String>,
}

impl Documents {
    /// Opens (or replaces) a document.
    pub fn open(&mut self, uri: Url, text: String) {
        self.texts.insert(uri, text);
    }

    /// Replaces a document's text (full-text sync); `false` when it is not open.
    pub fn change(&mut self, uri: &Url, text: String) -> bool {
        match self.texts.get_mut(uri) {
            Some(t) => {
                *t = text;
                true
            }
            None => false,
        }
    }

    /// Closes a document.
    pub fn close(&mut self, uri: &Url) {
        self.texts.remove(uri);
    }

    /// The text of an open document.
    pub fn get(&self, uri: &Url) -> Option<&str> {
        self.texts.get(uri).map(String::as_str)
    }

    /// The URIs of the open documents, sorted.
    pub fn uris(&self) -> Vec<Url> {
        let mut out: Vec<Url> = self.texts.keys().cloned().collect();
        out.sort();
        out
    }

    /// The open documents' texts by canonical file path (a session's overlay). Documents that
    /// are no file on disk are left out: no pack folder walk finds them.
    pub fn overlay(&self) -> HashMap<PathBuf, String> {
        self.texts
            .iter()
            .filter_map(|(uri, text)| {
                let path = uri.to_file_path().ok()?.canonicalize().ok()?;
                Some((path, text.clone()))
            })
            .collect()
    }
}
