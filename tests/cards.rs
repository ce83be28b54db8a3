//! Every shipped card compiles without diagnostics, and its IR matches its
//! reviewed snapshot (`tests/snapshots/cards/`). Each game's ruleset IR is
//! snapshotted too.

use fuda::base::diagnostic::{render, RenderOptions};
use fuda::packs::Session;
use std::path::Path;
use std::sync::OnceLock;

fn shipped() -> &'static Session {
    static SESSION: OnceLock<Session> = OnceLock::new();
    SESSION.get_or_init(|| {
        let mut s = Session::new();
        s.check_path(Path::new("cards"));
        s.finish();
        s
    })
}

fn snapshot_name(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[test]
fn shipped_packs_check_clean() {
    let s = shipped();
    let rendered: String = s
        .diags
        .iter()
        .map(|d| render(d, &s.sources, RenderOptions::plain()))
        .collect();
    assert!(
        s.diags.is_empty(),
        "shipped cards have diagnostics:\n{rendered}"
    );
    for game in ["pmv", "ws", "pm"] {
        let pack = s
            .packs
            .iter()
            .find(|p| p.pack.name == game)
            .unwrap_or_else(|| panic!("pack {game} not loaded"));
        assert!(
            pack.pack.cards.len() >= 12,
            "{game} ships {} cards, fewer than 12",
            pack.pack.cards.len()
        );
    }
}

#[test]
fn every_card_matches_its_ir_snapshot() {
    let s = shipped();
    insta::glob!("../cards", "{*,examples/*}/sets/*.fuda", |path| {
        let shown = path.to_string_lossy().replace('\\', "/");
        // the path from the crate root (a checkout's own path may contain `cards/` too)
        let rel = &shown[shown.rfind("/cards/").map_or(0, |i| i + 1)..];
        for compiled in &s.packs {
            for card in &compiled.pack.cards {
                let file = compiled
                    .spans
                    .get(&format!("cards/{}", card.id))
                    .map(|e| e.0.as_str());
                if file != Some(rel) {
                    continue;
                }
                insta::with_settings!({ snapshot_path => "snapshots/cards", prepend_module_to_snapshot => false, omit_expression => true, input_file => path }, {
                    insta::assert_json_snapshot!(snapshot_name(&card.id), card);
                });
            }
        }
    });
}

#[test]
fn every_ruleset_matches_its_ir_snapshot() {
    let s = shipped();
    for compiled in &s.packs {
        if let Some(r) = &compiled.pack.ruleset {
            insta::with_settings!({ snapshot_path => "snapshots/rulesets", prepend_module_to_snapshot => false, omit_expression => true }, {
                insta::assert_json_snapshot!(compiled.pack.name.clone(), r);
            });
        }
    }
}

#[test]
fn cached_ir_equals_compiled_ir() {
    // A pack loaded from the cache is the same IR the compiler produced.
    let dir = std::env::temp_dir().join(format!("fuda-cache-test-{}", std::process::id()));
    let run = || {
        let mut s = Session::new();
        s.cache = Some(fuda::packs::cache::Cache::new(dir.clone()));
        s.check_path(Path::new("cards"));
        s.finish();
        s
    };
    let first = run();
    let second = run();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(first.packs.len(), second.packs.len());
    assert_eq!(first.cache_hits, 0, "the first run compiles every pack");
    assert_eq!(
        second.cache_hits,
        second.packs.len(),
        "the second run loads every pack from the cache"
    );
    for (a, b) in first.packs.iter().zip(&second.packs) {
        assert_eq!(
            a.pack, b.pack,
            "pack {} differs after a cache round trip",
            a.pack.name
        );
        assert_eq!(
            a.spans, b.spans,
            "the span table of pack {} differs after a cache round trip",
            a.pack.name
        );
    }
    assert_eq!(first.diags, second.diags);
}

/// A session that checked the shipped `pmv` pack with the compiled-pack cache in `dir`.
fn pmv_with_cache(dir: &Path) -> Session {
    let mut s = Session::new();
    s.cache = Some(fuda::packs::cache::Cache::new(dir.to_path_buf()));
    s.check_path(Path::new("cards/pmv"));
    s
}

#[test]
fn cached_cards_are_decoded_when_read() {
    // A pack loaded from the cache keeps its cards encoded until something reads them.
    let dir = std::env::temp_dir().join(format!("fuda-lazy-test-{}", std::process::id()));
    let compiled = pmv_with_cache(&dir);
    let cached = pmv_with_cache(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(cached.cache_hits, 1);
    let cards = &cached.packs[0].pack.cards;
    assert_eq!(cards.len(), compiled.packs[0].pack.cards.len());
    assert_eq!(cards.decoded_count(), 0, "loading decodes no card");
    let last = cards.len() - 1;
    assert_eq!(
        cards.normalized_number(last),
        compiled.packs[0].pack.cards.normalized_number(last)
    );
    assert_eq!(
        cards.decoded_count(),
        0,
        "a normalized number is read without decoding"
    );
    assert_eq!(cards.get(last), compiled.packs[0].pack.cards.get(last));
    assert_eq!(
        cards.decoded_count(),
        1,
        "reading a card decodes that card only"
    );
}

#[test]
fn a_changed_cache_entry_is_compiled_again() {
    // Bytes changed on disk after an entry was written: the entry is not used, the pack is
    // compiled again, and nothing differs.
    let dir = std::env::temp_dir().join(format!("fuda-changed-test-{}", std::process::id()));
    let first = pmv_with_cache(&dir);
    let entries: Vec<_> = std::fs::read_dir(dir.join("packs"))
        .expect("the cache folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    assert_eq!(entries.len(), 1);
    // a byte of the entry's hash, of its header (the ruleset), of its span table (the last)
    let mut bytes = std::fs::read(&entries[0]).expect("the entry");
    let n = bytes.len();
    for at in [0, 100, n - 1] {
        bytes[at] ^= 0x5a;
        std::fs::write(&entries[0], &bytes).expect("written");
        let second = pmv_with_cache(&dir);
        assert_eq!(second.cache_hits, 0, "a changed entry is not loaded");
        assert_eq!(first.packs[0].pack, second.packs[0].pack);
        assert_eq!(first.diags, second.diags);
        bytes[at] ^= 0x5a;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small game using every game-flow construct: `setup`, `turn` with its phases, actions (with
/// and without a card), rules, windows (plain and chain, actions, ability kinds, `with`), `chain`,
/// `resolve`, `check`, `reach`, events with a core meaning, `has <attribute>`, `turn_number()`
/// and `is_turn_player(…)`. Windows name actions declared after them.
const GAME_FLOW: &str = r#"game flow "Flow" {
  players 2
  zone deck "Deck" private ordered per_player
  zone hand "Hand" owner_sees per_player
  zone field "Field" public per_player
  zone grave "Grave" public per_player
  state posture = active "Active" | rest "Rest"
  stat power "Power"
  layer add "Add" += -=
  counter life "Life" on player
  card_type unit "Unit" { cost: number  power: stat }
  ability act "Act" = activated
  ability auto "Auto" = triggered
  ability play "Play" = activated from hand
  attribute quick "Quick" = response
  event moves(card: card, from_zone: zone, to_zone: zone) "Moves" = move
  event enters(card: card, zone: zone) "Enters" = enter
  event leaves(card: card, zone: zone, by: player?) "Leaves" = leave
  moment end_of_turn "End of turn"

  verb draw(n: number, p: player = you) "Draw" { move top n of p.deck to p.hand }

  setup {
    shuffle your.deck
    shuffle opponent.deck
    draw 5
    draw(5, opponent)
  }

  turn {
    untap()
    phase draw "Draw" {
      if turn_number() > 1 { draw 1 }
      check
    }
    phase main "Main" {
      window you { attack, cast, act, pass_turn }
    }
    phase last "Last" {
      window [you, opponent] once { cast }
    }
    phase end "End" {
      reach end_of_turn
      check
    }
  }

  procedure untap() {
    for each c in unit on your.field { c becomes active }
  }

  action attack "Attack" for c in unit on your.field where it is active if turn_number() > 1 {
    c becomes rest
    chain { opponent.life -= c.power }
    window chain [opponent, you] { act with quick }
  }

  action cast "Cast" for c in card in your.hand if c has play {
    move c to your.field
    resolve play of c
  }

  action pass_turn "End turn" { }

  rule defeat "Defeat" {
    if you.life <= 0 { lose you }
  }

  rule deck_out "Deck out" interrupt {
    if count(your.deck) == 0 { lose you }
  }
}

card "Quick Spark" {
  number: "F1"
  type: unit
  cost: 1
  power: 2

  quick act if is_turn_player(opponent) {
    chain { opponent.life -= 1 }
  }
  auto when this enters(zone: field) {
    if this has quick and is_turn_player(you) { draw 1 }
  }
}
"#;

#[test]
fn game_flow_fixture_matches_its_ir_snapshot() {
    let mut s = Session::new();
    s.compile_source(fuda::packs::PackSource::in_memory(
        "flow.fuda",
        GAME_FLOW.as_bytes().to_vec(),
    ));
    s.finish();
    let rendered: String = s
        .diags
        .iter()
        .map(|d| render(d, &s.sources, RenderOptions::plain()))
        .collect();
    assert!(
        s.diags.is_empty(),
        "the game-flow fixture has diagnostics:\n{rendered}"
    );
    let pack = &s.packs.first().expect("the fixture compiles").pack;
    insta::with_settings!({ snapshot_path => "snapshots/rulesets", prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_json_snapshot!("game_flow", pack);
    });
}
