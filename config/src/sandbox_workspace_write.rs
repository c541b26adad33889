//! `[sandbox_workspace_write]`: what a `workspace-write` sandbox grants beyond the working
//! directory (extra writable roots, network access) and which temporary directories it leaves
//! out. The table only matters while `sandbox_mode` is `workspace-write`; under other modes it is
//! read and has no effect, as upstream does.

use std::path::Path;
use std::path::PathBuf;

use codex_protocol::ReadOnlyAccess;
use codex_protocol::SandboxMode;
use codex_protocol::SandboxPolicy;
use serde::Deserialize;
use serde::Serialize;

use crate::Config;

/// `[sandbox_workspace_write]` as one layer wrote it; `None` means "not set here".
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SandboxWorkspaceWriteToml {
    /// Folders writable besides the cwd (relative ones resolve against the layer's folder).
    pub writable_roots: Option<Vec<PathBuf>>,
    pub network_access: Option<bool>,
    /// Leave `$TMPDIR` out of the writable roots.
    pub exclude_tmpdir_env_var: Option<bool>,
    /// Leave `/tmp` out of the writable roots.
    pub exclude_slash_tmp: Option<bool>,
}

impl SandboxWorkspaceWriteToml {
    /// `higher` wins per key.
    pub(crate) fn overlay(self, higher: SandboxWorkspaceWriteToml) -> SandboxWorkspaceWriteToml {
        let SandboxWorkspaceWriteToml {
            writable_roots,
            network_access,
            exclude_tmpdir_env_var,
            exclude_slash_tmp,
        } = higher;
        SandboxWorkspaceWriteToml {
            writable_roots: writable_roots.or(self.writable_roots),
            network_access: network_access.or(self.network_access),
            exclude_tmpdir_env_var: exclude_tmpdir_env_var.or(self.exclude_tmpdir_env_var),
            exclude_slash_tmp: exclude_slash_tmp.or(self.exclude_slash_tmp),
        }
    }

    /// Makes relative writable roots absolute against `base`.
    pub fn resolve_paths(&mut self, base: &Path) {
        for root in self.writable_roots.iter_mut().flatten() {
            if root.is_relative() {
                *root = base.join(&*root);
            }
        }
    }

    /// The resolved settings: what is not set is off (no extra roots, no network, both
    /// temporary directories writable).
    pub(crate) fn resolve(self) -> SandboxWorkspaceWrite {
        SandboxWorkspaceWrite {
            writable_roots: self.writable_roots.unwrap_or_default(),
            network_access: self.network_access.unwrap_or(false),
            exclude_tmpdir_env_var: self.exclude_tmpdir_env_var.unwrap_or(false),
            exclude_slash_tmp: self.exclude_slash_tmp.unwrap_or(false),
        }
    }
}

/// The resolved `[sandbox_workspace_write]` settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SandboxWorkspaceWrite {
    /// Absolute folders writable besides the cwd, in the order written.
    pub writable_roots: Vec<PathBuf>,
    pub network_access: bool,
    pub exclude_tmpdir_env_var: bool,
    pub exclude_slash_tmp: bool,
}

impl SandboxWorkspaceWrite {
    /// The `workspace-write` policy these settings describe.
    pub fn policy(&self) -> SandboxPolicy {
        SandboxPolicy::WorkspaceWrite {
            writable_roots: self.writable_roots.clone(),
            read_only_access: ReadOnlyAccess::FullAccess,
            network_access: self.network_access,
            exclude_tmpdir_env_var: self.exclude_tmpdir_env_var,
            exclude_slash_tmp: self.exclude_slash_tmp,
        }
    }
}

impl Config {
    /// The sandbox policy a session runs with: the permission profile's, else the mode's
    /// default policy, where a `workspace-write` sandbox takes `[sandbox_workspace_write]`.
    pub fn sandbox_policy(&self) -> SandboxPolicy {
        if let Some(profile) = &self.permission_profile {
            return profile.sandbox.clone();
        }
        match self.sandbox_mode {
            SandboxMode::WorkspaceWrite => self.sandbox_workspace_write.policy(),
            SandboxMode::ReadOnly | SandboxMode::DangerFullAccess => {
                SandboxPolicy::from_mode(self.sandbox_mode)
            }
        }
    }

    /// The paths the permission profile forbids reading (none without a profile).
    pub fn denied_reads(&self) -> &[PathBuf] {
        self.permission_profile
            .as_ref()
            .map_or(&[], |profile| profile.denied_reads.as_slice())
    }
}

#[cfg(test)]
#[path = "sandbox_workspace_write_tests.rs"]
mod tests;
