//! `fuda sim`: many seeded games between two decks, random agents on both seats, spread over
//! threads, summed up as win rates, game lengths and per-card statistics.
//!
//! Everything here is deterministic: game `i` is seeded with [`game_seed`]`(seed, i)`, every
//! game's result is stored at its index, and the results are summed in index order, so the same
//! seed gives the same [`Summary`] (and the same bytes of output) whatever the thread count.
//! Nothing game-specific is known here: "played" is defined from the ruleset's declarations
//! (an action taken with a card that is not in an `in_play` zone), see [`CardStats`].

pub mod cli;
pub mod report;
pub mod shard;
pub mod stats;
pub mod totals;

use crate::engine::{
    decide_or_first_legal, Agent, Answer, Game, GreedyAgent, Options, Outcome, Program,
    RandomAgent, RequestKind, Seat,
};
use crate::packs::session::Session;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use stats::CardFlag;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;
use std::path::PathBuf;
use totals::{deck_letter, Totals};

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
    let game_id = session.game_named(game)?;
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
    /// The agent of each deck (A, B), whatever seat it plays; one kind for every deck, or
    /// random when empty.
    pub agents: Vec<AgentKind>,
    /// Play only this share of the games: `(k, n)` plays game `i` when `i % n == k`
    /// (`k` from 0); `None`: every game.
    pub shard: Option<(usize, usize)>,
}

/// Who plays a deck's seat in a simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    /// [`RandomAgent`]: uniformly among the legal answers, passing included.
    Random,
    /// [`GreedyAgent`]: an action whenever it may, yes to everything.
    Greedy,
}

impl AgentKind {
    /// The name of the kind (`random`, `greedy`), as `--agent` takes it.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
        }
    }

    fn agent(self, seed: u64, seat: Seat) -> Box<dyn Agent> {
        match self {
            AgentKind::Random => Box::new(RandomAgent::new(seed, seat)),
            AgentKind::Greedy => Box::new(GreedyAgent::new(seed, seat)),
        }
    }
}

impl SimConfig {
    /// The agent kind of deck `d`.
    pub fn agent_of(&self, d: usize) -> AgentKind {
        match self.agents.as_slice() {
            [] => AgentKind::Random,
            [one] => *one,
            many => many.get(d).copied().unwrap_or(AgentKind::Random),
        }
    }

    /// The agent kind of each of `decks` decks, by name.
    pub fn agent_names(&self, decks: usize) -> Vec<String> {
        (0..decks).map(|d| self.agent_of(d).name().into()).collect()
    }

    /// The numbers of the games this run plays: all of them, or its shard's.
    pub fn game_numbers(&self) -> Vec<usize> {
        match self.shard {
            Some((k, n)) => (0..self.games).filter(|i| i % n.max(1) == k).collect(),
            None => (0..self.games).collect(),
        }
    }
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            games: 100,
            threads: 1,
            seed: 0,
            max_steps: Options::default().max_steps,
            deck_format: None,
            agents: Vec::new(),
            shard: None,
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
    // a summary reads no log line: the game plays the same without writing them
    g.keep_log(false);
    let mut agents: Vec<Box<dyn Agent>> = (0..prog.players().max(1))
        .map(|s| {
            let deck = order.get(s).copied().unwrap_or(s);
            config.agent_of(deck).agent(seed, s as Seat)
        })
        .collect();
    let mut actions = Vec::new();
    let mut stuck = false;
    while let Some(req) = g.step() {
        let mut a = {
            let view = g.view(req.player);
            let k = req.player as usize % agents.len();
            decide_or_first_legal(agents[k].as_mut(), &view, &req)
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
    let numbers = config.game_numbers();
    let results: Vec<GameResult> = match rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
    {
        // An indexed parallel iterator collects in index order.
        Ok(pool) => pool.install(|| numbers.into_par_iter().map(play).collect()),
        Err(_) => numbers.into_iter().map(play).collect(),
    };
    summarize(prog, decks, config, &results)
}

/// A column the card table can be sorted by (`--sort`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    /// The card's name, then id (the default).
    Name,
    /// The card's id.
    Id,
    /// Times played.
    Played,
    /// Games its owner played it in.
    Games,
    /// Win rate when played.
    Win,
    /// Games its deck did not play it in.
    NotPlayed,
    /// Win rate when not played.
    NotWin,
    /// Its deck's win rate.
    Deck,
    /// Win rate when played minus its deck's.
    Delta,
    /// The flag: never played, above, below, then none.
    Flag,
}

impl SortKey {
    /// Every key with its name, as `--sort` takes them.
    pub const ALL: [(&'static str, SortKey); 10] = [
        ("name", SortKey::Name),
        ("id", SortKey::Id),
        ("plays", SortKey::Played),
        ("games", SortKey::Games),
        ("win", SortKey::Win),
        ("not-played", SortKey::NotPlayed),
        ("not-win", SortKey::NotWin),
        ("deck", SortKey::Deck),
        ("delta", SortKey::Delta),
        ("flag", SortKey::Flag),
    ];

    /// The key of a name; `Err` lists the names.
    pub fn parse(name: &str) -> Result<SortKey, String> {
        SortKey::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| *k)
            .ok_or_else(|| {
                let names: Vec<&str> = SortKey::ALL.iter().map(|(n, _)| *n).collect();
                format!("unknown column `{name}`; the columns: {}", names.join(", "))
            })
    }

