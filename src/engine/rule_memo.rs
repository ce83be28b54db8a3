//! Check rules run again only when something they read changed.
//!
//! A check timing runs every check rule for every player, round after round while a round
//! changes the game. Most runs change nothing: the rule looks at a few zones and finds nothing
//! to do. While a rule runs, the engine records what it reads, coarsely: the zones whose cards
//! it listed (the cards' states, counters, stats and other attributes go with their zone), the
//! players' counters and keywords, the values continuous effects and one-shot modifiers give
//! (stats, keywords, abilities), the event history and the moments reached, the turn and the
//! turn player. A run that changed nothing is remembered with what it read; the next time the
//! rule would run for that player, it is skipped when none of that changed since: it would read
//! the same things and change nothing again.
//!
//! Every change to the game says what it touched ([`Touched`]): the zone of the card it changed
//! (and of the card it is set on), both zones of a move, a zone's order, a moment, the players,
//! or everything. A change of a card's states or of a card's counter also says which: a rule's
//! memo outlives such a change in the zones it listed when the rule cannot read those states
//! or that counter (`rule_reads.rs` finds which it can, once, from its IR). No stamp is even
//! looked at for a memo known to stand ([`Standing`]): each change drops the memos that read
//! what it touched (a zone, in a way they could read; the players; the history; the turn),
//! so a round passes over the other rules at once. Reading anything
//! the recording does not follow (a choice, a random pick, an ability's uses, a slot, an
//! event's parameters…) or running any statement other than `let`, `if`, `for each`,
//! `repeat`, `while` and a call of a verb or procedure (whose body's statements count one by
//! one as they run) makes the run unskippable; the two classifications are exhaustive
//! matches, so a new expression or statement must be placed.
//!
//! Interrupt rules are remembered and skipped the same way, each time they would run after a
//! change (`interrupts.rs`).
//!
//! A ruleset action's offers to a player (its candidates meeting its `if`, `window.rs`) are
//! recorded the same way: the next time a window offers that action to that player, the
//! offers are those of the last reading when nothing it read changed since.
//!
//! The derivation of continuous abilities (`layers.rs`) is recorded the same way, with the
//! zones where the cards that have one may give it and the zones of those there: a card
//! elsewhere (in a deck, say) gives nothing, so nothing of it is read, and a draw leaves the
//! derivation standing. After a change, the abilities are read again only when
//! something the last reading read changed (a state or counter of cards no continuous
//! ability names set aside, as for a rule). A reading that read what continuous abilities give
//! (its own results) or anything not followed is not remembered.

use super::layers::DeriveMemo;
use super::program::Program;
use super::rule_reads::CardReads;
use super::state::{CardId, Seat, Until, ZoneKey};
use super::{Game, Offer};
use crate::ir::{Expr, Stmt};
use smallvec::SmallVec;
use std::rc::Rc;

/// When each part of the game last changed, on a clock of changes ([`Stamps::tick`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Stamps {
    /// The clock: one tick per change.
    tick: u64,
    /// Per zone slot (`State::slot`).
    slots: Vec<SlotStamps>,
    /// Per zone slot, [`Stamps::width`] entries: per state (by index), when a card of the
    /// slot last took or left it; then per counter, when a card's moved.
    parts: Vec<u64>,
    /// The number of states: where a slot's counters begin in `parts`.
    states: usize,
    /// A slot's entries in `parts`: the states, then the counters.
    width: usize,
    /// The players' counters and keywords.
    players: u64,
    /// The modifiers continuous abilities produce (compared after each derivation).
    derived: u64,
    /// The moments reached (what `happened … since` counts from).
    moments: u64,
    /// Which cards are set on which (`Game::hosts_now` is cached by it).
    pub(super) hosts: u64,
    /// Anything else (durations ending, zone aliases, cancellations…): every memo is stale.
    everything: u64,
    /// Per zone slot: a change no memo reads (a card becoming known to a player), which the
    /// loop fingerprint's zones (`loops.rs`) still see.
    unread: Vec<u64>,
    /// Per card (by id): the last change to the card itself, read or not (what the loop
    /// fingerprint hashes of it; `loops.rs` keeps each card's hash while it is unchanged).
    /// Cards are all made when the game is set up, before any hash is taken.
    cards: Vec<u64>,
    /// Per zone slot: the last change to cards of the slot not told card by card (what the
    /// players know of a shuffled zone's cards).
    contents: Vec<u64>,
    /// The rule memos known to stand: nothing they read changed (see [`Standing`]).
    standing: Standing,
}

/// The rule memos (the first 64, by memo index: rule × players + seat) nothing they read
/// changed for since they were taken or last found unchanged (what continuous abilities give
/// aside), kept up to date as the game changes: a check round passes over such a rule
/// without reading a stamp (a round looks at every rule for every player, many times a turn,
/// and few changes touch what a given rule reads).
#[derive(Debug, Clone, Default)]
struct Standing {
    /// One bit a memo: nothing it read changed in a way it could read.
    holds: u64,
    /// The memos that read the turn's number or the turn player.
    turn: u64,
    /// The memos that read the players' counters or keywords.
    players: u64,
    /// The memos that read the event history or the moments reached.
    history: u64,
    /// The memos that read what continuous abilities give (read again at each look: they
    /// may have to be derived again first).
    derived: u64,
    /// Per zone slot: the memos that read it (bits; a memo taken again clears its old ones).
    readers: Vec<u64>,
    /// Per memo: the states and counters of cards its rule can read (`CardReads`; every bit
    /// when that is not known), as a stamp of one of them is read against (the program's:
    /// shared by a game's clones).
    parts: Rc<[(u64, u64)]>,
}

