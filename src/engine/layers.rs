//! Characteristics: base values, then modifiers applied layer by layer in the ruleset's order,
//! by timestamp within a layer (PMV 6.1.10–6.1.11: the last applied wins). Continuous abilities
//! are read again whenever the game changes (a generation counter), and the results are cached
//! until the next change.

use super::agent::Request;
use super::exec::show;
use super::program::Program;
use super::rule_memo::{Reads, RuleMemo};
use super::state::{CardId, CardState, ModKind, Modifier, Seat, StatOp, Until, Value, WhileCond};
use super::Game;
use crate::ir::{Expr, Semantics, Stmt};

/// What a modifying statement does (see [`Game::modifications`]).
pub(super) struct Modifications<'s> {
    /// The cards it changes.
    pub cards: Vec<CardId>,
    /// The modifier kinds each card gets.
    pub kinds: Vec<ModKind>,
    /// The log text after a card's name.
    pub text: ModText<'s>,
}

/// The log text after a card's name a modifying statement writes (`: might += 2`,
/// ` gets swift`), formatted only when a line is written (continuous abilities read the same
/// statements and write none).
pub(super) enum ModText<'s> {
    /// `: stat op value`.
    Stat {
        stat: &'s str,
        op: &'s str,
        value: Value,
    },
    /// ` gets keyword`.
    Gets(&'s str),
    /// ` loses keyword`.
    Loses(&'s str),
    /// `'s text is negated`.
    TextNegated,
}

impl std::fmt::Display for ModText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModText::Stat { stat, op, value } => write!(f, ": {stat} {op} {}", show(value)),
            ModText::Gets(k) => write!(f, " gets {k}"),
            ModText::Loses(k) => write!(f, " loses {k}"),
            ModText::TextNegated => f.write_str("'s text is negated"),
        }
    }
}

/// Modifiers produced by continuous abilities, and computed stats, for one generation.
#[derive(Debug, Clone, Default)]
pub(super) struct Derived {
    /// The generation and the length of the event history it was computed at (what happened
    /// may change with no other change).
    generation: Option<(u64, usize)>,
    mods: Vec<Modifier>,
    stats: StatCache,
    /// Player keywords continuous abilities grant: (player, keyword).
    pub(super) players: Vec<(Seat, u16)>,
    /// While deriving: the cards whose text continuous abilities negated in the first pass,
    /// and whether all of it: the second pass reads the cards without those abilities.
    text_negations: Vec<(CardId, bool)>,
    /// What the last derivation read, when it can be followed (`rule_memo`): while none of it
    /// changed, deriving again would give the same modifiers.
    pub(super) memo: Option<DeriveMemo>,
    /// While deriving: what the derivation has read so far.
    pub(super) recording: Option<Reads>,
}

/// What a derivation read, and how many cards the game had then (a new card may bring a
/// continuous ability into a zone the derivation did not read).
#[derive(Debug, Clone)]
pub(super) struct DeriveMemo {
    pub(super) reads: RuleMemo,
    pub(super) cards: usize,
}

impl<'p> Game<'p> {
    /// What the derived modifiers are fresh for: the generation and the history's length.
    fn fresh_key(&self) -> (u64, usize) {
        (self.state.generation, self.state.history.len())
    }

