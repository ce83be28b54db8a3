//! Names → indices, answered by address for the names the program's own IR holds.
//!
//! The IR names everything by its text id (`mygame:frozen`, `mygame:strength`): an engine
//! that looks a state up by its text hashes and compares that text at every evaluation. [`Names`] keeps the
//! map by text and, beside it, the same answers keyed by where a text lies in memory: the
//! address and length of each id the program's IR holds in a place that names something of
//! that kind (an `InState`'s state, an `emit`'s event, an ability's kind…), learned once when
//! the program is built ([`Program::new`](super::program::Program::new)). A lookup tries the
//! address first (one hash of two machine words, no text read), then the text.
//!
//! Why an address is a sound key: the program's IR is not changed once it is built, so its
//! texts stay where they are and stay alive as long as the program does. No other live text
//! can lie at the same address, and two views of the same bytes (same address, same length)
//! are the same text. An address is learned only for a text the map knows, with the map's
//! answer, so both ways always agree; a text the program does not hold (a scenario's, a
//! script's) is simply looked up by its text.

use super::lowered::Conds;
use super::program::Program;
use crate::ir::{self, Expr, Id, Stmt, StmtChild};
use rustc_hash::FxHashMap as HashMap;
use std::ops::Deref;

/// A map from ids to values (indices, mostly), looked up by address for the program's own ids
/// and by text for any other (see the module's doc). It reads as the plain map otherwise
/// (`Deref`). Not `Clone`: a copy could outlive the program whose addresses it knows.
#[derive(Debug)]
pub struct Names<V> {
    /// Id → value: the map itself.
    by_name: HashMap<Id, V>,
    /// (address, length) of an id the program holds → the value `by_name` gives for it.
    by_address: HashMap<(usize, usize), V>,
}

impl<V> Default for Names<V> {
    fn default() -> Self {
        Names {
            by_name: HashMap::default(),
            by_address: HashMap::default(),
        }
    }
}

impl<V: Copy> Names<V> {
    /// The value of an id: by its address when the program holds it there, else by its text.
    #[inline]
    pub fn get(&self, id: &str) -> Option<&V> {
        if let Some(v) = self.by_address.get(&address(id)) {
            return Some(v);
        }
        self.by_name.get(id)
    }

    /// Records where an id the program holds lies, when it names something here (a text that
    /// names nothing here is left to the lookup by text, which answers `None` for it too).
    pub(super) fn learn(&mut self, id: &str) {
        if id.is_empty() {
            // an empty text has no address of its own
            return;
        }
        if let Some(&v) = self.by_name.get(id) {
            self.by_address.insert(address(id), v);
        }
    }

    /// How many ids are known by address.
    pub fn learned(&self) -> usize {
        self.by_address.len()
    }
}

impl<V> Deref for Names<V> {
    type Target = HashMap<Id, V>;

    fn deref(&self) -> &Self::Target {
        &self.by_name
    }
}

impl<V> FromIterator<(Id, V)> for Names<V> {
    fn from_iter<I: IntoIterator<Item = (Id, V)>>(iter: I) -> Self {
        Names {
            by_name: iter.into_iter().collect(),
            by_address: HashMap::default(),
        }
    }
}

/// The ids a program's IR holds, by what they name: gathered by one walk over the IR, then
/// learned by address by the program's maps ([`learn_addresses`]).
#[derive(Default)]
struct Held<'p> {
    zones: Vec<&'p str>,
    states: Vec<&'p str>,
    stats: Vec<&'p str>,
    layers: Vec<&'p str>,
    counters: Vec<&'p str>,
    keywords: Vec<&'p str>,
    events: Vec<&'p str>,
    moments: Vec<&'p str>,
    phases: Vec<&'p str>,
    actions: Vec<&'p str>,
    kinds: Vec<&'p str>,
    /// The conditions of filters (`cards where condition`), lowered by [`Conds`].
    conditions: Vec<&'p Expr>,
}

/// Teaches a program's maps where its own IR holds the ids they know, and lowers its filters'
/// conditions ([`Conds`]): one walk over every statement and expression of the ruleset (setup,
/// turn, actions, rules, verbs and procedures, those the engine calls included) and of every
/// card (abilities, triggers, keywords). An id the walk does not reach is still found by its
/// text, and a condition it does not reach is evaluated as written.
pub(super) fn learn_addresses(prog: &mut Program) {
    let mut held = Held::default();
    let r = &prog.ruleset;
    held.block(&r.setup);
    held.block(&r.turn);
    for a in &r.actions {
        held.actions.push(&a.name.id);
        held.exprs(a.candidates.iter().chain(&a.condition));
        held.block(&a.body);
    }
    for rule in &r.rules {
        held.block(&rule.body);
    }
    for p in r
        .verbs
        .iter()
        .chain(&r.procedures)
        .chain(prog.callables.values())
    {
        held.block(&p.body);
    }
    for card in &prog.cards {
        for k in &card.keywords {
            held.keywords.push(&k.keyword);
            held.exprs(&k.args);
        }
        for a in &card.abilities {
            held.kinds.push(&a.kind);
            held.zones.extend(a.zone.as_deref());
            if let Some(t) = &a.trigger {
                held.trigger(t);
            }
            held.exprs(a.condition.iter().chain(&a.while_condition));
            held.block(&a.cost);
            held.block(&a.effect);
        }
    }
    let learn = |names: &mut Names<u16>, ids: &[&str]| ids.iter().for_each(|id| names.learn(id));
    learn(&mut prog.zones, &held.zones);
    learn(&mut prog.state_index, &held.states);
    learn(&mut prog.stat_index, &held.stats);
    learn(&mut prog.layer_index, &held.layers);
    learn(&mut prog.counter_index, &held.counters);
    learn(&mut prog.keyword_index, &held.keywords);
    learn(&mut prog.event_index, &held.events);
    learn(&mut prog.moment_index, &held.moments);
    learn(&mut prog.phase_index, &held.phases);
    learn(&mut prog.action_index, &held.actions);
    held.kinds.iter().for_each(|id| prog.kinds.learn(id));
    let conds = Conds::lower(prog, held.conditions.iter().copied());
    prog.conds = conds;
}

