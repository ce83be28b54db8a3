//! The layout of a game's card proofs: `proof.toml` beside a pack's `pack.toml` (docs/proofs.md),
//! read and checked against the game's card types, or the built-in default when a game has none.
//! A layout is a frame (size, colours, an accent colour picked by a field's value) and boxes, per
//! card type or for every card type at once; a box shows a template of the card's values.

use crate::base::diagnostic::{closest, codes, Diagnostic};
use crate::base::source::{FileId, Span};
use crate::ir::{CardType, Ruleset};
use serde::Deserialize;
use std::collections::BTreeMap;

/// A value with its place in `proof.toml`.
type Spanned<T> = toml::Spanned<T>;

/// The default layout: a plain frame naming every value a card type has (`docs/proofs.md`).
pub const DEFAULT: &str = include_str!("default.toml");

/// A `proof.toml` as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutFile {
    /// The frame of every card type.
    #[serde(default)]
    pub frame: Frame,
    /// The boxes of every card type that lists none of its own.
    #[serde(default, rename = "box")]
    pub boxes: Vec<BoxSpec>,
    /// Card type id → its own frame and boxes.
    #[serde(default)]
    pub types: BTreeMap<Spanned<String>, TypeSpec>,
}

/// A card type's own layout.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeSpec {
    /// Its frame, when it differs from the common one (keys left out are the common frame's).
    pub frame: Option<FrameOverride>,
    /// Its boxes (none: the common boxes).
    #[serde(default, rename = "box")]
    pub boxes: Vec<BoxSpec>,
}

/// The frame: the card's size and colours.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    /// Width in user units (an SVG pixel).
    #[serde(default = "default_width")]
    pub width: Spanned<f32>,
    /// Height in user units.
    #[serde(default = "default_height")]
    pub height: Spanned<f32>,
    /// The card's background colour.
    #[serde(default = "default_background")]
    pub background: Spanned<String>,
    /// The colour of the card's outline.
    #[serde(default = "default_border")]
    pub border: Spanned<String>,
    /// A field whose value picks the accent colour (`accent` in a box's colours).
    pub accent: Option<Spanned<String>>,
    /// Field value → accent colour.
    #[serde(default)]
    pub accents: BTreeMap<String, Spanned<String>>,
    /// The accent colour of a card whose value has none.
    #[serde(default = "default_accent")]
    pub default_accent: Spanned<String>,
}

/// A card type's changes to the common frame.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameOverride {
    /// Width.
    pub width: Option<Spanned<f32>>,
    /// Height.
    pub height: Option<Spanned<f32>>,
    /// Background colour.
    pub background: Option<Spanned<String>>,
    /// Outline colour.
    pub border: Option<Spanned<String>>,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            width: default_width(),
            height: default_height(),
            background: default_background(),
            border: default_border(),
            accent: None,
            accents: BTreeMap::new(),
            default_accent: default_accent(),
        }
    }
}

fn unspanned<T>(v: T) -> Spanned<T> {
    Spanned::new(0..0, v)
}
fn default_width() -> Spanned<f32> {
    unspanned(630.0)
}
fn default_height() -> Spanned<f32> {
    unspanned(880.0)
}
fn default_background() -> Spanned<String> {
    unspanned("#ffffff".into())
}
fn default_border() -> Spanned<String> {
    unspanned("#333333".into())
}
fn default_accent() -> Spanned<String> {
    unspanned("#777777".into())
}

/// Where a box's lines go across it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Align {
    /// Left.
    #[default]
    Start,
    /// Centred.
    Middle,
    /// Right.
    End,
}

/// Where a box's lines go down it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VAlign {
    /// At its top.
    Top,
    /// Centred.
    #[default]
    Middle,
}

/// A box's template: one for every language, or one per language code.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Template {
    /// The same in every language.
    One(String),
    /// Language code → template.
    PerLang(BTreeMap<String, String>),
}

