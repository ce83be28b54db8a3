//! Statements. Each statement first evaluates everything it needs (choices included), then
//! changes the game; nested bodies are returned as frames for the VM to run, never run by
//! Rust recursion.
//!
//! [`Game::exec`] dispatches; one method per statement family does the work: control flow and
//! calls (`flow.rs`), moving and changing cards (`cards.rs`), modifiers, counters and negation
//! (`modify.rs`), what players see (`visibility.rs`), events and endings (`events.rs`).

mod cards;
mod events;
mod flow;
mod modify;
mod script;
mod visibility;

pub(super) use script::ScriptWrites;

pub(super) use flow::spread_runs;

use super::agent::Request;
use super::program::Program;
use super::rule_memo::Touched;
use super::state::{shown, Alias, CardId, Outcome, Seat, Until, Value, WhileCond, ZoneKey};
use super::{Frame, Frames, Game};
use crate::ir::{self, Duration, Stmt};
use smallvec::smallvec;

impl<'p> Game<'p> {
    /// Runs one statement; returns the frames it pushes (last on top).
    pub(super) fn exec(&mut self, s: &'p Stmt) -> Result<Frames<'p>, Box<Request>> {
        self.note_stmt(s);
        match s {
            Stmt::Let { var, value } => {
                let v = self.eval(value)?;
                self.vars.push((var.as_str(), v));
            }
            Stmt::If { arms, otherwise } => return self.exec_if(arms, otherwise),
            Stmt::ForEach { var, cards, body } => return self.exec_for_each(var, cards, body),
            Stmt::Repeat { times, body } => return self.exec_repeat(times, body),
            Stmt::While { cond, body } => {
                return Ok(smallvec![Frame::While {
                    cond,
                    body,
                    rounds: 0,
                }])
            }
            Stmt::May { players, body } => return self.exec_may(players, body),
            Stmt::ChooseOne { chooser, options } => return self.exec_choose_one(chooser, options),
            Stmt::Simultaneously { body } => return Ok(self.exec_simultaneously(body)),
            Stmt::Call { verb, args, .. } => return self.exec_call(verb, args, true),
            Stmt::Phase { phase, body } => return Ok(self.exec_phase(phase, body)),
            Stmt::Window {
                players,
                chain,
                once,
                unchecked,
                entries,
            } => return self.exec_window(players, (*chain, *once, *unchecked), entries),
            Stmt::Chain { body } => self.push_chain(body),
            Stmt::Resolve { kind, cards } => return self.exec_resolve(kind, cards),
            Stmt::Check => return Ok(smallvec![self.check_timing()]),
            Stmt::Reach { moment } => {
                if let Some(&m) = self.prog.moment_index.get(moment) {
                    self.reach(m, moment);
                }
            }
            Stmt::ReachOf { moment, player } => {
                let who = self.eval(player)?;
                if let (Some(&m), Value::Player(p)) = (self.prog.moment_index.get(moment), who) {
                    self.reach_of(m, moment, p);
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
                let state = state.as_deref();
                return self.exec_move(cards, to, *position, *face, state, slot.as_ref());
            }
            Stmt::Attach { card, host } => self.exec_attach(card, host)?,
            Stmt::SetState { cards, state, .. } => return self.exec_set_state(cards, state),
            Stmt::ClearState { cards, state } => return self.exec_clear_state(cards, state),
            Stmt::AliasZone {
                zone,
                becomes,
                duration,
            } => return self.exec_alias_zone(zone, becomes, duration),
            Stmt::Flip { cards, face } => self.exec_flip(cards, *face)?,
            Stmt::TreatAs {
                cards,
                card_type,
                fields,
            } => self.exec_treat_as(cards, card_type, fields)?,
            Stmt::Modify { duration, .. }
            | Stmt::Grant { duration, .. }
            | Stmt::RemoveKeyword { duration, .. } => self.exec_modify(s, duration)?,
            Stmt::Count {
                subject,
                counter,
                op,
                value,
            } => return self.exec_count(subject, counter, op, value),
            Stmt::Negate {
                cards,
                scope,
                include_unnegatable,
                duration,
            } => self.exec_negate(cards, *scope, *include_unnegatable, duration)?,
            Stmt::PlayerKeyword {
                keyword,
                players,
                grant,
                duration,
            } => {
                let seats = self.players_of(players)?;
                let until = self.until(duration)?;
                self.grant_player_keyword(seats, keyword, *grant, until);
            }
            Stmt::Reveal { cards } => self.exec_reveal(cards)?,
            Stmt::Look { cards, by } => self.exec_look(cards, by)?,
            Stmt::Shuffle { zone } => self.exec_shuffle(zone)?,
            Stmt::Cancel { event, subject } => self.exec_cancel(event, subject.as_ref())?,
            Stmt::Emit { event, args } => self.exec_emit(event, args)?,
            Stmt::Script { function, args } => return self.exec_script(function, args),
            Stmt::Win { player } => self.exec_win(player)?,
            Stmt::Lose { player } => self.exec_lose(player)?,
            Stmt::DrawGame => self.end(Outcome::Draw),
            Stmt::GoesFirst { player } => self.exec_goes_first(player)?,
        }
        Ok(Frames::new())
    }

    /// The players an expression names: a player, players, or a card's controller.
    fn players_of(&mut self, e: &ir::Expr) -> Result<Vec<Seat>, Box<Request>> {
        Ok(match self.eval(e)? {
            Value::Player(p) => vec![p],
            Value::Players(ps) => ps,
            Value::Card(c) => vec![self.state.cards[c as usize].controller],
            _ => Vec::new(),
        })
    }

    /// When a duration ends, read now (a `while` keeps the context it was made in).
    fn until(&mut self, d: &Duration) -> Result<Until, Box<Request>> {
        if let Duration::UntilOf { moment, player } = d {
            let m = self.prog.moment_index.get(moment).copied();
            return Ok(match (m, self.eval(player)?) {
                (Some(m), Value::Player(p)) => Until::MomentOf(m, p),
                // an absent player: the next time the moment is reached for anyone
                (Some(m), _) => Until::Moment(m),
                (None, _) => Until::LeavesZone,
            });
        }
        Ok(match d {
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
                let mut vars: Vec<(String, Value)> = Vec::new();
                for (n, v) in self.vars[c.vars_base..].iter().rev() {
                    if !vars.iter().any(|(m, _)| m == n) {
                        vars.push(((*n).to_string(), v.clone()));
                    }
                }
                Until::While(Box::new(WhileCond {
                    cond: e.clone(),
                    you: c.you,
                    this: c.this,
                    event: c.event.clone(),
                    vars: std::rc::Rc::new(vars),
                }))
            }
            Duration::UntilOf { .. } => Until::LeavesZone,
        })
    }
    /// The game reaches a moment: durations until it end (those until it for one player too),
    /// uses limited per it reset.
    pub(super) fn reach(&mut self, m: u16, id: &str) {
        let ended = self.end_durations(m, None);
        let short = Program::short(id);
        self.state.uses.retain(|u| u.4 != short && u.4 != id);
        self.changed(reached(ended));
        self.log_line("moment", |_| format!("{short}: effects until then end"));
    }

    /// The game reaches a moment for player `p` (`reach m of you`): durations until
    /// it, and until it of `p`, end; uses limited per it reset. Logged when a duration ended.
    pub(super) fn reach_of(&mut self, m: u16, id: &str, p: Seat) {
        let ended = self.end_durations(m, Some(p));
        let short = Program::short(id);
        self.state.uses.retain(|u| u.4 != short && u.4 != id);
        self.changed(reached(ended));
        if ended {
            self.log_line("moment", |_| {
                format!("{short} of p{}: effects until then end", shown(p))
            });
        }
    }

    /// Ends the modifiers and zone aliases lasting until moment `m` (reached for player `who`,
    /// or for everyone); whether any ended.
    fn end_durations(&mut self, m: u16, who: Option<Seat>) -> bool {
        let now = self.state.history.len();
        self.state.reached.insert(m, now);
        let ends = |u: &Until| match u {
            Until::Moment(x) => *x == m,
            Until::MomentOf(x, p) => *x == m && who.is_none_or(|w| w == *p),
            _ => false,
        };
        let before = self.state.modifiers.len();
        self.state.modifiers.retain(|x| !ends(&x.until));
        let ended: Vec<Alias> = self
            .state
            .aliases
            .iter()
            .filter(|a| ends(&a.until))
            .cloned()
            .collect();
        self.state.aliases.retain(|a| !ends(&a.until));
        let keywords = self.state.player_keywords.len();
        self.state.player_keywords.retain(|k| !ends(&k.until));
        let changed =
            self.state.modifiers.len() != before || self.state.player_keywords.len() != keywords;
        let any = changed || !ended.is_empty();
        for a in ended {
            self.end_alias(&a);
        }
        if changed {
            self.changed(Touched::Everything);
        }
        any
    }

    /// An ended zone alias: the cards return as they are (3.3.6.c).
    fn end_alias(&mut self, a: &Alias) {
        let from = self.state.slot(a.to);
        let to = self.state.slot(a.from);
        let cards = std::mem::take(&mut self.state.zones[from]);
        for c in &cards {
            self.state.cards[*c as usize].zone = a.from;
        }
        self.state.zones[to].extend(cards);
        let zone = |k: ZoneKey| Program::short(&self.prog.ruleset.zones[k.zone as usize].name.id);
        // (an alias's two zones are of one owner)
        let text = format!("{} becomes {} again", self.zone_text(a.to), zone(a.from));
        self.log_line("zone", |_| text);
    }

    /// Ends the zone aliases lasting `while` a condition that no longer holds (read after
    /// every step of the engine, so it ends as soon as the change that broke it is made).
    pub(super) fn end_while_aliases(&mut self) {
        if !self.has_while_aliases() {
            return;
        }
        let mut i = 0;
        while i < self.state.aliases.len() {
            let over = match &self.state.aliases[i].until {
                Until::While(w) => {
                    let w = w.clone();
                    !self.while_holds(&w)
                }
                _ => false,
            };
            if over {
                let a = self.state.aliases.remove(i);
                self.end_alias(&a);
                self.changed(Touched::Everything);
            } else {
                i = i.saturating_add(1);
            }
        }
    }

    /// Whether a zone alias lasts `while` a condition (one [`Game::end_while_aliases`] reads).
    pub(super) fn has_while_aliases(&self) -> bool {
        self.state
            .aliases
            .iter()
            .any(|a| matches!(a.until, Until::While(_)))
    }

    /// A card takes a state (index), leaving the others of its group; logged when it changed.
    pub(super) fn set_state(&mut self, c: CardId, si: u16) {
        let info = &self.prog.states[si as usize];
        let cs = &mut self.state.cards[c as usize];
        let before = cs.states;
        cs.states &= !info.group_mask;
        cs.states |= 1 << si;
        if cs.states != before {
            let changed = cs.states ^ before;
            self.changed(Touched::States(c, changed));
            let state = Program::short(&self.prog.states[si as usize].id);
            self.log_cards("state", &[c], |n| format!("{} becomes {state}", n[0]));
        }
    }

    /// Logs, once, that a statement of a card's effect found no card to act on (`what`:
    /// `move`, `look at` …), naming the expression that named none. Statements the rules run
    /// themselves (no card's ability) stay silent.
    pub(super) fn log_nothing(&mut self, what: &str, cards: &ir::Expr) {
        if self.ctxs.last().and_then(|c| c.source).is_none() || self.line_unwritten() {
            return;
        }
        let text = format!("nothing to {what}: no card in {}", ir::outline::expr(cards));
        let source = self.source_text();
        self.push_log("nothing", text, None, Vec::new(), source);
    }

    /// Forgets what players learned of a zone's hidden cards (after a shuffle).
    fn forget(&mut self, k: ZoneKey) {
        let slot = self.state.slot(k);
        for c in self.state.zones[slot].clone() {
            self.state.cards[c as usize].known = 0;
        }
        self.changed_unread(slot);
    }

    /// A short description of a body of the program for prompts, described once.
    pub(super) fn describe(&self, body: &'p [Stmt]) -> String {
        let key = body.as_ptr() as usize;
        if let Some(text) = self.described.borrow().get(&key) {
            return text.clone();
        }
        let text = describe_body(body);
        self.described.borrow_mut().insert(key, text.clone());
        text
    }
}

/// A short description of a body: its outline on one line, cut at 120 characters.
fn describe_body(body: &[Stmt]) -> String {
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

/// A value for a log line, for values that name no card (a card reads `a card`: lines that
/// name cards are written by [`show_card`] through the log's visibility check).
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
        Value::Bool(b) => b.to_string(),
        Value::Card(_) => "a card".into(),
        Value::Cards(v) => cards_count(v.len()),
        Value::Player(p) => format!("p{}", shown(*p)),
        Value::Players(ps) => players_text(ps),
        Value::Zone(_, _) => "a zone".into(),
        Value::List(xs) => xs.iter().map(show).collect::<Vec<_>>().join(", "),
    }
}

