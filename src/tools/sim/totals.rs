//! The raw tallies of a simulation: what game results add up to before any rate is computed.
//! A [`Summary`] is computed from [`Totals`] alone, and totals add up exactly (integers,
//! histograms and maps), so the totals of shards summed give the summary one run would have
//! printed (`fuda sim merge`, [`super::shard`]).

use super::stats::{wilson, CardFlag};
use super::{
    CardStats, Crash, CrashedGame, DeckStats, GameResult, NoteCount, SeatStats, SimDeck, Summary,
    TurnStats, MAX_CRASH_GAMES, MAX_NOTES,
};
use crate::engine::{Program, Seat};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Everything a summary is computed from, summed over games. Serialized in a shard's JSON
/// (`shard.totals`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Games counted (crashed ones included).
    pub games: usize,
    /// Per deck, in the order given (A, B).
    pub decks: Vec<DeckTotals>,
    /// Wins per seat (p1 first).
    pub seat_wins: Vec<usize>,
    /// Games without a winner.
    pub draws: usize,
    /// Of those, stopped at the step limit.
    pub step_limit: usize,
    /// Games ended on a request with no legal answer.
    pub stuck: usize,
    /// Games in which the engine panicked.
    pub crashed: usize,
    /// Finished games by their length in turns.
    pub turns: BTreeMap<u32, usize>,
    /// Per card id: every card of the decks, and any other card an action was taken with.
    pub cards: BTreeMap<String, CardTotals>,
    /// Per note of the engine, the games it came up in (all of them).
    pub notes: BTreeMap<String, usize>,
    /// Per panic message, its games (all groups; the first [`MAX_CRASH_GAMES`] games of each).
    pub crashes: BTreeMap<String, CrashTotals>,
}

/// One deck's counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckTotals {
    /// The deck file as shown.
    pub path: String,
    /// Games won.
    pub wins: usize,
    /// Games lost.
    pub losses: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games it was p1 in.
    pub games_first: usize,
    /// Of those, won.
    pub wins_first: usize,
}

/// One card's counts (see [`CardStats`] for their meaning).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardTotals {
    /// Its name.
    pub name: String,
    /// Copies in each deck.
    pub copies: Vec<u32>,
    /// Times played.
    pub played: u64,
    /// (game, owner) pairs in which its owner played it.
    pub games_played: u64,
    /// Of those, won by the owner.
    pub wins_when_played: u64,
    /// (game, seat) pairs whose deck holds it and in which it was not played.
    pub games_not_played: u64,
    /// Of those, won by that seat.
    pub wins_when_not_played: u64,
    /// (game, seat) pairs whose deck holds it.
    pub deck_games: u64,
    /// Of those, won by that seat.
    pub deck_wins: u64,
    /// Actions taken with it, by short name.
    pub actions: BTreeMap<String, u64>,
}

/// The crashed games of one panic message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrashTotals {
    /// How many games.
    pub games: usize,
    /// The first [`MAX_CRASH_GAMES`] of them, by game number.
    pub first: Vec<CrashedGame>,
}

/// `A` for the first deck, `B` for the second, …
pub(super) fn deck_letter(i: usize) -> char {
    char::from(b'A' + (i.min(25) as u8))
}

