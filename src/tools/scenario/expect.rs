//! The expectations: `[expect]`, its `[[expect.player]]` and `[[expect.card]]` tables.

use super::model::{
    Expect, ExpectCard, ExpectPlayer, Spanned, StatCheck, StatValue, Winner, ZoneCards, ZoneCount,
};
use super::read::{is_top_key, span_of, Reader, Value};
use super::setup::{entries, face, EntryMode};
use crate::base::diagnostic::{closest, codes};
use crate::base::source::Span;
use toml::de::{DeTable, DeValue};

/// The keys of `[expect]`.
const EXPECT_KEYS: &[&str] = &[
    "winner",
    "turn",
    "turn_player",
    "phase",
    "log",
    "not_log",
    "player",
    "card",
];
/// The keys of `[[expect.card]]`.
const CARD_KEYS: &[&str] = &[
    "card",
    "player",
    "zone",
    "index",
    "stats",
    "states",
    "not_states",
    "counters",
    "face",
    "attached",
    "slot",
];
/// The suffix of a key that counts a zone's cards.
const COUNT_SUFFIX: &str = "_count";

/// True for a key of `[expect]` itself (not one of its tables of tables).
fn is_expect_key(key: &str) -> bool {
    key != "player" && key != "card" && EXPECT_KEYS.contains(&key)
}

/// Reads `[expect]`.
pub(super) fn expect(r: &mut Reader<'_>, v: &Value<'_>) -> Expect {
    let mut e = Expect::default();
    let Some(table) = r.table(v, "`expect`") else {
        return e;
    };
    for (k, v) in table.iter() {
        let key: &str = k.get_ref();
        match key {
            "winner" => e.winner = winner(r, v),
            "turn" => e.turn = r.positive(v, "`turn`"),
            "turn_player" => e.turn_player = r.positive(v, "`turn_player`"),
            "phase" => e.phase = r.name(v, "`phase`"),
            "log" => e.log = r.names(v, "`log`"),
            "not_log" => e.not_log = r.names(v, "`not_log`"),
            "player" if matches!(v.get_ref(), DeValue::Integer(_)) => {
                let help = "write `turn_player = N` to check whose turn it is: `player` in \
                            `[expect]` holds the `[[expect.player]]` tables";
                r.wrong_type(
                    v,
                    "`player` in `[expect]`",
                    "a list of tables",
                    Some(help.into()),
                );
            }
            "player" => {
                for (span, t) in r.tables(v, "`expect.player`", "[[expect.player]]") {
                    if let Some(p) = player(r, span, t) {
                        e.players.push(p);
                    }
                }
            }
            "card" => {
                for (span, t) in r.tables(v, "`expect.card`", "[[expect.card]]") {
                    if let Some(c) = card(r, span, t) {
                        e.cards.push(c);
                    }
                }
            }
            _ => r.unknown_key(k, "`[expect]`", EXPECT_KEYS),
        }
    }
    e
}

/// `"p1"`…, `"draw"` or `"none"`.
fn winner(r: &mut Reader<'_>, v: &Value<'_>) -> Option<Spanned<Winner>> {
    let s = r.name(v, "`winner`")?;
    match parse_winner(&s.value) {
        Ok(w) => Some(Spanned::new(w, s.span)),
        Err(()) => {
            let text = s.value.as_str();
            let lower = text.to_lowercase();
            let help = if parse_winner(&lower).is_ok() {
                format!("did you mean `{lower}`?")
            } else if lower.starts_with('p') && lower[1..].bytes().all(|b| b == b'0') {
                "seats count from 1: `p1` is the first player".to_string()
            } else if let Some(c) = closest(&lower, ["draw", "none"]) {
                format!("did you mean `{c}`?")
            } else {
                "write the winning seat (`p1`, `p2`, …), `draw`, or `none` if the game goes on"
                    .to_string()
            };
            r.error(
                codes::SCENARIO_BAD_WINNER,
                s.span,
                format!("`{text}` is no winner"),
                "expected `p1`, `p2`, …, `draw` or `none`",
                Some(help),
            );
            None
        }
    }
}

/// Reads a winner's text.
fn parse_winner(text: &str) -> Result<Winner, ()> {
    match text {
        "draw" => Ok(Winner::Draw),
        "none" => Ok(Winner::None),
        _ => {
            let digits = text.strip_prefix('p').ok_or(())?;
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(());
            }
            match digits.parse::<u32>() {
                Ok(n) if n >= 1 => Ok(Winner::Player(n)),
                _ => Err(()),
            }
        }
    }
}

