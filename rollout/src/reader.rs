//! Tolerant rollout loading: every readable line is kept, every damaged one is reported.

use std::io;
use std::io::BufRead;
use std::io::BufReader;
use std::io::Read;
use std::path::Path;

use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::RolloutLine;
use codex_utils_fs::open_regular;
use codex_utils_progress::Progress;
use rayon::prelude::*;
use serde_json::error::Category;

use super::RolloutError;
use super::wire::PayloadDetail;
use super::wire::parse_line;
use super::wire::parse_line_from_reader;

/// Large enough that a typical rollout line is read with one buffer refill.
const READ_BUFFER_BYTES: usize = 256 * 1024;

/// Lines are parsed in batches of about this many bytes (a longer line is a batch of its own).
const BATCH_BYTES: usize = 1024 * 1024;

/// A line longer than this is parsed while it is read (see [`read_lines`]).
const LONG_LINE_BYTES: usize = 4 * BATCH_BYTES;

/// A file none of whose first this many lines is JSON is not a rollout: it is refused with one
/// error instead of one warning per line.
pub const JSON_PROBE_LINES: usize = 20;

/// A file that holds no JSON where a rollout would: how much of it was looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotARollout {
    /// [`JSON_PROBE_LINES`] lines were read and none of them was JSON.
    #[error("not a rollout: no JSON line in the first {0} lines")]
    FirstLines(usize),
    /// The whole file (this many lines) was read and none of its lines was JSON.
    #[error("not a rollout: no JSON line in its {0} lines")]
    WholeFile(usize),
}

/// Why a rollout could not be parsed at all (damaged lines are warnings, not failures).
#[derive(Debug)]
enum ParseFailure {
    Io(io::Error),
    NotARollout(NotARollout),
}

impl From<io::Error> for ParseFailure {
    fn from(error: io::Error) -> Self {
        Self::Io(error)
    }
}

impl ParseFailure {
    /// As a [`RolloutError`] naming `path`.
    fn for_path(self, path: &Path) -> RolloutError {
        match self {
            Self::Io(source) => RolloutError::Read {
                path: path.to_path_buf(),
                source,
            },
            Self::NotARollout(reason) => RolloutError::NotARollout {
                path: path.to_path_buf(),
                reason,
            },
        }
    }
}

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

/// Loads the rollout at `path`, every payload kept (what forking and rewriting need). Only a
/// file that cannot be opened or read, or that holds no JSON line among its first
/// [`JSON_PROBE_LINES`], is an error. `progress`, when given, counts the bytes read.
pub fn read_rollout(
    path: &Path,
    progress: Option<&Progress>,
) -> Result<LoadedRollout, RolloutError> {
    load_file(path, PayloadDetail::Full, progress)
}

/// Parses rollout JSONL from `reader`, keeping every payload. Lines are streamed, so only the
/// parsed lines are held in memory. Blank lines are skipped silently; damaged lines become
/// warnings; input without a JSON line among its first [`JSON_PROBE_LINES`] is an
/// [`io::ErrorKind::InvalidData`] error saying it is not a rollout.
pub fn parse_rollout(reader: impl BufRead) -> io::Result<LoadedRollout> {
    let mut lines = Vec::new();
    let warnings =
        read_lines(reader, PayloadDetail::Full, |line| lines.push(line)).map_err(|failure| {
            match failure {
                ParseFailure::Io(error) => error,
                ParseFailure::NotARollout(reason) => {
                    io::Error::new(io::ErrorKind::InvalidData, reason)
                }
            }
        })?;
    Ok(LoadedRollout { lines, warnings })
}

/// Loads the rollout at `path` for replaying it (as `inspect` does): like [`read_rollout`], but
/// event payloads are reduced to the fields replaying reads (`type`, `turn_id`, `num_turns`;
/// [`resume_rollout`] keeps a `token_count`'s `info` too). Not for rewriting the file.
pub fn read_rollout_for_replay(
    path: &Path,
    progress: Option<&Progress>,
) -> Result<LoadedRollout, RolloutError> {
    load_file(path, PayloadDetail::ReplaySummary, progress)
}

fn load_file(
    path: &Path,
    detail: PayloadDetail,
    progress: Option<&Progress>,
) -> Result<LoadedRollout, RolloutError> {
    let mut lines = Vec::new();
    let warnings = stream_file(path, detail, progress, |line| lines.push(line))?;
    Ok(LoadedRollout { lines, warnings })
}

