//! Pack scripts at run time (docs/engine.md, "Scripts"): every script of a game's packs is
//! compiled once when its [`Program`](super::Program) is built, in the sandbox of
//! [`crate::base::script`], with the host API below registered and nothing else.
//!
//! A script runs against a [`World`]: a copy of what it may read of the game when its statement
//! began, the statement's recorded answers, and the changes it asks for. Host read functions
//! read the copy; host choice functions take the next recorded answer, or stop the script with
//! the request to make ([`Ask`]); host write functions record a [`Write`], done by the engine in
//! order once the function returns. Every host function checks its inputs (a card or player
//! handle may be any integer) and returns an error instead of panicking.

use super::agent::Answer;
use super::state::{CardId, Seat};
use crate::base::script::sandbox;
use crate::ir::{self, Id, Position};
use rhai::{Array, Dynamic, EvalAltResult, NativeCallContext, INT};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The error text a choice function stops a script with when its answer is still to be asked.
pub(super) const ASKING: &str = "the script waits for a player's answer";

/// The compiled scripts of a game, and the engine that runs them.
pub struct Scripts {
    engine: rhai::Engine,
    names: Arc<Names>,
    /// Each script's path (`pack:path`) and compiled text.
    asts: Vec<(String, rhai::AST)>,
    /// Whether each script calls `stat` (a world for the others is built without stats).
    reads_stats: Vec<bool>,
    /// `(pack:function, arity)` → (index into `asts`, the function's name, the line of its
    /// `fn`).
    functions: HashMap<(Id, usize), (usize, String, usize)>,
}

impl std::fmt::Debug for Scripts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let paths: Vec<&str> = self.asts.iter().map(|(p, _)| p.as_str()).collect();
        f.debug_struct("Scripts").field("scripts", &paths).finish()
    }
}

/// The names a script may use, from the ruleset: short name (or id) → index or id.
#[derive(Debug, Default)]
pub(super) struct Names {
    pub(super) zones: HashMap<String, u16>,
    /// Each zone's short name, by index.
    pub(super) zone_names: Vec<String>,
    /// Each card definition's name, in the program's order.
    pub(super) card_names: Vec<String>,
    /// Each card definition's card type (short name), in the program's order.
    pub(super) card_types: Vec<String>,
    pub(super) stats: HashMap<String, u16>,
    /// Whether each stat (by index) is plain (not made of others).
    pub(super) plain_stats: Vec<bool>,
    /// Moments by short name (or id): their ids.
    pub(super) moments: HashMap<String, Id>,
    /// The layer a `+=` change applies in, if the ruleset has one.
    pub(super) add_layer: Option<Id>,
    pub(super) states: HashMap<String, u16>,
    pub(super) counters: HashMap<String, u16>,
    /// Verbs and procedures: id and each parameter's accepted types.
    pub(super) verbs: HashMap<String, Signature>,
    /// Events: id and each parameter's accepted types.
    pub(super) events: HashMap<String, Signature>,
}

/// What a script reads of one card.
#[derive(Debug, Clone)]
pub(super) struct CardView {
    /// Its definition (an index into the program's cards).
    pub(super) def: u32,
    /// The card type it is treated as (12.5), if any: else its definition's.
    pub(super) treated: Option<String>,
    pub(super) owner: Seat,
    pub(super) controller: Seat,
    pub(super) zone: u16,
    pub(super) states: u64,
    /// Each plain stat's value as read (floored), by stat index.
    pub(super) stats: Vec<Option<i64>>,
}

/// A choice a script asks for, made into the engine's request.
#[derive(Debug, Clone)]
pub(super) enum Ask {
    /// Exactly `n` of the cards.
    Cards {
        player: Seat,
        cards: Vec<CardId>,
        n: usize,
    },
    /// One of the options.
    OneOf { player: Seat, options: Vec<String> },
    /// Yes or no.
    YesNo { player: Seat, prompt: String },
    /// A random number from `lo` to `hi`, drawn by the engine (no player is asked).
    Random { lo: i64, hi: i64 },
}

