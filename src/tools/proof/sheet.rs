//! Contact sheets: a pack's cards on pages of a grid, each page one SVG, every card at half
//! size in a cell of the largest frame's size, under a title line naming the pack and the page.

use super::svg::{self, escape, num};
use super::text::FONT_STACK;
use super::PackProofs;
use std::fmt::Write;

/// The scale of a card on a sheet.
const SCALE: f32 = 0.5;
/// The space between cells and around the grid.
const GAP: f32 = 16.0;
/// The height of the title line.
const TITLE: f32 = 48.0;

/// The pages of `pack`'s contact sheet, `per_page` cards each (at least one).
pub fn pages(pack: &PackProofs, per_page: usize) -> Vec<String> {
    let per_page = per_page.max(1);
    let cell_w = pack.cards.iter().map(|c| c.size.0).fold(0.0, f32::max) * SCALE;
    let cell_h = pack.cards.iter().map(|c| c.size.1).fold(0.0, f32::max) * SCALE;
    let cols = columns(per_page);
    let total = pack.cards.len().div_ceil(per_page);
    pack.cards
        .chunks(per_page)
        .enumerate()
        .map(|(page, cards)| {
            let rows = per_page.div_ceil(cols);
            let w = GAP + cols as f32 * (cell_w + GAP);
            let h = TITLE + GAP + rows as f32 * (cell_h + GAP);
            let mut out = svg::open(w, h);
            let _ = writeln!(
                out,
                "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
                num(w),
                num(h)
            );
            let _ = writeln!(
                out,
                "<text id=\"title\" x=\"{}\" y=\"{}\" font-family=\"{FONT_STACK}\" font-size=\"24\" fill=\"#333333\">{} — {}/{}</text>",
                num(GAP),
                num(TITLE - 14.0),
                escape(&pack.pack),
                page + 1,
                total
            );
            for (k, c) in cards.iter().enumerate() {
                let x = GAP + (k % cols) as f32 * (cell_w + GAP);
                let y = TITLE + GAP + (k / cols) as f32 * (cell_h + GAP);
                let body = c.body.replace("id=\"b", &format!("id=\"c{k}-b"));
                let _ = writeln!(
                    out,
                    "<svg x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n{body}</svg>",
                    num(x),
                    num(y),
                    num(c.size.0 * SCALE),
                    num(c.size.1 * SCALE),
                    num(c.size.0),
                    num(c.size.1)
                );
            }
            out.push_str("</svg>\n");
            out
        })
        .collect()
}

/// The number of columns of a page of `n` cards: as many as its rows, or one more.
fn columns(n: usize) -> usize {
    let mut c = 1;
    while c * c < n {
        c += 1;
    }
    c
}
