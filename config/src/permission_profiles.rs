//! Named permission profiles: `[permissions.NAME]` tables and `default_permissions = "NAME"`,
//! as upstream's config.toml spells them. A profile lists file-system entries (a path or a
//! special location such as `:root`, `:workspace_roots`, `:tmpdir` or `:slash_tmp`, each
//! `read`, `write` or `deny`) and whether the network is reachable (`[permissions.NAME.network]
//! enabled`). It compiles to the sandbox policy it amounts to plus the reads it forbids; the
//! built-in profiles `:read-only`, `:workspace` and `:danger-full-access` are the sandbox modes.

use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;

use codex_protocol::ReadOnlyAccess;
use codex_protocol::SandboxMode;
use codex_protocol::SandboxPolicy;
use serde::Deserialize;
use serde::Serialize;

use crate::agents_md::lexically_normalized;
use crate::sandbox_workspace_write::SandboxWorkspaceWrite;

/// Id of the built-in read-only profile.
pub const BUILT_IN_READ_ONLY: &str = ":read-only";
/// Id of the built-in workspace-write profile.
pub const BUILT_IN_WORKSPACE: &str = ":workspace";
/// Id of the built-in profile without a sandbox.
pub const BUILT_IN_DANGER_FULL_ACCESS: &str = ":danger-full-access";

/// What an entry grants (`none` is upstream's older spelling of `deny`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileSystemAccessMode {
    Read,
    Write,
    #[serde(alias = "none")]
    Deny,
}

/// One `[permissions.NAME.filesystem]` value: an access, or (under `:workspace_roots` or a
/// folder) a table of relative sub-paths and their accesses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FilesystemPermissionToml {
    Access(FileSystemAccessMode),
    Scoped(BTreeMap<String, FileSystemAccessMode>),
}

/// `[permissions.NAME.network]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProfileNetworkToml {
    pub enabled: Option<bool>,
}

/// `[permissions.NAME]` as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PermissionProfileToml {
    pub description: Option<String>,
    /// Upstream's profile inheritance; not supported here yet (an error, never ignored).
    pub extends: Option<String>,
    /// Path (or special location) to access.
    pub filesystem: Option<BTreeMap<String, FilesystemPermissionToml>>,
    pub network: Option<ProfileNetworkToml>,
}

impl PermissionProfileToml {
    /// `higher` wins per key; file-system entries merge per path.
    pub(crate) fn overlay(self, higher: PermissionProfileToml) -> PermissionProfileToml {
        let filesystem = match (self.filesystem, higher.filesystem) {
            (Some(mut lower), Some(higher)) => {
                lower.extend(higher);
                Some(lower)
            }
            (lower, higher) => higher.or(lower),
        };
        PermissionProfileToml {
            description: higher.description.or(self.description),
            extends: higher.extends.or(self.extends),
            filesystem,
            network: higher.network.or(self.network),
        }
    }

    /// Makes the relative paths of the entries absolute against `base` (this project's
    /// scripts name paths relative to their folder; config.toml requires absolute ones).
    pub fn resolve_paths(&mut self, base: &Path) {
        if let Some(filesystem) = self.filesystem.take() {
            self.filesystem = Some(
                filesystem
                    .into_iter()
                    .map(|(path, access)| match path.starts_with([':', '~', '/']) {
                        true => (path, access),
                        false => (base.join(&path).display().to_string(), access),
                    })
                    .collect(),
            );
        }
    }
}

/// The profile a session runs under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermissionProfile {
    /// The name `default_permissions` selected (`:read-only` for a built-in profile).
    pub id: String,
    /// What the profile amounts to as a sandbox policy.
    pub sandbox: SandboxPolicy,
    /// Absolute paths the profile forbids reading, in entry order. AGENTS.md discovery refuses
    /// them and the model is told about them.
    pub denied_reads: Vec<PathBuf>,
}

impl PermissionProfile {
    /// The sandbox mode the profile's policy amounts to.
    pub fn sandbox_mode(&self) -> SandboxMode {
        self.sandbox.mode()
    }
}

/// Why a profile cannot be used; the message names the profile and the entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PermissionProfileError {
    #[error("default_permissions refers to undefined profile `{0}`")]
    Undefined(String),
    #[error("permissions profile `{0}` uses a reserved built-in profile prefix")]
    ReservedName(String),
    #[error(
        "permissions profile `{profile}`: filesystem path `{path}` must be absolute or start with `:`"
    )]
    RelativePath { profile: String, path: String },
    #[error("permissions profile `{profile}`: `{path}` cannot be `{access}` here")]
    Unsupported {
        profile: String,
        path: String,
        access: &'static str,
    },
    #[error(
        "permissions profile `{profile}`: glob `{path}` is not supported; name the path itself"
    )]
    Glob { profile: String, path: String },
    #[error(
        "permissions profile `{profile}` extends `{parent}`: `extends` is not supported; list the entries in the profile itself"
    )]
    Extends { profile: String, parent: String },
}

