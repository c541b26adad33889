//! The structural view of one `input` item: its type, role, the classification of each content
//! entry, and a signature that the alignment matches items by.

use codex_fragments::FragmentTypeInfo;
use codex_fragments::classify;
use serde_json::Value;

/// What a content entry is.
#[derive(Debug, Clone, Copy)]
pub(super) enum EntryClass {
    /// A registered fragment type (by recorded content kind, else by markers).
    Fragment(&'static FragmentTypeInfo),
    /// Text nobody injected: what the user, the assistant or a developer wrote.
    Text,
    /// The base instructions a body without `instructions` sends as its first developer
    /// message (Responses Lite, newer releases): prose, like `instructions`.
    BaseInstructions,
    /// An entry without text (`input_image`, …).
    NonText,
}

/// One content entry of a message.
#[derive(Debug, Clone)]
pub(super) struct Entry<'a> {
    pub class: EntryClass,
    /// The fragment type's name, `<role>_text`, or the entry's `type`.
    pub label: String,
    pub text: Option<&'a str>,
}

/// One `input` item as the comparison sees it. Ids, `turn_id`, `create_time` and call ids are
/// volatile and take no part.
#[derive(Debug, Clone)]
pub(super) struct ItemShape<'a> {
    pub item_type: &'a str,
    pub role: Option<&'a str>,
    /// Content entries of a message (empty for other items).
    pub entries: Vec<Entry<'a>>,
    /// Free text outside messages: tool call arguments or input, tool output.
    pub prose: Option<String>,
    /// The tools of an `additional_tools` item.
    pub tools: Option<&'a [Value]>,
    /// Whether the item carries an `id`.
    pub has_id: bool,
    /// `type[/role][ name][ [entry labels]]`: equal signatures are the same structure.
    pub signature: String,
    /// What items are aligned by: the signature plus the text nobody injected, so that a
    /// message with other user text is a changed item rather than a moved one.
    pub alignment_key: String,
}

/// Where upstream keeps the content kinds of a message's entries.
const METADATA_KEY: &str = "internal_chat_message_metadata_passthrough";

impl ItemShape<'_> {
    /// Whether this is the message a body without `instructions` carries them in.
    pub(super) fn is_base_instructions(&self) -> bool {
        self.entries
            .iter()
            .any(|entry| matches!(entry.class, EntryClass::BaseInstructions))
    }
}

/// The label of base instructions sent as a developer message.
const BASE_INSTRUCTIONS: &str = "base_instructions";

/// `base_instructions`: this item is the developer message a body without `instructions`
/// carries them in (see [`base_instructions_item`]).
pub(super) fn item_shape(item: &Value, base_instructions: bool) -> ItemShape<'_> {
    let str_field = |key: &str| item.get(key).and_then(Value::as_str);
    let item_type = str_field("type").unwrap_or("<untyped>");
    let role = str_field("role");
    let entries = match item.get("content").and_then(Value::as_array) {
        Some(content) if item_type == "message" => {
            let kinds = item
                .get(METADATA_KEY)
                .and_then(|metadata| metadata.get("content_item_kinds"))
                .and_then(Value::as_array);
            let role = role.unwrap_or("");
            content
                .iter()
                .enumerate()
                .map(|(index, entry)| {
                    let text = entry.get("text").and_then(Value::as_str);
                    let kind = kinds
                        .and_then(|kinds| kinds.get(index))
                        .and_then(Value::as_str);
                    let (class, label) = match text {
                        None => (
                            EntryClass::NonText,
                            entry
                                .get("type")
                                .and_then(Value::as_str)
                                .unwrap_or("<untyped>")
                                .to_string(),
                        ),
                        Some(_) if base_instructions => {
                            (EntryClass::BaseInstructions, BASE_INSTRUCTIONS.to_string())
                        }
                        Some(text) => match classify(role, text, kind) {
                            Some(info) => (EntryClass::Fragment(info), info.name.to_string()),
                            None => (EntryClass::Text, format!("{role}_text")),
                        },
                    };
                    Entry { class, label, text }
                })
                .collect()
        }
        Some(_) | None => Vec::new(),
    };
    let prose = ["arguments", "input", "output"]
        .iter()
        .find_map(|key| item.get(*key))
        .map(|value| match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        });
    let tools = match item_type {
        "additional_tools" => item
            .get("tools")
            .and_then(Value::as_array)
            .map(Vec::as_slice),
        _ => None,
    };
    let mut signature = item_type.to_string();
    if let Some(role) = role {
        signature.push('/');
        signature.push_str(role);
    }
    if let Some(name) = str_field("name") {
        signature.push(' ');
        if let Some(namespace) = str_field("namespace") {
            signature.push_str(namespace);
            signature.push('/');
        }
        signature.push_str(name);
    }
    if item_type == "message" {
        let labels: Vec<&str> = entries.iter().map(|entry| entry.label.as_str()).collect();
        signature.push_str(&format!(" [{}]", labels.join(", ")));
    }
    let mut alignment_key = signature.clone();
    for entry in &entries {
        if let (EntryClass::Text, Some(text)) = (entry.class, entry.text) {
            alignment_key.push('\0');
            alignment_key.push_str(text);
        }
    }
    ItemShape {
        item_type,
        role,
        entries,
        prose,
        tools,
        has_id: item.get("id").is_some(),
        signature,
        alignment_key,
    }
}

/// The index of the item that carries the base instructions of `body` when it has no
/// `instructions` field: its first message, when that is a developer message whose entries
/// are all text no fragment type recognises.
pub(super) fn base_instructions_item(body: &Value) -> Option<usize> {
    if body.get("instructions").is_some() {
        return None;
    }
    let input = body.get("input").and_then(Value::as_array)?;
    let index = input
        .iter()
        .position(|item| item.get("type").and_then(Value::as_str) == Some("message"))?;
    carries_base_instructions(&input[index]).then_some(index)
}

/// Whether `message`, the first message of a body without `instructions`, carries its base
/// instructions: a developer message whose entries are all text no fragment type recognises
/// (Responses Lite after its `additional_tools` item, and the releases that send them as
/// `input[0]`). The request statistics recognise the same message with this.
pub(crate) fn carries_base_instructions(message: &Value) -> bool {
    let shape = item_shape(message, false);
    let unrecognised = !shape.entries.is_empty()
        && shape
            .entries
            .iter()
            .all(|entry| matches!(entry.class, EntryClass::Text));
    shape.role == Some("developer") && unrecognised
}

/// A tool's `name`, or its `type` for tools without one (`web_search`).
pub(crate) fn tool_names(tools: &[Value]) -> Vec<String> {
    tools
        .iter()
        .map(|tool| {
            tool.get("name")
                .or_else(|| tool.get("type"))
                .and_then(Value::as_str)
                .unwrap_or("<unnamed>")
                .to_string()
        })
        .collect()
}
