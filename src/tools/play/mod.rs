//! `fuda play`: a whole game in the terminal. A [`HumanAgent`] shows a player their view and the
//! log lines they may read, asks the engine's request and reads the answer from a line of
//! input; other seats are played by the engine's agents. Input comes from any `BufRead` and
//! output goes to any `Write`, so tests drive a game with scripted input.
//!
//! Bad input is a message and the question again, never a panic; the end of the input concedes
//! (a game cannot wait for an answer that will never come).

use crate::engine::{
    decide_or_first_legal, Agent, Answer, FirstLegalAgent, Game, LogEntry, Options, Outcome,
    PlayerView, Program, RandomAgent, Request, RequestKind, Seat,
};
use std::io::{BufRead, Write};

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerKind {
    /// A person at the terminal ([`HumanAgent`]).
    Human,
    /// [`RandomAgent`], seeded with the game's seed.
    Random,
    /// [`FirstLegalAgent`].
    First,
}

/// What a line of input asks for, once read against a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// An answer that fits the request.
    Answer(Answer),
    /// `?` or `help`: how to answer.
    Help,
    /// `board`: show the board again.
    Board,
    /// `log`: the whole log so far, as this player may read it.
    Log,
    /// `card N` / `card NAME`: the text of option N's card or of a card seen by name.
    Card(String),
}

pub mod board;
pub mod question;

use crate::ir::render::{Lang, Vocabulary};
use board::{card_text, outcome_text, render};
use question::{count_hint, question_text, Asked, Numbering};

/// The help text shown for `?` and `help`.
pub const HELP: &str = "\
answers:
  a number            take that action / pick that option (numbers stay with their option
                      while the same question comes back this turn; a number whose option
                      is gone is refused)
  an action's text    take that action (`pass`, or the option as shown)
  y / n               answer a yes-or-no question
  1 3, 1,3            choose these cards (an empty line chooses none, when that is allowed)
  any text            a declaration (a number picks that suggestion)
  a number from 0     how many more times a loop repeats
  concede             give up the game (at any question)
  board               show the board again
  log                 show the whole log so far
  card N, card NAME   the text of option N's card, or of a card you can see by name
  ? / help            this text";

/// Reads one line of input against a request, its options numbered 1, 2, 3… in order. `Err`
/// says why the line does not answer the request (shown to the player, who is asked again).
pub fn parse_answer(req: &Request, line: &str) -> Result<Input, String> {
    let numbers: Vec<usize> = (1..=req.options.len()).collect();
    parse_answer_with(req, line, &numbers, None)
}

