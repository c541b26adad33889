//! The `ToolSpec` wire model.

use serde::Deserialize;
use serde::Serialize;

/// One entry of a request's `tools` array, tagged by `type`. Field declaration order is the wire
/// order upstream sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToolSpec {
    /// A JSON-schema function tool.
    Function(FunctionTool),
    /// A freeform tool whose input is plain text constrained by a grammar.
    Custom(FreeformTool),
    /// The hosted local-shell tool (no fields).
    LocalShell {},
    /// The hosted web search tool.
    WebSearch(WebSearchTool),
    /// A group of tools under one name (Responses Lite folds function tools into one).
    Namespace(NamespaceTool),
    /// The search over tools held back from the list (deferred tools); it has no name.
    ToolSearch(ToolSearchTool),
    /// Any other tool, kept as raw JSON and sent unchanged.
    #[serde(untagged)]
    Other(serde_json::Value),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionTool {
    pub name: String,
    pub description: String,
    pub strict: bool,
    /// JSON Schema of the arguments object.
    pub parameters: serde_json::Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FreeformTool {
    pub name: String,
    pub description: String,
    pub format: FreeformToolFormat,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FreeformToolFormat {
    #[serde(rename = "type")]
    pub format_type: FreeformToolFormatType,
    pub syntax: GrammarSyntax,
    pub definition: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FreeformToolFormatType {
    Grammar,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrammarSyntax {
    Lark,
    Regex,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WebSearchTool {
    /// `true` for live search, `false` for cached results only.
    pub external_web_access: bool,
    /// `["text", "image"]` for models that take image results; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_content_types: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NamespaceTool {
    pub name: String,
    pub description: String,
    pub tools: Vec<ToolSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSearchTool {
    /// Who runs the search: `client` when the harness holds the deferred tools itself.
    pub execution: String,
    pub description: String,
    /// JSON Schema of the arguments object.
    pub parameters: serde_json::Value,
}

/// A built-in tool template that does not parse as the tool it should describe.
#[derive(Debug, thiserror::Error)]
pub enum ToolSpecError {
    #[error("tool template `{template}` is not valid tool JSON: {source}")]
    InvalidTemplate {
        template: &'static str,
        #[source]
        source: serde_json::Error,
    },
    #[error("tool template `{template}` does not have the expected shape: {reason}")]
    UnexpectedShape {
        template: &'static str,
        reason: &'static str,
    },
}

impl ToolSpec {
    /// The tool's name; tools without one (`web_search`, `local_shell`, `tool_search`) have
    /// none.
    pub fn name(&self) -> Option<&str> {
        match self {
            Self::Function(tool) => Some(&tool.name),
            Self::Custom(tool) => Some(&tool.name),
            Self::Namespace(tool) => Some(&tool.name),
            Self::LocalShell {} | Self::WebSearch(_) | Self::ToolSearch(_) => None,
            Self::Other(raw) => raw.get("name").and_then(serde_json::Value::as_str),
        }
    }
}
