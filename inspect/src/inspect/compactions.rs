//! What a walk needs to know about a rollout's compactions before it starts: the history a
//! legacy compaction leaves, and which model output was a compaction's summary.

use std::collections::HashMap;
use std::collections::HashSet;

use codex_protocol::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::LoadedRollout;
use codex_rollout::reconstruct;

use super::walk::TASK_COMPLETE;
use super::walk::TASK_STARTED;
use super::walk::TURN_ABORTED;
use super::walk::is_model_output;

/// History right after each legacy compaction (one without a replacement history), keyed by
/// the compaction's position among the lines: what a resume at that line rebuilds.
pub(super) fn legacy_compaction_histories(
    loaded: &LoadedRollout,
) -> HashMap<usize, Vec<ResponseItem>> {
    loaded
        .lines
        .iter()
        .enumerate()
        .filter(|(_, line)| {
            matches!(&line.line.item, RolloutItem::Compacted(compacted)
                if compacted.replacement_history.is_none())
        })
        .map(|(index, _)| {
            let prefix = LoadedRollout {
                lines: loaded.lines[..=index].to_vec(),
                warnings: Vec::new(),
            };
            (index, reconstruct(&prefix).history)
        })
        .collect()
}

/// Positions among the lines of the model output that a compaction's summary request answered:
/// the run of model output just before each `compacted` line in the same task, with only
/// events between.
pub(super) fn compaction_summary_outputs(loaded: &LoadedRollout) -> HashSet<usize> {
    let mut outputs = HashSet::new();
    for (index, line) in loaded.lines.iter().enumerate() {
        if !matches!(line.line.item, RolloutItem::Compacted(_)) {
            continue;
        }
        for (earlier, line) in loaded.lines[..index].iter().enumerate().rev() {
            let item = &line.line.item;
            match item {
                RolloutItem::Other { .. } => {
                    if let Some(TASK_STARTED | TASK_COMPLETE | TURN_ABORTED) = item.event_msg_type()
                    {
                        break;
                    }
                }
                RolloutItem::ResponseItem(item) if is_model_output(item) => {
                    outputs.insert(earlier);
                }
                RolloutItem::ResponseItem(_)
                | RolloutItem::Compacted(_)
                | RolloutItem::TurnContext(_)
                | RolloutItem::WorldState(_)
                | RolloutItem::SessionMeta(_) => break,
            }
        }
    }
    outputs
}
