//! Tolerant rollout loading: every readable line is kept, every damaged one is reported.

use std::io;
use std::io::BufRead;
use std::io::BufReader;
use std::path::Path;

use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::RolloutLine;
use codex_utils_fs::open_regular;
use serde_json::error::Category;

use super::ReconstructedSession;
use super::RolloutError;
use super::reconstruct;
use super::wire::PayloadDetail;
use super::wire::parse_line;

/// Large enough that a typical rollout line is read with one buffer refill.
const READ_BUFFER_BYTES: usize = 256 * 1024;

/// A rollout as loaded from disk: the lines that parsed, in file order, and one warning per
/// damaged line that was skipped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadedRollout {
    pub lines: Vec<LoadedLine>,
    pub warnings: Vec<RolloutWarning>,
}

/// One parsed line and where it was in the file (1-based, counting every line, blank and
/// damaged ones included).
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedLine {
    pub line_number: usize,
    pub line: RolloutLine,
}

/// A damaged line that was skipped while loading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RolloutWarning {
    pub line_number: usize,
    pub damage: LineDamage,
    pub message: String,
}

/// What was wrong with a skipped line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineDamage {
    /// The last line ends without a line break and its JSON is incomplete: the writer stopped
    /// in the middle of it.
    Truncated,
    /// The line is not JSON (or not UTF-8).
    InvalidJson,
    /// The line is JSON but not a rollout line, or a known line type carries a payload of the
    /// wrong shape.
    InvalidShape,
}

impl LoadedRollout {
    /// The items of the loaded lines, in file order.
    pub fn items(&self) -> impl Iterator<Item = &RolloutItem> {
        self.lines.iter().map(|loaded| &loaded.line.item)
    }
}

/// Loads the rollout at `path`. Only a file that cannot be opened or read is an error.
pub fn read_rollout(path: &Path) -> Result<LoadedRollout, RolloutError> {
    let read_error = |source| RolloutError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = open_regular(path).map_err(read_error)?;
    parse_rollout(BufReader::with_capacity(READ_BUFFER_BYTES, file)).map_err(read_error)
}

/// Parses rollout JSONL from `reader`, keeping every payload. Lines are streamed, so only the
/// parsed lines are held in memory. Blank lines are skipped silently; damaged lines become
/// warnings.
pub fn parse_rollout(reader: impl BufRead) -> io::Result<LoadedRollout> {
    parse_with_detail(reader, PayloadDetail::Full)
}

/// Loads the rollout at `path` for replaying it (as `inspect` does): like [`read_rollout`], but
/// event payloads are reduced to the fields reconstruction reads (`type`, `turn_id`,
/// `num_turns`), as [`resume_rollout`] reads them. Not for rewriting the file.
pub fn read_rollout_for_replay(path: &Path) -> Result<LoadedRollout, RolloutError> {
    let read_error = |source| RolloutError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = open_regular(path).map_err(read_error)?;
    parse_with_detail(
        BufReader::with_capacity(READ_BUFFER_BYTES, file),
        PayloadDetail::ResumeSummary,
    )
    .map_err(read_error)
}

/// A resumed thread's state, read straight from its rollout file.
#[derive(Debug, Clone, PartialEq)]
pub struct ResumedRollout {
    pub session: ReconstructedSession,
    /// Damaged lines that were skipped.
    pub warnings: Vec<RolloutWarning>,
}

/// Reads the rollout at `path` and reconstructs it, for resuming. Cheaper than
/// [`read_rollout`] followed by [`reconstruct`]: event payloads are reduced to the fields
/// reconstruction reads while parsing, so they are never built in full. Use [`read_rollout`]
/// when the lines themselves are needed (forking, rewriting).
pub fn resume_rollout(path: &Path) -> Result<ResumedRollout, RolloutError> {
    let read_error = |source| RolloutError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = open_regular(path).map_err(read_error)?;
    let loaded = parse_with_detail(
        BufReader::with_capacity(READ_BUFFER_BYTES, file),
        PayloadDetail::ResumeSummary,
    )
    .map_err(read_error)?;
    Ok(ResumedRollout {
        session: reconstruct(&loaded),
        warnings: loaded.warnings,
    })
}

fn parse_with_detail(mut reader: impl BufRead, detail: PayloadDetail) -> io::Result<LoadedRollout> {
    let mut loaded = LoadedRollout::default();
    let mut buffer = Vec::new();
    let mut line_number = 0;
    loop {
        buffer.clear();
        if reader.read_until(b'\n', &mut buffer)? == 0 {
            break;
        }
        line_number += 1;
        let text = buffer.trim_ascii();
        if text.is_empty() {
            continue;
        }
        match parse_line(text, detail) {
            Ok(line) => loaded.lines.push(LoadedLine { line_number, line }),
            Err(error) => {
                let terminated = buffer.last() == Some(&b'\n');
                let warning = damaged_line_warning(line_number, terminated, &error);
                tracing::warn!("rollout {}; the line is skipped", warning.message);
                loaded.warnings.push(warning);
            }
        }
    }
    Ok(loaded)
}

fn damaged_line_warning(
    line_number: usize,
    terminated: bool,
    error: &serde_json::Error,
) -> RolloutWarning {
    let (damage, what) = match (error.classify(), terminated) {
        (Category::Eof | Category::Syntax, false) => (
            LineDamage::Truncated,
            "the last line is cut short (no line break, incomplete JSON)",
        ),
        (Category::Eof | Category::Syntax | Category::Io, _) => {
            (LineDamage::InvalidJson, "not valid JSON")
        }
        (Category::Data, _) => (LineDamage::InvalidShape, "not a valid rollout line"),
    };
    // serde_json places errors at "line 1" of the one-line input; only a non-zero column says
    // something about where the line is damaged.
    let full = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    let detail = full.strip_suffix(&position).unwrap_or(&full);
    let message = match error.column() {
        0 => format!("line {line_number}: {what}: {detail}"),
        column => format!("line {line_number}: {what}: {detail} (column {column})"),
    };
    RolloutWarning {
        line_number,
        damage,
        message,
    }
}
