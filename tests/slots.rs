//! Slots (docs/language.md, "Slots"): `at` after a move's destination is the move's slot and
//! after any other card set a filter, whatever options come between; a zone's groups are left
//! out of the IR's JSON when it has none and survive the cache's binary form; random and
//! first-legal games of a made-up game with a zone of slots (`tests/games/lanes`) answer its
//! slot choices and keep one card per slot at every step; the board shows such a zone slot by
//! slot. The rules themselves are the lanes scenarios' (`tests/games/lanes/scenarios/`).

use crate::support;

use fuda::engine::{Agent, FirstLegalAgent, Game, Placement, RandomAgent, ZoneKey};
use fuda::ir::{self, Expr, Stmt};
use fuda::packs::{PackSource, Session};
use support::{decks_for, load, options, step_to_end, zone_problems};

/// A ruleset whose verbs write `at` in each place it can stand.
const AT_FORMS: &str = r#"game mini "Mini" {
  players 2
  zone heap "Heap" public per_player
  zone lanes "Lanes" public per_player { slot a, b, c  group row "Row": a, b }
  state stance = ready "Ready" | tired "Tired"
  card_type unit "Unit" { }
  verb one(x: card) "One" { move x to your.lanes at a }
  verb two(x: card) "Two" { move x to your.lanes as tired at b }
  verb three(x: card) "Three" { move card in your.lanes at row to your.heap }
  verb four(x: card, s: text) "Four" { move x to your.lanes top face_up at s }
  verb five(x: card) "Five" { move x to your.lanes }
}
"#;

/// The ruleset of `source`, compiled without diagnostics.
fn ruleset(source: &str) -> ir::Ruleset {
    let mut s = Session::new();
    s.compile_source(PackSource::in_memory(
        "mini.fuda",
        source.as_bytes().to_vec(),
    ));
    s.finish();
    assert!(s.diags.is_empty(), "{:#?}", s.diags);
    let pack = &s.packs.first().expect("compiled").pack;
    pack.ruleset.clone().expect("a ruleset")
}

/// The one statement of the verb `name`: a move's cards, destination and slot.
fn the_move(r: &ir::Ruleset, name: &str) -> (Expr, Expr, Option<Expr>) {
    let verb = r
        .verbs
        .iter()
        .find(|v| v.name.id == format!("mini:{name}"))
        .expect("the verb");
    match &verb.body[..] {
        [Stmt::Move {
            cards, to, slot, ..
        }] => (cards.clone(), to.clone(), slot.clone()),
        other => panic!("{name}: not one move: {other:?}"),
    }
}

fn lanes() -> Expr {
    Expr::Zone {
        zone: "mini:lanes".into(),
        owner: Some(Box::new(Expr::You)),
    }
}

#[test]
fn at_after_the_destination_is_the_moves_slot_and_elsewhere_a_filter() {
    let r = ruleset(AT_FORMS);
    let text = |t: &str| Some(Expr::Text(t.into()));
    let (_, to, slot) = the_move(&r, "one");
    assert_eq!((to, slot), (lanes(), text("a")));
    let (_, to, slot) = the_move(&r, "two");
    assert_eq!((to, slot), (lanes(), text("b")));
    let (cards, to, slot) = the_move(&r, "three");
    assert!(
        matches!(&cards, Expr::AtSlot { slot, .. } if **slot == Expr::Text("row".into())),
        "{cards:?}"
    );
    assert_eq!(slot, None);
    assert!(matches!(to, Expr::Zone { ref zone, .. } if zone == "mini:heap"));
    let (_, to, slot) = the_move(&r, "four");
    assert_eq!((to, slot), (lanes(), Some(Expr::Var("s".into()))));
    let (_, to, slot) = the_move(&r, "five");
    assert_eq!((to, slot), (lanes(), None));
}

#[test]
fn groups_are_in_the_json_only_when_declared_and_survive_the_binary_form() {
    let r = ruleset(AT_FORMS);
    let (lanes, heap) = (&r.zones[1], &r.zones[0]);
    assert_eq!(lanes.groups.len(), 1);
    let json = |z: &ir::Zone| serde_json::to_value(z).expect("json");
    assert!(json(lanes).get("groups").is_some());
    assert!(json(heap).get("groups").is_none(), "{}", json(heap));
    for z in [lanes, heap] {
        let bytes = postcard::to_stdvec(z).expect("postcard");
        let back: ir::Zone = postcard::from_bytes(&bytes).expect("read back");
        assert_eq!(&back, z);
        let back: ir::Zone = serde_json::from_value(json(z)).expect("read back");
        assert_eq!(&back, z);
    }
}

