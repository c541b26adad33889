//! JSONL line builders for rollout tests: each returns one rollout line as written on disk.

#![allow(dead_code)]

pub mod synthetic;

use codex_protocol::models::ResponseItem;
use codex_rollout::LoadedRollout;
use codex_rollout::ReconstructedSession;
use codex_rollout::WorldStateBaseline;
use codex_rollout::parse_rollout;
use serde_json::Value;
use serde_json::json;

pub const TIMESTAMP: &str = "2026-11-30T07:00:00.000Z";

pub fn line(line_type: &str, payload: Value) -> String {
    json!({"timestamp": TIMESTAMP, "type": line_type, "payload": payload}).to_string()
}

/// Joins lines into a file body, each terminated by a line break.
pub fn jsonl(lines: &[String]) -> String {
    lines.iter().map(|line| format!("{line}\n")).collect()
}

pub fn load(text: &str) -> LoadedRollout {
    parse_rollout(text.as_bytes()).expect("in-memory read")
}

pub fn session_meta(thread_id: &str) -> String {
    line(
        "session_meta",
        json!({
            "session_id": thread_id,
            "id": thread_id,
            "timestamp": TIMESTAMP,
            "cwd": "/work",
            "originator": "codex_cli_rs",
            "cli_version": "0.0.0",
            "source": "exec",
            "model_provider": "openai",
            "base_instructions": {
                "text": "Recorded base instructions.",
                "provenance": {"type": "model", "model": "gpt-5.2"}
            },
            "history_mode": "legacy"
        }),
    )
}

fn event(payload: Value) -> String {
    line("event_msg", payload)
}

pub fn task_started(turn_id: &str) -> String {
    event(json!({"type": "task_started", "turn_id": turn_id}))
}

pub fn task_complete(turn_id: &str) -> String {
    event(json!({"type": "task_complete", "turn_id": turn_id}))
}

pub fn user_message_event(text: &str) -> String {
    event(json!({"type": "user_message", "message": text, "images": []}))
}

pub fn token_count() -> String {
    event(json!({"type": "token_count", "info": null, "rate_limits": null}))
}

pub fn rolled_back(num_turns: u64) -> String {
    event(json!({"type": "thread_rolled_back", "num_turns": num_turns}))
}

pub fn message_item(role: &str, text: &str) -> Value {
    let part = if role == "assistant" {
        "output_text"
    } else {
        "input_text"
    };
    json!({"type": "message", "role": role, "content": [{"type": part, "text": text}]})
}

pub fn response_item(item: Value) -> String {
    line("response_item", item)
}

pub fn message(role: &str, text: &str) -> String {
    response_item(message_item(role, text))
}

pub fn permissions() -> String {
    message(
        "developer",
        "<permissions instructions>\nsandbox: read-only\n</permissions instructions>",
    )
}

pub fn environment(cwd: &str) -> String {
    message(
        "user",
        &format!("<environment_context>\n  <cwd>{cwd}</cwd>\n</environment_context>"),
    )
}

pub fn turn_context(turn_id: &str, model: &str) -> String {
    line(
        "turn_context",
        json!({
            "turn_id": turn_id,
            "cwd": "/work",
            "approval_policy": "on-request",
            "sandbox_policy": {"type": "read-only"},
            "model": model,
            "summary": "auto"
        }),
    )
}

pub fn world_full(state: Value) -> String {
    line("world_state", json!({"full": true, "state": state}))
}

pub fn world_patch(state: Value) -> String {
    line("world_state", json!({"full": false, "state": state}))
}

pub fn compacted(message: &str, replacement_history: Option<Vec<Value>>) -> String {
    let mut payload = json!({"message": message});
    if let Some(history) = replacement_history {
        payload["replacement_history"] = Value::Array(history);
    }
    line("compacted", payload)
}

/// One complete user turn: context updates (when given), the turn context, the user message and
/// the reply.
pub fn user_turn(
    turn_id: &str,
    model: &str,
    context: &[String],
    text: &str,
    reply: &str,
) -> Vec<String> {
    let mut lines = vec![task_started(turn_id)];
    lines.extend(context.iter().cloned());
    lines.extend([
        turn_context(turn_id, model),
        message("user", text),
        user_message_event(text),
        message("assistant", reply),
        token_count(),
        task_complete(turn_id),
    ]);
    lines
}

pub fn items(values: &[Value]) -> Vec<ResponseItem> {
    values
        .iter()
        .map(|value| serde_json::from_value(value.clone()).expect("response item"))
        .collect()
}

pub fn baseline(value: Value) -> Option<WorldStateBaseline> {
    Some(serde_json::from_value(value).expect("baseline"))
}

pub fn reference_turn(session: &ReconstructedSession) -> Option<&str> {
    session
        .reference_context_item
        .as_ref()
        .and_then(|context| context.turn_id.as_deref())
}

pub fn two_turn_rollout() -> Vec<String> {
    let mut lines = vec![session_meta("thread-1")];
    lines.extend(user_turn(
        "t1",
        "gpt-5.2",
        &[
            permissions(),
            environment("/work"),
            world_full(json!({"model": "gpt-5.2", "environments": {"cwd": "/work", "date": "d1"}})),
        ],
        "first question",
        "first answer",
    ));
    lines.extend(user_turn(
        "t2",
        "gpt-5.2",
        &[
            environment("/work/sub"),
            world_patch(json!({"environments": {"cwd": "/work/sub"}})),
        ],
        "second question",
        "second answer",
    ));
    lines
}
