//! The data model of a scenario file: plain values the runner reads. Every name the runner
//! resolves against the compiled packs (game, zones, cards, states, counters, stats, phases,
//! actions) keeps the span of its token, so that "unknown zone" lands on the exact characters
//! (the file is [`Scenario::file`]). `docs/scenarios.md` describes the format these come from.

use crate::base::source::{FileId, Span};
use std::ops::Deref;

/// A value with the bytes of the scenario file it was read from. A value the file leaves out
/// and that has a default carries an empty span at the start of the file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it is written (inside the quotes for a string written without escapes).
    pub span: Span,
}

impl<T> Spanned<T> {
    /// `value` written at `span`.
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
    /// A default value the file does not write.
    pub fn default_at_start(value: T) -> Self {
        Spanned::new(value, Span::default())
    }
}

impl<T> Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

/// One scenario: a starting state, a script of answers and the expected outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// The file it was read from (every span below is in this file).
    pub file: FileId,
    /// Its name: the `name` key, or the file name without `.toml`.
    pub name: String,
    /// The game (pack) whose rules run the scenario.
    pub game: Spanned<String>,
    /// The rule numbers it tests, as written (`6.2.4.d`); may be empty.
    pub rules: Vec<Spanned<String>>,
    /// What it shows, in one or two sentences.
    pub description: Option<String>,
    /// The seed of the game's random number generator.
    pub seed: u64,
    /// The most engine steps the run may take before it fails (a guard against loops).
    pub max_steps: Spanned<u64>,
    /// The deck format the game is played in (`deck_format()`): a format of the game's
    /// `deck { … }`; `None`: none.
    pub deck_format: Option<Spanned<String>>,
    /// Where the game starts.
    pub start: Start,
    /// The starting contents of each seat, in seat order (player 1 first).
    pub players: Vec<PlayerSetup>,
    /// The scripted actions and answers, in order.
    pub script: Vec<Answer>,
    /// What must hold when the run stops.
    pub expect: Expect,
}

/// The `[start]` table: the turn, turn player and phase the game starts in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Start {
    /// The turn number, 1 by default.
    pub turn: Spanned<u32>,
    /// The turn (active) player's seat, 1-based, 1 by default.
    pub player: Spanned<u32>,
    /// The phase to start in.
    pub phase: StartPhase,
}

impl Default for Start {
    /// Turn 1 of player 1, in the turn's first phase: a scenario without `[start]`.
    fn default() -> Self {
        Start {
            turn: Spanned::default_at_start(1),
            player: Spanned::default_at_start(1),
            phase: StartPhase::First,
        }
    }
}

/// Where in the turn a scenario starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartPhase {
    /// No `phase` key: the first phase of the turn.
    First,
    /// `phase = "setup"`: the game's own setup runs first, on the zones the file gives.
    Setup(Span),
    /// A phase the ruleset declares, by name.
    Named(Spanned<String>),
}

/// One `[[player]]` table: a seat's counters and the starting contents of its zones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerSetup {
    /// The seat, 1-based (the table's position among the `[[player]]` tables).
    pub seat: u32,
    /// The table's header or inline table.
    pub span: Span,
    /// The player's counters (`counters = { wounds = 3 }`).
    pub counters: Vec<Counter>,
    /// The zones the table fills; zones it leaves out start empty.
    pub zones: Vec<ZoneCards>,
}

/// A counter name and its value (`wounds = 3`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    /// The counter, as the ruleset declares it.
    pub name: Spanned<String>,
    /// Its value.
    pub value: Spanned<i64>,
}

/// A zone and a list of cards: its starting contents in a setup, or its exact expected
/// contents in an expectation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneCards {
    /// The zone, as the ruleset declares it (the key).
    pub zone: Spanned<String>,
    /// The cards, in the order written (top first for an ordered zone's setup).
    pub cards: Vec<CardEntry>,
}

/// One card entry: `"name x2"` or a table `{ card = "name", count = 2, states = [...], ... }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardEntry {
    /// The card's name or number, as written (without the ` xN` suffix).
    pub card: Spanned<String>,
    /// How many copies, 1 by default.
    pub count: u32,
    /// The states the card is put in (`tapped`).
    pub states: Vec<Spanned<String>>,
    /// The counters put on the card.
    pub counters: Vec<Counter>,
    /// Face up or face down, if given.
    pub face: Option<Spanned<Face>>,
    /// The cards attached to it (each copy gets its own).
    pub attached: Vec<CardEntry>,
    /// The slot of the zone it is put in (`front_left`), if the game has slots.
    pub slot: Option<Spanned<String>>,
    /// The whole entry.
    pub span: Span,
}

/// Which side of a card is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Face {
    /// `"up"`.
    Up,
    /// `"down"`.
    Down,
}