fn rate(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

impl Totals {
    /// Nothing counted yet; every card of the decks listed, each deck with zero games.
    pub fn new(prog: &Program, decks: &[SimDeck], players: usize) -> Self {
        let mut t = Totals {
            decks: decks
                .iter()
                .map(|d| DeckTotals {
                    path: d.path.clone(),
                    ..DeckTotals::default()
                })
                .collect(),
            seat_wins: vec![0; players],
            ..Totals::default()
        };
        for d in decks {
            for c in &d.cards {
                t.card(prog, decks, *c);
            }
        }
        t
    }

    /// The counts of card definition `def`, created (with its name and copies) when new.
    fn card(&mut self, prog: &Program, decks: &[SimDeck], def: u32) -> &mut CardTotals {
        let card = prog.cards.get(def as usize);
        let id = card.map(|c| c.id).unwrap_or_default();
        self.cards
            .entry(id.to_string())
            .or_insert_with(|| CardTotals {
                name: card.map(|c| c.name.clone()).unwrap_or_default(),
                copies: decks
                    .iter()
                    .map(|d| d.cards.iter().filter(|c| **c == def).count() as u32)
                    .collect(),
                ..CardTotals::default()
            })
    }

    /// Adds one game's result.
    pub fn add_result(&mut self, prog: &Program, decks: &[SimDeck], r: &GameResult) {
        self.games += 1;
        match &r.crashed {
            Some(message) => self.add_crash(r, message, decks.len()),
            None => {
                *self.turns.entry(r.turns).or_default() += 1;
                self.add_outcome(r);
                if r.step_limit {
                    self.step_limit += 1;
                }
                if r.stuck {
                    self.stuck += 1;
                }
                self.add_actions(prog, decks, r);
                let distinct: BTreeSet<&str> = r.notes.iter().map(String::as_str).collect();
                for n in distinct {
                    *self.notes.entry(n.to_string()).or_default() += 1;
                }
            }
        }
    }

    /// A crashed game: counted in its panic message's group (the first few listed), and in
    /// no other figure.
    fn add_crash(&mut self, r: &GameResult, message: &str, deck_count: usize) {
        self.crashed += 1;
        let group = self.crashes.entry(message.to_string()).or_default();
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
        if let Some(w) = r.winner {
            if let Some(s) = self.seat_wins.get_mut(w as usize) {
                *s += 1;
            }
        } else {
            self.draws += 1;
        }
        for (seat, &d) in r.decks.iter().enumerate() {
            if let Some(d) = self.decks.get_mut(d) {
                match r.winner {
                    None => d.draws += 1,
                    Some(w) if w as usize == seat => d.wins += 1,
                    Some(_) => d.losses += 1,
                }
            }
        }
    }

    /// The actions taken with each card; for each seat and each card of its deck, whether it
    /// was played and whether the seat won.
    fn add_actions(&mut self, prog: &Program, decks: &[SimDeck], r: &GameResult) {
        let mut played_here: BTreeSet<(u32, Seat)> = BTreeSet::new();
        for a in &r.actions {
            let acc = self.card(prog, decks, a.card);
            *acc.actions.entry(a.action.clone()).or_default() += 1;
            if a.played {
                acc.played += 1;
                played_here.insert((a.card, a.owner));
            }
        }
        for &(card, owner) in &played_here {
            let won = r.winner == Some(owner);
            let acc = self.card(prog, decks, card);
            acc.games_played += 1;
            acc.wins_when_played += u64::from(won);
        }
        for (seat, &d) in r.decks.iter().enumerate() {
            let Some(deck) = decks.get(d) else { continue };
            let won = r.winner.map(usize::from) == Some(seat);
            let held: BTreeSet<u32> = deck.cards.iter().copied().collect();
            for card in held {
                let played = played_here.contains(&(card, seat as Seat));
                let acc = self.card(prog, decks, card);
                acc.deck_games += 1;
                acc.deck_wins += u64::from(won);
                if !played {
                    acc.games_not_played += 1;
                    acc.wins_when_not_played += u64::from(won);
                }
            }
        }
    }

    /// Adds another share's totals (of the same decks): every count summed, the first crashed
    /// games of each group kept in game order. `Err` says what differs.
    pub fn add(&mut self, other: &Totals) -> Result<(), String> {
        let paths = |t: &Totals| t.decks.iter().map(|d| d.path.clone()).collect::<Vec<_>>();
        if paths(self) != paths(other) || self.seat_wins.len() != other.seat_wins.len() {
            return Err("they were run with other decks".into());
        }
        self.games += other.games;
        for (d, o) in self.decks.iter_mut().zip(&other.decks) {
            d.wins += o.wins;
            d.losses += o.losses;
            d.draws += o.draws;
            d.games_first += o.games_first;
            d.wins_first += o.wins_first;
        }
        for (s, o) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            *s += o;
        }
        self.draws += other.draws;
        self.step_limit += other.step_limit;
        self.stuck += other.stuck;
        self.crashed += other.crashed;
        for (t, n) in &other.turns {
            *self.turns.entry(*t).or_default() += n;
        }
        for (text, n) in &other.notes {
            *self.notes.entry(text.clone()).or_default() += n;
        }
        for (message, c) in &other.crashes {
            let group = self.crashes.entry(message.clone()).or_default();
            group.games += c.games;
            group.first.extend(c.first.iter().cloned());
            group.first.sort_by_key(|g| g.game);
            group.first.truncate(MAX_CRASH_GAMES);
        }
        self.add_cards(other)
    }

    fn add_cards(&mut self, other: &Totals) -> Result<(), String> {
        for (id, o) in &other.cards {
            let c = self.cards.entry(id.clone()).or_insert_with(|| CardTotals {
                name: o.name.clone(),
                copies: o.copies.clone(),
                ..CardTotals::default()
            });
            if c.name != o.name || c.copies != o.copies {
                return Err(format!("their decks differ (card `{id}`)"));
            }
            c.played += o.played;
            c.games_played += o.games_played;
            c.wins_when_played += o.wins_when_played;
            c.games_not_played += o.games_not_played;
            c.wins_when_not_played += o.wins_when_not_played;
            c.deck_games += o.deck_games;
            c.deck_wins += o.deck_wins;
            for (a, n) in &o.actions {
                *c.actions.entry(a.clone()).or_default() += n;
            }
        }
        Ok(())
    }

    /// The games that finished (not crashed).
    pub fn finished(&self) -> u64 {
        self.games.saturating_sub(self.crashed) as u64
    }

    /// The decks' results with their win rates over finished games.
    pub fn deck_stats(&self) -> Vec<DeckStats> {
        let finished = self.finished();
        self.decks
            .iter()
            .map(|d| DeckStats {
                path: d.path.clone(),
                wins: d.wins,
                losses: d.losses,
                draws: d.draws,
                win_rate: rate(d.wins as u64, finished),
                games_first: d.games_first,
                wins_first: d.wins_first,
            })
            .collect()
    }

    /// Wins and win rate per seat, over the finished games.
    pub fn seat_stats(&self) -> Vec<SeatStats> {
        let finished = self.finished();
        self.seat_wins
            .iter()
            .enumerate()
            .map(|(i, w)| SeatStats {
                seat: format!("p{}", i + 1),
                wins: *w,
                win_rate: rate(*w as u64, finished),
            })
            .collect()
    }

    /// The crash groups, most games first, at most [`MAX_NOTES`] of them.
    pub fn crash_groups(&self) -> Vec<Crash> {
        let mut crashes: Vec<Crash> = self
            .crashes
            .iter()
            .map(|(message, c)| Crash {
                message: message.clone(),
                games: c.games,
                first: c.first.clone(),
            })
            .collect();
        crashes.sort_by(|a, b| {
            b.games
                .cmp(&a.games)
                .then_with(|| a.message.cmp(&b.message))
        });
        crashes.truncate(MAX_NOTES);
        crashes
    }

    /// The notes, most games first, at most [`MAX_NOTES`] of them, and how many were left out.
    pub fn note_counts(&self) -> (Vec<NoteCount>, usize) {
        let mut notes: Vec<NoteCount> = self
            .notes
            .iter()
            .map(|(text, games)| NoteCount {
                text: text.clone(),
                games: *games,
            })
            .collect();
        notes.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.text.cmp(&b.text)));
        let omitted = notes.len().saturating_sub(MAX_NOTES);
        notes.truncate(MAX_NOTES);
        (notes, omitted)
    }

    /// Game length in turns over the finished games.
    pub fn turn_stats(&self) -> TurnStats {
        let n: usize = self.turns.values().sum();
        if n == 0 {
            return TurnStats {
                mean: 0.0,
                median: 0.0,
                min: 0,
                max: 0,
            };
        }
        // the k-th shortest game (from 0)
        let nth = |k: usize| {
            let mut seen = 0;
            for (t, c) in &self.turns {
                seen += c;
                if seen > k {
                    return *t;
                }
            }
            0
        };
        let median = if n % 2 == 1 {
            f64::from(nth(n / 2))
        } else {
            (f64::from(nth(n / 2 - 1)) + f64::from(nth(n / 2))) / 2.0
        };
        let sum: u64 = self
            .turns
            .iter()
            .map(|(t, c)| u64::from(*t) * *c as u64)
            .sum();
        TurnStats {
            mean: sum as f64 / n as f64,
            median,
            min: self.turns.keys().next().copied().unwrap_or(0),
            max: self.turns.keys().next_back().copied().unwrap_or(0),
        }
    }

    /// Per-card figures, by name then id.
    pub fn card_stats(&self) -> Vec<CardStats> {
        let mut out: Vec<CardStats> = self.cards.iter().map(|(id, c)| card_stat(id, c)).collect();
        out.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.id.cmp(&b.id)));
        out
    }

    /// The summary of these totals.
    pub fn summary(&self, game: &str, seed: u64, max_steps: u64, agents: &[String]) -> Summary {
        let (notes, notes_omitted) = self.note_counts();
        Summary {
            game: game.to_string(),
            games: self.games,
            seed,
            max_steps,
            agents: agents.to_vec(),
            decks: self.deck_stats(),
            seats: self.seat_stats(),
            draws: self.draws,
            step_limit: self.step_limit,
            stuck: self.stuck,
            crashed: self.crashed,
            crashes: self.crash_groups(),
            turns: self.turn_stats(),
            cards: self.card_stats(),
            notes,
            notes_omitted,
            shard: None,
            totals: self.clone(),
        }
    }
}

