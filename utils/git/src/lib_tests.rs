use std::path::Path;
use std::process::Command;

use pretty_assertions::assert_eq;

use super::*;

/// `git` in `dir` with an identity and configuration of its own.
fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@localhost"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    git(dir.path(), &["init", "-q", "-b", "main"]);
    std::fs::write(dir.path().join("a.txt"), "a\n").expect("write");
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "one"]);
    dir
}

fn head(dir: &Path) -> String {
    let out = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(dir)
        .output()
        .expect("git runs");
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .trim()
        .to_string()
}

#[test]
fn a_clean_repository_has_no_changes() {
    let repo = repository();
    let workspace = workspace_git(repo.path()).expect("a repository");
    assert_eq!(
        workspace,
        WorkspaceGit {
            root: repo.path().to_path_buf(),
            latest_git_commit_hash: Some(head(repo.path())),
            has_changes: Some(false),
        }
    );
}

#[test]
fn an_edited_file_is_a_change_seen_from_a_subfolder_too() {
    let repo = repository();
    std::fs::write(repo.path().join("a.txt"), "b\n").expect("write");
    let sub = repo.path().join("sub");
    std::fs::create_dir(&sub).expect("mkdir");
    let workspace = workspace_git(&sub).expect("a repository");
    assert_eq!(workspace.root, repo.path());
    assert_eq!(workspace.has_changes, Some(true));
}

#[test]
fn outside_a_repository_there_is_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    assert_eq!(workspace_git(dir.path()), None);
    assert_eq!(git_info(dir.path()), None);
}

#[test]
fn git_info_names_the_commit_and_branch_and_leaves_out_a_missing_origin() {
    let repo = repository();
    let info = git_info(repo.path()).expect("a repository");
    assert_eq!(
        serde_json::to_value(&info).expect("serializes"),
        serde_json::json!({"commit_hash": head(repo.path()), "branch": "main"})
    );
}
