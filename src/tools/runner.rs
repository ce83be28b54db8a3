//! Runs scenarios (rules tests written by designers) on the engine: builds the starting state
//! from a [`Scenario`], answers every request from its script, and checks its expectations.
//! A name the game does not know is a diagnostic at its token; a failed expectation is a
//! failure that shows expected vs actual and the tail of the event log.

use crate::base::diagnostic::{self, codes, Diagnostic};
use crate::base::source::{FileId, Span};
use crate::engine::{
    self, Answer, Game, Options, Placement, Program, Request, RequestKind, Seat, Value, ZoneKey,
};
use crate::ir;
use crate::packs::session::Session;
use crate::tools::scenario::{
    AnswerKind, CardEntry, Counter, Expect, ExpectCard, ExpectPlayer, Scenario, Spanned,
    StartPhase, StatValue, Winner,
};

/// What running one scenario found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The scenario's name.
    pub name: String,
    /// Why it failed (empty: it passed).
    pub failures: Vec<String>,
    /// The event log, one line per entry.
    pub log: Vec<String>,
}

impl Report {
    /// Whether every expectation held.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Runs a scenario; `Err` holds diagnostics for names the game does not know.
pub fn run(prog: &Program, sc: &Scenario) -> Result<Report, Vec<Diagnostic>> {
    run_checked(prog, sc, false)
}

/// [`run`], with the engine's shortcuts checked as it goes when `verify` is set (its memos,
/// kept values and lowered conditions read again and compared: `Game::verify_rule_skips`,
/// `Game::verify_lowered`): a check that found a difference is a failure of the scenario.
/// The scenarios then test the engine's shortcuts on every rule they exercise.
fn run_checked(prog: &Program, sc: &Scenario, verify: bool) -> Result<Report, Vec<Diagnostic>> {
    let mut r = Resolver {
        prog,
        file: sc.file,
        diags: Vec::new(),
    };
    let (placements, counters) = r.placements(sc);
    let phase = match &sc.start.phase {
        StartPhase::Named(p) => r.index(&prog.phase_index, p, p.span, "phase"),
        _ => None,
    };
    let expect_phase = sc
        .expect
        .phase
        .as_ref()
        .and_then(|p| r.index(&prog.phase_index, p, p.span, "phase"));
    r.check_expect_names(sc);
    if let Some(f) = &sc.deck_format {
        r.deck_format(f);
    }
    if !r.diags.is_empty() {
        return Err(r.diags);
    }
    let players = prog.players() as u32;
    let options = Options {
        seed: sc.seed,
        max_steps: *sc.max_steps,
        deck_format: sc.deck_format.as_ref().map(|f| f.value.clone()),
    };
    let active = (sc.start.player.value.clamp(1, players) - 1) as Seat;
    let setup = matches!(sc.start.phase, StartPhase::Setup(_));
    let mut game = Game::from_placements(
        prog,
        &placements,
        *sc.start.turn,
        active,
        phase,
        setup,
        &options,
    );
    for (seat, k, v) in counters {
        game.state.players[seat as usize].counters[k as usize] = v;
    }
    game.verify_rule_skips(verify);
    game.verify_lowered(verify);
    let mut report = Report {
        name: sc.name.clone(),
        ..Report::default()
    };
    let mut next = 0;
    while let Some(req) = game.step() {
        let Some(line) = sc.script.get(next) else {
            break;
        };
        next += 1;
        if line.kind == AnswerKind::Concede && line.player != req.player as u32 + 1 {
            // 12.7: a player may concede at any time, not only when asked
            game.concede((line.player - 1) as Seat);
            continue;
        }
        match answer_for(&game, &req, &line.kind, line.player) {
            Ok(a) => {
                if !game.answer(&req, a) {
                    report.failures.push(format!(
                        "script line {next} does not fit: {}",
                        describe(&req)
                    ));
                    break;
                }
            }
            Err(why) => {
                report.failures.push(format!(
                    "unexpected answer at script line {next} (`p{}: …`): {why}\n  asked: {}",
                    line.player,
                    describe(&req)
                ));
                break;
            }
        }
    }
    if report.failures.is_empty() && next < sc.script.len() {
        report.failures.push(format!(
            "{} script line(s) left unused, from line {}: the game {} first",
            sc.script.len() - next,
            next + 1,
            if game.outcome().is_some() {
                "ended"
            } else {
                "asked nothing more"
            }
        ));
    }
    for n in &game.notes {
        if !n.is_empty()
            && game.outcome() == Some(&engine::Outcome::Draw)
            && sc.expect.winner.as_ref().map(|w| w.value) != Some(Winner::Draw)
        {
            report.failures.push(format!("the game ended early: {n}"));
        }
    }
    for n in game.failed_checks() {
        report
            .failures
            .push(format!("a check of the engine's shortcuts failed: {n}"));
    }
    report.log = game.log().iter().map(|e| e.text.clone()).collect();
    if report.failures.is_empty() {
        check(&mut game, sc, expect_phase, &mut report);
    }
    Ok(report)
}

/// The engine answer a script line stands for, or why it fits no option.
fn answer_for(
    game: &Game<'_>,
    req: &Request,
    kind: &AnswerKind,
    player: u32,
) -> Result<Answer, String> {
    if player != req.player as u32 + 1 && *kind != AnswerKind::Concede {
        return Err(format!(
            "p{} answers, but p{} is asked",
            player,
            req.player + 1
        ));
    }
    // The script is written by someone who sees everything: options are matched by the
    // card they stand for, even when the chooser sees it as a hidden card.
    let names_match = |opt: &engine::Choice, want: &str| {
        let (want, _) = split_index(want);
        match opt.card_id {
            Some(c) => game.card_name(c) == want || number_matches(game, opt, want),
            // an option that is no card and no action (a slot, a mode) by its label
            None if opt.card.is_none() && opt.action.is_none() => opt.label == want,
            None => opt.card.as_deref() == Some(want),
        }
    };
    Ok(match (&req.kind, kind) {
        (_, AnswerKind::Concede) => Answer::Concede,
        (RequestKind::Action, AnswerKind::Pass) => Answer::Pick(req.options.len() - 1),
        (RequestKind::Action, AnswerKind::Action { name, card }) => {
            let mut hits = req.options.iter().enumerate().filter(|(_, o)| {
                o.action.as_deref() == Some(name.as_str())
                    && match card {
                        Some(c) => names_match(o, c),
                        None => o.card.is_none(),
                    }
            });
            let nth = card.as_ref().map(|c| split_index(c).1).unwrap_or(1);
            match hits.nth(nth as usize - 1) {
                Some((i, _)) => Answer::Pick(i),
                None => return Err("no option matches".into()),
            }
        }
        (RequestKind::YesNo, AnswerKind::Yes) => Answer::Yes(true),
        (RequestKind::YesNo, AnswerKind::No) => Answer::Yes(false),
        (RequestKind::Cards { .. }, AnswerKind::Choose(names)) => {
            let mut picked: Vec<usize> = Vec::new();
            for n in names {
                let (_, nth) = split_index(n);
                let found = req
                    .options
                    .iter()
                    .enumerate()
                    .filter(|(i, o)| !picked.contains(i) && names_match(o, n))
                    .nth(nth as usize - 1)
                    .map(|(i, _)| i);
                match found {
                    Some(i) => picked.push(i),
                    None => return Err(format!("no option is `{}`", n.value)),
                }
            }
            Answer::Many(picked)
        }
        (RequestKind::OneOf, AnswerKind::Option(label)) => {
            match req.options.iter().position(|o| o.label == label.value) {
                Some(i) => Answer::Pick(i),
                None => return Err(format!("no option is labelled `{}`", label.value)),
            }
        }
        (RequestKind::OneOf, AnswerKind::Choose(names)) if names.is_empty() => {
            // `choose nothing` declines an optional slot choice
            match req.options.iter().position(|o| o.label == engine::NO_SLOT) {
                Some(i) => Answer::Pick(i),
                None => return Err("this choice cannot be declined".into()),
            }
        }
        (RequestKind::OneOf, AnswerKind::Choose(names)) if names.len() == 1 => {
            // `名前 #2`: the second option of that name (two abilities of one card)
            let nth = split_index(&names[0].value).1;
            let mut hits = req
                .options
                .iter()
                .enumerate()
                .filter(|(_, o)| names_match(o, &names[0]));
            match hits.nth(nth as usize - 1) {
                Some((i, _)) => Answer::Pick(i),
                None => return Err(format!("no option is `{}`", names[0].value)),
            }
        }
        (RequestKind::Declare, AnswerKind::Declare(t)) => Answer::Text(t.value.clone()),
        (RequestKind::Repeat { max }, AnswerKind::Repeat(n)) => {
            let n = *n as usize;
            if n > *max {
                return Err(format!("at most {max} repetitions may be named here"));
            }
            Answer::Pick(n)
        }
        _ => return Err("this kind of answer does not fit the question".into()),
    })
}

fn number_matches(game: &Game<'_>, opt: &engine::Choice, want: &str) -> bool {
    match opt.card_id {
        Some(c) => {
            let def = game.state.cards[c as usize].def as usize;
            game.prog.cards[def].number == want
        }
        None => false,
    }
}

/// `名前 #2` → (`名前`, 2).
fn split_index(s: &str) -> (&str, u32) {
    if let Some((a, b)) = s.rsplit_once(" #") {
        if let Ok(n) = b.trim().parse::<u32>() {
            return (a.trim(), n.max(1));
        }
    }
    (s.trim(), 1)
}

/// How many cards a request wants, in words: `1 card`, `2 cards`, `0 to 1 card`, `1 to 3 cards`.
fn cards_wanted(min: usize, max: usize) -> String {
    let noun = if max == 1 { "card" } else { "cards" };
    if min == max {
        format!("{max} {noun}")
    } else {
        format!("{min} to {max} {noun}")
    }
}

/// A request as a line of text with its options.
pub fn describe(req: &Request) -> String {
    let opts: Vec<String> = req.options.iter().map(|o| o.label.clone()).collect();
    let kind = match &req.kind {
        RequestKind::Action => "an action".to_string(),
        RequestKind::YesNo => "yes or no".to_string(),
        RequestKind::Cards { min, max } => cards_wanted(*min, *max),
        RequestKind::OneOf => "one option".to_string(),
        RequestKind::Declare => "a declaration".to_string(),
        RequestKind::Repeat { max } => format!("a repeat count from 0 to {max}"),
    };
    if matches!(
        req.kind,
        RequestKind::YesNo | RequestKind::Declare | RequestKind::Repeat { .. }
    ) {
        format!("p{}: {} ({kind})", req.player + 1, req.prompt)
    } else {
        format!(
            "p{}: {} ({kind}; options: {})",
            req.player + 1,
            req.prompt,
            opts.join(" | ")
        )
    }
}

/// Resolves scenario names against the game, collecting diagnostics.
struct Resolver<'a> {
    prog: &'a Program,
    file: FileId,
    diags: Vec<Diagnostic>,
}

