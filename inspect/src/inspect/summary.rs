//! Small pieces shared by the inspection and the request statistics: one-line item
//! descriptions, percentages, and prefix breaks that happen before the input.

use codex_core::ResponsesRequest;
use codex_protocol::ContentItem;
use codex_protocol::ResponseItem;

use super::model::BreakReason;
use super::model::PrefixBreak;
use super::model::TokenBreakdown;
use super::model::TokenSource;

/// Characters of text shown in a one-line description.
const PREVIEW_CHARS: usize = 60;

/// `part` as a percentage of `total`, rounded to one decimal (0 when `total` is 0).
pub(super) fn percent(part: usize, total: usize) -> f64 {
    if total == 0 {
        return 0.0;
    }
    (part as f64 * 1000.0 / total as f64).round() / 10.0
}

/// The first line of `text`, cut to [`PREVIEW_CHARS`] characters.
pub(super) fn preview(text: &str) -> String {
    let first_line = text.trim_start().lines().next().unwrap_or_default();
    let end = first_line
        .char_indices()
        .nth(PREVIEW_CHARS)
        .map_or(first_line.len(), |(end, _)| end);
    let mut shown = first_line[..end].to_string();
    if shown.len() < first_line.len() || text.trim().lines().nth(1).is_some() {
        shown.push('…');
    }
    shown
}

/// One line naming an item: its type, role or tool, and the start of its text.
pub(super) fn describe_item(item: &ResponseItem) -> String {
    match item {
        ResponseItem::Message { role, content, .. } => {
            let text = content
                .iter()
                .find_map(ContentItem::text)
                .unwrap_or_default();
            format!("{role} message \"{}\"", preview(text))
        }
        ResponseItem::FunctionCall { name, call_id, .. } => {
            format!("function_call {name} ({call_id})")
        }
        ResponseItem::CustomToolCall { name, call_id, .. } => {
            format!("custom_tool_call {name} ({call_id})")
        }
        ResponseItem::FunctionCallOutput { call_id, .. } => {
            format!(
                "function_call_output ({})",
                call_id.as_deref().unwrap_or("no call id")
            )
        }
        ResponseItem::CustomToolCallOutput { call_id, .. } => {
            format!("custom_tool_call_output ({call_id})")
        }
        ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::AdditionalTools { .. } => item.item_type().to_string(),
        ResponseItem::Other(raw) => raw
            .get("type")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("other")
            .to_string(),
    }
}

/// Why nothing of `current` can come from the cache `previous` filled, when the reason lies
/// before the input: the model, the tools or the instructions differ.
pub(super) fn break_before_input(
    previous: &ResponsesRequest,
    current: &ResponsesRequest,
) -> Option<PrefixBreak> {
    let reason = if previous.model != current.model {
        BreakReason::ModelChanged
    } else if previous.tools != current.tools {
        BreakReason::ToolsChanged
    } else if previous.instructions != current.instructions {
        BreakReason::InstructionsChanged
    } else {
        return None;
    };
    Some(PrefixBreak {
        reason,
        item_index: None,
        previous_item: None,
        current_item: None,
    })
}

/// Tokens of each item of the previous request's input, with running sums, so that a request
/// sharing a prefix with the previous one only counts its new items. Conversation is counted as
/// new input and moved to history once a later request carries it.
#[derive(Debug)]
pub(super) struct ItemLedger {
    item_tokens: Vec<TokenBreakdown>,
    /// `prefix_sums[i]` is the sum of `item_tokens[..i]`.
    prefix_sums: Vec<TokenBreakdown>,
}

impl ItemLedger {
    pub fn new() -> Self {
        Self {
            item_tokens: Vec::new(),
            prefix_sums: vec![TokenBreakdown::default()],
        }
    }

    /// Items of the previous request.
    pub fn len(&self) -> usize {
        self.item_tokens.len()
    }

    /// Keeps the first `carried` items (the ones the next request shares).
    pub fn keep(&mut self, carried: usize) {
        self.item_tokens.truncate(carried);
        self.prefix_sums.truncate(carried + 1);
    }

    pub fn push(&mut self, tokens: TokenBreakdown) {
        let mut sum = self.prefix_sums[self.item_tokens.len()];
        for source in TokenSource::ALL {
            sum.add(source, tokens.get(source));
        }
        self.item_tokens.push(tokens);
        self.prefix_sums.push(sum);
    }

    /// Tokens of the first `items` items.
    pub fn sum_of_first(&self, items: usize) -> TokenBreakdown {
        self.prefix_sums[items.min(self.item_tokens.len())]
    }

    /// The request's breakdown: the carried items' conversation is history, the rest new
    /// input, plus the `instructions` and `tools` fields.
    pub fn breakdown(&self, carried: usize, instructions: usize, tools: usize) -> TokenBreakdown {
        let carried_sum = self.sum_of_first(carried);
        let mut tokens = self.sum_of_first(self.item_tokens.len());
        tokens.new_input -= carried_sum.new_input;
        tokens.history += carried_sum.new_input;
        tokens.base_instructions += instructions;
        tokens.tools += tools;
        tokens
    }
}

/// A break at input position `index`, naming the item on each side; when both read the same at
/// a glance, the current one says where the difference must be.
pub(super) fn break_at_item(
    reason: BreakReason,
    index: usize,
    previous: Option<&ResponseItem>,
    current: Option<&ResponseItem>,
) -> PrefixBreak {
    let previous_item = previous.map(describe_item);
    let mut current_item = current.map(describe_item);
    if previous_item.is_some()
        && previous_item == current_item
        && let Some(current_item) = current_item.as_mut()
    {
        current_item.push_str(" (same start; later text, ids or metadata differ)");
    }
    PrefixBreak {
        reason,
        item_index: Some(index),
        previous_item,
        current_item,
    }
}