    /// Recomputes the continuous modifiers if the game changed since the last time and what
    /// the last derivation read changed too (`derivation_unchanged`).
    pub(super) fn refresh(&mut self) {
        if self.deriving || self.derived.generation == Some(self.fresh_key()) {
            return;
        }
        let unchanged = self.derivation_unchanged();
        if unchanged && !self.verify_skips {
            // the same modifiers; stats are read again (what they start from may have changed)
            self.derived.generation = Some(self.fresh_key());
            self.derived.stats.forget_all();
            return;
        }
        self.deriving = true;
        // what continuous abilities read is not what a check rule reads: their results are
        // compared instead
        let recording = self.rule_run.take();
        self.derived.recording = Some(Reads::default());
        let players_before = std::mem::take(&mut self.derived.players);
        let mut mods = self.derive_pass(&[]);
        // a continuous `negate … effect`: the effects of those cards' abilities are negated,
        // their continuous ones included; a continuous `negate … text`: those cards lose their
        // abilities (but 【 】 ones, unless `all`), continuous ones included — read them again
        // without those cards' abilities
        let mut negated: Vec<CardId> = mods
            .iter()
            .filter(|m| m.kind == ModKind::NegateEffect)
            .map(|m| m.card)
            .collect();
        let text_negations: Vec<(CardId, bool)> = mods
            .iter()
            .filter_map(|m| match m.kind {
                ModKind::NegateText(all) => Some((m.card, all)),
                _ => None,
            })
            .collect();
        if !negated.is_empty() || !text_negations.is_empty() {
            negated.sort_unstable();
            negated.dedup();
            self.derived.text_negations = text_negations;
            mods = self.derive_pass(&negated);
        }
        self.deriving = false;
        self.rule_run = recording;
        let reads = self.derived.recording.take();
        let same = mods == self.derived.mods && players_before == self.derived.players;
        if unchanged {
            self.verified_derivations = self.verified_derivations.saturating_add(1);
            if !same {
                self.failed_checks.push(
                    "the continuous abilities were to be skipped as unchanged, but deriving them again changed what they give"
                        .to_string(),
                );
            }
        }
        if !same {
            self.derived_changed();
        }
        self.derived.memo = reads.and_then(|r| self.derive_memo(r));
        self.derived.generation = Some(self.fresh_key());
        self.derived.mods = mods;
        self.derived.stats.forget_all();
        self.derived.text_negations.clear();
    }

    /// One reading of every continuous ability that applies, except those whose card is in
    /// `skip` (its effects negated by a continuous ability).
    fn derive_pass(&mut self, skip: &[CardId]) -> Vec<Modifier> {
        self.derived.players.clear();
        let mut mods = Vec::new();
        // the cards that may have a continuous ability: their own, where it works, or one set
        // on them (which of its abilities work where it is, sourced_abilities says), in card
        // order
        let own = self.continuous_cards();
        let hosts = self.host_list();
        // what is read: the zones where the listed cards' continuous abilities may work (a
        // card arriving in one changes it), and where each card looked at is, and anything of
        // it (of a card set on it too): the zones of the first 64 slots noted together, after
        // the loop. A card elsewhere, with no card set on it, gives nothing whatever it is:
        // nothing of it is read, so a draw from a deck leaves the derivation standing
        let mut slots_read = own.slots_below_64;
        for &slot in own.slots_from_64.iter() {
            self.note_slot(slot);
        }
        for c in merged(&own.cards, &hosts) {
            let cs = &self.state.cards[c as usize];
            let zone = cs.zone.zone;
            if !self.prog.continuous_may_work(cs.def, zone) && hosts.binary_search(&c).is_err() {
                continue;
            }
            let slot = self.state.slot(cs.zone);
            match 1u64.checked_shl(u32::try_from(slot).unwrap_or(u32::MAX)) {
                Some(bit) => slots_read |= bit,
                None => self.note_slot(slot),
            }
            for (this, aref, source) in self.sourced_abilities(c, zone, None) {
                let a = self.prog.ability(aref);
                // 12.4.3: a card whose effects are negated makes none, carried ones included
                if a.semantics != Semantics::Continuous
                    || skip.binary_search(&source).is_ok()
                    || self.effect_negated_now(source)
                {
                    continue;
                }
                let controller = self.state.cards[this as usize].controller;
                // 6.1.11: timed from when it started applying: its card entered its zone, or
                // (a carried ability) its card was set on the host
                let ts = self.state.cards[source as usize].entered;
                self.push_ctx(controller, Some(this), None, Some((c, aref)));
                let on = match &a.while_condition {
                    Some(w) => self.holds(w),
                    None => true,
                };
                if on {
                    self.collect(&a.effect, ts, &mut mods);
                }
                self.pop_ctx_now();
            }
        }
        self.note_slots_below_64(slots_read);
        mods
    }