/// A change a script asks for, done once it returns.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Write {
    /// `move_to`: the cards to a player's zone.
    Move {
        cards: Vec<CardId>,
        zone: u16,
        player: Seat,
        position: Option<Position>,
    },
    /// `add_counter`: a player's counter changed by an amount.
    Count {
        player: Seat,
        counter: u16,
        amount: i64,
    },
    /// `reveal`: every player sees the cards.
    Reveal { cards: Vec<CardId> },
    /// `emit`: an event of the ruleset with its payload in order.
    Emit {
        event: Id,
        args: Vec<super::state::Value>,
    },
    /// `modify`: a plain stat of the card changed by an amount, until a moment (or for the
    /// default duration).
    Modify {
        card: CardId,
        stat: u16,
        amount: i64,
        until: Option<Id>,
    },
    /// `set_state`: the card takes a state.
    SetState { card: CardId, state: u16 },
    /// `run_verb`: a verb or procedure of the ruleset with its arguments in order.
    Call {
        verb: Id,
        args: Vec<super::state::Value>,
    },
}

/// What a script reads and records: built by the engine for one run.
#[derive(Debug)]
pub(super) struct World {
    pub(super) names: Arc<Names>,
    pub(super) players: usize,
    pub(super) you: Seat,
    pub(super) opponent: Seat,
    pub(super) this: Option<CardId>,
    pub(super) cards: Vec<CardView>,
    /// Each (zone, owner)'s cards, as the state keeps them (ordered zones bottom first).
    pub(super) zones: Vec<Vec<CardId>>,
    /// Whether the cards' stats were copied (only for a script that calls `stat`).
    pub(super) stats_read: bool,
    pub(super) player_counters: Vec<Vec<i64>>,
    /// The statement's answers not yet taken, and how many the script took.
    pub(super) answers: Vec<Answer>,
    pub(super) used: usize,
    pub(super) ask: Option<Ask>,
    pub(super) writes: Vec<Write>,
}

type Shared = Arc<Mutex<World>>;
/// A verb's or event's id and each of its parameters' accepted types.
pub(super) type Signature = (Id, Vec<Vec<ir::Type>>);
/// Why a script stopped: where (script, line, function) and why, in words.
pub(super) type Failure = (String, String);
type HostResult<T> = Result<T, Box<EvalAltResult>>;

impl Scripts {
    /// Compiles every script of the packs (once) and registers the host API.
    pub fn new(
        packs: &[&ir::Pack],
        ruleset: &ir::Ruleset,
        states: &[super::program::StateInfo],
        stats: &[super::program::StatInfo],
    ) -> Result<Scripts, String> {
        let names = Arc::new(names(packs, ruleset, states, stats));
        let mut engine = sandbox();
        register_reads(&mut engine);
        register_choices(&mut engine);
        register_writes(&mut engine);
        let mut asts = Vec::new();
        let mut reads_stats = Vec::new();
        let mut functions = HashMap::new();
        for p in packs {
            for s in &p.scripts {
                let path = format!("{}:{}", p.name, s.path);
                let ast = engine
                    .compile(&s.source)
                    .map_err(|e| format!("script {path} does not compile: {e}"))?;
                for f in ast.iter_functions() {
                    functions
                        .entry((Id::from(format!("{}:{}", p.name, f.name)), f.params.len()))
                        .or_insert((asts.len(), f.name.to_string(), fn_line(&s.source, f.name)));
                }
                asts.push((path, ast));
                reads_stats.push(calls(&s.source, "stat"));
            }
        }
        Ok(Scripts {
            engine,
            names,
            asts,
            reads_stats,
            functions,
        })
    }

    /// Whether the function's script calls `stat`, so its world needs the cards' stats
    /// (`None`: no such function).
    pub(super) fn reads_stats(&self, function: &str, arity: usize) -> Option<bool> {
        let (i, ..) = self.functions.get(&(Id::from(function), arity))?;
        self.reads_stats.get(*i).copied()
    }

