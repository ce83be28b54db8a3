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

pub mod agent;
pub mod bench_api;
mod eval;
mod exec;
mod layers;
pub mod log;
pub mod program;
pub mod state;
pub mod view;

pub use agent::{Agent, Answer, Choice, FirstLegalAgent, RandomAgent, Request, RequestKind};
pub use log::LogEntry;
pub use program::Program;
pub use state::{CardId, Outcome, Seat, State, Value, ZoneKey};
pub use view::PlayerView;

use crate::ir::{self, Stmt, WindowEntry};
use program::AbilityRef;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use state::{CardState, PlayerState};
use std::rc::Rc;

/// The payload of an event being handled (triggered on, or replaced).
#[derive(Debug, Clone, PartialEq)]
pub struct EventData {
    /// The event's index.
    pub event: u16,
    /// Payload values in parameter order.
    pub args: Vec<Value>,
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
}

/// A triggered ability waiting for a check timing.
#[derive(Debug, Clone)]
struct Pending {
    card: CardId,
    this: CardId,
    ability: AbilityRef,
    controller: Seat,
    event: Rc<EventData>,
}

/// A chain item: a body to run later with the context it was put there with.
#[derive(Debug, Clone)]
struct ChainItem<'p> {
    body: &'p [Stmt],
    ctx: Ctx,
    vars: Vec<(&'p str, Value)>,
}

/// What a window offers a player.
#[derive(Debug, Clone)]
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
    entries: &'p [WindowEntry],
    turn: usize,
    passes: usize,
    stack: Vec<ChainItem<'p>>,
    checked: bool,
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

