//! Random picks (`random N cards`, `random player`, `random number A to B`): made by the engine
//! from the game's random stream, never asked of a player. A pick is kept among the answers of
//! the statement under way, so when the statement reruns for a later choice the same pick is
//! replayed, not drawn again; it is logged once, as a random pick (`random`), when drawn.

use crate::engine::agent::{Answer, Request};
use crate::engine::state::{seat, shown, CardId, Value};
use crate::engine::Game;
use crate::ir::Expr;
use rand::RngExt;

impl Game<'_> {
    /// The pick already made at this point of the statement (a rerun), or a new one `draw`
    /// makes from the random stream, kept for reruns; `true` when it is new.
    fn random_answer(&mut self, draw: impl FnOnce(&mut Self) -> Answer) -> (Answer, bool) {
        if let Some(a) = self.answers.get(self.answer_pos) {
            self.answer_pos = self.answer_pos.saturating_add(1);
            return (a.clone(), false);
        }
        let a = draw(self);
        self.answers.push(a.clone());
        self.answer_pos = self.answers.len();
        (a, true)
    }

    /// `random N cards`: N of the cards, each set of N as likely (all of them when there are
    /// no more); a card when N is 1.
    pub(super) fn random_cards(
        &mut self,
        count: &Expr,
        from: &Expr,
    ) -> Result<Value, Box<Request>> {
        let n = self.eval_count(count, 0)?;
        let pool = self.eval(from)?;
        let cands = self.cards_vec(&pool);
        let picked: Vec<CardId> = if self.dry.active {
            // a payability check: no pick is drawn, kept or logged; too few cards is short
            self.dry_pick(cands, n)
        } else if n >= cands.len() {
            cands
        } else {
            let len = cands.len();
            let (a, fresh) = self.random_answer(|g| {
                let mut idx: Vec<usize> = (0..len).collect();
                for i in 0..n {
                    let j = g.pick_stream().random_range(i..len);
                    idx.swap(i, j);
                }
                idx.truncate(n);
                idx.sort_unstable();
                Answer::Many(idx)
            });
            let picked: Vec<CardId> = match a {
                Answer::Many(v) => v.iter().filter_map(|i| cands.get(*i).copied()).collect(),
                _ => Vec::new(),
            };
            if fresh {
                self.log_random_cards(&picked, len);
            }
            picked
        };
        Ok(if n == 1 {
            picked.first().map_or(Value::Absent, |c| Value::Card(*c))
        } else {
            Value::Cards(picked)
        })
    }

    /// `random player`: one of the players, each as likely.
    pub(super) fn random_player(&mut self) -> Value {
        let n = self.prog.players();
        if self.dry.active {
            // a payability check draws nothing
            return Value::Player(0);
        }
        let (a, fresh) =
            self.random_answer(|g| Answer::Pick(g.pick_stream().random_range(0..n.max(1))));
        let p = match a {
            Answer::Pick(i) => seat(i.min(n.saturating_sub(1))),
            _ => 0,
        };
        if fresh {
            self.log_line("random", |_| format!("random pick: p{}", shown(p)));
        }
        Value::Player(p)
    }

    /// `random number A to B`: each number from A to B as likely; A when B is below it.
    pub(super) fn random_number(&mut self, low: &Expr, high: &Expr) -> Result<Value, Box<Request>> {
        let (Value::Int(lo), Value::Int(hi)) = (self.eval(low)?, self.eval(high)?) else {
            return Ok(Value::Absent);
        };
        let hi = hi.max(lo);
        if self.dry.active {
            // a payability check draws nothing
            return Ok(Value::Int(lo));
        }
        let (a, fresh) = self.random_answer(|g| {
            let k = g.pick_stream().random_range(lo..=hi);
            Answer::Text(k.to_string())
        });
        let k = match a {
            Answer::Text(t) => t.parse::<i64>().unwrap_or(lo),
            _ => lo,
        }
        .clamp(lo, hi);
        if fresh {
            self.log_line("random", |_| {
                format!("random pick: {k} (from {lo} to {hi})")
            });
        }
        Ok(Value::Int(k))
    }

    /// Logs cards picked at random among `among`: named for the players who may see every one
    /// of them, counted for the others.
    fn log_random_cards(&mut self, picked: &[CardId], among: usize) {
        let names: Vec<String> = picked.iter().map(|c| self.card_name(*c)).collect();
        let full = format!("random pick: {} (of {among})", names.join(", "));
        let tags: Vec<(CardId, u32)> = picked.iter().map(|c| (*c, self.seers(*c))).collect();
        let count = picked.len();
        let redacted = format!(
            "random pick: {count} card{} (of {among})",
            if count == 1 { "" } else { "s" }
        );
        let source = self.source_text();
        self.log_named("random", tags, full, redacted, source);
    }
}
