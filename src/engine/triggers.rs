//! Check timings and abilities answering events: rule actions, pending triggers and their
//! order, which abilities work where, and whether an ability answers an event.

use super::agent::{Answer, Choice, Request, RequestKind};
use super::program::{AbilityRef, Program};
use super::rule_memo::memo_bit;
use super::state::{card_id, index16, seat, seat_after, shown, CardId, Outcome, Seat, Value};
use super::{EventData, Frame, Game, Lookback, Pending};
use crate::ir;
use smallvec::SmallVec;
use std::rc::Rc;

/// A card's working abilities, each with the card whose text it is (`this`), held in place
/// for the few a card has (they are listed at every event and priority).
pub(super) type Abilities = SmallVec<[(CardId, AbilityRef); 4]>;

/// [`Abilities`] with the card each ability is printed on (its source).
pub(super) type SourcedAbilities = SmallVec<[(CardId, AbilityRef, CardId); 4]>;

impl<'p> Game<'p> {
    /// One step of a check timing: a rule action for one player, or (the rules done) the next
    /// pending triggered ability, after which the rules run again.
    pub(super) fn check_step(&mut self) -> Result<(), Box<Request>> {
        let Some(Frame::Check { rules_done, .. }) = self.frames.last() else {
            return Ok(());
        };
        if !*rules_done {
            self.rules_step();
            return Ok(());
        }
        if self.pending.is_empty() {
            self.frames.pop();
            return Ok(());
        }
        let pick = self.pick_trigger()?;
        // the choice is made: only now does the check timing move on (a replayed step must
        // find it as it was)
        let Some(Frame::Check {
            interrupted,
            rules_done,
            rule,
            player,
            round,
            rounds,
            resolved,
            ..
        }) = self.frames.last_mut()
        else {
            return Ok(());
        };
        *resolved = resolved.saturating_add(1);
        let looping = *resolved > 2_000;
        *interrupted = false;
        *rules_done = false;
        *rule = 0;
        *player = 0;
        *round = None;
        *rounds = 0;
        if looping {
            let cards = self.loop_cards();
            self.note(format!(
                "an unavoidable loop: 2,000 triggered abilities in one check timing; the game is a draw (12.10){cards}"
            ));
            self.end(Outcome::Draw);
            return Ok(());
        }
        let p = self.pending.remove(pick);
        self.resolve_trigger(p)
    }

    /// The rule actions of a check timing: the interrupt rules first (unless they are running
    /// already), then the next rule for the next player in turn order; after the last, the
    /// rules again while a pass changed the game (at most 64 passes).
    ///
    /// A round that would begin where the last complete round changed nothing (the same
    /// [`RulesKey`]) is skipped: the rules read nothing else, so it would change nothing again.
    /// So is each rule run that would change nothing ([`Game::rule_unchanged`]): the cursor
    /// moves past it in this same step, to the next run that may change something (each run
    /// passed over still counts as a step toward the step limit).
    fn rules_step(&mut self) {
        self.end_rule_run();
        let prog: &'p Program = self.prog;
        let rules = &prog.check_rules;
        let run_interrupts = prog.has_interrupts() && !self.in_interrupt();
        let Some(Frame::Check {
            interrupted, round, ..
        }) = self.frames.last_mut()
        else {
            return;
        };
        if !*interrupted {
            *interrupted = true;
            if run_interrupts {
                self.push_interrupt_frame();
                return;
            }
        }
        if round.is_none() {
            let key = self.rules_key();
            let settled = self.rules_settled == Some(key.reads);
            if let Some(Frame::Check {
                rules_done, round, ..
            }) = self.frames.last_mut()
            {
                if settled {
                    *rules_done = true;
                } else {
                    *round = Some(Box::new(key));
                }
            }
            return;
        }
        if self.next_rule_runs(rules) {
            self.end_rules_round();
        }
    }

