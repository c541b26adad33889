use codex_protocol::ResponseItem;
use codex_protocol::WorldStateItem;
use serde_json::Value;

use crate::context::world_state::HistoryFragmentIndex;
use crate::context::world_state::WorldState;
use crate::context::world_state::WorldStateSnapshot;
use codex_context_fragments::SectionFragment;

/// The API items of a thread, oldest first, with the world-state baseline that describes what
/// the model has been told and an index of fragments already recognised in those items.
///
/// Items are only appended, except by [`replace`](Self::replace) (compaction, resume) and
/// rollback; both reset the baseline and the index, because the model's view was rewritten.
#[derive(Debug, Default)]
pub struct ContextManager {
    items: Vec<ResponseItem>,
    world_state_baseline: Option<WorldStateSnapshot>,
    fragment_index: HistoryFragmentIndex,
}

/// What a history-aware world-state update produced.
pub struct WorldStateUpdate {
    /// Fragments the model has not seen yet, in section order.
    pub fragments: Vec<SectionFragment>,
    /// The `world_state` rollout record: the full snapshot when there was no baseline, the
    /// merge patch otherwise, `None` when the snapshot did not change.
    pub rollout_item: Option<WorldStateItem>,
}

impl std::fmt::Debug for WorldStateUpdate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldStateUpdate")
            .field(
                "fragments",
                &self
                    .fragments
                    .iter()
                    .map(|fragment| fragment.render())
                    .collect::<Vec<_>>(),
            )
            .field("rollout_item", &self.rollout_item)
            .finish()
    }
}

/// Whether an item belongs in model-visible history: everything the Responses API accepts as
/// input except `system` messages. Unmodelled items are not sent back. A tool catalog
/// (`additional_tools`) is history where a release records it there (0.171.0 on Lite models);
/// releases that splice it per request never record one.
pub fn is_api_item(item: &ResponseItem) -> bool {
    match item {
        ResponseItem::Message { role, .. } => role != "system",
        ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::FunctionCallOutput { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::AdditionalTools { .. } => true,
        ResponseItem::Other(_) => false,
    }
}

impl ContextManager {
    pub fn new() -> Self {
        Self::default()
    }

    /// A history holding the API items of `items` (resume, compaction) and no baseline.
    pub fn from_items(items: impl IntoIterator<Item = ResponseItem>) -> Self {
        let mut history = Self::new();
        history.record_items(items);
        history
    }

    /// The retained items, oldest first.
    pub fn items(&self) -> &[ResponseItem] {
        &self.items
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Appends the API items of `items` (see [`is_api_item`]); returns how many were kept.
    pub fn record_items(&mut self, items: impl IntoIterator<Item = ResponseItem>) -> usize {
        let before = self.items.len();
        self.items.extend(items.into_iter().filter(is_api_item));
        self.items.len() - before
    }

    /// Replaces the whole history. The model's view was rewritten, so the baseline is cleared
    /// and every recognised fragment forgotten.
    pub fn replace(&mut self, items: impl IntoIterator<Item = ResponseItem>) {
        self.items.clear();
        self.record_items(items);
        self.world_state_baseline = None;
        self.fragment_index.invalidate();
    }

    /// [`replace`](Self::replace), handing back the items it replaces (moved, not copied).
    pub fn swap(&mut self, items: impl IntoIterator<Item = ResponseItem>) -> Vec<ResponseItem> {
        let replaced = std::mem::take(&mut self.items);
        self.replace(items);
        replaced
    }

    /// Keeps the first `len` items (rollback); clears the baseline and the index like
    /// [`replace`](Self::replace).
    pub(super) fn truncate(&mut self, len: usize) {
        self.items.truncate(len);
        self.world_state_baseline = None;
        self.fragment_index.invalidate();
    }

    /// The snapshot of what the model has been told, if known.
    pub fn world_state_baseline(&self) -> Option<&WorldStateSnapshot> {
        self.world_state_baseline.as_ref()
    }

    pub fn set_world_state_baseline(&mut self, baseline: Option<WorldStateSnapshot>) {
        self.world_state_baseline = baseline;
    }

    /// The items to send: a copy of history in which every tool call has an output (calls
    /// left without one get [`ABORTED_OUTPUT`](super::ABORTED_OUTPUT) right after them) and
    /// outputs whose call is gone are dropped.
    pub fn for_prompt(&self) -> Vec<ResponseItem> {
        super::normalize::normalized_for_prompt(&self.items)
    }

    /// Diffs `world_state` against the baseline, checking retained history through the
    /// incremental index, and makes its snapshot the new baseline.
    pub fn update_world_state(&mut self, world_state: &WorldState) -> WorldStateUpdate {
        let fragments = world_state.render_history_diff(
            self.world_state_baseline.as_ref(),
            self.fragment_index.over(&self.items),
        );
        let snapshot = world_state.snapshot();
        let rollout_item = match &self.world_state_baseline {
            None => Some(full_world_state_item(&snapshot)),
            Some(previous) => snapshot
                .merge_patch_from(previous)
                .map(world_state_patch_item),
        };
        self.world_state_baseline = Some(snapshot);
        WorldStateUpdate {
            fragments,
            rollout_item,
        }
    }
}

/// The `world_state` record that persists `snapshot` as a new baseline.
pub(crate) fn full_world_state_item(snapshot: &WorldStateSnapshot) -> WorldStateItem {
    WorldStateItem {
        full: true,
        state: snapshot
            .iter()
            .map(|(id, value)| (id.to_string(), value.clone()))
            .collect(),
    }
}

fn world_state_patch_item(patch: Value) -> WorldStateItem {
    let state = match patch {
        Value::Object(sections) => sections.into_iter().collect(),
        // `merge_patch_from` only returns objects; anything else would be a bug upstream of
        // here, and an empty patch is the harmless reading of it.
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) | Value::Array(_) => {
            tracing::warn!("world-state merge patch is not an object; persisting an empty patch");
            Default::default()
        }
    };
    WorldStateItem { full: false, state }
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
