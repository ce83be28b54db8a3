//! The intermediate representation: plain serde data, the one contract
//! between the compiler and the engine.
//!
//! - Every name is resolved to a symbolic id qualified by the pack that
//!   declares it (`mygame:crypt`), never to a numeric index, so adding a
//!   declaration does not churn every snapshot.
//! - Source positions are not stored inline: [`SpanTable`] maps node paths to
//!   spans on the side, so IR snapshots stay stable when a comment moves.
//! - `docs/ir.md` documents what each node reads, changes and emits.
//! - Every field is always written (no skipped defaults, no flattening), so
//!   the same types serialize to pretty JSON for review and to a compact
//!   binary form for the compiled-pack cache. One exception: a zone's slot
//!   `groups` are left out of human-readable forms (JSON) when there are none,
//!   so rulesets without them read as before; the binary form always has them.

mod cards;
mod id;
mod map;
pub mod normalize;
pub mod outline;
pub mod phrase;
pub mod render;
mod spans;
pub mod walk;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use cards::{BadEncoding, Cards, CardsIndex};
pub use map::Map;

/// Bumped whenever the shape of the IR changes.
pub const IR_VERSION: u32 = 3;

// Engine capacities: the engine keeps some things in fixed-size integers. The compiler reports a
// ruleset or card that exceeds one (at check time, on the first declaration that does not fit),
// and the engine sizes its integers by the same numbers.

/// The most seats a game has (`players N`): seats are `u8`, and sets of players are `u32` bit
/// masks built as `(1 << players) - 1`.
pub const MAX_PLAYERS: usize = 16;

/// The most state values a ruleset declares, across all its `state` declarations: a card's
/// states are one `u64` bit mask. A flag (`state f`) takes one bit; a group
/// (`state g = a | b`) takes one bit per member and none for its own name.
pub const MAX_STATE_VALUES: usize = 64;

/// The most declarations of one indexed kind a ruleset holds: zones, stats, layers, counters,
/// keywords, events, moments, phases and actions are each numbered by a `u16` index in the
/// engine, and `u16::MAX` itself stays free (the layer order sorts modifiers of no layer after
/// every layer with it).
pub const MAX_INDEXED_DECLARATIONS: usize = u16::MAX as usize;

/// The most abilities one card has: an ability is found by its card and a `u16` index among the
/// card's abilities (`u16::MAX` kept free, as for [`MAX_INDEXED_DECLARATIONS`]).
pub const MAX_ABILITIES_PER_CARD: usize = u16::MAX as usize;

/// The most runs of one `while` loop: a loop whose condition still holds after this many runs
/// is an unavoidable loop, and the game is a draw.
pub const MAX_WHILE_ROUNDS: u32 = 10_000;

/// A symbolic id qualified by pack: `mygame:crypt` (interned: see `ir/id.rs`).
pub use id::Id;

pub use id::interned_size;

/// One compiled pack: its ruleset (game packs) and its cards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pack {
    /// [`IR_VERSION`] at compile time.
    pub ir_version: u32,
    /// The pack's name (the qualifier of its ids).
    pub name: String,
    /// The pack's version.
    pub version: String,
    /// The game its cards are for.
    pub game: String,
    /// The packs it requires.
    pub requires: Vec<String>,
    /// The ruleset, for a game pack; declarations a mod pack adds are merged in their own ruleset part.
    pub ruleset: Option<Ruleset>,
    /// Cards, in source order.
    pub cards: Cards,
    /// The pack's scripts (`.rhai` files), sorted by path.
    #[serde(default)]
    pub scripts: Vec<Script>,
}

/// A pack script: a `.rhai` file whose functions `script f(…)` statements call
/// (docs/language.md, "Scripts").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Script {
    /// Its path inside the pack (`scripts/reveal.rhai`).
    pub path: String,
    /// Its text, compiled once when a game's program is built.
    pub source: String,
}

/// Everything a game declares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Ruleset {
    /// The game's id.
    pub id: String,
    /// Display title.
    pub title: Option<String>,
    /// Number of seats.
    pub players: u32,
    /// Zones.
    pub zones: Vec<Zone>,
    /// State groups and flags.
    pub states: Vec<StateGroup>,
    /// Stats.
    pub stats: Vec<Stat>,
    /// Modifier layers, in application order.
    pub layers: Vec<Layer>,
    /// Counters on players and cards.
    pub counters: Vec<Counter>,
    /// Card types and their schemas.
    pub card_types: Vec<CardType>,
    /// Keyword abilities.
    pub keywords: Vec<Keyword>,
    /// Ability kinds.
    pub ability_kinds: Vec<AbilityKind>,
    /// Ability attributes.
    pub attributes: Vec<Attribute>,
    /// Events.
    pub events: Vec<Event>,
    /// Moments durations end at.
    pub moments: Vec<Labelled>,
    /// Verbs.
    pub verbs: Vec<Procedure>,
    /// Rules procedures.
    pub procedures: Vec<Procedure>,
    /// Card-number normalization.
    pub numbers: Vec<NormRule>,
    /// Name normalization.
    pub names: Vec<NormRule>,
    /// Deck construction rules.
    pub deck: Vec<DeckRule>,
    /// The moment an effect lasts until when its text names no duration (PM: end of turn);
    /// `null`: while its card stays in its zone.
    pub default_duration: Option<Id>,
    /// Who orders triggered abilities that wait at once (`controller` by default). Always
    /// written: the compiled-pack cache's format (postcard) cannot read a field left out.
    #[serde(default)]
    pub trigger_order: TriggerOrder,
    /// `setup { … }`: run once when a game starts, the first player resolving it.
    pub setup: Vec<Stmt>,
    /// `turn { … }`: run for every turn, the turn player resolving it; the engine runs turns
    /// in seat order until the game ends.
    pub turn: Vec<Stmt>,
    /// The phases the turn's `phase` statements name, in order.
    pub phases: Vec<Labelled>,
    /// Player actions that windows offer.
    pub actions: Vec<Action>,
    /// Rule actions, run at every check timing (once per player each, in turn order) until
    /// none changes the game; interrupt rules also right after every change.
    pub rules: Vec<Rule>,
}

/// `action raid "Raid" for c in unit on your.arena where it is ready if … { … }`:
/// something a player may do when a window offers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Action {
    /// Id and label.
    pub name: Labelled,
    /// The variable bound to the card the action is taken with (`for c in …`), if any.
    pub var: Option<Id>,
    /// The cards it may be taken with, evaluated for the acting player (`you`).
    pub candidates: Option<Expr>,
    /// When it may be taken (the variable is bound while this is evaluated).
    pub condition: Option<Expr>,
    /// What taking it does.
    pub body: Vec<Stmt>,
}

