//! Keywords held by players (declared `keyword k "…" = player`): restrictions and permissions
//! on a player that a ruleset's actions read (PMV 6.3.8: "a player can't make characters
//! attack"). One-shot effects grant them with a duration (`state.player_keywords`); continuous
//! abilities grant them while they apply (derived with the card modifiers, `layers.rs`).

use super::agent::Request;
use super::program::Program;
use super::rule_memo::Touched;
use super::state::{shown, PlayerKeyword, Seat, Until, Value};
use super::Game;
use crate::ir::{Expr, Id};

impl Game<'_> {
    /// `p has k` for a player keyword: every player named holds it (an absent player: no).
    pub(super) fn player_has(
        &mut self,
        player: &Expr,
        keyword: &Id,
    ) -> Result<Value, Box<Request>> {
        let seats = match self.eval(player)? {
            Value::Player(p) => vec![p],
            Value::Players(ps) if !ps.is_empty() => ps,
            _ => return Ok(Value::Bool(false)),
        };
        let Some(&k) = self.prog.keyword_index.get(keyword) else {
            return Ok(Value::Bool(false));
        };
        let mut all = true;
        for p in seats {
            all = all && self.holds_player_keyword(p, k);
        }
        Ok(Value::Bool(all))
    }

    /// Whether a player holds a player keyword now: a one-shot grant still lasting (a `while`
    /// read again in the context it was made in), or a continuous ability's.
    fn holds_player_keyword(&mut self, p: Seat, k: u16) -> bool {
        self.refresh();
        let grants: Vec<Until> = self
            .state
            .player_keywords
            .iter()
            .filter(|g| g.player == p && g.keyword == k)
            .map(|g| g.until.clone())
            .collect();
        for until in grants {
            match until {
                Until::While(w) => {
                    if self.while_holds(&w) {
                        return true;
                    }
                }
                _ => return true,
            }
        }
        !self.deriving && self.derived.players.contains(&(p, k))
    }

    /// `grant k to players` (for its duration) or `remove k from players` (every grant of it
    /// ends now), by a one-shot effect.
    pub(super) fn grant_player_keyword(
        &mut self,
        seats: Vec<Seat>,
        keyword: &Id,
        grant: bool,
        until: Until,
    ) {
        let Some(&k) = self.prog.keyword_index.get(keyword) else {
            return;
        };
        let name = Program::short(keyword).to_string();
        for p in seats {
            if grant {
                self.state.player_keywords.push(PlayerKeyword {
                    player: p,
                    keyword: k,
                    until: until.clone(),
                });
                self.log_line("modify", |_| format!("p{} gets {name}", shown(p)));
            } else {
                self.state
                    .player_keywords
                    .retain(|g| !(g.player == p && g.keyword == k));
                self.log_line("modify", |_| format!("p{} loses {name}", shown(p)));
            }
        }
        self.changed(Touched::Players);
    }

    /// A continuous ability's `grant`/`remove` of a player keyword, while it applies.
    pub(super) fn collect_player_keyword(&mut self, keyword: &Id, players: &Expr, grant: bool) {
        let Some(&k) = self.prog.keyword_index.get(keyword) else {
            return;
        };
        let seats = match self.eval(players) {
            Ok(Value::Player(p)) => vec![p],
            Ok(Value::Players(ps)) => ps,
            _ => Vec::new(),
        };
        for p in seats {
            if grant {
                self.derived.players.push((p, k));
            } else {
                self.derived.players.retain(|x| *x != (p, k));
            }
        }
    }
}
