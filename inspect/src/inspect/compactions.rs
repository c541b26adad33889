//! What a walk needs to know about a rollout's legacy compactions before it starts: the history
//! each leaves.

use std::collections::HashMap;

use codex_protocol::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::LoadedRollout;
use codex_rollout::reconstruct;

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
