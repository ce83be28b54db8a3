//! Engine benchmarks: whole random games, and the interpreter's overhead on single effects.
//!
//! `cargo bench --bench engine` (run from the crate root, so `cards/pmv` is found).
//!
//! Measured (criterion):
//! - `random_game/pmv`, `random_game/ws` and `random_game/pm`: one game of Phantom Magic
//!   Vision (Weiss Schwarz, Precious Memories)
//!   between the game's two shipped decks (`cards/<game>/decks/`, from `Session::decks`), a
//!   `RandomAgent` on each seat, played to the end with `Game::play`. The
//!   seed changes with every iteration (`sim::game_seed(SEED, i)`, and the decks swap seats on
//!   odd games, as `fuda sim` does), so the figure is a mean over many different games.
//!   Throughput: games (the engine-speed goal: ≥ 2,500 PMV games/s on one core).
//! - `effect/<name>/ir` and `effect/<name>/native`: eight reference effects, each run (ir) by
//!   the engine from a fuda card on a prepared game (`Game::run_effect` / `Game::run_event`,
//!   `src/engine/bench_api.rs`, with scripted answers), and (native) as a plain Rust closure
//!   that makes the same change to a clone of the same `State` directly (zones, card states,
//!   modifiers; no log, no events, no trigger dispatch, no requests). The engine-speed goal:
//!   ir ≤ 3× native. Before criterion runs, every pair is run once on the same state and the
//!   results are compared (same zones, card states, modifiers, counters, stat read), so the two
//!   really do the same thing.
//!
//! The prepared game and states are cloned outside the timings, just before each run, so the
//! state is warm in the cache as in a game (`iter_batched` with `BatchSize::PerIteration`:
//! criterion's per-effect figures include the ~20–40 ns of reading the clock twice), and
//! outputs are dropped outside them. After criterion, a summary is printed from manual
//! `Instant` runs (games/s over ≥ 2 s of games; per effect the best of 5 rounds of the mean of
//! 2,000 runs, less the timer's overhead): the figures, and their ratios to the goals.
//!
//! `FUDA_BENCH_GAMES=N cargo bench --bench engine` only plays N PMV games (seeds as above) and
//! exits: a fixed amount of work for profilers (`valgrind --tool=callgrind <bench binary>`);
//! `FUDA_BENCH_GAME=ws` (`pm`) plays WS (PM) games instead.
//! `FUDA_BENCH_CLONES=N` only clones a PMV game at turn 8 N times (`FUDA_BENCH_LOG=0`: a
//! game whose log is off), for callgrind (`clone_game`'s inclusive cost).
//! `FUDA_BENCH_EFFECT=<name> FUDA_BENCH_RUNS=N` only runs that effect N times through the engine
//! (`ir_runs`) and N times as its closure (`native_runs`), on inputs cloned beforehand: under
//! callgrind, the inclusive instruction counts of the two functions give a ratio that does not
//! depend on the machine's load. With `FUDA_BENCH_LOG=0` the engine runs them with its log off,
//! as `fuda sim` plays (the closures write no log either).

/// The allocator the `fuda` binary uses (src/main.rs), so the figures are the CLI's.
#[global_allocator]
static ALLOCATOR: fuda::base::alloc::Allocator = fuda::base::alloc::Allocator;

use criterion::{BatchSize, Criterion, SamplingMode, Throughput};
use fuda::engine::state::{CardState, ModKind, Modifier, StatOp, Until};
use fuda::engine::{
    Agent, Answer, CardId, EventData, Game, Options, Outcome, Placement, Program, RandomAgent,
    Seat, State, Value, ZoneKey,
};
use fuda::packs::{PackSource, Session};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

/// The base seed of the random games.
const SEED: u64 = 0x00f0_da5e_ed00_2024;
/// The engine-speed issue's goal for random PMV games on one core.
const GOAL_GAMES_PER_SEC: f64 = 2_500.0;
/// The engine-speed issue's goal for the interpreter: ir time ≤ this × native time.
const GOAL_RATIO: f64 = 3.0;
/// The engine-speed issue's goal for cloning a mid-game state (a search agent's rollout).
const GOAL_CLONE: Duration = Duration::from_micros(5);

// ───────────────────────────── random games ─────────────────────────────

/// A game's program and its shipped decks (card definition indices), as `fuda sim` loads them.
fn load_games(game: &str) -> (Program, Vec<Vec<u32>>) {
    let mut s = Session::new();
    s.check_path(&Path::new("cards").join(game));
    s.finish();
    assert_eq!(s.error_count(), 0, "cards/{game} checks clean");
    let prog = s.program(game).expect("the game's program");
    let decks: Vec<Vec<u32>> = s
        .decks
        .iter()
        .map(|d| d.cards().iter().map(|id| prog.card_index[id]).collect())
        .collect();
    assert_eq!(decks.len(), 2, "cards/{game}/decks holds two decks");
    (prog, decks)
}

