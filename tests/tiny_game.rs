//! The engine is game-agnostic: a made-up game written only in fuda (`tests/games/tiny`, "Tiny
//! Garden": its own zones, stat, counter, two-phase turn, window, actions, rule, verbs, a
//! triggered and a continuous ability kind) compiles clean and plays to the end, 1,000 seeded
//! random-vs-random games, with no line of Rust written for it.
//!
//! After every game: it ended (an outcome, no step limit, no loop — the game has no loop by
//! construction, every turn draws a card and every action spends one), every card is in exactly
//! one zone and nothing was created or lost, the outcome is what the ruleset says (a winner has
//! 10 petals or the loser could not draw), and every plant on a bed reads the vigor its
//! continuous and one-shot modifiers give it. Stepping by hand gives the same games as `play`,
//! with the zones checked after every answer. And one set-up position: two triggered
//! abilities of one player waiting at once both resolve, the order asked once.

use crate::support;

use fuda::engine::state::{ModKind, StatOp, Until};
use fuda::engine::{Answer, Game, Outcome, Placement, RequestKind, Seat, Value, ZoneKey};
use std::collections::BTreeMap;
use std::time::Instant;
use support::{
    decks_for, ending_problems, load, log_tail, options, random_agents, step_to_end, zone_problems,
    Loaded,
};

/// The pack.
const PACK: &str = "tests/games/tiny";
/// Games played by `thousand_random_games`.
const GAMES: u64 = 1_000;
/// Games stepped by hand, the zones checked after every answer.
const STEPPED_GAMES: u64 = 100;

/// The tiny game with its two decks (meadow, thicket).
fn tiny() -> Loaded {
    load(PACK)
}

/// A zone's index in the program.
fn zone(l: &Loaded, id: &str) -> u16 {
    *l.program.zones.get(id).unwrap_or_else(|| panic!("{id}"))
}

/// What is wrong with a finished game's result, by the rules of Tiny Garden.
fn rule_problems(game: &mut Game<'_>, l: &Loaded, outcome: &Outcome) -> Vec<String> {
    let mut out = Vec::new();
    let petals = *l.program.counter_index.get("tiny:petals").expect("petals") as usize;
    let pile = zone(l, "tiny:pile");
    let bed = zone(l, "tiny:bed");
    match outcome {
        Outcome::Win(w) => {
            let w = *w as usize;
            let loser = 1 - w;
            let by_petals =
                game.state.players[w].won && game.state.players[w].counters[petals] >= 10;
            let pile_left = game
                .state
                .zone(ZoneKey {
                    zone: pile,
                    owner: loser as Seat,
                })
                .len();
            let by_draw = game.state.players[loser].lost && pile_left == 0;
            if !(by_petals || by_draw) {
                out.push(format!(
                    "p{} won, but has {} petals and p{} lost={} with {pile_left} cards in the pile",
                    w + 1,
                    game.state.players[w].counters[petals],
                    loser + 1,
                    game.state.players[loser].lost
                ));
            }
        }
        Outcome::Draw => out.push(format!("a draw: {:?}", game.notes)),
    }
    // Every plant on a bed reads: base vigor + 1 per Sunflower on its bed − 1 per Nightshade on
    // the other bed when that bed holds 2 or more plants + the one-shot changes still on it,
    // read as 0 below 0. The only one-shot change is Morning Glory's +3 until dusk: it must be
    // on a Morning Glory sown this turn (the turn player's, still fresh), or dusk did not end it.
    let fresh = *l.program.state_index.get("tiny:fresh").expect("fresh");
    let dusk = *l.program.moment_index.get("tiny:dusk").expect("dusk");
    let mut one_shot: BTreeMap<u32, i64> = BTreeMap::new();
    for m in &game.state.modifiers {
        let c = m.card;
        let card = &game.state.cards[c as usize];
        if m.incarnation != card.incarnation {
            continue; // ended by a zone change
        }
        let name = game.card_name(c);
        let ok = name == "Morning Glory"
            && m.until == Until::Moment(dusk)
            && game.state.in_state(c, fresh)
            && card.owner == game.state.active
            && card.zone.zone == bed;
        if !ok {
            out.push(format!(
                "a one-shot modifier outlived its duration or is on the wrong card: {m:?} on {name} ({:?})",
                card.zone
            ));
        }
        if let ModKind::Stat {
            op: StatOp::Add,
            value,
            ..
        } = m.kind
        {
            *one_shot.entry(c).or_default() += value;
        }
    }
    let names = |game: &Game<'_>, owner: Seat| -> Vec<String> {
        game.state
            .zone(ZoneKey { zone: bed, owner })
            .iter()
            .map(|c| game.card_name(*c))
            .collect()
    };
    for owner in 0..2u8 {
        let mine = names(game, owner);
        let theirs = names(game, 1 - owner);
        let sunflowers = mine.iter().filter(|n| *n == "Sunflower").count() as i64;
        let nightshades = if theirs.len() >= 2 {
            theirs.iter().filter(|n| *n == "Nightshade").count() as i64
        } else {
            0
        };
        let cards: Vec<u32> = game.state.zone(ZoneKey { zone: bed, owner }).to_vec();
        for c in cards {
            let def = &l.program.cards[game.state.cards[c as usize].def as usize];
            let Some(fuda::ir::Value::Number(base)) = def.stats.get("tiny:vigor") else {
                out.push(format!("{} has no base vigor", def.name));
                continue;
            };
            let shot = one_shot.get(&c).copied().unwrap_or(0);
            let want = (base + sunflowers - nightshades + shot).max(0);
            let got = game.stat(c, "tiny:vigor");
            if got != Value::Int(want) {
                out.push(format!(
                    "p{}'s {} on the bed reads vigor {got:?}, expected {want} (base {base}, \
                     {sunflowers} Sunflower(s), {nightshades} Nightshade(s) against it, \
                     {shot} from one-shot changes)",
                    owner + 1,
                    def.name
                ));
            }
        }
    }
    out
}