/// `1 card`, `3 cards`, `no card`.
fn cards_count(n: usize) -> String {
    match n {
        0 => "no card".into(),
        1 => "1 card".into(),
        n => format!("{n} cards"),
    }
}

/// `p1`, `p1 and p2`.
fn players_text(ps: &[Seat]) -> String {
    let names: Vec<String> = ps.iter().map(|p| format!("p{}", shown(*p))).collect();
    match names.len() {
        0 => "no player".into(),
        _ => names.join(" and "),
    }
}

/// A value for a log line, cards named (`hide` says which to write as `a card`): the caller
/// logs the line with the cards it names ([`Game::log_named`]).
fn show_card(g: &Game<'_>, v: &Value, hide: &dyn Fn(CardId) -> bool) -> String {
    let name = |c: CardId| {
        if hide(c) {
            "a card".to_string()
        } else {
            g.card_name(c)
        }
    };
    match v {
        Value::Card(c) => name(*c),
        Value::Cards(cs) if cs.is_empty() => "no card".into(),
        Value::Cards(cs) => cs.iter().map(|c| name(*c)).collect::<Vec<_>>().join(", "),
        Value::Zone(z, o) => {
            let zone = Program::short(&g.prog.ruleset.zones[*z as usize].name.id);
            match o.as_slice() {
                [p] => format!("p{}'s {zone}", shown(*p)),
                [] => zone.to_string(),
                ps => format!("{}'s {zone}", players_text(ps)),
            }
        }
        Value::List(xs) => xs
            .iter()
            .map(|x| show_card(g, x, hide))
            .collect::<Vec<_>>()
            .join(", "),
        other => show(other),
    }
}

