//! The `compacted` and `world_state` rollout payloads.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::Serialize;

use crate::models::ResponseItem;

/// A compaction: the summary message and, for newer compactions, the history that replaces
/// everything before it. Unknown keys survive in `extra` (written last).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompactedItem {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement_history: Option<Vec<ResponseItem>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement_history_metadata: Option<Vec<serde_json::Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guardian_history: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retained_context: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp_resource_origins: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_number: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_window_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_window_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_id: Option<CompactionWindowId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction_response_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latest_token_usage_record: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_metadata: Option<serde_json::Value>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// `window_id` is an id string today; old rollouts stored the window *number* under this key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CompactionWindowId {
    Id(String),
    LegacyNumber(u64),
}

impl CompactedItem {
    /// A legacy compaction carries no replacement history and forces full context reinjection.
    pub fn is_legacy(&self) -> bool {
        self.replacement_history.is_none()
    }

    /// The window number, reading a legacy numeric `window_id` as one.
    pub fn window_number(&self) -> Option<u64> {
        self.window_number.or(match &self.window_id {
            Some(CompactionWindowId::LegacyNumber(number)) => Some(*number),
            Some(CompactionWindowId::Id(_)) | None => None,
        })
    }

    /// The id of the window this compaction opened (absent for legacy numeric ids).
    pub fn window_id(&self) -> Option<&str> {
        match &self.window_id {
            Some(CompactionWindowId::Id(id)) => Some(id),
            Some(CompactionWindowId::LegacyNumber(_)) | None => None,
        }
    }
}

/// A world-state record: the full snapshot (`full: true`) or an RFC 7386 merge patch against the
/// previous one, keyed by section id (sorted, as upstream writes them).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WorldStateItem {
    pub full: bool,
    pub state: BTreeMap<String, serde_json::Value>,
}
