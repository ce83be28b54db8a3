//! The parts of a condition that are the same for every candidate. A window offers an action
//! once per candidate card meeting its `if`; a conjunct of that `if` that does not name the
//! candidate (`count(card on field where it is charging) == 0`, `not (you has
//! cannot_act)`) has the same truth for every candidate, as nothing changes while the
//! offers are computed. Such conjuncts are read once, before the candidates: when one is false
//! no candidate is offered, and the others are read per candidate.
//!
//! The same goes for one side of a comparison whose other side reads the candidate (a count of
//! a zone compared with a number of the candidate card): that side is read once — when the
//! first candidate comes to it, so never when every candidate fails an earlier conjunct — and
//! only the other side per candidate.
//!
//! Reading changes nothing, so the order the conjuncts are read in does not change what the
//! `and` of them is. A part is taken out only when it can be: it names no candidate and makes
//! no choice or random pick anywhere inside (those ask or draw, once per read).

use super::super::lowered::Cond;
use super::super::state::CardId;
use super::super::Game;
use crate::ir::{Expr, Op};

/// A condition split for a loop over one variable: its conjuncts that do not read the
/// variable, and the others, each in the order they are written.
#[derive(Debug, Clone, Default)]
pub(in crate::engine) struct Split<'p> {
    /// Read once for the whole loop.
    pub(in crate::engine) fixed: Vec<&'p Expr>,
    /// The sides of comparisons read once for the whole loop (numbers).
    pub(in crate::engine) sides: Vec<&'p Expr>,
    /// Read for each value of the variable.
    pub(in crate::engine) per_value: Vec<Conjunct<'p>>,
    /// The lowered form of each of [`Split::per_value`] (of the variable, read in place of
    /// a [`Conjunct::Whole`]), when its reader has the program's
    /// ([`crate::engine::lowered`]); empty otherwise.
    pub(in crate::engine) lowered: Vec<Option<&'p Cond>>,
}

/// A side of [`Split::sides`] for one loop: `None` until read, then the number it is
/// (`None`: not a number).
pub(in crate::engine) type Side = Option<Option<i64>>;

/// A conjunct read for each value of the loop's variable.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::engine) enum Conjunct<'p> {
    /// Read as written.
    Whole(&'p Expr),
    /// `<`, `<=`, `>`, `>=` with one side the same for every value: that side is
    /// [`Split::sides`]`[side]`, read once.
    Compare {
        /// The comparison.
        op: Op,
        /// Whether the side read once is the left one.
        fixed_left: bool,
        /// Its index in [`Split::sides`].
        side: usize,
        /// The other side, read for each value.
        varying: &'p Expr,
    },
}

