//! Timing windows: who has priority, what each player may do, and the response chain.

use super::agent::{Answer, Choice, Request, RequestKind};
use super::eval::{Conjunct, Split};
use super::kept_choices::Kept;
use super::layers::merged;
use super::program::AbilityRef;
use super::program::Program;
use super::state::{next_seat, shown, CardId, Seat, Value};
use super::{Frame, Game, Offer};
use crate::ir::{self, Id, WindowEntry};
use smallvec::SmallVec;
use std::rc::Rc;

impl<'p> Game<'p> {
    /// One priority of a window: a check timing first (none in an `unchecked` window), then the
    /// player whose turn it is
    /// takes an offer (asked only when there is more than "pass"; a player who lost, or who
    /// took their one entry of a `once` window, only passes).
    pub(super) fn window_step(&mut self) -> Result<(), Box<Request>> {
        let Some(Frame::Window(w)) = self.frames.last_mut() else {
            return Ok(());
        };
        if !w.checked {
            w.checked = true;
            self.frames.push(self.check_timing());
            return Ok(());
        }
        let n = w.players.len();
        let seat = w.players[w.turn.checked_rem(n).unwrap_or(0)];
        let entries = w.entries;
        let chain = w.chain;
        let done = w.once && w.acted & seat_bit(seat) != 0;
        // the step is replayed with the answer on a game that has not changed: the offers the
        // player was asked to choose from are kept for it (`kept_choices`), not read again
        let (offers, since) = if done || self.state.players[seat as usize].lost {
            (vec![Offer::Pass], None)
        } else {
            self.kept_or_read(entries, false, |g| Ok(g.offers(seat, entries)))?
        };
        let pick = if offers.len() == 1 {
            0
        } else {
            match self.ask_with(|g| g.offer_request(seat, &offers)) {
                Ok(Answer::Pick(i)) => i,
                Ok(_) => offers.len().saturating_sub(1),
                Err(req) => {
                    self.keep_asked(entries, false, since, || Kept::Offers(offers));
                    return Err(req);
                }
            }
        };
        // nothing kept outlives the step it was kept for
        self.forget_kept_choice();
        let offer = offers[pick.min(offers.len().saturating_sub(1))].clone();
        let Some(Frame::Window(w)) = self.frames.last_mut() else {
            return Ok(());
        };
        w.checked = w.unchecked;
        if !matches!(offer, Offer::Pass) {
            // priority goes on to the next listed player
            w.passes = 0;
            w.turn = next_seat(w.turn, n);
            if w.once {
                w.acted |= seat_bit(seat);
            }
        }
        match offer {
            Offer::Pass => self.pass_priority(),
            Offer::Action { action, card } => self.take_action(seat, action, card),
            Offer::Ability {
                card,
                this,
                ability,
            } => self.use_ability(seat, card, this, ability, chain),
        }
        Ok(())
    }

    /// A player passes: when every living player has passed in succession, the newest chain
    /// item resolves (priority back to the first player), or the window ends.
    fn pass_priority(&mut self) {
        let Some(Frame::Window(w)) = self.frames.last_mut() else {
            return;
        };
        let n = w.players.len();
        w.passes = w.passes.saturating_add(1);
        let living = w
            .players
            .iter()
            .filter(|p| !self.state.players[**p as usize].lost)
            .count()
            .max(1);
        if w.passes >= living {
            w.passes = 0;
            w.turn = 0;
            if let Some(item) = w.stack.pop() {
                self.run_item(item);
            } else {
                self.frames.pop();
            }
        } else {
            w.turn = next_seat(w.turn, n);
        }
    }

    /// A player takes a ruleset action (on a card, for an action with candidates).
    fn take_action(&mut self, seat: Seat, action: u16, card: Option<CardId>) {
        let prog: &'p Program = self.prog;
        let a = &prog.ruleset.actions[action as usize];
        let label = a
            .name
            .label
            .as_deref()
            .unwrap_or(Program::short(&a.name.id));
        let who = shown(seat);
        match card {
            Some(c) => self.log_cards("action", &[c], |n| format!("p{who} {label} {}", n[0])),
            None => self.log_line("action", |_| format!("p{who} {label}")),
        }
        self.push_ctx(seat, None, None, None);
        if let (Some(var), Some(c)) = (&a.var, card) {
            self.vars.push((var.as_str(), Value::Card(c)));
        }
        self.frames.push(Frame::PopCtx);
        self.frames.push(self.block(&a.body));
    }

    /// A player uses an activated ability: its cost is paid at once; its effect runs next, or
    /// goes on the chain in a chain window.
    fn use_ability(
        &mut self,
        seat: Seat,
        card: CardId,
        this: CardId,
        ability: AbilityRef,
        chain: bool,
    ) {
        let a = self.prog.ability(ability);
        self.record_use(card, ability);
        let (who, kind) = (shown(seat), Program::short(&a.kind));
        self.log_cards("action", &[card], |n| {
            format!("p{who} uses {kind} of {}", n[0])
        });
        self.push_ctx(seat, Some(this), None, Some((card, ability)));
        self.frames.push(Frame::PopCtx);
        if chain {
            self.frames.push(Frame::ChainEffect { body: &a.effect });
        } else {
            self.frames.push(self.block(&a.effect));
        }
        self.frames.push(self.block(&a.cost));
    }