    /// Runs a continuous ability's body, turning its changes into modifiers.
    fn collect(&mut self, stmts: &'p [Stmt], ts: u64, out: &mut Vec<Modifier>) {
        for s in stmts {
            match s {
                Stmt::Let { var, value } => {
                    let v = self.eval(value).unwrap_or(Value::Absent);
                    self.vars.push((var.as_str(), v));
                }
                Stmt::If { arms, otherwise } => {
                    let mut done = false;
                    for (cond, body) in arms {
                        if self.holds(cond) {
                            self.collect(body, ts, out);
                            done = true;
                            break;
                        }
                    }
                    if !done {
                        self.collect(otherwise, ts, out);
                    }
                }
                Stmt::ForEach { var, cards, body } => {
                    let v = self.eval(cards).unwrap_or(Value::Absent);
                    for c in self.cards_of(&v) {
                        self.vars.push((var.as_str(), Value::Card(c)));
                        self.collect(body, ts, out);
                        self.vars.pop();
                    }
                }
                Stmt::PlayerKeyword {
                    keyword,
                    players,
                    grant,
                    ..
                } => self.collect_player_keyword(keyword, players, *grant),
                Stmt::Negate {
                    cards,
                    scope: crate::ir::NegateScope::Effect,
                    ..
                } => {
                    let v = self.eval(cards).unwrap_or(Value::Absent);
                    for c in self.cards_of(&v) {
                        out.push(self.modifier(c, ModKind::NegateEffect, Until::LeavesZone, ts));
                    }
                }
                other => {
                    // a choice in a continuous ability cannot be asked: the line does nothing
                    if let Ok(Some(m)) = self.modifications(other) {
                        for c in m.cards {
                            for kind in &m.kinds {
                                out.push(self.modifier(c, kind.clone(), Until::LeavesZone, ts));
                            }
                        }
                    }
                }
            }
        }
    }

