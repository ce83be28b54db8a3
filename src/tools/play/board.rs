//! The board as text for a person ([`render`]), and a card's text ([`card_text`]). Everything
//! shown comes from an [`engine::board::Board`](crate::engine::board::Board), which holds only
//! what the seat's player may know: hidden cards are counts, face-down cards `face down`.

use crate::engine::board::{Board, BoardCard, StatShown, ZoneBoard};
use crate::engine::{Outcome, Program};
use crate::ir::render::{Lang, Vocabulary};
use std::fmt::Write;

/// Zones with more cards than this (and no slots) list names only, on one line; a zone that is
/// not public, none.
const DETAILED_UP_TO: usize = 10;

/// A card's text, for the `card` command: its name, type, fields and stats as the outline of
/// its IR gives them, then its printed text in `lang` (`ir::render`). The one place that turns
/// a card definition into words for a player.
pub fn card_text(vocab: &Vocabulary, prog: &Program, def: u32, lang: Lang) -> String {
    let Some(c) = prog.cards.get(def as usize) else {
        return String::new();
    };
    let outline = crate::ir::outline::card(c);
    let head: Vec<&str> = outline
        .lines()
        .take_while(|l| {
            !l.trim_start().starts_with("keywords:") && !l.trim_start().starts_with('[')
        })
        .collect();
    let text = crate::ir::render::card(vocab, c, lang).text;
    if text.is_empty() {
        format!("{}\n", head.join("\n"))
    } else {
        format!("{}\n{text}\n", head.join("\n"))
    }
}

/// The board as lines of text: whose turn and which phase, then each player's counters and
/// zones. A card in play reads on one line its name, states, card type, number fields, stats
/// (`might 3/2 (printed 2/2)` when modified) and counters, with the cards set on it below it;
/// a zone whose cards are in states counts them (`3 cards, 2 ready, 1 tapped`), hidden or not.
pub fn render(board: &Board) -> String {
    let mut out = String::new();
    let phase = board
        .phase
        .as_deref()
        .map(|p| format!(", {} phase", Program::short(p)))
        .unwrap_or_default();
    let whose = if board.active == board.seat {
        "your turn".to_string()
    } else {
        format!("p{}'s turn", board.active.saturating_add(1))
    };
    let _ = writeln!(
        out,
        "── turn {}, {whose}{phase} ── you are p{}",
        board.turn,
        board.seat.saturating_add(1)
    );
    if let Some(o) = &board.outcome {
        let _ = writeln!(out, "   game over: {}", outcome_text(o));
    }
    for p in &board.players {
        let counters: Vec<String> = p
            .counters
            .iter()
            .map(|(c, v)| format!("{} {v}", Program::short(c)))
            .collect();
        let _ = writeln!(
            out,
            "p{}{}  {}",
            p.seat.saturating_add(1),
            if p.seat == board.seat { " (you)" } else { "" },
            counters.join("  ")
        );
        for z in &p.zones {
            zone_lines(&mut out, z);
        }
    }
    out
}

/// `p2 wins` / `a draw`.
pub fn outcome_text(o: &Outcome) -> String {
    match o {
        Outcome::Win(p) => format!("p{} wins", p.saturating_add(1)),
        Outcome::Draw => "a draw".into(),
    }
}

