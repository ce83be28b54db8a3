//! `fuda sim --report DIR`: one self-contained HTML page (`DIR/index.html`: inline SVG plots
//! drawn with `plotters`, inline CSS, no script, nothing fetched) with the summary's figures:
//! each card's win rate when played with its 95% interval against its deck's rate, the game
//! length distribution, the first player's advantage, and the tables.

use super::stats::{wilson, CardFlag};
use super::{CardStats, Summary};
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use std::fmt::Write;
use std::path::Path;

/// The fonts of the page and its plots: card names are Japanese in the shipped games, so a CJK
/// font comes first, then the common sans-serif faces of each system.
pub const FONT_STACK: &str = "Noto Sans CJK JP, Noto Sans JP, Source Han Sans JP, Hiragino Sans, \
     Hiragino Kaku Gothic ProN, Yu Gothic, Meiryo, IPAexGothic, sans-serif";

/// Width of the plots in pixels.
const WIDTH: u32 = 960;
/// Height of one row of a rate plot.
const ROW: u32 = 22;
/// Width of the labels of a rate plot's rows (card names).
const LABELS: u32 = 380;

/// Writes `dir/index.html` (creating `dir`) for `summary`.
pub fn write(dir: &Path, summary: &Summary) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("index.html"), page(summary))
}

/// One row of a rate plot: a label, a rate with its interval, and a reference rate.
struct RateRow {
    label: String,
    rate: Option<f64>,
    interval: Option<[f64; 2]>,
    reference: Option<f64>,
}

/// The whole page.
pub fn page(s: &Summary) -> String {
    let mut out = String::new();
    let title = format!("fuda sim: {} games of {}, seed {}", s.games, s.game, s.seed);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"ja\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n\
         <style>\nbody {{ font-family: {FONT_STACK}; margin: 2em; color: #222; max-width: 1100px; }}\n\
         svg text {{ font-family: {FONT_STACK}; }}\n\
         table {{ border-collapse: collapse; margin: 1em 0; font-size: 14px; }}\n\
         th, td {{ border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; white-space: nowrap; }}\n\
         td.name, th.name {{ text-align: left; }}\n\
         .above {{ color: #0a7d2c; font-weight: bold; }} .below {{ color: #b3261e; font-weight: bold; }} .never {{ color: #888; }}\n\
         .note {{ color: #555; font-size: 14px; }}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        html(&title),
        html(&title)
    );
    let _ = writeln!(
        out,
        "<p class=\"note\">at most {} steps a game; agents: {}; draws {} ({} at the step limit); \
         crashed {}; turns: mean {:.1}, median {}, min {}, max {}.</p>",
        s.max_steps,
        html(&s.agents.join(" / ")),
        s.draws,
        s.step_limit,
        s.crashed,
        s.turns.mean,
        s.turns.median,
        s.turns.min,
        s.turns.max
    );
    deck_table(&mut out, s);
    section(
        &mut out,
        "Win rate per card when played",
        "Dot: the owner's win rate in the games it played the card; bar: its 95% Wilson \
         interval; ◆: the win rate of the card's deck. Cards in the order of the table below.",
        &card_plot(s),
    );
    section(
        &mut out,
        "Game length",
        "Finished games by their number of turns.",
        &length_plot(s),
    );
    section(
        &mut out,
        "First-player advantage",
        "Win rate of each seat, and of each deck going first and second, with 95% Wilson \
         intervals; ◆: 50%.",
        &first_player_plot(s),
    );
    card_table(&mut out, s);
    notes(&mut out, s);
    out.push_str("</body>\n</html>\n");
    out
}

fn section(out: &mut String, title: &str, caption: &str, svg: &str) {
    let _ = writeln!(
        out,
        "<h2>{}</h2>\n<p class=\"note\">{}</p>\n{svg}",
        html(title),
        html(caption)
    );
}

/// Escapes text for HTML.
fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn percent(r: Option<f64>) -> String {
    r.map(|r| format!("{:.1}%", r * 100.0))
        .unwrap_or_else(|| "–".into())
}

fn interval(i: Option<[f64; 2]>) -> String {
    i.map(|[lo, hi]| format!("{:.1}–{:.1}", lo * 100.0, hi * 100.0))
        .unwrap_or_else(|| "–".into())
}

