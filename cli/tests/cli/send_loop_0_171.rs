//! The rollout `send --codex-version 0.171` and a resumed step write: the line types, their
//! order and keys, and the line metadata of the 0.171.0 release (a tool round trip compacted
//! mid-turn, then a resumed step under another sandbox).

use std::path::Path;

use pretty_assertions::assert_eq;
use serde_json::Map;
use serde_json::Value;
use serde_json::json;

use crate::send_loop::Workspace;
use crate::send_loop::function_call;
use crate::send_loop::response;
use crate::send_loop::text;
use crate::send_server::TestServer;
use crate::support::arg;
use crate::support::binary;
use crate::support::output;

/// Keys whose values are ids or times: left out of the outline.
const VARYING: [&str; 12] = [
    "turn_id",
    "root_turn_id",
    "message_id",
    "revision",
    "thread_id",
    "session_id",
    "last_started_turn_id",
    "first_window_id",
    "previous_window_id",
    "window_id",
    "started_at",
    "cwd",
];

/// `value` with every [`VARYING`] value replaced by `"…"`.
fn redacted(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| {
                    let value = match VARYING.contains(&key.as_str()) && !value.is_null() {
                        true => json!("…"),
                        false => redacted(value),
                    };
                    (key.clone(), value)
                })
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redacted).collect()),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => value.clone(),
    }
}

/// Per line: its kind, its payload's keys, and its line metadata (redacted).
fn outline(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("rollout")
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).expect("JSON line");
            let kind = line["type"].as_str().unwrap_or_default();
            let kind = match (kind, line["payload"]["type"].as_str()) {
                ("event_msg" | "response_item", Some(inner)) => format!("{kind}/{inner}"),
                _ => kind.to_string(),
            };
            let keys: Vec<&String> = line["payload"]
                .as_object()
                .map(|payload| payload.keys().collect())
                .unwrap_or_default();
            let mut entry = json!({"line": kind, "payload keys": keys});
            if let Some(metadata) = line.get("metadata") {
                entry["metadata"] = redacted(metadata);
            }
            entry
        })
        .collect()
}

/// The payload of the first line of type `kind`, redacted.
fn first_payload(path: &Path, kind: &str) -> Value {
    std::fs::read_to_string(path)
        .expect("rollout")
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("JSON line"))
        .find(|line| line["type"] == kind)
        .map(|line| redacted(&line["payload"]))
        .expect("a line of that kind")
}

#[test]
fn send_and_resume_write_the_0_171_line_shapes() {
    let workspace = Workspace::new("model_auto_compact_token_limit = 2000\n");
    let server = TestServer::start(|_, number| match number {
        0 => response(
            number,
            &[function_call("exec_command", json!({"cmd": "echo hi"}))],
            50_000,
        ),
        1 => response(number, &[text("Summary: said hi.")], 100),
        _ => response(number, &[text("Done.")], 100),
    });
    let rollout = workspace.path("rollout.jsonl");
    let base_url = server.base_url();
    let run = workspace.run(
        "send",
        &[
            "--codex-version",
            "0.171",
            "--base-url",
            &base_url,
            "--message",
            "show the marker",
            "--rollout",
            arg(&rollout),
            "--run-commands",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);

    // The next step, resumed under another sandbox: the release is read from the rollout.
    let resumed = output(
        binary(&workspace.path("user")).args([
            "session",
            "resume",
            arg(&rollout),
            "--user",
            "next",
            "--assistant",
            "ok",
            "--write",
            "--surface",
            "exec",
            "--set",
            "sandbox_mode=\"workspace-write\"",
            "--codex-home",
            arg(&workspace.path("home")),
        ]),
        b"",
    );
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);

    let meta = first_payload(&rollout, "session_meta");
    let project = workspace.path("project");
    assert_eq!(
        (
            meta["account_scoped"].clone(),
            meta["cli_version"].clone(),
            meta["runtime_workspace_roots"].clone(),
        ),
        (json!(true), json!("0.171.0"), json!([arg(&project)]))
    );
    insta::assert_json_snapshot!("rollout_0_171_outline", outline(&rollout));
    let mut compacted = first_payload(&rollout, "compacted");
    compacted["replacement_history"] = json!("…");
    compacted["message"] = json!("…");
    insta::assert_json_snapshot!(
        "rollout_0_171_compacted",
        json!({
            "compacted": compacted,
            "token_usage_record": first_payload(&rollout, "token_usage_record"),
            "turn_context": first_payload(&rollout, "turn_context"),
        })
    );

    // `inspect` reads the rollout back.
    let inspected = output(
        binary(&workspace.path("user")).args(["inspect", arg(&rollout), "--format", "json"]),
        b"",
    );
    assert_eq!(inspected.code, Some(0), "{}", inspected.stderr);
}
