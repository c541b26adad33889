//! The `POST /responses` body (`CreateResponse` as upstream Codex sends it).

use codex_protocol::ReasoningSummary;
use codex_protocol::ResponseItem;
use codex_protocol::Verbosity;
use codex_protocol::openai_models::ReasoningEffort;
use codex_release::StreamKeyPosition;
use serde::Deserialize;
use serde::Serialize;
use serde::Serializer;
use serde::ser::SerializeMap;

use super::client_metadata::ClientMetadata;
use codex_tools::ToolSpec;

/// The only `include` entry upstream sends: reasoning comes back encrypted because `store` is
/// false and the client must replay it.
pub const INCLUDE_REASONING_ENCRYPTED_CONTENT: &str = "reasoning.encrypted_content";

/// Name of the JSON-schema output format (`text.format.name`).
pub const OUTPUT_SCHEMA_FORMAT_NAME: &str = "codex_output_schema";

/// A Responses API request body. Field declaration order is the wire order of upstream's request
/// bodies, except that `stream` sits where [`ResponsesRequest::stream_key`] says; empty
/// `instructions` and every `None` are left out.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ResponsesRequest {
    pub model: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub instructions: String,
    pub input: Vec<ResponseItem>,
    /// `None` for Responses Lite, whose tools travel in an `additional_tools` input item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<ToolSpec>>,
    pub tool_choice: ToolChoice,
    pub parallel_tool_calls: bool,
    pub reasoning: Reasoning,
    pub store: bool,
    pub stream: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_options: Option<StreamOptions>,
    pub include: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_tier: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_cache_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<TextControls>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_metadata: Option<ClientMetadata>,
    /// Where `stream` is written among the keys (not itself a key; a parsed body gets
    /// `after store`).
    #[serde(skip, default = "stream_after_store")]
    pub stream_key: StreamKeyPosition,
}

fn stream_after_store() -> StreamKeyPosition {
    StreamKeyPosition::AfterStore
}

impl Serialize for ResponsesRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("model", &self.model)?;
        let stream_after_model = match self.stream_key {
            StreamKeyPosition::AfterModel => true,
            StreamKeyPosition::AfterStore => false,
        };
        if stream_after_model {
            map.serialize_entry("stream", &self.stream)?;
        }
        if !self.instructions.is_empty() {
            map.serialize_entry("instructions", &self.instructions)?;
        }
        map.serialize_entry("input", &self.input)?;
        if let Some(tools) = &self.tools {
            map.serialize_entry("tools", tools)?;
        }
        map.serialize_entry("tool_choice", &self.tool_choice)?;
        map.serialize_entry("parallel_tool_calls", &self.parallel_tool_calls)?;
        map.serialize_entry("reasoning", &self.reasoning)?;
        map.serialize_entry("store", &self.store)?;
        if !stream_after_model {
            map.serialize_entry("stream", &self.stream)?;
        }
        if let Some(options) = &self.stream_options {
            map.serialize_entry("stream_options", options)?;
        }
        map.serialize_entry("include", &self.include)?;
        if let Some(tier) = &self.service_tier {
            map.serialize_entry("service_tier", tier)?;
        }
        if let Some(key) = &self.prompt_cache_key {
            map.serialize_entry("prompt_cache_key", key)?;
        }
        if let Some(text) = &self.text {
            map.serialize_entry("text", text)?;
        }
        if let Some(metadata) = &self.client_metadata {
            map.serialize_entry("client_metadata", metadata)?;
        }
        map.end()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolChoice {
    #[default]
    Auto,
}

/// The `reasoning` object; always present, possibly empty.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Reasoning {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<ReasoningEffort>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<ReasoningSummary>,
    /// Which earlier reasoning the model may see; only Responses Lite sets it (`all_turns`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<ReasoningContext>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReasoningContext {
    Auto,
    CurrentTurn,
    AllTurns,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamOptions {
    pub reasoning_summary_delivery: ReasoningSummaryDelivery,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReasoningSummaryDelivery {
    SequentialCutoff,
}

/// The `text` object: output verbosity and an optional structured-output format.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TextControls {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verbosity: Option<Verbosity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<TextFormat>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextFormat {
    #[serde(rename = "type")]
    pub format_type: TextFormatType,
    pub strict: bool,
    pub schema: serde_json::Value,
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextFormatType {
    #[default]
    JsonSchema,
}
