//! Choices and the agents that make them. Every decision of a game goes through one
//! [`Request`] answered by an [`Agent`] that sees only a [`PlayerView`].

use super::state::{CardId, Seat};
use super::view::PlayerView;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The label of the option that declines an optional slot choice (`choose up to 1 slot of …`):
/// the last option of its request (the others are the slots' names).
pub const NO_SLOT: &str = "no slot";

/// What kind of answer a request wants.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestKind {
    /// Take one of the offered actions, or pass (the last option is always "pass").
    Action,
    /// Yes or no (`may`, optional costs).
    YesNo,
    /// Pick between `min` and `max` of the options (cards).
    Cards {
        /// Fewest.
        min: usize,
        /// Most.
        max: usize,
    },
    /// Pick one option (`choose one`, the order of triggers).
    OneOf,
    /// Name something (`declare name`): free text; `options` lists suggestions.
    Declare,
    /// How many more times a loop repeats (docs/engine.md, "Loops"): a number from 0 to
    /// `max`, answered as [`Answer::Pick`]; `options` is empty.
    Repeat {
        /// The most that may be named.
        max: usize,
    },
}

/// One option of a request.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Choice {
    /// What the player reads: `raid Grey Wolf`, `pass`, a card name, or `a hidden card`.
    pub label: String,
    /// The action or ability kind's short name, for actions.
    pub action: Option<String>,
    /// The card's name as the chooser may know it (`None` when hidden from them).
    pub card: Option<String>,
    /// The card, for engine use (never shown to agents as an identity).
    #[serde(skip)]
    pub card_id: Option<CardId>,
}

/// A decision asked of one player.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Request {
    /// Who decides.
    pub player: Seat,
    /// What kind of answer.
    pub kind: RequestKind,
    /// A one-line description (`choose 1 card in your.reserve`).
    pub prompt: String,
    /// The options.
    pub options: Vec<Choice>,
}

/// An answer to a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The option at this index (actions, one-of).
    Pick(usize),
    /// Yes / no.
    Yes(bool),
    /// These options (cards).
    Many(Vec<usize>),
    /// A declared text.
    Text(String),
    /// The player concedes (12.7: at any time, always accepted).
    Concede,
}

impl Request {
    /// Whether an answer fits the request.
    pub fn accepts(&self, a: &Answer) -> bool {
        match (&self.kind, a) {
            (_, Answer::Concede) => true,
            (RequestKind::Action | RequestKind::OneOf, Answer::Pick(i)) => *i < self.options.len(),
            (RequestKind::YesNo, Answer::Yes(_)) => true,
            (RequestKind::Cards { min, max }, Answer::Many(v)) => {
                let mut seen = v.clone();
                seen.sort_unstable();
                seen.dedup();
                seen.len() == v.len()
                    && v.len() >= *min
                    && v.len() <= *max
                    && v.iter().all(|i| *i < self.options.len())
            }
            (RequestKind::Declare, Answer::Text(t)) => !t.trim().is_empty(),
            (RequestKind::Repeat { max }, Answer::Pick(n)) => n <= max,
            _ => false,
        }
    }
}

/// Something that answers requests for one seat.
pub trait Agent: Send {
    /// Answers a request, seeing only the player's view.
    fn decide(&mut self, view: &PlayerView<'_>, request: &Request) -> Answer;
}

/// `agent`'s answer to `request`, or the first legal answer when the agent's is not one the
/// request accepts (a human's slip, an agent's bug): every driver of a game asks this way.
pub fn decide_or_first_legal(
    agent: &mut dyn Agent,
    view: &PlayerView<'_>,
    request: &Request,
) -> Answer {
    let answer = agent.decide(view, request);
    if request.accepts(&answer) {
        answer
    } else {
        FirstLegalAgent.decide(view, request)
    }
}

/// Picks uniformly among legal answers, from its own seeded stream.
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random agent for a seat of a seeded game (its own stream: swapping one agent does not
    /// change the shuffles or the other seat's choices).
    pub fn new(seed: u64, seat: Seat) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(u64::from(seat).saturating_add(1));
        RandomAgent { rng }
    }
}

