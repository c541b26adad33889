//! The model-visible layout of a request's `input`, in the text format of upstream's layout
//! snapshots: one `NN:<kind>` line per item; a message with several content parts becomes
//! `NN:message/<role>[<count>]:` followed by one `    [NN] <text>` line per part. A whole
//! request ([`render_request_layout`]) starts with one `instructions:` and one `tools:` line
//! when they travel outside `input` (every body but Responses Lite).
//!
//! Texts have `\r\n` normalised, newlines shown as `\n`, other control characters escaped
//! (`\t`, `\u{1b}`), and are cut to a prefix with `...`. In [`LayoutText::Placeholders`] mode
//! well-known context blocks collapse to placeholders such as `<PERMISSIONS_INSTRUCTIONS>` or
//! `<ENVIRONMENT_CONTEXT:cwd=<CWD>>`, so snapshots stay stable; a block is one only when the
//! fragment registry recognises the whole text as that fragment for the message's role, so a
//! user message that merely starts like one is shown as it was typed.

use codex_core::ResponsesRequest;
use codex_fragments::classify;
use serde_json::Value;

/// Texts longer than this many characters are cut (the CLI's `--format layout`).
pub const DEFAULT_LAYOUT_MAX_CHARS: usize = 80;

/// Fragment type (registry name) → its placeholder.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("permissions", "<PERMISSIONS_INSTRUCTIONS>"),
    ("agents_md", "<AGENTS_MD>"),
    ("user_instructions", "<USER_INSTRUCTIONS>"),
    ("available_skills_instructions", "<SKILLS_INSTRUCTIONS>"),
    ("apps_instructions", "<APPS_INSTRUCTIONS>"),
    ("plugins_instructions", "<PLUGINS_INSTRUCTIONS>"),
    ("model_switch", "<MODEL_SWITCH>"),
];

/// Registry name of the `<environment_context>` fragment, whose placeholder says whether it
/// carries a cwd.
const ENVIRONMENT_CONTEXT: &str = "environment_context";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LayoutText {
    /// Known context blocks become placeholders; other texts are shown.
    #[default]
    Placeholders,
    /// Every text is shown.
    Full,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutOptions {
    pub text: LayoutText,
    /// Longest text shown, in characters; `None` shows whole texts.
    pub max_chars: Option<usize>,
    /// Exact texts with the placeholder to show instead (e.g. the model's base instructions →
    /// `<MODEL_INSTRUCTIONS>`), applied in [`LayoutText::Placeholders`] mode.
    pub known_texts: Vec<(String, String)>,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        Self {
            text: LayoutText::Placeholders,
            max_chars: Some(DEFAULT_LAYOUT_MAX_CHARS),
            known_texts: Vec::new(),
        }
    }
}

/// The layout of a request: its `instructions` and `tools` (one line each, when the body
/// carries them outside `input`), then its input.
pub fn render_request_layout(
    request: &ResponsesRequest,
    options: &LayoutOptions,
) -> Result<String, serde_json::Error> {
    let items = request
        .input
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<Vec<_>, _>>()?;
    let mut lines = Vec::with_capacity(2);
    if let Some(tools) = &request.tools {
        let instructions = match request.instructions.as_str() {
            "" => "<NONE>".to_string(),
            text => display_text(None, text, options),
        };
        lines.push(format!("instructions:{instructions}"));
        let tools = serde_json::to_value(tools)?;
        let names = tool_labels(&tools);
        lines.push(match names.as_slice() {
            [] => "tools:<NONE>".to_string(),
            names => format!("tools[{}]:{}", names.len(), names.join(",")),
        });
    }
    lines.push(render_layout(&items, options));
    Ok(lines.join("\n"))
}

