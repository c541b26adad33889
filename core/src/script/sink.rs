//! Where a scripted session's rollout lines go: always kept in memory (a `resume` turn re-reads
//! them), and written to a file as they happen when one is given.

use std::path::Path;

use codex_protocol::RolloutLine;

use crate::rollout::LineOrdinals;
use crate::rollout::LoadedRollout;
use crate::rollout::RolloutError;
use crate::rollout::RolloutWriter;
use crate::session::RolloutSink;
use crate::session::RolloutSinkError;

/// The lines one session run wrote, in order, optionally also appended to a rollout file (each
/// line whole and flushed before the next is produced).
#[derive(Debug, Default)]
pub struct ScriptSink {
    lines: Vec<RolloutLine>,
    file: Option<RolloutWriter>,
}

impl ScriptSink {
    /// Lines kept in memory only.
    pub fn memory() -> Self {
        Self::default()
    }

    /// Starts `path` afresh (an existing file is replaced) and writes every line to it too.
    pub fn create_file(path: &Path) -> Result<Self, RolloutError> {
        std::fs::write(path, b"").map_err(|source| RolloutError::Create {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(Self {
            lines: Vec::new(),
            file: Some(RolloutWriter::open_existing(path, LineOrdinals::Omitted)?),
        })
    }

    /// Appends to the existing rollout `path` that `loaded` was read from, continuing its line
    /// numbering.
    pub fn append_to_file(path: &Path, loaded: &LoadedRollout) -> Result<Self, RolloutError> {
        Ok(Self {
            lines: Vec::new(),
            file: Some(RolloutWriter::open_existing(
                path,
                LineOrdinals::continuing(loaded),
            )?),
        })
    }

    /// The lines written through this sink, in order.
    pub fn lines(&self) -> &[RolloutLine] {
        &self.lines
    }

    pub fn into_lines(self) -> Vec<RolloutLine> {
        self.lines
    }
}

impl RolloutSink for ScriptSink {
    fn append(&mut self, line: RolloutLine) -> Result<(), RolloutSinkError> {
        if let Some(file) = &mut self.file {
            file.append_line(&line)
                .map_err(|error| RolloutSinkError(Box::new(error)))?;
        }
        self.lines.push(line);
        Ok(())
    }
}