/// The cards a value names (a card, a set, a list's).
fn cards_named(v: &Value) -> Vec<CardId> {
    match v {
        Value::Card(c) => vec![*c],
        Value::Cards(cs) => cs.clone(),
        Value::List(xs) => xs.iter().flat_map(cards_named).collect(),
        _ => Vec::new(),
    }
}

/// What reaching a moment touched: the moments reached, and (when a duration ended, a zone
/// alias included) anything.
fn reached(ended: bool) -> Touched {
    if ended {
        Touched::Everything
    } else {
        Touched::Moment
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No value reads as Rust debug text in a log line.
    #[test]
    fn values_read_as_words() {
        assert_eq!(show(&Value::Cards(vec![1, 2])), "2 cards");
        assert_eq!(show(&Value::Cards(Vec::new())), "no card");
        assert_eq!(show(&Value::Card(3)), "a card");
        assert_eq!(show(&Value::Players(vec![0, 1])), "p1 and p2");
        assert_eq!(show(&Value::Player(1)), "p2");
        assert_eq!(
            show(&Value::List(std::sync::Arc::new(vec![
                Value::Int(1),
                Value::Text("x".into())
            ]))),
            "1, x"
        );
        for v in [
            Value::Cards(vec![1]),
            Value::Players(vec![0]),
            Value::Zone(0, smallvec![0]),
            Value::List(std::sync::Arc::new(vec![Value::Absent])),
        ] {
            let s = show(&v);
            assert!(!s.contains('(') && !s.contains('['), "{v:?} reads {s}");
        }
    }
}
