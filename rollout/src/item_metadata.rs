//! The line-level `metadata` newer releases write on every `response_item` line: the item's
//! place in the thread's history (`history_sequence`), how much of that history the model had
//! been sent when it was recorded (`sampled_through_sequence`), and, for the user's messages and
//! the model's output, their order among the thread's inputs and the message they retain.
//!
//! A [`HistorySequence`] numbers the items of one thread as they are recorded; a resumed thread
//! continues from the metadata its rollout recorded ([`HistorySequence::of_lines`]).

use std::collections::HashMap;

use codex_fragments::is_user_turn_boundary;
use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
use codex_protocol::RolloutLine;
use serde_json::Map;
use serde_json::Value;
use serde_json::json;

/// The key of a rollout line's metadata object.
pub const LINE_METADATA_KEY: &str = "metadata";
/// Prefix of the revision id of a retained message (`retained_<uuid>`).
pub const RETAINED_REVISION_PREFIX: &str = "retained_";
/// Content kinds of a developer message that describe the tools offered.
const TOOLS_KIND_PREFIX: &str = "tools.";
/// How far a tool output may run past the model's truncation limit before it is cut (the
/// release records a 10,000-token limit as 12,000): six fifths.
const TOOL_OUTPUT_BUDGET: (i64, i64) = (6, 5);

/// Who put an item into history, which decides what its line's metadata records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemOrigin {
    /// The user's own message (or any item the user authored).
    User,
    /// The model's output in answer to a turn's request.
    Model,
    /// The model's summary in answer to a compaction request.
    CompactionSummary,
    /// What the harness adds: context, tool outputs, notices. A tool output records the token
    /// budget it was cut to, derived from `truncation_limit`.
    Harness { truncation_limit: i64 },
}

/// Numbers the response items of one thread as they are recorded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HistorySequence {
    /// `history_sequence` of the newest item (0: none yet).
    last: u64,
    /// `history_sequence` of the newest item the model has been sent.
    sampled_through: u64,
    /// `user_input_order` of the next user message or model output.
    next_input_order: u64,
    /// The metadata recorded for each item id, so an item kept by a compaction keeps its own.
    by_item_id: HashMap<String, Map<String, Value>>,
}

/// A user message a compaction retains, as its `retained_context` lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct RetainedMessage {
    pub metadata: Map<String, Value>,
    pub text: String,
}

