//! Decks: `.deck` files of `<count> <card>` lines, resolved against the cards of one game's
//! loaded packs and checked against that game's deck rules (the ruleset's `deck { … }`).
//!
//! The format is documented in `docs/decks.md`. A deck belongs to a game: one in a pack's
//! `decks/` folder belongs to that pack's game, and may name the cards of every loaded pack of
//! that game. Like every phase, this one returns diagnostics on the exact token and reports
//! every problem of a file at once (up to [`MAX_LINE_ERRORS`] wrong lines).

use crate::base::diagnostic::{codes, Code, Diagnostic, Label};
use crate::base::source::{FileId, SourceFile, Span};
use crate::ir::normalize;
use crate::ir::{self, CopiesPer, DeckRule, NormRule};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;

/// Most copies one line may hold: a count is a handful, and a bound keeps a hostile count from
/// expanding into billions of cards.
pub const MAX_COUNT: u32 = 999;
/// Most cards a deck may hold whatever its game says: [`Deck::cards`] expands them.
pub const MAX_DECK_CARDS: u64 = 10_000;
/// Wrong lines reported per file; the rest are summed up in one last diagnostic.
pub const MAX_LINE_ERRORS: usize = 100;
/// Card texts longer than this (in characters) get no did-you-mean: no card has such a name,
/// and the edit distance grows with the product of the lengths.
const MAX_SUGGESTED: usize = 100;
/// Card texts longer than this (in bytes) are looked up by exact name only: no card has such a
/// name or number, and normalizing megabytes costs seconds.
const MAX_CARD_TEXT: usize = 1024;
/// Lines labelled on one copy-limit diagnostic.
const MAX_LABELS: usize = 16;

/// A deck whose every line named one card and which follows its game's deck rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    /// The deck file's display path.
    pub path: String,
    /// The game it is for.
    pub game: String,
    /// Its lines, in file order (a card on several lines has several entries).
    pub entries: Vec<DeckEntry>,
}

/// One `<count> <card>` line of a deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckEntry {
    /// The card's id (`pack:number`).
    pub card: ir::Id,
    /// How many copies (1 to [`MAX_COUNT`]).
    pub count: u32,
    /// The 1-based line it is on.
    pub line: usize,
    /// The entry's bytes in the file: count through card, without comment or outer blanks.
    pub span: Span,
}

impl Deck {
    /// Every card of the deck, one id per copy, in file order: what a game shuffles.
    pub fn cards(&self) -> Vec<ir::Id> {
        self.entries
            .iter()
            .flat_map(|e| std::iter::repeat_n(e.card, e.count as usize))
            .collect()
    }

    /// The number of cards (the sum of the counts).
    pub fn size(&self) -> usize {
        self.entries.iter().map(|e| e.count as usize).sum()
    }
}

/// Reads the deck in `source` (registered as `file`) against `ruleset`, the game's ruleset, and
/// `cards`, every card of the game's loaded packs. Returns the deck, or every diagnostic found
/// (sorted) when there is at least one error.
pub fn load_deck(
    file: FileId,
    source: &SourceFile,
    ruleset: &ir::Ruleset,
    cards: &[&ir::Card],
) -> Result<Deck, Vec<Diagnostic>> {
    load_deck_in(file, source, ruleset, cards, None)
}

