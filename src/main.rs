//! The `fuda` command line. Exit codes: 0 clean (warnings alone included,
//! unless `--deny-warnings`), 1 diagnostics, 2 usage errors.

use clap::{Parser, Subcommand, ValueEnum};
use fuda::base::diagnostic::{self, JsonDiagnostic, RenderOptions};
use fuda::ir::render::Lang;
use fuda::packs::Session;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// mimalloc: games allocate small values at a high rate (about 700 allocations a turn); its
/// thread-local free lists take about half the instructions of the system allocator (issue 14).
#[global_allocator]
static ALLOCATOR: fuda::base::alloc::Allocator = fuda::base::alloc::Allocator;

/// fuda (札): compile and check card games written in the fuda language.
#[derive(Parser)]
#[command(name = "fuda", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    /// Human-readable diagnostics with source excerpts.
    Human,
    /// One JSON document on stdout.
    Json,
}

/// The output formats of `fuda words`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum WordsFormat {
    /// One line per name, grouped by kind.
    Human,
    /// One JSON document on stdout.
    Json,
    /// A Markdown page (as in docs/words/).
    Markdown,
}

/// Who plays a seat of `fuda play`.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Player {
    /// You, at the terminal.
    Human,
    /// An agent picking uniformly among legal answers.
    Random,
    /// An agent taking the first legal answer.
    First,
}

#[derive(clap::Args)]
struct CommonArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Exit with 1 when there are warnings.
    #[arg(long)]
    deny_warnings: bool,
    /// Print at most this many diagnostics (the rest are counted).
    #[arg(long, default_value_t = 50)]
    max_diagnostics: usize,
    /// Do not read or write the compiled-pack cache.
    #[arg(long)]
    no_cache: bool,
    /// Also load this pack folder (and the packs it requires); repeatable.
    #[arg(long = "pack", value_name = "DIR")]
    packs: Vec<PathBuf>,
}

impl CommonArgs {
    /// A session over `paths`, with the cache unless disabled; `decks`: also check the decks
    /// of the packs named (only `check` does: a deck is no part of a pack's IR), in the deck
    /// format `deck_format` when one is given.
    fn session(&self, paths: &[PathBuf], decks: bool, deck_format: Option<String>) -> Session {
        let mut s = Session::new();
        s.skip_decks = !decks;
        s.deck_format = deck_format;
        if !self.no_cache {
            s.cache = fuda::packs::cache::Cache::from_env();
        }
        for p in &self.packs {
            s.add_pack(p);
        }
        for p in paths {
            s.check_path(p);
        }
        s.finish();
        s
    }
}

