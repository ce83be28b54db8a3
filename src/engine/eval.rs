//! Expressions. Evaluating changes nothing in the game; a choice inside an expression is taken
//! from the statement's replayed answers or stops the statement with a request.
//!
//! [`Game::eval`] dispatches; the expression families — a card's characteristics, tests on a
//! card, card sets and choices (`choice.rs`), arithmetic — each have their own methods.

mod choice;
mod invariant;
mod random;
mod typed;

pub(super) use invariant::{asks_or_draws, Conjunct, Split};

use super::agent::Request;
use super::program::Program;
use super::state::{next_seat, seat, seat_after, CardId, Seat, Seats, Value, ZoneKey};
use super::Game;
use crate::ir::{self, Expr, Id, Op, Type};
use std::rc::Rc;

/// A list of cards, a few of them held in place.
pub(super) type CardList = smallvec::SmallVec<[CardId; 4]>;

impl<'p> Game<'p> {
    /// Evaluates an expression in the current context.
    pub(super) fn eval(&mut self, e: &Expr) -> Result<Value, Box<Request>> {
        self.note_read(e);
        Ok(match e {
            Expr::Int(n) => Value::Int(*n),
            Expr::Text(t) => Value::Text(t.clone()),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Pair(p) => Value::Pair(p.clone()),
            Expr::This => self.ctx().this.map_or(Value::Absent, Value::Card),
            Expr::It => self.its.last().map_or(Value::Absent, |c| Value::Card(*c)),
            Expr::Candidate(k) => self.candidate(*k),
            Expr::You => Value::Player(self.ctx().you),
            Expr::Opponent => Value::Player(self.opponent_of(self.ctx().you)),
            Expr::EachPlayer => Value::Players(self.seats_from_turn_player()),
            Expr::TurnNumber => Value::Int(i64::from(self.state.turn)),
            Expr::DeckFormat => self.deck_format.clone().map_or(Value::Absent, Value::Text),
            Expr::Var(name) => self.var(name),
            Expr::EventParam(name) => self.event_param(name),
            Expr::Zone { zone, owner } => self.eval_zone(zone, owner.as_deref())?,
            // a card's characteristics and relations
            Expr::Stat { of, stat } => match self.eval_card(of)? {
                Some(c) => self.stat_value(c, stat),
                None => Value::Absent,
            },
            Expr::Counter { of, counter } => self.eval_counter(of, counter)?,
            Expr::Field { of, field } => self
                .eval_card(of)?
                .map_or(Value::Absent, |c| self.field(c, field)),
            Expr::KeywordValue { card, keyword } => self.keyword_value(card, keyword)?,
            Expr::Related { of, relation } => self.related(of, relation)?,
            Expr::Owner(x) => self.eval_card(x)?.map_or(Value::Absent, |c| {
                Value::Player(self.state.cards[c as usize].owner)
            }),
            Expr::Controller(x) => self.eval_card(x)?.map_or(Value::Absent, |c| {
                Value::Player(self.state.cards[c as usize].controller)
            }),
            Expr::OpponentOf(x) => match self.eval(x)? {
                Value::Player(p) => Value::Player(self.opponent_of(p)),
                _ => Value::Absent,
            },
            Expr::Attached(x) => {
                let cards = self
                    .eval_card(x)?
                    .map_or_else(Vec::new, |c| self.attached_now(c).into_vec());
                self.note_zones_of(&cards);
                Value::Cards(cards)
            }
            Expr::Host(x) => {
                let host = self
                    .eval_card(x)?
                    .and_then(|c| self.state.cards[c as usize].host);
                self.note_zones_of(host.as_slice());
                host.map_or(Value::Absent, Value::Card)
            }
            // tests
            Expr::Not(x) => Value::Bool(!self.eval_true(x)?),
            Expr::Contains { haystack, needle } => Value::Bool(self.contains(haystack, needle)?),
            Expr::EffectNegated(c) => match self.eval(c)? {
                Value::Card(c) => Value::Bool(self.card_effect_negated(c)),
                _ => Value::Bool(false),
            },
            Expr::SameCard(a, b) => match (self.eval(a)?, self.eval(b)?) {
                (Value::Card(x), Value::Card(y)) => {
                    let def =
                        |c: CardId| &self.prog.cards[self.state.cards[c as usize].def as usize];
                    Value::Bool(def(x).normalized_number == def(y).normalized_number)
                }
                _ => Value::Bool(false),
            },
            Expr::IsTurnPlayer(p) => Value::Bool(self.eval(p)? == Value::Player(self.state.active)),
            Expr::IsKind { value, kind } => self.is_kind(value, kind)?,
            Expr::Cancelled { event, subject } => self.cancelled(event, subject)?,
            Expr::Happened {
                pattern,
                cards,
                since,
            } => self.happened(pattern, cards.as_deref(), since.as_ref())?,
            Expr::HasKeyword { card, keyword } => {
                self.card_test(card, |g, c| g.has_keyword(c, keyword))?
            }
            Expr::PlayerHas { player, keyword } => self.player_has(player, keyword)?,
            Expr::Printed { of, stat } => self.printed_stat(of, stat)?,
            Expr::Modified { of, stat, layer } => self.stat_modified(of, stat, layer.as_ref())?,
            Expr::HasAbility { card, kind } => {
                self.card_test(card, |g, c| g.any_ability(c, |a| &a.kind == kind))?
            }
            Expr::HasAttribute { card, attribute } => self.card_test(card, |g, c| {
                g.any_ability(c, |a| a.attributes.contains(attribute))
            })?,
            Expr::FaceIs { card, face } => self.card_test(card, |g, c| g.face_is(c, *face))?,
            Expr::InState { card, state } => {
                self.card_test(card, |g, c| g.in_state_named(c, state))?
            }
            Expr::OfType { card, card_type } => {
                self.card_test(card, |g, c| g.of_type(c, card_type))?
            }
            // numbers
            Expr::Count(x) => Value::Int(self.count_of(x)?),
            Expr::Distinct { cards, field } => self.distinct(cards, field)?,
            Expr::Total { key, cards } => self.total(key, cards)?,
            Expr::Usable { card, kind } => match self.eval(card)? {
                Value::Card(c) => Value::Bool(self.usable(c, kind)),
                _ => Value::Bool(false),
            },
            Expr::Min(a, b) => self.int_pair(a, b, i64::min)?,
            Expr::Max(a, b) => self.int_pair(a, b, i64::max)?,
            Expr::Neg(x) => match self.eval(x)? {
                Value::Int(n) => Value::Int(n.saturating_neg()),
                _ => Value::Absent,
            },
            Expr::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs)?,
            Expr::Coalesce(a, b) => match self.eval(a)? {
                Value::Absent => self.eval(b)?,
                v => v,
            },
            // card sets and choices (choice.rs)
            Expr::Filter { cards, condition } => self.filter(cards, condition)?,
            Expr::TopOf { top, count, zone } => self.top_of(*top, count, zone)?,
            Expr::Choose {
                kind,
                chooser,
                min,
                max,
                from,
            } => self.choose(*kind, chooser, min, max.as_deref(), from)?,
            Expr::Declare(what) => self.declare(what)?,
            Expr::List(items) => self.list(items)?,
            // random picks (random.rs)
            Expr::RandomCards { count, from } => self.random_cards(count, from)?,
            Expr::RandomPlayer => self.random_player(),
            Expr::Extreme {
                highest,
                key,
                cards,
            } => self.extreme(*highest, key, cards)?,
            Expr::RandomNumber { low, high } => self.random_number(low, high)?,
            // slots (slots.rs)
            Expr::SlotOf(card) => self.slot_of(card)?,
            Expr::AtSlot { cards, slot } => self.at_slot(cards, slot)?,
            Expr::ChooseSlot {
                chooser,
                optional,
                zone,
                within,
                condition,
            } => self.choose_slot(
                chooser,
                *optional,
                zone,
                within.as_deref(),
                condition.as_deref(),
            )?,
            Expr::SlotCandidate(k) => self.slot_candidate(*k),
        })
    }

    /// The card an expression names, if it names one card.
    pub(super) fn eval_card(&mut self, e: &Expr) -> Result<Option<CardId>, Box<Request>> {
        Ok(match e {
            Expr::It => self.its.last().copied(),
            Expr::This => self.ctx().this,
            Expr::Var(name) => {
                self.note_read(e);
                match self.var_ref(name) {
                    Some(Value::Card(c)) => Some(*c),
                    _ => None,
                }
            }
            _ => match self.eval(e)? {
                Value::Card(c) => Some(c),
                _ => None,
            },
        })
    }

    /// The player an expression names; `you` when it names none.
    pub(super) fn player_or_you(&mut self, e: &Expr) -> Result<Seat, Box<Request>> {
        Ok(match self.eval(e)? {
            Value::Player(p) => p,
            _ => self.ctx().you,
        })
    }

    /// A test on a card: false when the expression names no card.
    fn card_test(
        &mut self,
        card: &Expr,
        test: impl FnOnce(&mut Self, CardId) -> bool,
    ) -> Result<Value, Box<Request>> {
        Ok(Value::Bool(match self.eval_card(card)? {
            Some(c) => test(self, c),
            None => false,
        }))
    }

    /// The parameter of the event being answered, by name.
    fn event_param(&self, name: &str) -> Value {
        let Some(ev) = self.ctx().event.clone() else {
            return Value::Absent;
        };
        let params = &self.prog.ruleset.events[ev.event as usize].params;
        params
            .iter()
            .position(|p| p.name == name)
            .and_then(|i| ev.args.get(i).cloned())
            .unwrap_or(Value::Absent)
    }

    /// Every seat in turn order, from the turn player (what `each` names, so a verb given
    /// `each` runs for the turn player first).
    fn seats_from_turn_player(&self) -> Vec<Seat> {
        let n = self.prog.players();
        let active = self.state.active as usize;
        (0..n).map(|k| seat(seat_after(active, k, n))).collect()
    }

    /// A zone of some players: the owners named, or (bare) `you`'s — every player's for a zone
    /// declared `bare_means_every`.
    pub(super) fn eval_zone(
        &mut self,
        zone: &Id,
        owner: Option<&Expr>,
    ) -> Result<Value, Box<Request>> {
        Ok(self
            .zone_named(zone, owner)?
            .map_or(Value::Absent, |(z, owners)| Value::Zone(z, owners)))
    }

    /// The zone [`Game::eval_zone`] reads, as its index and owners, with no value built
    /// (`None`: the program has no such zone).
    pub(super) fn zone_named(
        &mut self,
        zone: &Id,
        owner: Option<&Expr>,
    ) -> Result<Option<(u16, Seats)>, Box<Request>> {
        let Some(&z) = self.prog.zones.get(zone) else {
            return Ok(None);
        };
        let owners: Seats = match owner {
            None => {
                if self.prog.ruleset.zones[z as usize].bare_means_every {
                    self.prog.seats().collect()
                } else {
                    smallvec::smallvec![self.ctx().you]
                }
            }
            Some(Expr::You) => smallvec::smallvec![self.ctx().you],
            Some(o @ Expr::Var(name)) => {
                // a player variable (a verb's parameter) read in place
                self.note_read(o);
                self.var_ref(name)
                    .map_or_else(Seats::new, |v| self.zone_owners(v))
            }
            Some(o) => {
                let v = self.eval(o)?;
                self.zone_owners(&v)
            }
        };
        if self.recording() {
            for &o in &owners {
                self.note_zone(ZoneKey { zone: z, owner: o });
            }
        }
        Ok(Some((z, owners)))
    }

    /// Whose zone `<owner>.<zone>` names: a player, players, or a card's controller.
    fn zone_owners(&self, owner: &Value) -> Seats {
        match owner {
            Value::Player(p) => smallvec::smallvec![*p],
            Value::Players(ps) => ps.iter().copied().collect(),
            Value::Card(c) => smallvec::smallvec![self.state.cards[*c as usize].controller],
            _ => Seats::new(),
        }
    }

    /// A counter of a card or a player.
    fn eval_counter(&mut self, of: &Expr, counter: &Id) -> Result<Value, Box<Request>> {
        let Some(&k) = self.prog.counter_index.get(counter) else {
            return Ok(Value::Absent);
        };
        if let Expr::It | Expr::This = of {
            // a card's counter: read the card directly
            return Ok(self.eval_card(of)?.map_or(Value::Absent, |c| {
                Value::Int(self.state.cards[c as usize].counters[k as usize])
            }));
        }
        Ok(match self.eval(of)? {
            Value::Card(c) => Value::Int(self.state.cards[c as usize].counters[k as usize]),
            Value::Player(p) => Value::Int(self.state.players[p as usize].counters[k as usize]),
            _ => Value::Absent,
        })
    }

    /// A keyword's first value on a card (`card.keyword`).
    fn keyword_value(&mut self, card: &Expr, keyword: &Id) -> Result<Value, Box<Request>> {
        let Some(c) = self.eval_card(card)? else {
            return Ok(Value::Absent);
        };
        let k = self.prog.keyword_index.get(keyword).copied();
        Ok(k.and_then(|k| self.keyword_args(c, k))
            .and_then(|a| a.into_iter().next())
            .unwrap_or(Value::Absent))
    }

    /// Whether a card has a keyword now.
    fn has_keyword(&mut self, c: CardId, keyword: &Id) -> bool {
        let k = self.prog.keyword_index.get(keyword).copied();
        k.is_some_and(|k| self.keyword_held(c, k))
    }

    /// Whether a card shows a face.
    fn face_is(&self, c: CardId, face: ir::Face) -> bool {
        self.state.cards[c as usize].face_up == (face == ir::Face::Up)
    }

    /// Whether a card is in a state, by id (a state the game lacks: no).
    fn in_state_named(&self, c: CardId, state: &Id) -> bool {
        self.prog
            .state_index
            .get(state)
            .is_some_and(|s| self.state.in_state(c, *s))
    }

    /// Whether one of a card's working abilities passes a test.
    fn any_ability(&mut self, c: CardId, test: impl Fn(&ir::Ability) -> bool) -> bool {
        let abilities = self.working_or_printed(c);
        abilities.iter().any(|a| test(self.prog.ability(*a)))
    }

    /// `x is player`, `x is card`.
    fn is_kind(&mut self, value: &Expr, kind: &Type) -> Result<Value, Box<Request>> {
        let v = self.eval(value)?;
        Ok(Value::Bool(match kind {
            Type::Player => matches!(v, Value::Player(_)),
            Type::Card => matches!(v, Value::Card(_)),
            _ => false,
        }))
    }

    /// `cancelled(e, x)`: whether `e` was cancelled for `x` since it was last emitted for it.
    fn cancelled(&mut self, event: &Id, subject: &Expr) -> Result<Value, Box<Request>> {
        let s = self.eval(subject)?;
        let e = self.prog.event_index.get(event).copied();
        Ok(Value::Bool(e.is_some_and(|e| {
            self.state.cancelled.iter().any(|(x, v)| *x == e && *v == s)
        })))
    }

    /// `happened(…)`: how many events of the pattern's kind matching it the game has handled
    /// since it last reached `since` (or in the whole game); with `cards`, the cards that
    /// parameter named, each once, oldest first.
    fn happened(
        &mut self,
        pattern: &ir::Trigger,
        cards: Option<&str>,
        since: Option<&Id>,
    ) -> Result<Value, Box<Request>> {
        let none = if cards.is_some() {
            Value::Cards(Vec::new())
        } else {
            count_value(0)
        };
        let Some(&ev) = self.prog.event_index.get(&pattern.event) else {
            return Ok(none);
        };
        let params = &self.prog.ruleset.events[ev as usize].params;
        let mut wants = Vec::with_capacity(pattern.when.len());
        for (name, pat) in &pattern.when {
            let Some(i) = params.iter().position(|p| &p.name == name) else {
                return Ok(none);
            };
            wants.push((i, self.eval(pat)?));
        }
        let at = cards.and_then(|n| params.iter().position(|p| p.name == n));
        let from = since
            .and_then(|m| self.prog.moment_index.get(m))
            .and_then(|m| self.state.reached.get(m).copied())
            .unwrap_or(0);
        let mut n = 0usize;
        let mut found: Vec<CardId> = Vec::new();
        for (e, args) in self.state.history.iter().skip(from) {
            let hit = *e == ev
                && wants.iter().all(|(i, want)| {
                    let got = args.get(*i).cloned().unwrap_or(Value::Absent);
                    self.value_matches(want, &got)
                });
            if !hit {
                continue;
            }
            n = n.saturating_add(1);
            if let Some(Value::Card(c)) = at.and_then(|i| args.get(i)) {
                if !found.contains(c) {
                    found.push(*c);
                }
            }
        }
        Ok(if cards.is_some() {
            Value::Cards(found)
        } else {
            count_value(n)
        })
    }

    /// How many players, list items or cards a value holds.
    fn count(&mut self, x: &Expr) -> Result<Value, Box<Request>> {
        let v = self.eval(x)?;
        let n = match &v {
            Value::Players(p) => p.len(),
            Value::List(l) => l.len(),
            _ => self.cards_count(&v),
        };
        Ok(count_value(n))
    }

    /// How many different texts a field holds across cards.
    fn distinct(&mut self, cards: &Expr, field: &str) -> Result<Value, Box<Request>> {
        let v = self.eval(cards)?;
        let mut seen: Vec<String> = Vec::new();
        for c in self.cards_of(&v) {
            let vals = match self.field(c, field) {
                Value::List(l) => std::sync::Arc::unwrap_or_clone(l),
                Value::Absent => Vec::new(),
                x => vec![x],
            };
            for x in vals {
                if let Value::Text(t) = x {
                    if !seen.contains(&t) {
                        seen.push(t);
                    }
                }
            }
        }
        Ok(count_value(seen.len()))
    }

    /// The sum of a number read from each card (`it` bound to it); a card without one adds
    /// nothing; the sum saturates.
    fn total(&mut self, key: &Expr, cards: &Expr) -> Result<Value, Box<Request>> {
        let mut sum: i64 = 0;
        let mut add = |g: &mut Self, c| {
            if let Some(k) = g.key_of(key, c)? {
                sum = sum.saturating_add(k);
            }
            Ok(())
        };
        if let Expr::Filter { cards, condition } = cards {
            // the cards meeting the condition read in place, not listed first
            self.each_holding(cards, condition, |g, c, _| add(g, c))?;
        } else {
            let v = self.eval(cards)?;
            for c in self.cards_of(&v) {
                add(self, c)?;
            }
        }
        Ok(Value::Int(sum))
    }

    /// Two numbers combined (`min`, `max`); absent unless both are numbers.
    fn int_pair(
        &mut self,
        a: &Expr,
        b: &Expr,
        f: impl FnOnce(i64, i64) -> i64,
    ) -> Result<Value, Box<Request>> {
        Ok(match (self.eval(a)?, self.eval(b)?) {
            (Value::Int(a), Value::Int(b)) => Value::Int(f(a, b)),
            _ => Value::Absent,
        })
    }

    /// A variable of the running context (the latest of that name).
    fn var(&self, name: &str) -> Value {
        self.var_ref(name).cloned().unwrap_or(Value::Absent)
    }

    /// The value of a variable, read in place: the innermost binding of the name in the
    /// running context, then the variables a `while` duration captured.
    fn var_ref(&self, name: &str) -> Option<&Value> {
        let ctx = self.ctx();
        self.vars[ctx.vars_base..]
            .iter()
            .rev()
            .find(|(n, _)| same_name(n, name))
            .map(|(_, v)| v)
            .or_else(|| {
                let captured = ctx.captured.as_ref()?;
                captured
                    .iter()
                    .find(|(n, _)| same_name(n, name))
                    .map(|(_, v)| v)
            })
    }

    /// The next player after `p`.
    pub(super) fn opponent_of(&self, p: Seat) -> Seat {
        seat(next_seat(p as usize, self.prog.players()))
    }

    /// A binary operator: `and`/`or` short-circuit; comparisons and arithmetic on numbers.
    fn binary(&mut self, op: Op, lhs: &Expr, rhs: &Expr) -> Result<Value, Box<Request>> {
        if op == Op::And {
            return Ok(Value::Bool(self.eval_true(lhs)? && self.eval_true(rhs)?));
        }
        if op == Op::Or {
            return Ok(Value::Bool(self.eval_true(lhs)? || self.eval_true(rhs)?));
        }
        let a = self.eval(lhs)?;
        let b = self.eval(rhs)?;
        Ok(match op {
            Op::Eq => Value::Bool(self.equal(&a, &b)),
            Op::Ne => Value::Bool(!self.equal(&a, &b)),
            _ => match (a, b) {
                (Value::Int(a), Value::Int(b)) => match op {
                    Op::Lt => Value::Bool(a < b),
                    Op::Le => Value::Bool(a <= b),
                    Op::Gt => Value::Bool(a > b),
                    Op::Ge => Value::Bool(a >= b),
                    _ => arithmetic(op, a, b).map_or(Value::Absent, Value::Int),
                },
                (Value::Absent, _) | (_, Value::Absent) => match op {
                    Op::Lt | Op::Le | Op::Gt | Op::Ge => Value::Bool(false),
                    _ => Value::Absent,
                },
                _ => Value::Absent,
            },
        })
    }

    /// Equality, with a card equal to a set of just that card.
    fn equal(&self, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Card(x), Value::Cards(v)) | (Value::Cards(v), Value::Card(x)) => {
                v.len() == 1 && v[0] == *x
            }
            (Value::Zone(z, o), Value::Zone(z2, o2)) => z == z2 && o == o2,
            _ => a == b,
        }
    }

    /// The cards a value stands for; ordered zones list their top card first. A few cards are
    /// listed in place (most statements name one card: no allocation).
    pub(super) fn cards_of(&self, v: &Value) -> CardList {
        match v {
            Value::Card(c) => smallvec::smallvec![*c],
            Value::Cards(cs) => CardList::from_slice(cs),
            _ => {
                let mut out = CardList::with_capacity(self.cards_count(v));
                self.cards_into(v, &mut out);
                out
            }
        }
    }

    /// [`Game::cards_of`] as a `Vec` (for a list kept or given on as one).
    pub(super) fn cards_vec(&self, v: &Value) -> Vec<CardId> {
        let mut out = Vec::with_capacity(self.cards_count(v));
        self.cards_into(v, &mut out);
        out
    }

    /// [`Game::cards_of`] in a list taken from the pool: give it back with
    /// [`Game::recycle_cards`] when done.
    pub(super) fn pooled_cards_of(&mut self, v: &Value) -> Vec<CardId> {
        let mut out = self.card_pool.0.pop().unwrap_or_default();
        self.cards_into(v, &mut out);
        out
    }

    /// Gives a list back to the pool, emptied.
    pub(super) fn recycle_cards(&mut self, mut list: Vec<CardId>) {
        /// Lists kept: as many as filters are nested, at most.
        const KEPT: usize = 8;
        if self.card_pool.0.len() < KEPT {
            list.clear();
            self.card_pool.0.push(list);
        }
    }

    /// How many cards [`Game::cards_of`] lists, without listing them.
    pub(super) fn cards_count(&self, v: &Value) -> usize {
        match v {
            Value::Card(_) => 1,
            Value::Cards(cs) => cs.len(),
            Value::Zone(z, owners) => owners
                .iter()
                .map(|o| ZoneKey {
                    zone: *z,
                    owner: *o,
                })
                // a zone read as another does not exist meanwhile (3.3.6.b)
                .filter(|k| !self.state.aliases.iter().any(|a| a.from == *k))
                .map(|k| self.state.zone(k).len())
                .fold(0, usize::saturating_add),
            Value::List(l) => l
                .iter()
                .map(|x| self.cards_count(x))
                .fold(0, usize::saturating_add),
            _ => 0,
        }
    }

    /// [`Game::cards_of`], appended to `out`.
    fn cards_into<L: Extend<CardId>>(&self, v: &Value, out: &mut L) {
        match v {
            Value::Card(c) => out.extend([*c]),
            Value::Cards(cs) => out.extend(cs.iter().copied()),
            Value::Zone(z, owners) => self.zone_cards_into(*z, owners, out),
            Value::List(l) => {
                for x in l.iter() {
                    self.cards_into(x, out);
                }
            }
            _ => {}
        }
    }

    /// The cards of zone `z` of each of `owners`, appended to `out` as [`Game::cards_of`]
    /// lists them (an ordered zone from its top).
    pub(super) fn zone_cards_into<L: Extend<CardId>>(&self, z: u16, owners: &[Seat], out: &mut L) {
        for &owner in owners {
            let k = ZoneKey { zone: z, owner };
            if self.state.aliases.iter().any(|a| a.from == k) {
                continue; // a zone read as another does not exist meanwhile (3.3.6.b)
            }
            let cards = self.state.zone(k);
            if self.prog.ruleset.zones[z as usize].ordered {
                out.extend(cards.iter().rev().copied());
            } else {
                out.extend(cards.iter().copied());
            }
        }
    }

    /// A card's current type id (12.5 "treat as" first).
    pub(super) fn card_type(&self, c: CardId) -> &str {
        let cs = &self.state.cards[c as usize];
        match &cs.treat {
            Some(t) => &t.card_type,
            None => &self.prog.cards[cs.def as usize].card_type,
        }
    }

    /// Whether a card is of a card type, or of one that counts as it where the card is, out of
    /// the state named by `unless` (`card_type echo = unit on arena unless fading`).
    pub(super) fn of_type(&self, c: CardId, card_type: &str) -> bool {
        let t = self.card_type(c);
        if t == card_type {
            return true;
        }
        if self.prog.counts_as.is_empty() {
            return false;
        }
        match self.prog.counts_as.get(t) {
            Some((as_type, zone, unless)) => {
                as_type == card_type && self.counts_as_here(c, *zone, *unless)
            }
            None => false,
        }
    }

    /// Whether a card's type counts as another where the card is now: in the zone the
    /// counting names (`None`: anywhere), out of the state it names (`None`: none).
    #[inline]
    pub(super) fn counts_as_here(&self, c: CardId, zone: Option<u16>, unless: Option<u16>) -> bool {
        zone.is_none_or(|z| z == self.state.cards[c as usize].zone.zone)
            && unless.is_none_or(|s| !self.state.in_state(c, s))
    }

    /// A card field as a value: `name`, `number`, or a schema field.
    pub(super) fn field(&self, c: CardId, field: &str) -> Value {
        let cs = &self.state.cards[c as usize];
        let def = &self.prog.cards[cs.def as usize];
        if let Some(t) = &cs.treat {
            if let Some(v) = t.fields.get(field) {
                return v.clone();
            }
        }
        match field {
            "name" => Value::Text(def.name.clone()),
            "number" => Value::Text(def.number.clone()),
            _ => match def.fields.get(field) {
                Some(v) => const_value(v),
                None => Value::Absent,
            },
        }
    }

    /// A card field's text read in place, when the field is a text: what [`Game::field`]
    /// gives as `Value::Text`, without copying it; `None` for any other value.
    pub(super) fn field_text(&self, c: CardId, field: &str) -> Option<&str> {
        let cs = &self.state.cards[c as usize];
        let def = &self.prog.cards[cs.def as usize];
        if let Some(t) = &cs.treat {
            if let Some(v) = t.fields.get(field) {
                return match v {
                    Value::Text(t) => Some(t),
                    _ => None,
                };
            }
        }
        match field {
            "name" => Some(&def.name),
            "number" => Some(&def.number),
            _ => match def.fields.get(field) {
                Some(ir::Value::Text(t)) => Some(t),
                _ => None,
            },
        }
    }

    /// The abilities that work for a card now.
    fn working_or_printed(&mut self, c: CardId) -> Vec<super::program::AbilityRef> {
        self.working_abilities(c)
            .into_iter()
            .map(|(_, a)| a)
            .collect()
    }

    /// A text after the ruleset's name normalization (12.3.1), computed once per text and
    /// game (a card's printed texts are normalized once for the program instead,
    /// `Program::normalized_field`).
    pub(super) fn normalized(&self, t: &str) -> Rc<str> {
        if let Some(n) = self.norm_cache.borrow().get(t) {
            return Rc::clone(n);
        }
        let n: Rc<str> = crate::ir::normalize::apply(&self.prog.ruleset.names, t).into();
        self.norm_cache.borrow_mut().insert(t.into(), Rc::clone(&n));
        n
    }

    /// Whether a player may see what a card is.
    pub(super) fn visible_to(&self, c: CardId, p: Seat) -> bool {
        let cs = &self.state.cards[c as usize];
        if cs.known & (1 << p) != 0 {
            return true;
        }
        let zone = &self.prog.ruleset.zones[cs.zone.zone as usize];
        match zone.visibility {
            ir::Visibility::Public => cs.face_up,
            ir::Visibility::OwnerSees => cs.zone.owner == p || cs.face_up,
            ir::Visibility::Private => false,
        }
    }

    /// A stat's value as read (floored), or a pair for a composite stat.
    pub(super) fn stat_value(&mut self, c: CardId, stat: &str) -> Value {
        let Some(&s) = self.prog.stat_index.get(stat) else {
            return Value::Absent;
        };
        let prog: &'p Program = self.prog;
        let components = &prog.stats[s as usize].components;
        if components.is_empty() {
            return self.plain_stat(c, s).map_or(Value::Absent, Value::Int);
        }
        let pair = |vals: &[Option<i64>]| {
            Value::Pair(components.iter().map(|i| floored(prog, vals, *i)).collect())
        };
        // read in place when cached (no copy of the card's stats)
        match self.cached_stats(c) {
            Some(vals) => pair(vals),
            None => pair(&self.stats(c)),
        }
    }

    /// A plain stat of a card, by index (its floor applied; `None` when the card has none).
    pub(super) fn plain_stat(&mut self, c: CardId, s: u16) -> Option<i64> {
        let prog: &'p Program = self.prog;
        // read in place when cached (no copy of the card's stats)
        match self.cached_stats(c) {
            Some(vals) => floored(prog, vals, s),
            None => floored(prog, &self.stats(c), s),
        }
    }
}

