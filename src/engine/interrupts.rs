//! Interrupt rules (`rule … interrupt { … }`, docs/language.md "Game flow"): right after every
//! change the game makes, before the statement that made it goes on, every interrupt rule runs
//! once per player (as `you`, in turn order from the turn player), round after round until a
//! round changes nothing. They also run first at every check timing.
//!
//! After each step of the VM that changed the game (its generation moved on), [`Game::step`]
//! pushes an [`Frame::Interrupt`] on top of the frames: the statement's own frames, and the rest
//! of the statement, wait below it. A statement that makes several single changes (a move of
//! several cards, a state or counter change of several subjects, a zone read as another for
//! several players) makes them one per step ([`Frame::Changes`]), so the rules run between two.
//! Changes made while interrupt rules run do not start another interrupt: the next round sees
//! them. Inside `simultaneously` the changes count as one: the rules run once the block ends.
//! A ruleset without interrupt rules pays one test per step ([`Program::has_interrupts`]).
//!
//! [`Program::has_interrupts`]: super::Program::has_interrupts

use super::state::{CardId, Outcome, Seat, Until, Value, ZoneKey};
use super::{Frame, Frames, Game};
use crate::ir::{Face, Position};

/// Rounds of the interrupt rules after one change: a round that still changes the game after
/// this many is an unavoidable loop, and the game ends as a draw.
pub(super) const MAX_INTERRUPT_ROUNDS: u32 = 100;

/// The single changes of one statement still to make, next last (a [`Frame::Changes`]).
#[derive(Debug, Clone)]
pub(super) struct Changes<'p> {
    /// The changes left, the next one last.
    left: Vec<Change<'p>>,
}

/// One single change a statement makes, everything it needs read already.
#[derive(Debug, Clone)]
pub(super) enum Change<'p> {
    /// A card moves (replacement effects may apply).
    Move {
        /// The card.
        card: CardId,
        /// Where to, as the statement named it (read through aliases when the card moves).
        to: Value,
        /// Top or bottom.
        position: Option<Position>,
        /// The face it arrives with.
        face: Option<Face>,
        /// The state it arrives in.
        state: Option<&'p str>,
        /// The slot it arrives in.
        slot: Option<String>,
    },
    /// A card takes a state (index).
    SetState(CardId, u16),
    /// A card leaves a state (index, id).
    ClearState(CardId, u16, &'p str),
    /// A counter of a player or a card changes.
    Counter(CounterChange<'p>),
    /// A player's zone is read as another.
    Alias {
        /// The zone read as another.
        from: ZoneKey,
        /// The zone it is read as.
        to: ZoneKey,
        /// Until when.
        until: Until,
    },
}

/// Whose counter a counter change changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Subject {
    /// A player's.
    Player(Seat),
    /// A card's.
    Card(CardId),
}

/// `x.counter op amount` for one subject.
#[derive(Debug, Clone)]
pub(super) struct CounterChange<'p> {
    /// Whose counter.
    pub(super) subject: Subject,
    /// The counter's index.
    pub(super) counter: u16,
    /// Its id (for the log).
    pub(super) id: &'p str,
    /// `=`, `+=` or `-=`.
    pub(super) op: &'p str,
    /// The amount.
    pub(super) amount: i64,
}

impl<'p> Game<'p> {
    /// Whether a statement making `n` single changes makes them one per step: when there are
    /// several and the ruleset has interrupt rules (else it makes them all at once).
    pub(super) fn one_change_per_step(&self, n: usize) -> bool {
        n > 1 && self.prog.has_interrupts()
    }

