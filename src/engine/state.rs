//! Game state: players, card instances, zones, modifiers. Plain data that can be cloned (for
//! search agents) and compared; the rules that change it live in the VM.

use crate::ir;
use std::collections::BTreeMap;

/// A card instance: an index into [`State::cards`], fixed for the whole game.
pub type CardId = u32;
/// A seat, 0-based.
pub type Seat = u8;

// Narrowing helpers: what they narrow is bounded by the `ir::MAX_*` capacities, which the
// checker reports and `Program::new` enforces, so the fallbacks never apply to a game that
// started; they exist so that nothing wraps if one did.

/// Seat `i` (at most `ir::MAX_PLAYERS`).
pub fn seat(i: usize) -> Seat {
    Seat::try_from(i).unwrap_or(Seat::MAX)
}

/// A declaration's or an ability's `u16` index (at most `ir::MAX_INDEXED_DECLARATIONS`).
pub fn index16(i: usize) -> u16 {
    u16::try_from(i).unwrap_or(u16::MAX)
}

/// The id of the `i`th card instance.
pub fn card_id(i: usize) -> CardId {
    CardId::try_from(i).unwrap_or(CardId::MAX)
}

/// A `u32` index (a card definition's).
pub fn index32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// How logs and prompts number a seat: 1 for seat 0 (`p1`).
pub fn shown(p: Seat) -> u16 {
    u16::from(p).saturating_add(1)
}

/// The set of every seat of a game of `players`, as a bit mask (bit `p` for seat `p`).
pub fn everyone(players: usize) -> u32 {
    let n = u32::try_from(players).unwrap_or(u32::BITS);
    u32::MAX
        .checked_shr(u32::BITS.saturating_sub(n))
        .filter(|_| n > 0)
        .unwrap_or(0)
}

/// The seat `k` places after `p` among `players`, in turn order.
pub fn seat_after(p: usize, k: usize, players: usize) -> usize {
    p.saturating_add(k).checked_rem(players).unwrap_or(0)
}

/// The seat after `p` among `players`, in turn order.
pub fn next_seat(p: usize, players: usize) -> usize {
    seat_after(p, 1, players)
}

/// A zone of a player (or of everyone, for shared zones: owner 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ZoneKey {
    /// The zone's index.
    pub zone: u16,
    /// Whose.
    pub owner: Seat,
}

/// Some players, in order (inline: a zone value's owners are read at every filter).
pub type Seats = smallvec::SmallVec<[Seat; 8]>;

/// A runtime value.
#[derive(Debug, Clone, PartialEq, Hash)]
pub enum Value {
    /// Nothing (an optional payload left out, a card that is not there).
    Absent,
    /// A number.
    Int(i64),
    /// A truth value.
    Bool(bool),
    /// A text.
    Text(String),
    /// A card.
    Card(CardId),
    /// A set of cards.
    Cards(Vec<CardId>),
    /// A player.
    Player(Seat),
    /// Several players.
    Players(Vec<Seat>),
    /// A zone of one or more players.
    Zone(u16, Seats),
    /// A composite stat's components (`None`: no modifier, 6.1.14).
    Pair(Vec<Option<i64>>),
    /// A list of other values, shared: a copy is a count, and the only variant holding values
    /// is dropped out of line, so that dropping any other value is a few instructions (values
    /// are made and dropped at nearly every expression).
    List(std::sync::Arc<Vec<Value>>),
}

impl Value {
    /// Whether this is the truth value true (anything else reads as false in a condition).
    pub fn is_true(&self) -> bool {
        matches!(self, Value::Bool(true))
    }
}

