//! Tolerant rollout loading: every readable line is kept, every damaged one is reported.

use std::io;
use std::io::BufRead;
use std::io::BufReader;
use std::io::Read;
use std::io::Seek;
use std::ops::ControlFlow;
use std::path::Path;

use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::RolloutLine;
use codex_utils_fs::open_regular;
use codex_utils_progress::Progress;
use rayon::prelude::*;
use serde_json::error::Category;

use super::RolloutError;
use super::line_input::Fill;
use super::line_input::RestOfLine;
use super::line_input::fill_line;
use super::wire::PayloadDetail;
use super::wire::parse_line;
use super::wire::parse_line_from_reader;

/// Large enough that a typical rollout line is read with one buffer refill.
const READ_BUFFER_BYTES: usize = 256 * 1024;

/// Lines are parsed in batches of about this many bytes (a longer line is a batch of its own).
const BATCH_BYTES: usize = 1024 * 1024;

/// A line longer than this is parsed while it is read (see [`read_lines`]).
pub(super) const LONG_LINE_BYTES: usize = 4 * BATCH_BYTES;

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
    let warnings = read_lines(
        reader,
        &PayloadDetail::Full,
        Position::START,
        Parsing::Parallel,
        |read| {
            lines.push(read.loaded());
            ControlFlow::Continue(())
        },
    )
    .map_err(|failure| match failure {
        ParseFailure::Io(error) => error,
        ParseFailure::NotARollout(reason) => io::Error::new(io::ErrorKind::InvalidData, reason),
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
    let warnings = stream_file(
        path,
        &detail,
        Position::START,
        Parsing::Parallel,
        progress,
        |read| {
            lines.push(read.loaded());
            ControlFlow::Continue(())
        },
    )?;
    Ok(LoadedRollout { lines, warnings })
}

/// Reads the rollout at `path` as [`read_rollout_for_replay`] does, but hands each line to
/// `visit` as soon as it is parsed instead of collecting them, so a caller can work on the
/// lines on another thread while this one reads the rest of the file (and parses it: the
/// rayon pool is left to the caller). `visit` may stop the read early
/// ([`ControlFlow::Break`]); the warnings of the damaged lines read so far are returned either
/// way.
pub fn stream_rollout_for_replay(
    path: &Path,
    progress: Option<&Progress>,
    mut visit: impl FnMut(LoadedLine) -> ControlFlow<()>,
) -> Result<Vec<RolloutWarning>, RolloutError> {
    stream_file(
        path,
        &PayloadDetail::ReplaySummary,
        Position::START,
        Parsing::ReadingThread,
        progress,
        |read| visit(read.loaded()),
    )
}

/// How the reading pass turns one line into a value.
///
/// Implementations must read a line alike from its bytes and from a reader, and report a line
/// they cannot take as a `serde_json` error (which becomes the line's warning).
pub(super) trait LineParser: Sync {
    type Parsed: Send;
    /// Parses one line (surrounding whitespace trimmed).
    fn parse(&self, text: &[u8]) -> serde_json::Result<Self::Parsed>;
    /// Parses one line as it is read from `reader`, which ends where the line does (a line too
    /// long to hold beside what it parses into).
    fn parse_reader(&self, reader: impl Read) -> serde_json::Result<Self::Parsed>;
}

impl LineParser for PayloadDetail {
    type Parsed = RolloutLine;

    fn parse(&self, text: &[u8]) -> serde_json::Result<RolloutLine> {
        parse_line(text, *self)
    }

    fn parse_reader(&self, reader: impl Read) -> serde_json::Result<RolloutLine> {
        parse_line_from_reader(reader, *self)
    }
}

/// Where a reading pass parses the lines of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Parsing {
    /// On the rayon pool, in parallel: for a caller that waits for the whole file.
    Parallel,
    /// On the thread that reads: for a caller that works on the lines on another thread
    /// meanwhile, and would compete with the pool for the same cores.
    ReadingThread,
}

/// Where a reading pass starts: a byte offset at the start of a line, and how many lines come
/// before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Position {
    pub offset: u64,
    pub lines_before: usize,
}

impl Position {
    pub const START: Self = Self {
        offset: 0,
        lines_before: 0,
    };
}

/// One line as the reading pass hands it over.
pub(super) struct ReadLine<'a, T> {
    /// 1-based, counting every line of the file.
    pub line_number: usize,
    /// Where the line starts in the file.
    pub offset: u64,
    /// The line's bytes; empty for a line longer than [`LONG_LINE_BYTES`], which is parsed as
    /// it is read.
    pub raw: &'a [u8],
    pub parsed: T,
}

impl ReadLine<'_, RolloutLine> {
    pub(super) fn loaded(self) -> LoadedLine {
        LoadedLine {
            line_number: self.line_number,
            line: self.parsed,
        }
    }
}

