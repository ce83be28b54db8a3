//! Statements about what players know: `reveal`, `look at`, `shuffle`.

use crate::engine::agent::Request;
use crate::engine::state::{everyone, shown, Value, ZoneKey};
use crate::engine::Game;
use crate::ir::Expr;

impl Game<'_> {
    /// `reveal`: every player learns what the cards are. Revealing a whole zone counts as
    /// seeing it (`shuffle_when_seen`), as `look at` and `search` do.
    pub(super) fn exec_reveal(&mut self, cards: &Expr) -> Result<(), Box<Request>> {
        let v = self.eval(cards)?;
        self.mark_seen(cards)?;
        let all = everyone(self.prog.players());
        let list = self.cards_of(&v);
        if list.is_empty() {
            self.log_nothing("reveal", cards);
        }
        for c in list {
            self.state.cards[c as usize].known |= all;
            self.changed_unread_card(c);
            self.log_cards("reveal", &[c], |n| format!("{} is revealed", n[0]));
        }
        Ok(())
    }

    /// `look at … by player`: that player learns the cards; the others read only how many.
    pub(super) fn exec_look(&mut self, cards: &Expr, by: &Expr) -> Result<(), Box<Request>> {
        let v = self.eval(cards)?;
        self.mark_seen(cards)?;
        let who = self.player_or_you(by)?;
        let list = self.cards_of(&v);
        if list.is_empty() {
            self.log_nothing("look at", cards);
            return Ok(());
        }
        for c in &list {
            self.state.cards[*c as usize].known |= 1 << who;
            self.changed_unread_card(*c);
        }
        let names: Vec<String> = list.iter().map(|c| self.card_name(*c)).collect();
        let tags = list.iter().map(|c| (*c, self.seers(*c))).collect();
        let source = self.source_text();
        self.log_named(
            "look",
            tags,
            format!("p{} looks at {}", shown(who), names.join(", ")),
            format!(
                "p{} looks at {}",
                shown(who),
                super::cards_count(list.len())
            ),
            source,
        );
        Ok(())
    }

    /// `shuffle`: each owner's zone, whose hidden cards players forget.
    pub(super) fn exec_shuffle(&mut self, zone: &Expr) -> Result<(), Box<Request>> {
        if let Value::Zone(z, owners) = self.eval(zone)? {
            for o in owners {
                let k = ZoneKey { zone: z, owner: o };
                self.seen.retain(|x| *x != k);
                self.forget(k);
                self.shuffle_zone(k);
            }
        }
        Ok(())
    }
}
