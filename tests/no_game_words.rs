//! No game words in `src/` (ARCHITECTURE.md, "Rules the code keeps"). Every name the shipped
//! rulesets declare — zones, stats, states (groups and members), counters, keywords, ability
//! kinds, attributes, events, moments, phases, actions, rules, verbs, procedures, card types,
//! layers; the part of the id after `pack:` — is looked for as a whole word (not preceded or
//! followed by `[A-Za-z0-9_]`, case sensitive) in every file under `src/`. A hit fails the test,
//! and every offending `file:line` is printed.
//!
//! The rulesets name things with ordinary words (`use`, `end`, `set`, `rest`, `event`, `field`,
//! `cost`, `active`…), so a bare word match in Rust code and English prose is mostly noise
//! (about 55 names on 1,100 lines of `src/` when this test was written). A game word reaches
//! `src/` in three ways, and those are what count as hits:
//! - **text the code compares or looks up**: a string literal that *is* a name (`"field"`), and
//!   anywhere a qualified id (`"pmv:field"`, `pmv:underworld` in a comment). A Rust identifier
//!   cannot name a ruleset declaration, so identifiers are not words here: the engine can
//!   depend on a game's vocabulary only through text;
//! - **fuda quoted in docs and messages**: a name inside a `` `…` `` span of a comment or a
//!   string literal (examples like `` `x becomes sleep` `` in a help text, which a Weiss Schwarz
//!   designer reads as nonsense);
//! - **prose about one game**: a comment line that names a shipped game (`PMV`, `WS`, `PM`)
//!   and one of its words (`(PMV 3.3.6 hell)`).
//!
//! Some declared names are also the core's own words, and are not looked for: the words of
//! the fuda grammar (the quoted literals of `grammar/fuda.pest`: `counter`, `event`, `deck`…),
//! the names of the core meanings the IR defines (`activated`, `unnegatable`, `untargetable`,
//! `move`…: a ruleset maps its own names onto them, and PMV names its kinds after them), and the
//! few words of [`ALLOWED`], each with why. Keep that list tiny: a game word in `src/` belongs
//! in a ruleset.

use fuda::ir::{self, AttributeSemantics, CoreEvent, KeywordSemantics, Semantics};
use fuda::packs::Session;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The shipped game packs.
const GAMES: &[&str] = &["cards/pmv", "cards/ws", "cards/pm"];

/// Declared names the core uses in their own right, with why.
const ALLOWED: &[(&str, &str)] = &[
    (
        "field",
        "the language's card fields (`card_type x { cost: number }`, `c.cost`)",
    ),
    (
        "draw",
        "the scenario format's winner `draw` and Outcome::Draw, a game with no winner",
    ),
    (
        "end",
        "the log kind `end` (the game ended) and Rust ranges (`start..end`)",
    ),
    (
        "replace",
        "the log kind `replace` (a replacement effect applied)",
    ),
    ("play", "the `fuda play` command"),
    ("command", "a CLI subcommand (`deck_count(command, …)`)"),
];

/// The names of the core meanings the IR defines, as the IR writes them.
fn core_words() -> BTreeSet<String> {
    let mut values: Vec<serde_json::Value> = Vec::new();
    for s in [
        Semantics::Activated,
        Semantics::Triggered,
        Semantics::Continuous,
        Semantics::Replacement,
    ] {
        values.push(serde_json::to_value(s).expect("json"));
    }
    for a in [
        AttributeSemantics::Unnegatable,
        AttributeSemantics::Carried,
        AttributeSemantics::Response,
    ] {
        values.push(serde_json::to_value(a).expect("json"));
    }
    values.push(serde_json::to_value(KeywordSemantics::Untargetable).expect("json"));
    for e in [CoreEvent::Move, CoreEvent::Enter, CoreEvent::Leave] {
        values.push(serde_json::to_value(e).expect("json"));
    }
    values
        .into_iter()
        .map(|v| v.as_str().expect("a unit variant is a string").to_string())
        .collect()
}