    /// Starts the next run of `rules` (check or interrupt rules) from the cursor of the check
    /// timing's or interrupt rules' frame on top, passing over each run that would change
    /// nothing ([`Game::rule_unchanged`]) in this same step. Whether the round is over: no
    /// run started, and the step limit did not stop the passing.
    pub(super) fn next_rule_runs(&mut self, rules: &[usize]) -> bool {
        let n = self.prog.players();
        let active = self.state.active as usize;
        if self.pass_standing_runs(rules, active, n) {
            return false;
        }
        loop {
            let cursor = match self.frames.last_mut() {
                Some(Frame::Check { rule, player, .. } | Frame::Interrupt { rule, player, .. }) => {
                    (rule, player)
                }
                _ => return false,
            };
            let Some((you, r)) = next_rule_run(cursor, rules, active, n) else {
                return true;
            };
            // a rule whose last run changed nothing, and nothing it read changed since, is
            // passed over
            let unchanged = self.rule_unchanged(you, r);
            if !unchanged || self.verify_skips {
                self.begin_rule_run(you, r, unchanged);
                self.run_rule(you, r);
                return false;
            }
            // what follows a passed-over run counts as the step it took before runs were
            // passed over in one step: the step limit falls where it did
            if self.steps >= self.max_steps {
                return false;
            }
            self.steps = self.steps.saturating_add(1);
        }
    }

    /// Moves the cursor of the rules' frame on top past the runs whose memos are known to
    /// stand and read nothing continuous abilities give ([`Game::passable_memos`]) — what
    /// [`Game::next_rule_runs`] does for each of them, one bit test each instead of a memo
    /// looked up: each counts a step, and at the step limit the passing stops as it does
    /// there (the run found at the limit is passed over uncounted, and no run starts).
    /// Whether it stopped at the limit.
    fn pass_standing_runs(&mut self, rules: &[usize], active: usize, n: usize) -> bool {
        let passable = self.passable_memos();
        let Some(Frame::Check { rule, player, .. } | Frame::Interrupt { rule, player, .. }) =
            self.frames.last()
        else {
            return false;
        };
        if passable == 0 {
            return false;
        }
        let (mut rule, mut player) = (*rule, *player);
        // a rule's memos are `n` bits in a row from its first (`Game::memo_index`): all of
        // them passable, a rule whose round starts is passed over whole
        let all = 1u64
            .checked_shl(u32::try_from(n).unwrap_or(u32::MAX))
            .map(|b| b.wrapping_sub(1));
        let whole = u64::try_from(n).unwrap_or(u64::MAX);
        let room = self.max_steps.saturating_sub(self.steps);
        let (mut taken, mut at_limit) = (0u64, false);
        while let Some(&r) = rules.get(rule as usize) {
            let first = u32::try_from(self.memo_index(0, r)).unwrap_or(u32::MAX);
            if player == 0
                && all.is_some_and(|all| passable.checked_shr(first).unwrap_or(0) & all == all)
                && room.saturating_sub(taken) > whole
            {
                rule = rule.saturating_add(1);
                taken = taken.saturating_add(whole);
                continue;
            }
            // the next run, passed over (the cursor moved on) only when its memo is passable
            let (mut next, mut next_player) = (rule, player);
            let Some((you, r)) = next_rule_run((&mut next, &mut next_player), rules, active, n)
            else {
                break;
            };
            if memo_bit(self.memo_index(you, r)).is_none_or(|bit| passable & bit == 0) {
                break;
            }
            (rule, player) = (next, next_player);
            if taken >= room {
                at_limit = true;
                break;
            }
            taken = taken.saturating_add(1);
        }
        if let Some(
            Frame::Check {
                rule: r, player: p, ..
            }
            | Frame::Interrupt {
                rule: r, player: p, ..
            },
        ) = self.frames.last_mut()
        {
            (*r, *p) = (rule, player);
        }
        self.steps = self.steps.saturating_add(taken);
        at_limit
    }

    /// After the last rule of a round: a round that changed nothing settles the rules (until
    /// something they read changes); one that changed the game starts another (at most 64).
    fn end_rules_round(&mut self) {
        let key = self.rules_key();
        let Some(Frame::Check {
            rules_done,
            rule,
            player,
            generation,
            round,
            rounds,
            ..
        }) = self.frames.last_mut()
        else {
            return;
        };
        if round.as_deref() == Some(&key) {
            self.rules_settled = Some(key.reads);
        }
        if self.state.generation != *generation && *rounds < 64 {
            *generation = self.state.generation;
            *rule = 0;
            *player = 0;
            *round = None;
            *rounds = rounds.saturating_add(1);
            return;
        }
        *rules_done = true;
    }

    /// Everything a round of the check rules can read besides the cards' and players' state,
    /// which the generation covers, and everything it can do without changing that state:
    /// a round that begins where a round that did nothing began would do nothing either.
    pub(super) fn rules_key(&self) -> RulesKey {
        let (shuffles, randoms) = self.stream_positions();
        RulesKey {
            reads: RulesReads {
                generation: self.state.generation,
                history: self.state.history.len(),
                turn: self.state.turn,
                active: self.state.active,
                phase: self.state.phase,
                uses: self.state.uses.len(),
            },
            log: self.lines_logged(),
            clock: self.state.clock,
            asked: self.asked,
            shuffles,
            randoms,
        }
    }

