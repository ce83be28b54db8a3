//! Which states and counters of cards a rule can read, found once from its IR.
//!
//! A rule's memo (`rule_memo`) is stale when a zone it listed changed. Most changes on the
//! field are a card taking or leaving a state (a character waking, attacking, defending) or a
//! counter moving, and most rules read one or two states: `for each c in field where it is
//! dying` does not read whether a card is awake. [`CardReads`] holds, per rule, every state
//! and every counter of a card its run can read: the states its `is <state>` tests name, the
//! state in which a card type stops counting as another (`counts_as … unless`, read by every
//! `is <type>`), and the counters it names; the verbs and procedures it calls (and theirs)
//! included. A run that reads a card's states or counters any other way (a script, an
//! action's offers, a window…) runs a statement the memo does not follow, and is not
//! remembered anyway.
//!
//! With it, a memo of that rule stays good through a change of a state or counter it cannot
//! read, in the zones it listed; any other change to those zones still makes it stale.

use super::program::Program;
use crate::ir::{Expr, Id, Semantics, Stmt, StmtChild};

/// The states and counters of cards a rule can read, one bit each by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct CardReads {
    /// The states (by index) an `is <state>` test, or a card type's `unless` state, reads.
    pub states: u64,
    /// The counters (by index) a counter read names.
    pub counters: u64,
}

/// Per rule of the ruleset (by its index), the states and counters of cards it can read;
/// `None` when a counter's index does not fit the bits (the memo then follows every change).
pub(super) fn of_rules(prog: &Program) -> Vec<Option<CardReads>> {
    prog.ruleset
        .rules
        .iter()
        .map(|rule| {
            let mut walk = Walk::new(prog);
            walk.block(&rule.body);
            walk.done()
        })
        .collect()
}

/// The states and counters of cards the derivation of continuous abilities can read: those
/// the `while` conditions and bodies of every card's continuous abilities (carried ones
/// included) name. A continuous ability's body calls no verb or procedure (a call in it
/// does nothing, `layers.rs`); its calls are walked all the same.
pub(super) fn of_continuous(prog: &Program) -> Option<CardReads> {
    let mut walk = Walk::new(prog);
    for card in &prog.cards {
        for a in &card.abilities {
            if a.semantics == Semantics::Continuous {
                if let Some(w) = &a.while_condition {
                    walk.expr(w);
                }
                if let Some(c) = &a.condition {
                    walk.expr(c);
                }
                walk.block(&a.effect);
            }
        }
    }
    walk.done()
}

/// A walk over a rule's statements and expressions, into the verbs and procedures it calls
/// (each once).
struct Walk<'p> {
    prog: &'p Program,
    reads: CardReads,
    /// Whether every state and counter met fits the bits.
    exact: bool,
    called: Vec<&'p Id>,
}

impl<'p> Walk<'p> {
    fn new(prog: &'p Program) -> Self {
        Walk {
            prog,
            reads: CardReads::default(),
            exact: true,
            called: Vec::new(),
        }
    }

    /// What the walk found, if every state and counter fit the bits.
    fn done(self) -> Option<CardReads> {
        self.exact.then_some(self.reads)
    }

    fn block(&mut self, stmts: &'p [Stmt]) {
        for s in stmts {
            if let Stmt::Call { verb, .. } = s {
                self.call(verb);
            }
            s.each_child(&mut |child| match child {
                StmtChild::Expr(e) => self.expr(e),
                StmtChild::Block(b) => self.block(b),
            });
        }
    }

    /// A called verb or procedure: its parameters' defaults and its body.
    fn call(&mut self, verb: &'p Id) {
        if self.called.contains(&verb) {
            return;
        }
        self.called.push(verb);
        let prog: &'p Program = self.prog;
        if let Some(p) = prog.callables.get(verb) {
            for param in &p.params {
                if let Some(d) = &param.default {
                    self.expr(d);
                }
            }
            self.block(&p.body);
        }
    }

    fn expr(&mut self, e: &'p Expr) {
        match e {
            // a state the game does not declare is never held: nothing read
            Expr::InState { state, .. } => {
                if let Some(&s) = self.prog.state_index.get(state) {
                    self.state(s);
                }
            }
            Expr::OfType { .. } => {
                let prog: &'p Program = self.prog;
                for (_, _, unless) in prog.counts_as.values() {
                    if let Some(s) = unless {
                        self.state(*s);
                    }
                }
            }
            Expr::Counter { counter, .. } => {
                if let Some(&k) = self.prog.counter_index.get(counter) {
                    match 1u64.checked_shl(u32::from(k)) {
                        Some(bit) => self.reads.counters |= bit,
                        None => self.exact = false,
                    }
                }
            }
            _ => {}
        }
        e.each_child(&mut |child| self.expr(child));
    }

    fn state(&mut self, s: u16) {
        match 1u64.checked_shl(u32::from(s)) {
            Some(bit) => self.reads.states |= bit,
            None => self.exact = false,
        }
    }
}

impl Program {
    /// The states and counters of cards rule `rule` (an index into the ruleset's rules) can
    /// read, by id, as its memos follow them; `None` when they are not known (any change to
    /// a zone it listed makes its memo stale) or there is no such rule. For tests.
    #[doc(hidden)]
    pub fn card_reads_of_rule(&self, rule: usize) -> Option<(Vec<&str>, Vec<&str>)> {
        let reads = (*self.rule_reads.get(rule)?)?;
        let states = named(reads.states, self.states.iter().map(|s| s.id.as_str()));
        let counters = named(
            reads.counters,
            self.ruleset.counters.iter().map(|c| c.name.id.as_str()),
        );
        Some((states, counters))
    }
}

/// The ids among `ids` (in index order) whose bits `bits` has.
fn named<'a>(bits: u64, ids: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    ids.take(64)
        .enumerate()
        .filter(|(i, _)| bits & (1u64 << i) != 0)
        .map(|(_, id)| id)
        .collect()
}