#[test]
fn the_tiny_pack_compiles_clean() {
    let l = tiny();
    assert!(
        l.warnings.is_empty(),
        "warnings:\n{}",
        l.warnings.join("\n")
    );
    assert_eq!(l.program.cards.len(), 8, "eight cards");
    assert_eq!(l.decks.len(), 2, "two decks");
    for (path, cards) in &l.decks {
        assert_eq!(cards.len(), 14, "{path}: 14 cards");
    }
    let r = &l.program.ruleset;
    let phases: Vec<&str> = r.phases.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        phases,
        ["tiny:dawn", "tiny:day"],
        "a turn of exactly two phases"
    );
    assert!(r.zones.iter().any(|z| z.in_play), "a board zone");
    assert_eq!(r.stats.len(), 1, "one stat");
    assert!(r.counters.iter().any(|c| c.on_players), "a player counter");
    assert!(!r.actions.is_empty() && !r.rules.is_empty() && !r.verbs.is_empty());
    let semantics: Vec<fuda::ir::Semantics> = l
        .program
        .cards
        .iter()
        .flat_map(|c| c.abilities.iter().map(|a| a.semantics))
        .collect();
    assert!(semantics.contains(&fuda::ir::Semantics::Triggered));
    assert!(semantics.contains(&fuda::ir::Semantics::Continuous));
}

