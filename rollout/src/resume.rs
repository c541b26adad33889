//! Resuming straight from a file: a skimming pass over every line, then a full read of the
//! lines reconstruction reads.
//!
//! The first pass leaves a few bytes of [`LineFacts`] behind per line for the segment scan and
//! gathers the [`RolloutDigest`]; most lines are only skimmed (see [`super::skim`]), so the
//! history before the newest compaction is never built. The scan then says which line is the
//! oldest one reconstruction reads (the newest surviving compaction's turn, in a long rollout),
//! and the second pass parses the lines from there on, moving their history into the session.
//! Memory is bounded by the history since the newest compaction, not by the file. Should the
//! second pass not find the lines the first one counted (a damaged line the skim could not
//! see, or a file changed in between), the rollout is read again in full, every line parsed.

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::path::Path;

use codex_protocol::rollout::EVENT_MSG_LINE_TYPE;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::SessionMeta;
use codex_protocol::rollout::TOKEN_COUNT_EVENT_TYPE;
use codex_protocol::rollout::TurnContextItem;
use codex_release::RolloutEvidence;
use codex_utils_progress::Progress;
use serde_json::Value;

use super::HistorySequence;
use super::LoadedLine;
use super::ReconstructedSession;
use super::RolloutError;
use super::RolloutWarning;
use super::reader::Parsing;
use super::reader::Position;
use super::reader::ReadLine;
use super::reader::stream_file;
use super::reconstruct::Window;
use super::reconstruct::oldest_line_needed;
use super::reconstruct::rebuild;
use super::reconstruct::reconstruct_lines;
use super::release::observe_line_type;
use super::release::observe_release;
use super::segments::EventFact;
use super::segments::LineFacts;
use super::segments::scan_segments;
use super::skim::Scanned;
use super::skim::Skimmed;
use super::skim::SkimmedKind;
use super::skim::Skimming;
use super::wire::PayloadDetail;
use super::wire::parse_line;

/// A resumed thread's state, read from its rollout.
#[derive(Debug, Clone, PartialEq)]
pub struct ResumedRollout {
    pub session: ReconstructedSession,
    /// Damaged lines that were skipped.
    pub warnings: Vec<RolloutWarning>,
    /// What else the continued thread needs of its lines.
    pub digest: RolloutDigest,
}

impl ResumedRollout {
    /// Reconstructs loaded lines, copying the history they hold (see [`resume_rollout`] for the
    /// pass that moves it). No damaged lines are reported.
    pub fn of_lines(lines: &[LoadedLine]) -> Self {
        Self {
            session: reconstruct_lines(lines),
            warnings: Vec::new(),
            digest: RolloutDigest::of(lines),
        }
    }
}

/// What a continued thread needs to know about all of its rollout's lines, gathered while they
/// are read, so no line has to be kept for it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RolloutDigest {
    /// How many lines loaded.
    pub lines: usize,
    /// What the lines tell about the release that wrote them.
    pub release: RolloutEvidence,
    /// The highest `ordinal` a line carries.
    pub last_ordinal: Option<u64>,
    /// How many `task_started` events the rollout holds.
    pub turns_started: usize,
    /// The newest `turn_context` line.
    pub newest_turn_context: Option<TurnContextItem>,
    /// The `info` of the newest `token_count` event (`None` when it has none).
    pub newest_token_usage: Option<Value>,
    /// The numbering of history items, continued after the rollout's.
    pub history_sequence: HistorySequence,
    /// Lines of types without a typed payload, per type, in order of first appearance.
    pub untyped_line_types: Vec<UntypedLineType>,
    /// Response items without line metadata (numbered as if they had some).
    unnumbered: u64,
}

/// One type of untyped line (`event_msg`, or a type no reader here knows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UntypedLineType {
    pub line_type: String,
    /// Where it first appears (1-based line number).
    pub first_line: usize,
    pub count: usize,
}