impl Standing {
    /// A change to zone slot `slot` (`part` of its cards): the memos reading it that could
    /// read this change stand no longer.
    fn changed(&mut self, slot: usize, part: Part, (states, width): (usize, usize)) {
        let readers = self.readers.get(slot).copied().unwrap_or(0) & self.holds;
        if readers == 0 {
            return;
        }
        let parts = &self.parts;
        let reads = |i: usize, f: &dyn Fn((u64, u64)) -> bool| parts.get(i).copied().is_none_or(f);
        let gone = match part {
            Part::Other => readers,
            // a state past the table is stamped as any other change (Stamps::stamp_states)
            Part::States(bits) => set_bits(readers)
                .filter(|&i| {
                    bits.checked_shr(u32::try_from(states).unwrap_or(u32::MAX))
                        .unwrap_or(0)
                        != 0
                        || reads(i, &|(s, _)| s & bits != 0)
                })
                .fold(0, |g, i| g | 1u64 << i),
            // a counter past the table is stamped as any other change (Stamps::stamp_part)
            Part::Counter(k) if states.saturating_add(usize::from(k)) >= width => readers,
            Part::Counter(k) => set_bits(readers)
                .filter(|&i| {
                    reads(i, &|(_, c)| {
                        1u64.checked_shl(u32::from(k))
                            .is_none_or(|bit| c & bit != 0)
                    })
                })
                .fold(0, |g, i| g | 1u64 << i),
        };
        self.holds &= !gone;
    }

    /// Memo `i` was taken again (`reads`, or none): its old zones (`before`) no longer name
    /// it; it stands, reading the new ones.
    fn taken(&mut self, i: usize, before: Option<&Reads>, reads: Option<&Reads>) {
        let Some(bit) = memo_bit(i) else {
            return;
        };
        fn slots_of(r: &Reads) -> impl Iterator<Item = usize> + '_ {
            set_bits(r.slots_below_64).chain(r.slots_from_64.iter().map(|&k| usize::from(k)))
        }
        if let Some(b) = before {
            for k in slots_of(b) {
                if let Some(r) = self.readers.get_mut(k) {
                    *r &= !bit;
                }
            }
        }
        for set in [
            &mut self.holds,
            &mut self.turn,
            &mut self.players,
            &mut self.history,
            &mut self.derived,
        ] {
            *set &= !bit;
        }
        let Some(reads) = reads else { return };
        for k in slots_of(reads) {
            if self.readers.len() <= k {
                self.readers.resize(k.saturating_add(1), 0);
            }
            self.readers[k] |= bit;
        }
        let flags = [
            (&mut self.turn, reads.turn),
            (&mut self.players, reads.players),
            (&mut self.history, reads.history),
            (&mut self.derived, reads.derived),
        ];
        for (set, read) in flags {
            if read {
                *set |= bit;
            }
        }
        self.holds |= bit;
    }

    /// Whether memo `i` reads what continuous abilities give.
    fn reads_derived(&self, i: usize) -> bool {
        memo_bit(i).is_some_and(|bit| self.derived & bit != 0)
    }

    /// Whether memo `i` stands.
    fn holds(&self, i: usize) -> bool {
        memo_bit(i).is_some_and(|bit| self.holds & bit != 0)
    }

    /// Memo `i` was found unchanged by reading its zones' stamps: it stands again.
    fn found(&mut self, i: usize) {
        if let Some(bit) = memo_bit(i) {
            self.holds |= bit;
        }
    }
}

/// Memo `i`'s bit in [`Standing`]'s sets (`None` from the 65th memo on: those never stand).
pub(super) fn memo_bit(i: usize) -> Option<u64> {
    u32::try_from(i).ok().and_then(|i| 1u64.checked_shl(i))
}

impl Stamps {
    /// Per card (by id), the last change to the card itself (a card past the end: none).
    pub(super) fn card_stamps(&self) -> &[u64] {
        &self.cards
    }

    /// Card `c` itself changed at tick `t`.
    fn card_changed(&mut self, c: CardId, t: u64) {
        stamp_at(&mut self.cards, c as usize, t);
    }

    /// Zone slot `slot`'s entries for the states whose bits `bits` has, stamped `t`.
    fn stamp_states(&mut self, slot: usize, bits: u64, t: u64) {
        for i in set_bits(bits) {
            // a state past the table (none is): as any other change
            self.stamp_part(slot, if i < self.states { i } else { self.width }, t);
        }
    }

    /// Zone slot `slot`'s entry `i` in `parts` stamped `t`; one past the table (`width`: no
    /// such state or counter) stamps the slot's other changes instead.
    fn stamp_part(&mut self, slot: usize, i: usize, t: u64) {
        let entry = (i < self.width)
            .then(|| slot.saturating_mul(self.width).saturating_add(i))
            .and_then(|at| self.parts.get_mut(at));
        match entry {
            Some(p) => *p = t,
            None => {
                if let Some(s) = self.slots.get_mut(slot) {
                    s.other = t;
                }
            }
        }
    }
}

/// When a zone slot last changed.
#[derive(Debug, Clone, Copy, Default)]
struct SlotStamps {
    /// Its cards, their order, and anything of theirs.
    any: u64,
    /// The same, but for a card taking or leaving a state and a card's counter moving (those
    /// are stamped in [`Stamps::parts`]).
    other: u64,
}

/// What one change to the game touched.
#[derive(Debug, Clone, Copy)]
pub(super) enum Touched {
    /// Something of one card (a modifier, its face, its host…): its zone, and the zone of the
    /// card it is set on (whose carried abilities it gives).
    Card(CardId),
    /// A card took or left states (one bit each, by index), as [`Touched::Card`] touches it.
    States(CardId, u64),
    /// A card's counter (by index) moved, as [`Touched::Card`] touches it.
    Counter(CardId, u16),
    /// A card moved between two zones (or within one), leaving the card it was set on (if any).
    Move {
        card: CardId,
        from: ZoneKey,
        to: ZoneKey,
        host: Option<CardId>,
    },
    /// A zone's order (a shuffle).
    Zone(ZoneKey),
    /// A moment was reached (nothing it ends ended).
    Moment,
    /// A player's counter or keyword.
    Players,
    /// Anything else. (Not the cards' own fields: a card changed with it is told as well
    /// (`Game::card_itself_changed`), since a card's loop hash is kept through it.)
    Everything,
}

