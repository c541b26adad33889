//! `session run`, `session resume` and `session fork` end to end, on the example scripts.

use std::path::Path;
use std::path::PathBuf;

use codex_core::ResponsesRequest;
use codex_inspect::render_request_stats;
use codex_inspect::request_stats;
use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::Run;
use crate::support::arg;
use crate::support::assert_success;
use crate::support::binary;
use crate::support::output;
use crate::support::run;
use crate::support::write;

/// Settings that make `resume` and `fork` reproducible (they read date, zone and shell afresh).
const PINS: [&str; 8] = [
    "--set",
    "current_date=2026-11-30",
    "--set",
    "timezone=Etc/UTC",
    "--set",
    "shell=bash",
    "--set",
    "seed=9",
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the cli crate sits in the workspace")
        .to_path_buf()
}

fn example(name: &str) -> PathBuf {
    workspace_root()
        .join("examples")
        .join("sessions")
        .join(format!("{name}.json"))
}

/// A successful run's stdout.
fn stdout(run: Run) -> String {
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
    run.stdout
}

/// Runs `name` with `--rollout` into `dir` and returns the rollout's path.
fn recorded(name: &str, dir: &Path) -> PathBuf {
    let rollout = dir.join(format!("{name}.jsonl"));
    stdout(run(&[
        "session",
        "run",
        arg(&example(name)),
        "--rollout",
        arg(&rollout),
    ]));
    rollout
}

/// Texts of the request's messages with `role`.
fn texts(body: &Value, role: &str) -> Vec<String> {
    body["input"]
        .as_array()
        .expect("input")
        .iter()
        .filter(|item| item["role"] == role)
        .filter_map(|item| item["content"][0]["text"].as_str())
        .map(str::to_string)
        .collect()
}

/// `session run examples/sessions/NAME.json --format layout` from the workspace root, and the
/// body of the library's reviewed snapshot of that layout (`script/tests/snapshots/
/// TEST__NAME.snap`).
fn example_layout(name: &str, test: &str) -> (Run, String) {
    let home = tempfile::tempdir().expect("tempdir");
    let mut command = binary(home.path());
    command
        .args(["session", "run", &format!("examples/sessions/{name}.json")])
        .args(["--format", "layout"])
        .current_dir(workspace_root());
    let run = output(&mut command, b"");
    let snapshot = std::fs::read_to_string(
        workspace_root().join(format!("script/tests/snapshots/{test}__{name}.snap")),
    )
    .expect("the library's snapshot");
    let expected = snapshot
        .splitn(3, "---\n")
        .nth(2)
        .expect("snapshot body after its header")
        .to_string();
    (run, expected)
}

/// The README's command, run from the workspace root, prints the example's reviewed layout.
#[test]
fn readme_command_prints_the_example_layout() {
    let (output, expected) = example_layout("settings_changes", "script_examples");
    assert_success(&output, &expected);
}

/// Without `--codex-home` a session reads no configuration at all: a `config.toml` and an
/// AGENTS.md planted under the isolated home's name in the temporary folder change nothing.
#[test]
fn sessions_without_a_codex_home_ignore_files_planted_in_the_temporary_folder() {
    let run_with_tmpdir = |tmpdir: &Path| {
        let home = tempfile::tempdir().expect("tempdir");
        let mut command = binary(home.path());
        command
            .args(["session", "run", arg(&example("model_switch"))])
            .args(["--format", "layout"])
            .env("TMPDIR", tmpdir);
        output(&mut command, b"")
    };
    let clean = tempfile::tempdir().expect("tempdir");
    let expected = run_with_tmpdir(clean.path());
    assert_eq!((expected.code, expected.stderr.as_str()), (Some(0), ""));
    let planted = tempfile::tempdir().expect("tempdir");
    write(
        planted.path(),
        "codex-context-isolated-home/config.toml",
        "developer_instructions = \"planted by another user\"\nmodel = \"planted\"\n",
    );
    write(
        planted.path(),
        "codex-context-isolated-home/AGENTS.md",
        "planted by another user\n",
    );
    assert_success(&run_with_tmpdir(planted.path()), &expected.stdout);
}

