//! The layers of `src/` use each other one way only (ARCHITECTURE.md, "The layers").
//!
//! Every path a module of the library names through `crate::` or `super::` — in a `use`
//! (groups expanded: `use crate::{a::b, c}` names `a::b` and `c`) or written inline in code
//! (`crate::ir::outline::card(c)`) — must fall inside a module its row of [`LAYERS`] allows, or
//! inside its own row's module. Comments and string literals are skipped. The table is the one
//! ARCHITECTURE.md shows: the test fails when the two differ, when a module of `src/` has no
//! row, or when a row names no module.

use std::collections::BTreeSet;
use std::path::Path;

/// Each row: a module (every module under it belongs to the row unless a longer row claims
/// it), and the modules it may use besides itself. A module may always name its own ancestors
/// (`super::*` in a submodule).
const LAYERS: &[(&str, &[&str])] = &[
    ("base::source", &[]),
    ("base::script", &[]),
    ("base::alloc", &[]),
    ("base::diagnostic", &["base::source"]),
    ("ir", &["base"]),
    ("compiler::lex", &["base"]),
    ("compiler::ast", &["base::source"]),
    ("compiler::script", &["base"]),
    (
        "compiler::parse",
        &["base", "compiler::lex", "compiler::ast"],
    ),
    (
        "compiler::resolve",
        &[
            "base",
            "ir",
            "compiler::ast",
            "compiler::parse",
            "compiler::script",
        ],
    ),
    (
        "compiler::format",
        &["base", "compiler::lex", "compiler::parse"],
    ),
    ("engine", &["base", "ir"]),
    ("packs::manifest", &["base"]),
    ("packs::deck", &["base", "ir"]),
    ("packs::cache", &["base", "ir", "compiler"]),
    ("packs::template", &["base", "packs::manifest"]),
    (
        "packs::session",
        &[
            "base",
            "ir",
            "compiler",
            "engine",
            "packs::manifest",
            "packs::cache",
            "packs::deck",
        ],
    ),
    ("tools::scenario", &["base"]),
    (
        "tools::runner",
        &["base", "ir", "engine", "packs", "tools::scenario"],
    ),
    ("tools::sim", &["base", "ir", "engine", "packs"]),
    ("tools::play", &["base", "ir", "engine"]),
    ("tools::render", &["base", "ir", "packs"]),
    ("tools::proof", &["base", "ir", "packs", "tools::render"]),
    ("tools::words", &["base", "ir", "compiler", "packs"]),
    (
        "tools::lsp",
        &[
            "base",
            "ir",
            "compiler",
            "packs",
            "tools::render",
            "tools::words",
            "tools::scenario",
            "tools::runner",
        ],
    ),
];

/// Module files that only declare their submodules (and a doc): they belong to no row.
const DECLARATION_ONLY: &[&str] = &["", "base", "compiler", "packs", "tools"];

/// One use of a module the row does not allow.
#[derive(Debug, PartialEq, Eq)]
struct Violation {
    /// The module that names the other.
    from: String,
    /// The path it names.
    used: String,
    /// 1-based line of the use.
    line: usize,
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let mut violations = Vec::new();
    let mut rows_used = BTreeSet::new();
    for (path, module) in library_modules() {
        let text = std::fs::read_to_string(&path).expect("readable source");
        if DECLARATION_ONLY.contains(&module.as_str()) {
            let found = check_module(&module, &text, &[]);
            violations.extend(found);
            continue;
        }
        let Some((row, _)) = row_of(&module, LAYERS) else {
            panic!("`{module}` ({path}) has no row in LAYERS: add it, with what it may use, here and in ARCHITECTURE.md");
        };
        rows_used.insert(row);
        violations.extend(check_module(&module, &text, LAYERS));
    }
    let shown: Vec<String> = violations
        .iter()
        .map(|v| format!("{} (line {}) uses `crate::{}`", v.from, v.line, v.used))
        .collect();
    assert!(
        shown.is_empty(),
        "uses against the layering (ARCHITECTURE.md, \"The layers\"):\n{}",
        shown.join("\n")
    );
    let stale: Vec<&str> = LAYERS
        .iter()
        .map(|(row, _)| *row)
        .filter(|r| !rows_used.contains(r))
        .collect();
    assert!(stale.is_empty(), "rows of LAYERS with no module: {stale:?}");
}