#[derive(Subcommand)]
enum Command {
    /// Compile packs, folders of packs or files, and report every diagnostic.
    Check {
        /// Pack folders, folders of packs, `.fuda` files or `.deck` files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Also check the decks against this format of their game's `deck { … }` block.
        #[arg(long, value_name = "NAME")]
        deck_format: Option<String>,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Print the IR of a pack or file as pretty JSON.
    Compile {
        /// A pack folder or a `.fuda` file.
        path: PathBuf,
        /// Only this card (by name or number).
        #[arg(long)]
        card: Option<String>,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Run scenarios (rules tests): every `*.toml` scenario under the paths.
    Test {
        /// Scenario files or folders (default: `cards` and `tests`).
        paths: Vec<PathBuf>,
        /// Also print the event log of every scenario.
        #[arg(long)]
        verbose: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Also load this pack folder (and the packs it requires); repeatable.
        #[arg(long = "pack", value_name = "DIR")]
        packs: Vec<PathBuf>,
    },
    /// Play one game in the terminal: people or agents on each seat.
    Play {
        /// The game: a pack name (`pmv`) or a pack folder.
        game: String,
        /// A `.deck` file, once per seat (p1 first).
        #[arg(long = "deck", required = true, value_name = "DECK")]
        decks: Vec<PathBuf>,
        /// Also load this pack folder (and the packs it requires): its cards join the game's;
        /// repeatable.
        #[arg(long = "pack", value_name = "DIR")]
        packs: Vec<PathBuf>,
        /// Check the decks against this format of the game's `deck { … }` block.
        #[arg(long, value_name = "NAME")]
        deck_format: Option<String>,
        /// The game's seed (shuffles, random agents).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Who plays p1.
        #[arg(long, value_enum, default_value_t = Player::Human)]
        p1: Player,
        /// Who plays p2.
        #[arg(long, value_enum, default_value_t = Player::Random)]
        p2: Player,
        /// Statements the game may run before it is stopped as a draw.
        #[arg(long, default_value_t = fuda::engine::Options::default().max_steps)]
        max_steps: u64,
        /// Write the whole event log to this file as JSON lines.
        #[arg(long)]
        log: Option<PathBuf>,
        /// The language questions and card texts are printed in (`en`, `ja`).
        #[arg(long, value_parser = lang_code, default_value = "en")]
        lang: Lang,
    },
    /// Play many seeded games between two decks (random agents) and sum them up.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Sim {
        /// `merge`: sum shards (`fuda sim merge a.json b.json …`).
        #[command(subcommand)]
        merge: Option<fuda::tools::sim::cli::SimCommand>,
        /// The game: a pack name (`pmv`) or a pack folder.
        #[arg(required = true)]
        game: Option<String>,
        /// The two `.deck` files (A, then B).
        #[arg(long = "deck", required = true, value_name = "DECK")]
        decks: Vec<PathBuf>,
        /// Also load this pack folder (and the packs it requires): its cards join the game's;
        /// repeatable.
        #[arg(long = "pack", value_name = "DIR")]
        packs: Vec<PathBuf>,
        /// Check the decks against this format of the game's `deck { … }` block.
        #[arg(long, value_name = "NAME")]
        deck_format: Option<String>,
        /// How many games.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Worker threads (default: one per core). The results do not depend on it.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        threads: Option<u32>,
        /// The base seed: each game's seed is derived from it and the game's number.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print one JSON document instead of tables.
        #[arg(long)]
        json: bool,
        /// Statements each game may run before it is stopped as a draw.
        #[arg(long, default_value_t = fuda::engine::Options::default().max_steps)]
        max_steps: u64,
        /// Agents, shards and output options.
        #[command(flatten)]
        more: fuda::tools::sim::cli::SimArgs,
    },
    /// Lay `.fuda` files out canonically (whitespace only; see docs/cli.md).
    Fmt {
        /// `.fuda` files or folders (searched for `.fuda` files); `-` formats stdin to stdout.
        /// Default: `cards`.
        paths: Vec<PathBuf>,
        /// Change no file: list those that would change, and exit 1 if any would.
        #[arg(long)]
        check: bool,
    },
    /// Create something new from a template: `fuda new pack <name> --game <game>`.
    New {
        #[command(subcommand)]
        what: New,
    },
    /// List every name a game (and the packs loaded with it) declares: zones, states, stats,
    /// keywords, events, verbs… with printed names, parameters and the rules they cite.
    Words {
        /// The game: a pack name (`pmv`) or a pack folder.
        game: String,
        /// Also load this pack folder (and the packs it requires); repeatable.
        #[arg(long = "pack", value_name = "DIR")]
        packs: Vec<PathBuf>,
        /// Only names of this kind (`zone`, `stat`, `event`, `verb`…; see docs/cli.md).
        #[arg(long, value_name = "KIND")]
        kind: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = WordsFormat::Human)]
        format: WordsFormat,
    },
    /// Print one card's IR and a readable outline of it (with `--lang`, its printed text first).
    Explain {
        /// A pack folder or a `.fuda` file.
        path: PathBuf,
        /// The card (by name or number).
        #[arg(long, required = true)]
        card: String,
        /// Also print the card's printed text in this language (`ja`, `en`).
        #[arg(long, value_parser = lang_code)]
        lang: Option<Lang>,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// A language server over stdin and stdout, for editors (see docs/cli.md, "fuda lsp").
    Lsp,
    /// Print every card's printed text in a language, from its IR and the game's phrases.
    Render {
        /// Pack folders, folders of packs or `.fuda` files: their packs' cards are printed.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The language: `ja` or `en`.
        #[arg(long, value_parser = lang_code)]
        lang: Lang,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Write card proofs as SVG: one per card and contact sheets per pack (docs/proofs.md).
    Proof {
        /// Pack folders, folders of packs or `.fuda` files: their packs' cards are proofed.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The folder to write into (`<dir>/<pack>/…`).
        #[arg(short = 'o', long = "out", value_name = "DIR")]
        out: PathBuf,
        /// The language of the printed text: `ja` or `en`.
        #[arg(long, value_parser = lang_code, default_value = "ja")]
        lang: Lang,
        /// Cards per page of a contact sheet.
        #[arg(long, default_value_t = 9)]
        per_page: usize,
        #[command(flatten)]
        common: CommonArgs,
    },
}

/// A language code `--lang` accepts (`ja`, `en`), or the list of them.
fn lang_code(code: &str) -> Result<Lang, String> {
    match Lang::from_code(code) {
        Some(lang) => Ok(lang),
        None => Err(format!(
            "no printed text in `{code}`; the languages: {}",
            Lang::ALL
                .iter()
                .map(|l| l.code())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// What `fuda new` creates.
#[derive(Subcommand)]
enum New {
    /// A working pack folder for a game: pack.toml, one card, one scenario, one deck, a README.
    Pack {
        /// The pack's name (ASCII letters, digits, `_` and `-`), also its folder's.
        name: String,
        /// The game it is for (a game shipping a template: `pmv`, `ws`, `pm`).
        #[arg(long)]
        game: String,
        /// The folder to create it in (default: the current folder).
        #[arg(long, value_name = "PARENT", default_value = ".")]
        dir: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Parsing runs on rayon's global pool: give its threads a wide margin too (an error here
    // only means the pool exists already).
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(64 << 20)
        .build_global();
    // Compile on a thread with a generous stack: nesting is bounded by the
    // lexer, and this keeps a wide margin under those bounds.
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || run(cli));
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => {
            eprintln!("fuda: internal error");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Check {
            paths,
            deck_format,
            common,
        } => {
            let start = Instant::now();
            let s = common.session(&paths, true, deck_format);
            if let Some(why) = s.unknown_deck_format() {
                return usage_error("check", &why);
            }
            let code = report(&s, &common);
            if common.format == Format::Human {
                let cards: usize = s.packs.iter().map(|p| p.pack.cards.len()).sum();
                let width = s
                    .packs
                    .iter()
                    .map(|p| p.pack.name.len())
                    .fold(10, usize::max);
                for p in &s.packs {
                    let n = p.pack.cards.len();
                    print_out(&format!(
                        "  {:<width$} {n:>5} card{:<1}  (game {})",
                        p.pack.name,
                        plural(n),
                        p.pack.game
                    ));
                }
                let decks = match s.decks_checked {
                    0 => String::new(),
                    n => format!(", {n} deck{}", plural(n)),
                };
                print_out(&format!(
                    "checked {} pack{}, {} card{}{decks}: {} error{}, {} warning{} in {} ms",
                    s.packs.len(),
                    plural(s.packs.len()),
                    cards,
                    plural(cards),
                    s.error_count(),
                    plural(s.error_count()),
                    s.warning_count(),
                    plural(s.warning_count()),
                    start.elapsed().as_millis()
                ));
            }
            code
        }
        Command::Compile { path, card, common } => compile(&path, card.as_deref(), &common),
        Command::Test {
            paths,
            verbose,
            format,
            packs,
        } => test(paths, &packs, verbose, format),
        Command::Play {
            game,
            decks,
            packs,
            deck_format,
            seed,
            p1,
            p2,
            max_steps,
            log,
            lang,
        } => {
            let decks = GameDecks {
                paths: &decks,
                format: deck_format,
                packs: &packs,
            };
            play(
                &game,
                &decks,
                seed,
                [p1, p2],
                max_steps,
                log.as_deref(),
                lang,
            )
        }
        Command::Sim {
            merge: Some(merge), ..
        } => sim_merge(&merge),
        Command::Sim {
            game,
            decks,
            packs,
            deck_format,
            games,
            threads,
            seed,
            json,
            max_steps,
            more,
            ..
        } => {
            let decks = GameDecks {
                paths: &decks,
                format: deck_format,
                packs: &packs,
            };
            let run = SimRun {
                games,
                threads,
                seed,
                json,
                max_steps,
                more,
            };
            sim(game.as_deref().unwrap_or_default(), &decks, &run)
        }
        Command::Fmt { paths, check } => fmt::run(paths, check),
        Command::New {
            what: New::Pack { name, game, dir },
        } => new_pack(&name, &game, &dir),
        Command::Words {
            game,
            packs,
            kind,
            format,
        } => words(&game, &packs, kind.as_deref(), format),
        Command::Explain {
            path,
            card,
            lang,
            common,
        } => explain(&path, &card, lang, &common),
        Command::Render {
            paths,
            lang,
            common,
        } => render(&paths, lang, &common),
        Command::Lsp => match fuda::tools::lsp::serve() {
            Ok(()) => 0,
            Err(why) => {
                eprintln!("fuda lsp: {why}");
                1
            }
        },
        Command::Proof {
            paths,
            out,
            lang,
            per_page,
            common,
        } => proof(&paths, &out, lang, per_page, &common),
    }
}

/// `fuda proof`: the SVG proofs of the cards of the packs the paths name, under `out`.
fn proof(
    paths: &[PathBuf],
    out: &std::path::Path,
    l: Lang,
    per_page: usize,
    common: &CommonArgs,
) -> u8 {
    let mut s = common.session(paths, false, None);
    let mut named: Vec<usize> = paths.iter().flat_map(|p| s.packs_named_by(p)).collect();
    named.sort_unstable();
    named.dedup();
    if s.error_count() > 0 {
        return report(&s, common);
    }
    let proofs = fuda::tools::proof::proofs(&mut s, &named, l);
    s.diags.extend(proofs.warnings.iter().cloned());
    let written = if s.error_count() == 0 {
        match fuda::tools::proof::write(&mut s, &proofs, out, per_page) {
            Ok(w) => w,
            Err(d) => {
                s.diags.push(*d);
                Vec::new()
            }
        }
    } else {
        Vec::new()
    };
    let code = report(&s, common);
    if common.format == Format::Human && !written.is_empty() {
        let cards: usize = proofs.packs.iter().map(|p| p.cards.len()).sum();
        print_out(&format!(
            "wrote {} file{} ({cards} card{}) into {}",
            written.len(),
            plural(written.len()),
            plural(cards),
            out.display()
        ));
    }
    code
}

/// How diagnostics render on stderr: colours on a terminal unless `NO_COLOR`, wider there.
fn stderr_options() -> RenderOptions {
    let terminal = std::io::stderr().is_terminal();
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && terminal;
    RenderOptions {
        color,
        width: if terminal { 100 } else { 80 },
    }
}

/// `fuda compile`: the IR of a pack, or of one card (`--card`), as pretty JSON.
fn compile(path: &std::path::Path, card: Option<&str>, common: &CommonArgs) -> u8 {
    let s = common.session(&[path.to_path_buf()], false, None);
    let (pack, code) = match checked_pack(&s, common, path) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let json = match card {
        Some(key) => match card_in(&card_packs(&s, path, pack), key) {
            Ok((pack, c)) => serde_json::to_string_pretty(&CardDoc {
                ir_version: pack.ir_version,
                pack: &pack.name,
                card: c,
                outline: None,
                text: None,
            }),
            Err(code) => return code,
        },
        None => serde_json::to_string_pretty(pack),
    };
    print_out(&json.unwrap_or_default());
    code
}

/// `fuda explain`: one card's outline and IR, its printed text first with `--lang` (a name
/// lacking a phrase is a warning on stderr).
fn explain(path: &std::path::Path, card: &str, lang: Option<Lang>, common: &CommonArgs) -> u8 {
    let s = common.session(&[path.to_path_buf()], false, None);
    let (pack, c, mut code) = match checked_pack(&s, common, path).and_then(|(pack, code)| {
        let (pack, c) = card_in(&card_packs(&s, path, pack), card)?;
        Ok((pack, c, code))
    }) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let text = lang.map(|l| {
        let (text, warnings) = fuda::tools::render::render_card(&s, c, &pack.game, l);
        let mut err = std::io::stderr().lock();
        for d in &warnings {
            let _ = write!(
                err,
                "{}",
                diagnostic::render(d, &s.sources, stderr_options())
            );
        }
        if common.deny_warnings && !warnings.is_empty() {
            code = 1;
        }
        PrintedText {
            lang: l.code(),
            text,
        }
    });
    if common.format == Format::Json {
        let doc = CardDoc {
            ir_version: pack.ir_version,
            pack: &pack.name,
            card: c,
            outline: Some(fuda::ir::outline::card(c)),
            text,
        };
        print_out(&serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        if let Some(t) = &text {
            print_out(&format!("{}\n", t.text));
        }
        print_out(&fuda::ir::outline::card(c));
        print_out(&serde_json::to_string_pretty(c).unwrap_or_default());
    }
    code
}

/// `fuda render`: the printed text of every card of the packs the paths name.
fn render(paths: &[PathBuf], l: Lang, common: &CommonArgs) -> u8 {
    let mut s = common.session(paths, false, None);
    let mut named: Vec<usize> = paths.iter().flat_map(|p| s.packs_named_by(p)).collect();
    named.sort_unstable();
    named.dedup();
    let (cards, warnings) = if s.error_count() == 0 {
        fuda::tools::render::render_packs(&s, &named, l)
    } else {
        (Vec::new(), Vec::new())
    };
    s.diags.extend(warnings);
    if common.format == Format::Json {
        let diags: Vec<JsonDiagnostic> = s
            .diags
            .iter()
            .map(|d| JsonDiagnostic::new(d, &s.sources))
            .collect();
        let doc = serde_json::json!({ "cards": cards, "diagnostics": diags });
        print_out(&serde_json::to_string_pretty(&doc).unwrap_or_default());
        return if s.error_count() > 0 || (common.deny_warnings && s.warning_count() > 0) {
            1
        } else {
            0
        };
    }
    let code = report(&s, common);
    for c in &cards {
        print_out(&format!("{} ({})\n{}\n", c.name, c.id, c.text));
    }
    code
}

/// Reports the diagnostics of `compile`/`explain` and gives the pack the path names with the
/// exit code so far; `Err(exit code)` when there are errors or no pack.
fn checked_pack<'s>(
    s: &'s Session,
    common: &CommonArgs,
    path: &std::path::Path,
) -> Result<(&'s fuda::ir::Pack, u8), u8> {
    // `--format json` prints one document on stdout: the check document when there are
    // errors, else the result alone (its warnings, if any, as text on stderr).
    let code = if common.format == Format::Json && s.error_count() == 0 {
        let text = CommonArgs {
            format: Format::Human,
            deny_warnings: common.deny_warnings,
            max_diagnostics: common.max_diagnostics,
            no_cache: common.no_cache,
            packs: Vec::new(),
        };
        report(s, &text)
    } else {
        report(s, common)
    };
    if s.error_count() > 0 {
        return Err(1);
    }
    target_pack(s, path).map(|p| (p, code)).ok_or(code)
}

/// The packs `--card` looks in: the pack the path names, or every loaded pack when the path is
/// a folder of packs.
fn card_packs<'s>(
    s: &'s Session,
    path: &std::path::Path,
    target: &'s fuda::ir::Pack,
) -> Vec<&'s fuda::ir::Pack> {
    let folder_of_packs = path.is_dir() && !path.join("pack.toml").exists();
    if folder_of_packs {
        s.packs.iter().map(|p| &p.pack).collect()
    } else {
        vec![target]
    }
}

/// The card of `packs` with this name, number or id, with its pack, or exit code 1 after
/// saying there is none or listing the matches when the key names several (reprints with one
/// name, a name in two packs, a part of several names): an exact name, number or id first, else
/// a part of a name.
fn card_in<'p>(
    packs: &[&'p fuda::ir::Pack],
    key: &str,
) -> Result<(&'p fuda::ir::Pack, &'p fuda::ir::Card), u8> {
    let all = || {
        packs
            .iter()
            .flat_map(|p| p.cards.iter().map(move |c| (*p, c)))
    };
    let exact: Vec<_> = all()
        .filter(|(_, c)| c.name == key || c.number == key || c.id == key)
        .collect();
    let found: Vec<_> = if exact.is_empty() {
        all().filter(|(_, c)| c.name.contains(key)).collect()
    } else {
        exact
    };
    let names: Vec<&str> = packs.iter().map(|p| p.name.as_str()).collect();
    let place = match names.as_slice() {
        [one] => format!("pack `{one}`"),
        many => format!("packs {}", many.join(", ")),
    };
    match found.as_slice() {
        [one] => Ok(*one),
        [] => {
            eprintln!("error: no card named or numbered `{key}` in {place}");
            Err(1)
        }
        many => {
            let mut text = format!("error: `{key}` names {} cards in {place}:", many.len());
            for (p, c) in many {
                text.push_str(&format!("\n  {}  {}  (pack {})", c.number, c.name, p.name));
            }
            let (_, first) = many[0];
            text.push_str(&format!(
                "\nhelp: name one by its number or id: `--card {}`",
                if many
                    .iter()
                    .filter(|(_, c)| c.number == first.number)
                    .count()
                    > 1
                {
                    first.id.as_str()
                } else {
                    first.number.as_str()
                }
            ));
            eprintln!("{text}");
            Err(1)
        }
    }
}

/// What `compile --card` and `explain --format json` print: one document, its keys in this
/// order (the card's own in the IR's order, as the whole-pack output has them).
#[derive(serde::Serialize)]
struct CardDoc<'a> {
    /// The IR version, as the whole pack's output carries it.
    ir_version: u32,
    /// The pack the card is in.
    pack: &'a str,
    /// The card's IR.
    card: &'a fuda::ir::Card,
    /// The readable outline (`explain` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    outline: Option<String>,
    /// The printed text (`explain --lang` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<PrintedText>,
}

/// A card's printed text in one language, as `explain --lang --format json` carries it.
#[derive(serde::Serialize)]
struct PrintedText {
    /// The language code.
    lang: &'static str,
    /// The text.
    text: String,
}

/// Writes a line to stdout. A closed pipe (`fuda compile … | head`) is not an error of
/// ours: the rest of the output is simply not wanted, so write errors are ignored.
fn print_out(text: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The pack the user named: the one loaded from the folder `path`, else the last one compiled
/// (its requirements come first; `--pack` packs are loaded before the paths).
fn target_pack<'s>(s: &'s Session, path: &std::path::Path) -> Option<&'s fuda::ir::Pack> {
    s.pack_from_dir(path)
        .and_then(|i| s.packs.get(i))
        .or(s.packs.last())
        .map(|p| &p.pack)
}

/// Prints diagnostics and returns the exit code they call for.
fn report(s: &Session, common: &CommonArgs) -> u8 {
    let shown = s.diags.iter().take(common.max_diagnostics);
    let hidden = s.diags.len().saturating_sub(common.max_diagnostics);
    match common.format {
        Format::Json => {
            let list: Vec<JsonDiagnostic> = s
                .diags
                .iter()
                .map(|d| JsonDiagnostic::new(d, &s.sources))
                .collect();
            let doc = serde_json::json!({
                "diagnostics": list,
                "errors": s.error_count(),
                "warnings": s.warning_count(),
                "packs": s.packs.iter().map(|p| serde_json::json!({"name": p.pack.name, "game": p.pack.game, "cards": p.pack.cards.len()})).collect::<Vec<_>>(),
                "decks": s.decks.iter().map(|d| serde_json::json!({"path": d.path, "game": d.game, "cards": d.size()})).collect::<Vec<_>>(),
            });
            let mut out = std::io::stdout().lock();
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            );
        }
        Format::Human => {
            let opts = stderr_options();
            let mut err = std::io::stderr().lock();
            for d in shown {
                let _ = write!(err, "{}", diagnostic::render(d, &s.sources, opts));
            }
            if hidden > 0 {
                let _ = writeln!(
                    err,
                    "… and {hidden} more diagnostic{} not shown (use --max-diagnostics)",
                    plural(hidden)
                );
            }
        }
    }
    if s.error_count() > 0 || (common.deny_warnings && s.warning_count() > 0) {
        1
    } else {
        0
    }
}

