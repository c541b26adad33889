//! The lines of a thread folder's `exchanges.jsonl`: what the proxy writes and reads back.

use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;

/// The sidecar of a thread folder: one JSON line per [`ExchangeLine`].
pub const EXCHANGES_FILE: &str = "exchanges.jsonl";

/// One line of `exchanges.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ExchangeLine {
    /// A request arrived and its bytes were written.
    Request {
        number: u32,
        /// The `prompt_cache_key` or session id the thread was grouped by.
        thread: String,
        /// Milliseconds since the Unix epoch.
        received_at_ms: u64,
        method: String,
        path: String,
        /// Lower-cased names in arrival order, secret values redacted.
        headers: Vec<(String, String)>,
        /// The request body as JSON (decoded when it came compressed); `None` without a body.
        body_file: Option<String>,
        /// The compressed bytes as they came, when `Content-Encoding` was gzip or zstd.
        wire_file: Option<String>,
        body_bytes: usize,
    },
    /// The upstream's status and headers arrived.
    Response {
        number: u32,
        status: u16,
        headers: Vec<(String, String)>,
        /// The file the response body is written to, line by line as it arrives.
        body_file: String,
        /// The compressed bytes as they came, when an event stream came gzip or zstd.
        #[serde(default)]
        wire_file: Option<String>,
        /// Time from the request's arrival to the response head.
        first_byte_ms: u64,
    },
    /// The exchange ended.
    End {
        number: u32,
        outcome: Outcome,
        /// Why a failed exchange failed.
        reason: Option<String>,
        /// Time from the request's arrival to the end of the response.
        total_ms: u64,
        response_bytes: u64,
        /// `response.usage` of the `response.completed` event.
        usage: Option<Value>,
        response_id: Option<String>,
    },
}

/// How an exchange ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Completed,
    Failed,
}
