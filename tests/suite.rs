//! The integration tests, as one test binary: one link step instead of one per file (CI has two
//! cores). Each file under `tests/` stays a module of its own, with its own doc saying what it
//! proves (ARCHITECTURE.md, "Tests"); `support` is shared by the engine tests. Run one with a
//! filter: `cargo test --test suite scenarios::`.

// A test may unwrap, and may spell out a long structure assertion by assertion; the library
// keeps both rules (Cargo.toml's lints).
#![allow(clippy::unwrap_used, clippy::too_many_lines)]

mod support;

#[path = "cards.rs"]
mod cards;
#[path = "cli.rs"]
mod cli;
#[path = "decks.rs"]
mod decks;
#[path = "diagnostics.rs"]
mod diagnostics;
#[path = "engine_invariants.rs"]
mod engine_invariants;
#[path = "format.rs"]
mod format;
#[path = "hidden_info.rs"]
mod hidden_info;
#[path = "hostile.rs"]
mod hostile;
#[path = "layering.rs"]
mod layering;
#[path = "loops.rs"]
mod loops;
#[path = "lsp.rs"]
mod lsp;
#[path = "no_game_words.rs"]
mod no_game_words;
#[path = "packs.rs"]
mod packs;
#[path = "play_terminal.rs"]
mod play_terminal;
#[path = "proof.rs"]
mod proof;
#[path = "properties.rs"]
mod properties;
#[path = "pulse_game.rs"]
mod pulse_game;
#[path = "render.rs"]
mod render;
#[path = "scenario_format.rs"]
mod scenario_format;
#[path = "scenarios.rs"]
mod scenarios;
#[path = "scripts.rs"]
mod scripts;
#[path = "sim.rs"]
mod sim;
#[path = "sim_balance.rs"]
mod sim_balance;
#[path = "slots.rs"]
mod slots;
#[path = "threads.rs"]
mod threads;
#[path = "tiny_game.rs"]
mod tiny_game;
#[path = "typos.rs"]
mod typos;
#[path = "vscode.rs"]
mod vscode;
#[path = "words.rs"]
mod words;
