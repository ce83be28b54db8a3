//! Avoidable loops (PMV 12.10.2, docs/engine.md "Loops") end: PMV games whose decks hold
//! 気まぐれな妖精 (a 0-cost character that returns itself to the hand for nothing) are played
//! - by agents that make the loop whenever they can (play it, return it, play it again …):
//!   the engine finds the loop, the players name a count, and then the loop must be left, so
//!   the games end with no step-limit draw (without loop handling they never would);
//! - by seeded random agents, who also name random counts: the games end the same way.

use crate::support;

use fuda::engine::{
    Agent, Answer, FirstLegalAgent, Game, Options, PlayerView, Request, RequestKind,
};
use support::{decks_for, ending_problems, load, log_tail, random_agents, step_to_end, Loaded};

/// The card that makes the loop.
const LOOPER: &str = "気まぐれな妖精";
/// Copies of it put in each deck (in place of the deck's first cards).
const COPIES: usize = 4;
/// A step limit well above what these games need.
const MAX_STEPS: u64 = 300_000;

/// An agent that makes the loop: it takes any action naming the looping card, names 2 more
/// repetitions (or accepts), and otherwise passes or answers as the first legal agent.
struct Looper;

impl Agent for Looper {
    fn decide(&mut self, view: &PlayerView<'_>, r: &Request) -> Answer {
        match r.kind {
            RequestKind::Action => Answer::Pick(
                r.options
                    .iter()
                    .position(|o| o.label.contains(LOOPER))
                    .unwrap_or(r.options.len().saturating_sub(1)),
            ),
            RequestKind::Repeat { max } => Answer::Pick(max.min(2)),
            _ => FirstLegalAgent.decide(view, r),
        }
    }
}

/// The PMV decks with the looping card in them.
fn looping_decks(l: &Loaded, seed: u64) -> Vec<Vec<u32>> {
    let def = l
        .program
        .cards
        .iter()
        .position(|c| c.name == LOOPER)
        .expect("the looping card") as u32;
    let mut decks = decks_for(l, seed);
    for d in &mut decks {
        for c in d.iter_mut().take(COPIES) {
            *c = def;
        }
    }
    decks
}

/// Plays one game; its problems, if any, and how many loops were found in it.
fn play(l: &Loaded, seed: u64, agents: &mut [Box<dyn Agent>]) -> (Vec<String>, usize) {
    let decks = looping_decks(l, seed);
    let options = Options {
        seed,
        max_steps: MAX_STEPS,
        deck_format: None,
    };
    let mut game = Game::new(&l.program, &decks, None, &options);
    let stepped = step_to_end(&mut game, agents, |_, _| {});
    let mut problems = ending_problems(&game, &stepped.outcome);
    problems.extend(stepped.repeated);
    if !problems.is_empty() {
        problems.push(log_tail(&game, 12));
    }
    let loops = game
        .log()
        .iter()
        .filter(|e| e.kind == "loop" && e.text.ends_with("a loop (12.10.2)"))
        .count();
    (problems, loops)
}

#[test]
fn loopers_leave_their_loops_and_games_end() {
    let l = load("cards/pmv");
    for seed in 0..4 {
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(Looper), Box::new(Looper)];
        let (problems, loops) = play(&l, seed, &mut agents);
        assert!(problems.is_empty(), "seed {seed}: {}", problems.join("\n"));
        assert!(loops > 0, "seed {seed}: no loop was found");
    }
}

#[test]
fn random_games_with_a_looping_card_end() {
    let l = load("cards/pmv");
    let mut loops = 0;
    for seed in 0..30 {
        let (problems, found) = play(&l, seed, &mut random_agents(seed));
        assert!(problems.is_empty(), "seed {seed}: {}", problems.join("\n"));
        loops += found;
    }
    assert!(
        loops > 0,
        "no random game made a loop: the test tests nothing"
    );
}
