//! Upstream's rough token estimate of history it has not sent (`approx_token_count`): four
//! bytes a token.

use codex_protocol::ResponseItem;

use super::ContextManager;

/// Bytes a token, in upstream's estimate.
const BYTES_PER_TOKEN: usize = 4;

/// Four bytes a token over the items' JSON and `instructions`.
pub fn estimated_tokens(items: &[ResponseItem], instructions: &str) -> i64 {
    let bytes: usize = items
        .iter()
        .map(|item| serde_json::to_string(item).map_or(0, |text| text.len()))
        .sum::<usize>()
        + instructions.len();
    i64::try_from(bytes.div_ceil(BYTES_PER_TOKEN)).unwrap_or(i64::MAX)
}

impl ContextManager {
    /// The estimated tokens of the whole history sent with `instructions` (upstream:
    /// `estimate_token_count_with_base_instructions`).
    pub fn estimated_tokens(&self, instructions: &str) -> i64 {
        estimated_tokens(self.items(), instructions)
    }
}