    pub(super) fn offer_request(&self, seat: Seat, offers: &[Offer]) -> Request {
        let options = offers
            .iter()
            .map(|o| match o {
                Offer::Pass => Choice {
                    label: "pass".into(),
                    action: None,
                    card: None,
                    card_id: None,
                },
                Offer::Action { action, card } => {
                    let name = Program::short(&self.prog.ruleset.actions[*action as usize].name.id)
                        .to_string();
                    let cname = card.map(|c| self.name_for(c, seat));
                    Choice {
                        label: match &cname {
                            Some(c) => joined(&name, c),
                            None => name.clone(),
                        },
                        action: Some(name),
                        card: card.filter(|c| self.visible_to(*c, seat)).and(cname),
                        card_id: *card,
                    }
                }
                Offer::Ability { card, ability, .. } => {
                    let kind = Program::short(&self.prog.ability(*ability).kind).to_string();
                    let cname = self.name_for(*card, seat);
                    Choice {
                        label: joined(&kind, &cname),
                        action: Some(kind),
                        card: self.visible_to(*card, seat).then_some(cname),
                        card_id: Some(*card),
                    }
                }
            })
            .collect();
        Request {
            player: seat,
            kind: RequestKind::Action,
            prompt: "your priority: take an action or pass".into(),
            options,
        }
    }

    /// The legal offers of a window for a player, "pass" last.
    pub(super) fn offers(&mut self, seat: Seat, entries: &'p [WindowEntry]) -> Vec<Offer> {
        // room for a few offers an entry and "pass": the list is not grown step by step
        let mut out = Vec::with_capacity(entries.len().saturating_mul(4).saturating_add(1));
        for e in entries {
            match e {
                WindowEntry::Action(id) => {
                    if let Some(&ai) = self.prog.action_index.get(id) {
                        self.action_offers(seat, ai, &mut out);
                    }
                }
                WindowEntry::Abilities { kind, attribute } => {
                    self.ability_offers(seat, kind, attribute.as_ref(), &mut out);
                }
            }
        }
        out.push(Offer::Pass);
        out
    }

    /// The offers of a ruleset action: once per candidate card meeting its `if` (identical
    /// cards in the same situation are one offer), or once when it has no candidates. Those
    /// of the last reading are kept while nothing that reading read changes (`rule_memo`).
    fn action_offers(&mut self, seat: Seat, ai: u16, out: &mut Vec<Offer>) {
        let verify = self.verify_skips;
        let kept = match self.kept_offers(seat, ai) {
            Some(kept) if !verify => {
                out.extend_from_slice(kept);
                return;
            }
            kept => kept.map(<[Offer]>::to_vec),
        };
        let start = out.len();
        let recorded = self.begin_offers_recording();
        self.read_action_offers(seat, ai, out);
        if recorded {
            self.end_offers_recording(seat, ai, &out[start..]);
        }
        if let Some(kept) = kept {
            let read = out[start..].to_vec();
            self.verify_kept_offers(ai, &kept, &read);
        }
    }

    /// [`Game::action_offers`] read from the game.
    fn read_action_offers(&mut self, seat: Seat, ai: u16, out: &mut Vec<Offer>) {
        let prog: &'p Program = self.prog;
        let a = &prog.ruleset.actions[ai as usize];
        self.push_ctx(seat, None, None, None);
        match (&a.var, &a.candidates) {
            (Some(var), Some(cands)) => {
                let mut cards = self
                    .eval(cands)
                    .map(|v| self.cards_of(&v))
                    .unwrap_or_default();
                // the conjuncts of the `if` that do not read the candidate are read once
                let mut split = match &a.condition {
                    Some(cond) if cards.len() > 1 => {
                        let split = self.action_split(ai, cond, var);
                        let sides = if split.fixed.iter().all(|&c| self.holds(c)) {
                            Self::unread_sides(&split)
                        } else {
                            cards.clear();
                            Vec::new()
                        };
                        Some((split, sides))
                    }
                    _ => None,
                };
                let mut seen_defs: SmallVec<[(u32, u64); 8]> = SmallVec::new();
                for c in cards {
                    self.vars.push((var.as_str(), Value::Card(c)));
                    let ok = match (&mut split, &a.condition) {
                        (Some((split, sides)), _) => {
                            let lowered = split.lowered.iter().copied();
                            split.per_value.iter().zip(lowered).all(|(conjunct, k)| {
                                self.conjunct_holds((split, conjunct), k, sides, c)
                            })
                        }
                        (None, Some(cond)) => {
                            let lowered = self.prog.conds.get(cond);
                            self.holds_candidate(c, lowered, cond)
                        }
                        (None, None) => true,
                    };
                    self.vars.pop();
                    if ok {
                        // identical cards in the same situation are one offer
                        let cs = &self.state.cards[c as usize];
                        let key = (cs.def, cs.states ^ ((cs.zone.zone as u64) << 48));
                        if cs.host.is_none() && !self.is_host(c) && seen_defs.contains(&key) {
                            continue;
                        }
                        seen_defs.push(key);
                        out.push(Offer::Action {
                            action: ai,
                            card: Some(c),
                        });
                    }
                }
            }
            _ => {
                if self.holds_or_true(a.condition.as_ref()) {
                    out.push(Offer::Action {
                        action: ai,
                        card: None,
                    });
                }
            }
        }
        self.pop_ctx_now();
    }