/// [`load_deck`], also checking the deck against `format`, the ruleset's deck format of that
/// name (`format mtl { … }` in its `deck { … }`). A name the ruleset does not declare checks
/// the base rules only: see [`ir::Ruleset::deck_format`] to refuse it first.
pub fn load_deck_in(
    file: FileId,
    source: &SourceFile,
    ruleset: &ir::Ruleset,
    cards: &[&ir::Card],
    format: Option<&str>,
) -> Result<Deck, Vec<Diagnostic>> {
    let index = Index::new(ruleset, cards);
    let mut diags = Vec::new();
    let mut found: Vec<Found> = Vec::new();
    // The sum of every count read, and whether every line's count could be read.
    let mut total: u64 = 0;
    let mut complete = true;
    let mut wrong = 0;
    for (line, start, raw) in lines(&source.text) {
        let problem = match split_line(file, start, raw) {
            Ok(None) => continue,
            Ok(Some(entry)) => {
                total += u64::from(entry.count);
                match index.find(file, &entry) {
                    Ok(card) => {
                        found.push(Found { card, line, entry });
                        continue;
                    }
                    Err(d) => d,
                }
            }
            Err(d) => {
                complete = false;
                d
            }
        };
        wrong += 1;
        if wrong > MAX_LINE_ERRORS {
            diags.push(too_many_errors(file, problem.primary.span));
            complete = false;
            found.clear();
            break;
        }
        diags.push(*problem);
    }
    if complete {
        check_size(file, &source.text, ruleset, total, &mut diags);
    }
    for rule in &ruleset.deck {
        match rule {
            DeckRule::Copies { max, per } => {
                check_copies(file, &index, &found, *max, *per, None, &mut diags)
            }
            DeckRule::CopiesAnd { max, per, field } => {
                check_copies(file, &index, &found, *max, *per, Some(field), &mut diags)
            }
            DeckRule::MaxOfType { max, card_type } => {
                check_type(file, ruleset, cards, &found, *max, card_type, &mut diags)
            }
            DeckRule::Size(_) | DeckRule::MinSize(_) | DeckRule::MaxSize(_) => {}
            DeckRule::Format(_) => {}
        }
    }
    if let Some(format) = format.and_then(|name| ruleset.deck_format(name)) {
        let deck = Whole {
            file,
            text: &source.text,
            found: &found,
            // Lines that could not be read may hold more cards: "too few" waits for them.
            complete: complete && wrong == 0,
        };
        deck.check_format(&index, format, &mut diags);
    }
    if diags.iter().any(Diagnostic::is_error) {
        crate::base::diagnostic::sort(&mut diags);
        return Err(diags);
    }
    Ok(Deck {
        path: source.path.clone(),
        game: ruleset.id.clone(),
        entries: found
            .into_iter()
            .map(|f| DeckEntry {
                card: cards[f.card].id,
                count: f.entry.count,
                line: f.line,
                span: f.entry.span,
            })
            .collect(),
    })
}

// ───────────────────────────── lines ─────────────────────────────

/// A line split into a count and a card text (not looked up yet).
struct Entry<'t> {
    count: u32,
    card: &'t str,
    card_span: Span,
    span: Span,
}

/// What is wrong with a line (boxed: lines are mostly right).
type Problem = Box<Diagnostic>;

/// A line whose card was found: the index of the card in the candidates.
struct Found<'t> {
    card: usize,
    line: usize,
    entry: Entry<'t>,
}

/// The lines of `text`: 1-based number, byte offset of the start, text without `\n` or `\r\n`.
fn lines(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let mut start = 0;
    text.split('\n').enumerate().map(move |(i, l)| {
        let at = start;
        start += l.len() + 1;
        (i + 1, at, l.strip_suffix('\r').unwrap_or(l))
    })
}

/// The line without its comment (`#` or `//` to the end of the line).
fn strip_comment(line: &str) -> &str {
    let cut = [line.find('#'), line.find("//")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(line.len());
    &line[..cut]
}

/// Splits one line into its count and card; `None` for a blank or comment line.
fn split_line(file: FileId, start: usize, raw: &str) -> Result<Option<Entry<'_>>, Problem> {
    let body = strip_comment(raw);
    let content = body.trim();
    if content.is_empty() {
        return Ok(None);
    }
    let at = start + (body.len() - body.trim_start().len());
    let span = Span::new(at, at + content.len());
    let (token, rest) =
        content.split_at(content.find(char::is_whitespace).unwrap_or(content.len()));
    let count_span = Span::new(at, at + token.len());
    let count = parse_count(file, token, count_span, content, span)?;
    let card = rest.trim();
    if card.is_empty() {
        return Err(Box::new(
            Diagnostic::error(
                codes::DECK_MISSING_CARD,
                file,
                count_span,
                format!("a count of {count} with no card after it"),
                "copies of what?",
            )
            .with_help("write the card's exact name or its number after the count"),
        ));
    }
    let card_at = count_span.end + (rest.len() - rest.trim_start().len());
    Ok(Some(Entry {
        count,
        card,
        card_span: Span::new(card_at, card_at + card.len()),
        span,
    }))
}