    /// What a modifying statement does — a stat change, `grant`, `remove`, `negate … text` —
    /// read now: the cards it changes, the modifier kinds each gets, and the log text after the
    /// card's name. `None` for any other statement (and for a keyword the game lacks).
    pub(super) fn modifications<'s>(
        &mut self,
        s: &'s Stmt,
    ) -> Result<Option<Modifications<'s>>, Box<Request>> {
        Ok(Some(match s {
            Stmt::Modify {
                cards,
                stat,
                layer,
                op,
                value,
                ..
            } => {
                let targets = self.eval(cards)?;
                let v = match value {
                    Some(v) => self.eval(v)?,
                    None => Value::Absent,
                };
                Modifications {
                    cards: self.cards_vec(&targets),
                    kinds: self.stat_mods(stat, layer, op, &v),
                    text: ModText::Stat {
                        stat: Program::short(stat),
                        op,
                        value: v,
                    },
                }
            }
            Stmt::Grant {
                keyword,
                args,
                cards,
                ..
            } => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.eval(a)?);
                }
                let targets = self.eval(cards)?;
                let Some(&k) = self.prog.keyword_index.get(keyword) else {
                    return Ok(None);
                };
                Modifications {
                    cards: self.cards_vec(&targets),
                    kinds: vec![ModKind::Grant(k, vals)],
                    text: ModText::Gets(Program::short(keyword)),
                }
            }
            Stmt::RemoveKeyword { keyword, cards, .. } => {
                let targets = self.eval(cards)?;
                let Some(&k) = self.prog.keyword_index.get(keyword) else {
                    return Ok(None);
                };
                Modifications {
                    cards: self.cards_vec(&targets),
                    kinds: vec![ModKind::Remove(k)],
                    text: ModText::Loses(Program::short(keyword)),
                }
            }
            Stmt::Negate {
                cards,
                scope: crate::ir::NegateScope::Text,
                include_unnegatable,
                ..
            } => {
                let targets = self.eval(cards)?;
                Modifications {
                    cards: self.cards_vec(&targets),
                    kinds: vec![ModKind::NegateText(*include_unnegatable)],
                    text: ModText::TextNegated,
                }
            }
            _ => return Ok(None),
        }))
    }

    /// A modifier on a card's current incarnation.
    pub(super) fn modifier(&self, c: CardId, kind: ModKind, until: Until, ts: u64) -> Modifier {
        Modifier {
            timestamp: ts,
            card: c,
            incarnation: self.state.cards[c as usize].incarnation,
            kind,
            until,
        }
    }

    /// The modifier kinds a stat change makes: one per component of a composite stat (a `±0`
    /// component makes none, 6.1.14), or one swap. A `-=` adds the negated value, saturating
    /// (`-=` of i64::MIN adds i64::MAX).
    pub(super) fn stat_mods(&self, stat: &str, layer: &str, op: &str, v: &Value) -> Vec<ModKind> {
        let Some(&s) = self.prog.stat_index.get(stat) else {
            return Vec::new();
        };
        let layer = self.prog.layer_index.get(layer).copied().unwrap_or(0);
        let info = &self.prog.stats[s as usize];
        let (sop, sign) = match op {
            "=" | ":=" => (StatOp::Set, 1),
            "+=" => (StatOp::Add, 1),
            "-=" => (StatOp::Add, -1),
            "*=" => (StatOp::Mul, 1),
            _ => (StatOp::Swap, 1),
        };
        if sop == StatOp::Swap || matches!(v, Value::Absent) {
            return vec![ModKind::Stat {
                stat: s,
                layer,
                op: StatOp::Swap,
                value: 0,
            }];
        }
        match v {
            Value::Pair(p) if !info.components.is_empty() => info
                .components
                .iter()
                .zip(p)
                .filter_map(|(comp, x)| {
                    x.map(|x| ModKind::Stat {
                        stat: *comp,
                        layer,
                        op: sop,
                        value: x.saturating_mul(sign),
                    })
                })
                .collect(),
            Value::Int(n) if info.components.is_empty() => vec![ModKind::Stat {
                stat: s,
                layer,
                op: sop,
                value: n.saturating_mul(sign),
            }],
            _ => Vec::new(),
        }
    }

    /// Whether a one-shot modifier still applies.
    fn alive(&mut self, m: &Modifier) -> bool {
        if self.state.cards[m.card as usize].incarnation != m.incarnation {
            return false;
        }
        match &m.until {
            Until::While(w) => self.while_holds(w),
            _ => true,
        }
    }

    /// Whether a `while` duration's condition holds now: it is re-read with the context it was
    /// made in, the effect's variables holding the values they had then.
    pub(super) fn while_holds(&mut self, w: &WhileCond) -> bool {
        self.push_ctx(w.you, w.this, w.event.clone(), None);
        if let Some(c) = self.ctxs.last_mut() {
            c.captured = Some(w.vars.clone());
        }
        let on = self.holds(&w.cond);
        self.pop_ctx_now();
        on
    }

    /// Every modifier that applies now, one-shot and continuous, in application order.
    pub(super) fn active_mods(&mut self, card: CardId) -> Vec<Modifier> {
        self.active_mods_where(card, |_| true)
    }

    /// [`Game::active_mods`] of the kinds `keep` accepts (the others are not cloned, nor
    /// their `while` conditions read).
    fn active_mods_where(
        &mut self,
        card: CardId,
        keep: impl Fn(&ModKind) -> bool,
    ) -> Vec<Modifier> {
        self.refresh();
        let wanted = |m: &Modifier| m.card == card && keep(&m.kind);
        let mut out: Vec<Modifier> = Vec::new();
        for i in 0..self.state.modifiers.len() {
            if wanted(&self.state.modifiers[i]) {
                let m = self.state.modifiers[i].clone();
                if self.alive(&m) {
                    out.push(m);
                }
            }
        }
        if !self.deriving {
            out.extend(self.derived.mods.iter().filter(|m| wanted(m)).cloned());
        }
        out
    }

    /// A card's stat values before any modifier (plain stats; composite entries unused): as
    /// printed, or as a "treat as" defined them (12.5).
    pub(super) fn base_stats(&self, c: CardId) -> Vec<Option<i64>> {
        let mut vals = vec![None; self.prog.stats.len()];
        base_into(self.prog, &self.state.cards[c as usize], &mut vals);
        vals
    }

    /// A card's current stats, read in place from the cache (computed first if need be);
    /// `None` while continuous effects are being derived (nothing is cached then).
    pub(super) fn cached_stats(&mut self, c: CardId) -> Option<&[Option<i64>]> {
        self.refresh();
        if self.deriving {
            return None;
        }
        let width = self.prog.stats.len();
        if !self.derived.stats.fresh(c) && !self.stats_kept(c, width) {
            // a `while` modifier on the card reads anything: its entry is good for this
            // generation only
            let lasting = !self
                .state
                .modifiers
                .iter()
                .any(|m| m.card == c && matches!(m.until, Until::While(_)));
            let mods = self.stat_modifiers_on(c);
            let tick = self.stamp_now();
            let vals = self.derived.stats.slot(c, width, tick, lasting);
            base_into(self.prog, &self.state.cards[c as usize], vals);
            apply_stat_mods(self.prog, vals, &mods);
        }
        Some(self.derived.stats.read(c, width))
    }

    /// Whether a card's stats cached in an earlier generation are still its stats: nothing
    /// they are computed from changed since (`Game::stats_inputs_unchanged`: its zone but for
    /// states and counters, the modifiers continuous abilities give, anything not followed)
    /// and no `while` modifier was on it. A kept entry is fresh for this generation; with the
    /// memos verified, it is computed again and compared (a difference is a failed check).
    fn stats_kept(&mut self, c: CardId, width: usize) -> bool {
        let Some(tick) = self.derived.stats.lasting_since(c) else {
            return false;
        };
        if !self.stats_inputs_unchanged(c, tick) {
            return false;
        }
        self.derived.stats.renew(c);
        if self.verify_skips {
            let vals = self.computed_stats(c);
            self.verified_stats = self.verified_stats.saturating_add(1);
            if self.derived.stats.read(c, width) != vals.as_slice() {
                self.failed_checks.push(format!(
                    "a card's stats were to be skipped as unchanged, but computing them again gave other values (card {c}: kept {:?}, computed {vals:?})",
                    self.derived.stats.read(c, width)
                ));
                let tick = self.stamp_now();
                self.derived
                    .stats
                    .slot(c, width, tick, true)
                    .copy_from_slice(&vals);
            }
        }
        true
    }

    /// All stat values of a card (plain stats; composite entries unused), true values.
    pub(super) fn stats(&mut self, c: CardId) -> Vec<Option<i64>> {
        if let Some(vals) = self.cached_stats(c) {
            return vals.to_vec();
        }
        self.computed_stats(c)
    }

    /// A card's stats computed from its base values and the modifiers that apply now, not
    /// read from the cache.
    fn computed_stats(&mut self, c: CardId) -> Vec<Option<i64>> {
        let mods = self.stat_modifiers_on(c);
        let mut vals = self.base_stats(c);
        apply_stat_mods(self.prog, &mut vals, &mods);
        vals
    }

    /// The stat modifiers that apply to a card now (one-shot ones, then, unless deriving,
    /// continuous ones), in application order: by layer, then timestamp.
    fn stat_modifiers_on(&mut self, card: CardId) -> Vec<Modifier> {
        let mut out = self.active_mods_where(card, |k| matches!(k, ModKind::Stat { .. }));
        out.sort_by_key(|m| match m.kind {
            ModKind::Stat { layer, .. } => (layer, m.timestamp),
            _ => (u16::MAX, m.timestamp),
        });
        out
    }

    /// A keyword's values if the card has it now (printed unless its text is negated, given,
    /// not taken away — the latest of a grant and a removal wins).
    pub(super) fn keyword_args(&mut self, c: CardId, k: u16) -> Option<Vec<Value>> {
        let id = &self.prog.ruleset.keywords[k as usize].name.id;
        let (negated, _) = self.text_negated(c);
        let prog: &'p Program = self.prog;
        let def = &prog.cards[self.state.cards[c as usize].def as usize];
        let mut have: Option<Vec<Value>> = None;
        if !negated && self.state.cards[c as usize].treat.is_none() {
            if let Some(ki) = def.keywords.iter().find(|ki| &ki.keyword == id) {
                let args: &'p [Expr] = &ki.args;
                self.push_ctx(self.state.cards[c as usize].controller, Some(c), None, None);
                let vals = args
                    .iter()
                    .map(|a| self.eval(a).unwrap_or(Value::Absent))
                    .collect();
                self.pop_ctx_now();
                have = Some(vals);
            }
        }
        let mut mods = self.active_mods(c);
        mods.sort_by_key(|m| m.timestamp);
        for m in mods {
            match m.kind {
                ModKind::Grant(kk, args) if kk == k => have = Some(args),
                ModKind::Remove(kk) if kk == k => have = None,
                _ => {}
            }
        }
        have
    }

    /// Whether a card has a keyword now: `keyword_args(c, k).is_some()`, without reading the
    /// keyword's values (unless one may ask or draw: then it is read, as it would be).
    pub(super) fn keyword_held(&mut self, c: CardId, k: u16) -> bool {
        let id = &self.prog.ruleset.keywords[k as usize].name.id;
        let prog: &'p Program = self.prog;
        let def = &prog.cards[self.state.cards[c as usize].def as usize];
        let printed = def.keywords.iter().find(|ki| &ki.keyword == id);
        if printed.is_some_and(|ki| ki.args.iter().any(super::eval::asks_or_draws)) {
            return self.keyword_args(c, k).is_some();
        }
        let mut held = printed.is_some()
            && self.state.cards[c as usize].treat.is_none()
            && !self.text_negated(c).0;
        // the latest grant or removal wins; of equal timestamps, the last listed
        let mods = self.active_mods_where(c, |kind| match kind {
            ModKind::Grant(kk, _) | ModKind::Remove(kk) => *kk == k,
            _ => false,
        });
        let mut latest: Option<u64> = None;
        for m in &mods {
            if latest.is_none_or(|t| m.timestamp >= t) {
                latest = Some(m.timestamp);
                held = matches!(m.kind, ModKind::Grant(..));
            }
        }
        held
    }

    /// Whether a card's effect is negated: `negate c effect` since it entered its zone (the
    /// card being played), or a negation of its effects lasting now (`negated(c)`, and a
    /// `resolve` that skips the card).
    pub(super) fn card_effect_negated(&mut self, c: CardId) -> bool {
        self.state.cards[c as usize].effect_negated || self.effect_negated_now(c)
    }

    /// Whether the effects of a card's abilities are negated now (`negate c effect until …`,
    /// or a continuous ability's `negate c effect`).
    pub(super) fn effect_negated_now(&mut self, c: CardId) -> bool {
        self.refresh();
        if !self.deriving
            && self
                .derived
                .mods
                .iter()
                .any(|m| m.card == c && m.kind == ModKind::NegateEffect)
        {
            return true;
        }
        let negations: Vec<Modifier> = self
            .state
            .modifiers
            .iter()
            .filter(|m| m.card == c && m.kind == ModKind::NegateEffect)
            .cloned()
            .collect();
        negations.iter().any(|m| self.alive(m))
    }

    /// Whether a card's text is negated, and whether `all` (its 【 】 text too, 12.4).
    pub(super) fn text_negated(&mut self, c: CardId) -> (bool, bool) {
        let mut neg = (false, false);
        let any_one_shot = self
            .state
            .modifiers
            .iter()
            .any(|m| m.card == c && matches!(m.kind, ModKind::NegateText(_)));
        if any_one_shot {
            let one_shot: Vec<Modifier> = self
                .state
                .modifiers
                .iter()
                .filter(|m| m.card == c && matches!(m.kind, ModKind::NegateText(_)))
                .cloned()
                .collect();
            for m in one_shot {
                if let ModKind::NegateText(all) = m.kind {
                    if self.alive(&m) {
                        neg = (true, neg.1 || all);
                    }
                }
            }
        }
        if self.deriving {
            for &(card, all) in &self.derived.text_negations {
                if card == c {
                    neg = (true, neg.1 || all);
                }
            }
        } else if self.derived.generation == Some(self.fresh_key()) {
            for m in &self.derived.mods {
                if m.card == c {
                    if let ModKind::NegateText(all) = m.kind {
                        neg = (true, neg.1 || all);
                    }
                }
            }
        }
        neg
    }
}

