//! The abstract syntax tree: what the source says, with a span on every node
//! and no meaning attached yet. Built by `parse`, read by `resolve`.

use crate::base::source::Span;

/// A name as written, with its span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it is.
    pub span: Span,
}

/// A string literal's value (escapes resolved) and span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Str {
    /// The text between the quotes.
    pub value: String,
    /// The literal, quotes included.
    pub span: Span,
}

/// A top-level item of a file.
#[derive(Debug, Clone)]
pub enum Item {
    /// `game pmv`: names the game a file is written for.
    GameHeader(Ident),
    /// `game pmv "Title" { … }`: a ruleset.
    Game(GameDef),
    /// `card "Name" { … }`.
    Card(CardDef),
    /// A declaration outside a game block (mod packs).
    Decl(Decl),
}

/// A ruleset.
#[derive(Debug, Clone)]
pub struct GameDef {
    /// The game's id.
    pub name: Ident,
    /// Its display title.
    pub title: Option<Str>,
    /// Its declarations in source order.
    pub decls: Vec<Decl>,
}

/// One ruleset declaration.
#[derive(Debug, Clone)]
pub enum Decl {
    /// `players 2`.
    Players(i64, Span),
    /// A zone.
    Zone(ZoneDecl),
    /// A state group or flag.
    State(StateDecl),
    /// A stat.
    Stat(StatDecl),
    /// A modifier layer.
    Layer(LayerDecl),
    /// A counter.
    Counter(CounterDecl),
    /// A card type.
    CardType(CardTypeDecl),
    /// A keyword ability.
    Keyword(KeywordDecl),
    /// An ability kind.
    AbilityKind(MappedDecl),
    /// An ability attribute.
    Attribute(MappedDecl),
    /// An event.
    Event(EventDecl),
    /// A moment durations end at.
    Moment(Named),
    /// A verb.
    Verb(ProcDecl),
    /// A procedure.
    Procedure(ProcDecl),
    /// Card number normalization.
    Numbers(Vec<NormRule>, Span),
    /// Name normalization.
    Names(Vec<NormRule>, Span),
    /// Deck construction rules, then the formats a deck may be checked in.
    Deck(Vec<DeckRule>, Vec<DeckFormat>, Span),
    /// `durations until <moment>`: how long an effect lasts when its text says nothing.
    Durations(Ident),
    /// `trigger_order <who>`: who orders triggered abilities waiting at once.
    TriggerOrder(Ident),
    /// `setup { … }`: the span of the word `setup`, then the body.
    Setup(Span, Block),
    /// `turn { … }`: the span of the word `turn`, then the body.
    Turn(Span, Block),
    /// `action name "label" [for x in cards] [if condition] { … }`.
    Action(Box<ActionDecl>),
    /// `rule name "label" { … }`.
    Rule(RuleDecl),
}

/// `action raid "Raid" for c in unit on your.arena if … { … }`.
#[derive(Debug, Clone)]
pub struct ActionDecl {
    /// Name and label.
    pub named: Named,
    /// `for <var> in <cards>`: the card variable and its candidates.
    pub each: Option<(Ident, Expr)>,
    /// `if <condition>`.
    pub condition: Option<Expr>,
    /// The body.
    pub body: Block,
}

/// `rule collapse "Collapse" { … }`, `rule renew "Renew" interrupt { … }`.
#[derive(Debug, Clone)]
pub struct RuleDecl {
    /// Name and label.
    pub named: Named,
    /// `interrupt`: it runs right after every change the game makes, not only at `check`.
    pub interrupt: bool,
    /// The body.
    pub body: Block,
}

/// A declared name with its display label.
#[derive(Debug, Clone)]
pub struct Named {
    /// The id.
    pub name: Ident,
    /// The label in the game's language.
    pub label: Option<Str>,
    /// How the name reads in printed card text, per language (`reads en "…" / "…", ja "…"`).
    pub phrases: Vec<PhraseDecl>,
}

/// One language's phrase of a declared name: `en "draw {n} card{n:s}" / "{p} draws …"`.
#[derive(Debug, Clone)]
pub struct PhraseDecl {
    /// The language code (`en`, `ja`).
    pub lang: Ident,
    /// The template; none: the name reads as its label (`reads ja, en "pile"`).
    pub text: Option<Str>,
    /// The template used when a player argument is not its default (the form with a subject).
    pub explicit: Option<Str>,
}

