//! Avoidable loops (docs/engine.md, "Loops"): a priority decision whose game state was already
//! seen this turn closes a loop of the decisions taken since. The players who took a priority
//! decision inside it name how many more times it repeats (the earliest in turn order from the
//! turn player first, each next one accepting or naming fewer), the engine replays the loop's
//! answers that many times without asking, and the player who named the last count must then
//! choose something else where they first chose inside the loop.

use super::agent::{Answer, Request, RequestKind};
use super::state::{next_seat, seat, shown, CardId, CardState, ModKind, Seat, Until};
use super::{Frame, Game};
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};

/// The most repetitions a player may name: no one can make a game run forever.
pub const MAX_REPEATS: usize = 1_000;

/// One decision taken while watching for loops.
#[derive(Debug, Clone)]
struct Taken {
    /// The fingerprint of the game at a priority decision (`None` for other decisions).
    fp: Option<u64>,
    /// Who decided.
    player: Seat,
    /// What was asked.
    kind: RequestKind,
    /// The labels of the options offered (all of them, a banned one included), each as its
    /// number ([`label_hash`]: no text copied at each decision).
    labels: Vec<u64>,
    /// The answer, as an index into `labels` for picks.
    answer: Answer,
}

/// Where the loop handling stands.
#[derive(Debug, Clone, Default)]
enum Mode {
    /// Recording decisions, looking for a state seen before.
    #[default]
    Watch,
    /// The players name the repeat count.
    Naming {
        body: Vec<Taken>,
        choosers: Vec<Seat>,
        next: usize,
        count: usize,
        namer: Seat,
    },
    /// The loop's answers are replayed; then `ban` (fingerprint, label's number) is banned for
    /// `namer`.
    Replay {
        queue: VecDeque<Taken>,
        namer: Seat,
        ban: (u64, u64),
    },
}

/// What the engine keeps about loops, for one turn.
#[derive(Debug, Clone, Default)]
pub(super) struct Loops {
    turn: u32,
    /// Fingerprints of the priority decisions seen, each with where it starts in `taken`.
    seen: Vec<(u64, usize)>,
    /// The decisions taken since the record (re)started.
    taken: Vec<Taken>,
    /// Options a player may not take again at a state this turn: (fingerprint, seat, label's
    /// number).
    banned: Vec<(u64, Seat, u64)>,
    mode: Mode,
    /// The request last handed out: its fingerprint, its labels' numbers before banned options
    /// were taken out, and the positions of those options.
    handed: Option<(Option<u64>, Vec<u64>, Vec<usize>)>,
}

impl<'p> Game<'p> {
    /// The request to hand out for `req` (a priority decision may open the naming of a loop's
    /// repeat count, or lose a banned option), or `None` when the engine answered it itself
    /// (a replayed loop).
    pub(super) fn loop_request(&mut self, req: Request) -> Option<Request> {
        if self.loops.turn != self.state.turn {
            self.loops = Loops {
                turn: self.state.turn,
                ..Default::default()
            };
        }
        // a player who lost (conceded) while the count was named names nothing
        if let Mode::Naming { choosers, next, .. } = &mut self.loops.mode {
            let players = &self.state.players;
            while choosers
                .get(*next)
                .is_some_and(|p| players.get(*p as usize).is_none_or(|s| s.lost))
            {
                *next = next.saturating_add(1);
            }
            if *next >= choosers.len() {
                self.start_replay();
            }
        }
        match &mut self.loops.mode {
            Mode::Naming {
                choosers,
                next,
                count,
                ..
            } => {
                let first = *next == 0;
                let max = if first { MAX_REPEATS } else { *count };
                let player = choosers.get(*next).copied().unwrap_or(req.player);
                return Some(repeat_request(player, max, first));
            }
            Mode::Replay { queue, .. } => {
                if let Some(t) = queue.pop_front() {
                    if let Some(a) = replayed(&t, &req) {
                        self.answer(&req, a);
                        return None;
                    }
                    self.log_line("loop", |_| {
                        "the loop can no longer be repeated as it was: its replay stops".into()
                    });
                }
                self.end_replay();
            }
            Mode::Watch => {}
        }
        Some(self.watch(req))
    }

