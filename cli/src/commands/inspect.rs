//! `codex-context inspect`: every request a rollout records, rebuilt and traced to its sources;
//! for a folder, every rollout under it (`inspect_dir`).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use codex_inspect::CorpusFile;
use codex_inspect::EntryTexts;
use codex_inspect::InspectOptions;
use codex_inspect::Rows;
use codex_inspect::digest_file;
use codex_inspect::inspect_file;
use codex_inspect::render_html;
use codex_inspect::render_json;
use codex_inspect::render_text;
use codex_inspect::write_text;
use codex_prompts::TemplateSet;
use codex_release::CodexRelease;
use codex_utils_fs::write_atomic;

use super::inspect_dir;
use super::inspect_dir::DirFormat;
use super::session::reading_progress;
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
///
/// Given a folder (such as ~/.codex/sessions), inspects every rollout-*.jsonl file under it in
/// parallel and reports per session and in total: requests, tokens by source, prefix reuse and
/// its breaks, compactions, context-window pressure and the largest injected items. A file that
/// cannot be inspected is named in a warning and skipped; the exit code is then 1.
#[derive(Debug, clap::Args)]
pub struct InspectArgs {
    /// The rollout JSONL file, a folder holding rollout-*.jsonl files at any depth, or a folder
    /// `codex-context proxy` recorded (or one thread folder of it).
    #[arg(value_name = "ROLLOUT.jsonl|DIR")]
    pub rollout: PathBuf,

    /// Report format: text, JSON, one self-contained HTML page (a single rollout only), or
    /// ndjson: one JSON object per request and line, with flat columns for dataframe tools.
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
    Ndjson,
}

/// What to print and how the process ends after printing it.
#[derive(Debug)]
pub struct Inspected {
    /// Empty when the report was streamed to standard output or written to `--out`.
    pub output: String,
    /// 0, or [`inspect_dir::EXIT_SKIPPED`] when files of a folder were skipped.
    pub exit_code: ExitCode,
}

pub fn run(args: &InspectArgs) -> anyhow::Result<Inspected> {
    if args.rollout.is_dir() && codex_proxy::is_recording(&args.rollout) {
        return Ok(Inspected {
            output: super::proxy::inspect_recording(args)?,
            exit_code: ExitCode::SUCCESS,
        });
    }
    // Every item is counted in o200k tokens once it is read.
    codex_fragments::load_tokenizer_in_background();
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
    // Only the JSON and HTML views of one rollout show entries' whole texts; the others keep
    // previews, so a long rollout's inspection stays small.
    let texts = match (args.rollout.is_dir(), args.format) {
        (false, InspectFormat::Json | InspectFormat::Html) => EntryTexts::Whole,
        (true, _) | (false, InspectFormat::Text | InspectFormat::Ndjson) => EntryTexts::PreviewOnly,
    };
    let options = InspectOptions {
        release: args.codex_version,
        texts,
        ..InspectOptions::by_release(&catalogs)
    };
    if args.rollout.is_dir() {
        let format = match args.format {
            InspectFormat::Text => DirFormat::Text,
            InspectFormat::Json => DirFormat::Json,
            InspectFormat::Ndjson => DirFormat::Ndjson,
            InspectFormat::Html => anyhow::bail!(
                "--format html shows one rollout and {} is a folder: use text, json or ndjson",
                args.rollout.display()
            ),
        };
        let exit_code = inspect_dir::run(
            &args.rollout,
            format,
            &options,
            args.out.as_deref(),
            replacing,
        )?;
        return Ok(Inspected {
            output: String::new(),
            exit_code,
        });
    }
    // One file: a byte bar while it is read (a folder has a bar over its files instead).
    let progress = reading_progress(&args.rollout);
    let options = InspectOptions {
        progress: Some(&progress),
        ..options
    };
    let cannot_inspect = || format!("cannot inspect {}", args.rollout.display());
    let inspection = || inspect_file(&args.rollout, &options).with_context(cannot_inspect);
    if let (InspectFormat::Text, None) = (args.format, &args.out) {
        // Tens of megabytes for a long rollout: written as it is rendered.
        let inspection = inspection()?;
        progress.finish();
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        match write_text(&inspection, &mut stdout).and_then(|()| stdout.flush()) {
            Ok(()) => {}
            // A closed pipe (`| head`) means the reader has all it wants.
            Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
            Err(error) => {
                return Err(anyhow::Error::new(error).context("cannot write to standard output"));
            }
        }
        return Ok(Inspected {
            output: String::new(),
            exit_code: ExitCode::SUCCESS,
        });
    }
    let report = match args.format {
        InspectFormat::Text => render_text(&inspection()?),
        InspectFormat::Json => render_json(&inspection()?)?,
        InspectFormat::Html => render_html(&inspection()?)?,
        InspectFormat::Ndjson => {
            let digest = digest_file(&CorpusFile::single(&args.rollout), &options, Rows::Collect)
                .with_context(cannot_inspect)?;
            let mut rows = String::new();
            for row in &digest.rows {
                rows.push_str(&serde_json::to_string(row)?);
                rows.push('\n');
            }
            rows
        }
    };
    progress.finish();
    let output = match &args.out {
        Some(path) => {
            write_atomic(path, report.as_bytes(), replacing.existing())
                .with_context(|| format!("--out {}", path.display()))?;
            String::new()
        }
        None => report,
    };
    Ok(Inspected {
        output,
        exit_code: ExitCode::SUCCESS,
    })
}
