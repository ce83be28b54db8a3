//! Statements that change values: stat changes, `grant` and `remove` (modifiers), counters,
//! and negation.

use crate::engine::agent::Request;
use crate::engine::interrupts::{Change, CounterChange, Subject};
use crate::engine::program::Program;
use crate::engine::rule_memo::Touched;
use crate::engine::state::{shown, ModKind, Until, Value};
use crate::engine::{Frame, Frames, Game};
use crate::ir::{Duration, Expr, Id, NegateScope, Stmt};

impl<'p> Game<'p> {
    /// A stat change, `grant` or `remove` as a one-shot effect: each card gets the modifiers
    /// [`Game::modifications`] reads, with the statement's duration.
    pub(super) fn exec_modify(
        &mut self,
        s: &Stmt,
        duration: &Duration,
    ) -> Result<(), Box<Request>> {
        let Some(m) = self.modifications(s)? else {
            return Ok(());
        };
        if m.cards.is_empty() {
            if let Some(cards) = modified_cards(s) {
                self.log_nothing("modify", cards);
            }
        }
        let until = self.until(duration)?;
        for c in m.cards {
            let ts = self.state.tick();
            for kind in &m.kinds {
                let x = self.modifier(c, kind.clone(), until.clone(), ts);
                self.state.modifiers.push(x);
            }
            self.changed(Touched::Card(c));
            self.log_cards("modify", &[c], |n| format!("{}{}", n[0], m.text));
        }
        Ok(())
    }

    /// A counter change (`=`, `+=`, `-=`) on a player, players or cards; `+=` and `-=`
    /// saturate at the bounds of an i64.
    pub(super) fn exec_count(
        &mut self,
        subject: &Expr,
        counter: &'p Id,
        op: &'p str,
        value: &Expr,
    ) -> Result<Frames<'p>, Box<Request>> {
        let who = self.eval(subject)?;
        let amount = match self.eval(value)? {
            Value::Int(n) => n,
            _ => 0,
        };
        let Some(&k) = self.prog.counter_index.get(counter) else {
            return Ok(Frames::new());
        };
        let subjects: Vec<Subject> = match &who {
            Value::Player(p) => vec![Subject::Player(*p)],
            Value::Players(ps) => ps.iter().map(|p| Subject::Player(*p)).collect(),
            other => self
                .cards_of(other)
                .into_iter()
                .map(Subject::Card)
                .collect(),
        };
        let change = |subject| CounterChange {
            subject,
            counter: k,
            id: counter.as_str(),
            op,
            amount,
        };
        if self.one_change_per_step(subjects.len()) {
            let changes = subjects
                .into_iter()
                .map(|s| Change::Counter(change(s)))
                .collect();
            return Ok(self.make_changes(changes));
        }
        for s in subjects {
            self.change_counter(&change(s));
        }
        Ok(Frames::new())
    }

    /// Changes one subject's counter, and logs it.
    pub(in crate::engine) fn change_counter(&mut self, c: &CounterChange<'p>) {
        let k = c.counter as usize;
        let (op, v) = (c.op, c.amount);
        let x = match c.subject {
            Subject::Player(p) => &mut self.state.players[p as usize].counters[k],
            Subject::Card(card) => &mut self.state.cards[card as usize].counters[k],
        };
        *x = match op {
            "=" => v,
            "-=" => x.saturating_sub(v),
            _ => x.saturating_add(v),
        };
        let now = *x;
        self.changed(match c.subject {
            Subject::Player(_) => Touched::Players,
            Subject::Card(card) => Touched::Counter(card, c.counter),
        });
        let short = Program::short(c.id);
        let line = |n: &str| format!("{n}: {short} {op} {v} (now {now})");
        match c.subject {
            Subject::Card(card) => self.log_cards("counter", &[card], |n| line(&n[0])),
            Subject::Player(p) => self.log_line("counter", |_| line(&format!("p{}", shown(p)))),
        }
    }

    /// `negate`: a card's text (a modifier with the duration) or its effect (it will not
    /// resolve).
    /// `negate c effect`: the effect of `c` as a played card, and those of its triggered
    /// abilities waiting to resolve, do nothing (12.4.3: 【 】 ones too); with a written
    /// duration, every effect of its abilities is negated while it lasts (continuous ones stop
    /// applying).
    fn negate_effect(&mut self, c: u32, duration: &Duration, until: &Until) {
        self.state.cards[c as usize].effect_negated = true;
        for p in &mut self.pending {
            if p.card == c || p.this == c {
                p.negated = true;
            }
        }
        for f in &mut self.frames {
            if let Frame::Window(w) = f {
                for item in &mut w.stack {
                    if item.ctx.source.is_some_and(|(card, _)| card == c) {
                        item.negated = true;
                    }
                }
            }
        }
        if *duration != Duration::Default {
            let ts = self.state.tick();
            let m = self.modifier(c, ModKind::NegateEffect, until.clone(), ts);
            self.state.modifiers.push(m);
        }
    }

    pub(super) fn exec_negate(
        &mut self,
        cards: &Expr,
        scope: NegateScope,
        include_unnegatable: bool,
        duration: &Duration,
    ) -> Result<(), Box<Request>> {
        let targets = self.eval(cards)?;
        let until = self.until(duration)?;
        let list = self.cards_of(&targets);
        if list.is_empty() {
            self.log_nothing("negate", cards);
        }
        for c in list {
            match scope {
                NegateScope::Text => {
                    let ts = self.state.tick();
                    let kind = ModKind::NegateText(include_unnegatable);
                    let m = self.modifier(c, kind, until.clone(), ts);
                    self.state.modifiers.push(m);
                }
                NegateScope::Effect => self.negate_effect(c, duration, &until),
            }
            self.changed(Touched::Card(c));
            let what = if scope == NegateScope::Text {
                "text"
            } else {
                "effect"
            };
            self.log_cards("negate", &[c], |n| format!("{}'s {what} is negated", n[0]));
        }
        Ok(())
    }
}

/// The cards expression of a stat change, `grant` or `remove`.
fn modified_cards(s: &Stmt) -> Option<&Expr> {
    match s {
        Stmt::Modify { cards, .. }
        | Stmt::Grant { cards, .. }
        | Stmt::RemoveKeyword { cards, .. } => Some(cards),
        _ => None,
    }
}
