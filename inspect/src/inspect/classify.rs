//! What each input item and content entry is, where it comes from, and what it costs.

use std::borrow::Cow;

use codex_fragments::FragmentOrigin;
use codex_fragments::FragmentTypeInfo;
use codex_fragments::USER_CONTENT_KIND_PREFIX;
use codex_protocol::ContentItem;
use codex_protocol::ContentItemKind;
use codex_protocol::FunctionCallOutputBody;
use codex_protocol::ResponseItem;
use codex_protocol::models::LocalShellAction;
use codex_protocol::models::ReasoningItemContent;
use codex_protocol::models::ReasoningItemReasoningSummary;

use super::EntryTexts;
use super::model::EntryClass;
use super::model::EntryReport;
use super::model::ItemReport;
use super::model::Recognition;
use super::model::TokenBreakdown;
use super::model::TokenSource;
use super::summary::preview;
use super::tokens::TokenCounter;

const ASSISTANT_ROLE: &str = "assistant";

/// Fragment types with a bucket of their own in the token breakdown.
const AGENTS_MD_SECTION: &str = "agents_md";
const ENVIRONMENTS_SECTION: &str = "environments";
const BASE_INSTRUCTIONS_FRAGMENT: &str = "base_instructions";
/// Summaries stand in for conversation, so they count as conversation.
const COMPACTION_SUMMARY_FRAGMENT: &str = "compaction_summary";

/// Header upstream puts before AGENTS.md text that names the directory it applies to.
const AGENTS_MD_DIRECTORY_HEADER: &str = "# AGENTS.md instructions for ";

/// An item with its entries classified. Conversation tokens are counted as new input; the
/// analysis moves them to history once a later request carries the item.
#[derive(Debug, Clone)]
pub(super) struct ClassifiedItem {
    pub report: ItemReport,
    pub tokens: TokenBreakdown,
}

/// Where the base instructions come from, for the Responses Lite message that carries them,
/// and how much of each entry's text to keep.
pub(super) struct ClassifyContext<'a> {
    pub instructions_provenance: &'a str,
    pub texts: EntryTexts,
}

