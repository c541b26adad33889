//! `inspect DIR`: many rollouts inspected in parallel, each reduced to a small per-session
//! summary (and, when asked, one flat row per request) so that memory stays bounded by the
//! files in flight, not by the folder.
//!
//! - [`find_rollouts`] lists the `rollout-*.jsonl` files under a folder, sorted by path.
//! - [`digest_file`] inspects one rollout and keeps only its [`SessionSummary`] and, with
//!   [`Rows::Collect`], its [`RequestRow`]s.
//! - [`inspect_files`] digests many files on the rayon pool and hands the outcomes back in the
//!   order of the list, whatever order the threads finish in.
//! - [`CorpusTotals`] sums summaries; [`render_session_text`] and [`render_totals_text`] are the
//!   text view, [`CorpusReport`] the JSON one.

mod digest;
mod files;
mod parallel;
mod rows;
mod text;

use std::path::PathBuf;

pub use digest::BreakCounts;
pub use digest::CorpusTotals;
pub use digest::InjectedItem;
pub use digest::SessionSummary;
pub use digest::WindowPressure;
pub use files::CorpusFile;
pub use files::RolloutListing;
pub use files::find_rollouts;
pub use parallel::FileOutcome;
pub use parallel::inspect_files;
pub use rows::RequestRow;
pub use text::render_session_text;
pub use text::render_totals_text;

use serde::Serialize;

use crate::inspect::InspectError;

/// Why a file of a folder could not be inspected (it is skipped; the others still are).
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The rollout could not be read or is not a rollout.
    #[error(transparent)]
    Inspect(#[from] InspectError),
    /// A folder under the one inspected could not be listed.
    #[error("cannot list the folder {}: {source}", path.display())]
    ListFolder {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The inspection stopped on a defect of this program; the message says where.
    #[error("the inspection failed unexpectedly: {0}")]
    Panicked(String),
}

/// Whether [`digest_file`] keeps one [`RequestRow`] per request besides the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    /// Keep the rows (`--format ndjson`).
    Collect,
    /// The summary alone.
    Skip,
}

/// What one rollout leaves once inspected: its summary and, with [`Rows::Collect`], its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct FileDigest {
    pub summary: SessionSummary,
    /// Empty with [`Rows::Skip`].
    pub rows: Vec<RequestRow>,
}

/// A file left out of a folder's report, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedFile {
    /// The file's path relative to the folder inspected.
    pub rollout: String,
    /// One sentence.
    pub reason: String,
}

/// The JSON view of a folder (`inspect DIR --format json`): every session's summary in path
/// order, the files skipped, and the totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CorpusReport {
    pub sessions: Vec<SessionSummary>,
    pub skipped: Vec<SkippedFile>,
    pub totals: CorpusTotals,
}

pub use digest::digest_file;

/// `part` as a percentage of `total`, rounded to one decimal (0 when `total` is 0).
fn percent(part: usize, total: usize) -> f64 {
    if total == 0 {
        return 0.0;
    }
    (part as f64 * 1000.0 / total as f64).round() / 10.0
}
