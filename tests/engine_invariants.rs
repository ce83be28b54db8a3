//! The engine keeps its invariants over whole games of Phantom Magic Vision (`cards/pmv`),
//! Weiss Schwarz (`cards/ws`) and Precious Memories (`cards/pm`), each game's two decks in its `decks/` folder loaded through
//! `Session`, seeded random agents on both seats:
//! - every card is in exactly one zone: each card id is in exactly one of `state.zones`' lists,
//!   and that list is the one the card's `zone` names;
//! - in a zone with slots (the WS stage) every card has one of its slots, no two the same;
//! - the number of cards is the decks' total: nothing is created or lost;
//! - every game ends (an outcome), never by the step limit, and a draw says why in a note;
//! - no answer is lost: the same question is not asked again and again with nothing happening
//!   in between (games are stepped by hand, as `Game::play` does);
//! - no panic;
//! - what the engine skips because nothing it read changed would indeed have come out the
//!   same: `…_memos_change_nothing` play games with every skipped check rule run anyway (it must
//!   change nothing), every skipped derivation of the continuous abilities made anyway (it must
//!   give the same modifiers) and every zone's kept loop fingerprint hashed again (it must be
//!   the same), the engine noting any that did not;
//! - a filter condition lowered when the program is built (`engine::lowered`) gives, card by
//!   card, what the condition as written gives, and records the same reads for the rule memos:
//!   `…_lowered_conditions_agree` play games checking every such evaluation on a copy of the
//!   game.
//!
//! `pmv_random_games`, `ws_random_games` and `pm_random_games` play a hundred-odd games each (a
//! debug build on a shared machine); `…_ten_thousand_random_games` play 10,000 (`cargo test
//! --release -- --ignored`). `…_zones_hold_after_every_answer` step a few games by hand and check
//! the zones after every answer.

use crate::support;

use fuda::engine::{Game, Outcome};
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;
use support::{
    decks_for, ending_problems, load, log_tail, options, random_agents, step_to_end, zone_problems,
    Loaded,
};

/// The PMV pack.
const PMV: &str = "cards/pmv";
/// The WS pack.
const WS: &str = "cards/ws";
/// The PM pack.
const PM: &str = "cards/pm";
/// Games of `pmv_random_games` (10–15 s in a debug build on the busy 2-core machine).
const GAMES: u64 = 120;
/// Games of `ws_random_games` (WS games run longer: about 40 turns).
const WS_GAMES: u64 = 60;
/// Games of `pm_random_games` (PM games run about 25 turns).
const PM_GAMES: u64 = 60;
/// Games of the ignored long run.
const LONG_GAMES: u64 = 10_000;
/// Games stepped by hand.
const STEPPED_GAMES: u64 = 10;
/// Games of each `…_memos_change_nothing`.
const VERIFIED_GAMES: u64 = 25;
/// Games of each `…_lowered_conditions_agree`.
const LOWERED_GAMES: u64 = 6;

/// What went wrong in one seeded game, if anything (a panic included).
/// Returns the outcome and the game's notes.
fn play_one(l: &Loaded, seed: u64) -> Result<(Outcome, Vec<String>), String> {
    let decks = decks_for(l, seed);
    let total: usize = decks.iter().map(Vec::len).sum();
    let run = catch_unwind(AssertUnwindSafe(|| {
        let mut game = Game::new(&l.program, &decks, None, &options(seed));
        // as `play` does, watching for answers the engine loses
        let stepped = step_to_end(&mut game, &mut random_agents(seed), |_, _| {});
        let outcome = stepped.outcome;
        let mut problems = ending_problems(&game, &outcome);
        problems.extend(stepped.repeated);
        problems.extend(zone_problems(&game, total));
        if outcome == Outcome::Draw && game.notes.is_empty() {
            problems.push("a draw with no note saying why".into());
        }
        if problems.is_empty() {
            Ok((outcome, game.notes.clone()))
        } else {
            Err(format!(
                "{}\n  notes: {:?}\n  log tail:\n{}",
                problems.join("\n  "),
                game.notes,
                log_tail(&game, 20)
            ))
        }
    }));
    match run {
        Ok(r) => r,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            Err(format!("panicked: {msg}"))
        }
    }
}

