//! Project trust: `[projects."PATH"] trust_level = "trusted" | "untrusted"`.
//!
//! The project a session runs in is the `[projects]` entry named by its cwd, else by the root of
//! the git repository the cwd is in (for a linked worktree, the main repository's root), each
//! looked up by its canonical path first and then as written, as upstream does
//! (`get_active_project` in `codex-rs/config/src/config_toml.rs` at the reference). What trust
//! changes: an untrusted project's AGENTS.md files are left out (the global instructions stay),
//! and a project with a trust decision defaults `sandbox_mode` to `workspace-write` and
//! `approval_policy` to `on-request` (trusted) or `untrusted` (untrusted).

use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;

use codex_protocol::AskForApproval;
use codex_protocol::SandboxMode;
use codex_protocol::TrustLevel;
use serde::Deserialize;
use serde::Serialize;

use crate::agents_md::lexically_normalized;

/// One `[projects."PATH"]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProjectToml {
    pub trust_level: Option<TrustLevel>,
}

impl ProjectToml {
    /// `higher` wins where it sets a value.
    pub(crate) fn overlay(self, higher: ProjectToml) -> ProjectToml {
        ProjectToml {
            trust_level: higher.trust_level.or(self.trust_level),
        }
    }
}

/// The `[projects]` entry a session's cwd belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActiveProject {
    /// The `[projects]` key that matched; `None` when no entry did.
    pub key: Option<String>,
    /// `None`: no trust decision (no entry, or an entry without `trust_level`).
    pub trust_level: Option<TrustLevel>,
}

impl ActiveProject {
    /// The entry of `projects` for `cwd` (absolute), else for its git repository's root.
    pub fn resolve(projects: &BTreeMap<String, ProjectToml>, cwd: &Path) -> ActiveProject {
        if projects.is_empty() {
            return ActiveProject::default();
        }
        let found = lookup(projects, cwd)
            .or_else(|| git_root_for_trust(cwd).and_then(|root| lookup(projects, &root)));
        match found {
            Some((key, project)) => ActiveProject {
                key: Some(key.clone()),
                trust_level: project.trust_level,
            },
            None => ActiveProject::default(),
        }
    }

    /// `sandbox_mode` when none is configured: `workspace-write` for a project with a trust
    /// decision (upstream's Windows exception aside), else the default.
    pub fn default_sandbox_mode(&self) -> SandboxMode {
        match self.trust_level {
            Some(TrustLevel::Trusted | TrustLevel::Untrusted) => SandboxMode::WorkspaceWrite,
            None => SandboxMode::default(),
        }
    }

    /// `approval_policy` when none is configured: `on-request` for a trusted project,
    /// `untrusted` for an untrusted one, else the default.
    pub fn default_approval_policy(&self) -> AskForApproval {
        match self.trust_level {
            Some(TrustLevel::Trusted) => AskForApproval::OnRequest,
            Some(TrustLevel::Untrusted) => AskForApproval::UnlessTrusted,
            None => AskForApproval::default(),
        }
    }

    /// Whether the project's AGENTS.md files are read.
    pub fn project_docs(&self) -> ProjectDocsPolicy {
        match self.trust_level {
            Some(TrustLevel::Untrusted) => ProjectDocsPolicy::SkipUntrustedProject,
            Some(TrustLevel::Trusted) | None => ProjectDocsPolicy::Discover,
        }
    }
}

/// Whether AGENTS.md discovery reads the project's files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProjectDocsPolicy {
    /// Global instructions, then the project docs from the project root to the cwd.
    #[default]
    Discover,
    /// The project is untrusted: only the global instructions.
    SkipUntrustedProject,
}

/// The entry for `path`: its canonical spelling first, then as written.
fn lookup<'a>(
    projects: &'a BTreeMap<String, ProjectToml>,
    path: &Path,
) -> Option<(&'a String, &'a ProjectToml)> {
    let written = path.to_string_lossy().into_owned();
    let canonical = std::fs::canonicalize(path)
        .map(|path| path.to_string_lossy().into_owned())
        .unwrap_or_else(|_| written.clone());
    [canonical, written]
        .iter()
        .find_map(|key| projects.get_key_value(key.as_str()))
}

/// The root of the git repository `cwd` is in, for the trust lookup: the nearest ancestor with
/// a `.git` folder holding `HEAD`; a `.git` file (a linked worktree) points at
/// `<repository>/.git/worktrees/<name>`, and the repository's root is returned.
fn git_root_for_trust(cwd: &Path) -> Option<PathBuf> {
    let mut dir = Some(cwd);
    while let Some(candidate) = dir {
        let dot_git = candidate.join(".git");
        match std::fs::symlink_metadata(&dot_git) {
            Ok(metadata) if metadata.is_dir() && dot_git.join("HEAD").exists() => {
                return Some(candidate.to_path_buf());
            }
            Ok(metadata) if metadata.is_file() => return worktree_main_root(candidate, &dot_git),
            Ok(_) | Err(_) => dir = candidate.parent(),
        }
    }
    None
}

/// The main repository's root for the worktree at `root` whose `.git` file is `dot_git`.
fn worktree_main_root(root: &Path, dot_git: &Path) -> Option<PathBuf> {
    let text = codex_utils_fs::read_regular_to_string(dot_git).ok()?;
    let git_dir = text.lines().find_map(|line| line.strip_prefix("gitdir:"))?;
    let git_dir = lexically_normalized(&root.join(git_dir.trim()));
    let worktrees = git_dir.parent()?;
    if worktrees.file_name()? != "worktrees" {
        return None;
    }
    let common_dir = worktrees.parent()?;
    if common_dir.file_name()? != ".git" {
        return None;
    }
    common_dir.parent().map(Path::to_path_buf)
}

#[cfg(test)]
#[path = "projects_tests.rs"]
mod tests;