/// The one reading pass every reader here shares: opens `path` (a regular file only), reads it
/// from `from`, hands each parsed line to `visit` as it is read (until `visit` breaks), and
/// returns the warnings of the damaged lines.
pub(super) fn stream_file<P: LineParser>(
    path: &Path,
    parser: &P,
    from: Position,
    parsing: Parsing,
    progress: Option<&Progress>,
    visit: impl FnMut(ReadLine<'_, P::Parsed>) -> ControlFlow<()>,
) -> Result<Vec<RolloutWarning>, RolloutError> {
    let read_error = |source| RolloutError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut file = open_regular(path).map_err(read_error)?;
    if from.offset > 0 {
        file.seek(io::SeekFrom::Start(from.offset))
            .map_err(read_error)?;
    }
    let counted = CountingReader {
        inner: file,
        progress,
    };
    read_lines(
        BufReader::with_capacity(READ_BUFFER_BYTES, counted),
        parser,
        from,
        parsing,
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

/// Reads every line, handing each parsed one to `visit`, and stops early when `visit` breaks.
/// Until a line turns out to be JSON (a
/// rollout line, or JSON of the wrong shape), the warnings of damaged lines are held back: when
/// none of the first [`JSON_PROBE_LINES`] lines (or of a shorter file's lines) is JSON, the
/// input is not a rollout and one [`NotARollout`] replaces them. A lone cut-short last line
/// still loads as a warning: that is a rollout whose writer stopped in its first line.
///
/// Lines are read in batches of about [`BATCH_BYTES`] and the lines of a batch are parsed in
/// parallel (with [`Parsing::Parallel`]); `visit` and the warnings still see them one by one in file order, so the result is
/// the same as a line-by-line pass, and memory holds one batch beyond what `visit` keeps. A line
/// longer than [`LONG_LINE_BYTES`] is parsed as it is read instead, so its bytes and what they
/// parse into are not held at once.
fn read_lines<P: LineParser>(
    mut reader: impl BufRead,
    parser: &P,
    from: Position,
    parsing: Parsing,
    mut visit: impl FnMut(ReadLine<'_, P::Parsed>) -> ControlFlow<()>,
) -> Result<Vec<RolloutWarning>, ParseFailure> {
    let mut lines = LineOutcomes {
        line_number: from.lines_before,
        // Reading from a line after the first: the file is known to be a rollout.
        json_seen: from.lines_before > 0,
        ..LineOutcomes::default()
    };
    let mut batch_offset = from.offset;
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
        let raw_lines: Vec<(usize, &[u8])> = starts
            .zip(&ends)
            .map(|(start, &end)| (start, &batch[start..end]))
            .collect();
        let parse = |(_, raw): &(usize, &[u8])| {
            let text = raw.trim_ascii();
            (!text.is_empty()).then(|| parser.parse(text))
        };
        let parsed: Vec<Option<serde_json::Result<P::Parsed>>> = match parsing {
            Parsing::Parallel => raw_lines.par_iter().map(parse).collect(),
            Parsing::ReadingThread => raw_lines.iter().map(parse).collect(),
        };
        for ((start, raw), parsed) in raw_lines.iter().zip(parsed) {
            let terminated = raw.last() == Some(&b'\n');
            let offset = batch_offset + *start as u64;
            let flow = lines.record(parsed, terminated, |line_number, parsed| {
                visit(ReadLine {
                    line_number,
                    offset,
                    raw,
                    parsed,
                })
            })?;
            if flow.is_break() {
                return lines.finish();
            }
        }
        match next {
            Fill::Line => batch_offset += batch.len() as u64,
            Fill::End => break,
            Fill::Long { start } => {
                let offset = batch_offset + start as u64;
                let head = batch.split_off(start);
                // A huge line leaves a huge buffer behind; the next batches do not need it.
                batch = Vec::new();
                let mut rest = RestOfLine::new(head, &mut reader);
                let parsed = parser.parse_reader(&mut rest);
                rest.skip_to_end()?;
                let parsed = match (parsed, rest.blank) {
                    (Err(_), true) => None,
                    (parsed, _) => Some(parsed),
                };
                let flow = lines.record(parsed, rest.terminated, |line_number, parsed| {
                    visit(ReadLine {
                        line_number,
                        offset,
                        raw: &[],
                        parsed,
                    })
                })?;
                if flow.is_break() {
                    return lines.finish();
                }
                batch_offset = offset + rest.bytes;
            }
        }
    }
    lines.finish()
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
    /// Takes the next line's outcome (`None`: blank), handing a parsed line and its number to
    /// `visit`; what `visit` answers is passed on.
    fn record<T>(
        &mut self,
        parsed: Option<serde_json::Result<T>>,
        terminated: bool,
        visit: impl FnOnce(usize, T) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, ParseFailure> {
        self.line_number += 1;
        let line_number = self.line_number;
        let mut flow = ControlFlow::Continue(());
        match parsed {
            None => {}
            Some(Ok(parsed)) => {
                self.json_seen = true;
                flow = visit(line_number, parsed);
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
        Ok(flow)
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
