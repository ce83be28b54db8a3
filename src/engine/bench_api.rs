//! Small entry points for benchmarks (`benches/engine.rs`) and tools that measure the
//! interpreter: run one ability's effect, or one event and the triggered abilities it causes,
//! on a prepared game, answering its requests from a script, outside the turn structure.
//!
//! Both run the engine's own VM (`Game::advance` over frames, the same statements, events,
//! replacement effects, logging and trigger dispatch as in a game); only the turn around them
//! is left out: the game's frames are set aside while they run and put back afterwards, so the
//! game can go on with [`Game::step`] as if the effect had resolved by itself. No rule runs
//! here, interrupt rules included (they run from [`Game::step`]).

use super::agent::{Answer, Request};
use super::state::{index16, CardId, Seat};
use super::{EventData, Frame, Game};

/// Triggered abilities [`Game::run_event`] resolves at most (a guard against trigger loops).
const MAX_TRIGGERS: usize = 1_000;

impl<'p> Game<'p> {
    /// Runs the effect of ability `ability` (its index in the card's definition) of card `card`
    /// now, as its controller (`this` is the card): its cost, condition and limit are not
    /// checked, and it does not wait on a chain. Requests are answered from `answers` in order
    /// (each answer goes through [`Game::answer`], so it is checked and logged); events it
    /// causes are dispatched as in a game, and the triggered abilities they queue wait for the
    /// next check timing (they are not resolved here).
    ///
    /// `Err` holds the request the script had no (fitting) answer for; the effect is then
    /// abandoned where it stood. Panics if the card has no ability at that index.
    pub fn run_effect(
        &mut self,
        card: CardId,
        ability: usize,
        answers: &[Answer],
    ) -> Result<(), Box<Request>> {
        let def = self.state.cards[card as usize].def;
        let prog = self.prog;
        let aref = (def, index16(ability));
        let body = &prog.ability(aref).effect;
        let you = self.state.cards[card as usize].controller;
        let saved = std::mem::take(&mut self.frames);
        let base = (self.ctxs.len(), self.vars.len());
        self.push_ctx(you, Some(card), None, Some((card, aref)));
        self.frames.push(Frame::PopCtx);
        self.frames.push(self.block(body));
        let mut script = answers.iter();
        let r = self.run_frames(&mut script);
        self.restore(saved, base, r.is_err());
        r
    }

    /// Emits an event as `emit` does (its triggered abilities are queued), then resolves every
    /// queued triggered ability in the order they were queued, including those queued while
    /// they resolve (the rules of a check timing are not run, and no player is asked for the
    /// order). `you` is who emits it (only the context of the emission). Requests are answered
    /// from `answers` in order. Returns how many triggered abilities resolved.
    pub fn run_event(
        &mut self,
        event: EventData,
        you: Seat,
        answers: &[Answer],
    ) -> Result<usize, Box<Request>> {
        let saved = std::mem::take(&mut self.frames);
        let base = (self.ctxs.len(), self.vars.len());
        self.push_ctx(you, None, None, None);
        self.emit(event, None);
        self.pop_ctx_now();
        let mut script = answers.iter();
        let mut resolved = 0;
        let mut r = Ok(());
        while !self.pending.is_empty() && resolved < MAX_TRIGGERS && r.is_ok() {
            let p = self.pending.remove(0);
            resolved = resolved.saturating_add(1);
            r = self
                .resolve_trigger(p)
                .and_then(|()| self.run_frames(&mut script));
        }
        self.restore(saved, base, r.is_err());
        r.map(|()| resolved)
    }

    /// Puts the game's frames back; after an abandoned effect, also drops the contexts and
    /// variables it left.
    fn restore(&mut self, saved: Vec<Frame<'p>>, base: (usize, usize), abandoned: bool) {
        self.frames = saved;
        if abandoned {
            self.ctxs.truncate(base.0);
            self.vars.truncate(base.1);
            self.answers.clear();
            self.answer_pos = 0;
        }
    }

    /// Runs the VM until no frame is left (or the game ends), answering from `script`.
    fn run_frames(
        &mut self,
        script: &mut std::slice::Iter<'_, Answer>,
    ) -> Result<(), Box<Request>> {
        self.answers.clear();
        self.answer_pos = 0;
        while !self.frames.is_empty() && self.state.outcome.is_none() {
            self.steps = self.steps.saturating_add(1);
            match self.advance() {
                Ok(()) => {
                    self.answers.clear();
                    self.answer_pos = 0;
                }
                Err(req) => {
                    self.answer_pos = 0;
                    match script.next() {
                        Some(a) if self.answer(&req, a.clone()) => {}
                        _ => return Err(req),
                    }
                }
            }
        }
        Ok(())
    }
}