    /// The pending triggered ability to resolve next (an index into the pending list): the
    /// turn player's first, then the next player's; each player orders their own (an
    /// assumption of the core), asked only when they have several.
    fn pick_trigger(&mut self) -> Result<usize, Box<Request>> {
        if self.prog.ruleset.trigger_order == ir::TriggerOrder::TurnPlayer {
            return self.pick_from_ordered_batch();
        }
        let n = self.prog.players();
        let mut who = None;
        for k in 0..n {
            let seat = seat(seat_after(self.state.active as usize, k, n));
            if self.pending.iter().any(|p| p.controller == seat) {
                who = Some(seat);
                break;
            }
        }
        let seat = who.unwrap_or(0);
        let mine: Vec<usize> = (0..self.pending.len())
            .filter(|i| self.pending[*i].controller == seat)
            .collect();
        if mine.len() <= 1 || self.all_alike(&mine) {
            return Ok(mine[0]);
        }
        let asked = self.ask_with(|g| Request {
            player: seat,
            kind: RequestKind::OneOf,
            prompt: "choose the triggered ability to resolve next".into(),
            options: g.trigger_options(seat, &mine, false),
        });
        Ok(match asked? {
            Answer::Pick(i) => mine[i.min(mine.len().saturating_sub(1))],
            _ => mine[0],
        })
    }

    /// `trigger_order turn_player`: the next of the batch the turn player ordered; with none
    /// ordered, the turn player orders every waiting ability, both players' alike, before any
    /// resolves (asked once per place, until the rest are alike). Abilities triggered while a
    /// batch resolves wait for the next batch.
    fn pick_from_ordered_batch(&mut self) -> Result<usize, Box<Request>> {
        let ranked = (0..self.pending.len())
            .filter_map(|i| self.pending[i].rank.map(|r| (r, i)))
            .min();
        if let Some((_, i)) = ranked {
            return Ok(i);
        }
        let seat = self.state.active;
        let mut rest: Vec<usize> = (0..self.pending.len()).collect();
        let mut order: Vec<usize> = Vec::with_capacity(rest.len());
        while rest.len() > 1 && !self.all_alike_for_one(&rest) {
            let asked = self.ask_with(|g| g.order_request(seat, &rest));
            let k = match asked? {
                Answer::Pick(k) => k.min(rest.len().saturating_sub(1)),
                _ => 0,
            };
            order.push(rest.remove(k));
        }
        order.extend(rest);
        for (r, &i) in order.iter().enumerate() {
            self.pending[i].rank = Some(u32::try_from(r).unwrap_or(u32::MAX));
        }
        Ok(order.first().copied().unwrap_or(0))
    }

    /// Whether waiting abilities are alike (see `all_alike`) and all one player's: their order
    /// is then no choice.
    fn all_alike_for_one(&self, pending: &[usize]) -> bool {
        let first = pending.first().map(|i| self.pending[*i].controller);
        pending
            .iter()
            .all(|i| Some(self.pending[*i].controller) == first)
            && self.all_alike(pending)
    }

    /// The question "which of these resolves next", asked of `seat`.
    fn order_request(&self, seat: Seat, among: &[usize]) -> Request {
        Request {
            player: seat,
            kind: RequestKind::OneOf,
            prompt: "order the triggered abilities waiting: choose the one to resolve next".into(),
            options: self.trigger_options(seat, among, true),
        }
    }

    /// The options naming waiting abilities (`among`: indices into the pending list) for `seat`:
    /// the card as `seat` may see it and the ability's kind, with its controller when abilities of
    /// several players are listed.
    fn trigger_options(&self, seat: Seat, among: &[usize], controllers: bool) -> Vec<Choice> {
        among
            .iter()
            .map(|i| {
                let p = &self.pending[*i];
                let name = self.name_for(p.card, seat);
                let label = if controllers {
                    format!(
                        "{name} ({}, p{})",
                        self.pending_kind(p),
                        shown(p.controller)
                    )
                } else {
                    format!("{name} ({})", self.pending_kind(p))
                };
                Choice {
                    label,
                    action: None,
                    card: self.visible_to(p.card, seat).then_some(name),
                    card_id: Some(p.card),
                }
            })
            .collect()
    }