fn zone_lines(out: &mut String, z: &ZoneBoard) {
    let name = Program::short(&z.zone);
    let total = count_all(&z.cards);
    if total == 0 && z.slots.is_empty() {
        return;
    }
    let summary = format!(
        "{total} card{}{}",
        if total == 1 { "" } else { "s" },
        state_counts(&z.cards)
    );
    let any_seen = z.cards.iter().any(|c| c.card.is_some());
    if !z.slots.is_empty() {
        let _ = writeln!(out, "  {name:<12} {summary}");
        for s in &z.slots {
            match z.cards.iter().find(|c| c.slot.as_ref() == Some(s)) {
                Some(c) => card_lines(out, &format!("{s}: "), c, 2),
                None => {
                    let _ = writeln!(out, "      {s}: —");
                }
            }
        }
        let loose = z
            .cards
            .iter()
            .filter(|c| c.slot.as_ref().is_none_or(|s| !z.slots.contains(s)));
        for c in loose {
            card_lines(out, "", c, 2);
        }
    } else if !any_seen || (!z.public && z.cards.len() > DETAILED_UP_TO) {
        // a hidden zone (a deck) is a count, whatever cards of it the player knows
        let _ = writeln!(out, "  {name:<12} {summary}");
    } else if z.cards.len() > DETAILED_UP_TO {
        let names: Vec<String> = z.cards.iter().map(short_card).collect();
        let _ = writeln!(out, "  {name:<12} {summary}: {}", names.join(" · "));
    } else {
        let _ = writeln!(out, "  {name:<12} {summary}");
        for c in &z.cards {
            card_lines(out, "", c, 2);
        }
    }
}

/// Cards of a zone, those set on others included.
fn count_all(cards: &[BoardCard]) -> usize {
    cards
        .iter()
        .map(|c| count_all(&c.attached).saturating_add(1))
        .fold(0, usize::saturating_add)
}

/// `, 2 ready, 1 tapped`: how many of the zone's top-level cards are in each state.
fn state_counts(cards: &[BoardCard]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for s in cards.iter().flat_map(|c| c.states.iter()) {
        let s = Program::short(s);
        match counts.iter_mut().find(|(x, _)| *x == s) {
            Some(e) => e.1 = e.1.saturating_add(1),
            None => counts.push((s, 1)),
        }
    }
    counts
        .iter()
        .map(|(s, n)| format!(", {n} {s}"))
        .collect::<String>()
}

/// A card in a one-line list: its name (or `face down`) and states.
fn short_card(c: &BoardCard) -> String {
    let mut s = c
        .card
        .as_ref()
        .map_or_else(|| "face down".to_string(), |i| i.name.clone());
    if !c.states.is_empty() {
        let st: Vec<&str> = c.states.iter().map(|x| Program::short(x)).collect();
        let _ = write!(s, " [{}]", st.join(","));
    }
    s
}

/// A card on its own line (with `lead` before it), then the cards set on it, indented.
fn card_lines(out: &mut String, lead: &str, c: &BoardCard, indent: usize) {
    let pad = " ".repeat(indent.saturating_mul(2).saturating_add(2));
    let mut line = format!("{pad}{lead}{}", short_card(c));
    if let Some(info) = &c.card {
        let _ = write!(line, "  ({})", Program::short(&info.card_type));
        if !info.numbers.is_empty() {
            let nums: Vec<String> = info
                .numbers
                .iter()
                .map(|(f, v)| format!("{f} {v}"))
                .collect();
            let _ = write!(line, "  {}", nums.join(" · "));
        }
        for s in &info.stats {
            let _ = write!(line, "  {}", stat_text(s));
        }
    }
    for (k, v) in &c.counters {
        let _ = write!(line, "  {} {v}", Program::short(k));
    }
    let _ = writeln!(out, "{}", line.trim_end());
    for a in &c.attached {
        card_lines(out, "└ set: ", a, indent.saturating_add(1));
    }
}

/// `might 3/2 (printed 2/2)`, or `might 2/2` when unchanged.
fn stat_text(s: &StatShown) -> String {
    let show = |v: &[Option<i64>]| {
        v.iter()
            .map(|x| x.map_or_else(|| "-".to_string(), |n| n.to_string()))
            .collect::<Vec<_>>()
            .join("/")
    };
    let now = show(&s.now);
    if s.now == s.printed {
        format!("{} {now}", Program::short(&s.stat))
    } else {
        format!(
            "{} {now} (printed {})",
            Program::short(&s.stat),
            show(&s.printed)
        )
    }
}