/// One box of a frame.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxSpec {
    /// Left edge.
    pub x: Spanned<f32>,
    /// Top edge.
    pub y: Spanned<f32>,
    /// Width.
    pub w: Spanned<f32>,
    /// Height.
    pub h: Spanned<f32>,
    /// What it shows: text with `{holes}` (docs/proofs.md); none: an empty box (a picture's place).
    pub text: Option<Spanned<Template>>,
    /// The font size to start from.
    #[serde(default = "default_size")]
    pub size: Spanned<f32>,
    /// The smallest font size it may shrink to (default: half of `size`).
    pub min_size: Option<Spanned<f32>>,
    /// At most this many lines (0: as many as fit).
    #[serde(default)]
    pub lines: usize,
    /// Across.
    #[serde(default)]
    pub align: Align,
    /// Down.
    #[serde(default)]
    pub valign: VAlign,
    /// Text colour (`accent`: the card's accent colour).
    #[serde(default = "default_color")]
    pub color: Spanned<String>,
    /// Background (`none`, a colour or `accent`).
    #[serde(default = "default_none")]
    pub fill: Spanned<String>,
    /// Outline (`none`, a colour or `accent`).
    #[serde(default = "default_none")]
    pub stroke: Spanned<String>,
    /// Corner radius.
    #[serde(default = "default_radius")]
    pub radius: Spanned<f32>,
    /// Bold text.
    #[serde(default)]
    pub bold: bool,
    /// Space between the box's edge and its text.
    #[serde(default = "default_pad")]
    pub pad: Spanned<f32>,
    /// What a list value's items are joined with.
    #[serde(default = "default_join")]
    pub join: String,
}

fn default_size() -> Spanned<f32> {
    unspanned(28.0)
}
fn default_color() -> Spanned<String> {
    unspanned("#111111".into())
}
fn default_none() -> Spanned<String> {
    unspanned("none".into())
}
fn default_pad() -> Spanned<f32> {
    unspanned(8.0)
}
fn default_radius() -> Spanned<f32> {
    unspanned(0.0)
}
fn default_join() -> String {
    "・".into()
}

/// What a font size is called in messages.
const FONT_SIZE: &str = "a font size";
/// The largest frame or box size a layout may give.
pub const MAX_SIZE: f32 = 20_000.0;
/// The largest font size a layout may give (shrinking goes down from it step by step).
pub const MAX_FONT_SIZE: f32 = 1_000.0;
/// The largest padding a box may give.
const MAX_PAD: f32 = 1_000.0;

/// The values every card has, besides its type's fields: `{name}`, `{number}`, `{type}`,
/// `{pack}`, `{text}` (keywords and abilities), `{keywords}`, `{abilities}`, `{fields}` (every
/// field of its type, each after its name or its stat's printed name).
pub const CARD_VALUES: &[&str] = &[
    "fields",
    "name",
    "number",
    "type",
    "pack",
    "text",
    "keywords",
    "abilities",
];

/// A checked layout: per card type id, its frame and boxes.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The common frame.
    pub frame: Frame,
    /// The common boxes.
    pub boxes: Vec<BoxSpec>,
    /// Card type id (`pack:name`) → its own layout.
    pub types: BTreeMap<String, TypeSpec>,
    /// The file it was read from (`None`: the built-in default).
    pub file: Option<FileId>,
}

/// One card type's frame and boxes, as a layout gives them.
pub struct TypeLayout<'l> {
    /// Width and height.
    pub size: (f32, f32),
    /// Background colour.
    pub background: &'l str,
    /// Outline colour.
    pub border: &'l str,
    /// The boxes.
    pub boxes: &'l [BoxSpec],
}

impl Layout {
    /// The frame and boxes of the card type `id`.
    pub fn of(&self, id: &str) -> TypeLayout<'_> {
        let spec = self.types.get(id);
        let o = spec.and_then(|t| t.frame.as_ref());
        let pick = |x: Option<&Spanned<f32>>, d: &Spanned<f32>| *x.unwrap_or(d).get_ref();
        TypeLayout {
            size: (
                pick(o.and_then(|o| o.width.as_ref()), &self.frame.width),
                pick(o.and_then(|o| o.height.as_ref()), &self.frame.height),
            ),
            background: o
                .and_then(|o| o.background.as_ref())
                .unwrap_or(&self.frame.background)
                .get_ref(),
            border: o
                .and_then(|o| o.border.as_ref())
                .unwrap_or(&self.frame.border)
                .get_ref(),
            boxes: match spec {
                Some(t) if !t.boxes.is_empty() => &t.boxes,
                _ => &self.boxes,
            },
        }
    }
}

/// The built-in default layout (it is checked by the tests, so reading it cannot fail).
pub fn default_layout() -> Layout {
    let file: LayoutFile = toml::from_str(DEFAULT).unwrap_or(LayoutFile {
        frame: Frame::default(),
        boxes: Vec::new(),
        types: BTreeMap::new(),
    });
    Layout {
        frame: file.frame,
        boxes: file.boxes,
        types: BTreeMap::new(),
        file: None,
    }
}

