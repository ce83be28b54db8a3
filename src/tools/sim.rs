//! `fuda sim`: many seeded games between two decks, random agents on both seats, spread over
//! threads, summed up as win rates, game lengths and per-card statistics.
//!
//! Everything here is deterministic: game `i` is seeded with [`game_seed`]`(seed, i)`, every
//! game's result is stored at its index, and the results are summed in index order, so the same
//! seed gives the same [`Summary`] (and the same bytes of output) whatever the thread count.
//! Nothing game-specific is known here: "played" is defined from the ruleset's declarations
//! (an action taken with a card that is not in an `in_play` zone), see [`CardStats`].

use crate::engine::{
    decide_or_first_legal, Answer, Game, Options, Outcome, Program, RandomAgent, RequestKind, Seat,
};
use crate::packs::session::Session;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Most notes (why games went wrong) and crash groups a summary lists; the rest of the notes are
/// counted in `notes_omitted`.
pub const MAX_NOTES: usize = 20;
/// Crashed games listed per panic message.
pub const MAX_CRASH_GAMES: usize = 5;

/// A deck ready to play: its display path and one card definition index per copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimDeck {
    /// The deck file as shown to the user.
    pub path: String,
    /// Card definition indices into [`Program::cards`], one per copy, in file order.
    pub cards: Vec<u32>,
}

/// A game's program and the decks to play it with, as [`load_game`] found them.
#[derive(Debug)]
pub struct Loaded {
    /// The game's program (its packs indexed).
    pub program: Program,
    /// The decks, in the order given.
    pub decks: Vec<SimDeck>,
    /// The game's id (`pmv`).
    pub game: String,
}

/// Loads a game and decks for `play` and `sim`: `game` is a pack name (`pmv`: found on disk
/// under `cards/` or among the games embedded in the binary) or a pack folder or file (its
/// game is then the pack's game, and every loaded pack of that game is in the program).
/// Diagnostics go to the session (the caller prints them); `Err` says what went wrong (no
/// such game, a pack or deck with errors, a game for another number of players than decks).
pub fn load_game(session: &mut Session, game: &str, decks: &[PathBuf]) -> Result<Loaded, String> {
    session.skip_decks = true;
    let result = load_inner(session, game, decks);
    session.finish();
    result
}

fn load_inner(session: &mut Session, game: &str, decks: &[PathBuf]) -> Result<Loaded, String> {
    let as_path = Path::new(game);
    let game_id = if as_path.exists() {
        session.check_path(as_path);
        match session.packs.last() {
            Some(p) => p.pack.game.clone(),
            None => return Err(format!("`{game}` holds no pack that compiles")),
        }
    } else {
        game.to_string()
    };
    let program = session.program(&game_id)?;
    let mut loaded = Vec::new();
    let mut failed = Vec::new();
    for path in decks {
        let Some(deck) = session.load_deck(path, &game_id) else {
            failed.push(crate::packs::manifest::display(path));
            continue;
        };
        let mut cards = Vec::with_capacity(deck.size());
        for id in deck.cards() {
            match program.card_index.get(&id) {
                Some(&i) => cards.push(i),
                None => return Err(format!("card `{id}` of `{}` is not loaded", deck.path)),
            }
        }
        loaded.push(SimDeck {
            path: deck.path,
            cards,
        });
    }
    if !failed.is_empty() {
        return Err(format!("deck(s) with errors: {}", failed.join(", ")));
    }
    let players = program.players();
    if loaded.len() != players {
        return Err(format!(
            "the game `{game_id}` is for {players} player{}, and {} deck{} were given",
            if players == 1 { "" } else { "s" },
            loaded.len(),
            if loaded.len() == 1 { "" } else { "s" },
        ));
    }
    Ok(Loaded {
        program,
        decks: loaded,
        game: game_id,
    })
}

/// How to run a simulation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimConfig {
    /// How many games.
    pub games: usize,
    /// Worker threads (at least 1). It changes the speed, never the results.
    pub threads: usize,
    /// The base seed: game `i` is seeded with [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// Statements a game may run before it is stopped as a draw.
    pub max_steps: u64,
    /// The deck format the games are played in (`deck_format()`); `None`: none.
    pub deck_format: Option<String>,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            games: 100,
            threads: 1,
            seed: 0,
            max_steps: Options::default().max_steps,
            deck_format: None,
        }
    }
}

