//! Statements that move cards or change what they are: `move`, `attach`, states, zones read
//! as others, `flip`, `treat … as`.

use crate::engine::agent::Request;
use crate::engine::interrupts::Change;
use crate::engine::moves::MoveSpec;
use crate::engine::program::Program;
use crate::engine::rule_memo::Touched;
use crate::engine::state::{Alias, CardId, TreatAs, Until, Value, ZoneKey};
use crate::engine::{Frames, Game};
use crate::ir::{Duration, Expr, Face, Id, Position};
use std::collections::BTreeMap;

impl<'p> Game<'p> {
    /// `move`: each card to its destination (replacement effects may run instead: frames).
    pub(super) fn exec_move(
        &mut self,
        from: &Expr,
        to: &Expr,
        position: Option<Position>,
        face: Option<Face>,
        state: Option<&'p str>,
        slot: Option<&Expr>,
    ) -> Result<Frames<'p>, Box<Request>> {
        let cards = self.eval(from)?;
        let to = self.eval(to)?;
        let slot = match slot {
            Some(s) => match self.eval(s)? {
                Value::Text(t) => Some(t),
                _ => None,
            },
            None => None,
        };
        let list = self.cards_of(&cards);
        if list.is_empty() {
            self.log_nothing("move", from);
        }
        if self.one_change_per_step(list.len()) {
            let changes = list
                .into_iter()
                .map(|card| Change::Move {
                    card,
                    to: to.clone(),
                    position,
                    face,
                    state,
                    slot: slot.clone(),
                })
                .collect();
            return Ok(self.make_changes(changes));
        }
        let mut out = Frames::new();
        for c in list {
            out.extend(self.move_to(c, &to, (position, face, state), slot.clone()));
        }
        Ok(out)
    }

    /// Moves one card to the zone `to` names (read through aliases now), arriving as `how`
    /// says (position, face, state) in `slot`: replacement effects may run instead (frames).
    pub(in crate::engine) fn move_to(
        &mut self,
        c: CardId,
        to: &Value,
        (position, face, state): (Option<Position>, Option<Face>, Option<&'p str>),
        slot: Option<String>,
    ) -> Frames<'p> {
        let Some(dest) = self.destination(to, c) else {
            return Frames::new();
        };
        // one card per slot: a zone with slots says where the card goes, or refuses it
        let placed = if self.has_slots(dest.zone) {
            match self.place_in_slot(c, dest, slot.as_deref()) {
                Some(s) => Some(s),
                None => return Frames::new(),
            }
        } else {
            None
        };
        let spec = MoveSpec {
            to: dest,
            position,
            face,
            state,
            slot: placed,
        };
        self.move_card(c, spec)
    }

    /// `attach card to host`: the first card named is set on the host (not on itself).
    pub(super) fn exec_attach(&mut self, card: &Expr, host: &Expr) -> Result<(), Box<Request>> {
        let c = self.eval(card)?;
        let h = self.eval(host)?;
        if let (Some(c), Value::Card(h)) = (self.cards_of(&c).first().copied(), h) {
            if c != h {
                self.state.cards[c as usize].host = Some(h);
                // its carried abilities start applying now (6.1.11: the last applied wins)
                let ts = self.state.tick();
                self.state.cards[c as usize].entered = ts;
                // the card it was set on before, if any, loses what it carried
                self.changed(Touched::Everything);
                self.card_itself_changed(c);
                self.log_cards("attach", &[c, h], |n| {
                    format!("{} is set on {}", n[0], n[1])
                });
            }
        }
        Ok(())
    }

    /// Setting a state: each card takes it (leaving the other states of its group).
    pub(super) fn exec_set_state(
        &mut self,
        cards: &Expr,
        state: &Id,
    ) -> Result<Frames<'p>, Box<Request>> {
        let v = self.eval(cards)?;
        let list = self.cards_of(&v);
        if list.is_empty() {
            self.log_nothing("change", cards);
        }
        let Some(&si) = self.prog.state_index.get(state) else {
            return Ok(Frames::new());
        };
        if self.one_change_per_step(list.len()) {
            let changes = list.into_iter().map(|c| Change::SetState(c, si)).collect();
            return Ok(self.make_changes(changes));
        }
        for c in list {
            self.set_state(c, si);
        }
        Ok(Frames::new())
    }

    /// `clear … state`: each card in the state leaves it.
    pub(super) fn exec_clear_state(
        &mut self,
        cards: &Expr,
        state: &'p Id,
    ) -> Result<Frames<'p>, Box<Request>> {
        let v = self.eval(cards)?;
        let Some(&si) = self.prog.state_index.get(state) else {
            return Ok(Frames::new());
        };
        let list = self.cards_of(&v);
        if self.one_change_per_step(list.len()) {
            let changes = list
                .into_iter()
                .map(|c| Change::ClearState(c, si, state.as_str()))
                .collect();
            return Ok(self.make_changes(changes));
        }
        for c in list {
            self.clear_state(c, si, state);
        }
        Ok(Frames::new())
    }

    /// A card leaves a state (index `si`, id `state`), if it is in it.
    pub(in crate::engine) fn clear_state(&mut self, c: CardId, si: u16, state: &str) {
        if self.state.in_state(c, si) {
            self.state.cards[c as usize].states &= !(1u64 << si);
            self.changed(Touched::States(c, 1u64 << si));
            let state = Program::short(state);
            self.log_cards("state", &[c], |n| format!("{} is no longer {state}", n[0]));
        }
    }

    /// `zone becomes other until …`: each owner's zone is read as the other one; its cards
    /// become the other zone's cards as they are (3.3.6).
    pub(super) fn exec_alias_zone(
        &mut self,
        zone: &Expr,
        becomes: &Id,
        duration: &Duration,
    ) -> Result<Frames<'p>, Box<Request>> {
        let z = self.eval(zone)?;
        let Some(&to) = self.prog.zones.get(becomes) else {
            return Ok(Frames::new());
        };
        let until = self.until(duration)?;
        let Value::Zone(from, owners) = z else {
            return Ok(Frames::new());
        };
        let key = |owner, zone| ZoneKey { zone, owner };
        if self.one_change_per_step(owners.len()) {
            let changes = owners
                .into_iter()
                .map(|o| Change::Alias {
                    from: key(o, from),
                    to: key(o, to),
                    until: until.clone(),
                })
                .collect();
            return Ok(self.make_changes(changes));
        }
        for o in owners {
            self.alias_zone(key(o, from), key(o, to), until.clone());
        }
        Ok(Frames::new())
    }

    /// A player's zone `from` is read as `to` until `until`: its cards become the other
    /// zone's cards as they are (3.3.6).
    pub(in crate::engine) fn alias_zone(&mut self, from: ZoneKey, to: ZoneKey, until: Until) {
        let slot_from = self.state.slot(from);
        let slot_to = self.state.slot(to);
        let cards = std::mem::take(&mut self.state.zones[slot_from]);
        for c in &cards {
            self.state.cards[*c as usize].zone = to;
        }
        self.state.zones[slot_to].extend(cards);
        self.state.aliases.push(Alias { from, to, until });
        self.changed(Touched::Everything);
        let zone = |k: ZoneKey| Program::short(&self.prog.ruleset.zones[k.zone as usize].name.id);
        let text = format!("{} becomes {}", self.zone_text(from), zone(to));
        self.log_line("zone", |_| text);
    }

    /// `flip`: each card face up, face down, or over.
    pub(super) fn exec_flip(
        &mut self,
        cards: &Expr,
        face: Option<Face>,
    ) -> Result<(), Box<Request>> {
        let v = self.eval(cards)?;
        let list = self.cards_of(&v);
        if list.is_empty() {
            self.log_nothing("turn over", cards);
        }
        for c in list {
            let seen_before = self.seers(c);
            let cs = &mut self.state.cards[c as usize];
            cs.face_up = match face {
                Some(Face::Up) => true,
                Some(Face::Down) => false,
                None => !cs.face_up,
            };
            let up = cs.face_up;
            self.changed(Touched::Card(c));
            // named to whoever saw it on either side of the turn
            let tags = vec![(c, seen_before | self.seers(c))];
            let face = if up { "up" } else { "down" };
            let source = self.source_text();
            self.log_tagged(
                "flip",
                tags,
                &|n| format!("{} is turned face {face}", n[0]),
                source,
            );
        }
        Ok(())
    }

    /// `treat … as type with {…}` (12.5): the fields are read once, for every card.
    pub(super) fn exec_treat_as(
        &mut self,
        cards: &Expr,
        card_type: &Id,
        fields: &crate::ir::Map<Id, Expr>,
    ) -> Result<(), Box<Request>> {
        let targets = self.eval(cards)?;
        let mut vals = BTreeMap::new();
        for (k, e) in fields {
            vals.insert(k.to_string(), self.eval(e)?);
        }
        for c in self.cards_of(&targets) {
            self.state.cards[c as usize].treat = Some(TreatAs {
                card_type: card_type.to_string(),
                fields: vals.clone(),
            });
            self.changed(Touched::Card(c));
            let ty = Program::short(card_type);
            self.log_cards("treat", &[c], |n| format!("{} is treated as {ty}", n[0]));
        }
        Ok(())
    }
}
