//! Questions as a person reads them ([`question_text`]) and the numbers their options keep
//! ([`Numbering`]): an action keeps its number for the whole turn (a priority window asked
//! again after each action), a new action gets a new number, and the number of an action no
//! longer offered is refused, never given to another — so an answer typed ahead cannot pick an
//! action the player did not mean.

use crate::engine::board::Within;
use crate::engine::{Program, Request, RequestKind, Seat};
use std::fmt::Write;

/// What a question is asked within and where its cards are, read from the game when it was
/// asked ([`Game::asked_within`](crate::engine::Game::asked_within),
/// [`Game::option_zones`](crate::engine::Game::option_zones)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Asked {
    /// The actions, calls and abilities running, outermost first.
    pub within: Vec<Within>,
    /// Where each option's card is (`your pool`), by option.
    pub zones: Vec<Option<String>>,
    /// The question in words, when the request comes from a `may` (`ir::render`); `None`:
    /// the request's own prompt is shown.
    pub question: Option<String>,
}

/// The whole question as shown: what it is for, the question, its options with their numbers,
/// and how to answer. The one place a request becomes words for a player.
pub fn question_text(req: &Request, asked: &Asked, numbers: &[usize]) -> String {
    let mut out = String::new();
    if let Some(chain) = within_text(&asked.within) {
        let _ = writeln!(out, "p{}, {chain}:", req.player.saturating_add(1));
    }
    let _ = writeln!(
        out,
        "p{}: {}",
        req.player.saturating_add(1),
        prompt_text(req, asked)
    );
    let mut zones: Vec<&str> = asked.zones.iter().flatten().map(String::as_str).collect();
    zones.dedup();
    let mixed = {
        let mut z = zones.clone();
        z.sort_unstable();
        z.dedup();
        z.len() > 1
    };
    for (i, o) in req.options.iter().enumerate() {
        let n = numbers.get(i).copied().unwrap_or(i.saturating_add(1));
        let zone = match asked.zones.get(i) {
            Some(Some(z)) if mixed => format!("   ({z})"),
            _ => String::new(),
        };
        let _ = writeln!(out, "  {n:>2}. {}{zone}", o.label);
    }
    let _ = write!(
        out,
        "answer with {}; `?` for help",
        how_to_answer(req, numbers)
    );
    out
}

/// `for 出す (summon) X › 払う (spend)`: the running actions, calls and
/// abilities, outermost first; a cost being paid says so.
fn within_text(within: &[Within]) -> Option<String> {
    if within.is_empty() {
        return None;
    }
    let name = |id: &str, label: &Option<String>| match label {
        Some(l) if l != Program::short(id) => format!("{l} ({})", Program::short(id)),
        _ => Program::short(id).to_string(),
    };
    let parts: Vec<String> = within
        .iter()
        .map(|w| match w {
            Within::Action { id, label, card } => match card {
                Some(c) => format!("{} {c}", name(id, label)),
                None => name(id, label),
            },
            Within::Call { id, label } => name(id, label),
            Within::Rule { id, label } => format!("rule {}", name(id, label)),
            Within::Cost { card, kind } => format!(
                "paying the cost of {card}'s {} ability",
                Program::short(kind)
            ),
            Within::Effect { card, kind } => {
                format!("{card}'s {} ability", Program::short(kind))
            }
        })
        .collect();
    let chain = parts.join(" › ");
    Some(if matches!(within.first(), Some(Within::Cost { .. })) {
        chain
    } else {
        format!("for {chain}")
    })
}

/// The question itself: the request's prompt, with how many cards and from where for a
/// choice of cards.
fn prompt_text(req: &Request, asked: &Asked) -> String {
    match &req.kind {
        RequestKind::Cards { min, max } => {
            let mut zones: Vec<&str> = asked.zones.iter().flatten().map(String::as_str).collect();
            zones.sort_unstable();
            zones.dedup();
            let from = if zones.is_empty() {
                String::new()
            } else {
                format!(" from {}", zones.join(", "))
            };
            format!(
                "{}{from} ({} of {})",
                req.prompt,
                count_hint(*min, *max, req.options.len()),
                req.options.len()
            )
        }
        RequestKind::YesNo => match &asked.question {
            Some(q) => q.clone(),
            None => format!("{}?", req.prompt),
        },
        _ => req.prompt.clone(),
    }
}

/// How many cards a request wants, in words.
pub(super) fn count_hint(min: usize, max: usize, options: usize) -> String {
    let max = max.min(options);
    match (min, max) {
        (a, b) if a == b => format!("exactly {a}"),
        (0, b) => format!("up to {b}; an empty line for none"),
        (a, b) => format!("{a} to {b}"),
    }
}

