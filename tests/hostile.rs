//! Hostile inputs: no input may make `fuda check` panic, overflow its stack or
//! hang. Each case below ends with at least one error diagnostic positioned
//! inside the offending file. Every input is generated in memory.
//!
//! The library is driven on a thread with the same 256 MB stack as `src/main.rs`
//! (debug frames are several times larger than release ones); the nesting
//! bounds of `lex::split` keep the real depth far below it.
//!
//! Timings are checked by hand with the release binary (no timing asserts here).

use fuda::base::diagnostic::{self, Diagnostic, RenderOptions};
use fuda::base::source::SourceMap;
use fuda::packs::{PackSource, Session};
use std::path::PathBuf;
use std::process::Command;

/// The stack `src/main.rs` gives the compiler thread.
const STACK: usize = 256 << 20;
const N: usize = 100_000;

/// A lone in-memory file.
fn lone(path: &str, bytes: Vec<u8>) -> PackSource {
    PackSource::in_memory(path, bytes)
}

/// A small self-contained ruleset, so the cases depend on no shipped pack.
const RULESET: &str = r#"game mini "Mini" {
  players 2
  zone deck "Deck" private ordered per_player
  zone hand "Hand" private per_player
  zone field "Field" public per_player
  zone grave "Grave" public per_player
  stat attack "Attack"
  counter damage "Damage" on player, card
  card_type character "Character" { cost: number  attack: stat }
  keyword pierce "Pierce"
  ability auto "Auto" = triggered
  ability act "Act" = activated
  event attacks(attacker: card, defender: card?) "Attacks"
  moment end_of_turn "End of turn"
  verb draw(n: number) "Draw" { move top n of you.deck to you.hand }
  verb destroy(c: card) "Destroy" { move c to owner(c).grave }
}
"#;

/// The ruleset and one valid card whose ability body is `body` (its lines indented).
fn card_with(body: &str) -> String {
    format!(
        "{RULESET}\ncard \"X\" {{\n  number: \"1\"\n  type: character\n  cost: 1\n  attack: 2\n  auto when this attacks {{\n    {body}\n  }}\n}}\n"
    )
}

/// A valid card exercising most statement forms.
fn valid_card() -> String {
    card_with(
        "may draw 1\n    \
         if count(character on opponent.field) >= 2 { draw 1 } else if true { draw 2 } else { draw 3 }\n    \
         destroy target 1 character on opponent.field\n    \
         let x = -(1 + 2) * 3\n    \
         opponent.damage += x",
    )
}

/// What one check left behind: the diagnostics, the sources and the checked file's text.
struct Checked {
    diags: Vec<Diagnostic>,
    sources: SourceMap,
    file: fuda::base::source::FileId,
    text: String,
}

