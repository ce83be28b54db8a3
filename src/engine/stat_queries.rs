//! Questions about a card's stat beside its value: `printed(c.stat)`, the value before any
//! modifier, and `modified(c.stat[, layer])`, whether a modifier applies now (PMV 6.1.14: a
//! `±0` component is no modifier).

use super::agent::Request;
use super::state::{CardId, ModKind, StatOp, Value};
use super::Game;
use crate::ir::{Expr, Id};

impl Game<'_> {
    /// `printed(c.stat)`: a number, or a pair for a composite stat; absent for no card.
    pub(super) fn printed_stat(&mut self, of: &Expr, stat: &Id) -> Result<Value, Box<Request>> {
        let (Some(c), Some(&s)) = (self.eval_card(of)?, self.prog.stat_index.get(stat)) else {
            return Ok(Value::Absent);
        };
        let vals = self.base_stats(c);
        let read = |i: u16| vals.get(i as usize).copied().flatten();
        let info = &self.prog.stats[s as usize];
        Ok(if info.components.is_empty() {
            read(s).map_or(Value::Absent, Value::Int)
        } else {
            Value::Pair(info.components.iter().map(|i| read(*i)).collect())
        })
    }

    /// `modified(c.stat[, layer])`: whether a one-shot or continuous modifier of the stat (of
    /// a component, or of the composite stat, for a composite one) applies now; an added 0 is
    /// none (6.1.14).
    pub(super) fn stat_modified(
        &mut self,
        of: &Expr,
        stat: &Id,
        layer: Option<&Id>,
    ) -> Result<Value, Box<Request>> {
        let (Some(c), Some(&s)) = (self.eval_card(of)?, self.prog.stat_index.get(stat)) else {
            return Ok(Value::Bool(false));
        };
        let layer = match layer {
            Some(l) => match self.prog.layer_index.get(l) {
                Some(&i) => Some(i),
                None => return Ok(Value::Bool(false)),
            },
            None => None,
        };
        Ok(Value::Bool(self.has_stat_modifier(c, s, layer)))
    }

    /// Whether a modifier touches stat `s` of card `c` (in layer `layer`, if given).
    fn has_stat_modifier(&mut self, c: CardId, s: u16, layer: Option<u16>) -> bool {
        let info = &self.prog.stats[s as usize];
        let mut touched: Vec<u16> = info.components.clone();
        touched.push(s);
        // a component is also touched by a modifier of its composite stat (a swap)
        for (i, st) in self.prog.stats.iter().enumerate() {
            if st.components.contains(&s) {
                touched.push(u16::try_from(i).unwrap_or(u16::MAX));
            }
        }
        self.active_mods(c).iter().any(|m| match m.kind {
            ModKind::Stat {
                stat,
                layer: l,
                op,
                value,
            } => {
                touched.contains(&stat)
                    && layer.is_none_or(|want| want == l)
                    && !(op == StatOp::Add && value == 0)
            }
            _ => false,
        })
    }
}
