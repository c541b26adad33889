//! `codex-context send` as a process against a local Responses server.

use std::path::Path;
use std::path::PathBuf;

use codex_protocol::ResponseItem;
use codex_protocol::RolloutItem;
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

/// The key the process gets; it may appear only in the Authorization header.
const SECRET_KEY: &str = "sk-test-SECRET-send-0123456789";
const USAGE_LINE: &str =
    "usage: 1200 input tokens (1000 cached), 30 output tokens (10 reasoning), 1230 total\n";

/// A fresh CODEX_HOME and project directory, so nothing from the machine leaks in.
struct Workspace {
    dir: tempfile::TempDir,
}

impl Workspace {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("home")).expect("mkdir home");
        std::fs::create_dir_all(dir.path().join("project/.git")).expect("mkdir project");
        Self { dir }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// `command` with CODEX_HOME, cwd and every pin (the release included), then `extra`.
    fn args(&self, command: &str, extra: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = [
            command,
            "--codex-version",
            "0.149",
            "--codex-home",
            arg(&self.path("home")),
            "--cwd",
            arg(&self.path("project")),
            "--seed",
            "7",
            "--current-date",
            "2026-11-30",
            "--timezone",
            "Etc/UTC",
            "--shell",
            "bash",
        ]
        .iter()
        .map(|text| (*text).to_string())
        .collect();
        args.extend(extra.iter().map(|text| (*text).to_string()));
        args
    }

    /// Runs the binary with `key` (if any) in `OPENAI_API_KEY` and no other provider settings
    /// from the environment.
    fn run(&self, args: &[String], key: Option<&str>) -> Run {
        let mut command = binary(&self.path("user"));
        command.args(args).env("CODEX_HOME", self.path("home"));
        if let Some(key) = key {
            command.env("OPENAI_API_KEY", key);
        }
        output(&mut command, b"")
    }

    fn send(&self, server: &TestServer, extra: &[&str]) -> Run {
        let base_url = server.base_url();
        let mut options = vec!["--base-url", base_url.as_str(), "--message", "hi"];
        options.extend_from_slice(extra);
        self.run(&self.args("send", &options), Some(SECRET_KEY))
    }
}

fn answering_server() -> TestServer {
    TestServer::start(|_, _| Reply::EventStream(sse_body(&answer_events(&["Hel", "lo ", "there"]))))
}

/// Every rollout line as JSON.
fn rollout_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("rollout is readable")
        .lines()
        .map(|line| serde_json::from_str(line).expect("rollout line is JSON"))
        .collect()
}

