//! Control flow and calls: `if`, `for each`, `repeat`, `may`, `choose one`,
//! `simultaneously`, verb and procedure calls, phases, windows, `resolve`.

use crate::engine::agent::{Answer, Choice, Request, RequestKind};
use crate::engine::program::Program;
use crate::engine::state::{index16, Value};
use crate::engine::{CallStart, Each, Frame, Frames, Game, Window};
use crate::ir::{self, Expr, Id, Stmt, WindowEntry};
use smallvec::{smallvec, SmallVec};

/// A verb's or procedure's arguments by parameter name, in parameter order.
type Args<'p> = Vec<(&'p str, Value)>;

impl<'p> Game<'p> {
    /// `if … else if … else`: the body of the first arm whose condition holds.
    pub(super) fn exec_if(
        &mut self,
        arms: &'p [(Expr, Vec<Stmt>)],
        otherwise: &'p [Stmt],
    ) -> Result<Frames<'p>, Box<Request>> {
        let mut body: &'p [Stmt] = otherwise;
        for (cond, b) in arms {
            if self.eval_true(cond)? {
                body = b;
                break;
            }
        }
        Ok(if body.is_empty() {
            Frames::new()
        } else {
            smallvec![self.block(body)]
        })
    }

    /// `for each x in …`: players, a list, or cards, each in turn.
    pub(super) fn exec_for_each(
        &mut self,
        var: &'p str,
        cards: &Expr,
        body: &'p [Stmt],
    ) -> Result<Frames<'p>, Box<Request>> {
        let v = self.eval(cards)?;
        let items: Vec<Value> = match v {
            Value::Players(ps) => ps.into_iter().map(Value::Player).collect(),
            Value::List(l) => std::sync::Arc::unwrap_or_clone(l),
            other => self.cards_of(&other).into_iter().map(Value::Card).collect(),
        };
        if items.is_empty() && self.take_next_step_now() {
            // nothing to run: the loop's frame would only end, in a step of its own
            return Ok(Frames::new());
        }
        Ok(smallvec![Frame::Each(Box::new(Each {
            var,
            items,
            idx: 0,
            body,
            mark: self.vars.len(),
        }))])
    }

    /// `repeat N`: a count below 0 (or not a number) runs nothing; at most 10,000 runs.
    pub(super) fn exec_repeat(
        &mut self,
        times: &Expr,
        body: &'p [Stmt],
    ) -> Result<Frames<'p>, Box<Request>> {
        let n = match self.eval(times)? {
            Value::Int(n) => n.clamp(0, 10_000),
            _ => 0,
        };
        Ok(smallvec![Frame::Repeat { left: n, body }])
    }

    /// `may`: every player named agrees, in order, or the body does not run.
    pub(super) fn exec_may(
        &mut self,
        players: &[Expr],
        body: &'p [Stmt],
    ) -> Result<Frames<'p>, Box<Request>> {
        for p in players {
            let who = self.player_or_you(p)?;
            let asked = self.ask_with(|g| Request {
                player: who,
                kind: RequestKind::YesNo,
                prompt: format!("may: {}", g.describe(body)),
                options: Vec::new(),
            })?;
            if asked != Answer::Yes(true) {
                return Ok(Frames::new());
            }
        }
        Ok(smallvec![self.block(body)])
    }

    /// `choose one`: the chooser picks one labelled body.
    pub(super) fn exec_choose_one(
        &mut self,
        chooser: &Expr,
        options: &'p [(String, Vec<Stmt>)],
    ) -> Result<Frames<'p>, Box<Request>> {
        let who = self.player_or_you(chooser)?;
        let asked = self.ask_with(|_| Request {
            player: who,
            kind: RequestKind::OneOf,
            prompt: "choose one".into(),
            options: options
                .iter()
                .map(|(l, _)| Choice {
                    label: l.clone(),
                    action: None,
                    card: None,
                    card_id: None,
                })
                .collect(),
        });
        if let Answer::Pick(i) = asked? {
            if let Some((_, body)) = options.get(i) {
                return Ok(smallvec![self.block(body)]);
            }
        }
        Ok(Frames::new())
    }

    /// `simultaneously`: the body's events are held and handled as one batch at its end.
    pub(super) fn exec_simultaneously(&mut self, body: &'p [Stmt]) -> Frames<'p> {
        self.batch.push(Some(Vec::new()));
        smallvec![Frame::Batch, self.block(body)]
    }

    /// A verb or procedure call: its arguments read now, then its body runs in a context of
    /// its own (once per card when a set of cards is given to a `card` parameter). `may_start_now`:
    /// a call that runs once may set its context and arguments at once (a statement's call; a
    /// script's write drops the variables pushed while it is made, so it may not).
    pub(super) fn exec_call(
        &mut self,
        verb: &Id,
        args: &crate::ir::Map<Id, Expr>,
        may_start_now: bool,
    ) -> Result<Frames<'p>, Box<Request>> {
        let prog: &'p Program = self.prog;
        let Some(p) = prog.callables.get(verb) else {
            return Ok(Frames::new());
        };
        let mut vals: Args<'p> = Vec::with_capacity(p.params.len());
        for param in &p.params {
            let v = match args.get_id(param.name) {
                Some(e) => self.eval(e)?,
                None => match &param.default {
                    Some(d) => self.eval(d)?,
                    None => Value::Absent,
                },
            };
            vals.push((param.name.as_str(), v));
        }
        let (you, this, event, source) = {
            let c = self.ctx();
            (c.you, c.this, c.event.clone(), c.source)
        };
        let spread = spread_at(p, &vals);
        let once = spread.is_none_or(|i| matches!(&vals[i].1, Value::Cards(cs) if cs.len() == 1));
        if may_start_now && once && self.take_next_step_now() {
            // the call's context and arguments set now; its body runs next step
            if let Some(i) = spread {
                if let Value::Cards(cs) = &vals[i].1 {
                    vals[i].1 = cs.first().map_or(Value::Absent, |&c| Value::Card(c));
                }
            }
            self.push_ctx(you, this, event, source);
            self.vars.append(&mut vals);
            let mut out: Frames<'p> = smallvec![Frame::PopCtx];
            if !p.body.is_empty() {
                out.push(self.block(&p.body));
            }
            return Ok(out);
        }
        let runs = spread_runs(p, vals);
        let mut out = Frames::new();
        // pushed in reverse so the first run happens first
        for run in runs.into_iter().rev() {
            out.push(Frame::PopCtx);
            out.push(Frame::CallStart(Box::new(CallStart {
                you,
                this,
                event: event.clone(),
                source,
                vars: run,
                body: &p.body,
                applied: None,
            })));
        }
        Ok(out)
    }

    /// Whether the step a frame that only moves the VM on would take next — a call's start
    /// (with its allocation), a `for each` over nothing ending — may be taken now, in the step
    /// of the statement that makes it: when the end of the statement's step ([`Game::step`]),
    /// which would run between the two, has nothing to do (no `while` alias to read again, no
    /// interrupt due) and the step may be fused as [`Game::fused_step`] fuses one (no answer
    /// held, the game going on and under its step limit). The step is counted as it counts
    /// one, so the step limit falls where it did.
    fn take_next_step_now(&mut self) -> bool {
        let step_end_busy =
            self.has_while_aliases() || (self.prog.has_interrupts() && self.interrupt_due());
        !step_end_busy && self.fused_step()
    }

    /// `phase`: marks the current phase; a check timing follows its body.
    pub(super) fn exec_phase(&mut self, phase: &Id, body: &'p [Stmt]) -> Frames<'p> {
        let idx = self.prog.phase_index.get(phase).copied();
        self.state.phase = idx;
        self.log_line("phase", |_| format!("phase {}", Program::short(phase)));
        smallvec![Frame::PhaseEnd, self.block(body)]
    }

    /// `window`: priority for the players named, in order (none named: no window); `chain`:
    /// it holds a response chain, `once`: each player takes at most one entry, `unchecked`: no
    /// check timing before its decisions.
    pub(super) fn exec_window(
        &mut self,
        players: &Expr,
        (chain, once, unchecked): (bool, bool, bool),
        entries: &'p [WindowEntry],
    ) -> Result<Frames<'p>, Box<Request>> {
        let ps = self.players_of(players)?;
        if ps.is_empty() {
            return Ok(Frames::new());
        }
        Ok(smallvec![Frame::Window(Box::new(Window {
            players: ps,
            chain,
            once,
            acted: 0,
            entries,
            turn: 0,
            passes: 0,
            stack: Vec::new(),
            checked: unchecked,
            unchecked,
        }))])
    }

    /// `resolve kind of cards`: each card's abilities of that kind run, cost first, in card
    /// order; a card whose effect is negated does not resolve.
    pub(super) fn exec_resolve(
        &mut self,
        kind: &Id,
        cards: &Expr,
    ) -> Result<Frames<'p>, Box<Request>> {
        let v = self.eval(cards)?;
        let you = self.ctx().you;
        let mut out = Frames::new();
        for c in self.cards_of(&v).into_iter().rev() {
            if self.card_effect_negated(c) {
                self.log_cards("negate", &[c], |n| {
                    format!("{}'s effect does not resolve", n[0])
                });
                continue;
            }
            let def = self.state.cards[c as usize].def;
            let prog: &'p Program = self.prog;
            let card = &prog.cards[def as usize];
            for (i, a) in card.abilities.iter().enumerate().rev() {
                if &a.kind != kind {
                    continue;
                }
                let aref = (def, index16(i));
                if !self.payable(you, Some(c), None, Some((c, aref)), &a.cost) {
                    self.log_cannot_pay(c, aref);
                    continue;
                }
                out.push(Frame::PopCtx);
                out.push(Frame::Block {
                    stmts: &a.effect,
                    pc: 0,
                    mark: u32::MAX,
                });
                if !a.cost.is_empty() {
                    out.push(Frame::Block {
                        stmts: &a.cost,
                        pc: 0,
                        mark: u32::MAX,
                    });
                }
                out.push(Frame::CallStart(Box::new(CallStart {
                    you,
                    this: Some(c),
                    event: None,
                    source: Some((c, aref)),
                    vars: Vec::new(),
                    body: &[],
                    applied: None,
                })));
            }
        }
        Ok(out)
    }
}

/// The parameter a call's runs spread over: the first `card` parameter given a set of cards
/// (`vals`: the parameters' values in their order).
fn spread_at(p: &ir::Procedure, vals: &[(&str, Value)]) -> Option<usize> {
    p.params
        .iter()
        .zip(vals)
        .position(|(param, (_, v))| param.types == [ir::Type::Card] && matches!(v, Value::Cards(_)))
}

/// The runs of a call: one, or one per card when a set of cards is given to a `card`
/// parameter (the first such parameter). `vals` are the parameters' values in their order.
/// Most calls run once: that run is held in place.
pub(in crate::engine) fn spread_runs<'p>(
    p: &ir::Procedure,
    vals: Args<'p>,
) -> SmallVec<[Args<'p>; 1]> {
    let spread = spread_at(p, &vals).and_then(|i| match &vals[i].1 {
        Value::Cards(cs) => Some((i, cs.clone())),
        _ => None,
    });
    match spread {
        Some((i, cs)) => cs
            .into_iter()
            .map(|c| {
                let mut v = vals.clone();
                v[i].1 = Value::Card(c);
                v
            })
            .collect(),
        None => smallvec![vals],
    }
}