    /// Action `ai`'s `if`, split for its loop over its candidate `var` (split on the action's
    /// first offers with more than one candidate).
    fn action_split(&mut self, ai: u16, condition: &'p ir::Expr, var: &str) -> Rc<Split<'p>> {
        let i = usize::from(ai);
        if self.action_splits.len() <= i {
            self.action_splits.resize(i.saturating_add(1), None);
        }
        let prog: &'p Program = self.prog;
        self.action_splits[i]
            .get_or_insert_with(|| {
                let mut split = Split::of(condition, var);
                split.lowered = split
                    .per_value
                    .iter()
                    .map(|c| match c {
                        Conjunct::Whole(e) => prog.conds.get(e),
                        Conjunct::Compare { .. } => None,
                    })
                    .collect();
                Rc::new(split)
            })
            .clone()
    }

    /// Whether an optional condition holds (no condition: it does).
    fn holds_or_true(&mut self, cond: Option<&ir::Expr>) -> bool {
        match cond {
            Some(cond) => self.holds(cond),
            None => true,
        }
    }

    /// The offers of activated abilities of a kind (and attribute) on the cards a player
    /// controls: working where they are, within their limit, meeting their `if`, their cost
    /// payable in full.
    fn ability_offers(
        &mut self,
        seat: Seat,
        kind: &Id,
        attribute: Option<&Id>,
        out: &mut Vec<Offer>,
    ) {
        // the cards that may have one: those whose definitions have one, and hosts (a card
        // set on another may give it one); reading the abilities changes neither list
        let own = self.kind_cards(kind);
        let hosts = self.host_list();
        for c in merged(&own, &hosts) {
            if self.state.cards[c as usize].controller != seat {
                continue;
            }
            for (this, aref) in self.working_abilities(c) {
                let a = self.prog.ability(aref);
                if &a.kind != kind || a.semantics != ir::Semantics::Activated {
                    continue;
                }
                if attribute.is_some_and(|attr| !a.attributes.contains(attr)) {
                    continue;
                }
                if !self.ability_usable(seat, c, this, aref) {
                    continue;
                }
                out.push(Offer::Ability {
                    card: c,
                    this,
                    ability: aref,
                });
            }
        }
    }

    /// Whether a working ability could be used by `seat` now: within its limit, its `if`
    /// holding, its cost payable in full (the rule of payment: what can't be paid is not offered).
    pub(super) fn ability_usable(
        &mut self,
        seat: Seat,
        card: CardId,
        this: CardId,
        aref: AbilityRef,
    ) -> bool {
        let a = self.prog.ability(aref);
        if !self.limit_ok(card, aref) {
            return false;
        }
        if let Some(cond) = &a.condition {
            self.push_ctx(seat, Some(this), None, None);
            let ok = self.holds(cond);
            self.pop_ctx_now();
            if !ok {
                return false;
            }
        }
        self.payable(seat, Some(this), None, Some((card, aref)), &a.cost)
    }

    /// `usable(card, kind)`: whether the card has a working ability of that kind its
    /// controller could use now.
    pub(super) fn usable(&mut self, card: CardId, kind: &Id) -> bool {
        if self.usable_depth >= MAX_USABLE_DEPTH {
            return false;
        }
        self.usable_depth = self.usable_depth.saturating_add(1);
        let seat = self.state.cards[card as usize].controller;
        let ok = self
            .working_abilities(card)
            .into_iter()
            .any(|(this, aref)| {
                &self.prog.ability(aref).kind == kind && self.ability_usable(seat, card, this, aref)
            });
        self.usable_depth = self.usable_depth.saturating_sub(1);
        ok
    }
}

/// `a b`: an offer's label (built for every priority decision, so without `format!`).
fn joined(a: &str, b: &str) -> String {
    let mut s = String::with_capacity(a.len().saturating_add(b.len()).saturating_add(1));
    s.push_str(a);
    s.push(' ');
    s.push_str(b);
    s
}

/// How deeply `usable(…)` reads may nest (an ability whose `if` asks whether it is usable
/// would otherwise recurse without end); deeper reads are false.
const MAX_USABLE_DEPTH: u8 = 4;

/// A seat's bit in a set of seats (seats are below `ir::MAX_PLAYERS`, so it fits).
fn seat_bit(seat: Seat) -> u32 {
    1u32.checked_shl(u32::from(seat)).unwrap_or(0)
}
