//! What the proxy tells a live view about each finished exchange.

use std::path::PathBuf;

use serde_json::Value;

/// One exchange that ended (completed or failed).
#[derive(Debug, Clone, PartialEq)]
pub struct ProxyEvent {
    /// The `prompt_cache_key` or session id it was grouped by (`unthreaded` without one).
    pub thread: String,
    /// The thread's recording folder.
    pub thread_dir: PathBuf,
    /// 1-based, per thread.
    pub number: u32,
    /// The upstream's status; `None` when it never answered.
    pub status: Option<u16>,
    /// The request body when it was a Responses request (decoded when it came compressed).
    pub request: Option<Value>,
    /// The turn id Codex sent in `x-codex-turn-metadata`.
    pub turn_id: Option<String>,
    /// `response.usage` of the `response.completed` event.
    pub usage: Option<Value>,
    pub total_ms: u64,
    /// Why it failed; `None` when it completed.
    pub failure: Option<String>,
}