    /// Watching: a priority decision is fingerprinted; one seen before opens the naming of a
    /// repeat count; a banned option is taken out of the request.
    fn watch(&mut self, mut req: Request) -> Request {
        let labels: Vec<u64> = req.options.iter().map(|o| label_hash(&o.label)).collect();
        if req.kind != RequestKind::Action {
            self.loops.handed = Some((None, labels, Vec::new()));
            return req;
        }
        let fp = self.fingerprint(&req, &labels);
        if let Some(&(_, start)) = self.loops.seen.iter().find(|(f, _)| *f == fp) {
            let body = self.loops.taken[start..].to_vec();
            let choosers = self.choosers(&body);
            if let Some(&first) = choosers.first() {
                self.log_line("loop", |_| {
                    format!(
                        "the game is back where it was {} decision{} ago: a loop (12.10.2)",
                        body.len(),
                        if body.len() == 1 { "" } else { "s" }
                    )
                });
                self.loops.mode = Mode::Naming {
                    body,
                    choosers,
                    next: 0,
                    count: 0,
                    namer: first,
                };
                return repeat_request(first, MAX_REPEATS, true);
            }
        }
        let at = self.loops.taken.len();
        self.loops.seen.push((fp, at));
        let banned: Vec<u64> = self
            .loops
            .banned
            .iter()
            .filter(|(f, p, _)| *f == fp && *p == req.player)
            .map(|(_, _, l)| *l)
            .collect();
        let removed: Vec<usize> = (0..labels.len())
            .filter(|i| banned.contains(&labels[*i]))
            .collect();
        let removed = if removed.len() < req.options.len() {
            removed
        } else {
            Vec::new()
        };
        for &i in removed.iter().rev() {
            let gone = req.options.remove(i);
            let head = format!(
                "p{} must choose something other than the loop: not",
                shown(req.player)
            );
            match (gone.card_id, gone.action) {
                (Some(c), Some(what)) => {
                    self.log_cards("loop", &[c], |n| format!("{head} {what} {}", n[0]));
                }
                _ => self.log_line("loop", |_| format!("{head} {}", gone.label)),
            }
        }
        self.loops.handed = Some((Some(fp), labels, removed));
        req
    }

    /// The players who took a priority decision inside a loop, in turn order from the turn
    /// player.
    fn choosers(&self, body: &[Taken]) -> Vec<Seat> {
        let n = self.prog.players();
        let mut p = self.state.active as usize;
        let mut out = Vec::new();
        for _ in 0..n {
            let lost = self.state.players.get(p).is_none_or(|s| s.lost);
            if !lost
                && body
                    .iter()
                    .any(|t| t.fp.is_some() && t.player as usize == p)
            {
                out.push(seat(p));
            }
            p = next_seat(p, n);
        }
        out
    }

    /// Handles an answer given to a request: a repeat count goes to the naming; a pick from a
    /// request with a banned option taken out is mapped back; decisions are recorded. Returns
    /// the answer to give the statement, if any.
    pub(super) fn loop_answer(&mut self, request: &Request, answer: Answer) -> Option<Answer> {
        if let RequestKind::Repeat { .. } = request.kind {
            if let Answer::Pick(n) = answer {
                self.name_count(request.player, n);
            }
            return None;
        }
        let handed = self.loops.handed.take();
        let answer = match (&answer, &handed) {
            (Answer::Pick(i), Some((_, labels, removed))) if !removed.is_empty() => (0..labels
                .len())
                .filter(|k| !removed.contains(k))
                .nth(*i)
                .map_or(answer, Answer::Pick),
            _ => answer,
        };
        if let (Mode::Watch, Some((fp, labels, _))) = (&self.loops.mode, handed) {
            self.loops.taken.push(Taken {
                fp,
                player: request.player,
                kind: request.kind.clone(),
                labels,
                answer: answer.clone(),
            });
        }
        Some(answer)
    }