/// Reads the count `token` at `span` of the line `content` (at `line`).
fn parse_count(
    file: FileId,
    token: &str,
    span: Span,
    content: &str,
    line: Span,
) -> Result<u32, Problem> {
    // Full-width digits (`３`) are digits.
    let digits: Cow<str> = if token.is_ascii() {
        Cow::Borrowed(token)
    } else {
        Cow::Owned(token.nfkc().collect())
    };
    let invalid = |message: String, label: &str, help: String| {
        Box::new(
            Diagnostic::error(codes::DECK_INVALID_COUNT, file, span, message, label)
                .with_help(help),
        )
    };
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Leading zeros say nothing; past them, more than 9 digits is beyond any count.
        let significant = digits.trim_start_matches('0');
        let value = match significant.len() {
            0 => Some(0),
            1..=9 => significant.parse::<u32>().ok(),
            _ => None,
        };
        return match value {
            Some(0) => Err(invalid(
                "a count of 0".into(),
                "no copies",
                "remove the line, or comment it out with `#`".into(),
            )),
            Some(n) if n <= MAX_COUNT => Ok(n),
            _ => Err(invalid(
                format!("count `{token}` is too large"),
                "too many copies",
                format!("a line holds at most {MAX_COUNT} copies"),
            )),
        };
    }
    let mut chars = digits.chars();
    let first = chars.next();
    let second = chars.next();
    let numeric = first.is_some_and(|c| c.is_ascii_digit())
        || (matches!(first, Some('-' | '+' | 'x' | 'X' | '×'))
            && second.is_some_and(|c| c.is_ascii_digit()));
    if numeric {
        let bare = digits.trim_matches(['x', 'X', '×']);
        let help = if digits.starts_with('-') {
            "a count is at least 1".to_string()
        } else if bare.len() < digits.len() && bare.bytes().all(|b| b.is_ascii_digit()) {
            let card = content[token.len()..].trim();
            let card = if card.chars().count() <= 60 {
                card
            } else {
                "…"
            };
            format!("write the count alone: `{bare} {card}`")
        } else {
            "a count is a whole number of copies, such as `2`".to_string()
        };
        return Err(invalid(
            format!("count `{token}` is not a whole number"),
            "not a count",
            help,
        ));
    }
    let help = if content.chars().count() <= 60 {
        format!("start the line with how many copies: `1 {content}`")
    } else {
        "start the line with how many copies: `1 <card>`".to_string()
    };
    Err(Box::new(
        Diagnostic::error(
            codes::DECK_MISSING_COUNT,
            file,
            line,
            "this line has no count",
            "expected `<count> <card>`",
        )
        .with_help(help),
    ))
}

/// The diagnostic that ends a file with too many wrong lines, at the first one not reported.
fn too_many_errors(file: FileId, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::DECK_TOO_MANY_ERRORS,
        file,
        span,
        format!(
            "more than {MAX_LINE_ERRORS} lines of this deck are wrong; the rest are not reported"
        ),
        "not checked from here on",
    )
    .with_help("is this a deck file? Each line is `<count> <card>`; fix the lines above first")
}

// ───────────────────────────── looking cards up ─────────────────────────────

/// The candidate cards by every key a deck may name them by.
struct Index<'a> {
    cards: &'a [&'a ir::Card],
    numbers: &'a [NormRule],
    names: &'a [NormRule],
    by_name: HashMap<&'a str, Vec<usize>>,
    by_number: HashMap<&'a str, Vec<usize>>,
    by_id: HashMap<&'a str, usize>,
    /// By name after the ruleset's name normalization (empty when it declares none).
    by_normal_name: HashMap<String, Vec<usize>>,
}