impl<'p> Split<'p> {
    /// Splits `condition`'s top-level `and` into the conjuncts that read `var` and those that
    /// do not. A conjunct that reads almost nothing (a constant, a variable) stays per value.
    pub(in crate::engine) fn of(condition: &'p Expr, var: &str) -> Split<'p> {
        let mut conjuncts = Vec::new();
        flatten_and(condition, &mut conjuncts);
        let mut split = Split::default();
        for c in conjuncts {
            if !cheap(c) && same_for_every(c, var) {
                split.fixed.push(c);
            } else {
                let conjunct = split.compare(c, var).unwrap_or(Conjunct::Whole(c));
                split.per_value.push(conjunct);
            }
        }
        split
    }

    /// `c` as a comparison with one side read once, when it is one.
    fn compare(&mut self, c: &'p Expr, var: &str) -> Option<Conjunct<'p>> {
        let Expr::Binary {
            op: op @ (Op::Lt | Op::Le | Op::Gt | Op::Ge),
            lhs,
            rhs,
        } = c
        else {
            return None;
        };
        let (fixed_left, fixed, varying) = if !cheap(lhs) && same_for_every(lhs, var) {
            (true, lhs, rhs)
        } else if !cheap(rhs) && same_for_every(rhs, var) {
            (false, rhs, lhs)
        } else {
            return None;
        };
        self.sides.push(fixed);
        Some(Conjunct::Compare {
            op: *op,
            fixed_left,
            side: self.sides.len().saturating_sub(1),
            varying,
        })
    }
}

impl Game<'_> {
    /// A split's [`Split::sides`], none read yet: each is read the first time a candidate
    /// needs it ([`Game::conjunct_holds`]), so a loop whose candidates all fail an earlier
    /// conjunct reads none (as the `if` read card by card would not).
    pub(in crate::engine) fn unread_sides(split: &Split<'_>) -> Vec<Side> {
        vec![None; split.sides.len()]
    }

    /// Whether a per-value conjunct holds for candidate `card` (the loop's variable bound to
    /// it), the sides read so far being `sides` (a side not read yet is read now, from
    /// `split`): what `holds` of the conjunct as written gives (`lowered`: its lowered form,
    /// of the variable, if any).
    pub(in crate::engine) fn conjunct_holds(
        &mut self,
        (split, conjunct): (&Split<'_>, &Conjunct<'_>),
        lowered: Option<&Cond>,
        sides: &mut [Side],
        card: CardId,
    ) -> bool {
        match conjunct {
            Conjunct::Whole(e) => self.holds_candidate(card, lowered, e),
            Conjunct::Compare {
                op,
                fixed_left,
                side,
                varying,
            } => {
                let fixed = match (sides.get_mut(*side), split.sides.get(*side)) {
                    (Some(Some(read)), _) => *read,
                    (Some(unread), Some(e)) => {
                        // `None`: not a number, and so the comparison is false, as `eval_true`
                        // has it
                        let read = self.eval_int(e).unwrap_or(None);
                        *unread = Some(read);
                        read
                    }
                    _ => None,
                };
                let other = self.eval_int(varying).unwrap_or(None);
                let (Some(fixed), Some(other)) = (fixed, other) else {
                    return false;
                };
                let (a, b) = if *fixed_left {
                    (fixed, other)
                } else {
                    (other, fixed)
                };
                match op {
                    Op::Lt => a < b,
                    Op::Le => a <= b,
                    Op::Gt => a > b,
                    _ => a >= b,
                }
            }
        }
    }
}

/// The conjuncts of `e`'s top-level `and`, left to right.
fn flatten_and<'p>(e: &'p Expr, out: &mut Vec<&'p Expr>) {
    match e {
        Expr::Binary {
            op: Op::And,
            lhs,
            rhs,
        } => {
            flatten_and(lhs, out);
            flatten_and(rhs, out);
        }
        _ => out.push(e),
    }
}

/// Whether an expression reads the same for every value of `var`: it names no `var` and makes
/// no choice or random pick anywhere inside.
fn same_for_every(e: &Expr, var: &str) -> bool {
    let own = match e {
        Expr::Var(name) => name != var,
        _ => !asks_or_draws_itself(e),
    };
    let mut all = own;
    if all {
        e.each_child(&mut |child| all = all && same_for_every(child, var));
    }
    all
}

/// Whether reading an expression may ask a player or draw a random number (then reading it
/// once more, or once less, is not the same).
pub(in crate::engine) fn asks_or_draws(e: &Expr) -> bool {
    let mut any = asks_or_draws_itself(e);
    if !any {
        e.each_child(&mut |child| any = any || asks_or_draws(child));
    }
    any
}

/// [`asks_or_draws`] of the node alone.
fn asks_or_draws_itself(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Choose { .. }
            | Expr::Declare(_)
            | Expr::ChooseSlot { .. }
            | Expr::SlotCandidate(_)
            | Expr::Candidate(_)
            | Expr::RandomCards { .. }
            | Expr::RandomPlayer
            | Expr::RandomNumber { .. }
    )
}

