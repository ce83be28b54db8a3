//! What one player may know: the public zones, their own hidden cards where the ruleset lets
//! them see, counts of everything else, and the log as they may read it. Agents get only this.

use super::program::Program;
use super::state::{shown, CardId, Outcome, Seat, ZoneKey};
use super::Game;
use crate::ir::Visibility;
use std::fmt::Write;

/// A card as a player sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenCard {
    /// The name, when the player may see it.
    pub name: Option<String>,
    /// State ids it is in (public information).
    pub states: Vec<String>,
    /// Whose card is set on which (names of cards set on it that the player sees).
    pub attached: usize,
    /// Its slot, in a zone with slots (public: a slot of a zone is as public as the zone).
    pub slot: Option<String>,
}

/// One player's view of a game.
pub struct PlayerView<'g> {
    game: &'g Game<'g>,
    /// The seat whose view this is.
    pub seat: Seat,
}

impl<'g> PlayerView<'g> {
    pub(super) fn new<'p>(game: &'g Game<'p>, seat: Seat) -> PlayerView<'g> {
        // SAFETY-free narrowing: a Game<'p> outlives 'g, and Game is covariant in 'p.
        let game: &'g Game<'g> = game;
        PlayerView { game, seat }
    }

    /// The turn number and the turn player.
    pub fn turn(&self) -> (u32, Seat) {
        (self.game.state.turn, self.game.state.active)
    }

    /// The current phase's id, if any.
    pub fn phase(&self) -> Option<&str> {
        self.game
            .state
            .phase
            .map(|p| self.game.prog.ruleset.phases[p as usize].id.as_str())
    }

    /// How the game ended.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.game.state.outcome.as_ref()
    }

    /// The cards of a player's zone as this player sees them (ordered zones top first; a zone
    /// with slots in the order of its slots, cards in no slot last).
    pub fn zone(&self, zone: &str, owner: Seat) -> Vec<SeenCard> {
        let Some(&z) = self.game.prog.zones.get(zone) else {
            return Vec::new();
        };
        let k = ZoneKey { zone: z, owner };
        let info = &self.game.prog.ruleset.zones[z as usize];
        let mut cards: Vec<CardId> = self.game.state.zone(k).to_vec();
        if info.ordered {
            cards.reverse();
        }
        if !info.slots.is_empty() {
            let rank = |c: &CardId| {
                let slot = self.game.state.cards[*c as usize].slot.as_ref();
                slot.and_then(|s| info.slots.iter().position(|x| x == s))
                    .unwrap_or(usize::MAX)
            };
            cards.sort_by_key(rank);
        }
        cards.iter().map(|c| self.seen(*c)).collect()
    }

    fn seen(&self, c: CardId) -> SeenCard {
        let g = self.game;
        let cs = &g.state.cards[c as usize];
        let visible = g.visible_to(c, self.seat);
        SeenCard {
            name: visible.then(|| g.card_name(c)),
            states: (0..g.prog.states.len())
                .filter(|s| cs.states & (1 << s) != 0)
                .map(|s| g.prog.states[s].id.to_string())
                .collect(),
            attached: g.state.cards.iter().filter(|x| x.host == Some(c)).count(),
            slot: cs.slot.clone(),
        }
    }

    /// A player's counter.
    pub fn counter(&self, counter: &str, player: Seat) -> Option<i64> {
        let k = *self.game.prog.counter_index.get(counter)?;
        Some(self.game.state.players.get(player as usize)?.counters[k as usize])
    }

    /// The log as this player may read it.
    pub fn log(&self) -> impl Iterator<Item = &str> {
        let seat = self.seat;
        self.game.log().iter().map(move |e| e.text_for(Some(seat)))
    }

    /// The log as this player may read it, each line with its entry's turn and kind (`turn`,
    /// `move`, … see [`LogEntry`](super::LogEntry)).
    pub fn log_entries(&self) -> impl Iterator<Item = (u32, &'static str, &str)> {
        let seat = self.seat;
        self.game
            .log()
            .iter()
            .map(move |e| (e.turn, e.kind, e.text_for(Some(seat))))
    }

    /// The board as text, for the terminal: every zone of every player, hidden cards as `?`.
    pub fn render(&self) -> String {
        let g = self.game;
        let mut out = String::new();
        let (turn, active) = self.turn();
        let _ = writeln!(
            out,
            "── turn {turn}, p{}'s turn{} ── you are p{}",
            shown(active),
            self.phase()
                .map(|p| format!(", {} phase", Program::short(p)))
                .unwrap_or_default(),
            shown(self.seat)
        );
        for p in g.prog.seats() {
            let counters: Vec<String> = g
                .prog
                .ruleset
                .counters
                .iter()
                .filter(|c| c.on_players)
                .map(|c| {
                    format!(
                        "{} {}",
                        Program::short(&c.name.id),
                        self.counter(&c.name.id, p).unwrap_or(0)
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "p{}{}  {}",
                shown(p),
                if p == self.seat { " (you)" } else { "" },
                counters.join("  ")
            );
            for z in &g.prog.ruleset.zones {
                let cards = self.zone(&z.name.id, p);
                if cards.is_empty() && z.slots.is_empty() {
                    continue;
                }
                let shown = cards.iter().any(|c| c.name.is_some());
                let body = if !z.slots.is_empty() {
                    by_slot(&z.slots, &cards)
                } else if !shown || (z.visibility != Visibility::Public && cards.len() > 12) {
                    format!(
                        "{} card{}",
                        cards.len(),
                        if cards.len() == 1 { "" } else { "s" }
                    )
                } else {
                    cards.iter().map(card_text).collect::<Vec<_>>().join(" · ")
                };
                let _ = writeln!(out, "  {:<12} {}", Program::short(&z.name.id), body);
            }
        }
        out
    }
}

/// A card on the board: its name (`?` when hidden), its states, the cards set on it.
fn card_text(c: &SeenCard) -> String {
    let mut s = c.name.clone().unwrap_or_else(|| "?".into());
    if !c.states.is_empty() {
        let st: Vec<&str> = c.states.iter().map(|x| Program::short(x)).collect();
        s.push_str(&format!(" [{}]", st.join(",")));
    }
    if c.attached > 0 {
        s.push_str(&format!(" (+{} set)", c.attached));
    }
    s
}

/// A zone with slots on the board: every slot by name with its card, `—` when empty (cards in
/// no slot after them).
fn by_slot(slots: &[String], cards: &[SeenCard]) -> String {
    let mut parts: Vec<String> = slots
        .iter()
        .map(|s| {
            let here = cards.iter().find(|c| c.slot.as_ref() == Some(s));
            format!("{s}: {}", here.map_or_else(|| "—".to_string(), card_text))
        })
        .collect();
    let loose = cards
        .iter()
        .filter(|c| c.slot.as_ref().is_none_or(|s| !slots.contains(s)));
    parts.extend(loose.map(card_text));
    parts.join(" · ")
}
