//! `reasoning`: reasoning items the model produces before its first output of a turn.
//!
//! `"reasoning": {"summary": TEXTS, "content": TEXTS, "encrypted_content": "…", "id": "…"}`,
//! or an array of such objects (one reasoning item each, in order), where TEXTS is a string or
//! an array of strings. `summary` entries are the item's `summary_text`s, `content` entries its
//! raw `reasoning_text`s; every key is optional.

use codex_protocol::ResponseItem;
use codex_protocol::models::ReasoningItemContent;
use codex_protocol::models::ReasoningItemReasoningSummary;
use serde_json::Map;
use serde_json::Value;

use super::ScriptError;

/// Keys of one `reasoning` object.
pub const REASONING_KEYS: &[&str] = &["summary", "content", "encrypted_content", "id"];

/// One scripted reasoning item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScriptedReasoning {
    /// The item's id, as a server would send it; `None` sends none.
    pub id: Option<String>,
    /// Summary entries (`summary_text`).
    pub summary: Vec<String>,
    /// Raw reasoning entries (`reasoning_text`).
    pub content: Vec<String>,
    /// The opaque reasoning the server hands back for later requests.
    pub encrypted_content: Option<String>,
}

impl ScriptedReasoning {
    /// The reasoning item as the model produced it, unstamped.
    pub fn to_response_item(&self) -> ResponseItem {
        ResponseItem::Reasoning {
            id: self.id.clone(),
            summary: self
                .summary
                .iter()
                .map(|text| ReasoningItemReasoningSummary::SummaryText { text: text.clone() })
                .collect(),
            content: match self.content.as_slice() {
                [] => None,
                entries => Some(
                    entries
                        .iter()
                        .map(|text| ReasoningItemContent::ReasoningText { text: text.clone() })
                        .collect(),
                ),
            },
            encrypted_content: self.encrypted_content.clone(),
            internal_chat_message_metadata_passthrough: None,
        }
    }
}

/// Parses a turn's `reasoning` value (at `location`, e.g. `script.json: turns[0].reasoning`).
pub(crate) fn parse_reasoning(
    value: &Value,
    location: &str,
) -> Result<Vec<ScriptedReasoning>, ScriptError> {
    match value {
        Value::Object(object) => Ok(vec![parse_item(object, location)?]),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                let origin = format!("{location}[{index}]");
                match item {
                    Value::Object(object) => parse_item(object, &origin),
                    _ => Err(ScriptError::invalid(origin, "must be a reasoning object")),
                }
            })
            .collect(),
        _ => Err(ScriptError::invalid(
            location,
            "must be a reasoning object or an array of them",
        )),
    }
}

fn parse_item(
    object: &Map<String, Value>,
    location: &str,
) -> Result<ScriptedReasoning, ScriptError> {
    if let Some(key) = object
        .keys()
        .find(|key| !REASONING_KEYS.contains(&key.as_str()))
    {
        return Err(ScriptError::invalid(
            location,
            format!(
                "unknown key \"{key}\" (expected one of: {})",
                REASONING_KEYS.join(", ")
            ),
        ));
    }
    let text = |key: &str| match object.get(key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(ScriptError::invalid(
            format!("{location}.{key}"),
            "must be a string",
        )),
    };
    let texts = |key: &str| match object.get(key) {
        None => Ok(Vec::new()),
        Some(Value::String(text)) => Ok(vec![text.clone()]),
        Some(Value::Array(entries)) => entries
            .iter()
            .map(|entry| match entry {
                Value::String(text) => Ok(text.clone()),
                _ => Err(ScriptError::invalid(
                    format!("{location}.{key}"),
                    "must be a string or an array of strings",
                )),
            })
            .collect(),
        Some(_) => Err(ScriptError::invalid(
            format!("{location}.{key}"),
            "must be a string or an array of strings",
        )),
    };
    Ok(ScriptedReasoning {
        id: text("id")?,
        summary: texts("summary")?,
        content: texts("content")?,
        encrypted_content: text("encrypted_content")?,
    })
}
