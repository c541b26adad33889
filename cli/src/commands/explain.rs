//! `codex-context explain`: where every part of the first request came from.

use codex_inspect::explain_first_turn;

use super::request::AssembledTurn;
use super::request::TurnArgs;
use super::request::assemble;

/// How `explain` prints its report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplainFormat {
    /// A readable report.
    Text,
    /// The same report as JSON.
    Json,
}

/// Explain the first request of a new thread
///
/// Takes the same options as `request` and lists every input item and content entry with its
/// role, content kind, source (configuration key, file, world-state section, template file),
/// size in bytes and fingerprint, then the AGENTS.md files found and what was cut from them.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub turn: TurnArgs,

    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ExplainFormat,
}

pub fn run(args: &ExplainArgs) -> anyhow::Result<String> {
    let AssembledTurn { turn, first } = assemble(&args.turn)?;
    let explanation = explain_first_turn(&turn, &first);
    match args.format {
        ExplainFormat::Text => Ok(explanation.render_text()),
        ExplainFormat::Json => Ok(serde_json::to_string_pretty(&explanation)? + "\n"),
    }
}
