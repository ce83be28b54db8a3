//! The `fuda` command line. Exit codes: 0 clean (warnings alone included,
//! unless `--deny-warnings`), 1 diagnostics, 2 usage errors.

use clap::{Parser, Subcommand, ValueEnum};
use fuda::diagnostic::{self, JsonDiagnostic, RenderOptions};
use fuda::pack::Session;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

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
}

impl CommonArgs {
    /// A session over `paths`, with the cache unless disabled.
    fn session(&self, paths: &[PathBuf]) -> Session {
        let mut s = Session::new();
        if !self.no_cache {
            s.cache = fuda::cache::Cache::from_env();
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
        /// Pack folders, folders of packs, or `.fuda` files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
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
    /// Print one card's IR and a readable outline of it.
    Explain {
        /// A pack folder or a `.fuda` file.
        path: PathBuf,
        /// The card (by name or number).
        #[arg(long, required = true)]
        card: String,
        #[command(flatten)]
        common: CommonArgs,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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
        Command::Check { paths, common } => {
            let start = Instant::now();
            let s = common.session(&paths);
            let code = report(&s, &common);
            if common.format == Format::Human {
                let cards: usize = s.packs.iter().map(|p| p.pack.cards.len()).sum();
                for p in &s.packs {
                    eprintln!(
                        "  {:<10} {:>5} cards  (game {})",
                        p.pack.name,
                        p.pack.cards.len(),
                        p.pack.game
                    );
                }
                eprintln!(
                    "checked {} pack{}, {} card{}: {} error{}, {} warning{} in {} ms",
                    s.packs.len(),
                    plural(s.packs.len()),
                    cards,
                    plural(cards),
                    s.error_count(),
                    plural(s.error_count()),
                    s.warning_count(),
                    plural(s.warning_count()),
                    start.elapsed().as_millis()
                );
            }
            code
        }
        Command::Compile { path, card, common } => {
            let s = common.session(std::slice::from_ref(&path));
            let (pack, code) = match checked_pack(&s, &common) {
                Ok(found) => found,
                Err(code) => return code,
            };
            let json = match &card {
                Some(key) => match card_in(pack, key) {
                    Ok(c) => serde_json::to_string_pretty(c),
                    Err(code) => return code,
                },
                None => serde_json::to_string_pretty(pack),
            };
            print_out(&json.unwrap_or_default());
            code
        }
        Command::Explain { path, card, common } => {
            let s = common.session(std::slice::from_ref(&path));
            let (c, code) = match checked_pack(&s, &common)
                .and_then(|(pack, code)| Ok((card_in(pack, &card)?, code)))
            {
                Ok(found) => found,
                Err(code) => return code,
            };
            if common.format == Format::Json {
                let doc = serde_json::json!({ "card": c, "outline": fuda::explain::card(c) });
                print_out(&serde_json::to_string_pretty(&doc).unwrap_or_default());
            } else {
                print_out(&fuda::explain::card(c));
                print_out(&serde_json::to_string_pretty(c).unwrap_or_default());
            }
            code
        }
    }
}

/// Reports the diagnostics of `compile`/`explain` and gives the pack the path names with the
/// exit code so far; `Err(exit code)` when there are errors or no pack.
fn checked_pack<'s>(s: &'s Session, common: &CommonArgs) -> Result<(&'s fuda::ir::Pack, u8), u8> {
    let code = report(s, common);
    if s.error_count() > 0 {
        return Err(1);
    }
    target_pack(s).map(|p| (p, code)).ok_or(code)
}

/// The card of `pack` with this name or number, or exit code 1 after saying there is none.
fn card_in<'p>(pack: &'p fuda::ir::Pack, key: &str) -> Result<&'p fuda::ir::Card, u8> {
    find_card(pack, key).ok_or_else(|| {
        eprintln!(
            "error: no card named or numbered `{key}` in pack `{}`",
            pack.name
        );
        1
    })
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

/// The pack the user named: the last one compiled (its requirements come first).
fn target_pack(s: &Session) -> Option<&fuda::ir::Pack> {
    s.packs.last().map(|p| &p.pack)
}

fn find_card<'a>(pack: &'a fuda::ir::Pack, key: &str) -> Option<&'a fuda::ir::Card> {
    pack.cards
        .iter()
        .find(|c| c.name == key || c.number == key || c.id == key)
        .or_else(|| pack.cards.iter().find(|c| c.name.contains(key)))
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
            });
            let mut out = std::io::stdout().lock();
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            );
        }
        Format::Human => {
            let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal();
            let width = if std::io::stderr().is_terminal() {
                100
            } else {
                80
            };
            let opts = RenderOptions { color, width };
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