impl Resolver<'_> {
    fn index(
        &mut self,
        map: &rustc_hash::FxHashMap<ir::Id, u16>,
        name: &str,
        span: Span,
        what: &str,
    ) -> Option<u16> {
        if let Some((_, v)) = find(map, name) {
            return Some(v);
        }
        let names: Vec<&str> = map.keys().map(|k| Program::short(k)).collect();
        let mut d = Diagnostic::error(
            codes::RUN_UNKNOWN_NAME,
            self.file,
            span,
            format!("the game has no {what} `{name}`"),
            format!("unknown {what}"),
        );
        if let Some(s) = diagnostic::closest(name, names.iter().copied()) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        self.diags.push(d);
        None
    }

    /// A scenario's `deck_format`: a format the game's `deck { … }` declares.
    fn deck_format(&mut self, f: &Spanned<String>) {
        if self.prog.ruleset.deck_format(&f.value).is_some() {
            return;
        }
        let names: Vec<&str> = self
            .prog
            .ruleset
            .deck_formats()
            .map(|d| d.name.as_str())
            .collect();
        let help = diagnostic::closest(&f.value, names.iter().copied())
            .map(|s| format!("did you mean `{s}`?"))
            .unwrap_or_else(|| match names.as_slice() {
                [] => "the game declares no deck format".to_string(),
                _ => format!("the game's formats: {}", names.join(", ")),
            });
        self.diags.push(
            Diagnostic::error(
                codes::RUN_UNKNOWN_NAME,
                self.file,
                f.span,
                format!("the game has no deck format `{}`", f.value),
                "unknown deck format",
            )
            .with_help(help),
        );
    }

    fn card(&mut self, name: &str, span: Span) -> Option<u32> {
        let (name, _) = split_index(name);
        if let Some(i) = self.prog.find_card(name) {
            return Some(i);
        }
        let names: Vec<&str> = self.prog.cards.iter().map(|c| c.name.as_str()).collect();
        let mut d = Diagnostic::error(
            codes::RUN_UNKNOWN_NAME,
            self.file,
            span,
            format!("the game has no card `{name}`"),
            "unknown card",
        );
        if let Some(s) = diagnostic::closest(name, names.iter().copied()) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        self.diags.push(d);
        None
    }

    #[allow(clippy::type_complexity)]
    fn placements(&mut self, sc: &Scenario) -> (Vec<Placement>, Vec<(Seat, u16, i64)>) {
        let mut out = Vec::new();
        let mut counters = Vec::new();
        let players = self.prog.players() as u32;
        for p in &sc.players {
            if p.seat > players {
                self.diags.push(Diagnostic::error(
                    codes::RUN_UNKNOWN_NAME,
                    self.file,
                    p.span,
                    format!("the game has {players} players; this is player {}", p.seat),
                    "no such seat",
                ));
                continue;
            }
            let seat = (p.seat - 1) as Seat;
            for c in &p.counters {
                if let Some(k) = self.index(
                    &self.prog.counter_index.clone(),
                    &c.name,
                    c.name.span,
                    "counter",
                ) {
                    counters.push((seat, k, *c.value));
                }
            }
            for z in &p.zones {
                let Some(zone) = self.index(&self.prog.zones.clone(), &z.zone, z.zone.span, "zone")
                else {
                    continue;
                };
                for e in &z.cards {
                    self.place(e, seat, ZoneKey { zone, owner: seat }, None, &mut out);
                }
            }
        }
        (out, counters)
    }

    fn place(
        &mut self,
        e: &CardEntry,
        seat: Seat,
        zone: ZoneKey,
        host: Option<usize>,
        out: &mut Vec<Placement>,
    ) {
        let Some(def) = self.card(&e.card, e.card.span) else {
            return;
        };
        let slot = e.slot.as_ref().and_then(|s| self.slot(s, zone, out));
        let states: Vec<u16> = e
            .states
            .iter()
            .filter_map(|s| self.index(&self.prog.state_index.clone(), s, s.span, "state"))
            .collect();
        let counters: Vec<(u16, i64)> = e
            .counters
            .iter()
            .filter_map(|c| {
                self.index(
                    &self.prog.counter_index.clone(),
                    &c.name,
                    c.name.span,
                    "counter",
                )
                .map(|k| (k, *c.value))
            })
            .collect();
        for _ in 0..e.count.max(1) {
            let me = out.len();
            out.push(Placement {
                def,
                owner: seat,
                zone,
                states: states.clone(),
                counters: counters.clone(),
                face_up: e
                    .face
                    .as_ref()
                    .map(|f| f.value == crate::tools::scenario::Face::Up),
                host,
                slot: slot.clone(),
            });
            for a in &e.attached {
                self.place(a, seat, zone, Some(me), out);
            }
        }
    }

    /// A slot of zone `zone` named in a card entry, not held by a card placed before: or a
    /// diagnostic (with a did-you-mean for a slot the zone lacks).
    fn slot(&mut self, s: &Spanned<String>, zone: ZoneKey, placed: &[Placement]) -> Option<String> {
        let info = &self.prog.ruleset.zones[zone.zone as usize];
        let z = Program::short(&info.name.id);
        if info.slots.contains(&s.value) {
            let held = placed
                .iter()
                .any(|p| p.zone == zone && p.slot.as_ref() == Some(&s.value));
            if held {
                self.diags.push(Diagnostic::error(
                    codes::RUN_UNKNOWN_NAME,
                    self.file,
                    s.span,
                    format!("slot `{}` of zone `{z}` holds a card already", s.value),
                    "one card per slot",
                ));
                return None;
            }
            return Some(s.value.clone());
        }
        let mut d = Diagnostic::error(
            codes::RUN_UNKNOWN_NAME,
            self.file,
            s.span,
            format!("zone `{z}` has no slot `{}`", s.value),
            "unknown slot",
        );
        if let Some(c) = diagnostic::closest(&s.value, info.slots.iter().map(String::as_str)) {
            d = d.with_help(format!("did you mean `{c}`?"));
        }
        self.diags.push(d);
        None
    }

    fn check_expect_names(&mut self, sc: &Scenario) {
        let prog = self.prog;
        for p in &sc.expect.players {
            for c in &p.counters {
                self.index(&prog.counter_index, &c.name, c.name.span, "counter");
            }
            for z in &p.zones {
                self.index(&prog.zones, &z.zone, z.zone.span, "zone");
                for e in &z.cards {
                    self.card(&e.card, e.card.span);
                }
            }
            for z in &p.counts {
                self.index(&prog.zones, &z.zone, z.zone.span, "zone");
            }
        }
        for c in &sc.expect.cards {
            self.card(&c.card, c.card.span);
            if let Some(z) = &c.zone {
                self.index(&prog.zones, z, z.span, "zone");
            }
            for s in c.states.iter().chain(&c.not_states) {
                self.index(&prog.state_index, s, s.span, "state");
            }
            for s in &c.stats {
                self.index(&prog.stat_index, &s.stat, s.stat.span, "stat");
            }
            for k in &c.counters {
                self.index(&prog.counter_index, &k.name, k.name.span, "counter");
            }
        }
    }
}