    /// The names scripts use, for the worlds the engine builds.
    pub(super) fn names(&self) -> Arc<Names> {
        self.names.clone()
    }

    /// Runs a function with its arguments against `world`: the world after the run (its
    /// answers used, the request it stopped for, the changes it recorded) and, when it failed,
    /// where (the script's path, the line — of the error, or of the function when rhai gives
    /// none — and the function) and why. `None`: no such function.
    pub(super) fn run(
        &self,
        function: &str,
        args: Vec<Dynamic>,
        world: World,
    ) -> Option<(World, Result<(), Failure>)> {
        let (i, name, def_line) = self.functions.get(&(Id::from(function), args.len()))?;
        let (path, ast) = self.asts.get(*i)?;
        let shared: Shared = Arc::new(Mutex::new(world));
        let options = rhai::CallFnOptions::new()
            .eval_ast(false)
            .rewind_scope(true)
            .with_tag(shared.clone());
        let mut scope = rhai::Scope::new();
        let result = self
            .engine
            .call_fn_with_options::<Dynamic>(options, &mut scope, ast, name, args);
        drop(scope);
        let world = match Arc::try_unwrap(shared) {
            Ok(m) => m.into_inner().unwrap_or_else(|e| e.into_inner()),
            // a copy of the tag outlived the run: take the world out of it
            Err(arc) => {
                let mut g = arc.lock().unwrap_or_else(|e| e.into_inner());
                std::mem::replace(&mut *g, World::empty())
            }
        };
        let outcome = result.map(|_| ()).map_err(|e| {
            let line = line_of(&e).unwrap_or(*def_line);
            (format!("{path} line {line}, in `{name}`"), reason(&e))
        });
        Some((world, outcome))
    }
}

/// Whether a script's text calls the host function `name` (`name(` or `x.name(`): a script
/// can call a function only by writing its name (function pointers are disabled).
fn calls(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text
            .get(i.saturating_add(name.len())..)
            .unwrap_or_default()
            .trim_start();
        !before.is_some_and(ident) && after.starts_with('(')
    })
}

/// The line of the `fn <name>` that defines a function (1 when not found).
fn fn_line(text: &str, name: &str) -> usize {
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            l.strip_prefix("fn ")
                .or_else(|| l.strip_prefix("private fn "))
                .map(str::trim_start)
                .is_some_and(|r| {
                    r.strip_prefix(name)
                        .is_some_and(|r| r.trim_start().starts_with('('))
                })
        })
        .map_or(1, |i| i.saturating_add(1))
}

/// The line an error happened at, innermost first (rhai gives none for a broken limit).
fn line_of(e: &EvalAltResult) -> Option<usize> {
    if let EvalAltResult::ErrorInFunctionCall(_, _, inner, pos) = e {
        return line_of(inner).or(pos.line());
    }
    e.position().line()
}

/// A host function's refusal (a forged card handle, an unknown name): an error the script
/// may catch like a `throw`.
#[derive(Debug, Clone)]
struct HostError(String);

/// Why a script stopped, in words (no position: the caller names the line).
fn reason(e: &EvalAltResult) -> String {
    match e {
        EvalAltResult::ErrorTooManyOperations(_) => {
            "it ran too many operations (an endless loop?)".into()
        }
        EvalAltResult::ErrorStackOverflow(_) => "its calls nest too deep".into(),
        EvalAltResult::ErrorDataTooLarge(what, _) => {
            let what = if what.contains("rray") {
                "an array"
            } else if what.contains("tring") {
                "a string"
            } else {
                "an object map"
            };
            format!("it built {what} larger than the sandbox allows")
        }
        EvalAltResult::ErrorFunctionNotFound(f, _) => {
            format!("it calls `{f}`, which is no function")
        }
        EvalAltResult::ErrorRuntime(v, _) => match v.clone().try_cast::<HostError>() {
            Some(HostError(why)) => why,
            None => format!("it throws {v}"),
        },
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => reason(inner),
        other => {
            let text = other.to_string();
            match text.find(" (line ") {
                Some(cut) => text[..cut].to_string(),
                None => text,
            }
        }
    }
}

