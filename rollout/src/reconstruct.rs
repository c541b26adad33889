//! Rebuilding the state a resumed (or forked) thread starts from.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use codex_context_fragments::apply_merge_patch;
use codex_protocol::models::BaseInstructions;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::CompactedItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::SessionMeta;
use codex_protocol::rollout::TurnContextItem;
use serde_json::Value;

use super::LoadedLine;
use super::LoadedRollout;
use super::history::replay_history;
use super::segments::LineFacts;
use super::segments::SegmentScan;
use super::segments::scan_segments;

/// The world-state snapshot the next turn diffs against: section id → section snapshot, as
/// persisted in `world_state` lines.
pub type WorldStateBaseline = BTreeMap<String, Value>;

/// What a thread resumes from.
#[derive(Debug, Clone, PartialEq)]
pub struct ReconstructedSession {
    /// The thread's own `session_meta` (the first one; a fork's parent metas follow it).
    pub session_meta: Option<SessionMeta>,
    /// Base instructions recorded in that `session_meta` (the legacy `instructions` string is
    /// read as instructions without provenance). They take priority over the current model's.
    pub base_instructions: Option<BaseInstructions>,
    /// Model-visible history: the newest surviving replacement history plus everything recorded
    /// after it, with compactions and rollbacks applied.
    pub history: Vec<ResponseItem>,
    /// The newest surviving user turn's `turn_context`: the baseline the next turn diffs
    /// against. `None` forces full context on the next turn (no user turn yet, a newer
    /// compaction cleared it, or a legacy compaction had to be rebuilt).
    pub reference_context_item: Option<TurnContextItem>,
    /// `full` world-state records set it, patches apply to it, compactions reset it.
    pub world_state_baseline: Option<WorldStateBaseline>,
    /// The settings the newest surviving user turn ran with.
    pub previous_turn_settings: Option<PreviousTurnSettings>,
    /// The context window the newest surviving compaction opened, when it names one; `None`:
    /// the thread is still in its first window.
    pub context_window: Option<ContextWindow>,
    pub warnings: Vec<ReconstructWarning>,
}

/// A context window after the first, as the compaction that opened it records it
/// (`compacted.window_number`, `window_id`, `previous_window_id`): later turn requests name it
/// in their metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextWindow {
    /// 1 for the window the first compaction opens, and so on.
    pub number: u64,
    pub id: String,
    pub previous_id: Option<String>,
}

impl ContextWindow {
    /// The window `compacted` opened, when it records its number and id.
    pub fn of(compacted: &CompactedItem) -> Option<Self> {
        Some(Self {
            number: compacted.window_number()?,
            id: compacted.window_id()?.to_string(),
            previous_id: compacted.previous_window_id.clone(),
        })
    }
}

/// Settings of the last user turn that later turns compare against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviousTurnSettings {
    pub model: String,
    pub comp_hash: Option<String>,
    pub realtime_active: Option<bool>,
}

/// Something in the rollout that reconstruction had to ignore.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReconstructWarning {
    /// A world-state patch with no full snapshot before it.
    PatchWithoutBase { line_number: usize },
    /// No `session_meta` line: thread identity and base instructions are unknown.
    MissingSessionMeta,
}

impl fmt::Display for ReconstructWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PatchWithoutBase { line_number } => write!(
                f,
                "line {line_number}: world-state patch ignored: no full world-state snapshot \
                 precedes it"
            ),
            Self::MissingSessionMeta => f.write_str("the rollout has no session_meta line"),
        }
    }
}

/// The resumed thread runs on a different model than its last recorded turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelChanged {
    pub recorded: String,
    pub current: String,
}

impl fmt::Display for ModelChanged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "This thread last ran on model `{}` and now resumes on `{}`; switching back to `{}` \
             may give more consistent results.",
            self.recorded, self.current, self.recorded
        )
    }
}

