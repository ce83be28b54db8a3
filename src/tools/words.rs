//! `fuda words`: every name a game and the packs loaded with it declare — zones, states, stats,
//! verbs… — with its printed name, its parameters and the rules its declaration cites.
//!
//! Read from the compiled packs (`Compiled`: the ruleset IR, and the symbols' record of where
//! each name was declared), never by parsing the rulesets again. The rules a declaration cites
//! come from its comment, read on the lossless token stream of its file: the `//` comment that
//! ends the line the name is declared on or, when that line has none, the run of comment-only
//! lines right above it (no blank line between). Rule numbers are the dotted numbers in that
//! comment (`6.2.4.b`, `3.1.6`). See docs/cli.md, "fuda words".

use crate::base::source::{FileId, SourceMap};
use crate::compiler::lex::{self, Token};
use crate::compiler::resolve::Compiled;
use crate::ir;
use crate::packs::Session;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The kinds of names, in the order they are listed (their documented names).
pub const KINDS: &[&str] = &[
    "zone",
    "slot_group",
    "state",
    "stat",
    "layer",
    "counter",
    "card_type",
    "keyword",
    "ability",
    "attribute",
    "event",
    "moment",
    "verb",
    "procedure",
    "action",
    "rule",
    "phase",
    "deck_format",
];

/// One declared name.
#[derive(Debug, Clone, Serialize)]
pub struct Word {
    /// Its kind (one of [`KINDS`]).
    pub kind: &'static str,
    /// The name as fuda source writes it.
    pub name: String,
    /// The pack that declares it.
    pub pack: String,
    /// Its printed name in the game's language, if declared.
    pub label: Option<String>,
    /// Its parameters (keywords, events, verbs, procedures), fields (card types), members
    /// (state groups) or slots (slot groups), as `name: type` where typed.
    pub params: Vec<String>,
    /// What else the declaration says (a zone's properties, an ability kind's semantics…).
    pub details: Vec<String>,
    /// The rule numbers its comment cites, in order.
    pub rules: Vec<String>,
    /// Its comment (see the module documentation), if any.
    pub comment: Option<String>,
    /// The file it is declared in, if known.
    pub file: Option<String>,
    /// The line of its name in that file (1-based), if known.
    pub line: Option<usize>,
}

/// Every name of one game.
#[derive(Debug, Clone, Serialize)]
pub struct Words {
    /// The game's id.
    pub game: String,
    /// The game's title, if declared.
    pub title: Option<String>,
    /// The packs read, in load order (the game's own pack first).
    pub packs: Vec<String>,
    /// The names, by kind (in [`KINDS`] order), then in declaration order.
    pub words: Vec<Word>,
}

/// Loads `game` (a pack name or a pack folder) into `session` and lists its names; `Err` says
/// why there is no game (the caller prints the session's diagnostics first).
pub fn load(session: &mut Session, game: &str) -> Result<Words, String> {
    let game_id = session.game_named(game)?;
    // a game named by name is loaded here (a folder was compiled by `game_named`)
    if !std::path::Path::new(game).exists() && session.require(game, None).is_none() {
        return Err(format!("no pack named `{game}` could be loaded"));
    }
    session.finish();
    if session.error_count() > 0 {
        return Err(format!("the packs of `{game_id}` have errors"));
    }
    Ok(collect(session, &game_id))
}

/// The names the loaded packs of `game` declare.
pub fn collect(session: &Session, game: &str) -> Words {
    let packs: Vec<&Compiled> = session
        .packs
        .iter()
        .filter(|c| c.pack.game == game)
        .collect();
    let mut comments = Comments::new(&session.sources);
    let mut words = Vec::new();
    for kind in KINDS {
        for c in &packs {
            if let Some(r) = &c.pack.ruleset {
                list_kind(kind, &c.pack.name, r, &mut words);
            }
        }
    }
    for w in &mut words {
        let origin = packs.iter().find_map(|c| origin(c, w, &session.sources));
        if let Some((file, offset)) = origin {
            comments.fill(w, file, offset);
        }
    }
    let title = packs
        .iter()
        .find_map(|c| c.pack.ruleset.as_ref().and_then(|r| r.title.clone()));
    Words {
        game: game.to_string(),
        title,
        packs: packs.iter().map(|c| c.pack.name.clone()).collect(),
        words,
    }
}