impl Checked {
    /// Errors whose primary label is in the checked file.
    fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diags
            .iter()
            .filter(|d| d.is_error() && d.primary.file == self.file)
    }

    /// 1-based line and column of a diagnostic's primary label.
    fn line_col(&self, d: &Diagnostic) -> (usize, usize) {
        self.sources.get(self.file).line_col(d.primary.span.start)
    }

    fn summary(&self) -> String {
        self.diags
            .iter()
            .take(8)
            .map(|d| {
                let (l, c) = self
                    .sources
                    .get(d.primary.file)
                    .line_col(d.primary.span.start);
                format!(
                    "  {}:{l}:{c}: {}",
                    self.sources.get(d.primary.file).path,
                    d.message.chars().take(120).collect::<String>()
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Checks `bytes` as a lone file the way `fuda check <file>` does, on a big stack,
/// and renders the diagnostics the CLI would print.
fn check(name: &str, bytes: Vec<u8>) -> Checked {
    let path = format!("{name}.fuda");
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let mut s = Session::new();
            s.compile_source(lone(&path, bytes));
            s.finish();
            for d in s.diags.iter().take(50) {
                let _ = diagnostic::render(d, &s.sources, RenderOptions::plain());
            }
            let file =
                fuda::packs::session::file_id(&s.sources, &path).expect("the file is registered");
            let text = s.sources.get(file).text.to_string();
            Checked {
                diags: std::mem::take(&mut s.diags),
                sources: s.sources.clone(),
                file,
                text,
            }
        })
        .expect("spawn")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// Every label in the file lies inside it, on char boundaries; at least one error is
/// in the file, and (when `expect` is not empty) one of them says `expect`.
fn assert_positioned(c: &Checked, expect: &str) {
    for d in &c.diags {
        for l in std::iter::once(&d.primary).chain(&d.related) {
            if l.file != c.file {
                continue;
            }
            let s = l.span;
            assert!(
                s.start <= s.end && s.end <= c.text.len(),
                "span {s:?} outside the file ({} bytes): {}",
                c.text.len(),
                d.message
            );
            assert!(
                c.text.is_char_boundary(s.start) && c.text.is_char_boundary(s.end),
                "span {s:?} splits a char: {}",
                d.message
            );
        }
    }
    assert!(
        c.errors().next().is_some(),
        "no error in the file; got:\n{}",
        c.summary()
    );
    if !expect.is_empty() {
        assert!(
            c.errors().any(|d| d.message.contains(expect)),
            "no error says {expect:?}; got:\n{}",
            c.summary()
        );
    }
}

fn hostile(name: &str, src: String, expect: &str) -> Checked {
    let c = check(name, src.into_bytes());
    assert_positioned(&c, expect);
    c
}

/// A deterministic xorshift generator (no dependency needed).
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

// ───────────────────────────── baseline ─────────────────────────────

#[test]
fn the_valid_card_is_clean() {
    let c = check("valid", valid_card().into_bytes());
    assert!(
        c.diags.iter().all(|d| !d.is_error()),
        "expected no errors:\n{}",
        c.summary()
    );
}

#[test]
fn bom_and_crlf_check_clean_and_keep_line_numbers() {
    let crlf = valid_card().replace('\n', "\r\n");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(crlf.as_bytes());
    let c = check("bom_crlf", bytes);
    assert!(
        c.errors().next().is_none(),
        "BOM + CRLF file should be clean:\n{}",
        c.summary()
    );

    // An unknown verb on a known line and column.
    let lines: Vec<&str> = crlf.split("\r\n").collect();
    let n = lines
        .iter()
        .position(|l| l.contains("destroy target"))
        .expect("line");
    let col = lines[n].find("destroy").expect("col") + 1;
    let broken = crlf.replacen("destroy target", "obliterate target", 1);
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(broken.as_bytes());
    let c = check("bom_crlf_error", bytes);
    assert_positioned(&c, "obliterate");
    let d = c
        .errors()
        .find(|d| d.message.contains("obliterate"))
        .expect("error");
    assert_eq!(
        c.line_col(d),
        (n + 1, col),
        "BOM and CRLF must not shift positions"
    );

    // A lexical error on line 1, right after the BOM, is in column 1.
    let c = check("bom_first", b"\xEF\xBB\xBF@game mini\r\n".to_vec());
    assert_positioned(&c, "unexpected character");
    assert_eq!(c.line_col(c.errors().next().expect("error")), (1, 1));
}

#[test]
fn bounds_do_not_reject_ordinary_code() {
    // Many choices, unary minus and `may` in one block, one statement each.
    let body = "destroy target 1 character on opponent.field\n    opponent.damage += -1\n    may draw 1\n    ".repeat(60);
    let chain = format!(
        "if false {{ draw 1 }}{}",
        " else if false { draw 1 }".repeat(200)
    );
    let c = check(
        "ordinary",
        card_with(&format!("{body}{chain}")).into_bytes(),
    );
    assert!(
        c.errors().next().is_none(),
        "expected no errors:\n{}",
        c.summary()
    );
}

// ───────────────────────────── bytes ─────────────────────────────

#[test]
fn random_bytes() {
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let bytes: Vec<u8> = (0..N).map(|_| next() as u8).collect();
    let c = check("random", bytes);
    assert_positioned(&c, "");
    // Random printable ASCII: valid UTF-8, so it goes through the lexer and parser.
    let ascii: String = (0..N)
        .map(|_| (b' ' + (next() % 95) as u8) as char)
        .collect();
    hostile("random_ascii", ascii, "");
    // Random text behind a valid game header reaches the parser item by item.
    let pool: Vec<char> = "{}()[]\"「」/*\n ifelsemaytarget1-not.x:;,=+"
        .chars()
        .collect();
    let soup: String = (0..N)
        .map(|_| pool[(next() % pool.len() as u64) as usize])
        .collect();
    hostile(
        "random_soup",
        format!("{RULESET}card \"S\" {{\n{soup}\n}}\n"),
        "",
    );
}

#[test]
fn invalid_utf8() {
    let mut bytes = card_with("draw 1").into_bytes();
    let at = bytes.len() - 20;
    bytes.splice(at..at, [0xFF, 0xFE, 0xC3]);
    let c = check("invalid_utf8", bytes);
    assert_positioned(&c, "UTF-8");
    let d = c.errors().next().expect("error");
    assert_eq!(d.primary.span.start, at);
}

#[test]
fn nul_bytes() {
    let src = card_with("draw\0 1\0");
    let c = hostile("nul", src.clone(), "U+0000");
    let d = c.errors().next().expect("error");
    assert_eq!(d.primary.span.start, src.find('\0').expect("nul"));
}

// ───────────────────────────── nesting ─────────────────────────────

#[test]
fn nested_parentheses() {
    hostile(
        "parens",
        card_with(&format!("draw {}1{}", "(".repeat(N), ")".repeat(N))),
        "nesting too deep",
    );
    hostile(
        "parens_open",
        card_with(&format!("draw {}1", "(".repeat(N))),
        "",
    );
    hostile(
        "brackets",
        card_with(&format!("draw {}{}", "[".repeat(N), "]".repeat(N))),
        "nesting too deep",
    );
}

#[test]
fn nested_braces() {
    hostile(
        "braces",
        card_with(&format!("{}{}", "{".repeat(N), "}".repeat(N))),
        "nesting too deep",
    );
    hostile("braces_open", "{".repeat(N), "");
}

#[test]
fn nested_if() {
    hostile(
        "if",
        card_with(&format!(
            "{}draw 1{}",
            "if true { ".repeat(N),
            " }".repeat(N)
        )),
        "nesting too deep",
    );
    hostile(
        "if_words",
        card_with(&format!("{}true {{ draw 1 }}", "if ".repeat(N))),
        "",
    );
}

#[test]
fn unary_chains() {
    hostile(
        "neg",
        card_with(&format!("draw {}1", "-".repeat(N))),
        "nesting too deep",
    );
    hostile(
        "neg_spaced",
        card_with(&format!("draw {}1", "- ".repeat(N))),
        "nesting too deep",
    );
    hostile(
        "not",
        card_with(&format!("if {}true {{ draw 1 }}", "not ".repeat(N))),
        "nesting too deep",
    );
    hostile(
        "not_compare",
        card_with(&format!(
            "if {}true {{ draw 1 }}",
            "not x ==\n".repeat(N / 10)
        )),
        "nesting too deep",
    );
}

#[test]
fn may_chains() {
    hostile(
        "may",
        card_with(&format!("{}draw 1", "may ".repeat(N))),
        "`may`",
    );
    hostile(
        "may_who",
        card_with(&format!("{}draw 1", "may(you) ".repeat(N))),
        "`may`",
    );
}

#[test]
fn target_chains() {
    let c = hostile(
        "target",
        card_with(&format!(
            "destroy {}character on opponent.field",
            "target 1 ".repeat(N)
        )),
        "nesting too deep",
    );
    // The diagnostic sits on the first choice past the bound, on the card's line.
    let d = c.errors().next().expect("error");
    assert_eq!(c.line_col(d).0, RULESET.lines().count() + 8);
    hostile(
        "target_or",
        card_with(&format!("destroy {}x", "target 1\n x or\n ".repeat(N / 10))),
        "nesting too deep",
    );
    hostile(
        "target_who",
        card_with(&format!(
            "destroy {}x",
            "target (target 1 x) 1 ".repeat(N / 10)
        )),
        "nesting too deep",
    );
}

#[test]
fn else_if_chain() {
    hostile(
        "else_if",
        card_with(&format!(
            "if true {{ draw 1 }}{}",
            " else if true { draw 1 }".repeat(N)
        )),
        "`else if`",
    );
}

// ───────────────────────────── tokens ─────────────────────────────

#[test]
fn unterminated_strings_and_comments() {
    let c = hostile(
        "string",
        card_with("let x = \"abc\n    draw 1"),
        "unterminated string",
    );
    let d = c
        .errors()
        .find(|d| d.message.contains("unterminated"))
        .expect("error");
    assert_eq!(c.line_col(d), (RULESET.lines().count() + 8, 13));
    hostile(
        "string_eof",
        format!("{RULESET}card \"X"),
        "unterminated string",
    );
    hostile(
        "corner_string",
        card_with("let x = 「abc"),
        "unterminated string",
    );
    hostile(
        "comment",
        card_with("/* never closed"),
        "unterminated block comment",
    );
    hostile("comment_eof", "/*".to_string(), "");
}

#[test]
fn integers_beyond_64_bits() {
    hostile(
        "int",
        card_with("draw 99999999999999999999999999"),
        "too large",
    );
    hostile(
        "int_pair",
        card_with("draw 99999999999999999999/1"),
        "too large",
    );
    hostile("int_field", format!("{RULESET}card \"Y\" {{\n  number: \"2\"\n  type: character\n  cost: 18446744073709551616\n  attack: 1\n}}\n"), "too large");
}

#[test]
fn one_megabyte_lines() {
    // 500,000 member accesses on one line (this used to overflow the stack).
    hostile(
        "members",
        card_with(&format!("draw x{}", ".a".repeat(N * 5))),
        "`.member`",
    );
    // A 1 MB string, a 1 MB comment before an error, and 250,000 operators.
    hostile(
        "long_string",
        card_with(&format!("draw \"{}\"", "a".repeat(1 << 20))),
        "",
    );
    let c = hostile(
        "long_comment",
        card_with(&format!("// {}\n    obliterate 1", "a".repeat(1 << 20))),
        "obliterate",
    );
    let d = c
        .errors()
        .find(|d| d.message.contains("obliterate"))
        .expect("error");
    assert_eq!(c.line_col(d), (RULESET.lines().count() + 9, 5));
    hostile(
        "operators",
        card_with(&format!("draw 1{}", " + 1".repeat(N / 4))),
        "operators",
    );
}

#[test]
fn ten_megabytes_with_thousands_of_errors() {
    let mut src = String::from(RULESET);
    let filler = format!("  // {}\n", "x".repeat(3000));
    let mut i = 0;
    while src.len() < 10 << 20 {
        src.push_str(&format!("card \"C{i}\" {{\n{filler}  number: \"{i}\"\n  type: character\n  cost: 1\n  attack: 1\n  auto when this attacks {{ draw @ }}\n}}\n"));
        i += 1;
    }
    let c = hostile("ten_mb", src, "unexpected character");
    assert!(c.errors().count() >= 3000, "{} errors", c.errors().count());
    // The last card's error is reported on its own line.
    let last = c
        .errors()
        .filter(|d| d.message.contains("unexpected"))
        .map(|d| c.line_col(d))
        .max()
        .expect("error");
    assert_eq!(last.0, c.text.lines().count() - 1);
}

#[test]
fn tens_of_thousands_of_syntax_errors() {
    // Stray `)` close the card's braces, so every line becomes an item with a syntax
    // error (finding the offending token once re-lexed the rest of the file: quadratic).
    let c = hostile(
        "syntax_errors",
        card_with(&"draw or ) move move\n target\n ".repeat(N / 5)),
        "expected",
    );
    assert!(c.errors().count() >= N / 5, "{} errors", c.errors().count());
}

#[test]
fn degenerate_files() {
    for (name, src) in [
        ("empty", ""),
        ("bom_only", "\u{FEFF}"),
        ("spaces", "  \n\r\n\t"),
        ("game", "game"),
        ("card", "game mini\ncard"),
    ] {
        hostile(name, src.to_string(), "");
    }
}

// ───────────────────────────── the binary ─────────────────────────────

/// Runs `fuda check` on `bytes` written to a temporary file; returns exit code and stderr.
fn run_cli(name: &str, bytes: &[u8]) -> (Option<i32>, String, String) {
    let dir = std::env::temp_dir().join(format!("fuda-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path: PathBuf = dir.join(format!("{name}.fuda"));
    std::fs::write(&path, bytes).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_fuda"))
        .arg("check")
        .arg(&path)
        .env("FUDA_NO_CACHE", "1")
        .env("NO_COLOR", "1")
        .output()
        .expect("run fuda");
    let _ = std::fs::remove_file(&path);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        path.display().to_string(),
    )
}

/// Asserts exit code 1 and a `file:line:col` position in stderr (on `line` when given).
fn assert_cli_error(name: &str, bytes: &[u8], line: Option<usize>) -> String {
    let (code, stderr, path) = run_cli(name, bytes);
    assert_eq!(
        code,
        Some(1),
        "exit code; stderr:\n{}",
        stderr.chars().take(2000).collect::<String>()
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("internal error"),
        "{}",
        stderr.chars().take(2000).collect::<String>()
    );
    let positions: Vec<(usize, usize)> = stderr
        .match_indices(&format!("{path}:"))
        .filter_map(|(i, m)| {
            let rest = &stderr[i + m.len()..];
            let (l, rest) = rest.split_once(':')?;
            let c: String = rest.chars().take_while(char::is_ascii_digit).collect();
            Some((l.parse().ok()?, c.parse().ok()?))
        })
        .collect();
    assert!(
        !positions.is_empty(),
        "no `{path}:line:col` in stderr:\n{}",
        stderr.chars().take(2000).collect::<String>()
    );
    if let Some(line) = line {
        assert!(
            positions.iter().any(|(l, _)| *l == line),
            "no diagnostic on line {line}: {positions:?}"
        );
    }
    stderr
}

#[test]
fn cli_answers_hostile_files_with_exit_1_and_positions() {
    let mut next = xorshift(7);
    let random: Vec<u8> = (0..N).map(|_| next() as u8).collect();
    assert_cli_error("random", &random, None);
    let body_line = RULESET.lines().count() + 8;
    assert_cli_error(
        "parens",
        card_with(&format!("draw {}1{}", "(".repeat(N), ")".repeat(N))).as_bytes(),
        Some(body_line),
    );
    assert_cli_error(
        "targets",
        card_with(&format!("destroy {}x", "target 1 ".repeat(N))).as_bytes(),
        Some(body_line),
    );
    assert_cli_error(
        "unterminated",
        card_with("let x = \"abc\n    draw 1").as_bytes(),
        Some(body_line),
    );
    let crlf = card_with("obliterate 1").replace('\n', "\r\n");
    assert_cli_error(
        "crlf",
        [b"\xEF\xBB\xBF".as_slice(), crlf.as_bytes()]
            .concat()
            .as_slice(),
        Some(body_line),
    );
}

#[test]
fn cli_caps_printed_diagnostics() {
    let mut src = String::from(RULESET);
    for i in 0..1000 {
        src.push_str(&format!("card \"C{i}\" {{ number: \"{i}\" type: character cost: 1 attack: 1 auto when this attacks {{ draw @ }} }}\n"));
    }
    let stderr = assert_cli_error("many", src.as_bytes(), None);
    assert!(
        stderr.contains("more diagnostics not shown"),
        "{}",
        &stderr[stderr.len().saturating_sub(500)..]
    );
}

/// miette panics ("Formatting argument out of range") on a label past column 65,535 of a
/// line: the renderer (`src/diagnostic.rs`) must not hand it such a label.
#[test]
fn cli_error_far_along_a_long_line() {
    assert_cli_error(
        "far_column",
        card_with(&format!("draw{}x", " ".repeat(1 << 20))).as_bytes(),
        None,
    );
    let mut bytes = card_with(&"a".repeat(70_000)).into_bytes();
    bytes.extend_from_slice(b"\xFF");
    assert_cli_error("far_utf8", &bytes, None);
}