/// Plays game number `i` to the end: (outcome, turns, statements run).
fn play_game(prog: &Program, decks: &[Vec<u32>], i: u64) -> (Outcome, u32, u64) {
    let seed = fuda::tools::sim::game_seed(SEED, i as usize);
    let seats: Vec<Vec<u32>> = if i.is_multiple_of(2) {
        vec![decks[0].clone(), decks[1].clone()]
    } else {
        vec![decks[1].clone(), decks[0].clone()]
    };
    let options = Options {
        seed,
        ..Options::default()
    };
    let mut g = Game::new(prog, &seats, None, &options);
    // as `fuda sim` plays them: no log lines written
    g.keep_log(false);
    let mut agents: Vec<Box<dyn Agent>> = vec![
        Box::new(RandomAgent::new(seed, 0)),
        Box::new(RandomAgent::new(seed, 1)),
    ];
    let o = g.play(&mut agents);
    (o, g.state.turn, g.steps())
}

/// The turn a mid-game state is taken at, for the clone figure.
const MID_GAME_TURN: u32 = 8;

/// A PMV game played by random agents up to the start of turn [`MID_GAME_TURN`] (or its end),
/// with its log kept (`log`) or not: the state a search agent would clone.
fn mid_game<'p>(prog: &'p Program, decks: &[Vec<u32>], log: bool) -> Game<'p> {
    let seed = fuda::tools::sim::game_seed(SEED, 3);
    let seats = vec![decks[0].clone(), decks[1].clone()];
    let options = Options {
        seed,
        ..Options::default()
    };
    let mut g = Game::new(prog, &seats, None, &options);
    g.keep_log(log);
    let mut agents = [RandomAgent::new(seed, 0), RandomAgent::new(seed, 1)];
    while let Some(req) = g.step() {
        if g.state.turn >= MID_GAME_TURN {
            break;
        }
        let view = g.view(req.player);
        let a = agents[req.player as usize % 2].decide(&view, &req);
        g.answer(&req, a);
    }
    g
}

// ───────────────────────────── reference effects ─────────────────────────────

/// Cards written for this benchmark where no shipped card has the exact shape.
const BENCH_PACK: &str = r#"game pmv

card "ベンチ・対象破棄" {
  // targeted destroy: 相手の場のキャラクター1枚を対象とし、破棄する。
  number: "B01"
  type: command
  cost: 0
  nodes: 1

  play {
    let t = target 1 character on opponent.field
    destroy t
  }
}

card "ベンチ・探索" {
  // search and shuffle: デッキから名称に「霊夢」を含むカード1枚を手札に加え、デッキをシャッフルする。
  number: "B02"
  type: command
  cost: 0
  nodes: 1

  play {
    let c = search up to 1 card in your.deck where name contains 「霊夢」
    move c to your.hand
    shuffle your.deck
  }
}

card "ベンチ・スクリプト" {
  // draw 3 as a pack script (BENCH_SCRIPT): the same effect as 文々。新聞, through rhai
  number: "B03"
  type: command
  cost: 0
  nodes: 1

  play {
    script bench_draw(you, 3)
  }
}
"#;

/// The bench pack's script: the effect of 文々。新聞 (draw 3) as a rhai function, to compare
/// a script's cost with the same effect in fuda (`script_draw` against `draw`).
const BENCH_SCRIPT: &str = r#"
fn bench_draw(p, n) {
    run_verb("draw", [n, p]);
}
"#;

const BENCH_MANIFEST: &str =
    "name = \"bench\"\nversion = \"0.1.0\"\ngame = \"pmv\"\nrequires = [\"pmv\"]\n";

/// The `pmv` program with the bench pack's cards added.
fn load_effects() -> Program {
    let mut s = Session::new();
    s.skip_decks = true;
    s.check_path(Path::new("cards/pmv"));
    s.compile_source(PackSource {
        dir: None,
        manifest_path: "<bench>/pack.toml".into(),
        manifest_text: Some(BENCH_MANIFEST.into()),
        files: vec![(
            "<bench>/sets/effects.fuda".into(),
            BENCH_PACK.as_bytes().to_vec(),
        )],
        unreadable: Vec::new(),
        scripts: vec![(
            "<bench>/scripts/bench.rhai".into(),
            BENCH_SCRIPT.as_bytes().to_vec(),
        )],
        refused: Vec::new(),
    });
    s.finish();
    for d in s.diags.iter().filter(|d| d.is_error()) {
        eprintln!("bench pack: {}", d.message);
    }
    assert_eq!(s.error_count(), 0, "the bench pack checks clean");
    s.program("pmv").expect("the pmv program")
}

fn def(prog: &Program, name: &str) -> u32 {
    prog.find_card(name)
        .unwrap_or_else(|| panic!("no card named {name}"))
}

