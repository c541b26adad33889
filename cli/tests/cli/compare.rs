//! `codex-context compare`: exit 0 when structurally equal, 1 when different, 2 on bad input.

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use crate::support::Run;
use crate::support::arg;
use crate::support::assert_success;
use crate::support::assert_user_error;
use crate::support::run;
use crate::support::run_with_stdin;
use crate::support::write;

fn body(roles: &[&str]) -> Value {
    let input: Vec<Value> = roles
        .iter()
        .enumerate()
        .map(|(index, role)| {
            json!({
                "type": "message",
                "id": format!("msg_{index}"),
                "role": role,
                "content": [{"type": "input_text", "text": format!("message {index}")}]
            })
        })
        .collect();
    json!({"instructions": "Be useful.", "input": input, "stream": true})
}

fn outcome(run: &Run) -> (Option<i32>, &str, &str) {
    (run.code, run.stdout.as_str(), run.stderr.as_str())
}

#[test]
fn identical_inputs_exit_0_with_the_summary_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write(
        dir.path(),
        "a.json",
        &body(&["user", "assistant"]).to_string(),
    );
    let lines = format!("{}\n", body(&["user", "assistant"]));
    let b = write(dir.path(), "folder/request-01.json", &lines);

    assert_success(
        &run(&["compare", arg(&a), arg(&a)]),
        "1 requests compared, 0 structural differences\n",
    );
    assert_success(
        &run(&["compare", arg(&a), arg(b.parent().expect("folder"))]),
        "1 requests compared, 0 structural differences\n",
    );
    assert_success(
        &run_with_stdin(&["compare", "-", arg(&a)], lines.as_bytes()),
        "1 requests compared, 0 structural differences\n",
    );
}

#[test]
fn different_inputs_exit_1_with_one_line_per_difference() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write(
        dir.path(),
        "a.json",
        &body(&["user", "assistant"]).to_string(),
    );
    let mut altered = body(&["developer"]);
    altered["stream"] = json!(false);
    let b = write(dir.path(), "b.jsonl", &format!("{altered}\n{altered}\n"));

    assert_eq!(
        outcome(&run(&["compare", arg(&a), arg(&b)])),
        (
            Some(1),
            "request 1: stream: true != false\n\
             request 1: input[0]: role user != developer\n\
             request 1: input[1]: only in A (message/assistant [assistant_text])\n\
             request 2: only in B\n\
             1 requests compared, 4 structural differences\n",
            ""
        )
    );
}

#[test]
fn the_json_format_prints_the_whole_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write(dir.path(), "a.json", &body(&["user"]).to_string());
    let b = write(dir.path(), "b.json", &body(&["user", "user"]).to_string());

    let run = run(&["compare", "--format", "json", arg(&a), arg(&b)]);

    assert_eq!((run.code, run.stderr.as_str()), (Some(1), ""));
    assert_eq!(
        serde_json::from_str::<Value>(&run.stdout).expect("JSON report"),
        json!({
            "requests_compared": 1,
            "rollouts_compared": false,
            "differences": [{
                "request": 1,
                "position": {"at": "item", "a": null, "b": 1},
                "kind": "item_only_in",
                "side": "B",
                "shape": "message/user [user_text]"
            }],
            "prose_differences": []
        })
    );
}

#[test]
fn prose_show_prints_unified_diffs_of_changed_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write(dir.path(), "a.json", &body(&["user"]).to_string());
    let mut altered = body(&["user"]);
    altered["input"][0]["content"][0]["text"] = json!("message zero");
    let b = write(dir.path(), "b.json", &altered.to_string());

    assert_eq!(
        outcome(&run(&["compare", "--prose", "show", arg(&a), arg(&b)])),
        (
            Some(1),
            "request 1: input[0].content[0]: user_text: text differs\n\
             --- A\n\
             +++ B\n\
             @@ -1 +1 @@\n\
             -message 0\n\
             \\ No newline at end of file\n\
             +message zero\n\
             \\ No newline at end of file\n\
             1 requests compared, 1 structural differences\n",
            ""
        )
    );
}

