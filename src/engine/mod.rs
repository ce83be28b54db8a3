//! The game-agnostic engine: it interprets a game's IR. It knows players, zones of cards,
//! states, counters, layered modifiers, events and triggers, timing windows and response
//! chains, choices asked of agents, and a seeded RNG — no zone, stat, keyword or phase of any
//! one game: those come from the ruleset.
//!
//! Execution is a VM over the IR with an explicit stack of frames (no Rust recursion over
//! statements): [`Game::step`] runs until a player must decide and returns that [`Request`], or
//! returns `None` when the game is over. A statement that needs a choice is run again from its
//! start once the answer is known, replaying the answers it already got; expressions change
//! nothing, so the replay is exact.

// Card values from strangers reach the engine: every operation on them is checked or saturating
// (docs/engine.md, "Arithmetic"), indices and seats stay within the `ir::MAX_*` capacities, and
// these lints keep both so: no unchecked arithmetic, no cast that may truncate, wrap or lose a
// sign without saying why it cannot.
#![warn(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

pub mod agent;
pub mod bench_api;
pub mod board;
mod eval;
mod exec;
mod interrupts;
mod kept_choices;
mod layers;
pub mod log;
mod loops;
pub mod lowered;
mod moves;
pub mod names;
mod payable;
mod player_keywords;
pub mod program;
mod rule_memo;
mod rule_reads;
pub mod script;
mod slots;
mod stat_queries;
pub mod state;
mod triggers;
pub mod view;
mod window;

pub use agent::{
    decide_or_first_legal, Agent, Answer, Choice, FirstLegalAgent, GreedyAgent, RandomAgent,
    Request, RequestKind, NO_SLOT,
};
pub use log::{Log, LogEntry};
pub use program::Program;
pub use state::{CardId, Outcome, Seat, State, Value, ZoneKey};
pub use view::PlayerView;

use crate::engine::state::{card_id, everyone, index16, next_seat, seat, shown};
use crate::ir::{self, Id, Stmt, WindowEntry};
use program::AbilityRef;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap as HashMap;
use state::{CardState, PlayerState};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// The generator stream of random picks (`random …`): shuffles use stream 0 and each seat's
/// random agent 1 + seat, so this one is the last.
const RANDOM_STREAM: u64 = u64::MAX;

/// The payload of an event being handled (triggered on, or replaced).
#[derive(Debug, Clone, PartialEq)]
pub struct EventData {
    /// The event's index.
    pub event: u16,
    /// Payload values in parameter order (shared with the event history).
    pub args: Rc<[Value]>,
}

/// An event held back by a `simultaneously` block, with the card whose abilities look back.
type Batched = (EventData, Option<Lookback>);

/// A card that just left a zone: its abilities answer the event as they were there (zone,
/// and whether its text was negated, and with 【 】 text too).
type Lookback = (CardId, ZoneKey, (bool, bool));

/// Who and what a running piece of fuda speaks for.
#[derive(Debug, Clone)]
struct Ctx {
    /// `you`.
    you: Seat,
    /// `this`.
    this: Option<CardId>,
    /// `event`.
    event: Option<Rc<EventData>>,
    /// Where its variables start in [`Game::vars`].
    vars_base: usize,
    /// The card and ability it runs for (log sources).
    source: Option<(CardId, AbilityRef)>,
    /// Replacement abilities already applied in this chain of effects: (card, ability).
    applied: Rc<Vec<(CardId, AbilityRef)>>,
    /// Variables captured when a `while` duration was made, read after [`Game::vars`].
    captured: Option<Rc<Vec<(String, Value)>>>,
}

/// A triggered ability waiting for a check timing.
#[derive(Debug, Clone)]
struct Pending {
    card: CardId,
    this: CardId,
    ability: AbilityRef,
    controller: Seat,
    event: Rc<EventData>,
    /// Its effect was negated while it waited (`negate <card> effect`): it resolves with none.
    negated: bool,
    /// Its place in the order the turn player gave a batch (`trigger_order turn_player`); `None`
    /// until its batch is ordered.
    rank: Option<u32>,
}

/// A chain item: a body to run later with the context it was put there with.
#[derive(Debug, Clone)]
struct ChainItem<'p> {
    body: &'p [Stmt],
    ctx: Ctx,
    vars: Vec<(&'p str, Value)>,
    /// The effect of the ability that put it there was negated (`negate <card> effect`).
    negated: bool,
}

/// What a window offers a player.
#[derive(Debug, Clone, PartialEq)]
enum Offer {
    Pass,
    Action {
        action: u16,
        card: Option<CardId>,
    },
    Ability {
        card: CardId,
        this: CardId,
        ability: AbilityRef,
    },
}

#[derive(Debug, Clone)]
struct Window<'p> {
    players: Vec<Seat>,
    chain: bool,
    /// `once`: each player takes at most one entry.
    once: bool,
    /// The seats (one bit each) that took an entry, in a `once` window: they only pass now.
    acted: u32,
    entries: &'p [WindowEntry],
    turn: usize,
    passes: usize,
    stack: Vec<ChainItem<'p>>,
    /// The check timing before the current decision has run (always, in an `unchecked` one).
    checked: bool,
    /// `unchecked`: no check timing opens its decisions.
    unchecked: bool,
}

/// Opens a context for a verb, procedure or ability body.
#[derive(Debug, Clone)]
struct CallStart<'p> {
    you: Seat,
    this: Option<CardId>,
    event: Option<Rc<EventData>>,
    source: Option<(CardId, AbilityRef)>,
    vars: Vec<(&'p str, Value)>,
    body: &'p [Stmt],
    applied: Option<Rc<Vec<(CardId, AbilityRef)>>>,
}

/// The frames one statement pushes (last on top): mostly none, one or two, kept inline.
type Frames<'p> = smallvec::SmallVec<[Frame<'p>; 2]>;

