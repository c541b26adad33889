//! Where a scripted session's rollout lines go: a rollout file as they happen when one is given,
//! and a copy a `resume` turn re-reads (in memory, in an unnamed temporary file, or none).

use std::fs::File;
use std::io;
use std::io::BufRead;
use std::io::BufReader;
use std::io::BufWriter;
use std::io::Seek as _;
use std::io::SeekFrom;
use std::io::Write as _;
use std::path::Path;

use codex_core::RolloutSink;
use codex_core::RolloutSinkError;
use codex_protocol::RolloutLine;
use codex_rollout::LineOrdinals;
use codex_rollout::RolloutError;
use codex_rollout::RolloutWriter;
use codex_utils_fs::Existing;

use super::ScriptError;

/// Where a sink keeps the copy of its lines that a `resume` turn of a script re-reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadBack {
    /// In memory: [`ScriptSink::lines`] and [`ScriptSink::finish`] hand them over (tests,
    /// `compare`). Memory grows with every line.
    InMemory,
    /// In an unnamed temporary file the operating system deletes when the sink is dropped:
    /// memory stays flat however long the session (`session run` of a script that resumes).
    TemporaryFile,
    /// Nowhere: the session is never rebuilt from its lines.
    Never,
}

/// The lines one session run wrote, in order, optionally also appended to a rollout file (each
/// line whole and flushed before the next is produced). [`ScriptSink::finish`] ends the run.
#[derive(Debug)]
pub struct ScriptSink {
    copy: Copy,
    file: Option<RolloutWriter>,
    /// The sink's own numbering of the lines it is handed (a paginated thread's `ordinal`s),
    /// so its copy and its file carry the same numbers; omitted unless
    /// [`ScriptSink::number_lines`] turns it on.
    ordinals: LineOrdinals,
}

/// The copy a sink keeps for reading back.
#[derive(Debug)]
enum Copy {
    Memory(Vec<RolloutLine>),
    Spool {
        writer: BufWriter<File>,
        /// A read-back moved the file's offset (shared with the reading handle) off its end.
        rewound: bool,
    },
    Nothing,
}

impl Default for ScriptSink {
    fn default() -> Self {
        Self::memory()
    }
}

impl ScriptSink {
    /// Lines kept in memory only.
    pub fn memory() -> Self {
        Self {
            copy: Copy::Memory(Vec::new()),
            file: None,
            ordinals: LineOrdinals::Omitted,
        }
    }

    /// Lines written to no rollout file, their copy kept as `read_back` says.
    pub fn new(read_back: ReadBack) -> Result<Self, ScriptError> {
        Ok(Self {
            copy: Copy::new(read_back)?,
            file: None,
            ordinals: LineOrdinals::Omitted,
        })
    }

    /// Writes every line to a new rollout at `path`, by way of a temporary file beside it that
    /// [`ScriptSink::finish`] renames into place: until then an existing file there is left as
    /// it was (and replaced only with [`Existing::Replace`]). The copy is kept as `read_back`
    /// says.
    pub fn new_file(
        path: &Path,
        existing: Existing,
        read_back: ReadBack,
    ) -> Result<Self, ScriptError> {
        Ok(Self {
            copy: Copy::new(read_back)?,
            file: Some(RolloutWriter::staged(
                path,
                existing,
                LineOrdinals::Omitted,
            )?),
            ordinals: LineOrdinals::Omitted,
        })
    }

    /// Appends to the existing rollout `path`, continuing its line numbering as `ordinals`
    /// says ([`LineOrdinals::after`] its highest ordinal); the new lines are also kept in memory.
    pub fn append_to_file(path: &Path, ordinals: LineOrdinals) -> Result<Self, RolloutError> {
        Ok(Self {
            copy: Copy::Memory(Vec::new()),
            file: Some(RolloutWriter::open_existing(path, ordinals)?),
            ordinals: LineOrdinals::Omitted,
        })
    }

    /// Numbers the lines handed over from now on as `ordinals` says (each line's `ordinal` is
    /// replaced), before they reach the copy and the file: a new paginated thread's rollout
    /// from 0.
    pub fn number_lines(&mut self, ordinals: LineOrdinals) {
        self.ordinals = ordinals;
    }

    /// The lines kept in memory ([`ReadBack::InMemory`]), in order; none with another
    /// [`ReadBack`].
    pub fn lines(&self) -> &[RolloutLine] {
        match &self.copy {
            Copy::Memory(lines) => lines,
            Copy::Spool { .. } | Copy::Nothing => &[],
        }
    }