impl World {
    /// A world with nothing in it.
    fn empty() -> World {
        World {
            names: Arc::new(Names::default()),
            players: 0,
            you: 0,
            opponent: 0,
            this: None,
            cards: Vec::new(),
            zones: Vec::new(),
            stats_read: false,
            player_counters: Vec::new(),
            answers: Vec::new(),
            used: 0,
            ask: None,
            writes: Vec::new(),
        }
    }

    /// A card handle from a script, checked.
    fn card(&self, h: INT) -> Result<CardId, String> {
        usize::try_from(h)
            .ok()
            .filter(|i| *i < self.cards.len())
            .and_then(|i| CardId::try_from(i).ok())
            .ok_or_else(|| format!("{h} is no card"))
    }

    /// A player number from a script (1 for the first seat), checked.
    fn player(&self, p: INT) -> Result<Seat, String> {
        usize::try_from(p)
            .ok()
            .filter(|i| *i >= 1 && *i <= self.players)
            .and_then(|i| Seat::try_from(i.saturating_sub(1)).ok())
            .ok_or_else(|| format!("{p} is no player"))
    }

    /// A zone index by name.
    fn zone(&self, name: &str) -> Result<u16, String> {
        index_of(&self.names.zones, "zone", name)
    }

    /// A player's zone's cards, top first.
    fn zone_cards(&self, zone: &str, player: INT) -> Result<Vec<CardId>, String> {
        let z = usize::from(self.zone(zone)?);
        let p = usize::from(self.player(player)?);
        let slot = z.saturating_mul(self.players).saturating_add(p);
        Ok(self
            .zones
            .get(slot)
            .map(|cs| cs.iter().rev().copied().collect())
            .unwrap_or_default())
    }

    /// The next recorded answer, or `None` after noting the request to make.
    fn answer(&mut self, ask: Ask) -> Option<Answer> {
        match self.answers.get(self.used) {
            Some(a) => {
                self.used = self.used.saturating_add(1);
                Some(a.clone())
            }
            None => {
                self.ask = Some(ask);
                None
            }
        }
    }
}

/// The ruleset's names a script may use: each declaration by its short name and its id.
fn names(
    packs: &[&ir::Pack],
    r: &ir::Ruleset,
    states: &[super::program::StateInfo],
    stats: &[super::program::StatInfo],
) -> Names {
    fn by_name<'a>(ids: impl Iterator<Item = &'a Id>) -> HashMap<String, u16> {
        let mut out = HashMap::new();
        for (i, id) in ids.enumerate() {
            let i = super::state::index16(i);
            out.insert(id.to_string(), i);
            out.entry(super::Program::short(id).to_string())
                .or_insert(i);
        }
        out
    }
    fn signatures<'a>(
        all: impl Iterator<Item = (&'a Id, &'a [ir::Param])>,
    ) -> HashMap<String, Signature> {
        let mut out = HashMap::new();
        for (id, params) in all {
            let entry = (*id, params.iter().map(|p| p.types.clone()).collect());
            out.entry(super::Program::short(id).to_string())
                .or_insert_with(|| entry.clone());
            out.insert(id.to_string(), entry);
        }
        out
    }
    let verbs = signatures(
        r.verbs
            .iter()
            .chain(&r.procedures)
            .map(|v| (&v.name.id, v.params.as_slice())),
    );
    let events = signatures(r.events.iter().map(|e| (&e.name.id, e.params.as_slice())));
    Names {
        zones: by_name(r.zones.iter().map(|z| &z.name.id)),
        card_names: packs
            .iter()
            .flat_map(|p| p.cards.iter().map(|c| c.name.clone()))
            .collect(),
        card_types: packs
            .iter()
            .flat_map(|p| {
                p.cards
                    .iter()
                    .map(|c| super::Program::short(&c.card_type).to_string())
            })
            .collect(),
        zone_names: r
            .zones
            .iter()
            .map(|z| super::Program::short(&z.name.id).to_string())
            .collect(),
        stats: by_name(stats.iter().map(|s| &s.id)),
        plain_stats: stats.iter().map(|s| s.components.is_empty()).collect(),
        moments: r
            .moments
            .iter()
            .flat_map(|m| {
                let short = super::Program::short(&m.id).to_string();
                [(short, m.id), (m.id.to_string(), m.id)]
            })
            .collect(),
        add_layer: r
            .layers
            .iter()
            .find(|l| l.ops.iter().any(|o| o == "+="))
            .map(|l| l.name.id),
        states: by_name(states.iter().map(|s| &s.id)),
        counters: by_name(r.counters.iter().map(|c| &c.name.id)),
        verbs,
        events,
    }
}

