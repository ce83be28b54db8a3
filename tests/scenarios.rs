//! The rules tests: every scenario under `cards/` and `tests/` runs and passes, each one's
//! event log is a reviewed snapshot, names a game lacks are diagnostics, and altering the
//! ruleset lines a scenario cites makes it fail (so the scenarios can fail at all).

use fuda::base::diagnostic::{self, RenderOptions};
use fuda::packs::Session;
use fuda::tools::runner::{self, Report};
use std::path::{Path, PathBuf};

/// Every scenario of the shipped games and of the tests passes; failures are listed with
/// their reasons and the tail of their logs.
#[test]
fn every_scenario_passes() {
    let suite = runner::run_paths(&[PathBuf::from("cards"), PathBuf::from("tests")]);
    let rendered = rendered_diagnostics(&suite);
    assert!(rendered.is_empty(), "diagnostics:\n{}", rendered.join("\n"));
    assert_all_passed(&suite);
}

/// Every scenario passes with the engine's shortcuts checked as it runs (its memos, kept
/// hashes, offers, stats and choices read again and compared, its lowered conditions
/// against the conditions as written): each rule the scenarios exercise tests them too.
#[test]
fn every_scenario_passes_with_the_engines_shortcuts_checked() {
    let suite = runner::run_paths_verified(&[PathBuf::from("cards"), PathBuf::from("tests")]);
    assert_all_passed(&suite);
}

/// Asserts that the suite found scenarios and that every one passed; failures are listed
/// with their reasons and the tail of their logs.
fn assert_all_passed(suite: &runner::Suite) {
    assert!(
        suite.reports.len() >= 10,
        "too few scenarios found: {}",
        suite.reports.len()
    );
    let failed: Vec<String> = suite
        .reports
        .iter()
        .filter(|(_, r)| !r.passed())
        .map(|(path, r)| {
            let tail: Vec<&str> = r
                .log
                .iter()
                .rev()
                .take(15)
                .rev()
                .map(String::as_str)
                .collect();
            format!(
                "{path}\n  {}\n  log tail:\n    {}",
                r.failures.join("\n  "),
                tail.join("\n    ")
            )
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} scenario(s) failed:\n{}",
        failed.len(),
        failed.join("\n\n")
    );
}

/// The known gaps (`tests/known-gaps/`) are expected failures: each still fails on an
/// expectation (not on a name the game lacks), and is listed in that folder's README. A gap that
/// starts passing fails this test until it moves to the real scenarios, so the list stays true.
#[test]
fn every_known_gap_still_fails() {
    let dir = Path::new("tests/known-gaps");
    let readme = std::fs::read_to_string(dir.join("README.md")).expect("the known gaps' README");
    let mut gaps: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/known-gaps")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    gaps.sort();
    let suite = runner::run_paths(&gaps);
    let rendered = rendered_diagnostics(&suite);
    assert!(rendered.is_empty(), "diagnostics:\n{}", rendered.join("\n"));
    assert_eq!(suite.reports.len(), gaps.len(), "every known gap runs");
    for (path, r) in &suite.reports {
        assert!(
            !r.passed(),
            "the known gap {path} passes now: move it to its game's scenarios/ folder, drop it \
             from tests/known-gaps/README.md and docs/rules-coverage.md"
        );
        let file = Path::new(path)
            .file_name()
            .expect("a file")
            .to_string_lossy();
        assert!(
            readme.contains(file.as_ref()),
            "{path} is not listed in tests/known-gaps/README.md"
        );
    }
}

/// Each scenario's event log is a snapshot: a change in what the rules do shows in review.
#[test]
fn every_scenario_log_matches_its_snapshot() {
    let suite = runner::run_paths(&[PathBuf::from("cards"), PathBuf::from("tests")]);
    let mut differ = Vec::new();
    for (path, r) in &suite.reports {
        let result = std::panic::catch_unwind(|| {
            insta::with_settings!({
                snapshot_path => "snapshots/scenarios_logs",
                prepend_module_to_snapshot => false,
                omit_expression => true,
                input_file => path,
            }, {
                insta::assert_snapshot!(r.name.clone(), r.log.join("\n"));
            });
        });
        if result.is_err() {
            differ.push(r.name.clone());
        }
    }
    assert!(differ.is_empty(), "logs differ for: {differ:#?}");
}

/// A scenario naming zones, cards, states, counters, stats or phases the game lacks gets a
/// diagnostic at each name, with a did-you-mean.
#[test]
fn unknown_names_are_diagnostics() {
    let suite = runner::run_paths(&[PathBuf::from("tests/errors/run/unknown-names.toml")]);
    let text = rendered_diagnostics(&suite);
    assert_eq!(suite.failed(), 1);
    insta::with_settings!({ snapshot_path => "snapshots/run", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("unknown-names", text.join("\n"));
    });
}