/// A card's stat values before any modifier, written over `vals` (one entry per stat): as
/// printed, or as a "treat as" defined them (12.5; a stat it leaves out has none).
fn base_into(prog: &Program, cs: &CardState, vals: &mut [Option<i64>]) {
    let Some(t) = &cs.treat else {
        vals.copy_from_slice(&prog.printed_stats[cs.def as usize]);
        return;
    };
    vals.fill(None);
    let mut base = |id: &str, v: &Value| {
        let Some(&s) = prog.stat_index.get(id) else {
            return;
        };
        let info = &prog.stats[s as usize];
        match v {
            Value::Int(n) if info.components.is_empty() => vals[s as usize] = Some(*n),
            Value::Pair(p) => {
                for (comp, x) in info.components.iter().zip(p) {
                    vals[*comp as usize] = *x;
                }
            }
            _ => {}
        }
    };
    for (k, v) in &t.fields {
        if let Some(st) = prog
            .stats
            .iter()
            .find(|s| &s.id == k || Program::short(&s.id) == k)
        {
            base(&st.id, v);
        }
    }
}

/// Applies stat modifiers, in order, to a card's values.
fn apply_stat_mods(prog: &Program, vals: &mut [Option<i64>], mods: &[Modifier]) {
    for m in mods {
        if let ModKind::Stat {
            stat, op, value, ..
        } = m.kind
        {
            let i = stat as usize;
            match op {
                StatOp::Set => vals[i] = Some(value),
                StatOp::Add => vals[i] = vals[i].map(|x| x.saturating_add(value)),
                StatOp::Mul => vals[i] = vals[i].map(|x| x.saturating_mul(value)),
                StatOp::Swap => {
                    let comps = &prog.stats[i].components;
                    if comps.len() == 2 {
                        vals.swap(comps[0] as usize, comps[1] as usize);
                    }
                }
            }
        }
    }
}