/// Runs `f` on the world of the running script (refused once the script waits for an answer).
fn with<T>(
    ctx: &NativeCallContext,
    f: impl FnOnce(&mut World) -> Result<T, String>,
) -> HostResult<T> {
    let shared = ctx
        .tag()
        .and_then(|t| t.clone().try_cast::<Shared>())
        .ok_or_else(|| "a host function called outside a game".to_string())?;
    let mut w = shared
        .lock()
        .map_err(|_| "the game is unavailable".to_string())?;
    if w.ask.is_some() {
        return Err(ASKING.into());
    }
    f(&mut w).map_err(|why| {
        Box::new(EvalAltResult::ErrorRuntime(
            Dynamic::from(HostError(why)),
            rhai::Position::NONE,
        ))
    })
}

/// A number as a script reads it.
fn int(n: usize) -> INT {
    INT::try_from(n).unwrap_or(INT::MAX)
}

/// A player as a script reads it (1 for the first seat).
fn player_number(p: Seat) -> INT {
    INT::from(p).saturating_add(1)
}

/// Card handles as an array.
fn card_array(cs: &[CardId]) -> Array {
    cs.iter().map(|c| Dynamic::from(INT::from(*c))).collect()
}

/// Card handles from an array (each checked).
fn cards_of(w: &World, a: &Array) -> Result<Vec<CardId>, String> {
    a.iter()
        .map(|d| {
            d.as_int()
                .map_err(|t| format!("a card handle is a number, not {t}"))
                .and_then(|h| w.card(h))
        })
        .collect()
}