#[test]
fn run_prints_one_body_per_turn_and_writes_the_rollout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rollout = dir.path().join("out.jsonl");
    let jsonl = stdout(run(&[
        "session",
        "run",
        arg(&example("model_switch")),
        "--rollout",
        arg(&rollout),
    ]));
    let bodies: Vec<Value> = jsonl
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON body per line"))
        .collect();
    let models: Vec<&str> = bodies
        .iter()
        .map(|body| body["model"].as_str().expect("model"))
        .collect();
    assert_eq!(models, ["gpt-5.5", "gpt-5.2", "gpt-5.2"]);
    // The same script run again writes the same rollout, line for line.
    let again = dir.path().join("again.jsonl");
    let jsonl_again = stdout(run(&[
        "session",
        "run",
        arg(&example("model_switch")),
        "--rollout",
        arg(&again),
    ]));
    assert_eq!(jsonl_again, jsonl);
    let written = std::fs::read_to_string(&rollout).expect("rollout written");
    assert_eq!(
        std::fs::read_to_string(&again).expect("rollout written"),
        written
    );
    let types: Vec<String> = written
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).expect("a JSON line");
            match line["payload"]["type"].as_str() {
                Some(event) if line["type"] == "event_msg" => format!("event_msg {event}"),
                Some(_) | None => line["type"].as_str().expect("type").to_string(),
            }
        })
        .collect();
    assert_eq!(types.first().map(String::as_str), Some("session_meta"));
    assert_eq!(
        types
            .iter()
            .filter(|kind| *kind == "event_msg task_complete")
            .count(),
        3
    );
}

#[test]
fn resend_full_context() {
    let full = stdout(run(&[
        "session",
        "run",
        arg(&example("cwd_agents_md")),
        "--format",
        "layout",
        "--resend-full-context",
    ]));
    assert_eq!(
        full.matches("<PERMISSIONS_INSTRUCTIONS>").count(),
        1 + 2 + 3
    );
}

/// `--stats` prints the requests, a blank line, then the statistics the library computes for
/// the printed bodies; against the `--resend-full-context` baseline they show what diffs save.
#[test]
fn stats_follow_the_requests() {
    let script = example("cwd_agents_md");
    let session_run = |extra: &[&str]| {
        let mut args = vec!["session", "run", arg(&script)];
        args.extend_from_slice(extra);
        stdout(run(&args))
    };
    let mut totals = Vec::new();
    for mode in [&[][..], &["--resend-full-context"][..]] {
        let jsonl = session_run(mode);
        let bodies: Vec<ResponsesRequest> = jsonl
            .lines()
            .map(|line| serde_json::from_str(line).expect("a request body per line"))
            .collect();
        assert_eq!(bodies.len(), 3);
        let stats = request_stats(&bodies);
        let rendered = render_request_stats(&stats);
        assert_eq!(
            session_run(&[mode, &["--stats"]].concat()),
            format!("{jsonl}\n{rendered}"),
            "{mode:?}"
        );
        let layout = session_run(&[mode, &["--format", "layout"]].concat());
        assert_eq!(
            session_run(&[mode, &["--format", "layout", "--stats"]].concat()),
            format!("{layout}\n{rendered}"),
            "{mode:?}"
        );
        totals.push(stats.total_tokens);
    }
    assert!(totals[0] < totals[1], "diffs send fewer tokens: {totals:?}");
}

#[test]
fn resume_keeps_the_recorded_model_and_set_switches_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rollout = recorded("model_switch", dir.path());
    let resume = |extra: &[&str]| {
        let mut args = vec![
            "session",
            "resume",
            arg(&rollout),
            "--user",
            "hello again",
            "--format",
            "layout",
        ];
        args.extend_from_slice(&PINS);
        args.extend_from_slice(extra);
        stdout(run(&args))
    };
    insta::assert_snapshot!("resume_on_recorded_model", resume(&[]));
    insta::assert_snapshot!("resume_with_model_set", resume(&["--set", "model=gpt-5.5"]));
}