/// What breaks "one card per slot" now: in a zone with slots, every card set on no card is in a
/// slot of the zone, no two in the same; in a zone without slots, no card has a slot.
fn slot_problems(game: &Game<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for (z, zone) in game.prog.ruleset.zones.iter().enumerate() {
        for owner in game.prog.seats() {
            let k = ZoneKey {
                zone: z as u16,
                owner,
            };
            let mut seen: Vec<&str> = Vec::new();
            for c in game.state.zone(k) {
                let cs = &game.state.cards[*c as usize];
                let name = game.card_name(*c);
                match (&cs.slot, zone.slots.is_empty()) {
                    (Some(s), true) => out.push(format!("{name} has slot {s} in {k:?}")),
                    (None, false) if cs.host.is_none() => {
                        out.push(format!("{name} is in no slot of {k:?}"));
                    }
                    (Some(s), false) if seen.contains(&s.as_str()) => {
                        out.push(format!("two cards in {s} of {k:?}"));
                    }
                    (Some(s), false) => seen.push(s),
                    _ => {}
                }
            }
        }
    }
    out
}

#[test]
fn random_and_first_legal_games_keep_one_card_per_slot() {
    let l = load("tests/games/lanes");
    let mut slot_answers = 0;
    for seed in 0..120u64 {
        let decks = decks_for(&l, seed);
        let total: usize = decks.iter().map(Vec::len).sum();
        let mut game = Game::new(&l.program, &decks, None, &options(seed));
        let mut agents: Vec<Box<dyn Agent>> = if seed % 4 == 3 {
            vec![Box::new(FirstLegalAgent), Box::new(FirstLegalAgent)]
        } else {
            vec![
                Box::new(RandomAgent::new(seed, 0)),
                Box::new(RandomAgent::new(seed, 1)),
            ]
        };
        let mut problems = Vec::new();
        let stepped = step_to_end(&mut game, &mut agents, |g, n| {
            for p in slot_problems(g).into_iter().chain(zone_problems(g, total)) {
                problems.push(format!("after answer {n}: {p}"));
            }
        });
        assert!(
            problems.is_empty() && stepped.repeated.is_empty(),
            "seed {seed}: {problems:#?} {:#?}",
            stepped.repeated
        );
        assert!(
            game.outcome().is_some(),
            "seed {seed}: the game did not end"
        );
        slot_answers += game
            .log()
            .iter()
            .filter(|e| e.kind == "choice")
            .filter(|e| {
                let slots = [
                    "left",
                    "middle",
                    "right",
                    "back_left",
                    "back_right",
                    "no slot",
                ];
                slots
                    .iter()
                    .any(|s| e.text.ends_with(&format!(" chooses {s}")))
            })
            .count();
    }
    assert!(
        slot_answers > 20,
        "only {slot_answers} slot choices answered"
    );
}

#[test]
fn the_board_shows_a_zone_with_slots_slot_by_slot() {
    let l = load("tests/games/lanes");
    let p = &l.program;
    let def = |name: &str| p.find_card(name).expect("a card");
    let posts = *p.zones.get("lanes:posts").expect("posts");
    let place = |name: &str, owner: u8, slot: &str| Placement {
        def: def(name),
        owner,
        zone: ZoneKey { zone: posts, owner },
        states: Vec::new(),
        counters: Vec::new(),
        face_up: None,
        host: None,
        slot: Some(slot.into()),
    };
    let placements = [place("Scout", 0, "middle"), place("Keeper", 0, "left")];
    let game = Game::from_placements(p, &placements, 1, 0, None, false, &options(0));
    let board = game.view(0).render();
    let line = board
        .lines()
        .find(|l| l.trim_start().starts_with("posts"))
        .unwrap_or_else(|| panic!("no posts line:\n{board}"));
    assert_eq!(
        line.trim(),
        "posts        left: Keeper [ready] · middle: Scout [ready] · right: — · back_left: — · \
         back_right: —"
    );
    // the opponent's empty posts are shown too, every slot empty
    assert!(
        board.contains("posts        left: — · middle: —"),
        "{board}"
    );
    let seen = game.view(1).zone("lanes:posts", 0);
    let slots: Vec<_> = seen.iter().map(|c| c.slot.as_deref()).collect();
    assert_eq!(slots, [Some("left"), Some("middle")]);
}
