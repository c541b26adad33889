//! Rollout files: the append-only JSONL record of a thread, and how a thread is rebuilt from one.
//!
//! - [`RolloutWriter`] creates `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`
//!   (or reopens one on resume) and writes each [`RolloutLine`](codex_protocol::RolloutLine) whole
//!   and flushed, so a crash loses at most the line being written.
//! - [`read_rollout`] loads a file tolerantly: lines of unknown types are kept, damaged lines
//!   (invalid JSON, a truncated last line, a known type with the wrong shape) are reported with
//!   their line number and skipped, and everything else loads. A file with no JSON line among
//!   its first [`JSON_PROBE_LINES`] is refused as not a rollout (one error, not a warning per
//!   line).
//! - [`resume_rollout`] reads and reconstructs in two passes: the first skims every line for
//!   the few facts a resume needs of it (`skim`), the second parses only the lines from the
//!   oldest one the rebuild reads (the newest surviving compaction's turn) and moves their
//!   history into the session (the resume path); [`reconstruct`] does the same from loaded
//!   lines. Every reader shares one reading pass (`reader::stream_file`), which reads a line
//!   longer than a few megabytes as it parses it and can advance a progress bar by the bytes
//!   read.
//! - [`reconstruct`] rebuilds what a resumed thread starts from: model-visible history, the
//!   reference turn context, the world-state baseline, the recorded base instructions.
//! - [`fork`] produces the lines a forked thread starts with, whole or cut before a user message.
//!
//! Reconstruction scans the rollout newest to oldest in turn segments (a segment opens at
//! `task_started`); `thread_rolled_back` skips the next N segments that hold a real user message
//! (one [`is_user_turn_boundary`](codex_fragments::is_user_turn_boundary)
//! accepts), and the newest surviving compaction with a `replacement_history` becomes the history
//! base that only the later lines are replayed onto.

mod error;
mod fork;
mod history;
mod item_metadata;
mod line_input;
mod reader;
mod reconstruct;
mod release;
mod resume;
mod segments;
mod skim;
mod usage_record;
mod wire;
mod writer;

pub use error::RolloutError;
pub use fork::ForkBaseline;
pub use fork::ForkPoint;
pub use fork::ForkedRollout;
pub use fork::fork;
pub use item_metadata::HistorySequence;
pub use item_metadata::ItemOrigin;
pub use item_metadata::LINE_METADATA_KEY;
pub use item_metadata::RetainedMessage;
pub use reader::JSON_PROBE_LINES;
pub use reader::LineDamage;
pub use reader::LoadedLine;
pub use reader::LoadedRollout;
pub use reader::NotARollout;
pub use reader::RolloutWarning;
pub use reader::parse_rollout;
pub use reader::read_rollout;
pub use reader::read_rollout_for_replay;
pub use reader::stream_rollout_for_replay;
pub use reconstruct::ContextWindow;
pub use reconstruct::ModelChanged;
pub use reconstruct::PreviousTurnSettings;
pub use reconstruct::ReconstructWarning;
pub use reconstruct::ReconstructedSession;
pub use reconstruct::WorldStateBaseline;
pub use reconstruct::reconstruct;
pub use release::release_evidence;
pub use release::release_of_lines;
pub use resume::ResumedRollout;
pub use resume::RolloutDigest;
pub use resume::UntypedLineType;
pub use resume::resume_rollout;
pub use usage_record::TOKEN_USAGE_RECORD_LINE_TYPE;
pub use usage_record::UsageRecordIds;
pub use usage_record::UsageTotals;
pub use usage_record::resume_metadata;
pub use usage_record::token_usage_record;
pub use usage_record::token_usage_record_item;
pub use usage_record::with_reasoning_excluded;
pub use writer::LineOrdinals;
pub use writer::RolloutWriter;
pub use writer::rollout_path;

/// `event_msg` payload types that reconstruction reads (protocol spellings).
pub(crate) mod event_types {
    pub const TURN_STARTED: &str = "task_started";
    pub const TURN_COMPLETE: &str = "task_complete";
    pub const TURN_ABORTED: &str = "turn_aborted";
    pub const USER_MESSAGE: &str = "user_message";
    pub const THREAD_ROLLED_BACK: &str = "thread_rolled_back";
}
