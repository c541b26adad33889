//! An item with its texts taken out: what is left is small enough to copy and rewrite for the
//! provider, while the texts (up to tens of megabytes each) are measured where they are.

use codex_protocol::ContentItem;
use codex_protocol::FunctionCallOutputBody;
use codex_protocol::FunctionCallOutputPayload;
use codex_protocol::ResponseItem;
use codex_protocol::models::ReasoningItemContent;
use codex_protocol::models::ReasoningItemReasoningSummary;

/// A copy of `item` with its texts (message and reasoning text, tool arguments, inputs and
/// outputs, encrypted content) empty, and those texts.
pub(super) fn hollowed<'a>(item: &'a ResponseItem) -> (ResponseItem, Vec<&'a str>) {
    let mut texts = Vec::new();
    let mut take = |text: &'a String| {
        texts.push(text.as_str());
        String::new()
    };
    let shell = match item {
        ResponseItem::Message {
            encrypted_content,
            status,
            id,
            role,
            content,
            phase,
            internal_chat_message_metadata_passthrough,
        } => ResponseItem::Message {
            encrypted_content: encrypted_content.as_ref().map(&mut take),
            status: status.clone(),
            id: id.clone(),
            role: role.clone(),
            content: content
                .iter()
                .map(|part| match part {
                    ContentItem::InputText { text } => ContentItem::InputText { text: take(text) },
                    ContentItem::OutputText {
                        text,
                        annotations,
                        logprobs,
                    } => ContentItem::OutputText {
                        text: take(text),
                        annotations: annotations.clone(),
                        logprobs: logprobs.clone(),
                    },
                    ContentItem::InputImage { .. }
                    | ContentItem::InputAudio { .. }
                    | ContentItem::Other(_) => part.clone(),
                })
                .collect(),
            phase: *phase,
            internal_chat_message_metadata_passthrough: internal_chat_message_metadata_passthrough
                .clone(),
        },
        ResponseItem::Reasoning {
            id,
            summary,
            content,
            encrypted_content,
            internal_chat_message_metadata_passthrough,
        } => ResponseItem::Reasoning {
            id: id.clone(),
            summary: summary
                .iter()
                .map(|part| match part {
                    ReasoningItemReasoningSummary::SummaryText { text } => {
                        ReasoningItemReasoningSummary::SummaryText { text: take(text) }
                    }
                })
                .collect(),
            content: content.as_ref().map(|parts| {
                parts
                    .iter()
                    .map(|part| match part {
                        ReasoningItemContent::ReasoningText { text } => {
                            ReasoningItemContent::ReasoningText { text: take(text) }
                        }
                        ReasoningItemContent::Text { text } => {
                            ReasoningItemContent::Text { text: take(text) }
                        }
                    })
                    .collect()
            }),
            encrypted_content: encrypted_content.as_ref().map(&mut take),
            internal_chat_message_metadata_passthrough: internal_chat_message_metadata_passthrough
                .clone(),
        },
        ResponseItem::FunctionCall {
            encrypted_content,
            status,
            id,
            name,
            namespace,
            arguments,
            encrypted_function_args,
            call_id,
            internal_chat_message_metadata_passthrough,
        } => ResponseItem::FunctionCall {
            encrypted_content: encrypted_content.as_ref().map(&mut take),
            status: status.clone(),
            id: id.clone(),
            name: name.clone(),
            namespace: namespace.clone(),
            arguments: take(arguments),
            encrypted_function_args: encrypted_function_args.clone(),
            call_id: call_id.clone(),
            internal_chat_message_metadata_passthrough: internal_chat_message_metadata_passthrough
                .clone(),
        },
        ResponseItem::FunctionCallOutput {
            id,
            call_id,
            name,
            namespace,
            output,
            internal_chat_message_metadata_passthrough,
        } => ResponseItem::FunctionCallOutput {
            id: id.clone(),
            call_id: call_id.clone(),
            name: name.clone(),
            namespace: namespace.clone(),
            output: hollowed_output(output, &mut take),
            internal_chat_message_metadata_passthrough: internal_chat_message_metadata_passthrough
                .clone(),
        },
        ResponseItem::CustomToolCall {
            encrypted_content,
            id,
            status,
            call_id,
            name,
            namespace,
            input,
            internal_chat_message_metadata_passthrough,
        } => ResponseItem::CustomToolCall {
            encrypted_content: encrypted_content.as_ref().map(&mut take),
            id: id.clone(),
            status: status.clone(),
            call_id: call_id.clone(),
            name: name.clone(),
            namespace: namespace.clone(),
            input: take(input),
            internal_chat_message_metadata_passthrough: internal_chat_message_metadata_passthrough
                .clone(),
        },
        ResponseItem::CustomToolCallOutput {
            id,
            call_id,
            name,
            output,
            internal_chat_message_metadata_passthrough,
        } => ResponseItem::CustomToolCallOutput {
            id: id.clone(),
            call_id: call_id.clone(),
            name: name.clone(),
            output: hollowed_output(output, &mut take),
            internal_chat_message_metadata_passthrough: internal_chat_message_metadata_passthrough
                .clone(),
        },
        ResponseItem::Compaction {
            id,
            encrypted_content,
            internal_chat_message_metadata_passthrough,
        } => ResponseItem::Compaction {
            id: id.clone(),
            encrypted_content: take(encrypted_content),
            internal_chat_message_metadata_passthrough: internal_chat_message_metadata_passthrough
                .clone(),
        },
        ResponseItem::LocalShellCall { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::AdditionalTools { .. }
        | ResponseItem::Other(_) => item.clone(),
    };
    (shell, texts)
}

/// A tool output's payload with its text (when it is text) taken by `take`.
fn hollowed_output<'a>(
    output: &'a FunctionCallOutputPayload,
    take: &mut impl FnMut(&'a String) -> String,
) -> FunctionCallOutputPayload {
    FunctionCallOutputPayload {
        body: match &output.body {
            FunctionCallOutputBody::Text(text) => FunctionCallOutputBody::Text(take(text)),
            FunctionCallOutputBody::ContentItems(parts) => {
                FunctionCallOutputBody::ContentItems(parts.clone())
            }
        },
        success: output.success,
    }
}
