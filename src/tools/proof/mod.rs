//! `fuda proof`: card proofs as SVG, one per card and contact sheets per pack, laid out as the
//! game's `proof.toml` declares per card type (`layout`), the printed text (`tools::render`)
//! wrapped and shrunk to its box with the bundled font's metrics (`text`), written by `svg`;
//! `sheet` puts a pack's cards on pages. docs/proofs.md describes the layout format.

pub mod layout;
pub mod sheet;
pub mod svg;
pub mod text;

use crate::base::diagnostic::{codes, Diagnostic};
use crate::base::source::{SourceFile, Span};
use crate::ir::render::Lang;
use crate::ir::{Card, FieldType, Pack, Ruleset, Value};
use crate::packs::session::{file_id, Session};
use layout::{BoxSpec, Layout, Template};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use text::Metrics;

/// The name of a layout file, beside a pack's `pack.toml`.
pub const LAYOUT_FILE: &str = "proof.toml";

/// One card's proof.
#[derive(Debug, Clone)]
pub struct CardProof {
    /// The card's id.
    pub id: String,
    /// The file name (from the card's number, safe on any file system, unique in its pack).
    pub file_name: String,
    /// The frame's width and height.
    pub size: (f32, f32),
    /// The elements inside the frame, ids prefixed by nothing.
    pub body: String,
}

impl CardProof {
    /// The proof as a whole SVG document.
    pub fn svg(&self) -> String {
        format!(
            "{}{}</svg>\n",
            svg::open(self.size.0, self.size.1),
            self.body
        )
    }
}

/// The proofs of one pack.
#[derive(Debug, Clone)]
pub struct PackProofs {
    /// The pack's name (its folder in the output).
    pub pack: String,
    /// One proof per card, in source order.
    pub cards: Vec<CardProof>,
}

/// The proofs of the packs named, and the warnings found making them.
pub struct Proofs {
    /// Per pack.
    pub packs: Vec<PackProofs>,
    /// Text that did not fit, names lacking a phrase.
    pub warnings: Vec<Diagnostic>,
}

/// Makes the proofs of the packs `packs` (indices into the session) in `lang`. Each pack's
/// layout is its folder's `proof.toml`, else its game pack's, else the built-in default; a
/// layout's errors go to `s.diags` and leave that pack out.
pub fn proofs(s: &mut Session, packs: &[usize], lang: Lang) -> Proofs {
    let mut out = Proofs {
        packs: Vec::new(),
        warnings: Vec::new(),
    };
    let Some(metrics) = Metrics::bundled() else {
        return out;
    };
    for &i in packs {
        let Some(layout) = layout_of(s, i) else {
            continue;
        };
        let Some(compiled) = s.packs.get(i) else {
            continue;
        };
        let pack = &compiled.pack;
        let rulesets = game_rulesets(s, &pack.game);
        let mut names = BTreeSet::new();
        let mut cards = Vec::new();
        for (n, c) in pack.cards.iter().enumerate() {
            let values = values(s, pack, c, &rulesets, lang, &mut out.warnings);
            let ct = c.card_type.as_str();
            let mut maker = Maker {
                metrics: &metrics,
                layout: &layout,
                values: &values,
                lang,
                overflow: Vec::new(),
            };
            let (size, body) = maker.card(ct, "", accent(&layout, c, &rulesets));
            for text in maker.overflow {
                out.warnings.extend(overflow(s, i, c, &text));
            }
            cards.push(CardProof {
                id: c.id.to_string(),
                file_name: file_name(&c.number, n, &mut names),
                size,
                body,
            });
        }
        // One warning per declaration lacking a phrase, however many cards needed it.
        let mut seen = BTreeSet::new();
        out.warnings.retain(|d| {
            seen.insert((
                d.code.0,
                d.primary.file,
                d.primary.span.start,
                d.message.clone(),
            ))
        });
        out.packs.push(PackProofs {
            pack: pack.name.clone(),
            cards,
        });
    }
    out
}

/// The rulesets of `game` (the game's and its mod packs').
fn game_rulesets<'s>(s: &'s Session, game: &str) -> Vec<&'s Ruleset> {
    s.packs
        .iter()
        .filter(|p| p.pack.game == game)
        .filter_map(|p| p.pack.ruleset.as_ref())
        .collect()
}

