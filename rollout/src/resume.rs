//! Resuming straight from a file: one streaming pass that keeps only what reconstruction reads.
//!
//! Every line leaves a few bytes of [`LineFacts`] behind for the segment scan; the lines
//! themselves are kept from the turn of the newest compaction with a replacement history on,
//! since nothing before it reaches the resumed thread unless a later rollback undoes that
//! compaction. In that rare case the file is read a second time for the older lines. Memory is
//! bounded by the history since the newest compaction, not by the file.

use std::borrow::Cow;
use std::path::Path;

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
use super::reader::stream_file;
use super::reconstruct::Window;
use super::reconstruct::oldest_line_needed;
use super::reconstruct::rebuild;
use super::reconstruct::reconstruct_lines;
use super::release::observe_release;
use super::segments::EventFact;
use super::segments::LineFacts;
use super::segments::scan_segments;
use super::wire::PayloadDetail;

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
                match self
                    .untyped_line_types
                    .iter_mut()
                    .find(|seen| seen.line_type == *line_type)
                {
                    Some(seen) => seen.count += 1,
                    None => self.untyped_line_types.push(UntypedLineType {
                        line_type: line_type.clone(),
                        first_line: loaded.line_number,
                        count: 1,
                    }),
                }
            }
            RolloutItem::SessionMeta(_)
            | RolloutItem::ResponseItem(_)
            | RolloutItem::WorldState(_)
            | RolloutItem::Compacted(_) => {}
        }
    }

    fn finished(mut self) -> Self {
        self.history_sequence.finish_observing(self.unnumbered);
        self
    }
}

/// The state of the streaming pass.
#[derive(Default)]
struct Pass {
    facts: Vec<LineFacts>,
    /// Position of the first kept line among all lines.
    window_start: usize,
    window: Vec<LoadedLine>,
    /// Position of the newest `task_started`.
    turn_start: usize,
    session_meta: Option<SessionMeta>,
    digest: RolloutDigest,
}

impl Pass {
    fn push(&mut self, loaded: LoadedLine) {
        let index = self.facts.len();
        let facts = LineFacts::of(&loaded);
        self.digest.observe(&loaded);
        if let RolloutItem::SessionMeta(meta) = &loaded.line.item
            && self.session_meta.is_none()
        {
            self.session_meta = Some(SessionMeta::clone(meta));
        }
        if matches!(
            facts,
            LineFacts::Event {
                event: EventFact::TurnStarted,
                ..
            }
        ) {
            self.turn_start = index;
        } else if matches!(facts, LineFacts::Compacted { replacement: true })
            && self.turn_start > self.window_start
        {
            // History starts over here: what came before this turn is needed only if a later
            // rollback undoes the compaction.
            self.window.drain(..self.turn_start - self.window_start);
            self.window_start = self.turn_start;
        }
        self.facts.push(facts);
        self.window.push(loaded);
    }
}

/// Reads the rollout at `path` and reconstructs it, for resuming, in one pass that moves the
/// history out of the lines it parses and keeps only the lines since the newest compaction (see
/// the module documentation). Event payloads are reduced to the fields reconstruction reads.
/// `progress`, when given, counts the bytes read.
pub fn resume_rollout(
    path: &Path,
    progress: Option<&Progress>,
) -> Result<ResumedRollout, RolloutError> {
    let mut pass = Pass::default();
    let warnings = stream_file(path, PayloadDetail::ResumeSummary, progress, |line| {
        pass.push(line)
    })?;
    let scan = scan_segments(&pass.facts);
    let needed = oldest_line_needed(&pass.facts, &scan);
    let window = match needed < pass.window_start {
        true => {
            // A rollback undid the newest compaction: the older lines are read again.
            drop(pass.window);
            let mut lines = Vec::new();
            let mut index = 0;
            // Its damaged lines were reported by the first pass.
            tracing::subscriber::with_default(
                tracing::subscriber::NoSubscriber::default(),
                || {
                    stream_file(path, PayloadDetail::ResumeSummary, None, |line| {
                        if index >= needed {
                            lines.push(line);
                        }
                        index += 1;
                    })
                },
            )?;
            Window {
                start: needed,
                lines: Cow::Owned(lines),
            }
        }
        false => Window {
            start: pass.window_start,
            lines: Cow::Owned(pass.window),
        },
    };
    let session = rebuild(&pass.facts, scan, window, pass.session_meta);
    Ok(ResumedRollout {
        session,
        warnings,
        digest: pass.digest.finished(),
    })
}
