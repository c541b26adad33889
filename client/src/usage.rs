//! `response.usage` as the Responses API reports it, and the [`TokenUsage`] it stands for.

use codex_protocol::rollout::TokenUsage;
use serde::Deserialize;

/// `response.usage` as the Responses API reports it.
#[derive(Debug, Deserialize)]
pub(crate) struct WireUsage {
    #[serde(default)]
    input_tokens: i64,
    #[serde(default)]
    input_tokens_details: Option<WireInputDetails>,
    #[serde(default)]
    output_tokens: i64,
    #[serde(default)]
    output_tokens_details: Option<WireOutputDetails>,
    #[serde(default)]
    total_tokens: i64,
}

#[derive(Debug, Deserialize)]
struct WireInputDetails {
    #[serde(default)]
    cached_tokens: Option<i64>,
    #[serde(default)]
    cache_write_tokens: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct WireOutputDetails {
    #[serde(default)]
    reasoning_tokens: Option<i64>,
}

impl From<WireUsage> for TokenUsage {
    fn from(wire: WireUsage) -> Self {
        let input = wire.input_tokens_details.as_ref();
        TokenUsage {
            input_tokens: wire.input_tokens,
            cached_input_tokens: input.and_then(|d| d.cached_tokens).unwrap_or(0),
            cache_write_input_tokens: input.and_then(|d| d.cache_write_tokens).unwrap_or(0),
            output_tokens: wire.output_tokens,
            reasoning_output_tokens: wire
                .output_tokens_details
                .and_then(|d| d.reasoning_tokens)
                .unwrap_or(0),
            total_tokens: wire.total_tokens,
        }
    }
}