/// The layout of pack `i`: read from its `proof.toml` or its game pack's, else the default;
/// `None` when the file has errors (pushed to `s.diags`).
fn layout_of(s: &mut Session, i: usize) -> Option<Layout> {
    let game = s.packs.get(i)?.pack.game.clone();
    let game_pack = s.packs.iter().position(|p| p.pack.name == game);
    let path = [Some(i), game_pack]
        .into_iter()
        .flatten()
        .filter_map(|p| s.pack_dir(p).map(|d| d.join(LAYOUT_FILE)))
        .find(|p| p.is_file());
    let Some(path) = path else {
        return Some(layout::default_layout());
    };
    let shown = path.display().to_string();
    if let Some(id) = file_id(&s.sources, &shown) {
        // Read already (a game pack's layout, for a second pack of the game).
        return read_layout(s, id, &game).0;
    }
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            let id = s.sources.add(SourceFile::new(shown.clone(), ""));
            let d = Diagnostic::error(
                codes::SOURCE_IO,
                id,
                Span::default(),
                format!("cannot read `{shown}`: {e}"),
                "unreadable",
            );
            s.diags.push(d);
            return None;
        }
    };
    let id = s.sources.add(SourceFile::new(shown, text));
    let (layout, diags) = read_layout(s, id, &game);
    s.diags.extend(diags);
    layout
}

/// The layout in the file `id`, checked against `game`'s card types.
fn read_layout(
    s: &Session,
    id: crate::base::source::FileId,
    game: &str,
) -> (Option<Layout>, Vec<Diagnostic>) {
    let text = s.sources.get(id).text.clone();
    layout::read(&text, id, &game_rulesets(s, game))
}

/// What a card's holes are filled with: the card values and its type's fields, in `lang`.
fn values(
    s: &Session,
    pack: &Pack,
    c: &Card,
    rulesets: &[&Ruleset],
    lang: Lang,
    warnings: &mut Vec<Diagnostic>,
) -> BTreeMap<String, Field> {
    let mut v = BTreeMap::new();
    let mut put = |k: &str, f: Field| {
        v.insert(k.to_string(), f);
    };
    put("name", Field::One(c.name.clone()));
    put("number", Field::One(c.number.clone()));
    put("pack", Field::One(pack.name.clone()));
    let ct = rulesets
        .iter()
        .flat_map(|r| &r.card_types)
        .find(|t| t.name.id == c.card_type);
    let type_name = ct.map_or_else(
        || layout::local(&c.card_type).to_string(),
        |t| {
            t.name
                .phrases
                .get(lang.code())
                .map(|p| p.text.clone())
                .or_else(|| t.name.label.clone())
                .unwrap_or_else(|| layout::local(&t.name.id).to_string())
        },
    );
    put("type", Field::One(type_name));
    let (text, missing) = super::render::render_card(s, c, &pack.game, lang);
    warnings.extend(missing);
    put("text", Field::One(text));
    let keywords_only = Card {
        abilities: Vec::new(),
        ..c.clone()
    };
    put(
        "keywords",
        Field::One(super::render::render_card(s, &keywords_only, &pack.game, lang).0),
    );
    let abilities_only = Card {
        keywords: Vec::new(),
        ..c.clone()
    };
    put(
        "abilities",
        Field::One(super::render::render_card(s, &abilities_only, &pack.game, lang).0),
    );
    let mut all = Vec::new();
    for f in ct.map(|t| t.fields.as_slice()).unwrap_or_default() {
        let (value, label) = match &f.ty {
            FieldType::Stat(id) => (c.stats.get(id), stat_label(rulesets, id, lang)),
            _ => (c.fields.get(f.name.as_str()), None),
        };
        if let Some(value) = value {
            let shown = match field(value) {
                Field::One(s) => s,
                Field::List(l) => l.join("・"),
            };
            all.push(format!("{} {shown}", label.unwrap_or(&f.name)));
            put(&f.name, field(value));
        }
    }
    put("fields", Field::List(all));
    v
}

/// How the stat `id` reads in `lang`: its phrase, else its label.
fn stat_label<'r>(rulesets: &[&'r Ruleset], id: &str, lang: Lang) -> Option<&'r str> {
    let stat = rulesets
        .iter()
        .flat_map(|r| &r.stats)
        .find(|s| s.name.id == id)?;
    stat.name
        .phrases
        .get(lang.code())
        .map(|p| p.text.as_str())
        .or(stat.name.label.as_deref())
}

/// A value to fill a hole with: one text, or a list's items.
#[derive(Debug, Clone)]
pub enum Field {
    /// One text.
    One(String),
    /// Items, joined by the box's `join`.
    List(Vec<String>),
}

/// A card value as text.
fn field(v: &Value) -> Field {
    match v {
        Value::Number(n) => Field::One(n.to_string()),
        Value::Text(t) => Field::One(t.clone()),
        Value::Bool(b) => Field::One(if *b { "✓".into() } else { String::new() }),
        Value::Pair(p) => Field::One(
            p.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("/"),
        ),
        Value::List(items) => Field::List(
            items
                .iter()
                .map(|i| match field(i) {
                    Field::One(s) => s,
                    Field::List(l) => l.join(" "),
                })
                .collect(),
        ),
    }
}

