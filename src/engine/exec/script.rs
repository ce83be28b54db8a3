//! `script f(args)`: runs a function of a pack script (`src/engine/script.rs`) against a copy of
//! the game as it is, replaying the statement's answers; the changes it recorded are then made
//! in order, one per step of the VM, each as the matching statement makes it (docs/engine.md,
//! "Scripts").

use crate::engine::agent::{Answer, Choice, Request, RequestKind};
use crate::engine::program::Program;
use crate::engine::script::{Ask, CardView, World, Write};
use crate::engine::state::{CardId, Value};
use crate::engine::{Frame, Frames, Game};
use crate::ir::{self, Expr};
use rand::RngExt;
use rhai::{Array, Dynamic, INT};
use smallvec::smallvec;

/// The changes a script recorded, still to make (a frame of the VM).
#[derive(Debug, Clone)]
pub(in crate::engine) struct ScriptWrites {
    writes: Vec<Write>,
    next: usize,
}

/// The most random numbers one run of a script statement may draw (each one runs the script
/// again from its start).
const MAX_RANDOM_PICKS: usize = 64;

/// The variables a change is made through (no fuda name can spell them).
const CARDS: &str = "script·cards";
const TO: &str = "script·to";

impl<'p> Game<'p> {
    /// `script f(args)`: the arguments read now, then the function run; a choice it asks
    /// stops the statement with the request (it runs again from its start once answered); a
    /// failure stops the effect with a `script_error` log line and makes none of its changes.
    pub(in crate::engine) fn exec_script(
        &mut self,
        function: &str,
        args: &[Expr],
    ) -> Result<Frames<'p>, Box<Request>> {
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.eval(a)?);
        }
        if self.dry.active {
            // a payability check: a script is a choice and a change nobody tests
            return Ok(Frames::new());
        }
        let prog: &'p Program = self.prog;
        let stats = prog
            .scripts
            .reads_stats(function, values.len())
            .unwrap_or(false);
        let start = self.answer_pos;
        let mut picks = 0;
        let (world, outcome) = loop {
            self.answer_pos = start;
            let world = self.script_world(stats);
            let dynamic = values.iter().map(dynamic_of).collect();
            let Some((world, outcome)) = prog.scripts.run(function, dynamic, world) else {
                let name = Program::short(function).to_string();
                self.log_script_error(&name, "no script defines this function");
                return Ok(Frames::new());
            };
            // a random pick is drawn by the engine, kept with the answers, and the script
            // runs again from its start with it
            let Some(Ask::Random { lo, hi }) = world.ask else {
                break (world, outcome);
            };
            if picks >= MAX_RANDOM_PICKS {
                let at = Program::short(function).to_string();
                let why = format!("it draws more than {MAX_RANDOM_PICKS} random numbers");
                self.log_script_error(&at, &why);
                return Ok(Frames::new());
            }
            picks = picks.saturating_add(1);
            let k = self.pick_stream().random_range(lo..=hi);
            self.answers.push(Answer::Text(k.to_string()));
            self.log_line("random", |_| {
                format!("random pick: {k} (from {lo} to {hi})")
            });
        };
        self.answer_pos = start.saturating_add(world.used);
        if let Some(ask) = world.ask {
            // the cards the script revealed before asking are shown to the chooser
            let revealed: Vec<CardId> = world
                .writes
                .iter()
                .flat_map(|w| match w {
                    Write::Reveal { cards } => cards.clone(),
                    _ => Vec::new(),
                })
                .collect();
            return Err(Box::new(self.script_request(ask, &revealed)));
        }
        match outcome {
            Err((at, why)) => {
                self.log_script_error(&at, &why);
                Ok(Frames::new())
            }
            Ok(()) if world.writes.is_empty() => Ok(Frames::new()),
            Ok(()) => Ok(smallvec![Frame::Script(Box::new(ScriptWrites {
                writes: world.writes,
                next: 0,
            }))]),
        }
    }

    /// What a script reads: the game as it is now (the cards' stats only when `stats`), and
    /// the statement's answers not yet used.
    fn script_world(&mut self, stats: bool) -> World {
        let n = self.prog.players();
        let (you, this) = {
            let c = self.ctx();
            (c.you, c.this)
        };
        let mut cards = Vec::with_capacity(self.state.cards.len());
        for i in 0..self.state.cards.len() {
            let c = crate::engine::state::card_id(i);
            cards.push(self.card_view(c, stats));
        }
        World {
            names: self.prog.scripts.names(),
            players: n,
            you,
            opponent: self.opponent_of(you),
            this,
            cards,
            zones: self.state.zones.clone(),
            stats_read: stats,
            player_counters: self
                .state
                .players
                .iter()
                .map(|p| p.counters.clone())
                .collect(),
            answers: self
                .answers
                .get(self.answer_pos..)
                .unwrap_or_default()
                .to_vec(),
            used: 0,
            ask: None,
            writes: Vec::new(),
        }
    }

    /// One card as a script reads it: its stats as read (floored), when `stats`.
    fn card_view(&mut self, c: CardId, stats: bool) -> CardView {
        let raw = if stats { self.stats(c) } else { Vec::new() };
        let stats = raw
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let floor = self.prog.stats.get(i).and_then(|s| s.floor);
                v.map(|v| floor.map_or(v, |f| v.max(f)))
            })
            .collect();
        let cs = &self.state.cards[c as usize];
        CardView {
            def: cs.def,
            treated: cs
                .treat
                .as_ref()
                .map(|t| Program::short(&t.card_type).to_string()),
            owner: cs.owner,
            controller: cs.controller,
            zone: cs.zone.zone,
            states: cs.states,
            stats,
        }
    }

    /// The request a script's choice makes, as the matching statement's (the cards it revealed
    /// before asking are shown, as they will be once its changes are made).
    fn script_request(&self, ask: Ask, revealed: &[CardId]) -> Request {
        match ask {
            Ask::Cards { player, cards, n } => {
                let options = cards
                    .iter()
                    .map(|c| {
                        self.card_option(*c, self.visible_to(*c, player) || revealed.contains(c))
                    })
                    .collect();
                Request {
                    player,
                    kind: RequestKind::Cards { min: n, max: n },
                    prompt: format!("choose {n} card{}", if n == 1 { "" } else { "s" }),
                    options,
                }
            }
            Ask::OneOf { player, options } => Request {
                player,
                kind: RequestKind::OneOf,
                prompt: "choose one".into(),
                options: options
                    .into_iter()
                    .map(|label| Choice {
                        label,
                        action: None,
                        card: None,
                        card_id: None,
                    })
                    .collect(),
            },
            // drawn by the engine before a request is made (`exec_script`)
            Ask::Random { .. } => Request {
                player: 0,
                kind: RequestKind::YesNo,
                prompt: "random".into(),
                options: Vec::new(),
            },
            Ask::YesNo { player, prompt } => Request {
                player,
                kind: RequestKind::YesNo,
                prompt: format!("may: {prompt}"),
                options: Vec::new(),
            },
        }
    }

    /// Logs that a script stopped the effect (kind `script_error`), naming the card, where
    /// (the script, the line, the function) and why.
    fn log_script_error(&mut self, at: &str, why: &str) {
        let text =
            |who: &str| format!("{who}'s script stops ({at}): {why}; none of its changes are made");
        match self.ctx().this {
            Some(c) => self.log_cards("script_error", &[c], |n| text(&n[0])),
            None => self.log_line("script_error", |_| text("the rules")),
        }
    }

    /// Makes the next change a script recorded (one per step), or ends its frame.
    pub(in crate::engine) fn script_step(&mut self) -> Result<(), Box<Request>> {
        let write = match self.frames.last_mut() {
            Some(Frame::Script(w)) => match w.writes.get(w.next).cloned() {
                Some(x) => {
                    w.next = w.next.saturating_add(1);
                    x
                }
                None => {
                    self.frames.pop();
                    return Ok(());
                }
            },
            _ => return Ok(()),
        };
        let mark = self.vars.len();
        let made = self.make_write(write);
        self.vars.truncate(mark);
        self.frames.extend(made?);
        Ok(())
    }

    /// One recorded change, made by the statement that makes it in fuda (its values given
    /// through variables): the same log lines, events, triggers and replacements.
    fn make_write(&mut self, write: Write) -> Result<Frames<'p>, Box<Request>> {
        let prog: &'p Program = self.prog;
        let var = |n: &str| Expr::Var(crate::ir::Id::from(n));
        match write {
            Write::Move {
                cards,
                zone,
                player,
                position,
            } => {
                self.vars.push((CARDS, Value::Cards(cards)));
                self.vars.push((TO, Value::Zone(zone, smallvec![player])));
                self.exec_move(&var(CARDS), &var(TO), position, None, None, None)
            }
            Write::Count {
                player,
                counter,
                amount,
            } => {
                let Some(c) = prog.ruleset.counters.get(usize::from(counter)) else {
                    return Ok(Frames::new());
                };
                let op = if amount < 0 { "-=" } else { "+=" };
                self.vars.push((TO, Value::Player(player)));
                let n = Expr::Int(amount.saturating_abs());
                self.exec_count(&var(TO), &c.name.id, op, &n)
            }
            Write::Reveal { cards } => {
                self.vars.push((CARDS, Value::Cards(cards)));
                self.exec_reveal(&var(CARDS))?;
                Ok(Frames::new())
            }
            Write::Modify {
                card,
                stat,
                amount,
                until,
            } => {
                let (Some(s), Some(layer)) = (
                    prog.stats.get(usize::from(stat)),
                    prog.scripts.names().add_layer,
                ) else {
                    return Ok(Frames::new());
                };
                self.vars.push((CARDS, Value::Card(card)));
                let duration = until.map_or(ir::Duration::Default, ir::Duration::Until);
                let stmt = ir::Stmt::Modify {
                    cards: var(CARDS),
                    stat: s.id,
                    layer,
                    op: "+=".into(),
                    value: Some(Expr::Int(amount)),
                    duration: duration.clone(),
                };
                self.exec_modify(&stmt, &duration)?;
                Ok(Frames::new())
            }
            Write::SetState { card, state } => {
                let Some(s) = prog.states.get(usize::from(state)) else {
                    return Ok(Frames::new());
                };
                self.vars.push((CARDS, Value::Card(card)));
                self.exec_set_state(&var(CARDS), &s.id)
            }
            Write::Emit { event, args } => {
                let Some(&e) = prog.event_index.get(&event) else {
                    return Ok(Frames::new());
                };
                let mut named = crate::ir::Map::new();
                for (param, v) in prog.ruleset.events[usize::from(e)].params.iter().zip(args) {
                    self.vars.push((param.name.as_str(), v));
                    named.insert(param.name, var(&param.name));
                }
                self.exec_emit(&event, &named)?;
                Ok(Frames::new())
            }
            Write::Call { verb, args } => {
                let Some(p) = prog.callables.get(&verb) else {
                    return Ok(Frames::new());
                };
                let mut named = crate::ir::Map::new();
                for (param, v) in p.params.iter().zip(args) {
                    self.vars.push((param.name.as_str(), v));
                    named.insert(param.name, var(&param.name));
                }
                // started by a frame: the write's variables go once it is made
                self.exec_call(&verb, &named, false)
            }
        }
    }
}

/// A statement's argument as a script reads it: a card is its handle, a player their number
/// (1 for the first seat), cards an array of handles.
fn dynamic_of(v: &Value) -> Dynamic {
    let handles =
        |cs: &[CardId]| -> Array { cs.iter().map(|c| Dynamic::from(INT::from(*c))).collect() };
    match v {
        Value::Int(n) => Dynamic::from(*n),
        Value::Bool(b) => Dynamic::from(*b),
        Value::Text(t) => Dynamic::from(t.clone()),
        Value::Card(c) => Dynamic::from(INT::from(*c)),
        Value::Cards(cs) => Dynamic::from(handles(cs)),
        Value::Player(p) => Dynamic::from(INT::from(*p).saturating_add(1)),
        Value::Players(ps) => Dynamic::from(
            ps.iter()
                .map(|p| Dynamic::from(INT::from(*p).saturating_add(1)))
                .collect::<Array>(),
        ),
        _ => Dynamic::UNIT,
    }
}