/// The namespace the checker records a kind's declarations under (`Symbols::origins`).
pub fn namespace(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "zone" => "zone",
        "state" => "state",
        "stat" => "stat",
        "layer" => "layer",
        "counter" => "counter",
        "card_type" => "card type",
        "keyword" => "keyword",
        "ability" => "ability kind",
        "attribute" => "attribute",
        "event" => "event",
        "moment" => "moment",
        "verb" => "verb",
        "procedure" => "procedure",
        "action" => "action",
        "rule" => "rule",
        "deck_format" => "deck format",
        _ => return None,
    })
}

/// Where `w` was declared in `c`'s files (a file and the byte offset of its name): from the
/// checker's record, else (phases, slot groups: names the record does not keep) the first
/// `phase <name>` / `group <name>` in the file of the `turn` block / of the group's zone.
fn origin(c: &Compiled, w: &Word, sources: &SourceMap) -> Option<(FileId, usize)> {
    if c.pack.name != w.pack {
        return None;
    }
    let at = |ns: &str, name: &str| {
        let key = (ns.to_string(), name.to_string());
        c.symbols.origins.get(&key).map(|o| (o.file, o.span.start))
    };
    if let Some(ns) = namespace(w.kind) {
        return at(ns, &w.name);
    }
    let (word, file) = match w.kind {
        "phase" => ("phase", at("block", "turn")?.0),
        _ => {
            let zone = w.details.first()?.strip_prefix("zone ")?;
            ("group", at("zone", zone)?.0)
        }
    };
    let text = &sources.get(file).text;
    let mut last: Option<&str> = None;
    for (tok, span) in lex::token_iter(text) {
        match tok {
            Ok(Token::Whitespace | Token::LineComment | Token::BlockComment) => continue,
            Ok(Token::Ident) => {
                let here = text.get(span.start..span.end).unwrap_or_default();
                if last == Some(word) && here == w.name {
                    return Some((file, span.start));
                }
                last = Some(here);
            }
            _ => last = None,
        }
    }
    None
}

/// `name: type` of a parameter (`card?`, `player | card`).
fn param(p: &ir::Param) -> String {
    let types: Vec<String> = p.types.iter().map(|t| snake(&format!("{t:?}"))).collect();
    let opt = if p.optional { "?" } else { "" };
    let default = if p.default.is_some() { " = …" } else { "" };
    format!("{}: {}{opt}{default}", p.name, types.join(" | "))
}

/// `CamelCase` → `camel_case`.
fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if ch.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(ch.to_lowercase());
    }
    out
}

/// The short name of an id (`pmv:deck` → `deck`).
fn short(id: &str) -> &str {
    id.rsplit(':').next().unwrap_or(id)
}

/// A new word of `kind` named by `l`, declared by `pack`.
fn word(kind: &'static str, pack: &str, l: &ir::Labelled) -> Word {
    Word {
        kind,
        name: short(&l.id).to_string(),
        pack: pack.to_string(),
        label: l.label.clone(),
        params: Vec::new(),
        details: Vec::new(),
        rules: Vec::new(),
        comment: None,
        file: None,
        line: None,
    }
}

/// Adds the words of `kind` that ruleset `r` (of pack `pack`) declares.
fn list_kind(kind: &str, pack: &str, r: &ir::Ruleset, out: &mut Vec<Word>) {
    match kind {
        "zone" => out.extend(r.zones.iter().map(|z| zone(pack, z))),
        "slot_group" => {
            for z in &r.zones {
                for g in &z.groups {
                    let l = ir::Labelled::new(g.name.clone().into(), g.label.clone());
                    let mut w = word("slot_group", pack, &l);
                    w.params = g.slots.clone();
                    w.details.push(format!("zone {}", short(&z.name.id)));
                    out.push(w);
                }
            }
        }
        "state" => out.extend(r.states.iter().map(|s| {
            let mut w = word("state", pack, &s.name);
            w.params = s.members.iter().map(labelled_text).collect();
            w.details.push(
                if s.members.is_empty() {
                    "flag"
                } else {
                    "exclusive group"
                }
                .to_string(),
            );
            w
        })),
        "stat" => out.extend(r.stats.iter().map(|s| stat(pack, s))),
        "layer" => out.extend(r.layers.iter().map(|l| {
            let mut w = word("layer", pack, &l.name);
            w.details = if l.ops.is_empty() {
                vec!["applied by name".to_string()]
            } else {
                vec![format!("operators {}", l.ops.join(" "))]
            };
            w
        })),
        "counter" => out.extend(r.counters.iter().map(|c| {
            let mut w = word("counter", pack, &c.name);
            let on: Vec<&str> = [(c.on_players, "player"), (c.on_cards, "card")]
                .iter()
                .filter(|(b, _)| *b)
                .map(|(_, s)| *s)
                .collect();
            w.details.push(format!("on {}", on.join(", ")));
            w
        })),
        "card_type" => out.extend(r.card_types.iter().map(|t| card_type(pack, t))),
        _ => list_more(kind, pack, r, out),
    }
}

