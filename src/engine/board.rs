//! The board as one player may know it, as plain data for a person at a terminal (`fuda play`):
//! every card each zone holds, with its stats now and as printed, its number fields, states,
//! counters and the cards set on it — names, stats and fields only of cards the player may see
//! (the check every view passes, [`Game::sees`]); states, counters, slots and how many cards a
//! zone holds are public. Also what a pending request is asked within: the actions, verbs,
//! procedures and abilities whose bodies are running. Reading a board changes nothing in the
//! game (stats come from the derived modifiers, a cache).

use super::state::{shown, CardId, Outcome, Seat, ZoneKey};
use super::{Frame, Game, Program, Value};
use crate::ir::{self, FieldType, Stmt};

/// A board, as one player may know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// The player whose board this is.
    pub seat: Seat,
    /// The turn number.
    pub turn: u32,
    /// The turn player.
    pub active: Seat,
    /// The current phase's id, if any.
    pub phase: Option<String>,
    /// How the game ended, when it has.
    pub outcome: Option<Outcome>,
    /// Every player, in turn order.
    pub players: Vec<PlayerBoard>,
}

/// One player's side of a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerBoard {
    /// The player.
    pub seat: Seat,
    /// The counters kept on players: (id, value).
    pub counters: Vec<(String, i64)>,
    /// Every zone the ruleset declares, in its order.
    pub zones: Vec<ZoneBoard>,
}

/// One zone of one player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneBoard {
    /// The zone's id.
    pub zone: String,
    /// Its slots, in order (empty: a zone without slots).
    pub slots: Vec<String>,
    /// Public (every player may see its face-up cards); else its order is nobody's to list.
    pub public: bool,
    /// Cards not set on another card of the zone: ordered zones top first, a zone with slots in
    /// the order of its slots (cards in no slot last).
    pub cards: Vec<BoardCard>,
}

/// A card on a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardCard {
    /// What it is, when the player may see it (`None`: hidden, face down).
    pub card: Option<CardInfo>,
    /// The states it is in (ids).
    pub states: Vec<String>,
    /// Its counters that are not 0: (id, value).
    pub counters: Vec<(String, i64)>,
    /// Its slot, in a zone with slots.
    pub slot: Option<String>,
    /// The cards set on it.
    pub attached: Vec<BoardCard>,
}

/// What a visible card is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardInfo {
    /// Its printed name.
    pub name: String,
    /// Its definition (an index into [`Program::cards`]).
    pub def: u32,
    /// Its card type's id.
    pub card_type: String,
    /// Its stats: composite stats as one entry, plain stats that are no component of one.
    pub stats: Vec<StatShown>,
    /// The number fields its card type declares, as printed: (field, value).
    pub numbers: Vec<(String, i64)>,
}

/// A stat of a card now and as printed, each component as read (below its floor: the floor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatShown {
    /// The stat's id.
    pub stat: String,
    /// Its value now: one entry for a plain stat, one per component for a composite one.
    pub now: Vec<Option<i64>>,
    /// Its value before any modifier.
    pub printed: Vec<Option<i64>>,
}

/// What a pending request is asked within, outermost first ([`Game::asked_within`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Within {
    /// A ruleset action being taken.
    Action {
        /// The action's id.
        id: String,
        /// Its printed name.
        label: Option<String>,
        /// The card it is taken with, as the player may know it (`a hidden card`).
        card: Option<String>,
    },
    /// A verb or procedure being run.
    Call {
        /// Its id.
        id: String,
        /// Its printed name.
        label: Option<String>,
    },
    /// The cost of a card's ability being paid.
    Cost {
        /// The card, as the player may know it.
        card: String,
        /// The ability's kind (id).
        kind: String,
    },
    /// The effect of a card's ability running.
    Effect {
        /// The card, as the player may know it.
        card: String,
        /// The ability's kind (id).
        kind: String,
    },
    /// A rule action being run.
    Rule {
        /// Its id.
        id: String,
        /// Its printed name.
        label: Option<String>,
    },
}

impl<'p> Game<'p> {
    /// The board as `seat` may know it.
    pub fn board(&mut self, seat: Seat) -> Board {
        let prog: &'p Program = self.prog;
        let players = prog
            .seats()
            .map(|p| PlayerBoard {
                seat: p,
                counters: prog
                    .ruleset
                    .counters
                    .iter()
                    .filter(|c| c.on_players)
                    .filter_map(|c| {
                        let k = *prog.counter_index.get(&c.name.id)?;
                        let v = self.state.players.get(usize::from(p))?.counters[k as usize];
                        Some((c.name.id.to_string(), v))
                    })
                    .collect(),
                zones: (0..prog.ruleset.zones.len())
                    .map(|z| self.zone_board(seat, p, z))
                    .collect(),
            })
            .collect();
        Board {
            seat,
            turn: self.state.turn,
            active: self.state.active,
            phase: self
                .state
                .phase
                .map(|p| prog.ruleset.phases[p as usize].id.to_string()),
            outcome: self.state.outcome.clone(),
            players,
        }
    }