/// `(line type, payload type)` of every rollout line.
fn line_kinds(path: &Path) -> Vec<(String, Option<String>)> {
    std::fs::read_to_string(path)
        .expect("rollout is readable")
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).expect("rollout line is JSON");
            (
                line["type"].as_str().expect("line type").to_string(),
                line["payload"]["type"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn item_id(item: &Value) -> Option<&str> {
    item["id"].as_str()
}

/// `value` without the fields that name a moment or a freshly drawn id.
fn without_ids_and_times(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| !matches!(key.as_str(), "id" | "create_time"))
                .map(|(key, value)| (key.clone(), without_ids_and_times(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_ids_and_times).collect()),
        other => other.clone(),
    }
}

#[test]
fn send_streams_the_answer_and_records_a_resumable_rollout() {
    let workspace = Workspace::new();
    let server = answering_server();
    let rollout = workspace.path("out/rollout.jsonl");
    let run = workspace.send(&server, &["--rollout", arg(&rollout)]);

    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (Some(0), "Hello there\n", USAGE_LINE)
    );

    // One POST with the key in the Authorization header only, the body pretty JSON as
    // `request` prints it.
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    let sent = request.json();
    let thread_id = sent["prompt_cache_key"]
        .as_str()
        .expect("cache key")
        .to_string();
    assert_eq!(
        (
            request.method.as_str(),
            request.target.as_str(),
            request.header("authorization"),
            request.header("accept"),
            request.header("session-id"),
            request.header("thread-id"),
        ),
        (
            "POST",
            "/v1/responses",
            Some(format!("Bearer {SECRET_KEY}").as_str()),
            Some("text/event-stream"),
            Some(thread_id.as_str()),
            Some(thread_id.as_str()),
        )
    );
    let body_text = String::from_utf8(request.body.clone()).expect("UTF-8 body");
    assert_eq!(
        body_text,
        serde_json::to_string_pretty(&sent).expect("serializes") + "\n"
    );

    // The body is the first request `request` builds for the same options; only freshly drawn
    // ids and times differ (the session stamps the items it records).
    let printed = workspace.run(
        &workspace.args("request", &["--surface", "exec", "--message", "hi"]),
        None,
    );
    assert_eq!(printed.code, Some(0), "{}", printed.stderr);
    let expected: Value = serde_json::from_str(&printed.stdout).expect("request prints JSON");
    let comparable = |body: &Value| {
        let mut body = without_ids_and_times(body);
        body["client_metadata"] = Value::Null;
        body
    };
    assert_eq!(comparable(&sent), comparable(&expected));

    // The rollout has upstream's line order for a turn.
    // The default model is served through Responses Lite: the input opens with the tool
    // catalog and the base instructions, which the builder adds and history does not hold.
    let sent_input = sent["input"].as_array().expect("input array");
    let lite_prefix: Vec<(&str, &str)> = sent_input[..2]
        .iter()
        .map(|item| {
            (
                item["type"].as_str().expect("type"),
                item["role"].as_str().expect("role"),
            )
        })
        .collect();
    assert_eq!(
        lite_prefix,
        vec![("additional_tools", "developer"), ("message", "developer")]
    );
    let recorded_input = &sent_input[2..];
    let context_items = recorded_input.len() - 1;
    let mut expected_kinds = vec![
        ("session_meta".to_string(), None),
        ("event_msg".to_string(), Some("task_started".to_string())),
    ];
    expected_kinds.extend(std::iter::repeat_n(
        ("response_item".to_string(), Some("message".to_string())),
        context_items,
    ));
    expected_kinds.extend(
        [
            ("world_state", None),
            ("turn_context", None),
            ("response_item", Some("message")),
            ("event_msg", Some("item_completed")),
            ("event_msg", Some("item_completed")),
            ("response_item", Some("message")),
            ("event_msg", Some("token_count")),
            ("event_msg", Some("task_complete")),
        ]
        .map(|(line, payload)| (line.to_string(), payload.map(str::to_string))),
    );
    assert_eq!(line_kinds(&rollout), expected_kinds);
    // Written as `codex exec` writes a new thread: paginated history, every line numbered, the
    // turn's messages as completed items.
    let lines = rollout_lines(&rollout);
    assert_eq!(
        lines
            .iter()
            .map(|line| line["ordinal"].as_u64())
            .collect::<Vec<_>>(),
        (0..lines.len() as u64).map(Some).collect::<Vec<_>>()
    );
    let meta = &lines[0]["payload"];
    assert_eq!(
        (
            &meta["originator"],
            &meta["source"],
            &meta["thread_source"],
            &meta["history_mode"],
            meta.get("git"),
        ),
        (
            &json!("codex_exec"),
            &json!("exec"),
            &json!("user"),
            &json!("paginated"),
            None
        )
    );
    let completed: Vec<Value> = lines
        .iter()
        .filter(|line| line["payload"]["type"] == "item_completed")
        .map(|line| {
            let payload = &line["payload"];
            assert_eq!(payload["thread_id"], json!(thread_id));
            assert_eq!(payload["started_at_ms"], payload["completed_at_ms"]);
            json!([payload["item"]["type"], payload["item"]["content"]])
        })
        .collect();
    assert_eq!(
        completed,
        vec![
            json!(["UserMessage", [{"type": "text", "text": "hi", "text_elements": []}]]),
            json!(["AgentMessage", [{"type": "Text", "text": "Hello there"}]]),
        ]
    );

    // It reads back without damage and rebuilds the history the endpoint saw, followed by the
    // answer with the server's id.
    let loaded = read_rollout(&rollout, None).expect("rollout loads");
    assert_eq!(loaded.warnings, Vec::new());
    let token_count = loaded
        .items()
        .find_map(|item| {
            if let RolloutItem::Other { payload, .. } = item
                && payload["type"] == "token_count"
            {
                Some(payload.clone())
            } else {
                None
            }
        })
        .expect("a token_count line");
    assert_eq!(
        token_count,
        json!({
            "type": "token_count",
            "info": {
                "total_token_usage": {
                    "input_tokens": 1200, "cached_input_tokens": 1000,
                    "cache_write_input_tokens": 0, "output_tokens": 30,
                    "reasoning_output_tokens": 10, "total_tokens": 1230,
                },
                "last_token_usage": {
                    "input_tokens": 1200, "cached_input_tokens": 1000,
                    "cache_write_input_tokens": 0, "output_tokens": 30,
                    "reasoning_output_tokens": 10, "total_tokens": 1230,
                },
                "model_context_window": token_count["info"]["model_context_window"],
            },
            "rate_limits": {
                "limit_id": "codex", "limit_name": null, "primary": null, "secondary": null,
                "credits": null, "individual_limit": null, "spend_control_reached": null,
                "plan_type": null, "rate_limit_reached_type": null,
            },
        })
    );
    let session = reconstruct(&loaded);
    assert_eq!(session.warnings, Vec::new());
    assert!(session.reference_context_item.is_some());
    let history: Vec<Value> = session
        .history
        .iter()
        .map(|item| serde_json::to_value(item).expect("item serializes"))
        .collect();
    let mut expected_ids: Vec<Option<&str>> = recorded_input.iter().map(item_id).collect();
    expected_ids.push(Some("msg_server_1"));
    assert_eq!(
        history.iter().map(item_id).collect::<Vec<_>>(),
        expected_ids
    );
    let Some(ResponseItem::Message { role, content, .. }) = session.history.last() else {
        panic!("the answer ends the history");
    };
    assert_eq!(
        (
            role.as_str(),
            content.iter().filter_map(|c| c.text()).collect::<String>()
        ),
        ("assistant", "Hello there".to_string())
    );

    // The key appears nowhere but the Authorization header.
    let rollout_text = std::fs::read_to_string(&rollout).expect("rollout text");
    for (name, text) in [
        ("stdout", &run.stdout),
        ("stderr", &run.stderr),
        ("rollout", &rollout_text),
        ("body", &body_text),
    ] {
        assert!(!text.contains(SECRET_KEY), "the key leaked into {name}");
    }
}