/// `type/name` (or `type`) of each tool of a JSON tool list.
fn tool_labels(tools: &Value) -> Vec<String> {
    tools
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|tool| {
                    let kind = tool.get("type").and_then(Value::as_str).unwrap_or("?");
                    match tool.get("name").and_then(Value::as_str) {
                        Some(name) => format!("{kind}/{name}"),
                        None => kind.to_string(),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The layout of raw input items (as sent on the wire), one line per item, `\n`-joined.
pub fn render_layout(items: &[Value], options: &LayoutOptions) -> String {
    items
        .iter()
        .enumerate()
        .map(|(index, item)| render_item(index, item, options))
        .collect::<Vec<_>>()
        .join("\n")
}

fn render_item(index: usize, item: &Value, options: &LayoutOptions) -> String {
    let str_field = |key: &str| item.get(key).and_then(Value::as_str);
    let Some(item_type) = str_field("type") else {
        return format!("{index:02}:<MISSING_TYPE>");
    };
    match item_type {
        "message" => {
            let role = str_field("role").unwrap_or("unknown");
            let parts = item
                .get("content")
                .and_then(Value::as_array)
                .map(|content| {
                    content
                        .iter()
                        .map(|part| match part.get("text").and_then(Value::as_str) {
                            Some(text) => display_text(Some(role), text, options),
                            // `<type>` with the part's other keys: `<input_image:detail,image_url>`.
                            None => match part.get("type").and_then(Value::as_str) {
                                None => "<UNKNOWN_CONTENT_ITEM>".to_string(),
                                Some(part_type) => {
                                    let mut keys = part
                                        .as_object()
                                        .map(|object| {
                                            object
                                                .keys()
                                                .filter(|key| *key != "type")
                                                .cloned()
                                                .collect::<Vec<_>>()
                                        })
                                        .unwrap_or_default();
                                    keys.sort();
                                    if keys.is_empty() {
                                        format!("<{part_type}>")
                                    } else {
                                        format!("<{part_type}:{}>", keys.join(","))
                                    }
                                }
                            },
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default();
            render_parts(index, &format!("message/{role}"), &parts)
        }
        "additional_tools" => {
            let tools = item.get("tools").map(tool_labels).unwrap_or_default();
            render_parts(index, "additional_tools", &tools)
        }
        "function_call" | "custom_tool_call" => {
            format!(
                "{index:02}:{item_type}/{}",
                str_field("name").unwrap_or("unknown")
            )
        }
        "function_call_output" | "custom_tool_call_output" => {
            let output = match item.get("output") {
                Some(Value::String(text)) => display_text(None, text, options),
                Some(_) | None => "<NON_STRING_OUTPUT>".to_string(),
            };
            format!("{index:02}:{item_type}:{output}")
        }
        "reasoning" => {
            let summary = item
                .get("summary")
                .and_then(Value::as_array)
                .and_then(|summary| summary.first())
                .and_then(|part| part.get("text"))
                .and_then(Value::as_str)
                .map(|text| display_text(None, text, options))
                .unwrap_or_else(|| "<NO_SUMMARY>".to_string());
            format!(
                "{index:02}:reasoning:summary={summary}:encrypted={}",
                has_encrypted_content(item)
            )
        }
        "compaction" => format!(
            "{index:02}:compaction:encrypted={}",
            has_encrypted_content(item)
        ),
        other => format!("{index:02}:{other}"),
    }
}

/// `NN:<label>:<part>` for one part, `NN:<label>[N]:` plus indented `[NN]` lines for several.
fn render_parts(index: usize, label: &str, parts: &[String]) -> String {
    match parts {
        [] => format!("{index:02}:{label}:<NO_TEXT>"),
        [single] => format!("{index:02}:{label}:{single}"),
        several => {
            let mut out = format!("{index:02}:{label}[{}]:", several.len());
            for (part_index, part) in several.iter().enumerate() {
                out.push_str(&format!("\n    [{:02}] {part}", part_index + 1));
            }
            out
        }
    }
}

fn has_encrypted_content(item: &Value) -> bool {
    item.get("encrypted_content")
        .and_then(Value::as_str)
        .is_some_and(|content| !content.is_empty())
}

/// `text` as a layout shows it; `role` is the role of the message it belongs to (`None` for
/// texts outside messages, which are never context blocks).
fn display_text(role: Option<&str>, text: &str, options: &LayoutOptions) -> String {
    let placeholder = match options.text {
        LayoutText::Full => None,
        LayoutText::Placeholders => options
            .known_texts
            .iter()
            .find(|(known, _)| known == text)
            .map(|(_, placeholder)| placeholder.clone())
            .or_else(|| role.and_then(|role| context_placeholder(role, text))),
    };
    let shown = placeholder.unwrap_or_else(|| text.to_string());
    let escaped = escape_text(&shown);
    match options.max_chars {
        Some(max_chars) if escaped.chars().count() > max_chars => {
            let prefix = escaped.chars().take(max_chars).collect::<String>();
            format!("{prefix}...")
        }
        Some(_) | None => escaped,
    }
}

/// The placeholder of a context block the registry recognises in a `role` message.
fn context_placeholder(role: &str, text: &str) -> Option<String> {
    let fragment = classify(role, text, None)?;
    if fragment.name == ENVIRONMENT_CONTEXT {
        return Some(match text.contains("<cwd>") {
            true => "<ENVIRONMENT_CONTEXT:cwd=<CWD>>".to_string(),
            false => "<ENVIRONMENT_CONTEXT>".to_string(),
        });
    }
    PLACEHOLDERS
        .iter()
        .find(|(name, _)| *name == fragment.name)
        .map(|(_, placeholder)| (*placeholder).to_string())
}

/// One line of text: line breaks (`\r\n`, `\r`, `\n`) become `\n`, every other control
/// character its Rust escape (`\t`, `\u{1b}`), so a layout never carries raw control bytes.
fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\\n");
            }
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out
}