/// The accent colour of card `c`: its value of the layout's accent field, looked up.
fn accent<'l>(layout: &'l Layout, c: &Card, rulesets: &[&Ruleset]) -> &'l str {
    let frame = &layout.frame;
    let Some(name) = &frame.accent else {
        return frame.default_accent.get_ref();
    };
    let stat = rulesets
        .iter()
        .flat_map(|r| &r.card_types)
        .find(|t| t.name.id == c.card_type)
        .and_then(|t| t.fields.iter().find(|f| &f.name == name.get_ref()))
        .and_then(|f| match &f.ty {
            FieldType::Stat(id) => c.stats.get(id),
            _ => None,
        });
    let value = stat.or_else(|| c.fields.get(name.get_ref().as_str()));
    let key = match value.map(field) {
        Some(Field::One(s)) => s,
        Some(Field::List(l)) => l.first().cloned().unwrap_or_default(),
        None => String::new(),
    };
    frame
        .accents
        .get(&key)
        .unwrap_or(&frame.default_accent)
        .get_ref()
}

/// A file name for a card numbered `number` (the `n`th of its pack): the number with every
/// character but ASCII letters, digits, `-` and `_` made `_`, made unique (ignoring case) in
/// its pack by a suffix.
fn file_name(number: &str, n: usize, taken: &mut BTreeSet<String>) -> String {
    let mut base: String = number
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if base.trim_matches('_').is_empty() {
        base = format!("card-{}", n + 1);
    }
    let mut name = base.clone();
    let mut k = 2;
    while !taken.insert(name.to_ascii_lowercase()) {
        name = format!("{base}-{k}");
        k += 1;
    }
    format!("{name}.svg")
}

/// The warning for a card whose text `what` did not fit its box, at the card.
fn overflow(s: &Session, i: usize, c: &Card, what: &str) -> Option<Diagnostic> {
    let (path, start, end) = s.packs.get(i)?.spans.get(&format!("cards/{}", c.id))?;
    let file = file_id(&s.sources, path)?;
    // The card's name: its first string.
    let text = s
        .sources
        .get(file)
        .text
        .get(*start..*end)
        .unwrap_or_default();
    let name = text.find('"').and_then(|a| {
        let b = text.get(a + 1..)?.find('"')?;
        Some(Span::new(start + a, start + a + b + 2))
    });
    Some(
        Diagnostic::warning(
            codes::PROOF_OVERFLOW,
            file,
            name.unwrap_or(Span::new(*start, *start)),
            format!("the proof of `{}` ({}): {what}", c.name, c.number),
            "its text overflows",
        )
        .with_help("shorten the text, or give the box more room or a smaller `min_size` in proof.toml (docs/proofs.md)"),
    )
}

/// Lays out the cards of one pack.
struct Maker<'m> {
    metrics: &'m Metrics<'static>,
    layout: &'m Layout,
    values: &'m BTreeMap<String, Field>,
    lang: Lang,
    /// What did not fit, said for the warning.
    overflow: Vec<String>,
}

