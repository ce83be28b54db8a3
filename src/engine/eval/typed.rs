//! Typed reads of the commonest expression forms: a condition's truth, a number, a card,
//! without building a [`Value`] for each node. Each gives exactly what reading the expression
//! with [`Game::eval`] and looking at the value would, and falls back to that for every other
//! form. A form read here that reads more than its operands is noted for a recorded check rule
//! (`rule_memo`) as [`Game::eval`] notes every form.

use super::super::agent::Request;
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
                    // both sides are read, as `binary` does; a side that is no number is false
                    let a = self.eval_int(lhs)?;
                    let b = self.eval_int(rhs)?;
                    match (a, b) {
                        (Some(a), Some(b)) => match op {
                            Op::Lt => a < b,
                            Op::Le => a <= b,
                            Op::Gt => a > b,
                            _ => a >= b,
                        },
                        _ => false,
                    }
                }
                Op::Eq | Op::Ne
                    if matches!(**lhs, Expr::Int(_)) || matches!(**rhs, Expr::Int(_)) =>
                {
                    // a number against anything: equal only to the same number (both sides
                    // read, as `binary` does)
                    let a = self.eval_int(lhs)?;
                    let b = self.eval_int(rhs)?;
                    let same = matches!((a, b), (Some(a), Some(b)) if a == b);
                    same == (*op == Op::Eq)
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

    /// One side of [`Game::texts_equal`], its card read (a text or a field's card and name).
    fn text_side<'e>(&mut self, e: &'e Expr) -> Result<TextSide<'e>, Box<Request>> {
        Ok(match e {
            Expr::Field { of, field } => TextSide::Field(self.eval_card(of)?, field),
            Expr::Text(t) => TextSide::Text(t),
            _ => TextSide::Value(self.eval(e)?),
        })
    }

    /// The text a side reads, if it reads one.
    fn side_text<'a>(&'a self, side: &'a TextSide<'_>) -> Option<&'a str> {
        match side {
            TextSide::Text(t) => Some(t),
            TextSide::Field(Some(c), field) => self.field_text(*c, field),
            TextSide::Field(None, _) => None,
            TextSide::Value(Value::Text(t)) => Some(t),
            TextSide::Value(_) => None,
        }
    }

    /// The value a side reads, as `eval` gives it.
    fn side_value(&self, side: &TextSide<'_>) -> Value {
        match side {
            TextSide::Text(t) => Value::Text((*t).to_string()),
            TextSide::Field(Some(c), field) => self.field(*c, field),
            TextSide::Field(None, _) => Value::Absent,
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
            _ => int(&self.eval(e)?),
        })
    }

    /// How many cards (players, items) an expression stands for: what `count(x)` reads,
    /// counting `cards where condition` without collecting them.
    pub(in crate::engine) fn count_of(&mut self, x: &Expr) -> Result<i64, Box<Request>> {
        let Expr::Filter { cards, condition } = x else {
            return Ok(match self.count(x)? {
                Value::Int(n) => n,
                _ => 0,
            });
        };
        let v = self.eval(cards)?;
        let list = self.pooled_cards_of(&v);
        let mut n: i64 = 0;
        for &c in &list {
            if self.holds_for(c, condition)? {
                n = n.saturating_add(1);
            }
        }
        self.recycle_cards(list);
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
}

/// Whether an expression is a text or a card's field: an equality of two such reads them in
/// place ([`Game::texts_equal`]).
fn texty(e: &Expr) -> bool {
    matches!(e, Expr::Text(_) | Expr::Field { .. })
}

/// One side of an equality of texts: a text, a card's field (the card, if any, and the
/// field's name), or another value.
enum TextSide<'e> {
    Text(&'e str),
    Field(Option<CardId>, &'e str),
    Value(Value),
}

/// The number a value is, if it is one.
fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(*n),
        _ => None,
    }
}