/// Shipped and bench cards the effects use, by printed name.
mod names {
    pub const NEWSPAPER: &str = "文々。新聞"; // 057: draw 3
    pub const MARISA: &str = "普通の魔法使い“霧雨 魔理沙”"; // 007: t.power += -2/±0 until end_of_turn
    pub const DESTROY: &str = "ベンチ・対象破棄"; // B01
    pub const LUNASA: &str = "騒霊ヴァイオリスト“ルナサ・プリズムリバー”"; // 066: if count(...) >= 3 { draw 1 }
    pub const SEARCH: &str = "ベンチ・探索"; // B02
    pub const SCRIPT_DRAW: &str = "ベンチ・スクリプト"; // B03: script bench_draw(you, 3)
    pub const REIMU: &str = "楽園の素敵な巫女“博麗 霊夢”"; // 006: gamma when this attacked { may draw 1 }
    pub const KEINE: &str = "歴史を喰らう守護者“上白沢 慧音”"; // 008: continuous while … { this.power += +1/+1 }
    pub const MOKOU: &str = "不死の煙“藤原 妹紅”"; // 011: replacement instead of moves(… underworld) { move this to hand }
    pub const YOUMU: &str = "半人半霊の庭師“魂魄 妖夢”"; // 002
    pub const MEIRIN: &str = "紅魔館の門番“紅 美鈴”"; // 018
    pub const SPARROWS: &str = "夜雀の群れ"; // 005 (an illusion: not a target of `character`)
    pub const CHILD: &str = "人里の子供"; // 001
    pub const REIMU_1: &str = "符ノ壱“博麗 霊夢”"; // 025
    pub const GUARD: &str = "人里の自警団"; // 027
    pub const RUMIA: &str = "宵闇の妖怪“ルーミア”"; // 043
    pub const YAMAME: &str = "暗い洞窟の明るい網“黒谷 ヤマメ”"; // 045
}

/// What a hand-written engine would know about the cards and the ruleset: indices and
/// per-definition tables, computed once.
struct Native {
    deck: u16,
    hand: u16,
    field: u16,
    underworld: u16,
    public: Vec<bool>,
    in_play: Vec<bool>,
    attack: u16,
    toughness: u16,
    layer_add: u16,
    end_of_turn: u16,
    /// Per definition: its type is `character`.
    character: Vec<bool>,
    /// Per definition: its race contains 人間.
    human: Vec<bool>,
    /// Per definition: its (normalized) name contains 霊夢.
    reimu: Vec<bool>,
    /// Per definition: printed attack / toughness.
    power: Vec<(i64, i64)>,
    /// Per definition: "when this attacked, may draw 1".
    draws_on_attack: Vec<bool>,
    /// Per definition: "instead of moving from the field to the underworld, to the hand".
    replaces_destroy: Vec<bool>,
}