/// `rule collapse "Collapse" { … }`: a rule action checked at every check timing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    /// Id and label.
    pub name: Labelled,
    /// `interrupt`: it also runs right after every change the game makes, before the statement
    /// that made the change goes on (and first at every check timing).
    pub interrupt: bool,
    /// What it checks and does; run once per player (as `you`).
    pub body: Vec<Stmt>,
}

/// What a ruleset event means to the core, when the core itself causes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CoreEvent {
    /// A card is about to move: payload (card, from zone, to zone) in the event's first three
    /// parameters; replacement effects apply to it before the move happens.
    Move,
    /// A card has arrived in a zone: payload (card, zone).
    Enter,
    /// A card has left a zone: payload (card, zone); its abilities trigger as they were before.
    Leave,
    /// A player has declared something (`declare name`): payload (player, value: text).
    Declare,
}

/// One thing a window offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowEntry {
    /// A ruleset action.
    Action(Id),
    /// The abilities of a kind (activated semantics) on cards the player controls, optionally
    /// only those with an attribute (`activated with instant`).
    Abilities {
        /// The ability kind.
        kind: Id,
        /// The attribute they must have.
        attribute: Option<Id>,
    },
}

/// An id with its display label, and how it reads in printed card text.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Labelled {
    /// The id.
    pub id: Id,
    /// The label in the game's language.
    pub label: Option<String>,
    /// Language code (`en`, `ja`) → how the name reads in that language's printed card text
    /// (`reads …`; [`crate::ir::render`] fills them). Left out of JSON when empty.
    #[serde(default)]
    pub phrases: BTreeMap<String, Phrase>,
}

impl Labelled {
    /// A name with a label and no phrases.
    pub fn new(id: Id, label: Option<String>) -> Self {
        Labelled {
            id,
            label,
            phrases: BTreeMap::new(),
        }
    }
}

impl Serialize for Labelled {
    /// `phrases` is left out of human-readable output when empty (most names have none), and
    /// always written in binary formats, which cannot skip a field (the compiled-pack cache).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let with_phrases = !self.phrases.is_empty() || !s.is_human_readable();
        let mut k = s.serialize_struct("Labelled", if with_phrases { 3 } else { 2 })?;
        k.serialize_field("id", &self.id)?;
        k.serialize_field("label", &self.label)?;
        if with_phrases {
            k.serialize_field("phrases", &self.phrases)?;
        } else {
            k.skip_field("phrases")?;
        }
        k.end()
    }
}

/// How a declared name reads in one language's printed card text: a template whose
/// `{param}` holes take the arguments as rendered, and `{param:s}` an English plural ending
/// (`s` unless the argument is the number 1). Templates are plain text and holes, so a printed
/// text can be matched against them in the other direction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phrase {
    /// The template.
    pub text: String,
    /// The template used when a player argument is not its default (the form with a subject:
    /// `{p} draws {n} card{n:s}`); none: `text` serves for every argument.
    pub explicit: Option<String>,
}

/// Who may see the cards of a zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Everyone.
    Public,
    /// No one (face down).
    Private,
    /// Its owner only.
    OwnerSees,
}

/// A zone.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Zone {
    /// Id and label.
    pub name: Labelled,
    /// Who sees its cards.
    pub visibility: Visibility,
    /// Whether its cards have an order.
    pub ordered: bool,
    /// One per player (true) or shared.
    pub per_player: bool,
    /// A bare reference (no owner) means every player's zone rather than the resolving player's.
    pub bare_means_every: bool,
    /// `in_play`: cards here are in play: their abilities work here unless their kind names
    /// another zone, and their continuous effects apply.
    pub in_play: bool,
    /// `to_owner`: a card moving here goes to its owner's zone, whoever's the effect names
    /// (PMV 3.1.6: this beats card effects).
    pub to_owner: bool,
    /// `shuffle_when_seen`: when an effect searches or looks through the whole zone and does
    /// not shuffle it, the zone is shuffled as the effect ends (PMV 3.2.5).
    pub shuffle_when_seen: bool,
    /// Named slots.
    pub slots: Vec<String>,
    /// Relations between slots of facing players.
    pub relations: Vec<Relation>,
    /// Named groups of slots (`group near: …`), in declaration order.
    #[serde(default)]
    pub groups: Vec<SlotGroup>,
}

impl Serialize for Zone {
    /// Every field, in order; `groups` left out of a human-readable form (JSON) when empty, so
    /// the IR of a game without groups reads as it did before they existed.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let groups = !self.groups.is_empty() || !s.is_human_readable();
        let mut z = s.serialize_struct("Zone", if groups { 12 } else { 11 })?;
        z.serialize_field("name", &self.name)?;
        z.serialize_field("visibility", &self.visibility)?;
        z.serialize_field("ordered", &self.ordered)?;
        z.serialize_field("per_player", &self.per_player)?;
        z.serialize_field("bare_means_every", &self.bare_means_every)?;
        z.serialize_field("in_play", &self.in_play)?;
        z.serialize_field("to_owner", &self.to_owner)?;
        z.serialize_field("shuffle_when_seen", &self.shuffle_when_seen)?;
        z.serialize_field("slots", &self.slots)?;
        z.serialize_field("relations", &self.relations)?;
        if groups {
            z.serialize_field("groups", &self.groups)?;
        } else {
            z.skip_field("groups")?;
        }
        z.end()
    }
}

impl Zone {
    /// The slots a name stands for in this zone: the slot of that name, or a group's slots
    /// (empty when it is neither).
    pub fn slots_named<'z>(&'z self, name: &'z str) -> impl Iterator<Item = &'z str> + 'z {
        let group = self.groups.iter().find(|g| g.name == name);
        let single = (group.is_none() && self.slots.iter().any(|s| s == name)).then_some(name);
        group
            .into_iter()
            .flat_map(|g| g.slots.iter().map(String::as_str))
            .chain(single)
    }
}

/// `group near "Near": left, middle, right`: slots a zone names together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotGroup {
    /// The group's name (not qualified: slot names are not either).
    pub name: String,
    /// Its printed label.
    pub label: Option<String>,
    /// Its slots, slots of the zone.
    pub slots: Vec<String>,
}

/// A relation between slots: `(this player's slot, the opponent's slot)` pairs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relation {
    /// The relation's name.
    pub name: String,
    /// Slot pairs.
    pub pairs: Vec<(String, String)>,
}

/// An exclusive group of states, or a flag (no members).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateGroup {
    /// Id and label.
    pub name: Labelled,
    /// Members; empty for a flag.
    pub members: Vec<Labelled>,
}