/// Reads `text` (the file `file`) as a layout of the game whose rulesets are `rulesets`: its
/// diagnostics, and the layout when it has no error.
pub fn read(text: &str, file: FileId, rulesets: &[&Ruleset]) -> (Option<Layout>, Vec<Diagnostic>) {
    let parsed: LayoutFile = match toml::from_str(text) {
        Ok(p) => p,
        Err(e) => {
            let span = e
                .span()
                .map_or(Span::default(), |r| Span::new(r.start, r.end));
            let d = Diagnostic::error(
                codes::PROOF_SYNTAX,
                file,
                span,
                format!("not a proof layout: {}", e.message()),
                "here",
            )
            .with_help(
                "docs/proofs.md lists the keys of `[frame]`, `[[box]]` and `[types.<card type>]`",
            );
            return (None, vec![d]);
        }
    };
    let mut c = Checker {
        file,
        diags: Vec::new(),
    };
    let card_types: Vec<&CardType> = rulesets.iter().flat_map(|r| &r.card_types).collect();
    let mut types = BTreeMap::new();
    c.frame(&parsed.frame, &card_types);
    let every: Vec<&str> = card_types
        .iter()
        .flat_map(|t| t.fields.iter().map(|f| f.name.as_str()))
        .collect();
    c.boxes(&parsed.boxes, &every, &parsed.frame, None);
    for (name, spec) in &parsed.types {
        let found = card_types
            .iter()
            .find(|t| local(&t.name.id) == name.get_ref());
        let Some(ct) = found else {
            c.unknown_type(name, &card_types);
            continue;
        };
        let fields: Vec<&str> = ct.fields.iter().map(|f| f.name.as_str()).collect();
        c.boxes(&spec.boxes, &fields, &parsed.frame, spec.frame.as_ref());
        if let Some(o) = &spec.frame {
            for v in [&o.width, &o.height].into_iter().flatten() {
                c.positive(v, "a frame's size");
            }
            for v in [&o.background, &o.border].into_iter().flatten() {
                c.colour(v, false);
            }
        }
        types.insert(ct.name.id.to_string(), spec.clone());
    }
    if c.diags.iter().any(Diagnostic::is_error) {
        return (None, c.diags);
    }
    let layout = Layout {
        frame: parsed.frame,
        boxes: parsed.boxes,
        types,
        file: Some(file),
    };
    (Some(layout), c.diags)
}

/// The name of an id after its pack (`pmv:unit` → `unit`).
pub fn local(id: &str) -> &str {
    id.rsplit_once(':').map_or(id, |(_, n)| n)
}

/// The checks of a parsed layout, with the diagnostics found so far.
struct Checker {
    file: FileId,
    diags: Vec<Diagnostic>,
}

fn span<T>(v: &Spanned<T>) -> Span {
    Span::new(v.span().start, v.span().end)
}

impl Checker {
    fn bad_value<T>(&mut self, v: &Spanned<T>, message: String, label: &str, help: &str) {
        let d = Diagnostic::error(codes::PROOF_BAD_VALUE, self.file, span(v), message, label)
            .with_help(help);
        self.diags.push(d);
    }

    /// A size above 0 and at most [`MAX_SIZE`] (a font size: [`MAX_FONT_SIZE`]).
    fn positive(&mut self, v: &Spanned<f32>, what: &str) {
        let max = if what == FONT_SIZE {
            MAX_FONT_SIZE
        } else {
            MAX_SIZE
        };
        let x = *v.get_ref();
        if !(x > 0.0 && x <= max) {
            let message = format!("{what} must be a number above 0 and at most {max}, not {x}");
            self.bad_value(
                v,
                message,
                "out of range",
                "sizes are in SVG user units (pixels): a 63 × 88 mm card is 630 × 880",
            );
        }
    }

    /// `#rrggbb`, or `none` and `accent` where a box's colour may be one.
    fn colour(&mut self, v: &Spanned<String>, in_box: bool) {
        let s = v.get_ref().as_str();
        let hex =
            s.len() == 7 && s.starts_with('#') && s.chars().skip(1).all(|c| c.is_ascii_hexdigit());
        if hex || in_box && (s == "none" || s == "accent") {
            return;
        }
        let also = if in_box { ", `none` or `accent`" } else { "" };
        self.bad_value(
            v,
            format!("`{s}` is not a colour"),
            "not a colour",
            &format!("write a colour as `#rrggbb`{also}"),
        );
    }

    fn frame(&mut self, f: &Frame, card_types: &[&CardType]) {
        self.positive(&f.width, "a frame's width");
        self.positive(&f.height, "a frame's height");
        for v in [&f.background, &f.border, &f.default_accent] {
            self.colour(v, false);
        }
        for v in f.accents.values() {
            self.colour(v, false);
        }
        if let Some(a) = &f.accent {
            let known: Vec<&str> = card_types
                .iter()
                .flat_map(|t| t.fields.iter().map(|f| f.name.as_str()))
                .collect();
            if !known.contains(&a.get_ref().as_str()) {
                self.unknown_field(a, a.get_ref(), &known, "no card type");
            }
        }
    }