/// What kind of answer a request wants, as a line for the player.
fn how_to_answer(req: &Request, numbers: &[usize]) -> String {
    let list = numbers_text(numbers);
    match &req.kind {
        RequestKind::Action => format!("the number of an action ({list}), or `pass`"),
        RequestKind::OneOf => format!("the number of an option ({list})"),
        RequestKind::YesNo => "`y` or `n`".into(),
        RequestKind::Cards { min, max } => format!(
            "card numbers ({list}) separated by spaces or commas: {}",
            count_hint(*min, *max, req.options.len())
        ),
        RequestKind::Declare if !req.options.is_empty() => {
            "a text, or the number of a suggestion".into()
        }
        RequestKind::Declare => "a text".into(),
        RequestKind::Repeat { max } => format!("a number of repetitions from 0 to {max}"),
    }
}

/// `1-4` for consecutive numbers, else `1, 3, 5`.
fn numbers_text(numbers: &[usize]) -> String {
    let mut sorted = numbers.to_vec();
    sorted.sort_unstable();
    match (sorted.first(), sorted.last()) {
        (Some(a), Some(b)) if b.saturating_sub(*a).saturating_add(1) == sorted.len() => {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        }
        _ => sorted
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The numbers shown for the options of the questions asked: the actions of a player's priority
/// windows keep theirs for the whole turn, other questions between (a window asked again after
/// an action whose cost asked which cards pay it); other questions number 1, 2, 3….
#[derive(Debug, Clone, Default)]
pub struct Numbering {
    /// The turn the questions below were asked in.
    turn: u32,
    /// Each question asked this turn, with the numbers of its options.
    families: Vec<Family>,
    /// The question asked last, when it was a priority window (an index into `families`).
    current: Option<usize>,
}

/// One question's numbers.
#[derive(Debug, Clone, Default)]
struct Family {
    /// (player, kind and prompt).
    key: (Seat, String),
    /// The options last shown: (label, which of the options with that label, number).
    shown: Vec<(String, usize, usize)>,
    /// Numbers given out before and not offered now: (number, the option's label).
    retired: Vec<(usize, String)>,
}

impl Numbering {
    /// The numbers of a request's options (by option), keeping those of the options shown
    /// for the same question earlier in the turn.
    pub fn number(&mut self, req: &Request, turn: u32) -> Vec<usize> {
        if turn != self.turn {
            self.turn = turn;
            self.families.clear();
        }
        self.current = None;
        if req.kind != RequestKind::Action {
            // a choice of cards, a pick among options: asked once, numbered 1, 2, 3…
            return (1..=req.options.len()).collect();
        }
        let key = (req.player, format!("{:?} {}", req.kind, req.prompt));
        let i = match self.families.iter().position(|f| f.key == key) {
            Some(i) => i,
            None => {
                self.families.push(Family {
                    key,
                    ..Family::default()
                });
                self.families.len().saturating_sub(1)
            }
        };
        self.current = Some(i);
        match self.families.get_mut(i) {
            Some(f) => f.number(req),
            None => (1..=req.options.len()).collect(),
        }
    }

    /// What a number was, when it was an option of the question asked last earlier in the
    /// turn and is not one now.
    pub fn retired(&self, n: usize) -> Option<&str> {
        self.families
            .get(self.current?)?
            .retired
            .iter()
            .find(|(m, _)| *m == n)
            .map(|(_, l)| l.as_str())
    }
}

impl Family {
    fn number(&mut self, req: &Request) -> Vec<usize> {
        let mut next = self
            .shown
            .iter()
            .map(|s| s.2)
            .chain(self.retired.iter().map(|r| r.0))
            .max()
            .unwrap_or(0);
        let mut now: Vec<(String, usize, usize)> = Vec::new();
        for o in &req.options {
            let k = now.iter().filter(|(l, _, _)| *l == o.label).count();
            let n = match self.shown.iter().find(|(l, j, _)| *l == o.label && *j == k) {
                Some(s) => s.2,
                None => {
                    next = next.saturating_add(1);
                    next
                }
            };
            now.push((o.label.clone(), k, n));
        }
        for (l, _, n) in &self.shown {
            if !now.iter().any(|x| x.2 == *n) {
                self.retired.push((*n, l.clone()));
            }
        }
        self.retired.retain(|(n, _)| !now.iter().any(|x| x.2 == *n));
        self.shown = now;
        self.shown.iter().map(|s| s.2).collect()
    }
}