/// The words of the fuda grammar: its quoted literals that are whole identifiers.
fn grammar_words() -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar/fuda.pest");
    let text = std::fs::read_to_string(&path).expect("grammar/fuda.pest");
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let mut chars = line.chars();
        let mut prev = ' ';
        while let Some(c) = chars.next() {
            if c == '/' && prev == '/' {
                break; // a comment
            }
            prev = c;
            if c != '"' {
                continue;
            }
            let mut lit = String::new();
            while let Some(x) = chars.next() {
                match x {
                    '\\' => {
                        chars.next();
                        lit.push('\\');
                    }
                    '"' => break,
                    x => lit.push(x),
                }
            }
            if lit.len() > 1 && lit.chars().all(is_word_char) {
                out.insert(lit);
            }
            prev = ' ';
        }
    }
    out
}

/// Where a name is declared: (game, what kind of declaration).
type Origins = BTreeMap<String, BTreeSet<(String, &'static str)>>;

/// The part of an id after `pack:`.
fn short(id: &str) -> &str {
    id.rsplit(':').next().unwrap_or(id)
}

/// Every name a ruleset declares, with what declares it.
fn declared(r: &ir::Ruleset, out: &mut Origins) {
    let mut add = |id: &str, what: &'static str| {
        out.entry(short(id).to_string())
            .or_default()
            .insert((r.id.clone(), what));
    };
    for z in &r.zones {
        add(&z.name.id, "zone");
    }
    for s in &r.stats {
        add(&s.name.id, "stat");
    }
    for g in &r.states {
        add(&g.name.id, "state");
        for m in &g.members {
            add(&m.id, "state");
        }
    }
    for c in &r.counters {
        add(&c.name.id, "counter");
    }
    for k in &r.keywords {
        add(&k.name.id, "keyword");
    }
    for k in &r.ability_kinds {
        add(&k.name.id, "ability kind");
    }
    for a in &r.attributes {
        add(&a.name.id, "attribute");
    }
    for e in &r.events {
        add(&e.name.id, "event");
    }
    for m in &r.moments {
        add(&m.id, "moment");
    }
    for p in &r.phases {
        add(&p.id, "phase");
    }
    for a in &r.actions {
        add(&a.name.id, "action");
    }
    for x in &r.rules {
        add(&x.name.id, "rule");
    }
    for v in &r.verbs {
        add(&v.name.id, "verb");
    }
    for p in &r.procedures {
        add(&p.name.id, "procedure");
    }
    for t in &r.card_types {
        add(&t.name.id, "card type");
    }
    for l in &r.layers {
        add(&l.name.id, "layer");
    }
}

/// The names every shipped ruleset declares.
fn shipped_names() -> Origins {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut session = Session::new();
    session.skip_decks = true;
    for g in GAMES {
        session.check_path(&root.join(g));
    }
    session.finish();
    assert_eq!(session.error_count(), 0, "the shipped packs have errors");
    let mut out = Origins::new();
    let mut games = BTreeSet::new();
    for c in &session.packs {
        if let Some(r) = &c.pack.ruleset {
            games.insert(r.id.clone());
            declared(r, &mut out);
        }
    }
    assert_eq!(games.len(), GAMES.len(), "rulesets found: {games:?}");
    out
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Byte offsets where `word` occurs in `text` as a whole word.
fn whole_word_hits(text: &str, word: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let start = from + i;
        let end = start + word.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        if !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char) {
            out.push(start);
        }
        from = end.max(start + 1);
    }
    out
}

/// What a piece of a Rust source file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Code,
    /// The contents of a string literal (escapes left as written).
    Str,
    /// The text of a comment (`//`, `///`, `//!`, `/* */`), one piece per line.
    Comment,
}

/// A piece of a source file on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece {
    kind: Kind,
    line: usize,
    text: String,
}

