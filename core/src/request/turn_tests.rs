use std::path::Path;
use std::process::Command;

use codex_protocol::openai_models::ModelInfo;
use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use super::*;

/// `git` in `dir` with an identity and configuration of its own.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
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

/// The turn metadata of a turn in `cwd` on `surface`, as JSON.
fn metadata(cwd: &Path, surface: ClientSurface) -> Value {
    let mut turn = TurnContext::for_model("thread", "turn", ModelInfo::with_defaults("m"), cwd);
    turn.token_budget.window_id = "window".to_string();
    turn.client_surface = surface;
    let ids = IdGenerator::live();
    serde_json::to_value(turn_metadata(&turn, &ids)).expect("serializes")
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn the_core_harness_sends_the_context_window_and_no_thread_source_or_git_state() {
    let repo = tempfile::tempdir().expect("tempdir");
    git(repo.path(), &["init", "-q", "-b", "main"]);
    let metadata = metadata(repo.path(), ClientSurface::CoreHarness);
    assert_eq!(metadata["context_window_id"], json!("window"));
    assert_eq!(
        (metadata.get("thread_source"), metadata.get("workspaces")),
        (None, None)
    );
}

#[test]
fn the_released_cli_sends_the_thread_source_and_each_repositorys_state_in_its_key_order() {
    let repo = tempfile::tempdir().expect("tempdir");
    git(repo.path(), &["init", "-q", "-b", "main"]);
    git(repo.path(), &["commit", "-q", "--allow-empty", "-m", "one"]);
    let head = git(repo.path(), &["rev-parse", "HEAD"]);
    let root = repo.path().display().to_string();

    let clean = metadata(repo.path(), ClientSurface::ExecCli);
    assert_eq!(
        keys(&clean),
        [
            "installation_id",
            "session_id",
            "thread_id",
            "agent_name",
            "turn_id",
            "window_id",
            "request_kind",
            "root_turn_id",
            "thread_source",
            "sandbox",
            "sandbox_mode",
            "auto_review_enabled",
            "node_repl_auto_review_required",
            "node_repl_disabled",
            "workspaces",
            "turn_started_at_unix_ms",
        ]
    );
    assert_eq!(clean["thread_source"], json!("user"));
    assert_eq!(
        clean["workspaces"],
        json!({root.as_str(): {"latest_git_commit_hash": head, "has_changes": false}})
    );

    std::fs::write(repo.path().join("new.txt"), "x").expect("write");
    let sub = repo.path().join("sub");
    std::fs::create_dir(&sub).expect("mkdir");
    let changed = metadata(&sub, ClientSurface::ExecCli);
    assert_eq!(
        changed["workspaces"],
        json!({root.as_str(): {"latest_git_commit_hash": head, "has_changes": true}})
    );
}

#[test]
fn outside_a_repository_the_released_cli_sends_no_workspaces() {
    let dir = tempfile::tempdir().expect("tempdir");
    let metadata = metadata(dir.path(), ClientSurface::ExecCli);
    assert_eq!(
        (
            metadata.get("workspaces"),
            metadata.get("context_window_id")
        ),
        (None, None)
    );
    assert_eq!(metadata["thread_source"], json!("user"));
}