/// Every card's stats as computed, side by side (`width` values per card): a card's entry is
/// fresh when it was written (or found still good, [`Game::stats_kept`]) in the cache's
/// current epoch. A change starts a new epoch; an entry of an earlier one is kept when nothing
/// it was computed from changed since it was written. Nothing is freed or allocated per read.
#[derive(Debug, Clone, Default)]
pub(super) struct StatCache {
    values: Vec<Option<i64>>,
    /// Per card, when its entry was written.
    written: Vec<Written>,
    epoch: u64,
}

/// When a card's entry in the [`StatCache`] was written.
#[derive(Debug, Clone, Copy, Default)]
struct Written {
    /// The epoch it was last found fresh in, plus one (0, the default, is never fresh).
    fresh_in: u64,
    /// The memos' clock when it was computed (`Game::stamp_now`).
    tick: u64,
    /// Whether it may outlast its generation: no `while` modifier was on the card.
    lasting: bool,
}

impl StatCache {
    /// Starts a new epoch: every entry is to be computed again, or found still good.
    fn forget_all(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
    }

    /// Whether a card's stats were computed or found good in this epoch.
    fn fresh(&self, c: CardId) -> bool {
        self.written
            .get(c as usize)
            .is_some_and(|w| w.fresh_in == self.epoch.wrapping_add(1))
    }