/// One card's figures from its counts.
fn card_stat(id: &str, c: &CardTotals) -> CardStats {
    let some_rate = |wins: u64, games: u64| (games > 0).then(|| rate(wins, games));
    let interval_when_played = wilson(c.wins_when_played, c.games_played);
    let deck_win_rate = some_rate(c.deck_wins, c.deck_games);
    CardStats {
        id: id.to_string(),
        name: c.name.clone(),
        copies: c.copies.clone(),
        played: c.played,
        games_played: c.games_played,
        wins_when_played: c.wins_when_played,
        win_rate_when_played: some_rate(c.wins_when_played, c.games_played),
        actions: c.actions.clone(),
        interval_when_played,
        games_not_played: c.games_not_played,
        wins_when_not_played: c.wins_when_not_played,
        win_rate_when_not_played: some_rate(c.wins_when_not_played, c.games_not_played),
        interval_when_not_played: wilson(c.wins_when_not_played, c.games_not_played),
        deck_games: c.deck_games,
        deck_wins: c.deck_wins,
        deck_win_rate,
        interval_deck: wilson(c.deck_wins, c.deck_games),
        flag: CardFlag::of(
            c.copies.iter().sum(),
            c.played,
            interval_when_played,
            deck_win_rate,
        ),
    }
}
