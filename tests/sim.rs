//! `fuda sim` and `fuda play` as a library: simulations are deterministic whatever the thread
//! count, "played" means what the documentation says, and the human agent survives any input
//! (bad answers are asked again, the end of input concedes).

use fuda::engine::{Answer, Outcome, Request, RequestKind};
use fuda::packs::Session;
use fuda::tools::play::{parse_answer, play_game, HumanAgent, Input, PlayConfig, PlayerKind};
use fuda::tools::sim::{load_game, simulate, Loaded, SimConfig, Summary};
use std::io::Cursor;
use std::path::PathBuf;

/// A made-up two-player game small enough to play hundreds of games in a test: units are
/// played from the hand, attack for 1 life, and a player at 0 life or with an empty deck loses.
const TINY_RULESET: &str = r#"game tiny "Tiny" {
  players 2
  zone deck "deck" private ordered per_player
  zone hand "hand" owner_sees unordered per_player
  zone field "field" public unordered per_player in_play
  counter life "life" on player
  card_type unit "unit" { cost: number  power: number }
  verb draw(n: number) "draw" { move top n of your.deck to your.hand }
  action play_card "play" for c in card in your.hand if count(your.field) < 3 {
    move c to your.field
    check
  }
  action attack "attack" for c in card on your.field if turn_number() > 1 {
    opponent.life += -1
    check
  }
  rule defeat "defeat" { if your.life <= 0 { lose you } }
  rule decked "decked" { if count(your.deck) == 0 { lose you } }
  setup { shuffle each.deck  your.life += 3  opponent.life += 3  draw 3 }
  turn {
    phase draw "draw" { draw 1 check }
    phase main "main" { window you { play_card, attack } }
  }
}
"#;

const TINY_CARDS: &str = r#"game tiny
card "Ant" { number: "1" type: unit cost: 1 power: 1 }
card "Bee" { number: "2" type: unit cost: 1 power: 2 }
card "Cat" { number: "3" type: unit cost: 2 power: 3 }
"#;

