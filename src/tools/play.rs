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
}

/// The help text shown for `?` and `help`.
pub const HELP: &str = "\
answers:
  a number            take that action / pick that option (1 is the first)
  y / n               answer a yes-or-no question
  1 3, 1,3            choose these cards (an empty line chooses none, when that is allowed)
  any text            a declaration (a number picks that suggestion)
  a number from 0     how many more times a loop repeats
  concede             give up the game (at any question)
  board               show the board again
  log                 show the whole log so far
  ? / help            this text";

/// Reads one line of input against a request. Numbers are 1-based as shown. `Err` says why the
/// line does not answer the request (shown to the player, who is asked again).
pub fn parse_answer(req: &Request, line: &str) -> Result<Input, String> {
    let text = line.trim();
    let lower = text.to_lowercase();
    match lower.as_str() {
        "concede" => return Ok(Input::Answer(Answer::Concede)),
        "?" | "help" => return Ok(Input::Help),
        "board" => return Ok(Input::Board),
        "log" => return Ok(Input::Log),
        _ => {}
    }
    let n = req.options.len();
    let pick = |s: &str| -> Result<usize, String> {
        match s.parse::<usize>() {
            Ok(i) if (1..=n).contains(&i) => Ok(i - 1),
            _ if n == 0 => Err("there is nothing to pick".into()),
            _ => Err(format!(
                "`{s}` is not an option: type a number from 1 to {n}"
            )),
        }
    };
    let answer = match &req.kind {
        RequestKind::Action | RequestKind::OneOf => {
            if text.is_empty() {
                return Err(format!("type a number from 1 to {n}"));
            }
            let last_is_pass = req.options.last().is_some_and(|o| o.label == "pass");
            if lower == "pass" && req.kind == RequestKind::Action && last_is_pass {
                Answer::Pick(n - 1)
            } else {
                Answer::Pick(pick(text)?)
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
                Ok(i) if (1..=n).contains(&i) => Answer::Text(req.options[i - 1].label.clone()),
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

/// How many cards a request wants, in words.
fn count_hint(min: usize, max: usize, options: usize) -> String {
    let max = max.min(options);
    match (min, max) {
        (a, b) if a == b => format!("exactly {a}"),
        (0, b) => format!("up to {b}; an empty line for none"),
        (a, b) => format!("{a} to {b}"),
    }
}

/// What kind of answer a request wants, as a line for the player.
fn how_to_answer(req: &Request) -> String {
    let n = req.options.len();
    match &req.kind {
        RequestKind::Action => format!("a number from 1 to {n} (or `pass`)"),
        RequestKind::OneOf => format!("a number from 1 to {n}"),
        RequestKind::YesNo => "`y` or `n`".into(),
        RequestKind::Cards { min, max } => format!(
            "card numbers separated by spaces or commas: {}",
            count_hint(*min, *max, n)
        ),
        RequestKind::Declare if n > 0 => "a text, or the number of a suggestion".into(),
        RequestKind::Declare => "a text".into(),
        RequestKind::Repeat { max } => format!("a number of repetitions from 0 to {max}"),
    }
}

/// A person answering at a terminal, for any number of seats (hot seat): it shows the asked
/// player their view, the log lines they have not seen yet (as they may read them), then the
/// request with numbered options, and reads lines until one answers it. `concede` concedes;
/// the end of the input (or a read error) concedes too.
pub struct HumanAgent<R, W> {
    input: R,
    output: W,
    /// Log lines already shown, per seat (the last slot: a spectator's full log).
    seen: Vec<usize>,
    /// The input has ended.
    eof: bool,
}

impl<R: BufRead, W: Write> HumanAgent<R, W> {
    /// An agent reading answers from `input` and writing to `output`.
    pub fn new(input: R, output: W) -> Self {
        HumanAgent {
            input,
            output,
            seen: Vec::new(),
            eof: false,
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

    /// Shows the request and reads lines until one answers it (without a view: `board` and
    /// `log` are not available).
    pub fn ask(&mut self, req: &Request) -> Answer {
        self.ask_with(None, req)
    }

    fn show_request(&mut self, req: &Request) {
        let _ = writeln!(self.output, "p{}: {}", req.player + 1, req.prompt);
        for (i, o) in req.options.iter().enumerate() {
            let _ = writeln!(self.output, "  {:>2}. {}", i + 1, o.label);
        }
        let _ = writeln!(
            self.output,
            "answer with {}; `?` for help",
            how_to_answer(req)
        );
    }

    fn ask_with(&mut self, view: Option<&PlayerView<'_>>, req: &Request) -> Answer {
        if self.eof {
            return Answer::Concede;
        }
        self.show_request(req);
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
            match parse_answer(req, &line) {
                Ok(Input::Answer(a)) => return a,
                Ok(Input::Help) => {
                    self.say(HELP);
                    self.show_request(req);
                }
                Ok(Input::Board) => match view {
                    Some(v) => {
                        let board = v.render();
                        self.say(board.trim_end());
                    }
                    None => self.say("(no board to show here)"),
                },
                Ok(Input::Log) => match view {
                    Some(v) => {
                        for l in v.log() {
                            let _ = writeln!(self.output, "  · {l}");
                        }
                    }
                    None => self.say("(no log to show here)"),
                },
                Err(why) => self.say(&format!("✗ {why}")),
            }
        }
    }
}

impl<R: BufRead + Send, W: Write + Send> Agent for HumanAgent<R, W> {
    fn decide(&mut self, view: &PlayerView<'_>, request: &Request) -> Answer {
        if self.eof {
            return Answer::Concede;
        }
        let board = view.render();
        self.say("");
        self.say(board.trim_end());
        self.show_new_lines(view.seat as usize, view.log());
        self.ask_with(Some(view), request)
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
        human.show_new_lines(s, game.log().iter().map(|e| e.text_for(Some(seat))));
    }
    if humans.is_empty() {
        human.show_new_lines(spectator, game.log().iter().map(|e| e.text.as_str()));
    }
    let mut notes = game.notes.clone();
    notes.extend(extra_notes);
    PlayResult {
        outcome: game.outcome().cloned().unwrap_or(Outcome::Draw),
        turns: game.state.turn,
        input_ended: human.input_ended(),
        log: game.log().to_vec(),
        notes,
    }
}
