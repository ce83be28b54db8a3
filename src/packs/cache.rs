//! The compiled-pack cache: an unchanged pack loads at deserialization speed.
//!
//! Entries are keyed by a hash of the pack's manifest and sources, of the keys
//! of every pack it requires, and of the compiler itself (version, IR version,
//! grammar). They live only in the user's cache folder (`FUDA_CACHE_DIR`, else
//! the platform cache folder + `fuda/`), never in a pack folder: an IR file
//! shipped inside a pack could be forged to skip every check. Only packs that
//! compiled without errors are stored; a corrupt or stale entry is ignored.

use crate::base::diagnostic::{codes, Code, Diagnostic, Label, Severity};
use crate::base::source::{FileId, Span};
use crate::compiler::resolve::{Compiled, Symbols};
use crate::ir;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What identifies this compiler build in cache keys: its version and a hash of its own
/// sources and grammar (computed by `build.rs`), so an entry written by any other build — a
/// fixed checker, a changed IR type — is never read back.
const COMPILER_FINGERPRINT: &str =
    concat!(env!("CARGO_PKG_VERSION"), "/", env!("FUDA_SOURCE_HASH"));

/// The length of the hash an entry's file begins with.
const HASH_LEN: usize = blake3::OUT_LEN;

/// A cache folder.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
}

/// A compiled pack as stored: file ids are relative to the pack's first file. The pack's cards
/// and its span table are not in the entry: their encodings follow it in the file, the cards'
/// one after another ([`ir::Cards::encode`]), then the table's, and are decoded when first
/// read (a card at a time). The file begins with the blake3 hash of the rest: bytes changed on
/// disk are found at load and the entry is ignored (a card is decoded only when read, too late
/// to compile the pack again).
#[derive(Serialize, Deserialize)]
struct Entry {
    /// The pack, with no cards.
    pack: ir::Pack,
    /// Where each card's encoding ends, and each card's normalized number.
    cards: ir::CardsIndex,
    symbols: Symbols,
    exact_names: Vec<(u32, String, Span)>,
    warnings: Vec<StoredDiagnostic>,
}

#[derive(Serialize, Deserialize)]
struct StoredDiagnostic {
    code: String,
    message: String,
    file: u32,
    span: Span,
    label: String,
    help: Option<String>,
    related: Vec<(u32, Span, String)>,
}

impl Cache {
    /// The cache in `dir`.
    pub fn new(dir: PathBuf) -> Self {
        Cache { dir }
    }

    /// The user's cache: `FUDA_CACHE_DIR`, else the platform cache folder. `None` when
    /// `FUDA_NO_CACHE` is set or no cache folder exists.
    pub fn from_env() -> Option<Cache> {
        if std::env::var_os("FUDA_NO_CACHE").is_some_and(|v| !v.is_empty()) {
            return None;
        }
        let dir = match std::env::var_os("FUDA_CACHE_DIR") {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ => dirs::cache_dir()?.join("fuda"),
        };
        Some(Cache::new(dir))
    }

    /// The key of a pack: its manifest, its files (paths and bytes), its requirements' keys, the compiler.
    pub fn key(manifest: &str, files: &[(String, Vec<u8>)], dep_keys: &[String]) -> String {
        let mut h = blake3::Hasher::new();
        h.update(COMPILER_FINGERPRINT.as_bytes());
        h.update(&ir::IR_VERSION.to_le_bytes());
        let mut field = |b: &[u8]| {
            h.update(&(b.len() as u64).to_le_bytes());
            h.update(b);
        };
        field(manifest.as_bytes());
        for (path, bytes) in files {
            // Only the path below the pack folder matters: a pack moved elsewhere stays cached.
            field(
                path.rsplit_once("/pack/")
                    .map(|(_, p)| p)
                    .unwrap_or(path)
                    .as_bytes(),
            );
            field(bytes);
        }
        for k in dep_keys {
            field(k.as_bytes());
        }
        h.finalize().to_hex().to_string()
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join("packs").join(format!("{key}.bin"))
    }