    /// A player names a repeat count (12.10.2.a) or accepts or lowers the one named (12.10.2.b);
    /// when all have, the replay starts (12.10.2.c).
    fn name_count(&mut self, player: Seat, n: usize) {
        let Mode::Naming {
            choosers,
            next,
            count,
            namer,
            ..
        } = &mut self.loops.mode
        else {
            return;
        };
        let line = if *next == 0 || n < *count {
            let first = *next == 0;
            *count = n.min(MAX_REPEATS);
            *namer = player;
            format!(
                "p{} {} {} more repetition{} of the loop",
                shown(player),
                if first { "names" } else { "interrupts, naming" },
                *count,
                if *count == 1 { "" } else { "s" }
            )
        } else {
            format!(
                "p{} accepts {} more repetition{} of the loop",
                shown(player),
                *count,
                if *count == 1 { "" } else { "s" }
            )
        };
        *next = next.saturating_add(1);
        let done = *next >= choosers.len();
        self.log_line("loop", |_| line);
        if done {
            self.start_replay();
        }
    }

    /// Every player has named or accepted: the loop's answers are queued `count` times, then
    /// up to the namer's first priority decision in it, which is banned for them afterwards.
    fn start_replay(&mut self) {
        let Mode::Naming {
            body, count, namer, ..
        } = std::mem::take(&mut self.loops.mode)
        else {
            return;
        };
        let k = body
            .iter()
            .position(|t| t.fp.is_some() && t.player == namer)
            .unwrap_or(0);
        let ban = body.get(k).and_then(|t| match (&t.fp, &t.answer) {
            (Some(fp), Answer::Pick(i)) => Some((*fp, *t.labels.get(*i)?)),
            _ => None,
        });
        let Some(ban) = ban else {
            self.end_replay();
            return;
        };
        let mut queue = VecDeque::new();
        for _ in 0..count {
            queue.extend(body.iter().cloned());
        }
        queue.extend(body[..k].iter().cloned());
        self.loops.mode = Mode::Replay { queue, namer, ban };
    }

    /// The replay is over: the namer's option is banned where they first chose in the loop,
    /// and the record starts again.
    fn end_replay(&mut self) {
        if let Mode::Replay { namer, ban, .. } = std::mem::take(&mut self.loops.mode) {
            self.log_line("loop", |_| {
                "the loop has been repeated as named (12.10.2.c)".into()
            });
            self.loops.banned.push((ban.0, namer, ban.1));
        }
        self.loops.seen.clear();
        self.loops.taken.clear();
    }

    /// The game at a priority decision, as a number: what the cards, players and running
    /// frames are, not when things happened (timestamps, the clock, the log are left out).
    /// Each zone's cards are hashed again only when something of that zone changed since
    /// (`Game::zone_fingerprint`).
    fn fingerprint(&mut self, req: &Request, labels: &[u64]) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        (self.state.turn, self.state.active, self.state.phase).hash(&mut h);
        for slot in 0..self.state.zones.len() {
            self.zone_fingerprint(slot).hash(&mut h);
        }
        let s = &self.state;
        for p in &s.players {
            (&p.counters, p.lost, p.won).hash(&mut h);
        }
        for m in &s.modifiers {
            let live = s
                .cards
                .get(m.card as usize)
                .is_some_and(|c| c.incarnation == m.incarnation);
            (m.card, live).hash(&mut h);
            modifier_hash(&mut h, &m.kind, &m.until);
        }
        // most games have none of these most of the time: their text is hashed only when
        // there is one
        let (aliases, keywords, cancelled) = (&s.aliases, &s.player_keywords, &s.cancelled);
        (aliases.len(), keywords.len(), cancelled.len()).hash(&mut h);
        if !(aliases.is_empty() && keywords.is_empty() && cancelled.is_empty()) {
            debug_hash(&mut h, &(aliases, keywords, cancelled));
        }
        for u in &s.uses {
            let live = s
                .cards
                .get(u.0 as usize)
                .is_some_and(|c| c.incarnation == u.1);
            (u.0, live, u.2, u.3, &u.4).hash(&mut h);
        }
        for p in &self.pending {
            (p.card, p.this, p.ability, p.controller, p.negated).hash(&mut h);
            (p.event.event, &p.event.args).hash(&mut h);
        }
        self.frames.len().hash(&mut h);
        for f in &self.frames {
            frame_hash(f, &mut h);
        }
        self.vars.hash(&mut h);
        req.player.hash(&mut h);
        // the options in any order: a sum of their labels' numbers (as a zone's cards)
        let sum = labels.iter().fold(0u64, |sum, l| sum.wrapping_add(*l));
        (labels.len(), sum).hash(&mut h);
        h.finish()
    }
}

