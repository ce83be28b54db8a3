//! The starting state: `[start]`, the `[[player]]` tables and card entries (which the
//! expectations reuse for exact zone contents).

use super::model::{CardEntry, Face, PlayerSetup, Spanned, Start, StartPhase, ZoneCards};
use super::read::{is_top_key, span_of, Reader, Value};
use crate::base::diagnostic::{closest, codes, did_you_mean};
use crate::base::source::Span;
use toml::de::{DeTable, DeValue};

/// Most copies one entry may ask for (`x1000`).
pub const MAX_COPIES: u64 = 1000;
/// Most cards the `[[player]]` tables of one scenario may set up, attached cards included.
pub const MAX_SETUP_CARDS: u64 = 100_000;
/// Most levels of `attached` inside `attached`.
pub const MAX_ATTACH_DEPTH: usize = 8;

/// The phase text that runs the game's own setup.
const SETUP: &str = "setup";

/// What a card entry may say.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum EntryMode {
    /// A starting card: every key.
    Setup,
    /// An expected card of a zone or attachment list: only its name and count are compared.
    Contents,
}

/// The keys of a card entry table in each mode.
const SETUP_KEYS: &[&str] = &[
    "card", "count", "states", "counters", "face", "attached", "slot",
];
const CONTENTS_KEYS: &[&str] = &["card", "count"];

/// Reads `[start]`.
pub(super) fn start(r: &mut Reader<'_>, v: &Value<'_>) -> Start {
    let mut start = Start::default();
    let Some(table) = r.table(v, "`start`") else {
        return start;
    };
    let mut given = Vec::new();
    for (k, v) in table.iter() {
        let key: &str = k.get_ref();
        match key {
            "turn" => {
                if let Some(n) = r.positive(v, "`turn`") {
                    given.push(("turn", n.span));
                    start.turn = n;
                }
            }
            "player" => {
                if let Some(n) = r.positive(v, "`player`") {
                    given.push(("player", n.span));
                    start.player = n;
                }
            }
            "phase" => {
                if let Some(p) = r.name(v, "`phase`") {
                    start.phase = if p.value == SETUP {
                        StartPhase::Setup(p.span)
                    } else {
                        StartPhase::Named(p)
                    };
                }
            }
            _ => r.unknown_key(k, "`[start]`", &["turn", "player", "phase"]),
        }
    }
    if matches!(start.phase, StartPhase::Setup(_)) {
        for (key, span) in given {
            r.bad_value(
                span,
                format!("`{key}` cannot be given with `phase = \"setup\"`"),
                "the game's setup decides this",
                Some(format!(
                    "remove `{key}`, or start in a phase of the turn instead of the setup"
                )),
            );
        }
    }
    start
}

/// Reads the `[[player]]` tables.
pub(super) fn players(r: &mut Reader<'_>, v: &Value<'_>) -> Vec<PlayerSetup> {
    let tables = r.tables(v, "`player`", "[[player]]");
    let mut out = Vec::with_capacity(tables.len());
    for (i, (span, table)) in tables.into_iter().enumerate() {
        let mut p = PlayerSetup {
            seat: u32::try_from(i + 1).unwrap_or(u32::MAX),
            span,
            counters: Vec::new(),
            zones: Vec::new(),
        };
        for (k, v) in table.iter() {
            let key: &str = k.get_ref();
            if key == "counters" {
                p.counters = r.counters(v, "`counters`");
                continue;
            }
            if is_top_key(key) {
                r.unknown_key(k, "`[[player]]`", &["counters"]);
                continue;
            }
            if !matches!(v.get_ref(), DeValue::Array(_)) {
                let help = if key == "player" {
                    Some(
                        "seats follow the order of the `[[player]]` tables: the first is player 1"
                            .into(),
                    )
                } else {
                    did_you_mean(key, ["counters"]).or_else(|| Some(r.zone_hint(key, v)))
                };
                r.wrong_type(v, &format!("zone `{key}`"), "a list of cards", help);
                continue;
            }
            let zone = r.key(k);
            let cards = entries(r, v, &format!("zone `{key}`"), EntryMode::Setup, 0);
            p.zones.push(ZoneCards { zone, cards });
        }
        out.push(p);
    }
    out
}