/// The one reading pass every reader here shares: opens `path` (a regular file only), hands
/// each parsed line to `visit` as it is read, and returns the warnings of the damaged lines.
pub(super) fn stream_file(
    path: &Path,
    detail: PayloadDetail,
    progress: Option<&Progress>,
    visit: impl FnMut(LoadedLine),
) -> Result<Vec<RolloutWarning>, RolloutError> {
    let file = open_regular(path).map_err(|source| RolloutError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let counted = CountingReader {
        inner: file,
        progress,
    };
    read_lines(
        BufReader::with_capacity(READ_BUFFER_BYTES, counted),
        detail,
        visit,
    )
    .map_err(|failure| failure.for_path(path))
}

/// A reader that advances a progress bar by the bytes it reads.
struct CountingReader<'p, R> {
    inner: R,
    progress: Option<&'p Progress>,
}

impl<R: Read> Read for CountingReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        if let Some(progress) = self.progress {
            progress.inc(u64::try_from(read).unwrap_or(u64::MAX));
        }
        Ok(read)
    }
}

/// Reads every line, handing each parsed one to `visit`. Until a line turns out to be JSON (a
/// rollout line, or JSON of the wrong shape), the warnings of damaged lines are held back: when
/// none of the first [`JSON_PROBE_LINES`] lines (or of a shorter file's lines) is JSON, the
/// input is not a rollout and one [`NotARollout`] replaces them. A lone cut-short last line
/// still loads as a warning: that is a rollout whose writer stopped in its first line.
///
/// Lines are read in batches of about [`BATCH_BYTES`] and the lines of a batch are parsed in
/// parallel; `visit` and the warnings still see them one by one in file order, so the result is
/// the same as a line-by-line pass, and memory holds one batch beyond what `visit` keeps. A line
/// longer than [`LONG_LINE_BYTES`] is parsed as it is read instead, so its bytes and what they
/// parse into are not held at once.
fn read_lines(
    mut reader: impl BufRead,
    detail: PayloadDetail,
    mut visit: impl FnMut(LoadedLine),
) -> Result<Vec<RolloutWarning>, ParseFailure> {
    let mut lines = LineOutcomes::default();
    let mut batch = Vec::new();
    let mut ends: Vec<usize> = Vec::new();
    loop {
        batch.clear();
        ends.clear();
        let mut next = Fill::Line;
        while batch.len() < BATCH_BYTES {
            next = fill_line(&mut reader, &mut batch)?;
            match next {
                Fill::Line => ends.push(batch.len()),
                Fill::End | Fill::Long { .. } => break,
            }
        }
        if let Fill::End = next
            && ends.last().copied().unwrap_or(0) < batch.len()
        {
            // The last line, without a line break.
            ends.push(batch.len());
        }
        let starts = std::iter::once(0).chain(ends.iter().copied());
        let raw_lines: Vec<&[u8]> = starts
            .zip(&ends)
            .map(|(start, &end)| &batch[start..end])
            .collect();
        let parsed: Vec<Option<Result<RolloutLine, serde_json::Error>>> = raw_lines
            .par_iter()
            .map(|raw| {
                let text = raw.trim_ascii();
                (!text.is_empty()).then(|| parse_line(text, detail))
            })
            .collect();
        for (raw, parsed) in raw_lines.iter().zip(parsed) {
            let terminated = raw.last() == Some(&b'\n');
            lines.record(parsed, terminated, &mut visit)?;
        }
        match next {
            Fill::Line => {}
            Fill::End => break,
            Fill::Long { start } => {
                let head = batch.split_off(start);
                // A huge line leaves a huge buffer behind; the next batches do not need it.
                batch = Vec::new();
                let mut rest = RestOfLine::new(head, &mut reader);
                let parsed = parse_line_from_reader(&mut rest, detail);
                rest.skip_to_end()?;
                let parsed = match (parsed, rest.blank) {
                    (Err(_), true) => None,
                    (parsed, _) => Some(parsed),
                };
                lines.record(parsed, rest.terminated, &mut visit)?;
            }
        }
    }
    lines.finish()
}

/// How far [`fill_line`] read.
#[derive(Debug, Clone, Copy)]
enum Fill {
    /// A whole line, line break included.
    Line,
    /// The end of the input.
    End,
    /// The line starting at `start` of the buffer is longer than [`LONG_LINE_BYTES`]: the rest
    /// of it is still to be read.
    Long { start: usize },
}

