//! Random PMV games with the shipped decks, for profiling the engine under callgrind or perf
//! without `fuda sim`'s threads and summary: `cargo run --release --example randgame -- SEED
//! GAMES` (one game prints its whole log).

use fuda::engine::{Agent, Game, Options, RandomAgent};
use fuda::packs::Session;
use std::path::Path;

fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let games: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut s = Session::new();
    s.check_path(Path::new("cards/pmv"));
    s.finish();
    let prog = s.program("pmv").expect("the shipped PMV pack compiles");
    let decks: Vec<Vec<u32>> = s
        .decks
        .iter()
        .map(|d| d.cards().iter().map(|id| prog.card_index[id]).collect())
        .collect();
    let start = std::time::Instant::now();
    let mut turns = 0;
    for g in 0..games {
        let mut game = Game::new(
            &prog,
            &decks,
            None,
            &Options {
                seed: seed + g,
                max_steps: 2_000_000,
                deck_format: None,
            },
        );
        let mut agents: Vec<Box<dyn Agent>> = vec![
            Box::new(RandomAgent::new(seed + g, 0)),
            Box::new(RandomAgent::new(seed + g, 1)),
        ];
        let o = game.play(&mut agents);
        turns += game.state.turn;
        if games == 1 {
            for e in game.log() {
                println!("{}", e.text);
            }
        }
        if !game.notes.is_empty() {
            println!("game {g}: {:?} notes {:?}", o, game.notes);
        }
    }
    eprintln!(
        "{games} games, {} turns avg, {:?}",
        turns as f64 / games as f64,
        start.elapsed()
    );
}
