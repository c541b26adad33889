//! Append-only rollout writing: one whole line per call, flushed before the call returns.

use std::fs;
use std::fs::File;
use std::fs::OpenOptions;
use std::io::Read;
use std::io::Seek;
use std::io::SeekFrom;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

use codex_protocol::rollout::HistoryMode;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::RolloutLine;
use codex_utils_fs::Existing;
use codex_utils_fs::StagedFile;
use jiff::Timestamp;

use super::LoadedRollout;
use super::RolloutError;

/// Directory under `$CODEX_HOME` holding the dated rollout tree.
const SESSIONS_DIR: &str = "sessions";

/// Whether lines carry the `ordinal` key (paginated history mode writes it; legacy mode does
/// not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineOrdinals {
    Omitted,
    /// Lines are numbered from `next` upwards.
    Sequential {
        next: u64,
    },
}

impl LineOrdinals {
    /// The numbering of a new rollout written in `mode`: from 0 when paginated, none when
    /// legacy.
    pub fn from_start(mode: HistoryMode) -> Self {
        match mode {
            HistoryMode::Legacy => Self::Omitted,
            HistoryMode::Paginated => Self::Sequential { next: 0 },
        }
    }

    /// The ordinal the next line takes (`None` when lines carry none); the numbering moves on.
    pub fn take(&mut self) -> Option<u64> {
        match self {
            Self::Omitted => None,
            Self::Sequential { next } => {
                let ordinal = *next;
                *next = next.saturating_add(1);
                Some(ordinal)
            }
        }
    }

    /// Continues the numbering of a loaded rollout: sequential after its highest ordinal when
    /// its lines carry ordinals, omitted otherwise.
    pub fn continuing(loaded: &LoadedRollout) -> Self {
        Self::after(
            loaded
                .lines
                .iter()
                .filter_map(|loaded| loaded.line.ordinal)
                .max(),
        )
    }

    /// Sequential after `last_ordinal` (the highest ordinal a rollout's lines carry), omitted
    /// when there is none.
    pub fn after(last_ordinal: Option<u64>) -> Self {
        match last_ordinal {
            Some(last) => Self::Sequential {
                next: last.saturating_add(1),
            },
            None => Self::Omitted,
        }
    }
}

/// Writes rollout lines to one file. Each line is serialized completely, written with a single
/// `write_all` (the file is opened in append mode) and flushed before the call returns, so a crash
/// can lose at most the line being written. A [`RolloutWriter::staged`] rollout is written the
/// same way to a temporary file beside its destination, which [`RolloutWriter::finish`] renames
/// into place.
#[derive(Debug)]
pub struct RolloutWriter {
    file: RolloutFile,
    path: PathBuf,
    ordinals: LineOrdinals,
    buffer: Vec<u8>,
}

/// Where a writer's lines go.
#[derive(Debug)]
enum RolloutFile {
    /// The rollout file itself, opened for appending.
    Direct(File),
    /// A temporary file that becomes the rollout when the writer finishes.
    Staged(StagedFile),
}

impl RolloutFile {
    fn file(&mut self) -> &mut File {
        match self {
            Self::Direct(file) => file,
            Self::Staged(staged) => staged.file_mut(),
        }
    }
}

/// `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<thread id>.jsonl`, dated in UTC.
pub fn rollout_path(codex_home: &Path, created_at: Timestamp, thread_id: &str) -> PathBuf {
    let day = created_at.strftime("%Y/%m/%d").to_string();
    let stamp = created_at.strftime("%Y-%m-%dT%H-%M-%S");
    codex_home
        .join(SESSIONS_DIR)
        .join(day)
        .join(format!("rollout-{stamp}-{thread_id}.jsonl"))
}