/// Splits Rust source into code, string literals and comments, line by line (a multi-line
/// string or block comment gives one piece per line). Handles escapes, raw strings (`r#"…"#`),
/// byte strings, char literals (`'"'`) and lifetimes (`'a`); anything else is code.
fn pieces(src: &str) -> Vec<Piece> {
    let chars: Vec<char> = src.chars().collect();
    let mut out: Vec<Piece> = Vec::new();
    let mut line = 1;
    let mut cur = Piece {
        kind: Kind::Code,
        line,
        text: String::new(),
    };
    // Ends the current piece and starts one of `kind`.
    fn switch(out: &mut Vec<Piece>, cur: &mut Piece, kind: Kind, line: usize) {
        let done = std::mem::replace(
            cur,
            Piece {
                kind,
                line,
                text: String::new(),
            },
        );
        if !done.text.is_empty() {
            out.push(done);
        }
    }
    let mut i = 0;
    let n = chars.len();
    while i < n {
        let c = chars[i];
        if c == '\n' {
            let kind = cur.kind;
            switch(&mut out, &mut cur, kind, line + 1);
            line += 1;
            i += 1;
            continue;
        }
        match cur.kind {
            Kind::Code => {
                if c == '/' && chars.get(i + 1) == Some(&'/') {
                    switch(&mut out, &mut cur, Kind::Comment, line);
                    // the rest of the line
                    while i < n && chars[i] != '\n' {
                        cur.text.push(chars[i]);
                        i += 1;
                    }
                    switch(&mut out, &mut cur, Kind::Code, line);
                    continue;
                }
                if c == '/' && chars.get(i + 1) == Some(&'*') {
                    switch(&mut out, &mut cur, Kind::Comment, line);
                    let mut depth = 0usize;
                    while i < n {
                        if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                            depth += 1;
                            cur.text.push_str("/*");
                            i += 2;
                        } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                            depth -= 1;
                            cur.text.push_str("*/");
                            i += 2;
                            if depth == 0 {
                                break;
                            }
                        } else if chars[i] == '\n' {
                            switch(&mut out, &mut cur, Kind::Comment, line + 1);
                            line += 1;
                            i += 1;
                        } else {
                            cur.text.push(chars[i]);
                            i += 1;
                        }
                    }
                    switch(&mut out, &mut cur, Kind::Code, line);
                    continue;
                }
                // raw strings: r"…", r#"…"#, br#"…"#
                let prev_ident = i > 0 && is_word_char(chars[i - 1]);
                let raw_at = if !prev_ident && c == 'r' {
                    Some(i + 1)
                } else if !prev_ident && c == 'b' && chars.get(i + 1) == Some(&'r') {
                    Some(i + 2)
                } else {
                    None
                };
                if let Some(mut j) = raw_at {
                    let mut hashes = 0;
                    while chars.get(j) == Some(&'#') {
                        hashes += 1;
                        j += 1;
                    }
                    if chars.get(j) == Some(&'"') {
                        cur.text.extend(&chars[i..=j]);
                        switch(&mut out, &mut cur, Kind::Str, line);
                        i = j + 1;
                        loop {
                            if i >= n {
                                break;
                            }
                            if chars[i] == '"'
                                && (1..=hashes).all(|h| chars.get(i + h) == Some(&'#'))
                            {
                                switch(&mut out, &mut cur, Kind::Code, line);
                                cur.text.extend(&chars[i..=i + hashes]);
                                i += hashes + 1;
                                break;
                            }
                            if chars[i] == '\n' {
                                switch(&mut out, &mut cur, Kind::Str, line + 1);
                                line += 1;
                            } else {
                                cur.text.push(chars[i]);
                            }
                            i += 1;
                        }
                        continue;
                    }
                }
                if c == '"' {
                    cur.text.push('"');
                    switch(&mut out, &mut cur, Kind::Str, line);
                    i += 1;
                    while i < n {
                        match chars[i] {
                            '\\' => {
                                cur.text.push('\\');
                                if let Some(&e) = chars.get(i + 1) {
                                    if e == '\n' {
                                        switch(&mut out, &mut cur, Kind::Str, line + 1);
                                        line += 1;
                                    } else {
                                        cur.text.push(e);
                                    }
                                }
                                i += 2;
                            }
                            '"' => {
                                switch(&mut out, &mut cur, Kind::Code, line);
                                cur.text.push('"');
                                i += 1;
                                break;
                            }
                            '\n' => {
                                switch(&mut out, &mut cur, Kind::Str, line + 1);
                                line += 1;
                                i += 1;
                            }
                            x => {
                                cur.text.push(x);
                                i += 1;
                            }
                        }
                    }
                    continue;
                }
                if c == '\'' {
                    // a char literal ('x', '\n', '\'', '"') or a lifetime ('a)
                    if chars.get(i + 1) == Some(&'\\') {
                        let mut j = i + 2;
                        while j < n && chars[j] != '\'' && chars[j] != '\n' {
                            j += 1;
                        }
                        if j == i + 2 {
                            j += 1; // '\''
                            while j < n && chars[j] != '\'' {
                                j += 1;
                            }
                        }
                        cur.text.extend(&chars[i..=j.min(n - 1)]);
                        i = j + 1;
                        continue;
                    }
                    if chars.get(i + 2) == Some(&'\'') {
                        cur.text.extend(&chars[i..i + 3]);
                        i += 3;
                        continue;
                    }
                }
                cur.text.push(c);
                i += 1;
            }
            Kind::Str | Kind::Comment => unreachable!("strings and comments are read whole"),
        }
    }
    switch(&mut out, &mut cur, Kind::Code, line);
    out
}