impl ReconstructedSession {
    /// The model of the newest surviving user turn.
    pub fn last_model(&self) -> Option<&str> {
        self.previous_turn_settings
            .as_ref()
            .map(|settings| settings.model.as_str())
    }

    /// The warning to show when resuming on `current_model`, if it differs from the recorded one.
    pub fn model_change(&self, current_model: &str) -> Option<ModelChanged> {
        self.last_model()
            .filter(|recorded| *recorded != current_model)
            .map(|recorded| ModelChanged {
                recorded: recorded.to_string(),
                current: current_model.to_string(),
            })
    }
}

/// Rebuilds the resumable state of a loaded rollout. Never fails: what cannot be used is
/// reported in [`ReconstructedSession::warnings`].
pub fn reconstruct(loaded: &LoadedRollout) -> ReconstructedSession {
    reconstruct_lines(&loaded.lines)
}

/// [`reconstruct`] over loaded lines.
pub(super) fn reconstruct_lines(lines: &[LoadedLine]) -> ReconstructedSession {
    let facts: Vec<LineFacts> = lines.iter().map(LineFacts::of).collect();
    let scan = scan_segments(&facts);
    let session_meta = first_session_meta(lines).cloned();
    rebuild(
        &facts,
        scan,
        Window {
            start: 0,
            lines: Cow::Borrowed(lines),
        },
        session_meta,
    )
}

/// The first `session_meta` among `lines` (a fork's parents' metas follow the thread's own).
pub(super) fn first_session_meta(lines: &[LoadedLine]) -> Option<&SessionMeta> {
    lines.iter().find_map(|loaded| match &loaded.line.item {
        RolloutItem::SessionMeta(meta) => Some(meta.as_ref()),
        RolloutItem::ResponseItem(_)
        | RolloutItem::TurnContext(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::Compacted(_)
        | RolloutItem::Other { .. } => None,
    })
}

/// The lines whose content reconstruction reads: every loaded line from position `start` on.
pub(super) struct Window<'a> {
    pub start: usize,
    pub lines: Cow<'a, [LoadedLine]>,
}

impl Window<'_> {
    fn at(&self, index: usize) -> Option<&LoadedLine> {
        self.lines.get(index.checked_sub(self.start)?)
    }
}

/// The position of the oldest line whose content [`rebuild`] reads after `scan`: the history
/// base (the first line without one), the newest surviving compaction (where the world-state
/// baseline starts over) and the two turn contexts.
pub(super) fn oldest_line_needed(facts: &[LineFacts], scan: &SegmentScan) -> usize {
    let newest_surviving_compaction = newest_surviving_compaction(facts, scan);
    [
        Some(scan.base_compaction.unwrap_or(0)),
        Some(newest_surviving_compaction.unwrap_or(0)),
        scan.reference_context,
        scan.previous_turn_context,
    ]
    .into_iter()
    .flatten()
    .min()
    .unwrap_or(0)
}

/// The position of the newest compaction no rollback dropped.
fn newest_surviving_compaction(facts: &[LineFacts], scan: &SegmentScan) -> Option<usize> {
    facts
        .iter()
        .zip(&scan.dropped)
        .rposition(|(facts, dropped)| !dropped && matches!(facts, LineFacts::Compacted { .. }))
}