/// What a rule's run read so far.
#[derive(Debug, Clone, Default)]
pub(super) struct Reads {
    /// The zone slots below 64 whose cards it listed, one bit each.
    slots_below_64: u64,
    /// The zone slots from 64 on whose cards it listed (no game has that many yet).
    slots_from_64: SmallVec<[u16; 2]>,
    /// The players' counters or keywords.
    players: bool,
    /// Stats, keywords, abilities: what modifiers and continuous abilities give.
    derived: bool,
    /// The event history (what happened since) and the moments reached.
    history: bool,
    /// The turn's number or the turn player.
    turn: bool,
    /// Something the recording does not follow: the run is not remembered.
    everything: bool,
}

/// A rule's run that changed nothing, and what it read.
#[derive(Debug, Clone)]
pub(super) struct RuleMemo {
    reads: Reads,
    /// The clock when it ended.
    tick: u64,
    /// The turn's number and the turn player then.
    turn: (u32, Seat),
    /// The history's length then.
    history: usize,
}

/// A ruleset action's offers to a player, kept with what reading them read.
#[derive(Debug, Clone)]
pub(super) struct OffersMemo {
    memo: RuleMemo,
    offers: Vec<Offer>,
}

/// A check rule running now, recorded: whose run, the game as it began, what it read so far.
#[derive(Debug, Clone)]
pub(super) struct RuleRun {
    /// Index into the rule memos.
    memo: usize,
    /// The frame depth the check timing's frame is at: the run is over when that frame is on
    /// top again.
    depth: usize,
    began: super::triggers::RulesKey,
    /// A run made though its memo said it would change nothing (`verify_rule_skips`).
    expected_quiet: bool,
    reads: Reads,
}

/// What reading one expression node reads of the game, besides its operands (read as nodes
/// of their own) and the cards of the zones it names (recorded where a zone's cards are read)
/// or finds by a relation (`host`, `attached`: their zones are recorded where they are found).
#[derive(Clone, Copy)]
enum NodeRead {
    /// Nothing but its operands, the cards they name and their attributes.
    Nothing,
    /// What modifiers and continuous abilities give.
    Derived,
    /// A player's counter or a card's (its zone is recorded with the card).
    Players,
    /// A player's keywords, continuous ones included.
    PlayersDerived,
    /// The event history.
    History,
    /// The turn's number or the turn player.
    Turn,
    /// Something not followed.
    Everything,
}

/// See [`NodeRead`].
#[inline(always)]
fn node_read(e: &Expr) -> NodeRead {
    match e {
        Expr::Int(_)
        | Expr::Text(_)
        | Expr::Bool(_)
        | Expr::Pair(_)
        | Expr::This
        | Expr::It
        | Expr::Candidate(_)
        | Expr::You
        | Expr::Opponent
        | Expr::DeckFormat
        | Expr::Var(_)
        | Expr::Zone { .. }
        | Expr::Field { .. }
        | Expr::Owner(_)
        | Expr::Controller(_)
        | Expr::OpponentOf(_)
        | Expr::Min(..)
        | Expr::Max(..)
        | Expr::Not(_)
        | Expr::Neg(_)
        | Expr::Binary { .. }
        | Expr::Coalesce(..)
        | Expr::Contains { .. }
        | Expr::SameCard(..)
        | Expr::FaceIs { .. }
        | Expr::Distinct { .. }
        | Expr::Total { .. }
        | Expr::InState { .. }
        | Expr::OfType { .. }
        | Expr::IsKind { .. }
        | Expr::Filter { .. }
        | Expr::Printed { .. }
        | Expr::List(_)
        | Expr::Count(_)
        | Expr::Attached(_)
        | Expr::Host(_) => NodeRead::Nothing,
        Expr::Stat { .. }
        | Expr::Modified { .. }
        | Expr::HasKeyword { .. }
        | Expr::HasAbility { .. }
        | Expr::HasAttribute { .. }
        | Expr::KeywordValue { .. }
        | Expr::EffectNegated(_) => NodeRead::Derived,
        Expr::Counter { .. } => NodeRead::Players,
        Expr::PlayerHas { .. } => NodeRead::PlayersDerived,
        // the cancellations `cancelled` reads change only by a `cancel` and by an event that
        // lifts one, and both make every memo stale (`Game::cancellations_changed`)
        Expr::Cancelled { .. } => NodeRead::Nothing,
        Expr::Happened { .. } => NodeRead::History,
        Expr::EachPlayer | Expr::TurnNumber | Expr::IsTurnPlayer(_) => NodeRead::Turn,
        Expr::EventParam(_)
        | Expr::Related { .. }
        | Expr::SlotOf(_)
        | Expr::AtSlot { .. }
        | Expr::ChooseSlot { .. }
        | Expr::SlotCandidate(_)
        | Expr::Usable { .. }
        | Expr::TopOf { .. }
        | Expr::Choose { .. }
        | Expr::Declare(_)
        | Expr::RandomCards { .. }
        | Expr::Extreme { .. }
        | Expr::RandomPlayer
        | Expr::RandomNumber { .. } => NodeRead::Everything,
    }
}