/// Appends the next line of `reader` to `batch`, or as much of it as shows it is long.
fn fill_line(reader: &mut impl BufRead, batch: &mut Vec<u8>) -> io::Result<Fill> {
    let start = batch.len();
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(Fill::End);
        }
        let (taken, complete) = match memchr::memchr(b'\n', available) {
            Some(position) => (position + 1, true),
            None => (available.len(), false),
        };
        batch.extend_from_slice(&available[..taken]);
        reader.consume(taken);
        if complete {
            return Ok(Fill::Line);
        }
        if batch.len() - start > LONG_LINE_BYTES {
            return Ok(Fill::Long { start });
        }
    }
}

/// One long line as a reader: the bytes already read, then the rest of the line from the
/// input, line break included, then the end.
struct RestOfLine<'r, R> {
    head: io::Cursor<Vec<u8>>,
    input: &'r mut R,
    /// The line break was read.
    terminated: bool,
    /// Every byte so far was whitespace.
    blank: bool,
}

impl<'r, R: BufRead> RestOfLine<'r, R> {
    fn new(head: Vec<u8>, input: &'r mut R) -> Self {
        let blank = head.trim_ascii().is_empty();
        Self {
            head: io::Cursor::new(head),
            input,
            terminated: false,
            blank,
        }
    }

    /// Reads what the parser left of the line, so the input is at the next line.
    fn skip_to_end(&mut self) -> io::Result<()> {
        let mut sink = [0; 8192];
        while self.read(&mut sink)? > 0 {}
        Ok(())
    }
}

impl<R: BufRead> Read for RestOfLine<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let from_head = self.head.read(buf)?;
        if from_head > 0 {
            return Ok(from_head);
        }
        if self.terminated {
            return Ok(0);
        }
        let available = self.input.fill_buf()?;
        let wanted = available.len().min(buf.len());
        let taken = match memchr::memchr(b'\n', &available[..wanted]) {
            Some(position) => {
                self.terminated = true;
                position + 1
            }
            None => wanted,
        };
        buf[..taken].copy_from_slice(&available[..taken]);
        self.blank = self.blank && buf[..taken].trim_ascii().is_empty();
        self.input.consume(taken);
        Ok(taken)
    }
}

/// The warnings of a read so far, and whether a line has shown the input to be JSON.
#[derive(Default)]
struct LineOutcomes {
    line_number: usize,
    warnings: Vec<RolloutWarning>,
    /// Warnings held back until a line is JSON.
    held: Vec<RolloutWarning>,
    json_seen: bool,
}

impl LineOutcomes {
    /// Takes the next line's outcome (`None`: blank), handing a parsed line to `visit`.
    fn record(
        &mut self,
        parsed: Option<Result<RolloutLine, serde_json::Error>>,
        terminated: bool,
        visit: &mut impl FnMut(LoadedLine),
    ) -> Result<(), ParseFailure> {
        self.line_number += 1;
        let line_number = self.line_number;
        match parsed {
            None => {}
            Some(Ok(line)) => {
                self.json_seen = true;
                visit(LoadedLine { line_number, line });
            }
            Some(Err(error)) => {
                let warning = damaged_line_warning(line_number, terminated, &error);
                self.json_seen |= warning.damage == LineDamage::InvalidShape;
                self.held.push(warning);
            }
        }
        if self.json_seen {
            let warnings = &mut self.warnings;
            self.held
                .drain(..)
                .for_each(|warning| report(warning, warnings));
        } else if line_number >= JSON_PROBE_LINES && holds_non_json(&self.held) {
            return Err(ParseFailure::NotARollout(NotARollout::FirstLines(
                line_number,
            )));
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<RolloutWarning>, ParseFailure> {
        if !self.json_seen && holds_non_json(&self.held) {
            return Err(ParseFailure::NotARollout(NotARollout::WholeFile(
                self.line_number,
            )));
        }
        let warnings = &mut self.warnings;
        self.held
            .into_iter()
            .for_each(|warning| report(warning, warnings));
        Ok(self.warnings)
    }
}

/// Whether `warnings` name a line that is not JSON at all (beyond a cut-short last line).
fn holds_non_json(warnings: &[RolloutWarning]) -> bool {
    warnings
        .iter()
        .any(|warning| warning.damage == LineDamage::InvalidJson)
}

/// Logs a skipped line and records its warning.
fn report(warning: RolloutWarning, warnings: &mut Vec<RolloutWarning>) {
    tracing::warn!("rollout {}; the line is skipped", warning.message);
    warnings.push(warning);
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