/// `zone deck "デッキ" private ordered per_player { slot …  relation …  group … }`.
#[derive(Debug, Clone)]
pub struct ZoneDecl {
    /// Name and label.
    pub named: Named,
    /// Properties as written.
    pub props: Vec<Ident>,
    /// Named slots.
    pub slots: Vec<Ident>,
    /// Relations between slots.
    pub relations: Vec<RelationDecl>,
    /// Groups of slots.
    pub groups: Vec<GroupDecl>,
}

/// `group near "Near": left, middle, right`: slots read together.
#[derive(Debug, Clone)]
pub struct GroupDecl {
    /// The group's name and label.
    pub named: Named,
    /// Its slots, as written.
    pub slots: Vec<Ident>,
}

/// `relation facing: a <-> b, c <-> d`.
#[derive(Debug, Clone)]
pub struct RelationDecl {
    /// The relation's name.
    pub name: Ident,
    /// Slot pairs (this player's slot, the opponent's slot).
    pub pairs: Vec<(Ident, Ident)>,
}

/// `state stance = ready | tapped` or `state fallen`.
#[derive(Debug, Clone)]
pub struct StateDecl {
    /// The group's (or flag's) name and label.
    pub named: Named,
    /// Members of an exclusive group; empty for a flag.
    pub members: Vec<Named>,
}

/// `stat might "Might" floor 0` or `stat strength = might / guard`.
#[derive(Debug, Clone)]
pub struct StatDecl {
    /// Name and label.
    pub named: Named,
    /// Components of a composite stat.
    pub components: Vec<Ident>,
    /// Properties with an optional value (`floor 0`).
    pub props: Vec<(Ident, Option<i64>)>,
}

/// `layer adjust "Adjust" "+=" "-="`.
#[derive(Debug, Clone)]
pub struct LayerDecl {
    /// Name and label.
    pub named: Named,
    /// Operators selecting the layer, with their spans.
    pub ops: Vec<(String, Span)>,
}

/// `counter wounds on player, card`.
#[derive(Debug, Clone)]
pub struct CounterDecl {
    /// Name and label.
    pub named: Named,
    /// What carries it: `player` and/or `card`.
    pub on: Vec<Ident>,
}

/// `card_type unit "Unit" { price: number … }`.
#[derive(Debug, Clone)]
pub struct CardTypeDecl {
    /// Name and label.
    pub named: Named,
    /// `= unit on arena`: the card type it also counts as, and where.
    pub counts_as: Option<(Ident, Option<Ident>)>,
    /// `… unless fading`: the state in which it does not count as that type.
    pub counts_as_unless: Option<Ident>,
    /// The field schema.
    pub fields: Vec<FieldDecl>,
}

/// One schema field: `race: text*`.
#[derive(Debug, Clone)]
pub struct FieldDecl {
    /// The field's name.
    pub name: Ident,
    /// Its type name.
    pub ty: Ident,
    /// `?` or `*`, if given.
    pub mult: Option<char>,
}

/// `keyword ward(n: number) "Ward"`.
#[derive(Debug, Clone)]
pub struct KeywordDecl {
    /// Name and label.
    pub named: Named,
    /// Value parameters.
    pub params: Vec<Param>,
    /// `= <core meaning>`, if any.
    pub semantics: Option<Ident>,
}

/// `ability trigger_a "Trigger A" = triggered from reserve` / `attribute x = unnegatable`.
#[derive(Debug, Clone)]
pub struct MappedDecl {
    /// Name and label.
    pub named: Named,
    /// The core semantics it maps onto.
    pub semantics: Ident,
    /// `from <zone>`, for ability kinds.
    pub from_zone: Option<Ident>,
    /// `optional_cost`, for ability kinds: where the word is, when written.
    pub optional_cost: Option<Span>,
}

/// `event raids(raider: card, victim: card?)`.
#[derive(Debug, Clone)]
pub struct EventDecl {
    /// Name and label.
    pub named: Named,
    /// Payload parameters.
    pub params: Vec<Param>,
    /// `= move|enter|leave`: its core meaning, if any.
    pub core: Option<Ident>,
}

/// A verb or procedure: parameters and a body.
#[derive(Debug, Clone)]
pub struct ProcDecl {
    /// Name and label.
    pub named: Named,
    /// Parameters.
    pub params: Vec<Param>,
    /// The body.
    pub body: Block,
}

/// `name: type = default`.
#[derive(Debug, Clone)]
pub struct Param {
    /// The parameter's name.
    pub name: Ident,
    /// Alternatives of a union type (`player | card`).
    pub types: Vec<Ident>,
    /// `?`: may be absent.
    pub optional: bool,
    /// Default value.
    pub default: Option<Expr>,
}

