//! The rule of payment (docs/language.md, "Paying costs"): a cost is offered, and paid, only
//! when each of its statements can be carried out in full now. The check is a dry run of the
//! cost: its expressions are read as they would be (a choice taking its first candidates, no
//! player asked, nothing shuffled), and each statement that changes the game is tested against
//! what it would change.

use super::program::{AbilityRef, Program};
use super::state::{CardId, Seat, Value, ZoneKey};
use super::{EventData, Game};
use crate::ir::{Expr, Face, Id, Stmt};
use std::rc::Rc;

/// How deep nested blocks and verb calls inside a cost are followed (the check is bounded Rust
/// recursion); a block deeper than this is payable.
const MAX_DEPTH: u8 = 16;

/// A dry run in progress: whether a choice or a `top N of` came up short (fewer cards than
/// it names).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Dry {
    /// A payability check is running: choices take their first candidates, nothing is asked.
    pub(super) active: bool,
    /// A choice had fewer candidates than it needs.
    pub(super) short: bool,
}

impl<'p> Game<'p> {
    /// Whether a cost can be paid in full now, by `seat`, for the ability `source` of `this`
    /// (an empty cost always can).
    pub(super) fn payable(
        &mut self,
        seat: Seat,
        this: Option<CardId>,
        event: Option<Rc<EventData>>,
        source: Option<(CardId, AbilityRef)>,
        cost: &'p [Stmt],
    ) -> bool {
        if cost.is_empty() {
            return true;
        }
        let outer = self.dry;
        let generation = self.state.generation;
        self.dry = Dry {
            active: true,
            short: false,
        };
        self.push_ctx(seat, this, event, source);
        let ok = self.stmts_payable(cost, 0);
        self.pop_ctx_now();
        self.dry = outer;
        // the dry run changes nothing, so no interrupt rule runs for it (src/engine/interrupts.rs)
        debug_assert_eq!(
            self.state.generation, generation,
            "a payability check changed the game"
        );
        ok
    }

    /// Every statement of a block is payable, in order (its `let`s seen by those after).
    fn stmts_payable(&mut self, stmts: &'p [Stmt], depth: u8) -> bool {
        if depth >= MAX_DEPTH {
            return true;
        }
        let depth = depth.saturating_add(1);
        let mark = self.vars.len();
        let mut ok = true;
        for s in stmts {
            if !self.stmt_payable(s, depth) || self.dry.short {
                ok = false;
                break;
            }
        }
        self.vars.truncate(mark);
        ok
    }

    /// One statement of a cost: a change must change something; other statements are
    /// payable.
    fn stmt_payable(&mut self, s: &'p Stmt, depth: u8) -> bool {
        match s {
            Stmt::Let { var, value } => {
                let v = self.eval(value).unwrap_or(Value::Absent);
                self.vars.push((var.as_str(), v));
                true
            }
            Stmt::SetState { cards, state, .. } => {
                let si = self.prog.state_index.get(state).copied();
                self.each_payable(cards, |g, c| si.is_some_and(|s| !g.state.in_state(c, s)))
            }
            Stmt::ClearState { cards, state } => {
                let si = self.prog.state_index.get(state).copied();
                self.each_payable(cards, |g, c| si.is_some_and(|s| g.state.in_state(c, s)))
            }
            Stmt::Flip {
                cards,
                face: Some(face),
            } => {
                let up = *face == Face::Up;
                self.each_payable(cards, |g, c| g.state.cards[c as usize].face_up != up)
            }
            Stmt::Move {
                cards, to, slot, ..
            } => {
                let Ok(to) = self.eval(to) else { return true };
                let wanted = match slot.as_ref().map(|s| self.eval(s)) {
                    Some(Ok(Value::Text(t))) => Some(t),
                    _ => None,
                };
                self.each_payable(cards, |g, c| {
                    let at: ZoneKey = g.state.cards[c as usize].zone;
                    g.destination(&to, c)
                        .is_some_and(|d| d != at && g.slot_free(c, d, wanted.as_deref()))
                })
            }
            Stmt::Count {
                subject,
                counter,
                op,
                value,
            } if op == "-=" => self.count_payable(subject, counter, value),
            Stmt::ForEach { var, cards, body } => self.for_each_payable(var, cards, body, depth),
            Stmt::Repeat { body, .. }
            | Stmt::While { body, .. }
            | Stmt::Simultaneously { body } => self.stmts_payable(body, depth),
            Stmt::If { arms, otherwise } => {
                for (cond, body) in arms {
                    match self.eval(cond) {
                        Ok(Value::Bool(true)) => return self.stmts_payable(body, depth),
                        Ok(_) => {}
                        Err(_) => return true,
                    }
                }
                self.stmts_payable(otherwise, depth)
            }
            Stmt::Call { verb, args, .. } => self.call_payable(verb, args, depth),
            _ => true,
        }
    }

