//! A request larger than the model's context window is printed with a warning giving both
//! sizes.

use pretty_assertions::assert_eq;
use serde_json::json;

use crate::support::arg;
use crate::support::catalog_entry;
use crate::support::run;
use crate::support::write;
use crate::support::write_catalog;

#[test]
fn a_request_over_the_context_window_is_warned_about() {
    let dir = tempfile::tempdir().expect("tempdir");
    let catalog = write_catalog(
        dir.path(),
        vec![
            catalog_entry(
                "small",
                1,
                json!({"context_window": 2000, "base_instructions": "Be brief."}),
            ),
            catalog_entry(
                "large",
                2,
                json!({"context_window": 272000, "base_instructions": "Be brief."}),
            ),
        ],
    );
    let workspace = dir.path().join("workspace");
    write(
        &workspace,
        "AGENTS.md",
        &"Keep every test green. ".repeat(400),
    );
    let request = |model: &str| {
        run(&[
            "request",
            "--model-catalog",
            arg(&catalog),
            "--model",
            model,
            "--cwd",
            arg(&workspace),
            "--codex-home",
            arg(dir.path()),
            "--message",
            "hello",
            "--stats",
        ])
    };
    let small = request("small");
    assert_eq!(small.code, Some(0), "{small:?}");
    let total = small
        .stdout
        .lines()
        .find_map(|line| line.strip_prefix("request 1"))
        .and_then(|row| row.split_whitespace().nth(7))
        .expect("the statistics' total column");
    assert_eq!(
        small.stderr,
        format!(
            "codex-context: warning: the request is {total} tokens, more than the 2000-token \
             context window of model `small`\n"
        )
    );
    let large = request("large");
    assert_eq!((large.code, large.stderr.as_str()), (Some(0), ""));
}

#[test]
fn a_session_warns_once_at_the_first_request_over_the_window() {
    let dir = tempfile::tempdir().expect("tempdir");
    let catalog = write_catalog(
        dir.path(),
        vec![catalog_entry(
            "small",
            1,
            json!({"context_window": 4000, "base_instructions": "Be brief."}),
        )],
    );
    write(dir.path(), "workspace/README.md", "a project\n");
    let long_reply = "All tests pass. ".repeat(300);
    let script = write(
        dir.path(),
        "script.json",
        &json!({
            "session": {"cwd": "workspace", "model": "small", "current_date": "2026-11-30",
                        "timezone": "Etc/UTC", "shell": "bash", "seed": 1},
            "turns": [
                {"user": "hello", "assistant": long_reply},
                {"user": "again", "assistant": long_reply},
                {"user": "and again", "assistant": "done"},
            ]
        })
        .to_string(),
    );
    let run = run(&[
        "session",
        "run",
        arg(&script),
        "--model-catalog",
        arg(&catalog),
        "--codex-home",
        arg(dir.path()),
    ]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let warnings: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(warnings.len(), 1, "{}", run.stderr);
    assert!(
        warnings[0].starts_with("codex-context: warning: the request is ")
            && warnings[0]
                .ends_with(" tokens, more than the 4000-token context window of model `small`"),
        "{}",
        warnings[0]
    );
}
