//! The command-line arguments `fuda sim` adds beyond the game and decks (`--agent`, `--shard`,
//! `--sort`, `--report`), `fuda sim merge`, and the output both print. Nothing here prints:
//! the command line prints what these return.

use super::shard::{merge, parse_shard};
use super::{AgentKind, SortKey, Summary};
use std::path::PathBuf;

/// `--agent`, `--shard` and the output options of `fuda sim`.
#[derive(clap::Args, Debug, Clone)]
pub struct SimArgs {
    /// Who plays each deck: `random` or `greedy`, one kind for both decks or `A,B` per deck.
    #[arg(long = "agent", value_name = "KIND[,KIND]", value_delimiter = ',', value_parser = parse_agent)]
    pub agents: Vec<AgentKind>,
    /// Play only shard K of N of the games (game i when i % N == K-1), for `fuda sim merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, requires = "json")]
    pub shard: Option<(usize, usize)>,
    /// The output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// How a summary is shown (`fuda sim` and `fuda sim merge`).
#[derive(clap::Args, Debug, Clone)]
pub struct OutputArgs {
    /// Sort the card table by this column (name, id, plays, games, win, not-played, not-win,
    /// deck, delta, flag).
    #[arg(long, value_name = "COLUMN", value_parser = SortKey::parse, default_value = "name")]
    pub sort: SortKey,
    /// Also write an HTML report with plots to DIR/index.html.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
}

/// `fuda sim merge`.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum SimCommand {
    /// Sum the JSON of `fuda sim … --shard K/N --json` runs into the summary of the whole run.
    Merge {
        /// The shards' JSON files, one per shard, in any order.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Print one JSON document instead of tables.
        #[arg(long)]
        json: bool,
        /// The output options.
        #[command(flatten)]
        output: OutputArgs,
    },
}

fn parse_agent(text: &str) -> Result<AgentKind, String> {
    match text.trim() {
        "random" => Ok(AgentKind::Random),
        "greedy" => Ok(AgentKind::Greedy),
        other => Err(format!(
            "unknown agent `{other}`; the agents: random, greedy"
        )),
    }
}

/// What `fuda sim` prints on stdout for `summary`: its tables, or its JSON (`json`), the cards
/// sorted as asked; the report written first when one is asked for. `Err`: the report could
/// not be written.
pub fn output(mut summary: Summary, json: bool, options: &OutputArgs) -> Result<String, String> {
    summary.sort_cards(options.sort);
    if let Some(dir) = &options.report {
        super::report::write(dir, &summary)
            .map_err(|e| format!("cannot write the report to {}: {e}", dir.display()))?;
    }
    Ok(if json {
        serde_json::to_string_pretty(&summary).unwrap_or_default()
    } else {
        summary.render().trim_end().to_string()
    })
}

/// `fuda sim merge`: the merged summary as [`output`] shows it; `Err`: a file that cannot be
/// read, or shards that are not one run.
pub fn merge_files(files: &[PathBuf], json: bool, options: &OutputArgs) -> Result<String, String> {
    let mut documents = Vec::with_capacity(files.len());
    for f in files {
        let text =
            std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        documents.push((f.display().to_string(), text));
    }
    output(merge(&documents)?, json, options)
}
