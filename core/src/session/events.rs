//! `event_msg` rollout payloads the session writes around turns. Rollout readers use them to
//! find turn segments (`task_started` … `task_complete`), real user messages and rollbacks.

use codex_release::TaskEventRecord;
use serde_json::Value;
use serde_json::json;

pub(super) const TASK_STARTED: &str = "task_started";
pub(super) const TASK_COMPLETE: &str = "task_complete";
pub(super) const USER_MESSAGE: &str = "user_message";
pub(super) const AGENT_MESSAGE: &str = "agent_message";
pub(super) const AGENT_REASONING: &str = "agent_reasoning";
pub(super) const AGENT_REASONING_RAW_CONTENT: &str = "agent_reasoning_raw_content";
pub(super) const THREAD_ROLLED_BACK: &str = "thread_rolled_back";
pub(super) const ITEM_COMPLETED: &str = "item_completed";
pub(super) const CONTEXT_COMPACTED: &str = "context_compacted";

/// What opens a turn of the main thread: the only trigger observed is `codex exec`'s.
const TURN_TRIGGER_EXEC: &str = "exec";

/// What a `task_started` event says about its turn.
pub(super) struct TaskStart<'a> {
    pub turn_id: &'a str,
    pub record: TaskEventRecord,
    /// Seconds since the epoch.
    pub started_at: i64,
    pub model_context_window: Option<i64>,
    pub collaboration_mode_kind: Value,
}

pub(super) fn task_started(start: TaskStart<'_>) -> Value {
    let turn_id = start.turn_id;
    match start.record {
        TaskEventRecord::TurnId => json!({
            "type": TASK_STARTED,
            "turn_id": turn_id,
            "started_at": start.started_at,
            "model_context_window": start.model_context_window,
            "collaboration_mode_kind": start.collaboration_mode_kind,
        }),
        // A turn of the main thread is its own root and has no parent.
        TaskEventRecord::RootTurnAttribution => json!({
            "type": TASK_STARTED,
            "turn_attribution": {
                "turn_id": turn_id,
                "turn_trigger": TURN_TRIGGER_EXEC,
                "parent_turn_id": null,
                "initiating_agent_path": null,
                "root_turn_id": turn_id,
            },
            "turn_id": turn_id,
            "root_turn_id": turn_id,
            "started_at": start.started_at,
            "model_context_window": start.model_context_window,
            "collaboration_mode_kind": start.collaboration_mode_kind,
        }),
    }
}

pub(super) fn user_message(text: &str) -> Value {
    json!({
        "type": USER_MESSAGE,
        "message": text,
        "images": [],
        "local_images": [],
        "audio": [],
        "local_audio": [],
        "text_elements": [],
    })
}

pub(super) fn agent_message(text: &str) -> Value {
    json!({
        "type": AGENT_MESSAGE,
        "message": text,
        "phase": null,
        "memory_citation": null,
    })
}

/// One summary entry of the model's reasoning.
pub(super) fn agent_reasoning(text: &str) -> Value {
    json!({"type": AGENT_REASONING, "text": text})
}

/// One raw reasoning entry, recorded only while raw reasoning is shown.
pub(super) fn agent_reasoning_raw_content(text: &str) -> Value {
    json!({"type": AGENT_REASONING_RAW_CONTENT, "text": text})
}

/// Where an `item_completed` event stands: its thread and turn, and the instant (milliseconds
/// since the epoch) the item was completed, which is also when it started (user and agent
/// messages are recorded whole).
pub(super) struct CompletedAt<'a> {
    pub thread_id: &'a str,
    pub turn_id: &'a str,
    pub millis: i64,
}

/// A turn item completed, as paginated rollouts record user and agent messages instead of
/// `user_message` / `agent_message` events (codex-rs/rollout/src/policy.rs).
fn item_completed(at: CompletedAt<'_>, item: Value) -> Value {
    json!({
        "type": ITEM_COMPLETED,
        "thread_id": at.thread_id,
        "turn_id": at.turn_id,
        "item": item,
        "started_at_ms": at.millis,
        "completed_at_ms": at.millis,
    })
}

/// The user's message as a completed `UserMessage` turn item with id `item_id`.
pub(super) fn user_message_completed(at: CompletedAt<'_>, item_id: &str, text: &str) -> Value {
    item_completed(
        at,
        json!({
            "type": "UserMessage",
            "id": item_id,
            "content": [{"type": "text", "text": text, "text_elements": []}],
        }),
    )
}

/// The model's message as a completed `AgentMessage` turn item; its id is the response item's.
pub(super) fn agent_message_completed(at: CompletedAt<'_>, item_id: &str, text: &str) -> Value {
    item_completed(
        at,
        json!({
            "type": "AgentMessage",
            "id": item_id,
            "content": [{"type": "Text", "text": text}],
        }),
    )
}