impl Native {
    fn new(prog: &Program) -> Native {
        let zone = |id: &str| prog.zones[id];
        let names = &prog.ruleset.names;
        let reimu = fuda::ir::normalize::apply(names, "霊夢");
        let human = fuda::ir::normalize::apply(names, "人間");
        let text_list = |v: Option<&fuda::ir::Value>| -> Vec<String> {
            match v {
                Some(fuda::ir::Value::Text(t)) => vec![t.clone()],
                Some(fuda::ir::Value::List(l)) => l
                    .iter()
                    .filter_map(|x| match x {
                        fuda::ir::Value::Text(t) => Some(t.clone()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            }
        };
        let has = |name: &str| {
            let d = def(prog, name) as usize;
            (0..prog.cards.len()).map(move |i| i == d)
        };
        Native {
            deck: zone("pmv:deck"),
            hand: zone("pmv:hand"),
            field: zone("pmv:field"),
            underworld: zone("pmv:underworld"),
            public: prog
                .ruleset
                .zones
                .iter()
                .map(|z| z.visibility == fuda::ir::Visibility::Public)
                .collect(),
            in_play: prog.in_play.clone(),
            attack: prog.stat_index["pmv:attack"],
            toughness: prog.stat_index["pmv:toughness"],
            layer_add: prog.layer_index["pmv:add"],
            end_of_turn: prog.moment_index["pmv:end_of_turn"],
            character: prog
                .cards
                .iter()
                .map(|c| c.card_type == "pmv:character")
                .collect(),
            human: prog
                .cards
                .iter()
                .map(|c| {
                    text_list(c.fields.get("race"))
                        .iter()
                        .any(|r| fuda::ir::normalize::apply(names, r).contains(&human))
                })
                .collect(),
            reimu: prog
                .cards
                .iter()
                .map(|c| fuda::ir::normalize::apply(names, &c.name).contains(&reimu))
                .collect(),
            power: prog
                .cards
                .iter()
                .map(|c| match c.stats.get("pmv:power") {
                    Some(fuda::ir::Value::Pair(p)) if p.len() == 2 => (p[0], p[1]),
                    _ => (0, 0),
                })
                .collect(),
            draws_on_attack: has(names::REIMU).collect(),
            replaces_destroy: has(names::MOKOU).collect(),
        }
    }

    /// A card moves (as `commit_move` changes the state: no log, no events).
    fn move_card(&self, s: &mut State, c: CardId, to: ZoneKey, bottom: bool) {
        let from = s.cards[c as usize].zone;
        let fs = s.slot(from);
        if let Some(i) = s.zones[fs].iter().position(|x| *x == c) {
            s.zones[fs].remove(i);
        }
        let ts = s.slot(to);
        if bottom {
            s.zones[ts].insert(0, c);
        } else {
            s.zones[ts].push(c);
        }
        let keep = from != to && self.in_play[from.zone as usize] && self.in_play[to.zone as usize];
        let t = s.tick();
        let cs = &mut s.cards[c as usize];
        cs.zone = to;
        cs.controller = to.owner;
        cs.face_up = self.public[to.zone as usize];
        if from != to && !keep {
            new_object(cs, t);
        }
        if from != to && !keep {
            for x in s.cards.iter_mut() {
                if x.host == Some(c) {
                    x.host = None;
                }
            }
        }
        s.generation += 1;
    }

    /// `draw n` for player `p` (the ruleset's verb).
    fn draw(&self, s: &mut State, p: Seat, n: usize) {
        let deck = ZoneKey {
            zone: self.deck,
            owner: p,
        };
        if s.zone(deck).len() < n {
            s.players[p as usize].lost = true;
        }
        let hand = ZoneKey {
            zone: self.hand,
            owner: p,
        };
        for _ in 0..n {
            let Some(&c) = s.zone(deck).last() else {
                break;
            };
            self.move_card(s, c, hand, false);
        }
    }

    /// The characters on a player's field.
    fn characters_on_field(&self, s: &State, p: Seat) -> Vec<CardId> {
        s.zone(ZoneKey {
            zone: self.field,
            owner: p,
        })
        .iter()
        .copied()
        .filter(|c| self.character[s.cards[*c as usize].def as usize])
        .collect()
    }

    /// `destroy c`, with the replacement of 妹紅 (to the hand instead of the underworld).
    fn destroy(&self, s: &mut State, c: CardId) {
        let cs = &s.cards[c as usize];
        let owner = cs.owner;
        let zone = if self.replaces_destroy[cs.def as usize] && cs.zone.zone == self.field {
            self.hand
        } else {
            self.underworld
        };
        self.move_card(s, c, ZoneKey { zone, owner }, false);
    }
}

/// A card becomes a new object (3.1.7).
fn new_object(cs: &mut CardState, t: u64) {
    cs.incarnation += 1;
    cs.states = 0;
    cs.counters.iter_mut().for_each(|x| *x = 0);
    cs.treat = None;
    cs.effect_negated = false;
    cs.host = None;
    cs.known = 0;
    cs.entered = t;
    cs.slot = None;
}

/// How an effect is run through the engine.
enum IrRun {
    /// `Game::run_effect(card, ability, answers)`.
    Effect(CardId, usize, Vec<Answer>),
    /// `Game::run_event(event, you, answers)`.
    Event(EventData, Seat, Vec<Answer>),
    /// The game changes (a generation bump), then a stat of a card is read.
    Stat(CardId, &'static str),
}

type NativeFn = Box<dyn Fn(&Native, &mut State) -> Value>;

/// One reference effect.
struct Effect {
    name: &'static str,
    what: &'static str,
    ir: IrRun,
    native: NativeFn,
    /// The deck is shuffled: compare zones as sets.
    shuffles: bool,
}

/// The prepared game: p1 (seat 0) is the turn player.
struct Table {
    game_cards: Vec<Placement>,
    ids: std::collections::HashMap<&'static str, CardId>,
}

fn table(prog: &Program) -> Table {
    use names::*;
    let z = |id: &str| prog.zones[id];
    let mut placements = Vec::new();
    let mut ids = std::collections::HashMap::new();
    let mut put = |name: &'static str, owner: Seat, zone: &str, placements: &mut Vec<Placement>| {
        let id = placements.len() as CardId;
        placements.push(Placement {
            def: def(prog, name),
            owner,
            zone: ZoneKey {
                zone: z(zone),
                owner,
            },
            states: Vec::new(),
            counters: Vec::new(),
            face_up: None,
            host: None,
            slot: None,
        });
        ids.insert(name, id); // the last one placed: the one in play
        id
    };
    let deck_cards = [
        CHILD, GUARD, YOUMU, RUMIA, YAMAME, REIMU_1, MEIRIN, CHILD, GUARD, SPARROWS,
    ];
    for owner in 0..2 {
        // 30 cards each, two 霊夢 among them (one near the bottom)
        for i in 0..30 {
            let name = match i {
                3 => REIMU,
                25 => REIMU_1,
                _ => deck_cards[i % deck_cards.len()],
            };
            put(name, owner, "pmv:deck", &mut placements);
        }
        for i in 0..5 {
            put(deck_cards[(i * 3) % 10], owner, "pmv:hand", &mut placements);
        }
        for name in deck_cards.iter().take(5) {
            put(name, owner, "pmv:node_area", &mut placements);
        }
    }
    // p1's field: a trigger on attack, a continuous modifier, a count, an activated ability
    for name in [KEINE, REIMU, CHILD, CHILD, MARISA, LUNASA] {
        put(name, 0, "pmv:field", &mut placements);
    }
    // the play area: the spells and commands being resolved
    for name in [NEWSPAPER, DESTROY, SEARCH, SCRIPT_DRAW] {
        put(name, 0, "pmv:play_area", &mut placements);
    }
    // p2's field: three characters (妹紅 replaces its destruction) and an illusion
    for name in [YOUMU, MEIRIN, MOKOU, SPARROWS] {
        put(name, 1, "pmv:field", &mut placements);
    }
    Table {
        game_cards: placements,
        ids,
    }
}

fn prepared_game<'p>(prog: &'p Program, t: &Table) -> Game<'p> {
    let main = prog.phase_index.get("pmv:main").copied();
    Game::from_placements(
        prog,
        &t.game_cards,
        3,
        0,
        main,
        false,
        &Options {
            seed: 7,
            ..Options::default()
        },
    )
}

#[allow(clippy::too_many_lines)] // the eight reference effects, each written out twice
fn effects(prog: &Program, t: &Table) -> Vec<Effect> {
    use names::*;
    let id = |n: &str| t.ids[n];
    let attacked = prog.event_index["pmv:attacked"];
    let reimu = id(REIMU);
    let keine = id(KEINE);
    let pick = |i: usize| vec![Answer::Many(vec![i])];
    vec![
        Effect {
            name: "draw",
            what: "文々。新聞: draw 3",
            ir: IrRun::Effect(id(NEWSPAPER), 0, Vec::new()),
            native: Box::new(|n, s| {
                n.draw(s, 0, 3);
                Value::Absent
            }),
            shuffles: false,
        },
        Effect {
            name: "script_draw",
            what: "ベンチ・スクリプト: script bench_draw(you, 3) (draw 3 in rhai: compare with draw)",
            ir: IrRun::Effect(id(SCRIPT_DRAW), 0, Vec::new()),
            native: Box::new(|n, s| {
                n.draw(s, 0, 3);
                Value::Absent
            }),
            shuffles: false,
        },
        Effect {
            name: "stat_until_eot",
            what: "霧雨 魔理沙: target 1 character on opponent.field; t.power += -2/±0 until end_of_turn",
            ir: IrRun::Effect(id(MARISA), 0, pick(0)),
            native: Box::new(|n, s| {
                let t = n.characters_on_field(s, 1)[0];
                let ts = s.tick();
                let m = Modifier {
                    timestamp: ts,
                    card: t,
                    incarnation: s.cards[t as usize].incarnation,
                    kind: ModKind::Stat {
                        stat: n.attack,
                        layer: n.layer_add,
                        op: StatOp::Add,
                        value: -2,
                    },
                    until: Until::Moment(n.end_of_turn),
                };
                s.modifiers.push(m);
                s.generation += 1;
                Value::Absent
            }),
            shuffles: false,
        },
        Effect {
            name: "targeted_destroy",
            what: "target 1 character on opponent.field; destroy t (魂魄 妖夢)",
            ir: IrRun::Effect(id(DESTROY), 0, pick(0)),
            native: Box::new(|n, s| {
                let t = n.characters_on_field(s, 1)[0];
                n.destroy(s, t);
                Value::Absent
            }),
            shuffles: false,
        },
        Effect {
            name: "conditional_count",
            what: "ルナサ: if count(character on your.field) >= 3 { draw 1 }",
            ir: IrRun::Effect(id(LUNASA), 0, Vec::new()),
            native: Box::new(|n, s| {
                if n.characters_on_field(s, 0).len() >= 3 {
                    n.draw(s, 0, 1);
                }
                Value::Absent
            }),
            shuffles: false,
        },
        Effect {
            name: "search_shuffle",
            what: "search up to 1 card in your.deck where name contains 「霊夢」; to hand; shuffle",
            ir: IrRun::Effect(id(SEARCH), 0, pick(0)),
            native: Box::new(|n, s| {
                let deck = ZoneKey {
                    zone: n.deck,
                    owner: 0,
                };
                let mut found: Vec<CardId> = s
                    .zone(deck)
                    .iter()
                    .copied()
                    .filter(|c| n.reimu[s.cards[*c as usize].def as usize])
                    .collect();
                found.sort_by_key(|c| (s.cards[*c as usize].def, *c));
                if let Some(&c) = found.first() {
                    let hand = ZoneKey {
                        zone: n.hand,
                        owner: 0,
                    };
                    n.move_card(s, c, hand, false);
                }
                let slot = s.slot(deck);
                for c in s.zones[slot].clone() {
                    s.cards[c as usize].known = 0;
                }
                let mut rng = ChaCha8Rng::seed_from_u64(s.clock);
                s.zones[slot].shuffle(&mut rng);
                s.generation += 1;
                Value::Absent
            }),
            shuffles: true,
        },
        Effect {
            name: "trigger_on_attack",
            what: "博麗 霊夢 attacked: gamma when this attacked { may draw 1 } (yes)",
            ir: IrRun::Event(
                EventData {
                    event: attacked,
                    args: vec![Value::Card(reimu), Value::Absent].into(),
                },
                0,
                vec![Answer::Yes(true)],
            ),
            native: Box::new(move |n, s| {
                // every card in play is asked whether it triggers on this attack
                for p in 0..2 {
                    let field = ZoneKey {
                        zone: n.field,
                        owner: p,
                    };
                    for c in s.zone(field).to_vec() {
                        let cs = &s.cards[c as usize];
                        if n.draws_on_attack[cs.def as usize] && c == reimu {
                            let you = cs.controller;
                            n.draw(s, you, 1);
                        }
                    }
                }
                Value::Absent
            }),
            shuffles: false,
        },
        Effect {
            name: "continuous_modifier",
            what: "上白沢 慧音's power read after a change: +1/+1 while 2+ humans on your.field",
            ir: IrRun::Stat(keine, "pmv:power"),
            native: Box::new(move |n, s| {
                s.generation += 1;
                let cs = &s.cards[keine as usize];
                let (mut a, mut t) = n.power[cs.def as usize];
                let mut mods: Vec<&Modifier> = s
                    .modifiers
                    .iter()
                    .filter(|m| m.card == keine && m.incarnation == cs.incarnation)
                    .collect();
                mods.sort_by_key(|m| m.timestamp);
                for m in mods {
                    if let ModKind::Stat {
                        stat,
                        op: StatOp::Add,
                        value,
                        ..
                    } = m.kind
                    {
                        if stat == n.attack {
                            a += value;
                        } else if stat == n.toughness {
                            t += value;
                        }
                    }
                }
                let humans = s
                    .zone(ZoneKey {
                        zone: n.field,
                        owner: cs.controller,
                    })
                    .iter()
                    .filter(|c| {
                        let d = s.cards[**c as usize].def as usize;
                        n.character[d] && n.human[d]
                    })
                    .count();
                if humans >= 2 {
                    a += 1;
                    t += 1;
                }
                Value::Pair(vec![Some(a.max(0)), Some(t.max(0))])
            }),
            shuffles: false,
        },
        Effect {
            name: "replacement",
            what: "destroy 藤原 妹紅: replacement instead of moves(… underworld) { move this to hand }",
            ir: IrRun::Effect(id(DESTROY), 0, pick(2)),
            native: Box::new(|n, s| {
                let t = n.characters_on_field(s, 1)[2];
                n.destroy(s, t);
                Value::Absent
            }),
            shuffles: false,
        },
    ]
}

/// Runs an effect through the engine on a game; returns the stat read (or `Absent`).
fn run_ir(g: &mut Game<'_>, run: &IrRun) -> Value {
    match run {
        IrRun::Effect(card, ability, answers) => {
            if let Err(req) = g.run_effect(*card, *ability, answers) {
                panic!(
                    "unanswered request: {}",
                    fuda::tools::runner::describe(&req)
                );
            }
            Value::Absent
        }
        IrRun::Event(e, you, answers) => {
            match g.run_event(e.clone(), *you, answers) {
                Ok(n) => assert!(n >= 1, "the event triggers an ability"),
                Err(req) => panic!(
                    "unanswered request: {}",
                    fuda::tools::runner::describe(&req)
                ),
            }
            Value::Absent
        }
        IrRun::Stat(c, stat) => {
            g.state.generation += 1;
            g.stat(*c, stat)
        }
    }
}

/// `runs` copies of a prepared game, each with its log on or off.
fn copies<'p>(game: &Game<'p>, runs: usize, log: bool) -> Vec<Game<'p>> {
    (0..runs)
        .map(|_| {
            let mut g = game.clone();
            g.keep_log(log);
            g
        })
        .collect()
}

