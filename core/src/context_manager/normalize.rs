//! The pairing rules applied to a copy of history before it is sent: the API rejects a tool call
//! without an output and an output without its call.

use std::collections::HashSet;

use codex_protocol::FunctionCallOutputPayload;
use codex_protocol::ResponseItem;

/// Output recorded for a tool call that never produced one (the turn was interrupted), a
/// protocol fact shared with upstream.
pub const ABORTED_OUTPUT: &str = "aborted";

/// Which output type answers a call.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum CallFamily {
    /// `function_call` and `local_shell_call`, answered by `function_call_output`.
    Function,
    /// `custom_tool_call`, answered by `custom_tool_call_output`.
    Custom,
}

fn call_of(item: &ResponseItem) -> Option<(CallFamily, &str)> {
    match item {
        ResponseItem::FunctionCall { call_id, .. } => Some((CallFamily::Function, call_id)),
        ResponseItem::LocalShellCall {
            call_id: Some(call_id),
            ..
        } => Some((CallFamily::Function, call_id)),
        ResponseItem::CustomToolCall { call_id, .. } => Some((CallFamily::Custom, call_id)),
        ResponseItem::LocalShellCall { call_id: None, .. }
        | ResponseItem::Message { .. }
        | ResponseItem::Reasoning { .. }
        | ResponseItem::FunctionCallOutput { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::AdditionalTools { .. }
        | ResponseItem::Other(_) => None,
    }
}

/// `Some(None)` for an output without a call id, which can never be paired.
fn output_of(item: &ResponseItem) -> Option<(CallFamily, Option<&str>)> {
    match item {
        ResponseItem::FunctionCallOutput { call_id, .. } => {
            Some((CallFamily::Function, call_id.as_deref()))
        }
        ResponseItem::CustomToolCallOutput { call_id, .. } => {
            Some((CallFamily::Custom, Some(call_id)))
        }
        ResponseItem::Message { .. }
        | ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::AdditionalTools { .. }
        | ResponseItem::Other(_) => None,
    }
}

fn aborted_output(family: CallFamily, call_id: &str) -> ResponseItem {
    let output = FunctionCallOutputPayload::from_text(ABORTED_OUTPUT);
    match family {
        CallFamily::Function => ResponseItem::FunctionCallOutput {
            id: None,
            call_id: Some(call_id.to_string()),
            name: None,
            namespace: None,
            output,
            internal_chat_message_metadata_passthrough: None,
        },
        CallFamily::Custom => ResponseItem::CustomToolCallOutput {
            id: None,
            call_id: call_id.to_string(),
            name: None,
            output,
            internal_chat_message_metadata_passthrough: None,
        },
    }
}

/// A copy of `items` in which every call is answered and every output has its call.
pub(super) fn normalized_for_prompt(items: &[ResponseItem]) -> Vec<ResponseItem> {
    let calls: HashSet<(CallFamily, &str)> = items.iter().filter_map(call_of).collect();
    let answered: HashSet<(CallFamily, &str)> = items
        .iter()
        .filter_map(output_of)
        .filter_map(|(family, call_id)| call_id.map(|call_id| (family, call_id)))
        .collect();
    let mut normalized = Vec::with_capacity(items.len());
    for item in items {
        if let Some((family, call_id)) = output_of(item) {
            let paired = call_id.is_some_and(|call_id| calls.contains(&(family, call_id)));
            if !paired {
                tracing::debug!(
                    ?call_id,
                    "dropping a tool output whose call is not in history"
                );
                continue;
            }
        }
        normalized.push(item.clone());
        if let Some(call) = call_of(item)
            && !answered.contains(&call)
        {
            normalized.push(aborted_output(call.0, call.1));
        }
    }
    normalized
}