/// The seed of game `game` of a simulation seeded with `seed`: splitmix64 of
/// `seed + game × 0x9E3779B97F4A7C15`. Public so that one game of a run can be replayed
/// (`fuda play … --seed <it> --p1 random --p2 random`).
pub fn game_seed(seed: u64, game: usize) -> u64 {
    let mut z = seed.wrapping_add((game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One action or activated ability taken with a card during a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardAction {
    /// The card's definition index.
    pub card: u32,
    /// Its owner's seat.
    pub owner: Seat,
    /// The action's or ability kind's short name (`deploy`, `raid`, `activated`).
    pub action: String,
    /// Whether it counts as playing the card: a ruleset action (not an ability) taken while
    /// the card was in a zone that is not `in_play`.
    pub played: bool,
}

/// What one game of a simulation gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// The game's number (from 0).
    pub game: usize,
    /// Its seed.
    pub seed: u64,
    /// For each seat, the index of the deck it played (game `i` even: deck A is p1).
    pub decks: Vec<usize>,
    /// The winning seat; `None` for a draw.
    pub winner: Option<Seat>,
    /// Turns played (the last turn's number).
    pub turns: u32,
    /// Statements run.
    pub steps: u64,
    /// Whether it was stopped at the step limit.
    pub step_limit: bool,
    /// Whether it ended because a request had no legal answer (a seat conceded): an engine or
    /// ruleset problem worth a look.
    pub stuck: bool,
    /// Every action and activated ability taken with a card, in order.
    pub actions: Vec<CardAction>,
    /// The engine's notes (loops, the step limit, rule errors).
    pub notes: Vec<String>,
    /// The engine panicked: the panic's message (with its place when [`record_panics`] is
    /// on). The other fields then hold nothing of the game.
    pub crashed: Option<String>,
}

thread_local! {
    /// The last panic on this thread, as [`record_panics`]' hook saw it.
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Installs a panic hook that keeps a panic's message and place (for the game it happened in:
/// see [`GameResult::crashed`]) instead of printing it. The command line turns it on while it
/// simulates (a panic is then one line of the summary, not noise over the progress bar) and
/// restores the default hook with [`std::panic::take_hook`] afterwards.
pub fn record_panics() {
    std::panic::set_hook(Box::new(|info| {
        let text = info.to_string().replace('\n', " ");
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(text));
    }));
}

/// Plays game number `game` of a simulation: the decks' seats alternate (even games deck 0 is
/// p1, odd games deck 1 is), the seed is [`game_seed`], and both seats are
/// [`RandomAgent`]s seeded with it (falling back to [`FirstLegalAgent`] for an answer that does
/// not fit). A request that no agent can answer ends the game by conceding (`stuck`).
/// An engine panic does not end the simulation: the game is recorded as crashed.
pub fn run_game(prog: &Program, decks: &[SimDeck], game: usize, config: &SimConfig) -> GameResult {
    LAST_PANIC.with(|p| p.borrow_mut().take());
    let run = std::panic::AssertUnwindSafe(|| play_one(prog, decks, game, config));
    std::panic::catch_unwind(run).unwrap_or_else(|payload| {
        let recorded = LAST_PANIC.with(|p| p.borrow_mut().take());
        let message = recorded.unwrap_or_else(|| {
            payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "the engine panicked".into())
        });
        GameResult {
            game,
            seed: game_seed(config.seed, game),
            decks: Vec::new(),
            winner: None,
            turns: 0,
            steps: 0,
            step_limit: false,
            stuck: false,
            actions: Vec::new(),
            notes: Vec::new(),
            crashed: Some(message),
        }
    })
}

fn play_one(prog: &Program, decks: &[SimDeck], game: usize, config: &SimConfig) -> GameResult {
    let seed = game_seed(config.seed, game);
    let n = decks.len().max(1);
    let order: Vec<usize> = (0..n).map(|s| (s + game) % n).collect();
    let seat_decks: Vec<Vec<u32>> = order
        .iter()
        .map(|d| decks.get(*d).map(|x| x.cards.clone()).unwrap_or_default())
        .collect();
    let options = Options {
        seed,
        max_steps: config.max_steps,
        deck_format: config.deck_format.clone(),
    };
    let actions_declared: HashSet<&str> = prog
        .ruleset
        .actions
        .iter()
        .map(|a| Program::short(&a.name.id))
        .collect();
    let mut g = Game::new(prog, &seat_decks, None, &options);
    let mut agents: Vec<RandomAgent> = (0..prog.players().max(1))
        .map(|s| RandomAgent::new(seed, s as Seat))
        .collect();
    let mut actions = Vec::new();
    let mut stuck = false;
    while let Some(req) = g.step() {
        let mut a = {
            let view = g.view(req.player);
            let k = req.player as usize % agents.len();
            decide_or_first_legal(&mut agents[k], &view, &req)
        };
        if !req.accepts(&a) {
            stuck = true;
            a = Answer::Concede;
        }
        if let (RequestKind::Action, Answer::Pick(i)) = (&req.kind, &a) {
            let taken = req
                .options
                .get(*i)
                .and_then(|o| Some((o.action.as_ref()?, o.card_id?)));
            if let Some((name, id)) = taken {
                if let Some(cs) = g.state.cards.get(id as usize) {
                    let is_action = actions_declared.contains(name.as_str());
                    let in_play = prog
                        .in_play
                        .get(cs.zone.zone as usize)
                        .copied()
                        .unwrap_or(false);
                    actions.push(CardAction {
                        card: cs.def,
                        owner: cs.owner,
                        action: name.clone(),
                        played: is_action && !in_play,
                    });
                }
            }
        }
        if !g.answer(&req, a) {
            // Cannot happen (the answer was checked), but never loop on a refused answer.
            stuck = true;
            let _ = g.answer(&req, Answer::Concede);
        }
    }
    let winner = match g.outcome() {
        Some(Outcome::Win(s)) => Some(*s),
        _ => None,
    };
    GameResult {
        game,
        seed,
        decks: order,
        winner,
        turns: g.state.turn,
        steps: g.steps(),
        step_limit: g.steps() > config.max_steps,
        stuck,
        actions,
        notes: g.notes.clone(),
        crashed: None,
    }
}

/// Runs `config.games` games on `config.threads` threads and sums them up.
pub fn simulate(prog: &Program, decks: &[SimDeck], config: &SimConfig) -> Summary {
    simulate_with_progress(prog, decks, config, &|| {})
}

/// [`simulate`], calling `tick` once per finished game (from any thread, in any order): the
/// command line moves its progress bar with it.
pub fn simulate_with_progress(
    prog: &Program,
    decks: &[SimDeck],
    config: &SimConfig,
    tick: &(dyn Fn() + Sync),
) -> Summary {
    let play = |i: usize| {
        let r = run_game(prog, decks, i, config);
        tick();
        r
    };
    let results: Vec<GameResult> = match rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
    {
        // An indexed parallel iterator collects in index order.
        Ok(pool) => pool.install(|| (0..config.games).into_par_iter().map(play).collect()),
        Err(_) => (0..config.games).map(play).collect(),
    };
    summarize(prog, decks, config, &results)
}

/// A simulation's results, summed in game order (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The game's id.
    pub game: String,
    /// Games played.
    pub games: usize,
    /// The base seed.
    pub seed: u64,
    /// The step limit of each game.
    pub max_steps: u64,
    /// Per deck, in the order given (A, B).
    pub decks: Vec<DeckStats>,
    /// Per seat (p1 first).
    pub seats: Vec<SeatStats>,
    /// Games that ended without a winner.
    pub draws: usize,
    /// Of the draws, how many were stopped at the step limit.
    pub step_limit: usize,
    /// Games ended because a request had no legal answer.
    pub stuck: usize,
    /// Games in which the engine panicked; they count in no other figure (wins, draws, turns,
    /// cards).
    pub crashed: usize,
    /// The crashes grouped by panic message: most frequent first, then by message; at most
    /// [`MAX_NOTES`] groups.
    pub crashes: Vec<Crash>,
    /// Game length in turns.
    pub turns: TurnStats,
    /// Per card of either deck (and any other card an action was taken with), by name then id.
    pub cards: Vec<CardStats>,
    /// The engine's notes, with the number of games each came up in: most frequent first, then
    /// by text; at most [`MAX_NOTES`].
    pub notes: Vec<NoteCount>,
    /// Distinct notes not listed.
    pub notes_omitted: usize,
}

