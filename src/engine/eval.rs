//! Expressions. Evaluating changes nothing in the game; a choice inside an expression is taken
//! from the statement's replayed answers or stops the statement with a request.

use super::agent::{Answer, Choice, Request, RequestKind};
use super::state::{CardId, Seat, Value, ZoneKey};
use super::Game;
use crate::ir::{self, ChoiceKind, Expr, Op, Type};

impl<'p> Game<'p> {
    /// Evaluates an expression in the current context.
    pub(super) fn eval(&mut self, e: &Expr) -> Result<Value, Request> {
        Ok(match e {
            Expr::Int(n) => Value::Int(*n),
            Expr::Text(t) => Value::Text(t.clone()),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Pair(p) => Value::Pair(p.clone()),
            Expr::This => self.ctx().this.map(Value::Card).unwrap_or(Value::Absent),
            Expr::It => self
                .its
                .last()
                .map(|c| Value::Card(*c))
                .unwrap_or(Value::Absent),
            Expr::You => Value::Player(self.ctx().you),
            Expr::Opponent => Value::Player(self.opponent_of(self.ctx().you)),
            Expr::EachPlayer => Value::Players((0..self.prog.players() as Seat).collect()),
            Expr::Var(name) => self.var(name),
            Expr::EventParam(name) => {
                let Some(ev) = self.ctx().event.clone() else {
                    return Ok(Value::Absent);
                };
                let params = &self.prog.ruleset.events[ev.event as usize].params;
                params
                    .iter()
                    .position(|p| &p.name == name)
                    .and_then(|i| ev.args.get(i).cloned())
                    .unwrap_or(Value::Absent)
            }
            Expr::Zone { zone, owner } => {
                let Some(&z) = self.prog.zones.get(zone) else {
                    return Ok(Value::Absent);
                };
                let owners = match owner {
                    None => {
                        if self.prog.ruleset.zones[z as usize].bare_means_every {
                            (0..self.prog.players() as Seat).collect()
                        } else {
                            vec![self.ctx().you]
                        }
                    }
                    Some(o) => match self.eval(o)? {
                        Value::Player(p) => vec![p],
                        Value::Players(ps) => ps,
                        Value::Card(c) => vec![self.state.cards[c as usize].controller],
                        _ => Vec::new(),
                    },
                };
                Value::Zone(z, owners)
            }
            Expr::Stat { of, stat } => match self.eval(of)? {
                Value::Card(c) => self.stat_value(c, stat),
                _ => Value::Absent,
            },
            Expr::Counter { of, counter } => {
                let Some(&k) = self.prog.counter_index.get(counter) else {
                    return Ok(Value::Absent);
                };
                match self.eval(of)? {
                    Value::Card(c) => Value::Int(self.state.cards[c as usize].counters[k as usize]),
                    Value::Player(p) => {
                        Value::Int(self.state.players[p as usize].counters[k as usize])
                    }
                    _ => Value::Absent,
                }
            }
            Expr::Field { of, field } => match self.eval(of)? {
                Value::Card(c) => self.field(c, field),
                _ => Value::Absent,
            },
            Expr::Related { .. } => Value::Absent,
            Expr::Count(x) => {
                let v = self.eval(x)?;
                Value::Int(match &v {
                    Value::Players(p) => p.len(),
                    Value::List(l) => l.len(),
                    _ => self.cards_of(&v).len(),
                } as i64)
            }
            Expr::Owner(x) => match self.eval(x)? {
                Value::Card(c) => Value::Player(self.state.cards[c as usize].owner),
                _ => Value::Absent,
            },
            Expr::Controller(x) => match self.eval(x)? {
                Value::Card(c) => Value::Player(self.state.cards[c as usize].controller),
                _ => Value::Absent,
            },
            Expr::OpponentOf(x) => match self.eval(x)? {
                Value::Player(p) => Value::Player(self.opponent_of(p)),
                _ => Value::Absent,
            },
            Expr::Min(a, b) => match (self.eval(a)?, self.eval(b)?) {
                (Value::Int(a), Value::Int(b)) => Value::Int(a.min(b)),
                _ => Value::Absent,
            },
            Expr::Max(a, b) => match (self.eval(a)?, self.eval(b)?) {
                (Value::Int(a), Value::Int(b)) => Value::Int(a.max(b)),
                _ => Value::Absent,
            },
            Expr::Not(x) => Value::Bool(self.eval(x)? != Value::Bool(true)),
            Expr::Neg(x) => match self.eval(x)? {
                Value::Int(n) => Value::Int(n.saturating_neg()),
                _ => Value::Absent,
            },
            Expr::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs)?,
            Expr::Coalesce(a, b) => match self.eval(a)? {
                Value::Absent => self.eval(b)?,
                v => v,
            },
            Expr::Contains { haystack, needle } => {
                let h = self.eval(haystack)?;
                let n = match self.eval(needle)? {
                    Value::Text(t) => t,
                    _ => return Ok(Value::Bool(false)),
                };
                let n = self.normalized(&n);
                let texts: Vec<&str> = match &h {
                    Value::Text(t) => vec![t.as_str()],
                    Value::List(l) => l
                        .iter()
                        .filter_map(|v| match v {
                            Value::Text(t) => Some(t.as_str()),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                Value::Bool(texts.into_iter().any(|t| self.normalized(t).contains(&n)))
            }
            Expr::HasKeyword { card, keyword } => match self.eval(card)? {
                Value::Card(c) => {
                    let k = self.prog.keyword_index.get(keyword).copied();
                    Value::Bool(k.is_some_and(|k| self.keyword_args(c, k).is_some()))
                }
                _ => Value::Bool(false),
            },
            Expr::HasAbility { card, kind } => match self.eval(card)? {
                Value::Card(c) => {
                    let abilities = self.working_or_printed(c);
                    Value::Bool(
                        abilities
                            .iter()
                            .any(|a| &self.prog.ability(*a).kind == kind),
                    )
                }
                _ => Value::Bool(false),
            },
            Expr::HasAttribute { card, attribute } => match self.eval(card)? {
                Value::Card(c) => {
                    let abilities = self.working_or_printed(c);
                    Value::Bool(
                        abilities
                            .iter()
                            .any(|a| self.prog.ability(*a).attributes.contains(attribute)),
                    )
                }
                _ => Value::Bool(false),
            },
            Expr::TurnNumber => Value::Int(self.state.turn as i64),
            Expr::Cancelled { event, subject } => {
                let s = self.eval(subject)?;
                let e = self.prog.event_index.get(event).copied();
                Value::Bool(
                    e.is_some_and(|e| self.state.cancelled.iter().any(|(x, v)| *x == e && *v == s)),
                )
            }
            Expr::KeywordValue { card, keyword } => match self.eval(card)? {
                Value::Card(c) => {
                    let k = self.prog.keyword_index.get(keyword).copied();
                    k.and_then(|k| self.keyword_args(c, k))
                        .and_then(|a| a.into_iter().next())
                        .unwrap_or(Value::Absent)
                }
                _ => Value::Absent,
            },
            Expr::IsTurnPlayer(p) => Value::Bool(self.eval(p)? == Value::Player(self.state.active)),
            Expr::FaceIs { card, face } => match self.eval(card)? {
                Value::Card(c) => {
                    Value::Bool(self.state.cards[c as usize].face_up == (*face == ir::Face::Up))
                }
                _ => Value::Bool(false),
            },
            Expr::Distinct { cards, field } => {
                let v = self.eval(cards)?;
                let mut seen: Vec<String> = Vec::new();
                for c in self.cards_of(&v) {
                    let vals = match self.field(c, field) {
                        Value::List(l) => l,
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
                Value::Int(seen.len() as i64)
            }
            Expr::Attached(x) => match self.eval(x)? {
                Value::Card(c) => Value::Cards(self.attached(c)),
                _ => Value::Cards(Vec::new()),
            },
            Expr::Host(x) => match self.eval(x)? {
                Value::Card(c) => self.state.cards[c as usize]
                    .host
                    .map(Value::Card)
                    .unwrap_or(Value::Absent),
                _ => Value::Absent,
            },
            Expr::InState { card, state } => match self.eval(card)? {
                Value::Card(c) => Value::Bool(
                    self.prog
                        .state_index
                        .get(state)
                        .is_some_and(|s| self.state.in_state(c, *s)),
                ),
                _ => Value::Bool(false),
            },
            Expr::OfType { card, card_type } => match self.eval(card)? {
                Value::Card(c) => Value::Bool(self.of_type(c, card_type)),
                _ => Value::Bool(false),
            },
            Expr::IsKind { value, kind } => {
                let v = self.eval(value)?;
                Value::Bool(match kind {
                    Type::Player => matches!(v, Value::Player(_)),
                    Type::Card => matches!(v, Value::Card(_)),
                    _ => false,
                })
            }
            Expr::Filter { cards, condition } => {
                let v = self.eval(cards)?;
                let mut out = Vec::new();
                for c in self.cards_of(&v) {
                    self.its.push(c);
                    let r = self.eval(condition);
                    self.its.pop();
                    if r? == Value::Bool(true) {
                        out.push(c);
                    }
                }
                Value::Cards(out)
            }
            Expr::TopOf { top, count, zone } => {
                let n = match self.eval(count)? {
                    Value::Int(n) => n.max(0) as usize,
                    _ => 0,
                };
                let z = self.eval(zone)?;
                if let Value::Zone(zi, owners) = &z {
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
                let picked: Vec<CardId> = if *top {
                    cards.into_iter().take(n).collect()
                } else {
                    let len = cards.len();
                    cards.into_iter().skip(len.saturating_sub(n)).collect()
                };
                Value::Cards(picked)
            }
            Expr::Choose {
                kind,
                chooser,
                min,
                max,
                from,
            } => self.choose(*kind, chooser, min, max.as_deref(), from)?,
            Expr::Declare(what) => {
                let you = self.ctx().you;
                let mut names: Vec<String> =
                    self.prog.cards.iter().map(|c| c.name.clone()).collect();
                names.sort();
                names.dedup();
                let req = Request {
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
                };
                match self.ask(req)? {
                    Answer::Text(t) => {
                        self.declared.push((you, t.clone()));
                        Value::Text(t)
                    }
                    _ => Value::Absent,
                }
            }
            Expr::List(items) => {
                let mut vals = Vec::new();
                for i in items {
                    vals.push(self.eval(i)?);
                }
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
                    Value::List(vals)
                }
            }
        })
    }

    fn var(&self, name: &str) -> Value {
        let base = self.ctx().vars_base;
        self.vars[base..]
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or(Value::Absent)
    }

    pub(super) fn opponent_of(&self, p: Seat) -> Seat {
        let n = self.prog.players() as Seat;
        (p + 1) % n.max(1)
    }

    fn binary(&mut self, op: Op, lhs: &Expr, rhs: &Expr) -> Result<Value, Request> {
        if op == Op::And {
            if self.eval(lhs)? != Value::Bool(true) {
                return Ok(Value::Bool(false));
            }
            return Ok(Value::Bool(self.eval(rhs)? == Value::Bool(true)));
        }
        if op == Op::Or {
            if self.eval(lhs)? == Value::Bool(true) {
                return Ok(Value::Bool(true));
            }
            return Ok(Value::Bool(self.eval(rhs)? == Value::Bool(true)));
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
                    Op::Add => Value::Int(a.saturating_add(b)),
                    Op::Sub => Value::Int(a.saturating_sub(b)),
                    Op::Mul => Value::Int(a.saturating_mul(b)),
                    Op::Div => Value::Int(if b == 0 { 0 } else { a / b }),
                    _ => Value::Absent,
                },
                (Value::Absent, _) | (_, Value::Absent) => match op {
                    Op::Lt | Op::Le | Op::Gt | Op::Ge => Value::Bool(false),
                    _ => Value::Absent,
                },
                _ => Value::Absent,
            },
        })
    }

    fn equal(&self, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Card(x), Value::Cards(v)) | (Value::Cards(v), Value::Card(x)) => {
                v.len() == 1 && v[0] == *x
            }
            (Value::Zone(z, o), Value::Zone(z2, o2)) => z == z2 && o == o2,
            _ => a == b,
        }
    }

    /// The cards a value stands for; ordered zones list their top card first.
    pub(super) fn cards_of(&self, v: &Value) -> Vec<CardId> {
        match v {
            Value::Card(c) => vec![*c],
            Value::Cards(cs) => cs.clone(),
            Value::Zone(z, owners) => {
                let mut out = Vec::new();
                for o in owners {
                    let k = ZoneKey {
                        zone: *z,
                        owner: *o,
                    };
                    if self.state.aliases.iter().any(|a| a.from == k) {
                        continue; // a zone read as another does not exist meanwhile (3.3.6.b)
                    }
                    let cards = self.state.zone(k);
                    if self.prog.ruleset.zones[*z as usize].ordered {
                        out.extend(cards.iter().rev());
                    } else {
                        out.extend(cards.iter());
                    }
                }
                out
            }
            Value::List(l) => l.iter().flat_map(|x| self.cards_of(x)).collect(),
            _ => Vec::new(),
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

    /// Whether a card is of a card type, or of one that counts as it where the card is
    /// (`card_type echo = unit on arena`).
    pub(super) fn of_type(&self, c: CardId, card_type: &str) -> bool {
        let t = self.card_type(c);
        if t == card_type {
            return true;
        }
        match self.prog.counts_as.get(t) {
            Some((as_type, zone)) => {
                as_type == card_type
                    && zone.is_none_or(|z| z == self.state.cards[c as usize].zone.zone)
            }
            None => false,
        }
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

    fn working_or_printed(&mut self, c: CardId) -> Vec<super::program::AbilityRef> {
        self.working_abilities(c)
            .into_iter()
            .map(|(_, a)| a)
            .collect()
    }

    fn choose(
        &mut self,
        kind: ChoiceKind,
        chooser: &Expr,
        min: &Expr,
        max: Option<&Expr>,
        from: &Expr,
    ) -> Result<Value, Request> {
        let who = match self.eval(chooser)? {
            Value::Player(p) => p,
            _ => self.ctx().you,
        };
        let lo = match self.eval(min)? {
            Value::Int(n) => n.max(0) as usize,
            _ => 0,
        };
        let hi = match max {
            Some(m) => match self.eval(m)? {
                Value::Int(n) => Some(n.max(0) as usize),
                _ => Some(lo),
            },
            None => None,
        };
        let pool = self.eval(from)?;
        if kind == ChoiceKind::Search {
            self.mark_seen(from)?;
        }
        let mut cands = self.cards_of(&pool);
        if kind == ChoiceKind::Target {
            let shield = self.prog.untargetable.clone();
            cands.retain(|c| !shield.iter().any(|k| self.keyword_args(*c, *k).is_some()));
        }
        let single = lo == 1 && hi == Some(1);
        let hi = hi.unwrap_or(cands.len()).min(cands.len());
        let lo = lo.min(hi);
        if hi == 0 {
            return Ok(if single {
                Value::Absent
            } else {
                Value::Cards(Vec::new())
            });
        }
        if lo == cands.len() {
            return Ok(if single {
                Value::Card(cands[0])
            } else {
                Value::Cards(cands)
            });
        }
        // Options never leak a hidden zone's order: searches list cards by definition.
        if kind == ChoiceKind::Search {
            cands.sort_by_key(|c| (self.state.cards[*c as usize].def, *c));
        }
        let options = cands
            .iter()
            .map(|c| {
                let visible = kind == ChoiceKind::Search || self.visible_to(*c, who);
                let name = self.card_name(*c);
                Choice {
                    label: if visible {
                        name.clone()
                    } else {
                        "a hidden card".into()
                    },
                    action: None,
                    card: visible.then_some(name),
                    card_id: Some(*c),
                }
            })
            .collect();
        let req = Request {
            player: who,
            kind: RequestKind::Cards { min: lo, max: hi },
            prompt: format!(
                "{} {}{} card{}",
                match kind {
                    ChoiceKind::Choose => "choose",
                    ChoiceKind::Target => "target",
                    ChoiceKind::Search => "search for",
                },
                if lo == hi {
                    String::new()
                } else {
                    format!("{lo} to ")
                },
                hi,
                if hi == 1 { "" } else { "s" }
            ),
            options,
        };
        let picked: Vec<CardId> = match self.ask(req)? {
            Answer::Many(v) => v
                .into_iter()
                .filter_map(|i| cands.get(i).copied())
                .collect(),
            _ => Vec::new(),
        };
        Ok(if single {
            picked
                .first()
                .map(|c| Value::Card(*c))
                .unwrap_or(Value::Absent)
        } else {
            Value::Cards(picked)
        })
    }

    /// Notes the zones an expression looks through whole (`search … in your.deck where …`)
    /// when they are shuffled once seen (PMV 3.2.5).
    pub(super) fn mark_seen(&mut self, e: &Expr) -> Result<(), Request> {
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

    /// A name after the ruleset's normalization (12.3.1), computed once per text.
    fn normalized(&mut self, t: &str) -> String {
        if let Some(n) = self.norm_cache.get(t) {
            return n.clone();
        }
        let n = crate::ir::normalize::apply(&self.prog.ruleset.names, t);
        self.norm_cache.insert(t.to_string(), n.clone());
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
        let vals = self.stats(c);
        let info = &self.prog.stats[s as usize];
        let read = |i: u16| {
            let v = vals.get(i as usize).copied().flatten();
            let f = self.prog.stats[i as usize].floor;
            v.map(|v| f.map_or(v, |f| v.max(f)))
        };
        if info.components.is_empty() {
            read(s).map(Value::Int).unwrap_or(Value::Absent)
        } else {
            Value::Pair(info.components.iter().map(|i| read(*i)).collect())
        }
    }
}

/// A card field constant as a runtime value.
pub(super) fn const_value(v: &ir::Value) -> Value {
    match v {
        ir::Value::Number(n) => Value::Int(*n),
        ir::Value::Text(t) => Value::Text(t.clone()),
        ir::Value::Bool(b) => Value::Bool(*b),
        ir::Value::Pair(p) => Value::Pair(p.iter().map(|x| Some(*x)).collect()),
        ir::Value::List(l) => Value::List(l.iter().map(const_value).collect()),
    }
}