impl Game<'_> {
    /// The cards of zone slot `slot`, as a number: each card (its identity and everything of
    /// it but timestamps), in order for an ordered zone, in any order for an unordered one.
    /// Kept with the clock it was computed at, and computed again only when the zone changed
    /// since (`Game::slot_changed_at`).
    fn zone_fingerprint(&mut self, slot: usize) -> u64 {
        let (changed, now) = self.slot_changed_at(slot);
        let kept = self
            .zone_fingerprints
            .get(slot)
            .copied()
            .filter(|&(at, _)| changed <= at);
        if let Some((_, hash)) = kept {
            if !self.verify_skips {
                return hash;
            }
            self.verified_fingerprints = self.verified_fingerprints.saturating_add(1);
            if hash != self.hash_zone(slot) {
                self.failed_checks.push(format!(
                    "a zone's fingerprint was to be skipped as unchanged, but the zone changed (slot {slot})"
                ));
            }
            return hash;
        }
        let hash = self.hash_zone(slot);
        if self.zone_fingerprints.len() <= slot {
            self.zone_fingerprints
                .resize(slot.saturating_add(1), (0, 0));
        }
        self.zone_fingerprints[slot] = (now, hash);
        hash
    }

    /// [`Game::zone_fingerprint`], computed from its cards' hashes ([`card_hash`]): each kept
    /// with the clock it was taken at, and taken again only when the card changed since (a
    /// draw changes the deck, not the cards left in it: `Game::cards_changed_at`).
    fn hash_zone(&mut self, slot: usize) -> u64 {
        let n = self.state.players.len().max(1);
        let ordered = self
            .prog
            .ruleset
            .zones
            .get(slot.checked_div(n).unwrap_or(0))
            .is_some_and(|d| d.ordered);
        let (every_card, now) = self.cards_changed_at(slot);
        let zone = self.state.zones.get(slot).map_or(&[][..], Vec::as_slice);
        let (cards, card_changed) = (&self.state.cards, self.stamps.card_stamps());
        let kept_hashes = self.card_hashes.as_mut_slice();
        let mut h = rustc_hash::FxHasher::default();
        // the same cards in any order (an unordered zone): a sum of their hashes
        let mut sum = 0u64;
        let mut kept = 0usize;
        if ordered {
            zone.len().hash(&mut h);
        }
        for &c in zone {
            let i = c as usize;
            let changed = card_changed.get(i).copied().unwrap_or(0).max(every_card);
            let hash = match kept_hashes.get_mut(i) {
                Some((after, hash)) if changed < *after => {
                    kept = kept.wrapping_add(1);
                    *hash
                }
                entry => {
                    let hash = cards.get(i).map_or(0, |cs| card_hash(c, cs));
                    if let Some(entry) = entry {
                        *entry = (now.saturating_add(1), hash);
                    }
                    hash
                }
            };
            if ordered {
                hash.hash(&mut h);
            } else {
                sum = sum.wrapping_add(hash);
            }
        }
        if !ordered {
            (zone.len(), sum).hash(&mut h);
        }
        if self.verify_skips {
            self.verify_card_hashes(slot, kept);
        }
        h.finish()
    }

    /// With `verify_skips`: every card of zone slot `slot` hashed again and compared with the
    /// hash kept for it (`kept` of them were kept as unchanged; the others were just taken).
    fn verify_card_hashes(&mut self, slot: usize, kept: usize) {
        self.verified_card_hashes = self.verified_card_hashes.saturating_add(kept);
        let zone = self.state.zones.get(slot).map_or(&[][..], Vec::as_slice);
        for &c in zone {
            let i = c as usize;
            let fresh = self.state.cards.get(i).map_or(0, |cs| card_hash(c, cs));
            if self
                .card_hashes
                .get(i)
                .is_some_and(|&(_, hash)| hash != fresh)
            {
                self.failed_checks.push(format!(
                    "a card's loop hash was to be skipped as unchanged, but the card changed (card {c})"
                ));
            }
        }
    }

    /// How many zone fingerprints kept as unchanged were checked ([`Game::verify_rule_skips`]).
    #[doc(hidden)]
    pub fn verified_zone_fingerprints(&self) -> usize {
        self.verified_fingerprints
    }

    /// How many cards' loop hashes kept as unchanged were checked ([`Game::verify_rule_skips`]).
    #[doc(hidden)]
    pub fn verified_card_hashes(&self) -> usize {
        self.verified_card_hashes
    }
}