/// One deck's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeckStats {
    /// The deck file.
    pub path: String,
    /// Games won.
    pub wins: usize,
    /// Games lost.
    pub losses: usize,
    /// Games drawn.
    pub draws: usize,
    /// Wins over the games that finished (0 when none did).
    pub win_rate: f64,
    /// Games it went first in (as p1).
    pub games_first: usize,
    /// Of those, games won.
    pub wins_first: usize,
}

/// One seat's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatStats {
    /// `p1`, `p2`.
    pub seat: String,
    /// Games won from this seat.
    pub wins: usize,
    /// Wins over the games that finished (0 when none did).
    pub win_rate: f64,
}

/// Game length in turns (all zero when no game was played).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnStats {
    /// Mean.
    pub mean: f64,
    /// Median (the mean of the two middle games for an even count).
    pub median: f64,
    /// Shortest game.
    pub min: u32,
    /// Longest game.
    pub max: u32,
}

/// One card's statistics.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardStats {
    /// The card's id (`pmv:019`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Copies in each deck (A, B).
    pub copies: Vec<u32>,
    /// Times played: a ruleset action (not an activated ability) taken with the card while it
    /// was in a zone that is not `in_play` (from the hand, say). Cards put onto the field by an
    /// effect are not counted.
    pub played: u64,
    /// (game, owner) pairs in which its owner played it at least once.
    pub games_played: u64,
    /// Of those, how many its owner won.
    pub wins_when_played: u64,
    /// `wins_when_played / games_played`; `None` when never played.
    pub win_rate_when_played: Option<f64>,
    /// Every action and activated ability taken with the card, by short name, from any zone
    /// (`raid`, `deploy`, `activated`).
    pub actions: BTreeMap<String, u64>,
}