impl<'a> Index<'a> {
    fn new(ruleset: &'a ir::Ruleset, cards: &'a [&'a ir::Card]) -> Self {
        let mut index = Index {
            cards,
            numbers: &ruleset.numbers,
            names: &ruleset.names,
            by_name: HashMap::new(),
            by_number: HashMap::new(),
            by_id: HashMap::new(),
            by_normal_name: HashMap::new(),
        };
        for (i, c) in cards.iter().enumerate() {
            index.by_name.entry(c.name.as_str()).or_default().push(i);
            index
                .by_number
                .entry(c.normalized_number.as_str())
                .or_default()
                .push(i);
            index.by_id.insert(c.id.as_str(), i);
            if !index.names.is_empty() {
                index
                    .by_normal_name
                    .entry(index.name_key(c))
                    .or_default()
                    .push(i);
            }
        }
        index
    }

    /// The card's name as the ruleset compares names.
    fn name_key(&self, card: &ir::Card) -> String {
        normalize::apply(self.names, &card.name)
    }

    /// The one card `entry` names: by exact name, by normalized number, by id, then by
    /// normalized name.
    fn find(&self, file: FileId, entry: &Entry) -> Result<usize, Problem> {
        let text = entry.card;
        let hits: &[usize] = if let Some(h) = self.by_name.get(text) {
            h
        } else if text.len() > MAX_CARD_TEXT {
            &[]
        } else if let Some(h) = self
            .by_number
            .get(normalize::apply(self.numbers, text).as_str())
        {
            h
        } else if let Some(h) = self.by_id.get(text) {
            std::slice::from_ref(h)
        } else {
            self.by_normal_name
                .get(&normalize::apply(self.names, text))
                .map_or(&[], Vec::as_slice)
        };
        match hits {
            [one] => Ok(*one),
            [] => Err(Box::new(self.unknown(file, entry))),
            many => Err(Box::new(self.ambiguous(file, entry, many))),
        }
    }

    fn unknown(&self, file: FileId, entry: &Entry) -> Diagnostic {
        let text = entry.card;
        let help = (text.chars().count() <= MAX_SUGGESTED)
            .then(|| {
                let keys = self
                    .cards
                    .iter()
                    .flat_map(|c| [c.name.as_str(), c.number.as_str()]);
                crate::base::diagnostic::did_you_mean(text, keys)
            })
            .flatten()
            .unwrap_or_else(|| "write the card's exact printed name or its number".into());
        Diagnostic::error(
            codes::DECK_UNKNOWN_CARD,
            file,
            entry.card_span,
            format!("no card is named or numbered `{text}`"),
            "unknown card",
        )
        .with_help(help)
    }

    fn ambiguous(&self, file: FileId, entry: &Entry, hits: &[usize]) -> Diagnostic {
        let cards: Vec<&ir::Card> = hits.iter().map(|i| self.cards[*i]).collect();
        // Numbers are unique within a pack; cards of two packs can share one: then the ids.
        let mut numbers: Vec<&str> = cards.iter().map(|c| c.normalized_number.as_str()).collect();
        numbers.sort_unstable();
        numbers.dedup();
        let (what, keys): (&str, Vec<&str>) = if numbers.len() == cards.len() {
            ("numbers", cards.iter().map(|c| c.number.as_str()).collect())
        } else {
            ("ids", cards.iter().map(|c| c.id.as_str()).collect())
        };
        let list = keys
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ");
        Diagnostic::error(
            codes::DECK_AMBIGUOUS_CARD,
            file,
            entry.card_span,
            format!("`{}` names {} cards", entry.card, cards.len()),
            "which one?",
        )
        .with_help(format!("write one of their {what} instead: {list}"))
    }
}

// ───────────────────────────── deck rules ─────────────────────────────

/// The span of the file's first line: where whole-deck problems are labelled.
fn first_line(text: &str) -> Span {
    let line = text.split('\n').next().unwrap_or("");
    Span::new(0, line.strip_suffix('\r').unwrap_or(line).len())
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The size rules, and [`MAX_DECK_CARDS`] whatever the ruleset says.
fn check_size(
    file: FileId,
    text: &str,
    ruleset: &ir::Ruleset,
    total: u64,
    diags: &mut Vec<Diagnostic>,
) {
    let cards = plural(total, "card", "cards");
    let mut report = |limit: String, help: String| {
        diags.push(
            Diagnostic::error(
                codes::DECK_SIZE,
                file,
                first_line(text),
                format!("this deck has {cards}; {limit}"),
                format!("this deck: {cards}"),
            )
            .with_help(help),
        );
    };
    if total > MAX_DECK_CARDS {
        return report(
            format!("fuda reads decks of at most {MAX_DECK_CARDS}"),
            "no game has decks this large: check the counts".into(),
        );
    }
    let add = |n: u64| format!("add {}", plural(n - total, "card", "cards"));
    let remove = |n: u64| format!("remove {}", plural(total - n, "card", "cards"));
    for rule in &ruleset.deck {
        match *rule {
            DeckRule::Size(n) if total != u64::from(n) => {
                let n = u64::from(n);
                let help = if total < n { add(n) } else { remove(n) };
                report(format!("the game requires exactly {n}"), help);
            }
            DeckRule::MinSize(n) if total < u64::from(n) => {
                report(format!("the game requires at least {n}"), add(n.into()));
            }
            DeckRule::MaxSize(n) if total > u64::from(n) => {
                report(format!("the game allows at most {n}"), remove(n.into()));
            }
            _ => {}
        }
    }
}

/// A copy limit: the entries grouped by number or name (and by `field`, when given), each
/// group over `max` reported.
fn check_copies(
    file: FileId,
    index: &Index,
    found: &[Found],
    max: u32,
    per: CopiesPer,
    field: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) {
    let key = |card: usize| {
        let c = index.cards[card];
        let mut key = match per {
            CopiesPer::Number => c.normalized_number.clone(),
            CopiesPer::Name => index.name_key(c),
        };
        if let Some(f) = field {
            // NUL separates the two parts: no number or name holds one.
            key.push('\0');
            key.push_str(&field_text(c, f));
        }
        key
    };
    for (key, group) in groups(found, key) {
        let card = index.cards[group[0].card];
        let name = &card.name;
        let also = field.map_or(String::new(), |f| {
            format!(", {f} `{}`", field_text(card, f))
        });
        let key = key.split('\0').next().unwrap_or(&key);
        let limit = match per {
            CopiesPer::Number => Limit {
                code: codes::DECK_TOO_MANY_COPIES,
                what: format!("copies of `{name}` (number `{key}`{also})"),
                unit: ("copy", "copies"),
                note: "",
            },
            CopiesPer::Name => Limit {
                code: codes::DECK_TOO_MANY_COPIES,
                what: format!(
                    "cards named `{name}`{}",
                    field.map_or(String::new(), |f| format!(
                        " ({f} `{}`)",
                        field_text(card, f)
                    ))
                ),
                unit: ("card", "cards"),
                note: "cards of one name count together, whatever their numbers: ",
            },
        };
        limit.check(file, &group, max, diags);
    }
}

/// A `max N <card type>` rule.
fn check_type(
    file: FileId,
    ruleset: &ir::Ruleset,
    cards: &[&ir::Card],
    found: &[Found],
    max: u32,
    card_type: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let group: Vec<&Found> = found
        .iter()
        .filter(|f| cards[f.card].card_type == card_type)
        .collect();
    let name = card_type.rsplit(':').next().unwrap_or(card_type);
    let label = ruleset
        .card_types
        .iter()
        .find(|t| t.name.id == card_type)
        .and_then(|t| t.name.label.as_deref())
        .map_or(String::new(), |l| format!(" ({l})"));
    let (one, many) = (format!("`{name}` card"), format!("`{name}` cards"));
    Limit {
        code: codes::DECK_TOO_MANY_OF_TYPE,
        what: format!("{many}{label}"),
        unit: (&one, &many),
        note: "",
    }
    .check(file, &group, max, diags);
}

/// The entries grouped by the `key` of their card, groups in the order of their first line
/// (each card's key is computed once).
fn groups<'f, 't>(
    found: &'f [Found<'t>],
    key: impl Fn(usize) -> String,
) -> Vec<(String, Vec<&'f Found<'t>>)> {
    let mut out: Vec<(String, Vec<&Found>)> = Vec::new();
    let mut by_key: HashMap<String, usize> = HashMap::new();
    let mut by_card: HashMap<usize, usize> = HashMap::new();
    for f in found {
        let group = *by_card.entry(f.card).or_insert_with(|| {
            let k = key(f.card);
            *by_key.entry(k.clone()).or_insert_with(|| {
                out.push((k, Vec::new()));
                out.len() - 1
            })
        });
        out[group].1.push(f);
    }
    out
}

/// A limit on the copies of a group of entries, with the words to report it in.
struct Limit<'w> {
    code: Code,
    /// What is counted: "copies of `X` (number `1`)".
    what: String,
    /// One and several of what is removed: ("copy", "copies").
    unit: (&'w str, &'w str),
    /// Said before what to remove, to explain the count.
    note: &'w str,
}

