//! Moving cards: the destination (owner's zones, aliases), replacement effects on the proposed
//! move, the change itself (a new object, PMV 3.1.7), and the events it causes.

use super::program::Program;
use super::rule_memo::Touched;
use super::state::{card_id, CardId, Value, ZoneKey};
use super::{CallStart, EventData, Frame, Frames, Game, Lookback};
use crate::ir::{self, Face, Position};
use smallvec::smallvec;
use std::rc::Rc;

/// A move about to happen.
pub(super) struct MoveSpec<'a> {
    pub(super) to: ZoneKey,
    pub(super) position: Option<Position>,
    pub(super) face: Option<Face>,
    pub(super) state: Option<&'a str>,
    pub(super) slot: Option<String>,
}

impl<'p> Game<'p> {
    /// The zone a card goes to: the one named (of the card's owner when several players'
    /// are named), read through aliases.
    pub(super) fn destination(&self, to: &Value, c: CardId) -> Option<ZoneKey> {
        let Value::Zone(z, owners) = to else {
            return None;
        };
        let owner = self.state.cards[c as usize].owner;
        // a `to_owner` zone takes the card to its owner's (PMV 3.1.6)
        let o = if owners.contains(&owner) || self.prog.ruleset.zones[*z as usize].to_owner {
            owner
        } else {
            *owners.first()?
        };
        let mut k = ZoneKey { zone: *z, owner: o };
        if let Some(a) = self.state.aliases.iter().find(|a| a.from == k) {
            k = a.to;
        }
        Some(k)
    }

    /// Moves one card: replacement effects first (a move the ruleset's `= move` event
    /// describes), then the change, then its events.
    pub(super) fn move_card(&mut self, c: CardId, spec: MoveSpec<'_>) -> Frames<'p> {
        let from = self.state.cards[c as usize].zone;
        // a proposed move no card definition can replace, or no card could now, is not even
        // written out
        let mut proposed = None;
        let replaceable = self.prog.core_move.filter(|ev| self.replaceable(*ev));
        let answerable = replaceable.map(|ev| (ev, self.may_be_answered(ev, payload_card(c))));
        if let Some((ev, answerable)) = answerable.filter(|(_, a)| *a || self.verify_skips) {
            let slot = self.state.cards[c as usize].slot.as_deref();
            let data = EventData {
                event: ev,
                args: self.move_args(ev, c, (from, spec.to), slot),
            };
            if let Some(frames) = self.replace(&data) {
                if !answerable {
                    self.failed_checks.push(format!(
                        "a move of card {c} was taken for one no card could replace, but one did"
                    ));
                }
                return frames;
            }
            // not replaced: the move made is the one proposed, and its `move` event's payload
            // is the proposal's
            proposed = Some(data.args);
        }
        self.commit_move(c, from, spec, proposed);
        Frames::new()
    }

    /// The payload of the core `move` event: the card, the zones (from, to), and the slot it
    /// leaves in the first further `text` parameter, if the event has one.
    pub(super) fn move_args(
        &self,
        ev: u16,
        c: CardId,
        (from, to): (ZoneKey, ZoneKey),
        slot: Option<&str>,
    ) -> Rc<[Value]> {
        self.core_args(ev, slot, 3, |i| match i {
            0 => Value::Card(c),
            1 => Value::Zone(from.zone, smallvec![from.owner]),
            _ => Value::Zone(to.zone, smallvec![to.owner]),
        })
    }

    /// Emits the core's event `ev` about card `c`, its payload built by `args` only when
    /// dispatching it matters ([`Game::dispatch_matters`]), or when the engine checks that it
    /// would not ([`Game::verify_undispatched`]).
    fn emit_core(
        &mut self,
        ev: u16,
        c: CardId,
        lookback: Option<Lookback>,
        args: impl FnOnce(&Self) -> Rc<[Value]>,
    ) {
        let matters = self.dispatch_matters(ev, payload_card(c));
        if !matters && !self.verify_skips {
            return;
        }
        let e = EventData {
            event: ev,
            args: args(self),
        };
        if matters {
            self.emit(e, lookback);
        } else {
            self.verify_undispatched(e, lookback);
        }
    }

    /// The payload of an event the core fills: its first `first` parameters from `core`, the
    /// slot (if any) in the first further parameter of type `text`, and nothing in the others;
    /// one value per parameter of the event, written in place.
    fn core_args(
        &self,
        ev: u16,
        slot: Option<&str>,
        first: usize,
        core: impl Fn(usize) -> Value,
    ) -> Rc<[Value]> {
        let params = &self.prog.ruleset.events[ev as usize].params;
        let slot_at = slot.and_then(|s| {
            let at = params
                .iter()
                .enumerate()
                .skip(first)
                .find(|(_, p)| p.types == [ir::Type::Text])?;
            Some((at.0, s))
        });
        (0..params.len())
            .map(|i| match slot_at {
                _ if i < first => core(i),
                Some((at, s)) if at == i => Value::Text(s.to_string()),
                _ => Value::Absent,
            })
            .collect()
    }

    /// Whether some card definition has a replacement ability on an event.
    fn replaceable(&self, event: u16) -> bool {
        self.prog
            .replaceable
            .get(usize::from(event))
            .copied()
            .unwrap_or(false)
    }

    /// The first replacement ability that matches a proposed event and was not applied yet in
    /// this chain of effects: its body runs instead (frames); `None` when none applies.
    pub(super) fn replace(&mut self, data: &EventData) -> Option<Frames<'p>> {
        if !self.replaceable(data.event) {
            return None;
        }
        let applied = self
            .ctxs
            .last()
            .map(|c| c.applied.clone())
            .unwrap_or_default();
        let data = Rc::new(data.clone());
        let (listed, named) = self.trigger_candidates(data.event, &data.args);
        for c in super::layers::merged(&listed, &named) {
            let zone = self.state.cards[c as usize].zone.zone;
            if !self.may_answer(
                c,
                zone,
                (data.event, ir::Semantics::Replacement),
                &data.args,
            ) {
                continue;
            }
            for (this, aref) in self.abilities_in(c, zone) {
                if applied.contains(&(c, aref)) {
                    continue;
                }
                let a: &'p ir::Ability = self.prog.ability(aref);
                let Some(t) = &a.trigger else { continue };
                if let Some(controller) =
                    self.answers(c, this, aref, &data, ir::Semantics::Replacement)
                {
                    let event = Program::short(&t.event);
                    self.log_card_src("replace", c, aref, |n| format!("{n} replaces {event}"));
                    let mut now: Vec<(CardId, super::program::AbilityRef)> = (*applied).clone();
                    now.push((c, aref));
                    return Some(smallvec![
                        Frame::PopCtx,
                        Frame::Block {
                            stmts: &a.effect,
                            pc: 0,
                            mark: u32::MAX,
                        },
                        Frame::CallStart(Box::new(CallStart {
                            you: controller,
                            this: Some(this),
                            event: Some(data.clone()),
                            source: Some((c, aref)),
                            vars: Vec::new(),
                            body: &[],
                            applied: Some(Rc::new(now)),
                        })),
                    ]);
                }
            }
        }
        None
    }