/// A normalization rule: `strip_suffix "P", "SP"`.
#[derive(Debug, Clone)]
pub struct NormRule {
    /// The rule's name.
    pub name: Ident,
    /// Its string arguments.
    pub args: Vec<Str>,
}

/// A deck rule: `copies 4 per_number`.
#[derive(Debug, Clone)]
pub struct DeckRule {
    /// The rule's name.
    pub name: Ident,
    /// Its number.
    pub value: i64,
    /// Its qualifier.
    pub qualifier: Option<Ident>,
    /// `and <field>` after the qualifier (`copies 4 per_number and work`).
    pub and: Option<Ident>,
    /// The whole rule.
    pub span: Span,
}

/// `format mtl "MTL" { distinct work exactly 2  at_least 25 per work }`: a deck format.
#[derive(Debug, Clone)]
pub struct DeckFormat {
    /// Its name and label.
    pub named: Named,
    /// Its constraints, in source order.
    pub rules: Vec<FormatRule>,
}

/// One constraint of a deck format over a card field.
#[derive(Debug, Clone)]
pub enum FormatRule {
    /// `distinct <field> <bound> N`: how many different values the deck's cards take.
    Distinct {
        /// The field.
        field: Ident,
        /// `exactly`, `at_least` or `at_most`.
        bound: Ident,
        /// N.
        value: i64,
    },
    /// `<bound> N per <field>`: how many cards each value the deck holds must have.
    PerValue {
        /// `exactly`, `at_least` or `at_most`.
        bound: Ident,
        /// N.
        value: i64,
        /// The field.
        field: Ident,
    },
}

/// `card "Name" { fields… abilities… }`.
#[derive(Debug, Clone)]
pub struct CardDef {
    /// The printed name.
    pub name: Str,
    /// Header fields.
    pub fields: Vec<FieldEntry>,
    /// Abilities in source order.
    pub abilities: Vec<Ability>,
    /// The whole card.
    pub span: Span,
}

/// `name: value, value`.
#[derive(Debug, Clone)]
pub struct FieldEntry {
    /// The field's name.
    pub name: Ident,
    /// Its values.
    pub values: Vec<FieldValue>,
    /// The whole entry.
    pub span: Span,
}

/// A field value: a keyword reference (`ward 1`, `unit`) or an expression.
#[derive(Debug, Clone)]
pub enum FieldValue {
    /// A bare name, optionally with an argument.
    Word(KeywordRef),
    /// Any other expression.
    Expr(Expr),
}

/// `ward 1`, `ward(1)`, `bond(2500, 1)`, `swift`.
#[derive(Debug, Clone)]
pub struct KeywordRef {
    /// The keyword.
    pub name: Ident,
    /// Its values.
    pub args: Vec<Expr>,
    /// The whole reference.
    pub span: Span,
}

/// `[attributes] kind [clauses] { body }`.
#[derive(Debug, Clone)]
pub struct Ability {
    /// Attribute names followed by the kind name.
    pub words: Vec<Ident>,
    /// Clauses in source order.
    pub clauses: Vec<Clause>,
    /// The effect.
    pub body: Block,
    /// The whole ability.
    pub span: Span,
}

/// An ability clause.
#[derive(Debug, Clone)]
pub enum Clause {
    /// `when <trigger>`.
    When(Trigger, Span),
    /// `instead of <trigger>`.
    Instead(Trigger, Span),
    /// `while <condition>`.
    While(Expr, Span),
    /// `if <condition>`.
    If(Expr, Span),
    /// `[costs]`.
    Cost(Vec<Stmt>, Span),
    /// `limit N per <period>`.
    Limit(i64, Ident, Span),
    /// `from <zone>`.
    From(Ident, Span),
}

/// `this raids`, `raids(raider: this)`.
#[derive(Debug, Clone)]
pub struct Trigger {
    /// The subject written before the event name.
    pub subject: Option<Expr>,
    /// The event.
    pub event: Ident,
    /// Named parameter patterns.
    pub args: Vec<Arg>,
    /// The whole trigger.
    pub span: Span,
}

/// `{ stmt* }`.
#[derive(Debug, Clone)]
pub struct Block {
    /// Statements in order.
    pub stmts: Vec<Stmt>,
    /// The braces and everything inside.
    pub span: Span,
}

/// A statement with its span.
#[derive(Debug, Clone)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// Where it is.
    pub span: Span,
}

/// `until <moment>` or `while <condition>`.
#[derive(Debug, Clone)]
pub enum Duration {
    /// Ends at a moment.
    Until(Ident),
    /// Ends when a moment is reached for a player (`until m of you`).
    UntilOf(Ident, Expr),
    /// Lasts while a condition holds.
    While(Expr),
}