    fn boxes(
        &mut self,
        boxes: &[BoxSpec],
        fields: &[&str],
        frame: &Frame,
        o: Option<&FrameOverride>,
    ) {
        let w = *o
            .and_then(|o| o.width.as_ref())
            .unwrap_or(&frame.width)
            .get_ref();
        let h = *o
            .and_then(|o| o.height.as_ref())
            .unwrap_or(&frame.height)
            .get_ref();
        for b in boxes {
            for (v, what) in [
                (&b.w, "a box's width"),
                (&b.h, "a box's height"),
                (&b.size, FONT_SIZE),
            ] {
                self.positive(v, what);
            }
            if let Some(m) = &b.min_size {
                self.positive(m, FONT_SIZE);
                if m.get_ref() > b.size.get_ref() {
                    let message = format!(
                        "`min_size` {} is above `size` {}",
                        m.get_ref(),
                        b.size.get_ref()
                    );
                    self.bad_value(
                        m,
                        message,
                        "above the size",
                        "the text shrinks from `size` down to `min_size`",
                    );
                }
            }
            let (x, y) = (*b.x.get_ref(), *b.y.get_ref());
            if !(x.is_finite() && y.is_finite())
                || x < 0.0
                || y < 0.0
                || x + b.w.get_ref() > w + 0.01
                || y + b.h.get_ref() > h + 0.01
            {
                let message = format!(
                    "the box at ({x}, {y}), {} × {}, leaves the {w} × {h} frame",
                    b.w.get_ref(),
                    b.h.get_ref()
                );
                self.bad_value(
                    &b.x,
                    message,
                    "outside the frame",
                    "keep every box inside the frame",
                );
            }
            for (v, what) in [(&b.pad, "pad"), (&b.radius, "radius")] {
                if !(0.0..=MAX_PAD).contains(v.get_ref()) {
                    let message = format!(
                        "a box's `{what}` must be a number from 0 to {MAX_PAD}, not {}",
                        v.get_ref()
                    );
                    self.bad_value(
                        v,
                        message,
                        "out of range",
                        "`pad` is the room between the box's edge and its text, `radius` its corners' radius",
                    );
                }
            }
            for v in [&b.color, &b.fill, &b.stroke] {
                self.colour(v, true);
            }
            if let Some(t) = &b.text {
                self.template(t, fields);
            }
        }
    }

    fn template(&mut self, t: &Spanned<Template>, fields: &[&str]) {
        let texts: Vec<&str> = match t.get_ref() {
            Template::One(s) => vec![s.as_str()],
            Template::PerLang(m) => {
                for lang in m.keys() {
                    if crate::ir::render::Lang::from_code(lang).is_none() {
                        let message = format!("no printed text in `{lang}`");
                        self.bad_value(
                            t,
                            message,
                            "unknown language",
                            "a box's text per language is keyed `ja` or `en`",
                        );
                    }
                }
                m.values().map(String::as_str).collect()
            }
        };
        for text in texts {
            for hole in holes(text) {
                if !CARD_VALUES.contains(&hole) && !fields.contains(&hole) {
                    let mut known: Vec<&str> = CARD_VALUES.to_vec();
                    known.extend(fields);
                    self.unknown_field(t, hole, &known, "the card type");
                }
            }
        }
    }

    fn unknown_field<T>(&mut self, v: &Spanned<T>, name: &str, known: &[&str], whose: &str) {
        let help = match closest(name, known.iter().copied()) {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!("a box may show {}", known.join(", ")),
        };
        let d = Diagnostic::error(
            codes::PROOF_UNKNOWN_FIELD,
            self.file,
            span(v),
            format!("`{name}`: {whose} has no such field"),
            "unknown field",
        )
        .with_help(help);
        self.diags.push(d);
    }

    fn unknown_type(&mut self, name: &Spanned<String>, card_types: &[&CardType]) {
        let known: Vec<&str> = card_types.iter().map(|t| local(&t.name.id)).collect();
        let help = match closest(name.get_ref(), known.iter().copied()) {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!("the game's card types: {}", known.join(", ")),
        };
        let d = Diagnostic::error(
            codes::PROOF_UNKNOWN_CARD_TYPE,
            self.file,
            span(name),
            format!("`{}` is no card type of the game", name.get_ref()),
            "unknown card type",
        )
        .with_help(help);
        self.diags.push(d);
    }
}

/// The `{holes}` of a template (`{{` and `}}` are plain braces).
pub fn holes(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        let after = &rest[i + 1..];
        if let Some(stripped) = after.strip_prefix('{') {
            rest = stripped;
            continue;
        }
        let Some(j) = after.find('}') else { break };
        out.push(after[..j].trim());
        rest = &after[j + 1..];
    }
    out
}
