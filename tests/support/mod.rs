//! Shared by the engine tests (`tests/tiny_game.rs`, `tests/engine_invariants.rs`): loading a
//! pack and its decks through `Session`, and the invariants every game state must keep.

#![allow(dead_code)]

use fuda::base::diagnostic::{render, RenderOptions};
use fuda::engine::{
    Agent, CardId, FirstLegalAgent, Game, Options, Outcome, Program, RandomAgent, Request, ZoneKey,
};
use fuda::packs::Session;
use std::path::Path;

/// A game's program and its checked decks (card definition indices, one per copy), with the
/// decks' file names.
pub struct Loaded {
    pub program: Program,
    pub decks: Vec<(String, Vec<u32>)>,
    /// Warnings the session reported (rendered).
    pub warnings: Vec<String>,
}

/// Compiles the pack folder at `path` (and the decks in its `decks/` folder) with `Session`
/// (`check_path` + `finish`), asserts that nothing is wrong, and builds the program.
pub fn load(path: &str) -> Loaded {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut session = Session::new();
    session.check_path(&root.join(path));
    session.finish();
    let errors: Vec<String> = session
        .diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| render(d, &session.sources, RenderOptions::plain()))
        .collect();
    assert!(
        errors.is_empty(),
        "{path} has errors:\n{}",
        errors.join("\n")
    );
    let warnings: Vec<String> = session
        .diags
        .iter()
        .filter(|d| !d.is_error())
        .map(|d| render(d, &session.sources, RenderOptions::plain()))
        .collect();
    let game = session
        .packs
        .last()
        .expect("the pack compiled")
        .pack
        .game
        .clone();
    let packs: Vec<&fuda::ir::Pack> = session
        .packs
        .iter()
        .map(|c| &c.pack)
        .filter(|p| p.game == game)
        .collect();
    let program = Program::new(&packs).expect("a program");
    let mut decks: Vec<(String, Vec<u32>)> = session
        .decks
        .iter()
        .map(|d| {
            let cards = d
                .cards()
                .iter()
                .map(|id| {
                    *program
                        .card_index
                        .get(id)
                        .unwrap_or_else(|| panic!("card `{id}` of {} is not loaded", d.path))
                })
                .collect();
            (d.path.clone(), cards)
        })
        .collect();
    decks.sort();
    assert!(
        decks.len() >= 2,
        "{path}: expected at least two checked decks, found {}",
        decks.len()
    );
    Loaded {
        program,
        decks,
        warnings,
    }
}

/// Every card is in exactly one zone list, and that list is the one its `zone` names; the
/// number of cards is `expected` (nothing created or lost). Returns what is wrong.
pub fn zone_problems(game: &Game<'_>, expected: usize) -> Vec<String> {
    let state = &game.state;
    let mut out = Vec::new();
    if state.cards.len() != expected {
        out.push(format!(
            "{} cards in the game, the decks hold {expected}",
            state.cards.len()
        ));
    }
    let players = state.players.len();
    let zones = game.prog.ruleset.zones.len();
    if state.zones.len() != zones.max(1) * players {
        out.push(format!(
            "{} zone lists for {zones} zones and {players} players",
            state.zones.len()
        ));
    }
    let mut seen: Vec<Vec<usize>> = vec![Vec::new(); state.cards.len()];
    for (slot, list) in state.zones.iter().enumerate() {
        for &c in list {
            match seen.get_mut(c as usize) {
                Some(s) => s.push(slot),
                None => out.push(format!(
                    "zone list {slot} holds card {c}, which does not exist"
                )),
            }
        }
    }
    for (c, slots) in seen.iter().enumerate() {
        let card = &state.cards[c];
        let key: ZoneKey = card.zone;
        let name = game.card_name(c as CardId);
        if slots.len() != 1 {
            out.push(format!(
                "card {c} ({name}) is in {} zone lists ({slots:?}); its zone is {key:?}",
                slots.len()
            ));
            continue;
        }
        if (key.owner as usize) >= players || (key.zone as usize) >= zones {
            out.push(format!("card {c} ({name}) has no such zone: {key:?}"));
            continue;
        }
        if slots[0] != state.slot(key) {
            out.push(format!(
                "card {c} ({name}) is listed in zone list {} but its zone is {key:?} (list {})",
                slots[0],
                state.slot(key)
            ));
        }
    }
    out.extend(slot_problems(game));
    out
}

/// What is wrong with the slots of a game's zones: in a zone that declares slots, every card
/// has one of the zone's slots and no two cards share one; in a zone without slots no card has
/// a slot.
fn slot_problems(game: &Game<'_>) -> Vec<String> {
    let state = &game.state;
    let mut out = Vec::new();
    for (list, cards) in state.zones.iter().enumerate() {
        let Some(&first) = cards.first() else {
            continue;
        };
        let zone = &game.prog.ruleset.zones[state.cards[first as usize].zone.zone as usize];
        let mut taken: Vec<&str> = Vec::new();
        for &c in cards {
            let name = game.card_name(c);
            match (&state.cards[c as usize].slot, zone.slots.is_empty()) {
                (Some(s), true) => out.push(format!(
                    "card {c} ({name}) has slot {s} in zone list {list}, whose zone has no slots"
                )),
                (None, false) => {
                    out.push(format!("card {c} ({name}) has no slot in zone list {list}"))
                }
                (Some(s), false) if !zone.slots.contains(s) => out.push(format!(
                    "card {c} ({name}) has slot {s}, not a slot of zone list {list}"
                )),
                (Some(s), false) if taken.contains(&s.as_str()) => out.push(format!(
                    "card {c} ({name}) shares slot {s} of zone list {list} with another card"
                )),
                (Some(s), false) => taken.push(s),
                (None, true) => {}
            }
        }
    }
    out
}