#[test]
fn send_prints_resent_text_once() {
    let workspace = Workspace::new();
    let server = TestServer::start(|_, number| {
        let events = answer_events(&["Hel", "lo ", "there"]);
        if number == 0 {
            // Two deltas, then the connection closes before `response.completed`.
            Reply::EventStream(sse_body(&events[..3]))
        } else {
            Reply::EventStream(sse_body(&events))
        }
    });
    let run = workspace.send(&server, &[]);

    assert_eq!(server.requests().len(), 2);
    let stderr: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        (run.code, run.stdout.as_str(), stderr.len(), stderr[1]),
        (Some(0), "Hello there\n", 2, USAGE_LINE.trim_end())
    );
    assert!(
        stderr[0].starts_with(
            "codex-context: warning: stream closed before response.completed; resending the request in "
        ) && stderr[0].ends_with(" s (retry 1 of 5)"),
        "{}",
        stderr[0]
    );
}

#[test]
fn send_prints_the_final_text_when_no_deltas_stream() {
    let workspace = Workspace::new();
    let server = TestServer::start(|_, _| {
        let events: Vec<Value> = answer_events(&["Hello there"])
            .into_iter()
            .filter(|event| event["type"] != "response.output_text.delta")
            .collect();
        Reply::EventStream(sse_body(&events))
    });
    let run = workspace.send(&server, &[]);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (Some(0), "Hello there\n", USAGE_LINE)
    );
}