fn deck_table(out: &mut String, s: &Summary) {
    out.push_str(
        "<table>\n<tr><th class=\"name\">deck</th><th>agent</th><th>wins</th><th>losses</th>\
         <th>draws</th><th>win%</th><th>95% CI</th><th>first (won/games)</th><th class=\"name\">file</th></tr>\n",
    );
    let finished = s.games.saturating_sub(s.crashed) as u64;
    for (i, d) in s.decks.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}/{}</td><td class=\"name\">{}</td></tr>",
            super::deck_letter(i),
            html(s.agents.get(i).map(String::as_str).unwrap_or("")),
            d.wins,
            d.losses,
            d.draws,
            percent(Some(d.win_rate)),
            interval(wilson(d.wins as u64, finished)),
            d.wins_first,
            d.games_first,
            html(&d.path)
        );
    }
    out.push_str("</table>\n");
}

fn card_table(out: &mut String, s: &Summary) {
    out.push_str("<h2>Cards</h2>\n<table>\n<tr>");
    for i in 0..s.decks.len() {
        let _ = write!(out, "<th>{}</th>", super::deck_letter(i));
    }
    out.push_str(
        "<th>played</th><th>games</th><th>win%</th><th>95% CI</th><th>not played</th><th>win%</th>\
         <th>95% CI</th><th>deck%</th><th>flag</th><th class=\"name\">card</th></tr>\n",
    );
    for c in &s.cards {
        out.push_str("<tr>");
        for n in &c.copies {
            let _ = write!(out, "<td>{n}</td>");
        }
        let flag = c.flag.map(CardFlag::word).unwrap_or("");
        let _ = writeln!(
            out,
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td class=\"{flag}\">{flag}</td><td class=\"name\">{} <span class=\"note\">({})</span></td></tr>",
            c.played,
            c.games_played,
            percent(c.win_rate_when_played),
            interval(c.interval_when_played),
            c.games_not_played,
            percent(c.win_rate_when_not_played),
            interval(c.interval_when_not_played),
            percent(c.deck_win_rate),
            html(&c.name),
            html(&c.id)
        );
    }
    out.push_str("</table>\n");
}

fn notes(out: &mut String, s: &Summary) {
    if s.notes.is_empty() && s.crashes.is_empty() {
        return;
    }
    out.push_str("<h2>Notes</h2>\n<table>\n<tr><th>games</th><th class=\"name\">note</th></tr>\n");
    for n in &s.notes {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"name\">{}</td></tr>",
            n.games,
            html(&n.text)
        );
    }
    for c in &s.crashes {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"name\">crashed: {}</td></tr>",
            c.games,
            html(&c.message)
        );
    }
    out.push_str("</table>\n");
}

fn card_plot(s: &Summary) -> String {
    let rows: Vec<RateRow> = s
        .cards
        .iter()
        .map(|c: &CardStats| RateRow {
            label: match c.flag {
                Some(f) => format!("{} ({})", c.name, f.word()),
                None => c.name.clone(),
            },
            rate: c.win_rate_when_played,
            interval: c.interval_when_played,
            reference: c.deck_win_rate,
        })
        .collect();
    rate_plot(&rows)
}

fn first_player_plot(s: &Summary) -> String {
    let finished = s.games.saturating_sub(s.crashed) as u64;
    let mut rows: Vec<RateRow> = s
        .seats
        .iter()
        .map(|seat| RateRow {
            label: format!("{} (any deck)", seat.seat),
            rate: (finished > 0).then_some(seat.win_rate),
            interval: wilson(seat.wins as u64, finished),
            reference: Some(0.5),
        })
        .collect();
    for (i, d) in s.decks.iter().enumerate() {
        let first = d.games_first as u64;
        let second = finished.saturating_sub(first);
        let wins_second = (d.wins.saturating_sub(d.wins_first)) as u64;
        for (label, wins, games) in [
            ("first", d.wins_first as u64, first),
            ("second", wins_second, second),
        ] {
            rows.push(RateRow {
                label: format!("deck {} going {label}", super::deck_letter(i)),
                rate: (games > 0).then(|| wins as f64 / games as f64),
                interval: wilson(wins, games),
                reference: Some(0.5),
            });
        }
    }
    rate_plot(&rows)
}

