//! Typed reads of the commonest expression forms: a condition's truth, a number, a card,
//! without building a [`Value`] for each node. Each gives exactly what reading the expression
//! with [`Game::eval`] and looking at the value would, and falls back to that for every other
//! form. A form read here that reads more than its operands is noted for a recorded check rule
//! (`rule_memo`) as [`Game::eval`] notes every form.

use super::super::agent::Request;
use super::super::lowered::{it_and_var, Cond, Leaf, Num, Printed, Test};
use super::super::state::{CardId, Value};
use super::super::Game;
use crate::ir::{Expr, Op};

impl Game<'_> {
    /// Whether a condition holds: `eval(e)?.is_true()`.
    pub(in crate::engine) fn eval_true(&mut self, e: &Expr) -> Result<bool, Box<Request>> {
        Ok(match e {
            Expr::Bool(b) => *b,
            Expr::Not(x) => !self.eval_true(x)?,
            Expr::Binary { op, lhs, rhs } => match op {
                Op::And => self.eval_true(lhs)? && self.eval_true(rhs)?,
                Op::Or => self.eval_true(lhs)? || self.eval_true(rhs)?,
                Op::Lt | Op::Le | Op::Gt | Op::Ge => {
                    // both sides are read, as `binary` does
                    let a = self.eval_int(lhs)?;
                    let b = self.eval_int(rhs)?;
                    compared(*op, a, b)
                }
                Op::Eq | Op::Ne
                    if matches!(**lhs, Expr::Int(_)) || matches!(**rhs, Expr::Int(_)) =>
                {
                    // a number against anything (both sides read, as `binary` does)
                    let a = self.eval_int(lhs)?;
                    let b = self.eval_int(rhs)?;
                    compared(*op, a, b)
                }
                Op::Eq | Op::Ne if texty(lhs) && texty(rhs) => {
                    let same = self.texts_equal(lhs, rhs)?;
                    same == (*op == Op::Eq)
                }
                _ => self.eval(e)?.is_true(),
            },
            Expr::InState { card, state } => self
                .eval_card(card)?
                .is_some_and(|c| self.in_state_named(c, state)),
            Expr::OfType { card, card_type } => self
                .eval_card(card)?
                .is_some_and(|c| self.of_type(c, card_type)),
            Expr::HasKeyword { card, keyword } => {
                self.note_read(e);
                match self.eval_card(card)? {
                    Some(c) => self.has_keyword(c, keyword),
                    None => false,
                }
            }
            _ => self.eval(e)?.is_true(),
        })
    }

    /// Whether two texts are equal, each a text or a card's field (`color == c.color`), read
    /// in place: what `eval` of each side and `equal` give, without copying a field's text.
    /// A side that reads no text (a number field, a list, no card) is compared as values.
    fn texts_equal(&mut self, lhs: &Expr, rhs: &Expr) -> Result<bool, Box<Request>> {
        let a = self.text_side(lhs)?;
        let b = self.text_side(rhs)?;
        if let (Some(x), Some(y)) = (self.side_text(&a), self.side_text(&b)) {
            return Ok(x == y);
        }
        let (x, y) = (self.side_value(&a), self.side_value(&b));
        Ok(self.equal(&x, &y))
    }

    /// `text contains needle`, both normalized (12.3.1); a list holds it if one of its texts
    /// does. Each side is read in place, as [`Game::texts_equal`] reads it. A card's text read
    /// from its definition is normalized once for the program ([`Program::normalized_field`]),
    /// any other text once per game.
    ///
    /// [`Program::normalized_field`]: super::super::program::Program::normalized_field
    pub(in crate::engine) fn contains(
        &mut self,
        haystack: &Expr,
        needle: &Expr,
    ) -> Result<bool, Box<Request>> {
        let h = self.text_side(haystack)?;
        let n = self.text_side(needle)?;
        let Some(n) = self.side_text(&n) else {
            return Ok(false);
        };
        self.search_for(n);
        let needle = self.last_needle.borrow();
        let Some((_, finder)) = needle.as_ref() else {
            return Ok(false);
        };
        let has = |t: &str| finder.find(t.as_bytes()).is_some();
        if let Some(t) = self.printed_text(&h) {
            return Ok(has(t));
        }
        if let Some(t) = self.side_text(&h) {
            return Ok(has(&self.normalized(t)));
        }
        Ok(match self.side_value(&h) {
            Value::List(l) => l
                .iter()
                .any(|v| matches!(v, Value::Text(t) if has(&self.normalized(t)))),
            _ => false,
        })
    }

    /// Makes the game's `last_needle` the searcher for `needle` normalized, unless it is
    /// already (a match of UTF-8 bytes is a match of characters: it finds what
    /// `str::contains` finds).
    fn search_for(&self, needle: &str) {
        let kept = self.last_needle.borrow();
        if kept.as_ref().is_some_and(|(text, _)| **text == *needle) {
            return;
        }
        drop(kept);
        let n = self.normalized(needle);
        let finder = memchr::memmem::Finder::new(n.as_bytes()).into_owned();
        *self.last_needle.borrow_mut() = Some((needle.into(), finder));
    }

    /// A side that is a card's field read from its definition (no `treat as` gives the card
    /// that field): the field's text as the program normalized it, if it is a text.
    fn printed_text(&self, side: &TextSide<'_>) -> Option<&str> {
        let TextSide::Field(Some(c), field) = side else {
            return None;
        };
        let cs = &self.state.cards[*c as usize];
        if cs
            .treat
            .as_ref()
            .is_some_and(|t| t.fields.contains_key(*field))
        {
            return None;
        }
        self.prog.normalized_field(cs.def, field)
    }

    /// One side of [`Game::texts_equal`], its card read (a text, a field's card and name, a
    /// card whose slot is read, a slot choice's candidate).
    #[inline(always)]
    fn text_side<'e>(&mut self, e: &'e Expr) -> Result<TextSide<'e>, Box<Request>> {
        Ok(match e {
            Expr::Field { of, field } => TextSide::Field(self.eval_card(of)?, field),
            Expr::Text(t) => TextSide::Text(t),
            Expr::SlotOf(card) => {
                // noted as `eval` notes it, before its card is read
                self.note_read(e);
                TextSide::SlotOf(self.eval_card(card)?)
            }
            Expr::SlotCandidate(k) => {
                self.note_read(e);
                TextSide::SlotCandidate(*k)
            }
            _ => TextSide::Value(self.eval(e)?),
        })
    }

    /// The text a side reads, if it reads one.
    fn side_text<'a>(&'a self, side: &'a TextSide<'_>) -> Option<&'a str> {
        match side {
            TextSide::Text(t) => Some(t),
            TextSide::Field(Some(c), field) => self.field_text(*c, field),
            TextSide::SlotOf(Some(c)) => self.state.cards[*c as usize].slot.as_deref(),
            TextSide::SlotCandidate(k) => self.slot_candidate_name(*k),
            TextSide::Field(None, _) | TextSide::SlotOf(None) => None,
            TextSide::Value(Value::Text(t)) => Some(t),
            TextSide::Value(_) => None,
        }
    }

    /// The value a side reads, as `eval` gives it.
    fn side_value(&self, side: &TextSide<'_>) -> Value {
        match side {
            TextSide::Text(t) => Value::Text((*t).to_string()),
            TextSide::Field(Some(c), field) => self.field(*c, field),
            TextSide::Field(None, _) | TextSide::SlotOf(None) => Value::Absent,
            TextSide::SlotOf(Some(c)) => self.state.cards[*c as usize]
                .slot
                .clone()
                .map_or(Value::Absent, Value::Text),
            TextSide::SlotCandidate(k) => self.slot_candidate(*k),
            TextSide::Value(v) => v.clone(),
        }
    }

    /// A number: `Some(n)` when `eval(e)?` is `Value::Int(n)`, else `None`.
    pub(in crate::engine) fn eval_int(&mut self, e: &Expr) -> Result<Option<i64>, Box<Request>> {
        Ok(match e {
            Expr::Int(n) => Some(*n),
            Expr::Count(x) => Some(self.count_of(x)?),
            Expr::Stat { of, stat } => {
                self.note_read(e);
                match self.eval_card(of)? {
                    Some(c) => int(&self.stat_value(c, stat)),
                    None => None,
                }
            }
            Expr::Counter { of, counter } => {
                self.note_read(e);
                int(&self.eval_counter(of, counter)?)
            }
            Expr::Binary {
                op: op @ (Op::Add | Op::Sub | Op::Mul | Op::Div),
                lhs,
                rhs,
            } => {
                // both sides read, in order, as `binary` reads them, with no value built
                self.note_read(e);
                let a = self.eval_int(lhs)?;
                let b = self.eval_int(rhs)?;
                a.zip(b).and_then(|(a, b)| super::arithmetic(*op, a, b))
            }
            _ => int(&self.eval(e)?),
        })
    }

    /// How many cards (players, items) an expression stands for: what `count(x)` reads,
    /// counting `cards where condition` without collecting them.
    pub(in crate::engine) fn count_of(&mut self, x: &Expr) -> Result<i64, Box<Request>> {
        if let Expr::Zone { zone, owner } = x {
            // a zone's cards counted where they lie (what `count` gives, with no value built
            // for the count)
            self.note_read(x);
            let v = self.eval_zone(zone, owner.as_deref())?;
            return Ok(i64::try_from(self.cards_count(&v)).unwrap_or(i64::MAX));
        }
        let Expr::Filter { cards, condition } = x else {
            return Ok(match self.count(x)? {
                Value::Int(n) => n,
                _ => 0,
            });
        };
        let mut n: i64 = 0;
        self.each_holding(cards, condition, |_, _, _| {
            n = n.saturating_add(1);
            Ok(())
        })?;
        Ok(n)
    }

    /// Whether a filter's condition holds for a card (`it` bound to it).
    pub(in crate::engine) fn holds_for(
        &mut self,
        c: CardId,
        condition: &Expr,
    ) -> Result<bool, Box<Request>> {
        self.its.push(c);
        let r = self.eval_true(condition);
        self.its.pop();
        r
    }

    /// [`Game::holds_for`] with the condition's lowered form, when the program has one
    /// ([`crate::engine::lowered`]).
    #[inline]
    pub(in crate::engine) fn holds_lowered(
        &mut self,
        c: CardId,
        lowered: Option<&Cond>,
        condition: &Expr,
    ) -> Result<bool, Box<Request>> {
        let Some(k) = lowered else {
            return self.holds_for(c, condition);
        };
        if self.verify_lowered {
            return self.holds_verified(c, k, condition, true);
        }
        self.its.push(c);
        let r = self.cond_true(k, condition, c);
        self.its.pop();
        r
    }

    /// A filter's lowered condition when it starts with one read of the card's own fields (a
    /// state, a type): found once per filter, the read is then made for each card in place,
    /// with no `it` bound and no call (filters run for every card of a zone, many times a
    /// turn). `None`: any other condition.
    #[inline]
    pub(in crate::engine) fn leaf(&self, lowered: Option<&Cond>, e: &Expr) -> Option<Leaf> {
        let lowered = lowered?;
        if let Some(test) = test_of(lowered, e) {
            return Some(Leaf { test, whole: true });
        }
        match (lowered, e) {
            (
                Cond::And(a, _),
                Expr::Binary {
                    op: Op::And, lhs, ..
                },
            ) => test_of(a, lhs).map(|test| Leaf { test, whole: false }),
            _ => None,
        }
    }

    /// [`Game::holds_lowered`] for a card whose [`Leaf`] read in place gave `quick`, with
    /// lowered conditions checked (`verify_lowered`): a disagreement is a failed check.
    #[cold]
    pub(in crate::engine) fn leaf_verified(
        &mut self,
        quick: bool,
        c: CardId,
        lowered: Option<&Cond>,
        condition: &Expr,
    ) -> Result<bool, Box<Request>> {
        let holds = self.holds_lowered(c, lowered, condition)?;
        if quick != holds {
            self.failed_checks.push(format!(
                "a lowered condition disagreed: {quick} as read in place (card {c}), {holds} as lowered, of {condition:?}"
            ));
        }
        Ok(holds)
    }

    /// Whether card `c` meets a [`Leaf`] condition, as [`Game::holds_lowered`] reads it;
    /// `None` when it must be read in full: its first conjunct holds, or the card is read as
    /// written (a card treated as another type, or a type that counts as another).
    #[inline]
    pub(in crate::engine) fn leaf_holds(&self, leaf: Leaf, c: CardId) -> Option<bool> {
        let holds = match leaf.test {
            Test::InState(s) => self.state.in_state(c, s),
            Test::OfAnyType(bits) => bits & self.type_bits(c)? != 0,
            Test::OfType(t) => self.of_type_index(c, t)?,
        };
        match (holds, leaf.whole) {
            (_, true) | (false, false) => Some(holds),
            (true, false) => None,
        }
    }

    /// Whether an action's `if` (or a conjunct of it) holds for candidate `c`, its variable
    /// bound to `c` already (innermost): with its lowered form (of the variable:
    /// [`crate::engine::lowered`]) when the program has one. A condition that cannot be read
    /// does not hold, as [`Game::holds`] has it.
    pub(in crate::engine) fn holds_candidate(
        &mut self,
        c: CardId,
        lowered: Option<&Cond>,
        condition: &Expr,
    ) -> bool {
        let r = match lowered {
            None => self.eval_true(condition),
            Some(k) if self.verify_lowered => self.holds_verified(c, k, condition, false),
            Some(k) => self.cond_true(k, condition, c),
        };
        r.unwrap_or(false)
    }

    /// [`Game::holds_lowered`] (or [`Game::holds_candidate`]) checked against the condition as
    /// written, evaluated on a copy of the game as it was: a disagreement (in the answer, or in
    /// the reads recorded for the rule memo) is listed in [`Game::failed_checks`]. `it`: whether the
    /// condition's card is `it` (a filter's; otherwise an action's candidate variable, bound
    /// already).
    fn holds_verified(
        &mut self,
        c: CardId,
        k: &Cond,
        condition: &Expr,
        it: bool,
    ) -> Result<bool, Box<Request>> {
        let mut twin = self.clone();
        twin.verify_lowered = false;
        let expected = if it {
            twin.holds_for(c, condition)
        } else {
            twin.eval_true(condition)
        };
        if it {
            self.its.push(c);
        }
        let got = self.cond_true(k, condition, c);
        if it {
            self.its.pop();
        }
        self.lowered_checked(&twin, &expected, &got, condition);
        got
    }

    /// Lists (in [`Game::failed_checks`]) where a lowered evaluation (`got`) and the same evaluation
    /// as written (`expected`, made on `twin`, a copy of the game as it was) disagreed: in
    /// what they gave, or in the reads they recorded for the rule memo. `what`: the
    /// expression evaluated.
    fn lowered_checked<T: PartialEq + std::fmt::Debug + Copy>(
        &mut self,
        twin: &Self,
        expected: &Result<T, Box<Request>>,
        got: &Result<T, Box<Request>>,
        what: &Expr,
    ) {
        self.verified_lowered = self.verified_lowered.saturating_add(1);
        let answer = |r: &Result<T, Box<Request>>| r.as_ref().ok().copied();
        if answer(expected) != answer(got) || expected.is_err() != got.is_err() {
            self.failed_checks.push(format!(
                "a lowered condition disagreed: {:?} as lowered, {:?} as written, of {what:?}",
                answer(got),
                answer(expected)
            ));
        }
        if twin.reads_so_far() != self.reads_so_far() {
            self.failed_checks.push(format!(
                "a lowered condition recorded other reads: {:?} as lowered, {:?} as written, of {what:?}",
                self.reads_so_far(),
                twin.reads_so_far()
            ));
        }
    }

    /// Checks every lowered filter condition (and action's `if`) against the condition as
    /// written, card by card, listing (in [`Game::failed_checks`]) any disagreement: a test of
    /// `engine::lowered`.
    #[doc(hidden)]
    pub fn verify_lowered(&mut self, on: bool) {
        self.verify_lowered = on;
    }

    /// How many evaluations of lowered conditions were checked so far
    /// ([`Game::verify_lowered`]).
    #[doc(hidden)]
    pub fn verified_lowered(&self) -> usize {
        self.verified_lowered
    }

    /// A lowered condition evaluated beside its expression, `it` being `c` (on top of
    /// `its`): what `eval_true` of the expression gives. A node that does not match its
    /// expression's form (it cannot, as both come from the same IR) is evaluated as written.
    fn cond_true(&mut self, k: &Cond, e: &Expr, c: CardId) -> Result<bool, Box<Request>> {
        Ok(match (k, e) {
            (Cond::ItInState(s), Expr::InState { .. }) => self.state.in_state(c, *s),
            (Cond::Never, Expr::InState { .. }) => false,
            (Cond::ItOfType(t), Expr::OfType { card_type, .. }) => {
                self.of_type_lowered(c, *t, card_type)
            }
            (Cond::ItOfAnyType(bits), Expr::Binary { op: Op::Or, .. }) => match self.type_bits(c) {
                Some(of) => bits & of != 0,
                None => self.eval_true(e)?,
            },
            (Cond::ItHasKeyword, Expr::HasKeyword { keyword, .. }) => {
                self.note_read(e);
                self.has_keyword(c, keyword)
            }
            (Cond::ItFaceIs, Expr::FaceIs { face, .. }) => {
                self.note_read(e);
                self.face_is(c, *face)
            }
            (Cond::ItSameAsVar, Expr::Binary { op, lhs, rhs })
                if matches!(op, Op::Eq | Op::Ne) && it_and_var(lhs, rhs).is_some() =>
            {
                // what `binary` gives: the card `it` equal to the variable's value
                for x in [e, &**lhs, &**rhs] {
                    self.note_read(x);
                }
                let name = it_and_var(lhs, rhs).unwrap_or_default();
                let same = match self.var_ref(name) {
                    Some(Value::Card(x)) => *x == c,
                    Some(Value::Cards(v)) => v.len() == 1 && v.first() == Some(&c),
                    _ => false,
                };
                same == (*op == Op::Eq)
            }
            (
                Cond::FieldsEqual {
                    subject_left,
                    mine,
                    other,
                },
                Expr::Binary { op, lhs, rhs },
            ) if matches!(op, Op::Eq | Op::Ne) => {
                let (of, mine, other) = match (subject_left, &**lhs, &**rhs) {
                    (true, _, Expr::Field { of, .. }) | (false, Expr::Field { of, .. }, _) => {
                        (of, *mine, *other)
                    }
                    _ => return self.eval_true(e),
                };
                // read as `texts_equal` reads the other card (a variable's read noted)
                let texts = match self.eval_card(of)? {
                    Some(x) => (self.printed_field(c, mine), self.printed_field(x, other)),
                    None => (None, None),
                };
                match texts {
                    (Some(Printed::Text(a)), Some(Printed::Text(b))) => (a == b) == (*op == Op::Eq),
                    _ => self.eval_true(e)?,
                }
            }
            (Cond::FieldIsText { column, text }, Expr::Binary { op, .. })
                if matches!(op, Op::Eq | Op::Ne) =>
            {
                match self.printed_field(c, *column) {
                    Some(Printed::Text(t)) => (t == *text) == (*op == Op::Eq),
                    _ => self.eval_true(e)?,
                }
            }
            (Cond::FieldContains { column }, Expr::Contains { .. }) => {
                match self.printed_field(c, *column) {
                    Some(Printed::Holds(holds)) => holds,
                    _ => self.eval_true(e)?,
                }
            }
            (
                Cond::SameCardAs {
                    subject_left,
                    column,
                },
                Expr::SameCard(a, b),
            ) => {
                // what `eval` gives: the two cards' normalized numbers compared
                let other = if *subject_left { b } else { a };
                match self.eval_card(other)? {
                    Some(x) => {
                        let number = |c: CardId| {
                            let def = self.state.cards[c as usize].def;
                            self.prog.conds.printed(def, *column)
                        };
                        match (number(c), number(x)) {
                            (Some(Printed::Text(m)), Some(Printed::Text(n))) => m == n,
                            _ => self.eval_true(e)?,
                        }
                    }
                    None => false,
                }
            }
            (Cond::Not(x), Expr::Not(y)) => !self.cond_true(x, y, c)?,
            (
                Cond::And(a, b),
                Expr::Binary {
                    op: Op::And,
                    lhs,
                    rhs,
                },
            ) => self.cond_true(a, lhs, c)? && self.cond_true(b, rhs, c)?,
            (
                Cond::Or(a, b),
                Expr::Binary {
                    op: Op::Or,
                    lhs,
                    rhs,
                },
            ) => self.cond_true(a, lhs, c)? || self.cond_true(b, rhs, c)?,
            (Cond::Compare(a, b), Expr::Binary { op, lhs, rhs })
                if matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq | Op::Ne) =>
            {
                let x = self.num_of(*a, lhs, c)?;
                let y = self.num_of(*b, rhs, c)?;
                compared(*op, x, y)
            }
            _ => self.eval_true(e)?,
        })
    }

    /// What card `c` prints in a column of the program's lowered conditions
    /// ([`Printed`]): `None` for a card some effect treats as another (its fields are read
    /// as written).
    #[inline]
    fn printed_field(&self, c: CardId, column: u16) -> Option<Printed> {
        let cs = &self.state.cards[c as usize];
        if cs.treat.is_some() {
            return None;
        }
        self.prog.conds.printed(cs.def, column)
    }

    /// `it is <card type>` lowered (`t`: the type's index, if declared): a card no effect treats
    /// as another type is of the type when its definition's index is `t`, and of no other when
    /// no type counts as another; anything else is [`Game::of_type`] as written.
    fn of_type_lowered(&self, c: CardId, t: Option<u16>, card_type: &str) -> bool {
        match t.and_then(|t| self.of_type_index(c, t)) {
            Some(of) => of,
            None => self.of_type(c, card_type),
        }
    }

    /// Whether a card is of the declared type of index `t`, read from its definition: `None`
    /// for a card some effect treats as another type, and for one not of that type printed
    /// when a type counts as another (both read as written).
    fn of_type_index(&self, c: CardId, t: u16) -> Option<bool> {
        let cs = &self.state.cards[c as usize];
        if cs.treat.is_some() {
            return None;
        }
        if self.prog.conds.def_type(cs.def) == Some(t) {
            Some(true)
        } else if self.prog.counts_as.is_empty() {
            Some(false)
        } else {
            None
        }
    }

    /// The card types a card is of, as bits of their indices among the ruleset's (the first
    /// 64): its printed type, and the type that counts as where it is, as [`Game::of_type`]
    /// reads them (`None`: a card some effect treats as another type, or a type the ruleset
    /// does not declare or past the first 64: read as written).
    fn type_bits(&self, c: CardId) -> Option<u64> {
        let cs = &self.state.cards[c as usize];
        if cs.treat.is_some() {
            return None;
        }
        let conds = &self.prog.conds;
        let mut bits = 1u64.checked_shl(u32::from(conds.def_type(cs.def)?))?;
        if let Some((as_type, zone, unless)) = conds.def_counts_as(cs.def) {
            if self.counts_as_here(c, zone, unless) {
                bits |= 1u64.checked_shl(u32::from(as_type?))?;
            }
        }
        Some(bits)
    }

    /// A key read card by card (`total`, `highest … of`) for card `c`, `it` bound to it while
    /// the key is read: the number `eval` gives, through the key's lowered form when the
    /// program has one.
    pub(in crate::engine) fn key_of(
        &mut self,
        key: &Expr,
        c: CardId,
    ) -> Result<Option<i64>, Box<Request>> {
        self.its.push(c);
        let r = match self.prog.conds.key(key) {
            Some(n) if self.verify_lowered => self.key_verified(n, key, c),
            Some(n) => self.num_of(n, key, c),
            None => self.eval_int(key),
        };
        self.its.pop();
        r
    }

    /// [`Game::key_of`] lowered, checked against the key as written (on a copy of the game
    /// as it was), as [`Game::holds_verified`] checks a condition.
    fn key_verified(&mut self, n: Num, key: &Expr, c: CardId) -> Result<Option<i64>, Box<Request>> {
        let mut twin = self.clone();
        twin.verify_lowered = false;
        let expected = twin.eval_int(key);
        let got = self.num_of(n, key, c);
        self.lowered_checked(&twin, &expected, &got, key);
        got
    }

    /// A lowered number beside its expression, `it` being `c`: what `eval_int` gives.
    fn num_of(&mut self, n: Num, e: &Expr, c: CardId) -> Result<Option<i64>, Box<Request>> {
        Ok(match (n, e) {
            (Num::ItStat(s), Expr::Stat { .. }) => {
                self.note_read(e);
                self.plain_stat(c, s)
            }
            (Num::ItCounter(k), Expr::Counter { .. }) => {
                self.note_read(e);
                Some(self.state.cards[c as usize].counters[k as usize])
            }
            (Num::ItField(column), Expr::Field { .. }) => match self.printed_field(c, column) {
                Some(Printed::Number(n)) => Some(n),
                Some(Printed::Absent | Printed::Text(_) | Printed::Other | Printed::Holds(_)) => {
                    None
                }
                None => self.eval_int(e)?,
            },
            _ => self.eval_int(e)?,
        })
    }
}

