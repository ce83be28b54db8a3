//! `fuda play` the way a person uses it: the real binary in a real terminal (a pty, through
//! `rexpect`), answered line by line after reading the screen — bad answers, `board`, `card 1`,
//! a few turns of PMV, then a concession whose result stays on screen. And the board as text
//! (insta snapshots) in a position of each shipped game.

use fuda::engine::{Answer, FirstLegalAgent, Game, Options, Program, RandomAgent, RequestKind};
use fuda::tools::play::board::render;
use fuda::tools::play::question::{question_text, Asked};
use fuda::tools::play::Prepared;
use rexpect::session::{spawn_command, PtySession};
use std::process::Command;

const TIMEOUT_MS: u64 = 60_000;

fn spawn_play(seed: &str) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fuda"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("FUDA_NO_CACHE", "1")
        .env("NO_COLOR", "1")
        .args([
            "play",
            "pmv",
            "--deck",
            "cards/pmv/decks/reimu-humans.deck",
            "--deck",
            "cards/pmv/decks/youkai-control.deck",
            "--seed",
            seed,
        ]);
    spawn_command(cmd, Some(TIMEOUT_MS)).expect("spawn fuda play in a pty")
}

/// `rexpect` reads the terminal a byte at a time, each byte a `char`: back to UTF-8.
fn utf8(read: &str) -> String {
    let bytes: Vec<u8> = read
        .chars()
        .map(|c| u8::try_from(c).unwrap_or(b'?'))
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Waits for `needle` on the screen and returns what came before it.
fn expect(p: &mut PtySession, needle: &str) -> String {
    let as_read: String = needle.bytes().map(char::from).collect();
    match p.exp_string(&as_read) {
        Ok(before) => utf8(&before),
        Err(e) => panic!("`{needle}` never appeared on the screen: {e}"),
    }
}

/// Waits for the next prompt and returns the screen since the last one.
fn screen(p: &mut PtySession) -> String {
    expect(p, "\r\n> ")
}

fn send(p: &mut PtySession, line: &str) {
    p.send_line(line).expect("type a line");
}

#[test]
fn a_person_plays_pmv_in_a_terminal() {
    let mut p = spawn_play("1");
    // Turn 1, the node phase: the board, then a yes-or-no question.
    let s = screen(&mut p);
    assert!(s.contains("━━ turn 1: p1 ━━"), "the turn is announced: {s}");
    assert!(
        s.contains("── turn 1, your turn, node phase ── you are p1"),
        "{s}"
    );
    assert!(
        s.contains("hand         5 cards\r\n"),
        "p2's hand is a count: {s}"
    );
    assert!(
        s.contains("(character)  cost "),
        "the hand shows costs: {s}"
    );
    assert!(s.contains("power "), "and stats: {s}");
    assert!(s.contains("answer with `y` or `n`"), "{s}");
    // A bad answer: refused with the reason, and the question again.
    send(&mut p, "maybe");
    let s = screen(&mut p);
    assert!(s.contains("✗ answer `y` or `n`"), "{s}");
    // `board`: the board, then the question again.
    send(&mut p, "board");
    let s = screen(&mut p);
    assert!(s.contains("── turn 1, your turn, node phase"), "{s}");
    assert!(
        s.contains("answer with `y` or `n`"),
        "the question again: {s}"
    );
    send(&mut p, "y");
    // Which card goes to the node area: how many, from where.
    let s = screen(&mut p);
    assert!(
        s.contains("choose 1 card from your hand (exactly 1 of 5)"),
        "{s}"
    );
    send(&mut p, "9");
    let s = screen(&mut p);
    assert!(
        s.contains("✗ `9` is not an option: type one of 1, 2, 3, 4, 5"),
        "{s}"
    );
    // `card 1`: the text of option 1's card, then the question again.
    send(&mut p, "card 1");
    let s = screen(&mut p);
    assert!(s.contains("── 楽園の素敵な巫女“博麗 霊夢” ──"), "{s}");
    assert!(
        s.contains("choose 1 card from your hand"),
        "the question again: {s}"
    );
    send(&mut p, "1");
    // The main phase: the node area counts its cards by state.
    let s = screen(&mut p);
    assert!(s.contains("node_area    1 card, 1 active"), "{s}");
    assert!(s.contains("your priority"), "{s}");
    send(&mut p, "pass");
    // p2's turn is played by the random agent; p1 is next asked in turn 2 or 3, the end of
    // turn 1 announced first.
    let s = screen(&mut p);
    assert!(s.contains("━━ end of turn 1 ━━"), "{s}");
    assert!(s.contains("━━ turn 2: p2 ━━"), "{s}");
    send(&mut p, "concede");
    let rest = utf8(&p.exp_eof().expect("the game ends"));
    assert!(rest.contains("p1 concedes"), "{rest}");
    assert!(rest.contains("━━ game over after"), "{rest}");
    assert!(rest.contains(": p2 wins ━━"), "{rest}");
    assert!(rest.contains("why: p1 concedes"), "{rest}");
    assert!(rest.contains("p2 wins after"), "{rest}");
}

/// A priority window asked again keeps each option's number; a number whose option is gone is
/// refused with what it was.
#[test]
fn numbers_stay_with_their_options() {
    use fuda::engine::Request;
    use fuda::tools::play::question::Numbering;
    use fuda::tools::play::{parse_answer_with, Input};
    let req = |labels: &[&str]| {
        crate::support::labelled_request(
            RequestKind::Action,
            "your priority: take an action or pass",
            labels,
        )
    };
    let mut n = Numbering::default();
    let first = req(&["play_card A", "play_card B", "pass"]);
    assert_eq!(n.number(&first, 1), vec![1, 2, 3]);
    // A was played: B and pass keep their numbers; a new option gets a new one.
    let second = req(&["play_card B", "attack C", "pass"]);
    let nums = n.number(&second, 1);
    assert_eq!(nums, vec![2, 4, 3]);
    let err = parse_answer_with(&second, "1", &nums, Some(&n)).unwrap_err();
    assert!(
        err.contains("1 was `play_card A`, which is no longer offered"),
        "{err}"
    );
    assert_eq!(
        parse_answer_with(&second, "4", &nums, Some(&n)),
        Ok(Input::Answer(Answer::Pick(1)))
    );
    assert_eq!(
        parse_answer_with(&second, "Attack C", &nums, Some(&n)),
        Ok(Input::Answer(Answer::Pick(1)))
    );
    // Another question between (which cards pay for it) does not renumber the window.
    let pay = Request {
        kind: RequestKind::Cards { min: 1, max: 1 },
        prompt: "choose 1 card".into(),
        ..req(&["X", "Y"])
    };
    assert_eq!(n.number(&pay, 1), vec![1, 2]);
    assert_eq!(n.number(&second, 1), nums);
    // Choices of cards are numbered afresh each time, whatever was asked before.
    let other = Request {
        options: req(&["Z", "X"]).options,
        ..pay.clone()
    };
    assert_eq!(n.number(&other, 1), vec![1, 2]);
    assert_eq!(
        parse_answer_with(&other, "1", &[1, 2], Some(&n)),
        Ok(Input::Answer(Answer::Many(vec![0])))
    );
    assert_eq!(n.number(&second, 1), nums);
    let text = question_text(&second, &Asked::default(), &nums);
    assert!(
        text.contains("   2. play_card B\n   4. attack C\n   3. pass"),
        "{text}"
    );
    // A new turn numbers from 1 again.
    assert_eq!(n.number(&second, 2), vec![1, 2, 3]);
}

fn program(game: &str) -> (Program, Vec<Vec<u32>>) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let pack = root.join("cards").join(game);
    let mut session = fuda::packs::Session::new();
    session.skip_decks = true;
    session.check_path(&pack);
    let prog = session.program(game).expect("the game compiles");
    let mut paths: Vec<_> = std::fs::read_dir(pack.join("decks"))
        .expect("decks")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "deck"))
        .collect();
    paths.sort();
    let decks = paths
        .iter()
        .take(2)
        .map(|d| {
            let deck = session.load_deck(d, game).expect("a deck");
            deck.cards()
                .iter()
                .map(|id| prog.card_index[id])
                .collect::<Vec<u32>>()
        })
        .collect();
    (prog, decks)
}

