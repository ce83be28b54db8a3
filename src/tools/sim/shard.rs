//! A simulation split over machines: `--shard K/N` plays game `i` when `i % N == K − 1` (the
//! game seeds those of the whole run), and its JSON carries a [`ShardInfo`] with the raw
//! [`Totals`]; [`merge`] checks that shards belong to one run and sums them into the summary
//! one machine would have computed.

use super::totals::Totals;
use super::{SimConfig, Summary};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The fuda version a shard was run with: shards of different versions are not merged.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A shard's place in its run and what merging needs (`shard` in its JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// K of `--shard K/N` (from 1).
    pub index: usize,
    /// N: the number of shards.
    pub count: usize,
    /// The games of the whole run (`--games`); the shard played those `i` with `i % N == K − 1`.
    pub games: usize,
    /// The fuda version that ran it.
    pub version: String,
    /// The deck format the games were played in.
    pub deck_format: Option<String>,
    /// The raw counts of its games.
    pub totals: Totals,
}

impl ShardInfo {
    /// The shard `(k, n)` (`k` from 0) of a run, with its totals.
    pub fn new((k, n): (usize, usize), config: &SimConfig, totals: Totals) -> Self {
        ShardInfo {
            index: k + 1,
            count: n,
            games: config.games,
            version: VERSION.into(),
            deck_format: config.deck_format.clone(),
            totals,
        }
    }
}

/// Reads `K/N` (1 ≤ K ≤ N) as `(K − 1, N)`.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{text}` is not a shard: write K/N with 1 ≤ K ≤ N (e.g. 2/8)");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k - 1, n))
}

/// Games of a run of `games` that shard `k` (from 0) of `n` plays.
fn share(games: usize, k: usize, n: usize) -> usize {
    (0..games).filter(|i| i % n.max(1) == k).count()
}

/// The summary of a whole run from its shards' JSON documents (`name`, text), in any order.
/// `Err` says why they do not make one run: not a shard, another seed, decks, games, agents,
/// step limit, deck format or fuda version, a shard missing or given twice.
pub fn merge(documents: &[(String, String)]) -> Result<Summary, String> {
    let mut shards: Vec<(&str, Summary, ShardInfo)> = Vec::new();
    for (name, text) in documents {
        let mut s: Summary = serde_json::from_str(text)
            .map_err(|e| format!("{name}: not the JSON of `fuda sim --json`: {e}"))?;
        let info = s.shard.take().ok_or_else(|| {
            format!("{name}: not a shard (run `fuda sim … --shard K/N --json` to make one)")
        })?;
        shards.push((name, s, info));
    }
    let Some((first_name, first, first_info)) = shards.first() else {
        return Err("no shard to merge".into());
    };
    let mut by_index: BTreeMap<usize, &str> = BTreeMap::new();
    let mut totals = Totals::default();
    for (i, (name, s, info)) in shards.iter().enumerate() {
        let differ = |what: &str, a: String, b: String| {
            format!("{name} and {first_name} are not shards of one run: {what} {b} vs {a}")
        };
        let same = [
            ("game", first.game.clone(), s.game.clone()),
            ("seed", first.seed.to_string(), s.seed.to_string()),
            (
                "--max-steps",
                first.max_steps.to_string(),
                s.max_steps.to_string(),
            ),
            ("agents", first.agents.join(","), s.agents.join(",")),
            (
                "shard count",
                first_info.count.to_string(),
                info.count.to_string(),
            ),
            (
                "games",
                first_info.games.to_string(),
                info.games.to_string(),
            ),
            (
                "fuda version",
                first_info.version.clone(),
                info.version.clone(),
            ),
            (
                "deck format",
                format!("{:?}", first_info.deck_format),
                format!("{:?}", info.deck_format),
            ),
        ];
        for (what, a, b) in same {
            if a != b {
                return Err(differ(what, a, b));
            }
        }
        if info.index == 0 || info.index > info.count {
            return Err(format!(
                "{name}: shard {}/{} is out of range",
                info.index, info.count
            ));
        }
        if let Some(other) = by_index.insert(info.index, name) {
            return Err(format!(
                "shard {}/{} is given twice: {other} and {name}",
                info.index, info.count
            ));
        }
        let expected = share(info.games, info.index - 1, info.count);
        if info.totals.games != expected || s.games != expected {
            return Err(format!(
                "{name}: shard {}/{} holds {} games, not the {expected} of its share",
                info.index, info.count, info.totals.games
            ));
        }
        if i == 0 {
            totals = info.totals.clone();
        } else {
            totals.add(&info.totals).map_err(|why| {
                format!("{name} and {first_name} are not shards of one run: {why}")
            })?;
        }
    }
    let missing: Vec<String> = (1..=first_info.count)
        .filter(|k| !by_index.contains_key(k))
        .map(|k| format!("{k}/{}", first_info.count))
        .collect();
    if !missing.is_empty() {
        return Err(format!("shard(s) missing: {}", missing.join(", ")));
    }
    Ok(totals.summary(&first.game, first.seed, first.max_steps, &first.agents))
}
