//! `codex-context merge-patch`: RFC 7386 JSON merge patches.

use std::path::Path;
use std::path::PathBuf;

use codex_context_fragments::apply_merge_patch;
use codex_context_fragments::create_merge_patch;
use serde_json::Value;

use crate::input;

/// Create or apply RFC 7386 JSON merge patches
///
/// JSON inputs may be `-` for standard input (one of the two at most). Output is pretty-printed
/// JSON.
#[derive(Debug, clap::Args)]
pub struct MergePatchArgs {
    #[command(subcommand)]
    pub action: MergePatchAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum MergePatchAction {
    /// Print the merge patch that turns PREV into CURR
    ///
    /// Prints `null` when the documents are equal, so no patch is needed. (A CURR of `null`
    /// also yields `null`, there the patch that replaces the whole document with `null`.)
    Diff {
        /// The document before the change.
        #[arg(value_name = "PREV.json")]
        previous: PathBuf,
        /// The document after the change.
        #[arg(value_name = "CURR.json")]
        current: PathBuf,
    },
    /// Print DOC with PATCH applied.
    Apply {
        /// The document to patch.
        #[arg(value_name = "DOC.json")]
        document: PathBuf,
        /// The merge patch.
        #[arg(value_name = "PATCH.json")]
        patch: PathBuf,
    },
}

pub fn run(args: &MergePatchArgs) -> anyhow::Result<String> {
    let result = match &args.action {
        MergePatchAction::Diff { previous, current } => {
            let (previous, current) = read_pair(previous, current)?;
            create_merge_patch(&previous, &current).unwrap_or(Value::Null)
        }
        MergePatchAction::Apply { document, patch } => {
            let (mut document, patch) = read_pair(document, patch)?;
            apply_merge_patch(&mut document, &patch);
            document
        }
    };
    Ok(serde_json::to_string_pretty(&result)? + "\n")
}

fn read_pair(first: &Path, second: &Path) -> anyhow::Result<(Value, Value)> {
    let stdin = Path::new(input::STDIN_PATH);
    if first == stdin && second == stdin {
        anyhow::bail!("only one JSON input can be `-` (standard input is read once)");
    }
    Ok((input::read_json(first)?, input::read_json(second)?))
}