/// The byte ranges of `` `…` `` spans in a text (an unclosed one runs to the end).
fn backtick_spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open = None;
    for (i, c) in text.char_indices() {
        if c == '`' {
            match open.take() {
                None => open = Some(i + 1),
                Some(s) => out.push((s, i)),
            }
        }
    }
    if let Some(s) = open {
        out.push((s, text.len()));
    }
    out
}

/// Why a word in a piece is a game word, if it is one (see the module docs).
fn game_word_in(piece: &Piece, word: &str, games: &[String]) -> Option<&'static str> {
    if piece.kind == Kind::Code {
        return None;
    }
    let text = piece.text.as_str();
    let hits = whole_word_hits(text, word);
    if hits.is_empty() {
        return None;
    }
    let qualified = hits
        .iter()
        .any(|&h| games.iter().any(|g| text[..h].ends_with(&format!("{g}:"))));
    if qualified {
        return Some("qualified id");
    }
    if piece.kind == Kind::Str {
        let inner = text.trim_matches('"');
        if inner == word {
            return Some("string literal");
        }
    }
    // `{field}` in a format string is a Rust argument, not text
    let hits: Vec<usize> = if piece.kind == Kind::Str {
        hits.into_iter()
            .filter(|&h| !text[..h].ends_with('{'))
            .collect()
    } else {
        hits
    };
    let spans = backtick_spans(text);
    if hits
        .iter()
        .any(|&h| spans.iter().any(|&(s, e)| h >= s && h + word.len() <= e))
    {
        return Some("quoted fuda");
    }
    if piece.kind == Kind::Comment
        && games
            .iter()
            .any(|g| !whole_word_hits(text, &g.to_uppercase()).is_empty())
    {
        return Some("prose about a game");
    }
    None
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn the_word_finder_respects_identifier_boundaries() {
    assert_eq!(whole_word_hits("let field = 1;", "field"), [4]);
    assert_eq!(
        whole_word_hits("fields field_x my_field xfield", "field"),
        Vec::<usize>::new()
    );
    assert_eq!(whole_word_hits("a.field(b) `field`", "field"), [2, 12]);
    assert_eq!(
        whole_word_hits("draw_game draw2 Draw", "draw"),
        Vec::<usize>::new()
    );
    assert_eq!(whole_word_hits("場field", "field"), [3]);
}

#[test]
fn the_splitter_finds_strings_and_comments() {
    let src = "let a = \"x \\\" `hell`\"; // PMV hell\nlet c = '\"'; let l: &'a str = r#\"q\n\"zone\"\"#; /* `deck`\n */ f(\"field\")";
    let ps = pieces(src);
    let got: Vec<(Kind, usize, &str)> = ps
        .iter()
        .map(|p| (p.kind, p.line, p.text.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Kind::Code, 1, "let a = \""),
            (Kind::Str, 1, "x \\\" `hell`"),
            (Kind::Code, 1, "\"; "),
            (Kind::Comment, 1, "// PMV hell"),
            (Kind::Code, 2, "let c = '\"'; let l: &'a str = r#\""),
            (Kind::Str, 2, "q"),
            (Kind::Str, 3, "\"zone\""),
            (Kind::Code, 3, "\"#; "),
            (Kind::Comment, 3, "/* `deck`"),
            (Kind::Comment, 4, " */"),
            (Kind::Code, 4, " f(\""),
            (Kind::Str, 4, "field"),
            (Kind::Code, 4, "\")"),
        ]
    );
    let games = vec!["pmv".to_string()];
    let why = |line: usize, kind: Kind, word: &str| {
        ps.iter()
            .filter(|p| p.line == line && p.kind == kind)
            .find_map(|p| game_word_in(p, word, &games))
    };
    assert_eq!(why(1, Kind::Str, "hell"), Some("quoted fuda"));
    assert_eq!(why(1, Kind::Comment, "hell"), Some("prose about a game"));
    assert_eq!(why(3, Kind::Str, "zone"), Some("string literal"));
    assert_eq!(why(3, Kind::Comment, "deck"), Some("quoted fuda"));
    assert_eq!(why(4, Kind::Str, "field"), Some("string literal"));
    let plain = Piece {
        kind: Kind::Comment,
        line: 1,
        text: "// the game is a draw; see pmv:draw".into(),
    };
    assert_eq!(game_word_in(&plain, "draw", &games), Some("qualified id"));
    let format = Piece {
        kind: Kind::Str,
        line: 1,
        text: "field `{field}` takes `{field:?}`, `field`".into(),
    };
    assert_eq!(whole_word_hits(&format.text, "field").len(), 4);
    assert_eq!(game_word_in(&format, "field", &games), Some("quoted fuda"));
    let format = Piece {
        kind: Kind::Str,
        line: 1,
        text: "field `{field}` takes `{field:?}`".into(),
    };
    assert_eq!(game_word_in(&format, "field", &games), None);
    let prose = Piece {
        kind: Kind::Comment,
        line: 1,
        text: "// the game is a draw".into(),
    };
    assert_eq!(game_word_in(&prose, "draw", &games), None);
}

