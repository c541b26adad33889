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