/// A stat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stat {
    /// Id and label.
    pub name: Labelled,
    /// Components of a composite stat.
    pub components: Vec<Id>,
    /// Reads as this value when below it (the true value is kept).
    pub floor: Option<i64>,
}

/// A modifier layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layer {
    /// Id and label.
    pub name: Labelled,
    /// Operators that select it; empty when applied by name.
    pub ops: Vec<String>,
}

/// A counter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counter {
    /// Id and label.
    pub name: Labelled,
    /// Kept on players.
    pub on_players: bool,
    /// Kept on cards.
    pub on_cards: bool,
}

/// A card type and its schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardType {
    /// Id and label.
    pub name: Labelled,
    /// `= unit on arena`: a card of this type also counts as one of that type (`is`,
    /// `unit on …`), in that zone only when one is named (as PMV 6.1.1 requires).
    pub counts_as: Option<CountsAs>,
    /// Schema fields.
    pub fields: Vec<FieldSchema>,
}

/// What a card type also counts as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountsAs {
    /// The card type.
    pub card_type: Id,
    /// Where; `null`: everywhere.
    pub zone: Option<Id>,
    /// A state in which it does not count as that type (PMV 6.1.8.b); `null`: none.
    pub unless: Option<Id>,
}

/// One schema field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldSchema {
    /// The field's name.
    pub name: String,
    /// Its type.
    pub ty: FieldType,
    /// May be left out.
    pub optional: bool,
    /// Holds a list.
    pub list: bool,
}

/// Types of schema fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
    /// An integer.
    Number,
    /// A text.
    Text,
    /// A boolean.
    Bool,
    /// The card's base value of a stat.
    Stat(Id),
}

/// A keyword ability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Keyword {
    /// Id and label.
    pub name: Labelled,
    /// Value parameters.
    pub params: Vec<Param>,
    /// The core meaning it has, if any.
    pub semantics: Option<KeywordSemantics>,
}

/// Core meanings a keyword can be given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeywordSemantics {
    /// The card can't be chosen by `target` choices.
    Untargetable,
    /// Held by players, not cards: granted to a player with a duration
    /// (`grant k to opponent until m`), tested with `p has k` (PMV 6.3.8).
    Player,
}

/// The core semantics an ability kind maps onto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Semantics {
    /// Used by a player, paying a cost.
    Activated,
    /// Triggered by an event.
    Triggered,
    /// Applies while its card is where it works.
    Continuous,
    /// Replaces an event ("instead of").
    Replacement,
}

/// An ability kind.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct AbilityKind {
    /// Id and label.
    pub name: Labelled,
    /// Its core semantics.
    pub semantics: Semantics,
    /// The zone it works from when not the field.
    pub from_zone: Option<Id>,
    /// `optional_cost` (triggered kinds): as the ability resolves, its controller chooses
    /// whether its cost is paid; unpaid, the effect does not happen ("コストを払ってよい").
    #[serde(default)]
    pub optional_cost: bool,
}

impl Serialize for AbilityKind {
    /// Every field, in order; `optional_cost` left out of a human-readable form (JSON) when
    /// false, so the IR of a game without it reads as it did before it existed.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let optional = self.optional_cost || !s.is_human_readable();
        let mut k = s.serialize_struct("AbilityKind", if optional { 4 } else { 3 })?;
        k.serialize_field("name", &self.name)?;
        k.serialize_field("semantics", &self.semantics)?;
        k.serialize_field("from_zone", &self.from_zone)?;
        if optional {
            k.serialize_field("optional_cost", &self.optional_cost)?;
        } else {
            k.skip_field("optional_cost")?;
        }
        k.end()
    }
}

/// Who orders the triggered abilities waiting at once (`trigger_order` in a ruleset).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TriggerOrder {
    /// Each player orders their own; the turn player's resolve first, then the next player's
    /// (PMV, WS).
    #[default]
    Controller,
    /// The turn player orders all of them, both players' alike, before any resolves; they then
    /// resolve in that order (PM). Abilities triggered meanwhile wait for the next batch.
    TurnPlayer,
}

impl TriggerOrder {
    /// Whether this is the default (it is left out of the serialized ruleset).
    pub fn is_default(&self) -> bool {
        *self == TriggerOrder::Controller
    }
}

/// The core flag an attribute maps onto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttributeSemantics {
    /// Survives "negate text" effects that do not say they include it.
    Unnegatable,
    /// Carried by the host of the card it is set on; `this` means the host.
    Carried,
    /// Usable in a response window.
    Response,
}

/// An ability attribute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attribute {
    /// Id and label.
    pub name: Labelled,
    /// Its core flag.
    pub semantics: AttributeSemantics,
}

/// An event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Id and label.
    pub name: Labelled,
    /// Payload parameters.
    pub params: Vec<Param>,
    /// `= move|enter|leave`: the core emits it for its own changes.
    pub core: Option<CoreEvent>,
}

/// Value types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Type {
    /// An integer.
    Number,
    /// A boolean.
    Bool,
    /// A text.
    Text,
    /// One card.
    Card,
    /// A set of cards.
    Cards,
    /// A player.
    Player,
    /// A zone of a player (or every player).
    Zone,
    /// A pair for a composite stat.
    Pair,
}

/// A parameter of a verb, procedure, keyword or event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The name.
    pub name: Id,
    /// Accepted types (a union).
    pub types: Vec<Type>,
    /// May be absent.
    pub optional: bool,
    /// Default value.
    pub default: Option<Expr>,
}

/// A verb or procedure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Procedure {
    /// Id and label.
    pub name: Labelled,
    /// Parameters.
    pub params: Vec<Param>,
    /// Body.
    pub body: Vec<Stmt>,
}

/// A normalization rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NormRule {
    /// Unicode NFKC.
    Nfkc,
    /// Runs of full- or half-width spaces become one space.
    FoldSpaces,
    /// All spaces removed.
    RemoveSpaces,
    /// Leading and trailing spaces removed.
    Trim,
    /// Upper case.
    Uppercase,
    /// Lower case.
    Lowercase,
    /// The first matching prefix removed.
    StripPrefix(Vec<String>),
    /// The first matching suffix removed.
    StripSuffix(Vec<String>),
}

/// A deck construction rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckRule {
    /// Exactly N cards.
    Size(u32),
    /// At least N cards.
    MinSize(u32),
    /// At most N cards.
    MaxSize(u32),
    /// At most N copies of a card, counted by normalized number or by name.
    Copies {
        /// How many.
        max: u32,
        /// `per_number` or `per_name`.
        per: CopiesPer,
    },
    /// At most N cards of a card type.
    MaxOfType {
        /// How many.
        max: u32,
        /// Which card type.
        card_type: Id,
    },
    /// `copies N per_number and <field>`: at most N copies of a card, cards counted by number
    /// (or name) and by a field together, so that cards differing in the field are different.
    CopiesAnd {
        /// How many.
        max: u32,
        /// `per_number` or `per_name`.
        per: CopiesPer,
        /// The field (a required, non-list, non-stat field of every card type).
        field: String,
    },
    /// `format name "label" { … }`: a format a deck may be checked in on request; its
    /// constraints apply on top of the other rules.
    Format(DeckFormat),
}