    fn zone_board(&mut self, seat: Seat, owner: Seat, z: usize) -> ZoneBoard {
        let prog: &'p Program = self.prog;
        let info = &prog.ruleset.zones[z];
        let k = ZoneKey {
            zone: super::state::index16(z),
            owner,
        };
        let mut cards: Vec<CardId> = self.state.zone(k).to_vec();
        if info.ordered {
            cards.reverse();
        }
        if !info.slots.is_empty() {
            let rank = |c: &CardId| {
                let slot = self.state.cards[*c as usize].slot.as_ref();
                slot.and_then(|s| info.slots.iter().position(|x| x == s))
                    .unwrap_or(usize::MAX)
            };
            cards.sort_by_key(rank);
        }
        let here = cards.clone();
        let loose: Vec<CardId> = cards
            .into_iter()
            .filter(|c| {
                self.state.cards[*c as usize]
                    .host
                    .is_none_or(|h| !here.contains(&h))
            })
            .collect();
        ZoneBoard {
            zone: info.name.id.to_string(),
            slots: info.slots.clone(),
            public: info.visibility == ir::Visibility::Public,
            cards: loose.iter().map(|c| self.board_card(seat, *c, 0)).collect(),
        }
    }

    fn board_card(&mut self, seat: Seat, c: CardId, depth: u8) -> BoardCard {
        let prog: &'p Program = self.prog;
        let card = self.sees(seat, c).then(|| self.card_info(c));
        let cs = &self.state.cards[c as usize];
        let states = (0..prog.states.len())
            .filter(|s| cs.states & (1 << s) != 0)
            .map(|s| prog.states[s].id.to_string())
            .collect();
        let counters = prog
            .ruleset
            .counters
            .iter()
            .filter_map(|k| {
                let i = *prog.counter_index.get(&k.name.id)?;
                let v = *cs.counters.get(i as usize)?;
                (v != 0).then(|| (k.name.id.to_string(), v))
            })
            .collect();
        let slot = cs.slot.clone();
        // cards set on cards set on cards: a few levels, then no more (a board stays finite)
        let attached = if depth < 4 {
            self.attached_cards(c)
                .into_iter()
                .map(|a| self.board_card(seat, a, depth.saturating_add(1)))
                .collect()
        } else {
            Vec::new()
        };
        BoardCard {
            card,
            states,
            counters,
            slot,
            attached,
        }
    }