#[test]
fn bad_input_exits_2_with_one_error_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = write(dir.path(), "good.json", &body(&["user"]).to_string());
    let broken = write(dir.path(), "broken.json", "{\n  \"input\": [,]\n}\n");
    let unknown = write(dir.path(), "unknown.json", "{\"model\": \"x\"}");
    let missing = dir.path().join("missing.json");

    assert_user_error(
        &run(&["compare", arg(&good), arg(&broken)]),
        &format!(
            "invalid JSON in {} at line 2 column 13: expected value",
            broken.display()
        ),
    );
    assert_user_error(
        &run(&["compare", arg(&unknown), arg(&good)]),
        &format!(
            "{}: not a request body, a folder of request-NN.json files, JSON lines of requests or a rollout",
            unknown.display()
        ),
    );
    assert_user_error(
        &run(&["compare", arg(&missing), arg(&good)]),
        &format!(
            "cannot read {}: No such file or directory (os error 2)",
            missing.display()
        ),
    );
    let usage = run(&["compare", arg(&good), arg(&good), "--prose", "loud"]);
    assert_eq!((usage.code, usage.stdout.as_str()), (Some(2), ""));
}

#[test]
fn a_rollout_is_compared_through_its_rebuilt_requests() {
    let dir = tempfile::tempdir().expect("tempdir");
    let line = |line_type: &str, payload: Value| {
        json!({"timestamp": "2026-11-30T07:00:00.000Z", "type": line_type, "payload": payload})
            .to_string()
    };
    let lines = [
        line(
            "session_meta",
            json!({
                "id": "thread-1",
                "timestamp": "2026-11-30T07:00:00.000Z",
                "cwd": "/repo",
                "originator": "codex_cli_rs",
                "cli_version": "0.0.0",
                "source": "exec",
                "model_provider": "openai",
                "base_instructions": {"text": "Be useful."}
            }),
        ),
        line(
            "event_msg",
            json!({"type": "task_started", "turn_id": "turn-1"}),
        ),
        line(
            "turn_context",
            json!({
                "turn_id": "turn-1",
                "cwd": "/repo",
                "approval_policy": "never",
                "sandbox_policy": {"type": "danger-full-access"},
                "model": "gpt-5.5",
                "summary": "auto"
            }),
        ),
        line(
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}),
        ),
        line(
            "event_msg",
            json!({"type": "user_message", "message": "hello"}),
        ),
        line(
            "event_msg",
            json!({"type": "task_complete", "turn_id": "turn-1"}),
        ),
    ];
    let rollout = write(dir.path(), "rollout.jsonl", &(lines.join("\n") + "\n"));

    assert_success(
        &run(&["compare", arg(&rollout), arg(&rollout)]),
        "1 requests compared, 0 structural differences\n",
    );
}

/// The README's release changelog command: one session script played under 0.149 and 0.171,
/// every structural difference the newer release makes listed (exit 1: they differ).
#[test]
fn one_script_under_two_releases_lists_what_the_newer_release_changed() {
    let home = tempfile::tempdir().expect("tempdir");
    let mut command = crate::support::binary(home.path());
    command
        .args([
            "compare",
            "--codex-version",
            "0.149",
            "--codex-version",
            "0.171",
            "examples/sessions/model_switch.json",
        ])
        .current_dir(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .expect("the cli crate sits in the workspace"),
        );
    let output = crate::support::output(&mut command, b"");
    assert_eq!(output.code, Some(1), "{}", output.stderr);
    // The script switches to gpt-5.2, which 0.171's catalog no longer has (once per request).
    assert_eq!(
        output.stderr,
        "codex-context: warning: model `gpt-5.2` is not in the catalog, so fallback model \
         metadata is used\n"
            .repeat(3)
    );
    insta::assert_snapshot!(output.stdout);
}

#[test]
fn two_releases_take_one_script_and_one_release_takes_two_inputs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write(dir.path(), "a.json", &body(&["user"]).to_string());
    assert_user_error(
        &run(&[
            "compare",
            "--codex-version",
            "0.149",
            "--codex-version",
            "0.171",
            arg(&a),
            arg(&a),
        ]),
        "two --codex-version values compare one session script under both releases: give the script only, not a second input",
    );
    assert_user_error(
        &run(&["compare", "--codex-version", "0.171", arg(&a)]),
        "compare needs two inputs, or one session script with --codex-version given twice",
    );
    // Parsed by clap, which names the flag and adds its usual hint.
    let unsupported = run(&["compare", "--codex-version", "0.160", arg(&a), arg(&a)]);
    assert_eq!(
        outcome(&unsupported),
        (
            Some(2),
            "",
            "error: invalid value '0.160' for '--codex-version <VERSION>': unknown Codex release \
             `0.160` (supported: `0.149`, `0.171`)\n\nFor more information, try '--help'.\n"
        )
    );
}