#[test]
fn send_without_an_api_key_names_the_variable() {
    let workspace = Workspace::new();
    let server = answering_server();
    let base_url = server.base_url();
    let run = workspace.run(
        &workspace.args("send", &["--base-url", &base_url, "--message", "hi"]),
        None,
    );
    assert_user_error(
        &run,
        "no API key: environment variable OPENAI_API_KEY is unset or empty",
    );
    let run = workspace.run(
        &workspace.args(
            "send",
            &[
                "--base-url",
                &base_url,
                "--message",
                "hi",
                "--api-key-env",
                "MY_PROVIDER_KEY",
            ],
        ),
        Some(SECRET_KEY),
    );
    assert_user_error(
        &run,
        "no API key: environment variable MY_PROVIDER_KEY is unset or empty",
    );
    assert_eq!(server.requests().len(), 0);
}

#[test]
fn send_reports_a_rejected_request_without_the_key() {
    let workspace = Workspace::new();
    let server = TestServer::start(|_, _| Reply::Status {
        code: 400,
        body: json!({"error": {
            "message": format!("Incorrect API key provided: {SECRET_KEY}"),
            "code": "invalid_api_key",
        }})
        .to_string(),
    });
    let rollout = workspace.path("rollout.jsonl");
    let run = workspace.send(&server, &["--rollout", arg(&rollout)]);
    assert_user_error(
        &run,
        "server answered HTTP 400: Incorrect API key provided: [redacted]",
    );
    // The unanswered turn stays recorded up to the user's message.
    let kinds = line_kinds(&rollout);
    assert_eq!(
        kinds.last(),
        Some(&("event_msg".to_string(), Some("item_completed".to_string())))
    );
    let rollout_text = std::fs::read_to_string(&rollout).expect("rollout text");
    assert!(!rollout_text.contains(SECRET_KEY));
}

#[test]
fn send_needs_a_message_and_a_new_rollout_file() {
    let workspace = Workspace::new();
    let server = answering_server();
    let base_url = server.base_url();
    let run = workspace.run(
        &workspace.args("send", &["--base-url", &base_url]),
        Some(SECRET_KEY),
    );
    assert_user_error(&run, "send needs the user's message: --message TEXT");

    let existing = workspace.path("existing.jsonl");
    std::fs::write(&existing, "keep me\n").expect("write");
    let run = workspace.send(&server, &["--rollout", arg(&existing)]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(2), ""),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.starts_with(&format!(
            "codex-context: error: cannot create rollout {}: ",
            existing.display()
        )),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&existing).expect("read"),
        "keep me\n"
    );
    assert_eq!(server.requests().len(), 0);
}

#[test]
fn send_rollout_continues_with_session_resume() {
    let workspace = Workspace::new();
    let server = answering_server();
    let rollout = workspace.path("rollout.jsonl");
    let run = workspace.send(&server, &["--rollout", arg(&rollout)]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let sent = server.requests()[0].json();
    let sent_input = sent["input"].as_array().expect("input array");

    let resumed = workspace.run(
        &[
            "session",
            "resume",
            arg(&rollout),
            "--user",
            "next",
            "--codex-home",
            arg(&workspace.path("home")),
            "--set",
            "seed=7",
            "--set",
            "current_date=\"2026-11-30\"",
            "--set",
            "timezone=\"Etc/UTC\"",
            "--set",
            "shell=\"bash\"",
        ]
        .map(str::to_string),
        None,
    );
    assert_eq!(
        (resumed.code, resumed.stderr.as_str()),
        (Some(0), ""),
        "{}",
        resumed.stderr
    );
    let next: Value = serde_json::from_str(&resumed.stdout).expect("resume prints JSON");
    let next_input = next["input"].as_array().expect("input array");

    // The next request repeats the first one's input byte for byte, then the answer, then the
    // new message: the endpoint's cached prefix stays valid.
    assert_eq!(&next_input[..sent_input.len()], sent_input.as_slice());
    let continued: Vec<(Option<&str>, Option<&str>, Value)> = next_input[sent_input.len()..]
        .iter()
        .map(|item| {
            (
                item["role"].as_str(),
                item_id(item).filter(|id| *id == "msg_server_1"),
                item["content"][0]["text"].clone(),
            )
        })
        .collect();
    assert_eq!(
        continued,
        vec![
            (
                Some("assistant"),
                Some("msg_server_1"),
                json!("Hello there")
            ),
            (Some("user"), None, json!("next")),
        ]
    );
}

/// `git` in `dir` with an identity of its own and no machine configuration.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@localhost"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}");
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .trim()
        .to_string()
}