    /// Makes a statement's first single change now, the others one per step below the frames
    /// the first asks for.
    pub(super) fn make_changes(&mut self, changes: Vec<Change<'p>>) -> Frames<'p> {
        let mut left = changes;
        left.reverse();
        let first = left.pop();
        let mut out: Frames<'p> = smallvec::smallvec![Frame::Changes(Box::new(Changes { left }))];
        if let Some(c) = first {
            out.extend(self.make_change(c));
        }
        out
    }

    /// One step of a [`Frame::Changes`]: its next change (the frame ends with its last).
    pub(super) fn changes_step(&mut self) {
        let Some(Frame::Changes(c)) = self.frames.last_mut() else {
            return;
        };
        let next = c.left.pop();
        if c.left.is_empty() {
            self.frames.pop();
        }
        if let Some(change) = next {
            let f = self.make_change(change);
            self.frames.extend(f);
        }
    }

    /// Makes one single change; the frames it asks for (a replacement effect's).
    fn make_change(&mut self, change: Change<'p>) -> Frames<'p> {
        match change {
            Change::Move {
                card,
                to,
                position,
                face,
                state,
                slot,
            } => return self.move_to(card, &to, (position, face, state), slot),
            Change::SetState(card, state) => self.set_state(card, state),
            Change::ClearState(card, state, id) => self.clear_state(card, state, id),
            Change::Counter(c) => self.change_counter(&c),
            Change::Alias { from, to, until } => self.alias_zone(from, to, until),
        }
        Frames::new()
    }

    /// After a step of the VM: when it changed the game, the interrupt rules run next — unless
    /// they are running already (their next round sees it), a `simultaneously` is open (they
    /// run when it ends), or the game is over.
    pub(super) fn interrupt_after_change(&mut self) {
        if self.interrupt_due() {
            self.push_interrupt_frame();
        }
    }

    /// Whether [`Game::interrupt_after_change`] would start the interrupt rules now (for a
    /// program that has some).
    pub(super) fn interrupt_due(&self) -> bool {
        self.state.generation != self.interrupts_seen
            && self.state.outcome.is_none()
            && self.batch.is_empty()
            && !self.in_interrupt()
    }

    /// Whether interrupt rules are running (a [`Frame::Interrupt`] is on the stack): the one
    /// pushed last is still where it was pushed (frames under it stay while it is there, and
    /// none is pushed while one is on the stack).
    pub(super) fn in_interrupt(&self) -> bool {
        let on = matches!(
            self.frames.get(self.interrupt_at),
            Some(Frame::Interrupt { .. })
        );
        debug_assert_eq!(
            on,
            self.frames
                .iter()
                .any(|f| matches!(f, Frame::Interrupt { .. })),
            "the interrupt frame is where it was pushed"
        );
        on
    }

    /// Pushes the interrupt rules starting their first round now.
    pub(super) fn push_interrupt_frame(&mut self) {
        self.interrupt_at = self.frames.len();
        self.frames.push(Frame::Interrupt {
            rule: 0,
            player: 0,
            generation: self.state.generation,
            rounds: 0,
        });
    }

    /// One step of the interrupt rules: the next rule for the next player; after the last, the
    /// rules again if the round changed the game (the game ends as a draw after
    /// [`MAX_INTERRUPT_ROUNDS`] rounds that all did), or the end of them.
    ///
    /// As at a check timing, a run that would change nothing ([`Game::rule_unchanged`]) is
    /// passed over in this same step, each counting as the step it took before runs were
    /// passed over in one step: the step limit falls where it did.
    pub(super) fn interrupt_step(&mut self) {
        self.end_rule_run();
        let prog = self.prog;
        let generation_now = self.state.generation;
        if !self.next_rule_runs(&prog.interrupt_rules) {
            return;
        }
        let Some(Frame::Interrupt {
            rule,
            player,
            generation,
            rounds,
        }) = self.frames.last_mut()
        else {
            return;
        };
        if generation_now == *generation {
            self.frames.pop();
            self.interrupts_seen = generation_now;
            return;
        }
        *rounds = rounds.saturating_add(1);
        if *rounds >= MAX_INTERRUPT_ROUNDS {
            self.frames.pop();
            self.note(format!(
                "an unavoidable loop: the interrupt rules still changed the game after \
                 {MAX_INTERRUPT_ROUNDS} rounds; the game is a draw"
            ));
            self.end(Outcome::Draw);
            return;
        }
        *generation = generation_now;
        *rule = 0;
        *player = 0;
    }
}
