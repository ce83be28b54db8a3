//! `fuda sim` answering balance questions: per-card win rates when played and when not (with
//! their Wilson intervals and flags), sorting by any column, the greedy agent, and a run split
//! into shards (`--shard K/N`) that `fuda sim merge` sums into exactly the output of one run.

use crate::support::run_fuda;
use fuda::engine::{Agent, Answer, Choice, GreedyAgent, Request, RequestKind};
use fuda::packs::Session;
use fuda::tools::sim::stats::CardFlag;
use fuda::tools::sim::{load_game, simulate, AgentKind, Loaded, SimConfig, SortKey};
use std::path::PathBuf;

const TINY: &str = "tests/games/tiny";
const MEADOW: &str = "tests/games/tiny/decks/meadow.deck";
const THICKET: &str = "tests/games/tiny/decks/thicket.deck";

fn tiny() -> Loaded {
    let mut s = Session::new();
    let l = load_game(
        &mut s,
        TINY,
        &[PathBuf::from(MEADOW), PathBuf::from(THICKET)],
    );
    assert_eq!(s.error_count(), 0, "{:#?}", s.diags);
    l.unwrap()
}

fn config(games: usize, threads: usize, seed: u64) -> SimConfig {
    SimConfig {
        games,
        threads,
        seed,
        ..SimConfig::default()
    }
}

/// Per card: the games its deck played it in and did not add up to its deck's games, the
/// deck's rate is its deck's, every rate lies in its interval, and the flags follow their
/// definition.
#[test]
fn played_not_played_and_deck_rates_add_up() {
    let l = tiny();
    let s = simulate(&l.program, &l.decks, &config(80, 2, 3));
    let finished = (s.games - s.crashed) as u64;
    assert!(finished > 0);
    for c in &s.cards {
        let in_decks: Vec<usize> = (0..2).filter(|d| c.copies[*d] > 0).collect();
        assert_eq!(c.deck_games, finished * in_decks.len() as u64, "{}", c.name);
        assert_eq!(
            c.games_played + c.games_not_played,
            c.deck_games,
            "{}",
            c.name
        );
        assert_eq!(c.wins_when_played + c.wins_when_not_played, c.deck_wins);
        if let [d] = in_decks[..] {
            assert_eq!(c.deck_win_rate, Some(s.decks[d].win_rate), "{}", c.name);
        }
        for (rate, interval) in [
            (c.win_rate_when_played, c.interval_when_played),
            (c.win_rate_when_not_played, c.interval_when_not_played),
            (c.deck_win_rate, c.interval_deck),
        ] {
            assert_eq!(rate.is_some(), interval.is_some());
            if let (Some(r), Some([lo, hi])) = (rate, interval) {
                assert!(0.0 <= lo && lo <= r && r <= hi && hi <= 1.0, "{}", c.name);
            }
        }
        let expected = match (c.interval_when_played, c.deck_win_rate) {
            _ if c.played == 0 => Some(CardFlag::NeverPlayed),
            (Some([lo, _]), Some(d)) if lo > d => Some(CardFlag::AboveDeck),
            (Some([_, hi]), Some(d)) if hi < d => Some(CardFlag::BelowDeck),
            _ => None,
        };
        assert_eq!(c.flag, expected, "{}", c.name);
    }
}

/// `--sort`: every documented column sorts, figures descending, name ascending; an unknown
/// column is refused with the list.
#[test]
fn cards_sort_by_any_column() {
    let l = tiny();
    let s = simulate(&l.program, &l.decks, &config(40, 1, 1));
    for (name, key) in SortKey::ALL {
        assert_eq!(SortKey::parse(name), Ok(key));
        let mut sorted = s.clone();
        sorted.sort_cards(key);
        assert_eq!(sorted.cards.len(), s.cards.len(), "{name}");
    }
    let mut by_played = s.clone();
    by_played.sort_cards(SortKey::Played);
    assert!(by_played
        .cards
        .windows(2)
        .all(|w| w[0].played >= w[1].played));
    let mut by_win = s.clone();
    by_win.sort_cards(SortKey::Win);
    let rates: Vec<f64> = by_win
        .cards
        .iter()
        .filter_map(|c| c.win_rate_when_played)
        .collect();
    assert!(rates.windows(2).all(|w| w[0] >= w[1]), "{rates:?}");
    let err = SortKey::parse("winrate").unwrap_err();
    assert!(err.contains("not-win") && err.contains("delta"), "{err}");
}