impl Limit<'_> {
    /// Reports `group` when its copies exceed `max`: every line of it labelled (up to
    /// [`MAX_LABELS`] more), the first one primary.
    fn check(&self, file: FileId, group: &[&Found], max: u32, diags: &mut Vec<Diagnostic>) {
        let total: u64 = group.iter().map(|f| u64::from(f.entry.count)).sum();
        let Some(first) = group.first() else { return };
        if total <= u64::from(max) {
            return;
        }
        let remove = plural(total - u64::from(max), self.unit.0, self.unit.1);
        let mut d = Diagnostic::error(
            self.code,
            file,
            first.entry.span,
            format!("{total} {}; the game allows at most {max}", self.what),
            format!("{} here", first.entry.count),
        )
        .with_help(format!("{}remove {remove}", self.note));
        for f in group.iter().skip(1).take(MAX_LABELS) {
            let more = format!("{} more here", f.entry.count);
            d = d.with_related(Label::new(file, f.entry.span, more));
        }
        diags.push(d);
    }
}

// ───────────────────────────── deck formats ─────────────────────────────

/// The value of a card's field as deck rules compare it (every card has the field: the checker
/// makes sure of it; a card without one counts as the empty text).
fn field_text(card: &ir::Card, field: &str) -> String {
    match card.fields.get(field) {
        Some(ir::Value::Text(t)) => t.clone(),
        Some(ir::Value::Number(n)) => n.to_string(),
        Some(ir::Value::Bool(b)) => b.to_string(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    }
}

/// Values listed in a format diagnostic's help.
const MAX_LISTED: usize = 10;

/// A deck as a chosen format checks it: its entries, and whether they are all its lines.
struct Whole<'d, 't> {
    file: FileId,
    text: &'d str,
    found: &'d [Found<'t>],
    /// Every line was read and named a card.
    complete: bool,
}