#[test]
fn thousand_random_games() {
    let l = tiny();
    let start = Instant::now();
    let mut failures: Vec<String> = Vec::new();
    let mut wins = [0u32; 2];
    let mut turns = 0u64;
    let mut endings: BTreeMap<&'static str, u32> = BTreeMap::new();
    for seed in 0..GAMES {
        let decks = decks_for(&l, seed);
        let total: usize = decks.iter().map(Vec::len).sum();
        let mut game = Game::new(&l.program, &decks, None, &options(seed));
        let outcome = game.play(&mut random_agents(seed));
        let mut problems = ending_problems(&game, &outcome);
        problems.extend(zone_problems(&game, total));
        problems.extend(rule_problems(&mut game, &l, &outcome));
        if let Outcome::Win(w) = outcome {
            wins[w as usize] += 1;
            let ending = if game.state.players[w as usize].won {
                "full bloom"
            } else {
                "empty pile"
            };
            *endings.entry(ending).or_default() += 1;
        }
        turns += u64::from(game.state.turn);
        if !problems.is_empty() {
            failures.push(format!(
                "seed {seed}: {outcome:?}\n  {}\n  log tail:\n{}",
                problems.join("\n  "),
                log_tail(&game, 25)
            ));
        }
    }
    println!(
        "{GAMES} games in {:.2?}: p1 {} wins, p2 {} wins, endings {endings:?}, {:.1} turns a game",
        start.elapsed(),
        wins[0],
        wins[1],
        turns as f64 / GAMES as f64
    );
    assert!(
        failures.is_empty(),
        "{} of {GAMES} games went wrong; the first 5:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    // The game is a game: both seats win sometimes, and by both of the ruleset's endings.
    assert!(wins[0] > 0 && wins[1] > 0, "wins {wins:?}");
    assert!(endings.len() == 2, "endings {endings:?}");
}

/// Stepping by hand gives the same game as `play`, and the zones hold after every answer.
#[test]
fn stepped_games_keep_their_zones_and_match_play() {
    let l = tiny();
    for seed in 0..STEPPED_GAMES {
        let decks = decks_for(&l, seed);
        let total: usize = decks.iter().map(Vec::len).sum();
        let mut game = Game::new(&l.program, &decks, None, &options(seed));
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
            stepped.repeated.is_empty(),
            "seed {seed}: {}",
            stepped.repeated.join("\n")
        );
        let mut played = Game::new(&l.program, &decks, None, &options(seed));
        let again = played.play(&mut random_agents(seed));
        assert_eq!(
            stepped.outcome, again,
            "seed {seed}: stepping and play disagree"
        );
        let texts = |g: &Game<'_>| g.log().iter().map(|e| e.text.clone()).collect::<Vec<_>>();
        assert_eq!(
            texts(&game),
            texts(&played),
            "seed {seed}: stepping and play logged different games"
        );
    }
}

/// A day-phase game of p1's turn 3 with these cards (name, owner, zone), stepped to p1's first
/// window, where p1 sows `sown` from the palm.
fn sow_among<'p>(
    p: &'p fuda::engine::Program,
    cards: &[(&str, Seat, &str)],
    sown: &str,
) -> Game<'p> {
    let def = |name: &str| {
        p.cards
            .iter()
            .position(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name}")) as u32
    };
    let placements: Vec<Placement> = cards
        .iter()
        .map(|(name, owner, zone)| Placement {
            def: def(name),
            owner: *owner,
            zone: ZoneKey {
                zone: *p.zones.get(zone).expect("zone"),
                owner: *owner,
            },
            states: Vec::new(),
            counters: Vec::new(),
            face_up: None,
            host: None,
            slot: None,
        })
        .collect();
    let day = p.phase_index.get("tiny:day").copied();
    let mut game = Game::from_placements(p, &placements, 3, 0, day, false, &options(1));
    let req = game.step().expect("p1's window");
    assert_eq!(req.kind, RequestKind::Action, "{req:?}");
    let label = format!("sow {sown}");
    let sow = req
        .options
        .iter()
        .position(|o| o.label == label)
        .unwrap_or_else(|| panic!("no `{label}` in {:?}", req.options));
    assert!(game.answer(&req, Answer::Pick(sow)));
    game
}

/// Two triggered abilities of one player waiting at once: both resolve. (Two Honeybees on
/// p1's bed, p1 sows a Clover: each Honeybee gives a petal.) The two are alike — the same
/// ability of two copies, for the same event — so their order is no choice and is not asked.
#[test]
fn two_alike_triggers_of_one_player_both_resolve_unasked() {
    let l = tiny();
    let p = &l.program;
    let cards = [
        ("Honeybee", 0, "tiny:bed"),
        ("Honeybee", 0, "tiny:bed"),
        ("Clover", 0, "tiny:palm"),
        ("Clover", 0, "tiny:pile"),
        ("Clover", 1, "tiny:pile"),
    ];
    let mut game = sow_among(p, &cards, "Clover");
    let petals = *p.counter_index.get("tiny:petals").expect("petals") as usize;
    let next = game.step().expect("p1's window again");
    assert_eq!(
        next.kind,
        RequestKind::Action,
        "alike triggers are not ordered by a question: {next:?}"
    );
    assert_eq!(
        game.state.players[0].counters[petals],
        2,
        "both Honeybees give a petal\n{}",
        log_tail(&game, 12)
    );
    assert!(game.notes.is_empty(), "{:?}", game.notes);
}