    /// The figure of a card this key sorts by (higher first); `None` sorts last.
    fn figure(self, c: &CardStats) -> Option<f64> {
        match self {
            SortKey::Name | SortKey::Id => None,
            SortKey::Played => Some(c.played as f64),
            SortKey::Games => Some(c.games_played as f64),
            SortKey::Win => c.win_rate_when_played,
            SortKey::NotPlayed => Some(c.games_not_played as f64),
            SortKey::NotWin => c.win_rate_when_not_played,
            SortKey::Deck => c.deck_win_rate,
            SortKey::Delta => Some(c.win_rate_when_played? - c.deck_win_rate?),
            SortKey::Flag => c.flag.map(|f| match f {
                CardFlag::NeverPlayed => 3.0,
                CardFlag::AboveDeck => 2.0,
                CardFlag::BelowDeck => 1.0,
            }),
        }
    }
}

/// A simulation's results, summed in game order (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The game's id.
    pub game: String,
    /// Games played.
    pub games: usize,
    /// The base seed.
    pub seed: u64,
    /// The step limit of each game.
    pub max_steps: u64,
    /// The agent kind of each deck (A, B): `random` or `greedy`.
    pub agents: Vec<String>,
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
    /// A shard's place in its run and its raw totals (`--shard K/N`); left out otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<shard::ShardInfo>,
    /// The raw counts the figures above were computed from (the report's histograms); not
    /// serialized (a shard's are in `shard.totals`).
    #[serde(skip)]
    pub totals: Totals,
}

/// One deck's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatStats {
    /// `p1`, `p2`.
    pub seat: String,
    /// Games won from this seat.
    pub wins: usize,
    /// Wins over the games that finished (0 when none did).
    pub win_rate: f64,
}

/// Game length in turns (all zero when no game was played).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// The 95% Wilson interval of `win_rate_when_played`; `None` when never played.
    pub interval_when_played: Option<[f64; 2]>,
    /// (game, seat) pairs whose deck holds the card and in which that seat did not play it.
    pub games_not_played: u64,
    /// Of those, how many that seat won.
    pub wins_when_not_played: u64,
    /// `wins_when_not_played / games_not_played`; `None` when there is no such game.
    pub win_rate_when_not_played: Option<f64>,
    /// Its 95% Wilson interval.
    pub interval_when_not_played: Option<[f64; 2]>,
    /// (game, seat) pairs whose deck holds the card, played or not.
    pub deck_games: u64,
    /// Of those, how many that seat won.
    pub deck_wins: u64,
    /// `deck_wins / deck_games`: the win rate of the card's deck (of both decks together for
    /// a card in both); `None` when in no deck.
    pub deck_win_rate: Option<f64>,
    /// Its 95% Wilson interval.
    pub interval_deck: Option<[f64; 2]>,
    /// Why the card is worth a look: never played, or its "played" interval wholly above or
    /// below `deck_win_rate`.
    pub flag: Option<CardFlag>,
}