    /// A waiting ability's kind as an option names it: `<kind>`, or `<kind> of <card>` when the
    /// ability is printed on another card than the one it answers for (a support's text its
    /// host carries), so that two such abilities of one card read apart.
    fn pending_kind(&self, p: &Pending) -> String {
        let kind = Program::short(&self.prog.ability(p.ability).kind);
        let printed_on = p.ability.0;
        if printed_on == self.state.cards[p.card as usize].def {
            kind.to_string()
        } else {
            format!("{kind} of {}", self.prog.cards[printed_on as usize].name)
        }
    }

    /// Whether pending triggered abilities are alike, so that their order is no choice: the
    /// same ability of cards of one definition, for the same event with the same payload (cards
    /// in it compared by definition), and each answering for its own card.
    fn all_alike(&self, pending: &[usize]) -> bool {
        let def = |c: CardId| self.state.cards[c as usize].def;
        let payload = |p: &Pending| -> Vec<Value> {
            p.event
                .args
                .iter()
                .map(|v| match v {
                    Value::Card(c) if *c == p.card => Value::Text("this".into()),
                    Value::Card(c) => Value::Int(i64::from(def(*c))),
                    other => other.clone(),
                })
                .collect()
        };
        let key = |i: &usize| {
            let p = &self.pending[*i];
            (
                def(p.card),
                p.this == p.card,
                p.ability,
                p.event.event,
                payload(p),
            )
        };
        let Some(first) = pending.first().map(key) else {
            return true;
        };
        pending.iter().all(|i| key(i) == first)
    }

    pub(super) fn resolve_trigger(&mut self, p: Pending) -> Result<(), Box<Request>> {
        let a: &'p ir::Ability = self.prog.ability(p.ability);
        self.recent.push(p.card);
        if self.recent.len() > 64 {
            self.recent.remove(0);
        }
        let kind = Program::short(&a.kind);
        self.log_card_src("trigger", p.card, p.ability, |n| {
            format!("{n} triggers ({kind})")
        });
        let source = Some((p.card, p.ability));
        // the rule of payment: a cost that cannot be paid in full is not paid, and the
        // effect does not happen
        if !self.payable(
            p.controller,
            Some(p.this),
            Some(p.event.clone()),
            source,
            &a.cost,
        ) {
            // nothing was used: its limit is not spent
            self.log_cannot_pay(p.card, p.ability);
            return Ok(());
        }
        self.record_use(p.card, p.ability);
        self.push_ctx(
            p.controller,
            Some(p.this),
            Some(p.event.clone()),
            Some((p.card, p.ability)),
        );
        self.frames.push(Frame::PopCtx);
        let negated = p.negated || self.effect_negated_now(p.card);
        if !a.cost.is_empty() && self.prog.optional_cost_kinds.contains(&a.kind) {
            self.frames.push(Frame::OptionalCost {
                card: p.card,
                ability: p.ability,
                negated,
            });
            return Ok(());
        }
        self.push_cost_and_effect(p.card, p.ability, negated);
        Ok(())
    }

    /// A resolving triggered ability's cost, then its effect (or, negated, a log line saying it
    /// does nothing: 12.4.3, 【 】 text or not; its cost is still paid).
    fn push_cost_and_effect(&mut self, card: CardId, ability: AbilityRef, negated: bool) {
        let a: &'p ir::Ability = self.prog.ability(ability);
        if negated {
            let kind = Program::short(&a.kind);
            self.log_card_src("negate", card, ability, |n| {
                format!("{n}'s {kind} effect is negated: it does nothing")
            });
        } else {
            self.frames.push(self.block(&a.effect));
        }
        if !a.cost.is_empty() {
            self.frames.push(self.block(&a.cost));
        }
    }

    /// [`Frame::OptionalCost`]: the controller (`you` of the ability's context) says whether
    /// they pay the cost; paid, the cost and the effect run, else nothing happens and the log
    /// says so.
    pub(super) fn optional_cost_step(
        &mut self,
        card: CardId,
        ability: AbilityRef,
        negated: bool,
    ) -> Result<(), Box<Request>> {
        let a: &'p ir::Ability = self.prog.ability(ability);
        let kind = Program::short(&a.kind);
        let you = self.ctx().you;
        let asked = self.ask_with(|g| Request {
            player: you,
            kind: RequestKind::YesNo,
            prompt: format!(
                "pay the cost of {}'s {kind} ({})?",
                g.card_name(card),
                g.describe(&a.cost)
            ),
            options: Vec::new(),
        });
        let pay = asked? == Answer::Yes(true);
        self.frames.pop();
        if pay {
            self.push_cost_and_effect(card, ability, negated);
        } else {
            self.log_card_src("payment", card, ability, |n| {
                format!("{n}'s {kind}: its cost is not paid, and it does nothing")
            });
        }
        Ok(())
    }

