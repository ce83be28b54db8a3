//! `fuda lsp`: a language server over stdio (docs/cli.md, "fuda lsp"). rust-analyzer's
//! synchronous `lsp-server` frames the JSON-RPC messages; this module is the protocol loop:
//! the handshake, one handler per request or notification, and the answers. The jobs live in
//! their own files: the open documents (`documents`), byte offsets ↔ UTF-16 positions
//! (`position`), the check of a file's pack with the unsaved texts (`analysis`), diagnostics,
//! what the cursor is on (`names`), hover, definition, completion, formatting, quick fixes
//! (`code_action`), a file's outline (`outline`) and scenario files.
//!
//! Bad input is normal input: a request with malformed parameters gets an `InvalidParams`
//! error, an unknown method `MethodNotFound`, a position past the end of a line or a file the
//! end of it, an unknown file an empty answer; a handler that panicked anyway answers
//! `InternalError` and the server goes on.

mod analysis;
mod code_action;
mod completion;
mod definition;
mod diagnostics;
mod documents;
mod formatting;
mod hover;
mod names;
mod outline;
mod position;
mod scenario;

use crate::ir::render::Lang;
use analysis::Analysis;
use documents::Documents;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CompletionOptions, Hover, HoverContents, HoverProviderCapability, InitializeParams,
    MarkupContent, MarkupKind, OneOf, PublishDiagnosticsParams, ServerCapabilities,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind, Url,
};
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What the server keeps between messages.
struct Server {
    /// The open documents.
    docs: Documents,
    /// The language of printed card text in hovers.
    lang: Lang,
    /// The URIs each check (by the pack folder it checked, or the file checked alone) last
    /// published diagnostics to: they are cleared when the next check finds none there.
    published: HashMap<PathBuf, Vec<Url>>,
}

/// The server's capabilities.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), ":".into()]),
            ..Default::default()
        }),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        ..Default::default()
    }
}

/// Serves one editor over stdin and stdout until it says `exit` (or closes the stream). `Err`:
/// the handshake failed, or the stream broke (a message that is not JSON-RPC).
pub fn serve() -> Result<(), String> {
    let (conn, io) = Connection::stdio();
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    let params = conn.initialize(caps).map_err(|e| e.to_string())?;
    let init: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let lang = init
        .initialization_options
        .as_ref()
        .and_then(|o| o.get("lang"))
        .and_then(serde_json::Value::as_str)
        .and_then(Lang::from_code)
        .unwrap_or(Lang::En);
    // The workspace root is the folder packs are looked up from (`cards/<name>`), as the
    // current folder is for `fuda check`.
    #[allow(deprecated)]
    let root = init
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .map(|f| f.uri.clone())
        .or(init.root_uri.clone());
    if let Some(dir) = root.and_then(|u| u.to_file_path().ok()) {
        let _ = std::env::set_current_dir(dir);
    }
    let mut server = Server {
        docs: Documents::default(),
        lang,
        published: HashMap::new(),
    };
    let result = server.run(&conn);
    drop(conn);
    let joined = io.join().map_err(|e| e.to_string());
    result.and(joined)
}

impl Server {
    /// The protocol loop.
    fn run(&mut self, conn: &Connection) -> Result<(), String> {
        for msg in &conn.receiver {
            match msg {
                Message::Request(req) => {
                    if conn.handle_shutdown(&req).map_err(|e| e.to_string())? {
                        return Ok(());
                    }
                    let resp = self.guarded_request(req);
                    send(conn, resp.into());
                }
                Message::Notification(n) => {
                    for out in self.guarded_notification(n) {
                        send(conn, out.into());
                    }
                }
                Message::Response(_) => {}
            }
        }
        Ok(())
    }