#[derive(Debug, Clone)]
enum Frame<'p> {
    /// Opens a context (and runs a body in it, if any); a `PopCtx` below it closes it.
    CallStart(Box<CallStart<'p>>),
    /// The game itself: setup, then turns.
    Root { setup_done: bool },
    /// Statements in order. Holds nothing to free, nor may it: [`Game::pop_plain_frame`]
    /// forgets it.
    ///
    /// Its position and mark (where the variables stood when it began: they end with it;
    /// `u32::MAX` keeps them) are `u32`, so that a frame stays small.
    Block {
        stmts: &'p [Stmt],
        pc: u32,
        mark: u32,
    },
    /// `for each` (boxed: it is the largest frame, and frames are moved at every statement).
    Each(Box<Each<'p>>),
    /// `repeat`.
    Repeat { left: i64, body: &'p [Stmt] },
    /// `while`: the condition is read before each run of the body.
    While {
        cond: &'p ir::Expr,
        body: &'p [Stmt],
        rounds: u32,
    },
    /// Ends a context when reached (forgotten when popped, as a block is).
    PopCtx,
    /// Ends a `simultaneously`: its events are handled as one batch.
    Batch,
    /// Ends a phase: a check timing follows.
    PhaseEnd,
    /// Puts an ability's effect on the innermost chain (after its cost is paid).
    ChainEffect { body: &'p [Stmt] },
    /// A triggered ability of an `optional_cost` kind, resolving: its controller is asked
    /// whether to pay its cost (then the cost and the effect run), or not (nothing happens).
    OptionalCost {
        card: CardId,
        ability: AbilityRef,
        /// Its effect is negated (12.4.3): the cost, if paid, is paid for nothing.
        negated: bool,
    },
    /// A timing window.
    Window(Box<Window<'p>>),
    /// A check timing: rule actions, then pending triggers.
    Check {
        /// The interrupt rules ran first (for this pass of the rules).
        interrupted: bool,
        rules_done: bool,
        rule: u32,
        player: u32,
        generation: u64,
        /// What the game was when this round of the rules began (`None`: not begun); boxed, as
        /// it is large and frames are moved at every statement.
        round: Option<Box<triggers::RulesKey>>,
        /// Rounds of the rules run (at most 64).
        rounds: u8,
        /// Triggered abilities resolved (a loop past 2,000).
        resolved: u16,
    },
    /// The interrupt rules, run after a change: each once per player, round after round while
    /// a round changes the game.
    Interrupt {
        rule: u32,
        player: u32,
        /// The game's generation when the round began.
        generation: u64,
        rounds: u32,
    },
    /// The single changes of a statement still to make, one per step (a ruleset with
    /// interrupt rules: they run between two).
    Changes(Box<interrupts::Changes<'p>>),
    /// The changes a script recorded, made in order, one per step.
    Script(Box<exec::ScriptWrites>),
}

/// A `for each` under way: its variable, the items it runs over, the next one's index, its
/// body, and where the variables stood when it began.
#[derive(Debug, Clone)]
struct Each<'p> {
    var: &'p str,
    items: Vec<Value>,
    idx: usize,
    body: &'p [Stmt],
    mark: usize,
}

/// Where the variables stand (their count), as a block's mark: past `u32::MAX` variables (more
/// than memory holds) the mark keeps them all.
fn var_mark(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

/// Game options.
#[derive(Debug, Clone)]
pub struct Options {
    /// The seed: every shuffle comes from it (agents have their own streams).
    pub seed: u64,
    /// Statements a game may run before it is stopped as a draw.
    pub max_steps: u64,
    /// The deck format the game is played in, as `deck_format()` reads it (a format's name
    /// from the ruleset's `deck { … }`); `None`: none.
    pub deck_format: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 0,
            max_steps: 2_000_000,
            deck_format: None,
        }
    }
}

/// Card lists kept for reuse, so that reading `cards where …` allocates no list per read. Not
/// part of the game: a clone starts with none.
#[derive(Default)]
struct CardPool(Vec<Vec<CardId>>);

impl Clone for CardPool {
    fn clone(&self) -> Self {
        CardPool::default()
    }
}

/// The cards that may give continuous effects by their own abilities, and where (see
/// [`Game::continuous_cards`]).
#[derive(Debug, Clone, Default)]
struct ContinuousCards {
    /// The cards whose definitions have an own continuous ability, in card order.
    cards: Rc<[CardId]>,
    /// The zone slots below 64 (one bit each) of the zones, of every player, where one of
    /// those abilities may work: a card arriving there may bring one into play.
    slots_below_64: u64,
    /// The same, the slots from 64 on.
    slots_from_64: Rc<[usize]>,
}

/// Which cards have cards set on them, found again when attaching changed (a hosts stamp,
/// `rule_memo::Stamps`): an event asks it of every card that may answer, and a host's
/// abilities include those set on it.
#[derive(Debug, Clone, Default)]
struct Hosts {
    /// The hosts stamp they were found at (`None`: never found).
    stamp: Option<u64>,
    /// Per card, whether a card is set on it.
    is_host: Rc<[bool]>,
    /// The hosts, in card order.
    list: Rc<[CardId]>,
    /// (host, card set on it), in that order: a host's cards are a run of it, in card order.
    attachments: Rc<[(CardId, CardId)]>,
}

/// A game in progress.
#[derive(Clone)]
pub struct Game<'p> {
    /// The game's program.
    pub prog: &'p Program,
    /// The state.
    pub state: State,
    frames: Vec<Frame<'p>>,
    ctxs: Vec<Ctx>,
    vars: Vec<(&'p str, Value)>,
    its: Vec<CardId>,
    /// Per ruleset action, its `if` split into what is read once per offers and what is read
    /// per candidate (`eval::Split`), once split.
    action_splits: Vec<Option<Rc<eval::Split<'p>>>>,
    /// Emptied card lists to fill again (`Game::pooled_cards_of`).
    card_pool: CardPool,
    /// The candidate slots of the slot choices whose conditions are being read, innermost last.
    slot_its: Vec<&'p str>,
    answers: Vec<Answer>,
    answer_pos: usize,
    pending: Vec<Pending>,
    batch: Vec<Option<Vec<Batched>>>,
    log: Log,
    rng: ChaCha8Rng,
    /// The stream of random picks (`random …`): apart from the shuffles', so a game that makes
    /// none shuffles as before.
    random: ChaCha8Rng,
    /// How many times either random stream was handed out to draw from
    /// ([`Game::shuffle_stream`], [`Game::pick_stream`]).
    stream_uses: u64,
    /// Where the two streams stood (`get_word_pos`) at a number of `stream_uses`: read again
    /// only after a draw, as reading it costs more than a check rule's run skipped.
    stream_pos: Cell<(u64, u128, u128)>,
    steps: u64,
    max_steps: u64,
    /// The deck format the game is played in (`deck_format()`).
    deck_format: Option<String>,
    derived: layers::Derived,
    deriving: bool,
    /// Texts after the ruleset's name normalization, by text (`Game::normalized`).
    norm_cache: std::cell::RefCell<rustc_hash::FxHashMap<Box<str>, Rc<str>>>,
    /// The needle `contains` read last, as written, and a searcher for it normalized: a
    /// filter reads the same needle for every card it looks at (`Game::contains`).
    last_needle: std::cell::RefCell<Option<(Box<str>, memchr::memmem::Finder<'static>)>>,
    /// Per event, the cards whose definitions answer it, for this many cards
    /// (`triggers::listeners_of`).
    listeners: (usize, Vec<Rc<[CardId]>>),
    /// Which cards have cards set on them, and which cards are set on each, as of a hosts
    /// stamp (`rule_memo::Stamps`).
    hosts: Hosts,
    /// The cards whose definitions have an own continuous ability, and the zone slots where
    /// one of those may work, for this many cards (`Program::continuous_zones`).
    continuous_cards: (usize, ContinuousCards),
    /// Per ability kind a window offered: the cards whose definitions have an ability of it,
    /// in card order, as [`Game::kind_cards`] listed them for that number of cards.
    kind_cards: Vec<(Id, usize, Rc<[CardId]>)>,
    /// The prompt texts of bodies described so far (`Game::describe`), by the body's address
    /// in the program: they depend on the program alone, so clones of a game share them.
    described: Rc<RefCell<HashMap<usize, String>>>,
    /// Zones an effect looked through whole, to shuffle when it ends (`shuffle_when_seen`).
    seen: Vec<ZoneKey>,
    /// Declarations made by the statement running (emitted once it completes).
    declared: Vec<(Seat, String)>,
    /// Notes about how the game went wrong (loops, step limit, rule errors).
    pub notes: Vec<String>,
    /// Recent sources of resolved triggers (for loop diagnostics).
    recent: Vec<CardId>,
    /// A payability check running (docs/language.md, "Paying costs").
    dry: payable::Dry,
    /// How many `usable(…)` reads are nested (an ability's `if` asking about itself): a read
    /// deeper than `MAX_USABLE_DEPTH` is false.
    usable_depth: u8,
    /// Avoidable loops: decisions seen this turn, a repeat count being named, a replay.
    loops: loops::Loops,
    /// The game's generation the interrupt rules last saw settled: a later change runs them.
    interrupts_seen: u64,
    /// Where the last [`Frame::Interrupt`] was pushed (`usize::MAX`: none yet): interrupt
    /// rules are running exactly when that frame is still there, as no other is pushed while
    /// one is on the stack ([`Game::in_interrupt`] is asked after most steps; a walk over the
    /// frames to answer it cost about 1% of a game with interrupt rules).
    interrupt_at: usize,
    /// What the check rules last found settled (a round of them changed nothing): a check
    /// timing that finds the game still so skips them (`triggers::RulesReads`).
    rules_settled: Option<triggers::RulesReads>,
    /// The candidates of the choice a statement last asked about (or the offers of the window
    /// step that asked), and where it asked (the statement or step is replayed with the
    /// answer: they are not read again; `kept_choices`).
    choice_asked: Option<(kept_choices::ChoiceKey, kept_choices::Kept<'p>)>,
    /// Whether lines are written to the log (`Game::keep_log`).
    logging: bool,
    /// Lines not written because the log is off (what a line's sequence number counts).
    unlogged: u64,
    /// How many answers statements have taken so far (a round of rules that asked a question
    /// is not settled: skipping it would skip the question).
    asked: u64,
    /// When each part of the game last changed (`rule_memo`).
    stamps: rule_memo::Stamps,
    /// Per check rule and player: its last run, if it changed nothing, and what it read.
    rule_memos: Vec<Option<rule_memo::RuleMemo>>,
    /// The check rule's run being recorded, with what it read so far (`None`: no run is).
    rule_run: Option<rule_memo::RuleRun>,
    /// Per ruleset action and player: the offers it last made, and what reading them read
    /// (`None`: not kept).
    offer_memos: Vec<Option<rule_memo::OffersMemo>>,
    /// The reads of an action's offers being recorded (`None`: none are).
    offers_recording: Option<rule_memo::Reads>,
    /// Check rules run even when their memos say they would change nothing, and checked
    /// (`Game::verify_rule_skips`).
    verify_skips: bool,
    /// How many runs `verify_skips` checked.
    verified_skips: usize,
    /// How many derivations of continuous abilities `verify_skips` checked (derived again
    /// though their memo said nothing they read changed).
    verified_derivations: usize,
    /// Per zone slot: its part of the loop fingerprint, and the clock of changes it was
    /// computed at (`loops.rs`).
    zone_fingerprints: Vec<(u64, u64)>,
    /// Per card (by id): its part of a zone's fingerprint, kept while the card is unchanged
    /// (`loops.rs`), with the tick after the clock of changes it was taken at (0: not taken).
    card_hashes: Vec<(u64, u64)>,
    /// How many zone fingerprints kept as unchanged `verify_skips` checked.
    verified_fingerprints: usize,
    /// How many cards' hashes kept as unchanged `verify_skips` checked.
    verified_card_hashes: usize,
    /// How many events left undispatched `verify_skips` dispatched all the same
    /// (`Game::verify_undispatched`).
    verified_undispatched: usize,
    /// How many check rules' memos known to stand (`rule_memo::Standing`) `verify_skips`
    /// checked against what they read.
    verified_standing: usize,
    /// How many kept offers of actions `verify_skips` checked (read again though their memo
    /// said nothing they read changed).
    verified_offers: usize,
    /// How many kept candidates of choices `verify_skips` checked (read again on the replay
    /// of their statement; `kept_choices`).
    verified_choices: usize,
    /// How many cards' stats kept from an earlier generation were computed again and
    /// compared (`verify_rule_skips`).
    verified_stats: usize,
    /// Lowered filter conditions checked against their expressions as written, card by card
    /// (`Game::verify_lowered`).
    verify_lowered: bool,
    /// How many evaluations `verify_lowered` checked.
    verified_lowered: usize,
    /// What the checks `verify_skips` and `verify_lowered` turn on found wrong: a shortcut that
    /// gave another answer than the work it stands for (empty while neither is on).
    failed_checks: Vec<String>,
}

/// Where a card starts in a game set up by hand (scenarios).
#[derive(Debug, Clone)]
pub struct Placement {
    /// The card definition.
    pub def: u32,
    /// Its owner.
    pub owner: Seat,
    /// The zone.
    pub zone: ZoneKey,
    /// States (indices).
    pub states: Vec<u16>,
    /// Counters (index, value).
    pub counters: Vec<(u16, i64)>,
    /// Face up; `None`: the zone's default.
    pub face_up: Option<bool>,
    /// Index (into the placements) of the card it is set on.
    pub host: Option<usize>,
    /// Its slot.
    pub slot: Option<String>,
}

impl<'p> Game<'p> {
    /// A new game with each seat's deck list (card definition indices), ready to run setup.
    /// Decks go into the zone named `deck_zone` of each player (the first ordered per-player
    /// zone when `None`).
    pub fn new(
        prog: &'p Program,
        decks: &[Vec<u32>],
        deck_zone: Option<u16>,
        options: &Options,
    ) -> Game<'p> {
        let zone = deck_zone.unwrap_or_else(|| {
            prog.ruleset
                .zones
                .iter()
                .position(|z| z.ordered && z.per_player)
                .map_or(0, index16)
        });
        let mut placements = Vec::new();
        for (i, deck) in decks.iter().enumerate() {
            for def in deck {
                placements.push(Placement {
                    def: *def,
                    owner: seat(i),
                    zone: ZoneKey {
                        zone,
                        owner: seat(i),
                    },
                    states: Vec::new(),
                    counters: Vec::new(),
                    face_up: None,
                    host: None,
                    slot: None,
                });
            }
        }
        let mut g = Game::empty(prog, &placements, options);
        g.frames.push(Frame::Root { setup_done: false });
        g
    }

    /// A game set up by hand: cards placed, at a turn and a phase (scenarios). With `phase`
    /// `None` the turn starts from its first phase; `run_setup` runs the setup first.
    pub fn from_placements(
        prog: &'p Program,
        placements: &[Placement],
        turn: u32,
        active: Seat,
        phase: Option<u16>,
        run_setup: bool,
        options: &Options,
    ) -> Game<'p> {
        let mut g = Game::empty(prog, placements, options);
        if run_setup {
            g.frames.push(Frame::Root { setup_done: false });
            return g;
        }
        g.state.turn = turn.max(1);
        g.state.active = active;
        g.frames.push(Frame::Root { setup_done: true });
        let pc = phase
            .and_then(|p| prog.phase_pc.get(p as usize).copied())
            .unwrap_or(0);
        g.push_ctx(active, None, None, None);
        g.frames.push(Frame::PopCtx);
        g.frames.push(Frame::Block {
            stmts: &prog.ruleset.turn,
            pc: u32::try_from(pc).unwrap_or(u32::MAX),
            mark: var_mark(g.vars.len()),
        });
        g.note_turn();
        g
    }

    /// A game with the cards placed and nothing run yet.
    fn empty(prog: &'p Program, placements: &[Placement], options: &Options) -> Game<'p> {
        let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
        rng.set_stream(0);
        let mut random = ChaCha8Rng::seed_from_u64(options.seed);
        random.set_stream(RANDOM_STREAM);
        let state = initial_state(prog, placements);
        let cards = state.cards.len();
        let (stamps, rule_memos) = rule_memo::fresh(
            prog,
            (state.zones.len(), cards),
            prog.states.len(),
            prog.ruleset.counters.len(),
        );
        Game {
            prog,
            state,
            frames: Vec::new(),
            ctxs: Vec::new(),
            vars: Vec::new(),
            its: Vec::new(),
            action_splits: Vec::new(),
            card_pool: CardPool::default(),
            slot_its: Vec::new(),
            answers: Vec::new(),
            answer_pos: 0,
            pending: Vec::new(),
            batch: Vec::new(),
            log: Log::default(),
            rng,
            random,
            stream_uses: 0,
            stream_pos: Cell::new((u64::MAX, 0, 0)),
            steps: 0,
            max_steps: options.max_steps,
            deck_format: options.deck_format.clone(),
            derived: layers::Derived::default(),
            deriving: false,
            notes: Vec::new(),
            recent: Vec::new(),
            dry: payable::Dry::default(),
            usable_depth: 0,
            loops: loops::Loops::default(),
            seen: Vec::new(),
            declared: Vec::new(),
            hosts: Hosts::default(),
            continuous_cards: (usize::MAX, ContinuousCards::default()),
            kind_cards: Vec::new(),
            described: Rc::default(),
            listeners: (usize::MAX, Vec::new()),
            norm_cache: Default::default(),
            last_needle: Default::default(),
            interrupts_seen: 0,
            interrupt_at: usize::MAX,
            rules_settled: None,
            choice_asked: None,
            logging: true,
            unlogged: 0,
            asked: 0,
            stamps,
            rule_memos,
            rule_run: None,
            offer_memos: vec![None; prog.ruleset.actions.len().saturating_mul(prog.players())],
            offers_recording: None,
            verify_skips: false,
            verified_skips: 0,
            verified_derivations: 0,
            zone_fingerprints: Vec::new(),
            card_hashes: vec![(0, 0); cards],
            verified_fingerprints: 0,
            verified_card_hashes: 0,
            verified_undispatched: 0,
            verified_standing: 0,
            verified_offers: 0,
            verified_choices: 0,
            verified_stats: 0,
            verify_lowered: false,
            verified_lowered: 0,
            failed_checks: Vec::new(),
        }
    }

    /// The event log so far.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// Whether lines are written to the log from now on (on from the start). A caller that
    /// reads no log (`fuda sim`) turns it off: the game plays exactly the same, without the
    /// cost of writing every line's text.
    pub fn keep_log(&mut self, on: bool) {
        self.logging = on;
    }

    /// How many lines the game has logged, written or not (see [`Game::keep_log`]).
    fn lines_logged(&self) -> u64 {
        (self.log.len() as u64).saturating_add(self.unlogged)
    }

    /// A player concedes (12.7: at any time, before any process, always accepted).
    pub fn concede(&mut self, seat: Seat) {
        if (seat as usize) < self.state.players.len() && self.state.outcome.is_none() {
            self.log_line("choice", |_| format!("p{} concedes", shown(seat)));
            self.state.players[seat as usize].lost = true;
            self.settle();
        }
    }

    fn emit_declarations(&mut self) {
        let Some(ev) = self.prog.core_declare else {
            self.declared.clear();
            return;
        };
        let n = self.prog.ruleset.events[ev as usize].params.len();
        for (p, v) in std::mem::take(&mut self.declared) {
            let mut args = vec![Value::Player(p), Value::Text(v.clone())];
            args.resize(n.max(2), Value::Absent);
            args.truncate(n);
            self.log_line("event", |g| {
                format!(
                    "{}(p{}, {v})",
                    Program::short(&g.prog.ruleset.events[ev as usize].name.id),
                    shown(p)
                )
            });
            self.emit(
                EventData {
                    event: ev,
                    args: args.into(),
                },
                None,
            );
        }
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.state.outcome.as_ref()
    }

    /// Statements run so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// A card's stat as read now (floored; a pair for a composite stat).
    pub fn stat(&mut self, c: CardId, stat: &str) -> Value {
        self.stat_value(c, stat)
    }

    /// Whether cards are set on a card (cached until the game next changes: every attachment
    /// change is a change).
    fn is_host(&mut self, c: CardId) -> bool {
        self.update_hosts();
        self.hosts.is_host.get(c as usize).copied().unwrap_or(false)
    }

    /// The cards set on card `c`, in card order, read from the hosts found (no walk over
    /// every card, as [`Game::attached`] makes).
    fn attached_now(&mut self, c: CardId) -> smallvec::SmallVec<[CardId; 4]> {
        self.update_hosts();
        let pairs = &self.hosts.attachments;
        let start = pairs.partition_point(|&(h, _)| h < c);
        let cards: smallvec::SmallVec<[CardId; 4]> = pairs[start..]
            .iter()
            .take_while(|&&(h, _)| h == c)
            .map(|&(_, x)| x)
            .collect();
        // the tests' builds walk every card too, and compare
        debug_assert_eq!(cards.as_slice(), self.attached(c).as_slice());
        cards
    }

    /// Finds which cards are hosts again when attaching changed since they were found (the
    /// test is inlined where it is made, at every event per card that may answer it).
    #[inline]
    fn update_hosts(&mut self) {
        if self.hosts.stamp != Some(self.stamps.hosts) {
            self.find_hosts();
        }
    }

    /// [`Game::update_hosts`]: the hosts found.
    #[inline(never)]
    fn find_hosts(&mut self) {
        let mut v = vec![false; self.state.cards.len()];
        let mut attachments = Vec::new();
        for (i, x) in self.state.cards.iter().enumerate() {
            if let Some(h) = x.host {
                v[h as usize] = true;
                attachments.push((h, card_id(i)));
            }
        }
        attachments.sort_unstable();
        let list: Vec<CardId> = (0..v.len()).filter(|c| v[*c]).map(card_id).collect();
        self.hosts = Hosts {
            stamp: Some(self.stamps.hosts),
            is_host: v.into(),
            list: list.into(),
            attachments: attachments.into(),
        };
    }

    /// The cards that have cards set on them, in card order.
    fn host_list(&mut self) -> Rc<[CardId]> {
        self.update_hosts();
        Rc::clone(&self.hosts.list)
    }

    /// The cards whose definitions have an own continuous ability, in card order, and the
    /// zone slots where one of their continuous abilities may work (listed again when the
    /// number of cards changed: a card's definition never does).
    fn continuous_cards(&mut self) -> ContinuousCards {
        let n = self.state.cards.len();
        if self.continuous_cards.0 != n {
            let zones_of = |c: usize| self.prog.continuous_zones[self.state.cards[c].def as usize];
            let list: Vec<CardId> = (0..n).filter(|c| zones_of(*c) != 0).map(card_id).collect();
            let zones = list.iter().fold(0u64, |z, c| z | zones_of(*c as usize));
            let players = self.state.players.len();
            let mut slots = ContinuousCards {
                cards: list.into(),
                ..ContinuousCards::default()
            };
            let mut beyond = Vec::new();
            for z in 0..self.prog.ruleset.zones.len() {
                let Ok(zone) = u16::try_from(z) else { continue };
                if zones == 0 || !program::zone_in(zones, zone) {
                    continue;
                }
                for owner in 0..players {
                    let Ok(owner) = Seat::try_from(owner) else {
                        continue;
                    };
                    let slot = self.state.slot(ZoneKey { zone, owner });
                    match u32::try_from(slot).ok().and_then(|s| 1u64.checked_shl(s)) {
                        Some(bit) => slots.slots_below_64 |= bit,
                        None => beyond.push(slot),
                    }
                }
            }
            slots.slots_from_64 = beyond.into();
            self.continuous_cards = (n, slots);
        }
        self.continuous_cards.1.clone()
    }

    /// The cards whose definitions have an ability of `kind`, in card order (listed again when
    /// the number of cards changed: a card's definition never does).
    fn kind_cards(&mut self, kind: &Id) -> Rc<[CardId]> {
        let n = self.state.cards.len();
        let at = self.kind_cards.iter().position(|(k, _, _)| k == kind);
        if let Some((_, listed, list)) = at.and_then(|i| self.kind_cards.get(i)) {
            if *listed == n {
                return Rc::clone(list);
            }
        }
        let holders = self.prog.kind_holders.get(kind);
        let list: Rc<[CardId]> = (0..n)
            .filter(|c| holders.is_some_and(|h| h[self.state.cards[*c].def as usize]))
            .map(card_id)
            .collect();
        match at {
            Some(i) => self.kind_cards[i] = (*kind, n, Rc::clone(&list)),
            None => self.kind_cards.push((*kind, n, Rc::clone(&list))),
        }
        list
    }

    /// The cards set on a card.
    pub fn attached_cards(&self, c: CardId) -> Vec<CardId> {
        self.attached(c)
    }

    /// The view of one player.
    pub fn view(&self, seat: Seat) -> PlayerView<'_> {
        PlayerView::new(self, seat)
    }

    /// Runs until a player must decide (the request) or the game is over (`None`).
    pub fn step(&mut self) -> Option<Request> {
        loop {
            if self.state.outcome.is_some() {
                self.frames.clear();
                return None;
            }
            self.steps = self.steps.saturating_add(1);
            if self.steps > self.max_steps {
                let cards = self.loop_cards();
                self.note(format!(
                    "the game reached its step limit ({}) and ends as a draw (12.10){}",
                    self.max_steps, cards
                ));
                self.end(Outcome::Draw);
                continue;
            }
            match self.advance() {
                Ok(()) => {
                    if !self.answers.is_empty() {
                        // the statement that asked is done
                        self.answers.clear();
                        self.forget_kept_choice();
                    }
                    self.answer_pos = 0;
                    self.end_while_aliases();
                    if self.prog.has_interrupts() {
                        self.interrupt_after_change();
                    }
                }
                Err(req) => {
                    self.answer_pos = 0;
                    // a loop may be named or replayed instead (docs/engine.md, "Loops")
                    if let Some(req) = self.loop_request(*req) {
                        return Some(req);
                    }
                }
            }
            if self.frames.is_empty() && self.state.outcome.is_none() {
                self.note("the game stopped with no turn structure to run".into());
                self.end(Outcome::Draw);
            }
        }
    }

    /// Gives the answer to the request [`Game::step`] returned. An answer that does not fit is
    /// refused (`false`) and the same request stands.
    pub fn answer(&mut self, request: &Request, answer: Answer) -> bool {
        if !request.accepts(&answer) {
            return false;
        }
        if answer == Answer::Concede {
            self.concede(request.player);
            self.answers.clear();
            return true;
        }
        if let RequestKind::Repeat { .. } = request.kind {
            self.loop_answer(request, answer);
            return true;
        }
        self.log_choice(request, &answer);
        if let Some(answer) = self.loop_answer(request, answer) {
            self.answers.push(answer);
        }
        true
    }

    /// Plays the whole game with one agent per seat; returns the outcome.
    pub fn play(&mut self, agents: &mut [Box<dyn Agent + '_>]) -> Outcome {
        while let Some(req) = self.step() {
            let seat = req.player as usize;
            let view = PlayerView::new(self, req.player);
            let k = seat.checked_rem(agents.len()).unwrap_or(0);
            let a = agent::decide_or_first_legal(agents[k].as_mut(), &view, &req);
            self.answer(&req, a);
        }
        self.state.outcome.clone().unwrap_or(Outcome::Draw)
    }

    // ───────────── the VM ─────────────

    /// One step of the VM: the top frame's next move (a statement run, mostly). A frame that
    /// only moves the VM on — a block's end, a `for each` or `repeat` taking its next round or
    /// ending, a call's start, a context's end that shuffled nothing, a step of check-timing or
    /// interrupt rules that changed nothing — changes nothing of the game, and what follows it
    /// runs in this same call (`Game::fused_step`).
    fn advance(&mut self) -> Result<(), Box<Request>> {
        loop {
            let Some(top) = self.frames.last_mut() else {
                return Ok(());
            };
            return match top {
                Frame::Root { setup_done } => {
                    let setup = !*setup_done;
                    *setup_done = true;
                    self.advance_root(setup);
                    Ok(())
                }
                Frame::Block { stmts, pc, mark } => {
                    let Some(s) = stmts.get(*pc as usize) else {
                        let m = *mark;
                        self.vars.truncate(m as usize);
                        self.pop_plain_frame();
                        if self.fused_step() {
                            continue;
                        }
                        return Ok(());
                    };
                    self.run_statement(s)
                }
                Frame::Each(each) => {
                    let Each {
                        var,
                        items,
                        idx,
                        body,
                        mark,
                    } = &mut **each;
                    let m = *mark;
                    self.vars.truncate(m);
                    if *idx >= items.len() {
                        self.frames.pop();
                    } else {
                        let v = items[*idx].clone();
                        let var = *var;
                        let body = *body;
                        *idx = idx.saturating_add(1);
                        self.vars.push((var, v));
                        self.frames.push(self.block(body));
                    }
                    if self.fused_step() {
                        continue;
                    }
                    Ok(())
                }
                Frame::Repeat { left, body } => {
                    if *left <= 0 {
                        self.frames.pop();
                    } else {
                        *left = left.saturating_sub(1);
                        let body = *body;
                        self.frames.push(self.block(body));
                    }
                    if self.fused_step() {
                        continue;
                    }
                    Ok(())
                }
                Frame::While { cond, body, rounds } => {
                    let (cond, body, done) = (*cond, *body, *rounds);
                    self.while_step(cond, body, done)
                }
                Frame::PopCtx => {
                    self.pop_plain_frame();
                    let before = self.state.generation;
                    self.end_context();
                    // (unless the context's end shuffled a zone it saw whole)
                    if self.fused_since(before) {
                        continue;
                    }
                    Ok(())
                }
                Frame::Batch => {
                    self.frames.pop();
                    if let Some(Some(events)) = self.batch.pop() {
                        for (e, look) in events {
                            self.dispatch(e, look);
                        }
                    }
                    Ok(())
                }
                Frame::PhaseEnd => {
                    self.frames.pop();
                    self.frames.push(self.check_timing());
                    Ok(())
                }
                Frame::ChainEffect { body } => {
                    let body = *body;
                    self.frames.pop();
                    self.push_chain(body);
                    Ok(())
                }
                Frame::OptionalCost {
                    card,
                    ability,
                    negated,
                } => {
                    let (card, ability, negated) = (*card, *ability, *negated);
                    self.optional_cost_step(card, ability, negated)
                }
                Frame::Window(_) => self.window_step(),
                Frame::CallStart(_) => {
                    if let Some(Frame::CallStart(c)) = self.frames.pop() {
                        self.start_call(*c);
                    }
                    if self.fused_step() {
                        continue;
                    }
                    Ok(())
                }
                // (a rule run started or passed over, a round or the timing ended)
                Frame::Check { .. } => {
                    let before = self.state.generation;
                    self.check_step()?;
                    if self.fused_since(before) {
                        continue;
                    }
                    Ok(())
                }
                Frame::Interrupt { .. } => {
                    let before = self.state.generation;
                    self.interrupt_step();
                    if self.fused_since(before) {
                        continue;
                    }
                    Ok(())
                }
                Frame::Changes(_) => {
                    self.changes_step();
                    Ok(())
                }
                Frame::Script(_) => self.script_step(),
            };
        }
    }

    /// A `while` loop's next round, if its condition holds (`done`: the rounds run so far; a
    /// loop still going after `ir::MAX_WHILE_ROUNDS` is unavoidable, and the game a draw).
    fn while_step(
        &mut self,
        cond: &'p ir::Expr,
        body: &'p [Stmt],
        done: u32,
    ) -> Result<(), Box<Request>> {
        if done >= ir::MAX_WHILE_ROUNDS {
            self.frames.pop();
            let cards = self.loop_cards();
            self.note(format!(
                "a `while` loop still went on after {} runs: an unavoidable loop, the \
                 game is a draw{cards}",
                ir::MAX_WHILE_ROUNDS
            ));
            self.end(Outcome::Draw);
            return Ok(());
        }
        if self.eval_true(cond)? {
            if let Some(Frame::While { rounds, .. }) = self.frames.last_mut() {
                *rounds = rounds.saturating_add(1);
            }
            self.frames.push(self.block(body));
        } else {
            self.frames.pop();
        }
        Ok(())
    }

    /// After a step of the VM's own bookkeeping that began at generation `before`:
    /// [`Game::fused_step`] if it changed nothing of the game.
    fn fused_since(&mut self, before: u64) -> bool {
        self.state.generation == before && self.fused_step()
    }

    /// After a frame that changed nothing of the game but the VM's own position: whether the
    /// next frame runs in this same step — counted as the step it took before (so the step
    /// limit falls where it did), with nothing for the step's end to do (the game goes on, no
    /// answer is held, no change was made: no alias or interrupt to look at that the last step
    /// did not).
    fn fused_step(&mut self) -> bool {
        if self.frames.is_empty()
            || self.steps >= self.max_steps
            || self.state.outcome.is_some()
            || !self.answers.is_empty()
        {
            return false;
        }
        self.answer_pos = 0;
        self.steps = self.steps.saturating_add(1);
        true
    }

    /// The root frame: the ruleset's `setup` first (then a phase end's check timing), then one
    /// turn after another; a ruleset with no turn ends after its setup.
    fn advance_root(&mut self, setup: bool) {
        if setup {
            self.push_ctx(0, None, None, None);
            self.frames.push(Frame::PhaseEnd);
            self.frames.push(self.block(&self.prog.ruleset.setup));
        } else if self.prog.ruleset.turn.is_empty() {
            self.frames.clear();
        } else {
            self.begin_turn();
        }
    }

    /// Pops the top frame, a block or the end of a context (the commonest frames by far): as
    /// neither holds anything to free, it is forgotten, not dropped — the drop of a frame of
    /// any kind is a long function, run for nothing. Any other frame is dropped.
    fn pop_plain_frame(&mut self) {
        match self.frames.pop() {
            Some(f @ (Frame::Block { .. } | Frame::PopCtx)) => std::mem::forget(f),
            other => drop(other),
        }
    }

    /// Runs the statement at the top block's `pc`, then moves past it and pushes the frames it
    /// asked for. A choice suspends it (`Err`): it runs again from its start once answered.
    fn run_statement(&mut self, s: &'p Stmt) -> Result<(), Box<Request>> {
        self.declared.clear();
        let pushed = self.exec(s)?;
        if !self.declared.is_empty() {
            self.emit_declarations();
        }
        if let Some(Frame::Block { pc, .. }) = self.frames.last_mut() {
            *pc = pc.saturating_add(1);
        }
        // most statements push nothing: no iterator then, and an empty list held in place has
        // nothing to free (forgotten, not dropped: its drop is a call for nothing)
        if !pushed.is_empty() {
            // pushed one by one after room is made: `extend` from a `SmallVec`'s iterator takes
            // its slow path (the iterator does not tell its length)
            self.frames.reserve(pushed.len());
            for f in pushed {
                self.frames.push(f);
            }
        } else if !pushed.spilled() {
            std::mem::forget(pushed);
        }
        Ok(())
    }

    /// Leaves a context: its variables go, and when the effect that saw a whole zone ends,
    /// that zone is shuffled (zones declared `shuffle_when_seen`).
    fn end_context(&mut self) {
        if let Some(c) = self.ctxs.pop() {
            self.vars.truncate(c.vars_base);
            let parent = self.ctxs.last().and_then(|p| p.source);
            if c.source.is_some() && c.source != parent && !self.seen.is_empty() {
                for k in std::mem::take(&mut self.seen) {
                    self.shuffle_zone(k);
                }
            }
        }
    }

    /// Starts a call (a verb, a procedure, an ability's effect): its context, its arguments
    /// as variables, and its body.
    fn start_call(&mut self, c: CallStart<'p>) {
        self.push_ctx(c.you, c.this, c.event, c.source);
        if let Some(a) = c.applied {
            if let Some(top) = self.ctxs.last_mut() {
                top.applied = a;
            }
        }
        self.vars.extend(c.vars);
        if !c.body.is_empty() {
            self.frames.push(self.block(c.body));
        }
    }

    fn begin_turn(&mut self) {
        let n = self.prog.players();
        // the first turn is the first seat's, or the player a `goes_first` of the setup named
        if self.state.turn > 0 {
            let mut next = self.state.active as usize;
            for _ in 0..n {
                next = next_seat(next, n);
                if !self.state.players[next].lost {
                    break;
                }
            }
            self.state.active = seat(next);
        }
        self.state.turn = self.state.turn.saturating_add(1);
        self.turn_changed();
        self.state.uses.retain(|u| u.4 != "turn");
        self.note_turn();
        let you = self.state.active;
        self.push_ctx(you, None, None, None);
        self.frames.push(Frame::PopCtx);
        self.frames.push(self.block(&self.prog.ruleset.turn));
        // the PopCtx above ends the turn's context; a turn limit guards against endless games
        if self.state.turn > 10_000 {
            self.note("the game reached 10,000 turns and ends as a draw".into());
            self.end(Outcome::Draw);
        }
    }

    fn note_turn(&mut self) {
        let t = self.state.turn;
        self.log_line("turn", |g| format!("turn {t}: p{}", shown(g.state.active)));
    }

    fn push_ctx(
        &mut self,
        you: Seat,
        this: Option<CardId>,
        event: Option<Rc<EventData>>,
        source: Option<(CardId, AbilityRef)>,
    ) {
        let applied = self
            .ctxs
            .last()
            .map(|c| c.applied.clone())
            .unwrap_or_default();
        self.ctxs.push(Ctx {
            you,
            this,
            event,
            vars_base: self.vars.len(),
            source,
            applied,
            captured: None,
        });
    }

    fn ctx(&self) -> &Ctx {
        self.ctxs
            .last()
            .expect("a context is always set while fuda runs")
    }

    /// Frames that run `body` in a new context (pushed in this order: context end, body).
    fn call_frames(&mut self, body: &'p [Stmt]) -> Frames<'p> {
        smallvec::smallvec![Frame::PopCtx, self.block(body)]
    }

    /// A check timing starting now: rule actions, then pending triggers.
    fn check_timing(&self) -> Frame<'p> {
        Frame::Check {
            interrupted: false,
            rules_done: false,
            rule: 0,
            player: 0,
            generation: self.state.generation,
            round: None,
            rounds: 0,
            resolved: 0,
        }
    }

    /// A block of statements whose variables end with it (those of now stay visible).
    fn block(&self, body: &'p [Stmt]) -> Frame<'p> {
        Frame::Block {
            stmts: body,
            pc: 0,
            mark: var_mark(self.vars.len()),
        }
    }

    fn push_chain(&mut self, body: &'p [Stmt]) {
        let ctx = self.ctx().clone();
        let vars = self.vars[ctx.vars_base..].to_vec();
        let item = ChainItem {
            body,
            ctx,
            vars,
            negated: false,
        };
        for f in self.frames.iter_mut().rev() {
            if let Frame::Window(w) = f {
                if w.chain {
                    w.stack.push(item);
                    return;
                }
            }
        }
        // no chain window: run it now
        self.run_item(item);
    }

    fn run_item(&mut self, item: ChainItem<'p>) {
        if let Some((card, aref)) = item.ctx.source {
            if item.negated || self.effect_negated_now(card) {
                // 12.4.3: the effect an ability put on the chain was negated meanwhile
                let kind = Program::short(&self.prog.ability(aref).kind).to_string();
                self.log_card_src("negate", card, aref, |n| {
                    format!("{n}'s {kind} effect is negated: it does nothing")
                });
                return;
            }
        }
        let mut ctx = item.ctx;
        ctx.vars_base = self.vars.len();
        self.ctxs.push(ctx);
        self.vars.extend(item.vars);
        self.frames.push(Frame::PopCtx);
        self.frames.push(self.block(item.body));
    }

    // ───────────── windows ─────────────

    fn pop_ctx_now(&mut self) {
        if let Some(c) = self.ctxs.pop() {
            self.vars.truncate(c.vars_base);
        }
    }

    // ───────────── check timings and triggers ─────────────

    /// Ends the game.
    fn end(&mut self, o: Outcome) {
        if self.state.outcome.is_some() {
            return;
        }
        let text = match &o {
            Outcome::Win(p) => format!("p{} wins", shown(*p)),
            Outcome::Draw => "the game is a draw".into(),
        };
        self.log_line("end", |_| text);
        self.state.outcome = Some(o);
    }

    /// Ends the game if the players' wins and losses decide it.
    fn settle(&mut self) {
        let n = self.state.players.len();
        let won: Vec<usize> = (0..n).filter(|p| self.state.players[*p].won).collect();
        let alive: Vec<usize> = (0..n).filter(|p| !self.state.players[*p].lost).collect();
        if won.len() > 1 || alive.is_empty() {
            self.end(Outcome::Draw);
        } else if won.len() == 1 {
            self.end(Outcome::Win(seat(won[0])));
        } else if alive.len() == 1 && n > 1 {
            self.end(Outcome::Win(seat(alive[0])));
        }
    }

    fn note(&mut self, text: String) {
        self.log_line("note", |_| text.clone());
        self.notes.push(text);
    }

    fn loop_cards(&self) -> String {
        let mut names: Vec<String> = Vec::new();
        for c in self.recent.iter().rev() {
            let n = self.prog.cards[self.state.cards[*c as usize].def as usize]
                .name
                .clone();
            if !names.contains(&n) {
                names.push(n);
            }
        }
        if names.is_empty() {
            String::new()
        } else {
            format!("; cards in the loop: {}", names.join(", "))
        }
    }

    /// Whether a player may see a card now: its zone's visibility, its face, and what the
    /// player learned of it (the one check every line, prompt and view a player gets passes).
    pub fn sees(&self, seat: Seat, c: CardId) -> bool {
        (c as usize) < self.state.cards.len() && self.visible_to(c, seat)
    }

    /// A card's printed name.
    pub fn card_name(&self, c: CardId) -> String {
        self.prog.cards[self.state.cards[c as usize].def as usize]
            .name
            .clone()
    }

    fn source_text(&self) -> Option<String> {
        let (_, (def, i)) = self.ctxs.last()?.source?;
        Some(format!(
            "cards/{}/abilities/{}",
            self.prog.cards[def as usize].id, i
        ))
    }

    /// Logs a line that names no card (every line naming a card goes through
    /// [`Game::log_cards`] or [`Game::log_named`]), written by `text` only when the log is
    /// kept (see [`Game::keep_log`]).
    fn log_line(&mut self, kind: &'static str, text: impl FnOnce(&Self) -> String) {
        if self.line_unwritten() {
            return;
        }
        let text = text(self);
        let source = self.source_text();
        self.push_log(kind, text, None, Vec::new(), source);
    }

    /// The players (one bit each) who may see a card now.
    fn seers(&self, c: CardId) -> u32 {
        self.prog
            .seats()
            .filter(|p| self.visible_to(c, *p))
            .fold(0, |m, p| m | (1 << p))
    }

    /// A card's name as a player may read it: `a hidden card` when they may not see it.
    fn name_for(&self, c: CardId, seat: Seat) -> String {
        if self.visible_to(c, seat) {
            self.card_name(c)
        } else {
            "a hidden card".into()
        }
    }

    /// Logs a line naming cards, written by `line` from their names: players who may not see
    /// one of them now read it with `a card` in its place.
    fn log_cards(
        &mut self,
        kind: &'static str,
        cards: &[CardId],
        line: impl Fn(&[String]) -> String,
    ) {
        if self.line_unwritten() {
            return;
        }
        let tags: Vec<(CardId, u32)> = cards.iter().map(|c| (*c, self.seers(*c))).collect();
        let source = self.source_text();
        self.log_tagged(kind, tags, &line, source);
    }

    /// [`Game::log_cards`] with the seers of each card given (a move: who saw it on either
    /// side) and the source given.
    fn log_tagged(
        &mut self,
        kind: &'static str,
        tags: Vec<(CardId, u32)>,
        line: &dyn Fn(&[String]) -> String,
        source: Option<String>,
    ) {
        if self.line_unwritten() {
            return;
        }
        let all = everyone(self.prog.players());
        let names: Vec<String> = tags.iter().map(|(c, _)| self.card_name(*c)).collect();
        let hidden: Vec<String> = tags
            .iter()
            .zip(&names)
            .map(|((_, m), n)| {
                if *m & all == all {
                    n.clone()
                } else {
                    "a card".into()
                }
            })
            .collect();
        let redacted = line(&hidden);
        self.log_named(kind, tags, line(&names), redacted, source);
    }

    /// The one place a line naming cards is logged: `tags` are the cards it names with the
    /// players who could see each; those who could see them all read `text`, the others
    /// `redacted` (which must name none of the cards hidden from them).
    fn log_named(
        &mut self,
        kind: &'static str,
        tags: Vec<(CardId, u32)>,
        text: String,
        redacted: String,
        source: Option<String>,
    ) {
        let all = everyone(self.prog.players());
        let readers = tags.iter().fold(all, |r, (_, m)| r & m);
        let redacted = (readers & all != all).then_some(redacted);
        self.push_log(kind, text, redacted, tags, source);
    }

    /// Logs a line naming the card `c` whose ability `aref` is the line's source.
    fn log_card_src(
        &mut self,
        kind: &'static str,
        c: CardId,
        aref: AbilityRef,
        line: impl Fn(&str) -> String,
    ) {
        if self.line_unwritten() {
            return;
        }
        let (def, i) = aref;
        let source = format!("cards/{}/abilities/{}", self.prog.cards[def as usize].id, i);
        let tags = vec![(c, self.seers(c))];
        self.log_tagged(kind, tags, &|n| line(&n[0]), Some(source));
    }

    /// With the log off: counts the line a caller is about to write (its sequence number is
    /// taken) and says so, so that the caller builds nothing of it.
    fn line_unwritten(&mut self) -> bool {
        if self.logging {
            return false;
        }
        self.unlogged = self.unlogged.saturating_add(1);
        true
    }

    fn push_log(
        &mut self,
        kind: &'static str,
        text: String,
        redacted: Option<String>,
        cards: Vec<(CardId, u32)>,
        source: Option<String>,
    ) {
        if self.line_unwritten() {
            return;
        }
        let all = everyone(self.prog.players());
        let readers = cards.iter().fold(all, |r, (_, m)| r & m);
        let seq = self.lines_logged().saturating_add(1);
        self.log.push(LogEntry {
            seq,
            turn: self.state.turn,
            kind,
            text,
            redacted,
            readers,
            cards,
            source,
        });
    }

    fn log_choice(&mut self, r: &Request, a: &Answer) {
        if self.line_unwritten() {
            return;
        }
        let what = match a {
            Answer::Pick(i) => r
                .options
                .get(*i)
                .map(|o| o.label.clone())
                .unwrap_or_default(),
            Answer::Yes(true) => "yes".into(),
            Answer::Yes(false) => "no".into(),
            Answer::Many(v) if v.is_empty() => "nothing".into(),
            Answer::Many(v) => v
                .iter()
                .filter_map(|i| r.options.get(*i).map(|o| o.label.clone()))
                .collect::<Vec<_>>()
                .join(", "),
            Answer::Text(t) => t.clone(),
            Answer::Concede => "concede".into(),
        };
        let full = format!("p{} chooses {}", shown(r.player), what);
        // the chooser may see cards the others may not: they read `a card` for them
        let picked: Vec<CardId> = match a {
            Answer::Pick(i) => r
                .options
                .get(*i)
                .and_then(|o| o.card_id)
                .into_iter()
                .collect(),
            Answer::Many(v) => v
                .iter()
                .filter_map(|i| r.options.get(*i)?.card_id)
                .collect(),
            _ => Vec::new(),
        };
        // the chooser reads their own choice whole
        let tags: Vec<(CardId, u32)> = picked
            .iter()
            .map(|c| (*c, self.seers(*c) | (1 << r.player)))
            .collect();
        let redacted = format!(
            "p{} chooses {} card{}",
            shown(r.player),
            picked.len(),
            if picked.len() == 1 { "" } else { "s" }
        );
        let source = self.source_text();
        self.log_named("choice", tags, full, redacted, source);
    }

    /// Takes the next replayed answer, or stops the statement with the request, built only
    /// then (a replayed statement takes its answer without building the request's texts).
    fn ask_with(&mut self, build: impl FnOnce(&Self) -> Request) -> Result<Answer, Box<Request>> {
        // a payability check asks nobody and leaves the statement's answers alone
        if !self.dry.active {
            if let Some(a) = self.answers.get(self.answer_pos) {
                self.answer_pos = self.answer_pos.saturating_add(1);
                self.asked = self.asked.saturating_add(1);
                return Ok(a.clone());
            }
        }
        Err(Box::new(build(self)))
    }

    /// The stream shuffles draw from, counted as used.
    fn shuffle_stream(&mut self) -> &mut ChaCha8Rng {
        self.stream_uses = self.stream_uses.wrapping_add(1);
        &mut self.rng
    }

    /// The stream random picks (`random …`) draw from, counted as used.
    fn pick_stream(&mut self) -> &mut ChaCha8Rng {
        self.stream_uses = self.stream_uses.wrapping_add(1);
        &mut self.random
    }

    /// Where the shuffle and pick streams stand (their word positions).
    fn stream_positions(&self) -> (u128, u128) {
        let (uses, shuffles, picks) = self.stream_pos.get();
        if uses == self.stream_uses {
            return (shuffles, picks);
        }
        let now = (self.rng.get_word_pos(), self.random.get_word_pos());
        self.stream_pos.set((self.stream_uses, now.0, now.1));
        now
    }

    /// Shuffles a zone with the game's shuffle stream.
    fn shuffle_zone(&mut self, k: ZoneKey) {
        let slot = self.state.slot(k);
        let mut cards = std::mem::take(&mut self.state.zones[slot]);
        cards.shuffle(self.shuffle_stream());
        self.state.zones[slot] = cards;
        self.changed(rule_memo::Touched::Zone(k));
        let z = Program::short(&self.prog.ruleset.zones[k.zone as usize].name.id).to_string();
        self.log_line("shuffle", |_| {
            format!("p{}'s {z} is shuffled", shown(k.owner))
        });
    }
}

/// The state at the start: every player with zeroed counters, every card where `placements` put
/// it (hosts attached; ordered zones listed top first by their placer, so the last is the top).
fn initial_state(prog: &Program, placements: &[Placement]) -> State {
    let n = prog.players();
    let counters = prog.ruleset.counters.len();
    let mut state = State {
        players: vec![
            PlayerState {
                counters: vec![0; counters],
                lost: false,
                won: false,
            };
            n
        ],
        cards: Vec::with_capacity(placements.len()),
        zones: vec![Vec::new(); prog.ruleset.zones.len().max(1).saturating_mul(n)],
        modifiers: Vec::new(),
        aliases: Vec::new(),
        player_keywords: Vec::new(),
        cancelled: Vec::new(),
        uses: Vec::new(),
        clock: 0,
        generation: 0,
        turn: 0,
        active: 0,
        phase: None,
        outcome: None,
        history: Vec::new(),
        reached: std::collections::BTreeMap::new(),
    };
    for p in placements {
        let id = card_id(state.cards.len());
        state.cards.push(placed_card(prog, p));
        let slot = state.slot(p.zone);
        state.zones[slot].push(id);
    }
    for (i, p) in placements.iter().enumerate() {
        if let Some(h) = p.host {
            state.cards[i].host = Some(card_id(h));
        }
    }
    for (z, zone) in prog.ruleset.zones.iter().enumerate() {
        if !zone.slots.is_empty() {
            fill_slots(&mut state, &zone.slots, index16(z));
        }
        if zone.ordered {
            for o in 0..n {
                let k = state.slot(ZoneKey {
                    zone: index16(z),
                    owner: seat(o),
                });
                state.zones[k].reverse();
            }
        }
    }
    state
}

/// Gives each card placed in a zone with slots without one (and set on no card) the first slot
/// of its owner's zone that no card holds, in placement order: one card per slot.
fn fill_slots(state: &mut State, slots: &[String], zone: u16) {
    for o in 0..state.players.len() {
        let k = state.slot(ZoneKey {
            zone,
            owner: seat(o),
        });
        for i in 0..state.zones[k].len() {
            let c = state.zones[k][i] as usize;
            if state.cards[c].slot.is_some() || state.cards[c].host.is_some() {
                continue;
            }
            let held = |s: &String| {
                state.zones[k]
                    .iter()
                    .any(|x| state.cards[*x as usize].slot.as_ref() == Some(s))
            };
            state.cards[c].slot = slots.iter().find(|s| !held(s)).cloned();
        }
    }
}

/// A card as `p` places it: face up as its zone's visibility says unless told, with the
/// ruleset's default states in a zone in play, then the placement's own states and counters.
fn placed_card(prog: &Program, p: &Placement) -> CardState {
    let zone = &prog.ruleset.zones[p.zone.zone as usize];
    let face_up = p
        .face_up
        .unwrap_or(zone.visibility == ir::Visibility::Public);
    let mut counters = vec![0; prog.ruleset.counters.len()];
    for (c, v) in &p.counters {
        counters[*c as usize] = *v;
    }
    let mut states = 0u64;
    if prog
        .in_play
        .get(p.zone.zone as usize)
        .copied()
        .unwrap_or(false)
    {
        states = prog.default_states;
    }
    for s in &p.states {
        states &= !prog.states[*s as usize].group_mask;
        states |= 1 << s;
    }
    CardState {
        def: p.def,
        owner: p.owner,
        controller: if zone.per_player {
            p.zone.owner
        } else {
            p.owner
        },
        zone: p.zone,
        face_up,
        states,
        counters,
        slot: p.slot.clone(),
        // not set on a card, not moved yet, nothing known or negated
        ..CardState::default()
    }
}

#[cfg(test)]
mod tests {
    use super::{state::Value, Frame};

    /// Frames are moved at every statement and values at every read: a variant that grows
    /// either (a large field left unboxed) slows every game.
    #[test]
    fn frames_and_values_stay_small() {
        let frame = std::mem::size_of::<Frame<'static>>();
        assert!(
            frame <= 32,
            "a frame is {frame} bytes: box its large variant, or narrow its fields"
        );
        let value = std::mem::size_of::<Value>();
        assert!(
            value <= 32,
            "a value is {value} bytes: box its large variant"
        );
    }
}