/// Two different triggered abilities of one player waiting at once: the player picks the one
/// to resolve first, once, and both resolve. (A Honeybee on p1's bed, p1 sows a Dandelion: the
/// Honeybee gives a petal, the Dandelion draws a card.)
#[test]
fn two_different_triggers_of_one_player_are_ordered_once() {
    let l = tiny();
    let p = &l.program;
    let cards = [
        ("Honeybee", 0, "tiny:bed"),
        ("Dandelion", 0, "tiny:palm"),
        ("Clover", 0, "tiny:pile"),
        ("Clover", 0, "tiny:pile"),
        ("Clover", 1, "tiny:pile"),
    ];
    let mut game = sow_among(p, &cards, "Dandelion");
    let petals = *p.counter_index.get("tiny:petals").expect("petals") as usize;
    let order = game.step().expect("the order of the two triggers");
    assert_eq!(order.kind, RequestKind::OneOf, "{order:?}");
    assert_eq!(order.options.len(), 2, "{order:?}");
    assert!(game.answer(&order, Answer::Pick(0)));
    let next = game.step().expect("p1's window again");
    assert_ne!(
        next,
        order,
        "the order of the triggers is asked again after it was answered (the answer was lost); \n\
         log tail:\n{}",
        log_tail(&game, 12)
    );
    assert_eq!(next.kind, RequestKind::Action, "{next:?}");
    assert_eq!(
        game.state.players[0].counters[petals],
        1,
        "the Honeybee gives a petal\n{}",
        log_tail(&game, 12)
    );
    assert!(
        game.log()
            .iter()
            .any(|e| e.text.starts_with("Dandelion triggers")),
        "the Dandelion's trigger resolves\n{}",
        log_tail(&game, 12)
    );
    assert!(game.notes.is_empty(), "{:?}", game.notes);
}

/// The engine refuses IR beyond its fixed-size integers (`ir::MAX_*`), whatever produced it:
/// the checker reports such a ruleset first (`tests/errors/ruleset_too_many_*.fuda`), and an IR
/// that skipped the checker is an error from `Program::new`, never a wrapped index or a shift
/// that overflows.
#[test]
fn the_program_refuses_ir_beyond_the_engine_capacities() {
    use fuda::engine::Program;
    use fuda::ir::{self, Labelled, StateGroup};
    let mut session = fuda::packs::Session::new();
    session.check_path(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PACK));
    session.finish();
    let pack = session.packs.last().expect("the tiny pack").pack.clone();
    assert!(Program::new(&[&pack]).is_ok());
    fn flag(i: usize) -> Labelled {
        Labelled::new(format!("tiny:flag{i}").into(), None)
    }
    type Grow = fn(&mut ir::Ruleset);
    let beyond: [(&str, Grow); 3] = [
        ("states", |r| {
            r.states
                .extend((0..ir::MAX_STATE_VALUES).map(|i| StateGroup {
                    name: flag(i),
                    members: Vec::new(),
                }))
        }),
        ("players", |r| r.players = ir::MAX_PLAYERS as u32 + 1),
        ("phases", |r| {
            r.phases
                .extend((0..=ir::MAX_INDEXED_DECLARATIONS).map(flag))
        }),
    ];
    for (what, grow) in beyond {
        let mut p = pack.clone();
        grow(p.ruleset.as_mut().expect("the tiny ruleset"));
        let err = Program::new(&[&p]).err();
        assert!(
            err.as_deref().is_some_and(|e| e.contains(what)),
            "{what}: {err:?}"
        );
    }
}
