//! Compile-speed benchmark: a generated 10,000-card PMV pack.
//!
//! `cargo bench --bench compile` (run from the crate root, so `cards/pmv` is found).
//!
//! The pack is generated in memory by a tiny deterministic LCG (no `rand`), with
//! cards modelled on `cards/pmv/sets/core.fuda`: vanilla and keyworded characters,
//! triggered / activated / continuous / replacement abilities, costs, limits,
//! targets, filters, for-each, if/else, may, choose one, equipment and charms.
//!
//! Measured (criterion, throughput in cards):
//! - `full`: `Session::compile_source` of the pack (it requires `pmv`, loaded from `cards/pmv`
//!   in every iteration: a fresh session each time; `pmv_dependency` measures that part alone);
//! - `parse`: `parse::parse_file` (lex pre-pass + pest + AST build);
//! - `lex`: `lex::split` alone (the logos pre-pass);
//! - `pest_only`: the pest parser alone on every item (no AST), to split parse into pest / build;
//! - `serde_json_ir`: `serde_json::from_str::<ir::Pack>` of the same pack's IR, the baseline.
//!
//! - `cached`: the same pack (and `pmv`) loaded from the compiled-pack cache (`Cache`, a
//!   temporary folder filled by one compile first): a fresh session each time, sources read,
//!   hashed and registered as in `fuda check` of an unchanged pack.
//!
//! Outputs are dropped outside the timings (`iter_batched`), so freeing the AST / IR is not
//! counted in any phase. Before criterion runs, a summary is printed (manual `Instant` runs,
//! best of 5): cards/s per phase, resolve = full − parse − pmv dependency, and full / serde_json;
//! then the peak memory of `full` and `cached`: a counting `#[global_allocator]` records the
//! most bytes live at once during the phase, above what was live when it began (the generated
//! text the bench keeps is not counted; the pack's bytes handed to the session are), so the
//! figure is the same on every run.
//!
//! Instruction counts (repeatable on a noisy machine): `FUDA_BENCH_ONLY=full|cached|parse` runs
//! that one phase `FUDA_BENCH_RUNS` times (default 3) and exits, printing its peak memory and
//! the process's peak RSS; the phase runs inside the function `measured`, so
//! `FUDA_BENCH_ONLY=cached valgrind --tool=callgrind --toggle-collect='*measured*'
//! target/release/deps/compile-<hash>` counts that phase alone (instructions per card = the
//! total / (runs × 10,000)) when `FUDA_BENCH_THREADS=1`: callgrind counts what runs inside
//! `measured` on its thread, and the phase runs on a pool of that many threads (default: all
//! cores; the global pool too, for the summary and criterion). `FUDA_BENCH_ONLY=memory` prints
//! where a session's bytes live after a full compile and after a cached load (the cards' IR,
//! span tables, symbols, sources), with the IR's nodes per card and their sizes.

use criterion::{BatchSize, Criterion, SamplingMode, Throughput};
use fuda::base::source::FileId;
use fuda::compiler::parse::{FudaParser, Rule};
use fuda::packs::cache::Cache;
use fuda::packs::{PackSource, Session};
use mimalloc::MiMalloc;
use pest::Parser;
use std::alloc::{GlobalAlloc, Layout};
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::time::{Duration, Instant};

/// Cards in the generated pack.
const CARDS: usize = 10_000;
/// Generator seed: the pack is the same on every run.
const SEED: u64 = 0x00f0_da5e_ed00_2024;

// ───────────────────────────── generator ─────────────────────────────

mod gen {
    use super::*;

    /// A 64-bit LCG (Knuth's MMIX constants); the high bits are used.
    pub struct Lcg(u64);

