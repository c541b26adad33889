//! Token usage and compaction bookkeeping lines newer releases write: a `token_usage_record`
//! line after each response's output, `last_usage_includes_reasoning` in `token_count` events,
//! and the `resume_metadata` of a `compacted` line.

use codex_protocol::RolloutItem;
use codex_protocol::TurnContextItem;
use codex_protocol::rollout::TokenUsage;
use serde_json::Map;
use serde_json::Value;
use serde_json::json;

/// Line type of a response's token usage record.
pub const TOKEN_USAGE_RECORD_LINE_TYPE: &str = "token_usage_record";

/// Where a response's token usage belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UsageRecordIds<'a> {
    /// The thread (also its session: a thread of the main session is its own).
    pub thread_id: &'a str,
    /// The turn, which is its own root on the main thread.
    pub turn_id: &'a str,
    /// The response's id; `None` when the response had none (a scripted reply).
    pub response_id: Option<&'a str>,
}

/// The token usage of one response, of its turn so far and of its thread so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UsageTotals {
    pub response: TokenUsage,
    pub turn: TokenUsage,
    pub thread: TokenUsage,
}

/// The payload of a `token_usage_record` line.
pub fn token_usage_record(ids: UsageRecordIds<'_>, totals: &UsageTotals) -> Value {
    json!({
        "thread_id": ids.thread_id,
        "turn_id": ids.turn_id,
        "session_id": ids.thread_id,
        "root_turn_id": ids.turn_id,
        "response_id": ids.response_id,
        "usage": totals.response,
        "turn_token_usage": totals.turn,
        "thread_token_usage": totals.thread,
    })
}

/// `token_usage_record` `payload` as a rollout item.
pub fn token_usage_record_item(payload: Value) -> RolloutItem {
    RolloutItem::Other {
        line_type: TOKEN_USAGE_RECORD_LINE_TYPE.to_string(),
        payload,
    }
}

/// A `token_count` event payload whose `info` says that the last usage's output tokens do not
/// include the reasoning tokens (`last_usage_includes_reasoning`, after `last_token_usage`).
/// Any other payload is returned as it is.
pub fn with_reasoning_excluded(payload: Value) -> Value {
    let Value::Object(mut payload) = payload else {
        return payload;
    };
    if let Some(Value::Object(info)) = payload.get_mut("info") {
        let mut marked = Map::new();
        for (key, value) in std::mem::take(info) {
            let after_last = key == "last_token_usage";
            marked.insert(key, value);
            if after_last {
                marked.insert("last_usage_includes_reasoning".to_string(), json!(false));
            }
        }
        *info = marked;
    }
    Value::Object(payload)
}

/// The `resume_metadata` of a compaction in turn `turn_id` of thread `thread_id`, whose
/// settings `reference` records: what a resume of the compacted thread starts from.
pub fn resume_metadata(thread_id: &str, turn_id: &str, reference: &TurnContextItem) -> Value {
    json!({
        "dynamic_tools": {"thread_id": thread_id, "tools": []},
        "multi_agent_version": reference.multi_agent_version,
        "last_started_turn_id": turn_id,
        "turn_attribution": {
            "turn_id": turn_id,
            "turn_trigger": "exec",
            "parent_turn_id": null,
            "initiating_agent_path": null,
            "root_turn_id": turn_id,
        },
        "previous_turn_settings": {
            "model": reference.model,
            "comp_hash": reference.comp_hash,
            "realtime_active": reference.realtime_active,
        },
    })
}