impl RolloutDigest {
    /// The digest of `lines`.
    pub fn of<'a>(lines: impl IntoIterator<Item = &'a LoadedLine>) -> Self {
        let mut digest = Self::default();
        for loaded in lines {
            digest.observe(loaded);
        }
        digest.finished()
    }

    fn observe(&mut self, loaded: &LoadedLine) {
        let line = &loaded.line;
        self.lines += 1;
        observe_release(&mut self.release, &line.item);
        self.last_ordinal = self.last_ordinal.max(line.ordinal);
        self.history_sequence.observe(line, &mut self.unnumbered);
        match &line.item {
            RolloutItem::TurnContext(context) => {
                self.newest_turn_context = Some(TurnContextItem::clone(context));
            }
            RolloutItem::Other { line_type, payload } => {
                match line.item.event_msg_type() {
                    Some("task_started") => self.turns_started += 1,
                    Some(TOKEN_COUNT_EVENT_TYPE) => {
                        self.newest_token_usage = payload.get("info").cloned();
                    }
                    Some(_) | None => {}
                }
                self.count_untyped(line_type, loaded.line_number);
            }
            RolloutItem::SessionMeta(_)
            | RolloutItem::ResponseItem(_)
            | RolloutItem::WorldState(_)
            | RolloutItem::Compacted(_) => {}
        }
    }

    /// [`RolloutDigest::observe`] for a skimmed line. A `token_count` event's usage is not
    /// read here: the caller reads the newest one's.
    fn observe_skimmed(&mut self, line_number: usize, skimmed: Skimmed) {
        self.lines += 1;
        self.last_ordinal = self.last_ordinal.max(skimmed.ordinal);
        let line_type = match skimmed.kind {
            SkimmedKind::Response { id, metadata } => {
                self.history_sequence
                    .observe_item(id.as_deref(), metadata, &mut self.unnumbered);
                return;
            }
            SkimmedKind::Event { event, .. } => {
                self.turns_started += usize::from(event == EventFact::TurnStarted);
                EVENT_MSG_LINE_TYPE
            }
            SkimmedKind::Untyped { ref line_type } => line_type,
        };
        observe_line_type(&mut self.release, line_type);
        self.count_untyped(line_type, line_number);
    }

    fn count_untyped(&mut self, line_type: &str, line_number: usize) {
        match self
            .untyped_line_types
            .iter_mut()
            .find(|seen| seen.line_type == line_type)
        {
            Some(seen) => seen.count += 1,
            None => self.untyped_line_types.push(UntypedLineType {
                line_type: line_type.to_string(),
                first_line: line_number,
                count: 1,
            }),
        }
    }

    fn finished(mut self) -> Self {
        self.history_sequence.finish_observing(self.unnumbered);
        self
    }
}

/// What the skimming pass keeps of every line.
#[derive(Default)]
struct SkimPass {
    facts: Vec<LineFacts>,
    /// Per line (as `facts`): where it starts and its line number.
    positions: Vec<(u64, usize)>,
    session_meta: Option<SessionMeta>,
    digest: RolloutDigest,
    /// The newest `token_count` line when it was skimmed: its usage is read once, at the end.
    newest_token_count: Option<Vec<u8>>,
}

impl SkimPass {
    fn push(&mut self, read: ReadLine<'_, Scanned>) {
        self.positions.push((read.offset, read.line_number));
        match read.parsed {
            Scanned::Parsed(line) => {
                let loaded = LoadedLine {
                    line_number: read.line_number,
                    line: *line,
                };
                self.facts.push(LineFacts::of(&loaded));
                self.digest.observe(&loaded);
                if loaded.line.item.event_msg_type() == Some(TOKEN_COUNT_EVENT_TYPE) {
                    self.newest_token_count = None;
                }
                if let RolloutItem::SessionMeta(meta) = loaded.line.item
                    && self.session_meta.is_none()
                {
                    self.session_meta = Some(*meta);
                }
            }
            Scanned::Skimmed(skimmed) => {
                let facts = match &skimmed.kind {
                    SkimmedKind::Response { .. } => LineFacts::Response { user_turn: false },
                    SkimmedKind::Event {
                        event,
                        turn_id,
                        token_count,
                        ..
                    } => {
                        if *token_count {
                            self.newest_token_count = Some(read.raw.to_vec());
                        }
                        LineFacts::Event {
                            event: *event,
                            turn_id: turn_id.clone(),
                        }
                    }
                    SkimmedKind::Untyped { .. } => LineFacts::Quiet,
                };
                self.facts.push(facts);
                self.digest.observe_skimmed(read.line_number, skimmed);
            }
        }
    }
}

