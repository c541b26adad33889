//! The harness catches each class of difference between a release's capture and this
//! project's output: a removed item, an added developer message, a missing tool, an added id,
//! a changed rollout line type, other headers.

use std::path::Path;

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use super::*;
use crate::real_codex::mock::RecordedRequest;
use crate::real_codex::ours::Invocation;

fn body() -> Value {
    json!({
        "model": "gpt-5.5",
        "instructions": "You are a test agent.",
        "input": [
            {"type": "message", "role": "developer", "content": [
                {"type": "input_text", "text": "<permissions instructions>\nRead only.\n</permissions instructions>"}
            ]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}
        ],
        "tools": [
            {"type": "function", "name": "exec_command", "description": "Runs a command.",
             "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}}}
        ],
        "tool_choice": "auto",
        "parallel_tool_calls": true,
        "reasoning": {"effort": "medium"},
        "store": false,
        "stream": true,
        "include": ["reasoning.encrypted_content"],
        "prompt_cache_key": "thread-1",
        "client_metadata": {"session_id": "thread-1"}
    })
}

/// A small rollout of one turn, in this project's own words.
fn rollout_lines() -> Vec<Value> {
    let meta = json!({"id": "t1", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/repo",
        "originator": "test", "cli_version": "0", "source": "exec", "model_provider": "mock",
        "base_instructions": {"text": "You are a test agent."}});
    let payloads = [
        ("session_meta", meta),
        (
            "event_msg",
            json!({"type": "task_started", "turn_id": "u1"}),
        ),
        ("response_item", body()["input"][0].clone()),
        (
            "turn_context",
            json!({"turn_id": "u1", "cwd": "/repo", "approval_policy": "never",
            "sandbox_policy": {"type": "read-only"}, "model": "gpt-5.5"}),
        ),
        ("response_item", body()["input"][1].clone()),
        (
            "event_msg",
            json!({"type": "user_message", "message": "hello"}),
        ),
        (
            "response_item",
            json!({"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "Done."}]}),
        ),
        (
            "event_msg",
            json!({"type": "task_complete", "turn_id": "u1"}),
        ),
    ];
    payloads
        .into_iter()
        .map(|(kind, payload)| {
            json!({"timestamp": "2026-01-01T00:00:00Z", "type": kind, "payload": payload})
        })
        .collect()
}

fn write_rollout(path: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    std::fs::write(path, text).expect("write rollout");
}

fn headers() -> Vec<(String, String)> {
    [
        ("content-type", "application/json"),
        ("originator", "codex_exec"),
        (
            "x-codex-turn-metadata",
            r#"{"turn_id":"u1","sandbox":"none"}"#,
        ),
    ]
    .map(|(name, value)| (name.to_string(), value.to_string()))
    .to_vec()
}

/// The findings of `column` when the release sent `real` and wrote `real_rollout`, and this
/// project built `ours` and wrote `ours_rollout`.
fn findings(
    column: Column,
    (real, real_rollout): (Value, Vec<Value>),
    (ours, ours_rollout): (Value, Vec<Value>),
    ours_headers: Vec<(String, String)>,
) -> Cell {
    let dir = tempfile::tempdir().expect("tempdir");
    let (real_path, ours_path) = (dir.path().join("real.jsonl"), dir.path().join("ours.jsonl"));
    write_rollout(&real_path, &real_rollout);
    write_rollout(&ours_path, &ours_rollout);
    let request = |body: Value, headers: Vec<(String, String)>| RecordedRequest {
        method: "POST".to_string(),
        path: "/v1/responses".to_string(),
        headers,
        body,
    };
    let real_run = RealRun {
        requests: vec![request(real, headers())],
        step_requests: vec![vec![0]],
        rollouts: vec![real_path],
        unknown_models: Vec::new(),
    };
    let invocation = |label: &str| Invocation {
        label: label.to_string(),
        body: Some(ours.clone()),
        ..Invocation::default()
    };
    let ours_run = OursRun {
        request: invocation("request"),
        send: invocation("send"),
        send_request: Some(request(ours.clone(), ours_headers)),
        send_bodies: vec![ours.clone()],
        resumes: Vec::new(),
        chain: Vec::new(),
        rollout: Some(ours_path),
    };
    let catalog = codex_models_manager::ModelCatalog::bundled().expect("catalog");
    check_run(&real_run, &ours_run, &catalog, &|text| text.to_string())
        .into_iter()
        .find(|(found, _)| *found == column)
        .map(|(_, cell)| cell)
        .expect("column")
}

/// The first-request findings when this project built `ours` (headers as the release's).
fn first_request(ours: Value) -> Cell {
    findings(
        Column::FirstRequest,
        same(),
        (ours, rollout_lines()),
        headers(),
    )
}

fn same() -> (Value, Vec<Value>) {
    (body(), rollout_lines())
}

fn lines(texts: &[&str]) -> Cell {
    Cell::Checked(texts.iter().map(ToString::to_string).collect())
}

#[test]
fn identical_captures_are_equal_in_every_compared_column() {
    for column in [Column::FirstRequest, Column::RolloutWritten] {
        assert_eq!(
            findings(column, same(), same(), headers()),
            lines(&[]),
            "{column:?}"
        );
    }
    assert_eq!(
        findings(Column::Resume, same(), same(), headers()),
        Cell::NotApplicable
    );
}

#[test]
fn a_removed_item_is_found() {
    let mut ours = body();
    ours["input"].as_array_mut().expect("input").remove(0);
    assert_eq!(
        first_request(ours),
        lines(&["request 1: input[0]: only in A (message/developer [permissions])"])
    );
}

#[test]
fn an_added_developer_message_is_found() {
    let mut ours = body();
    ours["input"].as_array_mut().expect("input").insert(
        1,
        json!({"type": "message", "role": "developer",
               "content": [{"type": "input_text", "text": "Be brief."}]}),
    );
    assert_eq!(
        first_request(ours),
        lines(&["request 1: input[1]: only in B (message/developer [developer_text])"])
    );
}

#[test]
fn a_missing_tool_is_found() {
    let mut ours = body();
    ours["tools"] = json!([]);
    assert_eq!(
        first_request(ours),
        lines(&["request 1: tools: tool exec_command only in A"])
    );
}

#[test]
fn an_added_id_is_found() {
    let mut ours = body();
    ours["input"][1]["id"] = json!("msg_1");
    assert_eq!(
        first_request(ours),
        lines(&["request 1: input[1]: id absent != present"])
    );
}

#[test]
fn other_headers_and_models_are_found() {
    let mut ours = body();
    ours["model"] = json!("gpt-5.4");
    let ours_headers = vec![
        ("content-type".to_string(), "application/json".to_string()),
        ("originator".to_string(), "codex_cli_rs".to_string()),
        (
            "x-codex-turn-metadata".to_string(),
            r#"{"turn_id":"u2"}"#.to_string(),
        ),
        ("host".to_string(), "127.0.0.1".to_string()),
    ];
    assert_eq!(
        findings(
            Column::FirstRequest,
            same(),
            (ours, rollout_lines()),
            ours_headers
        ),
        lines(&[
            r#"request 1: model: "gpt-5.5" != "gpt-5.4""#,
            r#"header originator: "codex_exec" != "codex_cli_rs""#,
            "header x-codex-turn-metadata keys [sandbox] only in A",
        ])
    );
}

#[test]
fn a_changed_rollout_line_type_and_its_keys_are_found() {
    let mut ours = rollout_lines();
    ours[5] = json!({"timestamp": "2026-01-01T00:00:00Z", "type": "event_msg",
        "payload": {"type": "item_completed", "turn_id": "u1", "item": {}}});
    ours[3]["payload"]["approval_policy"] = json!("on-request");
    ours[0]["ordinal"] = json!(0);
    assert_eq!(
        findings(Column::RolloutWritten, same(), (body(), ours), headers()),
        lines(&[
            "rollout: line 6: event_msg/user_message only in A",
            "rollout: line 6: event_msg/item_completed only in B",
            "rollout: session_meta keys [ordinal] only in B",
            r#"rollout: turn_context 1 approval_policy: "never" != "on-request""#,
        ])
    );
}