/// A plot's SVG, or a line saying why it could not be drawn.
fn plotted(drawn: Result<(), String>, svg: String) -> String {
    match drawn {
        Ok(()) => svg,
        Err(e) => format!("<p>the plot could not be drawn: {}</p>", html(&e)),
    }
}

/// Rows of rates (0–100%) with their intervals and reference marks, first row on top.
fn rate_plot(rows: &[RateRow]) -> String {
    let mut svg = String::new();
    let n = rows.len().max(1);
    let height = 50 + ROW * n as u32;
    let drawn =
        (|| -> Result<(), Box<dyn std::error::Error + '_>> {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
            root.fill(&WHITE)?;
            // an integer range includes its end: rows 0..=n-1 are n segments
            let top = (n as i32 - 1).max(1);
            let mut chart = ChartBuilder::on(&root)
                .margin(8)
                .margin_right(30)
                .x_label_area_size(30)
                .y_label_area_size(LABELS)
                .build_cartesian_2d(0f64..100f64, (0..top).into_segmented())?;
            let at = |i: usize| SegmentValue::CenterOf((n - 1 - i) as i32);
            let label = |v: &SegmentValue<i32>| match v {
                SegmentValue::CenterOf(k) => usize::try_from(*k)
                    .ok()
                    .and_then(|k| n.checked_sub(1 + k))
                    .and_then(|i| rows.get(i))
                    .map(|r| r.label.clone())
                    .unwrap_or_default(),
                _ => String::new(),
            };
            chart
                .configure_mesh()
                .y_labels(n)
                .y_label_formatter(&label)
                .x_labels(11)
                .x_label_formatter(&|x| format!("{x:.0}%"))
                .label_style(("sans-serif", 13))
                .light_line_style(WHITE)
                .disable_y_mesh()
                .draw()?;
            let bar = RGBColor(70, 110, 200);
            chart.draw_series(rows.iter().enumerate().filter_map(|(i, r)| {
                let [lo, hi] = r.interval?;
                Some(PathElement::new(
                    vec![(lo * 100.0, at(i)), (hi * 100.0, at(i))],
                    bar.stroke_width(3),
                ))
            }))?;
            chart.draw_series(rows.iter().enumerate().filter_map(|(i, r)| {
                Some(Circle::new((r.rate? * 100.0, at(i)), 4, bar.filled()))
            }))?;
            let mark = RGBColor(220, 120, 20);
            chart.draw_series(rows.iter().enumerate().filter_map(|(i, r)| {
                Some(
                    EmptyElement::at((r.reference? * 100.0, at(i)))
                        + Polygon::new(vec![(0, -6), (5, 0), (0, 6), (-5, 0)], mark.filled()),
                )
            }))?;
            root.present()?;
            Ok(())
        })();
    plotted(drawn.map_err(|e| e.to_string()), svg)
}

fn length_plot(s: &Summary) -> String {
    let turns = &s.totals.turns;
    let (Some(min), Some(max)) = (turns.keys().next(), turns.keys().next_back()) else {
        return "<p class=\"note\">no finished game.</p>".into();
    };
    let (min, max) = (*min, max.saturating_add(1));
    let top = turns.values().copied().max().unwrap_or(1).max(1);
    let mut svg = String::new();
    let drawn =
        (|| -> Result<(), Box<dyn std::error::Error + '_>> {
            let root = SVGBackend::with_string(&mut svg, (WIDTH, 320)).into_drawing_area();
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .margin(12)
                .margin_right(30)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(min..max, 0usize..top + top / 10 + 1)?;
            chart
                .configure_mesh()
                .x_desc("turns")
                .y_desc("games")
                .label_style(("sans-serif", 13))
                .light_line_style(WHITE)
                .disable_x_mesh()
                .draw()?;
            let fill = RGBColor(70, 110, 200);
            chart.draw_series(turns.iter().map(|(t, c)| {
                Rectangle::new([(*t, 0), (t.saturating_add(1), *c)], fill.filled())
            }))?;
            root.present()?;
            Ok(())
        })();
    plotted(drawn.map_err(|e| e.to_string()), svg)
}
