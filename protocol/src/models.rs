//! Conversation items as they appear in Responses API requests and in rollouts.

mod base_instructions;
mod content;
mod item_metadata;
mod response_item_de;
mod tool_output;
mod unknown_tagged;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::Serialize;

pub use base_instructions::BaseInstructions;
pub use base_instructions::BaseInstructionsProvenance;
pub use content::ContentItem;
pub use content::ImageDetail;
pub use content::ImageReference;
pub use content::MessagePhase;
pub use item_metadata::ContentItemKind;
pub use item_metadata::InternalChatMessageMetadataPassthrough;
pub use tool_output::FunctionCallOutputBody;
pub use tool_output::FunctionCallOutputContentItem;
pub use tool_output::FunctionCallOutputPayload;

/// One item of model-visible history, tagged by `type`.
///
/// Field declaration order is the wire order, so serialized items match upstream request bodies
/// byte for byte. Items of an unknown `type` deserialize to [`ResponseItem::Other`] holding the raw
/// JSON, which is written back unchanged.
///
/// Serde's own reading of a tagged enum with an untagged fallback buffers an item and then
/// copies every string out of the buffer; [`ResponseItem`]'s `Deserialize` reads the tag first
/// and moves the strings instead (a 50 MB tool output is not copied twice), see
/// `response_item_de`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", remote = "Self")]
pub enum ResponseItem {
    Message {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_content: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        role: String,
        content: Vec<ContentItem>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        phase: Option<MessagePhase>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    Reasoning {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        summary: Vec<ReasoningItemReasoningSummary>,
        /// Written only when it carries raw `reasoning_text`; `text`-only content is dropped on
        /// output, as upstream does.
        #[serde(default, skip_serializing_if = "lacks_reasoning_text")]
        content: Option<Vec<ReasoningItemContent>>,
        /// Always written, possibly as `null`.
        #[serde(default)]
        encrypted_content: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    LocalShellCall {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_content: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// Written even when `None`.
        #[serde(default)]
        call_id: Option<String>,
        status: LocalShellStatus,
        action: LocalShellAction,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    FunctionCall {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_content: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namespace: Option<String>,
        /// JSON text exactly as the model produced it; never parsed here.
        arguments: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_function_args: Option<Vec<String>>,
        call_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    FunctionCallOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        call_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namespace: Option<String>,
        output: FunctionCallOutputPayload,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    CustomToolCall {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_content: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<String>,
        call_id: String,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namespace: Option<String>,
        input: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    CustomToolCallOutput {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        call_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        output: FunctionCallOutputPayload,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    WebSearchCall {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_content: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        action: Option<WebSearchAction>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    #[serde(alias = "compaction_summary")]
    Compaction {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        encrypted_content: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// Tool specs injected into history (raw tool JSON, unchanged).
    AdditionalTools {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        role: String,
        tools: Vec<serde_json::Value>,
    },
    /// An item of a type this crate does not model, kept as the raw JSON object.
    /// Read and written by `response_item_de`, not by the derived code.
    #[serde(skip)]
    Other(serde_json::Value),
}

/// Every `type` tag the typed variants accept, aliases included.
const RESPONSE_ITEM_TAGS: &[&str] = &[
    "message",
    "reasoning",
    "local_shell_call",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "web_search_call",
    "compaction",
    "compaction_summary",
    "additional_tools",
];

fn lacks_reasoning_text(content: &Option<Vec<ReasoningItemContent>>) -> bool {
    content.as_ref().is_none_or(|parts| {
        !parts
            .iter()
            .any(|part| matches!(part, ReasoningItemContent::ReasoningText { .. }))
    })
}

impl ResponseItem {
    /// A plain message with no id, phase or metadata.
    pub fn message(role: impl Into<String>, content: Vec<ContentItem>) -> Self {
        Self::Message {
            encrypted_content: None,
            status: None,
            id: None,
            role: role.into(),
            content,
            phase: None,
            internal_chat_message_metadata_passthrough: None,
        }
    }

    /// The wire `type` string (`other` for unmodelled items, even though their raw JSON keeps the
    /// original tag).
    pub fn item_type(&self) -> &'static str {
        match self {
            Self::Message { .. } => "message",
            Self::Reasoning { .. } => "reasoning",
            Self::LocalShellCall { .. } => "local_shell_call",
            Self::FunctionCall { .. } => "function_call",
            Self::FunctionCallOutput { .. } => "function_call_output",
            Self::CustomToolCall { .. } => "custom_tool_call",
            Self::CustomToolCallOutput { .. } => "custom_tool_call_output",
            Self::WebSearchCall { .. } => "web_search_call",
            Self::Compaction { .. } => "compaction",
            Self::AdditionalTools { .. } => "additional_tools",
            Self::Other(_) => "other",
        }
    }

    pub fn id(&self) -> Option<&str> {
        match self {
            Self::Message { id, .. }
            | Self::Reasoning { id, .. }
            | Self::LocalShellCall { id, .. }
            | Self::FunctionCall { id, .. }
            | Self::FunctionCallOutput { id, .. }
            | Self::CustomToolCall { id, .. }
            | Self::CustomToolCallOutput { id, .. }
            | Self::WebSearchCall { id, .. }
            | Self::Compaction { id, .. }
            | Self::AdditionalTools { id, .. } => id.as_deref(),
            Self::Other(_) => None,
        }
    }

    pub fn is_user_message(&self) -> bool {
        matches!(self, Self::Message { role, .. } if role == "user")
    }

    /// The metadata slot of variants that carry one (`None` for `additional_tools` and `other`).
    pub fn metadata(&self) -> Option<&InternalChatMessageMetadataPassthrough> {
        match self {
            Self::Message {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::Reasoning {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::LocalShellCall {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::FunctionCall {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::FunctionCallOutput {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::CustomToolCall {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::CustomToolCallOutput {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::WebSearchCall {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::Compaction {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            } => metadata.as_ref(),
            Self::AdditionalTools { .. } | Self::Other(_) => None,
        }
    }

    /// Mutable access to the metadata slot; `None` when the variant has no such slot.
    pub fn metadata_slot_mut(
        &mut self,
    ) -> Option<&mut Option<InternalChatMessageMetadataPassthrough>> {
        match self {
            Self::Message {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::Reasoning {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::LocalShellCall {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::FunctionCall {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::FunctionCallOutput {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::CustomToolCall {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::CustomToolCallOutput {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::WebSearchCall {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            }
            | Self::Compaction {
                internal_chat_message_metadata_passthrough: metadata,
                ..
            } => Some(metadata),
            Self::AdditionalTools { .. } | Self::Other(_) => None,
        }
    }

    /// The recorded turn id; an empty string counts as absent.
    pub fn turn_id(&self) -> Option<&str> {
        self.metadata()
            .and_then(|metadata| metadata.turn_id.as_deref())
            .filter(|turn_id| !turn_id.is_empty())
    }

    /// Stamps `turn_id` unless the item already has a non-empty one or `turn_id` is empty.
    pub fn set_turn_id_if_missing(&mut self, turn_id: &str) {
        if turn_id.is_empty() || self.turn_id().is_some() {
            return;
        }
        if let Some(slot) = self.metadata_slot_mut() {
            slot.get_or_insert_with(InternalChatMessageMetadataPassthrough::default)
                .turn_id = Some(turn_id.to_string());
        }
    }

    /// Content kinds recorded for a message's content positions.
    pub fn content_item_kinds(&self) -> Option<&[ContentItemKind]> {
        self.metadata()
            .and_then(|metadata| metadata.content_item_kinds.as_deref())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ReasoningItemReasoningSummary {
    SummaryText { text: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ReasoningItemContent {
    ReasoningText { text: String },
    Text { text: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LocalShellStatus {
    Completed,
    InProgress,
    Incomplete,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LocalShellAction {
    Exec(LocalShellExecAction),
}

/// Inner fields are written as `null` when unset, matching upstream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalShellExecAction {
    pub command: Vec<String>,
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    #[serde(default)]
    pub working_directory: Option<String>,
    #[serde(default)]
    pub env: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub user: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WebSearchAction {
    Search {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        query: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        queries: Option<Vec<String>>,
    },
    OpenPage {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
    },
    FindInPage {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pattern: Option<String>,
    },
    /// Unmodelled action, kept verbatim.
    #[serde(untagged, deserialize_with = "unknown_web_search_action")]
    Other(serde_json::Value),
}

fn unknown_web_search_action<'de, D>(deserializer: D) -> Result<serde_json::Value, D::Error>
where
    D: serde::Deserializer<'de>,
{
    unknown_tagged::unknown_tagged_object(deserializer, &["search", "open_page", "find_in_page"])
}

#[cfg(test)]
#[path = "models_tests.rs"]
mod tests;