/// Runs an effect through the engine once on each game (for instruction counts).
#[inline(never)]
fn ir_runs(games: &mut [Game<'_>], e: &Effect) {
    for g in games {
        black_box(run_ir(g, &e.ir));
    }
}

/// Runs an effect's closure once on each state (for instruction counts).
#[inline(never)]
fn native_runs(states: &mut [State], e: &Effect, native: &Native) {
    for s in states {
        black_box((e.native)(native, s));
    }
}

/// Checks that the engine and the closure changed the state the same way.
fn compare(e: &Effect, ir: (&State, &Value), native: (&State, &Value)) -> Result<(), String> {
    let (a, va) = ir;
    let (b, vb) = native;
    if va != vb {
        return Err(format!("values differ: ir {va:?}, native {vb:?}"));
    }
    for (i, (za, zb)) in a.zones.iter().zip(&b.zones).enumerate() {
        let (mut za, mut zb) = (za.clone(), zb.clone());
        if e.shuffles {
            za.sort_unstable();
            zb.sort_unstable();
        }
        if za != zb {
            return Err(format!("zone slot {i} differs: ir {za:?}, native {zb:?}"));
        }
    }
    for (i, (ca, cb)) in a.cards.iter().zip(&b.cards).enumerate() {
        let key = |c: &CardState| {
            (
                c.zone,
                c.controller,
                c.face_up,
                c.states,
                c.counters.clone(),
                c.host,
                c.incarnation,
                c.known,
            )
        };
        if key(ca) != key(cb) {
            return Err(format!("card {i} differs: ir {ca:?}, native {cb:?}"));
        }
    }
    let mods = |s: &State| {
        s.modifiers
            .iter()
            .map(|m| (m.card, m.incarnation, m.kind.clone(), m.until.clone()))
            .collect::<Vec<_>>()
    };
    if mods(a) != mods(b) {
        return Err(format!(
            "modifiers differ: ir {:?}, native {:?}",
            mods(a),
            mods(b)
        ));
    }
    if a.players != b.players {
        return Err("players differ".into());
    }
    Ok(())
}

// ───────────────────────────── summary ─────────────────────────────

/// Rounds of manual timing per effect, and runs per round.
const ROUNDS: usize = 5;
const RUNS: usize = 2_000;

/// What timing an empty region costs (two `Instant` reads), the least of a few rounds.
fn timer_overhead() -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let mut total = Duration::ZERO;
            for _ in 0..RUNS {
                let t = Instant::now();
                total += black_box(t).elapsed();
            }
            total / RUNS as u32
        })
        .min()
        .unwrap_or_default()
}