impl Ruleset {
    /// The deck format of this name (`format mtl { … }` in the `deck { … }` block).
    pub fn deck_format(&self, name: &str) -> Option<&DeckFormat> {
        self.deck_formats().find(|f| f.name == name)
    }

    /// The deck formats, in source order.
    pub fn deck_formats(&self) -> impl Iterator<Item = &DeckFormat> {
        self.deck.iter().filter_map(|r| match r {
            DeckRule::Format(f) => Some(f),
            _ => None,
        })
    }
}

/// A deck format: constraints over card fields, checked only when the format is chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckFormat {
    /// Its name, as the command line takes it (`mtl`): not qualified.
    pub name: String,
    /// Its label in the game's language.
    pub label: Option<String>,
    /// Its constraints, in source order.
    pub rules: Vec<FormatRule>,
}

/// One constraint of a [`DeckFormat`] over a card field (a required, non-list, non-stat field
/// of every card type).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormatRule {
    /// `distinct <field> <bound> N`: the number of different values the deck's cards take.
    Distinct {
        /// The field.
        field: String,
        /// How the count compares to N.
        bound: Bound,
        /// N.
        value: u32,
    },
    /// `<bound> N per <field>`: the cards of each value the deck holds.
    PerValue {
        /// The field.
        field: String,
        /// How each value's count compares to N.
        bound: Bound,
        /// N.
        value: u32,
    },
}

/// How a count compares to a bound of a [`FormatRule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// `exactly N`.
    Exactly,
    /// `at_least N`.
    AtLeast,
    /// `at_most N`.
    AtMost,
}

impl Bound {
    /// Whether `count` keeps the bound `n`.
    pub fn holds(self, count: u64, n: u32) -> bool {
        let n = u64::from(n);
        match self {
            Bound::Exactly => count == n,
            Bound::AtLeast => count >= n,
            Bound::AtMost => count <= n,
        }
    }

    /// The bound in words: `exactly 2`, `at least 25`, `at most 3`.
    pub fn words(self, n: u32) -> String {
        match self {
            Bound::Exactly => format!("exactly {n}"),
            Bound::AtLeast => format!("at least {n}"),
            Bound::AtMost => format!("at most {n}"),
        }
    }
}

/// What makes two deck cards "the same card" for copy limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CopiesPer {
    /// The normalized card number.
    Number,
    /// The normalized name.
    Name,
}

// ───────────────────────────── cards ─────────────────────────────

/// A compiled card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// `pack:number`.
    pub id: Id,
    /// The printed number.
    pub number: String,
    /// The number after the ruleset's normalization.
    pub normalized_number: String,
    /// The printed name.
    pub name: String,
    /// The card type.
    pub card_type: Id,
    /// Schema fields other than stats.
    pub fields: Map<Id, Value>,
    /// Base stat values.
    pub stats: Map<Id, Value>,
    /// Keyword abilities with their values.
    pub keywords: Vec<KeywordInstance>,
    /// Abilities in source order.
    pub abilities: Vec<Ability>,
}

/// A constant field value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    /// An integer.
    Number(i64),
    /// A text.
    Text(String),
    /// A boolean.
    Bool(bool),
    /// A composite stat's components.
    Pair(Vec<i64>),
    /// A list.
    List(Vec<Value>),
}

/// A keyword on a card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeywordInstance {
    /// The keyword.
    pub keyword: Id,
    /// Its values.
    pub args: Vec<Expr>,
}

/// An ability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ability {
    /// The ability kind.
    pub kind: Id,
    /// Its core semantics (copied from the kind for the engine's convenience).
    pub semantics: Semantics,
    /// Attributes.
    pub attributes: Vec<Id>,
    /// The event that triggers it (triggered) or that it replaces (replacement).
    pub trigger: Option<Trigger>,
    /// `if`: checked when it triggers or is used.
    pub condition: Option<Expr>,
    /// `while`: applies only while true (continuous).
    pub while_condition: Option<Expr>,
    /// Costs, paid in order.
    pub cost: Vec<Stmt>,
    /// Use limit.
    pub limit: Option<Limit>,
    /// The zone it works from, when not the field.
    pub zone: Option<Id>,
    /// The effect.
    pub effect: Vec<Stmt>,
}

/// `limit N per period`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limit {
    /// How many uses.
    pub count: u32,
    /// `turn`, `game`, or a moment id.
    pub per: String,
}

/// An event pattern: the event and equality patterns on its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trigger {
    /// The event.
    pub event: Id,
    /// Parameter name → the value it must equal.
    pub when: Map<Id, Expr>,
}

// ───────────────────────────── statements ─────────────────────────────

/// How long a modification lasts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Duration {
    /// While the continuous ability producing it applies (or, for one-shot
    /// effects, until the card changes zone, 3.1.7).
    Default,
    /// Until a moment.
    Until(Id),
    /// While a condition holds.
    While(Expr),
    /// Until a moment is reached for a player (`until m of you`), the player read
    /// when the effect is made.
    UntilOf {
        /// The moment.
        moment: Id,
        /// The player.
        player: Expr,
    },
}

/// Where a move puts a card within its destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// On top.
    Top,
    /// At the bottom.
    Bottom,
}

/// Face up or down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// Front visible.
    Up,
    /// Front hidden.
    Down,
}

/// What a `negate` removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NegateScope {
    /// The cards' text (abilities), 12.4.
    Text,
    /// The effect of a card being played or resolving.
    Effect,
}