fn find<'a>(map: &'a rustc_hash::FxHashMap<ir::Id, u16>, name: &str) -> Option<(&'a ir::Id, u16)> {
    map.iter()
        .find(|(k, _)| k.as_str() == name || Program::short(k) == name)
        .map(|(k, v)| (k, *v))
}

/// The printed names a list of card entries stands for, one per copy (a name the game lacks is
/// kept as written: it was reported before the run).
fn expected_names(prog: &Program, entries: &[CardEntry]) -> Vec<String> {
    entries
        .iter()
        .flat_map(|e| {
            let name = prog
                .find_card(&e.card)
                .map(|i| prog.cards[i as usize].name.clone())
                .unwrap_or_else(|| e.card.value.clone());
            std::iter::repeat_n(name, e.count.max(1) as usize)
        })
        .collect()
}

/// Checks the expectations against the game as it stopped: one check per kind of
/// expectation, in the order the failures are reported.
fn check(game: &mut Game<'_>, sc: &Scenario, phase: Option<u16>, r: &mut Report) {
    let e = &sc.expect;
    check_winner(game, e, r);
    check_turn(game, e, phase, r);
    check_log(e, r);
    for p in &e.players {
        check_player(game, p, r);
    }
    for c in &e.cards {
        check_card(game, c, r);
    }
}

