//! `codex-context world-state`: the world-state mechanism one section at a time.

use std::path::PathBuf;

use codex_core::PreviousSectionArg;
use codex_core::world_state_diff_cli;
use codex_prompts::TemplateSet;

/// Inspect world-state sections
#[derive(Debug, clap::Args)]
pub struct WorldStateArgs {
    #[command(subcommand)]
    pub command: WorldStateCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum WorldStateCommand {
    Diff(DiffArgs),
}

/// Render one section against a previous state
///
/// Prints `None` when the model need not be told anything, else `(role - ROLE)` and the
/// rendered fragment on the next line. Each state is given as the section's inputs or as its
/// snapshot exactly as a rollout's `world_state` line records it (`true` for
/// `apps_instructions`, `{"environments": {...}, "current_date": ...}` for `environments`); a
/// recorded snapshot that holds only a fingerprint of the rendered text cannot be the current
/// state.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// Section ID (`model`, `permissions`, `environments`, …).
    #[arg(long, value_name = "ID")]
    pub section: String,

    /// What the model saw before: `absent`, `unknown`, or JSON (the section's previous inputs or
    /// its recorded snapshot).
    #[arg(long, value_name = "JSON|absent|unknown")]
    pub previous: String,

    /// The section's current state as JSON (its inputs or a recorded snapshot).
    #[arg(long, value_name = "JSON")]
    pub current: String,

    /// Directory overlaying the bundled templates file by file.
    #[arg(long, value_name = "DIR")]
    pub prompts_dir: Option<PathBuf>,
}

pub fn run(args: &WorldStateArgs) -> anyhow::Result<String> {
    match &args.command {
        WorldStateCommand::Diff(diff) => {
            let templates = match &diff.prompts_dir {
                Some(dir) => TemplateSet::from_dir(dir)?,
                None => TemplateSet::embedded(),
            };
            let previous = PreviousSectionArg::parse(&diff.previous)?;
            Ok(world_state_diff_cli(&diff.section, &previous, &diff.current, &templates)? + "\n")
        }
    }
}