fn request(kind: RequestKind, n: usize) -> Request {
    Request {
        player: 0,
        kind,
        prompt: "choose".into(),
        options: (0..n)
            .map(|i| Choice {
                label: format!("option {i}"),
                action: None,
                card: None,
                card_id: None,
            })
            .collect(),
    }
}

/// The greedy agent never passes when it may act, says yes, takes as many cards as it may and
/// never repeats a loop.
#[test]
fn the_greedy_agent_acts_whenever_it_may() {
    let l = tiny();
    let game = fuda::engine::Game::new(
        &l.program,
        &[l.decks[0].cards.clone(), l.decks[1].cards.clone()],
        None,
        &fuda::engine::Options::default(),
    );
    let view = game.view(0);
    let mut g = GreedyAgent::new(7, 0);
    for _ in 0..50 {
        let Answer::Pick(i) = g.decide(&view, &request(RequestKind::Action, 4)) else {
            panic!("an action is a pick")
        };
        assert!(i < 3, "never the last option, pass");
    }
    assert_eq!(
        g.decide(&view, &request(RequestKind::Action, 1)),
        Answer::Pick(0),
        "pass when nothing else is offered"
    );
    assert_eq!(
        g.decide(&view, &request(RequestKind::YesNo, 0)),
        Answer::Yes(true)
    );
    let cards = request(RequestKind::Cards { min: 0, max: 2 }, 5);
    let Answer::Many(v) = g.decide(&view, &cards) else {
        panic!("cards are many")
    };
    assert_eq!(v.len(), 2);
    assert!(cards.accepts(&Answer::Many(v)));
    let few = request(RequestKind::Cards { min: 1, max: 4 }, 2);
    assert!(few.accepts(&g.decide(&view, &few)));
    assert_eq!(
        g.decide(&view, &request(RequestKind::Repeat { max: 9 }, 0)),
        Answer::Pick(0)
    );
}

/// Greedy games are deterministic whatever the threads, differ from random ones, and each
/// deck may have its own agent.
#[test]
fn greedy_sims_are_deterministic_and_per_deck() {
    let l = tiny();
    let greedy = |threads, agents: Vec<AgentKind>| {
        let c = SimConfig {
            agents,
            ..config(30, threads, 4)
        };
        simulate(&l.program, &l.decks, &c)
    };
    let one = greedy(1, vec![AgentKind::Greedy]);
    assert_eq!(one, greedy(2, vec![AgentKind::Greedy]));
    assert_eq!(one.agents, ["greedy", "greedy"]);
    assert!(one
        .render()
        .starts_with("30 games of tiny, seed 4, at most 2000000 steps each, agents greedy\n"));
    let random = greedy(1, vec![]);
    assert_eq!(random.agents, ["random", "random"]);
    assert_ne!(one.cards, random.cards);
    let mixed = greedy(2, vec![AgentKind::Greedy, AgentKind::Random]);
    assert_eq!(mixed.agents, ["greedy", "random"]);
    assert!(mixed.render().contains(", agents greedy/random\n"));
}

fn sim_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "sim",
        TINY,
        "--deck",
        MEADOW,
        "--deck",
        THICKET,
        "--games",
        "25",
        "--seed",
        "9",
        "--threads",
        "2",
    ];
    args.extend_from_slice(extra);
    args
}

