//! Forking: the lines a new thread starts with when it branches off a loaded rollout.
//!
//! A fork's file starts with its own `session_meta`, followed by the parent's lines copied
//! verbatim (the parent's own `session_meta` included, so a fork of a fork starts with three).
//! A truncated fork keeps the parent's lines up to, not including, the chosen real user message.

use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::RolloutLine;
use codex_protocol::rollout::SessionMeta;

use super::LoadedLine;
use super::LoadedRollout;
use super::ReconstructedSession;
use super::reconstruct;
use super::segments::rolled_back_turns;
use codex_fragments::is_user_turn_boundary;

/// Where the child branches off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForkPoint {
    /// The whole parent history.
    FullHistory,
    /// Cut before the parent's n-th (0-based) real user message that survives rollbacks; the
    /// whole history when there are not that many.
    BeforeUserMessage(usize),
}

/// How the child's first turn builds its context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForkBaseline {
    /// The copied lines end in a user turn with a turn context: the child keeps diffing against
    /// that baseline (always the case for a full-history fork of a thread that ran a turn).
    Inherited,
    /// No surviving user turn established a baseline (for example a cut before the first user
    /// message): the child's first turn sends full context.
    RebuildFullContext,
}

/// The child's starting lines and the state reconstructed from them.
#[derive(Debug, Clone, PartialEq)]
pub struct ForkedRollout {
    /// Lines to write to the child's new rollout file, numbered as they will be written.
    pub rollout: LoadedRollout,
    pub session: ReconstructedSession,
}

impl ForkedRollout {
    pub fn baseline(&self) -> ForkBaseline {
        match self.session.reference_context_item {
            Some(_) => ForkBaseline::Inherited,
            None => ForkBaseline::RebuildFullContext,
        }
    }
}

impl ForkPoint {
    /// How many of `lines` (a parent's, in file order) a fork at this point keeps.
    pub fn kept_lines(self, lines: &[LoadedLine]) -> usize {
        match self {
            Self::FullHistory => lines.len(),
            Self::BeforeUserMessage(nth) => {
                // Real user messages, minus those a later rollback removed.
                let mut positions = Vec::new();
                for (index, loaded) in lines.iter().enumerate() {
                    if let RolloutItem::ResponseItem(item) = &loaded.line.item
                        && is_user_turn_boundary(item)
                    {
                        positions.push(index);
                    } else if let Some(turns) = rolled_back_turns(&loaded.line.item) {
                        positions.truncate(positions.len().saturating_sub(turns));
                    }
                }
                positions.get(nth).copied().unwrap_or(lines.len())
            }
        }
    }
}

/// Builds the child's rollout: `child_meta` (stamped `timestamp`) first, then the parent's lines
/// up to `point`, moved rather than copied. When the parent's lines carry ordinals the child's
/// are renumbered from 0.
pub fn fork(
    parent: LoadedRollout,
    child_meta: SessionMeta,
    timestamp: &str,
    point: ForkPoint,
) -> ForkedRollout {
    let kept = point.kept_lines(&parent.lines);
    let numbered = parent
        .lines
        .iter()
        .any(|loaded| loaded.line.ordinal.is_some());
    let mut parent_lines = parent.lines;
    parent_lines.truncate(kept);
    let child = RolloutLine::new(timestamp, RolloutItem::SessionMeta(Box::new(child_meta)));
    let rollout = LoadedRollout {
        lines: std::iter::once(child)
            .chain(parent_lines.into_iter().map(|loaded| loaded.line))
            .enumerate()
            .map(|(index, mut line)| {
                if numbered {
                    line.ordinal = u64::try_from(index).ok();
                }
                LoadedLine {
                    line_number: index + 1,
                    line,
                }
            })
            .collect(),
        warnings: Vec::new(),
    };
    let session = reconstruct(&rollout);
    ForkedRollout { rollout, session }
}
