//! Rebuilding the state a resumed (or forked) thread starts from.

use std::collections::BTreeMap;
use std::fmt;

use codex_context_fragments::apply_merge_patch;
use codex_protocol::models::BaseInstructions;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::SessionMeta;
use codex_protocol::rollout::TurnContextItem;
use serde_json::Value;

use super::LoadedLine;
use super::LoadedRollout;
use super::history::replay_history;
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
    pub warnings: Vec<ReconstructWarning>,
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
    let lines = loaded.lines.as_slice();
    let scan = scan_segments(lines);
    let history = replay_history(lines, scan.base_compaction);
    let mut warnings = Vec::new();

    let session_meta = loaded.items().find_map(|item| match item {
        RolloutItem::SessionMeta(meta) => Some(SessionMeta::clone(meta)),
        RolloutItem::ResponseItem(_)
        | RolloutItem::TurnContext(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::Compacted(_)
        | RolloutItem::Other { .. } => None,
    });
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

    let reference_context_item = if history.rebuilt_legacy_compaction {
        None
    } else {
        scan.reference_context
            .and_then(|index| turn_context_at(lines, index))
            .cloned()
    };
    let previous_turn_settings = scan
        .previous_turn_context
        .and_then(|index| turn_context_at(lines, index))
        .map(|context| PreviousTurnSettings {
            model: context.model.clone(),
            comp_hash: context.comp_hash.clone(),
            realtime_active: context.realtime_active,
        });

    let mut baseline: Option<WorldStateBaseline> = None;
    for (loaded, dropped) in lines.iter().zip(&scan.dropped) {
        if *dropped {
            continue;
        }
        match &loaded.line.item {
            RolloutItem::Compacted(_) => baseline = None,
            RolloutItem::WorldState(state) if state.full => baseline = Some(state.state.clone()),
            RolloutItem::WorldState(patch) => match baseline.as_mut() {
                Some(current) => {
                    for (section, section_patch) in &patch.state {
                        if section_patch.is_null() {
                            current.remove(section);
                        } else {
                            let slot = current.entry(section.clone()).or_insert(Value::Null);
                            apply_merge_patch(slot, section_patch);
                        }
                    }
                }
                None => {
                    tracing::warn!(
                        "rollout line {} is a world-state patch with no full snapshot before it; it is ignored",
                        loaded.line_number
                    );
                    warnings.push(ReconstructWarning::PatchWithoutBase {
                        line_number: loaded.line_number,
                    });
                }
            },
            RolloutItem::SessionMeta(_)
            | RolloutItem::ResponseItem(_)
            | RolloutItem::TurnContext(_)
            | RolloutItem::Other { .. } => {}
        }
    }

    ReconstructedSession {
        session_meta,
        base_instructions,
        history: history.items,
        reference_context_item,
        world_state_baseline: baseline,
        previous_turn_settings,
        warnings,
    }
}

fn turn_context_at(lines: &[LoadedLine], index: usize) -> Option<&TurnContextItem> {
    match &lines.get(index)?.line.item {
        RolloutItem::TurnContext(context) => Some(context),
        RolloutItem::SessionMeta(_)
        | RolloutItem::ResponseItem(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::Compacted(_)
        | RolloutItem::Other { .. } => None,
    }
}