/// One `[[expect.player]]` table.
fn player(r: &mut Reader<'_>, span: Span, table: &DeTable<'_>) -> Option<ExpectPlayer> {
    let mut seat = None;
    let mut p = ExpectPlayer {
        player: Spanned::default_at_start(0),
        span,
        counters: Vec::new(),
        zones: Vec::new(),
        counts: Vec::new(),
    };
    let mut has_player = false;
    for (k, v) in table.iter() {
        let key: &str = k.get_ref();
        match (key, v.get_ref()) {
            ("player", _) => {
                has_player = true;
                seat = r.positive(v, "`player`");
            }
            ("counters", _) => p.counters = r.counters(v, "`counters`"),
            _ if is_top_key(key) => {
                r.unknown_key(k, "`[[expect.player]]`", &["player", "counters"])
            }
            _ if is_expect_key(key) => r.misplaced_key(k, "`[[expect.player]]`", "`[expect]`"),
            (_, DeValue::Array(_)) => {
                let what = format!("zone `{key}`");
                let cards = entries(r, v, &what, EntryMode::Contents, 0);
                p.zones.push(ZoneCards {
                    zone: r.key(k),
                    cards,
                });
            }
            (_, DeValue::Integer(_))
                if key.len() > COUNT_SUFFIX.len() && key.ends_with(COUNT_SUFFIX) =>
            {
                let zone_name = &key[..key.len() - COUNT_SUFFIX.len()];
                let whole = r.key(k);
                let zone_span = r.inner(span_of(k), key, 0..zone_name.len());
                let what = format!("`{}`", whole.value);
                if let Some(count) = r.uint(v, &what, 0, u64::MAX) {
                    p.counts.push(ZoneCount {
                        zone: Spanned::new(zone_name.to_string(), zone_span),
                        count,
                    });
                }
            }
            (_, DeValue::Integer(_)) => {
                let help = format!(
                    "write `{key}{COUNT_SUFFIX} = N` for the number of cards in zone `{key}`"
                );
                r.wrong_type(v, &format!("zone `{key}`"), "a list of cards", Some(help));
            }
            _ => {
                let help = closest(key, ["player", "counters"])
                    .map(|c| format!("did you mean `{c}`?"))
                    .unwrap_or_else(|| r.zone_hint(key, v));
                r.wrong_type(v, &format!("zone `{key}`"), "a list of cards", Some(help));
            }
        }
    }
    if !has_player {
        r.missing(span, "player", "`[[expect.player]]`", "player = 1");
    }
    p.player = seat?;
    Some(p)
}

/// One `[[expect.card]]` table.
fn card(r: &mut Reader<'_>, span: Span, table: &DeTable<'_>) -> Option<ExpectCard> {
    let mut c = ExpectCard {
        card: Spanned::default_at_start(String::new()),
        player: None,
        zone: None,
        index: Spanned::default_at_start(1),
        stats: Vec::new(),
        states: Vec::new(),
        not_states: Vec::new(),
        counters: Vec::new(),
        face: None,
        attached: None,
        slot: None,
        span,
    };
    let mut name = None;
    let mut has_card = false;
    for (k, v) in table.iter() {
        let key: &str = k.get_ref();
        match key {
            "card" => {
                has_card = true;
                name = r.name(v, "`card`");
            }
            "player" => c.player = r.positive(v, "`player`"),
            "zone" => c.zone = r.name(v, "`zone`"),
            "index" => {
                if let Some(i) = r.positive(v, "`index`") {
                    c.index = i;
                }
            }
            "stats" => c.stats = stats(r, v),
            "states" => c.states = r.names(v, "`states`"),
            "not_states" => c.not_states = r.names(v, "`not_states`"),
            "counters" => c.counters = r.counters(v, "`counters`"),
            "face" => c.face = face(r, v),
            "slot" => c.slot = r.name(v, "`slot`"),
            "attached" => c.attached = Some(entries(r, v, "`attached`", EntryMode::Contents, 0)),
            _ if is_expect_key(key) => r.misplaced_key(k, "`[[expect.card]]`", "`[expect]`"),
            _ => r.unknown_key(k, "`[[expect.card]]`", CARD_KEYS),
        }
    }
    if !has_card {
        r.missing(span, "card", "`[[expect.card]]`", "card = \"card name\"");
    }
    c.card = name?;
    Some(c)
}

/// `stats = { might = 3, strength = "3/2" }`.
fn stats(r: &mut Reader<'_>, v: &Value<'_>) -> Vec<StatCheck> {
    let Some(table) = r.table(v, "`stats`") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in table.iter() {
        let stat = r.key(k);
        let what = format!("stat `{}`", stat.value);
        let value = match v.get_ref() {
            DeValue::Integer(_) => r
                .int(v, &what)
                .map(|n| Spanned::new(StatValue::Number(n.value), n.span)),
            DeValue::String(s) => composite(r, s, span_of(v), &what),
            _ => {
                let help = "write a number (`might = 3`) or a composite stat's components in a string (`strength = \"3/2\"`)";
                r.wrong_type(v, &what, "a number or a string", Some(help.into()));
                None
            }
        };
        if let Some(value) = value {
            out.push(StatCheck { stat, value });
        }
    }
    out
}

/// `"3/2"`: a composite stat's components.
fn composite(r: &mut Reader<'_>, text: &str, span: Span, what: &str) -> Option<Spanned<StatValue>> {
    let parts: Option<Vec<i64>> = text.split('/').map(|p| p.trim().parse().ok()).collect();
    match parts {
        Some(parts) if parts.len() >= 2 => Some(Spanned::new(StatValue::Composite(parts), span)),
        _ => {
            r.bad_value(
                span,
                format!("`{text}` is no value of {what}"),
                "expected numbers separated by `/`",
                Some("write a composite stat's components as `\"3/2\"`, a plain stat's value as a number without quotes".into()),
            );
            None
        }
    }
}