/// Classifies `item` at input position `index`. `sent_bytes` is the size of the item as the
/// provider receives it; `item` is the recorded one, whose content kinds the provider may not
/// see.
pub(super) fn classify_item(
    index: usize,
    item: &ResponseItem,
    sent_bytes: usize,
    context: &ClassifyContext<'_>,
    counter: &mut TokenCounter,
) -> ClassifiedItem {
    let mut entries = Vec::new();
    let mut push = |class: EntryClass, source: TokenSource, text: Cow<'_, str>| {
        let mut entry = EntryReport {
            index: entries.len(),
            class,
            source,
            origin: None,
            content_kind: None,
            bytes: 0,
            tokens: 0,
            text: String::new(),
            preview: String::new(),
        };
        measure(&mut entry, text, context.texts, counter);
        entries.push(entry);
    };
    let role = match item {
        ResponseItem::Message { role, content, .. } => {
            let kinds = item.content_item_kinds();
            for (position, part) in content.iter().enumerate() {
                let kind = kinds
                    .and_then(|kinds| kinds.get(position))
                    .map(ContentItemKind::as_str);
                let mut entry = classify_content(role, part, kind, context, counter);
                entry.index = position;
                entries.push(entry);
            }
            Some(role.clone())
        }
        ResponseItem::Reasoning {
            summary, content, ..
        } => {
            let mut texts: Vec<&str> = summary
                .iter()
                .map(|part| match part {
                    ReasoningItemReasoningSummary::SummaryText { text } => text.as_str(),
                })
                .collect();
            texts.extend(content.iter().flatten().map(|part| match part {
                ReasoningItemContent::ReasoningText { text }
                | ReasoningItemContent::Text { text } => text.as_str(),
            }));
            push(
                EntryClass::Reasoning,
                TokenSource::NewInput,
                Cow::Owned(texts.join("\n")),
            );
            None
        }
        ResponseItem::LocalShellCall { action, .. } => {
            let LocalShellAction::Exec(exec) = action;
            push(
                EntryClass::ToolCall,
                TokenSource::NewInput,
                Cow::Owned(format!("local_shell {}", exec.command.join(" "))),
            );
            None
        }
        ResponseItem::FunctionCall {
            name,
            namespace,
            arguments,
            ..
        } => {
            let qualified = match namespace {
                Some(namespace) => format!("{namespace}.{name}"),
                None => name.clone(),
            };
            push(
                EntryClass::ToolCall,
                TokenSource::NewInput,
                Cow::Owned(format!("{qualified} {arguments}")),
            );
            None
        }
        ResponseItem::CustomToolCall { name, input, .. } => {
            push(
                EntryClass::ToolCall,
                TokenSource::NewInput,
                Cow::Owned(format!("{name} {input}")),
            );
            None
        }
        ResponseItem::WebSearchCall { action, .. } => {
            let text = action
                .as_ref()
                .and_then(|action| serde_json::to_string(action).ok())
                .unwrap_or_default();
            push(
                EntryClass::ToolCall,
                TokenSource::NewInput,
                Cow::Owned(format!("web_search {text}")),
            );
            None
        }
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => {
            // A tool output's text is measured where it is: it can be tens of megabytes.
            let text = match &output.body {
                FunctionCallOutputBody::Text(text) => Cow::Borrowed(text.as_str()),
                FunctionCallOutputBody::ContentItems(_) => {
                    Cow::Owned(output.text().unwrap_or_default())
                }
            };
            push(EntryClass::ToolOutput, TokenSource::NewInput, text);
            None
        }
        ResponseItem::Compaction {
            encrypted_content, ..
        } => {
            push(
                EntryClass::Other,
                TokenSource::NewInput,
                Cow::Owned(format!(
                    "[encrypted compaction summary, {} bytes]",
                    encrypted_content.len()
                )),
            );
            None
        }
        ResponseItem::AdditionalTools { role, tools, .. } => {
            let text = serde_json::to_string(tools).unwrap_or_default();
            push(EntryClass::Tools, TokenSource::Tools, Cow::Owned(text));
            Some(role.clone())
        }
        ResponseItem::Other(raw) => {
            let item_type = raw.get("type").and_then(serde_json::Value::as_str);
            let class = match item_type {
                Some(name) if name.ends_with("_call") => EntryClass::ToolCall,
                Some(name) if name.ends_with("_output") => EntryClass::ToolOutput,
                Some(_) | None => EntryClass::Other,
            };
            push(class, TokenSource::NewInput, Cow::Owned(raw.to_string()));
            raw.get("role")
                .and_then(serde_json::Value::as_str)
                .map(str::to_string)
        }
    };
    // Unmodelled items keep their own `type` in the raw JSON.
    let item_type = if let ResponseItem::Other(raw) = item {
        Cow::Owned(
            raw.get("type")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("other")
                .to_string(),
        )
    } else {
        Cow::Borrowed(item.item_type())
    };
    let mut tokens = TokenBreakdown::default();
    for entry in &entries {
        tokens.add(entry.source, entry.tokens);
    }
    ClassifiedItem {
        report: ItemReport {
            index,
            item_type,
            role,
            bytes: sent_bytes,
            tokens: tokens.total(),
            entries,
        },
        tokens,
    }
}

/// Fills in `entry`'s size, tokens, preview and (as `texts` asks) text.
fn measure(
    entry: &mut EntryReport,
    text: Cow<'_, str>,
    texts: EntryTexts,
    counter: &mut TokenCounter,
) {
    entry.bytes = text.len();
    entry.tokens = counter.count(&text);
    entry.preview = preview(&text);
    entry.text = match texts {
        EntryTexts::Whole => text.into_owned(),
        EntryTexts::PreviewOnly => String::new(),
    };
}