#[test]
fn resume_writes_only_with_write() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rollout = recorded("compaction", dir.path());
    let before = std::fs::read_to_string(&rollout).expect("rollout");
    let mut args = vec![
        "session",
        "resume",
        arg(&rollout),
        "--user",
        "one more thing",
        "--assistant",
        "done",
    ];
    args.extend_from_slice(&PINS);
    let printed = stdout(run(&args));
    assert_eq!(std::fs::read_to_string(&rollout).expect("rollout"), before);

    args.push("--write");
    assert_eq!(
        stdout(run(&args)),
        printed,
        "--write prints the same request"
    );
    let after = std::fs::read_to_string(&rollout).expect("rollout");
    let appended = after
        .strip_prefix(&before)
        .expect("appended after the old lines");
    let appended_types: Vec<String> = appended
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).expect("a JSON line");
            line["payload"]["type"]
                .as_str()
                .filter(|_| line["type"] == "event_msg")
                .unwrap_or(line["type"].as_str().expect("type"))
                .to_string()
        })
        .collect();
    // As `codex exec resume` does, the resumed step opens with the settings it runs with.
    assert_eq!(
        appended_types,
        [
            "thread_settings_applied",
            "task_started",
            "turn_context",
            "response_item",
            "user_message",
            "agent_message",
            "response_item",
            "token_count",
            "task_complete"
        ]
    );
    // The written turn is part of the thread now. Unpinned, this resume would read today's
    // date, and on any other day than the pinned one add a date update to the request.
    let mut next_args = vec!["session", "resume", arg(&rollout), "--user", "and now?"];
    next_args.extend_from_slice(&PINS);
    let next: Value = serde_json::from_str(&stdout(run(&next_args))).expect("a JSON body");
    let users = texts(&next, "user");
    assert_eq!(
        users[users.len() - 2..],
        ["one more thing".to_string(), "and now?".to_string()]
    );
    assert_eq!(
        texts(&next, "assistant").last().map(String::as_str),
        Some("done")
    );
}

#[test]
fn fork_truncates_before_a_turn() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rollout = recorded("cwd_agents_md", dir.path());
    let before = std::fs::read_to_string(&rollout).expect("rollout");
    let child = dir.path().join("child.jsonl");
    let fork = |extra: &[&str]| {
        let mut args = vec!["session", "fork", arg(&rollout), "--user", "branch"];
        args.extend_from_slice(&PINS);
        args.extend_from_slice(extra);
        let body: Value = serde_json::from_str(&stdout(run(&args))).expect("a JSON body");
        body
    };
    let whole = fork(&[]);
    let user_messages = |body: &Value| -> Vec<String> {
        texts(body, "user")
            .into_iter()
            .filter(|text| !text.starts_with('<') && !text.starts_with("# AGENTS.md"))
            .collect()
    };
    assert_eq!(
        user_messages(&whole),
        [
            "List the folders.",
            "Now work inside the service folder.",
            "What is the entry point?",
            "branch"
        ]
    );
    let truncated = fork(&["--truncate-before-turn", "1", "--write", arg(&child)]);
    assert_eq!(user_messages(&truncated), ["List the folders.", "branch"]);
    assert_eq!(std::fs::read_to_string(&rollout).expect("rollout"), before);

    let child_text = std::fs::read_to_string(&child).expect("child rollout");
    let first: Value =
        serde_json::from_str(child_text.lines().next().expect("a line")).expect("JSON");
    let parent: Value = serde_json::from_str(before.lines().next().expect("a line")).expect("JSON");
    assert_eq!(first["type"], "session_meta");
    assert_eq!(first["payload"]["forked_from_id"], parent["payload"]["id"]);
    assert_ne!(first["payload"]["id"], parent["payload"]["id"]);
    // The child's file goes on from the new turn.
    let mut next_args = vec!["session", "resume", arg(&child), "--user", "next"];
    next_args.extend_from_slice(&PINS);
    let next: Value = serde_json::from_str(&stdout(run(&next_args))).expect("a JSON body");
    assert_eq!(
        user_messages(&next),
        ["List the folders.", "branch", "next"]
    );
}