/// A statement of an effect, verb or procedure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stmt {
    /// Fix a value under a name.
    Let {
        /// The name.
        var: Id,
        /// The value, computed once.
        value: Expr,
    },
    /// Conditional arms, first true wins.
    If {
        /// (condition, body) pairs.
        arms: Vec<(Expr, Vec<Stmt>)>,
        /// The else body.
        otherwise: Vec<Stmt>,
    },
    /// Run the body once per card.
    ForEach {
        /// Loop variable.
        var: Id,
        /// The cards.
        cards: Expr,
        /// Body.
        body: Vec<Stmt>,
    },
    /// Run the body N times.
    Repeat {
        /// N.
        times: Expr,
        /// Body.
        body: Vec<Stmt>,
    },
    /// Run the body again and again while the condition holds (read before each run); at
    /// most [`MAX_WHILE_ROUNDS`] runs, after which the game is a draw (an unavoidable loop).
    While {
        /// The condition.
        cond: Expr,
        /// Body.
        body: Vec<Stmt>,
    },
    /// Ask players (in order) whether to do the body.
    May {
        /// Each player asked; all must agree.
        players: Vec<Expr>,
        /// Body.
        body: Vec<Stmt>,
    },
    /// Move cards to a zone.
    Move {
        /// The cards.
        cards: Expr,
        /// The destination zone.
        to: Expr,
        /// Top or bottom of an ordered zone.
        position: Option<Position>,
        /// Face up or down; none: the zone's default (3.1.5).
        face: Option<Face>,
        /// The state they arrive in.
        state: Option<Id>,
        /// The slot they go to (a slot name, or a text expression naming one).
        slot: Option<Expr>,
    },
    /// Set a card on another.
    Attach {
        /// The card set.
        card: Expr,
        /// Its host.
        host: Expr,
    },
    /// Put cards into a state.
    SetState {
        /// The cards.
        cards: Expr,
        /// The state.
        state: Id,
        /// How long.
        duration: Duration,
    },
    /// Take a flag state away.
    ClearState {
        /// The cards.
        cards: Expr,
        /// The flag.
        state: Id,
    },
    /// Make a zone read as another (as PMV 3.3.6 requires).
    AliasZone {
        /// The zone.
        zone: Expr,
        /// What it becomes.
        becomes: Id,
        /// How long.
        duration: Duration,
    },
    /// A layered stat modification.
    Modify {
        /// Cards modified.
        cards: Expr,
        /// The stat.
        stat: Id,
        /// The layer it applies in.
        layer: Id,
        /// The operator as written (`=`, `+=`, `-=`, …).
        op: String,
        /// The operand (a number, or a pair for a composite stat).
        value: Option<Expr>,
        /// How long.
        duration: Duration,
    },
    /// A counter change.
    Count {
        /// The player(s) or card(s).
        subject: Expr,
        /// The counter.
        counter: Id,
        /// `=`, `+=` or `-=`.
        op: String,
        /// The amount.
        value: Expr,
    },
    /// Give a keyword.
    Grant {
        /// The keyword.
        keyword: Id,
        /// Its values.
        args: Vec<Expr>,
        /// The cards.
        cards: Expr,
        /// How long.
        duration: Duration,
    },
    /// Take a keyword away.
    RemoveKeyword {
        /// The keyword.
        keyword: Id,
        /// The cards.
        cards: Expr,
        /// How long.
        duration: Duration,
    },
    /// Give a player keyword to players, or take it away (`grant`/`remove` of a keyword
    /// declared `= player`).
    PlayerKeyword {
        /// The keyword.
        keyword: Id,
        /// The players.
        players: Expr,
        /// `true`: grant it; `false`: end every grant of it to these players now.
        grant: bool,
        /// How long a grant lasts.
        duration: Duration,
    },
    /// Show cards to every player.
    Reveal {
        /// The cards.
        cards: Expr,
    },
    /// Let a player see cards (a look, not a reveal: 3.1.5.e).
    Look {
        /// The cards.
        cards: Expr,
        /// Who looks.
        by: Expr,
    },
    /// Shuffle a zone.
    Shuffle {
        /// The zone.
        zone: Expr,
    },
    /// Negate text or effects.
    Negate {
        /// The cards.
        cards: Expr,
        /// Text or effect.
        scope: NegateScope,
        /// Also negates unnegatable text (12.4).
        include_unnegatable: bool,
        /// How long.
        duration: Duration,
    },
    /// Cancel an event under way (an attack, 6.3.6).
    Cancel {
        /// The event.
        event: Id,
        /// Whose.
        subject: Option<Expr>,
    },
    /// "From now on treat as" (12.5): defines information independent of the effect.
    TreatAs {
        /// The cards.
        cards: Expr,
        /// The card type they become.
        card_type: Id,
        /// Fields and stats they get.
        fields: Map<Id, Expr>,
    },
    /// Call a function of a pack script: it reads the game, asks its choices, and its
    /// changes happen in order once it returns (docs/engine.md, "Scripts").
    Script {
        /// The function: `pack:name`, the pack whose scripts define it.
        function: Id,
        /// The arguments, in order.
        args: Vec<Expr>,
    },
    /// Emit an event.
    Emit {
        /// The event.
        event: Id,
        /// Payload by parameter name.
        args: Map<Id, Expr>,
    },
    /// A player picks one option.
    ChooseOne {
        /// Who chooses.
        chooser: Expr,
        /// Labelled options.
        options: Vec<(String, Vec<Stmt>)>,
    },
    /// A player wins.
    Win {
        /// The player.
        player: Expr,
    },
    /// A player loses.
    Lose {
        /// The player.
        player: Expr,
    },
    /// The game is a draw.
    DrawGame,
    /// Setup only: this player takes the first turn (and is the turn player for the rest of the
    /// setup).
    GoesFirst {
        /// The player.
        player: Expr,
    },
    /// Turn cards face up, face down, or over (`null`).
    Flip {
        /// The cards.
        cards: Expr,
        /// The face they end on; `null` turns them over.
        face: Option<Face>,
    },
    /// The body's changes happen at once: their events are emitted as one batch after it.
    Simultaneously {
        /// Body.
        body: Vec<Stmt>,
    },
    /// A phase of the turn: the game is in it while the body runs (scenarios can start in it).
    Phase {
        /// The phase.
        phase: Id,
        /// Body.
        body: Vec<Stmt>,
    },
    /// A timing window: the players, in the listed order, may take what it offers or pass; it
    /// ends when every player has passed in succession with nothing waiting. In a `chain`
    /// window, `chain { … }` bodies wait on a stack and resolve last-in-first-out when every
    /// player has passed in succession (PMV 6.2.2).
    Window {
        /// The players, in priority order (a player or a list).
        players: Expr,
        /// Whether it holds a response chain.
        chain: bool,
        /// `once`: each player takes at most one entry; after it they pass for the rest of it.
        once: bool,
        /// `unchecked`: no check timing opens its decisions (a declaration that is no play
        /// timing: WS 7.2.1.3 chooses the attacker with the 7.2.1.2 triggers still waiting).
        unchecked: bool,
        /// What it offers.
        entries: Vec<WindowEntry>,
    },
    /// Put the body on the innermost chain window's stack (run it now when there is none).
    Chain {
        /// Body, run later with the variables of now.
        body: Vec<Stmt>,
    },
    /// Run the abilities of a kind of cards (a spell's `play` text): costs, then effects.
    Resolve {
        /// The ability kind.
        kind: Id,
        /// The cards.
        cards: Expr,
    },
    /// A check timing: rule actions until none applies, then pending triggered abilities.
    Check,
    /// The game reaches a moment: every duration `until` it ends.
    Reach {
        /// The moment.
        moment: Id,
    },
    /// The game reaches a moment for one player: every duration `until` it ends, and every
    /// duration `until` it `of` that player.
    ReachOf {
        /// The moment.
        moment: Id,
        /// The player it is reached for.
        player: Expr,
    },
    /// Call a verb.
    Call {
        /// The verb.
        verb: Id,
        /// Arguments by parameter name (defaults filled in).
        args: Map<Id, Expr>,
        /// A duration passed to the verb.
        duration: Option<Duration>,
    },
}