#[test]
fn the_allowlist_names_declared_words() {
    let names = shipped_names();
    let (core, grammar) = (core_words(), grammar_words());
    for (word, why) in ALLOWED {
        assert!(
            names.contains_key(*word),
            "`{word}` is allowed ({why}) but no shipped ruleset declares it: drop it"
        );
        assert!(
            !core.contains(*word) && !grammar.contains(*word),
            "`{word}` is a core or grammar word already: drop it from ALLOWED"
        );
    }
    for w in ["activated", "unnegatable", "untargetable", "move"] {
        assert!(core.contains(w), "core words: {core:?}");
    }
    for w in ["counter", "event", "zone", "deck"] {
        assert!(grammar.contains(w), "grammar words: {grammar:?}");
    }
}

#[test]
fn no_ruleset_word_in_src() {
    let names = shipped_names();
    let games: Vec<String> = {
        let mut g: BTreeSet<String> = BTreeSet::new();
        for origins in names.values() {
            for (game, _) in origins {
                g.insert(game.clone());
            }
        }
        g.into_iter().collect()
    };
    let mut allowed: BTreeSet<String> = ALLOWED.iter().map(|(w, _)| w.to_string()).collect();
    allowed.extend(core_words());
    allowed.extend(grammar_words());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(&root.join("src"), &mut files);
    assert!(!files.is_empty(), "no file under src/");
    // word → ["src/x.rs:12 (why): the line"]
    let mut hits: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue; // not text
        };
        let rel = f.strip_prefix(root).unwrap_or(f).display().to_string();
        let lines: Vec<&str> = text.lines().collect();
        let ps = if rel.ends_with(".rs") {
            pieces(&text)
        } else {
            // any other file is read as prose with quoted fuda: one comment per line
            lines
                .iter()
                .enumerate()
                .map(|(i, l)| Piece {
                    kind: Kind::Comment,
                    line: i + 1,
                    text: (*l).to_string(),
                })
                .collect()
        };
        for word in names.keys() {
            if allowed.contains(word) {
                continue;
            }
            let mut seen: BTreeSet<usize> = BTreeSet::new();
            for p in &ps {
                if seen.contains(&p.line) {
                    continue;
                }
                if let Some(why) = game_word_in(p, word, &games) {
                    seen.insert(p.line);
                    let line = lines.get(p.line - 1).copied().unwrap_or("").trim();
                    hits.entry(word.as_str())
                        .or_default()
                        .push(format!("{rel}:{} ({why}): {line}", p.line));
                }
            }
        }
    }
    if hits.is_empty() {
        return;
    }
    let mut report = String::new();
    let mut total = 0;
    for (word, lines) in &hits {
        let origins: Vec<String> = names[*word]
            .iter()
            .map(|(g, what)| format!("{g} {what}"))
            .collect();
        report.push_str(&format!(
            "\n`{word}` ({}), {} line(s):\n",
            origins.join(", "),
            lines.len()
        ));
        for l in lines {
            report.push_str(&format!("  {l}\n"));
        }
        total += lines.len();
    }
    panic!(
        "{} ruleset word(s) on {total} line(s) under src/:{report}",
        hits.len()
    );
}