    /// Answers a request; a handler that panics answers `InternalError`.
    fn guarded_request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let method = req.method.clone();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.request(req))) {
            Ok(resp) => resp,
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("fuda lsp failed on `{method}` (a bug: please report it)"),
            ),
        }
    }

    /// Handles a notification; one that panics is dropped.
    fn guarded_notification(&mut self, n: Notification) -> Vec<Notification> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.notification(n)))
            .unwrap_or_default()
    }

    /// Answers a request.
    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let answer = match req.method.as_str() {
            "textDocument/hover" => params(&req).map(|p| json(&self.hover(&p))),
            "textDocument/definition" => params(&req).map(|p| json(&self.definition(&p))),
            "textDocument/completion" => params(&req).map(|p| json(&self.completion(&p))),
            "textDocument/codeAction" => params(&req).map(|p| json(&self.code_action(&p))),
            "textDocument/documentSymbol" => params(&req).map(|p| json(&self.outline(&p))),
            "textDocument/formatting" => params::<lsp_types::DocumentFormattingParams>(&req)
                .map(|p| json(&self.formatting(&p))),
            _ => {
                return Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("fuda lsp does not handle `{}`", req.method),
                )
            }
        };
        match answer {
            Ok(value) => Response::new_ok(id, value),
            Err(why) => Response::new_err(id, ErrorCode::InvalidParams as i32, why),
        }
    }

    /// Handles a notification: the notifications to send in answer (diagnostics).
    fn notification(&mut self, n: Notification) -> Vec<Notification> {
        let uri = match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = notification_params::<lsp_types::DidOpenTextDocumentParams>(&n) else {
                    return Vec::new();
                };
                self.docs
                    .open(p.text_document.uri.clone(), p.text_document.text);
                p.text_document.uri
            }
            "textDocument/didChange" => {
                let Ok(p) = notification_params::<lsp_types::DidChangeTextDocumentParams>(&n)
                else {
                    return Vec::new();
                };
                // Full-text sync: the last change holds the whole text.
                let Some(text) = p.content_changes.into_iter().last().map(|c| c.text) else {
                    return Vec::new();
                };
                if !self.docs.change(&p.text_document.uri, text) {
                    return Vec::new();
                }
                p.text_document.uri
            }
            "textDocument/didSave" => {
                let Ok(p) = notification_params::<lsp_types::DidSaveTextDocumentParams>(&n) else {
                    return Vec::new();
                };
                p.text_document.uri
            }
            "textDocument/didClose" => {
                if let Ok(p) = notification_params::<lsp_types::DidCloseTextDocumentParams>(&n) {
                    self.docs.close(&p.text_document.uri);
                }
                return Vec::new();
            }
            _ => return Vec::new(),
        };
        let mut out = self.check(&uri);
        // The other open packs may build on the one that changed (a mod pack on its game):
        // each is checked again, once.
        let mut done = vec![check_key(&uri)];
        for other in self.docs.uris() {
            let key = check_key(&other);
            let source = other.path().ends_with(".fuda") || other.path().ends_with(".rhai");
            if source && !done.contains(&key) {
                out.extend(self.check(&other));
                done.push(key);
            }
        }
        out
    }

    /// Checks the file at `uri` (with its pack) and publishes the diagnostics of every file the
    /// check read, clearing those published by the check before that are gone.
    fn check(&mut self, uri: &Url) -> Vec<Notification> {
        let Ok(path) = uri.to_file_path() else {
            return Vec::new();
        };
        let (key, mut found) = match path.extension().and_then(|x| x.to_str()) {
            Some("fuda" | "rhai") => {
                let a = Analysis::of_file(&path, &self.docs);
                (
                    check_key(uri),
                    diagnostics::by_file(&a.session.diags, &a.session.sources),
                )
            }
            Some("toml") => {
                let text = self.docs.get(uri).unwrap_or_default();
                if !scenario::is_scenario(&path, text) {
                    return Vec::new();
                }
                let checked = scenario::check(&path, text, &self.docs);
                let mut list: Vec<lsp_types::Diagnostic> = checked
                    .diags
                    .iter()
                    .map(|d| diagnostics::convert(d, &checked.sources))
                    .collect();
                list.extend(checked.results);
                (path, std::iter::once((uri.clone(), list)).collect())
            }
            _ => return Vec::new(),
        };
        found.entry(uri.clone()).or_default();
        let before = self.published.remove(&key).unwrap_or_default();
        for old in before {
            found.entry(old).or_default();
        }
        let mut out = Vec::new();
        let mut now = Vec::new();
        for (uri, diagnostics) in found {
            if !diagnostics.is_empty() {
                now.push(uri.clone());
            }
            let p = PublishDiagnosticsParams::new(uri, diagnostics, None);
            out.push(Notification::new(
                "textDocument/publishDiagnostics".into(),
                p,
            ));
        }
        self.published.insert(key, now);
        out
    }

    /// The analysis and the cursor at a position of an open `.fuda` document (or one on disk).
    fn at(&self, p: &TextDocumentPositionParams) -> Option<(Analysis, names::Cursor)> {
        let path = p.text_document.uri.to_file_path().ok()?;
        if path.extension().is_none_or(|x| x != "fuda") {
            return None;
        }
        let a = Analysis::of_file(&path, &self.docs);
        let text = a.text(a.file?).to_string();
        let offset = position::Lines::new(&text).offset(p.position);
        Some((a, names::cursor(&text, offset)))
    }

    /// `textDocument/hover`.
    fn hover(&self, p: &lsp_types::HoverParams) -> Option<Hover> {
        let (a, c) = self.at(&p.text_document_position_params)?;
        let text = hover::hover(&a, &c, self.lang)?;
        let file = a.file?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: text,
            }),
            range: Some(position::Lines::new(a.text(file)).range(c.span.start, c.span.end)),
        })
    }

    /// `textDocument/definition`.
    fn definition(&self, p: &lsp_types::GotoDefinitionParams) -> Vec<lsp_types::Location> {
        match self.at(&p.text_document_position_params) {
            Some((a, c)) => definition::definition(&a, &c),
            None => Vec::new(),
        }
    }

    /// `textDocument/completion`.
    fn completion(&self, p: &lsp_types::CompletionParams) -> Vec<lsp_types::CompletionItem> {
        match self.at(&p.text_document_position) {
            Some((a, c)) => completion::complete(&a, &c),
            None => Vec::new(),
        }
    }

    /// `textDocument/documentSymbol`: the file's cards and declarations.
    fn outline(&self, p: &lsp_types::DocumentSymbolParams) -> Vec<lsp_types::DocumentSymbol> {
        let Ok(path) = p.text_document.uri.to_file_path() else {
            return Vec::new();
        };
        if path.extension().is_none_or(|x| x != "fuda") {
            return Vec::new();
        }
        outline::symbols(&Analysis::of_file(&path, &self.docs))
    }

    /// `textDocument/codeAction`: quick fixes.
    fn code_action(&self, p: &lsp_types::CodeActionParams) -> Vec<lsp_types::CodeAction> {
        let Ok(path) = p.text_document.uri.to_file_path() else {
            return Vec::new();
        };
        if path.extension().is_none_or(|x| x != "fuda") {
            return Vec::new();
        }
        code_action::quick_fixes(&Analysis::of_file(&path, &self.docs), p.range)
    }

    /// `textDocument/formatting`: the open document's text, else the file's on disk.
    fn formatting(&self, p: &lsp_types::DocumentFormattingParams) -> Vec<lsp_types::TextEdit> {
        let uri = &p.text_document.uri;
        let path = uri.to_file_path().ok();
        if path
            .as_deref()
            .and_then(Path::extension)
            .is_none_or(|x| x != "fuda")
        {
            return Vec::new();
        }
        let text = match self.docs.get(uri) {
            Some(t) => t.to_string(),
            None => match path.and_then(|p| std::fs::read_to_string(p).ok()) {
                Some(t) => t,
                None => return Vec::new(),
            },
        };
        formatting::format(&text)
    }
}