/// Best of `ROUNDS` rounds of the mean time of one run over `RUNS` runs, each on a fresh input
/// made just before it (so the input is warm in the cache, as a game's state is), less the
/// timer's own overhead.
fn best_mean<S, T>(
    overhead: Duration,
    setup: impl Fn() -> S,
    mut f: impl FnMut(&mut S) -> T,
) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..ROUNDS {
        let mut total = Duration::ZERO;
        for _ in 0..RUNS {
            let mut x = setup();
            let t = Instant::now();
            let out = black_box(f(&mut x));
            total += t.elapsed();
            drop(out);
            drop(x);
        }
        best = best.min(total / RUNS as u32);
    }
    best.saturating_sub(overhead)
}

struct Figures {
    games: Vec<GameFigures>,
    effects: Vec<(&'static str, &'static str, Duration, Duration)>,
    /// Cloning a mid-game PMV game: with its log, and with the log off.
    clones: (Duration, Duration),
}

/// Random games of one game, played for at least 2 s.
struct GameFigures {
    name: &'static str,
    games: u64,
    time: Duration,
    turns: u64,
    steps: u64,
}

fn measure_games(name: &'static str, prog: &Program, decks: &[Vec<u32>]) -> GameFigures {
    let start = Instant::now();
    let (mut games, mut turns, mut steps) = (0u64, 0u64, 0u64);
    while games < 20 || start.elapsed() < Duration::from_secs(2) {
        let (_, tn, st) = black_box(play_game(prog, decks, games));
        games += 1;
        turns += tn as u64;
        steps += st;
    }
    GameFigures {
        name,
        games,
        time: start.elapsed(),
        turns,
        steps,
    }
}