    /// Loads an entry; file ids are rebased onto `base` (the pack's first file in this session).
    /// `warnings` receives the pack's stored warnings.
    pub fn load(
        &self,
        key: &str,
        base: FileId,
        deps: &[&Compiled],
        warnings: &mut Vec<Diagnostic>,
    ) -> Option<Compiled> {
        let bytes = std::fs::read(self.path(key)).ok()?;
        let (hash, stored) = bytes.split_at_checked(HASH_LEN)?;
        if blake3::hash(stored).as_bytes() != hash {
            return None;
        }
        let (entry, tail): (Entry, &[u8]) = postcard::take_from_bytes(stored).ok()?;
        if entry.pack.ir_version != ir::IR_VERSION {
            return None;
        }
        let start = bytes.len().checked_sub(tail.len())?;
        let spans_start = start.checked_add(ir::Cards::encoded_len(&entry.cards))?;
        let bytes = std::sync::Arc::new(bytes);
        let spans = ir::SpanTable::from_encoded(bytes.clone(), spans_start..bytes.len())?;
        let mut pack = entry.pack;
        pack.cards = ir::Cards::from_encoded(entry.cards, bytes, start).ok()?;
        let rebase = |f: u32| FileId(base.0 + f);
        let mut symbols = Symbols::default();
        for d in deps {
            symbols.merge(&d.symbols);
        }
        let mut own = entry.symbols;
        for o in own.origins.values_mut() {
            o.file = rebase(o.file.0);
        }
        symbols.merge(&own);
        for w in entry.warnings {
            let code = codes::ALL
                .iter()
                .copied()
                .find(|c| c.0 == w.code)
                .unwrap_or(Code("fuda::cache::unknown"));
            warnings.push(Diagnostic {
                code,
                severity: Severity::Warning,
                message: w.message,
                primary: Label::new(rebase(w.file), w.span, w.label),
                help: w.help,
                related: w
                    .related
                    .into_iter()
                    .map(|(f, s, m)| Label::new(rebase(f), s, m))
                    .collect(),
                fixes: Vec::new(),
            });
        }
        Some(Compiled {
            pack,
            symbols,
            spans,
            exact_names: entry
                .exact_names
                .into_iter()
                .map(|(f, n, s)| (rebase(f), n, s))
                .collect(),
        })
    }

    /// Stores a compiled pack whose files are `base .. base + count`, with its warnings.
    pub fn store(
        &self,
        key: &str,
        compiled: &Compiled,
        base: FileId,
        count: u32,
        warnings: &[Diagnostic],
    ) {
        let own = |f: FileId| (f.0 >= base.0 && f.0 < base.0 + count).then(|| f.0 - base.0);
        let mut symbols = compiled.symbols.clone();
        symbols.origins.retain(|_, o| own(o.file).is_some());
        for o in symbols.origins.values_mut() {
            o.file = FileId(o.file.0 - base.0);
        }
        let Ok((cards, mut tail)) = compiled.pack.cards.encode() else {
            return;
        };
        let Ok(spans) = compiled.spans.encode() else {
            return;
        };
        tail.extend_from_slice(&spans);
        let p = &compiled.pack;
        let entry = Entry {
            pack: ir::Pack {
                ir_version: p.ir_version,
                name: p.name.clone(),
                version: p.version.clone(),
                game: p.game.clone(),
                requires: p.requires.clone(),
                ruleset: p.ruleset.clone(),
                cards: ir::Cards::default(),
                scripts: p.scripts.clone(),
            },
            cards,
            symbols,
            exact_names: compiled
                .exact_names
                .iter()
                .filter_map(|(f, n, s)| own(*f).map(|f| (f, n.clone(), *s)))
                .collect(),
            warnings: warnings
                .iter()
                .filter_map(|d| {
                    let file = own(d.primary.file)?;
                    Some(StoredDiagnostic {
                        code: d.code.0.to_string(),
                        message: d.message.clone(),
                        file,
                        span: d.primary.span,
                        label: d.primary.message.clone(),
                        help: d.help.clone(),
                        related: d
                            .related
                            .iter()
                            .filter_map(|l| own(l.file).map(|f| (f, l.span, l.message.clone())))
                            .collect(),
                    })
                })
                .collect(),
        };
        let Ok(mut stored) = postcard::to_stdvec(&entry) else {
            return;
        };
        stored.extend_from_slice(&tail);
        let mut bytes = blake3::hash(&stored).as_bytes().to_vec();
        bytes.extend_from_slice(&stored);
        let path = self.path(key);
        if let Some(parent) = path.parent() {
            if std::fs::create_dir_all(parent).is_err() {
                return;
            }
        }
        // Write to a temporary file and rename, so a reader never sees half an entry.
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, bytes).is_ok() && std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}