/// One content part of a `role` message.
fn classify_content(
    role: &str,
    part: &ContentItem,
    kind: Option<&str>,
    context: &ClassifyContext<'_>,
    counter: &mut TokenCounter,
) -> EntryReport {
    let text = match part {
        ContentItem::InputText { text } | ContentItem::OutputText { text, .. } => {
            Cow::Borrowed(text.as_str())
        }
        ContentItem::InputImage { .. } => Cow::Borrowed("[image]"),
        ContentItem::InputAudio { .. } => Cow::Borrowed("[audio]"),
        ContentItem::Other(raw) => Cow::Owned(raw.to_string()),
    };
    let mut entry = EntryReport {
        index: 0,
        class: EntryClass::Other,
        source: TokenSource::NewInput,
        origin: None,
        content_kind: kind.map(str::to_string),
        bytes: 0,
        tokens: 0,
        text: String::new(),
        preview: String::new(),
    };
    let recorded_kind = kind.filter(|kind| !kind.is_empty() && *kind != ContentItemKind::UNKNOWN);
    match injected_fragment(role, &text, kind) {
        Some((info, recognised_by)) => {
            entry.source = fragment_source(info);
            entry.origin = if info.name == BASE_INSTRUCTIONS_FRAGMENT {
                Some(context.instructions_provenance.to_string())
            } else {
                fragment_origin(info, &text)
            };
            entry.class = if info.name == BASE_INSTRUCTIONS_FRAGMENT {
                EntryClass::BaseInstructions
            } else {
                EntryClass::Injected {
                    fragment: info.name.to_string(),
                    recognised_by,
                }
            };
        }
        None if role == "user" => {
            // Text whose kind says a person wrote it may still copy a fragment's markers.
            let imitates = recorded_kind
                .filter(|kind| kind.starts_with(USER_CONTENT_KIND_PREFIX))
                .and_then(|_| codex_fragments::classify(role, &text, None))
                .map(|info| info.name.to_string());
            entry.class = EntryClass::UserText { imitates };
        }
        None if role == ASSISTANT_ROLE => entry.class = EntryClass::AssistantOutput,
        None => entry.source = TokenSource::DeveloperContext,
    }
    measure(&mut entry, text, context.texts, counter);
    entry
}

/// The world-state section (or extension section) a fragment type belongs to.
pub(super) fn fragment_section(info: &FragmentTypeInfo) -> Option<&'static str> {
    match info.origin {
        FragmentOrigin::WorldStateSection(section) | FragmentOrigin::Extension(section) => {
            Some(section)
        }
        FragmentOrigin::Fragment | FragmentOrigin::Protocol | FragmentOrigin::Historical => None,
    }
}

fn fragment_source(info: &FragmentTypeInfo) -> TokenSource {
    match (fragment_section(info), info.name) {
        (Some(AGENTS_MD_SECTION), _) => TokenSource::AgentsMd,
        (Some(ENVIRONMENTS_SECTION), _) => TokenSource::Environment,
        (_, BASE_INSTRUCTIONS_FRAGMENT) => TokenSource::BaseInstructions,
        (_, COMPACTION_SUMMARY_FRAGMENT) => TokenSource::NewInput,
        _ => TokenSource::DeveloperContext,
    }
}

fn fragment_origin(info: &FragmentTypeInfo, text: &str) -> Option<String> {
    let origin = match info.origin {
        FragmentOrigin::WorldStateSection(section) => format!("world-state section {section}"),
        FragmentOrigin::Extension(section) => format!("extension section {section}"),
        FragmentOrigin::Protocol => "protocol".to_string(),
        FragmentOrigin::Historical => "historical fragment (older Codex)".to_string(),
        FragmentOrigin::Fragment => return None,
    };
    let directory = text
        .trim_start()
        .strip_prefix(AGENTS_MD_DIRECTORY_HEADER)
        .and_then(|rest| rest.lines().next())
        .filter(|_| fragment_section(info) == Some(AGENTS_MD_SECTION));
    Some(match directory {
        Some(directory) => format!("{origin}; AGENTS.md for {directory}"),
        None => origin,
    })
}

/// The fragment type of an injected entry, for the timeline: `None` for conversation.
pub(super) fn injected_fragment(
    role: &str,
    text: &str,
    kind: Option<&str>,
) -> Option<(&'static FragmentTypeInfo, Recognition)> {
    let info = codex_fragments::classify(role, text, kind)?;
    let recognised_by = recognition(info, kind);
    // The model's own text is never injected context: an assistant message is a fragment
    // (an inter-agent envelope) only when its recorded kind says so.
    if role == ASSISTANT_ROLE && recognised_by != Recognition::ContentKind {
        return None;
    }
    Some((info, recognised_by))
}

/// A recorded kind that names the type beats the markers; anything else is markers only.
fn recognition(info: &FragmentTypeInfo, kind: Option<&str>) -> Recognition {
    match kind {
        Some(kind) if info.content_kind().matches(kind) => Recognition::ContentKind,
        Some(_) | None => Recognition::MarkersOnly,
    }
}