/// The read functions: players, zones, cards and what they are.
fn register_reads(e: &mut rhai::Engine) {
    e.register_fn("you", |ctx: NativeCallContext| {
        with(&ctx, |w| Ok(player_number(w.you)))
    });
    e.register_fn("opponent", |ctx: NativeCallContext| {
        with(&ctx, |w| Ok(player_number(w.opponent)))
    });
    e.register_fn("this_card", |ctx: NativeCallContext| {
        with(&ctx, |w| Ok(w.this.map_or(-1, INT::from)))
    });
    e.register_fn(
        "cards",
        |ctx: NativeCallContext, zone: &str, player: INT| {
            with(&ctx, |w| Ok(card_array(&w.zone_cards(zone, player)?)))
        },
    );
    e.register_fn(
        "count",
        |ctx: NativeCallContext, zone: &str, player: INT| {
            with(&ctx, |w| Ok(int(w.zone_cards(zone, player)?.len())))
        },
    );
    e.register_fn("name", |ctx: NativeCallContext, c: INT| {
        with(&ctx, |w| {
            let def = w.cards[w.card(c)? as usize].def as usize;
            Ok(w.names.card_names.get(def).cloned().unwrap_or_default())
        })
    });
    e.register_fn("card_type", |ctx: NativeCallContext, c: INT| {
        with(&ctx, |w| {
            let card = &w.cards[w.card(c)? as usize];
            Ok(match &card.treated {
                Some(t) => t.clone(),
                None => w
                    .names
                    .card_types
                    .get(card.def as usize)
                    .cloned()
                    .unwrap_or_default(),
            })
        })
    });
    e.register_fn("zone", |ctx: NativeCallContext, c: INT| {
        with(&ctx, |w| {
            let z = w.cards[w.card(c)? as usize].zone;
            Ok(w.names
                .zone_names
                .get(usize::from(z))
                .cloned()
                .unwrap_or_default())
        })
    });
    e.register_fn("owner", |ctx: NativeCallContext, c: INT| {
        with(&ctx, |w| {
            Ok(player_number(w.cards[w.card(c)? as usize].owner))
        })
    });
    e.register_fn("controller", |ctx: NativeCallContext, c: INT| {
        with(&ctx, |w| {
            Ok(player_number(w.cards[w.card(c)? as usize].controller))
        })
    });
    e.register_fn("stat", |ctx: NativeCallContext, c: INT, stat: &str| {
        with(&ctx, |w| {
            if !w.stats_read {
                return Err("stats cannot be read here".into());
            }
            let card = &w.cards[w.card(c)? as usize];
            let s = index_of(&w.names.stats, "stat", stat)?;
            Ok(card
                .stats
                .get(usize::from(s))
                .copied()
                .flatten()
                .unwrap_or(0))
        })
    });
    e.register_fn(
        "has_state",
        |ctx: NativeCallContext, c: INT, state: &str| {
            with(&ctx, |w| {
                let card = &w.cards[w.card(c)? as usize];
                let s = index_of(&w.names.states, "state", state)?;
                Ok(card.states & (1u64 << s) != 0)
            })
        },
    );
    e.register_fn(
        "counter",
        |ctx: NativeCallContext, p: INT, counter: &str| {
            with(&ctx, |w| {
                let p = w.player(p)?;
                let k = index_of(&w.names.counters, "counter", counter)?;
                Ok(w.player_counters
                    .get(usize::from(p))
                    .and_then(|cs| cs.get(usize::from(k)))
                    .copied()
                    .unwrap_or(0))
            })
        },
    );
}

/// The choice functions: each takes the statement's next answer, or stops the script with the
/// request to make.
fn register_choices(e: &mut rhai::Engine) {
    e.register_fn(
        "choose",
        |ctx: NativeCallContext, p: INT, cards: Array, n: INT| -> HostResult<Array> {
            let picked = with(&ctx, |w| {
                let player = w.player(p)?;
                let cands = cards_of(w, &cards)?;
                let n = usize::try_from(n).unwrap_or(0).min(cands.len());
                if n == 0 {
                    return Ok(Some(Vec::new()));
                }
                if n == cands.len() {
                    return Ok(Some(cands));
                }
                let ask = Ask::Cards {
                    player,
                    cards: cands.clone(),
                    n,
                };
                Ok(w.answer(ask).map(|a| match a {
                    Answer::Many(ix) => ix.iter().filter_map(|i| cands.get(*i).copied()).collect(),
                    _ => Vec::new(),
                }))
            })?;
            picked
                .map(|cs| card_array(&cs))
                .ok_or_else(|| ASKING.into())
        },
    );
    e.register_fn(
        "choose_one",
        |ctx: NativeCallContext, p: INT, options: Array| -> HostResult<INT> {
            let picked = with(&ctx, |w| {
                let player = w.player(p)?;
                let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
                if options.is_empty() {
                    return Err("choose_one needs at least one option".into());
                }
                let ask = Ask::OneOf { player, options };
                Ok(w.answer(ask).map(|a| match a {
                    Answer::Pick(i) => int(i),
                    _ => 0,
                }))
            })?;
            picked.ok_or_else(|| ASKING.into())
        },
    );
    e.register_fn(
        "random",
        |ctx: NativeCallContext, lo: INT, hi: INT| -> HostResult<INT> {
            let k = with(&ctx, |w| {
                let hi = hi.max(lo);
                Ok(w.answer(Ask::Random { lo, hi }).map(|a| match a {
                    Answer::Text(t) => t.parse::<INT>().unwrap_or(lo).clamp(lo, hi),
                    _ => lo,
                }))
            })?;
            k.ok_or_else(|| ASKING.into())
        },
    );
    e.register_fn(
        "may",
        |ctx: NativeCallContext, p: INT, prompt: &str| -> HostResult<bool> {
            let yes = with(&ctx, |w| {
                let player = w.player(p)?;
                let ask = Ask::YesNo {
                    player,
                    prompt: prompt.to_string(),
                };
                Ok(w.answer(ask).map(|a| a == Answer::Yes(true)))
            })?;
            yes.ok_or_else(|| ASKING.into())
        },
    );
}