/// [`list_kind`] for the kinds after card types.
fn list_more(kind: &str, pack: &str, r: &ir::Ruleset, out: &mut Vec<Word>) {
    match kind {
        "keyword" => out.extend(r.keywords.iter().map(|k| {
            let mut w = word("keyword", pack, &k.name);
            w.params = k.params.iter().map(param).collect();
            if let Some(s) = k.semantics {
                w.details.push(format!("= {}", snake(&format!("{s:?}"))));
            }
            w
        })),
        "ability" => out.extend(r.ability_kinds.iter().map(|a| {
            let mut w = word("ability", pack, &a.name);
            w.details
                .push(format!("= {}", snake(&format!("{:?}", a.semantics))));
            if let Some(z) = &a.from_zone {
                w.details.push(format!("from {}", short(z)));
            }
            if a.optional_cost {
                w.details.push("optional_cost".to_string());
            }
            w
        })),
        "attribute" => out.extend(r.attributes.iter().map(|a| {
            let mut w = word("attribute", pack, &a.name);
            w.details
                .push(format!("= {}", snake(&format!("{:?}", a.semantics))));
            w
        })),
        "event" => out.extend(r.events.iter().map(|e| {
            let mut w = word("event", pack, &e.name);
            w.params = e.params.iter().map(param).collect();
            if let Some(c) = e.core {
                w.details.push(format!("= {}", snake(&format!("{c:?}"))));
            }
            w
        })),
        "moment" => out.extend(r.moments.iter().map(|m| {
            let mut w = word("moment", pack, m);
            if r.default_duration.as_deref() == Some(m.id.as_str()) {
                w.details.push("the default duration".to_string());
            }
            w
        })),
        "verb" | "procedure" => {
            let list = if kind == "verb" {
                &r.verbs
            } else {
                &r.procedures
            };
            let kind = if kind == "verb" { "verb" } else { "procedure" };
            out.extend(list.iter().map(|p| {
                let mut w = word(kind, pack, &p.name);
                w.params = p.params.iter().map(param).collect();
                w
            }));
        }
        _ => list_flow(kind, pack, r, out),
    }
}

/// [`list_kind`] for the kinds of the game's flow: actions, rules, phases, deck formats.
fn list_flow(kind: &str, pack: &str, r: &ir::Ruleset, out: &mut Vec<Word>) {
    match kind {
        "action" => out.extend(r.actions.iter().map(|a| {
            let mut w = word("action", pack, &a.name);
            if let Some(v) = &a.var {
                w.details.push(format!("taken with a card ({v})"));
            }
            w
        })),
        "rule" => out.extend(r.rules.iter().map(|x| {
            let mut w = word("rule", pack, &x.name);
            if x.interrupt {
                w.details.push("interrupt".to_string());
            }
            w
        })),
        "phase" => out.extend(r.phases.iter().map(|p| word("phase", pack, p))),
        "deck_format" => out.extend(r.deck_formats().map(|f| {
            let l = ir::Labelled::new(f.name.clone().into(), f.label.clone());
            word("deck_format", pack, &l)
        })),
        _ => {}
    }
}

/// `name "label"`, or `name` when it has none.
fn labelled_text(l: &ir::Labelled) -> String {
    match &l.label {
        Some(label) => format!("{} \"{label}\"", short(&l.id)),
        None => short(&l.id).to_string(),
    }
}