/// Games in which the engine panicked with one message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrashedGame {
    /// The game's number (from 0).
    pub game: usize,
    /// Its seed.
    pub seed: u64,
    /// The decks by seat: `AB` (deck A was p1) or `BA`.
    pub decks: String,
}

/// A note of the engine and the number of games it came up in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteCount {
    /// The note.
    pub text: String,
    /// Games it came up in.
    pub games: usize,
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
    let mut totals = Totals::new(prog, decks, players);
    for r in results {
        totals.add_result(prog, decks, r);
    }
    let mut summary = totals.summary(
        &prog.ruleset.id,
        config.seed,
        config.max_steps,
        &config.agent_names(decks.len()),
    );
    if let Some(shard) = config.shard {
        summary.shard = Some(shard::ShardInfo::new(shard, config, totals));
    }
    summary
}

fn percent(r: f64) -> String {
    format!("{:.1}%", r * 100.0)
}

impl Summary {
    /// `, agents greedy` (or `, agents greedy/random`, per deck) when some deck's agent is not
    /// random; nothing otherwise.
    fn agents_note(&self) -> String {
        if self.agents.iter().all(|a| a == AgentKind::Random.name()) {
            return String::new();
        }
        match self.agents.first() {
            Some(first) if self.agents.iter().all(|a| a == first) => format!(", agents {first}"),
            _ => format!(", agents {}", self.agents.join("/")),
        }
    }

    /// The cards sorted by `key` (descending for figures, ascending for `name` and `id`; ties
    /// and cards without the figure by name then id, those without it last).
    pub fn sort_cards(&mut self, key: SortKey) {
        let name = |a: &CardStats, b: &CardStats| a.name.cmp(&b.name).then_with(|| a.id.cmp(&b.id));
        match key {
            SortKey::Name => self.cards.sort_by(name),
            SortKey::Id => self.cards.sort_by(|a, b| a.id.cmp(&b.id)),
            _ => self.cards.sort_by(|a, b| {
                let (x, y) = (key.figure(a), key.figure(b));
                match (x, y) {
                    (Some(x), Some(y)) => y.total_cmp(&x),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => std::cmp::Ordering::Equal,
                }
                .then_with(|| name(a, b))
            }),
        }
    }

    /// The summary as readable tables, for the terminal. Card names come last on their line
    /// (their display width varies), with the actions taken with the card after them.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} games of {}, seed {}, at most {} steps each{}",
            self.games,
            self.game,
            self.seed,
            self.max_steps,
            self.agents_note()
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

    /// One line per card: copies per deck, plays, games played and the win rate then (with its
    /// interval), games not played and the win rate then, the deck's win rate, the flag, the
    /// name and the actions.
    fn render_cards(&self, out: &mut String) {
        let copies_head: Vec<String> = (0..self.decks.len())
            .map(|i| format!("{:>3}", deck_letter(i)))
            .collect();
        let _ = writeln!(
            out,
            "{}  played  games   win%       95% CI  not pl.   win%       95% CI   deck%  flag   card",
            copies_head.join("")
        );
        let rate = |r: Option<f64>| r.map(percent).unwrap_or_else(|| "-".into());
        let interval = |i: Option<[f64; 2]>| {
            i.map(|[lo, hi]| format!("{:.1}–{:.1}", lo * 100.0, hi * 100.0))
                .unwrap_or_else(|| "-".into())
        };
        for c in &self.cards {
            let copies: Vec<String> = c.copies.iter().map(|n| format!("{n:>3}")).collect();
            let actions: Vec<String> = c.actions.iter().map(|(a, n)| format!("{a} {n}")).collect();
            let _ = writeln!(
                out,
                "{}  {:>6}  {:>5}  {:>6}  {:>11}  {:>7}  {:>6}  {:>11}  {:>6}  {:<5}  {} ({}){}",
                copies.join(""),
                c.played,
                c.games_played,
                rate(c.win_rate_when_played),
                interval(c.interval_when_played),
                c.games_not_played,
                rate(c.win_rate_when_not_played),
                interval(c.interval_when_not_played),
                rate(c.deck_win_rate),
                c.flag.map(CardFlag::word).unwrap_or(""),
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