/// What a check of the file at `uri` is filed under: a `.fuda` or `.rhai` file's pack folder
/// (every file of a pack gets the same check), else the file itself.
fn check_key(uri: &Url) -> PathBuf {
    let Ok(path) = uri.to_file_path() else {
        return PathBuf::from(uri.as_str());
    };
    let pack = match path.extension().is_some_and(|x| x == "fuda" || x == "rhai") {
        true => crate::packs::manifest::find_pack_dir(&path).and_then(|d| d.canonicalize().ok()),
        false => None,
    };
    pack.unwrap_or(path)
}

/// A request's parameters, or why they are not what its method takes.
fn params<P: DeserializeOwned>(req: &Request) -> Result<P, String> {
    serde_json::from_value(req.params.clone())
        .map_err(|e| format!("invalid parameters for `{}`: {e}", req.method))
}

/// An answer as JSON.
fn json<T: serde::Serialize>(answer: &T) -> serde_json::Value {
    serde_json::to_value(answer).unwrap_or(serde_json::Value::Null)
}

/// A notification's parameters.
fn notification_params<P: DeserializeOwned>(n: &Notification) -> Result<P, String> {
    serde_json::from_value(n.params.clone()).map_err(|e| e.to_string())
}

/// Sends a message (a closed connection ends the loop on the next receive).
fn send(conn: &Connection, msg: Message) {
    let _ = conn.sender.send(msg);
}
