//! `event_msg` rollout payloads the session writes around turns. Rollout readers use them to
//! find turn segments (`task_started` … `task_complete`), real user messages and rollbacks.

use serde_json::Value;
use serde_json::json;

pub(super) const TASK_STARTED: &str = "task_started";
pub(super) const TASK_COMPLETE: &str = "task_complete";
pub(super) const USER_MESSAGE: &str = "user_message";
pub(super) const AGENT_MESSAGE: &str = "agent_message";
pub(super) const THREAD_ROLLED_BACK: &str = "thread_rolled_back";

pub(super) fn task_started(
    turn_id: &str,
    started_at: i64,
    model_context_window: Option<i64>,
    collaboration_mode_kind: Value,
) -> Value {
    json!({
        "type": TASK_STARTED,
        "turn_id": turn_id,
        "started_at": started_at,
        "model_context_window": model_context_window,
        "collaboration_mode_kind": collaboration_mode_kind,
    })
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

/// What a `task_complete` event says about its turn.
pub(super) struct TaskTimes<'a> {
    pub turn_id: &'a str,
    pub last_agent_message: Option<&'a str>,
    /// Seconds since the epoch.
    pub started_at: i64,
    pub completed_at: i64,
    pub duration_ms: i64,
    /// From the turn's start to its first model output; `None` when the model produced none.
    pub time_to_first_token_ms: Option<i64>,
}

pub(super) fn task_complete(times: TaskTimes<'_>) -> Value {
    let mut payload = json!({
        "type": TASK_COMPLETE,
        "turn_id": times.turn_id,
        "last_agent_message": times.last_agent_message,
        "started_at": times.started_at,
        "completed_at": times.completed_at,
        "duration_ms": times.duration_ms,
    });
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