/// Reads one line of input against a request whose options are shown with `numbers` (by
/// option); `numbering` names the options no longer offered, so their numbers are refused
/// with a reason.
pub fn parse_answer_with(
    req: &Request,
    line: &str,
    numbers: &[usize],
    numbering: Option<&Numbering>,
) -> Result<Input, String> {
    let text = line.trim();
    let lower = text.to_lowercase();
    match lower.as_str() {
        "concede" => return Ok(Input::Answer(Answer::Concede)),
        "?" | "help" => return Ok(Input::Help),
        "board" => return Ok(Input::Board),
        "log" => return Ok(Input::Log),
        _ => {}
    }
    if let Some(rest) = lower.strip_prefix("card ") {
        let rest = text
            .get(text.len().saturating_sub(rest.len())..)
            .unwrap_or(rest);
        return Ok(Input::Card(rest.trim().to_string()));
    }
    let n = req.options.len();
    let list = || {
        let mut v = numbers.to_vec();
        v.sort_unstable();
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let pick = |s: &str| -> Result<usize, String> {
        let x = s.parse::<usize>().ok();
        if let Some(i) = x.and_then(|x| numbers.iter().position(|m| *m == x)) {
            return Ok(i);
        }
        if n == 0 {
            return Err("there is nothing to pick".into());
        }
        match x.and_then(|x| numbering.and_then(|b| b.retired(x))) {
            Some(label) => Err(format!(
                "{s} was `{label}`, which is no longer offered: type one of {}",
                list()
            )),
            None => Err(format!("`{s}` is not an option: type one of {}", list())),
        }
    };
    let answer = match &req.kind {
        RequestKind::Action | RequestKind::OneOf => {
            if text.is_empty() {
                return Err(format!("type one of {}", list()));
            }
            let by_label = req
                .options
                .iter()
                .position(|o| o.label.to_lowercase() == lower);
            match by_label {
                Some(i) if text.parse::<usize>().is_err() => Answer::Pick(i),
                _ => Answer::Pick(pick(text)?),
            }
        }
        RequestKind::YesNo => match lower.as_str() {
            "y" | "yes" => Answer::Yes(true),
            "n" | "no" => Answer::Yes(false),
            _ => return Err("answer `y` or `n`".into()),
        },
        RequestKind::Cards { min, max } => {
            let mut chosen = Vec::new();
            if lower != "none" {
                for tok in text.split(|c: char| c == ',' || c.is_whitespace()) {
                    if tok.is_empty() {
                        continue;
                    }
                    let i = pick(tok)?;
                    if chosen.contains(&i) {
                        return Err(format!("{tok} is chosen twice"));
                    }
                    chosen.push(i);
                }
            }
            if chosen.len() < *min {
                return Err(format!(
                    "choose at least {min} ({})",
                    count_hint(*min, *max, n)
                ));
            }
            if chosen.len() > *max {
                return Err(format!(
                    "choose at most {max} ({})",
                    count_hint(*min, *max, n)
                ));
            }
            Answer::Many(chosen)
        }
        RequestKind::Declare => {
            if text.is_empty() {
                return Err("type what you declare".into());
            }
            match text.parse::<usize>() {
                Ok(x) => match numbers.iter().position(|m| *m == x) {
                    Some(i) => Answer::Text(req.options[i].label.clone()),
                    None => Answer::Text(text.to_string()),
                },
                _ => Answer::Text(text.to_string()),
            }
        }
        RequestKind::Repeat { max } => match text.parse::<usize>() {
            Ok(k) if k <= *max => Answer::Pick(k),
            _ => return Err(format!("type a number from 0 to {max}")),
        },
    };
    if req.accepts(&answer) {
        Ok(Input::Answer(answer))
    } else {
        Err("that answer does not fit the question".into())
    }
}

/// What the human agent is shown at its next decision, read from the game (which it cannot
/// read itself: reading stats refreshes the game's derived modifiers).
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The board as the deciding player may know it.
    pub board: crate::engine::board::Board,
    /// What the question is asked within, where its cards are.
    pub asked: Asked,
    /// Every card the player may see now (on the board, or as an option): (name, its text).
    pub texts: Vec<(String, String)>,
    /// The visible card of each option (its name), by option.
    pub option_cards: Vec<Option<String>>,
}

impl Prepared {
    /// Reads what a human deciding `req` is shown from the game, questions and card texts in
    /// `lang`.
    pub fn read(game: &mut Game<'_>, req: &Request, lang: Lang) -> Prepared {
        let seat = req.player;
        let board = game.board(seat);
        let prog = game.prog;
        let cards: Vec<&crate::ir::Card> = prog.cards.iter().collect();
        let vocab = Vocabulary::new(&[&prog.ruleset], &cards);
        let bound = bound_readings(game, seat, lang);
        let question = game
            .asking_statement()
            .filter(|_| req.kind == crate::engine::RequestKind::YesNo)
            .and_then(|s| crate::ir::render::may_question(&vocab, s, lang, &bound));
        let asked = Asked {
            within: game.asked_within(seat),
            zones: game.option_zones(seat, &req.options),
            question,
        };
        let mut defs: Vec<u32> = Vec::new();
        let mut stack: Vec<&crate::engine::board::BoardCard> = board
            .players
            .iter()
            .flat_map(|p| p.zones.iter().flat_map(|z| z.cards.iter()))
            .collect();
        while let Some(c) = stack.pop() {
            if let Some(i) = &c.card {
                defs.push(i.def);
            }
            stack.extend(c.attached.iter());
        }
        let mut option_cards = Vec::new();
        for o in &req.options {
            let seen = o
                .card_id
                .filter(|c| game.sees(seat, *c))
                .and_then(|c| game.state.cards.get(c as usize))
                .map(|cs| cs.def);
            if let Some(d) = seen {
                defs.push(d);
            }
            option_cards
                .push(seen.and_then(|d| game.prog.cards.get(d as usize).map(|c| c.name.clone())));
        }
        defs.sort_unstable();
        defs.dedup();
        let texts = defs
            .iter()
            .filter_map(|d| {
                let name = game.prog.cards.get(*d as usize)?.name.clone();
                Some((name, card_text(&vocab, game.prog, *d, lang)))
            })
            .collect();
        Prepared {
            board,
            asked,
            texts,
            option_cards,
        }
    }
}

