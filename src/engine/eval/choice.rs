//! Expressions over sets of cards, and the choices an expression asks for: `where`, `top N
//! of`, `choose`/`target`/`search`, `declare`, lists.

use crate::engine::agent::{Answer, Choice, Request, RequestKind};
use crate::engine::state::{CardId, Seat, Value, ZoneKey};
use crate::engine::Game;
use crate::ir::{ChoiceKind, Expr};

impl Game<'_> {
    /// `cards where condition`: the cards for which it holds, `it` meaning each.
    pub(super) fn filter(&mut self, cards: &Expr, condition: &Expr) -> Result<Value, Box<Request>> {
        let mut out = Vec::new();
        self.each_holding(cards, condition, |_, c, left| {
            // room for every card left at the first that passes (most filters pass none)
            if out.capacity() == 0 {
                out.reserve_exact(left);
            }
            out.push(c);
            Ok(())
        })?;
        Ok(Value::Cards(out))
    }

    /// Reads `each` of the cards of `cards where condition`, in order, as the filter lists
    /// them (`it` bound to each card while the condition is read; not while `each` runs),
    /// without building the filter's list: `count`, `total` and the filter itself read it so.
    /// `each` is given the game, the card and how many cards of `cards` are left from it on.
    pub(in crate::engine) fn each_holding(
        &mut self,
        cards: &Expr,
        condition: &Expr,
        mut each: impl FnMut(&mut Self, CardId, usize) -> Result<(), Box<Request>>,
    ) -> Result<(), Box<Request>> {
        let list = if let Expr::Zone { zone, owner } = cards {
            // a zone's cards listed where they lie, with no value built for the zone
            self.note_read(cards);
            let named = self.zone_named(zone, owner.as_deref())?;
            let mut list = self.card_pool.0.pop().unwrap_or_default();
            if let Some((z, owners)) = named {
                self.zone_cards_into(z, &owners, &mut list);
            }
            list
        } else {
            let v = self.eval(cards)?;
            self.pooled_cards_of(&v)
        };
        let lowered = self.prog.conds.get(condition);
        let leaf = self.leaf(lowered, condition);
        for (i, &c) in list.iter().enumerate() {
            let holds = match leaf.and_then(|l| self.leaf_holds(l, c)) {
                Some(holds) if !self.verify_lowered => holds,
                Some(quick) => self.leaf_verified(quick, c, lowered, condition)?,
                None => self.holds_lowered(c, lowered, condition)?,
            };
            if holds {
                each(self, c, list.len().saturating_sub(i))?;
            }
        }
        self.recycle_cards(list);
        Ok(())
    }

    /// The candidate of the filter `k` levels out from the innermost (0: `it`).
    pub(super) fn candidate(&self, k: u32) -> Value {
        let at = usize::try_from(k)
            .ok()
            .and_then(|k| self.its.len().checked_sub(k)?.checked_sub(1));
        at.and_then(|i| self.its.get(i))
            .map_or(Value::Absent, |c| Value::Card(*c))
    }

    /// `highest key of cards` (or lowest): the card whose key (read with `it` bound to each;
    /// a card whose key is no number is left out) is the highest; among tied cards, the
    /// resolving player chooses one; absent when no card has a key.
    pub(super) fn extreme(
        &mut self,
        highest: bool,
        key: &Expr,
        cards: &Expr,
    ) -> Result<Value, Box<Request>> {
        let v = self.eval(cards)?;
        let mut best: Option<i64> = None;
        let mut tied: Vec<CardId> = Vec::new();
        for c in self.cards_of(&v) {
            let Some(k) = self.key_of(key, c)? else {
                continue;
            };
            let better = best.is_none_or(|b| if highest { k > b } else { k < b });
            if better {
                best = Some(k);
                tied.clear();
            }
            if best == Some(k) {
                tied.push(c);
            }
        }
        let picked = if tied.len() > 1 && !self.dry.active {
            let you = self.ctx().you;
            self.ask_cards(ChoiceKind::Choose, you, tied, 1, 1)?
        } else {
            tied
        };
        Ok(picked.first().map_or(Value::Absent, |c| Value::Card(*c)))
    }

    /// `top N of zone` (or bottom): a zone seen whole is shuffled first (PMV 3.2.5); a count
    /// below 0 reads as 0.
    pub(super) fn top_of(
        &mut self,
        top: bool,
        count: &Expr,
        zone: &Expr,
    ) -> Result<Value, Box<Request>> {
        let n = self.eval_count(count, 0)?;
        let z = self.eval(zone)?;
        if let (Value::Zone(zi, owners), false) = (&z, self.dry.active) {
            // a zone seen whole is shuffled before the next draw from it (PMV 3.2.5);
            // done once: a replayed statement finds it shuffled already
            for o in owners {
                let k = ZoneKey {
                    zone: *zi,
                    owner: *o,
                };
                if self.seen.contains(&k) {
                    self.seen.retain(|x| *x != k);
                    self.shuffle_zone(k);
                }
            }
        }
        let cards = self.cards_of(&z);
        // cards_of lists ordered zones top first
        let picked: Vec<CardId> = if top {
            cards.into_iter().take(n).collect()
        } else {
            let len = cards.len();
            cards.into_iter().skip(len.saturating_sub(n)).collect()
        };
        if self.dry.active && picked.len() < n {
            // a payability check: fewer cards than the cost names
            self.dry.short = true;
        }
        Ok(Value::Cards(picked))
    }

    /// A number read as a count: below 0 reads as 0, beyond what a `usize` holds as its
    /// largest; `otherwise` when it is not a number.
    pub(in crate::engine) fn eval_count(
        &mut self,
        e: &Expr,
        otherwise: usize,
    ) -> Result<usize, Box<Request>> {
        Ok(match self.eval(e)? {
            Value::Int(n) => usize::try_from(n.max(0)).unwrap_or(usize::MAX),
            _ => otherwise,
        })
    }

    /// `choose`, `target` or `search`: between `min` and `max` cards (`max` absent: any
    /// number) among those of `from`; a choice with one way to answer is not asked. One card
    /// exactly gives a card (or absent), any other range a set.
    pub(super) fn choose(
        &mut self,
        kind: ChoiceKind,
        chooser: &Expr,
        min: &Expr,
        max: Option<&Expr>,
        from: &Expr,
    ) -> Result<Value, Box<Request>> {
        let who = self.player_or_you(chooser)?;
        let lo = self.eval_count(min, 0)?;
        let hi = match max {
            Some(m) => Some(self.eval_count(m, lo)?),
            None => None,
        };
        // a replayed statement finds the candidates its choice asked about kept
        let search = kind == ChoiceKind::Search;
        let (cands, since) = self.kept_or_read(from, search, |g| {
            let pool = g.eval(from)?;
            if search && !g.dry.active {
                g.mark_seen(from)?;
            }
            Ok(g.candidates(kind, &pool))
        })?;
        if self.dry.active {
            // a payability check: the first candidates, nobody asked
            let picked = self.dry_pick(cands, lo);
            return Ok(if lo == 1 && hi == Some(1) {
                picked.first().map_or(Value::Absent, |c| Value::Card(*c))
            } else {
                Value::Cards(picked)
            });
        }
        if kind == ChoiceKind::Search {
            // the searcher looks through them: what they see, every line and view shows them
            for c in &cands {
                self.state.cards[*c as usize].known |= 1 << who;
                self.changed_unread_card(*c);
            }
        }
        let single = lo == 1 && hi == Some(1);
        let hi = hi.unwrap_or(cands.len()).min(cands.len());
        let lo = lo.min(hi);
        let picked = if hi == 0 {
            Vec::new()
        } else if lo == cands.len() {
            cands
        } else {
            self.keep_candidates(from, search, since, &cands);
            self.ask_cards(kind, who, cands, lo, hi)?
        };
        Ok(if single {
            picked.first().map_or(Value::Absent, |c| Value::Card(*c))
        } else {
            Value::Cards(picked)
        })
    }

    /// The cards a choice may pick: a target skips cards with an `untargetable` keyword.
    fn candidates(&mut self, kind: ChoiceKind, pool: &Value) -> Vec<CardId> {
        let mut cands = self.cards_vec(pool);
        if kind == ChoiceKind::Target {
            let shield = self.prog.untargetable.clone();
            cands.retain(|c| !shield.iter().any(|k| self.keyword_args(*c, *k).is_some()));
        }
        cands
    }

    /// Asks a player for `lo` to `hi` of the candidates. Options never leak a hidden zone's
    /// order: searches list cards by definition.
    fn ask_cards(
        &mut self,
        kind: ChoiceKind,
        who: Seat,
        mut cands: Vec<CardId>,
        lo: usize,
        hi: usize,
    ) -> Result<Vec<CardId>, Box<Request>> {
        if kind == ChoiceKind::Search {
            cands.sort_by_key(|c| (self.state.cards[*c as usize].def, *c));
        }
        // built only when the question goes out (a replayed statement has its answer)
        let asked = self.ask_with(|g| Request {
            player: who,
            kind: RequestKind::Cards { min: lo, max: hi },
            prompt: cards_prompt(kind, lo, hi),
            options: cands
                .iter()
                .map(|c| g.card_option(*c, g.visible_to(*c, who)))
                .collect(),
        });
        Ok(match asked? {
            Answer::Many(v) => v
                .into_iter()
                .filter_map(|i| cands.get(i).copied())
                .collect(),
            _ => Vec::new(),
        })
    }

    /// `declare a …`: the resolving player names a card (any name of the game's cards).
    pub(super) fn declare(&mut self, what: &str) -> Result<Value, Box<Request>> {
        if self.dry.active {
            // a payability check asks nobody
            return Ok(Value::Absent);
        }
        let you = self.ctx().you;
        let asked = self.ask_with(|g| {
            let mut names: Vec<String> = g.prog.cards.iter().map(|c| c.name.clone()).collect();
            names.sort();
            names.dedup();
            Request {
                player: you,
                kind: RequestKind::Declare,
                prompt: format!("declare a {what}"),
                options: names
                    .into_iter()
                    .map(|n| Choice {
                        label: n,
                        action: None,
                        card: None,
                        card_id: None,
                    })
                    .collect(),
            }
        });
        Ok(match asked? {
            Answer::Text(t) => {
                self.declared.push((you, t.clone()));
                Value::Text(t)
            }
            _ => Value::Absent,
        })
    }

    /// `[a, b, …]`: a set of cards when every item is cards, players when every one is a
    /// player, else a list.
    pub(super) fn list(&mut self, items: &[Expr]) -> Result<Value, Box<Request>> {
        let mut vals = Vec::new();
        for i in items {
            vals.push(self.eval(i)?);
        }
        Ok(
            if vals
                .iter()
                .all(|v| matches!(v, Value::Card(_) | Value::Absent | Value::Cards(_)))
            {
                Value::Cards(vals.iter().flat_map(|v| self.cards_of(v)).collect())
            } else if vals.iter().all(|v| matches!(v, Value::Player(_))) {
                Value::Players(
                    vals.iter()
                        .filter_map(|v| match v {
                            Value::Player(p) => Some(*p),
                            _ => None,
                        })
                        .collect(),
                )
            } else {
                Value::List(std::sync::Arc::new(vals))
            },
        )
    }

    /// Notes the zones an expression looks through whole (`search … in your.deck where …`)
    /// when they are shuffled once seen (PMV 3.2.5).
    pub(in crate::engine) fn mark_seen(&mut self, e: &Expr) -> Result<(), Box<Request>> {
        let mut e = e;
        while let Expr::Filter { cards, .. } = e {
            e = cards;
        }
        if let Expr::Zone { .. } = e {
            if let Value::Zone(z, owners) = self.eval(e)? {
                if self.prog.ruleset.zones[z as usize].shuffle_when_seen {
                    for o in owners {
                        let k = ZoneKey { zone: z, owner: o };
                        if !self.seen.contains(&k) {
                            self.seen.push(k);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// A card as an option of a request: by name when the chooser may see it (`visible`), else
    /// as "a hidden card".
    pub(in crate::engine) fn card_option(&self, c: CardId, visible: bool) -> Choice {
        let name = self.card_name(c);
        Choice {
            label: if visible {
                name.clone()
            } else {
                "a hidden card".into()
            },
            action: None,
            card: visible.then_some(name),
            card_id: Some(c),
        }
    }
}

/// The prompt of a card choice: `choose 2 cards`, `target 0 to 1 card`.
fn cards_prompt(kind: ChoiceKind, lo: usize, hi: usize) -> String {
    let verb = match kind {
        ChoiceKind::Choose => "choose",
        ChoiceKind::Target => "target",
        ChoiceKind::Search => "search for",
    };
    // written piece by piece (asked at every choice of cards: `format!` cost a thousand
    // instructions a prompt)
    let mut out = String::with_capacity(32);
    out.push_str(verb);
    out.push(' ');
    if lo != hi {
        push_number(&mut out, lo);
        out.push_str(" to ");
    }
    push_number(&mut out, hi);
    out.push_str(if hi == 1 { " card" } else { " cards" });
    out
}

/// Appends a number's decimal digits.
fn push_number(out: &mut String, n: usize) {
    use std::fmt::Write;
    // writing to a `String` does not fail
    let _ = write!(out, "{n}");
}
