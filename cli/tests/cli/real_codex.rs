//! Rollouts the released Codex CLI 0.149.1 wrote (`tests/fixtures/real_codex/`): `session
//! resume` re-sends nothing whose settings did not change (the release fingerprints its own
//! permissions text, which this project's never matches) and sends the model's default
//! reasoning summary, not the `auto` the release records; `compare` (as `inspect`) rebuilds
//! the recorded reasoning effort.

use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use crate::bounded::run_in;
use crate::support::arg;
use crate::support::write;

/// The fixture with its run folder `<RUN>` moved to `dir`, which gets the `repo/AGENTS.md` and
/// `codex_home/` the release ran with: the skills its recorded catalogue lists (the system
/// skills it installed) are laid out again.
fn release_rollout(dir: &Path, fixture: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real_codex")
        .join(fixture);
    let text = std::fs::read_to_string(&path)
        .expect("fixture")
        .replace("<RUN>", &dir.display().to_string());
    write(dir, "repo/AGENTS.md", "# Project notes\n");
    std::fs::create_dir_all(dir.join("codex_home")).expect("codex_home");
    for (name, description, skill_path) in recorded_skills(&text) {
        std::fs::create_dir_all(skill_path.parent().expect("skill folder")).expect("mkdir");
        std::fs::write(
            &skill_path,
            format!("---\nname: {name}\ndescription: >-\n  {description}\n---\n"),
        )
        .expect("SKILL.md");
    }
    write(dir, "rollout.jsonl", &text)
}

/// Every skill of the first recorded host catalogue: name, description and `SKILL.md` path.
fn recorded_skills(rollout: &str) -> Vec<(String, String, PathBuf)> {
    let body = rollout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find_map(|line| {
            let body = &line["payload"]["state"]["host_skills"]["body"];
            body.as_str().map(str::to_string)
        })
        .unwrap_or_default();
    body.lines()
        .filter_map(|line| {
            let (head, path) = line
                .strip_prefix("- ")?
                .strip_suffix(')')?
                .rsplit_once(" (file: ")?;
            let (name, description) = head.split_once(": ")?;
            Some((
                name.to_string(),
                description.to_string(),
                PathBuf::from(path),
            ))
        })
        .collect()
}

/// The next request `session resume` builds for the release's read-only gpt-5.5 rollout, with
/// the recorded date, time zone and shell, and `extra`.
fn resumed_request(extra: &[&str]) -> Value {
    let dir = tempfile::tempdir().expect("tempdir");
    let rollout = release_rollout(dir.path(), "0.149.1_gpt_5_5_read_only.jsonl");
    let codex_home = dir.path().join("codex_home");
    let mut args = vec![
        "session",
        "resume",
        arg(&rollout),
        "--user",
        "and now?",
        "--codex-home",
        arg(&codex_home),
        "--set",
        "current_date=2026-12-01",
        "--set",
        "timezone=Etc/UTC",
        "--set",
        "shell=bash",
    ];
    args.extend(extra);
    let run = run_in(&dir.path().join("repo"), &args);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""), "{run:?}");
    serde_json::from_str(&run.stdout).expect("request body")
}

/// Role and the start of every content entry of the items after the four the release
/// recorded (its developer bundle, its contextual user message, `hello`, `Done.`).
fn new_items(body: &Value) -> Vec<(String, Vec<String>)> {
    let input = body["input"].as_array().expect("input");
    input
        .iter()
        .skip(4)
        .map(|item| {
            let role = item["role"].as_str().unwrap_or_default().to_string();
            let starts = item["content"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|entry| {
                    let text = entry["text"].as_str().unwrap_or_default();
                    text.lines().next().unwrap_or_default().to_string()
                })
                .collect();
            (role, starts)
        })
        .collect()
}

#[test]
fn resuming_an_unchanged_release_rollout_adds_only_the_user_message() {
    let body = resumed_request(&[]);
    assert_eq!(
        new_items(&body),
        vec![("user".to_string(), vec!["and now?".to_string()])]
    );
    // The release sends gpt-5.5's default (no summary), whatever its `turn_context` records.
    assert_eq!(body["reasoning"], json!({"effort": "medium"}));
}

#[test]
fn a_changed_policy_restates_the_permissions() {
    let body = resumed_request(&["--set", "approval_policy=\"on-request\""]);
    assert_eq!(
        new_items(&body),
        vec![
            (
                "developer".to_string(),
                vec!["<permissions instructions>".to_string()]
            ),
            ("user".to_string(), vec!["and now?".to_string()]),
        ]
    );
}

#[test]
fn a_changed_sandbox_restates_the_permissions() {
    let body = resumed_request(&["--set", "sandbox_mode=\"workspace-write\""]);
    let items = new_items(&body);
    assert_eq!(
        items.first(),
        Some(&(
            "developer".to_string(),
            vec!["<permissions instructions>".to_string()]
        ))
    );
}

/// `compare` of the release's rollout with a body that differs from it only in `reasoning`
/// (other differences are left out of the result).
fn reasoning_differences(effort: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let rollout = release_rollout(dir.path(), "0.149.1_reasoning_effort_high.jsonl");
    let body = write(
        dir.path(),
        "body.json",
        &json!({"model": "gpt-5.5", "input": [], "reasoning": {"effort": effort}}).to_string(),
    );
    let run = run_in(dir.path(), &["compare", arg(&body), arg(&rollout)]);
    run.stdout
        .lines()
        .filter(|line| line.contains("reasoning"))
        .map(str::to_string)
        .collect()
}

#[test]
fn compare_rebuilds_the_recorded_reasoning_effort() {
    assert_eq!(reasoning_differences("high"), Vec::<String>::new());
    assert_eq!(
        reasoning_differences("medium"),
        vec![r#"request 1: reasoning: {"effort":"medium"} != {"effort":"high"}"#.to_string()]
    );
}