    impl Lcg {
        pub fn new(seed: u64) -> Self {
            Lcg(seed ^ 0x9E37_79B9_7F4A_7C15)
        }
        fn next(&mut self) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) as u32
        }
        /// Uniform in `0..n`.
        pub fn below(&mut self, n: u32) -> u32 {
            ((self.next() as u64 * n as u64) >> 31) as u32
        }
        /// Uniform in `lo..=hi`.
        pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
            lo + self.below(hi - lo + 1)
        }
        /// True with probability `pct`%.
        pub fn chance(&mut self, pct: u32) -> bool {
            self.below(100) < pct
        }
        pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
            xs[self.below(xs.len() as u32) as usize]
        }
    }

    const RACES: &[&str] = &[
        "人間",
        "妖怪",
        "妖精",
        "鬼",
        "半人半霊",
        "天狗",
        "河童",
        "吸血鬼",
        "魔法使い",
        "神霊",
        "半獣",
        "天邪鬼",
    ];
    const CASTERS: &[&str] = &[
        "博麗 霊夢",
        "霧雨 魔理沙",
        "十六夜 咲夜",
        "魂魄 妖夢",
        "東風谷 早苗",
        "射命丸 文",
        "八雲 紫",
        "古明地 さとり",
        "紅 美鈴",
        "藤原 妹紅",
        "チルノ",
        "星熊 勇儀",
        "上白沢 慧音",
        "鬼人 正邪",
        "レミリア・スカーレット",
        "パチュリー・ノーレッジ",
    ];
    const TITLES: &[&str] = &[
        "楽園の素敵な巫女",
        "普通の魔法使い",
        "完全で瀟洒な従者",
        "半人半霊の庭師",
        "祀られる風の人間",
        "伝統の幻想ブン屋",
        "神隠しの主犯",
        "怨霊も恐れ怯む少女",
        "華人小娘",
        "不死の煙",
        "湖上の氷精",
        "語られる怪力乱神",
        "歴史を喰らう守護者",
        "逆襲のあまのじゃく",
        "永遠に紅い幼き月",
        "動かない大図書館",
    ];
    const SPELL_NAMES: &[&str] = &[
        "夢符「封魔陣」",
        "恋符「マスタースパーク」",
        "幻世「ザ・ワールド」",
        "結界「夢と現の境界」",
        "想起「読心の瞳」",
        "獄炎「ヘルファイア」",
        "氷符「アイシクルフォール」",
        "奇跡「白昼の客星」",
    ];
    const THINGS: &[&str] = &[
        "巫女の探し物",
        "博麗神社の宴会",
        "旧地獄の門",
        "封魔の御札",
        "香霖堂の古道具",
        "鬼の酒宴",
        "ミニ八卦炉",
        "紅魔館の時計",
        "守矢の御柱",
        "河童の工具箱",
    ];
    const COMMENTS: &[&str] = &[
        "// vanilla",
        "// keyword: first strike (6.2.4.d)",
        "// shape 1: optional trigger (6.3.4.f)",
        "// shape 2: sleep as a cost (6.3.3.b), layer add (6.1.10.c)",
        "// shape 3: continuous on a count (6.1.3.d race, 6.1.10.c)",
        "// shape 4: non-targeted mass destroy (3.4.5)",
        "// shape 6: replacement of the move (3.1.7)",
        "// a trigger with a payload condition and a cost; cancels it (6.3.6.a)",
    ];
    const KEYWORDS: &[&str] = &[
        "first_strike",
        "pierce",
        "ambush",
        "haste",
        "cannot_attack",
        "cannot_defend",
    ];

    /// The generated source of one `.fuda` file holding `n` cards.
    pub fn pack_source(n: usize, seed: u64) -> String {
        let mut rng = Lcg::new(seed);
        let mut out = String::with_capacity(n * 600);
        out.push_str("game pmv\n\n// Generated by benches/compile.rs: a deterministic pack for compile-speed measurements.\n\n");
        for i in 0..n {
            card(&mut rng, i, &mut out);
            out.push('\n');
        }
        out
    }

    fn card(r: &mut Lcg, i: usize, o: &mut String) {
        let roll = r.below(100);
        let kind = match roll {
            0..=14 => "vanilla",
            15..=49 => "character",
            50..=57 => "illusion",
            58..=71 => "spell",
            72..=86 => "command",
            87..=92 => "equipment",
            93..=96 => "charm",
            _ => "world_charm",
        };
        let name = match kind {
            "vanilla" | "character" | "illusion" => {
                format!("{}“{}”・{}", r.pick(TITLES), r.pick(CASTERS), i)
            }
            "spell" => format!("{}・{}", r.pick(SPELL_NAMES), i),
            _ => format!("{}・{}", r.pick(THINGS), i),
        };
        let _ = writeln!(o, "card \"{name}\" {{");
        if r.chance(40) {
            let _ = writeln!(o, "  {}", r.pick(COMMENTS));
        }
        let _ = writeln!(o, "  number: \"G{:05}\"", i);
        let ty = match kind {
            "vanilla" | "character" => "character",
            k => k,
        };
        let _ = writeln!(o, "  type: {ty}");
        let cost = r.range(0, 5);
        let _ = writeln!(o, "  cost: {cost}\n  nodes: {}", cost + r.range(1, 2));
        let is_char = matches!(kind, "vanilla" | "character" | "illusion");
        if (is_char && kind != "illusion" && r.chance(70))
            || (matches!(kind, "spell" | "equipment") && r.chance(60))
        {
            let _ = writeln!(o, "  caster: \"{}\"", r.pick(CASTERS));
        }
        if is_char {
            if r.chance(15) {
                let _ = writeln!(o, "  race: \"{}\", \"{}\"", r.pick(RACES), r.pick(RACES));
            } else {
                let _ = writeln!(o, "  race: \"{}\"", r.pick(RACES));
            }
            let _ = writeln!(o, "  power: {}/{}", r.range(0, 5), r.range(1, 6));
            if r.chance(45) {
                let mut kws: Vec<String> = Vec::new();
                for _ in 0..r.range(1, 2) {
                    if r.chance(30) {
                        kws.push(format!("graze {}", r.range(1, 3)));
                    } else {
                        kws.push(r.pick(KEYWORDS).to_string());
                    }
                }
                kws.dedup();
                let _ = writeln!(o, "  keywords: {}", kws.join(", "));
            }
        }
        match kind {
            "vanilla" => {}
            "character" | "illusion" => {
                for _ in 0..r.range(1, 3) {
                    o.push('\n');
                    char_ability(r, o);
                }
            }
            "spell" | "command" => {
                o.push('\n');
                let prefix = if kind == "spell" && r.chance(25) {
                    "interference "
                } else {
                    ""
                };
                let _ = writeln!(o, "  {prefix}play {{");
                for _ in 0..r.range(1, 3) {
                    effect(r, o, 2, 0);
                }
                o.push_str("  }\n");
            }
            "equipment" => {
                o.push_str("\n  equip when this enters(zone: field) {\n    let t = target 1 character on your.field\n    set_on(this, t)\n  }\n");
                let _ = writeln!(
                    o,
                    "  carried continuous {{\n    this.attack += {}\n  }}",
                    r.range(1, 3)
                );
                if r.chance(60) {
                    let _ = writeln!(o, "  carried gamma when this attacked {{\n    deal({}, source: this, recipient: opponent)\n  }}", r.range(1, 2));
                }
            }
            "charm" => {
                let _ = writeln!(
                    o,
                    "\n  enchant when this enters(zone: field) {{\n    let t = target 1 character on your.field where race contains \"{}\"\n    set_on(this, t)\n  }}",
                    r.pick(RACES)
                );
                let _ = writeln!(o, "  carried continuous {{\n    this.toughness += {} in layer always\n    grant {} to this\n  }}", r.range(1, 2), r.pick(&KEYWORDS[..4]));
            }
            _ => {
                let _ = writeln!(o, "\n  activated limit 1 per turn if this is active [sleep this] {{\n    treat this as character with {{ power: {}/{} }}\n  }}", r.range(1, 4), r.range(1, 4));
            }
        }
        o.push_str("}\n");
    }

    fn char_ability(r: &mut Lcg, o: &mut String) {
        match r.below(10) {
            // triggered
            0..=4 => {
                let attr = if r.chance(15) { "unnegatable " } else { "" };
                let kind = r.pick(&["alpha", "beta", "gamma"]);
                let trigger = r.pick(&[
                    "this attacked",
                    "this attacks",
                    "this defends",
                    "this enters(zone: field)",
                    "this leaves(zone: field)",
                    "attacks(attacker: this)",
                    "battle_end(attacker: this)",
                    "turn_start(player: you)",
                    "damaged(recipient: this)",
                    "attacks",
                ]);
                let _ = write!(o, "  {attr}{kind}");
                if r.chance(20) {
                    o.push_str(" limit 1 per turn");
                }
                let _ = write!(o, " when {trigger}");
                if trigger == "attacks" {
                    o.push_str(" if controller(event.attacker) != you");
                } else if r.chance(20) {
                    let _ = write!(o, " if count(card in your.hand) <= {}", r.range(2, 5));
                }
                if r.chance(20) {
                    o.push_str(" [sleep this]");
                }
                o.push_str(" {\n");
                if trigger == "attacks" {
                    o.push_str("    cancel attacks of event.attacker\n");
                } else {
                    for _ in 0..r.range(1, 2) {
                        effect(r, o, 2, 0);
                    }
                }
                o.push_str("  }\n");
            }
            // activated
            5..=6 => {
                o.push_str("  activated");
                if r.chance(40) {
                    o.push_str(" limit 1 per turn");
                }
                if r.chance(70) {
                    o.push_str(" if this is active");
                }
                match r.below(3) {
                    0 => o.push_str(" [sleep this]"),
                    1 => {
                        let _ = write!(o, " [pay({})]", r.range(1, 3));
                    }
                    _ => {
                        let _ = write!(o, " [sleep this, pay({})]", r.range(1, 2));
                    }
                }
                o.push_str(" {\n");
                for _ in 0..r.range(1, 2) {
                    effect(r, o, 2, 0);
                }
                o.push_str("  }\n");
            }
            // continuous
            7..=8 => match r.below(4) {
                0 => {
                    let _ = writeln!(
                        o,
                        "  continuous while count(character on your.field where race contains \"{}\") >= {} {{\n    this.power += +1/+1\n  }}",
                        r.pick(RACES),
                        r.range(1, 3)
                    );
                }
                1 => {
                    let _ = writeln!(
                        o,
                        "  continuous while this is attacking {{\n    this.attack += {}\n  }}",
                        r.range(1, 2)
                    );
                }
                2 => {
                    let _ = writeln!(
                        o,
                        "  continuous {{\n    for each c in character on your.field where race contains \"{}\" and cost <= {} {{\n      c.attack += 1\n    }}\n  }}",
                        r.pick(RACES),
                        r.range(1, 4)
                    );
                }
                _ => {
                    let _ = writeln!(o, "  continuous while count(card in your.hand) >= {} {{\n    grant {} to this\n  }}", r.range(3, 6), r.pick(&KEYWORDS[..4]));
                }
            },
            // replacement
            _ => {
                if r.chance(50) {
                    o.push_str("  replacement instead of moves(card: this, from_zone: field, to_zone: underworld) {\n    move this to owner(this).hand\n  }\n");
                } else {
                    o.push_str("  replacement instead of moves(card: this, from_zone: field, to_zone: underworld) {\n    exclude this\n    draw 1\n  }\n");
                }
            }
        }
    }

    const FILTERS: &[&str] = &[
        "attack <= {n}",
        "cost >= {n}",
        "race contains \"{race}\"",
        "it is sleep",
        "it is active and attack >= {n}",
        "not (it has first_strike)",
        "name contains 「{caster}」",
    ];

    fn filter(r: &mut Lcg) -> String {
        r.pick(FILTERS)
            .replace("{n}", &r.range(1, 4).to_string())
            .replace("{race}", r.pick(RACES))
            .replace("{caster}", r.pick(CASTERS))
    }

    fn ind(o: &mut String, depth: usize) {
        for _ in 0..depth + 2 {
            o.push_str("  ");
        }
    }

    /// One statement (possibly compound) at indentation `depth`, nesting at most `budget` more.
    fn effect(r: &mut Lcg, o: &mut String, budget: u32, depth: usize) {
        let choices = if budget == 0 { 14 } else { 20 };
        let n = r.range(1, 3);
        ind(o, depth);
        match r.below(choices) {
            0 => {
                let _ = writeln!(o, "draw {n}");
            }
            1 => {
                let _ = writeln!(o, "deal({n}, source: this, recipient: opponent)");
            }
            2 => {
                let _ = writeln!(o, "opponent.damage += {n}");
            }
            3 => {
                let side = r.pick(&["opponent.field", "field", "your.field"]);
                let _ = writeln!(o, "let t = target 1 character on {side}");
                ind(o, depth);
                match r.below(8) {
                    0 => {
                        let _ = writeln!(o, "t.power += -{n}/±0 until end_of_turn");
                    }
                    1 => o.push_str("destroy t\n"),
                    2 => o.push_str("t becomes sleep\n"),
                    3 => o.push_str("grant pierce to t until end_of_turn\n"),
                    4 => o.push_str("negate t text until end_of_turn\n"),
                    5 => o.push_str("return_to_hand(t)\n"),
                    6 => {
                        let _ = writeln!(o, "t.attack -= {n} until end_of_turn");
                    }
                    _ => {
                        let _ = writeln!(o, "t.power = {n}/{n} until end_of_turn");
                    }
                }
            }
            4 => {
                let _ = writeln!(o, "add_nodes({n})");
            }
            5 => {
                let _ = writeln!(o, "move top {n} of your.deck to your.underworld");
            }
            6 => o.push_str("look at opponent.hand\n"),
            7 => o.push_str("shuffle your.deck\n"),
            8 => {
                let _ = writeln!(
                    o,
                    "wake(target 1 character on your.field where it is sleep)"
                );
            }
            9 => {
                let _ = writeln!(o, "remove first_strike from target 1 character on opponent.field until end_of_turn");
            }
            10 => {
                let _ = writeln!(
                    o,
                    "let x = count(character on your.field where {})",
                    filter(r)
                );
                ind(o, depth);
                o.push_str("draw x\n");
            }
            11 => {
                let _ = writeln!(o, "swap this.power until end_of_turn");
            }
            12 => {
                let _ = writeln!(
                    o,
                    "return_to_hand(target 1 character on field where cost <= {n})"
                );
            }
            13 => {
                let _ = writeln!(o, "may draw {n}");
            }
            14 | 15 => {
                let var = ["c", "d"][depth.min(1)];
                let side = r.pick(&["opponent.field", "field", "your.field", "opponent.hand"]);
                let kind = if side.ends_with("hand") {
                    "card"
                } else {
                    "character"
                };
                let _ = writeln!(
                    o,
                    "for each {var} in {kind} on {side} where {} {{",
                    filter(r)
                );
                ind(o, depth + 1);
                let body = if side.ends_with("hand") {
                    r.pick(&["discard {v}", "exclude {v}"])
                } else {
                    r.pick(&[
                        "destroy {v}",
                        "{v}.attack += 1 until end_of_turn",
                        "wake({v})",
                        "exclude {v}",
                        "{v} becomes sleep",
                    ])
                };
                o.push_str(&body.replace("{v}", var));
                o.push('\n');
                ind(o, depth);
                o.push_str("}\n");
            }
            16 => {
                let _ = writeln!(o, "if count(character on your.field) >= {n} {{");
                effect(r, o, budget - 1, depth + 1);
                if r.chance(50) {
                    ind(o, depth);
                    let _ = writeln!(
                        o,
                        "}} else if count(card in your.hand) == {} {{",
                        r.range(0, 2)
                    );
                    effect(r, o, budget - 1, depth + 1);
                }
                ind(o, depth);
                o.push_str("} else {\n");
                effect(r, o, budget - 1, depth + 1);
                ind(o, depth);
                o.push_str("}\n");
            }
            17 => {
                o.push_str("may {\n");
                effect(r, o, budget - 1, depth + 1);
                effect(r, o, budget - 1, depth + 1);
                ind(o, depth);
                o.push_str("}\n");
            }
            18 => {
                let _ = writeln!(o, "repeat {n} {{");
                effect(r, o, budget - 1, depth + 1);
                ind(o, depth);
                o.push_str("}\n");
            }
            _ => {
                o.push_str("choose one {\n");
                for label in ["カードを引く", "ダメージを与える"].iter().take(2) {
                    ind(o, depth + 1);
                    let _ = writeln!(o, "option \"{label}\" {{");
                    effect(r, o, budget - 1, depth + 2);
                    ind(o, depth + 1);
                    o.push_str("}\n");
                }
                ind(o, depth);
                o.push_str("}\n");
            }
        }
    }
}

