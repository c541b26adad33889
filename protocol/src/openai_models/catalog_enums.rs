//! Small closed enums and records used by catalog entries.

use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::ReasoningEffort;
use crate::wire_enum::wire_enum_strings;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelVisibility {
    List,
    Hide,
    #[default]
    None,
}

wire_enum_strings!(ModelVisibility, "model visibility", {
    List => "list",
    Hide => "hide",
    None => "none",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputModality {
    Text,
    Image,
    Audio,
}

wire_enum_strings!(InputModality, "input modality", {
    Text => "text",
    Image => "image",
    Audio => "audio",
});

/// Modalities assumed when a catalog entry does not list any.
pub fn default_input_modalities() -> Vec<InputModality> {
    vec![InputModality::Text, InputModality::Image]
}

/// Which shell tool a model gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfigShellToolType {
    #[default]
    Default,
    Local,
    UnifiedExec,
    Disabled,
    ShellCommand,
}

wire_enum_strings!(ConfigShellToolType, "shell tool type", {
    Default => "default",
    Local => "local",
    UnifiedExec => "unified_exec",
    Disabled => "disabled",
    ShellCommand => "shell_command",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApplyPatchToolType {
    Freeform,
    Function,
}

wire_enum_strings!(ApplyPatchToolType, "apply_patch tool type", {
    Freeform => "freeform",
    Function => "function",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WebSearchToolType {
    #[default]
    Text,
    TextAndImage,
}

wire_enum_strings!(WebSearchToolType, "web search tool type", {
    Text => "text",
    TextAndImage => "text_and_image",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolMode {
    Direct,
    CodeMode,
    CodeModeOnly,
}

wire_enum_strings!(ToolMode, "tool mode", {
    Direct => "direct",
    CodeMode => "code_mode",
    CodeModeOnly => "code_mode_only",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MultiAgentVersion {
    V1,
    V2,
}

wire_enum_strings!(MultiAgentVersion, "multi-agent version", {
    V1 => "v1",
    V2 => "v2",
});

/// Deserializes an optional closed enum, reading values this crate does not know as `None` so
/// newer catalogs still load.
pub(crate) fn unknown_as_none<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let raw = Option::<serde_json::Value>::deserialize(deserializer)?;
    Ok(raw.and_then(|value| serde_json::from_value(value).ok()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TruncationMode {
    Bytes,
    Tokens,
}

wire_enum_strings!(TruncationMode, "truncation mode", {
    Bytes => "bytes",
    Tokens => "tokens",
});

/// How tool output is truncated before it enters history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TruncationPolicyConfig {
    pub mode: TruncationMode,
    pub limit: i64,
}

impl Default for TruncationPolicyConfig {
    fn default() -> Self {
        Self {
            mode: TruncationMode::Bytes,
            limit: 10_000,
        }
    }
}

/// One selectable reasoning effort with its picker description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasoningEffortPreset {
    pub effort: ReasoningEffort,
    pub description: String,
}

/// Where a retired model's users are sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfoUpgrade {
    pub model: String,
    #[serde(default)]
    pub migration_markdown: Option<String>,
    /// RFC 3339 instant, kept as text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retirement_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelAvailabilityNux {
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelServiceTier {
    pub id: String,
    pub name: String,
    pub description: String,
}