/// Whether running a statement reads nothing but its expressions: control flow. Any other
/// statement a run reaches makes it unskippable (even one that happened to change nothing).
fn flow_only(s: &Stmt) -> bool {
    match s {
        Stmt::Let { .. }
        | Stmt::If { .. }
        | Stmt::ForEach { .. }
        | Stmt::Repeat { .. }
        | Stmt::While { .. }
        // a call reads its arguments; its body's statements are noted as they run
        | Stmt::Call { .. } => true,
        Stmt::May { .. }
        | Stmt::Move { .. }
        | Stmt::Attach { .. }
        | Stmt::SetState { .. }
        | Stmt::ClearState { .. }
        | Stmt::AliasZone { .. }
        | Stmt::Modify { .. }
        | Stmt::Count { .. }
        | Stmt::Grant { .. }
        | Stmt::RemoveKeyword { .. }
        | Stmt::PlayerKeyword { .. }
        | Stmt::Reveal { .. }
        | Stmt::Look { .. }
        | Stmt::Shuffle { .. }
        | Stmt::Negate { .. }
        | Stmt::Cancel { .. }
        | Stmt::TreatAs { .. }
        | Stmt::Script { .. }
        | Stmt::Emit { .. }
        | Stmt::ChooseOne { .. }
        | Stmt::Win { .. }
        | Stmt::Lose { .. }
        | Stmt::DrawGame
        | Stmt::GoesFirst { .. }
        | Stmt::Flip { .. }
        | Stmt::Simultaneously { .. }
        | Stmt::Phase { .. }
        | Stmt::Window { .. }
        | Stmt::Chain { .. }
        | Stmt::Resolve { .. }
        | Stmt::Check
        | Stmt::Reach { .. }
        | Stmt::ReachOf { .. } => false,
    }
}

impl<'p> Game<'p> {
    /// Marks the game changed: computed characteristics are read again, and the part of the
    /// game `what` names is stamped (rule memos that read it are stale).
    pub(super) fn changed(&mut self, what: Touched) {
        self.state.generation = self.state.generation.saturating_add(1);
        let t = self.next_tick();
        match what {
            Touched::Card(c) => self.stamp_card_and_host(c, t, Part::Other),
            Touched::States(c, states) => self.stamp_card_and_host(c, t, Part::States(states)),
            Touched::Counter(c, k) => self.stamp_card_and_host(c, t, Part::Counter(k)),
            Touched::Move {
                card,
                from,
                to,
                host,
            } => {
                self.stamps.card_changed(card, t);
                self.stamp_zone(from, t);
                self.stamp_zone(to, t);
                if let Some(h) = host {
                    self.stamp_card(h, t, Part::Other);
                    self.stamps.hosts = t;
                }
            }
            Touched::Zone(k) => self.stamp_zone(k, t),
            Touched::Moment => {
                self.stamps.moments = t;
                let standing = &mut self.stamps.standing;
                standing.holds &= !standing.history;
            }
            Touched::Players => {
                self.stamps.players = t;
                let standing = &mut self.stamps.standing;
                standing.holds &= !standing.players;
            }
            Touched::Everything => {
                // attaching, and a host's leaving, touch everything
                self.stamps.everything = t;
                self.stamps.hosts = t;
                self.stamps.standing.holds = 0;
            }
        }
    }

    /// An event was added to the history: the memos that read it stand no longer.
    pub(super) fn history_grew(&mut self) {
        let standing = &mut self.stamps.standing;
        standing.holds &= !standing.history;
    }

    /// The turn or the turn player changed: the memos that read them stand no longer.
    pub(super) fn turn_changed(&mut self) {
        let standing = &mut self.stamps.standing;
        standing.holds &= !standing.turn;
    }

    /// The clock moved on one change.
    fn next_tick(&mut self) -> u64 {
        self.stamps.tick = self.stamps.tick.saturating_add(1);
        self.stamps.tick
    }

    /// A card's zone, and the zone of the card it is set on, stamped with what changed (and
    /// the card itself).
    fn stamp_card_and_host(&mut self, c: CardId, t: u64, part: Part) {
        self.stamps.card_changed(c, t);
        self.stamp_card(c, t, part);
        if let Some(h) = self.state.cards[c as usize].host {
            self.stamp_card(h, t, part);
        }
    }

    fn stamp_card(&mut self, c: CardId, t: u64, part: Part) {
        let k = self.state.cards[c as usize].zone;
        self.stamp_slot(self.state.slot(k), t, part);
    }

    fn stamp_zone(&mut self, k: ZoneKey, t: u64) {
        self.stamp_slot(self.state.slot(k), t, Part::Other);
    }

    fn stamp_slot(&mut self, slot: usize, t: u64, part: Part) {
        let s = &mut self.stamps;
        let Some(at) = s.slots.get_mut(slot) else {
            // a slot past the table (no game has one): no memo may trust it
            s.everything = t;
            s.standing.holds = 0;
            return;
        };
        at.any = t;
        s.standing.changed(slot, part, (s.states, s.width));
        match part {
            Part::Other => at.other = t,
            Part::States(bits) => s.stamp_states(slot, bits, t),
            Part::Counter(k) => s.stamp_part(slot, s.states.saturating_add(usize::from(k)), t),
        }
    }

    /// A card changed in a way no memo reads (see [`Stamps::unread`]): it and its zone are
    /// stamped.
    pub(super) fn changed_unread_card(&mut self, c: CardId) {
        let t = self.stamp_unread(self.state.slot(self.state.cards[c as usize].zone));
        self.stamps.card_changed(c, t);
    }

    /// Cards of zone slot `slot` changed in a way no memo reads (see [`Stamps::unread`]),
    /// which cards not told.
    pub(super) fn changed_unread(&mut self, slot: usize) {
        let t = self.stamp_unread(slot);
        stamp_at(&mut self.stamps.contents, slot, t);
    }

    /// Zone slot `slot` stamped as changed in a way no memo reads; the tick it took.
    fn stamp_unread(&mut self, slot: usize) -> u64 {
        let t = self.next_tick();
        stamp_at(&mut self.stamps.unread, slot, t);
        t
    }

    /// The last change to anything of zone slot `slot` (its cards, their order, anything of
    /// theirs, things no memo reads included), and the clock now.
    pub(super) fn slot_changed_at(&self, slot: usize) -> (u64, u64) {
        let s = &self.stamps;
        let last = s
            .slots
            .get(slot)
            .map_or(u64::MAX, |s| s.any)
            .max(s.everything)
            .max(s.unread.get(slot).copied().unwrap_or(0));
        (last, s.tick)
    }

