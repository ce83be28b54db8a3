//! `fuda fmt` (`fuda::compiler::format`): over every `.fuda` file under `cards/` and `tests/`
//! (the error corpus included), formatting is idempotent, a file that does not parse is refused
//! (so left unchanged), and no layout is ever refused as unsafe; every shipped file is already in
//! the canonical layout, and a copy of every pack with its layout spoiled (indentation shifted,
//! trailing spaces, doubled blank lines, `a ,b`) compiles to the same IR and formats back to the
//! shipped text (as does every canonical file of the error corpus). Unit cases pin the tricky layouts; the command line's `--check`, `-` and
//! refusal of broken files are run for real.

use fuda::base::source::{FileId, SourceFile, SourceMap};
use fuda::compiler::format::{format_source, layout, FormatError};
use fuda::compiler::lex::{self, Token};
use fuda::packs::Session;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Every regular `.fuda` file under `dir`, in path order.
fn fuda_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable folder")
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            fuda_files(&p, out);
        } else if p.is_file() && p.extension().is_some_and(|x| x == "fuda") {
            out.push(p);
        }
    }
}

fn file_id(src: &str) -> FileId {
    SourceMap::new().add(SourceFile::new("t.fuda", src))
}

fn fmt(src: &str) -> Result<String, FormatError> {
    format_source(src, file_id(src))
}

/// The text of `src` with its layout spoiled in ways the formatter undoes: three more spaces of
/// indentation on every line, trailing spaces, each blank line doubled, and a space moved from
/// after a `,` to before it.
fn spoil(src: &str) -> String {
    let toks = lex::tokens(src);
    let mut out = String::from("   ");
    let mut i = 0;
    while i < toks.len() {
        let (tok, span) = toks[i];
        let text = &src[span.start..span.end];
        let next = toks.get(i + 1).map(|(_, s)| &src[s.start..s.end]);
        if tok == Ok(Token::Whitespace) && text.contains('\n') {
            let breaks = text.matches('\n').count();
            let tail = text.rsplit('\n').next().unwrap_or("");
            for _ in 0..(if breaks > 1 { 3 } else { 1 }) {
                out.push_str("  \n");
            }
            out.push_str("   ");
            out.push_str(tail);
        } else if tok == Ok(Token::Punct) && text == "," && next == Some(" ") {
            out.push_str(" ,");
            i += 1;
        } else {
            out.push_str(text);
        }
        i += 1;
    }
    out
}

#[test]
fn formatting_is_idempotent_and_refuses_only_broken_files() {
    let mut files = Vec::new();
    fuda_files(Path::new("cards"), &mut files);
    fuda_files(Path::new("tests"), &mut files);
    assert!(files.len() > 100, "only {} files found", files.len());
    let mut refused = 0;
    for path in &files {
        let Ok(src) = String::from_utf8(std::fs::read(path).expect("readable")) else {
            continue;
        };
        let once = layout(&src);
        assert_eq!(
            layout(&once),
            once,
            "{}: layout is not idempotent",
            path.display()
        );
        match fmt(&src) {
            Ok(out) => {
                let again = fmt(&out).expect("a formatted file formats again");
                assert_eq!(again, out, "{}: fmt(fmt(x)) != fmt(x)", path.display());
            }
            Err(FormatError::Syntax(diags)) => {
                assert!(diags.iter().any(|d| d.is_error()), "{}", path.display());
                refused += 1;
            }
            Err(FormatError::Unsafe(why)) => panic!("{}: {why}", path.display()),
        }
    }
    // The error corpus has files that do not parse; they are left as they are.
    assert!(refused >= 10, "only {refused} files refused");
}

#[test]
fn shipped_cards_are_in_the_canonical_layout() {
    let mut files = Vec::new();
    fuda_files(Path::new("cards"), &mut files);
    for path in &files {
        let src = std::fs::read_to_string(path).expect("utf-8");
        let out = fmt(&src).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        assert!(
            out == src,
            "{} is not formatted: run `fuda fmt cards`",
            path.display()
        );
    }
}

/// Copies `from` to `to`, every `.fuda` file spoiled by [`spoil`].
fn copy_spoiled(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("temp folder");
    for e in std::fs::read_dir(from).expect("readable").flatten() {
        let p = e.path();
        let dest = to.join(e.file_name());
        if p.is_dir() {
            copy_spoiled(&p, &dest);
        } else if p.extension().is_some_and(|x| x == "fuda") {
            let src = std::fs::read_to_string(&p).expect("utf-8");
            std::fs::write(&dest, spoil(&src)).expect("write");
        } else {
            std::fs::copy(&p, &dest).expect("copy");
        }
    }
}

