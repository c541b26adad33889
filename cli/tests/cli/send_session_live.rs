//! `codex-context session run --live` against a local Responses server.

use std::path::Path;

use codex_rollout::read_rollout;
use codex_rollout::reconstruct;
use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use crate::send_server::Reply;
use crate::send_server::TestServer;
use crate::send_server::answer_events;
use crate::send_server::sse_body;
use crate::support::Run;
use crate::support::arg;
use crate::support::assert_user_error;
use crate::support::binary;
use crate::support::output;

const SECRET_KEY: &str = "sk-test-SECRET-live-0123456789";

fn run(args: &[&str], key: Option<&str>) -> Run {
    let home = tempfile::tempdir().expect("tempdir");
    let mut command = binary(home.path());
    command.args(args);
    if let Some(key) = key {
        command.env("OPENAI_API_KEY", key);
    }
    output(&mut command, b"")
}

/// A two-turn script: the first turn has no reply (the endpoint answers it), the second a
/// scripted one.
fn write_script(dir: &Path) -> std::path::PathBuf {
    write_script_with_turns(
        dir,
        json!([
            {"user": "hi"},
            {"user": "thanks", "assistant": "You're welcome."},
        ]),
    )
}

fn write_script_with_turns(dir: &Path, turns: Value) -> std::path::PathBuf {
    std::fs::create_dir_all(dir.join("project/.git")).expect("mkdir project");
    let script = json!({
        "session": {
            "codex_version": "0.149",
            "cwd": "project",
            "seed": 7,
            "current_date": "2026-11-30",
            "timezone": "Etc/UTC",
            "shell": "bash",
        },
        "turns": turns,
    });
    let path = dir.join("script.json");
    std::fs::write(&path, script.to_string()).expect("write script");
    path
}

fn item_texts(input: &[Value]) -> Vec<(String, Option<String>, String)> {
    input
        .iter()
        .map(|item| {
            (
                item["role"].as_str().unwrap_or_default().to_string(),
                item["id"].as_str().map(str::to_string),
                item["content"][0]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect()
}

#[test]
fn live_session_turns_without_a_reply_are_answered_by_the_endpoint() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = write_script(dir.path());
    let rollout = dir.path().join("rollout.jsonl");
    let server = TestServer::start(|_, _| {
        Reply::EventStream(sse_body(&answer_events(&["Hello ", "there"])))
    });
    let base_url = server.base_url();
    let run = run(
        &[
            "session",
            "run",
            arg(&script),
            "--live",
            "--base-url",
            &base_url,
            "--rollout",
            arg(&rollout),
        ],
        Some(SECRET_KEY),
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(0), ""),
        "{}",
        run.stderr
    );

    // Only the reply-less turn went to the endpoint, with the bytes `session run` prints.
    let printed: Vec<&str> = run.stdout.lines().collect();
    let requests = server.requests();
    assert_eq!((printed.len(), requests.len()), (2, 1));
    let sent = &requests[0];
    assert_eq!(
        (
            sent.target.as_str(),
            sent.header("authorization"),
            String::from_utf8(sent.body.clone()).expect("UTF-8 body"),
        ),
        (
            "/v1/responses",
            Some(format!("Bearer {SECRET_KEY}").as_str()),
            printed[0].to_string(),
        )
    );

    // The second request continues from the live answer.
    let first: Value = serde_json::from_str(printed[0]).expect("JSON line");
    let second: Value = serde_json::from_str(printed[1]).expect("JSON line");
    let first_input = first["input"].as_array().expect("input");
    let second_input = second["input"].as_array().expect("input");
    assert_eq!(&second_input[..first_input.len()], first_input.as_slice());
    let continued = item_texts(&second_input[first_input.len()..]);
    assert_eq!(
        (
            continued.first(),
            continued.last().map(|item| item.2.as_str())
        ),
        (
            Some(&(
                "assistant".to_string(),
                Some("msg_server_1".to_string()),
                "Hello there".to_string()
            )),
            Some("thanks")
        )
    );

    // The rollout holds both answers and resumes cleanly.
    let loaded = read_rollout(&rollout, None).expect("rollout loads");
    assert_eq!(loaded.warnings, Vec::new());
    let session = reconstruct(&loaded);
    assert_eq!(session.warnings, Vec::new());
    let history: Vec<Value> = session
        .history
        .iter()
        .map(|item| serde_json::to_value(item).expect("serializes"))
        .collect();
    let answers: Vec<String> = item_texts(&history)
        .into_iter()
        .filter(|(role, _, _)| role == "assistant")
        .map(|(_, _, text)| text)
        .collect();
    assert_eq!(answers, vec!["Hello there", "You're welcome."]);

    let rollout_text = std::fs::read_to_string(&rollout).expect("rollout text");
    for text in [&run.stdout, &run.stderr, &rollout_text] {
        assert!(!text.contains(SECRET_KEY));
    }
}

/// Every response's usage goes into the rollout as the thread's running total: the endpoint's
/// for live turns, none for scripted replies.
#[test]
fn live_usage_is_recorded_as_a_running_total() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = write_script_with_turns(
        dir.path(),
        json!([
            {"user": "hi"},
            {"user": "thanks", "assistant": "You're welcome."},
            {"user": "one more"},
        ]),
    );
    let rollout = dir.path().join("rollout.jsonl");
    let server = TestServer::start(|_, _| {
        Reply::EventStream(sse_body(&answer_events(&["Hello ", "there"])))
    });
    let run = run(
        &[
            "session",
            "run",
            arg(&script),
            "--live",
            "--base-url",
            &server.base_url(),
            "--rollout",
            arg(&rollout),
        ],
        Some(SECRET_KEY),
    );
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    let events: Vec<Value> = std::fs::read_to_string(&rollout)
        .expect("rollout text")
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a JSON line"))
        .filter(|line| line["type"] == "event_msg")
        .map(|line| line["payload"].clone())
        .collect();
    let window = events
        .iter()
        .find(|event| event["type"] == "task_started")
        .expect("task_started")["model_context_window"]
        .clone();
    let infos: Vec<Value> = events
        .iter()
        .filter(|event| event["type"] == "token_count")
        .map(|event| event["info"].clone())
        .collect();
    let usage = |scale: i64| {
        json!({
            "input_tokens": 1200 * scale, "cached_input_tokens": 1000 * scale,
            "cache_write_input_tokens": 0, "output_tokens": 30 * scale,
            "reasoning_output_tokens": 10 * scale, "total_tokens": 1230 * scale,
        })
    };
    let info = |total: i64, last: i64| {
        json!({
            "total_token_usage": usage(total),
            "last_token_usage": usage(last),
            "model_context_window": window,
        })
    };
    assert_eq!(infos, vec![info(1, 1), info(1, 0), info(2, 1)]);
}

#[test]
fn live_session_needs_an_api_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = write_script(dir.path());
    let server = TestServer::start(|_, _| Reply::EventStream(String::new()));
    let run = run(
        &[
            "session",
            "run",
            arg(&script),
            "--live",
            "--base-url",
            &server.base_url(),
        ],
        None,
    );
    assert_user_error(
        &run,
        "no API key: environment variable OPENAI_API_KEY is unset or empty",
    );
    assert_eq!(server.requests().len(), 0);
}