/// A direct part of a statement that holds more IR: an expression or a block of statements.
#[derive(Debug, Clone, Copy)]
pub enum StmtChild<'s> {
    /// An expression the statement reads (a duration's included).
    Expr(&'s Expr),
    /// A block the statement runs (an arm, a body, an option).
    Block(&'s [Stmt]),
}

impl Duration {
    /// The expression a duration reads, if any (`while cond`, `until moment of player`).
    pub fn expr(&self) -> Option<&Expr> {
        match self {
            Duration::Default | Duration::Until(_) => None,
            Duration::While(e) => Some(e),
            Duration::UntilOf { player, .. } => Some(player),
        }
    }
}

impl Stmt {
    /// Calls `f` with each direct expression and block of the statement, in field order. Every
    /// form is listed (an exhaustive match), so a new form must say what it holds: walks over
    /// the whole IR (the engine's indices by address, say) see every part.
    pub fn each_child<'s>(&'s self, f: &mut impl FnMut(StmtChild<'s>)) {
        use StmtChild::{Block, Expr as E};
        let duration = |d: &'s Duration, f: &mut dyn FnMut(StmtChild<'s>)| {
            if let Some(e) = d.expr() {
                f(E(e));
            }
        };
        match self {
            Stmt::Let { value, .. } => f(E(value)),
            Stmt::If { arms, otherwise } => {
                for (cond, body) in arms {
                    f(E(cond));
                    f(Block(body));
                }
                f(Block(otherwise));
            }
            Stmt::ForEach { cards, body, .. } => {
                f(E(cards));
                f(Block(body));
            }
            Stmt::Repeat { times: e, body } | Stmt::While { cond: e, body } => {
                f(E(e));
                f(Block(body));
            }
            Stmt::May { players, body } => {
                for p in players {
                    f(E(p));
                }
                f(Block(body));
            }
            Stmt::Move {
                cards, to, slot, ..
            } => {
                f(E(cards));
                f(E(to));
                if let Some(s) = slot {
                    f(E(s));
                }
            }
            Stmt::Attach { card: a, host: b }
            | Stmt::Look { cards: a, by: b }
            | Stmt::Count {
                subject: a,
                value: b,
                ..
            } => {
                f(E(a));
                f(E(b));
            }
            Stmt::SetState {
                cards, duration: d, ..
            }
            | Stmt::RemoveKeyword {
                cards, duration: d, ..
            }
            | Stmt::Negate {
                cards, duration: d, ..
            }
            | Stmt::PlayerKeyword {
                players: cards,
                duration: d,
                ..
            }
            | Stmt::AliasZone {
                zone: cards,
                duration: d,
                ..
            } => {
                f(E(cards));
                duration(d, f);
            }
            Stmt::Modify {
                cards,
                value,
                duration: d,
                ..
            } => {
                f(E(cards));
                if let Some(v) = value {
                    f(E(v));
                }
                duration(d, f);
            }
            Stmt::Grant {
                args,
                cards,
                duration: d,
                ..
            } => {
                for a in args {
                    f(E(a));
                }
                f(E(cards));
                duration(d, f);
            }
            Stmt::ClearState { cards, .. }
            | Stmt::Reveal { cards }
            | Stmt::Shuffle { zone: cards }
            | Stmt::Flip { cards, .. }
            | Stmt::Resolve { cards, .. } => f(E(cards)),
            Stmt::Cancel { subject, .. } => {
                if let Some(s) = subject {
                    f(E(s));
                }
            }
            Stmt::TreatAs { cards, fields, .. } => {
                f(E(cards));
                for v in fields.values() {
                    f(E(v));
                }
            }
            Stmt::Script { args, .. } => {
                for a in args {
                    f(E(a));
                }
            }
            Stmt::Emit { args, .. } => {
                for a in args.values() {
                    f(E(a));
                }
            }
            Stmt::Call {
                args, duration: d, ..
            } => {
                for a in args.values() {
                    f(E(a));
                }
                if let Some(d) = d {
                    duration(d, f);
                }
            }
            Stmt::ChooseOne { chooser, options } => {
                f(E(chooser));
                for (_, body) in options {
                    f(Block(body));
                }
            }
            Stmt::Win { player }
            | Stmt::Lose { player }
            | Stmt::GoesFirst { player }
            | Stmt::ReachOf { player, .. } => f(E(player)),
            Stmt::Window { players, .. } => f(E(players)),
            Stmt::Simultaneously { body } | Stmt::Phase { body, .. } | Stmt::Chain { body } => {
                f(Block(body));
            }
            Stmt::DrawGame | Stmt::Check | Stmt::Reach { .. } => {}
        }
    }
}

// ───────────────────────────── expressions ─────────────────────────────

/// Arithmetic, comparison and logic operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (rounds toward zero)
    Div,
}