    fn card_info(&mut self, c: CardId) -> CardInfo {
        let prog: &'p Program = self.prog;
        let def_ix = self.state.cards[c as usize].def;
        let def = &prog.cards[def_ix as usize];
        let now = self.stats(c);
        let printed = self.base_stats(c);
        let read = |vals: &[Option<i64>], i: u16| {
            let v = vals.get(i as usize).copied().flatten();
            match prog.stats.get(i as usize).and_then(|s| s.floor) {
                Some(f) => v.map(|x| x.max(f)),
                None => v,
            }
        };
        let parts: Vec<u16> = prog
            .stats
            .iter()
            .flat_map(|s| s.components.iter().copied())
            .collect();
        let mut stats = Vec::new();
        for (i, s) in prog.stats.iter().enumerate() {
            let i = super::state::index16(i);
            let comps = if s.components.is_empty() {
                if parts.contains(&i) {
                    continue;
                }
                vec![i]
            } else {
                s.components.clone()
            };
            let now: Vec<Option<i64>> = comps.iter().map(|x| read(&now, *x)).collect();
            let printed: Vec<Option<i64>> = comps.iter().map(|x| read(&printed, *x)).collect();
            if now.iter().chain(&printed).any(Option::is_some) {
                stats.push(StatShown {
                    stat: s.id.to_string(),
                    now,
                    printed,
                });
            }
        }
        let numbers = prog
            .ruleset
            .card_types
            .iter()
            .find(|t| t.name.id == def.card_type)
            .map(|t| {
                t.fields
                    .iter()
                    .filter(|f| f.ty == FieldType::Number && !f.list)
                    .filter_map(|f| match def.fields.get(f.name.as_str()) {
                        Some(ir::Value::Number(n)) => Some((f.name.clone(), *n)),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        CardInfo {
            name: def.name.clone(),
            def: def_ix,
            card_type: def.card_type.to_string(),
            stats,
            numbers,
        }
    }

    /// What the pending request is asked within, outermost first: every action, verb or
    /// procedure, ability cost or effect and rule whose body is running (read off the stack of
    /// frames; cards named as `seat` may know them).
    pub fn asked_within(&self, seat: Seat) -> Vec<Within> {
        let total_pops = self
            .frames
            .iter()
            .filter(|f| matches!(f, Frame::PopCtx))
            .count();
        // contexts opened without a closing frame (the game's own) come first
        let base = self.ctxs.len().saturating_sub(total_pops);
        let mut pops = 0usize;
        let mut out = Vec::new();
        for f in &self.frames {
            match f {
                Frame::PopCtx => pops = pops.saturating_add(1),
                Frame::Block { stmts, .. } if !stmts.is_empty() => {
                    let ctx = (base.saturating_add(pops))
                        .checked_sub(1)
                        .and_then(|i| self.ctxs.get(i));
                    if let Some(w) = self.body_within(seat, stmts, ctx) {
                        // an ability's effect waits below its cost while the cost is paid
                        if let (
                            Within::Cost { card, kind },
                            Some(Within::Effect { card: c, kind: k }),
                        ) = (&w, out.last())
                        {
                            if card == c && kind == k {
                                out.pop();
                            }
                        }
                        out.push(w);
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Which declared body `stmts` is, if any.
    fn body_within(&self, seat: Seat, stmts: &[Stmt], ctx: Option<&super::Ctx>) -> Option<Within> {
        let prog: &'p Program = self.prog;
        let same = |body: &[Stmt]| std::ptr::eq(body.as_ptr(), stmts.as_ptr());
        if let Some(a) = prog.ruleset.actions.iter().find(|a| same(&a.body)) {
            let card = a.var.as_ref().and_then(|var| {
                let ctx = ctx?;
                let vars = self.vars.get(ctx.vars_base..)?;
                match vars.iter().find(|(n, _)| *n == var.as_str()) {
                    Some((_, Value::Card(c))) => Some(self.name_for(*c, seat)),
                    _ => None,
                }
            });
            return Some(Within::Action {
                id: a.name.id.to_string(),
                label: a.name.label.clone(),
                card,
            });
        }
        if let Some(p) = prog.callables.values().find(|p| same(&p.body)) {
            return Some(Within::Call {
                id: p.name.id.to_string(),
                label: p.name.label.clone(),
            });
        }
        if let Some(r) = prog.ruleset.rules.iter().find(|r| same(&r.body)) {
            return Some(Within::Rule {
                id: r.name.id.to_string(),
                label: r.name.label.clone(),
            });
        }
        let (card, aref) = ctx?.source?;
        let a = prog.ability(aref);
        let name = self.name_for(card, seat);
        if same(&a.cost) {
            Some(Within::Cost {
                card: name,
                kind: a.kind.to_string(),
            })
        } else if same(&a.effect) {
            Some(Within::Effect {
                card: name,
                kind: a.kind.to_string(),
            })
        } else {
            None
        }
    }

    /// The statement a pending request comes from: the one the innermost running block is at
    /// (a `may` asking yes or no, a choice…), so that a question can be put in words.
    pub fn asking_statement(&self) -> Option<&'p Stmt> {
        self.frames.iter().rev().find_map(|f| match f {
            Frame::Block { stmts, pc, .. } => stmts.get(*pc as usize),
            _ => None,
        })
    }

    /// The variables in scope now, innermost last, as `seat` may know them: a card `seat` does
    /// not see reads [`Value::Absent`] (cards of a set too), so a question put in words names
    /// only what the player may know.
    pub fn visible_vars(&self, seat: Seat) -> Vec<(String, Value)> {
        let hide = |v: &Value| match v {
            Value::Card(c) if !self.sees(seat, *c) => Value::Absent,
            Value::Cards(cs) => {
                Value::Cards(cs.iter().copied().filter(|c| self.sees(seat, *c)).collect())
            }
            other => other.clone(),
        };
        self.vars
            .iter()
            .map(|(n, v)| (n.to_string(), hide(v)))
            .collect()
    }

    /// Where each option's card is, as `seat` reads it (`your pool`, `p2's pool`);
    /// `None` for an option with no card.
    pub fn option_zones(&self, seat: Seat, options: &[super::Choice]) -> Vec<Option<String>> {
        options
            .iter()
            .map(|o| {
                let c = o.card_id?;
                let cs = self.state.cards.get(c as usize)?;
                let z = &self.prog.ruleset.zones.get(cs.zone.zone as usize)?.name.id;
                let z = Program::short(z);
                Some(if cs.zone.owner == seat {
                    format!("your {z}")
                } else {
                    format!("p{}'s {z}", shown(cs.zone.owner))
                })
            })
            .collect()
    }
}