/// `fuda test`: runs scenarios, shows each failure with the log's tail, ends with the totals.
fn test(paths: Vec<PathBuf>, packs: &[PathBuf], verbose: bool, format: Format) -> u8 {
    let paths = if paths.is_empty() {
        // Inside a pack folder (here or above): that pack's scenarios.
        let cwd = std::env::current_dir().unwrap_or_default();
        match cwd.ancestors().find(|d| d.join("pack.toml").is_file()) {
            Some(dir) if dir == cwd => vec![PathBuf::from(".")],
            Some(dir) => vec![dir.to_path_buf()],
            None => vec![PathBuf::from("cards"), PathBuf::from("tests")],
        }
    } else {
        paths
    };
    let suite = fuda::tools::runner::run_paths_with_packs(&paths, packs);
    let common = CommonArgs {
        format: Format::Human,
        deny_warnings: false,
        max_diagnostics: 50,
        no_cache: false,
        packs: Vec::new(),
    };
    if format == Format::Json {
        let list: Vec<_> = suite
            .reports
            .iter()
            .map(|(path, r)| {
                serde_json::json!({
                    "name": r.name, "path": path, "passed": r.passed(), "failures": r.failures,
                })
            })
            .collect();
        let diags: Vec<JsonDiagnostic> = suite
            .session
            .diags
            .iter()
            .map(|d| JsonDiagnostic::new(d, &suite.session.sources))
            .collect();
        let doc = serde_json::json!({
            "scenarios": list, "passed": suite.passed(), "failed": suite.failed(), "diagnostics": diags,
        });
        print_out(&serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        report(&suite.session, &common);
        for (path, r) in &suite.reports {
            if r.passed() {
                print_out(&format!("ok    {}", r.name));
            } else {
                print_out(&format!("FAIL  {}  ({path})", r.name));
                for f in &r.failures {
                    print_out(&format!("      {}", f.replace('\n', "\n      ")));
                }
            }
            if verbose || !r.passed() {
                let tail = if verbose { r.log.len() } else { 12 };
                if !r.log.is_empty() {
                    print_out(&format!(
                        "      log (last {} of {} lines):",
                        tail.min(r.log.len()),
                        r.log.len()
                    ));
                }
                for l in r.log.iter().skip(r.log.len().saturating_sub(tail)) {
                    print_out(&format!("        {l}"));
                }
            }
        }
        print_out(&format!(
            "{} passed, {} failed",
            suite.passed(),
            suite.failed()
        ));
    }
    if suite.failed() > 0 || suite.session.error_count() > 0 {
        1
    } else {
        0
    }
}

/// The decks of `play`/`sim`, the deck format they are checked in, and the pack folders
/// loaded along with the game (`--pack`).
struct GameDecks<'a> {
    paths: &'a [PathBuf],
    format: Option<String>,
    packs: &'a [PathBuf],
}