/// A script's `fork` steps write each new thread's rollout beside `--rollout`, in fork order,
/// each naming its parent; the last one goes on from the forked history.
#[test]
fn run_writes_forked_threads_beside_the_rollout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rollout = recorded("fork", dir.path());
    let meta = |path: &Path| -> Value {
        let text = std::fs::read_to_string(path).expect("rollout");
        serde_json::from_str(text.lines().next().expect("a line")).expect("JSON")
    };
    let parent = meta(&rollout);
    let first = meta(&dir.path().join("fork.fork-1.jsonl"));
    let second_path = dir.path().join("fork.fork-2.jsonl");
    let second = meta(&second_path);
    assert_eq!(first["payload"]["forked_from_id"], parent["payload"]["id"]);
    assert_eq!(second["payload"]["forked_from_id"], first["payload"]["id"]);
    assert_ne!(first["payload"]["id"], second["payload"]["id"]);
    let mut args = vec!["session", "resume", arg(&second_path), "--user", "next"];
    args.extend_from_slice(&PINS);
    let next: Value = serde_json::from_str(&stdout(run(&args))).expect("a JSON body");
    let user_messages: Vec<String> = texts(&next, "user")
        .into_iter()
        .filter(|text| !text.starts_with('<') && !text.starts_with("# AGENTS.md"))
        .collect();
    assert_eq!(
        user_messages,
        [
            "What does the service do?",
            "Plan a smaller change instead.",
            "next"
        ]
    );
}

/// A script's sub-agents write their rollouts beside `--rollout`, in spawn order, each naming
/// the thread that spawned it; a forked one also names it as its fork origin.
#[test]
fn run_writes_sub_agents_beside_the_rollout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rollout = recorded("subagents", dir.path());
    let meta = |path: &Path| -> Value {
        let text = std::fs::read_to_string(path).expect("rollout");
        serde_json::from_str(text.lines().next().expect("a line")).expect("JSON")
    };
    let parent = meta(&rollout)["payload"]["id"].clone();
    let fresh = meta(&dir.path().join("subagents.agent-1.jsonl"));
    let forked = meta(&dir.path().join("subagents.agent-2.jsonl"));
    assert!(!dir.path().join("subagents.agent-3.jsonl").exists());
    for (child, nickname) in [(&fresh, "Ada"), (&forked, "Grace")] {
        assert_eq!(child["payload"]["parent_thread_id"], parent);
        assert_eq!(child["payload"]["agent_nickname"], nickname);
        assert_eq!(child["payload"]["thread_source"], "subagent");
        assert_ne!(child["payload"]["id"], parent);
    }
    assert_eq!(fresh["payload"].get("forked_from_id"), None);
    assert_eq!(forked["payload"]["forked_from_id"], parent);
}

#[test]
fn help_lists_the_subcommands() {
    let help = run(&["session", "--help"]);
    assert_eq!(help.code, Some(0));
    for subcommand in ["run", "resume", "fork"] {
        assert!(help.stdout.contains(subcommand), "{}", help.stdout);
    }
}

/// A turn the script expects to fail before any request (`expect_failure`) is reported on
/// standard error, and the run goes on: `failed_turn.json` prints the layout of its two other
/// turns, as the library's snapshot has it.
#[test]
fn an_expected_failed_turn_is_reported_and_the_run_goes_on() {
    let (run, expected) = example_layout("failed_turn", "script_permission_profiles");
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), expected.as_str())
    );
    let project = workspace_root().join("examples/sessions/project/AGENTS.md");
    assert_eq!(
        run.stderr,
        format!(
            "session run: turns[1] failed before any request, as the script expects: failed to \
             load AGENTS.md instructions for environment `local`: reading `{}` is denied by the \
             permission profile\n",
            std::fs::canonicalize(project)
                .expect("project AGENTS.md")
                .display()
        )
    );
}