    /// Every line written so far as rollout text (one JSON line each), after `earlier` lines
    /// written before this sink: what a `resume` turn reads back. `None` when the sink keeps no
    /// copy ([`ReadBack::Never`]).
    pub(crate) fn read_back<'a>(
        &'a mut self,
        earlier: &'a [u8],
    ) -> io::Result<Option<Box<dyn BufRead + 'a>>> {
        match &mut self.copy {
            Copy::Memory(lines) => {
                let mut text = earlier.to_vec();
                for line in lines.iter() {
                    serde_json::to_writer(&mut text, line)?;
                    text.push(b'\n');
                }
                Ok(Some(Box::new(io::Cursor::new(text))))
            }
            Copy::Spool { writer, rewound } => {
                writer.flush()?;
                // The reading handle shares the file's offset: the next line written seeks
                // back to the end first.
                let mut reader = writer.get_ref().try_clone()?;
                let end = reader.seek(SeekFrom::End(0))?;
                reader.seek(SeekFrom::Start(0))?;
                *rewound = true;
                let file = BufReader::new(io::Read::take(reader, end));
                Ok(Some(Box::new(io::Read::chain(earlier, file))))
            }
            Copy::Nothing => Ok(None),
        }
    }

    /// Rewrites every line written so far with `change` (given them in order; it must keep
    /// their number): the copy and the rollout file alike. Needs a copy to read them from
    /// ([`ReadBack::Never`] keeps none) and a rollout file this run created, if any.
    pub(crate) fn rewrite(
        &mut self,
        change: impl FnOnce(&mut Vec<RolloutLine>) -> Result<(), ScriptError>,
    ) -> Result<(), ScriptError> {
        let mut lines = match &mut self.copy {
            Copy::Memory(lines) => std::mem::take(lines),
            Copy::Spool { .. } => {
                let text = self.read_back(&[]).map_err(ScriptError::Reload)?;
                let loaded = match text {
                    Some(text) => {
                        codex_rollout::parse_rollout(text).map_err(ScriptError::Reload)?
                    }
                    None => codex_rollout::LoadedRollout::default(),
                };
                loaded.lines.into_iter().map(|loaded| loaded.line).collect()
            }
            Copy::Nothing => {
                return Err(ScriptError::Reload(io::Error::other(
                    "the session keeps no copy of them to rewrite",
                )));
            }
        };
        change(&mut lines)?;
        if let Some(file) = &mut self.file {
            file.rewrite(&lines)?;
        }
        match &mut self.copy {
            Copy::Memory(kept) => *kept = lines,
            Copy::Spool { writer, rewound } => {
                writer.flush().map_err(ScriptError::Spool)?;
                writer.get_ref().set_len(0).map_err(ScriptError::Spool)?;
                writer
                    .seek(SeekFrom::Start(0))
                    .map_err(ScriptError::Spool)?;
                *rewound = false;
                for line in &lines {
                    Copy::append_to_spool(writer, rewound, line).map_err(ScriptError::Spool)?;
                }
            }
            Copy::Nothing => {}
        }
        Ok(())
    }

    /// Ends the run: a new rollout file is renamed into place (an appended one has its lines
    /// already). Returns the lines kept in memory (none unless [`ReadBack::InMemory`]).
    pub fn finish(self) -> Result<Vec<RolloutLine>, RolloutError> {
        if let Some(file) = self.file {
            file.finish()?;
        }
        Ok(match self.copy {
            Copy::Memory(lines) => lines,
            Copy::Spool { .. } | Copy::Nothing => Vec::new(),
        })
    }
}

impl Copy {
    fn new(read_back: ReadBack) -> Result<Self, ScriptError> {
        Ok(match read_back {
            ReadBack::InMemory => Copy::Memory(Vec::new()),
            ReadBack::TemporaryFile => Copy::Spool {
                writer: BufWriter::new(tempfile::tempfile().map_err(ScriptError::Spool)?),
                rewound: false,
            },
            ReadBack::Never => Copy::Nothing,
        })
    }

    fn append_to_spool(
        writer: &mut BufWriter<File>,
        rewound: &mut bool,
        line: &RolloutLine,
    ) -> io::Result<()> {
        if *rewound {
            writer.seek(SeekFrom::End(0))?;
            *rewound = false;
        }
        serde_json::to_writer(&mut *writer, line)?;
        writer.write_all(b"\n")
    }
}

impl RolloutSink for ScriptSink {
    fn append(&mut self, mut line: RolloutLine) -> Result<(), RolloutSinkError> {
        if let Some(ordinal) = self.ordinals.take() {
            line.ordinal = Some(ordinal);
        }
        if let Some(file) = &mut self.file {
            file.append_line(&line)
                .map_err(|error| RolloutSinkError(Box::new(error)))?;
        }
        match &mut self.copy {
            Copy::Memory(lines) => lines.push(line),
            Copy::Spool { writer, rewound } => Copy::append_to_spool(writer, rewound, &line)
                .map_err(|error| RolloutSinkError(Box::new(ScriptError::Spool(error))))?,
            Copy::Nothing => {}
        }
        Ok(())
    }
}