/// `winner`: a player, a draw, or a game still going.
fn check_winner(game: &Game<'_>, e: &Expect, r: &mut Report) {
    let Some(w) = &e.winner else {
        return;
    };
    let actual = match game.outcome() {
        Some(engine::Outcome::Win(p)) => Winner::Player(*p as u32 + 1),
        Some(engine::Outcome::Draw) => Winner::Draw,
        None => Winner::None,
    };
    if actual != w.value {
        r.failures.push(format!(
            "winner: expected {}, got {}",
            show_winner(w.value),
            show_winner(actual)
        ));
    }
}

/// `turn`, `turn_player` and the phase the game stopped in.
fn check_turn(game: &Game<'_>, e: &Expect, phase: Option<u16>, r: &mut Report) {
    if let Some(t) = &e.turn {
        if game.state.turn != t.value {
            r.failures.push(format!(
                "turn: expected {}, got {}",
                t.value, game.state.turn
            ));
        }
    }
    if let Some(p) = &e.turn_player {
        if game.state.active as u32 + 1 != p.value {
            r.failures.push(format!(
                "turn player: expected p{}, got p{}",
                p.value,
                game.state.active + 1
            ));
        }
    }
    if let Some(want) = phase {
        if game.state.phase != Some(want) {
            let prog = game.prog;
            let name = |p: Option<u16>| {
                p.map(|p| Program::short(&prog.ruleset.phases[p as usize].id).to_string())
                    .unwrap_or("none".into())
            };
            r.failures.push(format!(
                "phase: expected {}, got {}",
                name(Some(want)),
                name(game.state.phase)
            ));
        }
    }
}