    /// The last change to anything of every card of zone slot `slot` (its cards' changes not
    /// told card by card), and the clock now: with [`Stamps::card_stamps`], a card's loop
    /// hash taken at a later tick than both is still good.
    pub(super) fn cards_changed_at(&self, slot: usize) -> (u64, u64) {
        let s = &self.stamps;
        (s.contents.get(slot).copied().unwrap_or(0), s.tick)
    }

    /// Card `c`'s own fields changed with a change told otherwise (as [`Touched::Everything`],
    /// which does not stamp them, or as another card's move): its loop hash is taken again.
    pub(super) fn card_itself_changed(&mut self, c: CardId) {
        let t = self.next_tick();
        self.stamps.card_changed(c, t);
    }

    /// The memos' clock now: one tick per change.
    pub(super) fn stamp_now(&self) -> u64 {
        self.stamps.tick
    }

    /// Whether nothing a card's stats are computed from may have changed after `tick`: no
    /// change to its zone but cards taking or leaving states and counters moving (a card's
    /// printed or treated values and its one-shot modifiers are changed by changes to its
    /// zone; a card that moved changed both zones), no change to the modifiers continuous
    /// abilities give, and nothing no memo follows (durations ending, …).
    pub(super) fn stats_inputs_unchanged(&self, c: CardId, tick: u64) -> bool {
        let s = &self.stamps;
        let slot = self.state.slot(self.state.cards[c as usize].zone);
        s.everything <= tick
            && s.derived <= tick
            && s.slots.get(slot).is_some_and(|z| z.other <= tick)
    }

    /// The cancellations (`cancelled(e, x)`) changed: as with anything else no memo follows,
    /// every memo is stale.
    pub(super) fn cancellations_changed(&mut self) {
        let t = self.next_tick();
        self.stamps.everything = t;
        self.stamps.standing.holds = 0;
    }

    /// The modifiers continuous abilities produce were derived again and differ from before.
    pub(super) fn derived_changed(&mut self) {
        let t = self.next_tick();
        self.stamps.derived = t;
    }

    /// What the recorded rule's run (or the derivation of continuous abilities) read so far,
    /// if one is recorded.
    fn recorded_reads(&mut self) -> Option<&mut Reads> {
        match &mut self.rule_run {
            Some(run) => Some(&mut run.reads),
            None => self
                .derived
                .recording
                .as_mut()
                .or(self.offers_recording.as_mut()),
        }
    }

    /// Whether reads are recorded now.
    #[inline(always)]
    pub(super) fn recording(&self) -> bool {
        self.rule_run.is_some()
            || self.derived.recording.is_some()
            || self.offers_recording.is_some()
    }

    /// Whether nothing a memo's reads name changed since it was taken (the values continuous
    /// abilities give aside).
    fn reads_unchanged(&self, m: &RuleMemo, cards: Option<&CardReads>) -> bool {
        let s = &self.stamps;
        s.everything <= m.tick
            && (!m.reads.turn || m.turn == self.turn_key())
            && (!m.reads.players || s.players <= m.tick)
            && (!m.reads.history || (self.state.history.len() == m.history && s.moments <= m.tick))
            && self.slots_unchanged(&m.reads, m.tick, cards)
    }

    /// Whether no zone slot that `reads` listed changed after `tick` (in a way the run could
    /// read, when `cards` says which states and counters of cards it can read).
    fn slots_unchanged(&self, reads: &Reads, tick: u64, cards: Option<&CardReads>) -> bool {
        // a slot that did not change at all is the common case: its parts are read only
        // when it changed
        let unchanged = |k: usize| {
            self.stamps.slots.get(k).is_some_and(|s| {
                s.any <= tick
                    || (s.other <= tick && cards.is_some_and(|c| self.parts_unchanged(k, c, tick)))
            })
        };
        set_bits(reads.slots_below_64).all(unchanged)
            && reads
                .slots_from_64
                .iter()
                .all(|&k| unchanged(usize::from(k)))
    }

    /// Whether no card of zone slot `k` took or left a state, or had a counter moved, that
    /// `cards` names, after `tick`.
    #[inline(never)]
    fn parts_unchanged(&self, k: usize, cards: &CardReads, tick: u64) -> bool {
        let s = &self.stamps;
        let base = k.saturating_mul(s.width);
        let part_unchanged = |i: usize| {
            s.parts
                .get(base.saturating_add(i))
                .is_some_and(|&t| t <= tick)
        };
        set_bits(cards.states).all(part_unchanged)
            && set_bits(cards.counters).all(|k| part_unchanged(s.states.saturating_add(k)))
    }

    /// A memo of what a run that ends now read: with the clock, the turn and the history's
    /// length it is compared against later.
    fn memo_now(&self, reads: Reads) -> RuleMemo {
        RuleMemo {
            reads,
            tick: self.stamps.tick,
            turn: self.turn_key(),
            history: self.state.history.len(),
        }
    }

    /// The memo of a derivation of continuous abilities that read `reads`: none when it read
    /// what is not followed, or what continuous abilities give (its own results).
    pub(super) fn derive_memo(&self, reads: Reads) -> Option<DeriveMemo> {
        (!reads.everything && !reads.derived).then(|| DeriveMemo {
            reads: self.memo_now(reads),
            cards: self.state.cards.len(),
        })
    }

    /// Whether deriving the continuous abilities again would give what the last derivation
    /// gave: nothing it read changed since, no card was added, and no modifier lasts `while`
    /// something holds.
    pub(super) fn derivation_unchanged(&self) -> bool {
        self.derived.memo.as_ref().is_some_and(|m| {
            m.cards == self.state.cards.len()
                && self.reads_unchanged(&m.reads, self.prog.continuous_reads.as_ref())
                && !self.any_while_duration()
        })
    }

