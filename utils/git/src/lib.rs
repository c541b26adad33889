//! What a thread records about the git repository it runs in, read with the `git` command line
//! as upstream reads it (codex-rs/git-utils/src/info.rs, status.rs):
//!
//! - [`git_info`]: `session_meta.git` (HEAD's commit, the branch, the `origin` URL);
//! - [`workspace_git`]: the turn metadata's `workspaces` entry (the repository root, HEAD's
//!   commit, whether the work tree has changes).
//!
//! Every command runs with a time limit and repository hooks off; a failing or missing `git`
//! yields `None` for what it would have told, never an error.

use std::io::Read;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use serde::Serialize;

/// How long one git command may take.
const GIT_TIMEOUT: Duration = Duration::from_secs(5);
/// How often a running command is polled.
const POLL_INTERVAL: Duration = Duration::from_millis(5);

/// `session_meta.git`: keys are left out when git could not tell them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct GitInfo {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_hash: Option<String>,
    /// `None` on a detached HEAD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository_url: Option<String>,
}

/// One entry of the turn metadata's `workspaces`, keyed by the repository root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceGit {
    pub root: PathBuf,
    pub latest_git_commit_hash: Option<String>,
    pub has_changes: Option<bool>,
}

/// The repository `cwd` is in, or `None` outside one (or without `git`).
pub fn git_info(cwd: &Path) -> Option<GitInfo> {
    run_git(&["rev-parse", "--git-dir"], cwd)?;
    Some(GitInfo {
        commit_hash: head_commit(cwd),
        branch: run_git(&["rev-parse", "--abbrev-ref", "HEAD"], cwd)
            .filter(|branch| branch != "HEAD"),
        repository_url: run_git(&["remote", "get-url", "origin"], cwd),
    })
}

/// The workspace entry of the repository holding `cwd` (found by its `.git` entry, as upstream
/// finds it), or `None` outside one or when git tells nothing about it.
pub fn workspace_git(cwd: &Path) -> Option<WorkspaceGit> {
    let root = repository_root(cwd)?;
    let latest_git_commit_hash = head_commit(cwd);
    let has_changes = run_git_output(&["status", "--porcelain"], cwd).map(|out| !out.is_empty());
    (latest_git_commit_hash.is_some() || has_changes.is_some()).then_some(WorkspaceGit {
        root,
        latest_git_commit_hash,
        has_changes,
    })
}

/// The nearest ancestor of `cwd` (itself included) holding a `.git` file or folder.
pub fn repository_root(cwd: &Path) -> Option<PathBuf> {
    cwd.ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

fn head_commit(cwd: &Path) -> Option<String> {
    run_git(&["rev-parse", "HEAD"], cwd).filter(|hash| !hash.is_empty())
}

/// A successful command's standard output, trimmed.
fn run_git(args: &[&str], cwd: &Path) -> Option<String> {
    run_git_output(args, cwd).map(|out| out.trim().to_string())
}

/// A successful command's standard output as it is.
fn run_git_output(args: &[&str], cwd: &Path) -> Option<String> {
    let mut child = Command::new("git")
        .args(["-c", "core.hooksPath=/dev/null"])
        .args(args)
        .current_dir(cwd)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    // Read while the command runs, so a long output cannot fill the pipe and stall it.
    let mut pipe = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut stdout = String::new();
        pipe.read_to_string(&mut stdout).ok().map(|_| stdout)
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < GIT_TIMEOUT => std::thread::sleep(POLL_INTERVAL),
            Ok(None) | Err(_) => {
                tracing::warn!("git {} took too long in {}", args.join(" "), cwd.display());
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    };
    let stdout = reader.join().ok()??;
    status.success().then_some(stdout)
}

#[cfg(test)]
#[path = "lib_tests.rs"]
mod tests;