/// `log`: lines found in this order; `not_log`: lines found nowhere.
fn check_log(e: &Expect, r: &mut Report) {
    let mut from = 0;
    for l in &e.log {
        match r.log[from..].iter().position(|x| x.contains(l.as_str())) {
            Some(i) => from += i + 1,
            None => r.failures.push(format!(
                "log: no line after line {from} contains `{}`",
                l.value
            )),
        }
    }
    for l in &e.not_log {
        if let Some(x) = r.log.iter().find(|x| x.contains(l.as_str())) {
            r.failures
                .push(format!("log: a line contains `{}`: {x}", l.value));
        }
    }
}

/// One player's counters, zone contents and zone sizes.
fn check_player(game: &Game<'_>, p: &ExpectPlayer, r: &mut Report) {
    let prog = game.prog;
    let seat = (p.player.value.max(1) - 1) as Seat;
    if seat as usize >= game.state.players.len() {
        return;
    }
    let values = &game.state.players[seat as usize].counters;
    check_counters(prog, &p.counters, values, r, |name, want, got| {
        format!("p{}'s {name}: expected {want}, got {got}", seat + 1)
    });
    for z in &p.zones {
        if let Some((_, zi)) = find(&prog.zones, &z.zone) {
            let got = zone_of(game, zi, seat)
                .iter()
                .map(|c| game.card_name(*c))
                .collect();
            if let Some((want, got)) = differ(expected_names(prog, &z.cards), got) {
                r.failures.push(format!(
                    "p{}'s {}: expected [{want}], got [{got}]",
                    seat + 1,
                    z.zone.value,
                ));
            }
        }
    }
    for z in &p.counts {
        if let Some((_, zi)) = find(&prog.zones, &z.zone) {
            let got = zone_of(game, zi, seat).len() as u64;
            if got != z.count.value {
                r.failures.push(format!(
                    "p{}'s {} count: expected {}, got {got}",
                    seat + 1,
                    z.zone.value,
                    z.count.value
                ));
            }
        }
    }
}