/// What is wrong with a game that `play` (or stepping) has finished: no outcome, a step-limit
/// ending, or an ending by the step limit without a note.
pub fn ending_problems(game: &Game<'_>, outcome: &Outcome) -> Vec<String> {
    let mut out = Vec::new();
    if game.outcome() != Some(outcome) {
        out.push(format!(
            "play returned {outcome:?} but the state's outcome is {:?}",
            game.outcome()
        ));
    }
    if let Some(n) = game.notes.iter().find(|n| n.contains("step limit")) {
        out.push(format!("ended by the step limit: {n}"));
    }
    if game.steps() > game_max_steps() && game.notes.is_empty() {
        out.push("ran past the step limit without a note".into());
    }
    out
}

/// The step limit the tests play with.
pub fn game_max_steps() -> u64 {
    2_000_000
}

/// Two random agents for a seeded game.
pub fn random_agents(seed: u64) -> Vec<Box<dyn Agent>> {
    vec![
        Box::new(RandomAgent::new(seed, 0)),
        Box::new(RandomAgent::new(seed, 1)),
    ]
}

/// The last `n` lines of a game's log, for failure messages; a line repeated in a row is shown
/// once with its count.
pub fn log_tail(game: &Game<'_>, n: usize) -> String {
    let mut runs: Vec<(String, usize)> = Vec::new();
    for e in game.log() {
        let line = format!("  [{}] {}: {}", e.turn, e.kind, e.text);
        match runs.last_mut() {
            Some((last, count)) if *last == line => *count += 1,
            _ => runs.push((line, 1)),
        }
    }
    runs[runs.len().saturating_sub(n)..]
        .iter()
        .map(|(line, count)| match count {
            1 => line.clone(),
            _ => format!("{line}   (×{count} in a row)"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// How a game stepped by hand went.
pub struct Stepped {
    /// The outcome (`Draw` when none).
    pub outcome: Outcome,
    /// Answers given.
    pub answers: usize,
    /// Questions asked again and again with nothing happening in between (an answer the
    /// engine lost), described once each.
    pub repeated: Vec<String>,
}

/// The same question asked this many times in a row, with nothing logged between an answer and
/// the next question, is a lost answer rather than a game.
pub const REPEATS: usize = 50;

/// Plays a game to its end by hand, as `Game::play` does (an answer that does not fit falls
/// back to the first legal one), calling `after` after every answer, and watching for
/// questions asked again with nothing happening in between.
pub fn step_to_end(
    game: &mut Game<'_>,
    agents: &mut [Box<dyn Agent>],
    mut after: impl FnMut(&Game<'_>, usize),
) -> Stepped {
    let mut answers = 0;
    let mut repeated = Vec::new();
    let mut last: Option<(Request, usize)> = None;
    let mut streak = 0;
    while let Some(req) = game.step() {
        match &last {
            Some((prev, log_len)) if *prev == req && game.log().len() == *log_len => {
                streak += 1;
                if streak == REPEATS {
                    repeated.push(format!(
                        "after answer {answers}, `{}` ({:?}, p{}) was asked {REPEATS} times in a \
                         row with nothing happening in between:\n{}",
                        req.prompt,
                        req.kind,
                        req.player + 1,
                        log_tail(game, 8)
                    ));
                }
            }
            _ => streak = 0,
        }
        let mut answer = agents[req.player as usize].decide(&game.view(req.player), &req);
        if !req.accepts(&answer) {
            answer = FirstLegalAgent.decide(&game.view(req.player), &req);
        }
        assert!(
            game.answer(&req, answer.clone()),
            "the game refused {answer:?} to {req:?}"
        );
        answers += 1;
        last = Some((req, game.log().len()));
        after(game, answers);
    }
    Stepped {
        outcome: game.outcome().cloned().unwrap_or(Outcome::Draw),
        answers,
        repeated,
    }
}

/// Game options with a seed and the tests' step limit.
pub fn options(seed: u64) -> Options {
    Options {
        seed,
        max_steps: game_max_steps(),
        deck_format: None,
    }
}

/// Seat 0 plays the first deck on even seeds, the second on odd ones.
pub fn decks_for(l: &Loaded, seed: u64) -> Vec<Vec<u32>> {
    let (a, b) = (l.decks[0].1.clone(), l.decks[1].1.clone());
    if seed.is_multiple_of(2) {
        vec![a, b]
    } else {
        vec![b, a]
    }
}

/// Runs the `fuda` binary (no compiled-pack cache, no colours): its exit code, stdout and
/// stderr.
pub fn run_fuda(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fuda"))
        .args(args)
        .env("FUDA_NO_CACHE", "1")
        .env("NO_COLOR", "1")
        .output()
        .expect("run fuda");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A request of `kind` for seat 0 with this prompt, one option per label (no card, no action):
/// what the tests of a person's answers ask.
pub fn labelled_request(
    kind: fuda::engine::RequestKind,
    prompt: &str,
    labels: &[&str],
) -> fuda::engine::Request {
    fuda::engine::Request {
        player: 0,
        kind,
        prompt: prompt.into(),
        options: labels
            .iter()
            .map(|l| fuda::engine::Choice {
                label: l.to_string(),
                action: None,
                card: None,
                card_id: None,
            })
            .collect(),
    }
}
