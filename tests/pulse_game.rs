//! Interrupt rules and `once` windows under any agent: a made-up game written only in fuda
//! (`tests/games/pulse`, "Pulse": an interrupt rule renews an empty stack from the heap, another
//! empties a full tray into the heap; its turn has a plain window, a `once` window and a `once`
//! chain window) plays to the end, seeded random-vs-random and first-legal games, with no line
//! of Rust written for it. Its scenarios (`tests/games/pulse/scenarios`) pin each rule down;
//! this file checks that agents need nothing new.
//!
//! After every answer: no player's stack is empty while their heap holds cards, and no tray
//! holds 3 cards (the interrupt rules ran before anyone was asked anything — at the latest in
//! the check timing before a window's priority; that they run right after each change is the
//! scenarios' job); every card is in exactly one zone. After every game: it ended (an outcome,
//! no step limit, no loop), and in every `once` window each player took at most one entry.

use crate::support;

use fuda::engine::{Agent, FirstLegalAgent, Game, Outcome, Seat, ZoneKey};
use support::{
    decks_for, ending_problems, load, log_tail, options, random_agents, step_to_end, zone_problems,
    Loaded,
};

/// The pack.
const PACK: &str = "tests/games/pulse";
/// Games played with random agents.
const RANDOM_GAMES: u64 = 200;
/// Games played with first-legal agents (each seed deals the decks to other seats).
const FIRST_LEGAL_GAMES: u64 = 2;

/// A zone's index in the program.
fn zone(l: &Loaded, id: &str) -> u16 {
    *l.program.zones.get(id).unwrap_or_else(|| panic!("{id}"))
}

/// What the interrupt rules should have made impossible at a decision: a stack empty while its
/// heap holds cards (renew), a tray of 3 cards or more (overflow).
fn interrupt_problems(game: &Game<'_>, l: &Loaded) -> Vec<String> {
    let count = |zone: u16, owner: Seat| game.state.zone(ZoneKey { zone, owner }).len();
    let (stack, heap, tray) = (
        zone(l, "pulse:stack"),
        zone(l, "pulse:heap"),
        zone(l, "pulse:tray"),
    );
    let mut out = Vec::new();
    for p in 0..2u8 {
        if count(stack, p) == 0 && count(heap, p) > 0 {
            out.push(format!(
                "p{}'s stack is empty and their heap holds {} cards",
                p + 1,
                count(heap, p)
            ));
        }
        if count(tray, p) >= 3 {
            out.push(format!("p{}'s tray holds {} cards", p + 1, count(tray, p)));
        }
    }
    out
}

/// The `once` windows (phases `duel` and `answer`) in which a player took two entries.
fn once_problems(game: &Game<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut once_phase = false;
    let mut took = [0u32; 2];
    for e in game.log() {
        if e.kind == "phase" {
            once_phase = e.text == "phase duel" || e.text == "phase answer";
            took = [0, 0];
        } else if once_phase && e.kind == "action" {
            let seat = usize::from(e.text.starts_with("p2"));
            took[seat] += 1;
            if took[seat] == 2 {
                out.push(format!(
                    "turn {}: a second entry in a once window: {}",
                    e.turn, e.text
                ));
            }
        }
    }
    out
}

/// Plays one game by hand with `agents`, checking the zones and the interrupt rules' work after
/// every answer; what went wrong, if anything.
fn play_checked(l: &Loaded, seed: u64, agents: &mut [Box<dyn Agent>]) -> Option<String> {
    let decks = decks_for(l, seed);
    let total: usize = decks.iter().map(Vec::len).sum();
    let mut game = Game::new(&l.program, &decks, None, &options(seed));
    let mut problems = Vec::new();
    let stepped = step_to_end(&mut game, agents, |g, n| {
        for p in zone_problems(g, total)
            .into_iter()
            .chain(interrupt_problems(g, l))
        {
            problems.push(format!("after answer {n}: {p}"));
        }
    });
    problems.extend(ending_problems(&game, &stepped.outcome));
    problems.extend(once_problems(&game));
    problems.extend(stepped.repeated);
    if let Outcome::Draw = stepped.outcome {
        problems.push(format!("a draw: {:?}", game.notes));
    }
    (!problems.is_empty()).then(|| {
        format!(
            "seed {seed}: {:?}\n  {}\n  log tail:\n{}",
            stepped.outcome,
            problems.join("\n  "),
            log_tail(&game, 25)
        )
    })
}

#[test]
fn random_games_keep_the_interrupt_rules_and_once_windows() {
    let l = load(PACK);
    let failures: Vec<String> = (0..RANDOM_GAMES)
        .filter_map(|seed| play_checked(&l, seed, &mut random_agents(seed)))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {RANDOM_GAMES} games went wrong; the first 3:\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n\n")
    );
}

#[test]
fn first_legal_games_keep_the_interrupt_rules_and_once_windows() {
    let l = load(PACK);
    for seed in 0..FIRST_LEGAL_GAMES {
        let mut agents: Vec<Box<dyn Agent>> =
            vec![Box::new(FirstLegalAgent), Box::new(FirstLegalAgent)];
        if let Some(f) = play_checked(&l, seed, &mut agents) {
            panic!("{f}");
        }
    }
}