/// Whether reading an expression costs about nothing.
fn cheap(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Int(_)
            | Expr::Text(_)
            | Expr::Bool(_)
            | Expr::This
            | Expr::It
            | Expr::You
            | Expr::Opponent
            | Expr::TurnNumber
            | Expr::Var(_)
            | Expr::EventParam(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(n: &str) -> Box<Expr> {
        Box::new(Expr::Var(n.into()))
    }

    fn and(a: Expr, b: Expr) -> Expr {
        Expr::Binary {
            op: Op::And,
            lhs: Box::new(a),
            rhs: Box::new(b),
        }
    }

    #[test]
    fn conjuncts_not_naming_the_variable_are_fixed() {
        let active = Expr::InState {
            card: var("c"),
            state: "g:active".into(),
        };
        let none_attacking = Expr::Binary {
            op: Op::Eq,
            lhs: Box::new(Expr::Count(Box::new(Expr::Filter {
                cards: Box::new(Expr::Zone {
                    zone: "g:field".into(),
                    owner: None,
                }),
                condition: Box::new(Expr::InState {
                    card: Box::new(Expr::It),
                    state: "g:attacking".into(),
                }),
            }))),
            rhs: Box::new(Expr::Int(0)),
        };
        let caster_here = Expr::Count(Box::new(Expr::Filter {
            cards: Box::new(Expr::Zone {
                zone: "g:field".into(),
                owner: None,
            }),
            condition: Box::new(Expr::Binary {
                op: Op::Eq,
                lhs: Box::new(Expr::Field {
                    of: Box::new(Expr::It),
                    field: "caster".into(),
                }),
                rhs: Box::new(Expr::Field {
                    of: var("c"),
                    field: "caster".into(),
                }),
            }),
        }));
        let random = Expr::Binary {
            op: Op::Gt,
            lhs: Box::new(Expr::RandomNumber {
                low: Box::new(Expr::Int(1)),
                high: Box::new(Expr::Int(6)),
            }),
            rhs: Box::new(Expr::Int(3)),
        };
        let cond = and(
            and(
                and(active.clone(), none_attacking.clone()),
                caster_here.clone(),
            ),
            and(random.clone(), Expr::Var("other".into())),
        );
        let split = Split::of(&cond, "c");
        assert_eq!(split.fixed, vec![&none_attacking]);
        let other = Expr::Var("other".into());
        assert_eq!(
            split.per_value,
            [&active, &caster_here, &random, &other].map(Conjunct::Whole)
        );
        assert!(split.sides.is_empty());
    }

    #[test]
    fn an_or_is_one_conjunct() {
        let either = Expr::Binary {
            op: Op::Or,
            lhs: Box::new(Expr::Not(var("c"))),
            rhs: Box::new(Expr::Count(Box::new(Expr::Zone {
                zone: "g:hand".into(),
                owner: Some(Box::new(Expr::You)),
            }))),
        };
        let split = Split::of(&either, "c");
        assert!(split.fixed.is_empty());
        assert_eq!(split.per_value, [Conjunct::Whole(&either)]);
    }

    #[test]
    fn a_comparison_reads_its_fixed_side_once() {
        let active_nodes = Expr::Count(Box::new(Expr::Zone {
            zone: "g:nodes".into(),
            owner: Some(Box::new(Expr::You)),
        }));
        let cost = Expr::Stat {
            of: var("c"),
            stat: "g:cost".into(),
        };
        let enough = Expr::Binary {
            op: Op::Ge,
            lhs: Box::new(active_nodes.clone()),
            rhs: Box::new(cost.clone()),
        };
        let split = Split::of(&enough, "c");
        assert!(split.fixed.is_empty());
        assert_eq!(split.sides, vec![&active_nodes]);
        assert_eq!(
            split.per_value,
            [Conjunct::Compare {
                op: Op::Ge,
                fixed_left: true,
                side: 0,
                varying: &cost,
            }]
        );
        // a constant side is read per value, as written
        let cheap = Expr::Binary {
            op: Op::Lt,
            lhs: Box::new(cost.clone()),
            rhs: Box::new(Expr::Int(3)),
        };
        assert_eq!(Split::of(&cheap, "c").per_value, [Conjunct::Whole(&cheap)]);
    }
}