/// One card (its identity and everything of it but timestamps and its zone), as a number,
/// mixed: the hasher is linear in what it is given, so two cards trading a field (two
/// characters trading slots) would otherwise leave a sum of their hashes unchanged.
fn card_hash(id: CardId, c: &CardState) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    id.hash(&mut h);
    (c.def, c.owner, c.controller, c.face_up, c.states).hash(&mut h);
    (&c.counters, c.host, c.known, c.effect_negated, &c.slot).hash(&mut h);
    if let Some(t) = &c.treat {
        debug_hash(&mut h, t);
    }
    mix(h.finish())
}

/// An option's label as a number, mixed (what a recorded decision keeps of its options: two
/// labels with the same number are taken for the same option, as two games with the same
/// fingerprint are taken for the same game).
fn label_hash(label: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    label.hash(&mut h);
    mix(h.finish())
}

/// A 64-bit number mixed so that every bit of it moves every bit of the result (the
/// finalizer of SplitMix64).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Hashes a modifier's kind and duration: their numbers as they are, the values and
/// conditions some of them hold by their debug text.
fn modifier_hash(h: &mut impl Hasher, kind: &ModKind, until: &Until) {
    match kind {
        ModKind::Stat {
            stat,
            layer,
            op,
            value,
        } => (0u8, *stat, *layer, *op, *value).hash(h),
        ModKind::Grant(k, args) => {
            (1u8, *k).hash(h);
            debug_hash(h, args);
        }
        ModKind::Remove(k) => (2u8, *k).hash(h),
        ModKind::NegateText(all) => (3u8, *all).hash(h),
        ModKind::NegateEffect => 4u8.hash(h),
    }
    match until {
        Until::LeavesZone => 0u8.hash(h),
        Until::Moment(m) => (1u8, *m).hash(h),
        Until::MomentOf(m, p) => (2u8, *m, *p).hash(h),
        Until::While(w) => {
            3u8.hash(h);
            debug_hash(h, w);
        }
    }
}

/// Hashes a value's debug text (values, effects and durations have no `Hash`), written
/// straight into the hasher.
fn debug_hash(h: &mut impl Hasher, v: &impl std::fmt::Debug) {
    struct Into<'a, H: Hasher>(&'a mut H);
    impl<H: Hasher> std::fmt::Write for Into<'_, H> {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0.write(s.as_bytes());
            Ok(())
        }
    }
    // writing into a hasher cannot fail
    let _ = std::fmt::write(&mut Into(h), format_args!("{v:?}"));
}