#[test]
fn architecture_md_shows_the_same_table() {
    let doc = std::fs::read_to_string("ARCHITECTURE.md").expect("ARCHITECTURE.md");
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in doc.lines() {
        if line.starts_with("| module | may use") {
            in_table = true;
            continue;
        }
        if in_table && !line.starts_with('|') {
            break;
        }
        if !in_table || line.starts_with("|---") {
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let names = |cell: &str| -> Vec<String> {
            cell.split(',')
                .map(|c| c.trim().trim_matches('`').to_string())
                .filter(|c| !c.is_empty() && c != "—")
                .collect()
        };
        let module = names(cells[1]).concat();
        rows.push((module, names(cells[2])));
    }
    let expected: Vec<(String, Vec<String>)> = LAYERS
        .iter()
        .map(|(m, uses)| (m.to_string(), uses.iter().map(|u| u.to_string()).collect()))
        .collect();
    assert_eq!(
        rows, expected,
        "ARCHITECTURE.md's \"| module | may use |\" table and LAYERS differ"
    );
}

/// The checker itself: a back-reference of each form is found, an allowed use is not.
#[test]
fn a_back_reference_is_caught_in_every_form() {
    let engine_file = r#"
        use crate::ir::{self, Stmt};
        use crate::{base::source::Span, tools::sim};
        fn f() { crate::packs::session::Session::new(); }
        // crate::tools::play in a comment is no use
        const S: &str = "crate::tools::runner in a string is no use";
        mod inner {
            use super::super::super::compiler::parse::Rule;
        }
    "#;
    let found = check_module("engine::exec", engine_file, LAYERS);
    let used: Vec<(&str, usize)> = found.iter().map(|v| (v.used.as_str(), v.line)).collect();
    assert_eq!(
        used,
        [
            ("tools::sim", 3),
            ("packs::session::Session::new", 4),
            ("compiler::parse::Rule", 8),
        ]
    );
    let fine =
        "use super::*;\nuse crate::base::diagnostic::{self, codes};\nuse crate::compiler::lex;";
    assert_eq!(check_module("compiler::parse", fine, LAYERS), []);
    assert_eq!(
        check_module("compiler::lex", "use crate::compiler::parse;", LAYERS),
        [Violation {
            from: "compiler::lex".into(),
            used: "compiler::parse".into(),
            line: 1
        }]
    );
}

/// Every `.rs` file of the library with its module path (`src/engine/eval.rs` → `engine::eval`,
/// `src/ir/mod.rs` → `ir`, `src/lib.rs` → ``). `main.rs` is the binary, not the library.
fn library_modules() -> Vec<(String, String)> {
    let mut files = Vec::new();
    collect(Path::new("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|p| p != "src/main.rs")
        .map(|p| {
            let rel = p.trim_start_matches("src/").trim_end_matches(".rs");
            let rel = rel.trim_end_matches("/mod");
            let module = if rel == "lib" {
                String::new()
            } else {
                rel.replace('/', "::")
            };
            (p, module)
        })
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The longest row of `layers` that `module` is in.
fn row_of<'a>(
    module: &str,
    layers: &'a [(&'a str, &'a [&'a str])],
) -> Option<&'a (&'a str, &'a [&'a str])> {
    layers
        .iter()
        .filter(|(row, _)| within(module, row))
        .max_by_key(|(row, _)| row.len())
}

/// Whether `path` is the module `prefix` or inside it (segment-wise: `packs::deck` is not in
/// `packs::de`).
fn within(path: &str, prefix: &str) -> bool {
    prefix.is_empty()
        || path == prefix
        || path
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with("::"))
}

/// The uses in `text` (the source of `module`) that its row does not allow. With no rows
/// (a declaration-only module), any use of another module is one.
fn check_module(module: &str, text: &str, layers: &[(&str, &[&str])]) -> Vec<Violation> {
    let row = row_of(module, layers);
    let mut out = Vec::new();
    for (line, used) in crate_paths(module, text) {
        let ancestor = within(module, &used);
        let own = row.is_some_and(|(r, _)| within(&used, r));
        let allowed = row.is_some_and(|(_, uses)| uses.iter().any(|u| within(&used, u)));
        if !(ancestor || own || allowed) {
            out.push(Violation {
                from: module.to_string(),
                used,
                line,
            });
        }
    }
    out
}

