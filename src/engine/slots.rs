//! Slots: one card per slot of a zone that has them (docs/language.md, "Slots"). Where a card
//! moved into such a zone goes, `slot(c)`, `cards at <slot or group>`, a slot a player
//! chooses, and the card a relation pairs a card's slot with (`this.<relation>`).
//!
//! Nothing here runs for a zone without slots: a move checks `has_slots` (one length test)
//! before anything else.

use super::agent::{Answer, Choice, Request, RequestKind, NO_SLOT};
use super::state::{shown, CardId, Value, ZoneKey};
use super::Game;
use crate::ir::{self, Expr};
use smallvec::SmallVec;

/// The names of a slot choice's candidates, read in place from the ruleset (a stage has a
/// handful of slots: held in place, no text copied until one is picked).
type SlotNames<'p> = SmallVec<[&'p str; 8]>;

/// Where a card moved into a zone with slots goes.
pub(super) enum SlotPlace {
    /// Into this slot (a card of the same zone there swaps with it as the move happens).
    Into(String),
    /// Nowhere: the slot asked for holds another card and the moving card comes from elsewhere.
    Taken(String),
    /// Nowhere: no slot asked for, and none is empty.
    Full,
}

impl<'p> Game<'p> {
    /// Whether a zone has slots.
    pub(super) fn has_slots(&self, zone: u16) -> bool {
        !self.prog.ruleset.zones[zone as usize].slots.is_empty()
    }

    /// The card in a slot of a zone, other than `except`.
    pub(super) fn occupant(&self, k: ZoneKey, slot: &str, except: CardId) -> Option<CardId> {
        self.state
            .zone(k)
            .iter()
            .copied()
            .find(|x| *x != except && self.state.cards[*x as usize].slot.as_deref() == Some(slot))
    }

