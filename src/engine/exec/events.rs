//! Events and endings: `emit`, `cancel`, `win`, `lose`.

use super::{cards_named, show_card};
use crate::engine::agent::Request;
use crate::engine::program::Program;
use crate::engine::rule_memo::Touched;
use crate::engine::state::{everyone, shared_values, shown, CardId, Value};
use crate::engine::{EventData, Game};
use crate::ir::{Expr, Id};

impl Game<'_> {
    /// `emit e(args)`: the payload read in parameter order, logged (redacted for players who
    /// may not see a card of it), then handled.
    pub(super) fn exec_emit(
        &mut self,
        event: &Id,
        args: &crate::ir::Map<Id, Expr>,
    ) -> Result<(), Box<Request>> {
        let Some(&e) = self.prog.event_index.get(event) else {
            return Ok(());
        };
        let prog: &Program = self.prog;
        let params = &prog.ruleset.events[e as usize].params;
        // read in parameter order straight into the payload's allocation; a read that asks
        // (a choice) stops the reading, and the statement runs again once it is answered
        let mut asked = None;
        let args = shared_values(params.len(), |i| {
            let given = params.get(i).and_then(|p| args.get_id(p.name));
            match given {
                Some(x) if asked.is_none() => self.eval(x).unwrap_or_else(|r| {
                    asked = Some(r);
                    Value::Absent
                }),
                _ => Value::Absent,
            }
        });
        if let Some(r) = asked {
            return Err(r);
        }
        if self.logging {
            let text = self.event_text(event, &args, &|_| false);
            let tags = args
                .iter()
                .flat_map(cards_named)
                .map(|c| (c, self.seers(c)))
                .collect();
            let all = everyone(self.prog.players());
            let redacted = self.event_text(event, &args, &|c| self.seers(c) & all != all);
            let source = self.source_text();
            self.log_named("event", tags, text, redacted, source);
        } else {
            self.unlogged = self.unlogged.saturating_add(1);
        }
        self.emit(EventData { event: e, args }, None);
        Ok(())
    }

    /// An event as a log reads it: `name(a, b)`, the cards `hide` says as `a card`.
    fn event_text(&self, event: &Id, vals: &[Value], hide: &dyn Fn(CardId) -> bool) -> String {
        let shown: Vec<String> = vals.iter().map(|v| show_card(self, v, hide)).collect();
        format!("{}({})", Program::short(event), shown.join(", "))
    }

    /// `cancel e of x`: waiting triggers of `e` for `x` go, and the cancellation is recorded.
    pub(super) fn exec_cancel(
        &mut self,
        event: &Id,
        subject: Option<&Expr>,
    ) -> Result<(), Box<Request>> {
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
            self.changed(Touched::Everything);
            let event = Program::short(event);
            let cards = cards_named(&subj);
            let all = everyone(self.prog.players());
            let tags: Vec<(CardId, u32)> = cards.iter().map(|c| (*c, self.seers(*c))).collect();
            let line = |hide: &dyn Fn(CardId) -> bool| {
                format!("{event} of {} is cancelled", show_card(self, &subj, hide))
            };
            let text = line(&|_| false);
            let redacted = line(&|c| self.seers(c) & all != all);
            let source = self.source_text();
            self.log_named("cancel", tags, text, redacted, source);
        }
        Ok(())
    }

    /// `win`: each player named meets a winning condition.
    pub(super) fn exec_win(&mut self, player: &Expr) -> Result<(), Box<Request>> {
        for p in self.players_of(player)? {
            self.state.players[p as usize].won = true;
            self.log_line("end", |_| {
                format!("p{} meets a winning condition", shown(p))
            });
        }
        self.settle();
        Ok(())
    }

    /// `goes_first`: the player takes the first turn; from now on the setup's "in turn order"
    /// (`each player`) starts with them.
    pub(super) fn exec_goes_first(&mut self, player: &Expr) -> Result<(), Box<Request>> {
        if let Some(&p) = self.players_of(player)?.first() {
            self.state.active = p;
            self.turn_changed();
            self.log_line("turn", |_| format!("p{} goes first", shown(p)));
        }
        Ok(())
    }

    /// `lose`: each player named who has not lost yet loses.
    pub(super) fn exec_lose(&mut self, player: &Expr) -> Result<(), Box<Request>> {
        for p in self.players_of(player)? {
            if !self.state.players[p as usize].lost {
                self.state.players[p as usize].lost = true;
                self.log_line("end", |_| format!("p{} loses", shown(p)));
            }
        }
        self.settle();
        Ok(())
    }
}