/// The model's reasoning as a completed `Reasoning` turn item; its id is the response item's
/// (empty when it has none). Raw entries are kept whether or not they are shown.
pub(super) fn reasoning_completed(
    at: CompletedAt<'_>,
    item_id: &str,
    summary_text: &[String],
    raw_content: &[String],
) -> Value {
    item_completed(
        at,
        json!({
            "type": "Reasoning",
            "id": item_id,
            "summary_text": summary_text,
            "raw_content": raw_content,
        }),
    )
}

/// A command the model ran through `exec_command`, as a completed `CommandExecution` turn item
/// records it (upstream: `ThreadItem::CommandExecution`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandExecution {
    /// The function call's `call_id`, which is the item's id.
    pub call_id: String,
    pub process_id: Option<u32>,
    /// The command line as run (`bash -lc CMD`).
    pub command: Vec<String>,
    /// The model's command text.
    pub cmd: String,
    pub cwd: std::path::PathBuf,
    /// Standard output and error, read together.
    pub output: String,
    /// `None` when the command was stopped or could not run.
    pub exit_code: Option<i32>,
    pub duration: std::time::Duration,
}

/// The item of a command that ran, started its duration before it is recorded. A run without
/// an exit code counts as failed; output is read with standard error joined to standard
/// output, so `stderr` stays empty.
pub(super) fn command_execution_completed(
    at: CompletedAt<'_>,
    execution: &CommandExecution,
) -> Value {
    let at_millis = at.millis;
    let cwd = format!("file://{}", execution.cwd.display());
    let mut payload = item_completed(
        at,
        json!({
            "type": "CommandExecution",
            "id": execution.call_id,
            "process_id": execution.process_id.map(|id| id.to_string()),
            "command": execution.command,
            "cwd": cwd,
            "parsed_cmd": [{"type": "unknown", "cmd": execution.cmd}],
            "source": "unified_exec_startup",
            "status": match execution.exit_code {
                Some(_) => "completed",
                None => "failed",
            },
            "stdout": execution.output,
            "stderr": "",
            "aggregated_output": execution.output,
            "exit_code": execution.exit_code,
            "duration": {
                "secs": execution.duration.as_secs(),
                "nanos": execution.duration.subsec_nanos(),
            },
            "formatted_output": execution.output,
        }),
    );
    let millis = i64::try_from(execution.duration.as_millis()).unwrap_or(i64::MAX);
    payload["started_at_ms"] = json!(at_millis.saturating_sub(millis));
    payload
}

/// The history compacted in the middle of a turn, as a completed `ContextCompaction` turn
/// item; it started when the summary request was made.
pub(super) fn context_compaction_completed(
    at: CompletedAt<'_>,
    item_id: &str,
    started_at_ms: i64,
) -> Value {
    let mut payload = item_completed(at, json!({"type": "ContextCompaction", "id": item_id}));
    payload["started_at_ms"] = json!(started_at_ms);
    payload
}

/// What a `task_complete` event says about its turn.
pub(super) struct TaskTimes<'a> {
    pub turn_id: &'a str,
    pub record: TaskEventRecord,
    pub last_agent_message: Option<&'a str>,
    /// Seconds since the epoch.
    pub started_at: i64,
    pub completed_at: i64,
    pub duration_ms: i64,
    /// From the turn's start to its first model output; `None` when the model produced none.
    pub time_to_first_token_ms: Option<i64>,
    /// Why the turn failed; `None` when it completed.
    pub error: Option<&'a str>,
}

pub(super) fn task_complete(times: TaskTimes<'_>) -> Value {
    let mut payload = match times.record {
        TaskEventRecord::TurnId => json!({"type": TASK_COMPLETE}),
        TaskEventRecord::RootTurnAttribution => {
            json!({"type": TASK_COMPLETE, "root_turn_id": times.turn_id})
        }
    };
    payload["turn_id"] = json!(times.turn_id);
    payload["last_agent_message"] = json!(times.last_agent_message);
    if let Some(message) = times.error {
        payload["error"] = json!({"message": message, "codex_error_info": "other"});
    }
    payload["started_at"] = json!(times.started_at);
    payload["completed_at"] = json!(times.completed_at);
    payload["duration_ms"] = json!(times.duration_ms);
    if let Some(millis) = times.time_to_first_token_ms {
        payload["time_to_first_token_ms"] = json!(millis);
    }
    payload
}

pub(super) fn thread_rolled_back(turns: usize) -> Value {
    json!({
        "type": THREAD_ROLLED_BACK,
        "num_turns": turns,
    })
}

/// A compaction task replaced the history (legacy rollouts).
pub(super) fn context_compacted() -> Value {
    json!({ "type": CONTEXT_COMPACTED })
}