/// The cards of one value of a field: the value, the entries, how many cards.
type ValueGroup<'f, 't> = (String, Vec<&'f Found<'t>>, u64);

impl Whole<'_, '_> {
    /// Checks every constraint of `format`.
    fn check_format(&self, index: &Index, format: &ir::DeckFormat, diags: &mut Vec<Diagnostic>) {
        let named = match &format.label {
            Some(l) => format!("format `{}` ({l})", format.name),
            None => format!("format `{}`", format.name),
        };
        for rule in &format.rules {
            match rule {
                ir::FormatRule::Distinct {
                    field,
                    bound,
                    value,
                } => self.check_distinct(index, &named, field, *bound, *value, diags),
                ir::FormatRule::PerValue {
                    field,
                    bound,
                    value,
                } => self.check_per_value(index, &named, field, *bound, *value, diags),
            }
        }
    }

    /// The entries grouped by their card's value of `field`, in the order of their first line.
    fn by_value<'s>(&'s self, index: &Index, field: &str) -> Vec<ValueGroup<'s, 's>> {
        groups(self.found, |c| field_text(index.cards[c], field))
            .into_iter()
            .map(|(v, g)| {
                let n = g.iter().map(|f| u64::from(f.entry.count)).sum();
                (v, g, n)
            })
            .collect()
    }

    /// `distinct <field> <bound> N`: too many values is labelled on the lines of the values
    /// with the fewest cards (the ones to remove); too few on the first line.
    fn check_distinct(
        &self,
        index: &Index,
        named: &str,
        field: &str,
        bound: ir::Bound,
        value: u32,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut values = self.by_value(index, field);
        let n = values.len() as u64;
        if bound.holds(n, value) || (n < u64::from(value) && !self.complete) {
            return;
        }
        // Most cards first; ties in the order of their first line (a stable sort).
        values.sort_by_key(|(_, _, cards)| std::cmp::Reverse(*cards));
        let listed = values
            .iter()
            .take(MAX_LISTED)
            .map(|(v, _, cards)| format!("`{v}` ({})", plural(*cards, "card", "cards")))
            .collect::<Vec<_>>()
            .join(", ");
        let more = if values.len() > MAX_LISTED {
            ", …"
        } else {
            ""
        };
        let kinds = plural(n, "value", "different values");
        let message = format!(
            "this deck's cards have {kinds} of `{field}`; {named} requires {}",
            bound.words(value)
        );
        let found = format!("`{field}` in this deck: {listed}{more}");
        if n > u64::from(value) {
            let surplus = &values[value as usize..];
            let names = surplus
                .iter()
                .take(MAX_LISTED)
                .map(|(v, _, _)| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let mut lines: Vec<(&Found, &str)> = surplus
                .iter()
                .flat_map(|(v, g, _)| g.iter().map(move |f| (*f, v.as_str())))
                .collect();
            lines.sort_by_key(|(f, _)| f.line);
            let Some((first, v)) = lines.first() else {
                return;
            };
            let mut d = Diagnostic::error(
                codes::DECK_FORMAT_DISTINCT,
                self.file,
                first.entry.span,
                message,
                format!("{field} `{v}`"),
            )
            .with_help(format!("{found}; remove the cards of {names}"));
            for (f, v) in lines.iter().skip(1).take(MAX_LABELS) {
                d = d.with_related(Label::new(
                    self.file,
                    f.entry.span,
                    format!("{field} `{v}`"),
                ));
            }
            diags.push(d);
        } else {
            let span = self
                .found
                .first()
                .map_or_else(|| first_line(self.text), |f| f.entry.span);
            let missing = u64::from(value) - n;
            let more = plural(missing, "more value", "more values");
            let help = if n == 0 {
                format!("add cards of {more} of `{field}`")
            } else {
                format!("{found}; add cards of {more} of `{field}`")
            };
            diags.push(
                Diagnostic::error(
                    codes::DECK_FORMAT_DISTINCT,
                    self.file,
                    span,
                    message,
                    format!("too few `{field}` values"),
                )
                .with_help(help),
            );
        }
    }

    /// `<bound> N per <field>`: each value with too many or too few cards, labelled on its
    /// lines.
    fn check_per_value(
        &self,
        index: &Index,
        named: &str,
        field: &str,
        bound: ir::Bound,
        value: u32,
        diags: &mut Vec<Diagnostic>,
    ) {
        for (v, group, cards) in self.by_value(index, field) {
            let few = cards < u64::from(value);
            if bound.holds(cards, value) || (few && !self.complete) {
                continue;
            }
            let Some(first) = group.first() else { continue };
            let help = if few {
                format!(
                    "add {} of `{v}`, or remove its {cards}",
                    plural(u64::from(value) - cards, "card", "cards")
                )
            } else {
                format!(
                    "remove {} of `{v}`",
                    plural(cards - u64::from(value), "card", "cards")
                )
            };
            let mut d = Diagnostic::error(
                codes::DECK_FORMAT_PER_VALUE,
                self.file,
                first.entry.span,
                format!(
                    "{} of {field} `{v}`; {named} requires {} per `{field}`",
                    plural(cards, "card", "cards"),
                    bound.words(value)
                ),
                format!("{} here", first.entry.count),
            )
            .with_help(help);
            for f in group.iter().skip(1).take(MAX_LABELS) {
                let more = format!("{} more here", f.entry.count);
                d = d.with_related(Label::new(self.file, f.entry.span, more));
            }
            diags.push(d);
        }
    }
}