/// A zone and its properties.
fn zone(pack: &str, z: &ir::Zone) -> Word {
    let mut w = word("zone", pack, &z.name);
    w.details
        .push(snake(&format!("{:?}", z.visibility)).to_string());
    w.details
        .push(if z.ordered { "ordered" } else { "unordered" }.to_string());
    w.details
        .push(if z.per_player { "per_player" } else { "shared" }.to_string());
    for (on, what) in [
        (z.bare_means_every, "bare_means_every"),
        (z.in_play, "in_play"),
        (z.to_owner, "to_owner"),
        (z.shuffle_when_seen, "shuffle_when_seen"),
    ] {
        if on {
            w.details.push(what.to_string());
        }
    }
    if !z.slots.is_empty() {
        w.params.clone_from(&z.slots);
        w.details.push(format!("{} slots", z.slots.len()));
    }
    w
}

/// A stat: its components, its floor.
fn stat(pack: &str, s: &ir::Stat) -> Word {
    let mut w = word("stat", pack, &s.name);
    if !s.components.is_empty() {
        let parts: Vec<&str> = s.components.iter().map(|c| short(c)).collect();
        w.details.push(format!("= {}", parts.join(" / ")));
    }
    if let Some(f) = s.floor {
        w.details.push(format!("floor {f}"));
    }
    w
}

/// A card type: its fields, and the type it counts as.
fn card_type(pack: &str, t: &ir::CardType) -> Word {
    let mut w = word("card_type", pack, &t.name);
    w.params = t
        .fields
        .iter()
        .map(|f| {
            let ty = match &f.ty {
                ir::FieldType::Number => "number",
                ir::FieldType::Text => "text",
                ir::FieldType::Bool => "bool",
                ir::FieldType::Stat(_) => "stat",
            };
            let mark = if f.list {
                "*"
            } else if f.optional {
                "?"
            } else {
                ""
            };
            format!("{}: {ty}{mark}", f.name)
        })
        .collect();
    if let Some(c) = &t.counts_as {
        let mut d = format!("= {}", short(&c.card_type));
        if let Some(z) = &c.zone {
            let _ = write!(d, " on {}", short(z));
        }
        if let Some(u) = &c.unless {
            let _ = write!(d, " unless {}", short(u));
        }
        w.details.push(d);
    }
    w
}

/// The comments of source files, read once per file from its lossless tokens.
struct Comments<'a> {
    /// The files.
    sources: &'a SourceMap,
    /// Per file: per line (0-based), its `//` comment's text and whether it has code.
    lines: HashMap<FileId, Vec<(Option<String>, bool)>>,
}

impl<'a> Comments<'a> {
    /// No file read yet.
    fn new(sources: &'a SourceMap) -> Self {
        Comments {
            sources,
            lines: HashMap::new(),
        }
    }

    /// The lines of `file`: each one's comment and whether it has code.
    fn lines_of(&mut self, file: FileId) -> &[(Option<String>, bool)] {
        let sources = self.sources;
        self.lines.entry(file).or_insert_with(|| {
            let f = sources.get(file);
            let count = f.text.lines().count().saturating_add(1);
            let mut lines: Vec<(Option<String>, bool)> = vec![(None, false); count];
            for (tok, span) in lex::token_iter(&f.text) {
                let line = f.line_col(span.start).0.saturating_sub(1);
                let Some(slot) = lines.get_mut(line) else {
                    continue;
                };
                match tok {
                    Ok(Token::Whitespace | Token::BlockComment) => {}
                    Ok(Token::LineComment) => {
                        let text = f.text.get(span.start..span.end).unwrap_or_default();
                        slot.0 = Some(text.trim_start_matches('/').trim().to_string());
                    }
                    _ => slot.1 = true,
                }
            }
            lines
        })
    }

    /// Fills in `w`'s file, line, comment and rules from its name at `offset` in `file`.
    fn fill(&mut self, w: &mut Word, file: FileId, offset: usize) {
        let f = self.sources.get(file);
        let line = f.line_col(offset).0;
        w.file = Some(f.path.clone());
        w.line = Some(line);
        let lines = self.lines_of(file);
        let at = line.saturating_sub(1);
        let comment = match lines.get(at) {
            Some((Some(c), _)) => Some(c.clone()),
            _ => {
                let mut above = Vec::new();
                let mut i = at;
                while i > 0 {
                    i -= 1;
                    match lines.get(i) {
                        Some((Some(c), false)) => above.push(c.clone()),
                        _ => break,
                    }
                }
                above.reverse();
                (!above.is_empty()).then(|| above.join(" "))
            }
        };
        w.rules = comment.as_deref().map(rule_numbers).unwrap_or_default();
        w.comment = comment;
    }
}