impl<'p> Held<'p> {
    fn block(&mut self, stmts: &'p [Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    fn exprs(&mut self, exprs: impl IntoIterator<Item = &'p Expr>) {
        for e in exprs {
            self.expr(e);
        }
    }

    fn trigger(&mut self, t: &'p ir::Trigger) {
        self.events.push(&t.event);
        self.exprs(t.when.values());
    }

    fn duration(&mut self, d: &'p ir::Duration) {
        match d {
            ir::Duration::Until(m) | ir::Duration::UntilOf { moment: m, .. } => {
                self.moments.push(m)
            }
            ir::Duration::Default | ir::Duration::While(_) => {}
        }
    }

    /// A statement's own ids, then its parts'.
    fn stmt(&mut self, s: &'p Stmt) {
        match s {
            Stmt::Move { state, .. } => self.states.extend(state.as_deref()),
            Stmt::SetState {
                state, duration, ..
            } => {
                self.states.push(state);
                self.duration(duration);
            }
            Stmt::ClearState { state, .. } => self.states.push(state),
            Stmt::AliasZone {
                becomes, duration, ..
            } => {
                self.zones.push(becomes);
                self.duration(duration);
            }
            Stmt::Modify {
                stat,
                layer,
                duration,
                ..
            } => {
                self.stats.push(stat);
                self.layers.push(layer);
                self.duration(duration);
            }
            Stmt::Count { counter, .. } => self.counters.push(counter),
            Stmt::Grant {
                keyword, duration, ..
            }
            | Stmt::RemoveKeyword {
                keyword, duration, ..
            }
            | Stmt::PlayerKeyword {
                keyword, duration, ..
            } => {
                self.keywords.push(keyword);
                self.duration(duration);
            }
            Stmt::Negate { duration, .. } => self.duration(duration),
            Stmt::Call {
                duration: Some(d), ..
            } => self.duration(d),
            Stmt::Cancel { event, .. } | Stmt::Emit { event, .. } => self.events.push(event),
            Stmt::Phase { phase, .. } => self.phases.push(phase),
            Stmt::Reach { moment } | Stmt::ReachOf { moment, .. } => self.moments.push(moment),
            Stmt::Resolve { kind, .. } => self.kinds.push(kind),
            Stmt::Window { entries, .. } => {
                for e in entries {
                    match e {
                        ir::WindowEntry::Action(a) => self.actions.push(a),
                        ir::WindowEntry::Abilities { kind, .. } => self.kinds.push(kind),
                    }
                }
            }
            _ => {}
        }
        s.each_child(&mut |child| match child {
            StmtChild::Expr(e) => self.expr(e),
            StmtChild::Block(b) => self.block(b),
        });
    }

    /// An expression's own ids, then its parts'.
    fn expr(&mut self, e: &'p Expr) {
        match e {
            Expr::Zone { zone, .. } => self.zones.push(zone),
            Expr::Stat { stat, .. } | Expr::Printed { stat, .. } => self.stats.push(stat),
            Expr::Modified { stat, layer, .. } => {
                self.stats.push(stat);
                self.layers.extend(layer.as_deref());
            }
            Expr::Counter { counter, .. } => self.counters.push(counter),
            Expr::HasKeyword { keyword, .. }
            | Expr::KeywordValue { keyword, .. }
            | Expr::PlayerHas { keyword, .. } => self.keywords.push(keyword),
            Expr::HasAbility { kind, .. } | Expr::Usable { kind, .. } => self.kinds.push(kind),
            Expr::Cancelled { event, .. } => self.events.push(event),
            Expr::Happened { pattern, since, .. } => {
                self.events.push(&pattern.event);
                self.moments.extend(since.as_deref());
            }
            Expr::InState { state, .. } => self.states.push(state),
            Expr::Filter { condition, .. } => self.conditions.push(condition),
            _ => {}
        }
        e.each_child(&mut |child| self.expr(child));
    }
}

/// Where a text lies: its first byte's address and its length.
fn address(id: &str) -> (usize, usize) {
    (id.as_ptr().addr(), id.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_found_by_address_and_by_text_alike() {
        let held = String::from("g:frozen");
        let mut names: Names<u16> = [(Id::from("g:frozen"), 3), (Id::from("g:glowing"), 5)]
            .into_iter()
            .collect();
        names.learn(&held);
        names.learn("g:unknown");
        names.learn("");
        assert_eq!(names.learned(), 1);
        assert_eq!(names.get(&held), Some(&3));
        // another text with the same bytes, and a part of the held text (same address,
        // shorter): each answered by its own text
        assert_eq!(names.get(&String::from("g:frozen")), Some(&3));
        assert_eq!(names.get(&held[..2]), None);
        assert_eq!(names.get("g:glowing"), Some(&5));
        assert_eq!(names.get("g:unknown"), None);
    }
}