/// Plays `games` seeded games of the pack; fails with the first few games that went wrong.
fn random_games(pack: &str, games: u64) {
    let l = load(pack);
    assert_eq!(l.decks.len(), 2, "the {pack} decks");
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
    // notes (an unavoidable loop is a legitimate ending), with the first seed of each
    let mut notes: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for seed in 0..games {
        match play_one(&l, seed) {
            Ok((o, ns)) => {
                *outcomes.entry(format!("{o:?}")).or_default() += 1;
                for n in ns {
                    notes.entry(n).or_insert((0, seed)).0 += 1;
                }
            }
            Err(e) => failures.push(format!("seed {seed}: {e}")),
        }
    }
    println!(
        "{games} games of {pack} in {:.2?}: {outcomes:?}; {} failed",
        start.elapsed(),
        failures.len()
    );
    for (n, (count, first)) in &notes {
        println!("  {count} game(s), first seed {first}: {n}");
    }
    assert!(
        failures.is_empty(),
        "{} of {games} games broke an invariant; the first 5:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// Plays `games` seeded games of the pack with a verification of the engine turned on
/// (`verify`), and asserts that no game's checks failed (`Game::failed_checks`). Returns how
/// many checks of each kind the games made (`checks`).
fn play_verified<const N: usize>(
    pack: &str,
    games: u64,
    verify: impl Fn(&mut Game<'_>),
    checks: impl Fn(&Game<'_>) -> [usize; N],
) -> [usize; N] {
    let l = load(pack);
    let mut made = [0usize; N];
    for seed in 0..games {
        let decks = decks_for(&l, seed);
        let mut game = Game::new(&l.program, &decks, None, &options(seed));
        verify(&mut game);
        step_to_end(&mut game, &mut random_agents(seed), |_, _| {});
        for (m, c) in made.iter_mut().zip(checks(&game)) {
            *m += c;
        }
        let failed = game.failed_checks();
        assert!(failed.is_empty(), "{pack}, seed {seed}: {failed:?}");
    }
    made
}

/// Plays games with the engine's memos verified (`Game::verify_rule_skips`): a check rule the
/// memos would skip runs anyway and must change nothing (and a rule whose memo is known to
/// stand, with no stamp read, must find nothing it read changed); the continuous abilities
/// are derived again when their memo says nothing they read changed, and must give the same
/// modifiers; a zone's loop fingerprint kept as unchanged is hashed again, and must be the
/// same, as must a card's part of it kept as unchanged (hashed again); an action's offers
/// kept as unchanged are read again, and must be the same; a card's stats kept from an
/// earlier generation are computed again, and must be the same; a choice's candidates kept
/// for its statement's replay, and a window's offers kept for its step's replay, are read
/// again, and must be the same; an event left undispatched (nothing heeds it, `Program::heeded`,
/// or nothing could answer it then) is dispatched all the same, and no ability may answer it.
fn memos_change_nothing(pack: &str) {
    let [rules, standing, derivations, zones, cards, offers, stats, choices, undispatched] =
        play_verified(
            pack,
            VERIFIED_GAMES,
            |g| g.verify_rule_skips(true),
            |g| {
                [
                    g.verified_rule_skips(),
                    g.verified_standing_memos(),
                    g.verified_derivation_skips(),
                    g.verified_zone_fingerprints(),
                    g.verified_card_hashes(),
                    g.verified_kept_offers(),
                    g.verified_kept_stats(),
                    g.verified_kept_choices(),
                    g.verified_undispatched_events(),
                ]
            },
        );
    println!(
        "{pack}: verified {rules} skippable rule runs ({standing} of them known to stand, with no stamp read), {derivations} skippable derivations, {zones} kept zone fingerprints, {cards} kept card hashes, {offers} kept offers, {stats} kept stats, {choices} kept choices, {undispatched} events left undispatched"
    );
    assert!(rules > 0, "{pack}: no check rule was ever skippable");
    assert!(
        standing > 0,
        "{pack}: no check rule's memo was ever known to stand"
    );
    assert!(derivations > 0, "{pack}: no derivation was ever skippable");
    assert!(zones > 0, "{pack}: no zone fingerprint was ever kept");
    assert!(cards > 0, "{pack}: no card's loop hash was ever kept");
    assert!(offers > 0, "{pack}: no action's offers were ever kept");
    assert!(stats > 0, "{pack}: no card's stats were ever kept");
    assert!(choices > 0, "{pack}: no choice's candidates were ever kept");
    assert!(
        undispatched > 0,
        "{pack}: no event was ever left undispatched"
    );
}

/// Plays games with every lowered filter condition and action's `if` (of its candidate)
/// checked against the condition as written (`Game::verify_lowered`): the same answer for
/// every card, the same reads recorded (the rule memos verified too, so that more conditions
/// are read while a rule is recorded); a filter's first read made in place (a state, a type)
/// is checked against the lowered condition too.
fn lowered_conditions_agree(pack: &str) {
    let checked = play_verified(
        pack,
        LOWERED_GAMES,
        |g| {
            g.verify_lowered(true);
            g.verify_rule_skips(true);
        },
        |g| [g.verified_lowered()],
    )[0];
    println!("{pack}: {checked} evaluations of lowered conditions checked");
    assert!(
        checked > 0,
        "{pack}: no lowered condition was ever evaluated"
    );
}

#[test]
fn pmv_lowered_conditions_agree() {
    lowered_conditions_agree(PMV);
}

#[test]
fn ws_lowered_conditions_agree() {
    lowered_conditions_agree(WS);
}

#[test]
fn pm_lowered_conditions_agree() {
    lowered_conditions_agree(PM);
}

/// The filters of PM's `play_character` read the cards' printed fields through the columns
/// of the lowered conditions (`engine::lowered::Printed`): `same_card(it, c) and work ==
/// c.work`, and `it != c and generated_cost >= 1 and (color == c.color or work == c.work)`,
/// lowered whole; the columns give each card's printed number, and the same number for the
/// same text.
#[test]
fn printed_fields_are_read_through_columns() {
    use fuda::engine::lowered::{Cond, Num, Printed};
    use fuda::ir::Expr;
    let l = load(PM);
    let prog = &l.program;
    let action = prog
        .ruleset
        .actions
        .iter()
        .find(|a| a.name.id == "pm:play_character")
        .expect("PM has play_character");
    let mut filters = Vec::new();
    let mut walk = vec![action.condition.as_ref().expect("it has an `if`")];
    while let Some(e) = walk.pop() {
        if let Expr::Filter { condition, .. } = e {
            filters.push(&**condition);
        }
        e.each_child(&mut |c| walk.push(c));
    }
    let lowered: Vec<&Cond> = filters.iter().filter_map(|f| prog.conds.get(f)).collect();
    let same_work = lowered.iter().find_map(|c| match c {
        Cond::And(a, b) => match (&**a, &**b) {
            (
                Cond::SameCardAs {
                    subject_left: true, ..
                },
                Cond::FieldsEqual {
                    subject_left: true,
                    mine,
                    other,
                },
            ) => Some((*mine, *other)),
            _ => None,
        },
        _ => None,
    });
    let (work, other_work) = same_work.expect("same_card(it, c) and work == c.work, lowered");
    assert_eq!(work, other_work, "one column per field");
    let payer = lowered.iter().find_map(|c| match c {
        Cond::And(a, b) => match (&**a, &**b) {
            (Cond::And(x, y), Cond::Or(..)) => match (&**x, &**y) {
                (Cond::ItSameAsVar, Cond::Compare(Num::ItField(k), Num::AsWritten)) => Some(*k),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    });
    let generated_cost = payer.expect("it != c and generated_cost >= 1 and (…), lowered");
    // every card's printed values, as its definition has them
    for (def, card) in prog.cards.iter().enumerate() {
        let def = u32::try_from(def).expect("a card index");
        let printed = |k| prog.conds.printed(def, k).expect("a column of a card");
        assert_eq!(
            printed(generated_cost),
            match card.fields.get("generated_cost") {
                Some(fuda::ir::Value::Number(n)) => Printed::Number(*n),
                None => Printed::Absent,
                other => panic!("{}: generated_cost {other:?}", card.name),
            },
            "{}",
            card.name
        );
        for (other, o) in prog.cards.iter().enumerate().take(40) {
            let o_def = u32::try_from(other).expect("a card index");
            let same_text = card.fields.get("work") == o.fields.get("work");
            let same_number =
                printed(work) == prog.conds.printed(o_def, work).expect("a column of a card");
            assert_eq!(same_text, same_number, "{} and {}", card.name, o.name);
        }
    }
}

/// `<field> contains "text"` in a filter is read through a column of truths made with the
/// program: PMV's 上白沢 慧音 counts `character on your.field where race contains "人間"`,
/// and each definition's column holds whether its printed race (a text or a list of texts)
/// contains "人間" after the ruleset's name normalization — as `contains` reads a card.
#[test]
fn contains_of_a_printed_field_is_read_through_a_column() {
    use fuda::engine::lowered::{Cond, Printed};
    use fuda::ir::{Expr, Value};
    let l = load(PMV);
    let prog = &l.program;
    let keine = prog
        .cards
        .iter()
        .find(|c| c.name.contains("上白沢"))
        .expect("PMV has 上白沢 慧音");
    let mut walk: Vec<&Expr> = keine
        .abilities
        .iter()
        .flat_map(|a| a.while_condition.iter().chain(&a.condition))
        .collect();
    let mut columns = Vec::new();
    while let Some(e) = walk.pop() {
        if let Some(Cond::FieldContains { column }) = prog.conds.get(e) {
            columns.push(*column);
        }
        if let Some(Cond::And(a, b)) = prog.conds.get(e) {
            for c in [&**a, &**b] {
                if let Cond::FieldContains { column } = c {
                    columns.push(*column);
                }
            }
        }
        e.each_child(&mut |c| walk.push(c));
    }
    let &[column] = columns.as_slice() else {
        panic!("one `race contains \"人間\"` lowered, not {columns:?}");
    };
    let norm = |t: &str| fuda::ir::normalize::apply(&prog.ruleset.names, t);
    let human = norm("人間");
    let mut holds = 0;
    for (def, card) in (0u32..).zip(&prog.cards) {
        let want = match card.fields.get("race") {
            Some(Value::Text(t)) => norm(t).contains(&human),
            Some(Value::List(items)) => items
                .iter()
                .any(|v| matches!(v, Value::Text(t) if norm(t).contains(&human))),
            _ => false,
        };
        holds += usize::from(want);
        assert_eq!(
            prog.conds.printed(def, column),
            Some(Printed::Holds(want)),
            "{}",
            card.name
        );
    }
    assert!(holds > 1, "several shipped cards are human");
}

/// A check rule's memo follows the states and counters of cards the rule can read, found from
/// its IR: PMV's `dying_state` tests `dying`, reads `damage`, and tests types, which read
/// `emerging` (an illusion counts as a character unless emerging) — so its memo outlives a
/// character waking or attacking; `defense_cancelled` tests `defending` and `attacking`, and
/// `unset` `equipped`, and neither reads a counter; `defeat` reads a player's counter only.
#[test]
fn rules_follow_only_the_states_and_counters_they_name() {
    let l = support::load(PMV);
    let reads = |name: &str| {
        let r = l
            .program
            .ruleset
            .rules
            .iter()
            .position(|r| r.name.id == name)
            .unwrap_or_else(|| panic!("no rule {name}"));
        l.program
            .card_reads_of_rule(r)
            .unwrap_or_else(|| panic!("{name}: what it reads is not known"))
    };
    let (mut states, counters) = reads("pmv:dying_state");
    states.sort_unstable();
    assert_eq!(states, ["pmv:dying", "pmv:emerging"]);
    assert_eq!(counters, ["pmv:damage"]);
    let (mut states, counters) = reads("pmv:defense_cancelled");
    states.sort_unstable();
    assert_eq!(states, ["pmv:attacking", "pmv:defending"]);
    assert!(counters.is_empty(), "{counters:?}");
    assert_eq!(reads("pmv:unset"), (vec!["pmv:equipped"], vec![]));
    let (states, counters) = reads("pmv:defeat");
    assert!(states.is_empty(), "{states:?}");
    assert_eq!(counters, ["pmv:damage"]);
}

/// `Program::heeded` (the events the engine dispatches at all) and `Program::recorded` (those
/// it keeps in the history) agree with a reading of the program by another road, its JSON
/// form: an event is heeded exactly when a card's ability has a trigger or replacement pattern
/// on it, or a `happened`, `happened_cards`, `cancel` or `cancelled` anywhere in the ruleset or
/// a card names it; recorded exactly when a `happened` or `happened_cards` names it. Each game
/// has events heeded and not.
fn heeded_events_are_those_named(pack: &str) {
    let l = load(pack);
    let p = &l.program;
    let json = serde_json::to_value((&p.ruleset, &p.cards)).expect("the IR is JSON");
    let mut read = BTreeSet::new();
    events_named(&json, &["happened"], &mut read);
    let mut named = read.clone();
    events_named(&json, &["cancel", "cancelled"], &mut named);
    for a in p.cards.iter().flat_map(|c| &c.abilities) {
        named.extend(a.trigger.iter().map(|t| t.event.to_string()));
    }
    let mut kinds = [0; 2];
    for (i, e) in p.ruleset.events.iter().enumerate() {
        let id = e.name.id.as_str();
        assert_eq!(p.heeded[i], named.contains(id), "{pack}: {id} heeded");
        assert_eq!(p.recorded[i], read.contains(id), "{pack}: {id} recorded");
        kinds[usize::from(p.heeded[i])] += 1;
    }
    assert!(kinds[0] > 0 && kinds[1] > 0, "{pack}: {kinds:?}");
}

/// The events a JSON form of the IR names under the keys `keys` (`{"happened": {"pattern":
/// {"event": …}}}`, `{"cancel": {"event": …}}`, …).
fn events_named(v: &serde_json::Value, keys: &[&str], out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                if keys.contains(&k.as_str()) {
                    let event = x.get("pattern").unwrap_or(x).get("event");
                    out.extend(event.and_then(|e| e.as_str()).map(str::to_string));
                }
                events_named(x, keys, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| events_named(x, keys, out)),
        _ => {}
    }
}

#[test]
fn heeded_events_of_every_game() {
    for pack in [PMV, WS, PM] {
        heeded_events_are_those_named(pack);
    }
}

#[test]
fn pmv_memos_change_nothing() {
    memos_change_nothing(PMV);
}

#[test]
fn ws_memos_change_nothing() {
    memos_change_nothing(WS);
}

#[test]
fn pm_memos_change_nothing() {
    memos_change_nothing(PM);
}

#[test]
fn pmv_random_games() {
    random_games(PMV, GAMES);
}

#[test]
#[ignore = "10,000 games: run with `cargo test --release -- --ignored`"]
fn pmv_ten_thousand_random_games() {
    random_games(PMV, LONG_GAMES);
}

#[test]
fn ws_random_games() {
    random_games(WS, WS_GAMES);
}

#[test]
#[ignore = "10,000 games: run with `cargo test --release -- --ignored`"]
fn ws_ten_thousand_random_games() {
    random_games(WS, LONG_GAMES);
}

#[test]
fn pm_random_games() {
    random_games(PM, PM_GAMES);
}

#[test]
#[ignore = "10,000 games: run with `cargo test --release -- --ignored`"]
fn pm_ten_thousand_random_games() {
    random_games(PM, LONG_GAMES);
}

#[test]
fn pm_zones_hold_after_every_answer() {
    zones_hold_after_every_answer(PM);
}

#[test]
fn pmv_zones_hold_after_every_answer() {
    zones_hold_after_every_answer(PMV);
}

#[test]
fn ws_zones_hold_after_every_answer() {
    zones_hold_after_every_answer(WS);
}

/// Steps a few seeded games of the pack by hand, checking the zones after every answer.
fn zones_hold_after_every_answer(pack: &str) {
    let l = load(pack);
    for seed in 0..STEPPED_GAMES {
        let decks = decks_for(&l, seed);
        let total: usize = decks.iter().map(Vec::len).sum();
        let mut game = Game::new(&l.program, &decks, None, &options(seed));
        assert!(
            zone_problems(&game, total).is_empty(),
            "seed {seed}: before the game"
        );
        let stepped = step_to_end(&mut game, &mut random_agents(seed), |g, n| {
            let problems = zone_problems(g, total);
            assert!(
                problems.is_empty(),
                "seed {seed}, after answer {n}:\n  {}\n  log tail:\n{}",
                problems.join("\n  "),
                log_tail(g, 25)
            );
        });
        assert!(
            stepped.answers > 0,
            "seed {seed}: nobody was asked anything"
        );
        let mut problems = ending_problems(&game, &stepped.outcome);
        problems.extend(stepped.repeated);
        assert!(problems.is_empty(), "seed {seed}: {problems:?}");
    }
}

/// `contains` reads a card's printed texts as the program normalized them once
/// (`Program::normalized_field`): for every definition of the three games, its name, number
/// and text fields are what the ruleset's name normalization (12.3.1) gives, and a field it
/// does not have (or that is no text) gives none. Some of the shipped texts do change under
/// normalization, so a program giving them as printed fails here.
#[test]
fn printed_texts_are_normalized_as_the_ruleset_says() {
    let mut changed = 0;
    for game in ["cards/pmv", "cards/ws", "cards/pm"] {
        let l = support::load(game);
        let prog = &l.program;
        let norm = |t: &str| fuda::ir::normalize::apply(&prog.ruleset.names, t);
        for (def, card) in (0u32..).zip(&prog.cards) {
            let mut texts = vec![
                ("name", card.name.as_str()),
                ("number", card.number.as_str()),
            ];
            for (k, v) in &card.fields {
                if let fuda::ir::Value::Text(t) = v {
                    texts.push((k.as_str(), t.as_str()));
                } else {
                    assert_eq!(prog.normalized_field(def, k), None, "{}: {k}", card.id);
                }
            }
            for (field, text) in texts {
                let want = norm(text);
                changed += usize::from(want != text);
                assert_eq!(
                    prog.normalized_field(def, field),
                    Some(want.as_str()),
                    "{}: {field}",
                    card.id
                );
            }
            assert_eq!(prog.normalized_field(def, "no_such_field"), None);
        }
    }
    assert!(changed > 0, "no shipped text changes under normalization");
}