/// Games in which the engine panicked with one message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Crash {
    /// The panic's message.
    pub message: String,
    /// How many games.
    pub games: usize,
    /// The first [`MAX_CRASH_GAMES`] of them, by game number: replay one with
    /// `fuda play … --seed <seed> --p1 random --p2 random` and the decks in its order.
    pub first: Vec<CrashedGame>,
}

/// One crashed game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CrashedGame {
    /// The game's number (from 0).
    pub game: usize,
    /// Its seed.
    pub seed: u64,
    /// The decks by seat: `AB` (deck A was p1) or `BA`.
    pub decks: String,
}

/// A note of the engine and the number of games it came up in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NoteCount {
    /// The note.
    pub text: String,
    /// Games it came up in.
    pub games: usize,
}

fn rate(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Sums game results up, in their order. `results` may come from [`run_game`] in any
/// arrangement of threads; only their order matters.
pub fn summarize(
    prog: &Program,
    decks: &[SimDeck],
    config: &SimConfig,
    results: &[GameResult],
) -> Summary {
    let players = prog.players().max(decks.len());
    let games = results.len();
    let mut tally = Tally::new(decks, players, games);
    for r in results {
        match &r.crashed {
            Some(message) => tally.add_crash(r, message, decks.len()),
            None => tally.add_game(r),
        }
    }
    let finished = (games - tally.crashed) as u64;
    for d in &mut tally.decks {
        d.win_rate = rate(d.wins as u64, finished);
    }
    let seats = seat_stats(&tally.seat_wins, finished);
    let (notes, notes_omitted) = note_counts(tally.notes);
    Summary {
        game: prog.ruleset.id.clone(),
        games,
        seed: config.seed,
        max_steps: config.max_steps,
        decks: tally.decks,
        seats,
        draws: tally.draws,
        step_limit: tally.step_limit,
        stuck: tally.stuck,
        crashed: tally.crashed,
        crashes: crash_groups(tally.crashes),
        turns: turn_stats(&tally.turns),
        cards: card_stats(prog, decks, tally.cards),
        notes,
        notes_omitted,
    }
}

/// What [`summarize`] adds up game by game, before the rates and the sorting.
struct Tally<'r> {
    decks: Vec<DeckStats>,
    seat_wins: Vec<usize>,
    draws: usize,
    step_limit: usize,
    stuck: usize,
    turns: Vec<u32>,
    /// Per card definition: every card of the decks, and any other card acted with.
    cards: BTreeMap<u32, CardTally>,
    /// Per note, the games it came up in.
    notes: BTreeMap<&'r str, usize>,
    crashes: Vec<Crash>,
    crashed: usize,
}