/// The write functions: each records a change, done in order once the script returns.
fn register_writes(e: &mut rhai::Engine) {
    fn move_write(
        w: &mut World,
        cards: Vec<CardId>,
        zone: &str,
        p: INT,
        pos: &str,
    ) -> Result<(), String> {
        let position = match pos {
            "" => None,
            "top" => Some(Position::Top),
            "bottom" => Some(Position::Bottom),
            other => return Err(format!("`{other}` is no position (\"top\" or \"bottom\")")),
        };
        let write = Write::Move {
            zone: w.zone(zone)?,
            player: w.player(p)?,
            cards,
            position,
        };
        if !matches!(&write, Write::Move { cards, .. } if cards.is_empty()) {
            w.writes.push(write);
        }
        Ok(())
    }
    e.register_fn(
        "move_to",
        |ctx: NativeCallContext, c: INT, zone: &str, p: INT| {
            with(&ctx, |w| {
                let c = w.card(c)?;
                move_write(w, vec![c], zone, p, "")
            })
        },
    );
    e.register_fn(
        "move_to",
        |ctx: NativeCallContext, c: INT, zone: &str, p: INT, pos: &str| {
            with(&ctx, |w| {
                let c = w.card(c)?;
                move_write(w, vec![c], zone, p, pos)
            })
        },
    );
    e.register_fn(
        "move_to",
        |ctx: NativeCallContext, cs: Array, zone: &str, p: INT| {
            with(&ctx, |w| {
                let cs = cards_of(w, &cs)?;
                move_write(w, cs, zone, p, "")
            })
        },
    );
    e.register_fn(
        "move_to",
        |ctx: NativeCallContext, cs: Array, zone: &str, p: INT, pos: &str| {
            with(&ctx, |w| {
                let cs = cards_of(w, &cs)?;
                move_write(w, cs, zone, p, pos)
            })
        },
    );
    e.register_fn("reveal", |ctx: NativeCallContext, c: INT| {
        with(&ctx, |w| {
            let c = w.card(c)?;
            w.writes.push(Write::Reveal { cards: vec![c] });
            Ok(())
        })
    });
    e.register_fn("reveal", |ctx: NativeCallContext, cs: Array| {
        with(&ctx, |w| {
            let cards = cards_of(w, &cs)?;
            if !cards.is_empty() {
                w.writes.push(Write::Reveal { cards });
            }
            Ok(())
        })
    });
    e.register_fn(
        "modify",
        |ctx: NativeCallContext, c: INT, stat: &str, n: INT| {
            with(&ctx, |w| modify_write(w, c, stat, n, None))
        },
    );
    e.register_fn(
        "modify",
        |ctx: NativeCallContext, c: INT, stat: &str, n: INT, until: &str| {
            with(&ctx, |w| modify_write(w, c, stat, n, Some(until)))
        },
    );
    e.register_fn(
        "add_counter",
        |ctx: NativeCallContext, p: INT, counter: &str, n: INT| {
            with(&ctx, |w| {
                let player = w.player(p)?;
                let counter = index_of(&w.names.counters, "counter", counter)?;
                w.writes.push(Write::Count {
                    player,
                    counter,
                    amount: n,
                });
                Ok(())
            })
        },
    );
    e.register_fn(
        "set_state",
        |ctx: NativeCallContext, c: INT, state: &str| {
            with(&ctx, |w| {
                let card = w.card(c)?;
                let state = index_of(&w.names.states, "state", state)?;
                w.writes.push(Write::SetState { card, state });
                Ok(())
            })
        },
    );
    e.register_fn(
        "run_verb",
        |ctx: NativeCallContext, verb: &str, args: Array| {
            with(&ctx, |w| {
                let sig = w.names.verbs.get(verb).cloned();
                let (verb, args) = signed(w, sig, "verb", verb, &args)?;
                w.writes.push(Write::Call { verb, args });
                Ok(())
            })
        },
    );
    e.register_fn(
        "emit",
        |ctx: NativeCallContext, event: &str, args: Array| {
            with(&ctx, |w| {
                let sig = w.names.events.get(event).cloned();
                let (event, args) = signed(w, sig, "event", event, &args)?;
                w.writes.push(Write::Emit { event, args });
                Ok(())
            })
        },
    );
}