/// `n` values, the `i`th from `value(i)` (called in order), moved into one shared allocation:
/// an event's payload read from its expressions. Up to four, as most events a ruleset emits
/// have, are written as an array and moved in whole; more are collected one by one.
#[inline]
pub(crate) fn shared_values(
    n: usize,
    mut value: impl FnMut(usize) -> Value,
) -> std::rc::Rc<[Value]> {
    use std::rc::Rc;
    match n {
        0 => Rc::from([]),
        1 => Rc::from([value(0)]),
        2 => Rc::from([value(0), value(1)]),
        3 => Rc::from([value(0), value(1), value(2)]),
        4 => Rc::from([value(0), value(1), value(2), value(3)]),
        n => (0..n).map(value).collect(),
    }
}

/// What a modifier does.
#[derive(Debug, Clone, PartialEq)]
pub enum ModKind {
    /// A stat change in a layer: `op` is `=`, `+=`, `-=`, `*=` or `<->` (swap the components).
    Stat {
        /// Plain stat index (for swap: the composite stat index).
        stat: u16,
        /// Layer position.
        layer: u16,
        /// The operator.
        op: StatOp,
        /// The operand.
        value: i64,
    },
    /// A keyword given.
    Grant(u16, Vec<Value>),
    /// A keyword taken away.
    Remove(u16),
    /// Text negated (`all`: 【 】 text too).
    NegateText(bool),
    /// The effects of the card's abilities negated while it lasts (12.4.3: 【 】 ones too):
    /// continuous ones stop applying, triggered ones resolve with no effect.
    NegateEffect,
}

/// A stat operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StatOp {
    /// `=`
    Set,
    /// `+=` (and `-=` with a negated operand)
    Add,
    /// `*=`
    Mul,
    /// `<->`: swap the components of a composite stat.
    Swap,
}

/// How long a modifier lasts.
#[derive(Debug, Clone, PartialEq)]
pub enum Until {
    /// Until the card changes zones (3.1.7).
    LeavesZone,
    /// Until a moment.
    Moment(u16),
    /// Until a moment is reached for a player (or for everyone).
    MomentOf(u16, Seat),
    /// While a condition holds, read with the context it was made in.
    While(Box<WhileCond>),
}

/// A `while` duration's condition and the context it was made in: `you`, `this`, the event,
/// and the values the effect's variables had then (a `let` is fixed when its line runs).
#[derive(Debug, Clone, PartialEq)]
pub struct WhileCond {
    /// The condition.
    pub cond: ir::Expr,
    /// `you` when it was made.
    pub you: Seat,
    /// `this` when it was made.
    pub this: Option<CardId>,
    /// The event being handled when it was made, if any.
    pub event: Option<std::rc::Rc<super::EventData>>,
    /// The variables visible when it was made, the newest of each name.
    pub vars: std::rc::Rc<Vec<(String, Value)>>,
}

/// A modifier on one card.
#[derive(Debug, Clone, PartialEq)]
pub struct Modifier {
    /// When it started applying (6.1.11: the last applied wins).
    pub timestamp: u64,
    /// The card.
    pub card: CardId,
    /// The card's incarnation it was made for: a zone change ends it (3.1.7).
    pub incarnation: u32,
    /// What it does.
    pub kind: ModKind,
    /// How long.
    pub until: Until,
}

/// "From now on treat as" (12.5): the card's information defined independently of any effect.
#[derive(Debug, Clone, PartialEq)]
pub struct TreatAs {
    /// Card type index into the ruleset's card types (by id).
    pub card_type: String,
    /// Fields it gets (stats included, by stat id or field name).
    pub fields: BTreeMap<String, Value>,
}