    /// When a card's entry was computed, if it has one that may outlast its generation.
    fn lasting_since(&self, c: CardId) -> Option<u64> {
        let w = self.written.get(c as usize)?;
        (w.lasting && w.fresh_in != 0).then_some(w.tick)
    }

    /// A card's entry, found still good: fresh in this epoch.
    fn renew(&mut self, c: CardId) {
        if let Some(w) = self.written.get_mut(c as usize) {
            w.fresh_in = self.epoch.wrapping_add(1);
        }
    }

    /// A card's entry, to be written (computed at `tick`, lasting or not): from now on it
    /// reads as fresh.
    fn slot(&mut self, c: CardId, width: usize, tick: u64, lasting: bool) -> &mut [Option<i64>] {
        let i = c as usize;
        let at = entry(c, width);
        if self.written.len() <= i {
            self.written.resize(i.saturating_add(1), Written::default());
            self.values.resize(at.end, None);
        }
        self.written[i] = Written {
            fresh_in: self.epoch.wrapping_add(1),
            tick,
            lasting,
        };
        &mut self.values[at]
    }

    /// A card's entry, as last written.
    fn read(&self, c: CardId, width: usize) -> &[Option<i64>] {
        &self.values[entry(c, width)]
    }
}

/// Where a card's entry sits in [`StatCache::values`].
fn entry(c: CardId, width: usize) -> std::ops::Range<usize> {
    let start = (c as usize).saturating_mul(width);
    start..start.saturating_add(width)
}

/// Two lists of cards in card order, merged into one in card order, each card once.
pub(super) fn merged<'a>(a: &'a [CardId], b: &'a [CardId]) -> impl Iterator<Item = CardId> + 'a {
    let (mut i, mut j) = (0, 0);
    std::iter::from_fn(move || {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                j = j.saturating_add(1);
                x
            }
            (Some(&x), Some(&y)) if y < x => {
                j = j.saturating_add(1);
                return Some(y);
            }
            (Some(&x), _) => x,
            (None, Some(&y)) => {
                j = j.saturating_add(1);
                return Some(y);
            }
            (None, None) => return None,
        };
        i = i.saturating_add(1);
        Some(next)
    })
}

#[cfg(test)]
mod tests {
    use super::merged;

    #[test]
    fn merged_lists_keep_card_order_and_each_card_once() {
        let m = |a: &[u32], b: &[u32]| merged(a, b).collect::<Vec<_>>();
        assert_eq!(m(&[1, 4, 7], &[2, 4, 9]), vec![1, 2, 4, 7, 9]);
        assert_eq!(m(&[], &[3, 5]), vec![3, 5]);
        assert_eq!(m(&[3, 5], &[]), vec![3, 5]);
        assert_eq!(m(&[0, 8], &[1, 2, 3]), vec![0, 1, 2, 3, 8]);
        assert!(m(&[], &[]).is_empty());
    }
}