/// The dotted rule numbers in `text`, in order, each once: `6.2.4.b`, `3.1.6`, `12.4.1`
/// (digits, then at least one `.digits`, then optionally `.letter`).
pub fn rule_numbers(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let boundary = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.');
        if !(boundary && b[i].is_ascii_digit()) {
            i += 1;
            continue;
        }
        let start = i;
        let mut dots = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        while i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
            dots += 1;
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        let letter = i + 1 < b.len()
            && b[i] == b'.'
            && b[i + 1].is_ascii_lowercase()
            && b.get(i + 2).is_none_or(|c| !c.is_ascii_alphanumeric());
        if dots > 0 && letter {
            i += 2;
        }
        if dots > 0 {
            let n = text[start..i].to_string();
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// The heading of a kind's list (`zone` → `zones`).
fn heading(kind: &str) -> String {
    let plural = match kind {
        "ability" => "ability kinds".to_string(),
        "slot_group" => "slot groups".to_string(),
        "card_type" => "card types".to_string(),
        "deck_format" => "deck formats".to_string(),
        k => format!("{k}s"),
    };
    plural
}

impl Words {
    /// Keeps only the words of `kind`.
    pub fn only(&mut self, kind: &str) {
        self.words.retain(|w| w.kind == kind);
    }

    /// The words of each kind that has any, in [`KINDS`] order.
    fn by_kind(&self) -> Vec<(&'static str, Vec<&Word>)> {
        KINDS
            .iter()
            .map(|k| (*k, self.words.iter().filter(|w| w.kind == *k).collect()))
            .filter(|(_, ws): &(&str, Vec<&Word>)| !ws.is_empty())
            .collect()
    }

    /// The title line: `pmv "Phantom Magic Vision" (packs: pmv)`.
    fn title_line(&self) -> String {
        let title = self
            .title
            .as_ref()
            .map(|t| format!(" \"{t}\""))
            .unwrap_or_default();
        format!("{}{title} (packs: {})", self.game, self.packs.join(", "))
    }

    /// The plain-text listing: per kind, one line per name.
    pub fn render_human(&self) -> String {
        let mut out = self.title_line();
        out.push('\n');
        for (kind, ws) in self.by_kind() {
            let _ = write!(out, "\n{} ({})\n", heading(kind), ws.len());
            for w in ws {
                let mut line = format!("  {}", w.name);
                if !w.params.is_empty() {
                    let _ = write!(line, "({})", w.params.join(", "));
                }
                if let Some(l) = &w.label {
                    let _ = write!(line, " \"{l}\"");
                }
                if !w.details.is_empty() {
                    let _ = write!(line, "  [{}]", w.details.join(", "));
                }
                if !w.rules.is_empty() {
                    let _ = write!(line, "  rules {}", w.rules.join(", "));
                }
                if self.packs.len() > 1 {
                    let _ = write!(line, "  (pack {})", w.pack);
                }
                out.push_str(&line);
                out.push('\n');
            }
        }
        out
    }

    /// The Markdown page (`docs/words/<game>.md`): per kind, a table.
    pub fn render_markdown(&self) -> String {
        let mut out = format!(
            "# The words of {}\n\n<!-- Generated by `fuda words {} --format markdown`; do not edit. -->\n\n",
            self.title.as_deref().unwrap_or(&self.game),
            self.game
        );
        let _ = writeln!(
            out,
            "Every name the game `{}` declares (packs: {}), with its printed name, its parameters \
             and the rules its declaration's comment cites (see `fuda words` in \
             [`docs/cli.md`](../cli.md)).\n",
            self.game,
            self.packs.join(", ")
        );
        for (kind, ws) in self.by_kind() {
            let _ = writeln!(out, "## {} (`{kind}`)\n", heading(kind));
            out.push_str("| name | printed | parameters | details | rules | line |\n");
            out.push_str("|---|---|---|---|---|---|\n");
            for w in ws {
                let cell = |s: &str| s.replace('|', "\\|");
                let line = match (&w.file, w.line) {
                    (Some(f), Some(l)) => {
                        format!("{}:{l}", f.rsplit('/').next().unwrap_or(f))
                    }
                    _ => String::new(),
                };
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} | {} | {} |",
                    w.name,
                    cell(w.label.as_deref().unwrap_or("")),
                    cell(&w.params.join(", ")),
                    cell(&w.details.join(", ")),
                    w.rules.join(", "),
                    line
                );
            }
            out.push('\n');
        }
        out
    }
}