impl Agent for RandomAgent {
    fn decide(&mut self, _view: &PlayerView<'_>, r: &Request) -> Answer {
        let n = r.options.len();
        match r.kind {
            RequestKind::Action | RequestKind::OneOf => {
                Answer::Pick(self.rng.random_range(0..n.max(1)))
            }
            RequestKind::YesNo => Answer::Yes(self.rng.random_bool(0.5)),
            RequestKind::Cards { min, max } => {
                let k = self.rng.random_range(min..=max.min(n).max(min));
                let mut idx: Vec<usize> = (0..n).collect();
                for i in 0..k.min(n) {
                    let j = self.rng.random_range(i..n);
                    idx.swap(i, j);
                }
                idx.truncate(k.min(n));
                Answer::Many(idx)
            }
            RequestKind::Declare => match r.options.len() {
                0 => Answer::Text("?".into()),
                n => Answer::Text(r.options[self.rng.random_range(0..n)].label.clone()),
            },
            // a few repetitions at most: random games stay short
            RequestKind::Repeat { max } => Answer::Pick(self.rng.random_range(0..=max.min(3))),
        }
    }
}

/// Always the first legal answer: the first action offered, yes, the fewest cards, no more
/// repetitions of a loop.
pub struct FirstLegalAgent;

impl Agent for FirstLegalAgent {
    fn decide(&mut self, _view: &PlayerView<'_>, r: &Request) -> Answer {
        match r.kind {
            RequestKind::Action | RequestKind::OneOf => Answer::Pick(0),
            RequestKind::YesNo => Answer::Yes(true),
            RequestKind::Cards { min, .. } => Answer::Many((0..min).collect()),
            RequestKind::Declare => Answer::Text(
                r.options
                    .first()
                    .map(|o| o.label.clone())
                    .unwrap_or_else(|| "?".into()),
            ),
            RequestKind::Repeat { .. } => Answer::Pick(0),
        }
    }
}

/// Takes an action whenever it may and says yes to everything, choosing at random (from its own
/// seeded stream, as [`RandomAgent`]) among what is left: an action other than the last option
/// ("pass") when one is offered, yes to every yes/no question, as many cards as it may, a random
/// option of a one-of or a suggested name, and never another repetition of a loop (so it cannot
/// keep a loop going for ever).
pub struct GreedyAgent {
    rng: ChaCha8Rng,
}

impl GreedyAgent {
    /// A greedy agent for a seat of a seeded game, on the same stream a [`RandomAgent`] of that
    /// seat would use.
    pub fn new(seed: u64, seat: Seat) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(u64::from(seat).saturating_add(1));
        GreedyAgent { rng }
    }
}

impl Agent for GreedyAgent {
    fn decide(&mut self, _view: &PlayerView<'_>, r: &Request) -> Answer {
        let n = r.options.len();
        match r.kind {
            // the last option of an action request is "pass": only when it is the only one
            RequestKind::Action => {
                Answer::Pick(self.rng.random_range(0..n.saturating_sub(1).max(1)))
            }
            RequestKind::OneOf => Answer::Pick(self.rng.random_range(0..n.max(1))),
            RequestKind::YesNo => Answer::Yes(true),
            RequestKind::Cards { min, max } => {
                let k = max.min(n).max(min).min(n);
                let mut idx: Vec<usize> = (0..n).collect();
                for i in 0..k {
                    let j = self.rng.random_range(i..n);
                    idx.swap(i, j);
                }
                idx.truncate(k);
                Answer::Many(idx)
            }
            RequestKind::Declare => match n {
                0 => Answer::Text("?".into()),
                n => Answer::Text(r.options[self.rng.random_range(0..n)].label.clone()),
            },
            RequestKind::Repeat { .. } => Answer::Pick(0),
        }
    }
}
