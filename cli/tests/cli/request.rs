use std::path::Path;

use codex_core::ResponsesRequest;
use codex_inspect::render_request_stats;
use codex_inspect::request_stats;
use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::PINS;
use crate::support::Run;
use crate::support::arg;
use crate::support::assert_success;
use crate::support::assert_user_error;
use crate::support::run;
use crate::support::write;

/// A fresh CODEX_HOME and project directory, so nothing from the machine leaks in.
struct Workspace {
    dir: tempfile::TempDir,
}

impl Workspace {
    fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    fn home(&self) -> std::path::PathBuf {
        let home = self.dir.path().join("home");
        std::fs::create_dir_all(&home).expect("mkdir home");
        home
    }

    fn project(&self) -> std::path::PathBuf {
        let project = self.dir.path().join("project");
        std::fs::create_dir_all(project.join(".git")).expect("mkdir project");
        project
    }

    /// Runs `command` with CODEX_HOME, cwd and every pin set, plus `extra`.
    fn run(&self, command: &str, extra: &[&str]) -> Run {
        let home = self.home();
        let project = self.project();
        let mut args = vec![command, "--codex-home", arg(&home), "--cwd", arg(&project)];
        args.extend_from_slice(&PINS);
        args.extend_from_slice(extra);
        run(&args)
    }

    /// `text` with the temporary directory replaced by `<TMP>`.
    fn redact(&self, text: &str) -> String {
        text.replace(&self.dir.path().display().to_string(), "<TMP>")
    }
}

fn body(run: &Run) -> Value {
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
    serde_json::from_str(&run.stdout).expect("stdout is a JSON body")
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn no_configuration_prints_the_default_models_first_request() {
    let workspace = Workspace::new();
    let body = body(&workspace.run("request", &["--message", "hello"]));
    // The bundled catalog's default model uses Responses Lite.
    assert_eq!(body["model"], "gpt-5.6-sol");
    assert_eq!(
        keys(&body),
        [
            "model",
            "input",
            "tool_choice",
            "parallel_tool_calls",
            "reasoning",
            "store",
            "stream",
            "include",
            "prompt_cache_key",
            "text",
            "client_metadata",
        ]
    );
    let input = body["input"].as_array().expect("input");
    let last = input.last().expect("items");
    assert_eq!(last["role"], "user");
    assert_eq!(last["content"][0]["text"], "hello");
}

/// Without `--codex-home`, `--timezone` or `--shell` the binary would read `$CODEX_HOME` (or
/// `~/.codex`), `$TZ` and `$SHELL`; under the test harness it sees none of the machine's: the
/// request equals the one sent from an empty home, in UTC, with the default shell. (CI runs the
/// suite again with a hostile home, zone and shell, where a leak fails this test.)
#[test]
fn runs_see_nothing_of_the_machine_running_the_tests() {
    let workspace = Workspace::new();
    let expected = workspace.run("request", &["--message", "hello"]);
    assert_eq!((expected.code, expected.stderr.as_str()), (Some(0), ""));
    let project = workspace.project();
    let unpinned = run(&[
        "request",
        "--codex-version",
        "0.149",
        "--cwd",
        arg(&project),
        "--seed=7",
        "--current-date=2026-11-30",
        "--message",
        "hello",
    ]);
    assert_success(&unpinned, &expected.stdout);
}

#[test]
fn same_seed_and_pins_print_the_same_bytes() {
    let workspace = Workspace::new();
    let first = workspace.run("request", &["--model", "gpt-5.5", "--message", "hi"]);
    let second = workspace.run("request", &["--model", "gpt-5.5", "--message", "hi"]);
    assert_eq!(first.code, Some(0));
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn lite_forces_the_responses_lite_shape() {
    let workspace = Workspace::new();
    let standard = body(&workspace.run("request", &["--model", "gpt-5.5"]));
    let lite = body(&workspace.run("request", &["--model", "gpt-5.5", "--lite"]));
    assert!(standard.get("instructions").is_some());
    assert_eq!(lite.get("instructions"), None);
    assert_eq!(lite.get("tools"), None);
    assert_eq!(lite["input"][0]["type"], "additional_tools");
    assert_eq!(lite["parallel_tool_calls"], false);
}

#[test]
fn layout_format_with_agents_md_sandbox_and_approval() {
    let workspace = Workspace::new();
    write(
        &workspace.home(),
        "AGENTS.md",
        "be consistent and helpful\n",
    );
    let run = workspace.run(
        "request",
        &[
            "--model",
            "gpt-5.5",
            "--sandbox",
            "workspace-write",
            "--approval",
            "never",
            "--personality",
            "friendly",
            "-c",
            "developer_instructions=\"Keep answers short.\"",
            "--message",
            "hello",
            "--format",
            "layout",
        ],
    );
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    insta::assert_snapshot!(workspace.redact(&run.stdout));
}

#[test]
fn truncated_agents_md_is_reported_on_stderr() {
    let workspace = Workspace::new();
    write(&workspace.project(), "AGENTS.md", &"x".repeat(40));
    let run = workspace.run(
        "request",
        &["--model", "gpt-5.5", "-c", "project_doc_max_bytes=10"],
    );
    assert_eq!(run.code, Some(0));
    assert_eq!(
        workspace.redact(&run.stderr),
        "codex-context: warning: Project doc `<TMP>/project/AGENTS.md` exceeds the remaining project_doc_max_bytes budget: kept 10 bytes, dropped 30 bytes.\n"
    );
}

#[test]
fn bad_option_values_are_one_line_errors() {
    let workspace = Workspace::new();
    assert_user_error(
        &workspace.run("request", &["--sandbox", "wide-open"]),
        "invalid --sandbox: unknown sandbox mode `wide-open` (expected one of: read-only, workspace-write, danger-full-access)",
    );
    assert_user_error(
        &workspace.run("request", &["-c", "novalue"]),
        "-c novalue: expected key=value",
    );
}

#[test]
fn model_catalog_file_is_used() {
    let workspace = Workspace::new();
    let catalog = crate::support::write_catalog(
        Path::new(&workspace.dir.path()),
        vec![crate::support::catalog_entry(
            "tiny",
            1,
            serde_json::json!({"model_messages": {"instructions_template": "Be tiny."}}),
        )],
    );
    let body = body(&workspace.run("request", &["--model-catalog", arg(&catalog)]));
    assert_eq!(body["model"], "tiny");
    assert_eq!(body["instructions"], "Be tiny.");
}

/// `--stats` appends, after a blank line, the statistics the library computes for the body.
#[test]
fn stats_follow_the_request_in_either_format() {
    let workspace = Workspace::new();
    let base = ["--model", "gpt-5.5", "--message", "hi"];
    let json = workspace.run("request", &base);
    let request: ResponsesRequest =
        serde_json::from_str(&json.stdout).expect("stdout is a request body");
    let stats = render_request_stats(&request_stats(&[request]));
    assert!(
        stats.starts_with("token statistics (o200k_base)\n"),
        "{stats}"
    );
    let layout = workspace.run("request", &[&base[..], &["--format", "layout"]].concat());
    for (plain, format) in [(json, "json"), (layout, "layout")] {
        let with_stats = workspace.run(
            "request",
            &[&base[..], &["--format", format, "--stats"]].concat(),
        );
        assert_success(&with_stats, &format!("{}\n{stats}", plain.stdout));
    }
}