    /// Runs rule `r` of the ruleset once, `you` being the player it runs for.
    pub(super) fn run_rule(&mut self, you: Seat, r: usize) {
        let prog: &'p Program = self.prog;
        self.push_ctx(you, None, None, None);
        let f = self.call_frames(&prog.ruleset.rules[r].body);
        self.frames.extend(f);
    }

    /// Every ability that works for a card where it is now: its own (by their zone), and the
    /// carried abilities of the cards set on it (`this` meaning it). Returns (this, ability).
    pub(super) fn working_abilities(&mut self, c: CardId) -> Abilities {
        let zone = self.state.cards[c as usize].zone.zone;
        self.abilities_in(c, zone)
    }

    pub(super) fn abilities_in(&mut self, c: CardId, zone: u16) -> Abilities {
        self.abilities_as(c, zone, None)
    }

    /// [`Game::abilities_in`], with the card's text negation given (a card that left a zone
    /// answers as it was there).
    pub(super) fn abilities_as(
        &mut self,
        c: CardId,
        zone: u16,
        neg: Option<(bool, bool)>,
    ) -> Abilities {
        self.sourced_abilities(c, zone, neg)
            .into_iter()
            .map(|(this, a, _)| (this, a))
            .collect()
    }

    /// [`Game::abilities_as`], each ability with the card whose text it is: the card itself,
    /// or for a carried ability the card set on it (6.1.11: a carried ability applies from the
    /// time its card was set). Returns (this, ability, source).
    pub(super) fn sourced_abilities(
        &mut self,
        c: CardId,
        zone: u16,
        neg: Option<(bool, bool)>,
    ) -> SourcedAbilities {
        let prog: &'p Program = self.prog;
        let def = self.state.cards[c as usize].def;
        let metas = &prog.meta[def as usize];
        let mut out = SourcedAbilities::new();
        let in_play = prog.in_play.get(zone as usize).copied().unwrap_or(false);
        let works = |m: &super::program::AbilityMeta| m.works_in(zone, in_play);
        if metas.iter().any(|m| !m.carried && works(m)) {
            let (negated, all) = match neg {
                Some(n) => n,
                None => self.text_negated(c),
            };
            for (i, m) in metas.iter().enumerate() {
                if m.carried || (negated && (all || !m.unnegatable)) {
                    continue;
                }
                if works(m) {
                    out.push((c, (def, index16(i)), c));
                }
            }
        }
        if self.is_host(c) {
            #[allow(clippy::explicit_iter_loop)]
            for att in self.attached_now(c) {
                let adef = self.state.cards[att as usize].def;
                let ametas = &prog.meta[adef as usize];
                if !ametas.iter().any(|m| m.carried) {
                    continue;
                }
                let (negated, all) = self.text_negated(att);
                for (i, m) in ametas.iter().enumerate() {
                    if !m.carried || (negated && (all || !m.unnegatable)) {
                        continue;
                    }
                    if works(m) {
                        out.push((c, (adef, index16(i)), att));
                    }
                }
            }
        }
        out
    }

    /// The cards set on a card, found by a walk over every card: for readers holding the game
    /// by shared reference (the board); the engine reads them from the hosts found
    /// (`Game::attached_now`).
    pub(super) fn attached(&self, c: CardId) -> Vec<CardId> {
        self.state
            .cards
            .iter()
            .enumerate()
            .filter(|(_, x)| x.host == Some(c))
            .map(|(i, _)| card_id(i))
            .collect()
    }

    /// Handles an emitted event: logged already; queues matching triggers (or waits for the
    /// end of a `simultaneously` block). An event nothing heeds ([`Program::heeded`]) is
    /// neither dispatched nor kept in the history: no ability answers it, and no `happened`,
    /// `cancel` or `cancelled` reads it.
    pub(super) fn emit(&mut self, e: EventData, lookback: Option<Lookback>) {
        if !self.heeds(e.event) {
            if self.verify_skips {
                self.verify_undispatched(e, lookback);
            }
            return;
        }
        if let Some(Some(b)) = self.batch.last_mut() {
            b.push((e, lookback));
            return;
        }
        self.dispatch(e, lookback);
    }