/// Reads the rollout at `path` and reconstructs it, for resuming: a skimming pass over every
/// line, then the lines reconstruction reads parsed in full, their history moved into the
/// session (see the module documentation). Event payloads are reduced to the fields
/// reconstruction reads. `progress`, when given, counts the bytes of the first pass.
pub fn resume_rollout(
    path: &Path,
    progress: Option<&Progress>,
) -> Result<ResumedRollout, RolloutError> {
    let mut pass = SkimPass::default();
    let warnings = stream_file(
        path,
        &Skimming,
        Position::START,
        Parsing::Parallel,
        progress,
        |read| {
            pass.push(read);
            ControlFlow::Continue(())
        },
    )?;
    if let Some(raw) = pass.newest_token_count.take() {
        match parse_line(raw.trim_ascii(), PayloadDetail::ResumeSummary) {
            Ok(line) => match &line.item {
                RolloutItem::Other { payload, .. } => {
                    pass.digest.newest_token_usage = payload.get("info").cloned();
                }
                RolloutItem::SessionMeta(_)
                | RolloutItem::ResponseItem(_)
                | RolloutItem::TurnContext(_)
                | RolloutItem::WorldState(_)
                | RolloutItem::Compacted(_) => {}
            },
            // Damaged past where the skim stopped: the full read decides what it holds.
            Err(_) => return resume_reading_every_line(path),
        }
    }
    let scan = scan_segments(&pass.facts);
    let needed = oldest_line_needed(&pass.facts, &scan);
    let mut lines = Vec::new();
    if let Some(&(offset, line_number)) = pass.positions.get(needed) {
        let from = Position {
            offset,
            lines_before: line_number - 1,
        };
        let mut expected = pass.positions[needed..].iter();
        let mut consistent = true;
        // Damaged lines among these were reported by the first pass.
        tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), || {
            stream_file(
                path,
                &PayloadDetail::ResumeSummary,
                from,
                Parsing::Parallel,
                None,
                |read| {
                    consistent &=
                        expected.next().map(|&(_, number)| number) == Some(read.line_number);
                    lines.push(read.loaded());
                    ControlFlow::Continue(())
                },
            )
        })?;
        if !consistent || expected.next().is_some() {
            return resume_reading_every_line(path);
        }
    }
    let window = Window {
        start: needed,
        lines: Cow::Owned(lines),
    };
    let session = rebuild(&pass.facts, scan, window, pass.session_meta);
    Ok(ResumedRollout {
        session,
        warnings,
        digest: pass.digest.finished(),
    })
}

/// [`resume_rollout`] with every line parsed in full: for a file whose second pass did not
/// find what the skimming pass counted (rare: it copies the history rather than moving it).
fn resume_reading_every_line(path: &Path) -> Result<ResumedRollout, RolloutError> {
    let mut lines = Vec::new();
    let warnings = stream_file(
        path,
        &PayloadDetail::ResumeSummary,
        Position::START,
        Parsing::Parallel,
        None,
        |read| {
            lines.push(read.loaded());
            ControlFlow::Continue(())
        },
    )?;
    Ok(ResumedRollout {
        warnings,
        ..ResumedRollout::of_lines(&lines)
    })
}