    /// Makes a move happen: the card changes lists, becomes a new object unless it moves
    /// between two in-play zones (3.1.7), takes its arrival states, is logged, and causes the
    /// core's `leave`, `move` and `enter` events (`proposed`: the `move` event's payload, when
    /// the move was proposed to replacement effects already).
    pub(super) fn commit_move(
        &mut self,
        c: CardId,
        from: ZoneKey,
        spec: MoveSpec<'_>,
        proposed: Option<Rc<[Value]>>,
    ) {
        let to = spec.to;
        // its text as it was where it was, for the abilities that look back
        let was_negated = self.text_negated(c);
        let seen_before = self.seers(c);
        let left = self.state.cards[c as usize].slot.clone();
        let host = self.state.cards[c as usize].host;
        // a move within a zone into a taken slot: the two cards swap slots
        let partner = match &spec.slot {
            Some(s) if from == to => self.occupant(to, s, c),
            _ => None,
        };
        self.relist(c, from, to, spec.position);
        let keep = from != to && self.zone_in_play(from.zone) && self.zone_in_play(to.zone);
        let detached = self.arrive(c, from, to, keep, spec.face, spec.slot);
        if !keep && self.zone_in_play(to.zone) {
            // a card arriving in play takes the first state of each exclusive group
            self.state.cards[c as usize].states |= self.prog.default_states;
        }
        if let Some(s) = spec.state {
            if let Some(&si) = self.prog.state_index.get(s) {
                let info = &self.prog.states[si as usize];
                let cs = &mut self.state.cards[c as usize];
                cs.states &= !info.group_mask;
                cs.states |= 1 << si;
            }
        }
        if detached {
            // the cards set on it, wherever they are, are set on nothing now
            self.changed(Touched::Everything);
            self.card_itself_changed(c);
        } else {
            self.changed(Touched::Move {
                card: c,
                from,
                to,
                host,
            });
        }
        self.log_move(c, (from, to), seen_before, left.as_deref());
        if from == to {
            if let Some(d) = partner {
                self.take_slot(d, left);
            }
            return;
        }
        self.emit_move_events(c, (from, to), was_negated, left, proposed);
    }