    /// Whether anything can see event `event` happen ([`Program::heeded`]): when not, the
    /// event is not emitted, and its payload need not be built.
    #[inline]
    pub(super) fn heeds(&self, event: u16) -> bool {
        self.prog
            .heeded
            .get(usize::from(event))
            .copied()
            .unwrap_or(true)
    }

    /// With `verify_skips`: an event left undispatched — nothing heeds it, or
    /// [`Game::dispatch_matters`] found nothing it could do — dispatched all the same (at
    /// once, as a `simultaneously` block's end would), which must queue no ability (no such
    /// event is kept in the history or ends a cancellation).
    pub(super) fn verify_undispatched(&mut self, e: EventData, lookback: Option<Lookback>) {
        self.verified_undispatched = self.verified_undispatched.saturating_add(1);
        let pending = self.pending.len();
        let event = e.event;
        self.dispatch(e, lookback);
        if self.pending.len() != pending {
            let id = &self.prog.ruleset.events[usize::from(event)].name.id;
            self.failed_checks.push(format!(
                "the event {id} was left undispatched as nothing could answer it, but an ability answered it"
            ));
            self.pending.truncate(pending);
        }
    }

    /// How many events left undispatched were dispatched all the same
    /// ([`Game::verify_rule_skips`]).
    #[doc(hidden)]
    pub fn verified_undispatched_events(&self) -> usize {
        self.verified_undispatched
    }

    /// Whether card `c`'s abilities on `event` all want the card itself at parameter `p`
    /// ([`Program::listens`]): a payload naming it there is looked at for it.
    fn wants_itself(&self, c: CardId, event: u16, p: u16) -> bool {
        let wants = self.state.cards.get(c as usize).and_then(|cs| {
            let listens = self.prog.listens.get(cs.def as usize)?;
            listens.iter().find(|(e, _)| *e == event).map(|(_, w)| *w)
        });
        wants == Some(Some(p))
    }

    /// Whether dispatching `event` now, with a payload naming a card only where `card_at`
    /// says (by parameter index), could do anything: keep it in the history, end a
    /// cancellation, or find a card whose abilities may answer it ([`Game::trigger_candidates`]
    /// not empty). When not, its payload need not be built. Inside a `simultaneously` block
    /// the events wait, and are always dispatched.
    pub(super) fn dispatch_matters(
        &mut self,
        event: u16,
        card_at: impl Fn(u16) -> Option<CardId>,
    ) -> bool {
        let prog: &'p Program = self.prog;
        let i = usize::from(event);
        self.heeds(event)
            && (prog.recorded.get(i) != Some(&false)
                || prog.cancellable.get(i) != Some(&false)
                || matches!(self.batch.last(), Some(Some(_)))
                || self.may_be_answered(event, card_at))
    }

    /// Whether some card's abilities may answer `event` (triggered or replacing it), with a
    /// payload naming a card only where `card_at` says (by parameter index): whether
    /// [`Game::trigger_candidates`] would find any card.
    pub(super) fn may_be_answered(
        &mut self,
        event: u16,
        card_at: impl Fn(u16) -> Option<CardId>,
    ) -> bool {
        if !self.listeners_of(event).is_empty() {
            return true;
        }
        let prog: &'p Program = self.prog;
        let self_params = prog.self_params.get(usize::from(event));
        self_params
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .any(|&p| card_at(p).is_some_and(|c| self.wants_itself(c, event, p)))
    }

    /// The cards whose abilities may answer an event with the payload `args`: those with a
    /// trigger or replacement on it, and the hosts of such cards (they carry the abilities set
    /// on them), in card order: the list, and a few cards to visit at their places in it
    /// (`layers::merged`). A card all of whose abilities on the event want the card itself at
    /// a parameter (a pattern `this`: [`Program::listens`]) is one only when the payload names
    /// it there: moving one card no longer looks at every card waiting for its own arrival.
    pub(super) fn trigger_candidates(
        &mut self,
        event: u16,
        args: &[Value],
    ) -> (Rc<[CardId]>, SmallVec<[CardId; 2]>) {
        let prog: &'p Program = self.prog;
        let mut named = SmallVec::new();
        for &p in prog
            .self_params
            .get(usize::from(event))
            .into_iter()
            .flatten()
        {
            if let Some(&Value::Card(c)) = args.get(usize::from(p)) {
                if self.wants_itself(c, event, p) && !named.contains(&c) {
                    named.push(c);
                }
            }
        }
        named.sort_unstable();
        let listeners = self.listeners_of(event);
        // no card set on another (the commonest case, known from the hosts kept up to date)
        // or none of the listeners set on one: the listeners themselves, in card order
        self.update_hosts();
        if self.hosts.list.is_empty()
            || listeners
                .iter()
                .all(|c| self.state.cards[*c as usize].host.is_none())
        {
            return (listeners, named);
        }
        // each listener and its host at most
        let mut out: Vec<CardId> = Vec::with_capacity(listeners.len().saturating_mul(2));
        for &c in listeners.iter() {
            out.push(c);
            if let Some(h) = self.state.cards[c as usize].host {
                out.push(h);
            }
        }
        out.sort_unstable();
        out.dedup();
        (out.into(), named)
    }