fn measure(
    games: &[(&'static str, Program, Vec<Vec<u32>>)],
    eprog: &Program,
    t: &Table,
) -> Figures {
    let clones = match games.first() {
        Some((_, prog, decks)) => clone_times(prog, decks, timer_overhead()),
        None => (Duration::ZERO, Duration::ZERO),
    };
    let games = games
        .iter()
        .map(|(name, prog, decks)| measure_games(name, prog, decks))
        .collect();
    let native = Native::new(eprog);
    let game = prepared_game(eprog, t);
    let overhead = timer_overhead();
    let mut out = Vec::new();
    for e in effects(eprog, t) {
        let ir = best_mean(overhead, || game.clone(), |g| run_ir(g, &e.ir));
        let nat = best_mean(overhead, || game.state.clone(), |s| (e.native)(&native, s));
        out.push((e.name, e.what, ir, nat));
    }
    Figures {
        games,
        effects: out,
        clones,
    }
}

/// One clone, out of line so that callgrind counts it (`clone_game`'s inclusive cost).
#[inline(never)]
fn clone_game<'p>(g: &Game<'p>) -> Game<'p> {
    g.clone()
}

/// The time to clone a mid-game PMV game, with its log and without.
fn clone_times(prog: &Program, decks: &[Vec<u32>], overhead: Duration) -> (Duration, Duration) {
    let logged = mid_game(prog, decks, true);
    let quiet = mid_game(prog, decks, false);
    (
        best_mean(overhead, || (), |_| clone_game(&logged)),
        best_mean(overhead, || (), |_| clone_game(&quiet)),
    )
}

fn summary(f: &Figures) {
    eprintln!();
    eprintln!("── fuda engine benchmark (one core; manual runs) ──");
    for g in &f.games {
        let per_sec = g.games as f64 / g.time.as_secs_f64();
        eprintln!(
            "  random {} games: {} games in {:.2} s = {:.1} games/s ({:.0} µs/game; {:.1} turns, {:.0} statements a game)",
            g.name,
            g.games,
            g.time.as_secs_f64(),
            per_sec,
            1e6 / per_sec,
            g.turns as f64 / g.games as f64,
            g.steps as f64 / g.games as f64
        );
        eprintln!(
            "  goal ≥ {GOAL_GAMES_PER_SEC:.0} games/s: measured / goal = {:.4} ({}; {:.0}× short)",
            per_sec / GOAL_GAMES_PER_SEC,
            if per_sec >= GOAL_GAMES_PER_SEC {
                "met"
            } else {
                "not met"
            },
            GOAL_GAMES_PER_SEC / per_sec
        );
    }
    eprintln!();
    eprintln!(
        "  {:<22} {:>11} {:>11} {:>9}   (goal: ir / native ≤ {GOAL_RATIO:.0}×; best of {ROUNDS} × {RUNS} runs)",
        "effect", "ir", "native", "ir/native"
    );
    let mut worst: f64 = 0.0;
    for (name, what, ir, nat) in &f.effects {
        let ratio = ir.as_secs_f64() / nat.as_secs_f64().max(1e-12);
        worst = worst.max(ratio);
        eprintln!(
            "  {name:<22} {:>8.2} µs {:>8.3} µs {:>8.0}×   {what}",
            ir.as_secs_f64() * 1e6,
            nat.as_secs_f64() * 1e6,
            ratio
        );
    }
    let geo = (f
        .effects
        .iter()
        .map(|(_, _, ir, nat)| (ir.as_secs_f64() / nat.as_secs_f64().max(1e-12)).ln())
        .sum::<f64>()
        / f.effects.len().max(1) as f64)
        .exp();
    eprintln!(
        "  ir / native: geometric mean {geo:.0}×, worst {worst:.0}× (goal ≤ {GOAL_RATIO:.0}×: {})",
        if worst <= GOAL_RATIO {
            "met"
        } else {
            "not met"
        }
    );
    let (logged, quiet) = f.clones;
    eprintln!(
        "  clone a PMV game at turn {MID_GAME_TURN}: {:.2} µs with its log, {:.2} µs with the log off (goal ≤ {:.0} µs: {})",
        logged.as_secs_f64() * 1e6,
        quiet.as_secs_f64() * 1e6,
        GOAL_CLONE.as_secs_f64() * 1e6,
        if quiet <= GOAL_CLONE { "met" } else { "not met" }
    );
    eprintln!();
}

