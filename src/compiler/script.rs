//! Pack scripts at check time: each `.rhai` file of a pack is compiled once with the sandbox's
//! settings ([`crate::base::script::sandbox`]); a syntax error is a diagnostic at the script's
//! line and column, and the functions it defines (name and number of parameters) are what a
//! card's `script f(…)` statement may call (docs/language.md, "Scripts").

use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::script::{offset_of, sandbox};
use crate::base::source::{FileId, Span};

/// One checked script of a pack.
#[derive(Debug, Clone)]
pub struct Script {
    /// Its path inside the pack (`scripts/reveal.rhai`).
    pub path: String,
    /// Its text.
    pub source: String,
    /// Where its text is in the session's sources.
    pub file: FileId,
    /// The functions it defines: name, number of parameters, and where the name is.
    pub functions: Vec<(String, usize, Span)>,
}

/// Compiles one script (`path` inside its pack, `text` registered as `file`): its functions,
/// or `None` after a diagnostic at the syntax error.
pub fn check(path: &str, text: &str, file: FileId, diags: &mut Vec<Diagnostic>) -> Option<Script> {
    let engine = sandbox();
    match engine.compile(text) {
        Ok(ast) => {
            let functions = ast
                .iter_functions()
                .map(|f| {
                    let at = function_name_span(text, f.name);
                    (f.name.to_string(), f.params.len(), at)
                })
                .collect();
            Some(Script {
                path: path.to_string(),
                source: text.to_string(),
                file,
                functions,
            })
        }
        Err(e) => {
            let pos = e.1;
            let at = offset_of(text, pos.line().unwrap_or(1), pos.position().unwrap_or(1));
            let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
            diags.push(
                Diagnostic::error(
                    codes::SCRIPT_SYNTAX,
                    file,
                    Span::new(at, end),
                    format!("this script does not compile: {}", e.0),
                    "here",
                )
                .with_help(
                    "pack scripts are rhai with integers only, and no `import`, `eval` or \
                     closures (docs/language.md, \"Scripts\")",
                ),
            );
            None
        }
    }
}

/// Where `fn <name>` is written in a script (the name's span), or the start of the text.
fn function_name_span(text: &str, name: &str) -> Span {
    let mut from = 0;
    while let Some(i) = text[from..].find("fn ") {
        let at = from + i + 3;
        let rest = text[at..].trim_start();
        let start = text.len() - rest.len();
        if rest.starts_with(name)
            && !rest[name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            return Span::new(start, start + name.len());
        }
        from = at;
    }
    Span::new(0, 0)
}
