//! The statistics of a simulation's rates: 95% Wilson score intervals, and which cards a
//! designer should look at (never played, or winning far more or less often than their deck
//! when played).

use serde::{Deserialize, Serialize};

/// The 97.5th percentile of the standard normal distribution: a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval of a rate of `successes` in `trials`, as `[low, high]` (each
/// within 0..=1); `None` when there is no trial. Unlike the normal approximation
/// (`p ± z·√(p(1−p)/n)`) it stays inside 0..=1 and is not zero-width at 0 or `n` successes,
/// so it is honest for the small samples a rarely played card has.
pub fn wilson(successes: u64, trials: u64) -> Option<[f64; 2]> {
    if trials == 0 {
        return None;
    }
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    Some([(centre - half).max(0.0), (centre + half).min(1.0)])
}

/// Why a card is worth a look (`flag` of a card in the summary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardFlag {
    /// In a deck, and never played in any game.
    NeverPlayed,
    /// The 95% interval of its owner's win rate in the games it was played in lies wholly above
    /// its deck's win rate.
    AboveDeck,
    /// That interval lies wholly below its deck's win rate.
    BelowDeck,
}

impl CardFlag {
    /// The flag of a card: its copies in the decks, the times it was played, the interval of its
    /// "played" win rate, `deck_rate` the win rate of its deck(s).
    pub fn of(
        copies: u32,
        played: u64,
        interval: Option<[f64; 2]>,
        deck_rate: Option<f64>,
    ) -> Option<CardFlag> {
        if copies > 0 && played == 0 {
            return Some(CardFlag::NeverPlayed);
        }
        let ([low, high], deck) = (interval?, deck_rate?);
        if low > deck {
            Some(CardFlag::AboveDeck)
        } else if high < deck {
            Some(CardFlag::BelowDeck)
        } else {
            None
        }
    }

    /// The word the tables show: `never`, `above`, `below`.
    pub fn word(self) -> &'static str {
        match self {
            CardFlag::NeverPlayed => "never",
            CardFlag::AboveDeck => "above",
            CardFlag::BelowDeck => "below",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 2], b: [f64; 2]) -> bool {
        (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9
    }

    /// Known values (Newcombe 1998's example 81/263, Agresti–Coull's 0/10 and 5/10; computed
    /// independently with the textbook formula).
    #[test]
    fn wilson_known_values() {
        let w = |k, n| wilson(k, n).unwrap_or([f64::NAN; 2]);
        assert!(close(
            w(81, 263),
            [0.255_288_519_878_274_2, 0.366_209_576_982_800]
        ));
        assert!(close(w(0, 10), [0.0, 0.277_532_799_862_889_2]));
        assert!(close(
            w(5, 10),
            [0.236_593_090_512_564, 0.763_406_909_487_436_1]
        ));
        assert!(close(w(10, 10), [0.722_467_200_137_110_7, 1.0]));
        assert!(close(w(1, 1), [0.206_549_314_377_237_45, 1.0]));
        assert_eq!(wilson(0, 0), None);
        // more successes than trials are read as all of them, never outside 0..=1
        assert!(close(w(12, 10), w(10, 10)));
    }

    #[test]
    fn flags() {
        assert_eq!(
            CardFlag::of(2, 0, None, Some(0.5)),
            Some(CardFlag::NeverPlayed)
        );
        assert_eq!(CardFlag::of(0, 0, None, None), None, "in no deck");
        let i = wilson(80, 100);
        assert_eq!(
            CardFlag::of(1, 100, i, Some(0.5)),
            Some(CardFlag::AboveDeck)
        );
        assert_eq!(
            CardFlag::of(1, 100, i, Some(0.9)),
            Some(CardFlag::BelowDeck)
        );
        assert_eq!(
            CardFlag::of(1, 100, i, Some(0.75)),
            None,
            "inside the interval"
        );
        assert_eq!(
            CardFlag::of(1, 3, wilson(3, 3), Some(0.5)),
            None,
            "too few games"
        );
    }
}