/// Rebuilds the session from the facts of every line, the scan over them and the lines of
/// `window`, which must start at or before [`oldest_line_needed`]. History items of an owned
/// window are moved, not copied.
pub(super) fn rebuild(
    facts: &[LineFacts],
    scan: SegmentScan,
    window: Window<'_>,
    session_meta: Option<SessionMeta>,
) -> ReconstructedSession {
    let mut warnings = Vec::new();
    if session_meta.is_none() {
        warnings.push(ReconstructWarning::MissingSessionMeta);
    }
    let base_instructions = session_meta.as_ref().and_then(|meta| {
        meta.base_instructions.clone().or_else(|| {
            meta.instructions.clone().map(|text| BaseInstructions {
                text,
                provenance: None,
            })
        })
    });

    // Whether a full snapshot precedes each patch is known from the facts of every line; the
    // snapshots themselves are read from the window, which holds the newest compaction that
    // survived (every compaction starts the baseline over).
    let mut has_baseline = false;
    let mut baseline: Option<WorldStateBaseline> = None;
    for (index, (facts, dropped)) in facts.iter().zip(&scan.dropped).enumerate() {
        if *dropped {
            continue;
        }
        match facts {
            LineFacts::Compacted { .. } => {
                has_baseline = false;
                baseline = None;
            }
            LineFacts::WorldState {
                full: false,
                line_number,
            } if !has_baseline => {
                tracing::warn!(
                    "rollout line {line_number} is a world-state patch with no full snapshot before it; it is ignored"
                );
                warnings.push(ReconstructWarning::PatchWithoutBase {
                    line_number: *line_number,
                });
            }
            LineFacts::WorldState { full, .. } => {
                has_baseline = true;
                let Some(RolloutItem::WorldState(state)) =
                    window.at(index).map(|loaded| &loaded.line.item)
                else {
                    continue;
                };
                match (*full, baseline.as_mut()) {
                    (true, _) => baseline = Some(state.state.clone()),
                    (false, Some(current)) => {
                        for (section, section_patch) in &state.state {
                            if section_patch.is_null() {
                                current.remove(section);
                            } else {
                                let slot = current.entry(section.clone()).or_insert(Value::Null);
                                apply_merge_patch(slot, section_patch);
                            }
                        }
                    }
                    (false, None) => {}
                }
            }
            LineFacts::TurnContext { .. }
            | LineFacts::Response { .. }
            | LineFacts::Event { .. }
            | LineFacts::Quiet => {}
        }
    }

    let turn_context_at = |index: Option<usize>| -> Option<&TurnContextItem> {
        match &window.at(index?)?.line.item {
            RolloutItem::TurnContext(context) => Some(context),
            RolloutItem::SessionMeta(_)
            | RolloutItem::ResponseItem(_)
            | RolloutItem::WorldState(_)
            | RolloutItem::Compacted(_)
            | RolloutItem::Other { .. } => None,
        }
    };
    let context_window =
        newest_surviving_compaction(facts, &scan).and_then(|index| {
            match &window.at(index)?.line.item {
                RolloutItem::Compacted(compacted) => ContextWindow::of(compacted),
                RolloutItem::SessionMeta(_)
                | RolloutItem::ResponseItem(_)
                | RolloutItem::TurnContext(_)
                | RolloutItem::WorldState(_)
                | RolloutItem::Other { .. } => None,
            }
        });
    let reference_context_item = turn_context_at(scan.reference_context).cloned();
    let previous_turn_settings =
        turn_context_at(scan.previous_turn_context).map(|context| PreviousTurnSettings {
            model: context.model.clone(),
            comp_hash: context.comp_hash.clone(),
            realtime_active: context.realtime_active,
        });

    let from = scan
        .base_compaction
        .unwrap_or(0)
        .saturating_sub(window.start);
    let history = match window.lines {
        Cow::Owned(lines) => replay_history(
            lines
                .into_iter()
                .skip(from)
                .map(|loaded| Cow::Owned(loaded.line.item)),
        ),
        Cow::Borrowed(lines) => replay_history(
            lines
                .iter()
                .skip(from)
                .map(|loaded| Cow::Borrowed(&loaded.line.item)),
        ),
    };
    let reference_context_item = match history.rebuilt_legacy_compaction {
        true => None,
        false => reference_context_item,
    };

    ReconstructedSession {
        session_meta,
        base_instructions,
        history: history.items,
        reference_context_item,
        world_state_baseline: baseline,
        previous_turn_settings,
        context_window,
        warnings,
    }
}