/// Reads a list of card entries.
pub(super) fn entries(
    r: &mut Reader<'_>,
    v: &Value<'_>,
    what: &str,
    mode: EntryMode,
    depth: usize,
) -> Vec<CardEntry> {
    let Some(items) = r.array(v, what) else {
        return Vec::new();
    };
    let each = format!("each card of {what}");
    let mut out = Vec::with_capacity(items.len());
    for item in items.iter() {
        let entry = match item.get_ref() {
            DeValue::String(_) => entry_text(r, item, &each),
            DeValue::Table(t) => entry_table(r, item, t, mode, depth),
            _ => {
                let help = Some(
                    "write `\"card name\"`, `\"card name x2\"` or `{ card = \"card name\", ... }`"
                        .to_string(),
                );
                r.wrong_type(item, &each, "a card name or a table", help);
                None
            }
        };
        if let Some(e) = entry {
            if mode == EntryMode::Setup && !charge(r, &e) {
                break;
            }
            out.push(e);
        }
    }
    out
}

/// Counts an entry's cards against [`MAX_SETUP_CARDS`]; false once the budget is spent
/// (reported once, at the entry that spent it).
fn charge(r: &mut Reader<'_>, e: &CardEntry) -> bool {
    fn cards(e: &CardEntry) -> u64 {
        let attached: u64 = e.attached.iter().map(cards).sum();
        u64::from(e.count).saturating_mul(1 + attached)
    }
    let n = cards(e);
    if r.setup_cards.saturating_add(n) > MAX_SETUP_CARDS {
        if r.setup_cards <= MAX_SETUP_CARDS {
            r.error(
                codes::SCENARIO_BAD_CARD_ENTRY,
                e.span,
                format!("a scenario sets up at most {MAX_SETUP_CARDS} cards"),
                "this entry goes beyond the limit",
                None,
            );
        }
        r.setup_cards = MAX_SETUP_CARDS + 1;
        return false;
    }
    r.setup_cards += n;
    true
}

/// A new entry of `count` copies of `card`.
fn entry(card: Spanned<String>, count: u32, span: Span) -> CardEntry {
    CardEntry {
        card,
        count,
        states: Vec::new(),
        counters: Vec::new(),
        face: None,
        attached: Vec::new(),
        slot: None,
        span,
    }
}

/// `"name"` or `"name x3"` (also `×3`, after any white space).
fn entry_text(r: &mut Reader<'_>, v: &Value<'_>, what: &str) -> Option<CardEntry> {
    let s = r.string(v, what)?;
    let text = s.value.as_str();
    let start = text.len() - text.trim_start().len();
    let body = text.trim();
    if body.is_empty() {
        r.error(
            codes::SCENARIO_BAD_CARD_ENTRY,
            s.span,
            "an empty card entry",
            "no card name",
            Some("write a card's name or number".into()),
        );
        return None;
    }
    let (name_len, count) = match split_count(body) {
        Some((name_len, suffix_at, digits)) => {
            let at = start + suffix_at;
            let span = r.inner(s.span, text, at..start + body.len());
            (name_len, copies(r, digits, span)?)
        }
        None => (body.len(), 1),
    };
    let span = r.inner(s.span, text, start..start + name_len);
    let card = Spanned::new(body[..name_len].to_string(), span);
    Some(entry(card, count, s.span))
}

/// Splits a trailing ` xN` / ` ×N`: the name's length, the suffix's offset and its digits.
fn split_count(body: &str) -> Option<(usize, usize, String)> {
    let (ws, c) = body.char_indices().rev().find(|(_, c)| c.is_whitespace())?;
    let suffix_at = ws + c.len_utf8();
    let suffix = &body[suffix_at..];
    let rest = suffix
        .strip_prefix('x')
        .or_else(|| suffix.strip_prefix('×'))?;
    let digits: Option<String> = rest
        .chars()
        .map(|c| match c {
            '0'..='9' => Some(c),
            '０'..='９' => char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')),
            _ => None,
        })
        .collect();
    let digits = digits.filter(|d| !d.is_empty())?;
    Some((body[..ws].trim_end().len(), suffix_at, digits))
}