/// Two numbers compared: `<`, `<=`, `>`, `>=` hold only of two numbers; `==` of the same
/// number (a side that is no number equals nothing), `!=` otherwise.
fn compared(op: Op, a: Option<i64>, b: Option<i64>) -> bool {
    match op {
        Op::Eq | Op::Ne => {
            let same = matches!((a, b), (Some(a), Some(b)) if a == b);
            same == (op == Op::Eq)
        }
        _ => match (a, b) {
            (Some(a), Some(b)) => match op {
                Op::Lt => a < b,
                Op::Le => a <= b,
                Op::Gt => a > b,
                _ => a >= b,
            },
            _ => false,
        },
    }
}

/// Whether an expression is a text or a card's field: an equality of two such reads them in
/// place ([`Game::texts_equal`]).
fn texty(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Text(_) | Expr::Field { .. } | Expr::SlotOf(_) | Expr::SlotCandidate(_)
    )
}

/// One side of an equality of texts: a text, a card's field (the card, if any, and the
/// field's name), a card's slot (the card, if any), the candidate of the slot choice `k`
/// levels out, or another value.
enum TextSide<'e> {
    Text(&'e str),
    Field(Option<CardId>, &'e str),
    SlotOf(Option<CardId>),
    SlotCandidate(u32),
    Value(Value),
}

/// The number a value is, if it is one.
fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(*n),
        _ => None,
    }
}

/// The read of a [`Leaf`] a lowered condition is, beside its expression (as
/// [`Game::cond_true`] pairs them).
fn test_of(k: &Cond, e: &Expr) -> Option<Test> {
    match (k, e) {
        (Cond::ItInState(s), Expr::InState { .. }) => Some(Test::InState(*s)),
        (Cond::ItOfAnyType(bits), Expr::Binary { op: Op::Or, .. }) => Some(Test::OfAnyType(*bits)),
        (Cond::ItOfType(Some(t)), Expr::OfType { .. }) => Some(Test::OfType(*t)),
        _ => None,
    }
}