#[derive(Debug, Clone)]
enum Frame<'p> {
    /// Opens a context (and runs a body in it, if any); a `PopCtx` below it closes it.
    CallStart(Box<CallStart<'p>>),
    /// The game itself: setup, then turns.
    Root { setup_done: bool },
    /// Statements in order.
    Block {
        stmts: &'p [Stmt],
        pc: usize,
        mark: usize,
    },
    /// `for each`.
    Each {
        var: &'p str,
        items: Vec<Value>,
        idx: usize,
        body: &'p [Stmt],
        mark: usize,
    },
    /// `repeat`.
    Repeat { left: i64, body: &'p [Stmt] },
    /// Ends a context when reached.
    PopCtx,
    /// Ends a `simultaneously`: its events are handled as one batch.
    Batch,
    /// Ends a phase: a check timing follows.
    PhaseEnd,
    /// Puts an ability's effect on the innermost chain (after its cost is paid).
    ChainEffect { body: &'p [Stmt] },
    /// A timing window.
    Window(Box<Window<'p>>),
    /// A check timing: rule actions, then pending triggers.
    Check {
        rules_done: bool,
        rule: usize,
        player: usize,
        generation: u64,
        rounds: u32,
        resolved: u32,
    },
}

/// Game options.
#[derive(Debug, Clone)]
pub struct Options {
    /// The seed: every shuffle comes from it (agents have their own streams).
    pub seed: u64,
    /// Statements a game may run before it is stopped as a draw.
    pub max_steps: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 0,
            max_steps: 2_000_000,
        }
    }
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
    answers: Vec<Answer>,
    answer_pos: usize,
    pending: Vec<Pending>,
    batch: Vec<Option<Vec<Batched>>>,
    log: Vec<LogEntry>,
    rng: ChaCha8Rng,
    steps: u64,
    max_steps: u64,
    derived: layers::Derived,
    deriving: bool,
    /// Names after the ruleset's normalization, by text.
    norm_cache: rustc_hash::FxHashMap<String, String>,
    /// Which cards have cards set on them, for one generation.
    hosts: (Option<u64>, Vec<bool>),
    /// Zones an effect looked through whole, to shuffle when it ends (`shuffle_when_seen`).
    seen: Vec<ZoneKey>,
    /// Declarations made by the statement running (emitted once it completes).
    declared: Vec<(Seat, String)>,
    /// Notes about how the game went wrong (loops, step limit, rule errors).
    pub notes: Vec<String>,
    /// Recent sources of resolved triggers (for loop diagnostics).
    recent: Vec<CardId>,
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
                .unwrap_or(0) as u16
        });
        let mut placements = Vec::new();
        for (seat, deck) in decks.iter().enumerate() {
            for def in deck {
                placements.push(Placement {
                    def: *def,
                    owner: seat as Seat,
                    zone: ZoneKey {
                        zone,
                        owner: seat as Seat,
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
            pc,
            mark: g.vars.len(),
        });
        g.note_turn();
        g
    }

    fn empty(prog: &'p Program, placements: &[Placement], options: &Options) -> Game<'p> {
        let n = prog.players();
        let counters = prog.ruleset.counters.len();
        let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
        rng.set_stream(0);
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
            zones: vec![Vec::new(); prog.ruleset.zones.len().max(1) * n],
            modifiers: Vec::new(),
            aliases: Vec::new(),
            cancelled: Vec::new(),
            uses: Vec::new(),
            clock: 0,
            generation: 0,
            turn: 0,
            active: 0,
            phase: None,
            outcome: None,
        };
        for p in placements {
            let id = state.cards.len() as CardId;
            let zone = &prog.ruleset.zones[p.zone.zone as usize];
            let face_up = p
                .face_up
                .unwrap_or(zone.visibility == ir::Visibility::Public);
            let mut counters_v = vec![0; counters];
            for (c, v) in &p.counters {
                counters_v[*c as usize] = *v;
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
            let owner = p.zone.owner;
            state.cards.push(CardState {
                def: p.def,
                owner: p.owner,
                controller: if zone.per_player { owner } else { p.owner },
                zone: p.zone,
                face_up,
                states,
                counters: counters_v,
                host: None,
                incarnation: 0,
                entered: 0,
                treat: None,
                known: 0,
                effect_negated: false,
                slot: p.slot.clone(),
            });
            let slot = state.slot(p.zone);
            state.zones[slot].push(id);
        }
        for (i, p) in placements.iter().enumerate() {
            if let Some(h) = p.host {
                state.cards[i].host = Some(h as CardId);
            }
        }
        // Ordered zones listed top first by their placer: the last card is the top.
        for (z, zone) in prog.ruleset.zones.iter().enumerate() {
            if zone.ordered {
                for o in 0..n {
                    let k = state.slot(ZoneKey {
                        zone: z as u16,
                        owner: o as Seat,
                    });
                    state.zones[k].reverse();
                }
            }
        }
        Game {
            prog,
            state,
            frames: Vec::new(),
            ctxs: Vec::new(),
            vars: Vec::new(),
            its: Vec::new(),
            answers: Vec::new(),
            answer_pos: 0,
            pending: Vec::new(),
            batch: Vec::new(),
            log: Vec::new(),
            rng,
            steps: 0,
            max_steps: options.max_steps,
            derived: layers::Derived::default(),
            deriving: false,
            notes: Vec::new(),
            recent: Vec::new(),
            seen: Vec::new(),
            declared: Vec::new(),
            hosts: (None, Vec::new()),
            norm_cache: Default::default(),
        }
    }

    /// The event log so far.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// A player concedes (12.7: at any time, before any process, always accepted).
    pub fn concede(&mut self, seat: Seat) {
        if (seat as usize) < self.state.players.len() && self.state.outcome.is_none() {
            self.log_line("choice", format!("p{} concedes", seat + 1));
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
            self.log_line(
                "event",
                format!(
                    "{}(p{}, {v})",
                    Program::short(&self.prog.ruleset.events[ev as usize].name.id),
                    p + 1
                ),
            );
            self.emit(EventData { event: ev, args }, None);
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
        if self.hosts.0 != Some(self.state.generation) {
            let mut v = vec![false; self.state.cards.len()];
            for x in &self.state.cards {
                if let Some(h) = x.host {
                    v[h as usize] = true;
                }
            }
            self.hosts = (Some(self.state.generation), v);
        }
        self.hosts.1[c as usize]
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
            self.steps += 1;
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
                    self.answers.clear();
                    self.answer_pos = 0;
                }
                Err(req) => {
                    self.answer_pos = 0;
                    return Some(req);
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
        self.log_choice(request, &answer);
        self.answers.push(answer);
        true
    }

    /// Plays the whole game with one agent per seat; returns the outcome.
    pub fn play(&mut self, agents: &mut [Box<dyn Agent + '_>]) -> Outcome {
        while let Some(req) = self.step() {
            let seat = req.player as usize;
            let view = PlayerView::new(self, req.player);
            let mut a = agents[seat % agents.len()].decide(&view, &req);
            if !req.accepts(&a) {
                a = FirstLegalAgent.decide(&view, &req);
            }
            self.answer(&req, a);
        }
        self.state.outcome.clone().unwrap_or(Outcome::Draw)
    }

    // ───────────── the VM ─────────────

    fn advance(&mut self) -> Result<(), Request> {
        let Some(top) = self.frames.last_mut() else {
            return Ok(());
        };
        match top {
            Frame::Root { setup_done } => {
                if !*setup_done {
                    *setup_done = true;
                    self.push_ctx(0, None, None, None);
                    let mark = self.vars.len();
                    self.frames.push(Frame::PhaseEnd);
                    self.frames.push(Frame::Block {
                        stmts: &self.prog.ruleset.setup,
                        pc: 0,
                        mark,
                    });
                    return Ok(());
                }
                if self.prog.ruleset.turn.is_empty() {
                    self.frames.clear();
                    return Ok(());
                }
                self.begin_turn();
                Ok(())
            }
            Frame::Block { stmts, pc, mark } => {
                if *pc >= stmts.len() {
                    let m = *mark;
                    self.vars.truncate(m);
                    self.frames.pop();
                    return Ok(());
                }
                let s = &stmts[*pc];
                self.declared.clear();
                let pushed = self.exec(s)?;
                if !self.declared.is_empty() {
                    self.emit_declarations();
                }
                if let Some(Frame::Block { pc, .. }) = self.frames.last_mut() {
                    *pc += 1;
                }
                self.frames.extend(pushed);
                Ok(())
            }
            Frame::Each {
                var,
                items,
                idx,
                body,
                mark,
            } => {
                let m = *mark;
                self.vars.truncate(m);
                if *idx >= items.len() {
                    self.frames.pop();
                    return Ok(());
                }
                let v = items[*idx].clone();
                let var = *var;
                let body = *body;
                *idx += 1;
                self.vars.push((var, v));
                let mark = self.vars.len();
                self.frames.push(Frame::Block {
                    stmts: body,
                    pc: 0,
                    mark,
                });
                Ok(())
            }
            Frame::Repeat { left, body } => {
                if *left <= 0 {
                    self.frames.pop();
                    return Ok(());
                }
                *left -= 1;
                let body = *body;
                let mark = self.vars.len();
                self.frames.push(Frame::Block {
                    stmts: body,
                    pc: 0,
                    mark,
                });
                Ok(())
            }
            Frame::PopCtx => {
                self.frames.pop();
                if let Some(c) = self.ctxs.pop() {
                    self.vars.truncate(c.vars_base);
                    let parent = self.ctxs.last().and_then(|p| p.source);
                    if c.source.is_some() && c.source != parent && !self.seen.is_empty() {
                        // the effect that saw a whole zone ends: shuffle it (PMV 3.2.5)
                        for k in std::mem::take(&mut self.seen) {
                            self.shuffle_zone(k);
                        }
                    }
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
                self.frames.push(Frame::Check {
                    rules_done: false,
                    rule: 0,
                    player: 0,
                    generation: self.state.generation,
                    rounds: 0,
                    resolved: 0,
                });
                Ok(())
            }
            Frame::ChainEffect { body } => {
                let body = *body;
                self.frames.pop();
                self.push_chain(body);
                Ok(())
            }
            Frame::Window(_) => self.window_step(),
            Frame::CallStart(_) => {
                let Some(Frame::CallStart(c)) = self.frames.pop() else {
                    return Ok(());
                };
                let c = *c;
                self.push_ctx(c.you, c.this, c.event, c.source);
                if let Some(a) = c.applied {
                    if let Some(top) = self.ctxs.last_mut() {
                        top.applied = a;
                    }
                }
                self.vars.extend(c.vars);
                if !c.body.is_empty() {
                    let mark = self.vars.len();
                    self.frames.push(Frame::Block {
                        stmts: c.body,
                        pc: 0,
                        mark,
                    });
                }
                Ok(())
            }
            Frame::Check { .. } => self.check_step(),
        }
    }

    fn begin_turn(&mut self) {
        let n = self.prog.players();
        if self.state.turn == 0 {
            self.state.active = 0;
        } else {
            let mut next = self.state.active as usize;
            for _ in 0..n {
                next = (next + 1) % n;
                if !self.state.players[next].lost {
                    break;
                }
            }
            self.state.active = next as Seat;
        }
        self.state.turn += 1;
        self.state.uses.retain(|u| u.4 != "turn");
        self.note_turn();
        let you = self.state.active;
        self.push_ctx(you, None, None, None);
        let mark = self.vars.len();
        self.frames.push(Frame::PopCtx);
        self.frames.push(Frame::Block {
            stmts: &self.prog.ruleset.turn,
            pc: 0,
            mark,
        });
        // the PopCtx above ends the turn's context; a turn limit guards against endless games
        if self.state.turn > 10_000 {
            self.note("the game reached 10,000 turns and ends as a draw".into());
            self.end(Outcome::Draw);
        }
    }

    fn note_turn(&mut self) {
        let t = self.state.turn;
        self.log_line("turn", format!("turn {t}: p{}", self.state.active + 1));
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
        });
    }

    fn ctx(&self) -> &Ctx {
        self.ctxs
            .last()
            .expect("a context is always set while fuda runs")
    }

    /// Frames that run `body` in a new context (pushed in this order: context end, body).
    fn call_frames(&mut self, body: &'p [Stmt]) -> Vec<Frame<'p>> {
        vec![
            Frame::PopCtx,
            Frame::Block {
                stmts: body,
                pc: 0,
                mark: self.vars.len(),
            },
        ]
    }

    fn push_chain(&mut self, body: &'p [Stmt]) {
        let ctx = self.ctx().clone();
        let vars = self.vars[ctx.vars_base..].to_vec();
        let item = ChainItem { body, ctx, vars };
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
        let mut ctx = item.ctx;
        ctx.vars_base = self.vars.len();
        self.ctxs.push(ctx);
        self.vars.extend(item.vars);
        self.frames.push(Frame::PopCtx);
        self.frames.push(Frame::Block {
            stmts: item.body,
            pc: 0,
            mark: self.vars.len(),
        });
    }

    // ───────────── windows ─────────────

    fn window_step(&mut self) -> Result<(), Request> {
        let Some(Frame::Window(w)) = self.frames.last_mut() else {
            return Ok(());
        };
        if !w.checked {
            w.checked = true;
            let g = self.state.generation;
            self.frames.push(Frame::Check {
                rules_done: false,
                rule: 0,
                player: 0,
                generation: g,
                rounds: 0,
                resolved: 0,
            });
            return Ok(());
        }
        let n = w.players.len();
        let seat = w.players[w.turn % n.max(1)];
        let entries = w.entries;
        let chain = w.chain;
        let offers = if self.state.players[seat as usize].lost {
            vec![Offer::Pass]
        } else {
            self.offers(seat, entries)
        };
        let pick = if offers.len() == 1 {
            0
        } else {
            let req = self.offer_request(seat, &offers);
            match self.ask(req)? {
                Answer::Pick(i) => i,
                _ => offers.len() - 1,
            }
        };
        let offer = offers[pick.min(offers.len() - 1)].clone();
        let Some(Frame::Window(w)) = self.frames.last_mut() else {
            return Ok(());
        };
        w.checked = false;
        match offer {
            Offer::Pass => {
                w.passes += 1;
                let living = w
                    .players
                    .iter()
                    .filter(|p| !self.state.players[**p as usize].lost)
                    .count()
                    .max(1);
                if w.passes >= living {
                    w.passes = 0;
                    w.turn = 0;
                    if let Some(item) = w.stack.pop() {
                        self.run_item(item);
                    } else {
                        self.frames.pop();
                    }
                } else {
                    w.turn = (w.turn + 1) % n.max(1);
                }
            }
            Offer::Action { action, card } => {
                w.passes = 0;
                w.turn = (w.turn + 1) % n.max(1);
                let a = &self.prog.ruleset.actions[action as usize];
                self.log_line(
                    "action",
                    format!(
                        "p{} {}{}",
                        seat + 1,
                        a.name
                            .label
                            .as_deref()
                            .unwrap_or(Program::short(&a.name.id)),
                        card.map(|c| format!(" {}", self.card_name(c)))
                            .unwrap_or_default()
                    ),
                );
                self.push_ctx(seat, None, None, None);
                if let (Some(var), Some(c)) = (&a.var, card) {
                    self.vars.push((var.as_str(), Value::Card(c)));
                }
                let mark = self.vars.len();
                self.frames.push(Frame::PopCtx);
                self.frames.push(Frame::Block {
                    stmts: &a.body,
                    pc: 0,
                    mark,
                });
            }
            Offer::Ability {
                card,
                this,
                ability,
            } => {
                w.passes = 0;
                w.turn = (w.turn + 1) % n.max(1);
                let a = self.prog.ability(ability);
                self.record_use(card, ability);
                self.log_line(
                    "action",
                    format!(
                        "p{} uses {} of {}",
                        seat + 1,
                        Program::short(&a.kind),
                        self.card_name(card)
                    ),
                );
                self.push_ctx(seat, Some(this), None, Some((card, ability)));
                let mark = self.vars.len();
                self.frames.push(Frame::PopCtx);
                if chain {
                    self.frames.push(Frame::ChainEffect { body: &a.effect });
                } else {
                    self.frames.push(Frame::Block {
                        stmts: &a.effect,
                        pc: 0,
                        mark,
                    });
                }
                self.frames.push(Frame::Block {
                    stmts: &a.cost,
                    pc: 0,
                    mark,
                });
            }
        }
        Ok(())
    }

    fn offer_request(&self, seat: Seat, offers: &[Offer]) -> Request {
        let options = offers
            .iter()
            .map(|o| match o {
                Offer::Pass => Choice {
                    label: "pass".into(),
                    action: None,
                    card: None,
                    card_id: None,
                },
                Offer::Action { action, card } => {
                    let name = Program::short(&self.prog.ruleset.actions[*action as usize].name.id)
                        .to_string();
                    let cname = card.map(|c| self.card_name(c));
                    Choice {
                        label: match &cname {
                            Some(c) => format!("{name} {c}"),
                            None => name.clone(),
                        },
                        action: Some(name),
                        card: cname,
                        card_id: *card,
                    }
                }
                Offer::Ability { card, ability, .. } => {
                    let kind = Program::short(&self.prog.ability(*ability).kind).to_string();
                    let cname = self.card_name(*card);
                    Choice {
                        label: format!("{kind} {cname}"),
                        action: Some(kind),
                        card: Some(cname),
                        card_id: Some(*card),
                    }
                }
            })
            .collect();
        Request {
            player: seat,
            kind: RequestKind::Action,
            prompt: "your priority: take an action or pass".into(),
            options,
        }
    }

    /// The legal offers of a window for a player, "pass" last.
    fn offers(&mut self, seat: Seat, entries: &'p [WindowEntry]) -> Vec<Offer> {
        let mut out = Vec::new();
        for e in entries {
            match e {
                WindowEntry::Action(id) => {
                    let Some(&ai) = self.prog.action_index.get(id) else {
                        continue;
                    };
                    let a = &self.prog.ruleset.actions[ai as usize];
                    self.push_ctx(seat, None, None, None);
                    match (&a.var, &a.candidates) {
                        (Some(var), Some(cands)) => {
                            let cards = self
                                .eval(cands)
                                .map(|v| self.cards_of(&v))
                                .unwrap_or_default();
                            let mut seen_defs: Vec<(u32, u64)> = Vec::new();
                            for c in cards {
                                self.vars.push((var.as_str(), Value::Card(c)));
                                let ok = match &a.condition {
                                    Some(cond) => self.holds(cond),
                                    None => true,
                                };
                                self.vars.pop();
                                if ok {
                                    // identical cards in the same situation are one offer
                                    let cs = &self.state.cards[c as usize];
                                    let key = (cs.def, cs.states ^ ((cs.zone.zone as u64) << 48));
                                    if cs.host.is_none()
                                        && self.attached(c).is_empty()
                                        && seen_defs.contains(&key)
                                    {
                                        continue;
                                    }
                                    seen_defs.push(key);
                                    out.push(Offer::Action {
                                        action: ai,
                                        card: Some(c),
                                    });
                                }
                            }
                        }
                        _ => {
                            let ok = match &a.condition {
                                Some(cond) => self.holds(cond),
                                None => true,
                            };
                            if ok {
                                out.push(Offer::Action {
                                    action: ai,
                                    card: None,
                                });
                            }
                        }
                    }
                    self.pop_ctx_now();
                }
                WindowEntry::Abilities { kind, attribute } => {
                    for c in 0..self.state.cards.len() as CardId {
                        let cs = &self.state.cards[c as usize];
                        if cs.controller != seat {
                            continue;
                        }
                        let own = self.prog.cards[cs.def as usize]
                            .abilities
                            .iter()
                            .any(|a| &a.kind == kind);
                        if !own && !self.is_host(c) {
                            continue;
                        }
                        for (this, aref) in self.working_abilities(c) {
                            let a = self.prog.ability(aref);
                            if &a.kind != kind || a.semantics != ir::Semantics::Activated {
                                continue;
                            }
                            if let Some(attr) = attribute {
                                if !a.attributes.contains(attr) {
                                    continue;
                                }
                            }
                            if !self.limit_ok(c, aref) {
                                continue;
                            }
                            if let Some(cond) = &a.condition {
                                self.push_ctx(seat, Some(this), None, None);
                                let ok = self.holds(cond);
                                self.pop_ctx_now();
                                if !ok {
                                    continue;
                                }
                            }
                            out.push(Offer::Ability {
                                card: c,
                                this,
                                ability: aref,
                            });
                        }
                    }
                }
            }
        }
        out.push(Offer::Pass);
        out
    }

    fn pop_ctx_now(&mut self) {
        if let Some(c) = self.ctxs.pop() {
            self.vars.truncate(c.vars_base);
        }
    }

    // ───────────── check timings and triggers ─────────────

    fn check_step(&mut self) -> Result<(), Request> {
        let n = self.prog.players();
        let rules = &self.prog.ruleset.rules;
        let Some(Frame::Check {
            rules_done,
            rule,
            player,
            generation,
            rounds,
            ..
        }) = self.frames.last_mut()
        else {
            return Ok(());
        };
        if !*rules_done {
            if *rule < rules.len() {
                let seat = ((self.state.active as usize + *player) % n) as Seat;
                let body = &rules[*rule].body;
                *player += 1;
                if *player >= n {
                    *player = 0;
                    *rule += 1;
                }
                self.push_ctx(seat, None, None, None);
                let f = self.call_frames(body);
                self.frames.extend(f);
                return Ok(());
            }
            if self.state.generation != *generation && *rounds < 64 {
                *generation = self.state.generation;
                *rule = 0;
                *player = 0;
                *rounds += 1;
                return Ok(());
            }
            *rules_done = true;
            return Ok(());
        }
        if self.pending.is_empty() {
            self.frames.pop();
            return Ok(());
        }
        // turn order from the turn player; each player orders their own (assumption of the core)
        let mut who = None;
        for k in 0..n {
            let seat = ((self.state.active as usize + k) % n) as Seat;
            if self.pending.iter().any(|p| p.controller == seat) {
                who = Some(seat);
                break;
            }
        }
        let seat = who.unwrap_or(0);
        let mine: Vec<usize> = (0..self.pending.len())
            .filter(|i| self.pending[*i].controller == seat)
            .collect();
        let pick = if mine.len() > 1 {
            let options = mine
                .iter()
                .map(|i| {
                    let p = &self.pending[*i];
                    let name = self.card_name(p.card);
                    Choice {
                        label: format!(
                            "{} ({})",
                            name,
                            Program::short(&self.prog.ability(p.ability).kind)
                        ),
                        action: None,
                        card: Some(name),
                        card_id: Some(p.card),
                    }
                })
                .collect();
            let req = Request {
                player: seat,
                kind: RequestKind::OneOf,
                prompt: "choose the triggered ability to resolve next".into(),
                options,
            };
            match self.ask(req)? {
                Answer::Pick(i) => mine[i.min(mine.len() - 1)],
                _ => mine[0],
            }
        } else {
            mine[0]
        };
        // the choice is made: only now does the check timing move on (a replayed step must
        // find it as it was)
        let Some(Frame::Check {
            rules_done,
            rule,
            player,
            rounds,
            resolved,
            ..
        }) = self.frames.last_mut()
        else {
            return Ok(());
        };
        *resolved += 1;
        let looping = *resolved > 2_000;
        *rules_done = false;
        *rule = 0;
        *player = 0;
        *rounds = 0;
        if looping {
            let cards = self.loop_cards();
            self.note(format!(
                "an unavoidable loop: 2,000 triggered abilities in one check timing; the game is a draw (12.10){cards}"
            ));
            self.end(Outcome::Draw);
            return Ok(());
        }
        let p = self.pending.remove(pick);
        self.resolve_trigger(p)
    }

    fn resolve_trigger(&mut self, p: Pending) -> Result<(), Request> {
        let a: &'p ir::Ability = self.prog.ability(p.ability);
        self.recent.push(p.card);
        if self.recent.len() > 64 {
            self.recent.remove(0);
        }
        self.record_use(p.card, p.ability);
        self.log_line_src(
            "trigger",
            format!(
                "{} triggers ({})",
                self.card_name(p.card),
                Program::short(&a.kind)
            ),
            Some((p.card, p.ability)),
        );
        self.push_ctx(
            p.controller,
            Some(p.this),
            Some(p.event.clone()),
            Some((p.card, p.ability)),
        );
        let mark = self.vars.len();
        self.frames.push(Frame::PopCtx);
        self.frames.push(Frame::Block {
            stmts: &a.effect,
            pc: 0,
            mark,
        });
        if !a.cost.is_empty() {
            self.frames.push(Frame::Block {
                stmts: &a.cost,
                pc: 0,
                mark,
            });
        }
        Ok(())
    }

    /// Every ability that works for a card where it is now: its own (by their zone), and the
    /// carried abilities of the cards set on it (`this` meaning it). Returns (this, ability).
    fn working_abilities(&mut self, c: CardId) -> Vec<(CardId, AbilityRef)> {
        let zone = self.state.cards[c as usize].zone.zone;
        self.abilities_in(c, zone)
    }

    fn abilities_in(&mut self, c: CardId, zone: u16) -> Vec<(CardId, AbilityRef)> {
        self.abilities_as(c, zone, None)
    }

    /// [`Game::abilities_in`], with the card's text negation given (a card that left a zone
    /// answers as it was there).
    fn abilities_as(
        &mut self,
        c: CardId,
        zone: u16,
        neg: Option<(bool, bool)>,
    ) -> Vec<(CardId, AbilityRef)> {
        let mut out = Vec::new();
        let prog: &'p Program = self.prog;
        let def = self.state.cards[c as usize].def;
        let metas = &prog.meta[def as usize];
        let in_play = prog.in_play.get(zone as usize).copied().unwrap_or(false);
        let works = |m: &program::AbilityMeta| match m.zone {
            Some(z) => z == zone,
            None => in_play,
        };
        if metas.iter().any(|m| !m.carried && works(m)) {
            let (negated, all) = match neg {
                Some(n) => n,
                None => self.text_negated(c),
            };
            for (i, m) in metas.iter().enumerate() {
                if m.carried || (negated && (all || !m.unnegatable)) {
                    continue;
                }
                if works(m) {
                    out.push((c, (def, i as u16)));
                }
            }
        }
        if self.is_host(c) {
            #[allow(clippy::explicit_iter_loop)]
            for att in self.attached(c) {
                let adef = self.state.cards[att as usize].def;
                let ametas = &prog.meta[adef as usize];
                if !ametas.iter().any(|m| m.carried) {
                    continue;
                }
                let (negated, all) = self.text_negated(att);
                for (i, m) in ametas.iter().enumerate() {
                    if !m.carried || (negated && (all || !m.unnegatable)) {
                        continue;
                    }
                    if works(m) {
                        out.push((c, (adef, i as u16)));
                    }
                }
            }
        }
        out
    }

    /// The cards set on a card.
    fn attached(&self, c: CardId) -> Vec<CardId> {
        self.state
            .cards
            .iter()
            .enumerate()
            .filter(|(_, x)| x.host == Some(c))
            .map(|(i, _)| i as CardId)
            .collect()
    }

    /// Handles an emitted event: logged already; queues matching triggers (or waits for the
    /// end of a `simultaneously` block).
    fn emit(&mut self, e: EventData, lookback: Option<Lookback>) {
        if let Some(Some(b)) = self.batch.last_mut() {
            b.push((e, lookback));
            return;
        }
        self.dispatch(e, lookback);
    }

    /// The cards whose abilities may answer an event: those with a trigger or replacement on
    /// it, and the hosts of such cards (they carry the abilities set on them).
    fn trigger_candidates(&self, event: u16) -> Vec<CardId> {
        let mut out: Vec<CardId> = Vec::new();
        for (i, cs) in self.state.cards.iter().enumerate() {
            if self.prog.triggers[cs.def as usize]
                .iter()
                .any(|(ev, _)| *ev == event)
            {
                out.push(i as CardId);
                if let Some(h) = cs.host {
                    out.push(h);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn dispatch(&mut self, e: EventData, lookback: Option<Lookback>) {
        let subject = e.args.first().cloned().unwrap_or(Value::Absent);
        self.state
            .cancelled
            .retain(|(ev, s)| !(*ev == e.event && *s == subject));
        let e = Rc::new(e);
        for c in self.trigger_candidates(e.event) {
            let (zone, neg) = match lookback {
                Some((lc, z, neg)) if lc == c => (z.zone, Some(neg)),
                _ => (self.state.cards[c as usize].zone.zone, None),
            };
            for (this, aref) in self.abilities_as(c, zone, neg) {
                if !self.limit_ok(c, aref) {
                    continue;
                }
                if let Some(controller) = self.answers(c, this, aref, &e, ir::Semantics::Triggered)
                {
                    self.pending.push(Pending {
                        card: c,
                        this,
                        ability: aref,
                        controller,
                        event: e.clone(),
                    });
                }
            }
        }
    }

    /// Whether a condition holds now (a condition that cannot be read does not hold).
    fn holds(&mut self, e: &ir::Expr) -> bool {
        self.eval(e)
            .map(|v| v == Value::Bool(true))
            .unwrap_or(false)
    }

    /// Whether an ability of a card answers an event: its semantics and event, its trigger's
    /// patterns and its `if`, read for its controller with `this` and `event` set. Gives the
    /// controller when it does.
    fn answers(
        &mut self,
        card: CardId,
        this: CardId,
        aref: AbilityRef,
        e: &Rc<EventData>,
        semantics: ir::Semantics,
    ) -> Option<Seat> {
        let a: &'p ir::Ability = self.prog.ability(aref);
        if a.semantics != semantics {
            return None;
        }
        let t = a.trigger.as_ref()?;
        if self.prog.event_index.get(&t.event) != Some(&e.event) {
            return None;
        }
        let controller = self.state.cards[this as usize].controller;
        self.push_ctx(controller, Some(this), Some(e.clone()), Some((card, aref)));
        let ok = self.pattern_matches(t, e)
            && match &a.condition {
                Some(cond) => self.holds(cond),
                None => true,
            };
        self.pop_ctx_now();
        ok.then_some(controller)
    }

    fn pattern_matches(&mut self, t: &'p ir::Trigger, e: &EventData) -> bool {
        let params = &self.prog.ruleset.events[e.event as usize].params;
        for (name, pat) in &t.when {
            let Some(i) = params.iter().position(|p| &p.name == name) else {
                return false;
            };
            let Ok(want) = self.eval(pat) else {
                return false;
            };
            let got = e.args.get(i).cloned().unwrap_or(Value::Absent);
            if !self.value_matches(&want, &got) {
                return false;
            }
        }
        true
    }

    fn value_matches(&self, want: &Value, got: &Value) -> bool {
        match (want, got) {
            (Value::Zone(z, owners), Value::Zone(gz, gowners)) => {
                z == gz && gowners.iter().all(|o| owners.contains(o))
            }
            (Value::Cards(cs), Value::Card(c)) => cs.contains(c),
            (Value::Players(ps), Value::Player(p)) => ps.contains(p),
            (a, b) => a == b,
        }
    }

    fn limit_ok(&self, card: CardId, aref: AbilityRef) -> bool {
        let a = self.prog.ability(aref);
        let Some(l) = &a.limit else { return true };
        let inc = self.state.cards[card as usize].incarnation;
        let used: u32 = self
            .state
            .uses
            .iter()
            .filter(|u| u.0 == card && u.1 == inc && u.2 == aref.0 && u.3 == aref.1)
            .count() as u32;
        used < l.count
    }

    fn record_use(&mut self, card: CardId, aref: AbilityRef) {
        let a = self.prog.ability(aref);
        if let Some(l) = &a.limit {
            let inc = self.state.cards[card as usize].incarnation;
            let per = l.per.clone();
            self.state.uses.push((card, inc, aref.0, aref.1, per));
        }
    }

    // ───────────── endings, logging ─────────────

    /// Ends the game.
    fn end(&mut self, o: Outcome) {
        if self.state.outcome.is_some() {
            return;
        }
        let text = match &o {
            Outcome::Win(p) => format!("p{} wins", p + 1),
            Outcome::Draw => "the game is a draw".into(),
        };
        self.log_line("end", text);
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
            self.end(Outcome::Win(won[0] as Seat));
        } else if alive.len() == 1 && n > 1 {
            self.end(Outcome::Win(alive[0] as Seat));
        }
    }

    fn note(&mut self, text: String) {
        self.log_line("note", text.clone());
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

    fn log_line(&mut self, kind: &'static str, text: String) {
        let source = self.source_text();
        self.push_log(kind, text, None, 0, source);
    }

    fn log_line_src(
        &mut self,
        kind: &'static str,
        text: String,
        src: Option<(CardId, AbilityRef)>,
    ) {
        let source = src.map(|(_, (def, i))| {
            format!("cards/{}/abilities/{}", self.prog.cards[def as usize].id, i)
        });
        self.push_log(kind, text, None, 0, source);
    }

    fn push_log(
        &mut self,
        kind: &'static str,
        text: String,
        redacted: Option<String>,
        readers: u32,
        source: Option<String>,
    ) {
        let seq = self.log.len() as u64 + 1;
        self.log.push(LogEntry {
            seq,
            turn: self.state.turn,
            kind,
            text,
            redacted,
            readers,
            source,
        });
    }

    fn log_choice(&mut self, r: &Request, a: &Answer) {
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
        let full = format!("p{} chooses {}", r.player + 1, what);
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
        let players = self.prog.players() as Seat;
        let everyone = (1u32 << players) - 1;
        let mut readers = everyone;
        for c in &picked {
            for p in 0..players {
                if p != r.player && !self.visible_to(*c, p) {
                    readers &= !(1 << p);
                }
            }
        }
        let redacted = (readers != everyone).then(|| {
            format!(
                "p{} chooses {} card{}",
                r.player + 1,
                picked.len(),
                if picked.len() == 1 { "" } else { "s" }
            )
        });
        let source = self.source_text();
        self.push_log("choice", full, redacted, readers, source);
    }

    /// Takes the next replayed answer, or stops the statement with the request.
    fn ask(&mut self, req: Request) -> Result<Answer, Request> {
        if let Some(a) = self.answers.get(self.answer_pos) {
            self.answer_pos += 1;
            return Ok(a.clone());
        }
        Err(req)
    }

    /// Shuffles a zone with the game's shuffle stream.
    fn shuffle_zone(&mut self, k: ZoneKey) {
        let slot = self.state.slot(k);
        let mut cards = std::mem::take(&mut self.state.zones[slot]);
        cards.shuffle(&mut self.rng);
        self.state.zones[slot] = cards;
        self.state.generation += 1;
        let z = Program::short(&self.prog.ruleset.zones[k.zone as usize].name.id).to_string();
        self.log_line("shuffle", format!("p{}'s {z} is shuffled", k.owner + 1));
    }
}