/// An expression.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expr {
    /// An integer.
    Int(i64),
    /// A text.
    Text(String),
    /// A boolean.
    Bool(bool),
    /// A pair for a composite stat; `null` components are "no modifier" (6.1.14).
    Pair(Vec<Option<i64>>),
    /// The card whose ability this is.
    This,
    /// The candidate inside a filter.
    It,
    /// The resolving player.
    You,
    /// The resolving player's opponent.
    Opponent,
    /// Every player (as the owner of a zone: `each.reserve`).
    EachPlayer,
    /// A let-binding, loop variable or parameter.
    Var(Id),
    /// A parameter of the triggering (or replaced) event.
    EventParam(Id),
    /// A zone of a player; `owner: null` is a bare zone name.
    Zone {
        /// The zone.
        zone: Id,
        /// Whose.
        owner: Option<Box<Expr>>,
    },
    /// A card's current (modified) stat.
    Stat {
        /// The card.
        of: Box<Expr>,
        /// The stat.
        stat: Id,
    },
    /// A counter of a player or card.
    Counter {
        /// Whose.
        of: Box<Expr>,
        /// The counter.
        counter: Id,
    },
    /// A card field (`name`, `race`, …).
    Field {
        /// The card.
        of: Box<Expr>,
        /// The field.
        field: Id,
    },
    /// The card in the slot related to this card's slot (`this.<relation>`), if any.
    Related {
        /// The card.
        of: Box<Expr>,
        /// The relation: `<zone id>.<relation name>`.
        relation: Id,
    },
    /// The slot a card is in, a text; absent when it is in none (`slot(c)`).
    SlotOf(Box<Expr>),
    /// The cards that are in a slot, or in a slot of a group, of their zone: `slot` is a text
    /// naming the slot or the group (`cards at near`); absent names none.
    AtSlot {
        /// The cards.
        cards: Box<Expr>,
        /// The slot or group name.
        slot: Box<Expr>,
    },
    /// A slot of a zone chosen by a player, a text (absent when no slot fits, or when an
    /// `optional` choice is declined): `choose 1 slot of your.lanes at near where s: …`.
    ChooseSlot {
        /// Who chooses.
        chooser: Box<Expr>,
        /// `up to 1`: the chooser may choose none.
        optional: bool,
        /// The zone (of one player).
        zone: Box<Expr>,
        /// Only the slots this text names (a slot or a group), if given.
        within: Option<Box<Expr>>,
        /// Only the slots for which this holds, the slot's name read as `SlotCandidate(0)`.
        condition: Option<Box<Expr>>,
    },
    /// The candidate slot (a text) of an enclosing slot choice's condition, counted out from the
    /// innermost (0).
    SlotCandidate(u32),
    /// Number of cards.
    Count(Box<Expr>),
    /// A card's owner.
    Owner(Box<Expr>),
    /// A card's controller.
    Controller(Box<Expr>),
    /// A player's opponent.
    OpponentOf(Box<Expr>),
    /// The smaller of two numbers.
    Min(Box<Expr>, Box<Expr>),
    /// The larger of two numbers.
    Max(Box<Expr>, Box<Expr>),
    /// Logical not.
    Not(Box<Expr>),
    /// Negation.
    Neg(Box<Expr>),
    /// A binary operator.
    Binary {
        /// The operator.
        op: Op,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// The left value, or the right one when the left is absent.
    Coalesce(Box<Expr>, Box<Expr>),
    /// Name containment after normalization (12.3.1).
    Contains {
        /// The text searched (a name, or a list field such as races).
        haystack: Box<Expr>,
        /// The text looked for.
        needle: Box<Expr>,
    },
    /// Whether a card has a keyword.
    HasKeyword {
        /// The card.
        card: Box<Expr>,
        /// The keyword.
        keyword: Id,
    },
    /// Whether a card has an ability of a kind.
    HasAbility {
        /// The card.
        card: Box<Expr>,
        /// The ability kind.
        kind: Id,
    },
    /// Whether a card has an ability with an attribute.
    HasAttribute {
        /// The card.
        card: Box<Expr>,
        /// The attribute.
        attribute: Id,
    },
    /// The number of the current turn (1 for the first).
    TurnNumber,
    /// The deck format the game is played in (`deck_format()`: `--deck-format`, a scenario's
    /// `deck_format`): the format's name, a text; absent when none was chosen.
    DeckFormat,
    /// Whether an event under way was cancelled for a subject (`cancelled(raids, a)`,
    /// after `cancel raids of a`) and not emitted again for it since.
    Cancelled {
        /// The event.
        event: Id,
        /// The subject (the event's first parameter).
        subject: Box<Expr>,
    },
    /// What happened: the events of a kind whose payload matches a pattern, since the game last
    /// reached a moment (or in the whole game). `happened(e(p: x), m)` is how many there were
    /// (a number); `happened_cards(e(p: x), c, m)` the cards their parameter `c` named (a set:
    /// each card once).
    Happened {
        /// The event and the payload pattern, as a trigger's.
        pattern: Box<Trigger>,
        /// The card parameter whose cards are wanted; none: the number of events.
        cards: Option<Id>,
        /// The moment the window starts at (its last reach); none: the whole game.
        since: Option<Id>,
    },
    /// The first value of a keyword a card has (`a.ward`: its ward number); absent when the
    /// card lacks the keyword.
    KeywordValue {
        /// The card.
        card: Box<Expr>,
        /// The keyword.
        keyword: Id,
    },
    /// Whether a player is the turn player.
    IsTurnPlayer(Box<Expr>),
    /// Whether two cards are the same card by number: their numbers are equal after the
    /// ruleset's `numbers { … }` normalization (a promo print and its base card).
    SameCard(Box<Expr>, Box<Expr>),
    /// Whether a card's effect is negated: `negate <card> effect` since it entered its zone (the
    /// card being played), or a negation of its effects lasting now.
    EffectNegated(Box<Expr>),
    /// Whether a card is face up (`up`) or face down.
    FaceIs {
        /// The card.
        card: Box<Expr>,
        /// The face.
        face: Face,
    },
    /// The number of different values a field takes over the cards.
    Distinct {
        /// The cards.
        cards: Box<Expr>,
        /// The field (a list field counts each element).
        field: Id,
    },
    /// The sum of `key` (read with `It` bound to each card; a card whose key is no number adds
    /// nothing) over the cards, saturating.
    Total {
        /// The value added up.
        key: Box<Expr>,
        /// The cards.
        cards: Box<Expr>,
    },
    /// Whether a card has an ability of `kind` it could use now: working where the card is,
    /// within its limit, its `if` holding and its cost payable in full, with `this` the card and
    /// `you` its controller (what a window would offer).
    Usable {
        /// The card.
        card: Box<Expr>,
        /// The ability kind.
        kind: Id,
    },
    /// The cards set on a card.
    Attached(Box<Expr>),
    /// The card a card is set on, if any.
    Host(Box<Expr>),
    /// Whether a card is in a state.
    InState {
        /// The card.
        card: Box<Expr>,
        /// The state.
        state: Id,
    },
    /// Whether a card is of a card type.
    OfType {
        /// The card.
        card: Box<Expr>,
        /// The card type.
        card_type: Id,
    },
    /// Whether a value is a player (`player`) or a card (`card`).
    IsKind {
        /// The value.
        value: Box<Expr>,
        /// `player` or `card`.
        kind: Type,
    },
    /// The cards satisfying a condition (`It` is the candidate).
    Filter {
        /// The cards.
        cards: Box<Expr>,
        /// The condition.
        condition: Box<Expr>,
    },
    /// The top or bottom N cards of an ordered zone.
    TopOf {
        /// Top (true) or bottom.
        top: bool,
        /// How many.
        count: Box<Expr>,
        /// The zone.
        zone: Box<Expr>,
    },
    /// A choice of cards made by a player.
    Choose {
        /// `choose`, `target` ("can't be targeted" applies) or `search` (through hidden cards).
        kind: ChoiceKind,
        /// Who chooses.
        chooser: Box<Expr>,
        /// Fewest allowed.
        min: Box<Expr>,
        /// Most allowed; null: any number.
        max: Option<Box<Expr>>,
        /// Among which cards.
        from: Box<Expr>,
    },
    /// A card's stat as printed: its value before any modifier (the card's, or what a "treat
    /// as" defined, 12.5) — `printed(c.strength)`.
    Printed {
        /// The card.
        of: Box<Expr>,
        /// The stat.
        stat: Id,
    },
    /// Whether a card's stat has a modifier applied now (of a layer, if named): for a
    /// composite stat, any component's; a `±0` component, or `+= 0`, is none (PMV 6.1.14) —
    /// `modified(c.strength)`, `modified(c.strength, boost)`.
    Modified {
        /// The card.
        of: Box<Expr>,
        /// The stat.
        stat: Id,
        /// Only modifiers of this layer.
        layer: Option<Id>,
    },
    /// Whether a player holds a player keyword (`you has k`).
    PlayerHas {
        /// The player.
        player: Box<Expr>,
        /// The keyword (declared `= player`).
        keyword: Id,
    },
    /// A declaration made by the resolving player (12.1): a name, a race…
    Declare(String),
    /// `count` of the cards picked at random by the engine (all when there are no more), from
    /// the game's random stream; one card when `count` is 1, else a set. Never asked of a
    /// player; replayed, not drawn again, when the statement reruns for a later choice.
    RandomCards {
        /// How many.
        count: Box<Expr>,
        /// Among which cards.
        from: Box<Expr>,
    },
    /// The card of `cards` whose `key` (read with `It` bound to each; a card whose key is no
    /// number is left out) is the highest (or lowest); a tie is a choice of the resolving
    /// player among the tied cards; absent when no card has a key.
    Extreme {
        /// Highest (true) or lowest.
        highest: bool,
        /// The value compared.
        key: Box<Expr>,
        /// The cards.
        cards: Box<Expr>,
    },
    /// The candidate of an enclosing `where` filter, counted out from the innermost (0 is
    /// `It`): `… where c: … where … c.x` names the outer candidate.
    Candidate(u32),
    /// One of the players, picked at random by the engine.
    RandomPlayer,
    /// A number from `low` to `high` (both included), picked at random by the engine; `low`
    /// when `high` is below it.
    RandomNumber {
        /// The least.
        low: Box<Expr>,
        /// The greatest.
        high: Box<Expr>,
    },
    /// A list of values.
    List(Vec<Expr>),
}