/// Records `modify(c, stat, n[, until])`: a plain stat, a moment of the ruleset.
fn modify_write(
    w: &mut World,
    c: INT,
    stat: &str,
    n: INT,
    until: Option<&str>,
) -> Result<(), String> {
    let card = w.card(c)?;
    let s = index_of(&w.names.stats, "stat", stat)?;
    if !w
        .names
        .plain_stats
        .get(usize::from(s))
        .copied()
        .unwrap_or(false)
    {
        return Err(format!("`{stat}` is made of other stats: modify those"));
    }
    if w.names.add_layer.is_none() {
        return Err("the ruleset has no layer for `+=`".into());
    }
    let until = match until {
        Some(m) => Some(
            w.names
                .moments
                .get(m)
                .cloned()
                .ok_or_else(|| format!("unknown moment `{m}`"))?,
        ),
        None => None,
    };
    w.writes.push(Write::Modify {
        card,
        stat: s,
        amount: n,
        until,
    });
    Ok(())
}

/// A verb's or event's id and its arguments as values, checked against its signature.
fn signed(
    w: &World,
    sig: Option<Signature>,
    what: &str,
    name: &str,
    args: &Array,
) -> Result<(Id, Vec<super::state::Value>), String> {
    let (id, params) = sig.ok_or_else(|| format!("unknown {what} `{name}`"))?;
    if args.len() > params.len() {
        return Err(format!("`{name}` takes {} arguments", params.len()));
    }
    let args = args
        .iter()
        .zip(&params)
        .map(|(a, types)| value_of(w, a, types))
        .collect::<Result<Vec<_>, String>>()?;
    Ok((id, args))
}

/// A script value as a verb argument of one of `types`: a number is a card handle where the
/// parameter takes a card (an array of them where it takes cards), a player number where it
/// takes a player, else a number.
fn value_of(w: &World, d: &Dynamic, types: &[ir::Type]) -> Result<super::state::Value, String> {
    use super::state::Value;
    use ir::Type;
    let takes = |t: Type| types.contains(&t);
    if let Ok(n) = d.as_int() {
        return Ok(if takes(Type::Card) {
            Value::Card(w.card(n)?)
        } else if takes(Type::Cards) {
            Value::Cards(vec![w.card(n)?])
        } else if takes(Type::Player) {
            Value::Player(w.player(n)?)
        } else {
            Value::Int(n)
        });
    }
    if let Ok(b) = d.as_bool() {
        return Ok(Value::Bool(b));
    }
    if d.is_array() && takes(Type::Cards) {
        let a = d.clone().into_array().unwrap_or_default();
        return Ok(Value::Cards(cards_of(w, &a)?));
    }
    if d.is_string() {
        return Ok(Value::Text(d.to_string()));
    }
    Err(format!("a verb cannot take {}", d.type_name()))
}

/// The index of a ruleset name a script gave (a zone, stat, state or counter), or the error
/// naming it.
fn index_of(table: &HashMap<String, u16>, what: &str, name: &str) -> Result<u16, String> {
    table
        .get(name)
        .copied()
        .ok_or_else(|| format!("unknown {what} `{name}`"))
}