    /// Records that the running rule read an expression node (when a rule is recorded).
    #[inline(always)]
    pub(super) fn note_read(&mut self, e: &Expr) {
        if self.recording() {
            // most nodes read nothing of their own: a table lookup, no call
            let read = node_read(e);
            if !matches!(read, NodeRead::Nothing) {
                self.record_read(read);
            }
        }
    }

    /// [`Game::note_read`] of a node that reads `read`, while reads are recorded.
    #[inline(never)]
    fn record_read(&mut self, read: NodeRead) {
        let Some(r) = self.recorded_reads() else {
            return;
        };
        match read {
            NodeRead::Nothing => {}
            NodeRead::Derived => r.derived = true,
            NodeRead::Players => r.players = true,
            NodeRead::PlayersDerived => {
                r.players = true;
                r.derived = true;
            }
            NodeRead::History => r.history = true,
            NodeRead::Turn => r.turn = true,
            NodeRead::Everything => r.everything = true,
        }
        if r.derived || r.everything {
            self.stop_useless_derive_recording();
        }
    }

    /// A derivation of continuous abilities that read what is not followed, or their own
    /// results, is not remembered ([`Game::derive_memo`]): its recording stops there.
    fn stop_useless_derive_recording(&mut self) {
        if self.rule_run.is_none() {
            self.derived.recording = None;
        }
    }

    /// Records that the running rule reached a statement (when a rule is recorded).
    #[inline]
    pub(super) fn note_stmt(&mut self, s: &Stmt) {
        if let Some(r) = self.recorded_reads() {
            if !flow_only(s) {
                r.everything = true;
                self.stop_useless_derive_recording();
            }
        }
    }

    /// Records that the running rule listed the cards of a zone (when a rule is recorded).
    pub(super) fn note_zone(&mut self, k: ZoneKey) {
        self.note_slot(self.state.slot(k));
    }

    /// Records that the running rule listed the cards of a zone slot (`State::slot`).
    pub(super) fn note_slot(&mut self, slot: usize) {
        let Some(r) = self.recorded_reads() else {
            return;
        };
        if let Some(bit) = u32::try_from(slot).ok().and_then(|s| 1u64.checked_shl(s)) {
            r.slots_below_64 |= bit;
            return;
        }
        match u16::try_from(slot) {
            Ok(s) if !r.slots_from_64.contains(&s) => r.slots_from_64.push(s),
            Ok(_) => {}
            Err(_) => {
                r.everything = true;
                self.stop_useless_derive_recording();
            }
        }
    }

    /// [`Game::note_slot`] of every slot below 64 whose bit `mask` has.
    pub(super) fn note_slots_below_64(&mut self, mask: u64) {
        if let Some(r) = self.recorded_reads() {
            r.slots_below_64 |= mask;
        }
    }

    /// Records that the running rule found cards by a relation (the card set on one, the cards
    /// set on it): their zones, as if it had listed them (when a rule is recorded).
    pub(super) fn note_zones_of(&mut self, cards: &[CardId]) {
        if !self.recording() {
            return;
        }
        for &c in cards {
            self.note_zone(self.state.cards[c as usize].zone);
        }
    }

    /// The memos (by bit, [`Game::memo_index`]) a check round passes over at once: known to
    /// stand ([`Standing`]) and reading nothing continuous abilities give — none while skips
    /// are verified.
    pub(super) fn passable_memos(&self) -> u64 {
        if self.verify_skips {
            return 0;
        }
        self.stamps.standing.holds & !self.stamps.standing.derived
    }

    /// Where rule `r`'s memo for player `you` sits (and action `r`'s kept offers to `you`).
    pub(super) fn memo_index(&self, you: Seat, r: usize) -> usize {
        r.saturating_mul(self.prog.players())
            .saturating_add(you as usize)
    }

    fn turn_key(&self) -> (u32, Seat) {
        (self.state.turn, self.state.active)
    }

    /// Whether check rule `r`, run for `you`, would change nothing: its last run changed
    /// nothing and nothing it read changed since.
    #[inline]
    pub(super) fn rule_unchanged(&mut self, you: Seat, r: usize) -> bool {
        let i = self.memo_index(you, r);
        let standing = self.stamps.standing.holds(i);
        if standing && !self.verify_skips {
            // nothing it read changed (Standing): but what continuous abilities give, read
            // again (derived again if need be) when it read that
            if !self.stamps.standing.reads_derived(i) {
                return true;
            }
            let Some(tick) = self
                .rule_memos
                .get(i)
                .and_then(Option::as_ref)
                .map(|m| m.tick)
            else {
                return false;
            };
            return self.derived_unchanged(true, tick);
        }
        let prog: &'p Program = self.prog;
        let cards = prog.rule_reads.get(r).and_then(Option::as_ref);
        let Some(m) = self.rule_memos.get(i).and_then(Option::as_ref) else {
            return false;
        };
        let unchanged = self.reads_unchanged(m, cards);
        if standing {
            self.verified_standing = self.verified_standing.saturating_add(1);
            if !unchanged {
                self.failed_checks.push(format!(
                    "a check rule's reads were to be skipped as unchanged, but one changed (rule memo {i})"
                ));
            }
        }
        if !unchanged {
            return false;
        }
        let (derived, tick) = (m.reads.derived, m.tick);
        self.stamps.standing.found(i);
        self.derived_unchanged(derived, tick)
    }

    /// Whether the memo `memo` finds (if any) still holds: nothing it read changed since it
    /// was taken, the values continuous abilities give included (derived again if need be).
    #[inline]
    fn memo_holds(
        &mut self,
        memo: impl Fn(&Self) -> Option<&RuleMemo>,
        cards: Option<&CardReads>,
    ) -> bool {
        let Some(m) = memo(self) else {
            return false;
        };
        if !self.reads_unchanged(m, cards) {
            return false;
        }
        self.derived_unchanged(m.reads.derived, m.tick)
    }