/// One card in the game (the default: a blank card of player 0, nothing of it set yet).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CardState {
    /// Its definition (index into the program's cards).
    pub def: u32,
    /// Who owns it.
    pub owner: Seat,
    /// Who controls it.
    pub controller: Seat,
    /// Where it is.
    pub zone: ZoneKey,
    /// Face up.
    pub face_up: bool,
    /// States, one bit each.
    pub states: u64,
    /// Counters, by counter index.
    pub counters: Vec<i64>,
    /// The card it is set on.
    pub host: Option<CardId>,
    /// Bumped on every zone change that makes it a new object (3.1.7).
    pub incarnation: u32,
    /// When its abilities started applying: it entered its zone, or it was last set on a card
    /// (its carried abilities apply from then, PMV 6.1.11 and 6.1.13).
    pub entered: u64,
    /// "Treat as" information.
    pub treat: Option<TreatAs>,
    /// Players who know what it is although it is hidden, one bit each.
    pub known: u32,
    /// Its effect was negated (it does nothing when resolved).
    pub effect_negated: bool,
    /// Its slot in a zone with slots.
    pub slot: Option<String>,
}

/// A player.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerState {
    /// Counters, by counter index.
    pub counters: Vec<i64>,
    /// Lost (or conceded).
    pub lost: bool,
    /// Won.
    pub won: bool,
}

/// A player keyword given to a player (a restriction such as PMV 6.3.8's).
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerKeyword {
    /// The player.
    pub player: Seat,
    /// The keyword, by index.
    pub keyword: u16,
    /// How long (`LeavesZone`: the rest of the game, a player leaves no zone).
    pub until: Until,
}

/// A zone read as another while an effect applies (as PMV 3.3.6 requires).
#[derive(Debug, Clone, PartialEq)]
pub struct Alias {
    /// The zone replaced.
    pub from: ZoneKey,
    /// The zone it reads as.
    pub to: ZoneKey,
    /// How long.
    pub until: Until,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// One player won.
    Win(Seat),
    /// A draw (both won or lost at once, an unavoidable loop, the step limit).
    Draw,
}

/// Everything that changes during a game.
#[derive(Debug, Clone)]
pub struct State {
    /// Players by seat.
    pub players: Vec<PlayerState>,
    /// Every card instance.
    pub cards: Vec<CardState>,
    /// Zone contents, `zone * players + owner`; for ordered zones the last card is the top.
    pub zones: Vec<Vec<CardId>>,
    /// One-shot modifiers.
    pub modifiers: Vec<Modifier>,
    /// Zone aliases.
    pub aliases: Vec<Alias>,
    /// Player keywords granted by one-shot effects.
    pub player_keywords: Vec<PlayerKeyword>,
    /// Events cancelled for a subject (`cancel raids of c`): (event index, subject).
    pub cancelled: Vec<(u16, Value)>,
    /// Uses of limited abilities: (card, incarnation, ability path) → (count, period).
    pub uses: Vec<(CardId, u32, u32, u16, String)>,
    /// A clock for timestamps.
    pub clock: u64,
    /// Bumped on every change (computed characteristics are cached per generation).
    pub generation: u64,
    /// The turn number (0 before the first).
    pub turn: u32,
    /// The turn player.
    pub active: Seat,
    /// The current phase.
    pub phase: Option<u16>,
    /// How the game ended.
    pub outcome: Option<Outcome>,
    /// Every event handled, in order (event index, payload): what `happened` reads.
    /// An event's payload is shared, not copied, when the state is cloned.
    pub history: Vec<(u16, std::rc::Rc<[Value]>)>,
    /// Where each moment was last reached: the length of `history` then, by moment index.
    pub reached: BTreeMap<u16, usize>,
}

impl State {
    /// The index of a zone's card list.
    pub fn slot(&self, k: ZoneKey) -> usize {
        (k.zone as usize)
            .saturating_mul(self.players.len())
            .saturating_add(k.owner as usize)
    }

    /// The cards of a zone (for ordered zones, bottom first).
    pub fn zone(&self, k: ZoneKey) -> &[CardId] {
        &self.zones[self.slot(k)]
    }

    /// A fresh timestamp.
    pub fn tick(&mut self) -> u64 {
        self.clock = self.clock.saturating_add(1);
        self.clock
    }

    /// Whether a card is in a state.
    pub fn in_state(&self, c: CardId, s: u16) -> bool {
        self.cards[c as usize].states & (1u64 << s) != 0
    }
}