    /// The cards a statement changes: each must pass `test`; a card that is not there (an
    /// absent value) cannot be paid with.
    fn each_payable(&mut self, cards: &Expr, test: impl Fn(&Self, CardId) -> bool) -> bool {
        let v = match self.eval(cards) {
            Ok(v) => v,
            Err(_) => return true,
        };
        if v == Value::Absent {
            return false;
        }
        self.cards_of(&v).into_iter().all(|c| test(self, c))
    }

    /// `x.counter -= n` as a cost: every subject holds at least n (a counter is not spent
    /// below 0).
    fn count_payable(&mut self, subject: &Expr, counter: &Id, value: &Expr) -> bool {
        let (Ok(who), Ok(amount)) = (self.eval(subject), self.eval(value)) else {
            return true;
        };
        let need = match amount {
            Value::Int(n) => n,
            _ => 0,
        };
        let Some(&k) = self.prog.counter_index.get(counter) else {
            return true;
        };
        let k = k as usize;
        let held: Vec<i64> = match &who {
            Value::Absent => return false,
            Value::Player(p) => vec![self.state.players[*p as usize].counters[k]],
            Value::Players(ps) => ps
                .iter()
                .map(|p| self.state.players[*p as usize].counters[k])
                .collect(),
            other => self
                .cards_of(other)
                .into_iter()
                .map(|c| self.state.cards[c as usize].counters[k])
                .collect(),
        };
        held.into_iter().all(|h| h >= need)
    }

    /// `for each` in a cost: its body is payable for each card (a choice short of candidates
    /// is not).
    fn for_each_payable(
        &mut self,
        var: &'p str,
        cards: &Expr,
        body: &'p [Stmt],
        depth: u8,
    ) -> bool {
        let v = match self.eval(cards) {
            Ok(v) => v,
            Err(_) => return true,
        };
        if self.dry.short {
            return false;
        }
        for c in self.cards_of(&v) {
            self.vars.push((var, Value::Card(c)));
            let ok = self.stmts_payable(body, depth);
            self.vars.pop();
            if !ok {
                return false;
            }
        }
        true
    }

    /// A verb call in a cost is payable when its body is, with its arguments (once per card
    /// when a set is given to a `card` parameter).
    fn call_payable(&mut self, verb: &Id, args: &crate::ir::Map<Id, Expr>, depth: u8) -> bool {
        let prog: &'p Program = self.prog;
        let Some(p) = prog.callables.get(verb) else {
            return true;
        };
        let mut vals: Vec<(&'p str, Value)> = Vec::new();
        for param in &p.params {
            let v = match args.get_id(param.name).or(param.default.as_ref()) {
                Some(e) => match self.eval(e) {
                    Ok(v) => v,
                    Err(_) => return true,
                },
                None => Value::Absent,
            };
            vals.push((param.name.as_str(), v));
        }
        if self.dry.short {
            return false;
        }
        let (you, this, event, source) = {
            let c = self.ctx();
            (c.you, c.this, c.event.clone(), c.source)
        };
        for run in super::exec::spread_runs(p, vals) {
            self.push_ctx(you, this, event.clone(), source);
            self.vars.extend(run);
            let ok = self.stmts_payable(&p.body, depth);
            self.pop_ctx_now();
            if !ok {
                return false;
            }
        }
        true
    }

    /// The log line of an ability whose cost cannot be paid (its effect does not happen).
    pub(super) fn log_cannot_pay(&mut self, card: CardId, ability: AbilityRef) {
        let kind = Program::short(&self.prog.ability(ability).kind).to_string();
        self.log_card_src("payment", card, ability, |n| {
            format!("{n} cannot pay the cost of its {kind}")
        });
    }

    /// A choice during a dry run: its first `lo` candidates, noting a shortfall.
    pub(super) fn dry_pick(&mut self, cands: Vec<CardId>, lo: usize) -> Vec<CardId> {
        if cands.len() < lo {
            self.dry.short = true;
        }
        cands.into_iter().take(lo).collect()
    }
}