    /// Whether what continuous abilities give is as it was at `tick`, when a memo read it
    /// (`read`; derived again if need be).
    fn derived_unchanged(&mut self, read: bool, tick: u64) -> bool {
        if !read {
            return true;
        }
        // a modifier lasting `while` something holds reads anything: not followed
        if self.any_while_duration() {
            return false;
        }
        self.refresh();
        self.stamps.derived <= tick
    }

    /// The offers of ruleset action `action` to `seat` kept from their last reading, if nothing
    /// that reading read changed since (they are what reading them again would give).
    pub(super) fn kept_offers(&mut self, seat: Seat, action: u16) -> Option<&[Offer]> {
        let i = self.memo_index(seat, usize::from(action));
        if !self.memo_holds(|g| g.offer_memos.get(i)?.as_ref().map(|m| &m.memo), None) {
            return None;
        }
        self.offer_memos
            .get(i)?
            .as_ref()
            .map(|m| m.offers.as_slice())
    }

    /// Starts recording what reading an action's offers reads; `false` (nothing recorded) when
    /// reads are recorded already (a window inside a recorded rule) or a payability check runs.
    pub(super) fn begin_offers_recording(&mut self) -> bool {
        if self.recording() || self.dry.active {
            return false;
        }
        self.offers_recording = Some(Reads::default());
        true
    }

    /// Ends the recording [`Game::begin_offers_recording`] started: the offers of `action` to
    /// `seat` are kept with what they read, unless they read something not followed.
    pub(super) fn end_offers_recording(&mut self, seat: Seat, action: u16, offers: &[Offer]) {
        let Some(reads) = self.offers_recording.take() else {
            return;
        };
        let memo = (!reads.everything).then(|| OffersMemo {
            memo: self.memo_now(reads),
            offers: offers.to_vec(),
        });
        let i = self.memo_index(seat, usize::from(action));
        if let Some(slot) = self.offer_memos.get_mut(i) {
            *slot = memo;
        }
    }

    /// Notes whether offers kept as unchanged (`kept`) are those read again (`read`): a test
    /// of the memo ([`Game::verify_rule_skips`]).
    pub(super) fn verify_kept_offers(&mut self, action: u16, kept: &[Offer], read: &[Offer]) {
        self.verified_offers = self.verified_offers.saturating_add(1);
        if kept != read {
            self.failed_checks.push(format!(
                "an action's offers were to be skipped as unchanged, but reading them again gave \
                 other offers (action {action}: kept {kept:?}, read {read:?})"
            ));
        }
    }

    fn any_while_duration(&self) -> bool {
        let while_ = |u: &Until| matches!(u, Until::While(_));
        self.state.modifiers.iter().any(|m| while_(&m.until))
            || self.state.player_keywords.iter().any(|k| while_(&k.until))
    }

    /// Starts recording check rule `r`'s run for `you` (unless a run is recorded already: a
    /// check timing inside a rule's run; the outer run is then not remembered).
    pub(super) fn begin_rule_run(&mut self, you: Seat, r: usize, expected_quiet: bool) {
        if let Some(outer) = self.recorded_reads() {
            outer.everything = true;
            return;
        }
        if self.dry.active {
            return;
        }
        self.rule_run = Some(RuleRun {
            memo: self.memo_index(you, r),
            depth: self.frames.len(),
            began: self.rules_key(),
            expected_quiet,
            reads: Reads::default(),
        });
    }

    /// Ends the recorded run if the check timing's frame is on top again: remembers it if it
    /// changed nothing, forgets the rule's memo otherwise.
    pub(super) fn end_rule_run(&mut self) {
        if self
            .rule_run
            .as_ref()
            .is_none_or(|run| run.depth != self.frames.len())
        {
            return;
        }
        let Some(run) = self.rule_run.take() else {
            return;
        };
        let quiet = self.rules_key() == run.began;
        if run.expected_quiet {
            self.verified_skips = self.verified_skips.saturating_add(1);
        }
        if run.expected_quiet && !quiet {
            self.failed_checks.push(format!(
                "a check rule was to be skipped as unchanged, but its run changed the game (rule memo {})",
                run.memo
            ));
        }
        let memo = (quiet && !run.reads.everything).then(|| self.memo_now(run.reads));
        if let Some(slot) = self.rule_memos.get_mut(run.memo) {
            self.stamps.standing.taken(
                run.memo,
                slot.as_ref().map(|m| &m.reads),
                memo.as_ref().map(|m| &m.reads),
            );
            *slot = memo;
        }
    }

    /// Runs check rules even when their memos say they would change nothing, derives the
    /// continuous abilities again even when their memo says nothing they read changed, reads
    /// an action's offers again even when they are kept, computes a card's stats again when
    /// they are kept from an earlier generation (and so on for every kept value), and lists
    /// (in [`Game::failed_checks`]) any such run that changed the game, derivation that gave
    /// other modifiers, offers or stats that differ: a test of the memos.
    #[doc(hidden)]
    pub fn verify_rule_skips(&mut self, on: bool) {
        self.verify_skips = on;
    }

    /// What the engine's checks of its own shortcuts ([`Game::verify_rule_skips`],
    /// [`Game::verify_lowered`]) found wrong so far, one line each: empty while the shortcuts
    /// gave what the work they skip gives (and while neither check is on). Tests and the
    /// scenario runner's checked run fail on any line here.
    #[doc(hidden)]
    pub fn failed_checks(&self) -> &[String] {
        &self.failed_checks
    }

    /// What the running rule has read so far, as text (`None`: no run is recorded): lets a
    /// test of lowered conditions compare the reads two ways of evaluating record.
    pub(super) fn reads_so_far(&self) -> Option<String> {
        self.rule_run.as_ref().map(|r| format!("{:?}", r.reads))
    }