/// The number of copies `digits` asks for, checked against [`MAX_COPIES`].
fn copies(r: &mut Reader<'_>, digits: String, span: Span) -> Option<u32> {
    match digits.parse::<u64>() {
        Ok(n) if (1..=MAX_COPIES).contains(&n) => Some(n as u32),
        _ => {
            r.error(
                codes::SCENARIO_BAD_CARD_ENTRY,
                span,
                format!("a card entry asks for {digits} copies"),
                format!("must be from 1 to {MAX_COPIES}"),
                Some("leave the suffix out for one copy".into()),
            );
            None
        }
    }
}

/// `{ card = "...", count = 2, states = [...], counters = {...}, face = "down", attached = [...],
/// slot = "..." }` (only `card` and `count` in [`EntryMode::Contents`]).
fn entry_table(
    r: &mut Reader<'_>,
    v: &Value<'_>,
    table: &DeTable<'_>,
    mode: EntryMode,
    depth: usize,
) -> Option<CardEntry> {
    let span = span_of(v);
    let known = match mode {
        EntryMode::Setup => SETUP_KEYS,
        EntryMode::Contents => CONTENTS_KEYS,
    };
    let mut e = entry(Spanned::default_at_start(String::new()), 1, span);
    let mut card = None;
    let mut ok = true;
    for (k, v) in table.iter() {
        let key: &str = k.get_ref();
        if !known.contains(&key) {
            if mode == EntryMode::Contents && SETUP_KEYS.contains(&key) {
                r.error(
                    codes::SCENARIO_UNKNOWN_KEY,
                    span_of(k),
                    format!("`{key}` is not compared in a list of expected cards"),
                    "only `card` and `count` are compared here",
                    Some("check a card's states, counters, face and attachments in an `[[expect.card]]` table".into()),
                );
            } else {
                r.unknown_key(k, "a card entry", known);
            }
            continue;
        }
        match key {
            "card" => card = r.name(v, "`card`"),
            "count" => match r.uint(v, "`count`", 1, MAX_COPIES) {
                Some(n) => e.count = n.value as u32,
                None => ok = false,
            },
            "states" => e.states = r.names(v, "`states`"),
            "counters" => e.counters = r.counters(v, "`counters`"),
            "face" => e.face = face(r, v),
            "slot" => e.slot = r.name(v, "`slot`"),
            "attached" if depth >= MAX_ATTACH_DEPTH => {
                r.error(
                    codes::SCENARIO_BAD_CARD_ENTRY,
                    span_of(k),
                    format!("cards attached more than {MAX_ATTACH_DEPTH} levels deep"),
                    "too deep",
                    None,
                );
                ok = false;
            }
            "attached" => e.attached = entries(r, v, "`attached`", mode, depth + 1),
            _ => {}
        }
    }
    match card {
        Some(c) if ok => {
            e.card = c;
            Some(e)
        }
        Some(_) => None,
        None => {
            if !table.iter().any(|(k, _)| k.get_ref() == "card") {
                r.missing(span, "card", "a card entry", "card = \"card name\"");
            }
            None
        }
    }
}

/// `"up"` or `"down"`.
pub(super) fn face(r: &mut Reader<'_>, v: &Value<'_>) -> Option<Spanned<Face>> {
    let s = r.name(v, "`face`")?;
    let face = match s.value.as_str() {
        "up" => Face::Up,
        "down" => Face::Down,
        other => {
            let help = closest(other, ["up", "down"])
                .map(|c| format!("did you mean `{c}`?"))
                .or_else(|| Some("write `\"up\"` or `\"down\"`".into()));
            r.bad_value(
                s.span,
                format!("`{other}` is no face"),
                "not `up` or `down`",
                help,
            );
            return None;
        }
    };
    Some(Spanned::new(face, s.span))
}