/// Counters expected on a player or a card whose counters are `values`; `failure` words a
/// mismatch from the counter's name as written, the expected value and the actual one.
fn check_counters(
    prog: &Program,
    expected: &[Counter],
    values: &[i64],
    r: &mut Report,
    failure: impl Fn(&str, i64, i64) -> String,
) {
    for c in expected {
        if let Some((_, k)) = find(&prog.counter_index, &c.name) {
            let got = values[k as usize];
            if got != c.value.value {
                r.failures.push(failure(&c.name.value, c.value.value, got));
            }
        }
    }
}

/// The cards in one player's zone.
fn zone_of<'g>(game: &'g Game<'_>, zone: u16, owner: Seat) -> &'g [u32] {
    game.state.zone(ZoneKey { zone, owner })
}

/// Two lists of card names compared as multisets: `None` when they hold the same names,
/// else both, sorted and joined for a failure message.
fn differ(mut want: Vec<String>, mut got: Vec<String>) -> Option<(String, String)> {
    got.sort();
    want.sort();
    (got != want).then(|| (want.join(", "), got.join(", ")))
}

/// One card (the `index`-th of its name where expected): stats, states, counters, face and
/// attached cards.
fn check_card(game: &mut Game<'_>, c: &ExpectCard, r: &mut Report) {
    let prog = game.prog;
    let Some(def) = prog.find_card(&c.card) else {
        return;
    };
    let zone = c
        .zone
        .as_ref()
        .and_then(|z| find(&prog.zones, z))
        .map(|x| x.1);
    let owner = c.player.as_ref().map(|p| (p.value.max(1) - 1) as Seat);
    let matches: Vec<u32> = (0..game.state.cards.len() as u32)
        .filter(|i| {
            let cs = &game.state.cards[*i as usize];
            cs.def == def
                && zone.is_none_or(|z| cs.zone.zone == z)
                && owner.is_none_or(|o| cs.zone.owner == o)
        })
        .collect();
    let Some(&card) = matches.get(c.index.value.max(1) as usize - 1) else {
        r.failures
            .push(format!("card `{}`: not found where expected", c.card.value));
        return;
    };
    let label = c.card.value.clone();
    check_stats(game, c, card, &label, r);
    check_card_states(game, c, card, &label, r);
    let values = &game.state.cards[card as usize].counters;
    check_counters(prog, &c.counters, values, r, |name, want, got| {
        format!("{label}: {name} expected {want}, got {got}")
    });
    if let Some(f) = &c.face {
        let up = game.state.cards[card as usize].face_up;
        if up != (f.value == crate::tools::scenario::Face::Up) {
            r.failures.push(format!(
                "{label}: expected face {}",
                if up { "down" } else { "up" }
            ));
        }
    }
    if let Some(want) = &c.slot {
        let got = game.state.cards[card as usize]
            .slot
            .as_deref()
            .unwrap_or("none");
        if got != want.value {
            r.failures
                .push(format!("{label}: expected slot {}, got {got}", want.value));
        }
    }
    if let Some(att) = &c.attached {
        let got = game
            .attached_cards(card)
            .iter()
            .map(|x| game.card_name(*x))
            .collect();
        if let Some((want, got)) = differ(expected_names(prog, att), got) {
            r.failures
                .push(format!("{label}: attached expected [{want}], got [{got}]"));
        }
    }
}