/// Plain stat `i` among a card's stat values, read as its floor when below it.
fn floored(prog: &Program, vals: &[Option<i64>], i: u16) -> Option<i64> {
    let floor = prog.stats[i as usize].floor;
    let v = vals.get(i as usize).copied().flatten();
    v.map(|v| floor.map_or(v, |f| v.max(f)))
}

/// Whether two variable names are the same: their lengths and first bytes are compared
/// before their texts (most names are a letter or two: no call to compare bytes then), and
/// two views of the same text (a name bound and read as the same interned id) are the same
/// without reading it.
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && (std::ptr::eq(a.as_ptr(), b.as_ptr())
            || (a.as_bytes().first() == b.as_bytes().first() && a == b))
}

/// A count as a number (a count too large for an i64 reads as i64::MAX).
fn count_value(n: usize) -> Value {
    Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

/// A card field constant as a runtime value.
pub(super) fn const_value(v: &ir::Value) -> Value {
    match v {
        ir::Value::Number(n) => Value::Int(*n),
        ir::Value::Text(t) => Value::Text(t.clone()),
        ir::Value::Bool(b) => Value::Bool(*b),
        ir::Value::Pair(p) => Value::Pair(p.iter().map(|x| Some(*x)).collect()),
        ir::Value::List(l) => Value::List(std::sync::Arc::new(l.iter().map(const_value).collect())),
    }
}

/// `a op b` for the arithmetic operators (`None` for the others), saturating: `i64::MIN / -1`
/// reads as `i64::MAX`; dividing by zero gives 0.
pub(super) fn arithmetic(op: Op, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        Op::Add => a.saturating_add(b),
        Op::Sub => a.saturating_sub(b),
        Op::Mul => a.saturating_mul(b),
        Op::Div => match a.checked_div(b) {
            Some(q) => q,
            None if b == 0 => 0,
            None => i64::MAX,
        },
        _ => return None,
    })
}
