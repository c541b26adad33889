//! `send`'s sampling loop as a process against a local Responses server: a function call the
//! model makes is run and its output sent back, a usage past `model_auto_compact_token_limit`
//! compacts mid-turn, and `send` runs under the `exec` surface (approval policy `never`).

use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use crate::send_server::Reply;
use crate::send_server::TestServer;
use crate::send_server::sse_body;
use crate::support::PINS;
use crate::support::Run;
use crate::support::arg;
use crate::support::binary;
use crate::support::output;

const KEY: &str = "sk-test-loop";

pub(crate) struct Workspace {
    dir: tempfile::TempDir,
}

impl Workspace {
    pub(crate) fn new(config: &str) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("home")).expect("mkdir home");
        std::fs::create_dir_all(dir.path().join("project/.git")).expect("mkdir project");
        // A model whose requests carry `tools` in the body (not Responses Lite).
        let config = format!("model = \"gpt-5.5\"\n{config}");
        std::fs::write(dir.path().join("home/config.toml"), config).expect("config.toml");
        std::fs::write(dir.path().join("project/marker.txt"), "from the project\n")
            .expect("marker");
        Self { dir }
    }

    pub(crate) fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    pub(crate) fn run(&self, command: &str, extra: &[&str]) -> Run {
        let mut args: Vec<String> = [
            command,
            "--codex-home",
            arg(&self.path("home")),
            "--cwd",
            arg(&self.path("project")),
        ]
        .iter()
        .chain(PINS.iter())
        .map(|text| (*text).to_string())
        .collect();
        args.extend(extra.iter().map(|text| (*text).to_string()));
        let mut process = binary(&self.path("user"));
        process
            .args(&args)
            .env("CODEX_HOME", self.path("home"))
            .env("OPENAI_API_KEY", KEY);
        output(&mut process, b"")
    }

    fn send(&self, server: &TestServer, rollout: &Path) -> Run {
        let base_url = server.base_url();
        self.run(
            "send",
            &[
                "--base-url",
                &base_url,
                "--message",
                "show the marker",
                "--rollout",
                arg(rollout),
                "--run-commands",
            ],
        )
    }
}

/// A response of `items` reporting `input_tokens`.
pub(crate) fn response(number: usize, items: &[Value], input_tokens: u64) -> Reply {
    let id = format!("resp_{number}");
    let mut events = vec![json!({"type": "response.created", "response": {"id": id}})];
    for item in items {
        events.push(json!({"type": "response.output_item.done", "item": item}));
    }
    events.push(json!({
        "type": "response.completed",
        "response": {"id": id, "usage": {
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + 5,
        }},
    }));
    Reply::EventStream(sse_body(&events))
}

pub(crate) fn function_call(name: &str, arguments: Value) -> Value {
    json!({
        "type": "function_call",
        "id": "fc_server_1",
        "call_id": "call_server_1",
        "name": name,
        "arguments": arguments.to_string(),
    })
}

pub(crate) fn text(text: &str) -> Value {
    json!({
        "type": "message",
        "id": "msg_server",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text}],
    })
}

/// `(line type, payload type)` of every rollout line.
fn line_kinds(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("rollout")
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).expect("JSON line");
            match line["payload"]["type"].as_str() {
                Some("item_completed") => format!(
                    "event_msg/item_completed/{}",
                    line["payload"]["item"]["type"].as_str().unwrap_or_default()
                ),
                Some(inner) if line["type"] != "compacted" && line["type"] != "turn_context" => {
                    format!("{}/{inner}", line["type"].as_str().unwrap_or_default())
                }
                Some(_) | None => line["type"].as_str().unwrap_or_default().to_string(),
            }
        })
        .collect()
}

/// Each input item as `type/role` plus its text's first line (ids, times and the varying
/// lines of a command's output left out), for snapshots.
fn input_outline(body: &Value) -> Vec<String> {
    body["input"]
        .as_array()
        .expect("input")
        .iter()
        .map(|item| {
            let kind = item["type"].as_str().unwrap_or_default();
            let role = item["role"].as_str().unwrap_or_default();
            let text = match kind {
                "function_call" => format!(
                    "{} {} {}",
                    item["call_id"].as_str().unwrap_or_default(),
                    item["name"].as_str().unwrap_or_default(),
                    item["arguments"].as_str().unwrap_or_default()
                ),
                "function_call_output" => format!(
                    "{} {}",
                    item["call_id"].as_str().unwrap_or_default(),
                    item["output"]
                        .as_str()
                        .unwrap_or_default()
                        .lines()
                        .filter(|line| {
                            !line.starts_with("Chunk ID: ") && !line.starts_with("Wall time: ")
                        })
                        .collect::<Vec<_>>()
                        .join(" | ")
                ),
                _ => item["content"][0]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .chars()
                    .take(60)
                    .collect(),
            };
            format!("{kind}/{role}: {text}")
        })
        .collect()
}