/// A scenario putting a card in a slot its zone lacks, or two cards in one slot, gets a
/// diagnostic at each slot's value (with a did-you-mean for the first).
#[test]
fn slot_names_are_diagnostics() {
    let suite = runner::run_paths(&[PathBuf::from("tests/games/lanes/errors/slot-names.toml")]);
    let text = rendered_diagnostics(&suite);
    assert_eq!(suite.failed(), 1);
    insta::with_settings!({ snapshot_path => "snapshots/run", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("slot-names", text.join("\n"));
    });
}

/// A scenario of `cards/<game>/scenarios`, run on the game's pack as found in `dir`.
fn run_on(game: &str, dir: &Path, scenario: &str) -> Report {
    let mut s = Session::new();
    s.check_path(dir);
    s.finish();
    let prog = s.program(game).expect("the pack compiles");
    let path = Path::new("cards")
        .join(game)
        .join("scenarios")
        .join(format!("{scenario}.toml"));
    let sc = fuda::tools::scenario::load(&path, &mut s.sources).expect("the scenario parses");
    runner::run(&prog, &sc).expect("the scenario's names resolve")
}

/// A game's pack copied to a temporary folder with one ruleset line changed.
fn mutated(game: &str, tag: &str, from: &str, to: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fuda-mutant-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&Path::new("cards").join(game), &dir);
    let ruleset = dir.join("ruleset.fuda");
    let text = std::fs::read_to_string(&ruleset).expect("ruleset");
    assert!(
        text.contains(from),
        "mutation `{tag}`: the ruleset no longer holds `{from}`"
    );
    std::fs::write(&ruleset, text.replacen(from, to, 1)).expect("write mutant");
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("readable") {
        let p = e.expect("entry").path();
        let dest = to.join(p.file_name().expect("name"));
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).expect("copy");
        }
    }
}

/// Mutation test: for a handful of rules, altering the ruleset lines a scenario cites makes
/// that scenario fail, while the unaltered pack passes it.
#[test]
fn altering_the_cited_rules_fails_their_scenarios() {
    let mutations: &[(&str, &str, &str, &str)] = &[
        // 6.2.4.d: first strikers deal their damage at first-strike timing
        (
            "first-strike",
            "if a has first_strike { strike(a) }",
            "",
            "pmv-6.2.4.d-first-strike-damage-comes-first",
        ),
        // 6.5.2.b: pierce damage allows no graze
        (
            "pierce",
            "and not (a has pierce)",
            "",
            "pmv-6.5.2.b-pierce-damage-allows-no-graze",
        ),
        // 6.5.3.b: graze puts the top cards into the node area
        (
            "graze",
            "graze_nodes(victim, a, a.graze)",
            "",
            "pmv-6.2.4.g-graze-after-battle-damage",
        ),
        // 3.6.4: the hand limit is 7
        (
            "hand-limit",
            "let extra = count(your.hand) - 7",
            "let extra = count(your.hand) - 8",
            "pmv-3.6.4-hand-limit-7-at-end-phase",
        ),
        // assumption: 20 damage loses
        (
            "defeat",
            "if you.damage >= 20 { lose you }",
            "if you.damage >= 21 { lose you }",
            "pmv-assumption-20-damage-loses",
        ),
        // 3.2.5: a deck seen whole is shuffled
        (
            "shuffle-when-seen",
            "to_owner shuffle_when_seen",
            "to_owner",
            "pmv-3.2.5-whole-deck-seen-is-shuffled-before-the-next-draw",
        ),
        // 3.1.6: a card goes to its owner's zone, beating card effects
        (
            "owners-zone",
            "owner_sees unordered per_player to_owner",
            "owner_sees unordered per_player",
            "pmv-3.1.6-owners-zone-beats-card-text",
        ),
        // 6.1.12 (assumption: a dying character is destroyed at the next rule check)
        (
            "dying",
            "for each c in card on your.field where it is dying { destroy c }",
            "",
            "pmv-6.1.12-toughness-zero-dying-destroyed",
        ),
    ];
    check_mutations("pmv", mutations);
}

