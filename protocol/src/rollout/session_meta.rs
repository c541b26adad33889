//! The `session_meta` rollout payload.

use std::path::PathBuf;

use serde::Deserialize;
use serde::Serialize;

use crate::models::BaseInstructions;

/// Thread identity and creation-time settings, written as the first line of a rollout (and again
/// for forks and resumes). Declaration order is the wire order. Shapes this workspace does not
/// interpret are kept as raw JSON, and unknown keys survive in `extra` (written last).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionMeta {
    /// Whether the thread belongs to the signed-in account (newer releases write it first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_scoped: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Thread id.
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from_ordinal_exclusive: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_thread_id: Option<String>,
    pub timestamp: String,
    pub cwd: PathBuf,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_workspace_roots: Option<Vec<PathBuf>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub originator: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cli_version: Option<String>,
    /// `"exec"`, `"cli"`, … or an object such as `{"subagent": {...}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_nickname: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_provider: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_instructions: Option<BaseInstructions>,
    /// Pre-provenance rollouts stored the instructions as a bare string under this key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_tools: Option<Vec<serde_json::Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected_capability_roots: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_mode: Option<String>,
    /// `"legacy"` or `"paginated"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_base: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_history_start_ordinal: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multi_agent_version: Option<String>,
    /// `{"window_id": ...}` of the context window the thread started in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_window: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git: Option<serde_json::Value>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl SessionMeta {
    /// The recorded base-instruction text, from the current field or the legacy string.
    pub fn base_instructions_text(&self) -> Option<&str> {
        self.base_instructions
            .as_ref()
            .map(|instructions| instructions.text.as_str())
            .or(self.instructions.as_deref())
    }
}

/// How a rollout records a turn's messages (`session_meta.history_mode`, upstream's
/// `ThreadHistoryMode`; codex-rs/rollout/src/policy.rs): legacy rollouts write `user_message`,
/// `agent_message` and reasoning events, paginated ones `item_completed` events with the turn
/// items instead, and number their lines (`ordinal`). A new thread's mode is a setting
/// (`history_mode`); a resumed or forked thread keeps its rollout's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HistoryMode {
    /// Rollouts without a `history_mode`, and those that say `legacy`.
    #[default]
    Legacy,
    Paginated,
}

impl HistoryMode {
    /// The protocol spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            HistoryMode::Legacy => "legacy",
            HistoryMode::Paginated => "paginated",
        }
    }

    /// The mode of a rollout whose first `session_meta` is `meta`: paginated only when it
    /// says so.
    pub fn of(meta: Option<&SessionMeta>) -> Self {
        match meta.and_then(|meta| meta.history_mode.as_deref()) {
            Some("paginated") => HistoryMode::Paginated,
            Some(_) | None => HistoryMode::Legacy,
        }
    }
}