/// A call argument, optionally named.
#[derive(Debug, Clone)]
pub struct Arg {
    /// `name:` if given.
    pub name: Option<Ident>,
    /// The value.
    pub value: Expr,
}

/// The statements of the language.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// `let x = e`.
    Let(Ident, Expr),
    /// `if c { } else if c { } else { }`: the arms in order, then the else block.
    If(Vec<(Expr, Block)>, Option<Block>),
    /// `for each x in e { }`.
    ForEach(Ident, Expr, Block),
    /// `repeat n { }`.
    Repeat(Expr, Block),
    /// `while c { }`.
    While(Expr, Block),
    /// `may(p) …`: the players asked (none: the resolving player), then the body.
    May(Vec<Option<Expr>>, Block),
    /// `move e to z [top|bottom] [face_up|face_down] [as state] [at slot]`.
    Move(Expr, Expr, MoveOptions),
    /// `attach c to host`.
    Attach(Expr, Expr),
    /// `clear c state`.
    Clear(Expr, Ident),
    /// `grant kw to e [duration]`.
    Grant(KeywordRef, Expr, Option<Duration>),
    /// `remove kw from e [duration]`.
    Remove(KeywordRef, Expr, Option<Duration>),
    /// `reveal e`.
    Reveal(Expr),
    /// `look at e [by p]`.
    Look(Expr, Option<Expr>),
    /// `shuffle e`.
    Shuffle(Expr),
    /// `negate e [text|effect] [all] [duration]`: the scope (`true` for effect) and whether `all`.
    Negate(Expr, Option<bool>, bool, Option<Duration>),
    /// `flip e [face_up|face_down]`: `None` turns it over.
    Flip(Expr, Option<bool>),
    /// `simultaneously { … }`.
    Simultaneously(Block),
    /// `cancel event [of e]`.
    Cancel(Ident, Option<Expr>),
    /// `treat e as type with { fields }`.
    Treat(Expr, Ident, Vec<FieldEntry>),
    /// `emit event(args)`.
    Emit(Ident, Vec<Arg>),
    /// `script function(args)`: a function of the pack's scripts, its arguments in order.
    Script(Ident, Vec<Expr>),
    /// `choose one [(p)] { option "…" { } … }`.
    ChooseOne(Option<Expr>, Vec<(Str, Block)>),
    /// `win p`.
    Win(Expr),
    /// `lose p`.
    Lose(Expr),
    /// `draw_game`.
    DrawGame,
    /// `goes_first <player>` (setup only).
    GoesFirst(Expr),
    /// `e becomes name [duration]`: a state, or a zone alias.
    Becomes(Expr, Ident, Option<Duration>),
    /// `e.member op value [duration] [in layer l]`.
    Modify(Modify),
    /// `phase name "label" { … }` (the top level of `turn` only).
    Phase(Named, Block),
    /// `window [chain] players { entry, … }`.
    Window(Window),
    /// `chain { … }`.
    Chain(Block),
    /// `resolve kind of cards`.
    Resolve(Ident, Expr),
    /// `check`.
    Check,
    /// `reach moment`.
    Reach(Ident),
    /// `reach moment of player`: the moment is reached for one player.
    ReachOf(Ident, Expr),
    /// `verb args [duration]`.
    Call(Ident, Vec<Arg>, Option<Duration>),
}

/// `window [chain] players [once] [unchecked] { entry, … }`.
#[derive(Debug, Clone)]
pub struct Window {
    /// Who may act, in priority order (a player or a list of players).
    pub players: Expr,
    /// `window chain`: it holds a response chain.
    pub chain: bool,
    /// `once`: each player takes at most one entry in it.
    pub once: bool,
    /// `unchecked`: no check timing before its decisions.
    pub unchecked: bool,
    /// What it offers.
    pub entries: Vec<WindowEntry>,
}

/// `name` or `name with attribute` in a window.
#[derive(Debug, Clone)]
pub struct WindowEntry {
    /// An action or an ability kind.
    pub name: Ident,
    /// `with <attribute>`.
    pub with: Option<Ident>,
}

/// Where and how a moved card arrives.
#[derive(Debug, Clone, Default)]
pub struct MoveOptions {
    /// `top` (true) or `bottom` (false).
    pub top: Option<bool>,
    /// `face_up` (true) or `face_down` (false).
    pub face_up: Option<bool>,
    /// `as <state>`.
    pub state: Option<Ident>,
    /// `at <slot>`.
    pub slot: Option<Expr>,
}