/// One script line: `p1: raid Ashwolf`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The seat that answers, 1-based.
    pub player: u32,
    /// What it answers.
    pub kind: AnswerKind,
    /// The line's text inside its quotes (the whole string when it has escapes).
    pub span: Span,
}

/// What a script line answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerKind {
    /// `pass`: do nothing at this point (ends the player's part of a window).
    Pass,
    /// `yes`: accept an optional effect (`may`).
    Yes,
    /// `no`: decline an optional effect.
    No,
    /// `concede`: the player concedes the game.
    Concede,
    /// `choose a, b`: the options with these names (cards by name or number, `#N` kept in the
    /// text); `choose nothing` is the empty list.
    Choose(Vec<Spanned<String>>),
    /// `option draw`: a named option that is no card (a mode).
    Option(Spanned<String>),
    /// `declare 博麗 霊夢`: the name, race or number declared.
    Declare(Spanned<String>),
    /// `repeat 3`: how many more times a loop repeats (docs/engine.md, "Loops").
    Repeat(u32),
    /// Anything else: an action or ability-kind name, then the card it is done with, if any
    /// (`raid Ashwolf`, `activated Ember #2`; the `#N` suffix is kept in the text).
    Action {
        /// The action or ability kind (the first word).
        name: Spanned<String>,
        /// The rest of the line, trimmed; `None` when empty.
        card: Option<Spanned<String>>,
    },
}

/// The `[expect]` table: what must hold when the run stops. Anything left out is not checked.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Expect {
    /// Who won.
    pub winner: Option<Spanned<Winner>>,
    /// The turn number.
    pub turn: Option<Spanned<u32>>,
    /// The turn (active) player's seat (`turn_player`).
    pub turn_player: Option<Spanned<u32>>,
    /// The current phase, by name.
    pub phase: Option<Spanned<String>>,
    /// Texts that must appear in the event log, each in a later line than the one before.
    pub log: Vec<Spanned<String>>,
    /// Texts no line of the event log may contain.
    pub not_log: Vec<Spanned<String>>,
    /// The `[[expect.player]]` tables.
    pub players: Vec<ExpectPlayer>,
    /// The `[[expect.card]]` tables.
    pub cards: Vec<ExpectCard>,
}

/// The expected outcome of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winner {
    /// `"p2"`: this seat (1-based) won.
    Player(u32),
    /// `"draw"`: the game ended in a draw.
    Draw,
    /// `"none"`: the game has not ended.
    None,
}

/// One `[[expect.player]]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectPlayer {
    /// The seat it checks, 1-based.
    pub player: Spanned<u32>,
    /// The table's header or inline table.
    pub span: Span,
    /// Counters that must have these values (a counter the player lacks reads 0).
    pub counters: Vec<Counter>,
    /// Zones that must hold exactly these cards (by name, in any order).
    pub zones: Vec<ZoneCards>,
    /// Zones that must hold this many cards (`hand_count = 4`).
    pub counts: Vec<ZoneCount>,
}

/// `<zone>_count = N`: the number of cards in a zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneCount {
    /// The zone (the key without `_count`).
    pub zone: Spanned<String>,
    /// The number of cards.
    pub count: Spanned<u64>,
}

/// One `[[expect.card]]` table: checks on one card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectCard {
    /// The card's name or number.
    pub card: Spanned<String>,
    /// Whose zones to look in, if given.
    pub player: Option<Spanned<u32>>,
    /// Which zone to look in, if given.
    pub zone: Option<Spanned<String>>,
    /// Which of the matching cards, 1-based (1 by default).
    pub index: Spanned<u32>,
    /// Stats that must have these values (as modified).
    pub stats: Vec<StatCheck>,
    /// States the card must be in.
    pub states: Vec<Spanned<String>>,
    /// States the card must not be in.
    pub not_states: Vec<Spanned<String>>,
    /// Counters that must have these values (a counter the card lacks reads 0).
    pub counters: Vec<Counter>,
    /// The side that must be up, if given.
    pub face: Option<Spanned<Face>>,
    /// The cards that must be attached to it, exactly (by name, in any order), if given.
    pub attached: Option<Vec<CardEntry>>,
    /// The slot it must be in (`"none"`: in no slot), if given.
    pub slot: Option<Spanned<String>>,
    /// The table's header or inline table.
    pub span: Span,
}

/// A stat and its expected value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatCheck {
    /// The stat, as the ruleset declares it.
    pub stat: Spanned<String>,
    /// The expected value.
    pub value: Spanned<StatValue>,
}

/// The expected value of a stat.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StatValue {
    /// A plain stat: `might = 3`.
    Number(i64),
    /// A composite stat, one number per component: `strength = "3/2"`.
    Composite(Vec<i64>),
}
