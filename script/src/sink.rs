//! Where a scripted session's rollout lines go: always kept in memory (a `resume` turn re-reads
//! them), and written to a file as they happen when one is given.

use std::path::Path;

use codex_core::RolloutSink;
use codex_core::RolloutSinkError;
use codex_protocol::RolloutLine;
use codex_rollout::LineOrdinals;
use codex_rollout::RolloutError;
use codex_rollout::RolloutWriter;
use codex_utils_fs::Existing;

/// The lines one session run wrote, in order, optionally also appended to a rollout file (each
/// line whole and flushed before the next is produced). [`ScriptSink::finish`] ends the run.
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

    /// Writes every line to a new rollout at `path` too, by way of a temporary file beside it
    /// that [`ScriptSink::finish`] renames into place: until then an existing file there is left
    /// as it was (and replaced only with [`Existing::Replace`]).
    pub fn new_file(path: &Path, existing: Existing) -> Result<Self, RolloutError> {
        Ok(Self {
            lines: Vec::new(),
            file: Some(RolloutWriter::staged(
                path,
                existing,
                LineOrdinals::Omitted,
            )?),
        })
    }

    /// Appends to the existing rollout `path`, continuing its line numbering as `ordinals`
    /// says ([`LineOrdinals::after`] its highest ordinal).
    pub fn append_to_file(path: &Path, ordinals: LineOrdinals) -> Result<Self, RolloutError> {
        Ok(Self {
            lines: Vec::new(),
            file: Some(RolloutWriter::open_existing(path, ordinals)?),
        })
    }

    /// The lines written through this sink, in order.
    pub fn lines(&self) -> &[RolloutLine] {
        &self.lines
    }

    /// Ends the run: a new rollout file is renamed into place (an appended one has its lines
    /// already). Returns every line written.
    pub fn finish(self) -> Result<Vec<RolloutLine>, RolloutError> {
        if let Some(file) = self.file {
            file.finish()?;
        }
        Ok(self.lines)
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