/// A stat or counter modification.
#[derive(Debug, Clone)]
pub struct Modify {
    /// What is modified.
    pub subject: Expr,
    /// The stat or counter.
    pub member: Ident,
    /// The operator and its span.
    pub op: (String, Span),
    /// The operand.
    pub value: Expr,
    /// How long it lasts.
    pub duration: Option<Duration>,
    /// `in layer x`.
    pub layer: Option<Ident>,
}

/// An expression with its span.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// One component of a pair literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairPart {
    /// A value (signed when written with a sign).
    Value(i64, bool),
    /// `±0` or `_`: no modifier on this component (PMV 6.1.14).
    Keep,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
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
    /// `contains`
    Contains,
    /// `has`
    Has,
    /// `is`
    Is,
    /// `where`
    Where,
    /// `at`: the cards in a slot or a group of slots.
    At,
    /// `??`
    Coalesce,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `not`
    Not,
    /// `-`
    Neg,
}

/// The three kinds of choice the source can write; the resolver maps each to the IR's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChoiceKind {
    /// `choose`: a plain choice among cards the chooser can see.
    Choose,
    /// `target`: a targeted choice.
    Target,
    /// `search`: the chooser looks through hidden cards.
    Search,
}

/// How many a choice picks.
#[derive(Debug, Clone)]
pub enum Quantity {
    /// Exactly this many.
    Exactly(Box<Expr>),
    /// `up to N`.
    UpTo(Box<Expr>),
    /// `any number of`.
    Any,
}

/// The expressions of the language.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// A string literal.
    Str(String),
    /// `true` / `false`.
    Bool(bool),
    /// `3/2`, `+1/±0`.
    Pair(PairPart, PairPart),
    /// `this`.
    This,
    /// `it`: the candidate inside a `where` filter.
    It,
    /// `you` / `your`.
    You,
    /// `opponent`.
    Opponent,
    /// `each`: every player (as the owner of a zone).
    Each,
    /// A name: variable, zone, or (inside a filter) a member of the candidate.
    Name(Ident),
    /// `e.name`.
    Member(Box<Expr>, Ident),
    /// `f(args)`.
    Call(Ident, Vec<Arg>),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// A prefix operator.
    Unary(UnOp, Box<Expr>),
    /// A binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `target …`, `choose …` or `search …`.
    Choice {
        /// Which word introduced it.
        kind: ChoiceKind,
        /// The chooser, if not the resolving player.
        who: Option<Box<Expr>>,
        /// How many.
        quantity: Quantity,
        /// Among which cards.
        from: Box<Expr>,
    },
    /// `choose [who] 1|up to 1 slot of zone [at group] [where s: condition]`: a slot's name.
    SlotChoice(SlotChoice),
    /// `declare name`.
    Declare(Ident),
    /// `top N of z` (`true`) / `bottom N of z`.
    TopOf(bool, Box<Expr>, Box<Expr>),
    /// `random …`: a pick the engine makes at random.
    Random(RandomPick),
    /// `highest name of cards` (`true`) / `lowest name of cards`.
    Extreme(bool, Ident, Box<Expr>),
    /// `cards where c: condition`: a filter whose candidate is also named `c`.
    NamedWhere(Ident, Box<Expr>, Box<Expr>),
    /// `type on zone`.
    Typed(Ident, Box<Expr>),
}

/// `choose 1 slot of your.lanes at near where s: …`: a player names a slot of a zone.
#[derive(Debug, Clone)]
pub struct SlotChoice {
    /// Which word introduced it (only `choose` is allowed: the checker reports the others).
    pub kind: ChoiceKind,
    /// The chooser, if not the resolving player.
    pub who: Option<Box<Expr>>,
    /// How many (`1` or `up to 1`: the checker reports any other).
    pub quantity: Quantity,
    /// The zone whose slots are chosen among.
    pub zone: Box<Expr>,
    /// `at <slot or group>`: only these slots.
    pub within: Option<Box<Expr>>,
    /// `where [s:] condition`: only the slots for which it holds (the candidate is a text).
    pub filter: Option<(Option<Ident>, Box<Expr>)>,
}

/// What `random …` picks.
#[derive(Debug, Clone)]
pub enum RandomPick {
    /// `random N cards`: N of the cards.
    Cards(Box<Expr>, Box<Expr>),
    /// `random player`: one of the players.
    Player,
    /// `random number A to B`: a number from A to B, both included.
    Number(Box<Expr>, Box<Expr>),
}