/// Writes the tiny game's pack and two decks into a fresh temporary folder named for `test`.
fn tiny_pack(test: &str) -> (PathBuf, Vec<PathBuf>) {
    let dir = std::env::temp_dir().join(format!("fuda-sim-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("decks")).unwrap();
    std::fs::write(
        dir.join("pack.toml"),
        "name = \"tiny\"\nversion = \"0.1.0\"\ngame = \"tiny\"\nrequires = []\n",
    )
    .unwrap();
    std::fs::write(dir.join("ruleset.fuda"), TINY_RULESET).unwrap();
    std::fs::write(dir.join("cards.fuda"), TINY_CARDS).unwrap();
    let a = dir.join("decks/a.deck");
    let b = dir.join("decks/b.deck");
    std::fs::write(&a, "5 Ant\n5 Bee\n").unwrap();
    std::fs::write(&b, "5 Cat\n5 Bee\n").unwrap();
    (dir, vec![a, b])
}

fn load(game: &str, decks: &[PathBuf]) -> Loaded {
    let mut s = Session::new();
    let loaded = load_game(&mut s, game, decks);
    assert_eq!(s.error_count(), 0, "diagnostics: {:#?}", s.diags);
    loaded.unwrap_or_else(|e| panic!("cannot load {game}: {e}"))
}

fn tiny(test: &str) -> Loaded {
    let (dir, decks) = tiny_pack(test);
    let loaded = load(dir.to_str().unwrap(), &decks);
    let _ = std::fs::remove_dir_all(&dir);
    loaded
}

fn pmv() -> Loaded {
    load(
        "pmv",
        &[
            PathBuf::from("cards/pmv/decks/reimu-humans.deck"),
            PathBuf::from("cards/pmv/decks/youkai-control.deck"),
        ],
    )
}

fn ws() -> Loaded {
    load(
        "ws",
        &[
            PathBuf::from("cards/ws/decks/academy-yellow-red.deck"),
            PathBuf::from("cards/ws/decks/forest-library-green-blue.deck"),
        ],
    )
}

fn pm() -> Loaded {
    load(
        "pm",
        &[
            PathBuf::from("cards/pm/decks/stardust-radio-single.deck"),
            PathBuf::from("cards/pm/decks/detective-alchemist-mtl.deck"),
        ],
    )
}

fn config(games: usize, threads: usize, seed: u64) -> SimConfig {
    SimConfig {
        games,
        threads,
        seed,
        max_steps: 2_000_000,
        ..SimConfig::default()
    }
}

#[test]
fn same_seed_same_summary_whatever_the_threads_tiny() {
    let l = tiny("threads");
    let one = simulate(&l.program, &l.decks, &config(60, 1, 7));
    let two = simulate(&l.program, &l.decks, &config(60, 2, 7));
    let four = simulate(&l.program, &l.decks, &config(60, 4, 7));
    assert_eq!(one, two);
    assert_eq!(one, four);
    let json = |s| serde_json::to_string_pretty(s).unwrap();
    assert_eq!(json(&one), json(&two));
    assert_eq!(one.render(), two.render());
    assert_eq!(one.games, 60);
    // Every game of this game ends with a winner, each deck on p1 half the time.
    assert_eq!(one.decks[0].wins + one.decks[1].wins + one.draws, 60);
    assert_eq!(one.decks[0].games_first, 30);
    assert_eq!(one.decks[1].games_first, 30);
    assert_eq!(one.seats[0].wins + one.seats[1].wins + one.draws, 60);
    // Another seed gives other games.
    let other = simulate(&l.program, &l.decks, &config(60, 2, 8));
    assert_ne!(json(&one), json(&other));
}

/// `games` seeded games of `l` on 1 and on 2 threads: the same summary, field for field and
/// as JSON; returns it.
fn same_summary_on_one_and_two_threads(l: &Loaded, games: usize) -> Summary {
    let one = simulate(&l.program, &l.decks, &config(games, 1, 3));
    let two = simulate(&l.program, &l.decks, &config(games, 2, 3));
    assert_eq!(one, two);
    assert_eq!(
        serde_json::to_string(&one).unwrap(),
        serde_json::to_string(&two).unwrap()
    );
    assert_eq!(one.games, games);
    one
}

#[test]
fn same_seed_same_summary_whatever_the_threads_pmv() {
    same_summary_on_one_and_two_threads(&pmv(), 20);
}

#[test]
fn same_seed_same_summary_whatever_the_threads_pm() {
    let one = same_summary_on_one_and_two_threads(&pm(), 12);
    assert_eq!(one.draws, 0, "these PM games end with a winner");
}

#[test]
fn same_seed_same_summary_whatever_the_threads_ws() {
    let one = same_summary_on_one_and_two_threads(&ws(), 12);
    // every game ends by the rules, none by the step limit
    assert_eq!(one.decks[0].wins + one.decks[1].wins + one.draws, 12);
    assert_eq!(one.draws, 0, "WS games end with a winner");
}

/// A mod pack in simulated games: the example pack's cards (and its own counter, event, verb,
/// rule and script) are played, the games end with a winner, and the summary does not depend on the
/// thread count.
#[test]
fn same_seed_same_summary_whatever_the_threads_mod_pack() {
    let l = load(
        "cards/examples/night-parade",
        &[
            PathBuf::from("cards/examples/night-parade/decks/night-parade.deck"),
            PathBuf::from("cards/pmv/decks/youkai-control.deck"),
        ],
    );
    let one = same_summary_on_one_and_two_threads(&l, 12);
    assert_eq!(one.draws, 0, "these games end with a winner");
    let parade: Vec<_> = one
        .cards
        .iter()
        .filter(|c| c.id.starts_with("night_parade:"))
        .collect();
    assert_eq!(parade.len(), 6, "the pack's six cards are in deck A");
    assert!(
        parade.iter().all(|c| c.played > 0),
        "every card of the pack is played: {parade:#?}"
    );
}

#[test]
fn played_counts_actions_from_outside_play_only() {
    let l = tiny("played");
    let s = simulate(&l.program, &l.decks, &config(40, 2, 1));
    let names: Vec<&str> = s.cards.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Ant", "Bee", "Cat"], "sorted by name");
    let bee = &s.cards[1];
    assert_eq!(bee.copies, [5, 5]);
    for c in &s.cards {
        // Units are played from the hand and attack from the field: only plays count.
        assert_eq!(c.played, c.actions.get("play_card").copied().unwrap_or(0));
        assert!(c.games_played <= c.played);
        assert!(c.wins_when_played <= c.games_played);
    }
    assert!(bee.played > 0 && bee.actions.get("attack").copied().unwrap_or(0) > 0);
    assert!(s.turns.min >= 1 && s.turns.min as f64 <= s.turns.median);
    assert!(s.turns.median <= s.turns.max as f64);
}

#[test]
fn zero_games_is_an_empty_summary() {
    let l = tiny("zero");
    let s = simulate(&l.program, &l.decks, &config(0, 2, 1));
    assert_eq!(s.games, 0);
    assert_eq!(s.turns.mean, 0.0);
    assert!(s.cards.iter().all(|c| c.win_rate_when_played.is_none()));
    let _ = s.render();
}

#[test]
fn a_wrong_deck_is_an_error_not_a_panic() {
    let (dir, decks) = tiny_pack("baddeck");
    let bad = dir.join("decks/bad.deck");
    std::fs::write(&bad, "3 Antt\n").unwrap();
    let mut s = Session::new();
    let r = load_game(&mut s, dir.to_str().unwrap(), &[decks[0].clone(), bad]);
    assert!(r.is_err());
    assert!(s.error_count() > 0);
    let mut s = Session::new();
    assert!(load_game(&mut s, "no_such_game_here", &decks).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

// ───────────── the human agent ─────────────

fn request(kind: RequestKind, labels: &[&str]) -> Request {
    crate::support::labelled_request(kind, "choose", labels)
}

fn answer(req: &Request, line: &str) -> Result<Input, String> {
    parse_answer(req, line)
}

#[test]
fn answers_are_read_by_kind() {
    let act = request(RequestKind::Action, &["play_card A", "attack B", "pass"]);
    assert_eq!(answer(&act, "2\n"), Ok(Input::Answer(Answer::Pick(1))));
    assert_eq!(answer(&act, " pass "), Ok(Input::Answer(Answer::Pick(2))));
    assert!(answer(&act, "0").is_err());
    assert!(answer(&act, "4").is_err());
    assert!(answer(&act, "").is_err());
    assert!(answer(&act, "-1").is_err());
    assert!(answer(&act, "99999999999999999999999999").is_err());
    assert_eq!(answer(&act, "CONCEDE"), Ok(Input::Answer(Answer::Concede)));
    assert_eq!(answer(&act, "?"), Ok(Input::Help));
    assert_eq!(answer(&act, "help"), Ok(Input::Help));

    let yn = request(RequestKind::YesNo, &[]);
    assert_eq!(answer(&yn, "y"), Ok(Input::Answer(Answer::Yes(true))));
    assert_eq!(answer(&yn, "No"), Ok(Input::Answer(Answer::Yes(false))));
    assert!(answer(&yn, "maybe").is_err());

    let cards = request(RequestKind::Cards { min: 0, max: 2 }, &["a", "b", "c"]);
    assert_eq!(answer(&cards, ""), Ok(Input::Answer(Answer::Many(vec![]))));
    assert_eq!(
        answer(&cards, "1,3"),
        Ok(Input::Answer(Answer::Many(vec![0, 2])))
    );
    assert_eq!(
        answer(&cards, "3 1"),
        Ok(Input::Answer(Answer::Many(vec![2, 0])))
    );
    assert!(answer(&cards, "1 1").is_err(), "twice");
    assert!(answer(&cards, "1 2 3").is_err(), "too many");
    assert!(answer(&cards, "x").is_err());
    let exactly = request(RequestKind::Cards { min: 1, max: 1 }, &["a", "b"]);
    assert!(answer(&exactly, "").is_err(), "none is not allowed");

    let one = request(RequestKind::OneOf, &["draw", "damage"]);
    assert_eq!(answer(&one, "1"), Ok(Input::Answer(Answer::Pick(0))));
    assert!(answer(&one, "pass").is_err());

    let decl = request(RequestKind::Declare, &["人間", "妖怪"]);
    assert_eq!(
        answer(&decl, "2"),
        Ok(Input::Answer(Answer::Text("妖怪".into())))
    );
    assert_eq!(
        answer(&decl, " 神霊 \n"),
        Ok(Input::Answer(Answer::Text("神霊".into())))
    );
    assert!(answer(&decl, "   ").is_err());

    let repeat = request(RequestKind::Repeat { max: 3 }, &[]);
    assert_eq!(answer(&repeat, "0"), Ok(Input::Answer(Answer::Pick(0))));
    assert_eq!(answer(&repeat, " 3 \n"), Ok(Input::Answer(Answer::Pick(3))));
    assert!(answer(&repeat, "4").is_err(), "more than the count named");
    assert!(answer(&repeat, "-1").is_err());
    assert!(answer(&repeat, "pass").is_err());
    assert!(answer(&repeat, "").is_err());
}

#[test]
fn bad_answers_are_asked_again_and_end_of_input_concedes() {
    let req = request(RequestKind::Cards { min: 1, max: 2 }, &["a", "b", "c"]);
    // Three bad lines (one not UTF-8), help, then a good one.
    let input: &[u8] = b"7\nfoo\n\xff\xfe\n?\n2, 3\n";
    let mut h = HumanAgent::new(Cursor::new(input), Vec::new());
    assert_eq!(h.ask(&req), Answer::Many(vec![1, 2]));
    assert!(!h.input_ended());
    let out = String::from_utf8_lossy(h.output()).into_owned();
    assert_eq!(out.matches('✗').count(), 3, "{out}");
    assert!(out.contains("answers:"), "help shown: {out}");
    assert_eq!(out.matches("> ").count(), 5, "asked five times: {out}");
    // Nothing more to read: the player concedes, and keeps conceding.
    assert_eq!(h.ask(&req), Answer::Concede);
    assert!(h.input_ended());
    assert_eq!(h.ask(&req), Answer::Concede);
    let out = String::from_utf8_lossy(h.output()).into_owned();
    assert!(out.contains("end of input"), "{out}");
}

#[test]
fn a_human_game_with_junk_input_ends_without_panic() {
    let l = tiny("human");
    let decks: Vec<Vec<u32>> = l.decks.iter().map(|d| d.cards.clone()).collect();
    let config = PlayConfig {
        seed: 5,
        max_steps: 2_000_000,
        players: vec![PlayerKind::Human, PlayerKind::Random],
        deck_format: None,
        lang: fuda::ir::render::Lang::En,
    };
    let input = "\n0\nfoo\nboard\nlog\n?\ny\n1\n1\n";
    let mut h = HumanAgent::new(Cursor::new(input.as_bytes()), Vec::new());
    let r = play_game(&l.program, &decks, &config, &mut h);
    let out = String::from_utf8_lossy(h.output()).into_owned();
    assert!(out.contains("── turn 1"), "the board is shown: {out}");
    assert!(out.matches('✗').count() >= 3, "{out}");
    if r.input_ended {
        assert_eq!(
            r.outcome,
            Outcome::Win(1),
            "p1 conceded at the end of input"
        );
    }
    assert!(!r.log.is_empty());
    assert!(r.log.iter().all(|e| !e.json().is_empty()));
}

#[test]
fn automatic_seats_play_a_whole_game() {
    let l = tiny("auto");
    let decks: Vec<Vec<u32>> = l.decks.iter().map(|d| d.cards.clone()).collect();
    let config = PlayConfig {
        seed: 2,
        max_steps: 2_000_000,
        players: vec![PlayerKind::Random, PlayerKind::First],
        deck_format: None,
        lang: fuda::ir::render::Lang::En,
    };
    let mut h = HumanAgent::new(Cursor::new(&b""[..]), Vec::new());
    let r = play_game(&l.program, &decks, &config, &mut h);
    assert!(!r.input_ended, "no human: the input is never read");
    assert!(matches!(r.outcome, Outcome::Win(_)));
    assert!(r.turns >= 2);
    // The spectator sees the whole log, one line per entry.
    let out = String::from_utf8_lossy(h.output()).into_owned();
    assert_eq!(out.lines().count(), r.log.len());
}

#[test]
fn crashed_games_are_grouped_and_counted_apart() {
    use fuda::tools::sim::{summarize, GameResult};
    let l = tiny("crash");
    let finished = |game: usize, winner: Option<u8>, turns: u32| GameResult {
        game,
        seed: fuda::tools::sim::game_seed(1, game),
        decks: if game.is_multiple_of(2) {
            vec![0, 1]
        } else {
            vec![1, 0]
        },
        winner,
        turns,
        steps: 10,
        step_limit: false,
        stuck: false,
        actions: Vec::new(),
        notes: Vec::new(),
        crashed: None,
    };
    let crash = |game: usize, message: &str| GameResult {
        crashed: Some(message.into()),
        decks: Vec::new(),
        ..finished(game, None, 0)
    };
    let results = vec![
        finished(0, Some(0), 4),
        crash(1, "boom"),
        finished(2, Some(1), 6),
        crash(3, "bang"),
        crash(4, "boom"),
    ];
    let s = summarize(&l.program, &l.decks, &config(5, 1, 1), &results);
    assert_eq!(s.games, 5);
    assert_eq!(s.crashed, 3);
    assert_eq!(s.draws, 0, "a crash is no draw");
    assert_eq!(s.decks[0].wins + s.decks[1].wins, 2);
    assert_eq!(s.decks[0].win_rate, 0.5, "rates are over finished games");
    assert_eq!((s.turns.min, s.turns.max, s.turns.mean), (4, 6, 5.0));
    let groups: Vec<(&str, usize)> = s
        .crashes
        .iter()
        .map(|c| (c.message.as_str(), c.games))
        .collect();
    assert_eq!(groups, [("boom", 2), ("bang", 1)]);
    let boom: Vec<(usize, &str)> = s.crashes[0]
        .first
        .iter()
        .map(|g| (g.game, g.decks.as_str()))
        .collect();
    assert_eq!(boom, [(1, "BA"), (4, "AB")]);
    assert!(s.render().contains("boom"));
}

/// `SimConfig::deck_format` (`sim --deck-format`) reaches every game: the made-up game of
/// `tests/games/tiny` starts both players with 5 of the 10 petals that win in its `quick`
/// format (read with `deck_format()`), so its games are shorter.
#[test]
fn deck_format_reaches_the_games() {
    let decks = [
        PathBuf::from("tests/games/tiny/decks/meadow.deck"),
        PathBuf::from("tests/games/tiny/decks/thicket.deck"),
    ];
    let l = load("tests/games/tiny", &decks);
    let plain = simulate(&l.program, &l.decks, &config(40, 1, 0));
    let quick = SimConfig {
        deck_format: Some("quick".into()),
        ..config(40, 1, 0)
    };
    let quick = simulate(&l.program, &l.decks, &quick);
    assert!(
        quick.turns.mean < plain.turns.mean,
        "quick {:?}, plain {:?}",
        quick.turns.mean,
        plain.turns.mean
    );
}