/// The same for Weiss Schwarz: eight rules of chapter 7 and the refresh interrupt.
#[test]
fn altering_the_cited_ws_rules_fails_their_scenarios() {
    let mutations: &[(&str, &str, &str, &str)] = &[
        // 7.2.1.4.1: a direct attack gives soul +1
        (
            "ws-direct-soul",
            r#"if kind == "direct" { a.soul += 1 until end_of_turn }"#,
            "",
            "ws-7.2.1.4.1-direct-attack-soul-plus-one",
        ),
        // 7.2.1.4.2: a side attack gives soul -1 per level of the facing character
        (
            "ws-side-soul",
            r#"if kind == "side" and f.level > 0 { a.soul -= f.level until end_of_turn }"#,
            "",
            "ws-7.2.1.4.2-side-attack-soul-minus-the-facing-level",
        ),
        // 7.2.1.3.1: one attack on the first player's first turn
        (
            "ws-first-turn",
            "if not (turn_number() == 1 and you.attacks_made >= 1) and count(c.facing) == 0 {",
            "if count(c.facing) == 0 {",
            "ws-7.2.1.3.1-the-first-players-first-turn-has-one-attack",
        ),
        // 7.4.1.2.2: one counter at most
        (
            "ws-one-counter",
            "window opponent once { use_counter }",
            "window opponent { use_counter }",
            "ws-7.4.1.2.2-one-counter-at-most",
        ),
        // 7.5.1.2.2: an attacker that moved slot deals no damage
        (
            "ws-moved-attacker",
            "if a is attacking and controller(a) == m and slot(a) == s {",
            "if a is attacking {",
            "ws-7.5.1.2.2-an-attacker-that-moved-slot-deals-no-damage",
        ),
        // 7.6.1.2: equal power reverses both
        (
            "ws-tie",
            "if a.power > d.power {",
            "if a.power >= d.power {",
            "ws-7.6.1.2-equal-power-reverses-both",
        ),
        // 7.2.1.2 / 7.2.1.6: the declaration step's triggers wait for the check after the choice
        (
            "ws-unchecked",
            "window you unchecked { direct_attack, front_attack, side_attack }",
            "window you { direct_attack, front_attack, side_attack }",
            "ws-7.2.1.2-declaration-step-start-triggers-every-sub-phase",
        ),
        // digest on 7.3: refresh is an interrupt
        (
            "ws-refresh",
            r#"rule refresh "リフレッシュ" interrupt {"#,
            r#"rule refresh "リフレッシュ" {"#,
            "ws-refresh-an-empty-deck-refreshes-at-once-before-a-comeback",
        ),
    ];
    check_mutations("ws", mutations);
}

/// The same for Precious Memories: eight of its rules (the source has no rule numbers; the
/// sections are named as the ruleset's comments cite them).
#[test]
fn altering_the_cited_pm_rules_fails_their_scenarios() {
    let mutations: &[(&str, &str, &str, &str)] = &[
        // PM approach: the judgment retires a DP that does not exceed the opposing AP
        (
            "pm-judgment",
            "let interferer_out = interferer.dp <= approacher.ap",
            "let interferer_out = interferer.dp < approacher.ap",
            "pm-retirement-judgment-simultaneous",
        ),
        // PM approach: an unimpeded approach gives the APPROACHED player a point card
        (
            "pm-unimpeded",
            "add_point opponent_of(controller(approacher))",
            "add_point controller(approacher)",
            "pm-approach-unimpeded-approached-player-gains-point",
        ),
        // PM approach: each card approaches at most once a turn
        (
            "pm-once-a-turn",
            "and not (c is approached) and not (c is arrived) {",
            "and not (c is arrived) {",
            "pm-approach-once-per-turn",
        ),
        // PM other rules: the turn player orders every simultaneous effect
        (
            "pm-trigger-order",
            "  trigger_order turn_player\n",
            "",
            "pm-simultaneous-triggers-turn-player-orders-both-players",
        ),
        // PM turn start: the first player's first turn draws 1
        (
            "pm-first-draw",
            "if turn_number() == 1 { draw 1 } else { draw 2 }",
            "draw 2",
            "pm-turn-start-first-players-first-turn-draws-one",
        ),
        // PM cost: face-down point cards can't pay
        (
            "pm-face-down",
            "pay_with(choose(p) 1 [card in p.hand, card in p.point_area where it is face_up]\n            where generated_cost >= 1, p)",
            "pay_with(choose(p) 1 [card in p.hand, card in p.point_area]\n            where generated_cost >= 1, p)",
            "pm-cost-face-down-point-card-is-no-paying-choice",
        ),
        // PM winning: an empty deck loses at once, as a state
        (
            "pm-deck-out",
            "let p_wins = count(q.point_area) >= 7 or count(q.deck) == 0\n    let q_wins = count(p.point_area) >= 7 or count(p.deck) == 0",
            "let p_wins = count(q.point_area) >= 7\n    let q_wins = count(p.point_area) >= 7",
            "pm-winning-empty-deck-loses-at-once",
        ),
        // PM formats, Mix: the same card at most once a turn
        (
            "pm-mix",
            "if usable(e, play)\n         and (not (deck_format() == \"mix\")",
            "if usable(e, play)\n         and (true",
            "pm-formats-mix-the-same-card-once-a-turn",
        ),
    ];
    check_mutations("pm", mutations);
}

/// Each mutation (tag, ruleset text, its replacement, scenario): the scenario passes on the
/// shipped pack and fails on the pack with the text replaced.
fn check_mutations(game: &str, mutations: &[(&str, &str, &str, &str)]) {
    let shipped = Path::new("cards").join(game);
    for (tag, from, to, scenario) in mutations {
        let original = run_on(game, &shipped, scenario);
        assert!(
            original.passed(),
            "{scenario} fails on the shipped pack: {:?}",
            original.failures
        );
        let dir = mutated(game, tag, from, to);
        let report = run_on(game, &dir, scenario);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!report.passed(), "mutation `{tag}` left {scenario} passing");
    }
}

/// Every diagnostic a suite's session reported, rendered as the CLI prints them.
fn rendered_diagnostics(suite: &runner::Suite) -> Vec<String> {
    suite
        .session
        .diags
        .iter()
        .map(|d| diagnostic::render(d, &suite.session.sources, RenderOptions::plain()))
        .collect()
}