/// Loads the game and decks of `play`/`sim`, printing the diagnostics (as JSON with `json`);
/// `Err(1)` when something is wrong, `Err(2)` for a deck format the game lacks.
fn load_for_game(
    command: &str,
    game: &str,
    decks: &GameDecks,
    json: bool,
) -> Result<fuda::tools::sim::Loaded, u8> {
    let mut s = Session::new();
    s.cache = fuda::packs::cache::Cache::from_env();
    s.deck_format = decks.format.clone();
    for p in decks.packs {
        s.add_pack(p);
    }
    let loaded = fuda::tools::sim::load_game(&mut s, game, decks.paths);
    if let Some(why) = s.unknown_deck_format() {
        return Err(usage_error(command, &why));
    }
    let common = CommonArgs {
        format: if json { Format::Json } else { Format::Human },
        deny_warnings: false,
        max_diagnostics: 50,
        no_cache: false,
        packs: Vec::new(),
    };
    let errors = s.error_count() > 0;
    if errors || !s.diags.is_empty() {
        report(&s, &common);
    }
    match loaded {
        Ok(l) if !errors => Ok(l),
        Ok(_) => Err(1),
        Err(why) => {
            if !errors {
                eprintln!("error: {why}");
            }
            Err(1)
        }
    }
}

