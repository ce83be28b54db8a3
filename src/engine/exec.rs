//! Statements. Each statement first evaluates everything it needs (choices included), then
//! changes the game; nested bodies are returned as frames for the VM to run, never run by
//! Rust recursion.

use super::agent::{Answer, Choice, Request, RequestKind};
use super::moves::MoveSpec;
use super::program::Program;
use super::state::{Alias, CardId, ModKind, Outcome, Seat, TreatAs, Until, Value, ZoneKey};
use super::{CallStart, EventData, Frame, Game, Window};
use crate::ir::{self, Duration, Face, NegateScope, Stmt};

impl<'p> Game<'p> {
    /// Runs one statement; returns the frames it pushes (last on top).
    pub(super) fn exec(&mut self, s: &'p Stmt) -> Result<Vec<Frame<'p>>, Request> {
        let mut out = Vec::new();
        match s {
            Stmt::Let { var, value } => {
                let v = self.eval(value)?;
                self.vars.push((var.as_str(), v));
            }
            Stmt::If { arms, otherwise } => {
                let mut body: &'p [Stmt] = otherwise;
                for (cond, b) in arms {
                    if self.eval(cond)? == Value::Bool(true) {
                        body = b;
                        break;
                    }
                }
                if !body.is_empty() {
                    out.push(self.block(body));
                }
            }
            Stmt::ForEach { var, cards, body } => {
                let v = self.eval(cards)?;
                let items: Vec<Value> = match v {
                    Value::Players(ps) => ps.into_iter().map(Value::Player).collect(),
                    Value::List(l) => l,
                    other => self.cards_of(&other).into_iter().map(Value::Card).collect(),
                };
                out.push(Frame::Each {
                    var,
                    items,
                    idx: 0,
                    body,
                    mark: self.vars.len(),
                });
            }
            Stmt::Repeat { times, body } => {
                let n = match self.eval(times)? {
                    Value::Int(n) => n.clamp(0, 10_000),
                    _ => 0,
                };
                out.push(Frame::Repeat { left: n, body });
            }
            Stmt::May { players, body } => {
                let mut agree = true;
                for p in players {
                    let who = match self.eval(p)? {
                        Value::Player(x) => x,
                        _ => self.ctx().you,
                    };
                    let req = Request {
                        player: who,
                        kind: RequestKind::YesNo,
                        prompt: format!("may: {}", self.describe(body)),
                        options: Vec::new(),
                    };
                    if self.ask(req)? != Answer::Yes(true) {
                        agree = false;
                        break;
                    }
                }
                if agree {
                    out.push(self.block(body));
                }
            }
            Stmt::Move {
                cards,
                to,
                position,
                face,
                state,
                slot,
            } => {
                let cards = self.eval(cards)?;
                let to = self.eval(to)?;
                let slot = match slot {
                    Some(s) => match self.eval(s)? {
                        Value::Text(t) => Some(t),
                        _ => None,
                    },
                    None => None,
                };
                let list = self.cards_of(&cards);
                for c in list {
                    let Some(dest) = self.destination(&to, c) else {
                        continue;
                    };
                    let spec = MoveSpec {
                        to: dest,
                        position: *position,
                        face: *face,
                        state: state.as_deref(),
                        slot: slot.clone(),
                    };
                    out.extend(self.move_card(c, spec));
                }
            }
            Stmt::Attach { card, host } => {
                let c = self.eval(card)?;
                let h = self.eval(host)?;
                if let (Some(c), Value::Card(h)) = (self.cards_of(&c).first().copied(), h) {
                    if c != h {
                        self.state.cards[c as usize].host = Some(h);
                        self.changed();
                        let text = format!("{} is set on {}", self.card_name(c), self.card_name(h));
                        self.log_line("attach", text);
                    }
                }
            }
            Stmt::SetState { cards, state, .. } => {
                let v = self.eval(cards)?;
                if let Some(&si) = self.prog.state_index.get(state) {
                    for c in self.cards_of(&v) {
                        self.set_state(c, si);
                    }
                }
            }
            Stmt::ClearState { cards, state } => {
                let v = self.eval(cards)?;
                if let Some(&si) = self.prog.state_index.get(state) {
                    for c in self.cards_of(&v) {
                        if self.state.in_state(c, si) {
                            self.state.cards[c as usize].states &= !(1u64 << si);
                            self.changed();
                            let text = format!(
                                "{} is no longer {}",
                                self.card_name(c),
                                Program::short(state)
                            );
                            self.log_line("state", text);
                        }
                    }
                }
            }
            Stmt::AliasZone {
                zone,
                becomes,
                duration,
            } => {
                let z = self.eval(zone)?;
                let Some(&to) = self.prog.zones.get(becomes) else {
                    return Ok(out);
                };
                let until = self.until(duration);
                if let Value::Zone(from, owners) = z {
                    for o in owners {
                        let from = ZoneKey {
                            zone: from,
                            owner: o,
                        };
                        let to = ZoneKey { zone: to, owner: o };
                        // its cards become the other zone's cards as they are (3.3.6)
                        let slot_from = self.state.slot(from);
                        let slot_to = self.state.slot(to);
                        let cards = std::mem::take(&mut self.state.zones[slot_from]);
                        for c in &cards {
                            self.state.cards[*c as usize].zone = to;
                        }
                        self.state.zones[slot_to].extend(cards);
                        self.state.aliases.push(Alias {
                            from,
                            to,
                            until: until.clone(),
                        });
                        self.changed();
                        let text = format!(
                            "p{}'s {} becomes {}",
                            o + 1,
                            Program::short(&self.prog.ruleset.zones[from.zone as usize].name.id),
                            Program::short(becomes)
                        );
                        self.log_line("zone", text);
                    }
                }
            }
            Stmt::Modify { duration, .. }
            | Stmt::Grant { duration, .. }
            | Stmt::RemoveKeyword { duration, .. } => {
                let Some(m) = self.modifications(s)? else {
                    return Ok(out);
                };
                let until = self.until(duration);
                for c in m.cards {
                    let ts = self.state.tick();
                    for kind in &m.kinds {
                        let x = self.modifier(c, kind.clone(), until.clone(), ts);
                        self.state.modifiers.push(x);
                    }
                    self.changed();
                    let text = format!("{}{}", self.card_name(c), m.text);
                    self.log_line("modify", text);
                }
            }
            Stmt::Count {
                subject,
                counter,
                op,
                value,
            } => {
                let who = self.eval(subject)?;
                let v = match self.eval(value)? {
                    Value::Int(n) => n,
                    _ => 0,
                };
                let Some(&k) = self.prog.counter_index.get(counter) else {
                    return Ok(out);
                };
                let apply = |x: &mut i64| match op.as_str() {
                    "=" => *x = v,
                    "-=" => *x = x.saturating_sub(v),
                    _ => *x = x.saturating_add(v),
                };
                let mut touched = Vec::new();
                match &who {
                    Value::Player(p) => {
                        apply(&mut self.state.players[*p as usize].counters[k as usize]);
                        touched.push((
                            format!("p{}", p + 1),
                            self.state.players[*p as usize].counters[k as usize],
                        ));
                    }
                    Value::Players(ps) => {
                        for p in ps {
                            apply(&mut self.state.players[*p as usize].counters[k as usize]);
                            touched.push((
                                format!("p{}", p + 1),
                                self.state.players[*p as usize].counters[k as usize],
                            ));
                        }
                    }
                    other => {
                        for c in self.cards_of(other) {
                            apply(&mut self.state.cards[c as usize].counters[k as usize]);
                            touched.push((
                                self.card_name(c),
                                self.state.cards[c as usize].counters[k as usize],
                            ));
                        }
                    }
                }
                if !touched.is_empty() {
                    self.changed();
                }
                for (who, now) in touched {
                    self.log_line(
                        "counter",
                        format!("{who}: {} {op} {v} (now {now})", Program::short(counter)),
                    );
                }
            }
            Stmt::Reveal { cards } => {
                let v = self.eval(cards)?;
                let all = (1u32 << self.prog.players()) - 1;
                for c in self.cards_of(&v) {
                    self.state.cards[c as usize].known |= all;
                    let text = format!("{} is revealed", self.card_name(c));
                    self.log_line("reveal", text);
                }
            }
            Stmt::Look { cards, by } => {
                let v = self.eval(cards)?;
                self.mark_seen(cards)?;
                let who = match self.eval(by)? {
                    Value::Player(p) => p,
                    _ => self.ctx().you,
                };
                let list = self.cards_of(&v);
                for c in &list {
                    self.state.cards[*c as usize].known |= 1 << who;
                }
                let names: Vec<String> = list.iter().map(|c| self.card_name(*c)).collect();
                self.push_log(
                    "look",
                    format!("p{} looks at {}", who + 1, names.join(", ")),
                    Some(format!("p{} looks at {} cards", who + 1, list.len())),
                    1 << who,
                    self.source_text(),
                );
            }
            Stmt::Shuffle { zone } => {
                if let Value::Zone(z, owners) = self.eval(zone)? {
                    for o in owners {
                        let k = ZoneKey { zone: z, owner: o };
                        self.seen.retain(|x| *x != k);
                        self.forget(k);
                        self.shuffle_zone(k);
                    }
                }
            }
            Stmt::Negate {
                cards,
                scope,
                include_unnegatable,
                duration,
            } => {
                let targets = self.eval(cards)?;
                let until = self.until(duration);
                for c in self.cards_of(&targets) {
                    match scope {
                        NegateScope::Text => {
                            let ts = self.state.tick();
                            let m = self.modifier(
                                c,
                                ModKind::NegateText(*include_unnegatable),
                                until.clone(),
                                ts,
                            );
                            self.state.modifiers.push(m);
                        }
                        NegateScope::Effect => self.state.cards[c as usize].effect_negated = true,
                    }
                    self.changed();
                    let text = format!(
                        "{}'s {} is negated",
                        self.card_name(c),
                        if *scope == NegateScope::Text {
                            "text"
                        } else {
                            "effect"
                        }
                    );
                    self.log_line("negate", text);
                }
            }
            Stmt::Cancel { event, subject } => {
                let subj = match subject {
                    Some(s) => self.eval(s)?,
                    None => Value::Absent,
                };
                if let Some(&e) = self.prog.event_index.get(event) {
                    // waiting triggers of that event for that subject go with it
                    self.pending.retain(|p| {
                        !(p.event.event == e
                            && (subj == Value::Absent || p.event.args.first() == Some(&subj)))
                    });
                    self.state.cancelled.push((e, subj.clone()));
                    self.changed();
                    let text = format!(
                        "{} of {} is cancelled",
                        Program::short(event),
                        show_card(self, &subj)
                    );
                    self.log_line("cancel", text);
                }
            }
            Stmt::TreatAs {
                cards,
                card_type,
                fields,
            } => {
                let targets = self.eval(cards)?;
                let mut vals = std::collections::BTreeMap::new();
                for (k, e) in fields {
                    vals.insert(k.clone(), self.eval(e)?);
                }
                for c in self.cards_of(&targets) {
                    self.state.cards[c as usize].treat = Some(TreatAs {
                        card_type: card_type.clone(),
                        fields: vals.clone(),
                    });
                    self.changed();
                    let text = format!(
                        "{} is treated as {}",
                        self.card_name(c),
                        Program::short(card_type)
                    );
                    self.log_line("treat", text);
                }
            }
            Stmt::Emit { event, args } => {
                let Some(&e) = self.prog.event_index.get(event) else {
                    return Ok(out);
                };
                let params = &self.prog.ruleset.events[e as usize].params;
                let mut vals = Vec::with_capacity(params.len());
                for p in params {
                    vals.push(match args.get(&p.name) {
                        Some(x) => self.eval(x)?,
                        None => Value::Absent,
                    });
                }
                let text = format!(
                    "{}({})",
                    Program::short(event),
                    vals.iter()
                        .map(|v| show_card(self, v))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                // players who may not see a card of the payload read `a card` instead
                let players = self.prog.players() as Seat;
                let mut readers = (1u32 << players) - 1;
                for v in &vals {
                    if let Value::Card(c) = v {
                        for p in 0..players {
                            if !self.visible_to(*c, p) {
                                readers &= !(1 << p);
                            }
                        }
                    }
                }
                let redacted = (readers != (1u32 << players) - 1).then(|| {
                    format!(
                        "{}({})",
                        Program::short(event),
                        vals.iter()
                            .map(|v| match v {
                                Value::Card(_) => "a card".to_string(),
                                other => show_card(self, other),
                            })
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
                let source = self.source_text();
                self.push_log("event", text, redacted, readers, source);
                self.emit(
                    EventData {
                        event: e,
                        args: vals,
                    },
                    None,
                );
            }
            Stmt::ChooseOne { chooser, options } => {
                let who = match self.eval(chooser)? {
                    Value::Player(p) => p,
                    _ => self.ctx().you,
                };
                let req = Request {
                    player: who,
                    kind: RequestKind::OneOf,
                    prompt: "choose one".into(),
                    options: options
                        .iter()
                        .map(|(l, _)| Choice {
                            label: l.clone(),
                            action: None,
                            card: None,
                            card_id: None,
                        })
                        .collect(),
                };
                if let Answer::Pick(i) = self.ask(req)? {
                    if let Some((_, body)) = options.get(i) {
                        out.push(self.block(body));
                    }
                }
            }
            Stmt::Win { player } => {
                for p in self.players_of(player)? {
                    self.state.players[p as usize].won = true;
                    self.log_line("end", format!("p{} meets a winning condition", p + 1));
                }
                self.settle();
            }
            Stmt::Lose { player } => {
                for p in self.players_of(player)? {
                    if !self.state.players[p as usize].lost {
                        self.state.players[p as usize].lost = true;
                        self.log_line("end", format!("p{} loses", p + 1));
                    }
                }
                self.settle();
            }
            Stmt::DrawGame => self.end(Outcome::Draw),
            Stmt::Flip { cards, face } => {
                let v = self.eval(cards)?;
                for c in self.cards_of(&v) {
                    let cs = &mut self.state.cards[c as usize];
                    cs.face_up = match face {
                        Some(Face::Up) => true,
                        Some(Face::Down) => false,
                        None => !cs.face_up,
                    };
                    let up = cs.face_up;
                    self.changed();
                    let text = format!(
                        "{} is turned face {}",
                        self.card_name(c),
                        if up { "up" } else { "down" }
                    );
                    self.log_line("flip", text);
                }
            }
            Stmt::Simultaneously { body } => {
                self.batch.push(Some(Vec::new()));
                out.push(Frame::Batch);
                out.push(self.block(body));
            }
            Stmt::Call { verb, args, .. } => {
                let Some(p) = self.prog.callables.get(verb) else {
                    return Ok(out);
                };
                let mut vals: Vec<(&'p str, Value)> = Vec::new();
                for param in &p.params {
                    let v = match args.get(&param.name) {
                        Some(e) => self.eval(e)?,
                        None => match &param.default {
                            Some(d) => self.eval(d)?,
                            None => Value::Absent,
                        },
                    };
                    vals.push((param.name.as_str(), v));
                }
                // a set of cards given to a `card` parameter runs the verb once per card
                let spread = p.params.iter().position(|param| {
                    param.types == [ir::Type::Card]
                        && matches!(
                            vals.iter().find(|(n, _)| *n == param.name).map(|x| &x.1),
                            Some(Value::Cards(_))
                        )
                });
                let spread = spread.and_then(|i| match &vals[i].1 {
                    Value::Cards(cs) => Some((i, cs.clone())),
                    _ => None,
                });
                let runs: Vec<Vec<(&'p str, Value)>> = match spread {
                    Some((i, cs)) => cs
                        .into_iter()
                        .map(|c| {
                            let mut v = vals.clone();
                            v[i].1 = Value::Card(c);
                            v
                        })
                        .collect(),
                    None => vec![vals],
                };
                let (you, this, event, source) = {
                    let c = self.ctx();
                    (c.you, c.this, c.event.clone(), c.source)
                };
                // pushed in reverse so the first run happens first
                for run in runs.into_iter().rev() {
                    out.push(Frame::PopCtx);
                    out.push(Frame::CallStart(Box::new(CallStart {
                        you,
                        this,
                        event: event.clone(),
                        source,
                        vars: run,
                        body: &p.body,
                        applied: None,
                    })));
                }
            }
            Stmt::Phase { phase, body } => {
                let idx = self.prog.phase_index.get(phase).copied();
                self.state.phase = idx;
                self.log_line("phase", format!("phase {}", Program::short(phase)));
                out.push(Frame::PhaseEnd);
                out.push(self.block(body));
            }
            Stmt::Window {
                players,
                chain,
                entries,
            } => {
                let ps = self.players_of(players)?;
                if ps.is_empty() {
                    return Ok(out);
                }
                out.push(Frame::Window(Box::new(Window {
                    players: ps,
                    chain: *chain,
                    entries,
                    turn: 0,
                    passes: 0,
                    stack: Vec::new(),
                    checked: false,
                })));
            }
            Stmt::Chain { body } => {
                self.push_chain(body);
            }
            Stmt::Resolve { kind, cards } => {
                let v = self.eval(cards)?;
                let you = self.ctx().you;
                for c in self.cards_of(&v).into_iter().rev() {
                    if self.state.cards[c as usize].effect_negated {
                        let text = format!("{}'s effect does not resolve", self.card_name(c));
                        self.log_line("negate", text);
                        continue;
                    }
                    let def = self.state.cards[c as usize].def;
                    let prog: &'p Program = self.prog;
                    let card = &prog.cards[def as usize];
                    for (i, a) in card.abilities.iter().enumerate().rev() {
                        if &a.kind != kind {
                            continue;
                        }
                        let aref = (def, i as u16);
                        out.push(Frame::PopCtx);
                        out.push(Frame::Block {
                            stmts: &a.effect,
                            pc: 0,
                            mark: usize::MAX,
                        });
                        if !a.cost.is_empty() {
                            out.push(Frame::Block {
                                stmts: &a.cost,
                                pc: 0,
                                mark: usize::MAX,
                            });
                        }
                        out.push(Frame::CallStart(Box::new(CallStart {
                            you,
                            this: Some(c),
                            event: None,
                            source: Some((c, aref)),
                            vars: Vec::new(),
                            body: &[],
                            applied: None,
                        })));
                    }
                }
            }
            Stmt::Check => {
                out.push(self.check_timing());
            }
            Stmt::Reach { moment } => {
                if let Some(&m) = self.prog.moment_index.get(moment) {
                    self.reach(m, moment);
                }
            }
        }
        Ok(out)
    }

    fn players_of(&mut self, e: &ir::Expr) -> Result<Vec<Seat>, Request> {
        Ok(match self.eval(e)? {
            Value::Player(p) => vec![p],
            Value::Players(ps) => ps,
            Value::Card(c) => vec![self.state.cards[c as usize].controller],
            _ => Vec::new(),
        })
    }

    fn until(&self, d: &Duration) -> Until {
        match d {
            Duration::Default => match &self.prog.ruleset.default_duration {
                Some(m) => self
                    .prog
                    .moment_index
                    .get(m)
                    .map(|i| Until::Moment(*i))
                    .unwrap_or(Until::LeavesZone),
                None => Until::LeavesZone,
            },
            Duration::Until(m) => self
                .prog
                .moment_index
                .get(m)
                .map(|i| Until::Moment(*i))
                .unwrap_or(Until::LeavesZone),
            Duration::While(e) => {
                let c = self.ctx();
                Until::While(Box::new(e.clone()), c.you, c.this)
            }
        }
    }

    /// The game reaches a moment: durations until it end, uses limited per it reset.
    pub(super) fn reach(&mut self, m: u16, id: &str) {
        let before = self.state.modifiers.len();
        self.state.modifiers.retain(|x| x.until != Until::Moment(m));
        let ended: Vec<Alias> = self
            .state
            .aliases
            .iter()
            .filter(|a| a.until == Until::Moment(m))
            .cloned()
            .collect();
        self.state.aliases.retain(|a| a.until != Until::Moment(m));
        for a in ended {
            // the cards return as they are (3.3.6.c)
            let from = self.state.slot(a.to);
            let to = self.state.slot(a.from);
            let cards = std::mem::take(&mut self.state.zones[from]);
            for c in &cards {
                self.state.cards[*c as usize].zone = a.from;
            }
            self.state.zones[to].extend(cards);
        }
        let short = Program::short(id).to_string();
        self.state.uses.retain(|u| u.4 != short && u.4 != id);
        if self.state.modifiers.len() != before {
            self.changed();
        }
        self.changed();
        self.log_line("moment", format!("{short}: effects until then end"));
    }

    fn set_state(&mut self, c: CardId, si: u16) {
        let info = &self.prog.states[si as usize];
        let cs = &mut self.state.cards[c as usize];
        let before = cs.states;
        cs.states &= !info.group_mask;
        cs.states |= 1 << si;
        if cs.states != before {
            self.changed();
            let text = format!(
                "{} becomes {}",
                self.card_name(c),
                Program::short(&self.prog.states[si as usize].id)
            );
            self.log_line("state", text);
        }
    }

    /// Marks the game changed (computed characteristics are read again).
    pub(super) fn changed(&mut self) {
        self.state.generation += 1;
    }

    /// Forgets what players learned of a zone's hidden cards (after a shuffle).
    fn forget(&mut self, k: ZoneKey) {
        let slot = self.state.slot(k);
        for c in self.state.zones[slot].clone() {
            self.state.cards[c as usize].known = 0;
        }
    }

    /// A short description of a body for prompts.
    fn describe(&self, body: &[Stmt]) -> String {
        let mut out = String::new();
        crate::ir::outline::outline_stmts(&mut out, body);
        let all: Vec<&str> = out
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let text = all.join("; ");
        match text.char_indices().nth(120) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text,
        }
    }
}

/// A value for a log line.
pub(super) fn show(v: &Value) -> String {
    match v {
        Value::Int(n) => n.to_string(),
        Value::Pair(p) => p
            .iter()
            .map(|x| x.map_or("±0".to_string(), |x| x.to_string()))
            .collect::<Vec<_>>()
            .join("/"),
        Value::Text(t) => t.clone(),
        Value::Absent => "-".into(),
        other => format!("{other:?}"),
    }
}

fn show_card(g: &Game<'_>, v: &Value) -> String {
    match v {
        Value::Card(c) => g.card_name(*c),
        Value::Player(p) => format!("p{}", p + 1),
        Value::Zone(z, o) => format!(
            "{}{}",
            o.first()
                .map(|p| format!("p{}'s ", p + 1))
                .unwrap_or_default(),
            Program::short(&g.prog.ruleset.zones[*z as usize].name.id)
        ),
        Value::Bool(b) => b.to_string(),
        other => show(other),
    }
}