/// Where a frame stands (its statements by address, its position, its window's state).
fn frame_hash(f: &Frame<'_>, h: &mut impl Hasher) {
    std::mem::discriminant(f).hash(h);
    match f {
        Frame::Block { stmts, pc, .. } => (stmts.as_ptr() as usize, *pc).hash(h),
        Frame::Each(each) => {
            debug_hash(h, &each.items);
            each.idx.hash(h);
        }
        Frame::Repeat { left, body } => (*left, body.as_ptr() as usize).hash(h),
        Frame::Window(w) => {
            (&w.players, w.chain, w.turn, w.passes, w.checked).hash(h);
            if w.once {
                w.acted.hash(h);
            }
            for item in &w.stack {
                (item.body.as_ptr() as usize, item.negated, item.ctx.you).hash(h);
                item.ctx.this.hash(h);
                debug_hash(h, &item.vars);
            }
        }
        Frame::Check {
            rules_done,
            rule,
            player,
            ..
        } => (*rules_done, *rule, *player).hash(h),
        Frame::Interrupt { rule, player, .. } => (*rule, *player).hash(h),
        Frame::Changes(c) => debug_hash(h, c),
        _ => {}
    }
}

/// The request asking a player how many more times a loop repeats (`first`: naming it;
/// otherwise accepting the count named, `max`, or naming a smaller one).
fn repeat_request(player: Seat, max: usize, first: bool) -> Request {
    Request {
        player,
        kind: RequestKind::Repeat { max },
        prompt: if first {
            format!("a loop (12.10.2): repeat it how many more times? (0 to {max})")
        } else {
            format!("a loop (12.10.2): accept {max} more repetitions, or name fewer")
        },
        options: Vec::new(),
    }
}

/// The recorded answer `t` given again to `req`: the same player, kind of request and options
/// (in any order), the options picked found by their labels; `None` when it no longer fits.
fn replayed(t: &Taken, req: &Request) -> Option<Answer> {
    let asked: Vec<u64> = req.options.iter().map(|o| label_hash(&o.label)).collect();
    let sorted = |labels: &[u64]| {
        let mut v = labels.to_vec();
        v.sort_unstable();
        v
    };
    if t.player != req.player || t.kind != req.kind || sorted(&t.labels) != sorted(&asked) {
        return None;
    }
    // the option with the same label (the nth of that label for the nth)
    let find = |i: &usize| {
        let label = t.labels.get(*i)?;
        let nth = t.labels[..*i].iter().filter(|l| *l == label).count();
        asked
            .iter()
            .enumerate()
            .filter(|(_, l)| *l == label)
            .nth(nth)
            .map(|(k, _)| k)
    };
    let a = match &t.answer {
        Answer::Pick(i) => Answer::Pick(find(i)?),
        Answer::Many(v) => Answer::Many(v.iter().map(find).collect::<Option<Vec<_>>>()?),
        other => other.clone(),
    };
    req.accepts(&a).then_some(a)
}

#[cfg(test)]
mod tests {
    use super::{card_hash, CardState};

    /// A standing card of player 0 on a stage slot.
    fn on_slot(def: u32, slot: &str) -> CardState {
        CardState {
            def,
            face_up: true,
            states: 1,
            counters: vec![0, 0],
            slot: Some(slot.to_string()),
            ..CardState::default()
        }
    }

    /// Two characters trading slots leave a different game: the sum of their hashes (an
    /// unordered zone's fingerprint) changes. These two cards (ids, definitions and fields of a
    /// Weiss Schwarz game) gave the same sum before each card's hash was mixed, and a swap of
    /// two characters was taken for a loop.
    #[test]
    fn two_cards_trading_slots_change_the_sum_of_their_hashes() {
        let sum = |a: &str, b: &str| {
            card_hash(1, &on_slot(0, a)).wrapping_add(card_hash(10, &on_slot(44, b)))
        };
        assert_ne!(
            sum("back_left", "front_center"),
            sum("front_center", "back_left")
        );
    }
}