fn turn_metadata(body: &Value) -> Value {
    serde_json::from_str(
        body["client_metadata"]["x-codex-turn-metadata"]
            .as_str()
            .expect("turn metadata"),
    )
    .expect("turn metadata is JSON")
}

#[test]
fn a_function_call_runs_in_the_cwd_and_its_output_goes_back() {
    let workspace = Workspace::new("");
    let server = TestServer::start(|_, number| match number {
        0 => response(
            number,
            &[function_call(
                "exec_command",
                json!({"cmd": "cat marker.txt"}),
            )],
            100,
        ),
        _ => response(number, &[text("It says: from the project.")], 100),
    });
    let rollout = workspace.path("out/rollout.jsonl");
    let run = workspace.send(&server, &rollout);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "It says: from the project.\n"),
        "{}",
        run.stderr
    );

    let bodies: Vec<Value> = server
        .requests()
        .iter()
        .map(|request| request.json())
        .collect();
    assert_eq!(bodies.len(), 2);
    // The second request is the first one plus the call and its output, with the same tools.
    let first_len = bodies[0]["input"].as_array().map_or(0, Vec::len);
    assert_eq!(
        bodies[1]["input"].as_array().map_or(0, Vec::len),
        first_len + 2
    );
    assert_eq!(bodies[1]["tools"], bodies[0]["tools"]);
    assert_eq!(
        bodies[1]["parallel_tool_calls"],
        bodies[0]["parallel_tool_calls"]
    );
    insta::assert_json_snapshot!(
        "function_call_round_trip_input",
        input_outline(&bodies[1])[first_len - 1..].to_vec()
    );
    let output = &bodies[1]["input"][first_len + 1];
    let output_text = output["output"].as_str().expect("output text");
    assert!(output_text.starts_with("Chunk ID: "), "{output_text}");
    assert!(
        output_text.ends_with("Output:\nfrom the project\n"),
        "{output_text}"
    );
    assert!(
        output["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("fco_")),
        "{output}"
    );

    assert_eq!(
        line_kinds(&rollout)
            .into_iter()
            .skip_while(|kind| kind != "response_item/function_call")
            .collect::<Vec<_>>(),
        [
            "response_item/function_call",
            // The command that ran, between the call and its output.
            "event_msg/item_completed/CommandExecution",
            "response_item/function_call_output",
            "event_msg/token_count",
            "event_msg/item_completed/AgentMessage",
            "response_item/message",
            "event_msg/token_count",
            "event_msg/task_complete",
        ]
    );
}

#[test]
fn without_run_commands_no_command_runs_and_the_model_is_told() {
    let workspace = Workspace::new("");
    let server = TestServer::start(|_, number| match number {
        0 => response(
            number,
            &[function_call(
                "exec_command",
                json!({"cmd": "touch ran.txt"}),
            )],
            100,
        ),
        _ => response(number, &[text("Not run, then.")], 100),
    });
    let base_url = server.base_url();
    let run = workspace.run("send", &["--base-url", &base_url, "--message", "touch it"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "Not run, then.\n"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(
            "The model asked to run `touch ran.txt`; it was not run (pass --run-commands"
        ),
        "{}",
        run.stderr
    );
    assert!(!workspace.path("project/ran.txt").exists());
    assert!(!workspace.path("user/ran.txt").exists());
    let bodies: Vec<Value> = server
        .requests()
        .iter()
        .map(|request| request.json())
        .collect();
    let input = bodies[1]["input"].as_array().expect("input");
    assert_eq!(
        input.last().map(|item| item["output"].clone()),
        Some(json!(codex_script::COMMAND_REFUSED))
    );
}

#[test]
fn an_unknown_tool_gets_upstreams_error_output() {
    let workspace = Workspace::new("");
    let server = TestServer::start(|_, number| match number {
        0 => response(number, &[function_call("no_such_tool", json!({}))], 100),
        _ => response(number, &[text("ok")], 100),
    });
    let run = workspace.send(&server, &workspace.path("rollout.jsonl"));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let bodies: Vec<Value> = server
        .requests()
        .iter()
        .map(|request| request.json())
        .collect();
    let input = bodies[1]["input"].as_array().expect("input");
    assert_eq!(
        input.last().map(|item| item["output"].clone()),
        Some(json!("unsupported call: no_such_tool"))
    );
}

#[test]
fn a_usage_past_the_auto_compact_limit_compacts_mid_turn() {
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
    let run = workspace.send(&server, &rollout);
    // The summary is not the turn's answer.
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "Done.\n"),
        "{}",
        run.stderr
    );

    let bodies: Vec<Value> = server
        .requests()
        .iter()
        .map(|request| request.json())
        .collect();
    assert_eq!(bodies.len(), 3);
    let compaction = &bodies[1];
    assert_eq!(
        (
            compaction["tools"].clone(),
            compaction["parallel_tool_calls"].clone(),
            turn_metadata(compaction)["request_kind"].clone(),
            turn_metadata(compaction)["compaction"].clone(),
            turn_metadata(&bodies[2])["request_kind"].clone(),
        ),
        (
            json!([]),
            json!(false),
            json!("compaction"),
            json!({
                "trigger": "auto",
                "reason": "context_limit",
                "implementation": "responses",
                "phase": "mid_turn",
                "strategy": "memento",
            }),
            json!("turn"),
        )
    );
    insta::assert_json_snapshot!(
        "mid_turn_compaction_inputs",
        json!({
            "compaction request": input_outline(compaction),
            "request after it": input_outline(&bodies[2]),
        })
    );

    let kinds = line_kinds(&rollout);
    let compacted = kinds
        .iter()
        .position(|kind| kind == "compacted")
        .expect("a compacted line");
    assert_eq!(
        kinds[compacted - 5..].to_vec(),
        [
            "response_item/function_call_output",
            "event_msg/token_count",
            "event_msg/token_count",
            "response_item/message",
            "event_msg/token_count",
            "compacted",
            "world_state",
            "turn_context",
            "event_msg/token_count",
            "event_msg/item_completed/ContextCompaction",
            "event_msg/item_completed/AgentMessage",
            "response_item/message",
            "event_msg/token_count",
            "event_msg/task_complete",
        ]
    );

    // `inspect` rebuilds the summary request as the compaction request it was.
    let inspected = output(
        binary(&workspace.path("user")).args(["inspect", arg(&rollout), "--format", "json"]),
        b"",
    );
    assert_eq!(inspected.code, Some(0), "{}", inspected.stderr);
    let report: Value = serde_json::from_str(&inspected.stdout).expect("inspect JSON");
    let kinds: Vec<Value> = report["requests"]
        .as_array()
        .expect("requests")
        .iter()
        .map(|request| request["kind"].clone())
        .collect();
    assert_eq!(kinds, [json!("turn"), json!("compaction"), json!("turn")]);
}