/// How the variables in scope read to `seat`, in `lang`: numbers as they are, players as
/// "you" / "your opponent" (`p3` beyond two), cards by name when `seat` sees them.
fn bound_readings(game: &Game<'_>, seat: Seat, lang: Lang) -> Vec<(String, String)> {
    let en = lang == Lang::En;
    let player = |p: Seat| match (p == seat, en) {
        (true, true) => "you".to_string(),
        (true, false) => "あなた".to_string(),
        (false, true) if game.prog.players() == 2 => "your opponent".to_string(),
        (false, false) if game.prog.players() == 2 => "相手".to_string(),
        (false, _) => format!("p{}", p.saturating_add(1)),
    };
    let card = |c: u32| {
        let name = game
            .state
            .cards
            .get(c as usize)
            .and_then(|cs| game.prog.cards.get(cs.def as usize))
            .map(|d| d.name.clone())
            .unwrap_or_default();
        if en {
            format!("“{name}”")
        } else {
            format!("「{name}」")
        }
    };
    game.visible_vars(seat)
        .into_iter()
        .filter_map(|(name, v)| {
            let text = match v {
                crate::engine::Value::Int(n) => n.to_string(),
                crate::engine::Value::Player(p) => player(p),
                crate::engine::Value::Card(c) => card(c),
                crate::engine::Value::Text(t) => t,
                _ => return None,
            };
            Some((name, text))
        })
        .collect()
}

/// A person answering at a terminal, for any number of seats (hot seat): it shows the asked
/// player the log lines they have not seen yet (as they may read them; a new turn announced),
/// their board, then the question with numbered options, and reads lines until one answers
/// it. `concede` concedes; the end of the input (or a read error) concedes too.
pub struct HumanAgent<R, W> {
    input: R,
    output: W,
    /// Log lines already shown, per seat (the last slot: a spectator's full log).
    seen: Vec<usize>,
    /// The last turn whose lines were shown (0: none yet).
    last_turn: u32,
    /// The input has ended.
    eof: bool,
    /// The numbers of the options of the questions asked.
    numbering: Numbering,
    /// What the next decision shows (set by [`play_game`]).
    prepared: Option<Prepared>,
}

impl<R: BufRead, W: Write> HumanAgent<R, W> {
    /// An agent reading answers from `input` and writing to `output`.
    pub fn new(input: R, output: W) -> Self {
        HumanAgent {
            input,
            output,
            seen: Vec::new(),
            last_turn: 0,
            eof: false,
            numbering: Numbering::default(),
            prepared: None,
        }
    }

    /// Whether the input ended (the player was conceded for).
    pub fn input_ended(&self) -> bool {
        self.eof
    }

    /// What was written so far (tests read it back from a `Vec<u8>`).
    pub fn output(&self) -> &W {
        &self.output
    }

    /// Writes a line of output; a closed output is not an error of the game's.
    pub fn say(&mut self, text: &str) {
        let _ = writeln!(self.output, "{text}");
        let _ = self.output.flush();
    }

    /// Sets what the next decision shows (the board, what the question is for, card texts).
    pub fn prepare(&mut self, prepared: Prepared) {
        self.prepared = Some(prepared);
    }