/// The serialized IR of every pack a session over `path` compiles, by pack name.
fn packs_ir(path: &Path) -> Vec<(String, String)> {
    let mut s = Session::new();
    s.skip_decks = true;
    s.check_path(path);
    s.finish();
    assert_eq!(s.error_count(), 0, "{} has errors", path.display());
    let mut out: Vec<(String, String)> = s
        .packs
        .iter()
        .map(|p| {
            let ir = serde_json::to_string(&p.pack).expect("serializable");
            (p.pack.name.clone(), ir)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_spoiled_layout_compiles_the_same_and_formats_back() {
    let root = std::env::temp_dir().join(format!("fuda-fmt-{}", std::process::id()));
    for dir in ["cards", "tests/games"] {
        let copy = root.join(dir);
        copy_spoiled(Path::new(dir), &copy);
        assert_eq!(packs_ir(&copy), packs_ir(Path::new(dir)), "{dir}: spoiled");
        let mut files = Vec::new();
        fuda_files(&copy, &mut files);
        for path in &files {
            let spoiled = std::fs::read_to_string(path).expect("utf-8");
            let out = fmt(&spoiled).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            let rel = path.strip_prefix(&root).expect("under the copy");
            let shipped = std::fs::read_to_string(rel).expect("utf-8");
            assert!(out == shipped, "{}: does not format back", rel.display());
            std::fs::write(path, out).expect("write");
        }
        assert_eq!(
            packs_ir(&copy),
            packs_ir(Path::new(dir)),
            "{dir}: formatted"
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Every file the formatter accepts and finds canonical — the error corpus's included — comes
/// back from a spoiled layout to exactly its text.
#[test]
fn every_canonical_file_formats_back_from_a_spoiled_layout() {
    let mut files = Vec::new();
    fuda_files(Path::new("cards"), &mut files);
    fuda_files(Path::new("tests"), &mut files);
    let mut checked = 0;
    for path in &files {
        let Ok(src) = String::from_utf8(std::fs::read(path).expect("readable")) else {
            continue;
        };
        if fmt(&src).ok().as_deref() != Some(src.as_str()) {
            continue;
        }
        let back = fmt(&spoil(&src)).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        assert!(back == src, "{}: does not format back", path.display());
        checked += 1;
    }
    assert!(checked > 100, "only {checked} files checked");
}

#[test]
fn tricky_layouts() {
    let cases = [
        // Indentation by braces; trailing spaces; blank lines collapsed; trailing comments keep
        // their spacing, and get one space when they had none.
        (
            "\n\ncard \"a\" {   \n      number: \"1\"// why\n\n\n\n    power: +1/-1   // pair\n}\n\n",
            "card \"a\" {\n  number: \"1\" // why\n\n  power: +1/-1   // pair\n}\n",
        ),
        // Spacing of `,` and `:`; `±0`; 「」 strings and Japanese comments are tokens, untouched.
        (
            "card 「札」 {\n  cost : [a ,b,c]\n  x:-2/±0 // 攻撃力 、 耐久力\n}\n",
            "card 「札」 {\n  cost: [a, b, c]\n  x: -2/±0 // 攻撃力 、 耐久力\n}\n",
        ),
        // A multi-line condition keeps its alignment, shifted with its statement; nested blocks;
        // a closing brace first on its line.
        (
            "game g {\n    action a \"A\" for c in x\n        if p(c)\n           and (q(c)\n                or r) {\n      if y {\n  draw 1 }\n        }\n}\n",
            "game g {\n  action a \"A\" for c in x\n      if p(c)\n         and (q(c)\n              or r) {\n    if y {\n      draw 1 }\n  }\n}\n",
        ),
        // A block comment spanning lines is kept byte for byte, inside a block too.
        (
            "card \"b\" {\n      /* one   \n   two */ number: \"1\"\n}\n",
            "card \"b\" {\n  /* one   \n   two */ number: \"1\"\n}\n",
        ),
        // Line ends: CRLF becomes LF; a file without a final line end gets one.
        ("card \"c\" {\r\n  a: 1\r\n}", "card \"c\" {\n  a: 1\n}\n"),
    ];
    for (src, want) in cases {
        let out = layout(src);
        assert_eq!(out, want, "layout of {src:?}");
        assert_eq!(layout(&out), out, "idempotent on {src:?}");
    }
}

#[test]
fn comments_are_never_lost_or_moved() {
    let src = "// head\ncard \"a\" { // after the brace\n  /* before */ number: \"1\" /* mid */ // tail\n  // last in the card\n}\n// between\ncard \"b\" {\n}\n";
    let out = layout(src);
    let comments = |s: &str| -> Vec<String> {
        lex::tokens(s)
            .into_iter()
            .filter(|(t, _)| matches!(t, Ok(Token::LineComment | Token::BlockComment)))
            .map(|(_, sp)| s[sp.start..sp.end].to_string())
            .collect()
    };
    assert_eq!(comments(&out), comments(src));
    // Each stays on its line: the lines of the output are those of the input, reindented.
    let lines = |s: &str| -> Vec<String> { s.lines().map(|l| l.trim().to_string()).collect() };
    assert_eq!(lines(&out), lines(src));
}

#[test]
fn files_with_syntax_errors_are_refused() {
    for src in [
        "card \"a\" {\n  number: \n",
        "card \"a\" { cost 2 }\n",
        "card \"a\" { x: \"open }\n",
    ] {
        match fmt(src) {
            Err(FormatError::Syntax(diags)) => assert!(!diags.is_empty()),
            other => panic!("{src:?}: {other:?}"),
        }
    }
}

fn fuda(args: &[&str], stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fuda");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin.as_bytes()).expect("stdin");
    }
    let out = child.wait_with_output().expect("run fuda");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_command_line() {
    let dir = std::env::temp_dir().join(format!("fuda-fmt-cli-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).expect("temp folder");
    let messy = "card \"a\" {\n    number : \"1\"   \n}\n";
    let clean = "card \"a\" {\n  number: \"1\"\n}\n";
    let broken = "card \"b\" {\n    number: \"1\"\n";
    let a = dir.join("sub/a.fuda");
    let b = dir.join("b.fuda");
    let c = dir.join("c.fuda");
    let deck = dir.join("d.deck");
    std::fs::write(&a, messy).expect("write");
    std::fs::write(&b, broken).expect("write");
    std::fs::write(&c, clean).expect("write");
    std::fs::write(&deck, "   2 x   \n").expect("write");
    let d = dir.to_string_lossy().to_string();

    // --check lists what would change, changes nothing, and exits 1; the broken file's
    // diagnostics are printed.
    let (code, out, err) = fuda(&["fmt", "--check", &d], "");
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.trim(), a.to_string_lossy(), "{out}");
    assert!(err.contains("fuda::lex::unclosed"), "{err}");
    assert_eq!(std::fs::read_to_string(&a).expect("read"), messy);

    // Without --check the file is rewritten; the broken one and the deck are left as they are.
    let (code, _, err) = fuda(&["fmt", &d], "");
    assert_eq!(code, 1, "the broken file is an error: {err}");
    assert!(
        err.contains("1 file reformatted, 1 already formatted, 1 left untouched"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&a).expect("read"), clean);
    assert_eq!(std::fs::read_to_string(&b).expect("read"), broken);
    assert_eq!(std::fs::read_to_string(&deck).expect("read"), "   2 x   \n");
    std::fs::remove_file(&b).expect("remove");
    let (code, out, err) = fuda(&["fmt", "--check", &d], "");
    assert_eq!((code, out.as_str()), (0, ""), "{err}");

    // `-`: stdin to stdout; a broken input prints nothing on stdout and exits 1.
    let (code, out, err) = fuda(&["fmt", "-"], messy);
    assert_eq!((code, out.as_str()), (0, clean), "{err}");
    let (code, out, err) = fuda(&["fmt", "-"], broken);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("unclosed bracket"), "{err}");
    let (code, out, _) = fuda(&["fmt", "--check", "-"], messy);
    assert_eq!((code, out.as_str()), (1, ""));
    let (code, out, _) = fuda(&["fmt", "--check", "-"], clean);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, _, _) = fuda(&["fmt", "-", &d], "");
    assert_eq!(code, 2, "`-` with other paths is a usage error");
    let _ = std::fs::remove_dir_all(&dir);
}