#[test]
fn send_and_the_exec_surface_run_with_approval_policy_never() {
    let workspace = Workspace::new("approval_policy = \"on-request\"\n");
    let server = TestServer::start(|_, number| response(number, &[text("ok")], 100));
    let rollout = workspace.path("rollout.jsonl");
    let run = workspace.send(&server, &rollout);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let approval = |path: &Path| -> Vec<Value> {
        std::fs::read_to_string(path)
            .expect("rollout")
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(|line| line["type"] == "turn_context")
            .map(|line| line["payload"]["approval_policy"].clone())
            .collect()
    };
    assert_eq!(approval(&rollout), [json!("never")]);

    // `request` shows config.toml's policy unless asked for the exec surface, which is what
    // `send` sent.
    let body = |extra: &[&str]| -> Value {
        let mut args = vec!["--message", "show the marker"];
        args.extend_from_slice(extra);
        let printed = workspace.run("request", &args);
        assert_eq!(printed.code, Some(0), "{}", printed.stderr);
        serde_json::from_str(&printed.stdout).expect("body")
    };
    let permissions = |body: &Value| body["input"][0]["content"][0]["text"].clone();
    let sent = server.requests()[0].json();
    assert_eq!(
        permissions(&body(&["--surface", "exec"])),
        permissions(&sent)
    );
    assert!(permissions(&body(&[])) != permissions(&sent));
    // An explicit `--approval` beats the surface.
    assert_eq!(
        permissions(&body(&["--surface", "exec", "--approval", "on-request"])),
        permissions(&body(&[]))
    );

    // `session resume --surface exec` runs the next turn with `never` over a recorded
    // `on-request` turn; the interactive default continues with what the rollout recorded, and
    // `--set` beats the surface as `--approval` does.
    let home = workspace.path("home");
    let resume = |rollout: &Path, extra: &[&str]| {
        let mut args = vec![
            "session",
            "resume",
            arg(rollout),
            "--user",
            "next",
            "--assistant",
            "ok",
            "--write",
            "--codex-home",
            arg(&home),
        ];
        args.extend_from_slice(extra);
        let run = binary(&workspace.path("user"))
            .args(&args)
            .output()
            .expect("runs");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    };
    let set = workspace.path("resumed-set.jsonl");
    std::fs::copy(&rollout, &set).expect("copy");
    resume(
        &set,
        &["--surface", "exec", "--set", "approval_policy=on-request"],
    );
    assert_eq!(approval(&set), [json!("never"), json!("on-request")]);
    let resumed = workspace.path("resumed-exec-only.jsonl");
    std::fs::copy(&rollout, &resumed).expect("copy");
    let edited = std::fs::read_to_string(&resumed).expect("rollout").replace(
        "\"approval_policy\":\"never\"",
        "\"approval_policy\":\"on-request\"",
    );
    std::fs::write(&resumed, edited).expect("edit");
    for (surface, expected) in [("exec", "never"), ("interactive", "on-request")] {
        let copy = workspace.path(&format!("resumed-only-{surface}.jsonl"));
        std::fs::copy(&resumed, &copy).expect("copy");
        resume(&copy, &["--surface", surface]);
        assert_eq!(
            approval(&copy),
            [json!("on-request"), json!(expected)],
            "{surface}"
        );
    }
}
