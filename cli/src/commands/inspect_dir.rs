//! `codex-context inspect DIR`: every rollout under a folder, inspected in parallel and
//! reported per session and in total (text or JSON), or as one JSON row per request (ndjson).
//! Output streams in path order as the files are done; a file that cannot be inspected is
//! named in a warning and skipped.

use std::io::BufWriter;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context as _;
use codex_inspect::CorpusReport;
use codex_inspect::CorpusTotals;
use codex_inspect::FileOutcome;
use codex_inspect::InspectOptions;
use codex_inspect::RolloutListing;
use codex_inspect::Rows;
use codex_inspect::SkippedFile;
use codex_inspect::find_rollouts;
use codex_inspect::inspect_files;
use codex_inspect::render_session_text;
use codex_inspect::render_totals_text;
use codex_utils_fs::StagedFile;
use codex_utils_progress::Display;
use codex_utils_progress::Progress;
use codex_utils_progress::Unit;

use crate::output::Replacing;

/// Exit code when some files (or folders) were skipped; the report covers the others.
pub const EXIT_SKIPPED: u8 = 1;

/// The views of a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirFormat {
    /// A block per session, then the totals.
    Text,
    /// Every session's summary, the skipped files and the totals, as one JSON document.
    Json,
    /// One JSON object per request and line.
    Ndjson,
}

/// Inspects every rollout under `dir` and writes the report to `out` (else standard output).
/// The exit code says whether files were skipped.
pub fn run(
    dir: &Path,
    format: DirFormat,
    options: &InspectOptions<'_>,
    out: Option<&Path>,
    replacing: Replacing,
) -> anyhow::Result<ExitCode> {
    let listing =
        find_rollouts(dir).with_context(|| format!("cannot inspect {}", dir.display()))?;
    if listing.files.is_empty() && listing.unlisted.is_empty() {
        anyhow::bail!(
            "{}: no rollout-*.jsonl file in this folder or below it",
            dir.display()
        );
    }
    match out {
        Some(path) => {
            let mut staged = StagedFile::create(path, replacing.existing())
                .with_context(|| format!("--out {}", path.display()))?;
            let mut writer = BufWriter::new(staged.file_mut());
            let written = write_report(&mut writer, listing, format, options)
                .and_then(|code| writer.flush().map(|()| code));
            drop(writer);
            let code = written.with_context(|| format!("cannot write --out {}", path.display()))?;
            staged
                .commit()
                .with_context(|| format!("--out {}", path.display()))?;
            Ok(code)
        }
        None => {
            let mut writer = BufWriter::new(std::io::stdout().lock());
            match write_report(&mut writer, listing, format, options)
                .and_then(|code| writer.flush().map(|()| code))
            {
                Ok(code) => Ok(code),
                // A closed pipe (`| head`) means the reader has all it wants.
                Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {
                    Ok(ExitCode::SUCCESS)
                }
                Err(error) => {
                    Err(anyhow::Error::new(error).context("cannot write to standard output"))
                }
            }
        }
    }
}

/// Inspects the listed files and writes each session's part as soon as the files before it
/// are done; the totals (and, for JSON, the whole document) come last.
fn write_report(
    out: &mut impl Write,
    listing: RolloutListing,
    format: DirFormat,
    options: &InspectOptions<'_>,
) -> std::io::Result<ExitCode> {
    let rows = match format {
        DirFormat::Ndjson => Rows::Collect,
        DirFormat::Text | DirFormat::Json => Rows::Skip,
    };
    let progress = Progress::new(
        u64::try_from(listing.files.len()).ok(),
        Unit::Items("files"),
        "inspecting",
        Display::StderrIfTerminal,
    );
    let mut skipped: Vec<SkippedFile> = listing.unlisted;
    for folder in &skipped {
        tracing::warn!("{} is skipped: {}", folder.rollout, folder.reason);
    }
    let mut totals = CorpusTotals::default();
    let mut sessions = Vec::new();
    let mut failure = None;
    inspect_files(&listing.files, options, rows, |outcome: FileOutcome| {
        progress.inc(1);
        let digest = match outcome.result {
            Ok(digest) => digest,
            Err(error) => {
                // Reports name files relative to the folder, not by their full path.
                let full = outcome.file.path.display().to_string();
                let reason = error
                    .to_string()
                    .replace(&format!("{full}: "), "")
                    .replace(&format!(" {full}"), "");
                progress.suspend(|| {
                    tracing::warn!("{} is skipped: {reason}", outcome.file.name);
                });
                skipped.push(SkippedFile {
                    rollout: outcome.file.name,
                    reason,
                });
                return ControlFlow::Continue(());
            }
        };
        let summary = digest.summary;
        if let Some(first) = summary.warnings.first() {
            let more = match summary.warnings.len() {
                1 => String::new(),
                count => format!(" (and {} more warnings)", count - 1),
            };
            progress.suspend(|| tracing::warn!("{}: {first}{more}", summary.rollout));
        }
        totals.add(&summary);
        let written = match format {
            DirFormat::Text => out.write_all(render_session_text(&summary).as_bytes()),
            DirFormat::Json => {
                sessions.push(summary);
                Ok(())
            }
            DirFormat::Ndjson => digest.rows.iter().try_for_each(|row| {
                serde_json::to_writer(&mut *out, row)?;
                out.write_all(b"\n")
            }),
        };
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => {
                failure = Some(error);
                ControlFlow::Break(())
            }
        }
    });
    progress.finish();
    if let Some(error) = failure {
        return Err(error);
    }
    totals.skipped = skipped.len();
    let code = match skipped.len() {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(EXIT_SKIPPED),
    };
    match format {
        DirFormat::Text => out.write_all(render_totals_text(&totals, &skipped).as_bytes())?,
        DirFormat::Json => {
            let report = CorpusReport {
                sessions,
                skipped,
                totals,
            };
            serde_json::to_writer_pretty(&mut *out, &report)?;
            out.write_all(b"\n")?;
        }
        DirFormat::Ndjson => {}
    }
    Ok(code)
}
