//! Whether a history's tool calls and outputs pair up, kept up to date as items arrive.

use std::collections::HashSet;

use codex_protocol::ResponseItem;

/// Which output answers a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum CallFamily {
    Function,
    Custom,
}

/// Whether history needs the prompt normalisation (a call without output or an output without
/// call), tracked as items arrive so that clean histories are never copied.
#[derive(Debug, Default)]
pub(super) struct Pairing {
    calls: HashSet<(CallFamily, String)>,
    answered: HashSet<(CallFamily, String)>,
    unanswered_calls: usize,
    orphan_outputs: usize,
}

impl Pairing {
    pub fn of(items: &[ResponseItem]) -> Self {
        let mut pairing = Self::default();
        for item in items {
            pairing.record(item);
        }
        pairing
    }

    pub fn record(&mut self, item: &ResponseItem) {
        let (family, call_id, is_call) = match item {
            ResponseItem::FunctionCall { call_id, .. } => (CallFamily::Function, call_id, true),
            ResponseItem::LocalShellCall {
                call_id: Some(call_id),
                ..
            } => (CallFamily::Function, call_id, true),
            ResponseItem::CustomToolCall { call_id, .. } => (CallFamily::Custom, call_id, true),
            ResponseItem::FunctionCallOutput {
                call_id: Some(call_id),
                ..
            } => (CallFamily::Function, call_id, false),
            ResponseItem::CustomToolCallOutput { call_id, .. } => {
                (CallFamily::Custom, call_id, false)
            }
            ResponseItem::FunctionCallOutput { call_id: None, .. } => {
                self.orphan_outputs += 1;
                return;
            }
            ResponseItem::LocalShellCall { call_id: None, .. }
            | ResponseItem::Message { .. }
            | ResponseItem::Reasoning { .. }
            | ResponseItem::WebSearchCall { .. }
            | ResponseItem::Compaction { .. }
            | ResponseItem::AdditionalTools { .. }
            | ResponseItem::Other(_) => return,
        };
        let key = (family, call_id.clone());
        if is_call {
            if self.calls.contains(&key) {
                return;
            }
            if self.answered.contains(&key) {
                self.orphan_outputs -= 1;
            } else {
                self.unanswered_calls += 1;
            }
            self.calls.insert(key);
        } else {
            if self.answered.contains(&key) {
                return;
            }
            if self.calls.contains(&key) {
                self.unanswered_calls -= 1;
            } else {
                self.orphan_outputs += 1;
            }
            self.answered.insert(key);
        }
    }

    pub fn is_clean(&self) -> bool {
        self.unanswered_calls == 0 && self.orphan_outputs == 0
    }
}