impl Maker<'_> {
    /// The frame's size and the SVG elements of a card of type `ct`; element ids start with
    /// `prefix`.
    fn card(&mut self, ct: &str, prefix: &str, accent: &str) -> ((f32, f32), String) {
        let t = self.layout.of(ct);
        let (w, h) = t.size;
        let mut out = String::new();
        svg::Rect {
            id: "",
            at: (2.0, 2.0, w - 4.0, h - 4.0),
            radius: (w.min(h) * 0.04).round(),
            fill: t.background,
            stroke: (t.border, 4.0),
        }
        .write(&mut out);
        for (n, b) in t.boxes.iter().enumerate() {
            self.box_(b, &format!("{prefix}b{n}"), accent, &mut out);
        }
        ((w, h), out)
    }

    /// One box: its rectangle, and its text fitted.
    fn box_(&mut self, b: &BoxSpec, id: &str, accent: &str, out: &mut String) {
        let text = match b.text.as_ref().map(toml::Spanned::get_ref) {
            None => Some(String::new()),
            Some(Template::One(t)) => self.fill(t, &b.join),
            Some(Template::PerLang(m)) => m
                .get(self.lang.code())
                .or_else(|| m.values().next())
                .and_then(|t| self.fill(t, &b.join)),
        };
        let Some(text) = text else { return };
        let colour = |c: &str| {
            if c == "accent" {
                accent.to_string()
            } else {
                c.to_string()
            }
        };
        let at = (
            *b.x.get_ref(),
            *b.y.get_ref(),
            *b.w.get_ref(),
            *b.h.get_ref(),
        );
        svg::Rect {
            id: &format!("{id}-box"),
            at,
            radius: *b.radius.get_ref(),
            fill: &colour(b.fill.get_ref()),
            stroke: (&colour(b.stroke.get_ref()), 2.0),
        }
        .write(out);
        if text.trim().is_empty() {
            return;
        }
        let size = *b.size.get_ref();
        let min = b.min_size.as_ref().map_or(size / 2.0, |m| *m.get_ref());
        // Bold: measured on the regular font (the only one bundled), with room for a viewer's
        // wider bold Latin letters.
        let narrower = if b.bold { 0.94 } else { 1.0 };
        let pad = *b.pad.get_ref();
        let inner = ((at.2 - 2.0 * pad) * narrower, at.3 - 2.0 * pad);
        let fitted = text::fit(self.metrics, &text, inner, (size, min), b.lines);
        if !fitted.fits {
            let first: String = text.chars().take(16).collect();
            self.overflow.push(format!(
                "“{first}…” does not fit its {} × {} box even at size {}",
                at.2, at.3, fitted.size
            ));
        }
        svg::Lines {
            id: &format!("{id}-text"),
            at: (at.0, at.1, at.2, at.3, pad),
            align: (b.align, b.valign),
            color: &colour(b.color.get_ref()),
            bold: b.bold,
        }
        .write(&fitted, out);
    }

    /// `template` with its holes filled; `None` when it has holes and the card has none of them.
    fn fill(&self, template: &str, join: &str) -> Option<String> {
        let holes = layout::holes(template);
        if !holes.is_empty() && holes.iter().all(|h| self.absent(h)) {
            return None;
        }
        let mut out = String::new();
        let mut rest = template;
        while let Some(i) = rest.find(['{', '}']) {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            if rest[i..].starts_with("{{") || rest[i..].starts_with("}}") {
                out.push_str(&rest[i..=i]);
                rest = &after[1..];
                continue;
            }
            match after.find('}') {
                Some(j) if rest[i..].starts_with('{') => {
                    out.push_str(&self.value(after[..j].trim(), join));
                    rest = &after[j + 1..];
                }
                _ => {
                    out.push_str(&rest[i..=i]);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        Some(out)
    }

    /// Whether the card has no value for `hole` (a field left out, an empty list); an empty
    /// text, as a card's with no ability, is a value.
    fn absent(&self, hole: &str) -> bool {
        match self.values.get(hole) {
            Some(Field::One(_)) => false,
            Some(Field::List(l)) => l.is_empty(),
            None => true,
        }
    }

    /// The text a hole is filled with.
    fn value(&self, hole: &str, join: &str) -> String {
        match self.values.get(hole) {
            Some(Field::One(s)) => s.clone(),
            Some(Field::List(l)) => l.join(join),
            None => String::new(),
        }
    }
}

/// Writes the proofs under `dir`: `<dir>/<pack>/<number>.svg` and the contact sheets
/// `<dir>/<pack>/sheet-<page>.svg` of `per_page` cards each; the files written, or the error
/// of the first file or folder that could not be written (`fuda::source::io`, at that path,
/// added to `s`'s sources).
pub fn write(
    s: &mut Session,
    proofs: &Proofs,
    dir: &Path,
    per_page: usize,
) -> Result<Vec<PathBuf>, Box<Diagnostic>> {
    let mut written = Vec::new();
    let mut io_error = |path: &Path, e: std::io::Error| {
        let shown = path.display().to_string();
        let id = s.sources.add(SourceFile::new(shown.clone(), ""));
        Box::new(
            Diagnostic::error(
                codes::SOURCE_IO,
                id,
                Span::default(),
                format!("cannot write `{shown}`: {e}"),
                "not written",
            )
            .with_help("`-o` names a folder `fuda proof` may create and write into"),
        )
    };
    for p in &proofs.packs {
        let folder = dir.join(&p.pack);
        std::fs::create_dir_all(&folder).map_err(|e| io_error(&folder, e))?;
        let pages = sheet::pages(p, per_page);
        let sheets = pages
            .iter()
            .enumerate()
            .map(|(n, page)| (format!("sheet-{}.svg", n + 1), page.clone()));
        let cards = p.cards.iter().map(|c| (c.file_name.clone(), c.svg()));
        for (name, svg) in cards.chain(sheets) {
            let path = folder.join(name);
            std::fs::write(&path, svg).map_err(|e| io_error(&path, e))?;
            written.push(path);
        }
    }
    Ok(written)
}