/// The board after a few first-legal decisions, as p1 knows it, and the question then.
fn position(game: &str, decisions: usize) -> String {
    let (prog, decks) = program(game);
    let opts = Options {
        seed: 3,
        max_steps: 2_000_000,
        deck_format: None,
    };
    let mut g = Game::new(&prog, &decks, None, &opts);
    let mut taken = 0;
    while let Some(req) = g.step() {
        if taken >= decisions && req.player == 0 {
            let prepared = Prepared::read(&mut g, &req, fuda::ir::render::Lang::En);
            let numbers: Vec<usize> = (1..=req.options.len()).collect();
            return format!(
                "{}\n{}",
                render(&prepared.board),
                question_text(&req, &prepared.asked, &numbers)
            );
        }
        let a = {
            let view = g.view(req.player);
            fuda::engine::decide_or_first_legal(&mut FirstLegalAgent, &view, &req)
        };
        let _ = g.answer(&req, a);
        taken += 1;
    }
    panic!("{game}: the game ended before {decisions} decisions");
}

#[test]
fn boards_of_each_game() {
    for (game, decisions) in [("pmv", 12), ("ws", 12), ("pm", 12)] {
        insta::assert_snapshot!(format!("board_{game}"), position(game, decisions));
    }
}

/// A modified stat shows its printed value; counters, states and the cards set on a card show
/// with it; a face-down card and a hidden zone show no name.
#[test]
fn the_board_marks_what_changed_and_hides_what_is_hidden() {
    use fuda::engine::board::{Board, BoardCard, CardInfo, PlayerBoard, StatShown, ZoneBoard};
    let card = |name: &str, stats: Vec<StatShown>| CardInfo {
        name: name.into(),
        def: 0,
        card_type: "g:unit".into(),
        stats,
        numbers: vec![("cost".into(), 2)],
    };
    let seen = |info: CardInfo, states: &[&str], attached: Vec<BoardCard>| BoardCard {
        card: Some(info),
        states: states.iter().map(|s| format!("g:{s}")).collect(),
        counters: Vec::new(),
        slot: None,
        attached,
    };
    let mut hero = seen(
        card(
            "Hero",
            vec![StatShown {
                stat: "g:power".into(),
                now: vec![Some(3), Some(2)],
                printed: vec![Some(2), Some(2)],
            }],
        ),
        &["ready"],
        vec![seen(card("Sword", Vec::new()), &[], Vec::new())],
    );
    hero.counters = vec![("g:damage".into(), 1)];
    let hidden = BoardCard {
        card: None,
        states: vec!["g:ready".into()],
        counters: Vec::new(),
        slot: None,
        attached: Vec::new(),
    };
    let zone = |id: &str, public: bool, cards: Vec<BoardCard>| ZoneBoard {
        zone: format!("g:{id}"),
        slots: Vec::new(),
        public,
        cards,
    };
    let board = Board {
        seat: 0,
        turn: 2,
        active: 1,
        phase: Some("g:main".into()),
        outcome: None,
        players: vec![
            PlayerBoard {
                seat: 0,
                counters: vec![("g:life".into(), 20)],
                zones: vec![
                    zone("field", true, vec![hero, hidden.clone()]),
                    zone("mana", false, vec![hidden.clone(), hidden.clone()]),
                ],
            },
            PlayerBoard {
                seat: 1,
                counters: vec![("g:life".into(), 18)],
                zones: vec![zone("hand", false, vec![hidden.clone(), hidden])],
            },
        ],
    };
    let text = render(&board);
    assert_eq!(
        text,
        "── turn 2, p2's turn, main phase ── you are p1\n\
         p1 (you)  life 20\n  \
           field        3 cards, 2 ready\n      \
               Hero [ready]  (unit)  cost 2  power 3/2 (printed 2/2)  damage 1\n        \
                 └ set: Sword  (unit)  cost 2\n      \
               face down [ready]\n  \
           mana         2 cards, 2 ready\n\
         p2  life 18\n  \
           hand         2 cards, 2 ready\n"
    );
}