impl RolloutWriter {
    /// Creates a new rollout file (and its dated directories) for a thread. Fails if the file
    /// already exists, so an existing thread is never overwritten.
    pub fn create(
        codex_home: &Path,
        created_at: Timestamp,
        thread_id: &str,
        ordinals: LineOrdinals,
    ) -> Result<Self, RolloutError> {
        let path = rollout_path(codex_home, created_at, thread_id);
        let create_error = |source| RolloutError::Create {
            path: path.clone(),
            source,
        };
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(create_error)?;
        }
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(&path)
            .map_err(create_error)?;
        Ok(Self::with_file(file, path, ordinals))
    }

    /// Reopens an existing rollout for appending (resume). When the previous writer died in the
    /// middle of a line, that fragment is closed with a line break first so it stays one damaged
    /// line instead of corrupting the next line written.
    pub fn open_existing(path: &Path, ordinals: LineOrdinals) -> Result<Self, RolloutError> {
        let open_error = |source| RolloutError::Open {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .map_err(open_error)?;
        let length = file.metadata().map_err(open_error)?.len();
        if length > 0 {
            let mut last = [0u8; 1];
            file.seek(SeekFrom::End(-1)).map_err(open_error)?;
            file.read_exact(&mut last).map_err(open_error)?;
            if last[0] != b'\n' {
                tracing::warn!(
                    "rollout {} ends in the middle of a line; that line is closed before appending",
                    path.display()
                );
                file.write_all(b"\n").map_err(open_error)?;
                file.flush().map_err(open_error)?;
            }
        }
        Ok(Self::with_file(file, path.to_path_buf(), ordinals))
    }

    /// Starts a rollout at `path` written to a temporary file beside it: `path` itself only
    /// changes when [`RolloutWriter::finish`] renames the complete file into place, so an
    /// existing file there (replaced only with [`Existing::Replace`]) survives a failed run.
    pub fn staged(
        path: &Path,
        existing: Existing,
        ordinals: LineOrdinals,
    ) -> Result<Self, RolloutError> {
        let staged = StagedFile::create(path, existing).map_err(RolloutError::Output)?;
        Ok(Self {
            file: RolloutFile::Staged(staged),
            path: path.to_path_buf(),
            ordinals,
            buffer: Vec::new(),
        })
    }

    fn with_file(file: File, path: PathBuf, ordinals: LineOrdinals) -> Self {
        Self {
            file: RolloutFile::Direct(file),
            path,
            ordinals,
            buffer: Vec::new(),
        }
    }

    /// Ends the writing: a staged rollout is synced and renamed into place; a direct one has
    /// every line in the file already.
    pub fn finish(self) -> Result<(), RolloutError> {
        match self.file {
            RolloutFile::Direct(_) => Ok(()),
            RolloutFile::Staged(staged) => staged.commit().map_err(RolloutError::Output),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `item` stamped with `timestamp` (UTC ISO-8601, from the session's clock) and the
    /// next ordinal when ordinals are on.
    pub fn append(&mut self, timestamp: &str, item: &RolloutItem) -> Result<(), RolloutError> {
        let mut line = RolloutLine::new(timestamp, item.clone());
        line.ordinal = self.take_ordinal();
        self.write_line(&line)
    }

    /// Appends a complete line as given, except that its ordinal is replaced by the writer's own
    /// numbering when ordinals are on (copied fork lines are renumbered this way).
    pub fn append_line(&mut self, line: &RolloutLine) -> Result<(), RolloutError> {
        match self.take_ordinal() {
            Some(ordinal) => {
                let mut numbered = line.clone();
                numbered.ordinal = Some(ordinal);
                self.write_line(&numbered)
            }
            None => self.write_line(line),
        }
    }

    /// Replaces every line written so far with `lines` (the thread rewritten, as a test does
    /// between runs), kept as given. Only a staged rollout, not in place yet, is rewritten: a
    /// file that existed before the writer is only ever appended to.
    pub fn rewrite(&mut self, lines: &[RolloutLine]) -> Result<(), RolloutError> {
        let path = self.path.clone();
        let write_error = |source| RolloutError::Write {
            path: path.clone(),
            source,
        };
        match &mut self.file {
            RolloutFile::Direct(_) => {
                return Err(write_error(std::io::Error::other(
                    "a rollout that existed before this run is appended to, never rewritten",
                )));
            }
            RolloutFile::Staged(staged) => {
                let file = staged.file_mut();
                file.set_len(0).map_err(write_error)?;
                file.seek(SeekFrom::Start(0)).map_err(write_error)?;
            }
        }
        lines.iter().try_for_each(|line| self.write_line(line))
    }

    /// Forces written lines to stable storage (the flush after each line only hands them to the
    /// operating system).
    pub fn sync(&mut self) -> Result<(), RolloutError> {
        self.file
            .file()
            .sync_data()
            .map_err(|source| RolloutError::Write {
                path: self.path.clone(),
                source,
            })
    }

    fn take_ordinal(&mut self) -> Option<u64> {
        self.ordinals.take()
    }

    fn write_line(&mut self, line: &RolloutLine) -> Result<(), RolloutError> {
        self.buffer.clear();
        serde_json::to_writer(&mut self.buffer, line).map_err(|source| {
            RolloutError::Serialize {
                line_type: line.item.line_type().to_string(),
                source,
            }
        })?;
        self.buffer.push(b'\n');
        let write_error = |source| RolloutError::Write {
            path: self.path.clone(),
            source,
        };
        let file = self.file.file();
        file.write_all(&self.buffer).map_err(write_error)?;
        file.flush().map_err(write_error)
    }
}