    /// The cards whose definitions have a trigger or replacement on an event, in card order,
    /// but for those that answer only a payload naming them ([`Program::listens`]): computed
    /// per event once for the game's cards (again if cards were added).
    fn listeners_of(&mut self, event: u16) -> Rc<[CardId]> {
        let n = self.state.cards.len();
        if self.listeners.0 != n {
            let events = self.prog.ruleset.events.len();
            let mut by_event: Vec<Vec<CardId>> = vec![Vec::new(); events];
            for (i, cs) in self.state.cards.iter().enumerate() {
                for &(ev, wants) in &self.prog.listens[cs.def as usize] {
                    if let (None, Some(l)) = (wants, by_event.get_mut(ev as usize)) {
                        l.push(card_id(i));
                    }
                }
            }
            self.listeners = (n, by_event.into_iter().map(Rc::from).collect());
        }
        self.listeners
            .1
            .get(event as usize)
            .cloned()
            .unwrap_or_else(|| Rc::from(Vec::new()))
    }

    pub(super) fn dispatch(&mut self, e: EventData, lookback: Option<Lookback>) {
        // the history keeps what `happened` reads (`Program::recorded`)
        if self.prog.recorded.get(usize::from(e.event)) == Some(&true) {
            self.state.history.push((e.event, Rc::clone(&e.args)));
            self.history_grew();
        }
        // an event happening ends the cancellations of it for its subject (most games have
        // none most of the time: then nothing is read)
        if !self.state.cancelled.is_empty() {
            let subject = e.args.first().unwrap_or(&Value::Absent);
            let cancellations = self.state.cancelled.len();
            self.state
                .cancelled
                .retain(|(ev, s)| !(*ev == e.event && s == subject));
            if self.state.cancelled.len() != cancellations {
                self.cancellations_changed();
            }
        }
        // shared (a context's and the pending abilities' event) once an ability may answer:
        // most events find none, and then nothing is allocated
        let mut shared: Option<Rc<EventData>> = None;
        let event = e.event;
        let (listed, named) = self.trigger_candidates(event, &e.args);
        for c in super::layers::merged(&listed, &named) {
            let (zone, neg) = match lookback {
                Some((lc, z, neg)) if lc == c => (z.zone, Some(neg)),
                _ => (self.state.cards[c as usize].zone.zone, None),
            };
            if !self.may_answer(c, zone, (event, ir::Semantics::Triggered), &e.args) {
                continue;
            }
            for (this, aref) in self.abilities_as(c, zone, neg) {
                if !self.prog.may_answer(aref, event, ir::Semantics::Triggered)
                    || !self.prog.names_this(aref, this, &e.args)
                    || !self.limit_ok(c, aref)
                {
                    continue;
                }
                let e = shared.get_or_insert_with(|| {
                    Rc::new(EventData {
                        event,
                        args: Rc::clone(&e.args),
                    })
                });
                let e = Rc::clone(e);
                if let Some(controller) = self.answers(c, this, aref, &e, ir::Semantics::Triggered)
                {
                    self.pending.push(Pending {
                        card: c,
                        this,
                        ability: aref,
                        controller,
                        event: e.clone(),
                        negated: false,
                        rank: None,
                    });
                }
            }
        }
    }

    /// Whether card `c`, in zone `zone`, may have an ability of `semantics` answering `event`
    /// with the payload `args`: one of its own that works there (and does not want the card
    /// itself where the payload names another), or any when cards are set on it (they may
    /// give it one). A card that may not is passed over without listing its abilities (none
    /// of them would answer).
    pub(super) fn may_answer(
        &mut self,
        c: CardId,
        zone: u16,
        (event, semantics): (u16, ir::Semantics),
        args: &[Value],
    ) -> bool {
        let def = self.state.cards[c as usize].def;
        self.prog
            .own_answer_in((def, c), zone, (event, semantics), args)
            || self.is_host(c)
    }

