//! Text that fits a box: advances read from the bundled font (`fonts/FudaSansJP-Regular.otf`,
//! through skrifa, the font reader usvg itself lays text out with), lines broken at spaces in
//! Latin text and between any two characters in Japanese text except where kinsoku forbids (no
//! closing punctuation or small kana at a line's start, no opening bracket at its end), and the
//! font size lowered step by step until the lines fit the box.

use skrifa::instance::{LocationRef, Size};
use skrifa::{FontRef, MetadataProvider};

/// The bundled font: a subset of Noto Sans CJK JP (SIL OFL 1.1; `fonts/README.md`).
pub static FONT: &[u8] = include_bytes!("../../../fonts/FudaSansJP-Regular.otf");

/// The bundled font's family name, first in every font stack a proof names.
pub const FAMILY: &str = "Fuda Sans JP";

/// The font stack a proof's text names: the bundled family, then the system CJK fonts a
/// viewer may have (Debian: `fonts-noto-cjk`), then any sans-serif.
pub const FONT_STACK: &str =
    "'Fuda Sans JP', 'Noto Sans CJK JP', 'Noto Sans JP', 'Source Han Sans JP', sans-serif";

/// A glyph's top above the baseline, in ems, that a line leaves room for.
pub const ASCENT: f32 = 0.92;
/// A glyph's bottom below the baseline, in ems.
pub const DESCENT: f32 = 0.22;
/// The distance between two baselines, in ems.
pub const LINE_HEIGHT: f32 = 1.4;
/// The size step of shrinking, in user units.
const STEP: f32 = 0.5;
/// Room kept at a line's end for the shaper's rounding, as a share of the width.
const SLACK: f32 = 0.985;

/// Advances of the bundled font, in ems.
pub struct Metrics<'f> {
    /// The font.
    font: FontRef<'f>,
}

impl Metrics<'static> {
    /// The bundled font's metrics; `None` if the bundled file is not a font (a broken build).
    pub fn bundled() -> Option<Self> {
        FontRef::new(FONT).ok().map(|font| Metrics { font })
    }
}

impl Metrics<'_> {
    /// Whether the font has a glyph for `c`.
    pub fn has_glyph(&self, c: char) -> bool {
        self.font.charmap().map(c).is_some()
    }

    /// The advance of `c`, in ems (a character without a glyph counts as one em).
    fn advance(&self, c: char) -> f32 {
        let glyphs = self
            .font
            .glyph_metrics(Size::new(1.0), LocationRef::default());
        self.font
            .charmap()
            .map(c)
            .and_then(|g| glyphs.advance_width(g))
            .unwrap_or(1.0)
    }

    /// The width of `s` at font size `size`.
    pub fn width(&self, s: &str, size: f32) -> f32 {
        s.chars().map(|c| self.advance(c)).sum::<f32>() * size
    }
}

/// Characters that may not start a line (kinsoku): closing brackets and punctuation, small kana,
/// the prolonged sound mark, iteration marks.
fn no_line_start(c: char) -> bool {
    "、。，．,.)）]］}｝〕〉》」』】〙〗〟’”｠»・：；:;!！?？‐-–—ー～…‥ゝゞヽヾ々〻ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ％%"
        .contains(c)
}

/// Characters that may not end a line: opening brackets.
fn no_line_end(c: char) -> bool {
    "(（[［{｛〔〈《「『【〘〖〝‘“｟«".contains(c)
}

/// Whether a line may break before `c` in a run of Latin text (only at spaces).
fn is_latin(c: char) -> bool {
    c.is_ascii_alphanumeric() || "'\"+-/#$&*=@^_`|~<>%.,!?:;()[]{}".contains(c)
}

/// The pieces of `paragraph` no line breaks inside: a Latin word, one Japanese character with the
/// punctuation that may not leave it; spaces are pieces of their own.
fn pieces(paragraph: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut glue_next = false;
    for c in paragraph.chars() {
        let joins = match out.last() {
            None => false,
            Some(last) => {
                let prev = last.chars().last().unwrap_or(' ');
                glue_next
                    || (c != ' ' && prev != ' ' && no_line_start(c))
                    || (is_latin(c) && is_latin(prev))
            }
        };
        match out.last_mut() {
            Some(last) if joins => last.push(c),
            _ => out.push(c.to_string()),
        }
        glue_next = no_line_end(c);
    }
    out
}

/// `paragraph` broken into lines at most `width` wide at font size `size`; a piece wider than a
/// line is broken between characters.
fn wrap_paragraph(m: &Metrics<'_>, paragraph: &str, width: f32, size: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut used = 0.0;
    for piece in pieces(paragraph) {
        if piece == " " && line.is_empty() {
            continue;
        }
        let w = m.width(&piece, size);
        if used + w <= width || line.is_empty() && w <= width {
            used += w;
            line.push_str(&piece);
            continue;
        }
        if !line.trim_end().is_empty() {
            lines.push(line.trim_end().to_string());
        }
        line = String::new();
        used = 0.0;
        if piece == " " {
            continue;
        }
        for c in piece.chars() {
            let cw = m.width(&c.to_string(), size);
            if used + cw > width && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                used = 0.0;
            }
            line.push(c);
            used += cw;
        }
    }
    if !line.trim_end().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// `text` (paragraphs split at `\n`) broken into lines at most `width` wide at size `size`.
pub fn wrap(m: &Metrics<'_>, text: &str, width: f32, size: f32) -> Vec<String> {
    text.split('\n')
        .flat_map(|p| wrap_paragraph(m, p, width * SLACK, size))
        .collect()
}

/// The height `n` lines take at font size `size`.
pub fn height(n: usize, size: f32) -> f32 {
    let gaps = n.saturating_sub(1) as f32;
    (gaps * LINE_HEIGHT + ASCENT + DESCENT) * size
}

/// Text laid into a box.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// The font size chosen.
    pub size: f32,
    /// The lines.
    pub lines: Vec<String>,
    /// Whether the lines fit the box (false: they overflow it at the smallest size allowed).
    pub fits: bool,
}

/// `text` in a box `width` × `height`, at most `max_lines` lines (0: any number): the largest
/// size from `size` down to `min_size`, in steps, at which the lines fit; at `min_size`
/// anyway, marked as not fitting, when none does.
pub fn fit(
    m: &Metrics<'_>,
    text: &str,
    (width, height_): (f32, f32),
    (size, min_size): (f32, f32),
    max_lines: usize,
) -> Fitted {
    let mut s = size;
    loop {
        let lines = wrap(m, text, width, s);
        let widest = lines.iter().map(|l| m.width(l, s)).fold(0.0, f32::max);
        let fits = height(lines.len(), s) <= height_
            && widest <= width
            && (max_lines == 0 || lines.len() <= max_lines);
        if fits || s - STEP < min_size {
            return Fitted {
                size: s,
                lines,
                fits,
            };
        }
        s -= STEP;
    }
}