impl HistorySequence {
    /// Continues the numbering of a rollout: after the highest `history_sequence` and
    /// `user_input_order` its lines (and its compactions' replacement histories) recorded, with
    /// the newest `sampled_through_sequence`. A rollout without metadata numbers its response
    /// items as if they had carried some.
    pub fn of_lines<'a>(lines: impl IntoIterator<Item = &'a RolloutLine>) -> Self {
        let mut sequence = Self::default();
        let mut unnumbered = 0u64;
        for line in lines {
            sequence.observe(line, &mut unnumbered);
        }
        sequence.finish_observing(unnumbered);
        sequence
    }

    /// Continues the numbering past `line`; `unnumbered` counts response items without
    /// metadata, which [`HistorySequence::finish_observing`] accounts for.
    pub(crate) fn observe(&mut self, line: &RolloutLine, unnumbered: &mut u64) {
        match &line.item {
            RolloutItem::ResponseItem(item) => self.observe_item(
                item.id(),
                line.extra
                    .get(LINE_METADATA_KEY)
                    .and_then(Value::as_object)
                    .cloned(),
                unnumbered,
            ),
            RolloutItem::Compacted(compacted) => {
                let recorded = compacted.replacement_history_metadata.iter().flatten();
                for metadata in recorded.filter_map(Value::as_object) {
                    self.note(metadata);
                }
            }
            RolloutItem::SessionMeta(_)
            | RolloutItem::TurnContext(_)
            | RolloutItem::WorldState(_)
            | RolloutItem::Other { .. } => {}
        }
    }

    /// Ends [`HistorySequence::observe`]: a rollout without metadata numbers its response items
    /// as if they had carried some.
    pub(crate) fn finish_observing(&mut self, unnumbered: u64) {
        self.last = self.last.max(unnumbered);
    }

    /// Everything recorded so far has been sent to the model.
    pub fn sampled(&mut self) {
        self.sampled_through = self.last;
    }

    /// The metadata of `item`, recorded next in `turn_id`. `revision` draws the revision id of
    /// a retained message (without its prefix); it is called only for the user's messages and
    /// the model's messages.
    pub fn next(
        &mut self,
        item: &ResponseItem,
        origin: ItemOrigin,
        turn_id: &str,
        revision: impl FnOnce() -> String,
    ) -> Map<String, Value> {
        self.last += 1;
        let mut metadata = Map::new();
        metadata.insert("history_sequence".into(), json!(self.last));
        metadata.insert(
            "sampled_through_sequence".into(),
            json!(self.sampled_through),
        );
        let retained = retained_message(item, origin);
        if let Some((id, role)) = retained {
            metadata.insert(
                "retained_source".into(),
                json!({
                    "id": {"message_id": id, "turn_id": turn_id, "role": role},
                    "revision": format!("{RETAINED_REVISION_PREFIX}{}", revision()),
                    "complete": true,
                }),
            );
        }
        metadata.insert("client_authored".into(), json!(false));
        let ordered = match origin {
            ItemOrigin::User => retained.is_some(),
            ItemOrigin::Model => retained.is_some() || is_tool_call(item),
            ItemOrigin::CompactionSummary | ItemOrigin::Harness { .. } => false,
        };
        if ordered {
            metadata.insert("user_input_order".into(), json!(self.next_input_order));
            self.next_input_order += 1;
        }
        match origin {
            ItemOrigin::CompactionSummary => {
                metadata.insert("compaction_output".into(), json!(true));
            }
            ItemOrigin::Harness { truncation_limit } if is_tool_output(item) => {
                let (times, per) = TOOL_OUTPUT_BUDGET;
                metadata.insert(
                    "fallback_token_limit_override".into(),
                    json!(truncation_limit.saturating_mul(times) / per),
                );
            }
            ItemOrigin::User | ItemOrigin::Model | ItemOrigin::Harness { .. } => {}
        }
        if (origin == ItemOrigin::User && retained.is_some()) || describes_tools(item) {
            metadata.insert("mcp_attribution".into(), json!({"status": "none"}));
        }
        metadata.insert("model_search_state".into(), json!("unused"));
        if let Some(id) = item.id() {
            self.by_item_id.insert(id.to_string(), metadata.clone());
        }
        metadata
    }

    /// The metadata of an item of a compaction's replacement history: its own when it was
    /// recorded before (a retained user message), else the next number. The summary message is
    /// attributed as the user's messages are; the re-injected context is not.
    pub fn replacement(&mut self, item: &ResponseItem) -> Map<String, Value> {
        if let Some(recorded) = item.id().and_then(|id| self.by_item_id.get(id)) {
            return recorded.clone();
        }
        self.last += 1;
        let mut metadata = Map::new();
        metadata.insert("history_sequence".into(), json!(self.last));
        metadata.insert(
            "sampled_through_sequence".into(),
            json!(self.sampled_through),
        );
        metadata.insert("client_authored".into(), json!(false));
        if is_user_turn_boundary(item) {
            metadata.insert("mcp_attribution".into(), json!({"status": "none"}));
        }
        metadata.insert("model_search_state".into(), json!("unused"));
        if let Some(id) = item.id() {
            self.by_item_id.insert(id.to_string(), metadata.clone());
        }
        metadata
    }

    /// The `retained_context` of a compaction whose replacement history holds `retained` (the
    /// user's messages it keeps, with their metadata).
    pub fn retained_context(&self, retained: &[RetainedMessage]) -> Value {
        let user_messages: Vec<Value> = retained
            .iter()
            .filter_map(|message| {
                let source = message.metadata.get("retained_source")?;
                Some(json!({
                    "revision": source.get("revision"),
                    "order": message.metadata.get("user_input_order"),
                    "turn_id": source.pointer("/id/turn_id"),
                    "message_id": source.pointer("/id/message_id"),
                    "text": message.text,
                    "complete": true,
                }))
            })
            .collect();
        json!({
            "verified_answers": [],
            "incomplete": false,
            "user_messages": user_messages,
            "user_messages_incomplete": false,
            "assistant_messages": [],
            "assistant_messages_incomplete": false,
            "next_order": self.next_input_order,
        })
    }

    /// Takes the numbers of recorded `metadata` into account (a resumed rollout's).
    fn note(&mut self, metadata: &Map<String, Value>) {
        let number = |key: &str| metadata.get(key).and_then(Value::as_u64);
        if let Some(sequence) = number("history_sequence") {
            self.last = self.last.max(sequence);
        }
        if let Some(sampled) = number("sampled_through_sequence") {
            self.sampled_through = self.sampled_through.max(sampled);
        }
        if let Some(order) = number("user_input_order") {
            self.next_input_order = self.next_input_order.max(order + 1);
        }
    }

    /// Continues the numbering past a response item with id `id` recorded with line `metadata`
    /// (see [`HistorySequence::observe`]).
    pub(crate) fn observe_item(
        &mut self,
        id: Option<&str>,
        metadata: Option<Map<String, Value>>,
        unnumbered: &mut u64,
    ) {
        let Some(metadata) = metadata else {
            *unnumbered += 1;
            return;
        };
        self.note(&metadata);
        if let Some(id) = id {
            self.by_item_id.insert(id.to_string(), metadata);
        }
    }
}

/// The id and role of a message whose text the thread retains: the user's own messages and
/// the model's answers.
fn retained_message(item: &ResponseItem, origin: ItemOrigin) -> Option<(Option<&str>, &str)> {
    let ResponseItem::Message { id, role, .. } = item else {
        return None;
    };
    let retained = match origin {
        ItemOrigin::User => is_user_turn_boundary(item),
        ItemOrigin::Model => role == "assistant",
        ItemOrigin::CompactionSummary | ItemOrigin::Harness { .. } => false,
    };
    retained.then_some((id.as_deref(), role.as_str()))
}

fn is_tool_call(item: &ResponseItem) -> bool {
    matches!(
        item,
        ResponseItem::FunctionCall { .. } | ResponseItem::CustomToolCall { .. }
    )
}

fn is_tool_output(item: &ResponseItem) -> bool {
    matches!(
        item,
        ResponseItem::FunctionCallOutput { .. } | ResponseItem::CustomToolCallOutput { .. }
    )
}

/// The Lite `additional_tools` item, or a developer message with a `tools.*` entry.
fn describes_tools(item: &ResponseItem) -> bool {
    match item {
        ResponseItem::AdditionalTools { .. } => true,
        ResponseItem::Message { role, .. } => {
            role == "developer"
                && item.content_item_kinds().is_some_and(|kinds| {
                    kinds
                        .iter()
                        .any(|kind| kind.as_str().starts_with(TOOLS_KIND_PREFIX))
                })
        }
        ResponseItem::FunctionCall { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::FunctionCallOutput { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::Other(_) => false,
    }
}

#[cfg(test)]
#[path = "item_metadata_tests.rs"]
mod tests;