/// The first question of each kind of "asked within" in random games of each shipped game:
/// a cost payment says what it pays for (the action and its card, the verb; an ability's cost).
#[test]
fn questions_say_what_they_are_for() {
    use fuda::engine::board::Within;
    let mut found: Vec<String> = Vec::new();
    for game in ["pmv", "ws", "pm"] {
        let (prog, decks) = program(game);
        let opts = Options {
            seed: 7,
            max_steps: 2_000_000,
            deck_format: None,
        };
        let mut g = Game::new(&prog, &decks, None, &opts);
        let mut agents = [RandomAgent::new(7, 0), RandomAgent::new(7, 1)];
        let mut seen_kinds: Vec<&str> = Vec::new();
        let mut steps = 0;
        while let Some(req) = g.step() {
            steps += 1;
            if steps > 3000 {
                break;
            }
            let within = g.asked_within(req.player);
            let kind = match within.last() {
                Some(Within::Action { .. }) => "action",
                Some(Within::Call { id, .. }) if id.ends_with(":pay") => "payment",
                Some(Within::Call { .. }) => "call",
                Some(Within::Cost { .. }) => "cost",
                Some(Within::Effect { .. }) => "effect",
                Some(Within::Rule { .. }) => "rule",
                None => "none",
            };
            if !seen_kinds.contains(&kind) && kind != "none" {
                seen_kinds.push(kind);
                let prepared = Prepared::read(&mut g, &req, fuda::ir::render::Lang::En);
                let numbers: Vec<usize> = (1..=req.options.len()).collect();
                found.push(format!(
                    "{game}, {kind}:\n{}",
                    question_text(&req, &prepared.asked, &numbers)
                ));
            }
            let a = {
                let view = g.view(req.player);
                let agent = &mut agents[usize::from(req.player) % 2];
                fuda::engine::decide_or_first_legal(agent, &view, &req)
            };
            let _ = g.answer(&req, a);
        }
    }
    let all = found.join("\n\n");
    assert!(
        all.contains("pmv, payment:\np1, for プレイする (play_card) "),
        "{all}"
    );
    assert!(
        all.contains(" › コストを支払う (pay):\np1: choose "),
        "{all}"
    );
    insta::assert_snapshot!("questions_within", all);
}
