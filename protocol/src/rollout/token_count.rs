//! Token usage of the responses of a thread, and the `token_count` event line a session appends
//! to its rollout after each response.

use super::EVENT_MSG_LINE_TYPE;
use super::RolloutItem;
use serde::Deserialize;
use serde::Serialize;

/// `type` of the event payload that records token usage.
pub const TOKEN_COUNT_EVENT_TYPE: &str = "token_count";

/// `limit_id` of the rate-limit snapshot a response without rate-limit headers yields.
const DEFAULT_RATE_LIMIT_ID: &str = "codex";

/// Token counts of one response, or a sum of several. Field order is the rollout's key order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TokenUsage {
    pub input_tokens: i64,
    pub cached_input_tokens: i64,
    #[serde(default)]
    pub cache_write_input_tokens: i64,
    pub output_tokens: i64,
    pub reasoning_output_tokens: i64,
    pub total_tokens: i64,
}

impl TokenUsage {
    /// Field-wise sum (saturating, so absurd server numbers cannot overflow).
    pub fn plus(&self, other: &TokenUsage) -> TokenUsage {
        TokenUsage {
            input_tokens: self.input_tokens.saturating_add(other.input_tokens),
            cached_input_tokens: self
                .cached_input_tokens
                .saturating_add(other.cached_input_tokens),
            cache_write_input_tokens: self
                .cache_write_input_tokens
                .saturating_add(other.cache_write_input_tokens),
            output_tokens: self.output_tokens.saturating_add(other.output_tokens),
            reasoning_output_tokens: self
                .reasoning_output_tokens
                .saturating_add(other.reasoning_output_tokens),
            total_tokens: self.total_tokens.saturating_add(other.total_tokens),
        }
    }
}

/// The `info` object of a `token_count` event: the thread's running total, the last response's
/// usage and the model's effective context window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TokenUsageInfo {
    pub total_token_usage: TokenUsage,
    pub last_token_usage: TokenUsage,
    pub model_context_window: Option<i64>,
}

impl TokenUsageInfo {
    /// The info after one more response: `last` is added to the previous total (none for the
    /// first response of a thread).
    pub fn after_response(
        previous: Option<&TokenUsageInfo>,
        last: TokenUsage,
        model_context_window: Option<i64>,
    ) -> TokenUsageInfo {
        let total_token_usage = previous
            .map(|info| info.total_token_usage.plus(&last))
            .unwrap_or(last);
        TokenUsageInfo {
            total_token_usage,
            last_token_usage: last,
            model_context_window,
        }
    }

    /// The info once history was rewritten (a rollback): the total stays, the last usage is
    /// only the estimated size of what history now holds (upstream: `recompute_token_usage`).
    /// `model_context_window` replaces the previous one when known.
    pub fn after_rewrite(
        previous: Option<&TokenUsageInfo>,
        estimated_tokens: i64,
        model_context_window: Option<i64>,
    ) -> TokenUsageInfo {
        TokenUsageInfo {
            total_token_usage: previous
                .map(|info| info.total_token_usage)
                .unwrap_or_default(),
            last_token_usage: TokenUsage {
                total_tokens: estimated_tokens.max(0),
                ..TokenUsage::default()
            },
            model_context_window: model_context_window
                .or_else(|| previous.and_then(|info| info.model_context_window)),
        }
    }
}

/// The payload of a `token_count` `event_msg` line:
/// `{"type":"token_count","info":{…}|null,"rate_limits":{…}}`. Rate limits come from ChatGPT
/// backend headers, which `codex-client` does not read; `rate_limits` is what upstream records for
/// a response without them: the `codex` limit with every window and detail `null`.
pub fn token_count_event(info: Option<&TokenUsageInfo>) -> serde_json::Value {
    let mut payload = serde_json::Map::new();
    payload.insert(
        "type".to_string(),
        serde_json::Value::String(TOKEN_COUNT_EVENT_TYPE.to_string()),
    );
    // Plain integers and options cannot fail to serialize; `null` keeps the line well-formed
    // even so.
    let info = info
        .and_then(|info| serde_json::to_value(info).ok())
        .unwrap_or(serde_json::Value::Null);
    payload.insert("info".to_string(), info);
    payload.insert(
        "rate_limits".to_string(),
        serde_json::json!({
            "limit_id": DEFAULT_RATE_LIMIT_ID,
            "limit_name": null,
            "primary": null,
            "secondary": null,
            "credits": null,
            "individual_limit": null,
            "spend_control_reached": null,
            "plan_type": null,
            "rate_limit_reached_type": null,
        }),
    );
    serde_json::Value::Object(payload)
}

/// [`token_count_event`] as a rollout item, ready for the rollout writer.
pub fn token_count_rollout_item(info: Option<&TokenUsageInfo>) -> RolloutItem {
    RolloutItem::Other {
        line_type: EVENT_MSG_LINE_TYPE.to_string(),
        payload: token_count_event(info),
    }
}