    /// Whether a zone's cards are in play.
    fn zone_in_play(&self, zone: u16) -> bool {
        self.prog
            .in_play
            .get(zone as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Takes a card out of its zone's list and puts it on top (or at the bottom) of the other.
    fn relist(&mut self, c: CardId, from: ZoneKey, to: ZoneKey, position: Option<Position>) {
        let from_slot = self.state.slot(from);
        if let Some(i) = self.state.zones[from_slot].iter().position(|x| *x == c) {
            self.state.zones[from_slot].remove(i);
        }
        let to_slot = self.state.slot(to);
        match position {
            Some(Position::Bottom) => self.state.zones[to_slot].insert(0, c),
            _ => self.state.zones[to_slot].push(c),
        }
    }

    /// The card's own record after a move: zone, controller (of a per-player zone), face; a
    /// new object unless `keep` (3.1.7), the cards set on it falling off; its slot. Whether a
    /// card fell off.
    fn arrive(
        &mut self,
        c: CardId,
        from: ZoneKey,
        to: ZoneKey,
        keep: bool,
        spec_face: Option<Face>,
        slot: Option<String>,
    ) -> bool {
        // a new object's cards fall off it: looked for only when it has some (the hosts
        // found say so, as they do for every event)
        let hosting = from != to && !keep && self.is_host(c);
        let zone = &self.prog.ruleset.zones[to.zone as usize];
        let ts = self.state.tick();
        let public = zone.visibility == ir::Visibility::Public;
        let counters = self.prog.ruleset.counters.len();
        let cs = &mut self.state.cards[c as usize];
        cs.zone = to;
        if zone.per_player {
            cs.controller = to.owner;
        }
        cs.face_up = match spec_face {
            Some(Face::Up) => true,
            Some(Face::Down) => false,
            None => public,
        };
        if from != to && !keep {
            // a new object: it loses what was given to it (3.1.7)
            cs.incarnation = cs.incarnation.saturating_add(1);
            cs.states = 0;
            // its list of counters kept (no allocation a move), every counter at 0
            cs.counters.clear();
            cs.counters.resize(counters, 0);
            cs.treat = None;
            cs.effect_negated = false;
            cs.host = None;
            cs.known = 0;
            cs.entered = ts;
        }
        // a zone without slots leaves the card none; within one zone, none asked keeps it
        if from != to || slot.is_some() {
            cs.slot = slot;
        }
        let mut detached = false;
        debug_assert!(
            hosting || from == to || keep || self.state.cards.iter().all(|x| x.host != Some(c)),
            "a card no card is set on, by the hosts found"
        );
        if hosting {
            for x in 0..self.state.cards.len() {
                if self.state.cards[x].host == Some(c) {
                    self.state.cards[x].host = None;
                    self.card_itself_changed(card_id(x));
                    detached = true;
                }
            }
        }
        detached
    }

    /// Logs a move; the log names the card only to players who could see it on one side of
    /// the move (`seen_before`: who saw it where it was). A slot left (`left`) or taken is
    /// named after its zone; a move from slot to slot of one zone names only the slot it goes to.
    fn log_move(
        &mut self,
        c: CardId,
        (from, to): (ZoneKey, ZoneKey),
        seen_before: u32,
        left: Option<&str>,
    ) {
        if self.line_unwritten() {
            return;
        }
        let taken = self.state.cards[c as usize].slot.clone();
        let tags = vec![(c, seen_before | self.seers(c))];
        let source = self.source_text();
        if let (Some(s), true) = (&taken, from == to) {
            self.log_tagged("move", tags, &|n| format!("{} moves to {s}", n[0]), source);
            return;
        }
        let place = |k: ZoneKey, slot: Option<&str>| {
            let mut z = self.zone_text(k);
            if let Some(s) = slot {
                z.push_str(" at ");
                z.push_str(s);
            }
            z
        };
        let (fz, tz) = (place(from, left), place(to, taken.as_deref()));
        self.log_tagged("move", tags, &|n| format!("{}: {fz} → {tz}", n[0]), source);
    }

    /// The core's events of a move that changed zones: `leave` and `move` (the card answering
    /// as it was where it was; `proposed`: the `move` payload made already), then `enter`.
    fn emit_move_events(
        &mut self,
        c: CardId,
        (from, to): (ZoneKey, ZoneKey),
        was_negated: (bool, bool),
        left: Option<String>,
        proposed: Option<Rc<[Value]>>,
    ) {
        let lookback = Some((c, from, was_negated));
        if let Some(ev) = self.prog.core_leave {
            self.emit_core(ev, c, lookback, |g| {
                g.zone_args(ev, c, from, left.as_deref())
            });
        }
        if let Some(ev) = self.prog.core_move {
            self.emit_core(ev, c, lookback, |g| {
                proposed.unwrap_or_else(|| g.move_args(ev, c, (from, to), left.as_deref()))
            });
        }
        if let Some(ev) = self.prog.core_enter {
            self.emit_core(ev, c, None, |g| {
                let taken = g.state.cards[c as usize].slot.as_deref();
                g.zone_args(ev, c, to, taken)
            });
        }
    }

    /// The payload of the core `enter` and `leave` events: the card, the zone, and the slot
    /// (arrived at, left) in the first further `text` parameter, if the event has one.
    pub(super) fn zone_args(
        &self,
        ev: u16,
        c: CardId,
        z: ZoneKey,
        slot: Option<&str>,
    ) -> Rc<[Value]> {
        self.core_args(ev, slot, 2, |i| match i {
            0 => Value::Card(c),
            _ => Value::Zone(z.zone, smallvec![z.owner]),
        })
    }
}

/// Where a payload of the core's about card `c` names a card, by parameter index: at its
/// first parameter only ([`Game::core_args`] fills the others with zones, a slot's text or
/// nothing).
fn payload_card(c: CardId) -> impl Fn(u16) -> Option<CardId> {
    move |p| (p == 0).then_some(c)
}