/// The command line: the new columns, `--sort`, and the JSON fields.
#[test]
fn the_card_table_on_the_command_line() {
    let (code, out, err) = run_fuda(&sim_args(&["--sort", "plays"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "played  games   win%       95% CI  not pl.   win%       95% CI   deck%  flag   card"
        ),
        "{out}"
    );
    let (code, out, err) = run_fuda(&sim_args(&["--json"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let card = &v["cards"][0];
    for key in [
        "games_not_played",
        "wins_when_not_played",
        "win_rate_when_not_played",
        "interval_when_played",
        "interval_when_not_played",
        "deck_games",
        "deck_wins",
        "deck_win_rate",
        "interval_deck",
        "flag",
        // the fields that were there before
        "played",
        "games_played",
        "wins_when_played",
        "win_rate_when_played",
        "actions",
    ] {
        assert!(card.get(key).is_some(), "{key}: {card}");
    }
    assert_eq!(v["agents"], serde_json::json!(["random", "random"]));
    assert!(v.get("shard").is_none(), "only a shard has `shard`");
    let (code, _, err) = run_fuda(&sim_args(&["--sort", "winrate"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the columns: name, id"), "{err}");
    let (code, _, err) = run_fuda(&sim_args(&["--agent", "clever"]));
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run_fuda(&sim_args(&["--agent", "greedy,random,greedy"]));
    assert_eq!(code, 2, "{err}");
}

/// Writes `text` into a fresh scratch file named for the test.
fn scratch(test: &str, name: &str, text: &str) -> String {
    let dir = PathBuf::from("target/test-sim").join(test);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Three shards merged print byte for byte what one run prints, as tables and as JSON, in
/// any order of the files.
#[test]
fn three_shards_merge_into_one_run() {
    let agents = ["--agent", "greedy,random"];
    let mut shards = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let (code, out, err) = run_fuda(&sim_args(
            &[&["--json", "--shard", &shard][..], &agents[..]].concat(),
        ));
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["shard"]["index"], k);
        assert_eq!(v["games"], [9, 8, 8][k - 1], "game i when i % 3 == K - 1");
        shards.push(scratch("merge", &format!("shard-{k}.json"), &out));
    }
    let (code, whole_json, err) = run_fuda(&sim_args(&[&["--json"][..], &agents[..]].concat()));
    assert_eq!(code, 0, "{err}");
    let (code, whole_text, err) = run_fuda(&sim_args(&agents));
    assert_eq!(code, 0, "{err}");
    let merge = |files: &[&String], extra: &[&str]| {
        let mut args = vec!["sim", "merge"];
        args.extend(files.iter().map(|f| f.as_str()));
        args.extend_from_slice(extra);
        run_fuda(&args)
    };
    let (code, merged_json, err) = merge(&[&shards[2], &shards[0], &shards[1]], &["--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged_json, whole_json);
    let (code, merged_text, err) = merge(&[&shards[0], &shards[1], &shards[2]], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged_text, whole_text);
    let (_, sorted_whole, _) =
        run_fuda(&sim_args(&[&["--sort", "delta"][..], &agents[..]].concat()));
    let (_, sorted_merged, _) = merge(&[&shards[1], &shards[2], &shards[0]], &["--sort", "delta"]);
    assert_eq!(sorted_merged, sorted_whole);
}

/// Shards of different runs, a shard missing or given twice, and files that are no shards are
/// errors (exit 1); a bad `--shard` is a usage error (exit 2).
#[test]
fn shards_of_different_runs_do_not_merge() {
    let shard = |k: &str, extra: &[&str]| {
        let mut args = sim_args(&[&["--json", "--shard", k][..], extra].concat());
        if let Some(seed) = extra.iter().position(|a| *a == "--seed") {
            // the seed given instead of the usual one
            let at = args.iter().position(|a| *a == "--seed").unwrap();
            args.drain(at..at + 2);
            assert!(seed < extra.len());
        }
        let (code, out, err) = run_fuda(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let one = scratch("mismatch", "one.json", &shard("1/2", &[]));
    let two = scratch("mismatch", "two.json", &shard("2/2", &[]));
    let seed = scratch("mismatch", "seed.json", &shard("2/2", &["--seed", "10"]));
    let greedy = scratch(
        "mismatch",
        "greedy.json",
        &shard("2/2", &["--agent", "greedy"]),
    );
    let three = scratch("mismatch", "three.json", &shard("2/3", &[]));
    let (_, whole, _) = run_fuda(&sim_args(&["--json"]));
    let whole = scratch("mismatch", "whole.json", &whole);
    for (files, why) in [
        (vec![&one, &seed], "seed"),
        (vec![&one, &greedy], "agents"),
        (vec![&one, &three], "shard count"),
        (vec![&one], "missing: 2/2"),
        (vec![&one, &one, &two], "given twice"),
        (vec![&one, &whole], "not a shard"),
    ] {
        let mut args = vec!["sim", "merge"];
        args.extend(files.iter().map(|f| f.as_str()));
        let (code, _, err) = run_fuda(&args);
        assert_eq!(code, 1, "{files:?}: {err}");
        assert!(err.contains(why), "{files:?}: {err}");
    }
    let (code, _, err) = run_fuda(&["sim", "merge", "target/test-sim/no-such.json"]);
    assert_eq!(code, 1, "{err}");
    for bad in ["0/3", "4/3", "3", "a/b"] {
        let (code, _, err) = run_fuda(&sim_args(&["--json", "--shard", bad]));
        assert_eq!(code, 2, "{bad}: {err}");
    }
    let (code, _, err) = run_fuda(&sim_args(&["--shard", "1/2"]));
    assert_eq!(code, 2, "--shard wants --json: {err}");
    let (code, _, err) = run_fuda(&["sim", "merge"]);
    assert_eq!(code, 2, "{err}");
}

/// Checks that `page` is well-formed: every tag closed in order (void elements and `/>`
/// excepted), nothing unescaped between tags. Returns the element names opened.
fn well_formed(page: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    let mut rest = page;
    while let Some(open) = rest.find('<') {
        assert!(
            !rest[..open].contains('>'),
            "a stray `>` before {}",
            &rest[open..]
        );
        let close = rest[open..].find('>').expect("a tag closes") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if tag.starts_with('!') || tag.starts_with('?') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name.trim()),
                "closing </{name}>"
            );
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect();
        seen.push(name.clone());
        if !tag.ends_with('/') && name != "meta" {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "left open: {stack:?}");
    seen
}

/// `--report DIR` writes one self-contained, well-formed page with the three plots, the
/// tables and the cards' Japanese names, and prints the same tables as without it.
#[test]
fn the_report_is_written_and_well_formed() {
    let dir = PathBuf::from("target/test-sim/report");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_s = dir.to_string_lossy().into_owned();
    let pmv = [
        "sim",
        "pmv",
        "--deck",
        "cards/pmv/decks/reimu-humans.deck",
        "--deck",
        "cards/pmv/decks/youkai-control.deck",
        "--games",
        "6",
        "--threads",
        "2",
    ];
    let (code, plain, err) = run_fuda(&pmv);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run_fuda(&[&pmv[..], &["--report", &dir_s]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, plain, "the report changes nothing on stdout");
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    let elements = well_formed(&page);
    assert_eq!(
        elements.iter().filter(|e| *e == "svg").count(),
        3,
        "three plots"
    );
    assert!(elements.iter().any(|e| e == "table"));
    for heading in [
        "Win rate per card",
        "Game length",
        "First-player advantage",
        "Cards",
    ] {
        assert!(page.contains(heading), "{heading}");
    }
    assert!(page.contains("人里の子供"), "card names as they are");
    assert!(page.contains("Noto Sans CJK JP"), "a CJK font named");
    // Self-contained: no script, nothing loaded from elsewhere.
    for outside in ["<script", "src=", "href=", "@import", "url("] {
        assert!(!page.contains(outside), "{outside}");
    }
    // Merge writes the same report.
    let (code, shard, err) = run_fuda(&[&pmv[..], &["--json", "--shard", "1/1"]].concat());
    assert_eq!(code, 0, "{err}");
    let shard = scratch("report", "shard.json", &shard);
    let merged = format!("{dir_s}-merged");
    let (code, _, err) = run_fuda(&["sim", "merge", &shard, "--report", &merged]);
    assert_eq!(code, 0, "{err}");
    let again = std::fs::read_to_string(PathBuf::from(merged).join("index.html")).unwrap();
    assert_eq!(again, page);
}
