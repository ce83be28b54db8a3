//! SVG writing: a card's frame, boxes and fitted lines as SVG elements, and the files around
//! them. Every text element carries an id (`<prefix>b<N>-text`) beside its box's
//! (`<prefix>b<N>-box`), so a test can check one stays inside the other.

use super::layout::{Align, VAlign};
use super::text::{self, Fitted};
use std::fmt::Write;

/// `s` with the characters XML gives a meaning escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// A number as SVG writes it (one decimal, no trailing `.0`).
pub fn num(v: f32) -> String {
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map_or(s.clone(), str::to_string)
}

/// The opening of an SVG document `w` × `h`.
pub fn open(w: f32, h: f32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n",
        num(w),
        num(h)
    )
}

/// A rectangle, with an id when one is given.
pub struct Rect<'a> {
    /// Its id (empty: none).
    pub id: &'a str,
    /// Left, top, width, height.
    pub at: (f32, f32, f32, f32),
    /// Corner radius.
    pub radius: f32,
    /// Fill (`none` or a colour).
    pub fill: &'a str,
    /// Outline (`none` or a colour) and its width.
    pub stroke: (&'a str, f32),
}

impl Rect<'_> {
    /// The element.
    pub fn write(&self, out: &mut String) {
        let (x, y, w, h) = self.at;
        let id = if self.id.is_empty() {
            String::new()
        } else {
            format!(" id=\"{}\"", escape(self.id))
        };
        let _ = writeln!(
            out,
            "<rect{id} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
            num(x),
            num(y),
            num(w),
            num(h),
            num(self.radius),
            escape(self.fill),
            escape(self.stroke.0),
            num(self.stroke.1)
        );
    }
}

/// Fitted lines placed in a box.
pub struct Lines<'a> {
    /// The text element's id.
    pub id: &'a str,
    /// The box: left, top, width, height, and the padding inside it.
    pub at: (f32, f32, f32, f32, f32),
    /// Across and down.
    pub align: (Align, VAlign),
    /// Text colour.
    pub color: &'a str,
    /// Bold.
    pub bold: bool,
}

impl Lines<'_> {
    /// The `<text>` element of `fitted`, one `<tspan>` per line.
    pub fn write(&self, fitted: &Fitted, out: &mut String) {
        let (x, y, w, h, pad) = self.at;
        let size = fitted.size;
        let (anchor, tx) = match self.align.0 {
            Align::Start => ("start", x + pad),
            Align::Middle => ("middle", x + w / 2.0),
            Align::End => ("end", x + w - pad),
        };
        let top = match self.align.1 {
            VAlign::Top => y + pad,
            VAlign::Middle => y + (h - text::height(fitted.lines.len(), size)) / 2.0,
        };
        let weight = if self.bold {
            " font-weight=\"bold\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<text id=\"{}\" font-family=\"{}\" font-size=\"{}\" fill=\"{}\" text-anchor=\"{anchor}\"{weight}>",
            escape(self.id),
            text::FONT_STACK,
            num(size),
            escape(self.color)
        );
        for (i, line) in fitted.lines.iter().enumerate() {
            let baseline = top + (text::ASCENT + i as f32 * text::LINE_HEIGHT) * size;
            let _ = write!(
                out,
                "<tspan x=\"{}\" y=\"{}\">{}</tspan>",
                num(tx),
                num(baseline),
                escape(line)
            );
        }
        out.push_str("</text>\n");
    }
}