    /// Writes the lines of `log` (the whole log as `slot` may read it) that this slot has not
    /// been shown yet. `slot` is a seat, or any higher number for a spectator.
    pub fn show_new_lines<'a>(&mut self, slot: usize, log: impl Iterator<Item = &'a str>) {
        if self.seen.len() <= slot {
            self.seen.resize(slot + 1, 0);
        }
        let from = self.seen[slot];
        let mut count = 0;
        for (i, line) in log.enumerate() {
            count = i + 1;
            if i >= from {
                let _ = writeln!(self.output, "  · {line}");
            }
        }
        self.seen[slot] = count.max(from);
    }

    /// Writes the entries of the log `seat` has not been shown yet, as that player may read
    /// them, announcing the end of each turn and the start of the next.
    pub fn show_new_entries<'a>(
        &mut self,
        seat: Seat,
        log: impl Iterator<Item = (u32, &'static str, &'a str)>,
    ) {
        let slot = usize::from(seat);
        if self.seen.len() <= slot {
            self.seen.resize(slot + 1, 0);
        }
        let from = self.seen[slot];
        let mut count = 0;
        for (i, (turn, kind, text)) in log.enumerate() {
            count = i + 1;
            if i < from {
                continue;
            }
            if kind == "turn" && turn != self.last_turn && turn > 0 {
                if self.last_turn > 0 {
                    let _ = writeln!(self.output, "━━ end of turn {} ━━", self.last_turn);
                }
                self.last_turn = turn;
                let _ = writeln!(self.output, "━━ {text} ━━");
            } else {
                let _ = writeln!(self.output, "  · {text}");
            }
        }
        self.seen[slot] = count.max(from);
    }

    /// Shows the request and reads lines until one answers it (without a game: `board`, `log`
    /// and `card` are not available).
    pub fn ask(&mut self, req: &Request) -> Answer {
        self.ask_with(None, req)
    }

    fn show_request(&mut self, req: &Request, numbers: &[usize]) {
        let asked = self
            .prepared
            .as_ref()
            .map(|p| p.asked.clone())
            .unwrap_or_default();
        let text = question_text(req, &asked, numbers);
        let _ = writeln!(self.output, "{text}");
    }

    fn ask_with(&mut self, view: Option<&PlayerView<'_>>, req: &Request) -> Answer {
        if self.eof {
            return Answer::Concede;
        }
        let turn = view.map_or(0, |v| v.turn().0);
        let numbers = self.numbering.number(req, turn);
        self.show_request(req, &numbers);
        loop {
            let _ = write!(self.output, "> ");
            let _ = self.output.flush();
            let mut buf = Vec::new();
            match self.input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    self.eof = true;
                    self.say(&format!("\n(end of input: p{} concedes)", req.player + 1));
                    return Answer::Concede;
                }
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buf);
            match parse_answer_with(req, &line, &numbers, Some(&self.numbering)) {
                Ok(Input::Answer(a)) => return a,
                Ok(Input::Help) => self.say(HELP),
                Ok(Input::Board) => self.show_board(view),
                Ok(Input::Log) => match view {
                    Some(v) => {
                        for l in v.log() {
                            let _ = writeln!(self.output, "  · {l}");
                        }
                    }
                    None => self.say("(no log to show here)"),
                },
                Ok(Input::Card(what)) => self.show_card(&what, &numbers),
                Err(why) => {
                    self.say(&format!("✗ {why}"));
                    continue;
                }
            }
            self.show_request(req, &numbers);
        }
    }

    fn show_board(&mut self, view: Option<&PlayerView<'_>>) {
        let text = match (&self.prepared, view) {
            (Some(p), _) => render(&p.board),
            (None, Some(v)) => v.render(),
            (None, None) => "(no board to show here)".into(),
        };
        self.say(text.trim_end());
    }

    /// `card N` (option N's card) or `card NAME` (a card the player sees, by name).
    fn show_card(&mut self, what: &str, numbers: &[usize]) {
        let Some(p) = &self.prepared else {
            self.say("✗ no cards to show here");
            return;
        };
        let by_number = what.parse::<usize>().ok().map(|x| {
            numbers
                .iter()
                .position(|m| *m == x)
                .and_then(|i| p.option_cards.get(i).cloned().flatten())
        });
        let name = match by_number {
            Some(Some(n)) => n,
            Some(None) => {
                self.say(&format!("✗ option {what} is no card you can see"));
                return;
            }
            None => {
                let key = what.to_lowercase();
                let mut hits: Vec<&str> = p
                    .texts
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .filter(|n| n.to_lowercase().contains(&key))
                    .collect();
                hits.dedup();
                match hits.as_slice() {
                    [one] => (*one).to_string(),
                    [] => {
                        self.say(&format!("✗ you see no card named `{what}`"));
                        return;
                    }
                    many => {
                        let list = many.join(" · ");
                        self.say(&format!("✗ `{what}` names several cards: {list}"));
                        return;
                    }
                }
            }
        };
        let text = p
            .texts
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.clone())
            .unwrap_or_default();
        self.say(&format!("── {name} ──\n{}", text.trim_end()));
    }
}

impl<R: BufRead + Send, W: Write + Send> Agent for HumanAgent<R, W> {
    fn decide(&mut self, view: &PlayerView<'_>, request: &Request) -> Answer {
        if self.eof {
            return Answer::Concede;
        }
        self.say("");
        self.show_new_entries(view.seat, view.log_entries());
        self.show_board(Some(view));
        let answer = self.ask_with(Some(view), request);
        self.prepared = None;
        answer
    }
}

/// How to play one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayConfig {
    /// The game's seed (shuffles; the random agents' streams too).
    pub seed: u64,
    /// Statements the game may run before it is stopped as a draw.
    pub max_steps: u64,
    /// Who plays each seat (p1 first); seats beyond the list play first-legal.
    pub players: Vec<PlayerKind>,
    /// The deck format the game is played in (`deck_format()`); `None`: none.
    pub deck_format: Option<String>,
    /// The language questions and card texts are printed in (`ir::render`).
    pub lang: Lang,
}