#[test]
fn send_records_the_repository_and_a_resumed_step_opens_with_its_settings() {
    let workspace = Workspace::new();
    let project = workspace.path("project");
    std::fs::remove_dir(project.join(".git")).expect("rmdir the marker");
    git(&project, &["init", "-q", "-b", "main"]);
    git(&project, &["commit", "-q", "--allow-empty", "-m", "one"]);
    let head = git(&project, &["rev-parse", "HEAD"]);
    let server = answering_server();
    let rollout = workspace.path("rollout.jsonl");
    let run = workspace.send(&server, &["--rollout", arg(&rollout)]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let first = rollout_lines(&rollout);
    assert_eq!(
        first[0]["payload"]["git"],
        json!({"commit_hash": head, "branch": "main"})
    );

    let resumed = workspace.run(
        &[
            "session",
            "resume",
            arg(&rollout),
            "--write",
            "--user",
            "next",
            "--codex-home",
            arg(&workspace.path("home")),
            "--set",
            "seed=7",
            "--set",
            "current_date=\"2026-11-30\"",
            "--set",
            "timezone=\"Etc/UTC\"",
            "--set",
            "shell=\"bash\"",
        ]
        .map(str::to_string),
        None,
    );
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    let lines = rollout_lines(&rollout);
    // The numbering goes on, and the resumed step opens with the settings it runs with.
    assert_eq!(
        lines
            .iter()
            .map(|line| line["ordinal"].as_u64())
            .collect::<Vec<_>>(),
        (0..lines.len() as u64).map(Some).collect::<Vec<_>>()
    );
    let added: Vec<Option<&str>> = lines[first.len()..]
        .iter()
        .map(|line| line["payload"]["type"].as_str())
        .take(2)
        .collect();
    assert_eq!(
        added,
        vec![Some("thread_settings_applied"), Some("task_started")]
    );
    let kinds: Vec<Option<&str>> = lines[first.len()..]
        .iter()
        .filter(|line| line["type"] == "event_msg")
        .map(|line| line["payload"]["type"].as_str())
        .collect();
    assert!(!kinds.contains(&Some("user_message")), "{kinds:?}");
    assert!(kinds.contains(&Some("item_completed")), "{kinds:?}");
}

#[test]
fn inspect_rebuilds_the_client_metadata_send_sent_from_its_rollout() {
    let workspace = Workspace::new();
    let project = workspace.path("project");
    std::fs::remove_dir(project.join(".git")).expect("rmdir the marker");
    git(&project, &["init", "-q", "-b", "main"]);
    git(&project, &["commit", "-q", "--allow-empty", "-m", "one"]);
    let server = answering_server();
    let rollout = workspace.path("rollout.jsonl");
    let run = workspace.send(&server, &["--rollout", arg(&rollout)]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let sent = server.requests()[0].json();
    let metadata: Value = serde_json::from_str(
        sent["client_metadata"]["x-codex-turn-metadata"]
            .as_str()
            .expect("turn metadata text"),
    )
    .expect("turn metadata JSON");
    assert_eq!(
        (
            &metadata["thread_source"],
            metadata.get("context_window_id"),
            metadata["workspaces"].as_object().map(|map| map.len()),
        ),
        (&json!("user"), None, Some(1))
    );
    let body = workspace.path("sent.json");
    std::fs::write(&body, serde_json::to_string(&sent).expect("serializes")).expect("write");

    // The rebuilt body carries client_metadata with the same keys (values are volatile).
    let compared = workspace.run(
        &["compare", arg(&body), arg(&rollout)].map(str::to_string),
        None,
    );
    assert_eq!(
        (compared.code, compared.stdout.as_str()),
        (Some(0), "1 requests compared, 0 structural differences\n"),
        "{}",
        compared.stderr
    );
}
