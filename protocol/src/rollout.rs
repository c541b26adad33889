//! Rollout JSONL lines: `{"timestamp", "ordinal"?, "type", "payload"}`.

mod compacted;
mod session_meta;
mod token_count;
mod turn_context;

use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;
use serde::Serializer;

pub use compacted::CompactedItem;
pub use compacted::CompactionWindowId;
pub use compacted::WorldStateItem;
pub use session_meta::HistoryMode;
pub use session_meta::SessionMeta;
pub use token_count::TOKEN_COUNT_EVENT_TYPE;
pub use token_count::TokenUsage;
pub use token_count::TokenUsageInfo;
pub use token_count::token_count_event;
pub use token_count::token_count_rollout_item;
pub use turn_context::TurnContextItem;

use crate::models::ResponseItem;

/// Line type of an event line; events are kept raw (see [`RolloutItem::Other`]).
pub const EVENT_MSG_LINE_TYPE: &str = "event_msg";

/// One line of a rollout file.
#[derive(Debug, Clone, PartialEq)]
pub struct RolloutLine {
    /// UTC ISO-8601 time the line was written.
    pub timestamp: String,
    /// Position in the thread's history (newer rollouts only).
    pub ordinal: Option<u64>,
    pub item: RolloutItem,
    /// Other top-level keys (such as a `response_item` line's `metadata`), kept and written after
    /// `payload`.
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// The typed payload of a rollout line, selected by the line's `type`.
///
/// The three large payloads are boxed so that a loaded rollout costs little more than its text:
/// every line is one `RolloutItem`, and most lines are small response items or events.
#[derive(Debug, Clone, PartialEq)]
pub enum RolloutItem {
    SessionMeta(Box<SessionMeta>),
    ResponseItem(ResponseItem),
    TurnContext(Box<TurnContextItem>),
    WorldState(WorldStateItem),
    Compacted(Box<CompactedItem>),
    /// Every other line type (`event_msg`, `token_usage_record`, …) with its payload as raw JSON,
    /// so rewriting a rollout never drops a line.
    Other {
        line_type: String,
        payload: serde_json::Value,
    },
}

impl RolloutItem {
    /// The line's `type` string.
    pub fn line_type(&self) -> &str {
        match self {
            Self::SessionMeta(_) => "session_meta",
            Self::ResponseItem(_) => "response_item",
            Self::TurnContext(_) => "turn_context",
            Self::WorldState(_) => "world_state",
            Self::Compacted(_) => "compacted",
            Self::Other { line_type, .. } => line_type,
        }
    }

    /// The payload's `type` for `event_msg` lines (for example `task_started`).
    pub fn event_msg_type(&self) -> Option<&str> {
        match self {
            Self::Other { line_type, payload } if line_type == EVENT_MSG_LINE_TYPE => {
                // An event payload has a few keys: finding one is cheaper than hashing its name.
                payload
                    .as_object()?
                    .iter()
                    .find(|(key, _)| key.as_str() == "type")?
                    .1
                    .as_str()
            }
            Self::Other { .. }
            | Self::SessionMeta(_)
            | Self::ResponseItem(_)
            | Self::TurnContext(_)
            | Self::WorldState(_)
            | Self::Compacted(_) => None,
        }
    }

    fn from_wire(line_type: String, payload: serde_json::Value) -> Result<Self, serde_json::Error> {
        Ok(match line_type.as_str() {
            "session_meta" => Self::SessionMeta(serde_json::from_value(payload)?),
            "response_item" => Self::ResponseItem(serde_json::from_value(payload)?),
            "turn_context" => Self::TurnContext(serde_json::from_value(payload)?),
            "world_state" => Self::WorldState(serde_json::from_value(payload)?),
            "compacted" => Self::Compacted(serde_json::from_value(payload)?),
            _ => Self::Other { line_type, payload },
        })
    }
}

impl RolloutLine {
    pub fn new(timestamp: impl Into<String>, item: RolloutItem) -> Self {
        Self {
            timestamp: timestamp.into(),
            ordinal: None,
            item,
            extra: serde_json::Map::new(),
        }
    }
}

#[derive(Deserialize)]
struct WireLine {
    timestamp: String,
    #[serde(default)]
    ordinal: Option<u64>,
    #[serde(rename = "type")]
    line_type: String,
    payload: serde_json::Value,
    #[serde(flatten)]
    extra: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
struct WireLineRef<'a> {
    timestamp: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    ordinal: Option<u64>,
    #[serde(rename = "type")]
    line_type: &'a str,
    payload: PayloadRef<'a>,
    #[serde(flatten)]
    extra: &'a serde_json::Map<String, serde_json::Value>,
}

struct PayloadRef<'a>(&'a RolloutItem);

impl Serialize for PayloadRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            RolloutItem::SessionMeta(meta) => meta.serialize(serializer),
            RolloutItem::ResponseItem(item) => item.serialize(serializer),
            RolloutItem::TurnContext(context) => context.serialize(serializer),
            RolloutItem::WorldState(state) => state.serialize(serializer),
            RolloutItem::Compacted(compacted) => compacted.serialize(serializer),
            RolloutItem::Other { payload, .. } => payload.serialize(serializer),
        }
    }
}

impl Serialize for RolloutLine {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WireLineRef {
            timestamp: &self.timestamp,
            ordinal: self.ordinal,
            line_type: self.item.line_type(),
            payload: PayloadRef(&self.item),
            extra: &self.extra,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RolloutLine {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = WireLine::deserialize(deserializer)?;
        let line_type = wire.line_type.clone();
        let item = RolloutItem::from_wire(wire.line_type, wire.payload).map_err(|error| {
            serde::de::Error::custom(format!("invalid `{line_type}` payload: {error}"))
        })?;
        Ok(Self {
            timestamp: wire.timestamp,
            ordinal: wire.ordinal,
            item,
            extra: wire.extra,
        })
    }
}

#[cfg(test)]
#[path = "rollout_tests.rs"]
mod tests;