/// How a game went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayResult {
    /// The outcome.
    pub outcome: Outcome,
    /// Turns played (the last turn's number).
    pub turns: u32,
    /// Whether the human's input ended (and they conceded).
    pub input_ended: bool,
    /// The whole event log.
    pub log: Vec<LogEntry>,
    /// The engine's notes (loops, the step limit).
    pub notes: Vec<String>,
    /// Why the game ended: the log's lines about its end (`p1 concedes`, `p1 loses`) and the
    /// line before the first of them, as every player may read them.
    pub reason: Vec<String>,
}

/// The lines of the log that tell why the game ended: the entry before its first `end` entry,
/// then every `end` entry but the last (the outcome itself); `p1 concedes` is one of them.
fn why(game: &Game<'_>) -> Vec<String> {
    let log = game.log();
    let Some(first) = log.iter().position(|e| e.kind == "end") else {
        return Vec::new();
    };
    let from = first.saturating_sub(1);
    let from_seq = log.get(from).map(|e| e.seq);
    let ends: Vec<&LogEntry> = log
        .since(from)
        .filter(|e| e.kind == "end" || Some(e.seq) == from_seq)
        .collect();
    let keep = ends.len().saturating_sub(1).max(1);
    ends.iter()
        .take(keep)
        .map(|e| e.redacted.as_deref().unwrap_or(&e.text).to_string())
        .collect()
}

/// Plays one game: `human` answers for the seats marked [`PlayerKind::Human`], engine agents
/// for the others. With no human seat, the whole log is written to `human`'s output as the
/// game goes (a spectator's view). At the end, each human seat is shown the lines it has not
/// seen yet. An automatic seat whose answer does not fit concedes (an engine problem, noted).
pub fn play_game<R: BufRead + Send, W: Write + Send>(
    prog: &Program,
    decks: &[Vec<u32>],
    config: &PlayConfig,
    human: &mut HumanAgent<R, W>,
) -> PlayResult {
    let options = Options {
        seed: config.seed,
        max_steps: config.max_steps,
        deck_format: config.deck_format.clone(),
    };
    let mut game = Game::new(prog, decks, None, &options);
    let seats = prog.players().max(decks.len());
    let kind = |s: usize| config.players.get(s).copied().unwrap_or(PlayerKind::First);
    let mut randoms: Vec<RandomAgent> = (0..seats)
        .map(|s| RandomAgent::new(config.seed, s as Seat))
        .collect();
    let humans: Vec<usize> = (0..seats)
        .filter(|s| kind(*s) == PlayerKind::Human)
        .collect();
    let spectator = seats;
    let mut extra_notes = Vec::new();
    while let Some(req) = game.step() {
        let seat = req.player as usize;
        if kind(seat) == PlayerKind::Human {
            human.prepare(Prepared::read(&mut game, &req, config.lang));
        }
        let mut a = {
            let view = game.view(req.player);
            let agent: &mut dyn Agent = match (kind(seat), randoms.get_mut(seat)) {
                (PlayerKind::Human, _) => human,
                (PlayerKind::Random, Some(r)) => r,
                _ => &mut FirstLegalAgent,
            };
            decide_or_first_legal(agent, &view, &req)
        };
        if !req.accepts(&a) {
            extra_notes.push(format!(
                "p{} could not answer `{}` and concedes",
                seat + 1,
                req.prompt
            ));
            a = Answer::Concede;
        }
        if !game.answer(&req, a) {
            let _ = game.answer(&req, Answer::Concede);
        }
        if humans.is_empty() {
            human.show_new_lines(spectator, game.log().iter().map(|e| e.text.as_str()));
        }
    }
    for &s in &humans {
        let seat = s as Seat;
        human.show_new_entries(seat, game.view(seat).log_entries());
    }
    let reason = why(&game);
    if let Some(&s) = humans.first() {
        // the end stays on screen: the final board as the (first) human may know it, then why
        let seat = s as Seat;
        let board = game.board(seat);
        human.say("");
        human.say(&format!(
            "━━ game over after {} turn{}: {} ━━",
            game.state.turn,
            if game.state.turn == 1 { "" } else { "s" },
            game.outcome().map_or_else(|| "a draw".into(), outcome_text)
        ));
        human.say(render(&board).trim_end());
        for r in &reason {
            human.say(&format!("  why: {r}"));
        }
    }
    if humans.is_empty() {
        human.show_new_lines(spectator, game.log().iter().map(|e| e.text.as_str()));
    }
    let mut notes = game.notes.clone();
    notes.extend(extra_notes);
    PlayResult {
        reason,
        outcome: game.outcome().cloned().unwrap_or(Outcome::Draw),
        turns: game.state.turn,
        input_ended: human.input_ended(),
        log: game.log().to_vec(),
        notes,
    }
}