// ───────────────────────────── main ─────────────────────────────

fn main() {
    let (prog, decks) = load_games("pmv");
    let (ws_prog, ws_decks) = load_games("ws");
    let (pm_prog, pm_decks) = load_games("pm");

    // A fixed amount of work for profilers.
    if let Some(n) = std::env::var("FUDA_BENCH_GAMES")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    {
        let (prog, decks) = match std::env::var("FUDA_BENCH_GAME").as_deref() {
            Ok("ws") => (&ws_prog, &ws_decks),
            Ok("pm") => (&pm_prog, &pm_decks),
            _ => (&prog, &decks),
        };
        let t = Instant::now();
        let (mut steps, mut turns) = (0, 0u64);
        for i in 0..n {
            let (_, tn, st) = play_game(prog, decks, i);
            steps += st;
            turns += u64::from(tn);
        }
        eprintln!(
            "{n} games, {turns} turns, {steps} statements, {:?}",
            t.elapsed()
        );
        return;
    }

    // Clones of a mid-game PMV game, for instruction counts (`FUDA_BENCH_LOG=0`: log off).
    if let Some(n) = std::env::var("FUDA_BENCH_CLONES")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
    {
        let log = std::env::var("FUDA_BENCH_LOG").as_deref() != Ok("0");
        let g = mid_game(&prog, &decks, log);
        let t = Instant::now();
        for _ in 0..n {
            black_box(clone_game(&g));
        }
        eprintln!(
            "{n} clones (log {}), {:?}",
            if log { "on" } else { "off" },
            t.elapsed()
        );
        return;
    }

    let eprog = load_effects();
    let t = table(&eprog);
    let native = Native::new(&eprog);
    let game = prepared_game(&eprog, &t);
    let list = effects(&eprog, &t);

    // One effect, a fixed number of runs each way, for instruction counts.
    if let Ok(name) = std::env::var("FUDA_BENCH_EFFECT") {
        let runs = std::env::var("FUDA_BENCH_RUNS")
            .ok()
            .and_then(|s| s.parse::<usize>().ok())
            .unwrap_or(100);
        let e = list
            .iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no effect named {name}"));
        let log = std::env::var("FUDA_BENCH_LOG").as_deref() != Ok("0");
        let mut games = copies(&game, runs, log);
        let mut states: Vec<State> = (0..runs).map(|_| game.state.clone()).collect();
        ir_runs(&mut games, e);
        native_runs(&mut states, e, &native);
        eprintln!("{name}: {runs} runs each way");
        return;
    }

    // Each pair does the same thing on the same state.
    for e in &list {
        let mut g = game.clone();
        let vi = run_ir(&mut g, &e.ir);
        let mut s = game.state.clone();
        let vn = (e.native)(&native, &mut s);
        if let Err(why) = compare(e, (&g.state, &vi), (&s, &vn)) {
            panic!(
                "effect `{}`: the engine and the closure differ: {why}",
                e.name
            );
        }
    }
    eprintln!(
        "{} reference effects: engine and closures agree on the prepared state",
        list.len()
    );

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .configure_from_args();
    {
        let mut g = c.benchmark_group("random_game");
        g.throughput(Throughput::Elements(1));
        // A game takes milliseconds: flat sampling keeps 10 samples within the time.
        g.sampling_mode(SamplingMode::Flat);
        g.bench_function("pmv", |b| {
            let mut i = 0u64;
            b.iter(|| {
                i += 1;
                play_game(&prog, &decks, black_box(i))
            })
        });
        g.bench_function("ws", |b| {
            let mut i = 0u64;
            b.iter(|| {
                i += 1;
                play_game(&ws_prog, &ws_decks, black_box(i))
            })
        });
        g.bench_function("pm", |b| {
            let mut i = 0u64;
            b.iter(|| {
                i += 1;
                play_game(&pm_prog, &pm_decks, black_box(i))
            })
        });
        g.finish();
    }
    {
        let mut g = c.benchmark_group("effect");
        g.sample_size(20);
        g.measurement_time(Duration::from_secs(2));
        g.warm_up_time(Duration::from_millis(500));
        for e in &list {
            g.bench_function(format!("{}/ir", e.name), |b| {
                b.iter_batched(
                    || game.clone(),
                    |mut gm| {
                        let v = run_ir(&mut gm, &e.ir);
                        (gm, v)
                    },
                    BatchSize::PerIteration,
                )
            });
            g.bench_function(format!("{}/native", e.name), |b| {
                b.iter_batched(
                    || game.state.clone(),
                    |mut s| {
                        let v = (e.native)(&native, &mut s);
                        (s, v)
                    },
                    BatchSize::PerIteration,
                )
            });
        }
        g.finish();
    }
    c.final_summary();

    let games = [
        ("PMV", prog, decks),
        ("WS", ws_prog, ws_decks),
        ("PM", pm_prog, pm_decks),
    ];
    let figures = measure(&games, &eprog, &t);
    summary(&figures);
}