/// Every crate path `text` names, made absolute (without `crate::`), with its 1-based line.
/// `super::` is resolved against the module the text is in, inline `mod x { … }` included.
fn crate_paths(module: &str, text: &str) -> Vec<(usize, String)> {
    let code = strip_comments_and_strings(text);
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    // The inline modules open at this point: (name, brace depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        let word_start = i == 0 || !is_ident(bytes[i - 1]);
        if word_start && (rest.starts_with("crate::") || rest.starts_with("super::")) {
            let here = current_module(module, &inline);
            let (paths, len) = use_tree(rest);
            for p in paths {
                if let Some(abs) = absolute(&here, &p) {
                    out.push((line_of(&code, i), abs));
                }
            }
            i += len.max(1);
            continue;
        }
        if word_start && rest.starts_with("mod ") {
            let name: String = rest[4..]
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let after = rest[4..].trim_start()[name.len()..].trim_start();
            if !name.is_empty() && after.starts_with('{') {
                inline.push((name, depth + 1));
            }
        }
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

fn current_module(file_module: &str, inline: &[(String, usize)]) -> Vec<String> {
    let mut m: Vec<String> = file_module
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    m.extend(inline.iter().map(|(n, _)| n.clone()));
    m
}

/// `crate::a::b` → `a::b`; `super::super::x` from `a::b::c` → `a::x`. `None` for paths that
/// climb above the crate root.
fn absolute(here: &[String], path: &str) -> Option<String> {
    let mut segs: Vec<&str> = path.split("::").collect();
    let mut base: Vec<String> = if segs.first() == Some(&"crate") {
        segs.remove(0);
        Vec::new()
    } else {
        here.to_vec()
    };
    while segs.first() == Some(&"super") {
        segs.remove(0);
        base.pop()?;
    }
    base.extend(
        segs.iter()
            .filter(|s| **s != "self" && **s != "*")
            .map(|s| s.to_string()),
    );
    Some(base.join("::"))
}

/// Reads a path or use tree at the start of `s` (`crate::a::{b, c::{d, e}}`, `super::x as y`)
/// and returns every full path in it, with the length read.
fn use_tree(s: &str) -> (Vec<String>, usize) {
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut prefix = String::new();
    loop {
        let start = i;
        while i < bytes.len() && (is_ident(bytes[i]) || bytes[i] == b'*') {
            i += 1;
        }
        prefix.push_str(&s[start..i]);
        let spaces = s[i..].len() - s[i..].trim_start().len();
        if s[i + spaces..].starts_with("::") {
            i += spaces + 2;
            i += s[i..].len() - s[i..].trim_start().len();
            if s[i..].starts_with('{') {
                let (paths, len) = group(&s[i..]);
                let base = prefix;
                return (
                    paths.into_iter().map(|p| format!("{base}::{p}")).collect(),
                    i + len,
                );
            }
            prefix.push_str("::");
        } else {
            return (vec![prefix], i);
        }
    }
}

/// Reads `{a, b::c, d::{e}}` and returns its paths, with the length read.
fn group(s: &str) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut i = 1;
    loop {
        i += s[i..].len() - s[i..].trim_start().len();
        if i >= s.len() || s[i..].starts_with('}') {
            return (out, (i + 1).min(s.len()));
        }
        let (paths, len) = use_tree(&s[i..]);
        out.extend(paths.into_iter().filter(|p| !p.is_empty()));
        i += len.max(1);
        // Skip an `as name` and the comma.
        while i < s.len() && !matches!(s.as_bytes()[i], b',' | b'}') {
            i += 1;
        }
        if s[i..].starts_with(',') {
            i += 1;
        }
    }
}

/// `text` with comments and the contents of string and char literals blanked out (newlines
/// kept, so lines still count).
fn strip_comments_and_strings(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    out.extend(b"  ");
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    out.extend(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(rest) {
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let open = 2 + hashes;
            out.extend(std::iter::repeat_n(b' ', open));
            i += open;
            while i < b.len() && !b[i..].starts_with(&close) {
                blank(&mut out, b[i]);
                i += 1;
            }
            out.extend(std::iter::repeat_n(b' ', close.len().min(b.len() - i)));
            i += close.len();
        } else if b[i] == b'"' || (b[i] == b'b' && rest.get(1) == Some(&b'"')) {
            let open = if b[i] == b'b' { 2 } else { 1 };
            out.extend(std::iter::repeat_n(b' ', open));
            i += open;
            while i < b.len() && b[i] != b'"' {
                let step = if b[i] == b'\\' { 2 } else { 1 };
                for _ in 0..step.min(b.len() - i) {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
            out.push(b' ');
            i += 1;
        } else if b[i] == b'\'' {
            // A char literal ('x', '\n', '\u{1F}') or a lifetime ('a): only the first is blanked.
            let len = char_literal_len(rest);
            out.extend(std::iter::repeat_n(b' ', len.max(1)));
            i += len.max(1);
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// `r"`, `r#"`, `br##"`…: the number of `#`s, when `s` starts a raw string.
fn raw_string_start(s: &[u8]) -> Option<usize> {
    let s = s.strip_prefix(b"b").unwrap_or(s);
    let s = s.strip_prefix(b"r")?;
    let hashes = s.iter().take_while(|c| **c == b'#').count();
    (s.get(hashes) == Some(&b'"')).then_some(hashes)
}

/// The byte length of the char literal `s` starts with, or 0 for a lifetime.
fn char_literal_len(s: &[u8]) -> usize {
    if s.get(1) == Some(&b'\\') {
        return s[2..].iter().position(|c| *c == b'\'').map_or(0, |p| p + 3);
    }
    let head = &s[..s.len().min(8)];
    let text = match std::str::from_utf8(head) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or(""),
    };
    let mut chars = text.char_indices().skip(1);
    match (chars.next(), chars.next()) {
        (Some(_), Some((at, '\''))) => at + 1,
        _ => 0,
    }
}