    /// How many rule runs the memos would have skipped were checked so far
    /// ([`Game::verify_rule_skips`]).
    #[doc(hidden)]
    pub fn verified_rule_skips(&self) -> usize {
        self.verified_skips
    }

    /// How many check rules' memos known to stand ([`Standing`]) were checked against what
    /// they read so far ([`Game::verify_rule_skips`]).
    #[doc(hidden)]
    pub fn verified_standing_memos(&self) -> usize {
        self.verified_standing
    }

    /// How many derivations of continuous abilities the memo would have skipped were checked
    /// so far ([`Game::verify_rule_skips`]).
    #[doc(hidden)]
    pub fn verified_derivation_skips(&self) -> usize {
        self.verified_derivations
    }

    /// How many kept offers of actions were checked so far ([`Game::verify_rule_skips`]).
    #[doc(hidden)]
    pub fn verified_kept_offers(&self) -> usize {
        self.verified_offers
    }

    /// How many cards' stats kept from an earlier generation were checked so far
    /// ([`Game::verify_rule_skips`]).
    #[doc(hidden)]
    pub fn verified_kept_stats(&self) -> usize {
        self.verified_stats
    }
}

/// The positions of the bits a number has set, lowest first.
fn set_bits(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = (bits != 0).then(|| bits.trailing_zeros() as usize)?;
        bits &= bits.wrapping_sub(1);
        Some(i)
    })
}

/// What a change to a card changed, for its zone's stamps.
#[derive(Clone, Copy)]
enum Part {
    /// Anything but states and counters.
    Other,
    /// States (one bit each, by index).
    States(u64),
    /// A counter (by index).
    Counter(u16),
}

/// Stamps entry `i` of a table with tick `t`, growing the table to hold it.
fn stamp_at(table: &mut Vec<u64>, i: usize, t: u64) {
    if table.len() <= i {
        table.resize(i.saturating_add(1), 0);
    }
    table[i] = t;
}

/// Fresh stamps for a game of `prog` with `slots` zone slots and `cards` cards, `states`
/// states and `counters` counters, and an empty memo per rule and player.
pub(super) fn fresh(
    prog: &Program,
    (slots, cards): (usize, usize),
    states: usize,
    counters: usize,
) -> (Stamps, Vec<Option<RuleMemo>>) {
    let width = states.saturating_add(counters);
    let players = prog.players();
    let memos = prog.ruleset.rules.len().saturating_mul(players);
    // per memo (rule × players + seat): what of cards its rule can read
    let parts = (0..memos.min(64))
        .map(|i| {
            let rule = i.checked_div(players).unwrap_or(0);
            prog.rule_reads
                .get(rule)
                .copied()
                .flatten()
                .map_or((u64::MAX, u64::MAX), |c| (c.states, c.counters))
        })
        .collect();
    (
        Stamps {
            slots: vec![SlotStamps::default(); slots],
            cards: vec![0; cards],
            contents: vec![0; slots],
            parts: vec![0; slots.saturating_mul(width)],
            states,
            width,
            standing: Standing {
                parts,
                ..Standing::default()
            },
            ..Stamps::default()
        },
        vec![None; memos],
    )
}

#[cfg(test)]
mod tests {
    use super::{Part, Reads, Standing};
    use std::rc::Rc;

    /// Two states and two counters; memo 0 reads zone slot 3 and can read state 1 and counter
    /// 0 of its cards; memo 1 reads slot 3 too and the history, what of cards it can read
    /// not known.
    fn standing() -> Standing {
        let mut s = Standing {
            parts: Rc::from([(0b10, 0b01), (u64::MAX, u64::MAX)]),
            ..Standing::default()
        };
        let zone = Reads {
            slots_below_64: 1 << 3,
            ..Reads::default()
        };
        s.taken(0, None, Some(&zone));
        let history = Reads {
            history: true,
            ..zone.clone()
        };
        s.taken(1, None, Some(&history));
        s
    }

    const SIZES: (usize, usize) = (2, 4);

    /// A change drops the memos that read its zone and could read what changed there: a state
    /// or counter their rule names, anything else of a card, a state or counter past the
    /// tables; a change to another zone drops none.
    #[test]
    fn a_change_drops_the_memos_that_could_read_it() {
        let mut s = standing();
        s.changed(4, Part::Other, SIZES);
        assert!(s.holds(0) && s.holds(1), "another zone");
        for (part, why) in [
            (Part::States(0b01), "a state memo 0's rule does not name"),
            (Part::Counter(1), "a counter memo 0's rule does not name"),
        ] {
            let mut s = standing();
            s.changed(3, part, SIZES);
            assert!(s.holds(0) && !s.holds(1), "{why}");
        }
        for (part, why) in [
            (Part::States(0b10), "a state it names"),
            (Part::States(0b100), "a state past the table"),
            (Part::Counter(0), "a counter it names"),
            (Part::Counter(2), "a counter past the table"),
            (Part::Other, "anything else of a card"),
        ] {
            let mut s = standing();
            s.changed(3, part, SIZES);
            assert!(!s.holds(0) && !s.holds(1), "{why}");
        }
    }

    /// A memo taken again reads its new zones only, and stands; one forgotten stands no more;
    /// one found unchanged stands again; the memos reading the history are known as such.
    #[test]
    fn a_memo_taken_again_follows_its_new_reads() {
        let mut s = standing();
        assert_eq!(s.history, 0b10);
        let old = Reads {
            slots_below_64: 1 << 3,
            ..Reads::default()
        };
        let new = Reads {
            slots_below_64: 1 << 5,
            ..Reads::default()
        };
        s.taken(0, Some(&old), Some(&new));
        s.changed(3, Part::Other, SIZES);
        assert!(s.holds(0), "its old zone is not read any more");
        s.changed(5, Part::Other, SIZES);
        assert!(!s.holds(0), "its new zone is");
        s.found(0);
        assert!(s.holds(0));
        s.taken(0, Some(&new), None);
        assert!(!s.holds(0), "forgotten");
    }
}