/// A card's stats, as the engine computes them now.
fn check_stats(game: &mut Game<'_>, c: &ExpectCard, card: u32, label: &str, r: &mut Report) {
    let prog = game.prog;
    for s in &c.stats {
        let Some((id, _)) = find(&prog.stat_index, &s.stat) else {
            continue;
        };
        let got = game.stat(card, id);
        let want = match &s.value.value {
            StatValue::Number(n) => Value::Int(*n),
            StatValue::Composite(v) => Value::Pair(v.iter().map(|x| Some(*x)).collect()),
        };
        if got != want {
            r.failures.push(format!(
                "{label}: {} expected {}, got {}",
                s.stat.value,
                show_value(&want),
                show_value(&got)
            ));
        }
    }
}

/// The states a card must be in (`states`) and must not be in (`not_states`).
fn check_card_states(game: &Game<'_>, c: &ExpectCard, card: u32, label: &str, r: &mut Report) {
    let prog = game.prog;
    for s in &c.states {
        if let Some((_, si)) = find(&prog.state_index, s) {
            if !game.state.in_state(card, si) {
                r.failures
                    .push(format!("{label}: expected to be {}", s.value));
            }
        }
    }
    for s in &c.not_states {
        if let Some((_, si)) = find(&prog.state_index, s) {
            if game.state.in_state(card, si) {
                r.failures
                    .push(format!("{label}: expected not to be {}", s.value));
            }
        }
    }
}

fn show_winner(w: Winner) -> String {
    match w {
        Winner::Player(p) => format!("p{p}"),
        Winner::Draw => "draw".into(),
        Winner::None => "none (the game goes on)".into(),
    }
}

fn show_value(v: &Value) -> String {
    match v {
        Value::Int(n) => n.to_string(),
        Value::Pair(p) => p
            .iter()
            .map(|x| x.map_or("-".into(), |x| x.to_string()))
            .collect::<Vec<_>>()
            .join("/"),
        Value::Absent => "nothing".into(),
        other => format!("{other:?}"),
    }
}