/// Resolves `default_permissions` against the built-in profiles and `profiles`: the sandbox
/// policy and denied reads of the selected one. `:workspace` takes `[sandbox_workspace_write]`,
/// `:workspace_roots` entries name `cwd`.
pub fn resolve_permission_profile(
    name: &str,
    profiles: &BTreeMap<String, PermissionProfileToml>,
    workspace_write: &SandboxWorkspaceWrite,
    cwd: &Path,
) -> Result<PermissionProfile, PermissionProfileError> {
    if let Some(reserved) = profiles.keys().find(|name| name.starts_with(':')) {
        return Err(PermissionProfileError::ReservedName(reserved.clone()));
    }
    let built_in = |sandbox: SandboxPolicy| PermissionProfile {
        id: name.to_string(),
        sandbox,
        denied_reads: Vec::new(),
    };
    match name {
        BUILT_IN_READ_ONLY => return Ok(built_in(SandboxPolicy::new_read_only_policy())),
        BUILT_IN_WORKSPACE => return Ok(built_in(workspace_write.policy())),
        BUILT_IN_DANGER_FULL_ACCESS => return Ok(built_in(SandboxPolicy::DangerFullAccess)),
        _ => {}
    }
    let profile = profiles
        .get(name)
        .ok_or_else(|| PermissionProfileError::Undefined(name.to_string()))?;
    compile(name, profile, cwd)
}

/// What the entries grant, gathered before they become a policy.
#[derive(Default)]
struct Grants {
    read_root: bool,
    read_minimal: bool,
    readable: Vec<PathBuf>,
    write_root: bool,
    writable: Vec<PathBuf>,
    write_cwd: bool,
    write_tmpdir: bool,
    write_slash_tmp: bool,
    denied: Vec<PathBuf>,
}

fn compile(
    name: &str,
    profile: &PermissionProfileToml,
    cwd: &Path,
) -> Result<PermissionProfile, PermissionProfileError> {
    if let Some(parent) = &profile.extends {
        return Err(PermissionProfileError::Extends {
            profile: name.to_string(),
            parent: parent.clone(),
        });
    }
    let mut grants = Grants::default();
    let mut flat: Vec<(String, PathBuf, FileSystemAccessMode)> = Vec::new();
    for (path, permission) in profile.filesystem.iter().flatten() {
        match permission {
            FilesystemPermissionToml::Access(access) => {
                flat.push((path.clone(), PathBuf::from(path), *access))
            }
            FilesystemPermissionToml::Scoped(entries) => {
                let base = match path.as_str() {
                    ":workspace_roots" | ":project_roots" => cwd.to_path_buf(),
                    _ => PathBuf::from(path),
                };
                for (subpath, access) in entries {
                    let joined = match subpath.as_str() {
                        "." => base.clone(),
                        _ => base.join(subpath),
                    };
                    flat.push((format!("{path}/{subpath}"), joined, *access));
                }
            }
        }
    }
    let unsupported =
        |path: &str, access: FileSystemAccessMode| PermissionProfileError::Unsupported {
            profile: name.to_string(),
            path: path.to_string(),
            access: match access {
                FileSystemAccessMode::Read => "read",
                FileSystemAccessMode::Write => "write",
                FileSystemAccessMode::Deny => "deny",
            },
        };
    for (written, path, access) in flat {
        // Paths are compared (and shown) as the cwd is: without `.` and `..` components.
        let path = lexically_normalized(&path);
        if written.contains(['*', '?', '[', ']']) {
            return Err(PermissionProfileError::Glob {
                profile: name.to_string(),
                path: written,
            });
        }
        use FileSystemAccessMode::Deny;
        use FileSystemAccessMode::Read;
        use FileSystemAccessMode::Write;
        match (written.as_str(), access) {
            (":root", Read) => grants.read_root = true,
            (":root", Write) => grants.write_root = true,
            (":minimal", Read) => grants.read_minimal = true,
            (":workspace_roots" | ":project_roots", Write) => grants.write_cwd = true,
            (":workspace_roots" | ":project_roots", Read) => grants.readable.push(cwd.into()),
            (":tmpdir", Write) => grants.write_tmpdir = true,
            (":slash_tmp", Write) => grants.write_slash_tmp = true,
            (special, access) if special.starts_with(':') && !special.contains('/') => {
                return Err(unsupported(special, access));
            }
            (_, _) if !path.is_absolute() => {
                return Err(PermissionProfileError::RelativePath {
                    profile: name.to_string(),
                    path: written,
                });
            }
            (_, Read) => grants.readable.push(path),
            (_, Write) if path == cwd => grants.write_cwd = true,
            (_, Write) => grants.writable.push(path),
            (_, Deny) => grants.denied.push(path),
        }
    }
    let network_access = profile
        .network
        .as_ref()
        .and_then(|network| network.enabled)
        .unwrap_or(false);
    let read_access = match grants.read_root {
        true => ReadOnlyAccess::FullAccess,
        false => ReadOnlyAccess::Restricted {
            include_platform_defaults: grants.read_minimal,
            readable_roots: grants.readable,
        },
    };
    let writes = grants.write_cwd
        || grants.write_tmpdir
        || grants.write_slash_tmp
        || !grants.writable.is_empty();
    let sandbox = match (grants.write_root, writes) {
        (true, _) => SandboxPolicy::DangerFullAccess,
        (false, true) => SandboxPolicy::WorkspaceWrite {
            writable_roots: grants.writable,
            read_only_access: read_access,
            network_access,
            exclude_tmpdir_env_var: !grants.write_tmpdir,
            exclude_slash_tmp: !grants.write_slash_tmp,
        },
        (false, false) => SandboxPolicy::ReadOnly {
            access: read_access,
            network_access,
        },
    };
    Ok(PermissionProfile {
        id: name.to_string(),
        sandbox,
        denied_reads: grants.denied,
    })
}

#[cfg(test)]
#[path = "permission_profiles_tests.rs"]
mod tests;
