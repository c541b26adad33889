//! `client_metadata`: the ids upstream attaches to every request, plus the JSON-encoded
//! `x-codex-turn-metadata` summary of the turn.

use std::collections::BTreeMap;

use codex_protocol::SandboxMode;
use codex_protocol::openai_models::ReasoningEffort;
use serde::Deserialize;
use serde::Serialize;

/// `agent_name` of a root (non-subagent) thread.
pub const ROOT_AGENT_NAME: &str = "/root";

/// What a request is for (`request_kind` in the turn metadata).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestKind {
    Turn,
    Compaction,
}

/// `compaction` in the turn metadata of a compaction request: why and how the history is
/// summarised (upstream: `CompactionTurnMetadata` in `codex-rs/core/src/responses_metadata.rs`;
/// the values are upstream's analytics enum spellings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CompactionMetadata {
    pub trigger: &'static str,
    pub reason: &'static str,
    pub implementation: &'static str,
    pub phase: &'static str,
    pub strategy: &'static str,
}

impl CompactionMetadata {
    /// Compaction started automatically in the middle of a turn because the token usage passed
    /// `model_auto_compact_token_limit`, summarised by the model over the Responses API.
    pub const AUTO_MID_TURN: Self = Self {
        trigger: "auto",
        reason: "context_limit",
        implementation: "responses",
        phase: "mid_turn",
        strategy: "memento",
    };

    /// Compaction the user asked for (`/compact`), run as a task of its own between turns and
    /// summarised by the model over the Responses API.
    pub const MANUAL_STANDALONE: Self = Self {
        trigger: "manual",
        reason: "user_requested",
        implementation: "responses",
        phase: "standalone_turn",
        strategy: "memento",
    };
}

/// The object encoded into `client_metadata["x-codex-turn-metadata"]`. Declaration order is
/// upstream's key order; optional keys are left out when `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnMetadata {
    pub installation_id: String,
    pub session_id: String,
    pub thread_id: String,
    pub agent_name: String,
    pub turn_id: String,
    /// `<thread id>:<context window number>`.
    pub window_id: String,
    /// The context window's number (0 until the first compaction), as in `window_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_number: Option<u64>,
    /// The context window's id; the released `codex exec` 0.149.1 sends none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_window_id: Option<String>,
    pub request_kind: RequestKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from_thread_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_thread_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_turn_id: Option<String>,
    /// How the process got the thread's history: started it, or read it back from a rollout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_initialization: Option<HistoryInitialization>,
    /// The turn a request (a turn's or a compaction's) belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_turn_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_source: Option<String>,
    /// What started the turn (`exec`: the `codex exec` command line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_trigger: Option<TurnTrigger>,
    /// The platform sandbox in force (`seccomp`, `none`, ...).
    pub sandbox: String,
    pub sandbox_mode: SandboxMode,
    pub auto_review_enabled: bool,
    pub node_repl_auto_review_required: bool,
    pub node_repl_disabled: bool,
    /// Per repository root the turn runs in, its git state; absent outside a repository.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspaces: Option<BTreeMap<String, TurnMetadataWorkspace>>,
    pub turn_started_at_unix_ms: i64,
    /// `[analytics] enabled`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analytics_enabled: Option<bool>,
    /// Details of a compaction request, passed through unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction: Option<serde_json::Value>,
    /// The turn's model (turn requests only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The effort the request asks for (turn requests only; absent when the model has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_effort: Option<ReasoningEffort>,
}

/// `history_initialization` in the turn metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryInitialization {
    /// The process started the thread.
    #[default]
    New,
    /// The process resumed the thread from its rollout.
    ColdResume,
}

/// `turn_trigger` in the turn metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnTrigger {
    /// A `codex exec` invocation.
    Exec,
}

/// One repository of the turn metadata's `workspaces`. Declaration order is upstream's key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnMetadataWorkspace {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latest_git_commit_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_changes: Option<bool>,
}

/// Which client's turn metadata a thread's requests carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClientSurface {
    /// Upstream's core at the reference commit as its test harness drives it (the captured
    /// scenarios): the context window id, no thread source, no git state (its threads run in
    /// folders outside any repository).
    #[default]
    CoreHarness,
    /// The released `codex exec` (0.149.1) on a thread the user started (`session_meta`
    /// `thread_source` `user`): the thread source and the repository's git state
    /// (`workspaces`), and no context window id.
    ExecCli,
}

impl ClientSurface {
    /// Whether the thread's steps carry the `managed_developer_instructions` world-state
    /// section on a release that records it only for the reference commit's core
    /// (`ManagedInstructionsRecord::CoreHarnessOnly`): that core records it on every step;
    /// 0.149.1 was released before the section existed and records (and sends) none.
    pub fn has_managed_developer_instructions(self) -> bool {
        match self {
            ClientSurface::CoreHarness => true,
            ClientSurface::ExecCli => false,
        }
    }

    /// The surface of a thread whose `session_meta` records `thread_source`.
    pub fn of_thread_source(thread_source: Option<&str>) -> Self {
        match thread_source {
            Some(crate::session::THREAD_SOURCE_USER) => ClientSurface::ExecCli,
            Some(_) | None => ClientSurface::CoreHarness,
        }
    }
}

/// The `client_metadata` object. Upstream builds it from a hash map, so its key order varies from
/// request to request; this struct fixes one order so bodies are reproducible.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientMetadata {
    #[serde(rename = "x-codex-installation-id")]
    pub installation_id: String,
    #[serde(rename = "x-codex-window-id")]
    pub window_id: String,
    pub session_id: String,
    pub turn_id: String,
    pub thread_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_turn_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_turn_id: Option<String>,
    #[serde(
        rename = "x-codex-parent-thread-id",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub parent_thread_id: Option<String>,
    /// Subagent source label (e.g. `collab_spawn`), for threads spawned by another agent.
    #[serde(
        rename = "x-openai-subagent",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub subagent: Option<String>,
    /// [`TurnMetadata`] as compact JSON text.
    #[serde(rename = "x-codex-turn-metadata")]
    pub turn_metadata: String,
}

impl ClientMetadata {
    /// The ids of `turn` plus its JSON encoding; `subagent` stays `None` for the caller to set.
    pub fn from_turn_metadata(turn: &TurnMetadata) -> Result<Self, serde_json::Error> {
        Ok(Self {
            installation_id: turn.installation_id.clone(),
            window_id: turn.window_id.clone(),
            session_id: turn.session_id.clone(),
            turn_id: turn.turn_id.clone(),
            thread_id: turn.thread_id.clone(),
            root_turn_id: turn.root_turn_id.clone(),
            parent_turn_id: turn.parent_turn_id.clone(),
            parent_thread_id: turn.parent_thread_id.clone(),
            subagent: None,
            turn_metadata: serde_json::to_string(turn)?,
        })
    }
}