impl Expr {
    /// Calls `f` with each direct sub-expression, in field order. Every form is listed (an
    /// exhaustive match), so a new form must say what it holds.
    pub fn each_child<'e>(&'e self, f: &mut impl FnMut(&'e Expr)) {
        match self {
            Expr::Int(_)
            | Expr::Text(_)
            | Expr::Bool(_)
            | Expr::Pair(_)
            | Expr::This
            | Expr::It
            | Expr::You
            | Expr::Opponent
            | Expr::EachPlayer
            | Expr::Var(_)
            | Expr::EventParam(_)
            | Expr::SlotCandidate(_)
            | Expr::TurnNumber
            | Expr::DeckFormat
            | Expr::Declare(_)
            | Expr::Candidate(_)
            | Expr::RandomPlayer => {}
            Expr::Zone { owner, .. } => {
                if let Some(o) = owner {
                    f(o);
                }
            }
            Expr::Stat { of, .. }
            | Expr::Counter { of, .. }
            | Expr::Field { of, .. }
            | Expr::Related { of, .. }
            | Expr::Printed { of, .. }
            | Expr::Modified { of, .. } => f(of),
            Expr::SlotOf(x)
            | Expr::Count(x)
            | Expr::Owner(x)
            | Expr::Controller(x)
            | Expr::OpponentOf(x)
            | Expr::Not(x)
            | Expr::Neg(x)
            | Expr::IsTurnPlayer(x)
            | Expr::EffectNegated(x)
            | Expr::Attached(x)
            | Expr::Host(x) => f(x),
            Expr::HasKeyword { card, .. }
            | Expr::HasAbility { card, .. }
            | Expr::HasAttribute { card, .. }
            | Expr::KeywordValue { card, .. }
            | Expr::FaceIs { card, .. }
            | Expr::Usable { card, .. }
            | Expr::InState { card, .. }
            | Expr::OfType { card, .. } => f(card),
            Expr::Cancelled { subject, .. } => f(subject),
            Expr::PlayerHas { player, .. } => f(player),
            Expr::IsKind { value, .. } => f(value),
            Expr::Distinct { cards, .. } => f(cards),
            Expr::AtSlot { cards, slot } => {
                f(cards);
                f(slot);
            }
            Expr::ChooseSlot {
                chooser,
                zone,
                within,
                condition,
                ..
            } => {
                f(chooser);
                f(zone);
                if let Some(w) = within {
                    f(w);
                }
                if let Some(c) = condition {
                    f(c);
                }
            }
            Expr::Min(a, b) | Expr::Max(a, b) | Expr::Coalesce(a, b) | Expr::SameCard(a, b) => {
                f(a);
                f(b);
            }
            Expr::Binary { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            Expr::Contains { haystack, needle } => {
                f(haystack);
                f(needle);
            }
            Expr::Happened { pattern, .. } => {
                for w in pattern.when.values() {
                    f(w);
                }
            }
            Expr::Total { key, cards } | Expr::Extreme { key, cards, .. } => {
                f(cards);
                f(key);
            }
            Expr::Filter { cards, condition } => {
                f(cards);
                f(condition);
            }
            Expr::TopOf { count, zone, .. } => {
                f(count);
                f(zone);
            }
            Expr::Choose {
                chooser,
                min,
                max,
                from,
                ..
            } => {
                f(chooser);
                f(min);
                if let Some(m) = max {
                    f(m);
                }
                f(from);
            }
            Expr::RandomCards { count, from } => {
                f(count);
                f(from);
            }
            Expr::RandomNumber { low, high } => {
                f(low);
                f(high);
            }
            Expr::List(items) => {
                for x in items {
                    f(x);
                }
            }
        }
    }
}

/// The three kinds of choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChoiceKind {
    /// `choose`: a plain choice among cards the chooser can see.
    Choose,
    /// `target`: a targeted choice ("can't be targeted" cards are excluded).
    Target,
    /// `search`: the chooser looks through hidden cards (a deck) and picks among them.
    Search,
}

// ───────────────────────────── spans ─────────────────────────────

pub use spans::SpanTable;