    /// The first slot of a zone, in declaration order, that holds no card but `except`.
    fn first_empty_slot(&self, k: ZoneKey, except: CardId) -> Option<&'p str> {
        let prog: &'p super::Program = self.prog;
        prog.ruleset.zones[k.zone as usize]
            .slots
            .iter()
            .find(|s| self.occupant(k, s, except).is_none())
            .map(String::as_str)
    }

    /// Where card `c` goes in `dest` (a zone with slots), asked for slot `wanted` (a name that
    /// is no slot of the zone counts as none): that slot when it is empty, or taken by a card
    /// `c` swaps with (both in `dest`); with none asked, the slot `c` holds there already, else
    /// the first empty one.
    pub(super) fn slot_for(&self, c: CardId, dest: ZoneKey, wanted: Option<&str>) -> SlotPlace {
        let zone = &self.prog.ruleset.zones[dest.zone as usize];
        let wanted = wanted.filter(|w| zone.slots.iter().any(|s| s == w));
        let cs = &self.state.cards[c as usize];
        let here = cs.zone == dest;
        let place = match wanted {
            Some(w) if here || self.occupant(dest, w, c).is_none() => Some(w.to_string()),
            Some(w) => return SlotPlace::Taken(w.to_string()),
            None if here && cs.slot.is_some() => cs.slot.clone(),
            None => self.first_empty_slot(dest, c).map(str::to_string),
        };
        place.map_or(SlotPlace::Full, SlotPlace::Into)
    }

    /// [`Game::slot_for`], the log saying why when the card goes nowhere (the move does not
    /// happen): the slot it goes to.
    pub(super) fn place_in_slot(
        &mut self,
        c: CardId,
        dest: ZoneKey,
        wanted: Option<&str>,
    ) -> Option<String> {
        let why = match self.slot_for(c, dest, wanted) {
            SlotPlace::Into(s) => return Some(s),
            SlotPlace::Taken(s) => format!("{s} of {} is taken", self.zone_text(dest)),
            SlotPlace::Full => format!("no empty slot in {}", self.zone_text(dest)),
        };
        self.log_line("nothing", |_| format!("nothing to move: {why}"));
        None
    }

    /// Whether card `c` finds a slot in `dest` (always, for a zone without slots).
    pub(super) fn slot_free(&self, c: CardId, dest: ZoneKey, wanted: Option<&str>) -> bool {
        !self.has_slots(dest.zone) || matches!(self.slot_for(c, dest, wanted), SlotPlace::Into(_))
    }

    /// `p1's lanes`: a zone of a player as logs name it.
    pub(super) fn zone_text(&self, k: ZoneKey) -> String {
        let mut text = String::new();
        self.write_zone_text(&mut text, k);
        text
    }

    /// [`Game::zone_text`] written at the end of `out` (a prompt built for every slot
    /// question, a log line for every move: written in place, without `format!`'s machinery
    /// for the seat's number when it is one digit, as it is in any game of up to nine
    /// players).
    fn write_zone_text(&self, out: &mut String, k: ZoneKey) {
        let id = &self.prog.ruleset.zones[k.zone as usize].name.id;
        let seat = shown(k.owner);
        out.push('p');
        match char::from_digit(u32::from(seat), 10) {
            Some(digit) => out.push(digit),
            None => {
                use std::fmt::Write as _;
                // writing into a `String` cannot fail
                let _ = write!(out, "{seat}");
            }
        }
        out.push_str("'s ");
        out.push_str(super::Program::short(id));
    }

    /// A move within one zone into a slot card `d` holds: `d` takes the slot the moving card
    /// left (`left`), and the log says so.
    pub(super) fn take_slot(&mut self, d: CardId, left: Option<String>) {
        self.state.cards[d as usize].slot.clone_from(&left);
        // the move that made the two swap stamped their zone; this card itself changed too
        self.card_itself_changed(d);
        let to = left.unwrap_or_else(|| "no slot".into());
        self.log_cards("move", &[d], |n| format!("{} moves to {to}", n[0]));
    }

    /// Whether a card is in the slot `name` names in its zone: that slot, or a slot of the group
    /// of that name.
    fn in_slot(&self, c: CardId, name: &str) -> bool {
        let cs = &self.state.cards[c as usize];
        let Some(slot) = cs.slot.as_deref() else {
            return false;
        };
        slot == name
            || self.prog.ruleset.zones[cs.zone.zone as usize]
                .groups
                .iter()
                .any(|g| g.name == name && g.slots.iter().any(|s| s == slot))
    }

    /// `slot(c)`: the slot a card is in (absent when none).
    pub(super) fn slot_of(&mut self, card: &Expr) -> Result<Value, Box<Request>> {
        Ok(self
            .eval_card(card)?
            .and_then(|c| self.state.cards[c as usize].slot.clone())
            .map_or(Value::Absent, Value::Text))
    }

    /// `cards at name`: those in the slot (or a slot of the group) `name` names; none when it
    /// names nothing.
    pub(super) fn at_slot(&mut self, cards: &Expr, slot: &Expr) -> Result<Value, Box<Request>> {
        if let Expr::Text(name) = slot {
            // a slot named in the text (the commonest form) is read in place, and a filter's
            // cards are tested as it lists them, with no list of its own in between
            if let Expr::Filter { cards, condition } = cards {
                let mut out = Vec::new();
                self.each_holding(cards, condition, |g, c, _| {
                    if g.in_slot(c, name) {
                        out.push(c);
                    }
                    Ok(())
                })?;
                return Ok(Value::Cards(out));
            }
            let v = self.eval(cards)?;
            return Ok(Value::Cards(self.cards_in_slot(&v, name)));
        }
        let v = self.eval(cards)?;
        let Value::Text(name) = self.eval(slot)? else {
            return Ok(Value::Cards(Vec::new()));
        };
        Ok(Value::Cards(self.cards_in_slot(&v, &name)))
    }

    /// The cards of `v` in the slot `name` names ([`Game::in_slot`]), in order.
    fn cards_in_slot(&self, v: &Value, name: &str) -> Vec<CardId> {
        let mut list = self.cards_vec(v);
        list.retain(|c| self.in_slot(*c, name));
        list
    }

    /// `this.<relation>`: the card in the slot of the opponent's same zone that the relation pairs
    /// with the card's slot (either way round); absent when that slot is empty.
    pub(super) fn related(&mut self, of: &Expr, relation: &str) -> Result<Value, Box<Request>> {
        let Some(c) = self.eval_card(of)? else {
            return Ok(Value::Absent);
        };
        let cs = &self.state.cards[c as usize];
        let (Some(slot), at) = (cs.slot.as_deref(), cs.zone) else {
            return Ok(Value::Absent);
        };
        let zone = &self.prog.ruleset.zones[at.zone as usize];
        let name = relation.rsplit('.').next().unwrap_or(relation);
        let Some(r) = zone.relations.iter().find(|r| r.name == name) else {
            return Ok(Value::Absent);
        };
        let paired = r.pairs.iter().find_map(|(a, b)| {
            (a == slot)
                .then_some(b.as_str())
                .or_else(|| (b == slot).then_some(a.as_str()))
        });
        let other = ZoneKey {
            zone: at.zone,
            owner: self.opponent_of(at.owner),
        };
        Ok(paired
            .and_then(|s| self.occupant(other, s, c))
            .map_or(Value::Absent, Value::Card))
    }

    /// `choose [up to] 1 slot of zone [at name] [where …]`: the slots of the zone (of its first
    /// owner named) the name covers and the condition admits (read with each slot's name as the
    /// candidate), in declaration order; one is chosen — not asked when it is the only one and
    /// the choice is not optional, absent when there is none or the chooser declines.
    pub(super) fn choose_slot(
        &mut self,
        chooser: &Expr,
        optional: bool,
        zone: &Expr,
        within: Option<&Expr>,
        condition: Option<&Expr>,
    ) -> Result<Value, Box<Request>> {
        let who = self.player_or_you(chooser)?;
        let Value::Zone(z, owners) = self.eval(zone)? else {
            return Ok(Value::Absent);
        };
        let Some(&owner) = owners.first() else {
            return Ok(Value::Absent);
        };
        // a replayed statement finds the slots its choice asked about kept
        let (cands, since) =
            self.kept_or_read(zone, false, |g| g.slot_candidates(z, within, condition))?;
        if self.dry.active {
            // a payability check: a choice of 1 needs a slot
            if cands.is_empty() && !optional {
                self.dry.short = true;
            }
            return Ok(cands
                .first()
                .map_or(Value::Absent, |s| Value::Text((*s).to_string())));
        }
        if cands.is_empty() || (cands.len() == 1 && !optional) {
            return Ok(cands
                .first()
                .map_or(Value::Absent, |s| Value::Text((*s).to_string())));
        }
        self.keep_candidates(zone, false, since, &cands);
        let picked = self.ask_slot(who, optional, ZoneKey { zone: z, owner }, &cands)?;
        Ok(picked.map_or(Value::Absent, Value::Text))
    }

    /// The slots of zone `z` that `within` names (all without it) and `condition` admits.
    fn slot_candidates(
        &mut self,
        z: u16,
        within: Option<&Expr>,
        condition: Option<&Expr>,
    ) -> Result<SlotNames<'p>, Box<Request>> {
        let prog: &'p super::Program = self.prog;
        let zone: &'p ir::Zone = &prog.ruleset.zones[z as usize];
        let within = match within {
            Some(w) => match self.eval(w)? {
                Value::Text(t) => Some(t),
                _ => return Ok(SlotNames::new()),
            },
            None => None,
        };
        let mut out = SlotNames::new();
        for s in &zone.slots {
            if within
                .as_deref()
                .is_some_and(|w| !zone.slots_named(w).any(|x| x == s))
            {
                continue;
            }
            if let Some(cond) = condition {
                self.slot_its.push(s);
                let r = self.eval_true(cond);
                self.slot_its.pop();
                if !r? {
                    continue;
                }
            }
            out.push(s.as_str());
        }
        Ok(out)
    }

    /// Asks a player for one of the slots (one option each, by name; with `optional`, a last
    /// option [`NO_SLOT`] declines).
    fn ask_slot(
        &mut self,
        who: super::state::Seat,
        optional: bool,
        zone: ZoneKey,
        cands: &[&str],
    ) -> Result<Option<String>, Box<Request>> {
        let option = |label: &str| Choice {
            label: label.to_string(),
            action: None,
            card: None,
            card_id: None,
        };
        // built only when the question goes out (a replayed statement has its answer)
        let asked = self.ask_with(|g| {
            let mut options: Vec<Choice> = cands.iter().map(|s| option(s)).collect();
            if optional {
                options.push(option(NO_SLOT));
            }
            Request {
                player: who,
                kind: RequestKind::OneOf,
                prompt: {
                    let mut prompt = String::with_capacity(48);
                    prompt.push_str(if optional {
                        "choose up to 1 slot of "
                    } else {
                        "choose 1 slot of "
                    });
                    g.write_zone_text(&mut prompt, zone);
                    prompt
                },
                options,
            }
        });
        Ok(match asked? {
            Answer::Pick(i) => cands.get(i).map(|s| (*s).to_string()),
            _ => None,
        })
    }

    /// The candidate slot of the slot choice `k` levels out from the innermost (0).
    pub(super) fn slot_candidate(&self, k: u32) -> Value {
        self.slot_candidate_name(k)
            .map_or(Value::Absent, |s| Value::Text(s.to_string()))
    }

    /// [`Game::slot_candidate`]'s name, read in place.
    pub(super) fn slot_candidate_name(&self, k: u32) -> Option<&'p str> {
        let at = usize::try_from(k)
            .ok()
            .and_then(|k| self.slot_its.len().checked_sub(k)?.checked_sub(1));
        at.and_then(|i| self.slot_its.get(i)).copied()
    }
}
