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
/// previous one, keyed by section id. Written as upstream writes them: a full snapshot's sections
/// sorted; a patch's removed sections (`null`) first, then the changed ones, each group sorted.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct WorldStateItem {
    pub full: bool,
    pub state: BTreeMap<String, serde_json::Value>,
}

impl Serialize for WorldStateItem {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;

        /// The sections in upstream's order (see [`WorldStateItem`]).
        struct Sections<'a>(&'a WorldStateItem);

        impl Serialize for Sections<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;

                let item = self.0;
                let removed = |value: &serde_json::Value| !item.full && value.is_null();
                let mut map = serializer.serialize_map(Some(item.state.len()))?;
                let removals = item.state.iter().filter(|(_, value)| removed(value));
                let changes = item.state.iter().filter(|(_, value)| !removed(value));
                for (id, value) in removals.chain(changes) {
                    map.serialize_entry(id, value)?;
                }
                map.end()
            }
        }

        let mut record = serializer.serialize_struct("WorldStateItem", 2)?;
        record.serialize_field("full", &self.full)?;
        record.serialize_field("state", &Sections(self))?;
        record.end()
    }
}