// ───────────────────────────── memory ─────────────────────────────

/// The allocator the `fuda` binary uses (mimalloc, src/main.rs), so the timings are the CLI's,
/// counting the bytes live and the most live at once while [`COUNTING`] is on: only around the
/// phases whose memory is measured, so that no timing pays for two threads updating the same
/// counters on every allocation.
struct Counting;

/// Whether allocations are counted now.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Bytes allocated minus bytes freed while counting (below zero when a block allocated before
/// is freed).
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn grew(n: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        let n = n as isize;
        let live = LIVE.fetch_add(n, Ordering::Relaxed) + n;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

fn shrank(n: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        LIVE.fetch_sub(n as isize, Ordering::Relaxed);
    }
}

/// The bytes live now, as counted.
fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// Bytes from `before` to `after` (none when fewer).
fn bytes_between(before: isize, after: isize) -> usize {
    usize::try_from(after - before).unwrap_or(0)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { MiMalloc.alloc(l) };
        if !p.is_null() {
            grew(l.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = unsafe { MiMalloc.alloc_zeroed(l) };
        if !p.is_null() {
            grew(l.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { MiMalloc.dealloc(p, l) };
        shrank(l.size());
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { MiMalloc.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                grew(new - l.size());
            } else {
                shrank(l.size() - new);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Memory of one run of a phase, in bytes above what was live when it began.
struct Memory {
    /// The most live at once during the phase.
    peak: usize,
    /// Still live when it returned (its output).
    kept: usize,
}

/// Runs `f` once, measuring its memory (its output is dropped after the measurement).
fn memory<T>(f: impl FnOnce() -> T) -> Memory {
    COUNTING.store(true, Ordering::Relaxed);
    let before = live();
    PEAK.store(before, Ordering::Relaxed);
    let out = black_box(f());
    let kept = bytes_between(before, live());
    let peak = bytes_between(before, PEAK.load(Ordering::Relaxed));
    COUNTING.store(false, Ordering::Relaxed);
    drop(out);
    Memory { peak, kept }
}

/// The process's peak resident set (`VmHWM`), when `/proc` tells it.
fn peak_rss() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.trim_start_matches("VmHWM:").trim().to_string())
}

fn mb(n: usize) -> f64 {
    n as f64 / 1e6
}

// ───────────────────────────── phases ─────────────────────────────

const MANIFEST: &str =
    "name = \"bench\"\nversion = \"0.1.0\"\ngame = \"pmv\"\nrequires = [\"pmv\"]\n";

fn pack_source(src: &str) -> PackSource {
    PackSource {
        dir: None,
        manifest_path: "<bench>/pack.toml".into(),
        manifest_text: Some(MANIFEST.into()),
        files: vec![(
            "<bench>/sets/generated.fuda".into(),
            src.as_bytes().to_vec(),
        )],
        unreadable: Vec::new(),
        scripts: Vec::new(),
        refused: Vec::new(),
    }
}

/// Full compile of the generated pack in a fresh session (which also loads `cards/pmv`).
fn full(ps: PackSource) -> Session {
    let mut s = Session::new();
    s.compile_source(ps).expect("the generated pack compiles");
    s
}

/// The `pmv` dependency alone (read from `cards/pmv` and compiled), to separate it from `full`.
fn pmv_only() -> Session {
    let mut s = Session::new();
    s.load_dir(std::path::Path::new("cards/pmv"))
        .expect("cards/pmv loads");
    s
}

/// A cache folder holding the generated pack and `pmv`, compiled once.
fn filled_cache(src: &str) -> (Cache, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("fuda-bench-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut s = Session::new();
    s.cache = Some(Cache::new(dir.clone()));
    s.compile_source(pack_source(src))
        .expect("the generated pack compiles");
    (Cache::new(dir.clone()), dir)
}

/// The generated pack (and `pmv`) loaded from `cache` in a fresh session.
fn cached(cache: &Cache, ps: PackSource) -> Session {
    let mut s = Session::new();
    s.cache = Some(cache.clone());
    s.compile_source(ps).expect("the generated pack loads");
    assert_eq!(s.cache_hits, 2, "both packs come from the cache");
    s
}

/// One run of the phase `FUDA_BENCH_ONLY` names, the whole of it inside this function (what
/// callgrind's `--toggle-collect='*measured*'` counts).
#[inline(never)]
fn measured(phase: &str, src: &str, cache: &Cache) -> usize {
    match phase {
        "full" => full(pack_source(src)).packs.len(),
        "cached" => cached(cache, pack_source(src)).packs.len(),
        _ => parse(src).0.len(),
    }
}

/// `FUDA_BENCH_THREADS`, if set.
fn threads() -> Option<usize> {
    std::env::var("FUDA_BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// `FUDA_BENCH_ONLY=memory`: where the bytes of a session holding the pack live, after a full
/// compile and after a cached load: each part is dropped in turn and the bytes it freed are
/// printed (the counting allocator's live bytes before and after), with the IR's node counts.
fn memory_by_part(src: &str) {
    let (cache, dir) = filled_cache(src);
    COUNTING.store(true, Ordering::Relaxed);
    for phase in ["full", "cached"] {
        let before = live();
        let mut s = if phase == "full" {
            full(pack_source(src))
        } else {
            cached(&cache, pack_source(src))
        };
        let held = bytes_between(before, live());
        eprintln!("{phase}: the session holds {:.1} MB", mb(held));
        let parts: [(&str, DropPart); 5] = [
            ("span tables (still encoded: cached)", |s| {
                s.packs
                    .iter_mut()
                    .for_each(|p| p.spans = Default::default())
            }),
            ("cards' IR (their encodings: cached)", |s| {
                s.packs
                    .iter_mut()
                    .for_each(|p| p.pack.cards = Default::default())
            }),
            ("symbols", |s| {
                s.packs
                    .iter_mut()
                    .for_each(|p| p.symbols = Default::default())
            }),
            ("the rest of the packs (rulesets)", |s| s.packs.clear()),
            ("sources", |s| s.sources = Default::default()),
        ];
        for (name, drop_part) in parts {
            let held = live();
            drop_part(&mut s);
            let freed = bytes_between(live(), held);
            eprintln!("  {name:<34} {:>6.1} MB", mb(freed));
        }
    }
    let before = live();
    let s = cached(&cache, pack_source(src));
    // a cached pack's cards and spans are decoded when first read: read them all
    let read: usize = s.packs.iter().map(|p| p.pack.cards.iter().count()).sum();
    s.packs.iter().for_each(|p| _ = p.spans.entries().len());
    let all = bytes_between(before, live());
    eprintln!(
        "cached, once its {read} cards and its span tables are read: the session holds {:.1} MB",
        mb(all)
    );
    let pack = s
        .packs
        .iter()
        .find(|p| p.pack.name == "bench")
        .expect("the bench pack");
    let mut n = NodeCounts::default();
    for card in &pack.pack.cards {
        n.count_card(card);
    }
    let per = |k: usize| k as f64 / pack.pack.cards.len() as f64;
    eprintln!(
        "per card: {:.1} abilities, {:.1} statements, {:.1} expressions, {:.1} fields and stats, {:.1} span entries",
        per(n.abilities),
        per(n.stmts),
        per(n.exprs),
        per(n.fields),
        per(pack.spans.entries().len())
    );
    eprintln!(
        "sizes: ir::Card {} B, ir::Ability {} B, ir::Stmt {} B, ir::Expr {} B",
        std::mem::size_of::<fuda::ir::Card>(),
        std::mem::size_of::<fuda::ir::Ability>(),
        std::mem::size_of::<fuda::ir::Stmt>(),
        std::mem::size_of::<fuda::ir::Expr>()
    );
    let (names, bytes) = fuda::ir::interned_size();
    eprintln!(
        "interned names (held for the whole process, not counted above): {names}, {:.2} MB of text",
        mb(bytes)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Drops one part of a session (to see how many bytes it held).
type DropPart = fn(&mut Session);

/// How many IR nodes the cards of a pack hold.
#[derive(Default)]
struct NodeCounts {
    abilities: usize,
    stmts: usize,
    exprs: usize,
    fields: usize,
}

impl NodeCounts {
    fn count_card(&mut self, card: &fuda::ir::Card) {
        self.fields += card.fields.len() + card.stats.len();
        for a in &card.abilities {
            self.abilities += 1;
            a.cost.iter().chain(&a.effect).for_each(|s| self.stmt(s));
            let when = a.trigger.iter().flat_map(|t| t.when.values());
            when.chain(&a.condition)
                .chain(&a.while_condition)
                .for_each(|e| self.expr(e));
        }
    }
    fn stmt(&mut self, s: &fuda::ir::Stmt) {
        self.stmts += 1;
        s.each_child(&mut |c| match c {
            fuda::ir::StmtChild::Expr(e) => self.expr(e),
            fuda::ir::StmtChild::Block(b) => b.iter().for_each(|s| self.stmt(s)),
        });
    }
    fn expr(&mut self, e: &fuda::ir::Expr) {
        self.exprs += 1;
        e.each_child(&mut |c| self.expr(c));
    }
}

/// `FUDA_BENCH_ONLY`: one phase, `FUDA_BENCH_RUNS` times, then exit.
fn only(phase: &str, src: &str) {
    let runs: usize = std::env::var("FUDA_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let (cache, dir) = filled_cache(src);
    // The phase runs inside the pool, so with one thread every instruction of it (parsing
    // included) is on the stack of `measured`, on one thread, where callgrind counts it.
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads() {
        pool = pool.num_threads(n);
    }
    let pool = pool.build().expect("a rayon pool");
    let mut peak = 0;
    let t = Instant::now();
    for _ in 0..runs {
        let m = memory(|| pool.install(|| measured(phase, src, &cache)));
        peak = peak.max(m.peak);
    }
    let d = t.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{phase}: {runs} runs of {CARDS} cards, {:.1} ms a run, peak {:.1} MB above the start, peak RSS {}",
        d.as_secs_f64() * 1e3 / runs as f64,
        mb(peak),
        peak_rss().unwrap_or_else(|| "?".into())
    );
}

/// The AST is returned so that it is freed outside the timing.
fn parse(
    src: &str,
) -> (
    Vec<fuda::compiler::parse::ParsedItem>,
    Vec<fuda::base::diagnostic::Diagnostic>,
) {
    let mut diags = Vec::new();
    let items = fuda::compiler::parse::parse_file(src, FileId(0), &mut diags);
    (items, diags)
}

fn lex(src: &str) -> Vec<fuda::compiler::lex::Item> {
    let mut diags = Vec::new();
    fuda::compiler::lex::split(src, FileId(0), &mut diags)
}

/// The pest parser alone on every item (as `parse_file` does), with a walk that
/// counts the pairs but builds nothing.
fn pest_only(src: &str, items: &[(Rule, std::ops::Range<usize>)]) -> usize {
    let mut n = 0;
    for (rule, r) in items {
        let pairs = FudaParser::parse(*rule, &src[r.clone()]).expect("the generated pack parses");
        n += pairs.flatten().count();
    }
    n
}

fn items_of(src: &str) -> Vec<(Rule, std::ops::Range<usize>)> {
    let mut diags = Vec::new();
    fuda::compiler::lex::split(src, FileId(0), &mut diags)
        .into_iter()
        .map(|i| {
            let rule = match i.kind {
                fuda::compiler::lex::ItemKind::Game => Rule::item_game,
                fuda::compiler::lex::ItemKind::Card => Rule::item_card,
                fuda::compiler::lex::ItemKind::Decl => Rule::item_decl,
            };
            (rule, i.span.start..i.span.end)
        })
        .collect()
}

/// Best of `runs` timed runs of `f` (setup excluded, output dropped outside the timing).
fn best<S, T>(runs: usize, mut setup: impl FnMut() -> S, mut f: impl FnMut(S) -> T) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let input = setup();
        let t = Instant::now();
        let out = black_box(f(input));
        let d = t.elapsed();
        drop(out);
        best = best.min(d);
    }
    best
}

fn summary(src: &str, json: &str, items: &[(Rule, std::ops::Range<usize>)], cache: &Cache) {
    let runs = 5;
    let t_full = best(runs, || pack_source(src), full);
    let t_cached = best(runs, || pack_source(src), |ps| cached(cache, ps));
    let t_pmv = best(runs, || (), |_| pmv_only());
    let t_parse = best(runs, || (), |_| parse(src));
    let t_lex = best(runs, || (), |_| lex(src));
    let t_pest = best(runs, || (), |_| pest_only(src, items));
    let t_json = best(
        runs,
        || (),
        |_| serde_json::from_str::<fuda::ir::Pack>(json).expect("IR JSON reads back"),
    );
    let t_resolve = t_full.saturating_sub(t_parse).saturating_sub(t_pmv);
    let rate = |d: Duration| CARDS as f64 / d.as_secs_f64();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mib = src.len() as f64 / (1024.0 * 1024.0);
    eprintln!();
    eprintln!("── fuda compile benchmark: {CARDS} generated PMV cards, {:.2} MiB source, {:.2} MiB IR JSON (best of {runs}) ──", mib, json.len() as f64 / (1024.0 * 1024.0));
    let row = |name: &str, d: Duration| {
        eprintln!(
            "  {name:<34} {:>9.1} ms  {:>10.0} cards/s  {:>7.1} MiB/s",
            ms(d),
            rate(d),
            mib / d.as_secs_f64()
        )
    };
    row("full compile (Session)", t_full);
    row("  pmv dependency (cards/pmv)", t_pmv);
    row("  parse (lex + pest + AST build)", t_parse);
    row("    lex pre-pass (lex::split)", t_lex);
    row("    pest only (no AST, pair walk)", t_pest);
    row(
        "    AST build ≈ parse − lex − pest",
        t_parse.saturating_sub(t_lex).saturating_sub(t_pest),
    );
    row("  resolve ≈ full − parse − pmv", t_resolve);
    row("serde_json::from_str::<ir::Pack>", t_json);
    row("cached load (Cache, pmv too)", t_cached);
    let m_full = memory(|| full(pack_source(src)));
    let m_cached = memory(|| cached(cache, pack_source(src)));
    eprintln!(
        "  peak memory (counting allocator, above the start): full {:.1} MB (session kept {:.1} MB), cached {:.1} MB (kept {:.1} MB)   (targets ≤ 60 MB, ≤ 20 MB)",
        mb(m_full.peak),
        mb(m_full.kept),
        mb(m_cached.peak),
        mb(m_cached.kept)
    );
    eprintln!(
        "  full / serde_json = {:.1}×   (target ≤ 4×; cards/s target ≥ 100000)",
        t_full.as_secs_f64() / t_json.as_secs_f64()
    );
    eprintln!();
}

fn main() {
    if let Some(n) = threads() {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .expect("the rayon pool is built once");
    }
    let src = gen::pack_source(CARDS, SEED);
    if let Ok(phase) = std::env::var("FUDA_BENCH_ONLY") {
        if phase == "memory" {
            memory_by_part(&src);
        } else {
            only(&phase, &src);
        }
        return;
    }
    let items = items_of(&src);

    // Compile once: check the pack is sound and produce the JSON baseline.
    let session = full(pack_source(&src));
    let pack = session
        .packs
        .iter()
        .find(|p| p.pack.name == "bench")
        .expect("the bench pack compiled");
    let errors: Vec<_> = session.diags.iter().filter(|d| d.is_error()).collect();
    let bench_file = fuda::packs::session::file_id(&session.sources, "<bench>/sets/generated.fuda");
    let own_errors = errors
        .iter()
        .filter(|d| Some(d.primary.file) == bench_file)
        .count();
    eprintln!(
        "generated pack: {} cards compiled of {CARDS}, {} diagnostics ({} errors, {} in the generated file)",
        pack.pack.cards.len(),
        session.diags.len(),
        errors.len(),
        own_errors
    );
    if own_errors > 0 {
        let mut seen = std::collections::BTreeMap::new();
        for d in errors.iter().filter(|d| Some(d.primary.file) == bench_file) {
            *seen.entry(d.message.clone()).or_insert(0usize) += 1;
        }
        for (m, n) in seen.iter().take(12) {
            eprintln!("  {n:>6} × {m}");
        }
    }
    let json = serde_json::to_string(&pack.pack).expect("IR serializes");
    drop(session);

    let (cache, cache_dir) = filled_cache(&src);
    summary(&src, &json, &items, &cache);

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .configure_from_args();
    {
        let mut g = c.benchmark_group("compile_10k");
        g.throughput(Throughput::Elements(CARDS as u64));
        // Iterations take 0.05–1 s: flat sampling keeps 10 samples within a few seconds each.
        g.sampling_mode(SamplingMode::Flat);
        g.bench_function("full", |b| {
            b.iter_batched(|| pack_source(&src), full, BatchSize::PerIteration)
        });
        g.bench_function("pmv_dependency", |b| {
            b.iter_batched(|| (), |_| pmv_only(), BatchSize::PerIteration)
        });
        g.bench_function("parse", |b| {
            b.iter_batched(|| (), |_| parse(black_box(&src)), BatchSize::PerIteration)
        });
        g.bench_function("lex", |b| {
            b.iter_batched(|| (), |_| lex(black_box(&src)), BatchSize::PerIteration)
        });
        g.bench_function("pest_only", |b| {
            b.iter_batched(
                || (),
                |_| pest_only(black_box(&src), &items),
                BatchSize::PerIteration,
            )
        });
        g.bench_function("cached", |b| {
            b.iter_batched(
                || pack_source(&src),
                |ps| cached(&cache, ps),
                BatchSize::PerIteration,
            )
        });
        g.bench_function("serde_json_ir", |b| {
            b.iter_batched(
                || (),
                |_| {
                    serde_json::from_str::<fuda::ir::Pack>(black_box(&json))
                        .expect("IR JSON reads back")
                },
                BatchSize::PerIteration,
            )
        });
        g.finish();
    }
    c.final_summary();
    let _ = std::fs::remove_dir_all(&cache_dir);
}