/// One card's figures while games are added up.
#[derive(Default)]
struct CardTally {
    played: u64,
    games_played: u64,
    wins: u64,
    actions: BTreeMap<String, u64>,
}

impl<'r> Tally<'r> {
    /// Nothing counted yet; every card of the decks listed, each deck with zero games.
    fn new(decks: &[SimDeck], players: usize, games: usize) -> Self {
        let mut cards: BTreeMap<u32, CardTally> = BTreeMap::new();
        for d in decks {
            for c in &d.cards {
                cards.entry(*c).or_default();
            }
        }
        Tally {
            decks: decks
                .iter()
                .map(|d| DeckStats {
                    path: d.path.clone(),
                    wins: 0,
                    losses: 0,
                    draws: 0,
                    win_rate: 0.0,
                    games_first: 0,
                    wins_first: 0,
                })
                .collect(),
            seat_wins: vec![0usize; players],
            draws: 0,
            step_limit: 0,
            stuck: 0,
            turns: Vec::with_capacity(games),
            cards,
            notes: BTreeMap::new(),
            crashes: Vec::new(),
            crashed: 0,
        }
    }

    /// A crashed game: counted in its panic message's group (the first few listed), and in
    /// no other figure.
    fn add_crash(&mut self, r: &GameResult, message: &str, deck_count: usize) {
        self.crashed += 1;
        let i = match self.crashes.iter().position(|c| c.message == message) {
            Some(i) => i,
            None => {
                self.crashes.push(Crash {
                    message: message.to_string(),
                    games: 0,
                    first: Vec::new(),
                });
                self.crashes.len() - 1
            }
        };
        let group = &mut self.crashes[i];
        group.games += 1;
        if group.first.len() < MAX_CRASH_GAMES {
            let n = deck_count.max(1);
            group.first.push(CrashedGame {
                game: r.game,
                seed: r.seed,
                decks: (0..n).map(|s| deck_letter((s + r.game) % n)).collect(),
            });
        }
    }

    /// A finished game: its length, its outcome by deck and seat, its cards and its notes.
    fn add_game(&mut self, r: &'r GameResult) {
        self.turns.push(r.turns);
        self.add_outcome(r);
        if r.step_limit {
            self.step_limit += 1;
        }
        if r.stuck {
            self.stuck += 1;
        }
        self.add_actions(r);
        let distinct: BTreeSet<&str> = r.notes.iter().map(String::as_str).collect();
        for n in distinct {
            *self.notes.entry(n).or_default() += 1;
        }
    }

    /// Who went first and who won: the decks' and seats' wins, losses and draws.
    fn add_outcome(&mut self, r: &GameResult) {
        if let Some(&first) = r.decks.first() {
            if let Some(d) = self.decks.get_mut(first) {
                d.games_first += 1;
                if r.winner == Some(0) {
                    d.wins_first += 1;
                }
            }
        }
        match r.winner {
            Some(w) => {
                if let Some(s) = self.seat_wins.get_mut(w as usize) {
                    *s += 1;
                }
                for (seat, &d) in r.decks.iter().enumerate() {
                    if let Some(d) = self.decks.get_mut(d) {
                        if seat == w as usize {
                            d.wins += 1;
                        } else {
                            d.losses += 1;
                        }
                    }
                }
            }
            None => {
                self.draws += 1;
                for &d in &r.decks {
                    if let Some(d) = self.decks.get_mut(d) {
                        d.draws += 1;
                    }
                }
            }
        }
    }

