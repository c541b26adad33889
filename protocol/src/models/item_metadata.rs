//! Harness-owned metadata that rides along with response items on the wire.

use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;

/// Open classification of one position in a message's content array
/// (for example `"environment_context"`). The set of values is deliberately not closed: kinds
/// written by newer harnesses must survive a round trip through older readers.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ContentItemKind(String);

impl ContentItemKind {
    /// Kind used for content positions whose classification was never recorded (legacy items).
    pub const UNKNOWN: &'static str = "unknown";

    pub fn new(kind: impl Into<String>) -> Self {
        Self(kind.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl From<&str> for ContentItemKind {
    fn from(kind: &str) -> Self {
        Self::new(kind)
    }
}

impl From<String> for ContentItemKind {
    fn from(kind: String) -> Self {
        Self(kind)
    }
}

impl std::fmt::Display for ContentItemKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The `internal_chat_message_metadata_passthrough` object carried by most response items.
///
/// Unknown keys are ignored on input; `None` fields are omitted on output.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InternalChatMessageMetadataPassthrough {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<String>,
    /// Fractional Unix seconds at which the harness authored the item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub create_time: Option<f64>,
    /// Index-aligned with the item's content array. A malformed value must not make the whole
    /// item unreadable, so anything that is not an array of strings degrades to `None`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "content_item_kinds_or_none"
    )]
    pub content_item_kinds: Option<Vec<ContentItemKind>>,
}

impl InternalChatMessageMetadataPassthrough {
    pub fn is_empty(&self) -> bool {
        self == &Self::default()
    }
}

fn content_item_kinds_or_none<'de, D>(
    deserializer: D,
) -> Result<Option<Vec<ContentItemKind>>, D::Error>
where
    D: Deserializer<'de>,
{
    let raw = Option::<serde_json::Value>::deserialize(deserializer)?;
    Ok(raw.and_then(|value| serde_json::from_value(value).ok()))
}
