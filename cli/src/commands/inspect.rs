//! `codex-context inspect`: every request a rollout records, rebuilt and traced to its sources.

use std::path::PathBuf;

use anyhow::Context as _;
use codex_inspect::InspectOptions;
use codex_inspect::inspect_file;
use codex_inspect::render_html;
use codex_inspect::render_json;
use codex_inspect::render_text;
use codex_prompts::TemplateSet;
use codex_release::CodexRelease;
use codex_utils_fs::write_atomic;

use crate::catalog::CatalogArgs;
use crate::output::Replacing;
use crate::output::check_output;

/// Rebuild every request a rollout records and show where each piece came from
///
/// Works on rollouts written by this project and by upstream Codex, legacy ones included. Per
/// request (one per sampling step): each new input item with its role, classification (user
/// text, assistant output, tool call or output, injected fragment, base instructions), source,
/// bytes and o200k tokens; tokens by source; the prefix shared with the previous request and why
/// it broke. Then the world-state timeline. Tools are not recorded in rollouts: catalog models
/// get their built-in list rebuilt.
#[derive(Debug, clap::Args)]
pub struct InspectArgs {
    /// The rollout JSONL file, or a folder `codex-context proxy` recorded (or one thread
    /// folder of it).
    #[arg(value_name = "ROLLOUT.jsonl")]
    pub rollout: PathBuf,

    /// Report format: text, JSON, or one self-contained HTML page.
    #[arg(long, value_enum, default_value_t = InspectFormat::Text)]
    pub format: InspectFormat,

    /// Write the report to FILE instead of standard output. The report is written whole or not
    /// at all (a temporary file beside FILE, renamed into place); an existing FILE is kept unless
    /// `--force` is given, and FILE is never the rollout or the catalog read.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Let `--out` replace an existing file (regenerating a report).
    #[arg(long, requires = "out")]
    pub force: bool,

    #[command(flatten)]
    pub catalog: CatalogArgs,

    /// The upstream Codex release whose profile rebuilds the requests (`0.149`, `0.171`).
    /// Default: the release that wrote the rollout (its `session_meta.cli_version`, else its
    /// line shapes), else the latest.
    #[arg(long, value_name = "VERSION")]
    pub codex_version: Option<CodexRelease>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InspectFormat {
    Text,
    Json,
    Html,
}

pub fn run(args: &InspectArgs) -> anyhow::Result<String> {
    if args.rollout.is_dir() && codex_proxy::is_recording(&args.rollout) {
        return super::proxy::inspect_recording(args);
    }
    let replacing = Replacing::WithForce { force: args.force };
    if let Some(out) = &args.out {
        let mut inputs = vec![("the rollout", args.rollout.as_path())];
        inputs.extend(
            args.catalog
                .model_catalog
                .as_deref()
                .map(|catalog| ("the model catalog", catalog)),
        );
        check_output("--out", out, &inputs, replacing)?;
    }
    // The rollout is rebuilt with the catalog of its release.
    let catalogs = args.catalog.load_all(&TemplateSet::embedded())?;
    let options = InspectOptions {
        release: args.codex_version,
        ..InspectOptions::by_release(&catalogs)
    };
    let inspection = inspect_file(&args.rollout, &options)
        .with_context(|| format!("cannot inspect {}", args.rollout.display()))?;
    let report = match args.format {
        InspectFormat::Text => render_text(&inspection),
        InspectFormat::Json => render_json(&inspection)?,
        InspectFormat::Html => render_html(&inspection)?,
    };
    match &args.out {
        Some(path) => {
            write_atomic(path, report.as_bytes(), replacing.existing())
                .with_context(|| format!("--out {}", path.display()))?;
            Ok(String::new())
        }
        None => Ok(report),
    }
}