    /// The actions taken with each card, and the games each card was played in (and won).
    fn add_actions(&mut self, r: &GameResult) {
        let mut played_here: BTreeSet<(u32, Seat)> = BTreeSet::new();
        for a in &r.actions {
            let acc = self.cards.entry(a.card).or_default();
            *acc.actions.entry(a.action.clone()).or_default() += 1;
            if a.played {
                acc.played += 1;
                played_here.insert((a.card, a.owner));
            }
        }
        for (card, owner) in played_here {
            let acc = self.cards.entry(card).or_default();
            acc.games_played += 1;
            if r.winner == Some(owner) {
                acc.wins += 1;
            }
        }
    }
}

/// The crash groups, most games first, at most [`MAX_NOTES`] of them.
fn crash_groups(mut crashes: Vec<Crash>) -> Vec<Crash> {
    crashes.sort_by(|a, b| {
        b.games
            .cmp(&a.games)
            .then_with(|| a.message.cmp(&b.message))
    });
    crashes.truncate(MAX_NOTES);
    crashes
}

/// Wins and win rate per seat, over the `finished` games.
fn seat_stats(seat_wins: &[usize], finished: u64) -> Vec<SeatStats> {
    seat_wins
        .iter()
        .enumerate()
        .map(|(i, w)| SeatStats {
            seat: format!("p{}", i + 1),
            wins: *w,
            win_rate: rate(*w as u64, finished),
        })
        .collect()
}

/// Per-card figures, by name then id.
fn card_stats(
    prog: &Program,
    decks: &[SimDeck],
    cards: BTreeMap<u32, CardTally>,
) -> Vec<CardStats> {
    let mut out: Vec<CardStats> = cards
        .into_iter()
        .map(|(def, acc)| {
            let card = prog.cards.get(def as usize);
            CardStats {
                id: card.map(|c| c.id.clone()).unwrap_or_default(),
                name: card.map(|c| c.name.clone()).unwrap_or_default(),
                copies: decks
                    .iter()
                    .map(|d| d.cards.iter().filter(|c| **c == def).count() as u32)
                    .collect(),
                played: acc.played,
                games_played: acc.games_played,
                wins_when_played: acc.wins,
                win_rate_when_played: (acc.games_played > 0)
                    .then(|| rate(acc.wins, acc.games_played)),
                actions: acc.actions,
            }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.id.cmp(&b.id)));
    out
}

/// The notes, most games first, at most [`MAX_NOTES`] of them, and how many were left out.
fn note_counts(notes: BTreeMap<&str, usize>) -> (Vec<NoteCount>, usize) {
    let mut notes: Vec<NoteCount> = notes
        .into_iter()
        .map(|(text, games)| NoteCount {
            text: text.to_string(),
            games,
        })
        .collect();
    notes.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.text.cmp(&b.text)));
    let omitted = notes.len().saturating_sub(MAX_NOTES);
    notes.truncate(MAX_NOTES);
    (notes, omitted)
}

fn turn_stats(turns: &[u32]) -> TurnStats {
    if turns.is_empty() {
        return TurnStats {
            mean: 0.0,
            median: 0.0,
            min: 0,
            max: 0,
        };
    }
    let mut sorted = turns.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    let median = if n % 2 == 1 {
        f64::from(sorted[n / 2])
    } else {
        (f64::from(sorted[n / 2 - 1]) + f64::from(sorted[n / 2])) / 2.0
    };
    TurnStats {
        mean: turns.iter().map(|t| u64::from(*t)).sum::<u64>() as f64 / n as f64,
        median,
        min: sorted[0],
        max: sorted[n - 1],
    }
}

/// `A` for the first deck, `B` for the second, …
fn deck_letter(i: usize) -> char {
    char::from(b'A' + (i.min(25) as u8))
}