/// Refuses a deck count other than `want` the way clap refuses usage errors (exit code 2),
/// with the usage of subcommand `command`.
fn deck_count(command: &str, decks: &[PathBuf], want: usize) -> Result<(), u8> {
    if decks.len() == want {
        return Ok(());
    }
    let message = format!(
        "give --deck {want} times (one per seat); it was given {} time{}",
        decks.len(),
        plural(decks.len())
    );
    Err(clap_error(
        command,
        clap::error::ErrorKind::WrongNumberOfValues,
        message,
    ))
}

/// Refuses a `--deck-format` the game does not declare the way clap refuses usage errors
/// (exit code 2), with the usage of subcommand `command`.
fn usage_error(command: &str, message: &str) -> u8 {
    let message = format!("--deck-format: {message}");
    clap_error(command, clap::error::ErrorKind::InvalidValue, message)
}

/// Prints `message` as clap prints usage errors, with the usage of subcommand `command`, and
/// gives their exit code, 2.
fn clap_error(command: &str, kind: clap::error::ErrorKind, message: String) -> u8 {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    cli.build();
    let mut cmd = cli.find_subcommand(command).cloned().unwrap_or(cli);
    let _ = cmd.error(kind, message).print();
    2
}

/// `fuda new pack`: scaffolds a pack folder from its game's template. A bad name is a usage
/// error (2); a game with no template, an existing folder or a failed write is 1.
fn new_pack(name: &str, game: &str, parent: &std::path::Path) -> u8 {
    use fuda::packs::template::{scaffold, ScaffoldError};
    match scaffold(name, game, parent) {
        Ok(dir) => {
            let dir = fuda::packs::manifest::display(&dir);
            print_out(&format!(
                "created pack `{name}` for game `{game}` in `{dir}`"
            ));
            print_out(&format!(
                "next: fuda check {dir} && fuda test {dir}  (see {dir}/README.md)"
            ));
            0
        }
        Err(e @ ScaffoldError::BadName(_)) => {
            clap_error("new", clap::error::ErrorKind::InvalidValue, e.to_string())
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// `fuda play`: one game in the terminal, then the winner and the number of turns.
fn play(
    game: &str,
    decks: &GameDecks,
    seed: u64,
    players: [Player; 2],
    max_steps: u64,
    log: Option<&std::path::Path>,
    lang: Lang,
) -> u8 {
    if let Err(code) = deck_count("play", decks.paths, 2) {
        return code;
    }
    let loaded = match load_for_game("play", game, decks, false) {
        Ok(l) => l,
        Err(code) => return code,
    };
    // Open the log file first: a path that cannot be written is found before the game.
    let mut log_file = match log.map(std::fs::File::create).transpose() {
        Ok(f) => f.map(std::io::BufWriter::new),
        Err(e) => {
            eprintln!(
                "error: cannot write `{}`: {e}",
                log.map(|p| p.display().to_string()).unwrap_or_default()
            );
            return 1;
        }
    };
    let kinds = players
        .iter()
        .map(|p| match p {
            Player::Human => fuda::tools::play::PlayerKind::Human,
            Player::Random => fuda::tools::play::PlayerKind::Random,
            Player::First => fuda::tools::play::PlayerKind::First,
        })
        .collect();
    let config = fuda::tools::play::PlayConfig {
        seed,
        max_steps,
        players: kinds,
        deck_format: decks.format.clone(),
        lang,
    };
    let decks: Vec<Vec<u32>> = loaded.decks.iter().map(|d| d.cards.clone()).collect();
    let mut human = fuda::tools::play::HumanAgent::new(
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout(),
    );
    let result = fuda::tools::play::play_game(&loaded.program, &decks, &config, &mut human);
    for n in &result.notes {
        print_out(&format!("note: {n}"));
    }
    let turns = format!("{} turn{}", result.turns, plural(result.turns as usize));
    match result.outcome {
        fuda::engine::Outcome::Win(p) => print_out(&format!("p{} wins after {turns}", p + 1)),
        fuda::engine::Outcome::Draw => print_out(&format!("the game is a draw after {turns}")),
    }
    if let (Some(f), Some(path)) = (log_file.as_mut(), log) {
        let written = result
            .log
            .iter()
            .try_for_each(|e| writeln!(f, "{}", e.json()))
            .and_then(|()| f.flush());
        if let Err(e) = written {
            eprintln!("error: cannot write `{}`: {e}", path.display());
            return 1;
        }
    }
    0
}

/// `fuda words`: the names a game declares (`fuda::tools::words`). A kind that is not one of
/// the documented kinds is a usage error (2); a game that does not load is 1.
fn words(game: &str, packs: &[PathBuf], kind: Option<&str>, format: WordsFormat) -> u8 {
    use fuda::tools::words;
    if let Some(k) = kind.filter(|k| !words::KINDS.contains(k)) {
        let message = format!(
            "--kind: no kind `{k}`; the kinds: {}",
            words::KINDS.join(", ")
        );
        return clap_error("words", clap::error::ErrorKind::InvalidValue, message);
    }
    let mut s = Session::new();
    s.skip_decks = true;
    s.cache = fuda::packs::cache::Cache::from_env();
    for p in packs {
        s.add_pack(p);
    }
    let loaded = words::load(&mut s, game);
    let common = CommonArgs {
        format: Format::Human,
        deny_warnings: false,
        max_diagnostics: 50,
        no_cache: false,
        packs: Vec::new(),
    };
    if s.error_count() > 0 {
        report(&s, &common);
    }
    let mut list = match loaded {
        Ok(list) => list,
        Err(why) => {
            eprintln!("error: {why}");
            return 1;
        }
    };
    if let Some(k) = kind {
        list.only(k);
    }
    let text = match format {
        WordsFormat::Human => list.render_human(),
        WordsFormat::Markdown => list.render_markdown(),
        WordsFormat::Json => serde_json::to_string_pretty(&list).unwrap_or_default(),
    };
    print_out(text.trim_end());
    0
}

/// `fuda sim merge`: the shards summed, printed as one run would print them; 1 when they are
/// not the shards of one run.
fn sim_merge(command: &fuda::tools::sim::cli::SimCommand) -> u8 {
    let fuda::tools::sim::cli::SimCommand::Merge {
        files,
        json,
        output,
    } = command;
    match fuda::tools::sim::cli::merge_files(files, *json, output) {
        Ok(text) => {
            print_out(&text);
            0
        }
        Err(why) => {
            eprintln!("error: {why}");
            1
        }
    }
}

/// The options of one `fuda sim` run.
struct SimRun {
    games: usize,
    threads: Option<u32>,
    seed: u64,
    json: bool,
    max_steps: u64,
    more: fuda::tools::sim::cli::SimArgs,
}

/// `fuda sim`: many seeded games across threads with a progress bar; tables or one JSON
/// document on stdout.
fn sim(game: &str, decks: &GameDecks, run: &SimRun) -> u8 {
    let SimRun {
        games,
        threads,
        seed,
        json,
        max_steps,
        ..
    } = *run;
    if let Err(code) = deck_count("sim", decks.paths, 2) {
        return code;
    }
    if run.more.agents.len() > decks.paths.len() {
        let message = format!(
            "--agent: give one kind, or one per deck ({})",
            decks.paths.len()
        );
        return clap_error("sim", clap::error::ErrorKind::WrongNumberOfValues, message);
    }
    let loaded = match load_for_game("sim", game, decks, json) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let threads = threads.map(|t| t as usize).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let config = fuda::tools::sim::SimConfig {
        games,
        threads,
        seed,
        max_steps,
        deck_format: decks.format.clone(),
        agents: run.more.agents.clone(),
        shard: run.more.shard,
    };
    let bar = if json || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new(games as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {per_sec}  eta {eta}",
        ) {
            bar.set_style(style);
        }
        bar
    };
    let start = Instant::now();
    // An engine panic in a game is one line of the summary, not noise over the progress bar.
    fuda::tools::sim::record_panics();
    let summary =
        fuda::tools::sim::simulate_with_progress(&loaded.program, &loaded.decks, &config, &|| {
            bar.inc(1)
        });
    let _ = std::panic::take_hook();
    bar.finish_and_clear();
    match fuda::tools::sim::cli::output(summary, json, &run.more.output) {
        Ok(text) => print_out(&text),
        Err(why) => {
            eprintln!("error: {why}");
            return 1;
        }
    }
    if !json {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{games} game{} in {secs:.2} s on {threads} thread{} ({:.0} games/s)",
            plural(games),
            plural(threads),
            if secs > 0.0 { games as f64 / secs } else { 0.0 }
        );
    }
    0
}

/// `fuda fmt`: files and folders laid out canonically by `fuda::compiler::format`, or stdin to
/// stdout. A file is written only when its layout is checked safe; one with syntax errors is
/// left untouched and its diagnostics printed.
mod fmt {
    use fuda::base::diagnostic::{self, RenderOptions};
    use fuda::base::source::{SourceFile, SourceMap};
    use fuda::compiler::format::{format_source, FormatError};
    use std::io::{IsTerminal, Read, Write};
    use std::path::{Path, PathBuf};

    /// What became of the files: counts for the summary line and the exit code.
    #[derive(Default)]
    struct Tally {
        changed: usize,
        unchanged: usize,
        failed: usize,
    }

    /// Runs `fuda fmt` over `paths` (`cards` when empty); `check` writes nothing and lists the
    /// files that would change. Exit code 1 when a file failed or, with `check`, would change.
    pub fn run(paths: Vec<PathBuf>, check: bool) -> u8 {
        if paths.iter().any(|p| p.as_os_str() == "-") {
            if paths.len() > 1 {
                let message = "`-` (stdin) cannot be given with other paths".to_string();
                return super::clap_error("fmt", clap::error::ErrorKind::ArgumentConflict, message);
            }
            return stdin(check);
        }
        let paths = if paths.is_empty() {
            vec![PathBuf::from("cards")]
        } else {
            paths
        };
        let mut tally = Tally::default();
        let mut files = Vec::new();
        for p in &paths {
            if p.is_dir() {
                collect(p, &mut files);
            } else if p.is_file() {
                files.push(p.clone());
            } else {
                eprintln!("error: `{}`: no such file or folder", p.display());
                tally.failed += 1;
            }
        }
        for f in &files {
            file(f, check, &mut tally);
        }
        let verb = if check {
            "would be reformatted"
        } else {
            "reformatted"
        };
        eprintln!(
            "{} file{} {verb}, {} already formatted{}",
            tally.changed,
            super::plural(tally.changed),
            tally.unchanged,
            match tally.failed {
                0 => String::new(),
                n => format!(", {n} left untouched with errors"),
            }
        );
        u8::from(tally.failed > 0 || (check && tally.changed > 0))
    }

    /// Every `.fuda` file under `dir`, in path order.
    fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                collect(&p, out);
            } else if p.extension().is_some_and(|x| x == "fuda") && p.is_file() {
                out.push(p);
            }
        }
    }

    /// Formats one file: rewritten (or, with `check`, listed on stdout) when it changes.
    fn file(path: &Path, check: bool, tally: &mut Tally) {
        if path.extension().is_none_or(|x| x != "fuda") {
            eprintln!(
                "note: `{}` skipped: only `.fuda` files are formatted",
                path.display()
            );
            return;
        }
        let shown = path.display().to_string();
        let src = match std::fs::read(path).map(String::from_utf8) {
            Ok(Ok(src)) => src,
            Ok(Err(_)) => {
                eprintln!("error: `{shown}` is not UTF-8; left untouched");
                tally.failed += 1;
                return;
            }
            Err(e) => {
                eprintln!("error: cannot read `{shown}`: {e}");
                tally.failed += 1;
                return;
            }
        };
        let Some(out) = formatted(&shown, &src) else {
            tally.failed += 1;
            return;
        };
        if out == src {
            tally.unchanged += 1;
            return;
        }
        tally.changed += 1;
        if check {
            super::print_out(&shown);
        } else if let Err(e) = std::fs::write(path, out) {
            eprintln!("error: cannot write `{shown}`: {e}");
            tally.failed += 1;
        }
    }

    /// `fuda fmt -`: stdin formatted to stdout (nothing on stdout when it has errors). With
    /// `check`, nothing is printed and the exit code says whether it would change.
    fn stdin(check: bool) -> u8 {
        let mut src = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut src) {
            eprintln!("error: cannot read stdin: {e}");
            return 1;
        }
        let Some(out) = formatted("<stdin>", &src) else {
            return 1;
        };
        if check {
            return u8::from(out != src);
        }
        let _ = std::io::stdout().lock().write_all(out.as_bytes());
        0
    }

    /// The checked layout of `src`, or `None` after printing why the file stays as it is.
    fn formatted(shown: &str, src: &str) -> Option<String> {
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new(shown, src));
        match format_source(src, id) {
            Ok(out) => Some(out),
            Err(FormatError::Syntax(diags)) => {
                let opts = RenderOptions {
                    color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                        && std::io::stderr().is_terminal(),
                    width: if std::io::stderr().is_terminal() {
                        100
                    } else {
                        80
                    },
                };
                let mut err = std::io::stderr().lock();
                for d in &diags {
                    let _ = write!(err, "{}", diagnostic::render(d, &sources, opts));
                }
                let _ = writeln!(err, "`{shown}` has syntax errors; left untouched");
                None
            }
            Err(FormatError::Unsafe(why)) => {
                eprintln!(
                    "error: `{shown}` left untouched: {why} (a bug of the formatter; please report it)"
                );
                None
            }
        }
    }
}