    /// Whether a condition holds now (a condition that cannot be read does not hold).
    pub(super) fn holds(&mut self, e: &ir::Expr) -> bool {
        self.eval_true(e).unwrap_or(false)
    }

    /// Whether an ability of a card answers an event: its semantics and event, its trigger's
    /// patterns and its `if`, read for its controller with `this` and `event` set. Gives the
    /// controller when it does.
    pub(super) fn answers(
        &mut self,
        card: CardId,
        this: CardId,
        aref: AbilityRef,
        e: &Rc<EventData>,
        semantics: ir::Semantics,
    ) -> Option<Seat> {
        if !self.prog.may_answer(aref, e.event, semantics) {
            return None;
        }
        let a: &'p ir::Ability = self.prog.ability(aref);
        let t = a.trigger.as_ref()?;
        let controller = self.state.cards[this as usize].controller;
        self.push_ctx(controller, Some(this), Some(e.clone()), Some((card, aref)));
        let ok = self.pattern_matches(t, e)
            && match &a.condition {
                Some(cond) => self.holds(cond),
                None => true,
            };
        self.pop_ctx_now();
        ok.then_some(controller)
    }

    pub(super) fn pattern_matches(&mut self, t: &'p ir::Trigger, e: &EventData) -> bool {
        let params = &self.prog.ruleset.events[e.event as usize].params;
        for (name, pat) in &t.when {
            let Some(i) = params.iter().position(|p| &p.name == name) else {
                return false;
            };
            let Ok(want) = self.eval(pat) else {
                return false;
            };
            let got = e.args.get(i).cloned().unwrap_or(Value::Absent);
            if !self.value_matches(&want, &got) {
                return false;
            }
        }
        true
    }

    pub(super) fn value_matches(&self, want: &Value, got: &Value) -> bool {
        match (want, got) {
            (Value::Zone(z, owners), Value::Zone(gz, gowners)) => {
                z == gz && gowners.iter().all(|o| owners.contains(o))
            }
            (Value::Cards(cs), Value::Card(c)) => cs.contains(c),
            (Value::Players(ps), Value::Player(p)) => ps.contains(p),
            (a, b) => a == b,
        }
    }

    /// Whether an ability is within its `limit` for this incarnation of the card (uses are
    /// counted as a `usize`: no count wraps).
    pub(super) fn limit_ok(&self, card: CardId, aref: AbilityRef) -> bool {
        let a = self.prog.ability(aref);
        let Some(l) = &a.limit else { return true };
        let inc = self.state.cards[card as usize].incarnation;
        let used = self
            .state
            .uses
            .iter()
            .filter(|u| u.0 == card && u.1 == inc && u.2 == aref.0 && u.3 == aref.1)
            .count();
        used < l.count as usize
    }

    pub(super) fn record_use(&mut self, card: CardId, aref: AbilityRef) {
        let a = self.prog.ability(aref);
        if let Some(l) = &a.limit {
            let inc = self.state.cards[card as usize].incarnation;
            let per = l.per.clone();
            self.state.uses.push((card, inc, aref.0, aref.1, per));
        }
    }

    // ───────────── endings, logging ─────────────
}

/// The next run of a round of rules — each rule once per player, in turn order from the active
/// player — as (the player, the rule's index in the ruleset), moving the cursor (`rule`,
/// `player`) on; `None` once the round is over. Check timings and interrupt rules step alike.
/// A round of the check rules: what it reads, and the marks of anything it did (a line
/// logged, an answer taken, a random number drawn, a timestamp taken). See [`Game::rules_key`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RulesKey {
    reads: RulesReads,
    log: u64,
    clock: u64,
    asked: u64,
    shuffles: u128,
    randoms: u128,
}

/// What the check rules read besides the state the generation covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RulesReads {
    generation: u64,
    history: usize,
    turn: u32,
    active: Seat,
    phase: Option<u16>,
    uses: usize,
}

pub(super) fn next_rule_run(
    (rule, player): (&mut u32, &mut u32),
    rules: &[usize],
    active: usize,
    n: usize,
) -> Option<(Seat, usize)> {
    let r = *rules.get(*rule as usize)?;
    let you = seat(seat_after(active, *player as usize, n));
    *player = player.saturating_add(1);
    if *player as usize >= n {
        *player = 0;
        *rule = rule.saturating_add(1);
    }
    Some((you, r))
}