fn percent(r: f64) -> String {
    format!("{:.1}%", r * 100.0)
}

impl Summary {
    /// The summary as readable tables, for the terminal. Card names come last on their line
    /// (their display width varies), with the actions taken with the card after them.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} games of {}, seed {}, at most {} steps each",
            self.games, self.game, self.seed, self.max_steps
        );
        let _ = writeln!(out);
        self.render_decks(&mut out);
        let _ = writeln!(out);
        self.render_outcomes(&mut out);
        let _ = writeln!(
            out,
            "turns: mean {:.1}, median {}, min {}, max {}",
            self.turns.mean, self.turns.median, self.turns.min, self.turns.max
        );
        let _ = writeln!(out);
        self.render_cards(&mut out);
        self.render_notes(&mut out);
        out
    }

    /// One line per deck: wins, losses, draws, win rate, games won going first.
    fn render_decks(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "deck   wins  losses  draws   win%   first (won/games)  file"
        );
        for (i, d) in self.decks.iter().enumerate() {
            let _ = writeln!(
                out,
                "{:<4} {:>6}  {:>6}  {:>5}  {:>6}  {:>17}  {}",
                deck_letter(i),
                d.wins,
                d.losses,
                d.draws,
                percent(d.win_rate),
                format!("{}/{}", d.wins_first, d.games_first),
                d.path
            );
        }
    }

    /// Wins by seat, draws (and why), and the crashed games grouped by panic message.
    fn render_outcomes(&self, out: &mut String) {
        let seats: Vec<String> = self
            .seats
            .iter()
            .map(|s| format!("{} {} ({})", s.seat, s.wins, percent(s.win_rate)))
            .collect();
        let _ = writeln!(out, "wins by seat: {}", seats.join(", "));
        let _ = writeln!(
            out,
            "draws: {} ({} at the step limit){}",
            self.draws,
            self.step_limit,
            if self.stuck > 0 {
                format!(
                    "; {} game(s) ended on a request with no legal answer",
                    self.stuck
                )
            } else {
                String::new()
            }
        );
        if self.crashed > 0 {
            let _ = writeln!(
                out,
                "crashed: {} game(s), counted in no other figure (the engine panicked):",
                self.crashed
            );
            for c in &self.crashes {
                let games: Vec<String> = c
                    .first
                    .iter()
                    .map(|g| format!("game {} seed {} ({})", g.game, g.seed, g.decks))
                    .collect();
                let more = if c.games > c.first.len() { ", …" } else { "" };
                let _ = writeln!(out, "  {:>6}  {}", c.games, c.message);
                let _ = writeln!(out, "          {}{more}", games.join(", "));
            }
        }
    }

    /// One line per card: copies per deck, plays, games played, win rate, name and actions.
    fn render_cards(&self, out: &mut String) {
        let copies_head: Vec<String> = (0..self.decks.len())
            .map(|i| format!("{:>3}", deck_letter(i)))
            .collect();
        let _ = writeln!(out, "{}  played  games   win%  card", copies_head.join(""));
        for c in &self.cards {
            let copies: Vec<String> = c.copies.iter().map(|n| format!("{n:>3}")).collect();
            let actions: Vec<String> = c.actions.iter().map(|(a, n)| format!("{a} {n}")).collect();
            let _ = writeln!(
                out,
                "{}  {:>6}  {:>5}  {:>6}  {} ({}){}",
                copies.join(""),
                c.played,
                c.games_played,
                c.win_rate_when_played
                    .map(percent)
                    .unwrap_or_else(|| "-".into()),
                c.name,
                c.id,
                if actions.is_empty() {
                    String::new()
                } else {
                    format!("  [{}]", actions.join(", "))
                }
            );
        }
    }

    /// The engine's notes with the games they came up in, when there are any.
    fn render_notes(&self, out: &mut String) {
        if self.notes.is_empty() {
            return;
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "notes (games):");
        for n in &self.notes {
            let _ = writeln!(out, "  {:>6}  {}", n.games, n.text);
        }
        if self.notes_omitted > 0 {
            let _ = writeln!(out, "  … and {} more", self.notes_omitted);
        }
    }
}