/// The result of running scenario files.
#[derive(Default)]
pub struct Suite {
    /// One report per scenario that ran, with its file.
    pub reports: Vec<(String, Report)>,
    /// Scenario files that could not run, and the packs' diagnostics.
    pub session: Session,
}

impl Suite {
    /// How many passed.
    pub fn passed(&self) -> usize {
        self.reports.iter().filter(|(_, r)| r.passed()).count()
    }

    /// How many failed (a scenario that could not run counts as failed).
    pub fn failed(&self) -> usize {
        self.reports.len() - self.passed()
    }
}

/// Finds the scenario files under `paths` and runs each on its game.
pub fn run_paths(paths: &[std::path::PathBuf]) -> Suite {
    run_paths_with_packs(paths, &[])
}

/// [`run_paths`] with the pack folders `packs` loaded first (`fuda test --pack DIR`): their
/// cards join their game's, so scenarios may name them.
pub fn run_paths_with_packs(paths: &[std::path::PathBuf], packs: &[std::path::PathBuf]) -> Suite {
    run_all(paths, packs, false)
}

/// [`run_paths`] with the engine's shortcuts checked in every scenario (see `run_checked`):
/// a test of the engine, not of the rules.
#[doc(hidden)]
pub fn run_paths_verified(paths: &[std::path::PathBuf]) -> Suite {
    run_all(paths, &[], true)
}

/// [`run_paths_with_packs`], with the engine's shortcuts checked when `verify` is set.
fn run_all(paths: &[std::path::PathBuf], packs: &[std::path::PathBuf], verify: bool) -> Suite {
    let mut suite = Suite::default();
    let mut extra: Vec<String> = Vec::new();
    for p in packs {
        if let Some(i) = suite.session.add_pack(p) {
            extra.push(suite.session.packs[i].pack.name.clone());
        }
    }
    let files = crate::tools::scenario::discover(paths);
    let mut programs: std::collections::HashMap<String, Result<Program, String>> =
        Default::default();
    for path in files {
        let shown = path.display().to_string();
        let sc = match crate::tools::scenario::load(&path, &mut suite.session.sources) {
            Ok(sc) => sc,
            Err(diags) => {
                suite.session.diags.extend(diags);
                suite
                    .reports
                    .push((shown, failed_report(&path, "the scenario file has errors")));
                continue;
            }
        };
        let game = sc.game.value.clone();
        // A scenario of a pack runs on that pack and what it requires (so that the cards and
        // declarations of another pack of the game never leak into it); one elsewhere, on the
        // game's pack; either one with the `--pack` packs too.
        let pack_dir = crate::packs::manifest::find_pack_dir(&path);
        let key = match &pack_dir {
            Some(dir) => format!("{game}\0{}", dir.display()),
            None => game.clone(),
        };
        if !programs.contains_key(&key) {
            let pack = match &pack_dir {
                Some(dir) => suite.session.load_dir(dir),
                None => suite.session.require(&game, None),
            };
            let p = match pack {
                Some(i) => {
                    let mut roots = vec![suite.session.packs[i].pack.name.clone()];
                    roots.extend(extra.iter().cloned());
                    suite.session.program_of(&roots, &game)
                }
                None => suite.session.program(&game),
            };
            programs.insert(key.clone(), p);
        }
        let report = match &programs[&key] {
            Ok(prog) => match run_checked(prog, &sc, verify) {
                Ok(r) => r,
                Err(diags) => {
                    suite.session.diags.extend(diags);
                    failed_report(&path, "the scenario names things the game does not have")
                }
            },
            Err(e) => failed_report(&path, e),
        };
        suite.reports.push((shown, report));
    }
    suite
}

fn failed_report(path: &std::path::Path, why: &str) -> Report {
    Report {
        name: path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        failures: vec![why.to_string()],
        log: Vec::new(),
    }
}

#[cfg(test)]
mod count_words {
    use super::cards_wanted;

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(cards_wanted(1, 1), "1 card");
        assert_eq!(cards_wanted(0, 1), "0 to 1 card");
        assert_eq!(cards_wanted(2, 2), "2 cards");
        assert_eq!(cards_wanted(1, 3), "1 to 3 cards");
    }
}
